"""Reads behind the opening screen, on PostgreSQL (the seed's DynamoDB/S3/yfinance replaced).

News come from `news_articles`, prices from `stock_prices` (OHLCV), `etf_prices` (close only)
and `macro_observations` (one value a day). Every read returns plain rows plus the structured
citation of the query that produced them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from psycopg_pool import ConnectionPool

from agents.evidence import make_citation
from data_access.contracts import StructuredCitation
from data_access.postgres import fetch_all, fetch_one

ET = ZoneInfo("America/New_York")
KST = ZoneInfo("Asia/Seoul")
WINDOW_START_HOUR_ET = 16  # the day before
WINDOW_END_HOUR_ET = 18  # the chosen day


@dataclass(frozen=True)
class Read:
    rows: list[dict[str, Any]]
    citation: StructuredCitation


def window_bounds(day: date) -> tuple[datetime, datetime]:
    """Seed 003's news window: 16:00 ET the day before to 18:00 ET on `day`."""
    start = datetime.combine(day - timedelta(days=1), time(WINDOW_START_HOUR_ET), ET)
    return start, datetime.combine(day, time(WINDOW_END_HOUR_ET), ET)


_WINDOW_NEWS = (
    "SELECT pk, title, tickers, themes, published_at, source, url, lang FROM news_articles"
    " WHERE published_at >= %(start)s AND published_at <= %(end)s ORDER BY published_at, pk"
)


def news_in_window(day: date, pool: ConnectionPool | None) -> Read:
    start, end = window_bounds(day)
    params = {"start": start, "end": end}
    rows = fetch_all(_WINDOW_NEWS, params, pool)
    citation = make_citation(
        dataset_code="ECONOMIC_NEWS_STREAM", table="news_articles", query=_WINDOW_NEWS,
        params={"start": start.isoformat(), "end": end.isoformat()}, row_count=len(rows),
        filters={"window_et": f"{start:%Y-%m-%d %H:%M} ~ {end:%Y-%m-%d %H:%M} ET"},
        start=start.date().isoformat(), end=day.isoformat(),
    )  # fmt: skip
    return Read(rows, citation)


_BODIES = "SELECT pk, title, body, url FROM news_articles WHERE pk = ANY(%(pks)s) ORDER BY pk"


def news_bodies(pks: list[str], pool: ConnectionPool | None) -> Read:
    rows = fetch_all(_BODIES, {"pks": pks}, pool)
    citation = make_citation(
        dataset_code="ECONOMIC_NEWS_STREAM", table="news_articles", query=_BODIES,
        params={"pks": pks}, row_count=len(rows),
    )  # fmt: skip
    return Read(rows, citation)


_NEWS_DAYS = (
    "SELECT d.trade_date, count(n.pk) AS articles FROM"
    " (SELECT DISTINCT trade_date FROM stock_prices WHERE trade_date >= %(since)s) d"
    " JOIN news_articles n ON n.published_at >= ((d.trade_date - 1) + time '16:00')"
    " AT TIME ZONE 'America/New_York'"
    " AND n.published_at <= (d.trade_date + time '18:00') AT TIME ZONE 'America/New_York'"
    " GROUP BY d.trade_date ORDER BY d.trade_date DESC"
)


def trading_days_with_news(pool: ConnectionPool | None, since: date) -> list[tuple[date, int]]:
    """Trading days (any market had prices) whose news window holds at least one article."""
    rows = fetch_all(_NEWS_DAYS, {"since": since}, pool)
    return [(r["trade_date"], int(r["articles"])) for r in rows]


def latest_news_day(pool: ConnectionPool | None) -> date | None:
    row = fetch_one("SELECT max(trade_date) AS d FROM stock_prices", None, pool)
    if row is None or row["d"] is None:
        return None
    days = trading_days_with_news(pool, row["d"] - timedelta(days=14))
    return days[0][0] if days else None


# ---------------------------------------------------------------- prices

_STOCK = (
    "SELECT trade_date AS d, open, high, low, close, volume FROM stock_prices"
    " WHERE security_id = %(id)s AND trade_date BETWEEN %(start)s AND %(end)s ORDER BY trade_date"
)
_ETF = (
    "SELECT trade_date AS d, NULL::numeric AS open, NULL::numeric AS high, NULL::numeric AS low,"
    " close, volume FROM etf_prices"
    " WHERE etf_code = %(id)s AND trade_date BETWEEN %(start)s AND %(end)s ORDER BY trade_date"
)
_MACRO = (
    "SELECT obs_date AS d, NULL::numeric AS open, NULL::numeric AS high, NULL::numeric AS low,"
    " value AS close, 0 AS volume FROM macro_observations"
    " WHERE series_code = %(id)s AND obs_date BETWEEN %(start)s AND %(end)s ORDER BY obs_date"
)
_SOURCES = {
    "stock": (_STOCK, "stock_prices"),
    "etf": (_ETF, "etf_prices"),
    "macro": (_MACRO, "macro_observations"),
}


@dataclass(frozen=True)
class Instrument:
    kind: str  # stock | etf | macro
    id: str  # security_id, ETF code or series code
    name: str
    country: str  # KR | US (the market whose clock dates the rows)
    dataset_code: str


def find_instrument(ticker: str, pool: ConnectionPool | None) -> Instrument | None:
    """A stock (security_id, code, ticker, name), a KR ETF code/name or a macro series code."""
    from data_access.ids import normalize_etf_code, normalize_security_id

    text = ticker.strip()
    macro = fetch_one(
        "SELECT series_code, name_ko, country FROM macro_series WHERE upper(series_code) = %s",
        (text.upper(),), pool,
    )  # fmt: skip
    if macro:
        return Instrument("macro", macro["series_code"], macro["name_ko"], macro["country"],
                          macro["series_code"])  # fmt: skip
    if text.isdigit() and len(text) == 6:
        etf = fetch_one("SELECT code, name FROM etfs WHERE code = %s", (text,), pool)
        if etf:
            return Instrument("etf", etf["code"], etf["name"], "KR", "KR_ETF_DAILY_PRICE")
    security_id = normalize_security_id(text, pool)
    if security_id:
        row = fetch_one("SELECT name, country FROM stocks WHERE security_id = %s",
                        (security_id,), pool)  # fmt: skip
        if row:
            dataset = "KR_STOCK_DAILY_OHLCV" if row["country"] == "KR" else "US_TOP50_DAILY_OHLCV"
            return Instrument("stock", security_id, row["name"], row["country"], dataset)
    code = normalize_etf_code(text, pool)
    if code:
        etf = fetch_one("SELECT code, name FROM etfs WHERE code = %s", (code,), pool)
        if etf:
            return Instrument("etf", etf["code"], etf["name"], "KR", "KR_ETF_DAILY_PRICE")
    return None


def price_rows(inst: Instrument, start: date, end: date, pool: ConnectionPool | None) -> Read:
    query, table = _SOURCES[inst.kind]
    params = {"id": inst.id, "start": start, "end": end}
    rows = fetch_all(query, params, pool)
    citation = make_citation(
        dataset_code=inst.dataset_code, table=table, query=query,
        params={"id": inst.id, "start": start.isoformat(), "end": end.isoformat()},
        row_count=len(rows), filters={"id": inst.id},
        start=start.isoformat(), end=end.isoformat(),
    )  # fmt: skip
    return Read(rows, citation)
