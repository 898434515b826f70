"""Evaluation runs in PostgreSQL (migration 0006_eval.sql): runs, case results, failure reports.

Writers (the runner): `start_run`, `save_case`, `save_failure`, `finish_run`.
Readers (CLI, Data screen): `list_runs`, `runs_between`, `get_run`, `case_results`,
`latest_failures`, `failure_report`, `kpi_history`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from agents.eval.models import CaseResult, FailureReport, KpiPoint, KpiReport, SuiteRun
from data_access.postgres import connection, fetch_all, fetch_one

RUN_COLUMNS = (
    "run_id, kind, suites, status, mode, model, case_count, passed_count, pass_rate, kpis, "
    "report_dir, error, started_at, finished_at"
)


def start_run(run: SuiteRun, pool: ConnectionPool | None = None) -> None:
    with connection(pool) as conn:
        conn.execute(
            "INSERT INTO eval_runs (run_id, kind, suites, status, mode, model, case_count,"
            " started_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
            (run.run_id, run.kind, Jsonb(run.suites), run.status, run.mode, run.model,
             run.case_count, run.started_at),
        )  # fmt: skip


def finish_run(run: SuiteRun, pool: ConnectionPool | None = None) -> None:
    kpis = Jsonb(run.kpis.model_dump(mode="json")) if run.kpis else None
    with connection(pool) as conn:
        conn.execute(
            "UPDATE eval_runs SET status = %s, case_count = %s, passed_count = %s,"
            " pass_rate = %s, kpis = %s, report_dir = %s, error = %s, finished_at = %s"
            " WHERE run_id = %s",
            (run.status, run.case_count, run.passed_count, run.pass_rate, kpis, run.report_dir,
             run.error, run.finished_at, run.run_id),
        )  # fmt: skip


def save_case(result: CaseResult, pool: ConnectionPool | None = None) -> None:
    r = result
    with connection(pool) as conn:
        conn.execute(
            "INSERT INTO eval_case_results (run_id, case_id, suite, question, passed,"
            " failure_category, status, tool_mode, expected_tool_mode, target_agents,"
            " expected_target_agents, structured_citation_count, citation_count,"
            " freshness_status, latency_ms, fallback_calls, cypher_runs, cypher_schema_mismatch,"
            " cypher_direction_empty, answer_excerpt, error, details)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s,"
            " %s, %s, %s, %s) ON CONFLICT (run_id, case_id) DO UPDATE SET"
            " passed = EXCLUDED.passed, failure_category = EXCLUDED.failure_category,"
            " details = EXCLUDED.details",
            (r.run_id, r.case_id, r.suite, r.question, r.passed, r.failure_category, r.status,
             r.tool_mode, r.expected_tool_mode, Jsonb(r.target_agents),
             Jsonb(r.expected_target_agents), r.structured_citation_count, r.citation_count,
             r.freshness_status, r.latency_ms, r.fallback_calls, r.cypher.runs,
             r.cypher.schema_mismatch, r.cypher.direction_empty, r.answer_excerpt, r.error,
             Jsonb(r.model_dump(mode="json", exclude={"created_at"}))),
        )  # fmt: skip


def save_failure(report: FailureReport, pool: ConnectionPool | None = None) -> None:
    f = report
    with connection(pool) as conn:
        conn.execute(
            "INSERT INTO eval_failure_reports (run_id, case_id, suite, category, input, route,"
            " queries, evidence, answer, report, file_path)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
            " ON CONFLICT (run_id, case_id) DO UPDATE SET report = EXCLUDED.report,"
            " file_path = EXCLUDED.file_path",
            (f.run_id, f.case_id, f.suite, f.category, Jsonb(f.input), Jsonb(f.route),
             Jsonb(f.queries), Jsonb(f.evidence), f.answer,
             Jsonb(f.model_dump(mode="json", exclude={"created_at"})), f.file_path),
        )  # fmt: skip


# ---------------------------------------------------------------- readers


def _run(row: dict[str, Any], results: list[CaseResult] | None = None) -> SuiteRun:
    kpis = KpiReport.model_validate(row["kpis"]) if row.get("kpis") else None
    return SuiteRun(
        run_id=row["run_id"], kind=row["kind"], suites=list(row["suites"]), status=row["status"],
        mode=row["mode"], model=row["model"], started_at=row["started_at"],
        finished_at=row["finished_at"], case_count=row["case_count"],
        passed_count=row["passed_count"], pass_rate=row["pass_rate"], error=row["error"],
        report_dir=row["report_dir"], kpis=kpis, results=results or [],
    )  # fmt: skip


def list_runs(limit: int = 20, pool: ConnectionPool | None = None, *,
              kind: str | None = None) -> list[SuiteRun]:  # fmt: skip
    """Newest runs first, without their case results (`get_run` loads those)."""
    rows = fetch_all(
        f"SELECT {RUN_COLUMNS} FROM eval_runs WHERE (%s::text IS NULL OR kind = %s)"
        " ORDER BY started_at DESC LIMIT %s",
        (kind, kind, limit),
        pool,
    )
    return [_run(r) for r in rows]


def runs_between(start: datetime, end: datetime, pool: ConnectionPool | None = None
                 ) -> list[SuiteRun]:  # fmt: skip
    """Finished full runs (kind 'run') started in [start, end], oldest first."""
    rows = fetch_all(
        f"SELECT {RUN_COLUMNS} FROM eval_runs WHERE kind = 'run' AND status = 'finished'"
        " AND started_at BETWEEN %s AND %s ORDER BY started_at",
        (start, end),
        pool,
    )
    return [_run(r) for r in rows]


def get_run(run_id: str, pool: ConnectionPool | None = None) -> SuiteRun | None:
    row = fetch_one(f"SELECT {RUN_COLUMNS} FROM eval_runs WHERE run_id = %s", (run_id,), pool)
    return _run(row, case_results(run_id, pool)) if row else None


def _case(row: dict[str, Any]) -> CaseResult:
    return CaseResult.model_validate({**row["details"], "created_at": row["created_at"]})


def case_results(run_id: str, pool: ConnectionPool | None = None) -> list[CaseResult]:
    """One run's case results in the order they ran."""
    rows = fetch_all(
        "SELECT details, created_at FROM eval_case_results WHERE run_id = %s"
        " ORDER BY created_at, case_id",
        (run_id,),
        pool,
    )
    return [_case(r) for r in rows]


def latest_failures(limit: int = 20, pool: ConnectionPool | None = None) -> list[CaseResult]:
    """Failed cases of all runs, newest first (each carries its run_id for a rerun)."""
    rows = fetch_all(
        "SELECT details, created_at FROM eval_case_results WHERE NOT passed"
        " ORDER BY created_at DESC LIMIT %s",
        (limit,),
        pool,
    )
    return [_case(r) for r in rows]


def failure_report(run_id: str, case_id: str,
                   pool: ConnectionPool | None = None) -> FailureReport | None:  # fmt: skip
    row = fetch_one(
        "SELECT report, created_at FROM eval_failure_reports WHERE run_id = %s AND case_id = %s",
        (run_id, case_id),
        pool,
    )
    if row is None:
        return None
    return FailureReport.model_validate({**row["report"], "created_at": row["created_at"]})


def kpi_history(limit: int = 30, pool: ConnectionPool | None = None) -> list[KpiPoint]:
    """KPI values of the finished full runs (not single-case reruns), oldest first."""
    rows = fetch_all(
        "SELECT run_id, started_at, pass_rate, case_count, kpis FROM eval_runs"
        " WHERE status = 'finished' AND kind = 'run' AND kpis IS NOT NULL"
        " ORDER BY started_at DESC LIMIT %s",
        (limit,),
        pool,
    )
    points = [
        KpiPoint(run_id=r["run_id"], started_at=r["started_at"], pass_rate=r["pass_rate"],
                 case_count=r["case_count"],
                 kpis={k["name"]: k["value"] for k in r["kpis"].get("kpis", [])})
        for r in rows
    ]  # fmt: skip
    return list(reversed(points))
