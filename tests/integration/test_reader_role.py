"""Least privilege for agent and console SQL (issue 16), on the real embedded PostgreSQL.

Both walls are tested separately with the hostile corpus (agents/eval/golden/hostile_sql.json):
the guard (`guard_sql` + the planner's cost estimate, through `run_read_only`) refuses every
entry; and with the guard bypassed, the reader's transaction (`reader_transaction` +
`fetch_reader`) either fails or returns nothing secret. The secrets are planted here for real: a
superuser session whose last query holds a marker, a login role with a password, the server's
data directory, /etc/passwd. The analytic corpus (tests/fixtures/sql_analytic.json) must run
through both walls with the superuser's results.
"""

from __future__ import annotations

import json
import math
import os
import uuid
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg_pool import ConnectionPool

from data_access.catalog import CORE_DATASETS
from data_access.errors import QueryFailed, QueryRejected
from data_access.guards import MAX_PLAN_COST, guard_sql
from data_access.postgres import connection, execute, fetch_all, fetch_one, run_read_only
from data_access.reader import (
    READER_LOGIN,
    READER_ROLE,
    explain_cost,
    fetch_reader,
    forget_targets,
    reader_access,
    reader_transaction,
)
from data_access.sql_policy import READER_TABLES

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = json.loads((ROOT / "agents/eval/golden/hostile_sql.json").read_text(encoding="utf-8"))
ANALYTIC = json.loads((ROOT / "tests/fixtures/sql_analytic.json").read_text(encoding="utf-8"))
ROLE_TIMEOUT_MS = 300  # the second wall's statement timeout in these tests


@pytest.fixture(scope="module")
def data(demo_data: Any, pg_pool: ConnectionPool) -> ConnectionPool:
    execute("ANALYZE stock_prices, etf_holdings", pool=pg_pool)  # fresh planner statistics
    return pg_pool


@pytest.fixture(scope="module")
def secrets(pg_pool: ConnectionPool, services: Any) -> Iterator[list[str]]:
    """Secrets that exist on the server for real while the module runs."""
    marker = f"atlas-session-marker-{uuid.uuid4().hex}"
    password = f"atlas-pw-{uuid.uuid4().hex}"
    role = f"atlas_test_secret_{uuid.uuid4().hex[:8]}"
    with connection(pg_pool) as conn:
        conn.execute(f"CREATE ROLE {role} LOGIN PASSWORD '{password}'")
        data_dir = str(conn.execute("SHOW data_directory").fetchone()["data_directory"])  # type: ignore[index]
    other = psycopg.connect(services.postgres_uri, autocommit=True)
    other.execute(f"SELECT '{marker}' AS m")  # stays in pg_stat_activity.query while idle
    try:
        yield [marker, password, "SCRAM-SHA-256$", data_dir, "root:x:0:0"]
    finally:
        other.close()
        with connection(pg_pool) as conn:
            conn.execute(f"DROP ROLE IF EXISTS {role}")


def _leaks(rows: list[dict[str, Any]], secrets: list[str]) -> list[str]:
    text = json.dumps(rows, default=str, ensure_ascii=False)
    return [s for s in secrets if s in text]


# ------------------------------------------------------------------------- the role itself


def test_reader_role_can_read_exactly_the_data_tables(pg_pool: ConnectionPool) -> None:
    rows = fetch_all(
        "SELECT c.relname, has_table_privilege(%s, c.oid, 'SELECT') AS sel,"
        " has_table_privilege(%s, c.oid, 'INSERT, UPDATE, DELETE, TRUNCATE') AS write"
        " FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')",
        (READER_ROLE, READER_ROLE),
        pool=pg_pool,
    )
    assert {r["relname"] for r in rows if r["sel"]} == READER_TABLES
    assert not [r["relname"] for r in rows if r["write"]]
    assert {d.table_name for d in CORE_DATASETS} <= READER_TABLES  # the catalogue stays readable
    attrs = fetch_one(
        "SELECT rolcanlogin, rolsuper, rolcreaterole, rolbypassrls,"
        " pg_has_role(%s, 'pg_read_all_settings', 'USAGE') AS settings,"
        " pg_has_role(%s, 'pg_read_all_stats', 'USAGE') AS stats,"
        " pg_has_role(%s, 'pg_monitor', 'USAGE') AS monitor FROM pg_roles WHERE rolname = %s",
        (READER_ROLE, READER_ROLE, READER_ROLE, READER_ROLE),
        pool=pg_pool,
    )
    assert attrs is not None and not any(attrs.values()), attrs


def test_agent_sql_runs_as_the_reader_login(pg_pool: ConnectionPool) -> None:
    access = reader_access(pg_pool)
    if os.environ.get("DATABASE_URL"):
        pytest.skip("an external server decides its own reader mode")
    assert (access.mode, access.user, access.problems) == ("login_role", READER_LOGIN, ())
    rows = run_read_only("SELECT current_user AS u, session_user AS s", pool=pg_pool)
    assert rows == [{"u": READER_LOGIN, "s": READER_LOGIN}]
    seen = run_read_only(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
        max_rows=1000,
        pool=pg_pool,
    )
    # The schema browser shows no more (contracts: the three columns the clause policy reads).
    assert {r["table_name"] for r in seen} == READER_TABLES | {"contracts"}


def test_set_role_mode_is_reported_as_weaker(
    pg_pool: ConnectionPool, services: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An external DATABASE_URL without a reader URL: SET LOCAL ROLE, and the sidebar's warning."""
    from data_access.config import get_settings

    monkeypatch.setenv("DATABASE_URL", services.postgres_uri)
    get_settings.cache_clear()
    forget_targets()
    try:
        access = reader_access(pg_pool)
        assert access.mode == "set_role" and access.user == READER_ROLE
        assert access.problems and "DATABASE_READER_URL" in access.problems[0]
        with (
            pytest.raises(QueryFailed, match="permission denied"),
            reader_transaction(pg_pool) as c,
        ):
            fetch_reader(c, "SELECT count(*) FROM agent_runs")
    finally:
        monkeypatch.delenv("DATABASE_URL")
        get_settings.cache_clear()
        forget_targets()


def test_a_session_setting_left_by_a_query_is_reset(pg_pool: ConnectionPool) -> None:
    for _ in range(3):  # the pool hands out its connections in turn
        with reader_transaction(pg_pool) as conn:
            fetch_reader(conn, "SELECT set_config('search_path', 'pg_temp', false)")
    for _ in range(3):
        with reader_transaction(pg_pool) as conn:
            assert fetch_reader(conn, "SELECT current_setting('search_path') AS p")[0]["p"] != (
                "pg_temp"
            )


# ----------------------------------------------------------------- hostile corpus, two walls


@pytest.mark.parametrize("entry", HOSTILE, ids=range(len(HOSTILE)))
def test_guard_wall_refuses(entry: dict[str, str], data: ConnectionPool) -> None:
    with pytest.raises(QueryRejected) as info:
        run_read_only(entry["query"], timeout_ms=ROLE_TIMEOUT_MS, pool=data)
    assert entry["reason"].lower() in info.value.reason.lower()


@pytest.mark.parametrize("entry", HOSTILE, ids=range(len(HOSTILE)))
def test_role_wall_holds_without_the_guard(
    entry: dict[str, str], data: ConnectionPool, secrets: list[str]
) -> None:
    try:
        with reader_transaction(data, timeout_ms=ROLE_TIMEOUT_MS) as conn:
            rows = fetch_reader(conn, entry["query"])
    except QueryFailed:
        return  # refused or cancelled by the server
    assert entry.get("role") == "no_secret", f"ran as the reader and returned {rows[:3]}"
    assert not _leaks(rows, secrets), rows[:5]
    assert fetch_one("SELECT count(*) AS n FROM etfs", pool=data) == {"n": 105}  # nothing lost


def test_the_superuser_would_have_leaked(data: ConnectionPool, secrets: list[str]) -> None:
    """The planted secrets are real: without the reader role these queries show them."""
    leaked: set[str] = set()
    for query in (
        "SELECT query FROM pg_stat_activity",
        "SELECT rolpassword FROM pg_authid",
        "SELECT current_setting('data_directory') AS d",
        "SELECT pg_read_file('/etc/passwd') AS f",
    ):
        leaked |= set(_leaks(fetch_all(query, pool=data), secrets))
    assert leaked == set(secrets) - {secrets[1]}  # the password itself is stored hashed


# --------------------------------------------------------------------- analytic corpus


def _plain(value: Any) -> Any:
    if isinstance(value, float | Decimal):
        number = float(value)
        return round(number, 6) if math.isfinite(number) else str(number)
    return value if isinstance(value, int | str | bool | type(None)) else str(value)


def _normalized(rows: list[dict[str, Any]]) -> list[str]:
    return sorted(json.dumps({k: _plain(v) for k, v in r.items()}, default=str) for r in rows)


@pytest.mark.parametrize("entry", ANALYTIC, ids=[e["note"] for e in ANALYTIC])
def test_analytic_query_matches_the_superuser(entry: dict[str, str], data: ConnectionPool) -> None:
    mine = run_read_only(entry["query"], max_rows=1000, pool=data)
    if entry["note"].startswith("schema browser"):
        return  # the reader sees only its own tables (test_agent_sql_runs_as_the_reader_login)
    theirs = fetch_all(guard_sql(entry["query"], max_rows=1000), pool=data)
    assert _normalized(mine) == _normalized(theirs)


def test_analytic_corpus_is_not_vacuous(data: ConnectionPool) -> None:
    empty = [e["note"] for e in ANALYTIC if not run_read_only(e["query"], pool=data)]
    assert len(ANALYTIC) >= 40 and len(empty) <= 3, empty
    with reader_transaction(data) as conn:
        costs = [explain_cost(conn, guard_sql(e["query"])).total_cost for e in ANALYTIC]
    assert max(costs) < MAX_PLAN_COST / 10  # the cost gate leaves a wide margin


def test_reader_sees_only_shared_contract_clauses(pg_pool: ConnectionPool) -> None:
    """Uploads are private (migration 0008): the reader reads clauses of shared contracts only."""
    ids = {"shared": f"test-shared-{uuid.uuid4().hex[:8]}", "u1": f"test-u1-{uuid.uuid4().hex[:8]}"}
    with connection(pg_pool) as conn:
        for owner, cid in ids.items():
            conn.execute(
                "INSERT INTO contracts (contract_id, title, source_name, source_format,"
                " content_hash, original_text, article_count, user_id)"
                " VALUES (%s, 't', 's.txt', 'txt', 'h', 'x', 1, %s)",
                (cid, owner),
            )
            conn.execute(
                "INSERT INTO contract_articles (contract_id, article_no, title, content, clauses,"
                " body, tokens) VALUES (%s, 1, '목적', '[]', '[]', 'b', 'b')",
                (cid,),
            )
    try:
        rows = run_read_only(
            "SELECT contract_id FROM contract_articles WHERE contract_id LIKE 'test-%'",
            pool=pg_pool,
        )
        assert [r["contract_id"] for r in rows] == [ids["shared"]]
        mine = fetch_all(
            "SELECT contract_id FROM contract_articles WHERE contract_id LIKE 'test-%'",
            pool=pg_pool,
        )
        assert len(mine) == 2  # the workbench's own user (the owner) still reads every row
    finally:
        with connection(pg_pool) as conn:
            conn.execute("DELETE FROM contracts WHERE contract_id = ANY(%s)", (list(ids.values()),))


def test_the_reader_cannot_signal_backends(data: ConnectionPool) -> None:
    """Any role may signal its own role's backends: as the reader, 'SELECT pg_terminate_backend
    (pid) FROM pg_stat_activity' ended its own session (and would end other readers'; a full run
    failed on it). Migration 0018 takes both functions from PUBLIC; the server refuses them."""
    rights = fetch_one(
        "SELECT has_function_privilege('atlas_reader', 'pg_catalog.pg_terminate_backend(integer, "
        "bigint)', 'EXECUTE') AS terminate, has_function_privilege('atlas_reader', "
        "'pg_catalog.pg_cancel_backend(integer)', 'EXECUTE') AS cancel", pool=data)  # fmt: skip
    assert rights == {"terminate": False, "cancel": False}
    with (
        pytest.raises(QueryFailed, match="permission denied"),
        reader_transaction(data, timeout_ms=ROLE_TIMEOUT_MS) as conn,
    ):
        fetch_reader(conn, "SELECT pg_cancel_backend(pg_backend_pid())")
