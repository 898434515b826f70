"""The stock box's turn (one stock's figures, its cited queries and trace) and its number words:
what the price sections (`price_figures.py`) and the valuation sections (`valuations.py`) write
with, and what `question.py` combines across stocks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from dateutil.relativedelta import relativedelta
from psycopg_pool import ConnectionPool

from agents.etf.set_answers import fmt_krw
from agents.evidence import Stopwatch, make_citation
from agents.formatting import amount
from agents.stock.data import price_dataset
from agents.stock.templates import price as money  # a price in its currency
from agents.understanding import QuestionFrame
from agents.understanding.frame import measure_name
from data_access import figures as fig
from data_access.contracts import StructuredCitation, TraceStep
from data_access.postgres import fetch_all

PRICES = """SELECT trade_date, open, high, low, close, volume FROM stock_prices
WHERE security_id = %(sid)s AND trade_date <= %(as_of)s AND trade_date >= %(start)s
ORDER BY trade_date"""


BASE_SLACK_DAYS = 14  # fetched before a return's base date: the last bar on or before it


@dataclass
class Turn:
    frame: QuestionFrame
    stock: dict[str, Any]
    as_of: str
    lang: str
    daily: bool = True  # the series' bars are daily (an imported weekly/monthly file is not)
    lines: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # something asked was not answered
    info: list[str] = field(default_factory=list)  # said beside a whole answer ('휴장일이라 …')
    leads: list[str] = field(default_factory=list)  # said first: the yes or no asked
    citations: list[StructuredCitation] = field(default_factory=list)
    trace: list[TraceStep] = field(default_factory=list)
    # the figures the lines state, by measure ('close', 'return', 'per' …): two stocks' gap
    figures: dict[str, float] = field(default_factory=dict)

    def ko(self) -> bool:
        return self.lang == "ko"

    def query(self, name: str, sql: str, params: dict[str, Any], dataset: str, table: str,
              pool: ConnectionPool | None) -> list[dict[str, Any]]:  # fmt: skip
        watch = Stopwatch()
        rows = [dict(r) for r in fetch_all(sql, params, pool=pool)]
        self.citations.append(make_citation(
            dataset_code=dataset, table=table, query=sql, params=params, row_count=len(rows),
            filters={"security_id": params["sid"]} if "sid" in params else {
                k: params[k] for k in ("sectors", "country", "series") if k in params},
            start=params.get("start"),
            end=params.get("as_of"), as_of_date=params.get("as_of")))  # fmt: skip
        self.trace.append(TraceStep(step=len(self.trace) + 1, kind="tool", name=name,
                                    arguments={k: str(v) for k, v in params.items()},
                                    observation=f"{len(rows)}행", duration_ms=watch.ms))  # fmt: skip
        return rows


# the figures set side by side across stocks (a pick, a gap, a total), in the frame's words
GAP_WORDS = {k: (measure_name(k, "ko"), measure_name(k, "en")) for k in (
    "close", "return", "per", "pbr", "volume", "dividend_yield", "market_cap", "eps")}  # fmt: skip


IN_CURRENCY = frozenset({"close", "market_cap", "eps"})  # never added across currencies


ADDITIVE = frozenset({"market_cap", "volume"})  # a sum of two stocks' means something


def figure_text(key: str, value: float, turn: Turn) -> str:
    times, shares = ("배", "주") if turn.ko() else ("x", " shares")
    unit = {"return": "%", "dividend_yield": "%", "per": times, "pbr": times}
    if key in ("close", "open", "eps", "high", "low", "high_low"):
        return money(value, turn.stock["currency"])
    if key in ("market_cap", "trading_value"):
        return amount(value, turn.stock["currency"])
    if key == "return":  # a move is signed ('+64.03%')
        return f"{value:+,.2f}%"
    return f"{value:,.2f}{unit[key]}" if key != "volume" else f"{value:,.0f}{shares}"


_FX = """SELECT obs_date, value FROM macro_observations WHERE series_code = %(series)s
AND obs_date <= %(as_of)s ORDER BY obs_date DESC LIMIT 1"""


_ASKS_WON = re.compile(r"(?:조|억|만|천)?\s*원(?:화)?(?:으로|로|는|은|\?|$|\s)|\bin (?:krw|won)\b",
                       re.IGNORECASE)  # fmt: skip


def in_won(turn: Turn, value: float, pool: ConnectionPool | None) -> str:
    """'NVIDIA 시총 몇 조 원?', 'market cap in KRW': a dollar figure also in won, at the USD/KRW
    close of the day."""
    if turn.stock["currency"] != "USD" or not _ASKS_WON.search(turn.frame.question):
        return ""
    rows = turn.query("macro_observations", _FX, {"series": "KR_USDKRW", "as_of": turn.as_of},
                      "KR_USDKRW", "macro_observations", pool)  # fmt: skip
    if not rows:
        return ""
    fx, won = float(rows[0]["value"]), value * float(rows[0]["value"])
    if not turn.ko():
        return f" (≈ KRW {won / 1e12:,.1f} trillion at {fx:,.2f} KRW per USD)" if won >= 1e12 else (
            f" (≈ KRW {won:,.0f} at {fx:,.2f} KRW per USD)")  # fmt: skip
    return f" (≈ {fmt_krw(won) if won >= 1e8 else f'{won:,.0f}원'} · 원/달러 {fx:,.2f})"


def fetch_bars(turn: Turn, pool: ConnectionPool | None, start: date) -> list[dict[str, Any]]:
    """The stock's daily bars from `start` to the as-of day: one cited query."""
    sid = turn.stock["security_id"]
    return turn.query("stock_prices", PRICES, {"sid": sid, "as_of": turn.as_of,
                      "start": start.isoformat()}, price_dataset(sid), "stock_prices", pool)  # fmt: skip


def after_base(rows: list[dict[str, Any]], p: fig.Period, *,
               with_base: bool = False) -> list[dict[str, Any]]:  # fmt: skip
    """The bars inside the period: after its base bar, or from it (`with_base`: the move into
    the period's first day needs the close before it)."""
    if not rows:
        return []
    base = fig.base_date(rows[-1]["trade_date"], p)
    return [r for r in rows if r["trade_date"] > base or (with_base and r["trade_date"] == base)]


def fetch_prices(turn: Turn, pool: ConnectionPool | None, months: float) -> list[dict[str, Any]]:
    start = date.fromisoformat(turn.as_of) - relativedelta(months=int(months) + 1)
    rows = fetch_bars(turn, pool, start)
    if not rows:
        return rows
    last = rows[-1]["trade_date"]
    base = last - (relativedelta(weeks=1) if months < 1 else relativedelta(months=int(months)))
    return [r for r in rows if r["trade_date"] >= base]


def period_words(turn: Turn, default: float) -> tuple[float, str]:
    period = turn.frame.period
    months = period.months if period else default
    named = fig.period_for_months(months)  # '1주' … '1년': the figures module's period names
    if named is None and period is not None and period.surface:
        return months, period.surface  # '올해', '연초 이후': as asked, not '10.9667개월'
    ko, en = (named.ko, named.en) if named else (f"{months:g}개월", f"{months:g} months")
    return months, ko if turn.ko() else en


def fetch_period_bars(turn: Turn, pool: ConnectionPool | None,
                      default: tuple[str, float]) -> tuple[fig.Period, list[dict[str, Any]]]:  # fmt: skip
    """The asked calendar period (else `default`) and the bars from a little before its base
    date to the as-of date: the figures module reads its windows off them."""
    period, basis = turn.frame.period, turn.frame.operation.change_basis
    default = {"yoy": ("1y", 12.0), "mom": ("1m", 1.0)}.get(basis or "", default)  # '1년 전 대비'
    p = fig.period_named(*((period.label, period.months) if period else default))
    start = fig.base_date(date.fromisoformat(turn.as_of), p) - timedelta(days=BASE_SLACK_DAYS)
    return p, fetch_bars(turn, pool, start)
