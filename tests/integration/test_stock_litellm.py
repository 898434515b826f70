"""The LLM path of the stock workflow: LiteLLMWriter → litellm → a local OpenAI-compatible server
(tests/fixtures/openai_replay.py) replaying tests/fixtures/openai_replay/stock_report.json.
Everything behind the provider boundary is real: litellm, LangGraph, the tools, PostgreSQL.
"""

from __future__ import annotations

import json
import os
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"

from agents.stock.service import generate_report
from data_access.config import Settings
from data_access.postgres import fetch_one
from tests.fixtures.openai_replay import ReplayServer

pytestmark = pytest.mark.usefixtures("demo_data")

RECORDING = Path(__file__).resolve().parents[1] / "fixtures" / "openai_replay" / "stock_report.json"
MODEL = "openai/gpt-4.1-mini"
AS_OF = date(2026, 11, 20)
# A model's analysis that says nothing about earnings (what the review must catch).
OMITTING_ANALYSIS = (
    "[LLM 분석] 애플은 중기 이동평균 위에서 거래되고 있으며, 변동성과 낙폭은 제공된 수치 범위 "
    "안에 있습니다. RSI와 52주 범위 위치는 과열 신호를 보이지 않습니다."
)


@pytest.fixture(scope="module")
def recording() -> dict[str, Any]:
    return dict(json.loads(RECORDING.read_text(encoding="utf-8")))


def llm_settings(settings: Settings, api_base: str, **overrides: Any) -> Settings:
    return settings.model_copy(update={"llm_model_stock": MODEL, "llm_api_base": api_base,
                                       "openai_api_key": SecretStr("replay-key"), **overrides})  # fmt: skip


def _latest_aapl_quarter(pg_pool: Any) -> dict[str, Any]:
    """AAPL's latest reported quarter, read with SQL (the replies below quote its numbers)."""
    row = fetch_one(
        "SELECT period, event_date, eps_estimate, eps_actual FROM earnings_events"
        " WHERE security_id = 'US:AAPL' AND event_date <= %s AND eps_actual IS NOT NULL"
        " ORDER BY event_date DESC LIMIT 1", (AS_OF,), pool=pg_pool,
    )  # fmt: skip
    assert row is not None and row["event_date"] >= AS_OF - timedelta(days=90)
    est, act = float(row["eps_estimate"]), float(row["eps_actual"])
    return {**row, "surprise_pct": (act - est) / abs(est) * 100, "est": est, "act": act}


def test_model_writes_the_sections_from_the_figures(
    recording: dict[str, Any], settings: Settings, pg_pool: Any
) -> None:
    """An analysis that leaves AAPL's latest earnings surprise out: the review fails it and asks
    the model again with the missing item; the replayed rewrite states it."""
    q = _latest_aapl_quarter(pg_pool)
    rewrite = (f"[LLM 분석 보완] 애플의 {q['period']} EPS는 ${q['act']:.2f}로 예상 ${q['est']:.2f} "
               f"대비 {q['surprise_pct']:+.2f}% 빗나갔습니다.")  # fmt: skip
    replies = [OMITTING_ANALYSIS, recording["responses"][1], rewrite, recording["responses"][2]]
    with ReplayServer(replies, model=recording["model"]) as server:
        answer = generate_report("AAPL", settings=llm_settings(settings, server.api_base),
                                 pool=pg_pool, save=False)  # fmt: skip
    assert answer.mode == "llm" and answer.model == MODEL and answer.status == "ok"
    for marker in ("[LLM 분석 보완]", "[LLM 추천]", "[LLM 검토]"):
        assert marker in answer.answer
    assert "[LLM 분석]" not in answer.answer  # replaced by the rewrite
    check = answer.payload["review_check"]
    assert check["passed"] is False and check["missing"] == [f"earnings:{q['period']}"]
    assert check["repaired_by"] == "model" and check["still_missing_after_model"] == []
    assert "설명 점검 실패" in answer.answer and "모델 재작성으로" in answer.answer
    # The figures table and the rule-based, weighed reasons stay whatever the model says.
    assert "## 핵심 지표" in answer.answer and "RSI(14)" in answer.answer
    assert "가중치: 기술적 35%" in answer.answer and "## 실적·기본 지표" in answer.answer
    llm_steps = [t for t in answer.trace if t.kind == "llm"]
    assert [t.name for t in llm_steps] == ["analysis", "recommendation", "analysis", "review"]
    assert all(t.model == MODEL and t.tokens == 1350 for t in llm_steps)
    assert answer.tokens == 4 * 1350 and answer.cost_usd > 0
    # What the model was sent: the section's instructions and the same evidence as JSON.
    assert len(server.requests) == 4
    first = server.requests[0]["messages"]
    assert "technical and fundamental analysis" in first[0]["content"]
    assert "Answer in Korean." in first[0]["content"]
    facts = _facts(server.requests[0])
    assert facts["figures"]["security_id"] == "US:AAPL"
    assert facts["figures"]["price"] == answer.payload["figures"]["price"]
    assert facts["fundamentals"]["quarters"][0]["period"] == q["period"]
    assert facts["events"] == json.loads(json.dumps(
        [{k: v for k, v in e.items() if k != "articles"}
         | {"article_titles": [a["title"] for a in e["articles"]]}
         for e in answer.payload["events"]], default=str))  # fmt: skip
    second = _facts(server.requests[1])
    assert second["view"] == answer.payload["recommendation"]["stance"] and second["reasons"]
    assert set(second["pillars"]) == {"technical", "fundamental", "event"}
    third = _facts(server.requests[2])
    assert len(third["must_explain"]) == 1 and q["period"] in third["must_explain"][0]
    assert f"{q['surprise_pct']:+.2f}%" in third["must_explain"][0]
    review = _facts(server.requests[3])
    assert review["explanation_check"]["missing"] == [f"earnings:{q['period']}"]
    assert review["events"] and review["fundamentals"]["quarters"]


def test_a_rewrite_that_still_omits_the_surprise_is_repaired_with_the_template(
    recording: dict[str, Any], settings: Settings, pg_pool: Any
) -> None:
    q = _latest_aapl_quarter(pg_pool)
    replies = [OMITTING_ANALYSIS, recording["responses"][1], OMITTING_ANALYSIS,
               recording["responses"][2]]  # fmt: skip
    with ReplayServer(replies, model=recording["model"]) as server:
        answer = generate_report("AAPL", settings=llm_settings(settings, server.api_base),
                                 pool=pg_pool, save=False)  # fmt: skip
    check = answer.payload["review_check"]
    assert check["repaired_by"] == "template"
    assert check["still_missing_after_model"] == [f"earnings:{q['period']}"]
    analysis = answer.answer.split("## 분석", 1)[1].split("## 추천", 1)[0]
    assert "**검토 보완**" in analysis and f"{q['surprise_pct']:+.2f}%" in analysis
    assert f"${q['act']:.2f}" in analysis and f"${q['est']:.2f}" in analysis


def test_a_recorded_analysis_that_states_the_surprise_passes_the_review(
    recording: dict[str, Any], settings: Settings, pg_pool: Any
) -> None:
    with ReplayServer(recording["responses"], model=recording["model"]) as server:
        answer = generate_report("AAPL", settings=llm_settings(settings, server.api_base),
                                 pool=pg_pool, save=False)  # fmt: skip
    assert len(server.requests) == 3 and answer.status == "ok"
    check = answer.payload["review_check"]
    assert check["passed"] and check["repaired_by"] is None and check["required"]
    assert "[LLM 분석]" in answer.answer and "**검토 보완**" not in answer.answer


def _facts(request: dict[str, Any]) -> dict[str, Any]:
    return dict(json.loads(request["messages"][1]["content"].split("\n", 1)[1]))


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
