"""Fundamentals of a stock from the data we hold: earnings against estimates, EPS growth,
valuation against the sector and the stock's own history, dividend yield, market cap.

    f = compute_fundamentals(data, quote, sector_rows)
    f["quarters"][0]   # {"period": "2026Q3", "eps_actual": 1658.0, "eps_estimate": 1780.0,
                       #  "surprise": -0.0685, "result": "miss", ...} newest first
    f["streak"]        # -1: one miss in a row (positive numbers count beats)

Surprise is (actual - estimate) / |estimate|; only quarters reported on or before the as-of
date count, so a report never uses an actual it could not have known.
"""

from __future__ import annotations

import statistics
from datetime import date, timedelta
from typing import Any, Literal, TypedDict

from agents.stock.analysis import peer_scope, relative
from agents.stock.data import StockData
from data_access.postgres import fetch_all

QUARTERS_SHOWN = 4
UNIVERSE_WINDOW_DAYS = 365
FILINGS_DAYS = 92
# A company's OpenDART filings (imported list.json or the demo's) with their evidence sentence.
FILINGS = (
    "SELECT d.rcept_dt, d.report_nm, coalesce(v.text, '') AS text, coalesce(e.theme, '') AS theme "
    "FROM dart_disclosures d LEFT JOIN evidence v ON v.doc_id = 'doc-dart-' || d.rcept_no "
    "LEFT JOIN events e ON e.event_id = v.event_id WHERE d.security_id = %(security_id)s "
    "AND d.rcept_dt >= %(start)s AND d.rcept_dt <= %(as_of)s "
    "ORDER BY d.rcept_dt DESC, d.rcept_no DESC LIMIT 50"
)
# The stock's rank on each Top50 snapshot from the one on or before the window's start to as_of
# (NULL: not a member), from the dated membership history (migration 0017, seed 004 §4-3).
UNIVERSE_HISTORY = (
    "WITH snaps AS (SELECT DISTINCT snapshot_date FROM universe_membership "
    "WHERE universe = %(universe)s AND snapshot_date <= %(as_of)s "
    "AND snapshot_date >= coalesce((SELECT max(snapshot_date) FROM universe_membership "
    "WHERE universe = %(universe)s AND snapshot_date <= %(start)s), %(start)s)) "
    "SELECT n.snapshot_date, m.rank FROM snaps n LEFT JOIN universe_membership m "
    "ON m.universe = %(universe)s AND m.snapshot_date = n.snapshot_date "
    "AND m.security_id = %(security_id)s ORDER BY n.snapshot_date"
)
Result = Literal["beat", "miss", "inline"]


class EarningsQuarter(TypedDict):
    period: str
    event_date: str
    eps_estimate: float | None
    eps_actual: float | None
    surprise: float | None
    result: Result | None
    eps_yoy: float | None  # actual vs the same quarter a year earlier


class NextEarnings(TypedDict):
    period: str
    event_date: str
    eps_estimate: float | None


class UniverseMove(TypedDict):
    """The stock joined ('in') or left ('out') its country's Top50 on a snapshot (issue 35)."""

    change: Literal["in", "out"]
    snapshot_date: str
    rank: int  # its rank on that snapshot ('in') or on the one before ('out')


class Filing(TypedDict):
    """One OpenDART filing of the company (issue 35, seed 004 §12.2-3)."""

    date: str
    report: str
    text: str  # its evidence sentence (figures from the filing), or ''
    theme: str  # 실적, 가이던스, 자사주, 지배구조, 공시


class Fundamentals(TypedDict):
    currency: str
    quarters: list[EarningsQuarter]  # last reported quarters, newest first
    streak: int  # consecutive beats (> 0) or misses (< 0) ending with the latest quarter
    beats: int
    misses: int
    next_earnings: NextEarnings | None
    eps_ttm: float | None
    eps_ttm_year_ago: float | None
    eps_growth: float | None  # trailing EPS against a year earlier
    market_cap: float | None
    pe: float | None
    pb: float | None
    dividend_yield: float | None  # a fraction (0.0076 = 0.76 %)
    sector_scope: str  # P/B and dividend peers (P/E against the sector is in StockFigures)
    sector_count: int
    pb_sector_median: float | None
    dy_sector_median: float | None
    pb_vs_sector: float | None
    dy_vs_sector: float | None  # difference in yield (fraction points)
    pe_history_median: float | None
    pe_history_percentile: float | None  # share of past snapshots at or below today's P/E
    pb_history_median: float | None
    pb_history_percentile: float | None
    history_count: int
    history_start: str | None
    universe: str  # KR_TOP50 / US_TOP50
    universe_moves: list[UniverseMove]  # 편입/편출 in the last UNIVERSE_WINDOW_DAYS, oldest first
    filings: list[Filing]  # OpenDART filings of the last FILINGS_DAYS, newest first
    guidance: Filing | None  # the latest 가이던스 filing of the last year


# ---------------------------------------------------------------- pure figures


def surprise(actual: float | None, estimate: float | None) -> float | None:
    if actual is None or estimate is None or estimate == 0:
        return None
    return (actual - estimate) / abs(estimate)


def result_of(value: float | None) -> Result | None:
    if value is None:
        return None
    return "beat" if value > 0 else "miss" if value < 0 else "inline"


def streak(results: list[Result | None]) -> int:
    """Beats (+) or misses (-) in a row, newest first; an in-line quarter ends a streak."""
    if not results or results[0] not in ("beat", "miss"):
        return 0
    first = results[0]
    count = 0
    for r in results:
        if r != first:
            break
        count += 1
    return count if first == "beat" else -count


def percentile_rank(value: float, history: list[float]) -> float | None:
    """The share of `history` at or below `value` (1.0: the highest it has been)."""
    if not history:
        return None
    return sum(h <= value for h in history) / len(history)


def positive_median(values: list[float | None]) -> float | None:
    kept = [v for v in values if v is not None and v > 0]
    return statistics.median(kept) if kept else None


def _quarters(events: list[dict[str, Any]]) -> list[EarningsQuarter]:
    reported = [e for e in events if e["reported"]]
    by_period = {e["period"]: e for e in reported}
    out = []
    for e in sorted(reported, key=lambda e: e["event_date"], reverse=True)[:QUARTERS_SHOWN]:
        year, quarter = e["period"].split("Q")
        prior = by_period.get(f"{int(year) - 1}Q{quarter}")
        value = surprise(e["eps_actual"], e["eps_estimate"])
        yoy = relative(e["eps_actual"], prior["eps_actual"]) if prior else None
        if prior and prior["eps_actual"] is not None and prior["eps_actual"] <= 0:
            yoy = None  # growth from a loss is not a percentage
        out.append(EarningsQuarter(
            period=e["period"], event_date=e["event_date"].isoformat(),
            eps_estimate=e["eps_estimate"], eps_actual=e["eps_actual"], surprise=value,
            result=result_of(value), eps_yoy=yoy,
        ))  # fmt: skip
    return out


def _next(events: list[dict[str, Any]], as_of: date) -> NextEarnings | None:
    upcoming = [e for e in events if e["event_date"] > as_of]
    if not upcoming:
        return None
    e = min(upcoming, key=lambda e: e["event_date"])
    return NextEarnings(period=e["period"], event_date=e["event_date"].isoformat(),
                        eps_estimate=e["eps_estimate"])  # fmt: skip


def _year_ago(history: list[dict[str, Any]], as_of: date) -> dict[str, Any] | None:
    """The last snapshot at least a year before the as-of date."""
    cutoff = as_of - timedelta(days=365)
    older = [h for h in history if h["as_of_date"] <= cutoff]
    return older[-1] if older else None


def _yield(value: float | None) -> float | None:
    return None if value is None else value / 100  # stored in percent


# ---------------------------------------------------------------- from the database


def compute_fundamentals(data: StockData, quote: dict[str, Any],
                         sector_rows: list[dict[str, Any]]) -> Fundamentals:  # fmt: skip
    """Fundamentals of the stock of a successful StockDataTool result."""
    security_id = quote["security_id"]
    events = data.earnings(security_id)
    history = data.fundamental_history(security_id)
    latest = history[-1] if history else {}
    year_ago = _year_ago(history, data.as_of) or {}
    quarters = _quarters(events)
    results = [q["result"] for q in quarters]
    peers, scope = peer_scope(sector_rows, security_id, quote["sector"])
    pe, pb, dy = latest.get("pe"), latest.get("pb"), _yield(latest.get("dividend_yield"))
    pb_median = positive_median([r["pb"] for r in peers])
    dy_values = [_yield(r["dividend_yield"]) for r in peers if r["dividend_yield"] is not None]
    dy_median = statistics.median(v for v in dy_values if v is not None) if dy_values else None
    past_pe = [h["pe"] for h in history if h["pe"] is not None and h["pe"] > 0]
    past_pb = [h["pb"] for h in history if h["pb"] is not None and h["pb"] > 0]
    valid_pe = pe if pe is not None and pe > 0 else None
    return Fundamentals(
        currency=quote["currency"],
        quarters=quarters,
        streak=streak(results),
        beats=results.count("beat"),
        misses=results.count("miss"),
        next_earnings=_next(events, data.as_of),
        eps_ttm=latest.get("eps"),
        eps_ttm_year_ago=year_ago.get("eps"),
        eps_growth=relative(latest.get("eps"), year_ago.get("eps"))
        if (year_ago.get("eps") or 0) > 0
        else None,
        market_cap=quote.get("market_cap") or latest.get("market_cap"),
        pe=valid_pe,
        pb=pb,
        dividend_yield=dy,
        sector_scope=scope,
        sector_count=len(peers),
        pb_sector_median=pb_median,
        dy_sector_median=dy_median,
        pb_vs_sector=relative(pb, pb_median),
        dy_vs_sector=None if dy is None or dy_median is None else dy - dy_median,
        pe_history_median=statistics.median(past_pe) if past_pe else None,
        pe_history_percentile=percentile_rank(valid_pe, past_pe) if valid_pe else None,
        pb_history_median=statistics.median(past_pb) if past_pb else None,
        pb_history_percentile=percentile_rank(pb, past_pb) if pb else None,
        history_count=len(history),
        history_start=history[0]["as_of_date"].isoformat() if history else None,
        universe=f"{security_id.split(':', 1)[0]}_TOP50",
        universe_moves=universe_moves(data, security_id),
        **filings(data, security_id),  # type: ignore[typeddict-item]
    )


def filings(data: StockData, security_id: str) -> dict[str, Any]:
    """Recent OpenDART filings and the latest guidance filing (KR only; cited)."""
    if not security_id.startswith("KR:"):
        return {"filings": [], "guidance": None}
    start = data.as_of - timedelta(days=UNIVERSE_WINDOW_DAYS)
    params = {"security_id": security_id, "start": start, "as_of": data.as_of}
    rows = fetch_all(FILINGS, params, data.pool)
    if rows:
        data._cite("DART_DISCLOSURES", "dart_disclosures", FILINGS, params, len(rows),
                   start=start.isoformat(), end=data.as_of.isoformat())  # fmt: skip
    out = [Filing(date=r["rcept_dt"].isoformat(), report=r["report_nm"], text=r["text"],
                  theme=r["theme"]) for r in rows]  # fmt: skip
    recent = (data.as_of - timedelta(days=FILINGS_DAYS)).isoformat()
    guidance = next((f for f in out if f["theme"] == "가이던스"), None)
    return {"filings": [f for f in out if f["date"] >= recent], "guidance": guidance}


def universe_moves(data: StockData, security_id: str) -> list[UniverseMove]:
    """When the stock joined or left its country's Top50 in the last year (cited)."""
    universe = f"{security_id.split(':', 1)[0]}_TOP50"
    start = data.as_of - timedelta(days=UNIVERSE_WINDOW_DAYS)
    params = {"universe": universe, "security_id": security_id, "start": start,
              "as_of": data.as_of}  # fmt: skip
    rows = fetch_all(UNIVERSE_HISTORY, params, data.pool)
    data._cite("STOCK_FUNDAMENTALS", "universe_membership", UNIVERSE_HISTORY, params, len(rows),
               start=start.isoformat(), end=data.as_of.isoformat())  # fmt: skip
    moves: list[UniverseMove] = []
    for prev, cur in zip(rows, rows[1:], strict=False):
        day = cur["snapshot_date"].isoformat()
        if prev["rank"] is None and cur["rank"] is not None:
            moves.append(UniverseMove(change="in", snapshot_date=day, rank=int(cur["rank"])))
        elif prev["rank"] is not None and cur["rank"] is None:
            moves.append(UniverseMove(change="out", snapshot_date=day, rank=int(prev["rank"])))
    return moves
