"""The `projection_runs` table: write one row per step, read the latest for the Data screen."""

from __future__ import annotations

from datetime import datetime

from psycopg_pool import ConnectionPool

from data_access.postgres import execute, fetch_all, fetch_one
from data_access.projection.models import ProjectionStep

_COLUMNS = (
    "batch_id, domain, step, graph_backend, rows_fetched, upserted, failed, latest_as_of, "
    "lag_minutes, status, error, started_at, finished_at"
)

# The source's latest load for a domain: the newest seed run (it loads every domain) or import
# run for one of the domain's datasets (an import without a dataset code counts for all).
_LOADED_AT_SQL = """
SELECT greatest(
    (SELECT max(created_at) FROM seed_runs),
    (SELECT max(i.created_at)
     FROM import_runs i LEFT JOIN datasets d ON d.dataset_code = i.dataset_code
     WHERE i.status <> 'error' AND (d.domain = %(domain)s OR i.dataset_code IS NULL))
) AS loaded_at"""


def record_step(pool: ConnectionPool, step: ProjectionStep) -> None:
    values = step.model_dump(include=set(_COLUMNS.replace(" ", "").split(",")))
    placeholders = ", ".join(f"%({name})s" for name in _COLUMNS.replace(" ", "").split(","))
    execute(f"INSERT INTO projection_runs ({_COLUMNS}) VALUES ({placeholders})", values, pool)


def settle_backlog(pool: ConnectionPool, started_at: datetime, batch_id: str) -> int:
    """A full projection that did not fail covers every write recorded before it started."""
    return execute(
        "UPDATE projection_backlog SET projected_at = now(), last_batch_id = %(batch)s"
        " WHERE projected_at IS NULL AND created_at <= %(started)s",
        {"batch": batch_id, "started": started_at},
        pool,
    )


def source_loaded_at(pool: ConnectionPool, domain: str) -> datetime | None:
    row = fetch_one(_LOADED_AT_SQL, {"domain": domain}, pool)
    return row["loaded_at"] if row else None


def lag_minutes(loaded_at: datetime | None, finished_at: datetime) -> float | None:
    """Minutes from the source's latest load to the end of the projection step (never negative)."""
    if loaded_at is None:
        return None
    return max((finished_at - loaded_at).total_seconds() / 60.0, 0.0)


def latest_projection_runs(
    pool: ConnectionPool | None = None, limit: int = 50
) -> list[ProjectionStep]:
    """The newest projection_runs rows, newest first (one per step)."""
    rows = fetch_all(
        f"SELECT run_id, {_COLUMNS} FROM projection_runs ORDER BY run_id DESC LIMIT %(limit)s",
        {"limit": int(limit)},
        pool,
    )
    return [ProjectionStep.model_validate(row) for row in rows]


# The steps of each domain's newest batch: a batch may project only some domains (`steps=`).
_LATEST_PER_DOMAIN_SQL = f"""
SELECT run_id, {_COLUMNS} FROM projection_runs p
WHERE p.batch_id = (SELECT q.batch_id FROM projection_runs q WHERE q.domain = p.domain
                    ORDER BY q.run_id DESC LIMIT 1)
ORDER BY domain, run_id"""


def latest_domain_steps(pool: ConnectionPool | None = None) -> dict[str, list[ProjectionStep]]:
    """Per projected domain, the steps of the newest batch that projected it, in run order."""
    out: dict[str, list[ProjectionStep]] = {}
    for row in fetch_all(_LATEST_PER_DOMAIN_SQL, pool=pool):
        step = ProjectionStep.model_validate(row)
        out.setdefault(step.domain, []).append(step)
    return out
