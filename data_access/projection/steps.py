"""The building block of every projection step: stream SQL rows, write them with UNWIND batches.

A step function takes a `StepContext` and returns a `StepOutcome`. Counts go into
`ctx.progress` as batches are written, so a step that fails half-way still reports what it did.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

from psycopg_pool import ConnectionPool

from data_access.graph.base import GraphStore, Row
from data_access.postgres import connection
from data_access.projection.models import Domain
from data_access.projection.scope import ProjectionScope, scope_params


@dataclass(frozen=True)
class ProjectionOptions:
    holdings_days: int | None = None  # latest N holdings snapshot dates; None = all of them
    daily_bar_days: int = 60  # latest N trading days of bars per company (seed 004 §9.1)
    universe_size: int = 50  # top N by market cap per country and month
    batch_size: int = 5000  # rows per UNWIND statement
    scope: ProjectionScope | None = None  # incremental: only what a write changed (None: all)

    def params(self, **extra: Any) -> dict[str, Any]:
        """Query parameters: the scope filters (see SCOPE_* below) plus the step's own."""
        return {**scope_params(self.scope), **extra}

    @property
    def incremental(self) -> bool:
        return self.scope is not None and not self.scope.full


@dataclass
class StepProgress:
    rows_fetched: int = 0
    upserted: int = 0
    latest: str | None = None  # max ISO date/time seen in the step's as-of column

    def see(self, value: Any) -> None:
        if isinstance(value, str) and value and (self.latest is None or value > self.latest):
            self.latest = value


@dataclass
class StepContext:
    store: GraphStore
    pool: ConnectionPool
    options: ProjectionOptions
    progress: StepProgress = field(default_factory=StepProgress)


StepFn = Callable[[StepContext], None]


@dataclass(frozen=True)
class StepSpec:
    domain: Domain
    step: str
    run: StepFn


# Scope filters for the steps' SQL: a NULL parameter (full projection) filters nothing.
SCOPE_ETFS = "(%(scope_etfs)s::text[] IS NULL OR {col} = ANY(%(scope_etfs)s::text[]))"
SCOPE_SIDS = "(%(scope_sids)s::text[] IS NULL OR {col} = ANY(%(scope_sids)s::text[]))"
SCOPE_SERIES = "(%(scope_series)s::text[] IS NULL OR {col} = ANY(%(scope_series)s::text[]))"
SCOPE_SINCE = "(%(scope_since)s::date IS NULL OR {col} >= %(scope_since)s::date)"


def graph_value(value: Any) -> Any:
    """A PostgreSQL value as a graph property: ISO dates, ints/floats, no NaN."""
    if isinstance(value, Decimal):
        if not value.is_finite():
            return None
        exponent = value.as_tuple().exponent
        return int(value) if isinstance(exponent, int) and exponent >= 0 else float(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, datetime):
        when = value if value.tzinfo else value.replace(tzinfo=UTC)
        return when.astimezone(UTC).isoformat(timespec="seconds")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return [graph_value(v) for v in value]
    return value


def stream_rows(
    pool: ConnectionPool, sql: str, params: dict[str, Any] | None, batch_size: int
) -> Generator[list[Row], None, None]:
    """Chunks of graph-ready rows from a server-side cursor (market scale does not fit in RAM)."""
    with connection(pool) as conn, conn.cursor(name="projection_stream") as cur:
        cur.execute(sql, params)  # type: ignore[arg-type]  # our own constant SQL
        while chunk := cur.fetchmany(batch_size):
            yield [{k: graph_value(v) for k, v in dict(row).items()} for row in chunk]


def fetch_rows(pool: ConnectionPool, sql: str, params: dict[str, Any] | None = None) -> list[Row]:
    """All rows at once, for the small reference tables."""
    with connection(pool) as conn:
        rows = conn.execute(sql, params).fetchall()  # type: ignore[arg-type]
    return [{k: graph_value(v) for k, v in dict(row).items()} for row in rows]


def upsert(
    ctx: StepContext,
    sql: str,
    cypher: str,
    *,
    params: dict[str, Any] | None = None,
    prune: Sequence[str] = (),
    as_of: str | None = None,
) -> None:
    """Stream `sql`, run the `prune` statements then `cypher` on each chunk, track progress."""
    size = ctx.options.batch_size
    with closing(stream_rows(ctx.pool, sql, params, size)) as chunks:
        for chunk in chunks:
            ctx.progress.rows_fetched += len(chunk)
            for statement in prune:
                ctx.store.write_batch(statement, chunk, batch_size=size)
            ctx.progress.upserted += ctx.store.write_batch(cypher, chunk, batch_size=size)
            if as_of:
                for row in chunk:
                    ctx.progress.see(row.get(as_of))


def upsert_grouped(
    ctx: StepContext,
    sql: str,
    cypher: str,
    *,
    items: str,
    params: dict[str, Any] | None = None,
    as_of: str | None = None,
) -> None:
    """Like `upsert`, for rows that carry a list `items` (one entry per source row).

    Grouping dated relationships by their (start, end) pair lets one statement look both nodes
    up once for all dates: about 3.7x faster than one lookup per date on FalkorDB (measured).
    A statement is cut after ~batch_size items; progress counts items, not groups.
    """
    pending: list[Row] = []
    pending_items = 0

    def flush() -> None:
        nonlocal pending, pending_items
        if pending:
            ctx.progress.upserted += ctx.store.write_batch(cypher, pending, len(pending))
        pending, pending_items = [], 0

    with closing(stream_rows(ctx.pool, sql, params, 1000)) as chunks:
        for chunk in chunks:
            for row in chunk:
                pending.append(row)
                pending_items += len(row[items])
                ctx.progress.rows_fetched += len(row[items])
                if as_of:
                    ctx.progress.see(row.get(as_of))
                if pending_items >= ctx.options.batch_size:
                    flush()
    flush()


def min_value(ctx: StepContext, sql: str, params: dict[str, Any] | None = None) -> Any:
    """The single value of a one-row, one-column query (e.g. a window's cutoff date)."""
    rows = fetch_rows(ctx.pool, sql, params)
    return next(iter(rows[0].values())) if rows else None
