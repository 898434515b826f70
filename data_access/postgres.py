"""PostgreSQL access: one psycopg pool per process, versioned migrations, read-only agent SQL.

Callers get plain dicts back, never cursors or driver rows.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from importlib import resources
from typing import Any

import psycopg
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

from data_access.config import Settings, get_settings
from data_access.errors import QueryFailed, StoreUnavailable

logger = logging.getLogger(__name__)

Row = dict[str, Any]
Params = Sequence[Any] | dict[str, Any] | None

_pools: dict[str, ConnectionPool] = {}
_pools_lock = threading.Lock()


def get_pool(uri: str | None = None, settings: Settings | None = None) -> ConnectionPool:
    """The process-wide pool for a URI (default: the running services' PostgreSQL)."""
    settings = settings or get_settings()
    if uri is None:
        from data_access.services import ensure_running

        uri = ensure_running(settings).postgres_uri
    with _pools_lock:
        pool = _pools.get(uri)
        if pool is None or pool.closed:
            pool = ConnectionPool(
                uri,
                min_size=settings.pg_pool_min,
                max_size=settings.pg_pool_max,
                kwargs={"row_factory": dict_row, "connect_timeout": 5},
                open=False,
                name="atlas",
                timeout=10,
            )
            try:
                pool.open(wait=True, timeout=15)
            except psycopg.OperationalError as e:
                raise StoreUnavailable(f"PostgreSQL is not reachable ({_short(e)})") from e
            except Exception as e:  # psycopg_pool.PoolTimeout
                raise StoreUnavailable(f"PostgreSQL is not reachable: {_short(e)}") from e
            _pools[uri] = pool
        return pool


def close_pools() -> None:
    with _pools_lock:
        for pool in _pools.values():
            pool.close()
        _pools.clear()


def _short(e: BaseException) -> str:
    return str(e).strip().splitlines()[0][:300] if str(e).strip() else type(e).__name__


@contextmanager
def connection(pool: ConnectionPool | None = None) -> Iterator[psycopg.Connection[Row]]:
    """A pooled connection; the transaction commits on success and rolls back on error."""
    pool = pool or get_pool()
    try:
        with pool.connection() as conn:
            yield conn  # type: ignore[misc]  # the pool is built with row_factory=dict_row
    except psycopg.OperationalError as e:
        raise StoreUnavailable(f"PostgreSQL connection failed: {_short(e)}") from e
    except Exception as e:
        if type(e).__name__ == "PoolTimeout":
            raise StoreUnavailable(f"PostgreSQL is not reachable: {_short(e)}") from e
        raise


def fetch_all(sql: str, params: Params = None, pool: ConnectionPool | None = None) -> list[Row]:
    with connection(pool) as conn:
        try:
            return list(conn.execute(sql, params).fetchall())  # type: ignore[arg-type]
        except psycopg.OperationalError:
            raise
        except psycopg.Error as e:
            raise QueryFailed(_short(e)) from e


def fetch_one(sql: str, params: Params = None, pool: ConnectionPool | None = None) -> Row | None:
    rows = fetch_all(sql, params, pool)
    return rows[0] if rows else None


def execute(sql: str, params: Params = None, pool: ConnectionPool | None = None) -> int:
    """Run one write statement; returns the affected row count."""
    with connection(pool) as conn:
        try:
            cur = conn.execute(sql, params)  # type: ignore[arg-type]
        except psycopg.OperationalError:
            raise
        except psycopg.Error as e:
            raise QueryFailed(_short(e)) from e
        return cur.rowcount


def run_read_only(
    sql: str,
    params: Params = None,
    *,
    max_rows: int = 200,
    timeout_ms: int | None = None,
    pool: ConnectionPool | None = None,
) -> list[Row]:
    """Agent/console SQL: guarded text, a READ ONLY transaction and a statement timeout."""
    from data_access.guards import guard_sql

    guarded = guard_sql(sql, max_rows=max_rows)
    timeout_ms = timeout_ms or get_settings().sql_statement_timeout_ms
    with connection(pool) as conn:
        try:
            with conn.transaction():
                conn.execute("SET TRANSACTION READ ONLY")
                conn.execute(f"SET LOCAL statement_timeout = {int(timeout_ms)}")
                return list(conn.execute(guarded, params).fetchall())  # type: ignore[arg-type]
        except psycopg.OperationalError as e:
            if isinstance(e, psycopg.errors.QueryCanceled):
                raise QueryFailed(
                    f"query cancelled after {timeout_ms} ms (statement_timeout)"
                ) from e
            raise
        except psycopg.Error as e:
            raise QueryFailed(_short(e)) from e


# ---------------------------------------------------------------- migrations


def _migration_files() -> list[tuple[str, str]]:
    folder = resources.files("data_access") / "migrations"
    files = sorted((p for p in folder.iterdir() if p.name.endswith(".sql")), key=lambda p: p.name)
    return [(p.name.removesuffix(".sql"), p.read_text(encoding="utf-8")) for p in files]


def migrate(pool: ConnectionPool | None = None) -> list[str]:
    """Apply pending `migrations/NNNN_name.sql` files once each, in order; returns applied versions."""
    applied: list[str] = []
    with connection(pool) as conn:
        # One advisory lock so two processes starting together do not race on DDL.
        conn.execute("SELECT pg_advisory_lock(424242)")
        try:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
            )
            conn.commit()
            done = {r["version"] for r in conn.execute("SELECT version FROM schema_migrations")}
            for version, sql in _migration_files():
                if version in done:
                    continue
                logger.info("applying migration %s", version)
                with conn.transaction():
                    conn.execute(sql)  # type: ignore[arg-type]  # our own files, not user input
                    conn.execute("INSERT INTO schema_migrations (version) VALUES (%s)", (version,))
                applied.append(version)
        finally:
            conn.execute("SELECT pg_advisory_unlock(424242)")
            conn.commit()
    return applied
