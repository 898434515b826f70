"""§9.5 run reports on a real PostgreSQL (own database): real imports, recorded projection steps."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path

import psycopg
import pytest
from psycopg.conninfo import make_conninfo
from psycopg_pool import ConnectionPool

from data_access.config import Settings
from data_access.importers import SeriesInfo, import_macro_csv, import_ohlcv_csv
from data_access.postgres import get_pool, migrate
from data_access.projection.models import ProjectionStep
from data_access.projection.runs import latest_domain_steps, record_step
from data_access.run_reports import PROJECTED_DOMAINS, import_run_reports, projection_lags
from data_access.services import ServiceInfo

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "importers"
TEST_DATABASE = "atlas_run_reports_test"
TABLES = "projection_runs, import_runs, seed_runs, datasets, stock_prices, stocks, " \
    "macro_observations, macro_series"  # fmt: skip
BASE_RATE = SeriesInfo(
    "KR_BASE_RATE", "Bank of Korea base rate", "한국은행 기준금리", "KR", "percent", "monthly",
    "csv:macro_kr_base_rate.csv",
)  # fmt: skip


@pytest.fixture()
def db(services: ServiceInfo, settings: Settings) -> Iterator[ConnectionPool]:
    """Our own database on the test server, emptied for each test."""
    with psycopg.connect(services.postgres_uri, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (TEST_DATABASE,))
        if exists.fetchone() is None:
            conn.execute(f'CREATE DATABASE "{TEST_DATABASE}"')
    pool = get_pool(make_conninfo(services.postgres_uri, dbname=TEST_DATABASE), settings)
    migrate(pool)
    with pool.connection() as conn:
        conn.execute(f"TRUNCATE {TABLES} RESTART IDENTITY CASCADE")
    yield pool


def _macro_step(batch: str, finished, status="ok") -> ProjectionStep:  # type: ignore[no-untyped-def]
    return ProjectionStep(
        batch_id=batch, domain="macro", step="indicator_observations", graph_backend="falkordb",
        rows_fetched=12, upserted=12, failed=0, latest_as_of=date(2024, 12, 1), lag_minutes=1.0,
        status=status, started_at=finished - timedelta(seconds=2), finished_at=finished,
    )  # fmt: skip


def test_nothing_projected_or_imported_yet(db: ConnectionPool) -> None:
    lags = projection_lags(db)
    assert [lag.domain for lag in lags] == list(PROJECTED_DOMAINS)
    assert {lag.status for lag in lags} == {"none"}
    assert import_run_reports(db) == []


def test_an_import_after_the_projection_makes_the_graph_lag(db: ConnectionPool) -> None:
    imported = import_macro_csv(FIXTURES / "macro_kr_base_rate.csv", BASE_RATE, pool=db)
    [report] = import_run_reports(db)
    assert (report.run_id, report.status, report.rows_read, report.rows_loaded) == (
        imported.run_id, "ok", 12, 12,
    )  # fmt: skip
    assert report.dataset_code == "KR_BASE_RATE"
    assert report.latest_as_of == date(2024, 12, 1)  # the dataset's newest observation today
    loaded_at = report.created_at

    record_step(db, _macro_step("before", loaded_at - timedelta(minutes=10)))
    macro = {lag.domain: lag for lag in projection_lags(db, now=loaded_at + timedelta(minutes=90))}
    assert macro["macro"].pending and macro["macro"].status == "warn"
    assert macro["macro"].lag_minutes == pytest.approx(90.0)
    assert macro["etf"].status == "none"
    late = projection_lags(db, now=loaded_at + timedelta(hours=25))
    assert {lag.domain: lag.status for lag in late}["macro"] == "fail"

    # A newer batch that projected the load: up to date, and only its steps count.
    record_step(db, _macro_step("after", loaded_at + timedelta(minutes=5), status="partial"))
    [after] = [lag for lag in projection_lags(db) if lag.domain == "macro"]
    assert (after.batch_id, after.pending, after.lag_minutes) == ("after", False, 0.0)
    assert after.status == "warn"  # the step itself lost rows
    assert [s.batch_id for s in latest_domain_steps(db)["macro"]] == ["after"]


def test_a_partly_bad_file_is_reported_with_its_failures(db: ConnectionPool) -> None:
    import_macro_csv(FIXTURES / "macro_kr_base_rate.csv", BASE_RATE, pool=db)
    partial = import_ohlcv_csv(FIXTURES / "ohlcv_us_xyz_partial.csv", "US:XYZ", pool=db)
    reports = import_run_reports(db)
    assert [r.run_id for r in reports] == [partial.run_id, partial.run_id - 1]  # newest first
    newest = reports[0]
    assert (newest.status, newest.rows_failed) == ("partial", partial.rows_failed)
    assert newest.rows_failed > 0 and newest.error
    assert newest.latest_as_of == partial.last_date
