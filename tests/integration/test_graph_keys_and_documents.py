"""Composite node keys on both graph backends and the §9.2 document graph (issue 35).

Keys: IndicatorObservation(indicator_code, obs_date) and EquityDailyBar(security_id, trade_date)
are unique on FalkorDB (always) and Neo4j (when NEO4J_URI is set), through the same
`ensure_indexes()`; the projection's upserts stay idempotent and date ranges stay right.
Document graph: Fact/Claim/Entity/EntityAlias nodes, CAUSES, and the EarningsEvent links
(REPORTED_AS Event, SUPPORTED_BY Evidence), checked against SQL over the demo data.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from data_access.config import Settings
from data_access.errors import QueryFailed
from data_access.graph import GraphStore
from data_access.graph import cypher as q
from data_access.postgres import fetch_all, fetch_one
from tests.integration.test_graph_conformance import open_store

GRAPH = "node_keys_test"
BARS = [
    {"security_id": "KR:005930", "trade_date": d, "open": 1.0, "high": 2.0, "low": 0.5,
     "close": 1.5, "volume": 10, "change_rate": 0.1}
    for d in ("2026-11-17", "2026-11-18", "2026-11-19")
]  # fmt: skip


@pytest.fixture(params=["falkordb", "neo4j"])
def store(request: pytest.FixtureRequest, settings: Settings) -> Iterator[GraphStore]:
    graph = open_store(request.param, settings, GRAPH)
    graph.clear()
    yield graph
    graph.clear()


def test_composite_keys_refuse_a_second_node_on_both_backends(store: GraphStore) -> None:
    store.ensure_indexes()
    store.ensure_indexes()  # idempotent
    store.write("CREATE (:Company {security_id: 'KR:005930'})")
    for _ in range(2):  # the projection's upsert twice: one node per (security, date)
        store.write_batch(q.UPSERT_DAILY_BARS, BARS)
    rows = store.read(
        "MATCH (b:EquityDailyBar) RETURN b.bar_key AS k, b.trade_date AS d ORDER BY d"
    )
    assert [r["k"] for r in rows] == [f"KR:005930|{b['trade_date']}" for b in BARS]
    with pytest.raises(QueryFailed):
        store.write(
            "CREATE (:EquityDailyBar {security_id: 'KR:005930', trade_date: '2026-11-18',"
            " bar_key: 'KR:005930|2026-11-18'})"
        )
    store.write(  # the same date of another security is another key
        "CREATE (:EquityDailyBar {security_id: 'KR:000660', trade_date: '2026-11-18',"
        " bar_key: 'KR:000660|2026-11-18'})"
    )
    store.write("CREATE (:EconomicIndicator {indicator_code: 'DGS10'})")
    obs = [{"indicator_code": "DGS10", "obs_date": "2026-11-18", "value": 4.1,
            "effective_date": "2026-11-18", "published_at": None, "as_of_date": "2026-11-18",
            "revision_flag": False}]  # fmt: skip
    store.write_batch(q.UPSERT_OBSERVATIONS, obs)
    store.write_batch(q.UPSERT_OBSERVATIONS, obs)
    assert store.read("MATCH (o:IndicatorObservation) RETURN o.obs_key AS k") == [
        {"k": "DGS10|2026-11-18"}
    ]
    with pytest.raises(QueryFailed):
        store.write(
            "CREATE (:IndicatorObservation {indicator_code: 'DGS10', obs_date: '2026-11-18',"
            " obs_key: 'DGS10|2026-11-18'})"
        )
    # an upper-bound-only date range is still answered right with the keys in place
    before = store.read(
        "MATCH (b:EquityDailyBar {security_id: 'KR:005930'}) WHERE b.trade_date < $d"
        " RETURN b.trade_date AS d ORDER BY d",
        {"d": "2026-11-18"},
    )
    assert before == [{"d": "2026-11-17"}]


# ---------------------------------------------------------------- the demo graph


@pytest.fixture(scope="module")
def demo_graph(demo_data: Any, graph_store: GraphStore, pg_pool: Any) -> GraphStore:
    from data_access.projection import project_all

    report = project_all(graph_store, pg_pool, steps=["facts_claims", "entities", "earnings_links"])
    assert {s.step: s.status for s in report.steps} == {
        "facts_claims": "ok", "entities": "ok", "earnings_links": "ok",
    }  # fmt: skip
    return graph_store


def test_facts_claims_and_causes_follow_the_evidence(demo_graph: GraphStore, pg_pool: Any) -> None:
    truth = fetch_one(
        "SELECT count(*) FILTER (WHERE v.text ~ '[0-9]') AS facts,"
        " count(*) FILTER (WHERE v.text !~ '[0-9]') AS claims,"
        " count(*) FILTER (WHERE v.text ~ '[0-9]' AND v.relation = 'AFFECTS'"
        " AND v.event_id IS NOT NULL) AS causes"
        " FROM evidence v JOIN documents d USING (doc_id)",
        pool=pg_pool,
    )
    assert truth is not None and truth["facts"] and truth["claims"] and truth["causes"]
    graph = demo_graph.read(
        "MATCH (f:Fact)<-[:STATES]-(:Document) WITH count(f) AS facts "
        "MATCH (c:Claim)<-[:CLAIMS]-(:Document) WITH facts, count(c) AS claims "
        "MATCH (:Event)-[r:CAUSES]->(:Fact) RETURN facts, claims, count(r) AS causes"
    )
    assert graph == [dict(truth)]
    # a rate decision CAUSES the measured move of the exchange rate, which is ABOUT that series
    moved = demo_graph.read(
        "MATCH (e:Event)-[:CAUSES]->(f:Fact)-[:ABOUT]->(i:EconomicIndicator) "
        "WHERE e.event_type = 'policy' RETURN e.event_id AS e, f.text AS t, "
        "i.indicator_code AS i ORDER BY e LIMIT 1"
    )
    assert moved and moved[0]["i"] and "움직였다" in moved[0]["t"]


def test_entities_and_aliases_resolve_to_their_nodes(demo_graph: GraphStore, pg_pool: Any) -> None:
    aliases = fetch_all(
        "SELECT alias FROM entity_aliases WHERE kind = 'stock' AND target = 'KR:005930'",
        pool=pg_pool,
    )
    rows = demo_graph.read(
        "MATCH (a:EntityAlias)-[:ALIAS_OF]->(e:Entity {entity_key: 'stock:KR:005930'})"
        "-[:REFERS_TO]->(c:Company) RETURN a.alias AS alias, c.name AS name ORDER BY alias"
    )
    assert sorted(r["alias"] for r in rows) == sorted(r["alias"] for r in aliases)
    assert {r["name"] for r in rows} == {"삼성전자"}


def test_earnings_events_link_their_event_and_evidence(
    demo_graph: GraphStore, pg_pool: Any
) -> None:
    truth = fetch_all(
        "SELECT ee.event_key, e.event_id, v.evidence_id FROM earnings_events ee"
        " JOIN evidence v ON v.security_id = ee.security_id JOIN events e USING (event_id)"
        " WHERE ee.security_id = 'KR:005930' AND e.event_type = 'earnings'"
        " AND e.event_date BETWEEN ee.event_date - 3 AND ee.event_date + 3 ORDER BY 1",
        pool=pg_pool,
    )
    assert truth
    rows = demo_graph.read(
        "MATCH (c:Company {security_id: 'KR:005930'})-[:HAS_EARNINGS_EVENT]->(ee:EarningsEvent)"
        "-[:REPORTED_AS]->(e:Event), (ee)-[:SUPPORTED_BY]->(v:Evidence)-[:SUPPORTS]->(e) "
        "WHERE e.event_type = 'earnings' "
        "RETURN ee.event_key AS event_key, e.event_id AS event_id, v.evidence_id AS evidence_id "
        "ORDER BY event_key"
    )
    assert rows == [dict(r) for r in truth]
