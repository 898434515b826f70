"""Dataset statuses computed live from real tables in the embedded PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import date

import pytest
from psycopg_pool import ConnectionPool

from data_access.catalog import (
    CORE_DATASETS,
    DOMAINS,
    Dataset,
    catalogued_datasets,
    current_as_of_date,
    dataset_by_code,
    dataset_row,
    dataset_statuses,
    domain_freshness,
    register_datasets,
    upsert_datasets,
)
from data_access.postgres import connection, execute, fetch_all, fetch_one

PROBE_TABLE = "catalog_probe_obs"  # a scratch table of this test, dropped afterwards
AS_OF = date(2026, 11, 20)


@pytest.fixture
def probe_table(pg_pool: ConnectionPool) -> Iterator[str]:
    execute(f"DROP TABLE IF EXISTS {PROBE_TABLE}", pool=pg_pool)
    execute(f"CREATE TABLE {PROBE_TABLE} (series text, obs_date date, value float)", pool=pg_pool)
    execute(
        f"INSERT INTO {PROBE_TABLE} VALUES ('A', '2026-11-18', 1), ('A', '2026-11-19', 2),"
        " ('B', '2026-09-01', 3), ('O''X', '2026-11-20', 4)",
        pool=pg_pool,
    )
    yield PROBE_TABLE
    execute(f"DROP TABLE IF EXISTS {PROBE_TABLE}", pool=pg_pool)


def _probe(code: str, value: str | None, op: str = "=") -> Dataset:
    return Dataset(
        code, PROBE_TABLE, "macro", "obs_date", f"탐침 {code}", 5,
        filter_column="series" if value is not None else None,
        filter_op="LIKE" if op == "LIKE" else "=", filter_value=value,
    )  # fmt: skip


def test_statuses_count_rows_and_dates_per_filtered_slice(
    pg_pool: ConnectionPool, probe_table: str
) -> None:
    datasets = (
        _probe("FRESH", "A"), _probe("OLD", "B"), _probe("NONE", "Z"),
        _probe("QUOTE", "O'X"), _probe("ALL", None), _probe("PREFIX", "O%", "LIKE"),
    )  # fmt: skip
    by_code = {s.dataset_code: s for s in dataset_statuses(AS_OF, pg_pool, datasets)}

    fresh = by_code["FRESH"]
    assert (fresh.rows, fresh.min_date, fresh.max_date) == (
        2,
        date(2026, 11, 18),
        date(2026, 11, 19),
    )
    assert (fresh.freshness, fresh.lag_days, fresh.as_of) == ("healthy", 1, AS_OF)
    assert (by_code["OLD"].freshness, by_code["OLD"].lag_days) == ("stale", 80)
    assert (by_code["NONE"].rows, by_code["NONE"].freshness, by_code["NONE"].max_date) == (
        0,
        "missing",
        None,
    )
    assert by_code["QUOTE"].rows == 1  # a quote in the value is data, not SQL
    assert by_code["ALL"].rows == 4
    assert by_code["PREFIX"].rows == 1
    assert by_code["FRESH"].to_dict()["max_date"] == "2026-11-19"


def test_register_is_idempotent_and_keeps_an_importers_source(pg_pool: ConnectionPool) -> None:
    assert register_datasets(pool=pg_pool) == len(CORE_DATASETS)
    imported = dataset_row(replace(dataset_by_code("DGS10"), source="fred"))
    with connection(pg_pool) as conn:  # what an importer does inside its transaction
        upsert_datasets(conn, [imported], replace_source=True)
    try:
        register_datasets(pool=pg_pool)
        count = fetch_one(
            "SELECT count(*) AS n FROM datasets WHERE dataset_code = ANY(%s)",
            ([d.dataset_code for d in CORE_DATASETS],),
            pool=pg_pool,
        )
        assert count is not None and count["n"] == len(CORE_DATASETS)
        source = fetch_one("SELECT source FROM datasets WHERE dataset_code = 'DGS10'", pool=pg_pool)
        assert source == {"source": "fred"}
        dgs10 = next(d for d in catalogued_datasets(pg_pool) if d.dataset_code == "DGS10")
        assert dgs10.source == "fred"
    finally:
        execute("UPDATE datasets SET source = 'demo' WHERE dataset_code = 'DGS10'", pool=pg_pool)


def test_importer_datasets_join_the_catalogue_only_when_safe(pg_pool: ConnectionPool) -> None:
    register_datasets(pool=pg_pool)
    insert = (
        "INSERT INTO datasets (dataset_code, table_name, domain, date_column, filter_sql,"
        " title_ko, source, max_stale_days) VALUES (%s, %s, 'equity', 'trade_date', %s, 't', 'csv', 5)"
    )
    execute(insert, ("TEST_CAT_OK", "stock_prices", "security_id = 'US:ZZZZ'"), pool=pg_pool)
    execute(insert, ("TEST_CAT_BAD", "pg_authid", None), pool=pg_pool)
    try:
        codes = {d.dataset_code for d in catalogued_datasets(pg_pool)}
        assert "TEST_CAT_OK" in codes and "TEST_CAT_BAD" not in codes
        status = next(
            s for s in dataset_statuses(AS_OF, pg_pool) if s.dataset_code == "TEST_CAT_OK"
        )
        assert (status.rows, status.freshness, status.source) == (0, "missing", "csv")
    finally:
        execute("DELETE FROM datasets WHERE dataset_code LIKE 'TEST_CAT_%'", pool=pg_pool)


def test_as_of_is_the_latest_trade_date_or_the_demo_date(pg_pool: ConnectionPool, settings) -> None:  # type: ignore[no-untyped-def]
    latest = fetch_all(
        "SELECT max(trade_date) AS d FROM etf_prices UNION ALL SELECT max(trade_date) FROM stock_prices",
        pool=pg_pool,
    )
    dates = [r["d"] for r in latest if r["d"] is not None]
    expected = max(dates) if dates else date.fromisoformat(settings.demo_as_of_date)
    assert current_as_of_date(pg_pool) == expected


def test_domain_freshness_reports_every_domain(pg_pool: ConnectionPool) -> None:
    register_datasets(pool=pg_pool)
    result = domain_freshness(AS_OF, pg_pool)
    assert list(result) == list(DOMAINS)
    assert set(result.values()) <= {"healthy", "stale", "missing"}
    statuses = dataset_statuses(AS_OF, pg_pool)
    for domain, status in result.items():
        members = {s.freshness for s in statuses if s.domain == domain}
        assert status in members  # the worst of its datasets, so one of them


def test_recent_domain_freshness_covers_only_the_requested_domains(pg_pool, demo_data) -> None:  # type: ignore[no-untyped-def]
    from data_access.catalog import domain_freshness, recent_domain_freshness

    recent = recent_domain_freshness(("etf", "equity"), pg_pool)
    assert set(recent) == {"etf", "equity"}
    assert recent == domain_freshness(None, pg_pool, ("etf", "equity"))
    assert recent_domain_freshness(("etf", "equity"), pg_pool) == recent  # served from the cache
