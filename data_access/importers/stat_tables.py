"""Wide statistics tables as KOSIS and ECOS downloads write them, and their load as macro series.

    "시도별","항목","단위","2024.01","2024.02",...      <- label columns, then one column per period
    "전국","소비자물가지수","2020=100","113.15","113.77",...

`read_wide_table` finds the header (the first row with period columns), keeps each data row's
labels and its values by period; `select_row` picks the one row a series is (by label filters
such as {"시도별": "전국"}); `import_observations` loads a series' values into macro_series /
macro_observations through the shared macro loader, as one import run.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime

from psycopg_pool import ConnectionPool

from data_access.errors import ImportFailed
from data_access.importers.base import (
    ImporterName,
    ImportJob,
    ImportResult,
    ParsedRows,
    RowFailure,
    run_import,
)
from data_access.importers.loaders import (
    MacroObservation,
    SeriesInfo,
    check_series_code,
    load_macro,
)
from data_access.importers.periods import is_period, parse_period
from data_access.importers.source_files import parse_amount

MISSING_MARKS = ("", "-", "…", "...", "x", "X", "NA")  # KOSIS/ECOS: 없음, 비밀보호, 미상


@dataclass
class WideRow:
    """One data row: its label cells and its (period label -> cell text) values."""

    line: int
    labels: dict[str, str]
    values: dict[str, str] = field(default_factory=dict)

    def describe(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.labels.items() if v)


def read_wide_table(text: str, name: str) -> list[WideRow]:
    rows = list(csv.reader(io.StringIO(text)))
    for i, row in enumerate(rows):
        cells = [c.strip() for c in row]
        periods = [j for j, c in enumerate(cells) if c and is_period(c)]
        if len(periods) >= 1 and len(periods) < len(cells):
            return _data_rows(rows[i + 1 :], cells, set(periods), i + 2)
    raise ImportFailed(
        f"{name}: 통계표 CSV가 아닙니다 (시점 열 '2024.01', '202401', '2024' 등이 있는 머리글 행을 "
        "찾지 못했습니다)"
    )


def _data_rows(
    rows: list[list[str]], header: list[str], periods: set[int], first: int
) -> list[WideRow]:
    out: list[WideRow] = []
    for line, row in enumerate(rows, start=first):
        cells = [c.strip() for c in row]
        if not any(cells):
            continue
        wide = WideRow(
            line,
            {h: c for j, (h, c) in enumerate(zip(header, cells, strict=False)) if j not in periods},
        )
        wide.values = {header[j]: cells[j] if j < len(cells) else "" for j in sorted(periods)}
        out.append(wide)
    return out


def select_row(rows: list[WideRow], where: Mapping[str, str], name: str) -> WideRow:
    """The one row whose labels match `where`; ImportFailed listing the rows otherwise."""
    unknown = [k for k in where if rows and k not in rows[0].labels]
    if unknown:
        columns = ", ".join(rows[0].labels)
        raise ImportFailed(f"{name}: 없는 열입니다: {', '.join(unknown)} (열: {columns})")
    matches = [r for r in rows if all(r.labels.get(k) == v for k, v in where.items())]
    if len(matches) == 1:
        return matches[0]
    shown = "; ".join(r.describe() for r in (matches or rows)[:8])
    if not matches:
        raise ImportFailed(f"{name}: 조건에 맞는 행이 없습니다 ({shown})")
    raise ImportFailed(
        f"{name}: 행이 {len(matches)}개입니다. --row 열=값으로 하나를 고르세요 ({shown})"
    )


def observations_from_cells(values: Mapping[str, str], where: str) -> ParsedRows[MacroObservation]:
    """(period label -> value text) as observations; '-' and blanks are skipped, not failed."""
    parsed: ParsedRows[MacroObservation] = ParsedRows()
    now = datetime.now(UTC)
    seen: set[date] = set()
    for label, text in values.items():
        parsed.read += 1
        location = f"{where} {label}"
        if text.strip() in MISSING_MARKS:
            parsed.skipped += 1
            continue
        try:
            day, _ = parse_period(label)
            value = parse_amount(text)
        except ValueError as e:
            parsed.failures.append(RowFailure(location, label, str(e)))
            continue
        if value is None or day in seen:
            parsed.failures.append(
                RowFailure(location, label, "값이 없거나 같은 시점이 두 번 있습니다")
            )
            continue
        seen.add(day)
        parsed.rows.append(MacroObservation(day, value, now, now.date()))
        parsed.row_locations.append(location)
    return parsed


def frequency_of(labels: list[str]) -> str:
    """The frequency of the periods (the first readable label decides)."""
    for label in labels:
        try:
            return parse_period(label)[1]
        except ValueError:
            continue
    return "monthly"


def import_observations(
    importer: ImporterName,
    source: str,
    series: SeriesInfo,
    parsed: ParsedRows[MacroObservation],
    pool: ConnectionPool | None,
) -> ImportResult:
    """One import run: the series and its observations into macro_series / macro_observations."""
    check_series_code(series.series_code)
    job = ImportJob(importer, source, series.series_code, "macro_observations")
    return run_import(
        job, lambda: parsed, lambda conn, p: load_macro(conn, series, p, source), pool
    )
