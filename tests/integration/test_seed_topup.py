"""`seed --if-missing` on a database seeded before what a newer seed generates.

- The market series (issue 25): generated from the loaded run's own seed, scale and as-of date
  and added once; a second call adds nothing. A private database on the real test server.
- The demo OpenDART filings (issue 35): what the top-up adds reaches the graph in the same call
  (it used to stop at PostgreSQL: 533 documents, 343 in the graph). On the test home's own
  stores: the filings are taken out of both, as on a database seeded before them, and put back.
- A top-up whose graph step fails: the real FalkorDB refuses writes for the length of the test
  (`min-replicas-to-write 1`: every write answers NOREPLICAS, reads go on). The rows stay in
  PostgreSQL, the graph is marked behind in the backlog by the failed steps only (not the whole
  graph) with the error, the message names the failure, the steps and the command that catches
  up, and the backlog row's scope is what brings the graph back: projecting it runs those steps.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from typing import Any

import psycopg
import pytest
import redis
from psycopg.conninfo import make_conninfo
from psycopg_pool import ConnectionPool

from data_access.config import Settings
from data_access.graph.base import GraphStore
from data_access.postgres import connection, fetch_all, fetch_one, get_pool, migrate
from data_access.projection.runner import ALL_STEPS, project_all
from data_access.projection.scope import ProjectionScope
from data_access.seed import seed_if_missing
from data_access.seed.build import build_market_series
from data_access.seed.documents import DOC_URL
from data_access.seed.market_series import END_LEVELS
from data_access.seed.runner import TOPUP_STEPS, TopUpReport, seed_or_top_up
from data_access.seed.topup import add_missing_series
from data_access.services import ServiceInfo

DATABASE = "atlas_seed_topup_test"
SEED, AS_OF = 20261120, date(2026, 11, 20)


@pytest.fixture(scope="module")
def private_pool(services: ServiceInfo, settings: Settings) -> ConnectionPool:
    with psycopg.connect(services.postgres_uri, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{DATABASE}"')
    pool = get_pool(make_conninfo(services.postgres_uri, dbname=DATABASE), settings)
    migrate(pool)
    return pool


def test_series_are_added_once_from_the_loaded_run(private_pool: Any) -> None:
    with private_pool.connection() as conn:
        assert add_missing_series(conn) == 0  # no seed run: nothing to match
        conn.execute(
            "INSERT INTO seed_runs (scale, seed, as_of_date, checksums, row_counts, duration_ms)"
            " VALUES ('demo', %s, %s, '{}', '{}', 0)", (SEED, AS_OF),
        )  # fmt: skip
        conn.execute("INSERT INTO entity_aliases VALUES ('stock', '애플', 'US:AAPL')")
        conn.commit()
        expected = build_market_series("demo", SEED, AS_OF)["market_series_prices"]
        assert add_missing_series(conn) == len(expected)
        assert add_missing_series(conn) == 0  # already there
    counts = fetch_all("SELECT series_code, count(*) AS n FROM market_series_prices GROUP BY 1",
                       pool=private_pool)  # fmt: skip
    assert {r["series_code"]: r["n"] for r in counts} == expected.groupby(
        "series_code"
    ).size().to_dict()
    kospi = fetch_one("SELECT close FROM market_series_prices WHERE series_code = '^KS11'"
                      " AND trade_date = %s", (AS_OF,), pool=private_pool)  # fmt: skip
    assert kospi is not None and float(kospi["close"]) == END_LEVELS["^KS11"]
    aliases = fetch_all("SELECT kind, alias FROM entity_aliases", pool=private_pool)
    assert ("stock", "애플") in {(r["kind"], r["alias"]) for r in aliases}  # others kept
    assert {"코스피지수", "유가", "비트코인 가격"} <= {
        r["alias"] for r in aliases if r["kind"] == "market"
    }


# The demo filings' rows and the nodes the projection made of them (ids 'doc-dart-…' etc.).
DART_SQL = {
    "documents": "SELECT doc_id AS id FROM documents WHERE doc_id LIKE 'doc-dart-%%'",
    "events": "SELECT event_id AS id FROM events WHERE event_id LIKE 'evt-dart-%%'",
    "evidence": "SELECT evidence_id AS id FROM evidence WHERE evidence_id LIKE 'evd-dart-%%'",
}
DART_GRAPH = {
    "documents": "MATCH (n:Document) WHERE n.doc_id STARTS WITH 'doc-dart-' RETURN n.doc_id AS id",
    "events": "MATCH (n:Event) WHERE n.event_id STARTS WITH 'evt-dart-' RETURN n.event_id AS id",
    "evidence": "MATCH (n:Evidence) WHERE n.evidence_id STARTS WITH 'evd-dart-'"
    " RETURN n.evidence_id AS id",
}
DROP_NODES = (
    "MATCH (n) WHERE (n:Document OR n:Fact OR n:Claim) AND n.doc_id STARTS WITH 'doc-dart-'"
    " OR n:Event AND n.event_id STARTS WITH 'evt-dart-'"
    " OR n:Evidence AND n.evidence_id STARTS WITH 'evd-dart-' DETACH DELETE n"
)


def _drop_filings(pool: Any, store: GraphStore) -> None:
    """A demo database seeded before the filings existed: none in PostgreSQL or the graph."""
    with connection(pool) as conn:
        conn.execute("DELETE FROM dart_disclosures WHERE url LIKE %s", (DOC_URL + "%",))
        conn.execute("DELETE FROM events WHERE event_id LIKE 'evt-dart-%%'")  # evidence cascades
        conn.execute("DELETE FROM documents WHERE doc_id LIKE 'doc-dart-%%'")
    store.write(DROP_NODES)


def _ids(pool: Any, store: GraphStore) -> dict[str, tuple[set[str], set[str]]]:
    """Per kind: (ids in PostgreSQL, ids in the graph)."""
    return {
        kind: (
            {r["id"] for r in fetch_all(DART_SQL[kind], pool=pool)},
            {r["id"] for r in store.read(DART_GRAPH[kind], timeout_ms=30_000)},
        )
        for kind in DART_SQL
    }


@pytest.mark.usefixtures("demo_data")
def test_the_top_up_projects_what_it_adds(
    pg_pool: Any, graph_store: GraphStore, settings: Settings
) -> None:
    loaded = _ids(pg_pool, graph_store)
    assert all(pg for pg, _ in loaded.values())  # the demo seed wrote filings
    _drop_filings(pg_pool, graph_store)
    assert all(not pg and not graph for pg, graph in _ids(pg_pool, graph_store).values())
    assert seed_if_missing("demo", pool=pg_pool, settings=settings, project=True) is None
    topped = _ids(pg_pool, graph_store)
    for kind, (pg, graph) in topped.items():
        assert pg == loaded[kind][0], kind  # PostgreSQL has the filings again
        assert graph == pg, f"{kind}: {len(pg)} in PostgreSQL, {len(graph)} in the graph"
    links = graph_store.read(
        "MATCH (:EarningsEvent)-[:SUPPORTED_BY]->(v:Evidence)"
        " WHERE v.evidence_id STARTS WITH 'evd-dart-' RETURN count(v) AS n"
    )
    assert links[0]["n"] > 0  # the knowledge steps linked them too (earnings ↔ filings)


@contextmanager
def graph_refuses_writes(services: ServiceInfo) -> Iterator[None]:
    """The real FalkorDB answers every write with NOREPLICAS (no replica can ack it)."""
    server = redis.Redis.from_url(services.graph_uri)
    server.config_set("min-replicas-to-write", 1)
    try:
        yield
    finally:
        server.config_set("min-replicas-to-write", 0)
        server.close()


@pytest.mark.usefixtures("demo_data")
def test_a_top_up_whose_projection_fails_leaves_the_graph_marked_behind(
    pg_pool: Any, graph_store: GraphStore, settings: Settings, services: ServiceInfo
) -> None:
    loaded = _ids(pg_pool, graph_store)
    _drop_filings(pg_pool, graph_store)
    before = fetch_one("SELECT coalesce(max(backlog_id), 0) AS n FROM projection_backlog",
                       pool=pg_pool)["n"]  # type: ignore[index]  # fmt: skip
    with graph_refuses_writes(services):
        report = seed_or_top_up("demo", pool=pg_pool, settings=settings, project=True)
        assert graph_store.read("RETURN 1 AS one") == [{"one": 1}]  # reads still answer
    try:
        assert isinstance(report, TopUpReport) and report.failed
        assert report.added["disclosures"] > 0 and report.projection is not None
        assert "NOREPLICAS" in report.projection["error"]
        message = report.message()
        assert "graph projection FAILED (documents, events, evidence" in message
        assert "NOREPLICAS" in message and "--retry-lagging" in message
        steps = TOPUP_STEPS["disclosures"]  # every write refused: every step is still to do
        assert report.projection["behind"] == list(steps)
        assert f": {', '.join(steps)}) until" in message
        [row] = fetch_all(
            "SELECT backlog_id, origin, scope, projected_at, attempts, last_error"
            " FROM projection_backlog WHERE backlog_id > %s", (before,), pool=pg_pool,
        )  # fmt: skip
        assert (
            row["backlog_id"] == report.projection["backlog"]
            and f"backlog {row['backlog_id']}" in message
        )
        assert row["origin"] == "seed" and row["projected_at"] is None
        scope = ProjectionScope.from_json(row["scope"])  # the failed steps, not the whole graph
        assert not scope.full and scope.steps() == steps and scope.describe().startswith("단계 ")
        assert row["attempts"] == 1 and "seed top-up (documents" in row["last_error"]
        assert "NOREPLICAS" in row["last_error"]
        topped = _ids(pg_pool, graph_store)
        assert all(pg == loaded[k][0] and not graph for k, (pg, graph) in topped.items())
        # the rows are in PostgreSQL now: a second top-up adds nothing, the backlog row is what
        # brings the graph back
        assert seed_or_top_up("demo", pool=pg_pool, settings=settings, project=True) is None
        caught_up = project_all(graph_store, pg_pool, scope=scope)  # what --retry-lagging runs
        assert [s.step for s in caught_up.steps] == [
            s.step for s in ALL_STEPS if s.step in steps
        ] and caught_up.status != "error"  # fmt: skip
    finally:  # the graph back as it was: the top-up's own steps, the test's backlog row done
        project_all(graph_store, pg_pool, steps=TOPUP_STEPS["disclosures"])
        with connection(pg_pool) as conn:
            conn.execute("UPDATE projection_backlog SET projected_at = now() WHERE backlog_id > %s"
                         " AND origin = 'seed'", (before,))  # fmt: skip
    assert all(graph == pg for pg, graph in _ids(pg_pool, graph_store).values())
