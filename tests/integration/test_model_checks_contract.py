"""Checks after the model on the contract screen (agents.model_checks in LlmSession.synthesize).

The model is a scripted one (tests/fixtures/scripted_model.py), not a recording: offered the
registry's tools it calls `hybrid_search` with the question, and as the writer it answers
"반품은 제99조 ③에 따라 90일 이내" about the FTC e-commerce terms (24 articles; its 제15조 says 7일)
beside one sentence the clauses back. Everything behind litellm is real: LangGraph, the
registry, the tools, PostgreSQL.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"

from agents.contract import prompts
from agents.contract.service import ask, ingest_file
from data_access.config import Settings
from tests.fixtures.openai_replay import Reply, tool_call, tool_message
from tests.fixtures.scripted_model import (
    ScriptedServer,
    last_user_text,
    scripted_settings,
    system_text,
)

TERMS = Path(__file__).resolve().parents[1] / "fixtures" / "contracts" / "ecommerce_terms.md"
QUESTION = "반품은 며칠 안에 할 수 있나요?"
INVENTED = "반품은 제99조 ③에 따라 90일 이내에 가능합니다."
BACKED = "청약철회는 제15조(청약철회 등)에 따라 7일 이내에 할 수 있습니다."


def writer(request: dict[str, Any]) -> Reply:
    """Calls the search tool it is offered, then writes the invented sentence beside a backed
    one, and repeats itself when asked to repair."""
    if request.get("tools"):
        return tool_message(tool_call("hybrid_search", {
            "topics": [{"topic_name": "반품", "queries": [last_user_text(request)]}]}))  # fmt: skip
    if system_text(request) == prompts.JUDGE_SYSTEM:
        return "판단 불가"  # unreadable: the judge falls back to the top five by score
    return f"{INVENTED} {BACKED}"


@pytest.fixture(scope="module")
def terms(pg_pool: Any, settings: Settings) -> str:
    return ingest_file("ecommerce_terms.md", TERMS.read_bytes(), pool=pg_pool,
                       settings=settings).contract_id  # fmt: skip


def test_an_article_the_contract_does_not_have_is_removed(
    terms: str, settings: Settings, pg_pool: Any
) -> None:
    with ScriptedServer(writer) as server:
        llm = scripted_settings(settings, "contract", server)
        answer = ask(terms, QUESTION, pool=pg_pool, settings=llm, save=False)
        sent = list(server.requests)
    assert answer.mode == "llm" and answer.status == "partial"
    assert BACKED in answer.answer and "제99조" not in answer.answer.split("⚠️")[0]
    assert "90일" not in answer.answer.split("⚠️")[0]
    assert "미확인: 제99조 ③, 90일" in answer.answer
    assert answer.error and "근거로 확인되지 않은" in answer.error
    assert any(c.title and "청약철회" in c.title for c in answer.citations)
    # The repair request went out once, naming what failed; the model repeated itself.
    repairs = [r for r in sent if "확인되지 않는" in last_user_text(r)]
    assert len(repairs) == 1 and "제99조 ③, 90일" in last_user_text(repairs[0])
    check = next(t for t in answer.trace if t.name == "model_check")
    assert check.status == "error" and check.arguments["repaired"] is True
    assert json.dumps(check.arguments["found"], ensure_ascii=False) == '["제99조 ③", "90일"]'
