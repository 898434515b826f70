"""The data behind the ETF tools: graph lookups and PostgreSQL prices, with a citation per query.

`EtfData` returns the seed-000 shapes as plain Python (dicts/lists); `tools.py` turns them into
smolagents tools that answer JSON text. Unknown codes raise `UnknownEntity` carrying the nearest
matches, so the tool can answer with suggestions instead of an empty result.
"""

from __future__ import annotations

import logging
import math
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from decimal import Decimal
from typing import Any, Literal

from psycopg_pool import ConnectionPool

from agents.etf import queries as q
from agents.etf.set_answers import daily_amount, daily_words
from agents.evidence import EvidenceCollector, make_citation
from agents.window_answer import WindowAsk, describe, window_labels
from data_access import figures as fig
from data_access.errors import ToolInputError
from data_access.graph.base import GraphStore
from data_access.postgres import fetch_all

logger = logging.getLogger(__name__)

SEARCH_LIMIT = 10
TOP_HOLDINGS = 10
COMPARE_HOLDINGS = 5
SIMILAR_LIMIT = 10
# The tools' price periods: data_access.figures' calendar periods
PRICE_PERIODS = ("1w", "1m", "3m", "6m", "1y", "ytd", "mtd")
_BASE_SLACK = "14 days"  # fetched before the longest base date: the last bar on or before it
CHANGE_PERIODS = ("1d", "1w", "1m", "3m", "6m", "1y")
INFO_RETURN_PERIODS = ("1w", "1m", "3m")
_ETF_CODE = re.compile(r"^[0-9A-Z]{6}$")
_STOCK_CODE = re.compile(r"^(?:(?:KR|US):)?[0-9A-Z.\-]{1,12}$")

GRAPH_ETF = "graph:ETF"
GRAPH_STOCK = "graph:Stock"
GRAPH_HOLDS = "graph:(ETF)-[:HOLDS]->(Stock)"


class UnknownEntity(ToolInputError):
    """A code or name that is not in the data; `suggestions` are the nearest known ones."""

    def __init__(self, message: str, suggestions: list[dict[str, Any]]) -> None:
        super().__init__(message)
        self.suggestions = suggestions


def number(value: Any, digits: int | None = None) -> Any:
    """Decimal/float as a JSON number: an int when integral, else rounded to `digits`."""
    if value is None:
        return None
    if isinstance(value, Decimal):
        value = float(value)
    if isinstance(value, float):
        if digits is not None:
            value = round(value, digits)
        return int(value) if value.is_integer() else value
    return value


def iso(value: Any) -> str | None:
    return value.isoformat() if isinstance(value, date) else (str(value) if value else None)


def change_rate(start: Any, end: Any) -> float | None:
    if start in (None, 0) or end is None:
        return None
    return round((float(end) / float(start) - 1.0) * 100.0, 2)


def check_etf_code(code: str) -> str:
    code = (code or "").strip().upper()
    if not _ETF_CODE.match(code):
        raise ToolInputError(f"ETF 코드는 6자리입니다 (예: '069500'). 받은 값: {code!r}")
    return code


# The statistics of one ETF's window the price tool computes (data_access.figures), and the
# window's units: N sessions or the calendar days, weeks or months up to the last session
SESSION_STATISTICS = fig.WINDOW_STATISTICS
SESSION_FIELDS = ("close", "nav", "volume", "market_cap", "net_assets", "trading_value", "premium")
STOCK_FIELDS = ("close", "high", "low", "volume", "high_low")  # get_stock_prices' window
WINDOW_UNITS = fig.WINDOW_UNITS


SummaryPart = Literal["ends", "range", "all"]
SUMMARY_PARTS = ("ends", "range", "all")
MAX_CODES_PER_CALL = 5000  # every ETF listed in Korea several times over


@dataclass(frozen=True)
class _Summaries:
    """One set query's summaries by code, with what its citation says (rows, dates)."""

    found: dict[str, dict[str, Any]]
    row_count: int
    start: str | None
    end: str | None


class _SummaryCache:
    """The last few set queries' summaries, per database, price data version, query and codes
    (a whole-set query's 900 summaries take about 2 MB)."""

    def __init__(self, size: int = 8) -> None:
        self._size = size
        self._items: OrderedDict[tuple[Any, ...], _Summaries] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[Any, ...]) -> _Summaries | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: tuple[Any, ...], value: _Summaries) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)


_SUMMARIES = _SummaryCache(10)
# The windows whole-set questions read most ('1년 수익률 상위', '올해', '어제' and '순자산', '52주
# 신고가', '거래량 급증' (a week against 3 months), '거래대금'): every ETF's summaries over them
# are read in the background at start-up (agents.warmup), so a process's first such question
# does not wait for a 900-ETF aggregation
WARM_SET_WINDOWS: tuple[tuple[str, SummaryPart], ...] = (
    ("1y", "ends"), ("ytd", "ends"), ("1w", "ends"), ("1y", "range"), ("1w", "range"),
    ("3m", "range"), ("1m", "all"),
)  # fmt: skip


def warm_set_summaries(pool: ConnectionPool, store: GraphStore) -> None:
    """Read every ETF's summaries over the common windows into the per-process cache (the
    set is the graph's, as the sandbox reads it; the cache key does not depend on its order)."""
    codes = [str(r["code"]) for r in store.read("MATCH (e:ETF) RETURN e.code AS code", {})]
    if codes:
        data = EtfData(store, pool)
        for period, part in WARM_SET_WINDOWS:
            data.etf_price_summaries(codes, period, part)


def _pool_key(pool: ConnectionPool | None) -> str:
    if pool is None:
        return "default"
    return pool.conninfo if isinstance(pool.conninfo, str) else str(pool.conninfo)


def check_etf_codes(codes: str) -> list[str]:
    """'069500, 102110,…' as distinct checked codes (a set's price summaries, one query)."""
    found = list(dict.fromkeys(check_etf_code(c) for c in codes.split(",") if c.strip()))
    if not found or len(found) > MAX_CODES_PER_CALL:
        raise ToolInputError(
            f"ETF 코드를 1~{MAX_CODES_PER_CALL}개 주세요 (받은 개수: {len(found)})."
        )
    return found


_LABEL = re.compile(r"(\d+)([dwmy])")
_UNITS = {"d": "day", "w": "week", "m": "month", "y": "year"}
_SAID = {"1d": ("1일", "1 day"), "ytd": ("연초 이후", "year to date"),
         "mtd": ("전월 말 이후", "month to date")}  # fmt: skip


def readable(period: str | None) -> bool:
    """Whether the price tool reads a period: a named one, or N days, weeks, months or years
    up to a year ('45d', '10w', '5m': data_access.figures' calendar periods)."""
    found = _LABEL.fullmatch(period or "")
    return period in PRICE_PERIODS or bool(found) and 1 <= fig.Window(
        int(found.group(1)), _UNITS[found.group(2)]).calendar_days() - 15 <= 380  # type: ignore[union-attr]  # fmt: skip


def period_words(period: str, lang: str) -> str:
    """'5개월' / '5 months', '연초 이후' / 'year to date': a price period said."""
    if period in _SAID:
        return _SAID[period][lang != "ko"]
    named, found = fig.period_named(period, 0), _LABEL.fullmatch(period)
    if lang == "ko" or named.key in fig.PERIODS or not found:
        return named.ko if lang == "ko" else named.en
    n = int(found.group(1))
    return f"{n} {_UNITS[found.group(2)]}{'s' if n != 1 else ''}"


def check_period(period: str, allowed: tuple[str, ...] | dict[str, str]) -> str:
    period = (period or "").strip().lower()
    if "1y" in allowed and readable(period):
        return period
    if "1y" in allowed and period.startswith(fig.SINCE):  # 'since:2025-12-22': a price window
        try:  # from a named day, for a span older than the year ('작년 수익률')
            date.fromisoformat(period.removeprefix(fig.SINCE))
            return period
        except ValueError:
            pass
    if period not in allowed:
        more = " 또는 1년 이내의 N일·N주·N개월('45d', '10w', '5m')" if "1y" in allowed else ""
        raise ToolInputError(f"period는 {', '.join(allowed)}{more} 중 하나여야 합니다. "
                             f"받은 값: {period!r}")  # fmt: skip
    return period


@dataclass
class EtfData:
    """Seed-000 lookups on one graph store and one PostgreSQL pool; cites every query."""

    store: GraphStore
    pool: ConnectionPool | None = None
    collector: EvidenceCollector | None = None
    as_of_date: str | None = None
    _cache: dict[str, Any] = field(default_factory=dict, repr=False)

    # ------------------------------------------------------------ query helpers

    def run_graph(self, cypher: str, params: dict[str, Any], dataset: str, table: str,
               **cite: Any) -> list[dict[str, Any]]:  # fmt: skip
        rows = self.store.read(cypher, params)
        self.cite(dataset, table, cypher, params, len(rows), **cite)
        return rows

    def run_sql(self, sql: str, params: Any, dataset: str, table: str,
             **cite: Any) -> list[dict[str, Any]]:  # fmt: skip
        rows = fetch_all(sql, params, self.pool)
        self.cite(dataset, table, sql, params, len(rows), **cite)
        return rows

    def cite(self, dataset: str, table: str, query: str, params: Any, row_count: int,
              **cite: Any) -> None:  # fmt: skip
        if self.collector is None:
            return
        params = params if isinstance(params, dict) else {"params": list(params or [])}
        filters = cite.pop("filters", None)
        self.collector.add_citation(
            make_citation(
                dataset_code=dataset, table=table, query=query, params=params,
                row_count=row_count, filters=params if filters is None else filters,
                as_of_date=cite.pop("as_of_date", self.as_of_date), **cite,
            )
        )  # fmt: skip

    # ------------------------------------------------------------ identities

    def suggest(self, sql: str, text: str, limit: int = 5) -> list[dict[str, Any]]:
        """The nearest known names (SUGGEST_ETFS or SUGGEST_STOCKS)."""
        rows = fetch_all(sql, {"q": text, "limit": limit}, self.pool)
        return [{"code": r["code"], "name": r["name"]} for r in rows if r["score"] > 0.1]

    def require_etf(self, code: str) -> dict[str, Any]:
        """The ETF's basic row (graph), or UnknownEntity with the nearest ETFs."""
        raw = (code or "").strip()
        try:
            code = check_etf_code(raw)
        except ToolInputError as e:
            raise UnknownEntity(str(e), self.suggest(q.SUGGEST_ETFS, raw)) from e
        rows = self.run_graph(q.ETF_BASIC, {"code": code}, "KR_ETF_MASTER", GRAPH_ETF)
        if not rows:
            raise UnknownEntity(
                f"ETF 코드 '{code}'를 찾을 수 없습니다.", self.suggest(q.SUGGEST_ETFS, code)
            )
        return rows[0]

    def require_stock(self, code: str) -> dict[str, Any]:
        raw = (code or "").strip()
        if not _STOCK_CODE.match(raw.upper()):
            raise UnknownEntity(
                f"종목 코드 형식이 아닙니다: {raw!r} (예: '005930', 'AAPL')",
                self.suggest(q.SUGGEST_STOCKS, raw),
            )
        native = raw.upper().split(":", 1)[-1]
        rows = fetch_all(q.STOCK_BY_CODE, (native, raw.upper()), self.pool)
        rows = [r for r in rows if r["security_id"] == raw.upper()] or rows
        if not rows:
            raise UnknownEntity(
                f"종목 코드 '{raw}'를 찾을 수 없습니다.", self.suggest(q.SUGGEST_STOCKS, raw)
            )
        # A bare 6-digit code is Korean; prefer KR when a code exists in two markets.
        rows.sort(key=lambda r: 0 if r["security_id"].startswith("KR:") else 1)
        return rows[0]

    # ------------------------------------------------------------ searches

    def etf_search(self, query: str) -> list[dict[str, Any]]:
        rows = self._search(query, q.ETF_SEARCH, GRAPH_ETF, "ETF가", q.SUGGEST_ETFS)
        return [
            {"code": r["code"], "name": r["name"], "expense_ratio": number(r["expense_ratio"], 4)}
            for r in rows
        ]

    def stock_search(self, query: str) -> list[dict[str, Any]]:
        rows = self._search(query, q.STOCK_SEARCH, GRAPH_STOCK, "종목이", q.SUGGEST_STOCKS)
        return [{"code": r["code"], "name": r["name"]} for r in rows]

    def _search(self, query: str, cypher: str, table: str, none: str,
                suggest: str) -> list[dict[str, Any]]:  # fmt: skip
        text = (query or "").strip()
        if not text:
            raise ToolInputError("검색어가 비어 있습니다.")
        params = {"query": text, "compact": text.lower().replace(" ", ""), "limit": SEARCH_LIMIT}
        dataset = "KR_ETF_MASTER" if table == GRAPH_ETF else "STOCK_MASTER"
        rows = self.run_graph(cypher, params, dataset, table, filters={"query": text})
        if not rows:
            raise UnknownEntity(
                f"'{text}'와 일치하는 {none} 없습니다.", self.suggest(suggest, text)
            )
        return rows

    def list_tags(self) -> list[dict[str, Any]]:
        rows = self.run_graph(q.LIST_TAGS, {}, "KR_ETF_MASTER", "graph:(ETF)-[:TAGGED]->(Tag)")
        return [{"name": r["name"], "count": int(r["count"])} for r in rows]

    # ------------------------------------------------------------ holdings

    def latest_holdings_date(self, code: str) -> str | None:
        rows = self.run_graph(q.ETF_LATEST_HOLDINGS_DATE, {"code": code}, "KR_ETF_HOLDINGS",
                           GRAPH_HOLDS)  # fmt: skip
        return rows[0]["date"] if rows else None

    def top_holdings(self, code: str, limit: int) -> list[dict[str, Any]]:
        day = self.latest_holdings_date(code)
        if day is None:
            return []
        params = {"code": code, "date": day, "limit": limit}
        rows = self.run_graph(q.ETF_TOP_HOLDINGS, params, "KR_ETF_HOLDINGS", GRAPH_HOLDS,
                           start=day, end=day)  # fmt: skip
        return [
            {"stock_code": r["stock_code"], "stock_name": r["stock_name"],
             "weight": number(r["weight"], 2)}
            for r in rows
        ]  # fmt: skip

    def tags_of(self, code: str) -> list[str]:
        rows = self.run_graph(q.ETF_TAGS, {"code": code}, "KR_ETF_MASTER",
                           "graph:(ETF)-[:TAGGED]->(Tag)")  # fmt: skip
        return [r["name"] for r in rows]

    # ------------------------------------------------------------ prices and returns

    def returns(self, code: str, periods: tuple[str, ...]) -> tuple[dict[str, float], Any]:
        """{period: change %} over each calendar period (data_access.figures), and the latest
        net assets."""
        months = max(fig.PERIODS[p].months or 1 for p in periods)
        params = {"code": code, "reach": f"{months} months {_BASE_SLACK}"}
        rows = self.run_sql(q.ETF_CLOSES, params, "KR_ETF_DAILY_PRICE", "etf_prices",
                         filters={"etf_code": code, "periods": list(periods)})  # fmt: skip
        found = fig.period_returns(fig.bars_of(rows), periods)
        out = {p: round(r.pct, 2) for p, r in found.items() if r is not None}
        net_assets = number(rows[-1]["net_assets"]) if rows else None
        return out, net_assets

    def etf_prices(self, code: str, period: str,
                   session: SessionAsk | None = None) -> dict[str, Any]:  # fmt: skip
        """The window's summary and daily bars; with `session`, also `window`: that statistic of
        the last N sessions' values (`session_figure`)."""
        rows = self.run_sql(q.price_window(q.ETF_PRICES, period), {"code": code},
                         "KR_ETF_DAILY_PRICE", "etf_prices",
                         filters={"etf_code": code, "period": period})  # fmt: skip
        daily = [_etf_bar(r) for r in rows]
        if daily:
            self._retime_last_citation(daily[-1]["date"], daily[0]["date"])
        out: dict[str, Any] = {"summary": _etf_summary(code, period, daily), "daily": daily}
        if session is not None:
            out["window"] = session_figure(daily, session, self.require_etf(code)["name"])
        return out

    def etf_price_summaries(self, codes: list[str], period: str, part: SummaryPart = "all",
                            against: str | None = None) -> dict[str, dict[str, Any]]:  # fmt: skip
        """{code: summary} for many ETFs over one period from one query: the summary
        `etf_prices` gives each ETF, without its daily rows (a set's ranking needs only these).
        `part` 'ends' reads the window's ends (base close, last two closes, latest size and
        NAV) by index look-ups; 'range' adds the closing high and low and the volumes; what
        a part leaves out is None. An ETF without prices gets the bare summary. `against`, a
        second period: each summary also gets that window's average volume
        (`against_avg_volume`, read with part 'range') and `volume_surge`, its own average
        volume over that one (a week's against three months': '거래량 급증').

        The summaries of one price data version are read once per process (`_SUMMARIES`):
        every whole-set question over a window asks the same query of the same 900 ETFs. The
        citation is the query's, as if it had run."""
        sql = q.price_window({"ends": q.ETF_PRICE_ENDS, "range": q.ETF_PRICE_RANGES,
                            "all": q.ETF_PRICE_SUMMARIES}[part], period)  # fmt: skip
        key = (_pool_key(self.pool), self._price_version(), sql, tuple(sorted(codes)))  # any order
        read = _SUMMARIES.get(key)
        if read is None:
            read = self._read_summaries(sql, codes, period)
            _SUMMARIES.put(key, read)
        self.cite("KR_ETF_DAILY_PRICE", "etf_prices", sql, {"codes": codes}, read.row_count,
                  filters={"etf_codes": f"{len(codes)} ETFs", "period": period})  # fmt: skip
        if read.row_count:
            self._retime_last_citation(read.start, read.end)
        found = {code: dict(read.found[code]) if code in read.found
                 else _etf_summary(code, period, []) for code in codes}  # fmt: skip
        if against is not None:
            longer = self.etf_price_summaries(codes, against, "range")
            for code, summary in found.items():  # how far trading has surged
                recent, base = summary.get("avg_volume"), longer[code].get("avg_volume")
                summary.update(against_avg_volume=base,
                               volume_surge=recent / base if recent is not None and base else None)  # fmt: skip
        return found

    def _read_summaries(self, sql: str, codes: list[str], period: str) -> _Summaries:
        rows = fetch_all(sql, {"codes": codes}, self.pool)
        return _Summaries(
            found={r["etf_code"]: _row_summary(r, period) for r in rows},
            row_count=len(rows),
            start=min(iso(r["start_date"]) or "" for r in rows) if rows else None,
            end=max(iso(r["end_date"]) or "" for r in rows) if rows else None,
        )

    def _price_version(self) -> tuple[Any, ...]:
        """What moves when `etf_prices` is reloaded: a seed run (TRUNCATE gives the table a
        new file node, and a seed_runs row is written), or a later last trade date."""
        row = fetch_all(q.ETF_PRICE_VERSION, None, self.pool)[0]
        return (row["seed_run"], row["node"], row["latest"])

    def stock_prices(self, security_id: str, code: str, period: str) -> dict[str, Any]:
        dataset = (
            "US_TOP50_DAILY_OHLCV" if security_id.startswith("US:") else "KR_STOCK_DAILY_OHLCV"
        )
        params = {"security_id": security_id}
        rows = self.run_sql(q.price_window(q.STOCK_PRICES, period), params, dataset, "stock_prices",
                         filters={"security_id": security_id, "period": period})  # fmt: skip
        daily = [
            {"date": iso(r["trade_date"]), "open": number(r["open"], 4),
             "high": number(r["high"], 4), "low": number(r["low"], 4),
             "close": number(r["close"], 4),
             "volume": int(r["volume"]) if r["volume"] is not None else None,  # imported: NULL
             "change_rate": number(r["change_rate"], 2)}
            for r in rows
        ]  # fmt: skip
        summary: dict[str, Any] = {"stock_code": code, "period": period, "data_count": len(daily)}
        summary.update(_price_summary(daily))
        if daily:
            self._retime_last_citation(daily[-1]["date"], daily[0]["date"])
        return {"summary": summary, "daily": daily, "valuation": self._valuation(security_id)}

    def _valuation(self, security_id: str) -> dict[str, Any] | None:
        """The stock's last valuation snapshot (PER, PBR, EPS, dividend yield in %, market cap),
        read and cited by the stock screen's own query, so both screens say the same figure."""
        from agents.stock.data import StockData

        day = date.fromisoformat(self.as_of_date) if self.as_of_date else date.today()
        return StockData(self.pool, self.collector or EvidenceCollector(), day).fundamentals(
            security_id
        )

    def _retime_last_citation(self, start: Any, end: Any) -> None:
        """Put the actual date range of a price query on its citation; its end is the as-of date."""
        if self.collector and self.collector.citations:
            last = self.collector.citations[-1]
            last.date_range.start, last.date_range.end = start, end
            last.as_of_date = end


def _etf_bar(r: dict[str, Any]) -> dict[str, Any]:
    return {"date": iso(r["trade_date"]), "close": number(r["close"]), "nav": number(r["nav"]),
            "volume": int(r["volume"]), "market_cap": number(r["market_cap"]),
            "net_assets": number(r["net_assets"])}  # fmt: skip


def _etf_summary(code: str, period: str, daily: list[dict[str, Any]]) -> dict[str, Any]:
    """An ETF's window: the price summary, the latest size and NAV, the premium to NAV, and
    the close before the last (a one-day move)."""
    summary: dict[str, Any] = {"etf_code": code, "period": period, "data_count": len(daily)}
    summary.update(_price_summary(daily))
    if daily:
        summary["latest_market_cap"] = daily[0]["market_cap"]
        summary["latest_net_assets"] = daily[0]["net_assets"]
        summary["latest_nav"] = daily[0]["nav"]
        # 괴리율: how far the market price is from the fund's NAV, in percent
        summary["latest_premium"] = change_rate(daily[0]["nav"], daily[0]["close"])
        summary["previous_close"] = daily[1]["close"] if len(daily) > 1 else None
        summary.update(_trading_value(daily))
        summary.update(_distances(summary))
    return summary


@dataclass(frozen=True)
class SessionAsk:
    """One statistic of a daily field over the last `sessions` units ('최근 10거래일 평균
    종가', '최근 2주 거래량 합계': sessions=2, unit='week')."""

    statistic: str
    sessions: int
    field: str = "close"
    unit: str = "session"
    bar: float | None = None  # the value the days are held to (figures.BAR_DAYS)
    span: tuple[date, date] | None = None  # days named whole ('작년'): first and last

    def __post_init__(self) -> None:
        if self.statistic in fig.BAR_DAYS and not isinstance(self.bar, int | float):
            raise ToolInputError(f"statistic {self.statistic!r}에는 기준값 bar(숫자)가 필요합니다.")
        for said, value, allowed in (("statistic은", self.statistic, SESSION_STATISTICS),
                                     ("field는", self.field, (*SESSION_FIELDS, *STOCK_FIELDS)),
                                     ("unit은", self.unit, WINDOW_UNITS)):  # fmt: skip
            if value not in allowed:
                raise ToolInputError(f"{said} {', '.join(allowed)} 중 하나여야 합니다. "
                                     f"받은 값: {value!r}")  # fmt: skip
        if self.span is None and not 1 <= self.window.calendar_days() - 15 <= 380:
            raise ToolInputError(
                f"구간은 1년 이내여야 합니다. 받은 값: {self.sessions!r} {self.unit}"
            )

    @property
    def window(self) -> fig.Window:
        return fig.Window(self.sessions, self.unit)  # type: ignore[arg-type]

    def period(self) -> str:
        """The price window that holds this window (or span) and its base ('381d' for a year)."""
        if self.span:  # from ten days before the span's first: the close before it too
            return fig.SINCE + (self.span[0] - timedelta(days=10)).isoformat()
        return f"{self.window.calendar_days()}d"


def session_figure(daily: list[dict[str, Any]], ask: SessionAsk, name: str,
                   currency: str = "KRW") -> dict[str, Any] | None:  # fmt: skip
    """`ask`'s statistic over its window of the days that have the field (newest-first daily
    rows), as data_access.figures.window_statistic defines it: the value, the day of an
    extreme, the first and last session and their count, and the sentence every screen words
    such a figure with (`text`, `text_en`: window_answer.describe). None without such days (or
    a standard deviation of one value, or a span the rows do not reach)."""

    def value(d: dict[str, Any], field: str) -> Any:
        if field == "trading_value":  # each session's close × volume
            return None if d.get("volume") is None else float(d["close"]) * float(d["volume"])
        if field == "premium":  # 괴리율: the close against the NAV, in %
            return (float(d["close"]) / float(d["nav"]) - 1) * 100 if d.get("nav") else None
        return d.get(field)

    def points(field: str) -> list[tuple[date, float]]:
        return [(date.fromisoformat(d["date"]), float(v))
                for d in reversed(daily) if d.get("close") and (v := value(d, field)) is not None]  # fmt: skip

    rate, window, past = ask.field == "premium", ask.window, False  # a rate: moves in %p
    if ask.span:  # its sessions, its last one its latest; not answered from part of it
        past = bool(daily) and ask.span[1].isoformat() < daily[0]["date"]  # it has ended
        daily = [d for d in daily if d["date"] <= ask.span[1].isoformat()]
        found = points("high" if ask.field == "high_low" else ask.field)
        window = fig.Window(sum(1 for day, _ in found if day >= ask.span[0]), "session")
        if not window.n or found[0][0] > ask.span[0]:
            return None
    if ask.field == "high_low":  # a stock's highest high and lowest low ('최고가와 최저가')
        figure = fig.window_extremes(points("high"), points("low"), window)
    else:
        figure = fig.window_statistic(points(ask.field), window, ask.statistic, rate=rate,
                                      threshold=ask.bar)  # fmt: skip
    if figure is None or figure.value is None:
        return None
    if ask.field in ("high", "low") and ask.statistic in ("max", "min"):  # against the close
        figure = replace(figure, latest=points("close")[-1][1])
    said = (f"{ask.span[0]} ~ {ask.span[1]}", f"{ask.span[0]} to {ask.span[1]}") if ask.span else (
        window_labels(ask.window))  # fmt: skip
    words = WindowAsk(ask.window, ask.statistic, ask.field, *said, threshold=ask.bar, past=past)
    ko, en = daily_words(ask.field)

    def amount(v: float) -> str:
        if currency != "KRW" and ask.field != "volume":
            return f"{v:,.2f} {currency}"
        return daily_amount(ask.field, v)

    def amount_en(v: float) -> str:
        return amount(v).replace("주", " shares").replace(" 원", " KRW").replace("원", " KRW")

    text = describe(f"{name} {ko}", words, figure, amount, "ko", rate=rate)
    text_en = describe(f"{name} {en}", words, figure, amount_en, "en", rate=rate)
    return {"field": ask.field, "statistic": ask.statistic, "sessions": ask.sessions,
            "unit": ask.unit, "value": figure.value, "at": iso(figure.at),
            "high": iso(figure.high[0]) if figure.high else None,
            "low": iso(figure.low[0]) if figure.low else None, "first": iso(figure.first),
            "last": iso(figure.last), "count": figure.count, "text": text, "text_en": text_en}  # fmt: skip


def _distances(summary: dict[str, Any]) -> dict[str, float | None]:
    """The last close against the window's closing high and low and against the close before
    it (a one-day move), in %, unrounded: what a set is ranked by (`from_high`, `from_low`,
    the day's return), computed once per summary here rather than per ETF in the sandbox."""
    end = summary.get("end_close")

    def pct(reference: Any) -> float | None:
        return (end / reference - 1) * 100 if end and reference else None

    return {"from_high": pct(summary.get("high")), "from_low": pct(summary.get("low")),
            "day_change": pct(summary.get("previous_close"))}  # fmt: skip


def _trading_value(daily: list[dict[str, Any]]) -> dict[str, Any]:
    """Σ close × volume over the window's sessions after its base bar (which closes the day
    before the window), newest-first daily rows; the set query computes the same."""
    after_base = daily[:-1] if len(daily) > 1 else daily
    traded = [d for d in after_base if d.get("close") and d.get("volume")]
    return {"trading_value": number(sum(float(d["close"]) * float(d["volume"]) for d in traded))
            if traded else None, "trading_sessions": len(traded),
            "trading_from": traded[-1]["date"] if traded else None}  # fmt: skip


def _row_summary(r: dict[str, Any], period: str) -> dict[str, Any]:
    """A set query's row as the summary `_etf_summary` builds from the daily rows: the window's
    ends (ETF_PRICE_ENDS), its range (_RANGES) and, from ETF_PRICE_SUMMARIES, what needs every
    day's return; what the query did not read is None."""
    sd, days = r.get("return_sd"), r.get("volume_days")
    vol = sd * math.sqrt(fig.TRADING_DAYS_PER_YEAR) if (  # figures.annualized_volatility
        sd is not None and r["closes"] > 2 and r["returns"] >= max(2, r["closes"] - 1)) else None  # fmt: skip
    end_close, nav = number(r["end_close"]), number(r["latest_nav"])
    summary: dict[str, Any] = {
        "etf_code": r["etf_code"], "period": period, "data_count": r.get("data_count"),
        "start_date": iso(r["start_date"]), "end_date": iso(r["end_date"]),
        "start_close": number(r["start_close"]), "end_close": end_close,
        "high": number(r.get("high")), "low": number(r.get("low")),
        "change_rate": change_rate(number(r["start_close"]), end_close),
        "avg_volume": int(round(r["volume_sum"] / days)) if days else None,
        "volatility": round(vol * 100, 2) if vol is not None else None,
        "latest_market_cap": number(r["latest_market_cap"]),
        "latest_net_assets": number(r["latest_net_assets"]), "latest_nav": nav,
        "latest_premium": change_rate(nav, end_close),
        "previous_close": number(r["previous_close"]),
        "trading_value": number(r.get("trading_value")),
        "trading_sessions": r.get("trading_sessions"), "trading_from": iso(r.get("trading_from")),
    }  # fmt: skip
    return summary | _distances(summary)


def _price_summary(daily: list[dict[str, Any]]) -> dict[str, Any]:
    """Seed summary fields from newest-first daily rows (empty dict when there are none)."""
    if not daily:
        return {}
    closes = [float(d["close"]) for d in reversed(daily) if d["close"] is not None]
    vol = fig.annualized_volatility(closes, len(closes) - 1) if len(closes) > 2 else None
    highs = [d.get("high", d["close"]) for d in daily]
    lows = [d.get("low", d["close"]) for d in daily]
    volumes = [d["volume"] for d in daily if d.get("volume") is not None]  # NULL: close-only rows
    return {
        "start_date": daily[-1]["date"],
        "end_date": daily[0]["date"],
        "start_close": daily[-1]["close"],
        "end_close": daily[0]["close"],
        "high": max(highs),
        "low": min(lows),
        "change_rate": change_rate(daily[-1]["close"], daily[0]["close"]),
        "avg_volume": int(round(sum(volumes) / len(volumes))) if volumes else None,
        # annualized volatility of the window's daily returns, % (data_access.figures)
        "volatility": round(vol * 100, 2) if vol is not None else None,
    }
