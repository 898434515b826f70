"""한국은행 ECOS: the OpenAPI `StatisticSearch` JSON answer, and the site's CSV download.

    import_ecos_file(Path("StatisticSearch_722Y001.json"))            # every item in the answer
    import_ecos_file(Path("ecos.csv"), series_code="KR_BASE_RATE")     # a wide CSV download

JSON: `{"StatisticSearch": {"list_total_count": N, "row": [{"STAT_CODE": "722Y001",
"ITEM_CODE1": "0101000", "ITEM_NAME1": "한국은행 기준금리", "UNIT_NAME": "연%", "TIME": "202401",
"DATA_VALUE": "3.5"}, ...]}}`; an error is `{"RESULT": {"CODE": "INFO-200", "MESSAGE": ...}}`.
Each (STAT_CODE, ITEM_CODE1..4) is one series: the workbench's own code where the series is
one the screens already read (기준금리 -> KR_BASE_RATE ...), else ECOS_<STAT>_<ITEMS>.
CSV: `통계표,계정항목,단위,변환,2024/01,...` (one row per item, periods as columns).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

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

# (STAT_CODE, ITEM_CODE1) -> the series code the Macro screen already reads.
KNOWN_SERIES = {
    ("722Y001", "0101000"): "KR_BASE_RATE",
    ("901Y009", "0"): "KR_CPI",
    ("731Y001", "0000001"): "KR_USDKRW",
}
UNITS = {"연%": "percent", "%": "percent", "2020=100": "index 2020=100", "원": "KRW per USD"}
_ITEM_KEYS = ("ITEM_CODE1", "ITEM_CODE2", "ITEM_CODE3", "ITEM_CODE4")


def _rows(body: Any, name: str) -> list[dict[str, Any]]:
    if isinstance(body, dict) and "RESULT" in body:
        result = body["RESULT"] or {}
        raise ImportFailed(
            f"{name}: ECOS 오류 {result.get('CODE', '?')}: {result.get('MESSAGE', '(메시지 없음)')}"
        )
    search = body.get("StatisticSearch") if isinstance(body, dict) else None
    rows = search.get("row") if isinstance(search, dict) else None
    if not isinstance(rows, list):
        raise ImportFailed(
            f"{name}: ECOS StatisticSearch 응답이 아닙니다 ('StatisticSearch.row'가 없습니다)"
        )
    return [r for r in rows if isinstance(r, dict)]


def _series_key(row: Mapping[str, Any]) -> tuple[str, ...]:
    return (str(row.get("STAT_CODE", "")),) + tuple(str(row.get(k) or "") for k in _ITEM_KEYS)


def series_code_for(key: tuple[str, ...]) -> str:
    known = KNOWN_SERIES.get((key[0], key[1]))
    if known and not any(key[2:]):
        return known
    return "ECOS_" + "_".join(p for p in key if p)


def _series(rows: list[dict[str, Any]], code: str, source: str) -> SeriesInfo:
    first = rows[0]
    names = [str(first.get(f"ITEM_NAME{i}") or "") for i in range(1, 5)]
    name_ko = " ".join(n for n in names if n) or str(first.get("STAT_NAME", code))
    unit = str(first.get("UNIT_NAME") or "")
    frequency = frequency_of([str(r.get("TIME", "")) for r in rows])
    return SeriesInfo(
        code, name_ko, name_ko, "KR", UNITS.get(unit, unit or "value"), frequency, source
    )


def _import_json(
    path: Path, series_code: str | None, pool: ConnectionPool | None
) -> list[ImportResult]:
    try:
        body = json.loads(read_source_text(path))
    except json.JSONDecodeError as e:
        raise ImportFailed(f"{path.name}: JSON 형식이 아닙니다 ({e.msg}, {e.lineno}행)") from e
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for row in _rows(body, path.name):
        groups.setdefault(_series_key(row), []).append(row)
    if not groups:
        raise ImportFailed(f"{path.name}: ECOS 응답에 자료 행이 없습니다")
    if series_code and len(groups) > 1:
        raise ImportFailed(
            f"{path.name}: 계열이 {len(groups)}개라 --series-code 하나로 이름 붙일 수 없습니다"
        )
    results = []
    for key, rows in groups.items():
        code = series_code or series_code_for(key)
        parsed = observations_from_cells(
            {str(r.get("TIME", "")): str(r.get("DATA_VALUE") or "") for r in rows}, path.name
        )
        source = f"ecos:{path.name}"
        results.append(
            import_observations("ecos", source, _series(rows, code, source), parsed, pool)
        )
    return results


def _import_csv(path: Path, series_code: str | None, where: Mapping[str, str],
                pool: ConnectionPool | None) -> ImportResult:  # fmt: skip
    if not series_code:
        raise ImportFailed(f"{path.name}: ECOS CSV에는 통계코드가 없습니다. --series-code를 주세요")
    row = select_row(read_wide_table(read_source_text(path), path.name), where, path.name)
    name_ko = row.labels.get("계정항목") or row.labels.get("통계표") or series_code
    unit = row.labels.get("단위", "")
    source = f"ecos:{path.name}"
    series = SeriesInfo(series_code, name_ko, name_ko, "KR", UNITS.get(unit, unit or "value"),
                        frequency_of(list(row.values)), source)  # fmt: skip
    parsed = observations_from_cells(row.values, f"{row.line}행")
    return import_observations("ecos", source, series, parsed, pool)


def import_ecos_file(
    path: Path,
    *,
    series_code: str | None = None,
    where: Mapping[str, str] | None = None,
    pool: ConnectionPool | None = None,
) -> list[ImportResult]:
    """Load an ECOS StatisticSearch JSON answer (.json) or a CSV download (.csv)."""
    try:
        if path.suffix.lower() == ".json":
            return _import_json(path, series_code, pool)
        return [_import_csv(path, series_code, where or {}, pool)]
    except ImportFailed as e:
        if "[import run" in str(e):
            raise  # run_import already recorded it
        job = ImportJob("ecos", f"ecos:{path.name}", series_code, "macro_observations")
        fail_import(job, e, pool)
