"""Fact checks, grading and trace readings of the evaluation backend on hand-made answers (no
stores: `sql_value` facts run against PostgreSQL in tests/integration/test_eval_runner.py)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from pydantic import ValidationError

from agents.eval.facts import check_fact, check_facts, contains, format_value
from agents.eval.judge import grade, primary_category
from agents.eval.models import Fact, GoldenCase, Problem
from agents.eval.traces import (
    cypher_stats,
    fallback_events,
    freshness_status,
    has_freshness_warning,
)
from data_access.contracts import AgentAnswer, Citation, StructuredCitation, TraceStep


def answer(text: str = "", **kw: object) -> AgentAnswer:
    return AgentAnswer(answer=text, mode="offline", **kw)  # type: ignore[arg-type]


def cite(
    dataset: str = "KR_CPI", table: str = "macro_observations", rows: int = 3
) -> StructuredCitation:
    return StructuredCitation(
        dataset_code=dataset, table=table, query_fingerprint="f", row_count=rows
    )


def check(fact: Fact, a: AgentAnswer) -> bool:
    return check_fact(fact, a, pool=None, as_of="2026-11-20").passed


# ------------------------------------------------------------------------------ facts


def test_contains_is_case_and_space_insensitive_but_not_fuzzy() -> None:
    a = answer("**KODEX  200** (069500)\n총보수: 연 0.15%")
    assert check(Fact(kind="contains", text="kodex 200"), a)
    assert check(Fact(kind="contains", text="0.15%"), a)
    assert not check(Fact(kind="contains", text="0.16%"), a)
    assert not check(Fact(kind="contains", text="TIGER 200"), a)
    assert contains("A\n\nB", "a b") and not contains("AB", "a b")


def test_any_of_and_not_contains() -> None:
    a = answer("의견: 중립")
    assert check(Fact(kind="any_of", texts=["매수", "중립"]), a)
    assert not check(Fact(kind="any_of", texts=["매수", "매도"]), a)
    assert check(Fact(kind="not_contains", text="매수"), a)
    result = check_fact(Fact(kind="not_contains", text="중립"), a, pool=None, as_of=None)
    assert not result.passed and "없어야" in result.message


def test_citation_facts_look_at_the_evidence_not_the_text() -> None:
    a = answer("제10조 손해배상", citations=[Citation(doc_id="c#10", title="제10조")],
               structured_citations=[cite("KR_CPI")])  # fmt: skip
    assert check(Fact(kind="cites_document", doc_id="c#10"), a)
    assert not check(Fact(kind="cites_document", doc_id="c#11"), a)
    assert check(Fact(kind="cites_dataset", dataset_code="KR_CPI"), a)
    assert not check(Fact(kind="cites_dataset", dataset_code="UNRATE"), a)


def test_facts_restricted_to_a_mode_are_skipped_in_the_other() -> None:
    facts = [
        Fact(kind="contains", text="offline only", mode="llm"),
        Fact(kind="contains", text="x"),
    ]
    results = check_facts(facts, answer("x"), pool=None, as_of=None)
    assert [r.expected for r in results] == [["x"]]


def test_format_value_as_the_screens_print() -> None:
    assert format_value(Decimal("94000.0000"), "{:,.0f}원") == "94,000원"
    assert format_value(Decimal("0.1500"), "{:g}%") == "0.15%"
    assert format_value(2.25) == "2.25"
    assert format_value(1234.5) == "1,234.50"
    assert format_value(date(2026, 11, 20)) == "2026-11-20"
    assert format_value("삼성자산운용") == "삼성자산운용"
    with pytest.raises(ValueError):
        format_value(None)


def test_incomplete_facts_are_refused() -> None:
    for kind in ("contains", "any_of", "sql_value", "cites_document", "cites_dataset"):
        with pytest.raises(ValidationError):
            Fact(kind=kind)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------ grading


def macro_answer(tool_mode: str, agents: list[str], text: str = "2.25",
                 freshness: dict[str, str] | None = None, **kw: object) -> AgentAnswer:  # fmt: skip
    route = {"intent": "macro", "tool_mode": tool_mode, "target_agents": agents}
    return answer(text, payload={"route": route}, data_freshness=freshness or {"macro": "healthy"},
                  **kw)  # fmt: skip


def case(**kw: object) -> GoldenCase:
    return GoldenCase.model_validate({"id": "c1", "suite": "macro", "question": "q", **kw})


def test_a_clean_answer_passes_and_records_the_route() -> None:
    c = case(expected_tool_mode="single", expected_target_agents=["macro"],
             require_structured_citation=True)  # fmt: skip
    r = grade(c, macro_answer("single", ["macro"], structured_citations=[cite()]), [], 42)
    assert r.passed and r.failure_category is None and not r.problems
    assert (r.tool_mode, r.target_agents, r.structured_citation_count) == ("single", ["macro"], 1)
    assert r.freshness_status == "healthy" and r.latency_ms == 42


def test_routing_mismatch_is_primary_and_every_problem_is_kept() -> None:
    c = case(expected_tool_mode="parallel", expected_target_agents=["macro", "equity"],
             require_structured_citation=True, require_citation=True)  # fmt: skip
    r = grade(c, macro_answer("single", ["macro"]), [], 10)
    assert not r.passed and r.failure_category == "routing_mismatch"
    assert {p.category for p in r.problems} == {"routing_mismatch", "missing_structured_citation",
                                                "missing_citation"}  # fmt: skip
    assert sum(p.category == "routing_mismatch" for p in r.problems) == 2  # mode and agents


def test_target_agent_order_does_not_matter() -> None:
    c = case(expected_target_agents=["ontology", "macro"])
    assert grade(c, macro_answer("single", ["macro", "ontology"]), [], 1).passed


def test_stale_data_without_a_warning_is_freshness_stale() -> None:
    stale = macro_answer("single", ["macro"], text="금리 2.25", freshness={"macro": "stale"})
    r = grade(case(), stale, [], 1)
    assert r.failure_category == "freshness_stale" and r.freshness_status == "stale"
    warned = macro_answer("single", ["macro"], text="⚠️ 최신성 경고: macro=stale",
                          freshness={"macro": "stale"})  # fmt: skip
    assert grade(case(), warned, [], 1).passed
    expected_warning = grade(case(expect_freshness_warning=True), macro_answer("single", ["macro"]),
                             [], 1)  # fmt: skip
    assert expected_warning.failure_category == "freshness_stale"


def test_error_status_and_budget_are_their_own_categories() -> None:
    err = macro_answer("single", ["macro"], status="error", error="boom")
    assert grade(case(expected_tool_mode="parallel"), err, [], 1).failure_category == "error"
    over = macro_answer("single", ["macro"], status="budget_exceeded")
    assert grade(case(), over, [], 1).failure_category == "budget_exceeded"
    partial = macro_answer("single", ["macro"], status="partial")
    assert grade(case(), partial, [], 1).passed
    assert (
        grade(case(expected_status=["ok"]), partial, [], 1).failure_category == "unexpected_status"
    )


def test_wrong_fact_and_fact_error_are_told_apart() -> None:
    facts = [Fact(kind="contains", text="3.25")]
    results = check_facts(facts, macro_answer("single", ["macro"]), pool=None, as_of=None)
    r = grade(case(), macro_answer("single", ["macro"]), results, 1)
    assert r.failure_category == "wrong_fact" and "3.25" in r.problems[0].message
    assert primary_category([Problem(category="fact_error", message=""),
                             Problem(category="wrong_fact", message="")]) == "wrong_fact"  # fmt: skip
    assert primary_category([]) is None


# ------------------------------------------------------------------------------ trace readings


def step(i: int, kind: str, name: str, **kw: object) -> TraceStep:
    return TraceStep(step=i, kind=kind, name=name, **kw)  # type: ignore[arg-type]


def test_macro_cypher_stats_read_templates_validator_guard_and_recheck() -> None:
    trace = [
        step(1, "tool", "ontology/cypher:theme_evidence", observation="0 rows"),
        step(2, "guard", "ontology/empty_recheck", observation="0 paths: 패턴 자체가 비어 있음"),
        step(3, "tool", "macro/sql:macro_series_window", observation="12 rows"),
        step(4, "guard", "ontology/direction_validator", status="rejected",
             error="(:Event)-[:SUPPORTS]->(:Evidence) is not in the schema (reversed)"),
        step(5, "guard", "ontology/cypher_guard", status="rejected", error="CREATE"),
        step(6, "tool", "ontology/cypher:text2cypher", status="error",
             error="unknown relationship type FOO"),
        step(7, "tool", "ontology/cypher:graphrag_expand", observation="5 rows"),
    ]  # fmt: skip
    s = cypher_stats(answer(trace=trace), "macro")
    assert (s.runs, s.schema_mismatch, s.empty, s.direction_empty, s.rejected) == (5, 2, 1, 2, 1)


def test_etf_cypher_stats_read_graph_citations_and_failed_graph_queries() -> None:
    a = answer(structured_citations=[cite("KR_ETF_MASTER", "graph:ETF", 1),
                                     cite("KR_ETF_HOLDINGS", "graph:(ETF)-[:HOLDS]->(Stock)", 0),
                                     cite("KR_ETF_DAILY_PRICE", "etf_prices", 20)],
               trace=[step(1, "tool", "graph_query", status="rejected", error="쿼리가 거부"),
                      step(1, "tool", "graph_query", status="ok")])  # fmt: skip
    s = cypher_stats(a, "etf")
    assert (s.runs, s.empty, s.rejected, s.schema_mismatch) == (3, 1, 1, 0)


def test_no_cypher_reads_as_zero_runs() -> None:
    assert cypher_stats(answer(trace=[step(1, "tool", "stock_data_tool")]), "stock").runs == 0


def test_fallback_events_per_screen() -> None:
    trace = [step(1, "guard", "macro/fallback", observation="a → b (empty)"),
             step(2, "tool", "ontology/vector:document_text_embedding_idx", status="error"),
             step(3, "llm", "answer_writer", status="error")]  # fmt: skip
    payload = {"companion_used": True, "web_fallback": {"calls": 1}, "degraded": "graph down"}
    events = fallback_events(answer(trace=trace, payload=payload), "macro")
    assert len(events) == 6 and events[0] == "template: a → b (empty)"
    from agents.etf.service import APOLOGY

    assert fallback_events(answer(APOLOGY), "etf") == ["etf: 사과 응답 (3단계)"]
    assert len(fallback_events(answer("last obs", status="partial"), "etf")) == 1
    assert fallback_events(answer("ok"), "etf") == [] and fallback_events(answer(), "stock") == []


def test_freshness_readings() -> None:
    assert freshness_status(answer()) == "none"
    assert (
        freshness_status(answer(data_freshness={"a": "healthy", "b": "missing", "c": "stale"}))
        == "missing"
    )
    assert has_freshness_warning(answer("> ⚠️ 최신성 경고: macro=stale"))
    assert not has_freshness_warning(answer("금리는 2.25%"))
