"""A real graph outage in the middle of a session, on a FalkorDB of its own.

The session's FalkorDB is shared by every test, so this test starts a second one under its own
WORKBENCH_HOME (`Settings(workbench_home=tmp, database_url=<the session PostgreSQL>)`: the
PostgreSQL is only read, `ensure_running` starts just the FalkorDB), seeds a few evidence paths
copied from the session graph, then SIGKILLs the server's pid: the same relationship question is
answered from SQL with the reason shown. `ensure_running` restarts it on the same port and the
very same store object answers from the graph again — nothing else is restarted.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from agents.macro.service import answer_question
from data_access.config import Settings
from data_access.graph import get_graph_store
from data_access.graph.base import GraphStore
from data_access.services import ServiceInfo, ensure_running, stop

pytestmark = pytest.mark.usefixtures("demo_data")

QUESTION = "원달러 환율에 영향을 준 이벤트 경로는?"  # macro + ontology, graph evidence
COPY = (
    "MATCH (v:Evidence)-[:SUPPORTS]->(e:Event)-[:AFFECTS]->(i:EconomicIndicator "
    "{indicator_code: 'KR_USDKRW'}) MATCH (v)-[:FROM_DOCUMENT]->(d:Document) "
    "RETURN v.evidence_id AS evidence_id, v.text AS text, e.event_id AS event_id, "
    "e.title AS event_title, e.event_date AS event_date, e.theme AS theme, d.doc_id AS doc_id, "
    "d.title AS title, d.url AS url, i.name_ko AS name_ko ORDER BY e.event_date DESC LIMIT 12"
)
SEED = (
    "UNWIND $rows AS row "
    "MERGE (i:EconomicIndicator {indicator_code: 'KR_USDKRW'}) SET i.name_ko = row.name_ko "
    "MERGE (e:Event {event_id: row.event_id}) "
    "SET e.title = row.event_title, e.event_date = row.event_date, e.theme = row.theme "
    "MERGE (d:Document {doc_id: row.doc_id}) SET d.title = row.title, d.url = row.url "
    "MERGE (v:Evidence {evidence_id: row.evidence_id}) SET v.text = row.text "
    "MERGE (v)-[:SUPPORTS]->(e) MERGE (e)-[:AFFECTS]->(i) MERGE (v)-[:FROM_DOCUMENT]->(d)"
)


@pytest.fixture
def own_graph(tmp_path: Path, services: ServiceInfo, settings: Settings
              ) -> Iterator[tuple[Settings, ServiceInfo]]:  # fmt: skip
    own = settings.model_copy(update={"workbench_home": tmp_path / "home",
                                      "database_url": services.postgres_uri})  # fmt: skip
    info = ensure_running(own)
    try:
        yield own, info
    finally:
        stop(own)  # only this home's FalkorDB; the external (session) PostgreSQL is left alone


def _paths(answer: Any) -> list[dict[str, Any]]:
    return [p for r in answer.payload["agent_responses"].values() for p in r["paths"]]


def test_graph_killed_mid_session_degrades_to_sql_and_recovers(
    own_graph: tuple[Settings, ServiceInfo], graph_store: GraphStore, pg_pool: Any
) -> None:
    own, info = own_graph
    assert info.graph_uri != graph_store.uri  # type: ignore[attr-defined]
    store = get_graph_store(own)
    rows = graph_store.read(COPY)
    assert store.write_batch(SEED, rows) == len(rows) > 0

    before = answer_question(QUESTION, pool=pg_pool, store=store)
    assert before.payload["graph_available"] and not before.payload["degraded"]
    assert {p["evidence_id"] for p in _paths(before)} <= {r["evidence_id"] for r in rows}
    assert any(t.name.endswith("cypher:indicator_evidence") and t.status == "ok"
               for t in before.trace)  # fmt: skip

    port = int(info.graph_uri.rsplit(":", 1)[1])
    redis.Redis(port=port).save()  # keep the seeded rows across the crash
    assert info.falkordb_pid is not None
    os.kill(info.falkordb_pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while store.health() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not store.health()

    down = answer_question(QUESTION, pool=pg_pool, store=store)
    assert down.status != "error" and down.payload["degraded"]
    assert "그래프 저장소에 연결할 수 없어" in down.answer
    assert down.structured_citations[0].table == "macro_observations"  # numbers from SQL
    assert down.citations  # documents from the SQL evidence fallback
    names = [t.name for t in down.trace]
    assert any(n.endswith("sql:documents_by_keyword") for n in names)
    assert not any(
        "cypher:" in n and t.status == "ok" for n, t in zip(names, down.trace, strict=True)
    )

    restarted = ensure_running(own)
    assert restarted.graph_uri == info.graph_uri and restarted.falkordb_pid != info.falkordb_pid
    after = answer_question(QUESTION, pool=pg_pool, store=store)  # the same store object
    assert after.payload["graph_available"] and not after.payload["degraded"]
    assert {p["evidence_id"] for p in _paths(after)} == {p["evidence_id"] for p in _paths(before)}
