"""PostgreSQL access: one psycopg pool per process, versioned migrations, read-only agent SQL.

Callers get plain dicts back, never cursors or driver rows.
"""

from __future__ import annotations

import logging
import select
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from importlib import resources
from typing import Any

import psycopg
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool, PoolClosed, PoolTimeout

from data_access.config import Settings, get_settings
from data_access.errors import QueryFailed, StoreUnavailable

logger = logging.getLogger(__name__)

Row = dict[str, Any]
Params = Sequence[Any] | dict[str, Any] | None

_pools: dict[str, ConnectionPool] = {}
# Pools taken out of service after their server went away; a caller still holding one is sent
# to the current pool for the same server (see `connection`).
_retired: weakref.WeakKeyDictionary[ConnectionPool, str] = weakref.WeakKeyDictionary()
_resets: dict[str, Callable[[Any], None]] = {}
# When each pool last found a dead connection, and how many of its connections are out with
# callers (see `_stuck`).
_check_failures: weakref.WeakKeyDictionary[ConnectionPool, list[float]] = (
    weakref.WeakKeyDictionary()
)
_in_use: weakref.WeakKeyDictionary[ConnectionPool, int] = weakref.WeakKeyDictionary()
# When each pooled connection was last given back clean (see `_quiet`).
_returned: weakref.WeakKeyDictionary[psycopg.Connection[Any], float] = weakref.WeakKeyDictionary()
_pools_lock = threading.Lock()
_count_lock = threading.Lock()

PROBE_TIMEOUT_S = 2  # libpq's smallest connect_timeout
POOL_TIMEOUT_S = 10  # how long a request queues for a connection when all of them are busy
FAST_WAIT_S = 0.25  # how long before asking whether the server is there at all
OPEN_TIMEOUT_S = 1.5  # a new pool's first connections, right after a successful probe
STUCK_S = 30.0  # a pool that found a dead connection this recently is replaced, not waited on
# A connection given back this recently, with nothing to read on it, is handed out unchecked.
QUIET_S = 5.0


def get_pool(uri: str | None = None, settings: Settings | None = None) -> ConnectionPool:
    """The process-wide pool for a URI (default: the running services' PostgreSQL)."""
    settings = settings or get_settings()
    if uri is None:
        from data_access.services import ensure_running

        uri = ensure_running(settings).postgres_uri
    return pool_for(uri, settings.pg_pool_min, settings.pg_pool_max)


def pool_for(
    uri: str, min_size: int, max_size: int, reset: Callable[[Any], None] | None = None
) -> ConnectionPool:
    """The process-wide pool for ``uri``, opened on first use; ``reset`` runs on every
    connection given back to it."""
    with _pools_lock:
        if reset is not None:
            _resets[uri] = reset  # kept for the pool that replaces this one after an outage
        pool = _pools.get(uri)
        if pool is None or pool.closed:
            pool = _open_pool(uri, min_size, max_size, _resets.get(uri))
            _pools[uri] = pool
        return pool


def _open_pool(
    uri: str, min_size: int, max_size: int, reset: Callable[[Any], None] | None = None
) -> ConnectionPool:
    # One direct connection first: with the server down it fails at once, where the pool would
    # retry in the background for its whole open timeout.
    try:
        psycopg.connect(uri, connect_timeout=PROBE_TIMEOUT_S).close()
    except psycopg.OperationalError as e:
        raise unreachable(short_error(e)) from e
    try:
        # The server answered the probe a moment ago, so its first connections open in
        # milliseconds; a longer wait means it went away again, and the caller should hear so
        # now rather than after the pool's reconnect backoff brings it back.
        return _new_pool(uri, min_size, max_size, reset, OPEN_TIMEOUT_S)
    except PoolTimeout as e:
        # A busy first view (a 2-core machine loading the screens) can starve the pool's worker
        # past that wait although the server is up: no outage while it still answers a direct
        # connection, so a new pool gets the longer wait callers get.
        if _reachable(uri) is not None:
            raise unreachable(short_error(e)) from e
        try:
            return _new_pool(uri, min_size, max_size, reset, POOL_TIMEOUT_S)
        except psycopg.OperationalError as again:
            raise unreachable(short_error(again)) from again
    except psycopg.OperationalError as e:
        raise unreachable(short_error(e)) from e


def _new_pool(uri: str, min_size: int, max_size: int, reset: Callable[[Any], None] | None,
              wait_s: float) -> ConnectionPool:  # fmt: skip
    """A pool with its first connections open within `wait_s` (else closed, PoolTimeout)."""
    failures = [float("-inf")]
    pool = ConnectionPool(
        uri,
        min_size=min_size,
        max_size=max_size,
        kwargs={"row_factory": dict_row, "connect_timeout": PROBE_TIMEOUT_S},
        open=False,
        name="atlas",
        timeout=POOL_TIMEOUT_S,
        # Test each connection as it is handed out: after a server restart the pooled ones are
        # dead, and without the check the first query on each fails.
        check=_check_recording(failures),
        reset=reset,
    )
    _check_failures[pool] = failures
    try:
        pool.open(wait=True, timeout=wait_s)
    except psycopg.OperationalError:  # PoolTimeout is one too
        pool.close()  # else its workers keep reconnecting in the background
        raise
    return pool


def _retire(pool: ConnectionPool) -> None:
    """Take a pool whose server went away out of service; the next caller gets a fresh one.

    A pool keeps reconnecting on its own, but with a backoff that grows with the outage, so
    long after the server is back it may still make callers wait. A new pool (opened after a
    direct connection succeeds) is ready at once, and fails at once while the server is down.
    """
    with _pools_lock:
        uri = next((u for u, p in _pools.items() if p is pool), None)
        if uri is None:
            return  # not one of ours (or already retired): its owner decides
        del _pools[uri]
        _retired[pool] = uri
    logger.warning("PostgreSQL pool for %s retired after a connection failure", uri)
    # Closing joins the pool's workers; the caller is waiting for an error message, not that.
    threading.Thread(target=pool.close, name="retire-pg-pool", daemon=True).start()


def _usable(pool: ConnectionPool | None) -> ConnectionPool:
    if pool is None:
        return get_pool()
    uri = _retired.get(pool)
    if uri is not None:
        return pool_for(uri, pool.min_size, pool.max_size)
    return pool


def close_pool(uri: str) -> None:
    """Close and forget the pool for one server (other pools stay open)."""
    with _pools_lock:
        pool = _pools.pop(uri, None)
    if pool is not None:
        pool.close()


def close_server_pools(uri: str) -> None:
    """Close and forget every pool to the server `uri` names (its owner and reader pools), and
    only those: another database's pools in this process stay open."""
    from psycopg.conninfo import conninfo_to_dict

    def server(conninfo: str) -> tuple[object, object]:
        parts = conninfo_to_dict(conninfo)
        return parts.get("host"), parts.get("port")

    target = server(uri)
    with _pools_lock:
        doomed = [key for key in _pools if server(key) == target]
        pools = [_pools.pop(key) for key in doomed]
    for pool in pools:
        pool.close()


def short_error(e: BaseException) -> str:
    return str(e).strip().splitlines()[0][:300] if str(e).strip() else type(e).__name__


# Said as a reason: screens put it after their own "PostgreSQL에 연결할 수 없어 …" (pages/_ui.py).
DOWN = "PostgreSQL 서버가 연결을 받지 않습니다 (꺼졌거나 다시 시작하는 중일 수 있습니다)"
DOWN_BUSY = "PostgreSQL 연결을 제때 얻지 못했습니다 (모든 연결이 사용 중)"
DOWN_LOST = "PostgreSQL 연결이 끊겼습니다"


def unreachable(detail: str, message: str = DOWN) -> StoreUnavailable:
    """The Korean error screens and API clients see; the driver's own words (English, with
    socket paths) go to the log only."""
    logger.warning("%s: %s", message, detail)
    return StoreUnavailable(message, store="postgres")


def _reachable(uri: str) -> str | None:
    """None when a new connection to `uri` opens now, else the driver's reason (short)."""
    try:
        psycopg.connect(uri, connect_timeout=PROBE_TIMEOUT_S).close()
    except psycopg.Error as e:
        return short_error(e)
    return None


def _stuck(pool: ConnectionPool) -> bool:
    """No connection of the pool is out with a caller (so none will come back to it), or it
    found dead ones lately (a server restart): its own reconnect backoff would make callers
    wait. A pool whose connections are all busy is not stuck: its callers queue."""
    failed_at = _check_failures.get(pool, [float("-inf")])[0]
    with _count_lock:
        in_use = _in_use.get(pool, 0)
    return in_use == 0 or time.monotonic() - failed_at < STUCK_S


def _count(pool: ConnectionPool, delta: int) -> None:
    with _count_lock:  # not _pools_lock: that one is held while a new pool opens
        _in_use[pool] = _in_use.get(pool, 0) + delta


def _quiet(conn: psycopg.Connection[Any]) -> bool:
    """Given back clean within QUIET_S and nothing has arrived on its socket since: handed out
    without the check's round trip (one per query, and each a wait for a core on a busy machine,
    issue 34). A server that went away (stopped, restarted, the backend terminated) has closed
    the socket or sent its FATAL notice, either of which makes the socket readable; such a
    connection, or one idle longer (a peer gone without a word), gets the full check."""
    returned = _returned.get(conn)
    if returned is None or time.monotonic() - returned > QUIET_S:
        return False
    if (
        conn.closed
        or conn.broken
        or conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE
    ):
        return False
    try:
        poller = select.poll()
        poller.register(conn.fileno(), select.POLLIN)
        return not poller.poll(0)  # POLLIN, POLLHUP or POLLERR: something to look at
    except (OSError, ValueError, psycopg.Error):
        return False


def _check_recording(failures: list[float]) -> Callable[[Any], None]:
    """`ConnectionPool.check_connection` that also notes when a pooled connection was dead;
    a quiet connection (`_quiet`) is not checked."""

    def check(conn: Any) -> None:
        if _quiet(conn):
            return
        try:
            ConnectionPool.check_connection(conn)
        except Exception:
            failures[0] = time.monotonic()
            raise

    return check


def _checkout(pool: ConnectionPool) -> tuple[ConnectionPool, psycopg.Connection[Any]]:
    """A checked connection within `FAST_WAIT_S`, or a quick verdict on why there is none.

    After a server restart every pooled connection is dead; the pool would test them one by
    one with a growing backoff (1 s, 2 s, 4 s …) and its reconnect attempts back off the same
    way, so the first request after a restart could wait the whole pool timeout. Instead: wait a
    moment; then a direct connection says whether the server is there. Not there → fail now;
    there but the pool is stuck on dead connections → a fresh pool; there and every connection
    busy → wait in the queue as usual.
    """
    try:
        return pool, pool.getconn(timeout=FAST_WAIT_S)
    except PoolClosed:  # retired by another thread a moment ago: use its successor
        pool = _usable(pool)
        try:
            return pool, pool.getconn(timeout=FAST_WAIT_S)
        except (PoolTimeout, PoolClosed):
            pass
    except PoolTimeout:
        pass
    uri = pool.conninfo if isinstance(pool.conninfo, str) else pool.conninfo()
    reason = _reachable(uri)
    if reason is not None:
        _retire(pool)
        raise unreachable(reason)
    if not _stuck(pool):  # busy: queue for a connection as usual
        return pool, pool.getconn()
    _retire(pool)
    fresh = pool_for(uri, pool.min_size, pool.max_size)
    return fresh, fresh.getconn()


@contextmanager
def connection(pool: ConnectionPool | None = None) -> Iterator[psycopg.Connection[Row]]:
    """A pooled connection; the transaction commits on success and rolls back on error.

    A pool retired after an outage is replaced by the current one for the same server, so
    callers that keep a pool object (agents, long-lived tools) recover with everyone else.
    """
    pool = _usable(pool)
    used: psycopg.Connection[Any] | None = None
    try:
        pool, used = _checkout(pool)
        _count(pool, 1)
        try:
            with used:  # commit on success, roll back on error (what pool.connection() does)
                yield used  # type: ignore[misc]  # the pool is built with row_factory=dict_row
        finally:
            _count(pool, -1)
            if not used.broken and not used.closed:
                _returned[used] = time.monotonic()
            pool.putconn(used)
    except PoolTimeout as e:  # every connection stayed busy for the whole pool timeout
        raise unreachable(short_error(e), DOWN_BUSY) from e
    except PoolClosed as e:  # retired by another thread's failure while this one waited
        raise StoreUnavailable(
            "PostgreSQL 연결이 끊겨 연결 풀을 새로 만들었습니다", store="postgres"
        ) from e
    except psycopg.OperationalError as e:
        if used is None or used.broken or used.closed:  # the server went away, not the query
            _retire(pool)
        raise unreachable(short_error(e), DOWN_LOST) from e


def fetch_all(sql: str, params: Params = None, pool: ConnectionPool | None = None) -> list[Row]:
    with connection(pool) as conn:
        try:
            return list(conn.execute(sql, params).fetchall())  # type: ignore[arg-type]
        except psycopg.OperationalError:
            raise
        except psycopg.Error as e:
            raise QueryFailed(short_error(e)) from e


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
            raise QueryFailed(short_error(e)) from e
        return cur.rowcount


def run_read_only(
    sql: str,
    params: Params = None,
    *,
    max_rows: int = 200,
    timeout_ms: int | None = None,
    pool: ConnectionPool | None = None,
) -> list[Row]:
    """Agent/console SQL through both walls (DESIGN.md, "Shared contracts").

    The guard: `guard_sql` (allow-listed relations and functions, one SELECT, a forced LIMIT),
    then the planner's cost estimate (`data_access.guards.check_plan_cost`). The second wall,
    which holds with the guard bypassed: the reader role in a READ ONLY transaction with
    statement and lock timeouts, one statement over the extended protocol
    (`data_access.reader`).
    """
    from data_access.guards import check_plan_cost, guard_sql
    from data_access.reader import explain_cost, fetch_reader, reader_transaction

    guarded = guard_sql(sql, max_rows=max_rows)
    with reader_transaction(pool, timeout_ms=timeout_ms) as conn:
        check_plan_cost(explain_cost(conn, guarded, params), sql)
        return fetch_reader(conn, guarded, params)


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
