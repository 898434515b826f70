"""KOSIS (국가통계포털) statistic table downloads (CSV, CP949) as macro series.

    import_kosis_csv(Path("소비자물가지수_20241130.csv"), series_code="KR_CPI",
                     name_ko="소비자물가지수", where={"시도별": "전국"})

A KOSIS CSV download has its classification columns first ('시도별', '품목별', '항목', '단위'
when there are several items) and one column per period ('2024.01', '2024.03 p)' for a
provisional figure, '2024.1/4' for quarters). One row is one series: `where` picks it by its
labels when the table holds several. '-' (없음) and 'X' (비밀보호) are skipped, not failed.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from psycopg_pool import ConnectionPool

from data_access.errors import ImportFailed
from data_access.importers.base import ImportJob, ImportResult, fail_import
from data_access.importers.loaders import SeriesInfo
from data_access.importers.source_files import read_source_text
from data_access.importers.stat_tables import (
    frequency_of,
    import_observations,
    observations_from_cells,
    read_wide_table,
    select_row,
)

UNIT_COLUMNS = ("단위", "UNIT")


def import_kosis_csv(
    path: Path,
    *,
    series_code: str,
    name_ko: str | None = None,
    unit: str | None = None,
    where: Mapping[str, str] | None = None,
    pool: ConnectionPool | None = None,
) -> ImportResult:
    """Load one row of a KOSIS CSV download into macro_series / macro_observations."""
    source = f"kosis:{path.name}"
    try:
        row = select_row(read_wide_table(read_source_text(path), path.name), where or {}, path.name)
    except ImportFailed as e:
        fail_import(ImportJob("kosis", source, series_code, "macro_observations"), e, pool)
    labels = [v for k, v in row.labels.items() if v and k not in UNIT_COLUMNS]
    name = name_ko or " ".join(labels) or series_code
    row_unit = unit or next((row.labels[c] for c in UNIT_COLUMNS if row.labels.get(c)), "value")
    series = SeriesInfo(
        series_code, name, name, "KR", row_unit, frequency_of(list(row.values)), source
    )
    parsed = observations_from_cells(row.values, f"{row.line}행")
    return import_observations("kosis", source, series, parsed, pool)
