"""GraphStore conformance: the same calls give the same results on every backend.

Runs on the embedded FalkorDB always and on Neo4j when NEO4J_URI is set (the Neo4j run clears
NEO4J_DATABASE: point it at a test server). Each backend gets its own scratch graph.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from data_access.config import Settings
from data_access.errors import QueryFailed, QueryRejected, StoreUnavailable, ToolInputError
from data_access.graph import GraphStore, get_graph_store

GRAPH = "conformance_test"


def open_store(backend: str, settings: Settings, graph_name: str) -> GraphStore:
    """A store on `backend`; FalkorDB is started even when NEO4J_URI points elsewhere."""
    if backend == "falkordb":
        return get_graph_store(settings.model_copy(update={"neo4j_uri": None}), name=graph_name)
    if not settings.neo4j_uri:
        pytest.skip("NEO4J_URI is not set: the Neo4j run needs a real Neo4j server")
    return get_graph_store(settings)


@pytest.fixture(params=["falkordb", "neo4j"])
def store(request: pytest.FixtureRequest, settings: Settings) -> Iterator[GraphStore]:
    graph = open_store(request.param, settings, GRAPH)
    graph.clear()
    yield graph
    graph.clear()


def strip_ids(value: Any) -> Any:
    """Store-internal ids differ by backend (int vs element id); compare everything else."""
    if isinstance(value, dict):
        return {k: strip_ids(v) for k, v in value.items() if k not in ("_id", "_start", "_end")}
    if isinstance(value, list):
        return [strip_ids(v) for v in value]
    return value


SMALL_GRAPH = """
CREATE (e:ETF {code: '069500', name: 'KODEX 200'})-[:HOLDS {date: '2026-11-20', weight: 30.5}]->
       (s:Stock {code: '005930', name: '삼성전자'}),
       (e)-[:MANAGED_BY]->(:Company {name: '삼성자산운용'}),
       (e)-[:TAGGED]->(:Tag {name: '시장대표'})"""


def test_result_normalization_is_plain_json(store: GraphStore) -> None:
    store.write(SMALL_GRAPH)
    rows = store.read(
        "MATCH p = (e:ETF)-[h:HOLDS]->(s:Stock) "
        "RETURN e, h, p, {code: e.code, weight: h.weight} AS m, [1, null, true] AS l, "
        "date('2026-11-20') AS d, localdatetime('2026-11-20T10:11:12') AS ldt, null AS z"
    )
    assert len(rows) == 1
    row = rows[0]
    etf = {"_labels": ["ETF"], "code": "069500", "name": "KODEX 200"}
    stock = {"_labels": ["Stock"], "code": "005930", "name": "삼성전자"}
    holds = {"_type": "HOLDS", "date": "2026-11-20", "weight": 30.5}
    assert strip_ids(row) == {
        "e": etf,
        "h": holds,
        "p": {"nodes": [etf, stock], "relationships": [holds]},
        "m": {"code": "069500", "weight": 30.5},
        "l": [1, None, True],
        "d": "2026-11-20",
        "ldt": "2026-11-20T10:11:12",
        "z": None,
    }
    # The relationship's ends are the node ids of this backend.
    assert row["h"]["_start"] == row["e"]["_id"] == row["p"]["nodes"][0]["_id"]
    assert row["h"]["_end"] == row["p"]["nodes"][1]["_id"]


def test_parameters_round_trip_quotes_newlines_and_korean(store: GraphStore) -> None:
    tricky = "a\nb'c\"d\\e\t한글 {x} $y"
    store.write("CREATE (:Note {text: $t, n: $n, f: $f, ok: $ok})", {"t": tricky, "n": 7, "f": 2.5,
                                                                   "ok": False})  # fmt: skip
    rows = store.read("MATCH (n:Note) WHERE n.text = $t RETURN n.text AS t, n.n AS n, n.f AS f, "
                      "n.ok AS ok", {"t": tricky})  # fmt: skip
    assert rows == [{"t": tricky, "n": 7, "f": 2.5, "ok": False}]


def test_seed_000_example_queries_give_the_same_answers(store: GraphStore) -> None:
    store.write(SMALL_GRAPH)
    store.write(
        "MATCH (s:Stock {code: '005930'}) "
        "CREATE (:ETF {code: '091160', name: 'KODEX 반도체'})-[:HOLDS {date: '2026-11-19', "
        "weight: 20.0}]->(s), (:ETF {code: '091160x'})"
    )
    rows = store.read(
        "MATCH (e:ETF)-[h:HOLDS]->(s:Stock {code: '005930'}) "
        "WITH e, h ORDER BY h.date DESC WITH e, head(collect(h)) AS latest "
        "RETURN {etf_code: e.code, weight: latest.weight} AS r ORDER BY latest.weight DESC"
    )
    assert [r["r"] for r in rows] == [
        {"etf_code": "069500", "weight": 30.5},
        {"etf_code": "091160", "weight": 20.0},
    ]
    managers = store.read(
        "MATCH (e:ETF)-[:MANAGED_BY]->(c:Company) WHERE c.name CONTAINS '삼성' "
        "RETURN {code: e.code, company: c.name} AS r"
    )
    assert managers == [{"r": {"code": "069500", "company": "삼성자산운용"}}]


def test_read_refuses_writes_at_the_store(store: GraphStore) -> None:
    """The second wall: even text that slipped past the guard cannot write through read()."""
    for cypher in (
        "CREATE (:Intruder {x: 1})",
        "MERGE (n:Intruder) RETURN n",
        "MATCH (n) SET n.hacked = true",
        "MATCH (n) DETACH DELETE n",
        "CREATE INDEX FOR (n:Intruder) ON (n.x)",
    ):
        with pytest.raises(QueryRejected):
            store.read(cypher)
    assert store.read("MATCH (n:Intruder) RETURN count(n) AS n") == [{"n": 0}]


def test_syntax_error_is_query_failed_with_the_server_message(store: GraphStore) -> None:
    with pytest.raises(QueryFailed) as excinfo:
        store.read("MATCH (n RETURN n")
    assert "invalid input" in str(excinfo.value).lower()


def test_timeout_is_query_failed(store: GraphStore) -> None:
    with pytest.raises(QueryFailed) as excinfo:
        store.read(
            # 25 M rows produced lazily (a single huge range() is materialized before the
            # timeout is checked, which makes the test slow and memory-hungry).
            "UNWIND range(1, 5000) AS a UNWIND range(1, 5000) AS b "
            "WITH a, b WHERE (a * b) % 7 = 0 RETURN count(*) AS c",
            timeout_ms=50,
        )
    assert "timed out" in str(excinfo.value).lower()


def test_generous_timeouts_are_accepted(store: GraphStore) -> None:
    # FalkorDB refuses a per-query timeout above its TIMEOUT_MAX; the store clamps instead.
    assert store.read("RETURN 1 AS x", timeout_ms=10 * 60 * 1000) == [{"x": 1}]


def test_run_guarded_rejects_writes_and_caps_rows(store: GraphStore) -> None:
    store.write("UNWIND range(1, 30) AS i CREATE (:Item {i: i})")
    with pytest.raises(QueryRejected):
        store.run_guarded("MATCH (n:Item) DETACH DELETE n")
    rows = store.run_guarded("MATCH (n:Item) RETURN n.i AS i ORDER BY i", max_rows=5)
    assert [r["i"] for r in rows] == [1, 2, 3, 4, 5]


def test_write_batch_counts_rows_actually_written(store: GraphStore) -> None:
    rows = [{"code": f"{i:06d}"} for i in range(12)]
    sent = store.write_batch("UNWIND $rows AS row MERGE (:ETF {code: row.code})", rows, 5)
    assert sent == 12
    links = [{"code": "000001"}, {"code": "missing"}]
    written = store.write_batch(
        "UNWIND $rows AS row MATCH (e:ETF {code: row.code}) "
        "MERGE (e)-[:TAGGED]->(:Tag {name: 'x'}) RETURN count(*) AS written",
        links,
    )
    assert written == 1  # the MATCH found no ETF 'missing'
    assert store.read("MATCH (e:ETF) RETURN count(e) AS n") == [{"n": 12}]
    with pytest.raises(ToolInputError):
        store.write_batch("MERGE (:ETF {code: 'x'})", rows)


def test_ensure_indexes_is_idempotent(store: GraphStore) -> None:
    store.ensure_indexes()
    store.ensure_indexes()
    store.write_batch("UNWIND $rows AS row MERGE (:ETF {code: row.code})", [{"code": "1"}] * 3)
    assert store.read("MATCH (e:ETF) RETURN count(e) AS n") == [{"n": 1}]


def test_date_range_filters_are_right_after_ensure_indexes(store: GraphStore) -> None:
    """ISO-date strings compare correctly even with the lookup indexes in place (FalkorDB
    answers an upper-bound-only range on an indexed string wrongly, so those are not indexed)."""
    store.ensure_indexes()
    days = [{"d": f"2026-11-{day}"} for day in (16, 17, 18, 19)]
    store.write_batch(
        "UNWIND $rows AS row CREATE (:IndicatorObservation {indicator_code: 'X', obs_date: row.d}),"
        " (:EquityDailyBar {security_id: 'KR:005930', trade_date: row.d})",
        days,
    )
    for label, prop in (("IndicatorObservation", "obs_date"), ("EquityDailyBar", "trade_date")):
        rows = store.read(
            f"MATCH (n:{label}) WHERE n.{prop} < $cutoff RETURN n.{prop} AS d ORDER BY d",
            {"cutoff": "2026-11-18"},
        )
        assert [r["d"] for r in rows] == ["2026-11-16", "2026-11-17"]


def test_vector_index_round_trip_scores_in_unit_range(store: GraphStore) -> None:
    store.write("UNWIND ['a', 'b', 'c', 'd'] AS id CREATE (:Doc {doc_id: id})")
    store.create_vector_index("Doc", "embedding", 3)
    store.create_vector_index("Doc", "embedding", 3)  # idempotent
    vectors = [
        {"key": "a", "vector": [1.0, 0.0, 0.0]},
        {"key": "b", "vector": [0.0, 1.0, 0.0]},
        {"key": "c", "vector": [0.6, 0.8, 0.0]},
        {"key": "d", "vector": [-1.0, 0.0, 0.0]},
    ]
    assert store.write_vectors("Doc", "doc_id", "embedding", vectors) == 4
    hits = store.vector_search("Doc", "embedding", [1.0, 0.0, 0.0], k=4)
    assert [h["node"]["doc_id"] for h in hits] == ["a", "c", "b", "d"]
    scores = [h["score"] for h in hits]
    # cosine 1, 0.6, 0, -1  ->  (1 + cos) / 2 on both backends
    assert scores == pytest.approx([1.0, 0.8, 0.5, 0.0], abs=1e-5)
    assert hits[0]["node"]["_labels"] == ["Doc"]


def test_fulltext_index_on_pretokenized_korean(store: GraphStore) -> None:
    # Korean text is indexed as morphemes joined by spaces (what kiwipiepy produces), because
    # both engines match whole tokens: '삼성' does not find '삼성전자' unless it was split off.
    docs = [
        {"doc_id": "d1", "tokens": "삼성전자 반도체 투자 확대"},
        {"doc_id": "d2", "tokens": "현대차 전기차 판매 증가"},
        {"doc_id": "d3", "tokens": "삼성 바이오 로직스 실적"},
    ]
    store.write_batch("UNWIND $rows AS row CREATE (:News {doc_id: row.doc_id, tokens: row.tokens})",
                      docs)  # fmt: skip
    store.create_fulltext_index("News", "tokens")
    store.create_fulltext_index("News", "tokens")  # idempotent
    found = {h["node"]["doc_id"] for h in store.fulltext_search("News", "tokens", "반도체", 10)}
    assert found == {"d1"}
    either = store.fulltext_search("News", "tokens", "반도체, 전기차!", 10)
    assert {h["node"]["doc_id"] for h in either} == {"d1", "d2"}
    assert all(h["score"] > 0 for h in either)
    only_whole = store.fulltext_search("News", "tokens", "삼성", 10)
    assert {h["node"]["doc_id"] for h in only_whole} == {"d3"}
    assert store.fulltext_search("News", "tokens", "?!", 10) == []


def test_schema_lists_labels_directions_counts_and_keys(store: GraphStore) -> None:
    store.write(SMALL_GRAPH)
    schema = store.schema()
    assert {i.label: i.count for i in schema.labels} == {
        "ETF": 1, "Stock": 1, "Company": 1, "Tag": 1,
    }  # fmt: skip
    assert {(r.from_label, r.type, r.to_label, r.count) for r in schema.relationships} == {
        ("ETF", "HOLDS", "Stock", 1),
        ("ETF", "MANAGED_BY", "Company", 1),
        ("ETF", "TAGGED", "Tag", 1),
    }
    etf = next(i for i in schema.labels if i.label == "ETF")
    assert etf.properties == ["code", "name"]
    holds = next(r for r in schema.relationships if r.type == "HOLDS")
    assert holds.properties == ["date", "weight"]
    assert "(:ETF)-[:HOLDS]->(:Stock) {date, weight}" in schema.to_prompt()


def test_clear_empties_the_graph_and_reads_still_work(store: GraphStore) -> None:
    store.write(SMALL_GRAPH)
    store.clear()
    store.clear()  # clearing a missing/empty graph is fine
    assert store.read("MATCH (n) RETURN count(n) AS n") == [{"n": 0}]
    assert store.read("RETURN 1 AS one") == [{"one": 1}]


def test_nodes_read_right_after_another_client_rebuilt_the_graph(store: GraphStore) -> None:
    """Another process may delete and rebuild the graph, reusing label/property ids; the
    FalkorDB client caches those ids, so a stale cache would print the wrong names."""
    if store.backend != "falkordb":
        pytest.skip("the Neo4j driver returns names, not cached ids")
    from data_access.graph.falkordb_store import FalkorDBStore

    store.write("CREATE (:Alpha {a: 1})")
    assert strip_ids(store.read("MATCH (n) RETURN n")) == [{"n": {"_labels": ["Alpha"], "a": 1}}]
    other = FalkorDBStore(store.uri, store.name)  # type: ignore[attr-defined]  # "another process"
    try:
        other.clear()
        other.write("CREATE (:Beta {b: 2})")
    finally:
        other.close()
    assert strip_ids(store.read("MATCH (n) RETURN n")) == [{"n": {"_labels": ["Beta"], "b": 2}}]


def test_health_and_version(store: GraphStore) -> None:
    assert store.health() is True
    assert store.version().lower().startswith(store.backend[:5])


def test_factory_caches_one_store_per_graph(settings: Settings, store: GraphStore) -> None:
    if store.backend != "falkordb":
        pytest.skip("the FalkorDB graph name selects a graph; Neo4j uses NEO4J_DATABASE")
    local = settings.model_copy(update={"neo4j_uri": None})
    assert get_graph_store(local, name=GRAPH) is store
    other = get_graph_store(local, name="conformance_other")
    assert other is not store and other.name == "conformance_other"
    other.close()
    assert get_graph_store(local, name="conformance_other") is not other


def test_neo4j_unreachable_is_store_unavailable_within_seconds() -> None:
    """The driver is real and installed; with nothing listening it must fail fast and typed."""
    from data_access.graph.neo4j_store import Neo4jStore

    store = Neo4jStore("neo4j://127.0.0.1:1", "neo4j", "unused", retry_time_s=0.5)
    try:
        assert store.health() is False
        for call in (lambda: store.read("RETURN 1"), lambda: store.write("RETURN 1")):
            with pytest.raises(StoreUnavailable):
                call()
    finally:
        store.close()


def test_falkordb_reconnects_after_a_server_restart(settings: Settings, tmp_path: Any) -> None:
    """Its own FalkorDB under a temporary WORKBENCH_HOME: stopping it never touches the dev one."""
    from data_access.services import ensure_running, stop

    postgres_uri = ensure_running(settings).postgres_uri  # keep PostgreSQL: only FalkorDB restarts
    own = settings.model_copy(
        update={"workbench_home": tmp_path, "neo4j_uri": None, "database_url": postgres_uri}
    )
    info = ensure_running(own)
    store = get_graph_store(own, name="restart_test")
    try:
        store.write("CREATE (:Probe {n: 1})")
        assert stop(own) == ["falkordb"]  # SIGTERM writes the RDB snapshot
        assert store.health() is False
        with pytest.raises(StoreUnavailable):
            store.read("MATCH (p:Probe) RETURN p.n AS n")
        assert ensure_running(own).graph_uri == info.graph_uri  # same remembered port
        assert store.read("MATCH (p:Probe) RETURN p.n AS n") == [{"n": 1}]  # same client object
        # The factory notices its cached store is dead and restarts the server through services.
        stop(own)
        again = get_graph_store(own, name="restart_test")
        assert again is store
        assert again.read("MATCH (p:Probe) RETURN p.n AS n") == [{"n": 1}]
    finally:
        store.close()
        stop(own)


def test_vector_index_can_be_dropped_and_rebuilt(store: GraphStore) -> None:
    store.write("UNWIND ['a', 'b'] AS id CREATE (:Doc {doc_id: id})")
    store.write_vectors(
        "Doc", "doc_id", "embedding",
        [{"key": "a", "vector": [1.0, 0.0]}, {"key": "b", "vector": [0.0, 1.0]}],
    )  # fmt: skip
    store.drop_vector_index("Doc", "embedding")  # none yet: a no-op
    store.create_vector_index("Doc", "embedding", 2)
    store.drop_vector_index("Doc", "embedding")
    store.drop_vector_index("Doc", "embedding")  # idempotent
    store.create_vector_index("Doc", "embedding", 2)
    hits = store.vector_search("Doc", "embedding", [1.0, 0.0], k=2)
    assert [h["node"]["doc_id"] for h in hits] == ["a", "b"]
