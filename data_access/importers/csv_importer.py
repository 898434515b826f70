"""CSV (and DataFrame) imports: stock OHLCV, macro series and ETF holdings.

Files are decoded as UTF-8 (with or without BOM) and then CP949, the usual encoding of Korean
exports (HTS, KRX, 한국은행 ECOS). Headers match case-insensitively with common aliases
(Date/날짜, Close/종가, Adj Close, ...). Each line keeps its number for error messages.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pandas as pd
from psycopg_pool import ConnectionPool

from data_access.errors import ImportFailed
from data_access.importers.base import (
    ImporterName,
    ImportJob,
    ImportResult,
    ParsedRows,
    RowFailure,
    fail_import,
    run_import,
)
from data_access.importers.frames import holdings_rows, macro_rows, ohlcv_rows
from data_access.importers.loaders import (
    HoldingRow,
    MacroObservation,
    OhlcvBar,
    SeriesInfo,
    StockInfo,
    check_series_code,
    load_holdings,
    load_macro,
    load_ohlcv,
    normalize_security_id,
)
from data_access.importers.series import (
    SymbolSeries,
    one_series,
    split_by_symbol,
    symbol_security_id,
)

ENCODINGS = ("utf-8-sig", "cp949")
# What an import reads: the table, per-record locations (None: in memory), malformed lines.
TableSource = Callable[[], tuple[pd.DataFrame, Sequence[str] | None, list[RowFailure]]]


@dataclass
class CsvTable:
    """A decoded CSV: records as text, the line number of each, and lines that were malformed."""

    frame: pd.DataFrame
    locations: list[str]
    encoding: str
    malformed: list[RowFailure] = field(default_factory=list)


def read_csv_table(path: Path) -> CsvTable:
    """Decode and split a CSV file; a record with extra non-empty fields fails by line."""
    if not path.is_file():
        raise ImportFailed(f"CSV file not found: {path}")
    raw = path.read_bytes()
    text, encoding = _decode(raw, path)
    reader = csv.reader(io.StringIO(text, newline=""), dialect=_dialect(text))
    header = next(reader, None)
    if not header or not any(h.strip() for h in header):
        raise ImportFailed(f"{path} has no header line")
    header = [h.strip() for h in header]
    records: list[list[str]] = []
    table = CsvTable(pd.DataFrame(), [], encoding)
    for fields in reader:
        if not any(f.strip() for f in fields):
            continue  # blank line
        where = f"line {reader.line_num}"
        if len(fields) > len(header) and any(f.strip() for f in fields[len(header) :]):
            message = f"{len(fields)} fields but the header has {len(header)}"
            table.malformed.append(RowFailure(where, None, message))
            continue
        records.append((fields + [""] * len(header))[: len(header)])
        table.locations.append(where)
    table.frame = pd.DataFrame(records, columns=header, dtype=object)
    return table


def _decode(raw: bytes, path: Path) -> tuple[str, str]:
    for encoding in ENCODINGS:
        try:
            return raw.decode(encoding), encoding
        except UnicodeDecodeError:
            continue
    raise ImportFailed(f"{path} is neither UTF-8 nor CP949 text")


def _dialect(text: str) -> type[csv.Dialect] | csv.Dialect:
    first_line = text.split("\n", 1)[0]
    try:
        return csv.Sniffer().sniff(first_line, delimiters=",;\t|")
    except csv.Error:
        return csv.excel  # a one-column header gives the sniffer nothing to go on


def _with_malformed(parsed: ParsedRows[Any], table: CsvTable) -> None:
    parsed.failures = table.malformed + parsed.failures
    parsed.read += len(table.malformed)


# ---------------------------------------------------------------- OHLCV


def import_ohlcv_csv(
    path: Path | str,
    security_id: str | None = None,
    *,
    code: str | None = None,
    country: str | None = None,
    stock: StockInfo | None = None,
    default_volume: int | None = None,
    pool: ConnectionPool | None = None,
) -> ImportResult:
    """Bars of one stock from a CSV (date, close[, open, high, low, volume]); in a file with a
    symbol column, that stock's rows."""
    path = Path(path).resolve()
    stock = _stock_info(security_id, code, country, stock)
    return _import_ohlcv(stock, "csv", str(path), _csv_reader(path), default_volume, pool)


def import_ohlcv_frame(
    frame: pd.DataFrame,
    security_id: str | None = None,
    *,
    source: str,
    code: str | None = None,
    country: str | None = None,
    stock: StockInfo | None = None,
    default_volume: int | None = None,
    importer: ImporterName = "csv",
    pool: ConnectionPool | None = None,
) -> ImportResult:
    """The same import from an in-memory table (package data, a yfinance frame, ...)."""
    stock = _stock_info(security_id, code, country, stock)
    return _import_ohlcv(stock, importer, source, _fixed(frame, None, []), default_volume, pool)


@dataclass(frozen=True)
class SymbolImports:
    """A multi-symbol import: one recorded run per series; a failed series does not stop the rest."""

    results: list[ImportResult]
    failed: dict[str, str]  # security_id -> the error (its error run is recorded)


def import_ohlcv_csv_symbols(
    path: Path | str,
    *,
    country: str | None = None,
    default_volume: int | None = None,
    pool: ConnectionPool | None = None,
) -> SymbolImports:
    """Every series of a CSV with a symbol column (symbol, date, close/price, ...), each under its
    own security and its own import run; lines the CSV reader refused go with the first series."""
    path = Path(path).resolve()
    try:
        table = read_csv_table(path)
        series = split_by_symbol(table.frame, table.locations, source=str(path))
    except ImportFailed as e:
        fail_import(ImportJob("csv", str(path), None, "stock_prices"), e, pool)
    return _import_symbols(series, table.malformed, "csv", str(path), country, default_volume, pool)


def import_ohlcv_frame_symbols(
    frame: pd.DataFrame,
    *,
    source: str,
    country: str | None = None,
    default_volume: int | None = None,
    importer: ImporterName = "csv",
    pool: ConnectionPool | None = None,
) -> SymbolImports:
    """The same from an in-memory table (a long-format frame: one row per symbol and date)."""
    try:
        series = split_by_symbol(frame, None, source=source)
    except ImportFailed as e:
        fail_import(ImportJob(importer, source, None, "stock_prices"), e, pool)
    return _import_symbols(series, [], importer, source, country, default_volume, pool)


def _import_symbols(
    series: list[SymbolSeries],
    malformed: list[RowFailure],
    importer: ImporterName,
    source: str,
    country: str | None,
    default_volume: int | None,
    pool: ConnectionPool | None,
) -> SymbolImports:
    done = SymbolImports([], {})
    for position, one in enumerate(series):
        read = _fixed(one.frame, one.locations, malformed if position == 0 else [])
        try:
            stock = StockInfo(symbol_security_id(one.symbol, country, source))
            done.results.append(_import_ohlcv(stock, importer, source, read, default_volume, pool))
        except ImportFailed as e:
            done.failed[one.symbol] = str(e)
    return done


def _import_ohlcv(
    stock: StockInfo,
    importer: ImporterName,
    source: str,
    read: TableSource,
    default_volume: int | None,
    pool: ConnectionPool | None,
) -> ImportResult:
    job = ImportJob(
        importer, source, "OHLCV_" + stock.security_id.replace(":", "_"), "stock_prices"
    )

    def fetch() -> ParsedRows[OhlcvBar]:
        frame, locations, malformed = read()
        frame, locations = one_series(frame, locations, stock.security_id, source)
        ticker = stock.security_id.split(":", 1)[1]
        parsed = ohlcv_rows(
            frame, source=source, locations=locations, default_volume=default_volume, ticker=ticker
        )
        parsed.failures = malformed + parsed.failures
        parsed.read += len(malformed)
        return parsed

    return run_import(job, fetch, lambda conn, p: load_ohlcv(conn, stock, p, importer), pool)


def _fixed(
    frame: pd.DataFrame, locations: Sequence[str] | None, malformed: list[RowFailure]
) -> TableSource:
    return lambda: (frame, locations, malformed)


def _csv_reader(path: Path) -> TableSource:
    def read() -> tuple[pd.DataFrame, list[str] | None, list[RowFailure]]:
        table = read_csv_table(path)
        return table.frame, table.locations, table.malformed

    return read


def _stock_info(
    security_id: str | None, code: str | None, country: str | None, stock: StockInfo | None
) -> StockInfo:
    given = security_id or (stock.security_id if stock else None)
    sid = normalize_security_id(given, code=code, country=country)
    base = stock or StockInfo(sid)
    return StockInfo(sid, base.name, base.name_en, base.market, base.sector, base.currency)


# ---------------------------------------------------------------- macro


def import_macro_csv(
    path: Path | str,
    series: SeriesInfo,
    *,
    value_column: str | None = None,
    pool: ConnectionPool | None = None,
) -> ImportResult:
    """One macro series from a CSV (date + value; FRED's own CSV download works as is)."""
    path = Path(path).resolve()
    return _import_macro(series, str(path), _csv_reader(path), value_column, pool)


def import_macro_frame(
    frame: pd.DataFrame,
    series: SeriesInfo,
    *,
    source: str,
    value_column: str | None = None,
    pool: ConnectionPool | None = None,
) -> ImportResult:
    return _import_macro(series, source, _fixed(frame, None, []), value_column, pool)


def _import_macro(
    series: SeriesInfo,
    source: str,
    read: TableSource,
    value_column: str | None,
    pool: ConnectionPool | None,
) -> ImportResult:
    check_series_code(series.series_code)
    job = ImportJob("csv", source, series.series_code, "macro_observations")
    # CSV has no publication metadata: the import itself is the publication we know of.
    now = datetime.now(UTC)

    def fetch() -> ParsedRows[MacroObservation]:
        frame, locations, malformed = read()
        values = macro_rows(
            frame,
            source=source,
            series_code=series.series_code,
            value_column=value_column,
            locations=locations,
        )
        observations = [MacroObservation(v.obs_date, v.value, now, now.date()) for v in values.rows]
        return ParsedRows(
            rows=observations,
            row_locations=values.row_locations,
            failures=malformed + values.failures,
            skipped=values.skipped,
            read=values.read + len(malformed),
        )

    return run_import(job, fetch, lambda conn, p: load_macro(conn, series, p, "csv"), pool)


# ---------------------------------------------------------------- ETF holdings


def import_etf_holdings_csv(
    path: Path | str,
    *,
    etf_code: str | None = None,
    country: str = "KR",
    pool: ConnectionPool | None = None,
) -> ImportResult:
    """Holdings snapshots (etf_code, date, stock code, weight %, shares) of existing ETFs/stocks."""
    path = Path(path).resolve()
    dataset = f"ETF_HOLDINGS_{etf_code.zfill(6)}" if etf_code and etf_code.isdigit() else None
    job = ImportJob("csv", str(path), dataset, "etf_holdings")

    def fetch() -> ParsedRows[HoldingRow]:
        table = read_csv_table(path)
        parsed = holdings_rows(
            table.frame,
            source=str(path),
            etf_code=etf_code,
            country=country,
            locations=table.locations,
        )
        _with_malformed(parsed, table)
        return parsed

    return run_import(job, fetch, lambda conn, p: load_holdings(conn, p, "csv"), pool)
