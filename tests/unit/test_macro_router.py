"""Router on a labelled set (seed 004 §2.1-2.2, §8.2): agents, tool mode, ids, dates, reasons."""

from __future__ import annotations

from typing import Any

import pytest

from agents.macro.router import route

pytestmark = pytest.mark.usefixtures("demo_data")

CASES = [
    ("한국 기준금리 최근 추이는?", ["macro"], "single"),
    ("삼성전자 최근 3개월 수익률과 하락 원인은?", ["equity"], "parallel"),
    ("서울 강남구 아파트 전세가율 추이", ["real_estate"], "single"),
    ("금리와 부동산 집값 관계", ["macro", "real_estate", "ontology"], "parallel"),
    ("오늘 날씨 어때?", ["general_knowledge"], "llm_direct"),
    ("What is the latest US CPI?", ["macro"], "single"),
    ("Why did NVDA fall? show the 20 days return", ["equity"], "parallel"),
    ("이번 주 이슈 뉴스 근거", ["ontology"], "single"),
]


@pytest.mark.parametrize(("question", "agents", "mode"), CASES)
def test_labelled_routes(question: str, agents: list[str], mode: str, pg_pool: Any) -> None:
    r = route(question, pg_pool)
    assert r.target_agents == agents and r.tool_mode == mode
    assert r.reasons


def test_normalization(pg_pool: Any) -> None:
    assert route("삼성전자 주가", pg_pool).matched_security_ids == ["KR:005930"]
    assert route("005930 주가", pg_pool).matched_security_ids == ["KR:005930"]
    assert route("AAPL 실적", pg_pool).matched_security_ids == ["US:AAPL"]
    r = route("2026-10-31 기준 원달러 환율", pg_pool)
    assert r.requested_as_of_date == "2026-10-31" and r.indicator_codes == ["KR_USDKRW"]
    assert route("What is the latest US CPI?", pg_pool).language == "en"
    assert route("삼성전자 6개월 수익률", pg_pool).period_months == 6


def test_general_route_has_no_data_need(pg_pool: Any) -> None:
    r = route("파스타 레시피 알려줘", pg_pool)
    assert not r.sql_need and not r.graph_need and r.tool_mode == "llm_direct"
