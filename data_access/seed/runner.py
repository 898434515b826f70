"""Seed PostgreSQL with the demo dataset and project it into the graph.

report = seed_database("demo")          # replace the seed tables, record a seed_runs row
report = seed_if_missing("demo")        # None when that scale is already loaded
result = seed_or_top_up("demo")         # also a TopUpReport when a loaded seed was topped up
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any

import psycopg
from psycopg_pool import ConnectionPool

from data_access.config import Settings, get_settings
from data_access.errors import ToolInputError, WorkbenchError
from data_access.seed.build import build_dataset
from data_access.seed.checksums import compute_checksums
from data_access.seed.disclosures import add_demo_disclosures, add_missing_disclosures
from data_access.seed.loader import SEED_TABLES, copy_tables, truncate_seed_tables
from data_access.seed.params import SCALE_CONFIGS, SCALES, Scale
from data_access.seed.topup import add_missing_series
from data_access.seed.universe_history import add_missing_membership, refresh_universe_membership

if TYPE_CHECKING:
    from data_access.projection.models import ProjectionReport

logger = logging.getLogger(__name__)

SEED_LOCK = 424243  # advisory lock: one seeding at a time per database (migrate uses 424242)
# A loaded scale that already satisfies a request: market scale contains the whole demo list.
SATISFIES: dict[str, set[str]] = {"demo": {"demo", "market"}, "market": {"market"}}
# The graph steps each top-up feeds (the rest of the graph already follows the loaded seed):
# the market series' names are entity aliases; the membership is the Top50 universe; the
# filings are documents, events and evidence with their links to indicators and earnings.
TOPUP_STEPS: dict[str, tuple[str, ...]] = {
    "series": ("entities",),
    "membership": ("universe",),
    "disclosures": ("documents", "events", "evidence", "evidence_targets", "document_themes",
                    "facts_claims", "earnings_links"),
}  # fmt: skip


@dataclass(frozen=True)
class SeedReport:
    """What one seeding produced. JSON-friendly via `to_dict()`."""

    scale: str
    seed: int
    as_of_date: date
    row_counts: dict[str, int]
    checksums: dict[str, str]
    duration_ms: int  # generation + load + checksums (projection excluded)
    timings_ms: dict[str, int] = field(default_factory=dict)
    projection: dict[str, Any] | None = None

    @property
    def total_rows(self) -> int:
        return sum(self.row_counts.values())

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["as_of_date"] = self.as_of_date.isoformat()
        return out


@dataclass(frozen=True)
class TopUpReport:
    """What `seed --if-missing` added to a loaded seed, and whether the graph followed it."""

    scale: str
    added: dict[str, int]  # rows per top-up ('series', 'membership', 'disclosures')
    projection: dict[str, Any] | None = None  # None: not projected (--no-project)

    @property
    def failed(self) -> bool:
        return self.projection is not None and self.projection.get("status") == "error"

    def message(self) -> str:
        """One line for the CLI: what was added and, on failure, how the graph catches up."""
        rows = ", ".join(f"{name} {n:,} rows" for name, n in self.added.items() if n)
        text = f"demo data ({self.scale} scale) already loaded; topped up: {rows}"
        p = self.projection
        if p is None:
            return text + "; graph not projected (--no-project)"
        if p.get("status") == "error":
            return (
                f"{text}; graph projection FAILED ({', '.join(p.get('steps', []))}): "
                f"{p.get('error')}. The graph is behind PostgreSQL (backlog {p.get('backlog')}: "
                f"{', '.join(p.get('behind', []))}) until `python -m data_access.projection "
                "--retry-lagging` succeeds"
            )
        return (
            f"{text}; graph projection {p.get('status')} in {p.get('duration_ms', 0) / 1000:.1f} s"
            f" ({p.get('upserted', 0):,} upserted: {', '.join(p.get('steps', []))})"
        )


def seed_database(
    scale: str = "demo",
    *,
    pool: ConnectionPool | None = None,
    settings: Settings | None = None,
    project: bool = True,
    seed: int | None = None,
) -> SeedReport:
    """Generate the dataset for `scale` and replace the seed tables with it (one transaction)."""
    settings = settings or get_settings()
    checked = _check_scale(scale)
    pool = pool or _default_pool(settings)
    with _seed_lock(pool) as conn:
        return _seed(
            conn, checked, seed if seed is not None else settings.demo_seed, settings, pool, project
        )


def seed_if_missing(
    scale: str = "demo",
    *,
    pool: ConnectionPool | None = None,
    settings: Settings | None = None,
    project: bool = True,
) -> SeedReport | None:
    """Seed unless a run of this scale (or one containing it) is loaded and the tables have data.
    A loaded seed older than what the seed now generates is topped up (`seed_or_top_up`)."""
    done = seed_or_top_up(scale, pool=pool, settings=settings, project=project)
    return done if isinstance(done, SeedReport) else None


def seed_or_top_up(
    scale: str = "demo",
    *,
    pool: ConnectionPool | None = None,
    settings: Settings | None = None,
    project: bool = True,
) -> SeedReport | TopUpReport | None:
    """`seed_if_missing`, saying what a top-up did: a loaded seed older than what the seed now
    generates gets the missing rows, and the graph steps they feed are projected in the same
    call (TOPUP_STEPS). None when nothing was missing."""
    settings = settings or get_settings()
    checked = _check_scale(scale)
    pool = pool or _default_pool(settings)
    with _seed_lock(pool) as conn:
        loaded = loaded_scale(conn)
        if loaded not in SATISFIES[checked]:
            return _seed(conn, checked, settings.demo_seed, settings, pool, project)
        added = {
            "series": add_missing_series(conn),  # series newer than the loaded seed (issue 25)
            "membership": add_missing_membership(conn),  # Top50 history of an older seed (35)
            "disclosures": add_missing_disclosures(conn),  # demo OpenDART filings (issue 35)
        }
    steps = tuple(dict.fromkeys(s for name, n in added.items() if n for s in TOPUP_STEPS[name]))
    logger.info("seed data (%s scale) already loaded; %s rows topped up", loaded, added)
    if not steps:
        return None
    projected = None
    if project:  # the graph (and its vector index) follows what was added
        projected = _project_top_up(settings, pool, steps)
    return TopUpReport(str(loaded), {k: n for k, n in added.items() if n}, projected)


def loaded_scale(conn: psycopg.Connection) -> str | None:
    """The scale of the latest seed run, if the seed tables still hold data."""
    with conn.transaction():
        row = conn.execute("SELECT scale FROM seed_runs ORDER BY run_id DESC LIMIT 1").fetchone()
        filled = conn.execute(
            "SELECT EXISTS (SELECT 1 FROM etfs) AND EXISTS (SELECT 1 FROM stock_prices)"
            " AND EXISTS (SELECT 1 FROM etf_holdings) AS filled"
        ).fetchone()
    if row is None or filled is None or not _first(filled):
        return None
    return str(_first(row))


def _first(row: Any) -> Any:
    return next(iter(row.values())) if isinstance(row, dict) else row[0]


def _check_scale(scale: str) -> Scale:
    for known in SCALES:
        if scale == known:
            return known
    raise ToolInputError(f"unknown scale {scale!r}; choose one of {', '.join(SCALES)}")


def _default_pool(settings: Settings) -> ConnectionPool:
    from data_access.bootstrap import bootstrap
    from data_access.postgres import get_pool

    info = bootstrap(settings)  # servers up, schema migrated
    return get_pool(info.postgres_uri, settings)


@contextmanager
def _seed_lock(pool: ConnectionPool) -> Iterator[psycopg.Connection]:
    with pool.connection() as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (SEED_LOCK,))
        conn.commit()
        try:
            yield conn
        finally:
            conn.rollback()
            conn.execute("SELECT pg_advisory_unlock(%s)", (SEED_LOCK,))
            conn.commit()


def _seed(
    conn: psycopg.Connection,
    scale: Scale,
    seed: int,
    settings: Settings,
    pool: ConnectionPool,
    project: bool,
) -> SeedReport:
    as_of = date.fromisoformat(settings.demo_as_of_date)
    conn.commit()  # the load below must be a top-level transaction, not a savepoint
    start = time.perf_counter()
    dataset = build_dataset(scale, seed, as_of)
    timings = {f"generate_{k}": v for k, v in dataset.timings_ms.items()}
    timings["generate"] = _ms(start)
    t0 = time.perf_counter()
    with conn.transaction():
        truncate_seed_tables(conn)
        copy_ms = copy_tables(conn, dataset.tables)
        refresh_universe_membership(conn)  # dated Top50 membership (seed 004 §4, issue 35)
        add_demo_disclosures(conn, as_of)  # OpenDART filings of the largest KR reporters
        timings["load"] = _ms(t0)
        t1 = time.perf_counter()
        checksums, counts = compute_checksums(conn, SEED_TABLES)
        timings["checksums"] = _ms(t1)
        duration = _ms(start)
        conn.execute(
            "INSERT INTO seed_runs (scale, seed, as_of_date, checksums, row_counts, duration_ms)"
            " VALUES (%s, %s, %s, %s::jsonb, %s::jsonb, %s)",
            (scale, seed, as_of, json.dumps(checksums), json.dumps(counts), duration),
        )
        _mark_graph_behind(conn, scale)
    timings.update({f"copy_{k}": v for k, v in copy_ms.items()})
    logger.info("seeded %s scale (%d rows) in %d ms", scale, sum(counts.values()), duration)
    report = SeedReport(scale, seed, as_of, counts, checksums, duration, timings)
    if not project:
        return report
    return _with_projection(report, settings, pool, SCALE_CONFIGS[scale].projection_holdings_days)


def _mark_graph_behind(conn: psycopg.Connection, scale: Scale) -> int:
    """In the seed's transaction: the whole graph must follow it (issue 25, projection backlog).
    Returns the backlog row's id."""
    from data_access.projection.backlog import mark_pending
    from data_access.projection.scope import ProjectionScope

    window = SCALE_CONFIGS[scale].projection_holdings_days
    mark_pending(conn, ProjectionScope(full=True, holdings_days=window), "seed")
    row = conn.execute(  # this session's row, whatever other writers add meanwhile
        "SELECT currval(pg_get_serial_sequence('projection_backlog', 'backlog_id'))"
    ).fetchone()
    return int(_first(row))


def _with_projection(
    report: SeedReport, settings: Settings, pool: ConnectionPool, holdings_days: int | None
) -> SeedReport:
    """Project the pending backlog (the seed, with `holdings_days`, and any earlier lagging
    write) into the graph; a failure is reported, not raised, and stays pending for
    `python -m data_access.projection --retry-lagging`."""
    return SeedReport(**{**asdict(report), "projection": _project_backlog(settings, pool)})


def _project_backlog(settings: Settings, pool: ConnectionPool) -> dict[str, Any]:
    from data_access.graph import get_graph_store  # imported lazily: optional backends
    from data_access.projection.backlog import catch_up

    start = time.perf_counter()
    try:
        store = get_graph_store(settings)
        try:
            caught_up = catch_up(pool, store)
        finally:
            store.close()
        result = caught_up.report
        if result is None:
            raise WorkbenchError(caught_up.error or "nothing was projected")
    except WorkbenchError as e:
        logger.warning("graph projection failed: %s", e)
        summary: dict[str, Any] = {"status": "error", "error": str(e), "duration_ms": _ms(start)}
    else:
        summary = {
            "batch_id": result.batch_id, "status": result.status, "duration_ms": _ms(start),
            "rows_fetched": result.rows_fetched, "upserted": result.upserted, "failed": result.failed,
            "steps": len(result.steps),
        }  # fmt: skip
    return summary


def _project_top_up(
    settings: Settings, pool: ConnectionPool, steps: tuple[str, ...]
) -> dict[str, Any]:
    """Project the steps the topped-up rows feed (seconds, not the full run's minutes of ETF
    holdings); when that fails the graph is marked behind by those steps only (from the first
    that failed on: the later ones link to what it wrote), so the Data screen shows the lag and
    `python -m data_access.projection --retry-lagging` catches up without redoing the graph."""
    from data_access.graph import get_graph_store
    from data_access.projection.runner import project_all

    start = time.perf_counter()
    behind = steps  # a store that cannot be reached: every step is still to do
    try:
        store = get_graph_store(settings)
        try:
            report = project_all(store, pool, steps=steps)
        finally:
            store.close()
        error = _first_step_error(report) if report.status == "error" else None
        behind = failed_steps(report, steps)
    except WorkbenchError as e:
        error = str(e)
    if error is None:
        return {"batch_id": report.batch_id, "status": report.status, "steps": list(steps),
                "upserted": report.upserted, "duration_ms": _ms(start)}  # fmt: skip
    logger.warning("graph projection of the top-up failed: %s", error)
    with pool.connection() as conn, conn.transaction():
        backlog = _mark_steps_behind(conn, behind)
        conn.execute(  # the Data screen says why the graph is behind, as after a failed catch-up
            "UPDATE projection_backlog SET attempts = 1, last_error = %s WHERE backlog_id = %s",
            (f"seed top-up ({', '.join(behind)}): {error}"[:2000], backlog),
        )
    return {"status": "error", "error": error, "steps": list(steps), "behind": list(behind),
            "backlog": backlog, "duration_ms": _ms(start)}  # fmt: skip


def failed_steps(report: ProjectionReport, steps: tuple[str, ...]) -> tuple[str, ...]:
    """The steps still to project after a run of `steps`: the first that failed and every one
    after it in the run's order (a later step may have linked nothing to what it missed)."""
    ran = [s.step for s in report.steps]
    first = next((i for i, s in enumerate(report.steps) if s.status == "error"), None)
    if first is None:
        return ()
    done = set(ran[:first])
    return tuple(s for s in steps if s not in done)


def _mark_steps_behind(conn: psycopg.Connection, steps: tuple[str, ...]) -> int:
    """In the caller's transaction: these steps must run again (the backlog row's id)."""
    from data_access.projection.backlog import mark_pending
    from data_access.projection.scope import ProjectionScope

    mark_pending(conn, ProjectionScope(step_names=steps), "seed")
    row = conn.execute(
        "SELECT currval(pg_get_serial_sequence('projection_backlog', 'backlog_id'))"
    ).fetchone()
    return int(_first(row))


def _first_step_error(report: ProjectionReport) -> str:
    return next((s.error or s.step for s in report.steps if s.status == "error"), "error")


def _ms(start: float) -> int:
    return round((time.perf_counter() - start) * 1000)
