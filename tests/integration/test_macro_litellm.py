"""The LLM path of the Macro Q&A supervisor: Text2Cypher (Ontology agent), the general-knowledge
agent and the answer writer through litellm → a local OpenAI-compatible server.

The server replays HAND-WRITTEN responses (tests/fixtures/openai_replay/macro_text2cypher.json,
not real model output) in request order; one scripted reply is an HTTP 500. Everything behind the
provider boundary is real: litellm (retries, usage, cost), the LangGraph supervisor, the direction
validator, the Cypher guard, FalkorDB and PostgreSQL. There is no LLM router refinement in this
slice (routing is rule-based), so the first model call of a turn is Text2Cypher.
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
from tests.fixtures.openai_replay import ReplayServer

pytestmark = pytest.mark.usefixtures("demo_data")

FIXTURE = (
    Path(__file__).resolve().parents[1] / "fixtures" / "openai_replay" / "macro_text2cypher.json"
)
MODEL = "openai/gpt-4.1-mini"
HTTP_500 = "__HTTP_500__"
USDKRW_PATH = "원달러 환율에 영향을 준 이벤트 경로는?"  # routes to macro + ontology (parallel)


class ScriptedReplayServer(ReplayServer):
    """ReplayServer where a reply equal to HTTP_500 answers with an OpenAI-style server error."""

    def __init__(self, responses: list[str], **kwargs: Any) -> None:
        super().__init__(responses, **kwargs)
        original = self._server.RequestHandlerClass

        class Handler(original):  # type: ignore[misc, valid-type]
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                request = json.loads(self.rfile.read(length) or b"{}")
                content, index = replay._next(request)
                if content != HTTP_500:
                    from tests.fixtures.openai_replay import completion_body

                    self._json(completion_body(content, replay.model, replay.prompt_tokens,
                                               replay.completion_tokens, index))  # fmt: skip
                    return
                data = (
                    b'{"error": {"message": "replayed upstream failure", "type": "server_error"}}'
                )
                self.send_response(500)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        replay = self
        self._server.RequestHandlerClass = Handler


def _replies(*keys: str) -> list[str]:
    recorded = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return [HTTP_500 if k == HTTP_500 else str(recorded[k]) for k in keys]


def _settings(settings: Settings, api_base: str, **overrides: Any) -> Settings:
    return settings.model_copy(update={"llm_model_macro": MODEL, "llm_api_base": api_base,
                                       "openai_api_key": SecretStr("replay-key"), **overrides})  # fmt: skip


def _ask(question: str, settings: Settings, pg_pool: Any, graph_store: Any,
         replies: list[str], **overrides: Any) -> tuple[AgentAnswer, ScriptedReplayServer]:  # fmt: skip
    with ScriptedReplayServer(replies) as server:
        answer = answer_question(question, settings=_settings(settings, server.api_base, **overrides),
                                 pool=pg_pool, store=graph_store)  # fmt: skip
    return answer, server


def _steps(answer: AgentAnswer, suffix: str) -> list[Any]:
    return [t for t in answer.trace if t.name.endswith(suffix)]


def test_text2cypher_runs_guarded_and_the_writer_answers(
    settings: Settings, pg_pool: Any, graph_store: Any
) -> None:
    answer, server = _ask(USDKRW_PATH, settings, pg_pool, graph_store,
                          _replies("good_cypher", "answer_writer"))  # fmt: skip
    assert answer.status == "ok" and answer.mode == "llm" and answer.model == MODEL
    llm = [t for t in answer.trace if t.kind == "llm"]
    assert [t.name.split("/")[-1] for t in llm] == ["text2cypher", "answer_writer"]
    assert all(t.model == MODEL and t.tokens == 1350 and t.cost_usd > 0 for t in llm)
    assert answer.tokens == 2 * 1350 and answer.cost_usd == pytest.approx(
        sum(t.cost_usd for t in llm)
    )
    assert _steps(answer, "direction_validator")[0].status == "ok"
    run = _steps(answer, "cypher:text2cypher")[0]
    expected = graph_store.read(
        "MATCH (v:Evidence)-[:SUPPORTS]->(e:Event)-[:AFFECTS]->(i:EconomicIndicator "
        "{indicator_code: 'KR_USDKRW'}) WHERE e.event_date <= '2026-11-20' "
        "MATCH (v)-[:FROM_DOCUMENT]->(d:Document) RETURN count(*) AS n"
    )[0]["n"]
    # the guard forces a LIMIT (50 rows for Text2Cypher)
    assert run.status == "ok" and run.observation == f"{min(expected, 50)} rows" and expected > 0
    assert answer.answer.startswith("원달러 환율은 기준일 현재") and answer.citations
    # the model saw the direction-annotated schema and the right/wrong few-shots
    system = server.requests[0]["messages"][0]["content"]
    assert "(:Evidence)-[:SUPPORTS]->(:Event)" in system and "Wrong:" in system
    writer_user = server.requests[1]["messages"][1]["content"]  # the question, then fenced data
    writer_input = json.loads(writer_user.split("<macro_data>", 1)[1].split("</macro_data>", 1)[0])
    assert any("KR_USDKRW" in p for p in writer_input["key_points"])


def test_wrong_direction_is_rejected_and_the_template_answers(
    settings: Settings, pg_pool: Any, graph_store: Any
) -> None:
    answer, _ = _ask(USDKRW_PATH, settings, pg_pool, graph_store,
                     _replies("wrong_direction_cypher", "answer_writer"))  # fmt: skip
    guard = _steps(answer, "direction_validator")[0]
    assert guard.status == "rejected" and "reversed" in (guard.error or "")
    assert not _steps(answer, "cypher:text2cypher")  # the bad query never ran
    template = _steps(answer, "ontology/cypher:indicator_evidence")
    assert template and template[0].status == "ok"
    ontology = answer.payload["agent_responses"]["ontology"]
    assert ontology["status"] == "ok" and ontology["paths"]
    assert any("관계 방향" in u for u in ontology["uncertainty"])


def test_write_attempt_is_a_guard_rejection_not_a_crash(
    settings: Settings, pg_pool: Any, graph_store: Any
) -> None:
    answer, _ = _ask(USDKRW_PATH, settings, pg_pool, graph_store,
                     _replies("write_cypher", "answer_writer"))  # fmt: skip
    assert answer.status == "ok"
    rejected = _steps(answer, "cypher_guard")
    assert rejected and rejected[0].status == "rejected" and "MERGE" in (rejected[0].code or "")
    assert graph_store.read("MATCH (x:ReplayInjected) RETURN count(x) AS n")[0]["n"] == 0
    assert answer.payload["agent_responses"]["ontology"]["paths"]  # templates answered instead


def test_general_question_is_answered_by_the_model_without_data(
    settings: Settings, pg_pool: Any, graph_store: Any
) -> None:
    answer, server = _ask("오늘 날씨 어때?", settings, pg_pool, graph_store, _replies("general"))
    assert answer.mode == "llm" and "기상청" in answer.answer
    assert not answer.citations and not answer.structured_citations
    assert len(server.requests) == 1 and not [t for t in answer.trace if t.kind == "tool"]


def test_provider_500_retries_then_falls_back_offline(
    settings: Settings, pg_pool: Any, graph_store: Any
) -> None:
    # "Nothing hangs" is checked with a wait in test_llm_faults.py, not with a wall-clock limit.
    answer, server = _ask(USDKRW_PATH, settings, pg_pool, graph_store, _replies(HTTP_500))
    llm = [t for t in answer.trace if t.kind == "llm"]
    assert [t.status for t in llm] == ["error", "error"] and "InternalServerError" in (
        llm[0].error or ""
    )
    assert len(server.requests) == 6  # each of the two calls: 1 try + 2 retries (litellm+client)
    assert answer.mode == "offline" and answer.model is None and answer.tokens == 0
    assert "오프라인 규칙/템플릿 답변" in answer.answer and answer.structured_citations
    assert answer.payload["agent_responses"]["ontology"]["paths"]  # template evidence


def test_turn_budget_stops_the_run_cleanly(
    settings: Settings, pg_pool: Any, graph_store: Any
) -> None:
    answer, server = _ask(USDKRW_PATH, settings, pg_pool, graph_store,
                          _replies("good_cypher", "answer_writer"),
                          llm_max_tokens_per_turn=2000)  # fmt: skip
    assert answer.status == "budget_exceeded" and "한도" in answer.answer
    assert len(server.requests) == 2  # the writer call went over: no further call
    llm = [t for t in answer.trace if t.kind == "llm"]
    assert len(llm) == 2 and answer.tokens == 2700 and all(t.model == MODEL for t in llm)
