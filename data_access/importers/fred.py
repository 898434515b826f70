"""FRED series into macro_series / macro_observations.

Reads `fred/series` (metadata) and `fred/series/observations` (values) as JSON. FRED writes
'.' for a period without a value: such rows are skipped, not failed. An observation's
publication time is its `realtime_start` (the vintage it belongs to); a value that differs
from the stored one on re-import is a revision and sets `revision_flag`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from typing import Any

from psycopg_pool import ConnectionPool

from data_access.config import Settings, get_settings
from data_access.errors import ImportFailed
from data_access.importers.base import ImportJob, ImportResult, ParsedRows, RowFailure, run_import
from data_access.importers.http_client import JsonResponse, get_json
from data_access.importers.loaders import (
    MacroObservation,
    SeriesInfo,
    check_series_code,
    load_macro,
)
from data_access.importers.parsing import CellError, is_missing, parse_date, parse_number

DEFAULT_FRED_BASE_URL = "https://api.stlouisfed.org"
MISSING_KEY_MESSAGE = (
    "FRED API key is not set: set FRED_API_KEY in the environment or fred_api_key in "
    ".streamlit/secrets.toml (a free key: https://fred.stlouisfed.org/docs/api/api_key.html)"
)
FREQUENCIES = {
    "D": "daily",
    "W": "weekly",
    "BW": "biweekly",
    "M": "monthly",
    "Q": "quarterly",
    "SA": "semiannual",
    "A": "annual",
}
# Korean display names for series analysts ask about; others fall back to the FRED title.
KOREAN_NAMES = {
    "FEDFUNDS": "미국 연방기금 실효금리 (월평균)",
    "DFF": "미국 연방기금 실효금리 (일별)",
    "DGS10": "미국 10년 만기 국채금리",
    "DGS2": "미국 2년 만기 국채금리",
    "T10Y2Y": "미국 장단기 금리차 (10년-2년)",
    "CPIAUCSL": "미국 소비자물가지수 (CPI)",
    "PCEPILFE": "미국 근원 PCE 물가지수",
    "UNRATE": "미국 실업률",
    "PAYEMS": "미국 비농업 부문 고용자 수",
    "GDP": "미국 명목 GDP",
    "GDPC1": "미국 실질 GDP",
    "M2SL": "미국 M2 통화량",
    "DEXKOUS": "원/달러 환율",
    "VIXCLS": "VIX 변동성 지수",
}


@dataclass(frozen=True)
class FredSeriesMeta:
    series_id: str
    title: str
    frequency: str  # daily | weekly | monthly | ...
    units: str
    seasonal_adjustment: str | None


def parse_series(payload: Any, series_id: str) -> FredSeriesMeta:
    """`{"seriess": [{"id", "title", "frequency_short", "units", ...}]}` → metadata."""
    entries = payload.get("seriess") if isinstance(payload, dict) else None
    if not entries:
        raise ImportFailed(f"FRED series response for {series_id} has no 'seriess' entry")
    entry = entries[0]
    short = str(entry.get("frequency_short") or "").upper()
    frequency = FREQUENCIES.get(short) or str(entry.get("frequency") or "unknown").lower()
    return FredSeriesMeta(
        series_id=str(entry.get("id") or series_id),
        title=str(entry.get("title") or series_id),
        frequency=frequency,
        units=str(entry.get("units") or "unknown"),
        seasonal_adjustment=entry.get("seasonal_adjustment_short"),
    )


def parse_observations(payload: Any) -> ParsedRows[MacroObservation]:
    """`{"observations": [{"date", "value", "realtime_start", ...}]}` → observations."""
    items = payload.get("observations") if isinstance(payload, dict) else None
    if not isinstance(items, list):
        raise ImportFailed("FRED observations response has no 'observations' list")
    parsed: ParsedRows[MacroObservation] = ParsedRows(read=len(items))
    seen: set[date] = set()
    for index, item in enumerate(items, start=1):
        where = f"observation {index} ({item.get('date', '?')})"
        try:
            observation = _observation(item)
        except CellError as e:
            parsed.failures.append(RowFailure(where, e.column, e.message))
            continue
        if observation is None:
            parsed.skipped += 1
        elif observation.obs_date in seen:
            parsed.failures.append(RowFailure(where, "date", "duplicate date"))
        else:
            seen.add(observation.obs_date)
            parsed.rows.append(observation)
            parsed.row_locations.append(where)
    return parsed


def _observation(item: dict[str, Any]) -> MacroObservation | None:
    obs_date = parse_date(item.get("date"), "date")
    if is_missing(item.get("value")):
        return None
    value = parse_number(item.get("value"), "value")
    vintage = parse_date(item.get("realtime_start"), "realtime_start")
    return MacroObservation(obs_date, value, datetime.combine(vintage, time(), UTC), vintage)


def series_info(
    meta: FredSeriesMeta, *, name_ko: str | None = None, country: str = "US"
) -> SeriesInfo:
    title = (
        meta.title if not meta.seasonal_adjustment else f"{meta.title} ({meta.seasonal_adjustment})"
    )
    return SeriesInfo(
        series_code=meta.series_id,
        name=title,
        name_ko=name_ko or KOREAN_NAMES.get(meta.series_id, meta.title),
        country=country,
        unit=meta.units,
        frequency=meta.frequency,
        source="FRED",
    )


def _fred_get(base_url: str, path: str, params: dict[str, str], attempts: int) -> Any:
    response: JsonResponse = get_json(
        f"{base_url.rstrip('/')}/{path}", params, what="FRED", attempts=attempts
    )
    body = response.body
    if response.status_code != 200 or not isinstance(body, dict):
        detail = body.get("error_message") if isinstance(body, dict) else None
        raise ImportFailed(
            f"FRED answered HTTP {response.status_code} for {response.url}: {detail or 'no JSON body'}"
        )
    return body


def import_fred_series(
    series_id: str,
    *,
    start: date | None = None,
    end: date | None = None,
    name_ko: str | None = None,
    country: str = "US",
    settings: Settings | None = None,
    base_url: str | None = None,
    attempts: int = 3,
    pool: ConnectionPool | None = None,
) -> ImportResult:
    """Observations of one FRED series (all history unless start/end) into macro_observations."""
    settings = settings or get_settings()
    series_id = check_series_code(series_id.strip().upper())
    # `fred_base_url` is read if the settings grow one; tests pass base_url.
    base = base_url or getattr(settings, "fred_base_url", None) or DEFAULT_FRED_BASE_URL
    job = ImportJob(
        "fred",
        f"{base.rstrip('/')}/fred/series/observations?series_id={series_id}",
        series_id,
        "macro_observations",
    )
    found: dict[str, SeriesInfo] = {}

    def fetch() -> ParsedRows[MacroObservation]:
        key = settings.fred_api_key.get_secret_value() if settings.fred_api_key else ""
        if not key.strip():
            raise ImportFailed(MISSING_KEY_MESSAGE)
        params = {"series_id": series_id, "api_key": key, "file_type": "json"}
        meta = parse_series(_fred_get(base, "fred/series", params, attempts), series_id)
        found["series"] = series_info(meta, name_ko=name_ko, country=country)
        if start:
            params["observation_start"] = start.isoformat()
        if end:
            params["observation_end"] = end.isoformat()
        return parse_observations(_fred_get(base, "fred/series/observations", params, attempts))

    return run_import(
        job, fetch, lambda conn, rows: load_macro(conn, found["series"], rows, "fred"), pool
    )
