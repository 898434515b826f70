"""The LLM path of the stock workflow: LiteLLMWriter → litellm → a local OpenAI-compatible server
(tests/fixtures/openai_replay.py) replaying tests/fixtures/openai_replay/stock_report.json.
Everything behind the provider boundary is real: litellm, LangGraph, the tools, PostgreSQL.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"

from agents.stock.service import generate_report
from data_access.config import Settings
from tests.fixtures.openai_replay import ReplayServer

pytestmark = pytest.mark.usefixtures("demo_data")

RECORDING = Path(__file__).resolve().parents[1] / "fixtures" / "openai_replay" / "stock_report.json"
MODEL = "openai/gpt-4.1-mini"


@pytest.fixture(scope="module")
def recording() -> dict[str, Any]:
    return dict(json.loads(RECORDING.read_text(encoding="utf-8")))


def llm_settings(settings: Settings, api_base: str, **overrides: Any) -> Settings:
    return settings.model_copy(update={"llm_model_stock": MODEL, "llm_api_base": api_base,
                                       "openai_api_key": SecretStr("replay-key"), **overrides})  # fmt: skip


def test_model_writes_the_sections_from_the_figures(
    recording: dict[str, Any], settings: Settings, pg_pool: Any
) -> None:
    with ReplayServer(recording["responses"], model=recording["model"]) as server:
        answer = generate_report("AAPL", settings=llm_settings(settings, server.api_base),
                                 pool=pg_pool, save=False)  # fmt: skip
    assert answer.mode == "llm" and answer.model == MODEL and answer.status == "ok"
    for marker in ("[LLM 분석]", "[LLM 추천]", "[LLM 검토]"):
        assert marker in answer.answer
    # The figures table and the rule-based reasons stay in the report whatever the model says.
    assert "## 핵심 지표" in answer.answer and "RSI(14)" in answer.answer
    llm_steps = [t for t in answer.trace if t.kind == "llm"]
    assert [t.name for t in llm_steps] == ["analysis", "recommendation", "review"]
    assert all(t.model == MODEL and t.tokens == 1350 for t in llm_steps)
    assert answer.tokens == 3 * 1350 and answer.cost_usd > 0
    # What the model was sent: the section's instructions and the computed figures as JSON.
    assert len(server.requests) == 3
    first = server.requests[0]["messages"]
    assert "technical and fundamental analysis" in first[0]["content"]
    assert "Answer in Korean." in first[0]["content"]
    facts = json.loads(first[1]["content"].split("\n", 1)[1])
    assert facts["figures"]["security_id"] == "US:AAPL"
    assert facts["figures"]["price"] == answer.payload["figures"]["price"]
    second = json.loads(server.requests[1]["messages"][1]["content"].split("\n", 1)[1])
    assert second["view"] == answer.payload["recommendation"]["stance"] and second["reasons"]


def test_turn_budget_stops_model_calls_and_says_so(
    recording: dict[str, Any], settings: Settings, pg_pool: Any
) -> None:
    with ReplayServer(recording["responses"]) as server:
        answer = generate_report(
            "AAPL", settings=llm_settings(settings, server.api_base, llm_max_tokens_per_turn=2000),
            pool=pg_pool, save=False,
        )  # fmt: skip
        sent = len(server.requests)
    assert sent == 2  # the second call crossed 2,000 tokens; the review was not sent
    assert answer.status == "budget_exceeded" and "2,700/2,000" in (answer.error or "")
    assert "[LLM 검토]" not in answer.answer and "## 검토" in answer.answer
    assert "사용 한도를 넘어" in answer.answer


def test_provider_failure_falls_back_to_templates(settings: Settings, pg_pool: Any) -> None:
    dead = llm_settings(settings, "http://127.0.0.1:9/v1")
    answer = generate_report("AAPL", settings=dead, pool=pg_pool, save=False)
    assert answer.mode == "llm" and answer.status == "partial"
    assert "LLM 호출 실패" in (answer.error or "")
    assert "## 분석" in answer.answer and "RSI(14)" in answer.answer
