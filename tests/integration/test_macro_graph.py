"""Macro Q&A turns through the real LangGraph supervisor, PostgreSQL and FalkorDB."""

from __future__ import annotations

from typing import Any

import pytest

from agents.macro.ontology import graph_schema, validate_cypher_direction
from agents.macro.service import answer_question
from data_access.postgres import fetch_all

pytestmark = pytest.mark.usefixtures("demo_data")


def test_single_macro_numbers_match_sql(pg_pool: Any, graph_store: Any) -> None:
    answer = answer_question("한국 기준금리 최근 추이는?", pool=pg_pool, store=graph_store)
    latest = fetch_all(
        "SELECT value FROM macro_observations WHERE series_code = 'KR_BASE_RATE' "
        "AND obs_date <= '2026-11-20' ORDER BY obs_date DESC LIMIT 1",
        pool=pg_pool,
    )[0]["value"]
    assert f"최신값 {latest:,.2f}" in answer.answer
    assert answer.mode == "offline" and answer.payload["route"]["tool_mode"] == "single"
    assert answer.structured_citations and not answer.citations
    assert answer.structured_citations[0].dataset_code == "KR_BASE_RATE"


def test_parallel_equity_has_both_citation_kinds(pg_pool: Any, graph_store: Any) -> None:
    answer = answer_question(
        "삼성전자 최근 3개월 수익률과 하락 원인은?", pool=pg_pool, store=graph_store
    )
    close = fetch_all(
        "SELECT close FROM stock_prices WHERE security_id = 'KR:005930' "
        "ORDER BY trade_date DESC LIMIT 1",
        pool=pg_pool,
    )[0]["close"]
    assert f"삼성전자(005930) 종가 {float(close):,.0f}원" in answer.answer
    assert answer.payload["route"]["tool_mode"] == "parallel"
    # the trace in the analyst's words, not 'equity: ok' / '라우팅: equity → equity (parallel)'
    said = {t.name: t.observation for t in answer.trace if t.kind == "node"}
    assert said["router"] == "경로: 주식 (병렬)"
    assert said["agent"].startswith("주식 담당: 완료, 핵심 ")
    assert answer.citations and answer.structured_citations
    assert {c.table for c in answer.structured_citations} >= {"stock_prices"}


def test_general_answer_has_no_structured_citation(pg_pool: Any, graph_store: Any) -> None:
    answer = answer_question("오늘 날씨 어때?", pool=pg_pool, store=graph_store)
    assert not answer.structured_citations and not answer.citations
    assert "오프라인" in answer.answer


def test_empty_result_runs_fallback_and_recheck(pg_pool: Any, graph_store: Any) -> None:
    answer = answer_question(
        "2020-01-05 기준 원달러 환율 영향 경로", pool=pg_pool, store=graph_store
    )
    names = [t.name for t in answer.trace]
    assert any(n.endswith("fallback") for n in names)
    assert answer.as_of_date == "2020-01-05"


def test_graph_down_degrades_to_sql(pg_pool: Any, graph_store: Any) -> None:
    class Down:
        def health(self) -> bool:
            return False

    answer = answer_question("한국 기준금리 추이와 원인", pool=pg_pool, store=Down())  # type: ignore[arg-type]
    assert answer.structured_citations and "그래프 저장소" in answer.answer


def test_direction_validator(graph_store: Any) -> None:
    schema = graph_schema(graph_store)
    good = "MATCH (v:Evidence)-[:SUPPORTS]->(e:Event)-[:AFFECTS]->(i:EconomicIndicator) RETURN v"
    bad = "MATCH (e:Event)-[:SUPPORTS]->(v:Evidence) RETURN v"
    assert validate_cypher_direction(good, schema) == []
    assert "reversed" in validate_cypher_direction(bad, schema)[0]


def test_bad_input_is_a_clear_message(pg_pool: Any) -> None:
    assert answer_question("   ", pool=pg_pool).status == "error"
    assert "너무 깁니다" in answer_question("가" * 100_000, pool=pg_pool).answer
