"""Tables of rows (CSV files, yfinance frames, package data) → typed rows plus row failures.

Each `*_rows` function resolves the columns once (a missing column is fatal), then reads row
by row: a bad cell becomes a `RowFailure` naming the row and the column, the rest is kept.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, TypeVar

import pandas as pd

from data_access.errors import ImportFailed
from data_access.importers.base import ParsedRows, RowFailure
from data_access.importers.loaders import HoldingRow, OhlcvBar, normalize_security_id
from data_access.importers.parsing import (
    CellError,
    ColumnSpec,
    cell_text,
    is_missing,
    parse_date,
    parse_number,
    parse_whole,
    resolve_columns,
)

R = TypeVar("R")

DATE_ALIASES = (
    "date",
    "trade_date",
    "날짜",
    "일자",
    "일시",
    "거래일",
    "기준일",
    "기준일자",
    "datetime",
)
OHLCV_COLUMNS = (
    ColumnSpec("date", DATE_ALIASES),
    # A close-only file (no open/high/low) keeps those NULL, never a copy of the close.
    ColumnSpec("open", ("open", "시가", "시초가"), required=False),
    ColumnSpec("high", ("high", "고가"), required=False),
    ColumnSpec("low", ("low", "저가"), required=False),
    # Raw close first; an adjusted close, then a bare price, only when it is all the file has.
    ColumnSpec(
        "close",
        ("close", "종가", "현재가", "adj close", "adjusted close", "수정종가", "price", "가격"),
    ),
    ColumnSpec("volume", ("volume", "거래량", "vol"), required=False),
)
MACRO_COLUMNS = (
    ColumnSpec(
        "date",
        (
            "date",
            "observation_date",
            "obs_date",
            "month",
            "period",
            "날짜",
            "일자",
            "기준일",
            "시점",
        ),
    ),
)
HOLDINGS_COLUMNS = (
    ColumnSpec("etf_code", ("etf_code", "etf", "etf코드", "펀드코드"), required=False),
    ColumnSpec("date", ("as_of_date", *DATE_ALIASES)),
    ColumnSpec(
        "stock",
        ("stock_code", "security_id", "code", "ticker", "종목코드", "구성종목코드", "단축코드"),
    ),
    ColumnSpec("weight", ("weight", "weight_pct", "비중", "구성비중", "편입비중")),
    ColumnSpec("shares", ("shares", "주식수", "수량", "보유수량", "구성수량", "계약수")),
)


Locations = Sequence[str] | None  # 'line N' per record for files; None → 'row N' (1-based)


def _read_rows(
    frame: pd.DataFrame,
    parse_row: Callable[[Mapping[str, Any]], R | None],
    columns: Mapping[str, str],
    locations: Locations,
    key: Callable[[R], object],
) -> ParsedRows[R]:
    """Apply `parse_row` to each record; None means 'no value here' (skipped, not failed)."""
    parsed: ParsedRows[R] = ParsedRows(read=len(frame))
    seen: dict[object, str] = {}
    for position, record in enumerate(frame.to_dict("records")):
        where = locations[position] if locations else f"row {position + 1}"
        cells = {canonical: record.get(actual) for canonical, actual in columns.items()}
        try:
            row = parse_row(cells)
        except CellError as e:
            parsed.failures.append(RowFailure(where, columns.get(e.column, e.column), e.message))
            continue
        if row is None:
            parsed.skipped += 1
            continue
        if (k := key(row)) in seen:
            parsed.failures.append(RowFailure(where, None, f"duplicate of {seen[k]} ({k})"))
            continue
        seen[k] = where
        parsed.rows.append(row)
        parsed.row_locations.append(where)
    return parsed


# ---------------------------------------------------------------- OHLCV


def ohlcv_rows(
    frame: pd.DataFrame,
    *,
    source: str,
    locations: Locations,
    default_volume: int | None = None,
    ticker: str | None = None,
) -> ParsedRows[OhlcvBar]:
    """Bars of one series; absent open/high/low/volume columns give NULLs (an explicit
    `default_volume` fills a missing volume column instead). A close column may also be named
    by the `ticker` itself (date,AAPL), as wide price tables name their columns."""
    specs: tuple[ColumnSpec, ...] = OHLCV_COLUMNS
    if ticker:
        specs = tuple(
            ColumnSpec(c.canonical, (*c.aliases, ticker)) if c.canonical == "close" else c
            for c in OHLCV_COLUMNS
        )
    columns = resolve_columns(list(frame.columns), specs, source=source)

    def parse(cells: Mapping[str, Any]) -> OhlcvBar | None:
        present = [cells[k] for k in ("open", "high", "low", "close", "volume") if k in cells]
        if all(is_missing(p) for p in present):
            return None  # a no-trade day written as an empty row
        return _bar(cells, default_volume)

    return _read_rows(frame, parse, columns, locations, key=lambda b: b.trade_date)


def _bar(cells: Mapping[str, Any], default_volume: int | None) -> OhlcvBar:
    day = parse_date(cells["date"], "date")
    o, h, low = (parse_number(cells[k], k) if k in cells else None for k in ("open", "high", "low"))
    c = parse_number(cells["close"], "close")
    volume = parse_whole(cells["volume"], "volume") if "volume" in cells else default_volume
    for name, value in (("open", o), ("high", h), ("low", low), ("close", c)):
        if value is not None and value <= 0:
            raise CellError(name, f"price {value} is not positive")
    if low is not None and h is not None and low > h:
        raise CellError("low", f"low {low} is above high {h}")
    return OhlcvBar(day, o, h, low, c, volume)


# ---------------------------------------------------------------- macro


@dataclass(frozen=True)
class MacroValue:
    obs_date: date
    value: float


def macro_value_column(
    frame: pd.DataFrame, *, source: str, series_code: str, value_column: str | None, date_col: str
) -> str:
    """Explicit column > 'value'/'값' > a column named like the series (FRED CSV) > the only other."""
    columns = list(frame.columns)
    if value_column:
        spec = ColumnSpec("value", (value_column,))
        return resolve_columns(columns, (spec,), source=source)["value"]
    spec = ColumnSpec("value", ("value", "값", "지표값", "수치", series_code), required=False)
    found = resolve_columns(columns, (spec,), source=source)
    if "value" in found:
        return found["value"]
    others = [str(c) for c in frame.columns if str(c) != date_col]
    if len(others) == 1:
        return others[0]
    raise ImportFailed(
        f"cannot tell which column of {source} holds the values of {series_code}: {others}; "
        "name it 'value' or pass value_column (CLI: --value-column)"
    )


def macro_rows(
    frame: pd.DataFrame,
    *,
    source: str,
    series_code: str,
    value_column: str | None,
    locations: Locations,
) -> ParsedRows[MacroValue]:
    columns = resolve_columns(list(frame.columns), MACRO_COLUMNS, source=source)
    columns["value"] = macro_value_column(
        frame,
        source=source,
        series_code=series_code,
        value_column=value_column,
        date_col=columns["date"],
    )

    def parse(cells: Mapping[str, Any]) -> MacroValue | None:
        day = parse_date(cells["date"], "date")
        if is_missing(cells["value"]):
            return None  # FRED writes '.' or '' for a period without a value
        return MacroValue(day, parse_number(cells["value"], "value"))

    return _read_rows(frame, parse, columns, locations, key=lambda v: v.obs_date)


# ---------------------------------------------------------------- ETF holdings


def holdings_rows(
    frame: pd.DataFrame,
    *,
    source: str,
    etf_code: str | None,
    country: str,
    locations: Locations,
) -> ParsedRows[HoldingRow]:
    columns = resolve_columns(list(frame.columns), HOLDINGS_COLUMNS, source=source)
    if "etf_code" not in columns and not etf_code:
        raise ImportFailed(f"{source} has no etf_code column: pass etf_code (CLI: --etf-code)")

    def parse(cells: Mapping[str, Any]) -> HoldingRow:
        code = cell_text(cells["etf_code"]) if "etf_code" in cells else str(etf_code)
        if not code:
            raise CellError("etf_code", "ETF code is empty")
        day = parse_date(cells["date"], "date")
        weight = parse_number(cells["weight"], "weight", allow_percent=True)
        if not 0 <= weight <= 100:
            raise CellError("weight", f"weight {weight} is not a percent between 0 and 100")
        return HoldingRow(
            code.zfill(6) if code.isdigit() else code,
            day,
            _holding_security(cells["stock"], country),
            weight,
            parse_whole(cells["shares"], "shares"),
        )

    return _read_rows(
        frame, parse, columns, locations, key=lambda h: (h.etf_code, h.as_of_date, h.security_id)
    )


def _holding_security(value: Any, country: str) -> str:
    text = cell_text(value)
    if not text:
        raise CellError("stock", "stock code is empty")
    try:
        if ":" in text:
            return normalize_security_id(text)
        return normalize_security_id(code=text, country=country)
    except ImportFailed as e:
        raise CellError("stock", str(e)) from None
