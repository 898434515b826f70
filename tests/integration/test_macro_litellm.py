"""The LLM path of the Macro Q&A supervisor through litellm → a local OpenAI-compatible server:
the agents' model-written Cypher (`cypher_qa`), the general-knowledge agent, the answer writer,
provider errors and the turn budget.

The server replays HAND-WRITTEN responses (tests/fixtures/openai_replay/macro_text2cypher.json,
not real model output), per caller (tests/fixtures/keyed_replay.py: the agents' loops run
concurrently); one scripted reply is an HTTP 500. Everything behind the provider boundary is
real: litellm (retries, usage, cost), the LangGraph supervisor and tool loops, the direction
validator, the Cypher guard, FalkorDB and PostgreSQL. The tool loop itself (parallel and single
turns, the SQL guard, fallbacks, router refinement) is tested in test_macro_model_agents.py.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"

from agents.macro.service import answer_question
from data_access.config import Settings
from data_access.contracts import AgentAnswer
from tests.fixtures.keyed_replay import KeyedReplayServer
from tests.fixtures.openai_replay import Reply, http_error, tool_call, tool_message

pytestmark = pytest.mark.usefixtures("demo_data")

FIXTURE = (
    Path(__file__).resolve().parents[1] / "fixtures" / "openai_replay" / "macro_text2cypher.json"
)
MODEL = "openai/gpt-4.1-mini"
WRITER = "supervisor of a financial research desk"
DONE = "근거를 모았습니다. (replay: loop end)"
USDKRW_PATH = "원달러 환율에 영향을 준 이벤트 경로는?"  # routes to macro + ontology (parallel)


def _recorded(key: str) -> str:
    return str(json.loads(FIXTURE.read_text(encoding="utf-8"))[key])


def _cypher(key: str) -> str:
    return _recorded(key).split("```cypher", 1)[1].split("```", 1)[0].strip()


def _settings(settings: Settings, api_base: str, **overrides: Any) -> Settings:
    return settings.model_copy(update={"llm_model_macro": MODEL, "llm_api_base": api_base,
                                       "openai_api_key": SecretStr("replay-key"), **overrides})  # fmt: skip


def _ask(question: str, settings: Settings, pg_pool: Any, graph_store: Any,
         replies: dict[str, list[Reply]], **overrides: Any
         ) -> tuple[AgentAnswer, KeyedReplayServer]:  # fmt: skip
    with KeyedReplayServer(replies) as server:
        answer = answer_question(question, settings=_settings(settings, server.api_base, **overrides),
                                 pool=pg_pool, store=graph_store)  # fmt: skip
    return answer, server


def _replies(ontology_cypher: str) -> dict[str, list[Reply]]:
    """The Ontology agent writes one Cypher query; the Macro agent uses its templates."""
    return {"[agent:ontology]": [tool_message(tool_call("cypher_qa", {"query": ontology_cypher})),
                                 DONE],
            "[agent:macro]": [tool_message(tool_call("templates", {})), DONE],
            WRITER: [_recorded("answer_writer")]}  # fmt: skip


def _steps(answer: AgentAnswer, suffix: str) -> list[Any]:
    return [t for t in answer.trace if t.name.endswith(suffix)]


def test_model_cypher_runs_guarded_and_the_writer_answers(
    settings: Settings, pg_pool: Any, graph_store: Any
) -> None:
    answer, server = _ask(USDKRW_PATH, settings, pg_pool, graph_store,
                          _replies(_cypher("good_cypher")))  # fmt: skip
    assert answer.status == "ok" and answer.mode == "llm" and answer.model == MODEL
    llm = [t for t in answer.trace if t.kind == "llm"]
    assert sorted(t.name.split("/")[-1] for t in llm) == sorted(  # the router: the Macro model
        ["router_refine", "macro_tools", "macro_tools", "ontology_tools", "ontology_tools",
         "answer_writer"]
    )  # fmt: skip
    assert all(t.model == MODEL and t.tokens == 1350 and t.cost_usd > 0 for t in llm)
    assert answer.tokens == 6 * 1350 and answer.cost_usd == pytest.approx(
        sum(t.cost_usd for t in llm)
    )
    assert _steps(answer, "direction_validator")[0].status == "ok"
    run = _steps(answer, "cypher:cypher_qa")[0]
    expected = graph_store.read(
        "MATCH (v:Evidence)-[:SUPPORTS]->(e:Event)-[:AFFECTS]->(i:EconomicIndicator "
        "{indicator_code: 'KR_USDKRW'}) WHERE e.event_date <= '2026-11-20' "
        "MATCH (v)-[:FROM_DOCUMENT]->(d:Document) RETURN count(*) AS n"
    )[0]["n"]
    # the guard forces a LIMIT (50 rows for model-written Cypher)
    assert run.status == "ok" and run.observation == f"{min(expected, 50)} rows" and expected > 0
    assert answer.answer.startswith("원달러 환율은 기준일 현재") and answer.citations
    # the model saw the direction-annotated schema and the right/wrong few-shots in the tool
    tools = server.requests_for("[agent:ontology]")[0]["tools"]
    cypher_tool = next(t["function"] for t in tools if t["function"]["name"] == "cypher_qa")
    assert "(:Evidence)-[:SUPPORTS]->(:Event)" in cypher_tool["description"]
    assert "Wrong:" in cypher_tool["description"]
    assert not [t for t in tools if t["function"]["name"] == "sql_qa"]  # no tables for Ontology
    writer_user = server.requests_for(WRITER)[0]["messages"][1]["content"]
    writer_input = json.loads(writer_user.split("<macro_data>", 1)[1].split("</macro_data>", 1)[0])
    assert any("KR_USDKRW" in p for p in writer_input["key_points"])
    assert any(p.startswith("경로: 근거 → 이벤트") for p in writer_input["key_points"])


def test_wrong_direction_is_rejected_and_the_template_answers(
    settings: Settings, pg_pool: Any, graph_store: Any
) -> None:
    answer, server = _ask(USDKRW_PATH, settings, pg_pool, graph_store,
                          _replies(_cypher("wrong_direction_cypher")))  # fmt: skip
    guard = _steps(answer, "direction_validator")[0]
    assert guard.status == "rejected" and "reversed" in (guard.error or "")
    assert not _steps(answer, "cypher:cypher_qa")  # the bad query never ran
    feedback = json.loads(server.requests_for("[agent:ontology]")[1]["messages"][-1]["content"])
    assert feedback["status"] == "rejected" and "reversed" in feedback["error"]
    template = _steps(answer, "ontology/cypher:indicator_evidence")
    assert template and template[0].status == "ok"
    ontology = answer.payload["agent_responses"]["ontology"]
    assert ontology["status"] == "ok" and ontology["paths"]


def test_write_attempt_is_a_guard_rejection_not_a_crash(
    settings: Settings, pg_pool: Any, graph_store: Any
) -> None:
    answer, _ = _ask(USDKRW_PATH, settings, pg_pool, graph_store,
                     _replies(_cypher("write_cypher")))  # fmt: skip
    assert answer.status == "ok"
    rejected = _steps(answer, "cypher_guard")
    assert rejected and rejected[0].status == "rejected" and "MERGE" in (rejected[0].code or "")
    assert graph_store.read("MATCH (x:ReplayInjected) RETURN count(x) AS n")[0]["n"] == 0
    assert answer.payload["agent_responses"]["ontology"]["paths"]  # templates answered instead


def test_general_question_is_answered_by_the_model_without_data(
    settings: Settings, pg_pool: Any, graph_store: Any
) -> None:
    answer, server = _ask("오늘 날씨 어때?", settings, pg_pool, graph_store,
                          {"Answer briefly": [_recorded("general")]})  # fmt: skip
    assert answer.mode == "llm" and "기상청" in answer.answer
    assert not answer.citations and not answer.structured_citations
    assert len(server.requests_for("Answer briefly")) == 1  # (and the router's call)
    assert not [t for t in answer.trace if t.kind == "tool"]


def test_provider_500_retries_then_falls_back_offline(
    settings: Settings, pg_pool: Any, graph_store: Any
) -> None:
    # "Nothing hangs" is checked with a wait in test_llm_faults.py, not with a wall-clock limit.
    answer, server = _ask(USDKRW_PATH, settings, pg_pool, graph_store,
                          {"[agent:": [http_error(500)], WRITER: [http_error(500)],
                           "[router]": [http_error(500)]},
                          llm_num_retries=1, llm_retry_backoff_s=0.05)  # fmt: skip
    llm = [t for t in answer.trace if t.kind == "llm"]
    assert [t.status for t in llm] == ["error"] * 4 and "InternalServerError" in (
        llm[0].error or ""
    )
    assert len(server.requests) == 8  # router, two agents, writer: 1 try + 1 retry each
    assert answer.mode == "offline" and answer.model is None and answer.tokens == 0
    assert "오프라인 규칙/템플릿 답변" in answer.answer and answer.structured_citations
    assert answer.payload["agent_responses"]["ontology"]["paths"]  # template evidence


def test_turn_budget_stops_the_run_cleanly(
    settings: Settings, pg_pool: Any, graph_store: Any
) -> None:
    replies: dict[str, list[Reply]] = {
        "[agent:macro]": [tool_message(tool_call("templates", {})), DONE]}  # fmt: skip
    answer, server = _ask("한국 소비자물가 최근 6개월 추이를 보여줘", settings, pg_pool,
                          graph_store, replies, llm_max_tokens_per_turn=2000)  # fmt: skip
    assert answer.status == "budget_exceeded" and "한도" in answer.answer
    assert len(server.requests) == 2  # the loop's second call went over: no further call
    llm = [t for t in answer.trace if t.kind == "llm"]
    assert len(llm) == 2 and answer.tokens == 2700 and all(t.model == MODEL for t in llm)
