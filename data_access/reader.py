"""Least privilege for agent and console SQL: who it runs as, and the transaction it runs in.

    with reader_transaction(pool, timeout_ms=5000) as conn:      # READ ONLY, as atlas_reader
        rows = fetch_reader(conn, "SELECT code FROM etfs LIMIT 5")
    reader_access(pool)  # ReaderAccess(mode='login_role', user='atlas_agent', problems=())

`run_read_only` (data_access.postgres) is the guard (`guard_sql`, `check_plan_cost`) in front of
this; this module is the second wall, which holds with the guard bypassed:

- the role: migration 0007 creates `atlas_reader` (NOLOGIN, SELECT on the data tables only).
  The SQL runs as a login whose own privileges are the reader's, so neither `RESET ROLE` nor
  `set_config('role', 'none', …)` inside a query gains anything:
  `DATABASE_READER_URL` when set, else on the embedded server the `atlas_agent` login (a member
  of atlas_reader, created here; the embedded server only listens on a socket and loopback).
  With an external `DATABASE_URL` and no reader URL the transaction does `SET LOCAL ROLE
  atlas_reader`, which a query could undo: `reader_access` reports that as a problem.
- the transaction: READ ONLY, `statement_timeout` and `lock_timeout`, and the statement is sent
  over the extended query protocol, so the server itself refuses a second statement.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Literal

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg_pool import ConnectionPool

from data_access.config import Settings, get_settings
from data_access.errors import QueryFailed, StoreUnavailable
from data_access.guards import PlanEstimate
from data_access.postgres import Params, Row, connection, get_pool, pool_for, short_error
from data_access.sql_policy import READER_TABLES

logger = logging.getLogger(__name__)

READER_ROLE = "atlas_reader"
READER_LOGIN = "atlas_agent"
LOCK_TIMEOUT_MS = 1000
# Roles whose membership would let the reader see settings, other sessions or server files.
_PRIVILEGED_ROLES = (
    "pg_read_all_settings",
    "pg_read_all_stats",
    "pg_monitor",
    "pg_read_all_data",
    "pg_write_all_data",
    "pg_read_server_files",
    "pg_write_server_files",
    "pg_execute_server_program",
    "pg_signal_backend",
)

Mode = Literal["reader_url", "login_role", "set_role", "unrestricted"]


@dataclass(frozen=True)
class ReaderAccess:
    """How agent SQL runs on one server, and what it could do beyond reading the data tables."""

    mode: Mode
    user: str  # the role the SQL runs as ('atlas_agent', 'atlas_reader', the URL's user …)
    problems: tuple[str, ...] = ()  # Korean sentences, one per excess privilege

    @property
    def restricted(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class _Target:
    mode: Mode
    pool: ConnectionPool
    set_role: bool


_targets: dict[str, _Target] = {}
_targets_lock = threading.Lock()


def _target(admin: ConnectionPool | None, settings: Settings) -> _Target:
    admin = admin or get_pool(settings=settings)
    uri = _uri(admin)
    with _targets_lock:
        found = _targets.get(uri)
        if found is None or found.pool.closed:
            found = _resolve(admin, settings)
            _targets[uri] = found
            logger.info("agent SQL on %s runs in mode %s", _where(uri), found.mode)
        return found


def _uri(pool: ConnectionPool) -> str:
    info = pool.conninfo
    return info if isinstance(info, str) else info()


def _resolve(admin: ConnectionPool, settings: Settings) -> _Target:
    small = (1, max(2, settings.pg_pool_max // 2))
    if settings.database_reader_url is not None and settings.database_url:
        url = settings.database_reader_url.get_secret_value()
        return _Target("reader_url", pool_for(url, *small, reset=_reset), set_role=False)
    if settings.database_url is None and _ensure_login(admin):
        login = make_conninfo(_uri(admin), user=READER_LOGIN)
        return _Target("login_role", pool_for(login, *small, reset=_reset), set_role=False)
    with connection(admin) as conn:
        row = conn.execute(
            "SELECT pg_has_role(current_user, oid, 'MEMBER') AS ok FROM pg_roles WHERE rolname = %s",
            (READER_ROLE,),
        ).fetchone()
    if row and row["ok"]:
        return _Target("set_role", admin, set_role=True)
    return _Target("unrestricted", admin, set_role=False)


def _ensure_login(admin: ConnectionPool) -> bool:
    """Create the embedded server's reader login once (a member of atlas_reader, no password:
    the embedded server trusts its socket and loopback, and listens nowhere else)."""
    try:
        with connection(admin) as conn:
            conn.execute("SELECT pg_advisory_xact_lock(424243)")
            roles = {r["rolname"] for r in conn.execute(
                "SELECT rolname FROM pg_roles WHERE rolname IN (%s, %s)", (READER_ROLE, READER_LOGIN)
            )}  # fmt: skip
            if READER_ROLE not in roles:
                return False  # migration 0007 could not create it
            if READER_LOGIN not in roles:
                conn.execute(
                    sql.SQL("CREATE ROLE {} LOGIN NOINHERIT CONNECTION LIMIT 32").format(
                        sql.Identifier(READER_LOGIN)
                    )
                )
                # INHERIT on the membership: the login has the reader's privileges and no others.
                conn.execute(
                    sql.SQL("GRANT {} TO {} WITH INHERIT TRUE").format(
                        sql.Identifier(READER_ROLE), sql.Identifier(READER_LOGIN)
                    )
                )
    except (psycopg.Error, StoreUnavailable) as e:
        logger.warning("could not create the reader login %s: %s", READER_LOGIN, e)
        return False
    return True


def _reset(conn: psycopg.Connection[Any]) -> None:
    """A reader connection goes back to the pool with nothing a query left behind: session
    settings, advisory locks, LISTEN channels, temporary objects."""
    conn.autocommit = True
    try:
        conn.execute("DISCARD ALL")
    finally:
        conn.autocommit = False


def _where(conninfo: str) -> str:
    parts = conninfo_to_dict(conninfo)
    return f"{parts.get('user', '?')}@{parts.get('host', '')}/{parts.get('dbname', '')}"


@contextmanager
def reader_transaction(
    pool: ConnectionPool | None = None, *, timeout_ms: int | None = None
) -> Iterator[psycopg.Connection[Row]]:
    """A READ ONLY transaction as the reader, with statement and lock timeouts; rolled back at
    the end (nothing in it may write, and a rollback also ends any `SET LOCAL` a query did)."""
    settings = get_settings()
    target = _target(pool, settings)
    timeout_ms = int(timeout_ms or settings.sql_statement_timeout_ms)
    with connection(target.pool) as conn, conn.transaction(force_rollback=True):
        # Our own statements, in one round trip (the simple protocol runs them in order).
        setup = [
            sql.SQL("SET TRANSACTION READ ONLY"),
            sql.SQL("SET LOCAL statement_timeout = {}").format(sql.Literal(timeout_ms)),
            sql.SQL("SET LOCAL lock_timeout = {}").format(
                sql.Literal(min(LOCK_TIMEOUT_MS, timeout_ms))
            ),
        ]
        if target.set_role:
            setup.append(sql.SQL("SET LOCAL ROLE {}").format(sql.Identifier(READER_ROLE)))
        conn.execute(sql.SQL("; ").join(setup))
        yield conn


def explain_cost(conn: psycopg.Connection[Row], query: str, params: Params = None) -> PlanEstimate:
    """The planner's estimate for ``query`` (planned, not run), as the reader."""
    rows = fetch_reader(conn, f"EXPLAIN (FORMAT JSON) {query}", params)
    document = next(iter(rows[0].values()))
    if isinstance(document, str):
        document = json.loads(document)
    plan = document[0]["Plan"]
    return PlanEstimate(total_cost=float(plan["Total Cost"]), rows=float(plan["Plan Rows"]))


def fetch_reader(conn: psycopg.Connection[Row], query: str, params: Params = None) -> list[Row]:
    """Run one statement over the extended protocol (a second statement is a server error)."""
    try:
        with conn.pipeline():  # pipeline mode always uses the extended protocol
            cursor = conn.execute(query, params)  # type: ignore[arg-type]
        return list(cursor.fetchall())
    except psycopg.errors.QueryCanceled as e:
        raise QueryFailed(f"query cancelled ({short_error(e)}; statement_timeout)") from e
    except psycopg.errors.LockNotAvailable as e:
        raise QueryFailed(f"query gave up waiting for a lock ({short_error(e)})") from e
    except psycopg.Error as e:
        if conn.broken or conn.closed:
            raise  # the server went away: `connection` reports the store as unavailable
        raise QueryFailed(short_error(e)) from e  # e.g. "requested length too large"


_AUDIT = """
SELECT r.rolsuper AS superuser, r.rolbypassrls AS bypass_rls, r.rolcreaterole AS create_role,
       r.rolcreatedb AS create_db,
       ARRAY(SELECT g.rolname::text FROM pg_roles g
             WHERE g.rolname = ANY(%(privileged)s) AND pg_has_role(current_user, g.oid, 'USAGE')
             ORDER BY 1) AS member_of,
       ARRAY(SELECT c.relname::text FROM pg_class c
             WHERE c.relnamespace = to_regnamespace(current_schema()) AND c.relkind IN ('r', 'p', 'v', 'm')
               AND (has_table_privilege(c.oid, 'INSERT, UPDATE, DELETE, TRUNCATE')
                    OR (has_table_privilege(c.oid, 'SELECT') AND NOT c.relname = ANY(%(tables)s)))
             ORDER BY 1) AS extra_tables,
       has_schema_privilege(current_schema(), 'CREATE') AS create_in_schema
FROM pg_roles r WHERE r.rolname = current_user
"""


def reader_access(pool: ConnectionPool | None = None) -> ReaderAccess:
    """Audit what agent SQL on this server could do beyond reading the data tables."""
    settings = get_settings()
    target = _target(pool, settings)
    with reader_transaction(pool) as conn:
        row = conn.execute(
            _AUDIT,
            {"privileged": list(_PRIVILEGED_ROLES), "tables": sorted(READER_TABLES)},
        ).fetchone()
        user = str(conn.execute("SELECT current_user AS u").fetchone()["u"])  # type: ignore[index]
    problems = _problems(row or {}, target.mode)
    return ReaderAccess(mode=target.mode, user=user, problems=tuple(problems))


def _problems(row: Row, mode: Mode) -> list[str]:
    problems: list[str] = []
    if mode == "unrestricted":
        problems.append(
            f"읽기 전용 역할({READER_ROLE})이 없어 에이전트 SQL이 연결 사용자 권한으로 실행됩니다"
        )
    elif mode == "set_role":
        problems.append(
            "에이전트 SQL이 SET ROLE로만 제한되어 쿼리가 연결 사용자 권한으로 되돌릴 수 있습니다 "
            "(DATABASE_READER_URL에 읽기 전용 로그인을 지정하세요)"
        )
    flags = {
        "superuser": "슈퍼유저",
        "bypass_rls": "행 보안 우회(BYPASSRLS)",
        "create_role": "역할 생성(CREATEROLE)",
        "create_db": "DB 생성(CREATEDB)",
        "create_in_schema": "스키마에 객체 생성",
    }
    excess = [label for key, label in flags.items() if row.get(key)]
    excess += [f"{name} 멤버" for name in row.get("member_of") or ()]
    extra = list(row.get("extra_tables") or ())
    if extra:
        excess.append(f"데이터 테이블 밖의 테이블 또는 쓰기 권한: {', '.join(extra[:8])}")
    if excess:
        problems.append("에이전트 SQL 역할의 권한이 너무 넓습니다: " + "; ".join(excess))
    return problems


def forget_targets() -> None:
    """Resolve reader access again on next use (tests that change roles or settings)."""
    with _targets_lock:
        _targets.clear()
