"""Projection follows every write (issue 25, seed 004 §9.4 '수집 완료 이벤트 → 투영').

    with connection(pool) as conn:                 # inside the write's own transaction
        load(conn, ...)
        mark_pending(conn, ProjectionScope(etf_codes=("069500",), since=day), "import", run_id)
    result = catch_up(pool)                        # the same command, after the commit
    result.status                                  # 'ok' | 'partial' | 'error' | 'nothing'

A write records what it changed in `projection_backlog` in the transaction that commits the
data, so the graph is behind PostgreSQL exactly while a row is pending. `catch_up` merges
every pending scope (earlier failures included), projects it incrementally and marks the rows
done; a failure keeps them pending with the error and an attempt count, for the next write's
catch-up or `python -m data_access.projection --retry-lagging`. One catch-up runs at a time
(a PostgreSQL advisory lock), so two commands finishing together do not project twice.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

import psycopg
from psycopg_pool import ConnectionPool

from data_access.errors import StoreUnavailable, WorkbenchError
from data_access.graph.base import GraphStore
from data_access.postgres import Row, connection, fetch_all, short_error
from data_access.projection.models import ProjectionReport
from data_access.projection.runner import project_all
from data_access.projection.scope import ProjectionScope, combine

logger = logging.getLogger(__name__)

CATCH_UP_LOCK = 25_0425  # pg advisory lock key: one catch-up at a time per database
Origin = Literal["import", "seed", "refresh", "restore", "manual"]
CatchUpStatus = Literal["ok", "partial", "error", "nothing"]

_PENDING_SQL = """
SELECT backlog_id, origin, import_run_id, scope, created_at, attempts, last_error
FROM projection_backlog WHERE projected_at IS NULL ORDER BY backlog_id"""


@dataclass(frozen=True)
class PendingWrite:
    """One write the graph has not seen yet."""

    backlog_id: int
    origin: str
    import_run_id: int | None
    scope: ProjectionScope
    created_at: datetime
    attempts: int
    last_error: str | None


@dataclass(frozen=True)
class GraphLag:
    """How far the graph is behind PostgreSQL, for the Data screen and the CLI."""

    pending: tuple[PendingWrite, ...]

    @property
    def behind(self) -> bool:
        return bool(self.pending)

    @property
    def oldest_at(self) -> datetime | None:
        return min((p.created_at for p in self.pending), default=None)

    @property
    def last_error(self) -> str | None:
        errors = [p.last_error for p in self.pending if p.last_error]
        return errors[-1] if errors else None

    @property
    def scope(self) -> ProjectionScope | None:
        return merged_scope(self.pending)


@dataclass(frozen=True)
class CatchUpResult:
    """What one catch-up did: which backlog rows it projected, the projection's report."""

    status: CatchUpStatus
    backlog_ids: tuple[int, ...]
    report: ProjectionReport | None
    error: str | None = None

    def summary_line(self) -> str:
        if self.status == "nothing":
            return "graph projection: nothing pending (the graph is up to date)"
        ids = _ids_text(self.backlog_ids)
        if self.status == "error":
            return (
                f"graph projection FAILED for backlog {ids}: {self.error}; the imported data is "
                "kept and the graph is behind until `python -m data_access.projection "
                "--retry-lagging` (or the next import) succeeds"
            )
        assert self.report is not None  # ok / partial always carry the report
        r = self.report
        return (
            f"graph projection {self.status} for backlog {ids}: batch {r.batch_id}, "
            f"{len(r.steps)} steps, {r.upserted} upserted, {r.failed} failed, {r.duration_ms} ms"
        )


def _ids_text(ids: tuple[int, ...]) -> str:
    """'12' or '10240..12795 (2556 writes)': a day of prices is thousands of backlog rows."""
    if len(ids) <= 3:
        return ", ".join(str(i) for i in ids)
    return f"{min(ids)}..{max(ids)} ({len(ids)} writes)"


def mark_pending(
    conn: psycopg.Connection[Any],
    scope: ProjectionScope,
    origin: Origin,
    import_run_id: int | None = None,
) -> None:
    """Record a write's scope in the caller's transaction (an empty scope records nothing)."""
    if scope.is_empty():
        return
    conn.execute(
        "INSERT INTO projection_backlog (origin, import_run_id, scope) VALUES (%s, %s, %s::jsonb)",
        (origin, import_run_id, json.dumps(scope.to_json())),
    )


def pending_writes(pool: ConnectionPool | None = None) -> list[PendingWrite]:
    return [_pending(r) for r in fetch_all(_PENDING_SQL, pool=pool)]


def graph_lag(pool: ConnectionPool | None = None) -> GraphLag:
    return GraphLag(tuple(pending_writes(pool)))


def merged_scope(pending: tuple[PendingWrite, ...] | list[PendingWrite]) -> ProjectionScope | None:
    return combine(p.scope for p in pending)


def catch_up(
    pool: ConnectionPool | None = None,
    store: GraphStore | None = None,
    *,
    daily_bar_days: int = 60,
) -> CatchUpResult:
    """Project every pending write (merged into one incremental run) and mark it done.

    `store` defaults to the configured graph store. A graph that cannot be reached, or a
    projection step that fails, leaves the rows pending with the error; nothing is raised
    for it (the data is committed; the lag is what the caller reports).
    """
    if pool is None:
        from data_access.postgres import get_pool

        pool = get_pool()
    with _catch_up_lock(pool):
        pending = pending_writes(pool)
        scope = merged_scope(pending)
        if scope is None:
            return CatchUpResult("nothing", (), None)
        ids = tuple(p.backlog_id for p in pending)
        report, error = _project(pool, store, scope, daily_bar_days)
        if report is not None and report.status != "error":
            _mark_done(pool, ids, report.batch_id)
            return CatchUpResult(report.status, ids, report)
        error = error or _first_error(report)
        _mark_failed(pool, ids, error, report.batch_id if report else None)
        logger.warning("graph projection of backlog %s failed: %s", ids, error)
        return CatchUpResult("error", ids, report, error)


def _project(
    pool: ConnectionPool, store: GraphStore | None, scope: ProjectionScope, daily_bar_days: int
) -> tuple[ProjectionReport | None, str | None]:
    try:
        if store is None:
            from data_access.graph import get_graph_store

            store = get_graph_store()
        holdings_days = scope.holdings_days if scope.full else None
        report = project_all(
            store, pool, holdings_days=holdings_days, daily_bar_days=daily_bar_days, scope=scope
        )
    except WorkbenchError as e:  # the graph server is down, a step's input is refused, ...
        return None, f"{type(e).__name__}: {e}"
    return report, None


def _first_error(report: ProjectionReport | None) -> str:
    if report is None:
        return "projection did not run"
    return next((f"{s.step}: {s.error}" for s in report.steps if s.error), "projection failed")


def _mark_done(pool: ConnectionPool, ids: tuple[int, ...], batch_id: str) -> None:
    with connection(pool) as conn:
        conn.execute(
            "UPDATE projection_backlog SET projected_at = now(), last_batch_id = %s,"
            " attempts = attempts + 1 WHERE backlog_id = ANY(%s)",
            (batch_id, list(ids)),
        )


def _mark_failed(
    pool: ConnectionPool, ids: tuple[int, ...], error: str, batch_id: str | None
) -> None:
    with connection(pool) as conn:
        conn.execute(
            "UPDATE projection_backlog SET attempts = attempts + 1, last_error = %s,"
            " last_batch_id = coalesce(%s, last_batch_id) WHERE backlog_id = ANY(%s)",
            (error[:2000], batch_id, list(ids)),
        )


@contextmanager
def _catch_up_lock(pool: ConnectionPool) -> Iterator[None]:
    """A session advisory lock on a connection of its own (not one of the pool's)."""
    conninfo = pool.conninfo if isinstance(pool.conninfo, str) else pool.conninfo()
    try:
        conn = psycopg.connect(conninfo, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as e:
        raise StoreUnavailable(
            f"PostgreSQL is not reachable ({short_error(e)})", store="postgres"
        ) from e
    with conn:  # closing the session releases its advisory lock
        conn.execute("SELECT pg_advisory_lock(%s)", (CATCH_UP_LOCK,))
        yield


def _pending(row: Row) -> PendingWrite:
    return PendingWrite(
        backlog_id=int(row["backlog_id"]),
        origin=str(row["origin"]),
        import_run_id=row["import_run_id"],
        scope=ProjectionScope.from_json(row["scope"]),
        created_at=row["created_at"],
        attempts=int(row["attempts"]),
        last_error=row["last_error"],
    )
