"""The weekly summary of seed 004 §13.2-18/21 over the runs stored in the last N days.

    summary = weekly_summary(days=7)   # computed from PostgreSQL and stored as a row

Average pass rate (per run from its passed/total counts, so a run whose stored rate is missing
still counts — §13.2-21's correction), run and case counts, routing mismatches, average
structured citations per answer, the top failure categories and failed cases, and a status:
`warning` when there is no run in the window, the average pass rate is under 90%, any routing
mismatch happened, or the latest run missed a §6 target; else `healthy`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from agents.eval.models import CaseResult, SuiteRun, WeeklySummary
from data_access.postgres import connection

PASS_RATE_WARNING = 90.0
TOP_N = 5


def run_pass_rate(run: SuiteRun) -> float | None:
    if run.case_count:
        return 100.0 * run.passed_count / run.case_count
    return run.pass_rate


def summarize(runs: Sequence[SuiteRun], results: Sequence[CaseResult], *, days: int,
              now: datetime) -> WeeklySummary:  # fmt: skip
    """Pure aggregation of the runs in a window and their case results."""
    rates = [r for r in (run_pass_rate(run) for run in runs) if r is not None]
    failed = [r for r in results if not r.passed]
    mismatches = sum(1 for r in results if any(p.category == "routing_mismatch"
                                               for p in r.problems))  # fmt: skip
    answers = [r.structured_citation_count for r in results if r.suite != "guard"]
    avg_rate = round(sum(rates) / len(rates), 2) if rates else None
    summary = WeeklySummary(
        created_at=now, days=days, window_start=now - timedelta(days=days), window_end=now,
        run_count=len(runs), case_count=len(results), avg_pass_rate=avg_rate,
        routing_mismatch_count=mismatches,
        avg_structured_citations=round(sum(answers) / len(answers), 3) if answers else None,
        top_failure_categories=Counter(r.failure_category or "error"
                                       for r in failed).most_common(TOP_N),
        top_failed_cases=Counter(r.case_id for r in failed).most_common(TOP_N),
        status="healthy",
    )  # fmt: skip
    summary.reasons = _warnings(summary, runs)
    summary.status = "warning" if summary.reasons else "healthy"
    return summary


def _warnings(summary: WeeklySummary, runs: Sequence[SuiteRun]) -> list[str]:
    reasons: list[str] = []
    if not runs:
        return [f"최근 {summary.days}일 동안 평가 실행이 없습니다"]
    if summary.avg_pass_rate is not None and summary.avg_pass_rate < PASS_RATE_WARNING:
        reasons.append(f"평균 통과율 {summary.avg_pass_rate:.1f}% < {PASS_RATE_WARNING:g}%")
    if summary.routing_mismatch_count:
        reasons.append(f"라우팅 불일치 {summary.routing_mismatch_count}건")
    latest = max(runs, key=lambda r: r.started_at)
    missed = [k.label_ko for k in (latest.kpis.kpis if latest.kpis else []) if k.met is False]
    if missed:
        reasons.append(f"최근 실행 KPI 미달: {', '.join(missed)}")
    return reasons


def weekly_summary(days: int = 7, pool: ConnectionPool | None = None, *, save: bool = True,
                   now: datetime | None = None) -> WeeklySummary:  # fmt: skip
    """Summarize the finished full runs of the last `days` days (stored as a row if `save`)."""
    from agents.eval.store import case_results, runs_between

    if days < 1:
        raise ValueError("days must be at least 1")
    now = now or datetime.now(UTC)
    start = now - timedelta(days=days)
    runs = runs_between(start, now, pool)
    results = [c for r in runs for c in case_results(r.run_id, pool)]
    summary = summarize(runs, results, days=days, now=now)
    if save:
        _save(summary, pool)
    return summary


def _save(s: WeeklySummary, pool: ConnectionPool | None) -> None:
    with connection(pool) as conn:
        conn.execute(
            "INSERT INTO eval_weekly_reports (days, window_start, window_end, run_count,"
            " case_count, avg_pass_rate, routing_mismatch_count, avg_structured_citations,"
            " top_failure_categories, top_failed_cases, status, details)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (s.days, s.window_start, s.window_end, s.run_count, s.case_count, s.avg_pass_rate,
             s.routing_mismatch_count, s.avg_structured_citations,
             Jsonb(s.top_failure_categories), Jsonb(s.top_failed_cases), s.status,
             Jsonb(s.model_dump(mode="json"))),
        )  # fmt: skip
