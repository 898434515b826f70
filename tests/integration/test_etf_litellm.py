"""The LLM path of the ETF agent: smolagents `LiteLLMModel` → litellm → a local OpenAI-compatible
HTTP server (tests/fixtures/openai_replay.py) that replays the CodeAgent responses in
tests/fixtures/openai_replay/etf_compare.json in the OpenAI wire format. Everything behind the
provider boundary is real: litellm, smolagents' executor, the tools, PostgreSQL and the graph.
LITELLM_LOCAL_MODEL_COST_MAP=True keeps litellm's price table local (no network).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"

from agents.etf.service import answer_question
from data_access.config import Settings
from data_access.postgres import fetch_all
from tests.fixtures.openai_replay import ReplayServer

pytestmark = pytest.mark.usefixtures("demo_data")

RECORDING = Path(__file__).resolve().parents[1] / "fixtures" / "openai_replay" / "etf_compare.json"
MODEL = "openai/gpt-4.1-mini"


@pytest.fixture(scope="module")
def recording(pg_pool: Any) -> dict[str, Any]:
    return json.loads(RECORDING.read_text(encoding="utf-8"))


def llm_settings(settings: Settings, api_base: str, **overrides: Any) -> Settings:
    return settings.model_copy(update={"llm_model_etf": MODEL, "llm_api_base": api_base,
                                       "openai_api_key": SecretStr("replay-key"), **overrides})  # fmt: skip


def test_litellm_turn_runs_the_recorded_code_against_real_tools(
    recording: dict[str, Any], settings: Settings, pg_pool: Any, graph_store: Any
) -> None:
    with ReplayServer(recording["responses"], model=recording["model"]) as server:
        answer = answer_question(
            "KODEX 200과 TIGER 200 비교해줘",
            settings=llm_settings(settings, server.api_base), store=graph_store, pool=pg_pool,
        )  # fmt: skip
    assert answer.mode == "llm" and answer.model == MODEL and answer.status == "ok"
    ratios = {
        r["code"]: float(r["expense_ratio"])
        for r in fetch_all(
            "SELECT code, expense_ratio FROM etfs WHERE code IN ('069500', '102110')", pool=pg_pool
        )
    }
    assert f"| 총보수(%) | {ratios['069500']} | {ratios['102110']} |" in answer.answer
    tools = [t.name for t in answer.trace if t.kind == "tool"]
    assert tools == ["etf_search", "etf_search", "compare_etfs"]
    code_steps = [t for t in answer.trace if t.kind == "code"]
    assert len(code_steps) == 3 and all(t.model == MODEL for t in code_steps)
    assert answer.tokens == 3 * (1200 + 150)
    assert answer.cost_usd > 0  # litellm prices gpt-4.1-mini from its local table
    assert answer.payload["compare_prices"].keys() == {"069500", "102110"}
    # What the model was sent: the seed's tool-order rules and the question, then observations.
    first, third = server.requests[0], server.requests[2]
    system = json.dumps(first["messages"][0], ensure_ascii=False)
    assert "stock_search로 종목 코드를 먼저" in system and "graph_query" in system
    assert "현재 질문: KODEX 200과 TIGER 200 비교해줘" in json.dumps(first, ensure_ascii=False)
    assert "069500" in json.dumps(third["messages"][-1], ensure_ascii=False)


def test_turn_budget_stops_the_run_cleanly(
    recording: dict[str, Any], settings: Settings, pg_pool: Any, graph_store: Any
) -> None:
    with ReplayServer(recording["responses"]) as server:
        answer = answer_question(
            "KODEX 200과 TIGER 200 비교해줘",
            settings=llm_settings(settings, server.api_base, llm_max_tokens_per_turn=2000),
            store=graph_store, pool=pg_pool,
        )  # fmt: skip
        sent = len(server.requests)
    assert answer.status == "budget_exceeded"
    assert "사용 한도를 넘어" in answer.answer and "2,700/2,000" in (answer.error or "")
    assert sent == 2  # stopped after the step that crossed the budget
