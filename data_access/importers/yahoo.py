"""Daily OHLCV from Yahoo Finance: the `yfinance` package when it is there, else the v8 chart API.

`parse_chart` reads Yahoo's v8 chart JSON and is pure (tests feed it recorded responses);
`fetch_chart` does the HTTP. Both paths end in the same OHLCV load as the CSV importer.
Prices are stored as Yahoo quotes them (split-adjusted, not dividend-adjusted); the adjusted
close is parsed but not stored (stock_prices has no column for it).
"""

from __future__ import annotations

import importlib.util
import logging
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, time, timedelta, timezone, tzinfo
from typing import Any
from urllib.parse import quote
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import pandas as pd
from psycopg_pool import ConnectionPool

from data_access.errors import ImportFailed
from data_access.importers.base import ImportJob, ImportResult, ParsedRows, run_import
from data_access.importers.frames import ohlcv_rows
from data_access.importers.http_client import get_json
from data_access.importers.loaders import OhlcvBar, StockInfo, load_ohlcv, normalize_security_id
from data_access.importers.market import load_market_bars, market_series_for
from data_access.market_series import MarketSeriesSpec

logger = logging.getLogger(__name__)

DEFAULT_YAHOO_BASE_URL = "https://query1.finance.yahoo.com"
# Yahoo exchange codes → the market names the stocks table uses.
MARKETS = {
    "NMS": "NASDAQ",
    "NGM": "NASDAQ",
    "NCM": "NASDAQ",
    "NAS": "NASDAQ",
    "NYQ": "NYSE",
    "ASE": "NYSE American",
    "PCX": "NYSE Arca",
    "BTS": "Cboe BZX",
    "KSC": "KOSPI",
    "KOE": "KOSDAQ",
}
KR_SUFFIX_MARKETS = {".KS": "KOSPI", ".KQ": "KOSDAQ"}


@dataclass(frozen=True)
class YahooChart:
    """One parsed chart: instrument metadata, bars (with failures and halted days), adj close."""

    symbol: str
    currency: str | None
    exchange_code: str | None
    long_name: str | None
    instrument_type: str | None
    bars: ParsedRows[OhlcvBar]
    adj_close: dict[date, float] = field(default_factory=dict)


def parse_chart(payload: Any) -> YahooChart:
    """Yahoo v8 `{"chart": {"result": [...], "error": ...}}` → bars; ImportFailed on errors."""
    chart = payload.get("chart") if isinstance(payload, dict) else None
    if not isinstance(chart, dict):
        raise ImportFailed("not a Yahoo chart response (no 'chart' object)")
    if error := chart.get("error"):
        raise ImportFailed(f"Yahoo Finance error {error.get('code')}: {error.get('description')}")
    results = chart.get("result") or []
    if not results:
        raise ImportFailed("Yahoo chart response has no result")
    result = results[0]
    meta = result.get("meta") or {}
    stamps = result.get("timestamp") or []  # absent when the range holds no trading day
    quotes = ((result.get("indicators") or {}).get("quote") or [{}])[0]
    days = [_trading_day(ts, meta) for ts in stamps]
    columns = {"date": days}
    for name in ("open", "high", "low", "close", "volume"):
        values = quotes.get(name) or [None] * len(stamps)
        if len(values) != len(stamps):
            raise ImportFailed(
                f"Yahoo chart: {len(values)} {name} values for {len(stamps)} timestamps"
            )
        columns[name] = values
    frame = pd.DataFrame(columns, dtype=object)
    source = f"Yahoo chart {meta.get('symbol', '?')}"
    bars = ohlcv_rows(frame, source=source, locations=[d.isoformat() for d in days])
    return YahooChart(
        symbol=str(meta.get("symbol") or ""),
        currency=meta.get("currency"),
        exchange_code=meta.get("exchangeName"),
        long_name=meta.get("longName") or meta.get("shortName"),
        instrument_type=meta.get("instrumentType"),
        bars=bars,
        adj_close=_adj_close(result, days),
    )


def _trading_day(timestamp: int, meta: dict[str, Any]) -> date:
    # Daily bars are stamped at the session open in exchange time; the date is taken there.
    zone: tzinfo
    try:
        zone = ZoneInfo(str(meta["exchangeTimezoneName"]))
    except (KeyError, ValueError, ZoneInfoNotFoundError):
        zone = timezone(timedelta(seconds=int(meta.get("gmtoffset") or 0)))
    return datetime.fromtimestamp(int(timestamp), tz=zone).date()


def _adj_close(result: dict[str, Any], days: list[date]) -> dict[date, float]:
    series = ((result.get("indicators") or {}).get("adjclose") or [{}])[0].get("adjclose") or []
    return {d: float(v) for d, v in zip(days, series, strict=False) if v is not None}


def fetch_chart(
    ticker: str,
    start: date,
    end: date,
    *,
    base_url: str = DEFAULT_YAHOO_BASE_URL,
    attempts: int = 3,
) -> tuple[str, Any]:
    """GET the v8 chart for [start, end]; returns (public URL, JSON body)."""
    url = f"{base_url.rstrip('/')}/v8/finance/chart/{quote(ticker, safe='')}"
    params: dict[str, str | int] = {
        "period1": int(datetime.combine(start, time(), UTC).timestamp()),
        "period2": int(datetime.combine(end + timedelta(days=1), time(), UTC).timestamp()),
        "interval": "1d",
        "includeAdjustedClose": "true",
        "events": "div,split",
    }
    response = get_json(url, params, what="Yahoo Finance", attempts=attempts)
    if response.body is None:
        raise ImportFailed(f"Yahoo Finance answered HTTP {response.status_code} without JSON")
    if response.status_code != 200 and not (response.body.get("chart") or {}).get("error"):
        raise ImportFailed(f"Yahoo Finance answered HTTP {response.status_code}: {response.body}")
    return response.url, response.body


def security_for_ticker(ticker: str) -> tuple[str, str | None]:
    """'AAPL' → ('US:AAPL', None); '005930.KS' → ('KR:005930', 'KOSPI')."""
    upper = ticker.strip().upper()
    for suffix, market in KR_SUFFIX_MARKETS.items():
        if upper.endswith(suffix):
            return normalize_security_id(code=upper.removesuffix(suffix), country="KR"), market
    if "." in upper:
        raise ImportFailed(
            f"'{ticker}' is not a US or KRX (.KS/.KQ) ticker: pass security_id to say where it goes"
        )
    return normalize_security_id(f"US:{upper}"), None


def chart_stock(security_id: str, suffix_market: str | None, chart: YahooChart) -> StockInfo:
    """Stock metadata from the chart; Korean stocks keep their (Korean) stored name."""
    market = suffix_market or MARKETS.get(chart.exchange_code or "") or chart.exchange_code
    korean = security_id.startswith("KR:")
    return StockInfo(
        security_id,
        name=None if korean else chart.long_name,
        name_en=chart.long_name,
        market=market,
        currency=chart.currency,
    )


def _overlay(derived: StockInfo, given: StockInfo | None) -> StockInfo:
    """Fields the caller gave win over what the chart says."""
    if given is None:
        return derived
    updates = {k: v for k, v in vars(given).items() if v is not None and k != "security_id"}
    return replace(derived, **updates)


def import_yahoo_ohlcv(
    ticker: str,
    *,
    start: date,
    end: date | None = None,
    security_id: str | None = None,
    stock: StockInfo | None = None,
    base_url: str | None = None,
    use_yfinance: bool | None = None,
    attempts: int = 3,
    pool: ConnectionPool | None = None,
) -> ImportResult:
    """Daily bars for `ticker` from `start` to `end` (default today) into stock_prices, or into
    market_series_prices for an index, future or crypto ticker (^KS11, CL=F, BTC-USD, 코스피)."""
    end = end or date.today()
    if end < start:
        raise ImportFailed(f"end {end} is before start {start}")
    series = market_series_for(ticker) if not security_id else None
    code = series.code if series else ticker  # '코스피' is fetched as ^KS11
    source, get_chart = _chart_source(code, start, end, base_url, use_yfinance, attempts)
    if series is not None:  # an index, future or crypto: a market series, not a stock
        return _import_series(series, source, get_chart, pool)
    derived_id, suffix_market = security_for_ticker(ticker) if not security_id else (None, None)
    sid = normalize_security_id(security_id) if security_id else str(derived_id)
    job = ImportJob("yfinance", source, "OHLCV_" + sid.replace(":", "_"), "stock_prices")
    found: dict[str, StockInfo] = {}

    def fetch() -> ParsedRows[OhlcvBar]:
        chart = get_chart()
        found["stock"] = _overlay(chart_stock(sid, suffix_market, chart), stock)
        logger.info("%s: %s bars, %s halted days", ticker, len(chart.bars.rows), chart.bars.skipped)
        return chart.bars

    return run_import(
        job, fetch, lambda conn, bars: load_ohlcv(conn, found["stock"], bars, "yfinance"), pool
    )


def _chart_source(
    code: str, start: date, end: date, base_url: str | None, use_yfinance: bool | None,
    attempts: int,
) -> tuple[str, Callable[[], YahooChart]]:  # fmt: skip
    """Where the chart comes from (yfinance when installed, else the v8 API) and its getter."""
    yfinance_ok = importlib.util.find_spec("yfinance") is not None
    via_yfinance = (use_yfinance is not False) and yfinance_ok and base_url is None
    if use_yfinance and not yfinance_ok:
        raise ImportFailed("the yfinance package is not installed (pip install yfinance)")
    base = base_url or DEFAULT_YAHOO_BASE_URL
    if via_yfinance:
        return f"yfinance:{code}", lambda: _chart_via_yfinance(code, start, end)
    return f"{base.rstrip('/')}/v8/finance/chart/{code}", lambda: parse_chart(
        fetch_chart(code, start, end, base_url=base, attempts=attempts)[1]
    )


def _import_series(series: MarketSeriesSpec, source: str, get_chart: Callable[[], YahooChart],
                   pool: ConnectionPool | None) -> ImportResult:  # fmt: skip
    job = ImportJob("yfinance", source, series.dataset_code, "market_series_prices")
    found: dict[str, str | None] = {}

    def fetch() -> ParsedRows[OhlcvBar]:
        chart = get_chart()
        found["name"] = chart.long_name
        return chart.bars

    return run_import(
        job, fetch,
        lambda conn, bars: load_market_bars(conn, series, bars, "yfinance", found.get("name")),
        pool,
    )  # fmt: skip


def _chart_via_yfinance(ticker: str, start: date, end: date) -> YahooChart:
    """The same chart through yfinance (which handles Yahoo's cookies and crumbs)."""
    import yfinance  # optional: only when installed

    handle = yfinance.Ticker(ticker)
    try:
        frame = handle.history(
            start=start.isoformat(),
            end=(end + timedelta(days=1)).isoformat(),
            interval="1d",
            auto_adjust=False,
            actions=False,
        )
        meta = dict(handle.history_metadata or {})
    except Exception as e:  # yfinance raises many types (HTTP, JSON, its own)
        raise ImportFailed(f"yfinance could not fetch {ticker}: {type(e).__name__}: {e}") from e
    if frame is None or frame.empty:
        raise ImportFailed(f"yfinance returned no rows for {ticker} between {start} and {end}")
    table = frame.reset_index()
    bars = ohlcv_rows(table, source=f"yfinance:{ticker}", locations=None)
    return YahooChart(
        symbol=str(meta.get("symbol") or ticker),
        currency=meta.get("currency"),
        exchange_code=meta.get("exchangeName"),
        long_name=meta.get("longName") or meta.get("shortName"),
        instrument_type=meta.get("instrumentType"),
        bars=bars,
    )
