"""Seed 004 §9.5 operations checkpoints, as the Data screen's operations tab shows them.

Per projected domain: how far the graph is behind PostgreSQL right now (`projection lag`),
judged against warn/fail thresholds, with the newest batch's step reports. Per import: what the
latest `import_runs` read, loaded and failed, with its dataset's latest date today.

The lag is *current*: when the source was loaded after the domain's last projection, the graph
has been missing that load since then (now − load time); otherwise the graph is up to date and
the lag is 0. The lag recorded when the projection ran (load → projection finish) is kept
alongside as `recorded_lag_minutes`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Literal

from psycopg_pool import ConnectionPool
from pydantic import BaseModel

from data_access.catalog import dataset_statuses
from data_access.postgres import fetch_all, get_pool
from data_access.projection.models import ProjectionStep, StepStatus
from data_access.projection.runner import ALL_STEPS
from data_access.projection.runs import latest_domain_steps, source_loaded_at

logger = logging.getLogger(__name__)

LagStatus = Literal["ok", "warn", "fail", "none"]
PROJECTED_DOMAINS: tuple[str, ...] = tuple(dict.fromkeys(s.domain for s in ALL_STEPS))


@dataclass(frozen=True)
class LagThresholds:
    """Minutes the graph may trail its source before a warning / a failure (seed 004 §9.5-4).

    An hour covers a scheduled projection after a daily load; a day behind means relationship
    answers rest on yesterday's data.
    """

    warn_minutes: float = 60.0
    fail_minutes: float = 24 * 60.0


class DomainLag(BaseModel):
    """One projected domain's standing against the source and the thresholds."""

    domain: str
    status: LagStatus
    lag_minutes: float | None  # current: 0 when up to date, None when never projected
    pending: bool  # the source has a load the graph has not seen yet
    recorded_lag_minutes: float | None  # load → projection finish, when the projection ran
    batch_id: str | None
    projected_at: datetime | None
    source_loaded_at: datetime | None
    latest_as_of: date | None
    rows_fetched: int
    upserted: int
    failed: int
    step_status: StepStatus | None  # worst status of the batch's steps for this domain
    steps: list[ProjectionStep]


class ImportRunReport(BaseModel):
    """One `import_runs` row with its dataset's latest date and lag as of today."""

    run_id: int
    importer: str
    source: str
    dataset_code: str | None
    rows_read: int
    rows_loaded: int
    rows_failed: int
    status: str
    error: str | None
    created_at: datetime
    latest_as_of: date | None
    lag_days: int | None


_STEP_SEVERITY: dict[str, int] = {"ok": 0, "partial": 1, "error": 2}
_IMPORT_RUNS_SQL = """
SELECT run_id, importer, source, dataset_code, rows_read, rows_loaded, rows_failed, status,
       error, created_at
FROM import_runs ORDER BY run_id DESC LIMIT %(limit)s"""


# ---------------------------------------------------------------- pure rules


def lag_status(
    lag_minutes: float | None, step_status: StepStatus | None, thresholds: LagThresholds
) -> LagStatus:
    """`fail` over the fail threshold or when a step errored, `warn` over the warn threshold or
    when a step lost rows, `none` when the domain was never projected."""
    if lag_minutes is None or step_status is None:
        return "none"
    if step_status == "error" or lag_minutes >= thresholds.fail_minutes:
        return "fail"
    if step_status == "partial" or lag_minutes >= thresholds.warn_minutes:
        return "warn"
    return "ok"


def worst_step_status(steps: list[ProjectionStep]) -> StepStatus | None:
    if not steps:
        return None
    return max((s.status for s in steps), key=lambda s: _STEP_SEVERITY[s])


def domain_lag(
    domain: str,
    steps: list[ProjectionStep],
    loaded_at: datetime | None,
    now: datetime,
    thresholds: LagThresholds = LagThresholds(),
) -> DomainLag:
    """A domain's lag from its newest batch's steps and the source's latest load time."""
    projected_at = max((s.finished_at for s in steps), default=None)
    pending = bool(projected_at and loaded_at and loaded_at > projected_at)
    lag: float | None = None
    if projected_at is not None:
        lag = max((now - loaded_at).total_seconds() / 60.0, 0.0) if pending and loaded_at else 0.0
    recorded = [s.lag_minutes for s in steps if s.lag_minutes is not None]
    step_status = worst_step_status(steps)
    return DomainLag(
        domain=domain, status=lag_status(lag, step_status, thresholds), lag_minutes=lag,
        pending=pending, recorded_lag_minutes=max(recorded) if recorded else None,
        batch_id=steps[0].batch_id if steps else None, projected_at=projected_at,
        source_loaded_at=loaded_at,
        latest_as_of=max((s.latest_as_of for s in steps if s.latest_as_of), default=None),
        rows_fetched=sum(s.rows_fetched for s in steps), upserted=sum(s.upserted for s in steps),
        failed=sum(s.failed for s in steps), step_status=step_status, steps=steps,
    )  # fmt: skip


# ---------------------------------------------------------------- database


def projection_lags(
    pool: ConnectionPool | None = None,
    *,
    now: datetime | None = None,
    thresholds: LagThresholds = LagThresholds(),
) -> list[DomainLag]:
    """Every projected domain (in projection order), also those never projected (`none`)."""
    if pool is None:
        pool = get_pool()
    now = now or datetime.now(UTC)
    steps = latest_domain_steps(pool)
    return [
        domain_lag(d, steps.get(d, []), source_loaded_at(pool, d), now, thresholds)
        for d in PROJECTED_DOMAINS
    ]


def import_run_reports(
    pool: ConnectionPool | None = None, limit: int = 20
) -> list[ImportRunReport]:
    """The newest import runs, newest first, each with its dataset's current latest date."""
    rows = fetch_all(_IMPORT_RUNS_SQL, {"limit": int(limit)}, pool)
    if not rows:
        return []
    statuses = {s.dataset_code: s for s in dataset_statuses(pool=pool)}
    out = []
    for row in rows:
        status = statuses.get(row["dataset_code"] or "")
        out.append(
            ImportRunReport(
                **row,
                latest_as_of=status.max_date if status else None,
                lag_days=status.lag_days if status else None,
            )
        )
    return out
