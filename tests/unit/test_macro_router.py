"""Router on a labelled set (seed 004 §2.1-2.2, §8.2): agents, tool mode, ids, dates, reasons.

Labels come from the seed's rules, not from running the router:
- agents (§2.1, §8.2): 금리/물가/고용/환율 → macro; ticker/종목/주가/실적/공시/OHLCV → equity;
  지역·실거래/전세/미분양/인허가/집값 → real_estate; relationship/path/causal chain → ontology
  added; news/theme evidence with no domain → ontology alone; non-financial → general_knowledge.
- tool mode (§2.2 matrix): SQL and Graph → parallel; one of them → single; neither →
  llm_direct. A composite question over two or more domains runs in parallel (§2.1-4).
  SQL = raw numbers (추이, 수익률, 거래량, 기간 비교, 최신값); Graph = why/news/event/theme/path.
  A sector word ('기술주') is a theme, not a 종목: the seed's own example "이번 주 금리 이슈가
  기술주에 준 영향 경로" is Graph single.
"""

from __future__ import annotations

from typing import Any

import pytest

from agents.macro.router import route

pytestmark = pytest.mark.usefixtures("demo_data")

M, E, R, ONT, G = "macro", "equity", "real_estate", "ontology", "general_knowledge"

# (question, agents, tool_mode, security_ids or None (not checked), as_of or None)
CASES: list[tuple[str, set[str], str, list[str] | None, str | None]] = [
    # macro, SQL single
    ("한국 기준금리 최근 추이는?", {M}, "single", [], None),
    ("What is the latest US CPI?", {M}, "single", [], None),
    ("미국 10년물 국채금리 최근 6개월 변화", {M}, "single", [], None),
    ("원달러 환율 지금 얼마야?", {M}, "single", [], None),
    ("US unemployment rate trend over the last 12 months", {M}, "single", [], None),
    ("VIX 현재 수준", {M}, "single", [], None),
    ("2026-10-31 기준 한국 소비자물가", {M}, "single", [], "2026-10-31"),
    ("2025-06-30 기준 미국 실업률", {M}, "single", [], "2025-06-30"),
    # macro, SQL + Graph parallel / Graph single
    ("한국 기준금리 최근 추이와 원인", {M}, "parallel", [], None),
    (
        "Why did the 10-year treasury yield rise, and what is the latest value?",
        {M},
        "parallel",
        [],
        None,
    ),
    ("미국 물가가 오른 이유는?", {M}, "single", [], None),
    # equity, SQL single
    ("삼성전자 주가", {E}, "single", ["KR:005930"], None),
    ("005930 최근 20일 거래량", {E}, "single", ["KR:005930"], None),
    ("AAPL 실적", {E}, "single", ["US:AAPL"], None),
    ("Show NVDA share price over the last 3 months", {E}, "single", ["US:NVDA"], None),
    ("KB금융 시가총액과 PER", {E}, "single", ["KR:105560"], None),
    ("현대차 고점 대비 하락률", {E}, "single", ["KR:005380"], None),
    ("TSLA 최근 거래량", {E}, "single", ["US:TSLA"], None),
    ("NAVER와 카카오 주가 비교", {E}, "single", ["KR:035420", "KR:035720"], None),
    ("KR_TOP50 오늘 거래대금 상위 10개", {E}, "single", [], None),  # seed §2.2: SQL single
    ("As of 2026-09-30, what was Apple's stock price?", {E}, "single", ["US:AAPL"], "2026-09-30"),
    # equity, parallel / Graph single
    ("삼성전자 최근 3개월 수익률과 하락 원인은?", {E}, "parallel", ["KR:005930"], None),
    ("Why did NVDA fall? show the 20 days return", {E}, "parallel", ["US:NVDA"], None),
    ("팔란티어 2월 이후 하락 원인과 수급/가격 흐름", {E}, "parallel", ["US:PLTR"], None),
    (
        "2026년 3월 9일 기준 SK하이닉스 주가와 하락 이유",
        {E},
        "parallel",
        ["KR:000660"],
        "2026-03-09",
    ),
    ("엔비디아 관련 뉴스 근거", {E}, "single", ["US:NVDA"], None),
    ("why is Samsung Electronics down?", {E}, "parallel", ["KR:005930"], None),  # a move: SQL too
    ("삼성전자 요즘 왜 약해", {E}, "parallel", ["KR:005930"], None),
    ("삼성전자 무슨 일이야", {E}, "parallel", ["KR:005930"], None),  # a why with no direction
    # a reaction to an event: how the series moved around it (SQL) beside the event (graph)
    ("FOMC 발표 후 환율 어떻게 움직였어", {M}, "parallel", [], None),
    ("how did USD/KRW react to the FOMC decision", {M}, "parallel", [], None),
    # real estate
    ("서울 강남구 아파트 전세가율 추이", {R}, "single", [], None),
    ("부산 미분양 주택 최근 현황", {R}, "single", [], None),
    ("Seoul apartment house price trend", {R}, "single", [], None),
    ("분당 아파트 실거래가 최근 6개월", {R}, "single", [], None),
    ("강남구 집값이 최근 6개월 오른 원인은?", {R}, "parallel", [], None),
    # composite (two domains → parallel) and relationship (ontology added)
    ("금리와 부동산 집값 관계", {M, R, ONT}, "parallel", [], None),
    ("환율 상승이 삼성전자 주가에 미친 영향", {M, E}, "parallel", ["KR:005930"], None),
    (
        "Compare US CPI and Samsung Electronics stock return over 6 months",
        {M, E},
        "parallel",
        ["KR:005930"],
        None,
    ),
    ("이번 주 금리 이슈가 기술주에 준 영향 경로", {M, ONT}, "single", [], None),  # seed §2.2
    ("미국 금리 인상이 기술주에 준 영향 경로는?", {M, ONT}, "single", [], None),
    ("원달러 환율에 영향을 준 이벤트 경로는?", {M, ONT}, "single", [], None),
    (
        "What is the relationship between US inflation and treasury yields?",
        {M, ONT},
        "single",
        [],
        None,
    ),
    (
        "삼성전자 최근 1개월 수익률과 반도체 규제 이벤트의 연관 관계",
        {E, ONT},
        "parallel",
        ["KR:005930"],
        None,
    ),
    # ontology alone (news / themes, no domain)
    ("이번 주 이슈 뉴스 근거", {ONT}, "single", [], None),
    ("관세 이슈와 반도체 테마의 연관 관계", {ONT}, "single", [], None),
    ("상호관세 발표 뉴스가 시장에 준 파급", {ONT}, "single", [], None),
    # general knowledge: no DB or graph
    ("오늘 날씨 어때?", {G}, "llm_direct", [], None),
    ("파스타 레시피 알려줘", {G}, "llm_direct", [], None),
    ("Recommend a good movie for tonight", {G}, "llm_direct", [], None),
    ("대한민국의 수도는 어디야?", {G}, "llm_direct", [], None),
    ("How do I say hello in French?", {G}, "llm_direct", [], None),
    ("부산 여행 코스 추천해줘", {G}, "llm_direct", [], None),
]


def _correct(r: Any, agents: set[str], mode: str, ids: list[str] | None, as_of: str | None) -> bool:
    return (
        set(r.target_agents) == agents
        and len(r.target_agents) == len(agents)
        and r.tool_mode == mode
        and (ids is None or r.matched_security_ids == ids)
        and r.requested_as_of_date == as_of
    )


@pytest.mark.parametrize(("question", "agents", "mode", "ids", "as_of"), CASES)
def test_labelled_routes(question: str, agents: set[str], mode: str, ids: list[str] | None,
                         as_of: str | None, pg_pool: Any) -> None:  # fmt: skip
    r = route(question, pg_pool)
    assert _correct(r, agents, mode, ids, as_of), r.model_dump(exclude={"question"})
    assert r.reasons
    if mode == "llm_direct":
        assert not r.sql_need and not r.graph_need
    else:
        assert (r.sql_need and r.graph_need) == (mode == "parallel") or len(agents - {ONT}) > 1


def test_labelled_set_coverage_and_accuracy(pg_pool: Any) -> None:
    """The set covers every agent and mode in both languages; the router gets all of it."""
    assert len(CASES) >= 40
    assert set().union(*(c[1] for c in CASES)) == {M, E, R, ONT, G}
    assert {c[2] for c in CASES} == {"single", "parallel", "llm_direct"}
    assert {route(c[0], pg_pool).language for c in CASES} == {"ko", "en"}
    correct = sum(_correct(route(q, pg_pool), a, m, i, d) for q, a, m, i, d in CASES)
    assert correct == len(CASES), f"router accuracy {correct}/{len(CASES)}"


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
