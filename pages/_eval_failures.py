"""The "최근 실패" section of the 운영 tab: the newest failure of each golden case, its failure
report (input, route, queries, evidence, answer) and a button that reruns that one case.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import streamlit as st
from psycopg_pool import ConnectionPool

from agents.eval import latest_failures, load_cases
from agents.eval.models import CATEGORY_LABELS_KO, CaseResult, FailureReport
from agents.eval.store import failure_report
from pages import _runtime as runtime
from pages import _ui as ui

logger = logging.getLogger(__name__)

CACHE_TTL_S = 30
FAILURES_SHOWN = 10
SUITE_TITLES_KO = {
    "macro": "매크로 Q&A", "etf": "ETF 챗", "contract": "계약 조항", "opening": "오프닝 스크립트",
    "stock": "종목 리포트", "guard": "금지 쿼리 차단",
}  # fmt: skip
QUERY_KINDS_KO = {"tool": "도구", "code": "코드", "guard": "가드"}
FAILURE_HEADERS = {
    "case_id": "케이스", "suite": "스위트", "category": "실패 유형", "problems": "문제",
    "question": "입력", "run_id": "실행", "created_at": "시각",
}  # fmt: skip


def time_text(value: datetime | None) -> str:
    return f"{value:%Y-%m-%d %H:%M} UTC" if value else "–"


def category_text(category: str | None) -> str:
    return CATEGORY_LABELS_KO.get(category or "error", category or "")


# ---------------------------------------------------------------- cached loads


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def _failures(_pool: ConnectionPool, limit: int) -> list[CaseResult]:
    return latest_failures(limit, _pool)


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def _failure_report(_pool: ConnectionPool, run_id: str, case_id: str) -> FailureReport | None:
    return failure_report(run_id, case_id, _pool)


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def _golden_ids() -> set[str]:
    return {case.id for case in load_cases()}


def clear_cached_reads() -> None:
    for load in (_failures, _failure_report):
        load.clear()


# ---------------------------------------------------------------- rerun and report


def _rerun(case_id: str, pool: ConnectionPool) -> None:
    from agents.eval import rerun_case  # imports every screen's agent: only when asked

    with st.spinner(f"{case_id} 재실행 중…"):
        try:
            result = rerun_case(case_id, pool=pool, store=runtime.live_graph_store())
        except Exception as e:  # shown in Korean; the stored failures stay as they were
            logger.warning("rerun of %s failed: %s", case_id, e)
            st.session_state[f"ops_rerun:{case_id}"] = {"error": ui.error_message(e)}
            return
    clear_cached_reads()
    st.session_state[f"ops_rerun:{case_id}"] = result.model_dump(mode="json")


def _show_rerun_result(case_id: str) -> None:
    saved = st.session_state.get(f"ops_rerun:{case_id}")
    if saved is None:
        return
    if "error" in saved and "case_id" not in saved:
        st.error(f"재실행하지 못했습니다: {saved['error']}", icon=":material/error:")
        return
    result = CaseResult.model_validate(saved)
    where = f"재실행 `{result.run_id}` · {result.latency_ms:,} ms"
    if result.passed:
        st.success(f"재실행 결과: 통과 ({where})", icon=":material/check_circle:")
    else:
        problems = "; ".join(p.message for p in result.problems[:3])
        st.error(
            f"재실행 결과: 실패 — {category_text(result.failure_category)} ({where})"
            + (f"\n\n{problems}" if problems else ""),
            icon=":material/cancel:",
        )


def _render_query(query: dict[str, Any]) -> None:
    kind = QUERY_KINDS_KO.get(str(query.get("kind")), str(query.get("kind")))
    status = query.get("status")
    flag = "" if status in (None, "ok") else f" · {status}"
    st.markdown(f"{query.get('step')}단계 · {kind} `{query.get('name')}`{flag}")
    if query.get("arguments"):
        st.code(json.dumps(query["arguments"], ensure_ascii=False), language="json")
    if query.get("code"):
        st.code(query["code"], language=None)
    if query.get("error"):
        st.caption(f"오류: {query['error']}")


def _render_report(report: FailureReport | None) -> None:
    if report is None:
        st.caption("이 실패의 리포트가 저장되어 있지 않습니다.")
        return
    st.markdown("**문제**")
    st.markdown("\n".join(f"- {category_text(p.category)}: {p.message}" for p in report.problems))
    st.markdown("**입력**")
    st.text(str(report.input.get("question", "")))
    st.json(report.input, expanded=1)  # expectations and fact results, one level open
    if report.route:
        st.markdown("**라우팅**")
        st.json(report.route, expanded=1)
    st.markdown(f"**쿼리·도구 호출 ({len(report.queries)}건)**")
    for query in report.queries:
        _render_query(query)
    st.markdown("**근거**")
    st.json(report.evidence, expanded=1)
    if report.answer:
        st.markdown("**답변**")
        with st.container(border=True):
            st.markdown(report.answer[:4000])
    if report.error:
        st.markdown(f"**오류** {report.error}")
    if report.reproduce:
        st.markdown("**재현 명령**")
        st.code(report.reproduce, language="bash")


def _latest_per_case(failures: Sequence[CaseResult]) -> list[CaseResult]:
    """The newest failure of each case (the store returns every run's failures, newest first)."""
    seen: dict[str, CaseResult] = {}
    for failure in failures:
        seen.setdefault(failure.case_id, failure)
    return list(seen.values())[:FAILURES_SHOWN]


def render(pool: ConnectionPool) -> None:
    st.subheader("최근 실패")
    failures = _latest_per_case(_failures(pool, 50))
    if not failures:
        st.caption("저장된 실패 케이스가 없습니다.")
        return
    rows = [
        {"case_id": f.case_id, "suite": SUITE_TITLES_KO.get(f.suite, f.suite),
         "category": category_text(f.failure_category),
         "problems": "; ".join(p.message for p in f.problems[:2]), "question": f.question,
         "run_id": f.run_id, "created_at": time_text(f.created_at)}
        for f in failures
    ]  # fmt: skip
    ui.show_table(rows, FAILURE_HEADERS, key="ops_failures")
    st.caption(
        "케이스별 실패 리포트(입력, 라우팅, 쿼리, 근거)를 펼쳐 보고 그 케이스만 다시 실행할 수 있습니다."
    )
    golden = _golden_ids()
    for f in failures:
        with st.expander(f"{f.case_id} · {category_text(f.failure_category)}"):
            if f.case_id not in golden:
                st.caption("현재 골든셋에 없는 케이스라 재실행할 수 없습니다 (리포트만 표시).")
            elif st.button("재실행", key=f"ops_rerun_btn:{f.case_id}", icon=":material/replay:"):
                _rerun(f.case_id, pool)
            _show_rerun_result(f.case_id)
            if f.run_id:
                _render_report(_failure_report(pool, f.run_id, f.case_id))
