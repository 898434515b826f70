"""Seed 004 §9.5 checkpoints on the Data screen's "운영" tab: projection lag, run reports.

`render(pool)` is called by pages/_operations.py; every number comes from `data_access`, this
module only lays it out.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

import streamlit as st
from psycopg_pool import ConnectionPool

from data_access import catalog
from data_access.run_reports import LagThresholds, import_run_reports, projection_lags
from pages import _ui as ui

logger = logging.getLogger(__name__)

CACHE_TTL_S = 30
THRESHOLDS = LagThresholds()
LAG_LABELS: dict[str, tuple[str, ui.BadgeColor]] = {
    "ok": ("정상", "green"),
    "warn": ("경고", "orange"),
    "fail": ("실패", "red"),
    "none": ("프로젝션 없음", "gray"),
}
RUN_STATUS_KO = {"ok": "정상", "partial": "부분 실패", "error": "오류"}
LAG_HEADERS = {
    "domain": "도메인", "status": "지연 상태", "lag": "현재 지연", "freshness": "데이터 최신성",
    "projected_at": "마지막 프로젝션", "source_loaded_at": "원천 최근 적재",
    "recorded_lag_minutes": "적재→반영(분)", "latest_as_of": "최신 기준일",
    "rows_fetched": "가져온 행", "upserted": "반영", "failed": "실패",
}  # fmt: skip
STEP_HEADERS = {
    "domain": "도메인", "step": "단계", "rows_fetched": "가져온 행", "upserted": "반영",
    "failed": "실패", "latest_as_of": "최신 기준일", "lag_minutes": "적재→반영(분)",
    "status": "상태", "error": "오류", "batch_id": "배치",
}  # fmt: skip
IMPORT_HEADERS = {
    "run_id": "실행", "importer": "가져오기", "source": "원천", "dataset_code": "데이터셋",
    "rows_read": "가져온 행", "rows_loaded": "반영", "rows_failed": "실패",
    "latest_as_of": "최신 기준일", "lag_days": "지연(일)", "status": "상태", "error": "오류",
    "created_at": "실행 시각",
}  # fmt: skip
COUNT_FORMATS = {"rows_fetched": "localized", "upserted": "localized", "failed": "localized"}
IMPORT_HINT = (
    "아직 가져오기 실행 기록이 없습니다. 데모 데이터는 생성기로 적재되며, 실제 데이터는 "
    "`python -m data_access.importers csv|yahoo|fred …`로 가져오면 여기에 실행 보고가 남습니다."
)


# ---------------------------------------------------------------- cached loads


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def _projection_lags(_pool: ConnectionPool) -> list[dict[str, Any]]:
    return [lag.model_dump() for lag in projection_lags(_pool, thresholds=THRESHOLDS)]


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def _domain_freshness(_pool: ConnectionPool) -> dict[str, str]:
    return dict(catalog.domain_freshness(pool=_pool))


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def _import_runs(_pool: ConnectionPool, limit: int) -> list[dict[str, Any]]:
    return [run.model_dump() for run in import_run_reports(_pool, limit)]


# ---------------------------------------------------------------- §9.5 projection lag


def _minutes_text(minutes: float | None) -> str | None:
    if minutes is None:
        return None
    if minutes < 60:
        return f"{minutes:,.0f}분"
    hours = minutes / 60
    return f"{hours:,.1f}시간" if hours < 48 else f"{hours / 24:,.1f}일"


def _time_text(value: datetime | None) -> str | None:
    # Stored in UTC; minutes are enough to compare a projection with a load.
    return f"{value:%Y-%m-%d %H:%M} UTC" if value else None


def _lag_badges(lags: list[dict[str, Any]]) -> None:
    columns = st.columns(max(len(lags), 1))
    for column, lag in zip(columns, lags, strict=False):
        text, color = LAG_LABELS[lag["status"]]
        title = catalog.DOMAIN_TITLES_KO.get(lag["domain"], lag["domain"])
        amount = _minutes_text(lag["lag_minutes"])
        with column:
            st.badge(f"{title} · {text}" + (f" ({amount})" if amount else ""), color=color)


def _lag_rows(lags: list[dict[str, Any]], fresh: dict[str, str]) -> list[dict[str, Any]]:
    rows = []
    for lag in lags:
        status = LAG_LABELS[lag["status"]][0]
        if lag["pending"]:
            status += " · 미반영 적재 있음"
        rows.append(
            {**lag, "domain": catalog.DOMAIN_TITLES_KO.get(lag["domain"], lag["domain"]),
             "status": status, "lag": _minutes_text(lag["lag_minutes"]),
             "projected_at": _time_text(lag["projected_at"]),
             "source_loaded_at": _time_text(lag["source_loaded_at"]),
             "freshness": ui.freshness_label(fresh.get(lag["domain"], "missing"))}
        )  # fmt: skip
    return rows


def _step_rows(lags: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {**step, "domain": catalog.DOMAIN_TITLES_KO.get(step["domain"], step["domain"]),
         "status": RUN_STATUS_KO.get(step["status"], step["status"])}
        for lag in lags
        for step in lag["steps"]
    ]  # fmt: skip


def _render_projection_lag(pool: ConnectionPool) -> None:
    st.subheader("프로젝션 지연 (PostgreSQL → 그래프)")
    st.caption(
        f"그래프가 원천 적재보다 뒤처진 시간입니다. {_minutes_text(THRESHOLDS.warn_minutes)} 이상이면 "
        f"경고, {_minutes_text(THRESHOLDS.fail_minutes)} 이상이거나 단계 오류가 있으면 실패로 "
        "표시합니다. "
        "원천이 마지막 프로젝션 뒤에 다시 적재되지 않았다면 지연은 0분입니다."
    )
    try:
        lags = _projection_lags(pool)
        fresh = _domain_freshness(pool)
    except Exception as e:  # a page never shows a traceback; the reason is kept
        ui.show_error(e)
        return
    _lag_badges(lags)
    ui.show_table(
        _lag_rows(lags, fresh), LAG_HEADERS, key="ops_lag_table",
        formats={**COUNT_FORMATS, "recorded_lag_minutes": "%.1f"},
    )  # fmt: skip
    weak = [catalog.DOMAIN_TITLES_KO.get(d, d) for d, f in fresh.items() if f != "healthy"]
    if weak:
        st.warning(
            f"최신성이 '지연' 또는 '없음'인 도메인: {', '.join(weak)}. 이 도메인에 대한 답변은 "
            "강한 결론을 내리지 않고 최신성 경고를 붙입니다.",
            icon=":material/schedule:",
        )
    steps = _step_rows(lags)
    if steps:
        with st.expander(f"도메인별 최근 프로젝션 단계 보고 ({len(steps)}단계)"):
            ui.show_table(
                steps, STEP_HEADERS, key="ops_step_table",
                formats={**COUNT_FORMATS, "lag_minutes": "%.1f"},
            )  # fmt: skip


# ---------------------------------------------------------------- §9.5 import runs


def _render_import_runs(pool: ConnectionPool) -> None:
    st.subheader("최근 가져오기 실행 보고")
    try:
        runs = _import_runs(pool, 20)
    except Exception as e:
        ui.show_error(e)
        return
    if not runs:
        st.info(IMPORT_HINT, icon=":material/inbox:")
        return
    failed = sum(1 for r in runs if r["status"] != "ok")
    if failed:
        st.warning(f"최근 {len(runs)}회 중 {failed}회가 부분 실패 또는 오류로 끝났습니다.")
    table = [
        {**r, "status": RUN_STATUS_KO.get(r["status"], r["status"]),
         "created_at": _time_text(r["created_at"])}
        for r in runs
    ]  # fmt: skip
    ui.show_table(
        table, IMPORT_HEADERS, key="ops_import_table",
        formats={"rows_read": "localized", "rows_loaded": "localized",
                 "rows_failed": "localized"},
    )  # fmt: skip


# ---------------------------------------------------------------- tab


def render(pool: ConnectionPool) -> None:
    """Both §9.5 sections; each reports its own failure and the other still renders."""
    _render_projection_lag(pool)
    _render_import_runs(pool)
