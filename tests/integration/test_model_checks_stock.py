"""Checks after the model on the stock report (agents.model_checks through the writer).

The model is a scripted one (tests/fixtures/scripted_model.py), not a recording: a local
OpenAI-compatible server that reads the facts each request carries and writes a section with
one sentence of real figures from them and one with figures no tool returned ("1개월간 48.3%
상승, RSI 91.2, 목표주가 250,000원"). Everything behind litellm is real (LangGraph, tools,
PostgreSQL).
"""

from __future__ import annotations

import os
from typing import Any

import pytest

os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"

from agents.stock.service import generate_report
from data_access.config import Settings
from tests.fixtures.scripted_model import (
    ScriptedServer,
    json_after,
    last_user_text,
    scripted_settings,
    system_text,
)

pytestmark = pytest.mark.usefixtures("demo_data")

INVENTED = "1개월간 48.3% 상승, RSI 91.2, 목표주가 250,000원으로 강한 매수 구간입니다."


def stubborn_analyst(request: dict[str, Any]) -> str:
    """Real RSI and price from the facts, then the invented sentence; asked to repair the
    analysis it repeats itself, asked to repair anything else it drops the invented sentence."""
    facts = json_after(last_user_text(request), "Facts (JSON):")
    figures = facts["figures"]
    real = f"RSI(14)는 {figures['rsi14']:.1f}이고 종가는 {figures['price']:,.0f}원입니다."
    repairing = "unverified" in facts
    if repairing and "Section: technical" not in system_text(request):
        return real
    return f"{real} {INVENTED}"


def test_invented_figures_are_removed_and_the_report_is_partial(
    settings: Settings, pg_pool: Any
) -> None:
    with ScriptedServer(stubborn_analyst) as server:
        llm = scripted_settings(settings, "stock", server)
        answer = generate_report("삼성전자", settings=llm, pool=pg_pool, save=False)
        sent = list(server.requests)
    figures = answer.payload["figures"]
    assert answer.mode == "llm" and answer.status == "partial"
    report = answer.answer
    # The real figures stay (the report's own table and the model's real sentence) ...
    assert f"RSI(14)는 {figures['rsi14']:.1f}이고" in report
    assert answer.structured_citations  # ... with the queries behind them
    # ... the invented ones do not: the sentence is gone, a notice says what was removed.
    assert "강한 매수 구간" not in report and "RSI 91.2" not in report
    assert "미확인: 48.3%, 91.2, 250,000원" in report
    assert answer.error and "근거로 확인되지 않은" in answer.error
    # One repair request per section that failed the check; the analysis repeated itself.
    repairs = [json_after(last_user_text(r), "Facts (JSON):") for r in sent]
    repairs = [f for f in repairs if "unverified" in f]
    assert repairs and all(f["unverified"] == ["48.3%", "91.2", "250,000원"] for f in repairs)
    steps = {t.name: t for t in answer.trace if t.kind == "llm"}
    assert steps["analysis"].status == "error" and "미확인" in (steps["analysis"].error or "")
    assert steps["recommendation"].status == "ok"  # its repair removed the claims itself
