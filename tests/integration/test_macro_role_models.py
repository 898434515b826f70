"""One model per Macro role (seed 004 §2.5), through litellm → the local OpenAI-compatible replay
server (tests/fixtures/openai_replay.py, hand-written replies): each role's setting decides the
model a step's request names, an unset role falls back to the screen's model, and the trace
records the model that answered each step.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from pydantic import SecretStr

os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"

from agents.macro.service import answer_question, make_context
from data_access.config import Settings
from data_access.contracts import AgentAnswer
from tests.fixtures.keyed_replay import KeyedReplayServer
from tests.fixtures.openai_replay import Reply, tool_call, tool_message

pytestmark = pytest.mark.usefixtures("demo_data")

MODEL = "openai/gpt-4.1-mini"
WRITER = "supervisor of a financial research desk"
CPI = "한국 소비자물가 최근 6개월 추이를 보여줘"  # the Macro Economy agent, SQL only
CPI_SQL = ("SELECT obs_date, value FROM macro_observations WHERE series_code = 'KR_CPI' "
           "ORDER BY obs_date DESC LIMIT 6")  # fmt: skip
ROUTE = '{"target_agents": ["macro"], "sql_need": true, "graph_need": false, "reason": "물가"}'
REPLIES: dict[str, list[Reply]] = {
    "[router]": [ROUTE],  # the router refines the rules' route with its model (§7-3)
    "[agent:macro]": [tool_message(tool_call("sql_qa", {"query": CPI_SQL})), "근거 (replay)"],
    WRITER: ["소비자물가는 최근 6개월 완만했습니다. (replay)"],
}


def ask(settings: Settings, pg_pool: Any, graph_store: Any,
        **roles: str) -> tuple[AgentAnswer, KeyedReplayServer]:  # fmt: skip
    with KeyedReplayServer(REPLIES) as server:
        s = settings.model_copy(update={"llm_model_macro": MODEL, "llm_api_base": server.api_base,
                                        "openai_api_key": SecretStr("replay-key"),
                                        "llm_num_retries": 0, **roles})  # fmt: skip
        ctx = make_context(s, pg_pool, graph_store)
        answer = answer_question(CPI, settings=s, pool=pg_pool, store=graph_store, context=ctx)
    return answer, server


def llm_models(answer: AgentAnswer) -> dict[str, set[str | None]]:
    out: dict[str, set[str | None]] = {}
    for t in answer.trace:
        if t.kind == "llm":
            out.setdefault(t.name.split("/")[-1], set()).add(t.model)
    return out


def test_each_role_answers_with_its_own_model(
    settings: Settings, pg_pool: Any, graph_store: Any
) -> None:
    answer, server = ask(settings, pg_pool, graph_store,
                         llm_model_macro_economy="openai/macro-economy-model",
                         llm_model_answer="openai/answer-model",
                         llm_model_equity="openai/equity-model")  # fmt: skip
    assert answer.mode == "llm", answer.error
    loop = server.requests_for("[agent:macro]")
    assert len(loop) == 2 and {r["model"] for r in loop} == {"macro-economy-model"}
    assert [r["model"] for r in server.requests_for(WRITER)] == ["answer-model"]
    models = llm_models(answer)
    assert models["macro_tools"] == {"openai/macro-economy-model"}
    assert models["answer_writer"] == {"openai/answer-model"}


def test_unset_roles_fall_back_to_the_screen_model(
    settings: Settings, pg_pool: Any, graph_store: Any
) -> None:
    answer, server = ask(settings, pg_pool, graph_store, llm_model_equity="openai/equity-model")
    assert {r["model"] for r in server.requests} == {"gpt-4.1-mini"}
    # the router too: role → screen (LLM_MODEL_MACRO) → LLM_MODEL, like every role
    assert llm_models(answer) == {"router_refine": {MODEL}, "macro_tools": {MODEL},
                                  "answer_writer": {MODEL}}  # fmt: skip
    [router] = [t for t in answer.trace if t.name.endswith("router_refine")]
    assert router.status == "ok"


def test_role_settings_resolve_with_fallbacks(settings: Settings) -> None:
    s = settings.model_copy(update={"llm_model": "openai/base", "llm_model_macro": None,
                                    "llm_model_router": None, "llm_model_general": "gemini/g"})  # fmt: skip
    assert s.model_for("general") == "gemini/g"
    assert s.model_for("ontology") == "openai/base"
    assert s.model_for("router") == "openai/base"
    assert s.model_copy(update={"llm_model_macro": "openai/m"}).model_for("equity") == "openai/m"
