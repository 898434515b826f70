"""Checks after the model on the ETF chat (agents.model_checks through agents/etf/llm.py).

The model is a scripted one (tests/fixtures/scripted_model.py), not a recording: a local
OpenAI-compatible server whose replies are decided per request by the functions below.
- `inventor` calls `get_etf_info` it is offered, then answers with the real expense ratio from
  the observation and an expense ratio and net assets no tool returned, and repeats itself
  after the final-answer check refuses it once;
- `failing_coder` writes code that fails on every step; asked for a closing answer at the step
  limit it sends a raw code block.
Everything behind litellm is real: smolagents' executor, the tools, PostgreSQL and the graph.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"

from agents.etf.agent import MAX_STEPS
from agents.etf.llm import MAX_STEPS_TEXT
from agents.etf.service import answer_question
from data_access.config import Settings
from data_access.contracts import AgentAnswer
from tests.fixtures.scripted_model import ScriptedServer, scripted_settings, system_text, text_of

pytestmark = pytest.mark.usefixtures("demo_data")

QUESTION = "KODEX 200 총보수 알려줘"
INVENTED = "순자산은 7조 1,234억원이고 총보수는 업계 최저인 0.45%입니다."
RAW_CLOSING = "<code>\nfinal_answer('총보수 9.99%, 순자산 99조원')\n</code>"


def steps_taken(request: dict[str, Any]) -> int:
    return sum(1 for m in request["messages"] if m["role"] == "assistant")


def inventor(request: dict[str, Any]) -> str:
    if steps_taken(request) == 0:
        return ('Thought: 정보를 조회합니다.\n<code>\nimport json\ninfo = json.loads(get_etf_info("069500"))\n'
                'print(info["expense_ratio"])\n</code>')  # fmt: skip
    return ("Thought: 답합니다.\n<code>\nfinal_answer(f\"KODEX 200의 총보수는 "
            f"{{info['expense_ratio']}}%입니다. {INVENTED}\")\n</code>")  # fmt: skip


def failing_coder(request: dict[str, Any]) -> str:
    if "got stuck" in system_text(request) or any(
        "got stuck" in text_of(m) for m in request["messages"]
    ):
        return RAW_CLOSING
    return 'Thought: 다시 시도합니다.\n<code>\nresult = not_a_tool("069500")\n</code>'


def ask(script: Any, settings: Settings, pg_pool: Any, graph_store: Any) -> AgentAnswer:
    with ScriptedServer(script) as server:
        s = scripted_settings(settings, "etf", server)
        return answer_question(QUESTION, settings=s, store=graph_store, pool=pg_pool)


def test_figures_no_tool_observed_are_removed(
    settings: Settings, pg_pool: Any, graph_store: Any
) -> None:
    answer = ask(inventor, settings, pg_pool, graph_store)
    assert answer.mode == "llm" and answer.status == "partial"
    body = answer.answer.split("⚠️", 1)[0]
    assert "KODEX 200의 총보수는 0.15%입니다." in body  # observed: kept, with its query cited
    assert any(c.dataset_code == "KR_ETF_MASTER" for c in answer.structured_citations)
    assert "7조" not in body and "0.45%" not in body
    assert "미확인: 7조 1,234억원, 0.45%" in answer.answer and answer.error
    # The first final_answer was refused once with the list (the model's repair chance).
    refused = [t for t in answer.trace if t.kind == "code" and "evidence_check" in (t.error or "")]
    assert len(refused) == 1 and "7조 1,234억원, 0.45%" in (refused[0].error or "")


def test_a_model_that_fails_every_step_never_has_its_text_shown(
    settings: Settings, pg_pool: Any, graph_store: Any
) -> None:
    answer = ask(failing_coder, settings, pg_pool, graph_store)
    offline = answer_question(QUESTION, settings=settings, store=graph_store, pool=pg_pool)
    model_steps = [t for t in answer.trace if t.kind == "code" and t.model == "openai/scripted"]
    assert len(model_steps) >= MAX_STEPS and all(t.status == "error" for t in model_steps)
    assert answer.status == "partial" and answer.error == MAX_STEPS_TEXT
    assert "<code>" not in answer.answer and "9.99%" not in answer.answer
    assert answer.answer == offline.answer and offline.status == "ok"  # the planner answered
    assert any(t.model == "offline-planner" for t in answer.trace if t.kind == "code")
