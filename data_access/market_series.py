"""Market context series: index levels, VIX, BTC and WTI as daily OHLCV under their usual tickers.

    series_code_for("코스피")           # '^KS11'
    series_code_for("S&P 500")          # '^GSPC'
    series_code_for("KR:005930")        # None (a stock, not a market series)
    bars("^KS11", date(2026, 11, 1), date(2026, 11, 20), pool)  # [{"d": ..., "open": ...}, ...]

`SERIES` is the one list of what the workbench knows: the demo seed generates these, the
Yahoo importer stores them under the same codes, and their Korean/English names are written to
`entity_aliases` (kind 'market') so every screen resolves '나스닥' or '유가' to the same series.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Any, Literal

from psycopg_pool import ConnectionPool

from data_access.postgres import fetch_all, fetch_one

SeriesKind = Literal["index", "volatility", "crypto", "commodity"]
ALIAS_KIND = "market"  # entity_aliases.kind of these series' other names


@dataclass(frozen=True)
class MarketSeriesSpec:
    code: str  # Yahoo-style ticker
    name: str  # Korean name
    name_en: str
    kind: SeriesKind
    country: str  # KR | US | GLOBAL: the clock that dates a bar
    currency: str | None  # None for index points
    unit: str  # pt | USD | USD/bbl
    dataset_code: str
    aliases: tuple[str, ...]  # other names (matched case- and space-insensitively)


SERIES: tuple[MarketSeriesSpec, ...] = (
    MarketSeriesSpec("^KS11", "코스피", "KOSPI Composite Index", "index", "KR", None, "pt",
                     "KOSPI_INDEX",
                     ("KOSPI", "KS11", "코스피지수", "코스피 종합", "코스피종합지수")),
    MarketSeriesSpec("^KQ11", "코스닥", "KOSDAQ Composite Index", "index", "KR", None, "pt",
                     "KOSDAQ_INDEX", ("KOSDAQ", "KQ11", "코스닥지수", "코스닥 종합")),
    MarketSeriesSpec("^GSPC", "S&P 500", "S&P 500", "index", "US", None, "pt",
                     "SP500_INDEX",
                     ("S&P500", "SPX", "GSPC", "SP500", "에스앤피500", "S&P 500 지수", "에스앤피")),
    MarketSeriesSpec("^IXIC", "나스닥 종합", "NASDAQ Composite", "index", "US", None, "pt",
                     "NASDAQ_INDEX",
                     ("NASDAQ", "나스닥", "IXIC", "나스닥지수", "나스닥 종합지수",
                      "NASDAQ Composite", "Nasdaq Composite Index")),
    MarketSeriesSpec("^DJI", "다우", "Dow Jones Industrial Average", "index", "US", None, "pt",
                     "DOW_INDEX",
                     ("DJI", "DJIA", "다우지수", "다우존스", "Dow Jones", "다우 존스")),
    MarketSeriesSpec("^VIX", "VIX 지수", "CBOE Volatility Index", "volatility", "US", None, "pt",
                     "VIX_INDEX", ("VIX", "빅스", "VIX지수")),
    MarketSeriesSpec("BTC-USD", "비트코인", "Bitcoin USD", "crypto", "GLOBAL", "USD", "USD",
                     "BTC_USD_DAILY", ("BTC", "BTCUSD", "BTC/USD", "Bitcoin", "비트코인 가격")),
    MarketSeriesSpec("CL=F", "WTI 원유 선물", "WTI Crude Oil Futures", "commodity", "US", "USD",
                     "USD/bbl", "WTI_DAILY",
                     ("WTI", "유가", "국제유가", "원유", "WTI유가", "서부텍사스산원유", "Crude Oil")),
)  # fmt: skip

# Where a screen names an index by its vocabulary key (agents.understanding: KOSPI, SPX ...).
VOCABULARY_KEYS: dict[str, str] = {
    "KOSPI": "^KS11", "KOSDAQ": "^KQ11", "SPX": "^GSPC", "NASDAQ": "^IXIC", "DOW": "^DJI",
    "VIX": "^VIX", "BTC": "BTC-USD", "WTI": "CL=F",
}  # fmt: skip
UNIT_KO = {"pt": "포인트", "USD": "달러", "USD/bbl": "달러/배럴"}  # a series level's unit, said
# the units of a rate: it moves in %p (a gap of two rates is a rate too), a level in its own unit
RATE_UNITS = frozenset({"percent", "%", "%p", "bp"})


def is_rate_unit(unit: str) -> bool:
    return unit.strip().lower() in RATE_UNITS


def fold(text: str) -> str:
    """Upper case without whitespace: the form names and questions are compared in."""
    return re.sub(r"\s+", "", text).upper()


def _names() -> dict[str, str]:
    out: dict[str, str] = {}
    for spec in SERIES:
        for name in (spec.code, spec.code.lstrip("^"), spec.name, spec.name_en, *spec.aliases):
            out.setdefault(fold(name), spec.code)
    return out


_BY_NAME = _names()
_BY_CODE = {s.code: s for s in SERIES}


def series_code_for(text: str) -> str | None:
    """The market series a ticker or name means, or None (pure: the built-in list only)."""
    return _BY_NAME.get(fold(text)) if text and text.strip() else None


def spec_for(code: str) -> MarketSeriesSpec | None:
    return _BY_CODE.get(code)


def alias_rows() -> list[tuple[str, str, str]]:
    """(kind, alias, target) rows for `entity_aliases`: every other name of every series."""
    rows = {
        (ALIAS_KIND, alias, s.code)
        for s in SERIES
        for alias in (s.code.lstrip("^"), s.name_en, *s.aliases)
        if alias != s.code
    }
    return sorted(rows)


# ---------------------------------------------------------------- database

_FIND = (
    "SELECT m.series_code, m.name, m.name_en, m.kind, m.country, m.currency, m.unit"
    " FROM market_series m WHERE m.series_code = %(code)s"
    " OR upper(m.series_code) = %(folded)s OR m.series_code = ("
    "  SELECT a.target FROM entity_aliases a WHERE a.kind = 'market'"
    "  AND upper(regexp_replace(a.alias, '\\s+', '', 'g')) = %(folded)s LIMIT 1)"
    " LIMIT 1"
)


def find_series(text: str, pool: ConnectionPool | None = None) -> dict[str, Any] | None:
    """The stored series a ticker or name means (built-in names first, then stored aliases)."""
    if not text or not text.strip():
        return None
    code = series_code_for(text) or text.strip()
    return fetch_one(_FIND, {"code": code, "folded": fold(code)}, pool)


BARS_SQL = (
    "SELECT trade_date AS d, open, high, low, close, volume, change_rate"
    " FROM market_series_prices WHERE series_code = %(id)s"
    " AND trade_date BETWEEN %(start)s AND %(end)s ORDER BY trade_date"
)


def bars(
    code: str, start: date, end: date, pool: ConnectionPool | None = None
) -> list[dict[str, Any]]:
    """Daily bars of one series between two dates (inclusive), oldest first."""
    return fetch_all(BARS_SQL, {"id": code, "start": start, "end": end}, pool)


def dataset_code_of(code: str) -> str:
    """The catalogue dataset of a series (one per series: `MARKET_<code>` for imported extras)."""
    spec = spec_for(code)
    return (
        spec.dataset_code
        if spec
        else "MARKET_" + re.sub(r"[^A-Z0-9]+", "_", code.upper()).strip("_")
    )
