"""The Cypher guard on the real graph store (issue 22): what it now accepts runs there, and the
hostile corpus run without the guard (the store's read-only mode alone) changes nothing.

On FalkorDB, GRAPH.RO_QUERY refuses every write but runs LOAD CSV and read procedures such as
`algo.*`: for those the text guard is the only wall, which the unit tests hold it to.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from data_access.errors import QueryFailed, QueryRejected, ToolInputError
from data_access.graph.base import GraphStore

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = json.loads((ROOT / "agents/eval/golden/hostile_cypher.json").read_text(encoding="utf-8"))
# Entries that try to change something (the rest are reads the guard refuses for other reasons,
# some of which return the whole graph when run unguarded).
WRITE_WORDS = re.compile(r"CREATE|MERGE|SET|DELETE|REMOVE|DROP|FOREACH|CALL|LOAD", re.IGNORECASE)
COUNTS = "MATCH (n) OPTIONAL MATCH (n)-[r]->() RETURN count(DISTINCT n) AS n, count(r) AS r"


@pytest.fixture(scope="module")
def store(graph_store: GraphStore, demo_data: Any) -> GraphStore:
    return graph_store


def test_parameterized_paging_runs_capped(store: GraphStore) -> None:
    query = "MATCH (e:ETF) RETURN e.code AS code ORDER BY code SKIP $skip LIMIT $limit"
    page = store.run_guarded(query, {"skip": 3, "limit": 4})
    everything = store.run_guarded(query, {"skip": 0, "limit": 10_000}, max_rows=7)
    assert [r["code"] for r in page] == [r["code"] for r in everything][3:7]
    assert len(everything) == 7


def test_a_cypher_version_prefix_runs(store: GraphStore) -> None:
    rows = store.run_guarded("CYPHER 25 MATCH (e:ETF {code: '069500'}) RETURN e.code AS code")
    assert rows == [{"code": "069500"}]


def test_resolved_unicode_escapes_run_as_checked(store: GraphStore) -> None:
    query = "MATCH (s:Stock) WHERE s.name STARTS WITH '\\uC0BC\\uC131' RETURN s.name AS name"
    rows = store.run_guarded(query)
    assert rows and all(r["name"].startswith("삼성") for r in rows)


def test_store_alone_changes_nothing(store: GraphStore) -> None:
    """Every hostile entry straight to the read-only store (no text guard): writes are refused
    there, and the graph is the same afterwards."""
    before = store.read(COUNTS)
    outcomes: dict[str, int] = {}
    # Comment tricks (`RETURN n // note\u2028CREATE …`) return the whole graph unguarded: left out.
    tried = [
        e for e in HOSTILE if WRITE_WORDS.search(e["query"]) and "RETURN n //" not in e["query"]
    ]
    for entry in tried:
        try:
            store.read(entry["query"], {}, timeout_ms=300)
            outcome = "ran"
        except QueryRejected:
            outcome = "refused"
        except (QueryFailed, ToolInputError):
            outcome = "failed"
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    assert store.read(COUNTS) == before
    assert outcomes.get("refused", 0) >= 30, outcomes  # RO_QUERY's own refusals of writes


LEGIT = json.loads((ROOT / "tests/fixtures/cypher_legit.json").read_text(encoding="utf-8"))


def test_legit_queries_on_the_workbench_graph_run(store: GraphStore) -> None:
    ran = [
        store.run_guarded(e["query"], e.get("params"))
        for e in LEGIT
        if e.get("falkordb")  # the other schemas (movies, northwind, social) are not loaded
    ]
    assert len(ran) >= 20 and all(ran)
