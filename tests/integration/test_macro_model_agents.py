"""The Macro Q&A domain agents as tool-calling loops (seed 004 §8.4), through litellm → a local
OpenAI-compatible server.

The server (tests/fixtures/keyed_replay.py over tests/fixtures/openai_replay.py) replays
HAND-WRITTEN replies, not real model output: per caller (each agent's loop, the router, the
answer writer), in order. Everything behind the provider boundary is real: litellm, the LangGraph
supervisor and tool loop, the SQL guard and the reader role on PostgreSQL, the direction
validator, the Cypher guard and FalkorDB, GraphRAG's vector index.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from pydantic import SecretStr

os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"

from agents.macro.model_agents import FEW_SHOTS
from agents.macro.service import answer_question, make_context
from data_access.config import Settings
from data_access.contracts import AgentAnswer, TraceStep
from tests.fixtures.keyed_replay import KeyedReplayServer
from tests.fixtures.openai_replay import Reply, tool_call, tool_message

pytestmark = pytest.mark.usefixtures("demo_data")

MODEL = "openai/gpt-4.1-mini"
WRITER = "supervisor of a financial research desk"
SAMSUNG_WHY = "삼성전자 최근 3개월 수익률과 주가 하락 이유는?"  # equity, SQL + graph → parallel
CPI = "한국 소비자물가 최근 6개월 추이를 보여줘"  # macro, SQL only → single
USDKRW_PATH = "원달러 환율에 영향을 준 이벤트 경로는?"  # macro + ontology
SAMSUNG_SQL = ("SELECT trade_date, close, volume FROM stock_prices WHERE security_id = 'KR:005930' "
               "ORDER BY trade_date DESC LIMIT 60")  # fmt: skip
SAMSUNG_CYPHER = (
    "MATCH (v:Evidence)-[:SUPPORTS]->(e:Event)-[:AFFECTS]->(c:Company {security_id: 'KR:005930'}) "
    "MATCH (v)-[:FROM_DOCUMENT]->(d:Document) RETURN e.title AS event_title, e.event_date AS "
    "event_date, e.theme AS theme, c.security_id AS target, v.evidence_id AS evidence_id, v.text "
    "AS text, d.doc_id AS doc_id, d.title AS title, d.url AS url ORDER BY event_date DESC"
)
CPI_SQL = ("SELECT obs_date, value FROM macro_observations WHERE series_code = 'KR_CPI' "
           "ORDER BY obs_date DESC LIMIT 6")  # fmt: skip
DONE = "근거를 모았습니다. (replay: loop end)"


def _settings(settings: Settings, api_base: str, **overrides: Any) -> Settings:
    return settings.model_copy(update={"llm_model_macro": MODEL, "llm_api_base": api_base,
                                       "openai_api_key": SecretStr("replay-key"),
                                       "llm_num_retries": 0, **overrides})  # fmt: skip


def ask(question: str, replies: dict[str, list[Reply]], settings: Settings, pg_pool: Any,
        graph_store: Any, *, stale: str | None = None,
        **overrides: Any) -> tuple[AgentAnswer, KeyedReplayServer]:  # fmt: skip
    with KeyedReplayServer(replies) as server:
        s = _settings(settings, server.api_base, **overrides)
        ctx = make_context(s, pg_pool, graph_store)
        if stale:
            ctx.freshness = {**ctx.freshness, stale: "stale"}
        answer = answer_question(question, settings=s, pool=pg_pool, store=graph_store,
                                 context=ctx)  # fmt: skip
    return answer, server


def steps(answer: AgentAnswer, name: str) -> list[TraceStep]:
    return [t for t in answer.trace if t.name.split("/")[-1] == name]


def fallbacks(answer: AgentAnswer) -> list[str]:
    return [t.observation or "" for t in steps(answer, "fallback")]


def test_parallel_turn_calls_sql_qa_and_cypher_qa_together(
    settings: Settings, pg_pool: Any, graph_store: Any
) -> None:
    both = tool_message(tool_call("sql_qa", {"query": SAMSUNG_SQL}),
                        tool_call("cypher_qa", {"query": SAMSUNG_CYPHER}))  # fmt: skip
    answer, server = ask(SAMSUNG_WHY, {"[agent:equity]": [both, DONE],
                                       WRITER: ["삼성전자 주가는 하락했습니다 [1]. (replay)"]},
                         settings, pg_pool, graph_store)  # fmt: skip
    route = answer.payload["route"]
    assert (route["tool_mode"], route["target_agents"]) == ("parallel", ["equity"])
    first = server.requests_for("[agent:equity]")[0]
    assert first["parallel_tool_calls"] is True
    tools = {t["function"]["name"]: t["function"]["description"] for t in first["tools"]}
    assert set(tools) >= {"sql_qa", "cypher_qa", "graph_rag", "templates"}
    assert tools["sql_qa"].startswith("SQLQA: 시계열 수치(가격, 거래량, 실적, 지수한도 등)")
    assert tools["cypher_qa"].startswith("CypherQA: 테마, 뉴스 팩트, 기업 간 지배구조/관계")
    assert "stock_prices(" in tools["sql_qa"] and "macro_observations" not in tools["sql_qa"]
    assert "(:Evidence)-[:SUPPORTS]->(:Event)" in tools["cypher_qa"]
    assert "팔란티어 주가 전망" in first["messages"][0]["content"] and FEW_SHOTS
    sql, cypher = steps(answer, "sql_qa")[0], steps(answer, "cypher:cypher_qa")[0]
    assert sql.status == cypher.status == "ok"
    assert sql.arguments["parallel"] and cypher.arguments["parallel"]
    # the tool results went back to the model with their call ids
    second = server.requests_for("[agent:equity]")[1]["messages"]
    tool_msgs = [m for m in second if m["role"] == "tool"]
    assert len(tool_msgs) == 2 and json.loads(tool_msgs[0]["content"])["row_count"] == 60
    # SQL → structured citation only, documents → citations only (§8.4-4)
    model_sql = [c for c in answer.structured_citations if c.filters.get("model_sql")]
    assert model_sql and model_sql[0].table == "stock_prices" and model_sql[0].row_count == 60
    expected = graph_store.read(SAMSUNG_CYPHER.replace("ORDER BY event_date DESC", "LIMIT 50"))
    assert answer.citations and {c.doc_id for c in answer.citations} <= {
        str(r["doc_id"]) for r in expected
    }
    assert not any(c.dataset_code == "GRAPH" for c in answer.structured_citations)
    last = pg_pool.connection().__enter__().execute(
        "SELECT close FROM stock_prices WHERE security_id = 'KR:005930' ORDER BY trade_date DESC "
        "LIMIT 1").fetchone()  # fmt: skip
    points = answer.payload["agent_responses"]["equity"]["key_points"]
    assert any(f"close={float(last['close']):,.2f}" in p for p in points)
    assert not fallbacks(answer) and answer.mode == "llm" and answer.status == "ok"


def test_single_tool_turn_has_no_parallel_calls(
    settings: Settings, pg_pool: Any, graph_store: Any
) -> None:
    one = tool_message(tool_call("sql_qa", {"query": CPI_SQL}))
    answer, server = ask(CPI, {"[agent:macro]": [one, DONE], WRITER: ["소비자물가 (replay)"]},
                         settings, pg_pool, graph_store)  # fmt: skip
    assert answer.payload["route"]["tool_mode"] == "single"
    loop = server.requests_for("[agent:macro]")
    assert len(loop) == 2 and loop[0]["parallel_tool_calls"] is False
    assert [t.status for t in steps(answer, "sql_qa")] == ["ok"]
    cited = [c for c in answer.structured_citations if c.filters.get("model_sql")]
    assert [c.dataset_code for c in cited] == ["KR_CPI"] and cited[0].row_count == 6
    series = answer.payload["agent_responses"]["macro"]["series"]
    assert series and len(series[0]["points"]) == 6
    assert not fallbacks(answer) and not steps(answer, "cypher:cypher_qa")


@pytest.mark.parametrize("query", [
    "DELETE FROM macro_observations WHERE series_code = 'KR_CPI'",
    "SELECT rolname, rolpassword FROM pg_authid",
    "SELECT 1; DROP TABLE macro_series",
    "SELECT close FROM stock_prices LIMIT 5",  # the Equity agent's table, not the Macro agent's
])  # fmt: skip
def test_guard_rejects_model_sql_and_the_templates_answer(
    query: str, settings: Settings, pg_pool: Any, graph_store: Any
) -> None:
    bad = tool_message(tool_call("sql_qa", {"query": query}))
    answer, server = ask(CPI, {"[agent:macro]": [bad, DONE], WRITER: ["물가 (replay)"]},
                         settings, pg_pool, graph_store)  # fmt: skip
    rejected = steps(answer, "sql_qa")
    assert rejected[0].status == "rejected" and rejected[0].kind == "guard" and rejected[0].error
    feedback = json.loads(server.requests_for("[agent:macro]")[1]["messages"][-1]["content"])
    assert feedback["status"] == "rejected" and feedback["retry_hint"]
    assert fallbacks(answer) == ["sql_qa → templates (rejected)"]
    assert steps(answer, "sql:macro_series_window")[0].status == "ok"
    assert any(c.dataset_code == "KR_CPI" for c in answer.structured_citations)
    assert pg_pool.connection().__enter__().execute(
        "SELECT count(*) AS n FROM macro_series").fetchone()["n"] > 0  # fmt: skip
    assert answer.status == "ok"


def test_empty_text2cypher_falls_back_to_graphrag_and_templates(
    settings: Settings, pg_pool: Any, graph_store: Any
) -> None:
    empty = tool_message(tool_call("cypher_qa", {"query": (
        "MATCH (v:Evidence)-[:SUPPORTS]->(e:Event)-[:AFFECTS]->(i:EconomicIndicator "
        "{indicator_code: 'NO_SUCH_CODE'}) MATCH (v)-[:FROM_DOCUMENT]->(d:Document) "
        "RETURN v.evidence_id AS evidence_id, d.doc_id AS doc_id, d.title AS title")}))  # fmt: skip
    templates = tool_message(tool_call("templates", {}))
    answer, _ = ask(USDKRW_PATH, {"[agent:ontology]": [empty, DONE],
                                  "[agent:macro]": [templates, DONE], WRITER: ["환율 (replay)"]},
                    settings, pg_pool, graph_store)  # fmt: skip
    assert steps(answer, "cypher:cypher_qa")[0].observation == "0 rows"
    assert steps(answer, "empty_recheck")
    ontology = answer.payload["agent_responses"]["ontology"]
    assert "cypher_qa → GraphRAG + evidence templates (empty)" in fallbacks(answer)
    assert ontology["status"] == "ok" and ontology["paths"] and answer.citations
    assert steps(answer, "vector:document_text_embedding_idx")  # GraphRAG kept with a model
    # the macro agent's model chose its templates: no SQL fallback there
    assert steps(answer, "templates") and "sql_qa → templates" not in " ".join(fallbacks(answer))


def test_stale_series_keeps_the_warning_in_a_model_answer(
    settings: Settings, pg_pool: Any, graph_store: Any
) -> None:
    one = tool_message(tool_call("sql_qa", {"query": CPI_SQL}))
    firm = "소비자물가는 확실히 안정되었습니다. (replay: a writer that drops the warning)"
    answer, server = ask(CPI, {"[agent:macro]": [one, DONE], WRITER: [firm]}, settings, pg_pool,
                         graph_store, stale="macro")  # fmt: skip
    assert answer.mode == "llm" and answer.data_freshness.get("macro") == "stale"
    first = answer.answer.strip().splitlines()[0]
    assert "최신성 경고: 거시경제 지연" in first and "확실히 안정되었습니다" not in answer.answer
    writer = server.requests_for(WRITER)[0]["messages"][1]["content"]
    assert "최신성 경고" in writer  # and the writer was told


def test_router_refinement_cannot_override_the_rules(
    settings: Settings, pg_pool: Any, graph_store: Any
) -> None:
    to_general = json.dumps({"target_agents": ["general_knowledge"], "sql_need": False,
                             "graph_need": False, "reason": "일반 질문으로 보임"})  # fmt: skip
    both = tool_message(tool_call("templates", {}))
    answer, server = ask(SAMSUNG_WHY, {"[router]": [to_general], "[agent:equity]": [both, DONE],
                                       WRITER: ["삼성전자 (replay)"]},
                         settings, pg_pool, graph_store, llm_model_router=MODEL)  # fmt: skip
    route = answer.payload["route"]
    assert route["tool_mode"] == "parallel" and route["target_agents"] == ["equity"]
    assert route["refined_by"] == MODEL and route["sql_need"] and route["graph_need"]
    assert any(r.startswith("무시: 도메인 질문을") for r in route["reasons"])
    assert server.requests_for("[router]")[0]["response_format"] == {"type": "json_object"}

    to_db = json.dumps({"target_agents": ["macro", "equity"], "sql_need": True,
                        "graph_need": True})  # fmt: skip
    answer, server = ask("오늘 날씨 어때?", {"[router]": [to_db]}, settings, pg_pool, graph_store,
                         llm_model_router=MODEL)  # fmt: skip
    route = answer.payload["route"]
    assert route["tool_mode"] == "llm_direct" and route["target_agents"] == ["general_knowledge"]
    assert any("DB·그래프를 호출하지 않습니다" in r for r in route["reasons"])
    assert not [t for t in answer.trace if t.kind == "tool"] and not answer.structured_citations
    assert not server.requests_for("[agent:macro]")


def test_malformed_tool_calls_are_fed_back_and_the_loop_recovers(
    settings: Settings, pg_pool: Any, graph_store: Any
) -> None:
    bad = tool_message(tool_call("run_cypher", {"query": "MATCH (n) DETACH DELETE n"}),
                       tool_call("sql_qa", '{"query": "SELECT 1'))  # fmt: skip
    answer, server = ask(CPI, {"[agent:macro]": [bad, tool_message(tool_call("templates", {})),
                                                 DONE], WRITER: ["물가 (replay)"]},
                         settings, pg_pool, graph_store)  # fmt: skip
    feedback = [json.loads(m["content"]) for m in server.requests_for("[agent:macro]")[1]["messages"]
                if m["role"] == "tool"]  # fmt: skip
    assert [f["status"] for f in feedback] == ["error", "error"]
    assert "unknown tool" in feedback[0]["error"] and "not JSON" in feedback[1]["error"]
    assert steps(answer, "templates") and not fallbacks(answer)
    assert answer.status == "ok" and any(c.dataset_code == "KR_CPI"
                                         for c in answer.structured_citations)  # fmt: skip
