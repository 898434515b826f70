"""Operations: `GET /healthz` (stores up, versions) and `GET /admin/indicators` (seed 004: the
latest evaluation run's KPIs, the weekly health, projection lag per domain, the document vector
index's readiness, the weekly report's schedule)."""

from __future__ import annotations

import platform
from importlib import metadata
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from api.deps import StoresDep
from api.models import HealthOut, IndicatorsOut, StoreOut, VectorIndexOut
from api.routes_agents import ERRORS

router = APIRouter(tags=["운영 (operations)"])

RECENT_RUNS = 20
PACKAGES = (
    "fastapi",
    "uvicorn",
    "smolagents",
    "langgraph",
    "litellm",
    "mcp",
    "psycopg",
    "falkordb",
)


def versions() -> dict[str, str]:
    out = {"python": platform.python_version()}
    for name in PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return out


@router.get("/healthz", response_model=HealthOut, summary="저장소 상태와 버전",
            responses={503: {"model": HealthOut, "description": "PostgreSQL에 연결할 수 없음"}})  # fmt: skip
def healthz(stores: StoresDep) -> JSONResponse:
    health = stores.health(fresh=True)
    if health is None:
        body = HealthOut(status="down", postgres=None, graph=None, error=stores.error,
                         versions=versions())  # fmt: skip
    else:
        pg, graph = health.postgres, health.graph
        body = HealthOut(
            status="ok" if health.ok else ("degraded" if pg.ok else "down"),
            postgres=StoreOut(ok=pg.ok, backend="postgresql", embedded=pg.embedded,
                              version=pg.version, error=pg.error, latency_ms=pg.latency_ms),
            graph=StoreOut(ok=graph.ok, backend=graph.backend, embedded=graph.embedded,
                           version=graph.version, error=graph.error, latency_ms=graph.latency_ms),
            versions=versions(),
        )  # fmt: skip
    return JSONResponse(
        body.model_dump(mode="json"), status_code=503 if body.status == "down" else 200
    )


def _notes(run: Any, weekly: Any, lags: list[Any]) -> list[str]:
    notes = []
    if run is not None and run.kpis is not None:
        missed = [k.label_ko for k in run.kpis.kpis if k.met is False]
        notes.append(f"최근 평가 {run.run_id}: {run.passed_count}/{run.case_count} 통과"
                     + (f", 목표 미달 KPI: {', '.join(missed)}" if missed else ", KPI 목표 모두 충족"))  # fmt: skip
    rate = "-" if weekly.avg_pass_rate is None else f"{weekly.avg_pass_rate:.1f}%"  # 0..100
    citations = ("-" if weekly.avg_structured_citations is None
                 else f"{weekly.avg_structured_citations:.2f}")  # fmt: skip
    notes.append(f"주간({weekly.days}일): 실행 {weekly.run_count}회, avg_pass_rate {rate}, "
                 f"routing_mismatch {weekly.routing_mismatch_count}, "
                 f"avg_structured_citation {citations}")  # fmt: skip
    if weekly.top_failure_categories:
        notes.append("Top실패: " + ", ".join(f"{c}({n})" for c, n in weekly.top_failure_categories))
    if weekly.top_failed_cases:
        notes.append("Top케이스: " + ", ".join(f"{c}({n})" for c, n in weekly.top_failed_cases))
    for lag in lags:
        minutes = "-" if lag.lag_minutes is None else f"{lag.lag_minutes:.0f}분"
        notes.append(f"{lag.domain.upper()}_GRAPH_PROJECTION_SYNC: {lag.status}, lag {minutes}")
    return notes


def _vector_note(index: VectorIndexOut) -> str:
    return f"VECTOR_INDEX_READY: {index.status} ({index.label_ko}) — {index.detail}"


def _schedule_note(state: dict[str, Any] | None) -> str:
    if state is None:
        return "주간 리포트 스케줄: 이 서버에서는 꺼져 있음 (python -m api가 실행하거나 cron)"
    last = state["last_run_at"] or "-"
    return (f"주간 리포트 스케줄: {state['at']}, 다음 실행 {state['next_run_at'] or '-'}, "
            f"마지막 실행 {last}" + (f" ({state['last_status']})" if state["last_status"] else ""))  # fmt: skip


@router.get("/admin/indicators", response_model=IndicatorsOut, responses=ERRORS,
            summary="평가 KPI, 주간 헬스, 프로젝션 지연, 벡터 인덱스, 주간 리포트 스케줄 (seed 004)")  # fmt: skip
def indicators(stores: StoresDep, request: Request) -> IndicatorsOut:
    from agents.eval import list_runs, weekly_summary
    from data_access.health import vector_index_health
    from data_access.run_reports import projection_lags

    pool = stores.pool()
    vector = vector_index_health(pool, stores.graph())
    index = VectorIndexOut(status=vector.status, ready=vector.ready, label_ko=vector.label_ko,
                           detail=vector.detail, documents=vector.documents,
                           graph_documents=vector.graph_documents,
                           with_vector=vector.with_vector)  # fmt: skip
    scheduler = getattr(request.app.state, "scheduler", None)
    schedule = scheduler.state() if scheduler is not None else None
    finished = (r for r in list_runs(RECENT_RUNS, pool, kind="run") if r.status == "finished")
    latest = next(finished, None)  # a run still going has no KPIs yet
    weekly = weekly_summary(7, pool, save=False)
    lags = projection_lags(pool)
    # A vector index not built yet is built by the first question that needs it; one that is
    # stale, damaged or cannot be checked is a warning.
    warn = (weekly.status == "warning" or any(lag.status in ("warn", "fail") for lag in lags)
            or vector.status in ("stale", "degraded", "unavailable")
            or bool(latest and latest.kpis and any(k.met is False for k in latest.kpis.kpis)))  # fmt: skip
    status = "warning" if warn else ("healthy" if latest is not None else "unknown")
    return IndicatorsOut(
        latest_run=latest.model_dump(mode="json", exclude={"results"}) if latest else None,
        weekly=weekly.model_dump(mode="json"),
        projection_lag=[lag.model_dump(mode="json") for lag in lags],
        vector_index=index, weekly_report_schedule=schedule, status=status,
        notes=[*_notes(latest, weekly, lags), _vector_note(index), _schedule_note(schedule)],
    )  # fmt: skip
