"""Market context series from an importer (issue 25): `^KS11`, `^GSPC`, `BTC-USD`, `CL=F` ...

    market_series_for("^GSPC")   # the built-in S&P 500 spec
    market_series_for("^N225")   # an index the workbench does not list: a spec made from the ticker
    market_series_for("AAPL")    # None: a stock, loaded into stock_prices as before

Bars go to `market_series_prices` (not `stock_prices`: a series has no issuer, shares or
sector), under the same code the demo seed uses, so an import replaces demo bars day by day and
every screen reads it the same way.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from data_access.catalog import market_dataset
from data_access.importers.base import DatasetSpec, LoadOutcome, ParsedRows
from data_access.importers.loaders import Conn, OhlcvBar
from data_access.market_series import (
    ALIAS_KIND,
    MarketSeriesSpec,
    SeriesKind,
    dataset_code_of,
    series_code_for,
    spec_for,
)

_PATTERNS: tuple[tuple[str, SeriesKind, str, str | None, str], ...] = (
    (r"^\^[A-Z0-9.]{1,15}$", "index", "US", None, "pt"),  # Yahoo index tickers
    (r"^[A-Z0-9]{1,6}=F$", "commodity", "US", "USD", "USD"),  # futures
    (r"^[A-Z0-9]{2,10}-USD$", "crypto", "GLOBAL", "USD", "USD"),  # crypto in dollars
)


def market_series_for(ticker: str) -> MarketSeriesSpec | None:
    """The series a Yahoo ticker (or a known name: 코스피, 유가) loads into, or None for a stock."""
    code = series_code_for(ticker)
    if code is not None:
        return spec_for(code)
    upper = ticker.strip().upper()
    for pattern, kind, country, currency, unit in _PATTERNS:
        if re.fullmatch(pattern, upper):
            return MarketSeriesSpec(upper, upper, upper, kind, country, currency, unit,
                                    dataset_code_of(upper), ())  # fmt: skip
    return None


def series_dataset(spec: MarketSeriesSpec, source: str) -> DatasetSpec:
    d = market_dataset(spec)
    return DatasetSpec(d.dataset_code, d.table_name, d.domain, d.date_column, d.filter_sql,
                       d.title_ko, source, d.max_stale_days)  # fmt: skip


_UPSERT_SERIES = """
INSERT INTO market_series (series_code, name, name_en, kind, country, currency, unit, source)
VALUES (%(code)s, %(name)s, %(name_en)s, %(kind)s, %(country)s, %(currency)s, %(unit)s, %(source)s)
ON CONFLICT (series_code) DO UPDATE SET source = EXCLUDED.source"""
_ALIAS = """INSERT INTO entity_aliases (kind, alias, target) VALUES (%s, %s, %s)
ON CONFLICT DO NOTHING"""
_UPSERT_BAR = """
INSERT INTO market_series_prices (series_code, trade_date, open, high, low, close, volume)
VALUES (%s, %s, %s, %s, %s, %s, %s)
ON CONFLICT (series_code, trade_date) DO UPDATE SET open = EXCLUDED.open, high = EXCLUDED.high,
    low = EXCLUDED.low, close = EXCLUDED.close, volume = EXCLUDED.volume"""
_CHANGE_RATES = """
UPDATE market_series_prices p SET change_rate = round((p.close / l.prev - 1) * 100, 4)
FROM (SELECT trade_date, lag(close) OVER (ORDER BY trade_date) AS prev
      FROM market_series_prices WHERE series_code = %(code)s) l
WHERE p.series_code = %(code)s AND p.trade_date = l.trade_date AND l.prev > 0
  AND p.trade_date >= %(first)s"""


def load_market_bars(conn: Conn, spec: MarketSeriesSpec, parsed: ParsedRows[OhlcvBar],
                     source: str, name_en: str | None = None) -> LoadOutcome:  # fmt: skip
    """Upsert the series row, its aliases and its bars; change rates follow the stored closes."""
    outcome = LoadOutcome(rows_read=parsed.read, rows_loaded=0, failures=list(parsed.failures),
                          rows_skipped=parsed.skipped)  # fmt: skip
    if not parsed.rows:
        return outcome
    english = spec.name_en if spec_for(spec.code) else (name_en or spec.name_en)
    conn.execute(_UPSERT_SERIES, {
        "code": spec.code, "name": spec.name if spec_for(spec.code) else english,
        "name_en": english, "kind": spec.kind, "country": spec.country,
        "currency": spec.currency, "unit": spec.unit, "source": source,
    })  # fmt: skip
    with conn.cursor() as cur:
        cur.executemany(_ALIAS, [(ALIAS_KIND, a, spec.code) for a in _aliases(spec)])
        cur.executemany(_UPSERT_BAR, [(spec.code, b.trade_date, b.open, b.high, b.low, b.close,
                                       b.volume) for b in parsed.rows])  # fmt: skip
    first = min(b.trade_date for b in parsed.rows)
    conn.execute(_CHANGE_RATES, {"code": spec.code, "first": first})
    outcome.rows_loaded = len(parsed.rows)
    outcome.bar_frequency = "daily"
    outcome.datasets = [series_dataset(spec, source)]
    outcome.first_date, outcome.last_date = first, max(b.trade_date for b in parsed.rows)
    return outcome


def _aliases(spec: MarketSeriesSpec) -> Sequence[str]:
    names = (spec.code.lstrip("^"), spec.name, spec.name_en, *spec.aliases)
    return [a for a in dict.fromkeys(names) if a and a != spec.code]
