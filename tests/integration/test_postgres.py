"""PostgreSQL layer: migrations applied once, read-only agent SQL with a second wall, timeouts."""

from __future__ import annotations

import pytest
from psycopg_pool import ConnectionPool

from data_access.errors import QueryFailed, QueryRejected
from data_access.postgres import fetch_all, fetch_one, migrate, run_read_only


def test_migrations_are_recorded_and_applied_once(pg_pool: ConnectionPool) -> None:
    versions = [
        r["version"] for r in fetch_all("SELECT version FROM schema_migrations", pool=pg_pool)
    ]
    assert versions == sorted(versions) and "0001_market" in versions
    assert migrate(pg_pool) == []  # nothing pending the second time


def test_extensions_available(pg_pool: ConnectionPool) -> None:
    names = {r["extname"] for r in fetch_all("SELECT extname FROM pg_extension", pool=pg_pool)}
    assert {"vector", "pg_trgm"} <= names


def test_read_only_returns_rows_and_caps_them(pg_pool: ConnectionPool) -> None:
    rows = run_read_only("SELECT g AS n FROM generate_series(1, 1000) g", max_rows=7, pool=pg_pool)
    assert [r["n"] for r in rows] == list(range(1, 8))


def test_guard_rejects_writes_before_they_run(pg_pool: ConnectionPool) -> None:
    with pytest.raises(QueryRejected):
        run_read_only("DROP TABLE etfs", pool=pg_pool)
    assert fetch_one("SELECT to_regclass('etfs') AS t", pool=pg_pool) == {"t": "etfs"}


def test_read_only_transaction_is_a_second_wall(pg_pool: ConnectionPool) -> None:
    # A SELECT that calls a writing function passes a text guard, but not the READ ONLY transaction.
    from data_access.postgres import connection

    with connection(pg_pool) as conn:
        conn.execute(
            "CREATE OR REPLACE FUNCTION atlas_sneaky_write() RETURNS int LANGUAGE sql AS"
            " $$ INSERT INTO tags (name) VALUES ('sneaky') ON CONFLICT DO NOTHING RETURNING 1 $$"
        )
    try:
        with pytest.raises((QueryFailed, QueryRejected)) as err:
            run_read_only("SELECT atlas_sneaky_write() AS x", pool=pg_pool)
        if isinstance(err.value, QueryFailed):
            assert "read-only" in str(err.value)
        assert fetch_one("SELECT 1 AS x FROM tags WHERE name = 'sneaky'", pool=pg_pool) is None
    finally:
        with connection(pg_pool) as conn:
            conn.execute("DROP FUNCTION IF EXISTS atlas_sneaky_write()")


def test_statement_timeout_is_enforced(pg_pool: ConnectionPool) -> None:
    # The guard refuses pg_sleep; the reader's transaction (the wall behind it) times it out.
    from data_access.reader import fetch_reader, reader_transaction

    with pytest.raises(QueryRejected, match="pg_sleep"):
        run_read_only("SELECT pg_sleep(3) AS s", timeout_ms=200, pool=pg_pool)
    with (
        pytest.raises(QueryFailed, match="statement_timeout|cancel"),
        reader_transaction(pg_pool, timeout_ms=200) as conn,
    ):
        fetch_reader(conn, "SELECT pg_sleep(3) AS s")


def test_a_slow_first_connection_of_a_new_pool_is_no_outage(
    pg_pool: ConnectionPool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first view of a fresh app warned 'PostgreSQL 서버가 연결을 받지 않습니다' beside a
    healthy server: the pool's worker missed the 1.5 s first-connection wait under load, and the
    timeout was reported as an outage. With that wait made impossible to meet, the real server
    still gives a working pool (it answers a direct connection, so the pool waits longer)."""
    from data_access import postgres

    monkeypatch.setattr(postgres, "OPEN_TIMEOUT_S", 0.000_001)
    uri = pg_pool.conninfo
    pool = postgres._open_pool(uri, 1, 2)
    try:
        assert fetch_one("SELECT 1 AS one", pool=pool) == {"one": 1}
    finally:
        pool.close()
