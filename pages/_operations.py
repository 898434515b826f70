"""The Data screen's "운영" tab (issue #7): evaluation KPIs against the seed 004 §6 targets,
trends over stored runs, the weekly summary, the latest failures with a rerun per case, a
button that runs the golden suites with a progress bar, and the §9.5 checkpoints.

Called from pages/data.py as `render(pool)`. The evaluation itself is `agents.eval`; this module
only lays out what it returns.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st
from psycopg_pool import ConnectionPool

from agents.eval import kpi_history, list_runs
from agents.eval.models import SUITES, CaseResult, KpiPoint, KpiValue, SuiteRun, WeeklySummary
from agents.eval.reports import format_kpi_value, format_target
from agents.eval.weekly import weekly_summary
from pages import _eval_failures as failures
from pages import _ops_checkpoints as checkpoints
from pages import _runtime as runtime
from pages import _ui as ui
from pages._charts import line_chart
from pages._eval_failures import SUITE_TITLES_KO, category_text, time_text

logger = logging.getLogger(__name__)

DEFAULT_SUITES = ["guard"]  # the quickest suite: hostile queries only, no agent turns
TILES_PER_ROW = 4
TREND_RUNS = 30
RUN_CHOICES = 10
CACHE_TTL_S = 30
# The percentage KPIs drawn with the pass rate; latencies get their own chart (ms, not %).
TREND_PERCENT_KPIS = ("evidence_rate", "routing_accuracy", "forbidden_cypher_block_rate",
                      "cypher_schema_ok")  # fmt: skip
TREND_LATENCY_KPIS = ("p95_latency_single", "p95_latency_multi")


# ---------------------------------------------------------------- cached loads
# Every tab of the Data screen runs on each interaction: reads are cached briefly and cleared
# when this tab stores a run.


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def _finished_runs(_pool: ConnectionPool, limit: int) -> list[SuiteRun]:
    """The newest finished suite runs with KPIs (a single-case rerun says little about KPIs)."""
    runs = list_runs(limit, _pool, kind="run")
    return [r for r in runs if r.status == "finished" and r.kpis is not None]


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def _kpi_history(_pool: ConnectionPool, limit: int) -> list[KpiPoint]:
    return kpi_history(limit, _pool)


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def _weekly(_pool: ConnectionPool, days: int) -> WeeklySummary:
    return weekly_summary(days, _pool, save=False)  # viewing the tab must not write rows


def _clear_cached_reads() -> None:
    for load in (_finished_runs, _kpi_history, _weekly):
        load.clear()
    failures.clear_cached_reads()


def _suite_names(suites: Sequence[str]) -> str:
    return ", ".join(SUITE_TITLES_KO.get(s, s) for s in suites)


# ---------------------------------------------------------------- KPI tiles


# The seed's KPI names keep English words ('Schema', 'Empty', 'Golden set', 'stale', 'fallback');
# the screen says them in Korean (the eval report keeps the seed's names). Cypher is a name.
SCREEN_LABELS = {
    "cypher_schema_ok": "스키마 불일치 없는 Cypher 실행률",
    "direction_empty_rate": "관계 방향 오류로 결과가 빈 응답률",
    "routing_accuracy": "라우팅 정확도(정답 세트)",
    "stale_assertion_rate": "오래된 데이터를 단정한 응답률",
    "fallback_per_turn": "대체 경로 평균 호출 수(턴당)",
}


CORRECTNESS = re.compile(r"^correctness_(?P<suite>[a-z]+)_")


def _label(kpi: KpiValue) -> str:
    """The KPI's Korean name; a screen's answer accuracy names the screen ('답변 정확도 종목
    리포트 (보류셋)', not the suite's id 'stock')."""
    found = CORRECTNESS.match(kpi.name)
    if found and found["suite"] in SUITE_TITLES_KO:
        suite = found["suite"]
        return kpi.label_ko.replace(f" {suite} ", f" {SUITE_TITLES_KO[suite]} ", 1)
    return SCREEN_LABELS.get(kpi.name, kpi.label_ko)


def _seconds(text: str) -> str:
    """'6 s' as the screen writes it: '6초' (the eval report keeps 's')."""
    return re.sub(r"(\d) s\b", r"\1초", text)


def _tile(kpi: KpiValue) -> None:
    with st.container(border=True):
        # The label as markdown: it wraps, where a metric label would be cut off.
        st.markdown(f"**{_label(kpi)}**", help=kpi.note or None)
        value = "–" if kpi.value is None else _seconds(format_kpi_value(kpi))
        st.metric(_label(kpi), value, label_visibility="collapsed")
        if kpi.met is None:
            st.badge(f"데이터 없음 · 목표 {_seconds(format_target(kpi))}", color="gray")
        elif kpi.met:
            st.badge(
                f"달성 · 목표 {_seconds(format_target(kpi))}",
                color="green",
                icon=":material/check:",
            )
        else:
            st.badge(
                f"미달 · 목표 {_seconds(format_target(kpi))}", color="red", icon=":material/close:"
            )


def _run_label(run: SuiteRun) -> str:
    rate = f"{run.pass_rate:.1f}%" if run.pass_rate is not None else "–"
    return f"{time_text(run.started_at)} · {_suite_names(run.suites)} · 통과율 {rate}"


def _pick_run(runs: list[SuiteRun]) -> SuiteRun | None:
    """The run the tiles show: the newest by default, or one picked from the recent ones."""
    if not runs:
        return None
    by_id = {r.run_id: r for r in runs}
    if st.session_state.get("ops_kpi_run") not in by_id:
        st.session_state["ops_kpi_run"] = runs[0].run_id  # a new run, or the first view
    chosen = st.selectbox(
        "KPI를 볼 평가 실행", list(by_id), key="ops_kpi_run",
        format_func=lambda run_id: _run_label(by_id[run_id]),
    )  # fmt: skip
    return by_id.get(chosen, runs[0])


def _render_kpis(runs: list[SuiteRun]) -> SuiteRun | None:
    st.subheader("KPI (목표 대비)")
    run = _pick_run(runs)
    if run is None or run.kpis is None:
        st.info(
            "아직 완료된 평가 실행이 없습니다. 아래 '평가 실행'으로 골든셋을 돌리면 KPI가 "
            "표시됩니다.",
            icon=":material/inbox:",
        )
        return None
    report = run.kpis
    rate = f"{run.pass_rate:.1f}%" if run.pass_rate is not None else "데이터 없음"
    st.caption(
        f"평가 실행 `{run.run_id}` ({time_text(run.started_at)}) · {_suite_names(run.suites)}"
        f" · {run.passed_count}/{run.case_count} 통과 ({rate}) · "
        + ("오프라인 플래너" if run.mode == "offline" else f"LLM `{run.model}`")
    )
    for start in range(0, len(report.kpis), TILES_PER_ROW):
        row = report.kpis[start : start + TILES_PER_ROW]
        for column, kpi in zip(st.columns(TILES_PER_ROW), row, strict=False):
            with column:
                _tile(kpi)
    missing = [k for k in report.kpis if k.met is None]
    if missing:
        st.caption(
            f"'데이터 없음' {len(missing)}개: 이 실행의 스위트에 해당 KPI를 잴 케이스가 "
            "없습니다 (100%로 간주하지 않습니다)."
        )
    return run


# ---------------------------------------------------------------- trends


def _run_label_utc(point: KpiPoint) -> str:
    return f"{point.started_at:%Y-%m-%d %H:%M:%S}"


def _trend_frame(
    points: Sequence[KpiPoint], names: Sequence[str], labels: dict[str, str]
) -> pd.DataFrame:
    """One row per run (x: its start time as text, which sorts in run order), one column per KPI."""
    rows = []
    for p in points:
        row: dict[str, Any] = {"run": _run_label_utc(p)}
        for name in names:
            row[labels.get(name, name)] = p.kpis.get(name)
        rows.append(row)
    return pd.DataFrame(rows)


def _per_run_axis(fig: go.Figure) -> go.Figure:
    # Evenly spaced runs: a time axis would bunch runs of one afternoon into a single spot.
    fig.update_xaxes(type="category", tickformat=None)
    return fig


def _render_trends(pool: ConnectionPool, run: SuiteRun | None) -> None:
    st.subheader("실행별 추이")
    points = _kpi_history(pool, TREND_RUNS)
    if not points:
        st.caption("저장된 평가 실행이 없어 추이를 그릴 수 없습니다.")
        return
    labels = {k.name: _label(k) for k in (run.kpis.kpis if run and run.kpis else [])}
    percent = _trend_frame(points, TREND_PERCENT_KPIS, labels)
    percent.insert(1, "통과율", [p.pass_rate for p in points])
    columns = [c for c in percent.columns[1:] if percent[c].notna().any()]
    fig = line_chart(
        percent, x="run", y_columns=columns, markers=True,
        title=f"실행별 통과율과 주요 KPI (최근 {len(points)}회)", x_label="실행 시작 (UTC)",
        y_label="비율 (%)",
    )  # fmt: skip
    fig.update_yaxes(range=[-2, 105])  # whole percent scale: 100% is not a zoomed-in flat line
    ui.show_chart(_per_run_axis(fig), key="ops_trend_percent")
    latency = _trend_frame(points, TREND_LATENCY_KPIS, labels)
    columns = [c for c in latency.columns[1:] if latency[c].notna().any()]
    if not columns:
        st.caption("응답 지연 추이: 매크로 Q&A 스위트를 포함한 실행이 없어 데이터가 없습니다.")
        return
    fig = line_chart(
        latency, x="run", y_columns=columns, markers=True,
        title="실행별 p95 응답 지연 (매크로 Q&A)", x_label="실행 시작 (UTC)", y_label="지연 (ms)",
    )  # fmt: skip
    ui.show_chart(_per_run_axis(fig), key="ops_trend_latency")


# ---------------------------------------------------------------- weekly summary


def _render_weekly(pool: ConnectionPool) -> None:
    st.subheader("주간 요약 (최근 7일)")
    summary = _weekly(pool, 7)
    cols = st.columns(4)
    avg = summary.avg_pass_rate
    cols[0].metric("평균 통과율", f"{avg:.1f}%" if avg is not None else "데이터 없음")
    cols[1].metric("실행 / 케이스", f"{summary.run_count}회 / {summary.case_count}건")
    cols[2].metric("라우팅 불일치", f"{summary.routing_mismatch_count}건")
    cites = summary.avg_structured_citations
    cols[3].metric("답변당 정형 근거", f"{cites:.2f}개" if cites is not None else "데이터 없음")
    if summary.status == "warning":
        st.warning("주의: " + " · ".join(summary.reasons), icon=":material/warning:")
    else:
        st.success("최근 7일 평가가 기준을 충족합니다.", icon=":material/check_circle:")
    left, right = st.columns(2)
    with left:
        st.markdown("**많이 실패한 유형**")
        rows = [
            {"category": category_text(c), "count": n} for c, n in summary.top_failure_categories
        ]
        if rows:
            ui.show_table(rows, {"category": "실패 유형", "count": "건수"}, key="ops_weekly_cats")
        else:
            st.caption("실패 없음")
    with right:
        st.markdown("**많이 실패한 케이스**")
        rows = [{"case_id": c, "count": n} for c, n in summary.top_failed_cases]
        if rows:
            ui.show_table(rows, {"case_id": "케이스", "count": "건수"}, key="ops_weekly_cases")
        else:
            st.caption("실패 없음")


# ---------------------------------------------------------------- run button


def _run_selected(suites: list[str], pool: ConnectionPool) -> None:
    from agents.eval import run_suites  # imports every screen's agent: only when asked

    bar = st.progress(0.0, text="평가 준비 중…")

    def on_progress(done: int, total: int, result: CaseResult) -> None:
        verdict = "통과" if result.passed else f"실패 ({category_text(result.failure_category)})"
        bar.progress(done / max(total, 1), text=f"{done}/{total} · {result.case_id} · {verdict}")

    try:
        run = run_suites(suites, pool=pool, store=runtime.live_graph_store(), progress=on_progress)
    except Exception as e:  # a failed run is a Korean message, never a traceback
        logger.warning("eval run failed: %s", e)
        st.session_state["ops_last_run"] = {"error": ui.error_message(e)}
        return
    bar.progress(1.0, text=f"완료: {run.passed_count}/{run.case_count} 통과")
    _clear_cached_reads()
    st.session_state["ops_kpi_run"] = run.run_id  # the tiles above show the new run
    st.session_state["ops_last_run"] = {
        "run_id": run.run_id, "passed": run.passed_count, "cases": run.case_count,
        "pass_rate": run.pass_rate,
    }  # fmt: skip


def _render_run_button(pool: ConnectionPool) -> None:
    st.subheader("평가 실행")
    left, right = st.columns([3, 1], vertical_alignment="bottom")
    suites = left.multiselect(
        "실행할 스위트", list(SUITES), default=DEFAULT_SUITES, key="ops_suites",
        format_func=lambda s: SUITE_TITLES_KO.get(s, s),
        help="골든셋 케이스를 화면과 같은 서비스 함수로 실행하고 채점해 PostgreSQL에 저장합니다.",
    )  # fmt: skip
    clicked = right.button("평가 실행", type="primary", icon=":material/play_arrow:", key="ops_run")
    if clicked and not suites:
        st.warning("실행할 스위트를 하나 이상 고르세요.", icon=":material/warning:")
    elif clicked:
        _run_selected(list(suites), pool)
    last = st.session_state.get("ops_last_run")
    if last and "error" in last:
        st.error(f"평가를 실행하지 못했습니다: {last['error']}", icon=":material/error:")
    elif last:
        rate = f"{last['pass_rate']:.1f}%" if last["pass_rate"] is not None else "–"
        st.success(
            f"평가 실행 `{last['run_id']}` 완료: {last['passed']}/{last['cases']} 통과 ({rate})",
            icon=":material/check_circle:",
        )


# ---------------------------------------------------------------- tab


def _section(render: Any, *args: Any) -> None:
    """One section; its failure is shown in Korean and the next sections still render."""
    try:
        render(*args)
    except Exception as e:
        ui.show_error(e)


def render(pool: ConnectionPool | None) -> None:
    if pool is None:
        ui.show_store_down("PostgreSQL", runtime.postgres_down_reason())
        return
    kpi_box, run_box = st.container(), st.container()
    with run_box:  # filled first, so a run it starts shows in the tiles above it
        _section(_render_run_button, pool)
    run = None
    with kpi_box:
        try:
            run = _render_kpis(_finished_runs(pool, RUN_CHOICES))
        except Exception as e:
            ui.show_error(e)
    _section(_render_trends, pool, run)
    _section(_render_weekly, pool)
    _section(failures.render, pool)
    st.divider()
    checkpoints.render(pool)
