"""Price tables as users bring them: a symbol column splits a table into series.

>>> [s.symbol for s in split_by_symbol(frame, None, source="stocks.csv")]  # symbol,date,price
['MSFT', 'AMZN', 'IBM', 'GOOG', 'AAPL']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from data_access.errors import ImportFailed
from data_access.importers.loaders import normalize_security_id
from data_access.importers.parsing import ColumnSpec, cell_text, resolve_columns

SYMBOL_COLUMN = ColumnSpec(
    "symbol", ("symbol", "ticker", "security_id", "종목코드", "단축코드", "티커"), required=False
)


@dataclass(frozen=True)
class SymbolSeries:
    """The rows of one symbol, with their locations in the source ('line N' / 'row N')."""

    symbol: str
    frame: pd.DataFrame
    locations: list[str]


def symbol_column(frame: pd.DataFrame, source: str) -> str | None:
    return resolve_columns(list(frame.columns), (SYMBOL_COLUMN,), source=source).get("symbol")


def split_by_symbol(
    frame: pd.DataFrame, locations: Sequence[str] | None, *, source: str
) -> list[SymbolSeries]:
    """One series per symbol in first-seen order; a table without a symbol column is one series
    (symbol ''). A row without a symbol is refused by line: it belongs to no series."""
    column = symbol_column(frame, source)
    where = list(locations) if locations else [f"row {i + 1}" for i in range(len(frame))]
    if column is None:
        return [SymbolSeries("", frame, where)]
    symbols = [cell_text(v).upper() for v in frame[column]]
    blank = [w for w, s in zip(where, symbols, strict=True) if not s]
    if blank:
        raise ImportFailed(
            f"{source}: {len(blank)} rows have an empty '{column}' ({', '.join(blank[:5])}); "
            "every row of a multi-symbol file needs its symbol"
        )
    series = []
    for symbol in dict.fromkeys(symbols):
        mask = [s == symbol for s in symbols]
        picked = [w for w, keep in zip(where, mask, strict=True) if keep]
        series.append(SymbolSeries(symbol, frame[mask].reset_index(drop=True), picked))
    return series


def symbol_security_id(symbol: str, country: str | None, source: str) -> str:
    """'KR:005930' as written, or a bare code/ticker with the file's country."""
    if ":" in symbol:
        return normalize_security_id(symbol)
    if not country:
        raise ImportFailed(
            f"{source} names securities by bare symbol ({symbol}): pass country (CLI: --country)"
        )
    return normalize_security_id(code=symbol, country=country)


def one_series(
    frame: pd.DataFrame, locations: Sequence[str] | None, security_id: str, source: str
) -> tuple[pd.DataFrame, Sequence[str] | None]:
    """The rows of `security_id` when the table has a symbol column; ImportFailed when the table
    holds other symbols only, or several without this one (they are not duplicates of it)."""
    series = split_by_symbol(frame, locations, source=source)
    if len(series) == 1 and not series[0].symbol:
        return frame, locations
    code = security_id.split(":", 1)[1]
    for s in series:
        if s.symbol in (security_id, code):
            return s.frame, s.locations
    if len(series) == 1:
        return series[0].frame, series[0].locations  # one symbol: the given id names it
    names = ", ".join(s.symbol for s in series[:10])
    raise ImportFailed(
        f"{source} holds {len(series)} symbols ({names}) and none is {security_id}: import every "
        "series with import_ohlcv_csv_symbols (CLI: without --security-id, with --country)"
    )
