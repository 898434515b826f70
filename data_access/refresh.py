"""Scheduled refresh: re-run the importers for the latest days, then project (issue 25).

    python -m data_access.refresh [--sources yfinance,fred] [--only KEY ...] [--overlap-days 7]
                                  [--dry-run]

What is refreshed is what was imported before: every ticker loaded with `importers yahoo` and
every series loaded with `importers fred` (their successful `import_runs`) is a refresh job.
A job fetches from its newest stored date minus `--overlap-days` (late corrections, FRED
revisions) to today, so a gap since the last successful run — a missed day, a week the machine
was off — is backfilled by the same run. Imports upsert, so a second run changes nothing.
The imports mark what they changed as pending for the graph, and the run ends with one
incremental catch-up (data_access.projection.backlog).

One refresh at a time per database: a second one started while the first runs (cron overlap,
a hand-started run) takes no action and says so (PostgreSQL advisory lock).
Exit status: 0 ok (or skipped), 3 some job failed, 4 data loaded but the graph is behind.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Literal

import psycopg
from psycopg_pool import ConnectionPool

from data_access.config import Settings, get_settings
from data_access.errors import WorkbenchError
from data_access.postgres import fetch_all

logger = logging.getLogger(__name__)

REFRESH_LOCK = 25_0426  # pg advisory lock key (the catch-up uses 250425)
Source = Literal["yfinance", "fred"]
SOURCES: tuple[Source, ...] = ("yfinance", "fred")
EXIT_OK, EXIT_FAILED, EXIT_GRAPH_BEHIND = 0, 3, 4

# One row per ticker/series ever imported successfully, with its newest stored date.
_JOBS_SQL = """
WITH done AS (
    SELECT DISTINCT ON (importer, dataset_code) importer, dataset_code, source
    FROM import_runs
    WHERE importer = ANY(%(sources)s) AND status <> 'error' AND dataset_code IS NOT NULL
    ORDER BY importer, dataset_code, run_id DESC
)
SELECT d.importer, d.dataset_code, d.source,
       CASE WHEN d.importer = 'fred'
            THEN (SELECT max(obs_date) FROM macro_observations o
                  WHERE o.series_code = d.dataset_code)
            ELSE (SELECT max(trade_date) FROM stock_prices p
                  WHERE p.security_id = regexp_replace(substr(d.dataset_code, 7),
                                                       '^([A-Z]{2})_', '\\1:'))
       END AS latest,
       (SELECT s.country FROM macro_series s WHERE s.series_code = d.dataset_code) AS country,
       (SELECT s.name_ko FROM macro_series s WHERE s.series_code = d.dataset_code) AS name_ko
FROM done d ORDER BY d.importer, d.dataset_code"""


@dataclass(frozen=True)
class RefreshJob:
    """One importer call: a Yahoo ticker or a FRED series, from `start` to today."""

    source: Source
    key: str  # ticker (yfinance) or series id (fred)
    security_id: str | None  # yfinance: where the bars go
    start: date
    latest: date | None  # newest stored date before this run
    country: str | None = None  # fred
    name_ko: str | None = None  # fred

    def describe(self) -> str:
        return f"{self.source} {self.key}: {self.start}..today (stored up to {self.latest or '-'})"


@dataclass
class RefreshReport:
    status: Literal["ok", "failed", "skipped"] = "ok"
    jobs: list[RefreshJob] = field(default_factory=list)
    loaded: dict[str, int] = field(default_factory=dict)  # job key -> rows loaded
    failed: dict[str, str] = field(default_factory=dict)  # job key -> error
    projection: str | None = None  # the catch-up's summary line
    graph_behind: bool = False


def plan_jobs(
    pool: ConnectionPool,
    sources: Sequence[Source] = SOURCES,
    *,
    overlap_days: int = 7,
    default_days: int = 30,
    today: date | None = None,
    only: Sequence[str] = (),
) -> list[RefreshJob]:
    """The refresh jobs: every earlier successful import of `sources` (or only those whose
    ticker, series or security id is in `only`), from its gap on."""
    today = today or date.today()
    rows = fetch_all(_JOBS_SQL, {"sources": list(sources)}, pool)
    jobs = []
    for row in rows:
        latest = row["latest"]
        start = latest - timedelta(days=overlap_days) if latest else today - timedelta(default_days)
        if row["importer"] == "fred":
            jobs.append(RefreshJob("fred", row["dataset_code"], None, start, latest,
                                   row["country"], row["name_ko"]))  # fmt: skip
        else:
            sid = _security_id(row["dataset_code"])
            jobs.append(RefreshJob("yfinance", _ticker(row["source"]), sid, start, latest))
    wanted = {w.upper() for w in only}
    return [j for j in jobs if not wanted or wanted & {j.key.upper(), (j.security_id or "")}]


def _security_id(dataset_code: str) -> str:
    """OHLCV_KR_005930 -> KR:005930 (loaders.ohlcv_dataset names a security's dataset so)."""
    country, _, native = dataset_code.removeprefix("OHLCV_").partition("_")
    return f"{country}:{native}"


def _ticker(source: str) -> str:
    """The ticker from an import run's source ('yfinance:AAPL' or '…/v8/finance/chart/AAPL')."""
    return source.rsplit("/", 1)[-1] if "/" in source else source.split(":", 1)[-1]


def refresh(
    pool: ConnectionPool,
    sources: Sequence[Source] = SOURCES,
    *,
    settings: Settings | None = None,
    overlap_days: int = 7,
    yahoo_base_url: str | None = None,
    fred_base_url: str | None = None,
    dry_run: bool = False,
    project: bool = True,
    only: Sequence[str] = (),
) -> RefreshReport:
    """Run every job (one failing does not stop the others), then catch the graph up."""
    report = RefreshReport()
    with _refresh_lock(pool) as acquired:
        if not acquired:
            report.status = "skipped"
            return report
        report.jobs = plan_jobs(pool, sources, overlap_days=overlap_days, only=only)
        if dry_run:
            return report
        for job in report.jobs:
            try:
                result = _run_job(job, pool, settings, yahoo_base_url, fred_base_url)
                report.loaded[job.key] = result
            except WorkbenchError as e:
                report.failed[job.key] = str(e)
        if project:
            _catch_up(pool, report)
    report.status = "failed" if report.failed else "ok"
    return report


def _run_job(
    job: RefreshJob,
    pool: ConnectionPool,
    settings: Settings | None,
    yahoo_base_url: str | None,
    fred_base_url: str | None,
) -> int:
    from data_access.importers import import_fred_series, import_yahoo_ohlcv

    if job.source == "fred":
        result = import_fred_series(
            job.key, start=job.start, name_ko=job.name_ko, country=job.country or "US",
            settings=settings, base_url=fred_base_url, pool=pool,
        )  # fmt: skip
    else:
        result = import_yahoo_ohlcv(
            job.key, start=job.start, security_id=job.security_id, base_url=yahoo_base_url,
            pool=pool,
        )  # fmt: skip
    return result.rows_loaded


def _catch_up(pool: ConnectionPool, report: RefreshReport) -> None:
    from data_access.projection.backlog import catch_up

    try:
        result = catch_up(pool)
    except WorkbenchError as e:
        report.projection, report.graph_behind = f"graph projection failed: {e}", True
        return
    report.projection = result.summary_line()
    report.graph_behind = result.status == "error"


@contextmanager
def _refresh_lock(pool: ConnectionPool) -> Iterator[bool]:
    """Try the refresh lock on a session of its own; yields whether this run holds it."""
    conninfo = pool.conninfo if isinstance(pool.conninfo, str) else pool.conninfo()
    with psycopg.connect(conninfo, autocommit=True, connect_timeout=5) as conn:
        row = conn.execute("SELECT pg_try_advisory_lock(%s)", (REFRESH_LOCK,)).fetchone()
        yield bool(row and row[0])  # closing the session releases the lock


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m data_access.refresh", description=__doc__)
    parser.add_argument("--sources", default=",".join(SOURCES),
                        help="comma-separated: yfinance, fred (default both)")  # fmt: skip
    parser.add_argument("--overlap-days", type=int, default=7,
                        help="re-fetch this many days before the newest stored date")  # fmt: skip
    parser.add_argument("--yahoo-base-url", help="chart API base URL (tests, proxies)")
    parser.add_argument("--fred-base-url", help="FRED API base URL (tests, proxies)")
    parser.add_argument("--only", action="append", default=[],
                        help="only this ticker, series or security id (repeatable)")  # fmt: skip
    parser.add_argument("--dry-run", action="store_true", help="list the jobs, fetch nothing")
    parser.add_argument("--no-project", action="store_true", help="leave the graph behind")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    sources = [s.strip() for s in args.sources.split(",") if s.strip()]
    unknown = sorted(set(sources) - set(SOURCES))
    if unknown or args.overlap_days < 0:
        parser.error(f"unknown sources {unknown}" if unknown else "--overlap-days must be >= 0")
    from data_access.postgres import get_pool, migrate

    try:
        settings = get_settings()
        pool = get_pool(settings.database_url or None, settings)
        migrate(pool)
        report = refresh(
            pool, sources, settings=settings, overlap_days=args.overlap_days,  # type: ignore[arg-type]
            yahoo_base_url=args.yahoo_base_url, fred_base_url=args.fred_base_url,
            dry_run=args.dry_run, project=not args.no_project, only=args.only,
        )  # fmt: skip
    except WorkbenchError as e:
        print(f"refresh failed: {e}", file=sys.stderr)
        return EXIT_FAILED
    return _print(report)


def _print(report: RefreshReport) -> int:
    if report.status == "skipped":
        print("another refresh is running on this database: nothing done")
        return EXIT_OK
    if not report.jobs:
        print("nothing to refresh: import a ticker (importers yahoo) or series (importers fred)")
    for job in report.jobs:
        outcome = (f"FAILED: {report.failed[job.key]}" if job.key in report.failed
                   else f"{report.loaded[job.key]} rows" if job.key in report.loaded else "planned")  # fmt: skip
        print(f"{job.describe()} -> {outcome}")
    if report.projection:
        print(report.projection)
    if report.failed:
        return EXIT_FAILED
    return EXIT_GRAPH_BEHIND if report.graph_behind else EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
