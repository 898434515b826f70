"""Reads behind the market-movers clusters: daily closes, stock facts, FX, earnings, breadth.

    read = stock_sessions(["US:NVDA"], date(2026, 11, 6), date(2026, 11, 20), pool)
    read.rows[-1]  # {"security_id": "US:NVDA", "d": date(2026, 11, 20), "close": ..., "prev_close": ...}

Every read returns plain rows plus the structured citation of its query (as news_store does).
"""

from __future__ import annotations

from datetime import date

from psycopg_pool import ConnectionPool

from agents.evidence import make_citation
from agents.opening import news_store
from agents.opening.news_store import Instrument, Read
from data_access import market_series
from data_access.postgres import fetch_all

_SESSIONS = (
    "SELECT security_id, trade_date AS d, close, prev_close FROM ("
    " SELECT security_id, trade_date, close,"
    " lag(close) OVER (PARTITION BY security_id ORDER BY trade_date) AS prev_close"
    " FROM stock_prices WHERE security_id = ANY(%(ids)s)"
    " AND trade_date BETWEEN %(start)s AND %(end)s) s"
    " WHERE prev_close IS NOT NULL ORDER BY security_id, trade_date"
)


def _ohlcv_code(ids: list[str]) -> str:
    countries = {i.split(":", 1)[0] for i in ids}
    codes = [c for k, c in (("KR", "KR_STOCK_DAILY_OHLCV"), ("US", "US_TOP50_DAILY_OHLCV"))
             if k in countries]  # fmt: skip
    return "+".join(codes) or "KR_STOCK_DAILY_OHLCV"


def stock_sessions(ids: list[str], start: date, end: date, pool: ConnectionPool | None) -> Read:
    """Daily closes with the previous close (the first day of the range only gives its close)."""
    params = {"ids": ids, "start": start, "end": end}
    rows = fetch_all(_SESSIONS, params, pool)
    citation = make_citation(
        dataset_code=_ohlcv_code(ids), table="stock_prices", query=_SESSIONS,
        params={"ids": ids, "start": start.isoformat(), "end": end.isoformat()},
        row_count=len(rows), filters={"security_ids": len(ids)},
        start=start.isoformat(), end=end.isoformat(),
    )  # fmt: skip
    return Read(rows, citation)


_INFO = (
    "SELECT s.security_id, s.name, s.name_en, s.country, s.market, s.currency, s.sector,"
    " s.shares_outstanding,"
    " coalesce(array_agg(a.alias ORDER BY a.alias) FILTER (WHERE a.alias ~ '[가-힣]'), '{}')"
    " AS aliases_ko"
    " FROM stocks s LEFT JOIN entity_aliases a ON a.kind = 'stock' AND a.target = s.security_id"
    " WHERE s.security_id = ANY(%(ids)s) GROUP BY s.security_id ORDER BY s.security_id"
)


def stock_info(ids: list[str], pool: ConnectionPool | None) -> Read:
    """Names (with Korean aliases of US stocks), market, currency, sector and share count."""
    rows = fetch_all(_INFO, {"ids": ids}, pool)
    citation = make_citation(
        dataset_code="STOCK_MASTER", table="stocks", query=_INFO, params={"ids": ids},
        row_count=len(rows), filters={"security_ids": len(ids)},
    )  # fmt: skip
    return Read(rows, citation)


FX_ON_OR_BEFORE = (  # the last won/dollar close on or before a day (US amounts in won)
    "SELECT obs_date AS d, value FROM macro_observations WHERE series_code = 'KR_USDKRW'"
    " AND obs_date <= %(day)s ORDER BY obs_date DESC LIMIT 1"
)


def usdkrw(day: date, pool: ConnectionPool | None) -> Read:
    """The last won/dollar close on or before `day` (to put US market caps in won)."""
    rows = fetch_all(FX_ON_OR_BEFORE, {"day": day}, pool)
    citation = make_citation(
        dataset_code="KR_USDKRW", table="macro_observations", query=FX_ON_OR_BEFORE,
        params={"day": day.isoformat()}, row_count=len(rows), end=day.isoformat(),
    )  # fmt: skip
    return Read(rows, citation)


_EARNINGS = (
    "SELECT security_id, period, event_date, eps_estimate, eps_actual FROM earnings_events"
    " WHERE security_id = ANY(%(ids)s) AND status = 'confirmed' AND eps_actual IS NOT NULL"
    " AND eps_estimate IS NOT NULL AND event_date BETWEEN %(start)s AND %(end)s"
    " ORDER BY security_id, event_date"
)


def earnings_between(ids: list[str], start: date, end: date, pool: ConnectionPool | None) -> Read:
    params = {"ids": ids, "start": start, "end": end}
    rows = fetch_all(_EARNINGS, params, pool)
    citation = make_citation(
        dataset_code="EARNINGS_EVENTS", table="earnings_events", query=_EARNINGS,
        params={"ids": ids, "start": start.isoformat(), "end": end.isoformat()},
        row_count=len(rows), filters={"security_ids": len(ids), "status": "confirmed"},
        start=start.isoformat(), end=end.isoformat(),
    )  # fmt: skip
    return Read(rows, citation)


_BREADTH = (
    "SELECT s.country, s.sector, p.trade_date AS d, count(*) AS total,"
    " count(*) FILTER (WHERE p.change_rate > 0) AS up,"
    " count(*) FILTER (WHERE p.change_rate < 0) AS down"
    " FROM stock_prices p JOIN stocks s USING (security_id)"
    " WHERE p.trade_date = ANY(%(dates)s) AND s.sector = ANY(%(sectors)s) AND NOT s.is_etf"
    " GROUP BY s.country, s.sector, p.trade_date"
)


def sector_breadth(dates: list[date], sectors: list[str], pool: ConnectionPool | None) -> Read:
    """How many stocks of each (country, sector) rose and fell on each date."""
    params = {"dates": dates, "sectors": sectors}
    rows = fetch_all(_BREADTH, params, pool)
    citation = make_citation(
        dataset_code="KR_STOCK_DAILY_OHLCV+US_TOP50_DAILY_OHLCV", table="stock_prices",
        query=_BREADTH,
        params={"dates": [d.isoformat() for d in dates], "sectors": sectors},
        row_count=len(rows), filters={"sectors": sectors},
    )  # fmt: skip
    return Read(rows, citation)


# ---------------------------------------------------------------- instruments incl. market series


def instrument(ticker: str, pool: ConnectionPool | None) -> Instrument | None:
    """What get_ohlcv and the context read: a market series (^KS11, 코스피, BTC-USD, 유가 ...)
    first, then a stock, ETF or macro series (news_store.find_instrument)."""
    row = market_series.find_series(ticker, pool)
    if row is not None:
        code = row["series_code"]
        return Instrument("market", code, row["name"], row["country"],
                          market_series.dataset_code_of(code))  # fmt: skip
    return news_store.find_instrument(ticker, pool)


def price_read(inst: Instrument, start: date, end: date, pool: ConnectionPool | None) -> Read:
    """The instrument's daily rows (`d, open, high, low, close, volume`) with their citation."""
    if inst.kind != "market":
        return news_store.price_rows(inst, start, end, pool)
    rows = market_series.bars(inst.id, start, end, pool)
    citation = make_citation(
        dataset_code=inst.dataset_code, table="market_series_prices",
        query=market_series.BARS_SQL,
        params={"id": inst.id, "start": start.isoformat(), "end": end.isoformat()},
        row_count=len(rows), filters={"id": inst.id},
        start=start.isoformat(), end=end.isoformat(),
    )  # fmt: skip
    return Read(rows, citation)
