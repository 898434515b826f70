"""Writers for the tables the demo dataset also fills: stocks, stock_prices, macro_series,
macro_observations and etf_holdings. Every write is an upsert, so re-importing is idempotent.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, cast

from data_access.errors import ImportFailed
from data_access.importers.base import (
    Conn,
    DatasetSpec,
    LoadOutcome,
    ParsedRows,
    RowFailure,
    sql_literal,
)
from data_access.importers.frequency import (
    STALE_DAYS_BY_BAR,
    TITLE_BY_BAR,
    BarFrequency,
    detect_frequency,
)
from data_access.projection.scope import ProjectionScope

logger = logging.getLogger(__name__)

_SECURITY_ID = re.compile(r"^(KR|US):([A-Z0-9.\-^=]{1,20})$")
_KR_CODE = re.compile(r"^[0-9A-Z]{6}$")
_SERIES_CODE = re.compile(r"^[A-Za-z0-9_.\-]{1,40}$")
DEFAULT_CURRENCY = {"KR": "KRW", "US": "USD"}
# Without better information we name the venue, not a guessed board (KOSPI vs KOSDAQ).
DEFAULT_MARKET = {"KR": "KRX", "US": "US"}
DEFAULT_SECTOR = "미분류"
# Freshness windows: how old the latest observation may be before a dataset counts as stale.
STALE_DAYS_BY_FREQUENCY = {
    "daily": 7,
    "weekly": 14,
    "monthly": 70,
    "quarterly": 130,
    "semiannual": 250,
    "annual": 500,
}


# ---------------------------------------------------------------- identities


def normalize_security_id(
    security_id: str | None = None, *, code: str | None = None, country: str | None = None
) -> str:
    """'US:AAPL', or code + country ('5930', 'KR' → 'KR:005930'); ImportFailed if malformed."""
    if security_id:
        candidate = security_id.strip().upper()
    elif code and country:
        country_up, code_up = country.strip().upper(), code.strip().upper()
        if country_up == "KR" and code_up.isdigit():
            code_up = code_up.zfill(6)  # spreadsheets drop the leading zeros of KRX codes
        candidate = f"{country_up}:{code_up}"
    else:
        raise ImportFailed("give a security_id (e.g. US:AAPL) or both code and country")
    m = _SECURITY_ID.match(candidate)
    if not m or (m[1] == "KR" and not _KR_CODE.match(m[2])):
        raise ImportFailed(
            f"'{candidate}' is not a security_id: expected KR:<6-character code> or US:<ticker>"
        )
    return candidate


def check_series_code(series_code: str) -> str:
    if not _SERIES_CODE.match(series_code):
        raise ImportFailed(f"'{series_code}' is not a series code (letters, digits, _ . - only)")
    return series_code


# ---------------------------------------------------------------- stocks and prices


@dataclass(frozen=True)
class StockInfo:
    """Metadata for a stock; None fields keep the stored value or fall back to a default."""

    security_id: str
    name: str | None = None
    name_en: str | None = None
    market: str | None = None
    sector: str | None = None
    currency: str | None = None


@dataclass(frozen=True)
class OhlcvBar:
    """One bar; open/high/low/volume are None when the source does not have them."""

    trade_date: date
    open: float | None
    high: float | None
    low: float | None
    close: float
    volume: int | None


_UPSERT_STOCK = """
INSERT INTO stocks (security_id, country, code, name, name_en, market, sector, currency)
VALUES (%(security_id)s, %(country)s, %(code)s, %(name_default)s, %(name_en)s,
        %(market_default)s, %(sector_default)s, %(currency_default)s)
ON CONFLICT (security_id) DO UPDATE SET
    name = COALESCE(%(name)s, stocks.name),
    name_en = COALESCE(%(name_en)s, stocks.name_en),
    market = COALESCE(%(market)s, stocks.market),
    sector = COALESCE(%(sector)s, stocks.sector),
    currency = COALESCE(%(currency)s, stocks.currency)
RETURNING name
"""

_UPSERT_PRICE = """
INSERT INTO stock_prices (security_id, trade_date, open, high, low, close, volume)
VALUES (%s, %s, %s, %s, %s, %s, %s)
ON CONFLICT (security_id, trade_date) DO UPDATE SET
    open = EXCLUDED.open, high = EXCLUDED.high, low = EXCLUDED.low,
    close = EXCLUDED.close, volume = EXCLUDED.volume
"""

# change_rate is percent vs the previous stored close, so it is recomputed from the first
# imported date on (an import into the middle of a history changes the next day's rate too).
# The previous close is a primary-key lookup per row: a window-function join here gets planned
# as a nested loop on freshly inserted rows (stale statistics) and took ~50 s for 10 k rows.
_REFRESH_CHANGE_RATE = """
UPDATE stock_prices p
SET change_rate = (
    SELECT CASE WHEN prev.close > 0 AND abs(p.close / prev.close - 1) < 99
                THEN round((p.close / prev.close - 1) * 100, 4) END
    FROM (SELECT q.close FROM stock_prices q
          WHERE q.security_id = p.security_id AND q.trade_date < p.trade_date
          ORDER BY q.trade_date DESC LIMIT 1) prev
)
WHERE p.security_id = %(sid)s AND p.trade_date >= %(from_date)s
"""


def upsert_stock(conn: Conn, info: StockInfo) -> str:
    """Create the stock (defaults for what is not given) or update the given fields; its name."""
    country, code = info.security_id.split(":", 1)
    defaults = {
        "name_default": info.name or info.name_en or code,
        "market_default": info.market or DEFAULT_MARKET[country],
        "sector_default": info.sector or DEFAULT_SECTOR,
        "currency_default": info.currency or DEFAULT_CURRENCY[country],
    }
    params = {"country": country, "code": code, **vars(info), **defaults}
    row = conn.execute(_UPSERT_STOCK, params).fetchone()
    assert row is not None  # RETURNING always yields the row
    return str(row["name"])


def upsert_stock_prices(conn: Conn, security_id: str, bars: Sequence[OhlcvBar]) -> int:
    rows = [(security_id, b.trade_date, b.open, b.high, b.low, b.close, b.volume) for b in bars]
    with conn.cursor() as cur:
        cur.executemany(_UPSERT_PRICE, rows)
    if bars:
        first = min(b.trade_date for b in bars)
        conn.execute(_REFRESH_CHANGE_RATE, {"sid": security_id, "from_date": first})
    return len(rows)


def ohlcv_dataset(
    security_id: str, name: str, source: str, frequency: BarFrequency = "daily"
) -> DatasetSpec:
    return DatasetSpec(
        dataset_code="OHLCV_" + security_id.replace(":", "_"),
        table_name="stock_prices",
        domain="equity",
        date_column="trade_date",
        filter_sql=f"security_id = {sql_literal(security_id)}",
        title_ko=f"{name} {TITLE_BY_BAR[frequency]} 시세 (OHLCV)",
        source=source,
        max_stale_days=STALE_DAYS_BY_BAR[frequency],
    )


_STORED_FREQUENCY = """
SELECT s.bar_frequency,
       EXISTS (SELECT 1 FROM stock_prices p WHERE p.security_id = s.security_id) AS has_bars
FROM stocks s WHERE s.security_id = %(sid)s
"""
_SET_FREQUENCY = "UPDATE stocks SET bar_frequency = %(frequency)s WHERE security_id = %(sid)s"


def check_bar_frequency(conn: Conn, security_id: str, bars: Sequence[OhlcvBar]) -> BarFrequency:
    """The frequency the bars show (the stored one when they cannot tell); ImportFailed when
    the security already has bars of another frequency (monthly bars would corrupt a daily
    series' returns and volatility)."""
    detected = detect_frequency([b.trade_date for b in bars])
    row = conn.execute(_STORED_FREQUENCY, {"sid": security_id}).fetchone()
    stored = cast(BarFrequency, row["bar_frequency"]) if row else "daily"
    if detected is None:
        return stored
    if row is not None and row["has_bars"] and detected != stored:
        raise ImportFailed(
            f"{security_id} already has {stored} bars and these are {detected}: mixing "
            "frequencies would corrupt the series; import them under another security id"
        )
    return detected


# ---------------------------------------------------------------- macro series


@dataclass(frozen=True)
class SeriesInfo:
    series_code: str
    name: str
    name_ko: str
    country: str  # US | KR
    unit: str
    frequency: str  # daily | weekly | monthly | quarterly | annual
    source: str  # FRED | BOK | csv:<file>


@dataclass(frozen=True)
class MacroObservation:
    obs_date: date
    value: float
    published_at: datetime
    as_of_date: date


_UPSERT_SERIES = """
INSERT INTO macro_series (series_code, name, name_ko, country, unit, frequency, source)
VALUES (%(series_code)s, %(name)s, %(name_ko)s, %(country)s, %(unit)s, %(frequency)s, %(source)s)
ON CONFLICT (series_code) DO UPDATE SET
    name = EXCLUDED.name, name_ko = EXCLUDED.name_ko, country = EXCLUDED.country,
    unit = EXCLUDED.unit, frequency = EXCLUDED.frequency, source = EXCLUDED.source
"""

# A changed value is a revision: new value, new publication time, flag set. An unchanged
# value keeps its first publication time; as_of_date moves to the latest confirmation.
_UPSERT_OBSERVATION = """
INSERT INTO macro_observations (series_code, obs_date, value, published_at, as_of_date)
VALUES (%s, %s, %s, %s, %s)
ON CONFLICT (series_code, obs_date) DO UPDATE SET
    revision_flag = macro_observations.revision_flag
                    OR macro_observations.value IS DISTINCT FROM EXCLUDED.value,
    published_at = CASE WHEN macro_observations.value IS DISTINCT FROM EXCLUDED.value
                        THEN EXCLUDED.published_at ELSE macro_observations.published_at END,
    as_of_date = GREATEST(macro_observations.as_of_date, EXCLUDED.as_of_date),
    value = EXCLUDED.value
"""


def upsert_macro_series(conn: Conn, info: SeriesInfo) -> None:
    existing = conn.execute(
        "SELECT source FROM macro_series WHERE series_code = %s", (info.series_code,)
    ).fetchone()
    if existing and existing["source"] != info.source:
        logger.warning(
            "series %s was loaded from %s; now importing from %s into the same rows",
            info.series_code,
            existing["source"],
            info.source,
        )
    conn.execute(_UPSERT_SERIES, vars(info))


def upsert_observations(
    conn: Conn, series_code: str, observations: Sequence[MacroObservation]
) -> int:
    """Upsert observations; returns how many stored values they revised."""
    if not observations:
        return 0
    dates = [o.obs_date for o in observations]
    stored = {
        r["obs_date"]: r["value"]
        for r in conn.execute(
            "SELECT obs_date, value FROM macro_observations"
            " WHERE series_code = %s AND obs_date = ANY(%s)",
            (series_code, dates),
        )
    }
    revised = sum(1 for o in observations if o.obs_date in stored and stored[o.obs_date] != o.value)
    rows = [(series_code, o.obs_date, o.value, o.published_at, o.as_of_date) for o in observations]
    with conn.cursor() as cur:
        cur.executemany(_UPSERT_OBSERVATION, rows)
    return revised


def macro_dataset(info: SeriesInfo, source: str) -> DatasetSpec:
    return DatasetSpec(
        dataset_code=info.series_code,
        table_name="macro_observations",
        domain="macro",
        date_column="obs_date",
        filter_sql=f"series_code = {sql_literal(info.series_code)}",
        title_ko=info.name_ko,
        source=source,
        max_stale_days=STALE_DAYS_BY_FREQUENCY.get(info.frequency, 70),
    )


# ---------------------------------------------------------------- ETF holdings


@dataclass(frozen=True)
class HoldingRow:
    etf_code: str
    as_of_date: date
    security_id: str
    weight: float  # percent of net assets
    shares: int


_UPSERT_HOLDING = """
INSERT INTO etf_holdings (etf_code, as_of_date, security_id, weight, shares)
VALUES (%s, %s, %s, %s, %s)
ON CONFLICT (etf_code, as_of_date, security_id) DO UPDATE SET
    weight = EXCLUDED.weight, shares = EXCLUDED.shares
"""


def known_stocks(conn: Conn, security_ids: Iterable[str]) -> set[str]:
    rows = conn.execute(
        "SELECT security_id FROM stocks WHERE security_id = ANY(%s)", (sorted(set(security_ids)),)
    )
    return {r["security_id"] for r in rows}


def known_etfs(conn: Conn, codes: Iterable[str]) -> dict[str, str]:
    """ETF code → name for the codes that exist."""
    rows = conn.execute("SELECT code, name FROM etfs WHERE code = ANY(%s)", (sorted(set(codes)),))
    return {r["code"]: r["name"] for r in rows}


def upsert_holdings(conn: Conn, rows: Sequence[HoldingRow]) -> int:
    params = [(h.etf_code, h.as_of_date, h.security_id, h.weight, h.shares) for h in rows]
    with conn.cursor() as cur:
        cur.executemany(_UPSERT_HOLDING, params)
    return len(params)


def holdings_dataset(etf_code: str, etf_name: str, source: str) -> DatasetSpec:
    return DatasetSpec(
        dataset_code=f"ETF_HOLDINGS_{etf_code}",
        table_name="etf_holdings",
        domain="etf",
        date_column="as_of_date",
        filter_sql=f"etf_code = {sql_literal(etf_code)}",
        title_ko=f"{etf_name} 구성종목",
        source=source,
        max_stale_days=7,
    )


# ---------------------------------------------------------------- load steps (inside run_import)


def load_ohlcv(
    conn: Conn, stock: StockInfo, parsed: ParsedRows[OhlcvBar], source: str
) -> LoadOutcome:
    """Upsert the stock and its bars; registers the per-security OHLCV dataset."""
    outcome = _outcome(parsed)
    if parsed.rows:
        frequency = check_bar_frequency(conn, stock.security_id, parsed.rows)
        name = upsert_stock(conn, stock)
        conn.execute(_SET_FREQUENCY, {"frequency": frequency, "sid": stock.security_id})
        outcome.rows_loaded = upsert_stock_prices(conn, stock.security_id, parsed.rows)
        outcome.bar_frequency = frequency
        outcome.datasets = [ohlcv_dataset(stock.security_id, name, source, outcome.bar_frequency)]
        outcome.first_date = min(b.trade_date for b in parsed.rows)
        outcome.last_date = max(b.trade_date for b in parsed.rows)
        outcome.projection = ProjectionScope(
            security_ids=(stock.security_id,), since=outcome.first_date
        )
    return outcome


def load_macro(
    conn: Conn, series: SeriesInfo, parsed: ParsedRows[MacroObservation], source: str
) -> LoadOutcome:
    """Upsert the series and its observations; counts revised values."""
    outcome = _outcome(parsed)
    if parsed.rows:
        upsert_macro_series(conn, series)
        outcome.rows_revised = upsert_observations(conn, series.series_code, parsed.rows)
        outcome.rows_loaded = len(parsed.rows)
        outcome.datasets = [macro_dataset(series, source)]
        outcome.first_date = min(o.obs_date for o in parsed.rows)
        outcome.last_date = max(o.obs_date for o in parsed.rows)
        outcome.projection = ProjectionScope(
            series_codes=(series.series_code,), since=outcome.first_date
        )
    return outcome


def load_holdings(conn: Conn, parsed: ParsedRows[HoldingRow], source: str) -> LoadOutcome:
    """Upsert holdings whose ETF and stock exist; the others fail by row (nothing is invented)."""
    outcome = _outcome(parsed)
    etfs = known_etfs(conn, (h.etf_code for h in parsed.rows))
    stocks = known_stocks(conn, (h.security_id for h in parsed.rows))
    good: list[HoldingRow] = []
    for holding, where in zip(parsed.rows, parsed.row_locations, strict=True):
        if holding.etf_code not in etfs:
            outcome.failures.append(
                RowFailure(
                    where, "etf_code", f"ETF {holding.etf_code} is not in etfs (load ETFs first)"
                )
            )
        elif holding.security_id not in stocks:
            message = f"stock {holding.security_id} is not in stocks (import its prices first)"
            outcome.failures.append(RowFailure(where, "stock", message))
        else:
            good.append(holding)
    outcome.rows_loaded = upsert_holdings(conn, good)
    codes = sorted({h.etf_code for h in good})
    outcome.datasets = [holdings_dataset(code, etfs[code], source) for code in codes]
    if good:
        outcome.first_date = min(h.as_of_date for h in good)
        outcome.last_date = max(h.as_of_date for h in good)
        outcome.projection = ProjectionScope(etf_codes=tuple(codes), since=outcome.first_date)
    return outcome


def _outcome(parsed: ParsedRows[Any]) -> LoadOutcome:
    return LoadOutcome(
        rows_read=parsed.read,
        rows_loaded=0,
        failures=list(parsed.failures),
        rows_skipped=parsed.skipped,
    )
