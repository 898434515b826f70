"""`project_all`: PostgreSQL → graph, step by step, recorded in `projection_runs`.

Order follows seed 004 §9.4: entities (ETFs, stocks, companies) before time series before
events and evidence, because later steps MATCH nodes earlier steps MERGE. Every statement MERGEs
on a key, so a re-run adds no duplicates; windowed relationships (holdings, bars) older than
the window are removed.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Sequence
from datetime import UTC, date, datetime

import psycopg
from psycopg_pool import ConnectionPool

from data_access.errors import StoreUnavailable, ToolInputError, WorkbenchError
from data_access.graph.base import GraphStore
from data_access.projection import equity, knowledge, macro, market
from data_access.projection.models import ProjectionReport, ProjectionStep, StepStatus
from data_access.projection.runs import lag_minutes, record_step, settle_backlog, source_loaded_at
from data_access.projection.scope import ProjectionScope
from data_access.projection.steps import ProjectionOptions, StepContext, StepSpec

logger = logging.getLogger(__name__)

ALL_STEPS: tuple[StepSpec, ...] = market.STEPS + equity.STEPS + macro.STEPS + knowledge.STEPS


def project_all(
    store: GraphStore,
    pool: ConnectionPool | None = None,
    *,
    holdings_days: int | None = None,
    daily_bar_days: int = 60,
    universe_size: int = 50,
    batch_size: int = 5000,
    steps: Sequence[str] | None = None,
    scope: ProjectionScope | None = None,
) -> ProjectionReport:
    """Project every domain (or only the named `steps`) and return what each step did.

    With a `scope` (what a write changed) only the steps it needs run, each filtered to its
    ETFs, stocks, series and dates (an incremental run; a `full` scope is every step).

    A failing step is recorded with status 'error' and the run goes on (later steps report
    what they could not link); if the graph store is unreachable the run stops there.
    """
    if pool is None:
        from data_access.postgres import get_pool

        pool = get_pool()
    options = ProjectionOptions(holdings_days, daily_bar_days, universe_size, batch_size, scope)
    _check_options(options)
    full_run = steps is None and (scope is None or scope.full)
    if steps is None and scope is not None:
        steps = scope.steps()
    unknown = set(steps or ()) - {s.step for s in ALL_STEPS}
    if unknown:
        raise ToolInputError(f"unknown projection steps: {', '.join(sorted(unknown))}")
    selected = [s for s in ALL_STEPS if steps is None or s.step in steps]
    report = ProjectionReport(
        batch_id=_new_batch_id(), graph_backend=store.backend, graph_name=store.name,
        started_at=_now(), finished_at=_now(),
    )  # fmt: skip
    t0 = time.perf_counter()
    store.ensure_indexes()  # MERGE without an index on its key is quadratic
    report.index_ms = int((time.perf_counter() - t0) * 1000)
    loaded_at: dict[str, datetime | None] = {
        d: source_loaded_at(pool, d) for d in {s.domain for s in selected}
    }
    for spec in selected:
        result, store_down = _run_step(
            spec, StepContext(store, pool, options), report.batch_id, loaded_at
        )
        record_step(pool, result)
        report.steps.append(result)
        logger.info(
            "projection %s/%s: %s fetched, %s upserted, %s (%s ms)",
            spec.domain, spec.step, result.rows_fetched, result.upserted, result.status,
            result.duration_ms,
        )  # fmt: skip
        if store_down:
            break  # every later step would fail the same way
    report.finished_at = _now()
    if full_run and report.status != "error":
        settle_backlog(pool, report.started_at, report.batch_id)
    return report


def _run_step(
    spec: StepSpec, ctx: StepContext, batch_id: str, loaded_at: dict[str, datetime | None]
) -> tuple[ProjectionStep, bool]:
    """The step's record, and whether a store was unreachable (which ends the run)."""
    started = _now()
    error: str | None = None
    store_down = False
    try:
        spec.run(ctx)
    except StoreUnavailable as e:
        error, store_down = f"StoreUnavailable: {e}", True
    except WorkbenchError as e:
        error = f"{type(e).__name__}: {e}"
    except psycopg.Error as e:  # a source query failed; the other steps can still run
        error = f"PostgreSQL: {str(e).strip().splitlines()[0]}"
    finished = _now()
    progress = ctx.progress
    failed = max(progress.rows_fetched - progress.upserted, 0)
    status: StepStatus = "error" if error else ("partial" if failed else "ok")
    if error:
        logger.warning("projection step %s failed: %s", spec.step, error)
    step = ProjectionStep(
        batch_id=batch_id, domain=spec.domain, step=spec.step,
        graph_backend=ctx.store.backend, rows_fetched=progress.rows_fetched,
        upserted=progress.upserted, failed=failed, latest_as_of=_as_date(progress.latest),
        lag_minutes=lag_minutes(loaded_at.get(spec.domain), finished), status=status,
        error=error, started_at=started, finished_at=finished,
    )  # fmt: skip
    return step, store_down


def _check_options(options: ProjectionOptions) -> None:
    if options.holdings_days is not None and options.holdings_days < 1:
        raise ToolInputError("holdings_days must be at least 1 (or None for all snapshots)")
    if min(options.daily_bar_days, options.universe_size, options.batch_size) < 1:
        raise ToolInputError("daily_bar_days, universe_size and batch_size must be at least 1")


def _as_date(iso: str | None) -> date | None:
    return date.fromisoformat(iso[:10]) if iso else None


def _now() -> datetime:
    return datetime.now(UTC)


def _new_batch_id() -> str:
    return f"{_now():%Y%m%dT%H%M%SZ}-{uuid.uuid4().hex[:6]}"
