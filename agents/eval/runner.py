"""The regression runner: golden cases through the screens' own service functions.

    run = run_suites(["macro", "guard"], progress=lambda done, total, result: ...)
    run.kpis.kpi("routing_accuracy").value, run.pass_rate, run.results[0].failure_category
    result = rerun_case("contract-damages-cap")   # one case again, recorded as a 'rerun' run

Each case is graded (`agents.eval.judge`) and stored as it finishes (PostgreSQL row, and for a
failing case a reproducible failure report in PostgreSQL and under
`WORKBENCH_HOME/eval/<run_id>/failures/`), so the Data screen's progress bar and a crash
mid-run both see what is done. A case that raises is recorded as `error` with the exception
text and the run goes on; only a failure of the runner itself (stores unreachable) raises.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime
from pathlib import Path

from psycopg_pool import ConnectionPool

from agents.eval import reports
from agents.eval import store as eval_store
from agents.eval.adapters import ADAPTERS, EvalEnv
from agents.eval.cases import GOLDEN_DIR, find_case, load_cases
from agents.eval.facts import check_facts
from agents.eval.guard_suite import guard_result, run_guard_case
from agents.eval.judge import error_result, grade, primary_category
from agents.eval.kpi import kpi_report, pass_rate
from agents.eval.models import CaseResult, GoldenCase, Problem, RunKind, SuiteRun
from agents.eval.opening_editor import coverage_of, coverage_problem
from agents.evidence import Stopwatch
from data_access.config import Settings, get_settings
from data_access.contracts import AgentAnswer
from data_access.errors import WorkbenchError
from data_access.graph.base import GraphStore

logger = logging.getLogger(__name__)

Progress = Callable[[int, int, CaseResult], None]
# Called with every case and its answer (None when the case raised): a caller that also reads the
# answers' text (a test scanning them) need not run the cases a second time.
AnswerHook = Callable[[GoldenCase, AgentAnswer | None], None]


def new_run_id() -> str:
    return f"{datetime.now(UTC):%Y%m%dT%H%M%S}-{uuid.uuid4().hex[:6]}"


def make_env(settings: Settings | None = None, pool: ConnectionPool | None = None,
             store: GraphStore | None = None) -> EvalEnv:  # fmt: skip
    """Stores up, migrations applied (the eval tables), the data as-of date read once."""
    from data_access.catalog import current_as_of_date
    from data_access.postgres import get_pool, migrate

    settings = settings or get_settings()
    if pool is None:
        from data_access.bootstrap import bootstrap

        pool = get_pool(bootstrap(settings).postgres_uri, settings)
    else:
        migrate(pool)
    if store is None:
        from data_access.graph import get_graph_store

        store = get_graph_store(settings)
    return EvalEnv(settings=settings, pool=pool, store=store,
                   as_of=current_as_of_date(pool).isoformat())  # fmt: skip


def run_case(case: GoldenCase, env: EvalEnv) -> tuple[CaseResult, AgentAnswer | None]:
    """Run and grade one case; never raises for a failure of the case itself."""
    watch = Stopwatch()
    try:
        if case.suite == "guard":
            return guard_result(case, run_guard_case(case, env), watch.ms), None
        answer = ADAPTERS[case.suite](case, env)
    except Exception as e:  # whatever a screen raises is a recorded `error`, not a stopped run
        logger.warning("eval case %s raised: %s", case.id, e)
        return error_result(case, f"{type(e).__name__}: {e}", watch.ms), None
    latency = watch.ms
    facts = check_facts(case.facts, answer, pool=env.pool, as_of=env.as_of)
    result = grade(case, answer, facts, latency)
    if case.suite == "opening":
        add_editor_coverage(case, answer, result, env.pool)
    return result, answer


def add_editor_coverage(case: GoldenCase, answer: AgentAnswer, result: CaseResult,
                        pool: ConnectionPool) -> None:  # fmt: skip
    """The day's editor's list (SQL) against the script's themes; a miss is a wrong fact.
    A case whose question is not a day (no editor's list to compare) is left as graded."""
    try:
        day = date.fromisoformat(case.question.strip()[:10])
    except ValueError:
        return
    cov = coverage_of(day, str(case.inputs.get("split")), answer, pool)
    result.coverage = cov
    message = coverage_problem(cov)
    if message:
        result.problems.append(Problem(category="wrong_fact", message=message))
        result.passed = False
        result.failure_category = primary_category(result.problems)


def run_suites(
    suites: Sequence[str] | None = None,
    *,
    pool: ConnectionPool | None = None,
    store: GraphStore | None = None,
    settings: Settings | None = None,
    progress: Progress | None = None,
    cases: Sequence[GoldenCase] | None = None,
    kind: RunKind = "run",
    on_answer: AnswerHook | None = None,
) -> SuiteRun:
    """Run the golden cases of `suites` (default: all) or the given `cases`, store and report.

    `progress(done, total, result)` is called after every case (the UI's progress bar).
    """
    chosen = list(cases) if cases is not None else load_cases(suites)
    env = make_env(settings, pool, store)
    model = env.settings.llm_model
    run = SuiteRun(
        run_id=new_run_id(), kind=kind, suites=list(dict.fromkeys(c.suite for c in chosen)),
        mode="llm" if model else "offline", model=model, started_at=datetime.now(UTC),
        case_count=len(chosen),
    )  # fmt: skip
    directory = reports.run_dir(env.settings, run.run_id)
    run.report_dir = str(directory)
    eval_store.start_run(run, env.pool)
    try:
        for i, case in enumerate(chosen, 1):
            result = _record(run, case, env, directory, on_answer)
            if progress is not None:
                progress(i, len(chosen), result)
    except WorkbenchError as e:  # the stores went away under the runner: close the run
        _finish(run, env, directory, error=str(e))
        raise
    return _finish(run, env, directory)


def _record(run: SuiteRun, case: GoldenCase, env: EvalEnv, directory: Path,
            on_answer: AnswerHook | None = None) -> CaseResult:  # fmt: skip
    result, answer = run_case(case, env)
    if on_answer is not None:
        on_answer(case, answer)
    result.run_id = run.run_id
    eval_store.save_case(result, env.pool)
    if not result.passed:
        report = reports.build_failure_report(run.run_id, case, result, answer)
        reports.write_failure(report, directory)
        eval_store.save_failure(report, env.pool)
    run.results.append(result)
    logger.info("eval %s/%s: %s", case.suite, case.id,
                "pass" if result.passed else result.failure_category)  # fmt: skip
    return result


def _finish(run: SuiteRun, env: EvalEnv, directory: Path, error: str | None = None) -> SuiteRun:
    run.finished_at = datetime.now(UTC)
    run.passed_count = sum(r.passed for r in run.results)
    run.pass_rate = pass_rate(run.results)
    run.kpis = kpi_report(run.results, run.run_id)
    run.status = "error" if error else "finished"
    run.error = error
    reports.write_run_report(run, directory)
    try:
        eval_store.finish_run(run, env.pool)
    except WorkbenchError as e:
        if error is None:
            raise
        logger.warning("could not close eval run %s: %s", run.run_id, e)
    return run


def rerun_case(
    case_id: str,
    *,
    pool: ConnectionPool | None = None,
    store: GraphStore | None = None,
    settings: Settings | None = None,
    golden_dir: Path = GOLDEN_DIR,
) -> CaseResult:
    """Run one golden case again; recorded as its own run of kind 'rerun'."""
    case = find_case(case_id, golden_dir)
    run = run_suites(pool=pool, store=store, settings=settings, cases=[case], kind="rerun")
    return run.results[0]
