"""The §6 KPI computations and the weekly summary on hand-made stored runs, including the edge
cases: no runs, every case an error, no Cypher at all, no stale data."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from agents.eval.kpi import (
    block_rate,
    cypher_schema_ok,
    direction_empty_rate,
    evidence_rate,
    fallback_per_turn,
    kpi_report,
    p95_latency,
    pass_rate,
    percentile,
    routing_accuracy,
    stale_assertion_rate,
)
from agents.eval.models import CaseResult, CypherStats, GuardStats, Problem, SuiteRun
from agents.eval.weekly import run_pass_rate, summarize

NOW = datetime(2026, 11, 23, 8, 20, tzinfo=UTC)


def r(case_id: str = "c", suite: str = "macro", passed: bool = True, **kw: object) -> CaseResult:
    base: dict[str, object] = {"suite": suite, "case_id": case_id, "question": "q", "passed": passed,
                               "mode": "offline", "status": "ok"}  # fmt: skip
    return CaseResult.model_validate({**base, **kw})


def crashed(case_id: str = "x", suite: str = "macro") -> CaseResult:
    """What the runner records for a case that raised: no mode, category error."""
    return CaseResult(suite=suite, case_id=case_id, question="q", passed=False, status="error",  # type: ignore[arg-type]
                      failure_category="error", problems=[Problem(category="error", message="boom")])  # fmt: skip


MISMATCH = [Problem(category="routing_mismatch", message="tool_mode")]


# ------------------------------------------------------------------------------ each KPI


def test_evidence_rate_leaves_out_general_knowledge_and_crashes() -> None:
    results = [r("a", structured_citation_count=2), r("b", citation_count=1),
               r("c", tool_mode="single"), r("g", tool_mode="llm_direct"), crashed(),
               r("h", suite="guard")]  # fmt: skip
    k = evidence_rate(results)
    assert (k.numerator, k.denominator, k.value, k.met) == (2, 3, 66.67, False)
    assert k.target == 95.0 and k.comparator == ">="


def test_cypher_kpis_from_run_counts() -> None:
    results = [r("a", cypher=CypherStats(runs=99, schema_mismatch=1, direction_empty=0)),
               r("b", cypher=CypherStats(runs=1, schema_mismatch=0, direction_empty=1))]  # fmt: skip
    ok, empty = cypher_schema_ok(results), direction_empty_rate(results)
    assert (ok.value, ok.met) == (99.0, True)
    assert (empty.value, empty.met, empty.comparator) == (1.0, True, "<=")
    worse = [*results, r("c", cypher=CypherStats(runs=100, schema_mismatch=5, direction_empty=3))]
    assert cypher_schema_ok(worse).met is False and direction_empty_rate(worse).met is False


def test_no_cypher_is_no_data_not_100_percent() -> None:
    results = [r("a"), r("b", suite="stock")]
    for k in (cypher_schema_ok(results), direction_empty_rate(results)):
        assert k.value is None and k.met is None and k.note == "데이터 없음"


def test_block_rate_counts_hostile_queries_per_language() -> None:
    results = [r("g1", suite="guard", guard=GuardStats(language="cypher", path="guard_cypher",
                                                       attempted=112, blocked=112)),
               r("g2", suite="guard", guard=GuardStats(language="cypher", path="graph_store",
                                                       attempted=112, blocked=111,
                                                       bypassed=["MATCH (n) DELETE n"])),
               r("g3", suite="guard", guard=GuardStats(language="sql", path="sql_read_only",
                                                       attempted=90, blocked=90))]  # fmt: skip
    cypher = block_rate(results)
    assert (cypher.numerator, cypher.denominator, cypher.met) == (223, 224, False)
    assert block_rate(results, "sql").value == 100.0
    assert block_rate([r("a")]).value is None


def test_routing_accuracy_over_labelled_cases_only() -> None:
    results = [r("a", expected_tool_mode="single"), r("b", expected_target_agents=["macro"]),
               r("c", expected_tool_mode="parallel", problems=MISMATCH, passed=False),
               r("d"), crashed("e")]  # fmt: skip
    k = routing_accuracy(results)
    assert (k.numerator, k.denominator, k.value) == (2, 3, 66.67) and k.met is False


def test_p95_latency_split_by_agent_count_and_macro_only() -> None:
    single = [r(f"s{i}", target_agents=["macro"], latency_ms=100 * i) for i in range(1, 21)]
    multi = [r("m1", target_agents=["macro", "equity"], latency_ms=12_000)]
    other = [r("e", suite="etf", latency_ms=99_999)]
    results = single + multi + other
    s, m = p95_latency(results, multi=False), p95_latency(results, multi=True)
    assert (s.value, s.unit, s.met, s.denominator) == (1900.0, "ms", True, 20)
    assert (m.value, m.met) == (12_000.0, False)
    assert p95_latency(other, multi=True).value is None


def test_percentile_is_nearest_rank() -> None:
    assert percentile([]) is None
    assert percentile([5]) == 5.0
    assert percentile(list(range(1, 101))) == 95.0
    assert percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 50) == 5.0


def test_stale_assertion_rate() -> None:
    results = [r("a", freshness_status="stale", freshness_warning=True),
               r("b", freshness_status="missing", freshness_warning=False),
               r("c", freshness_status="healthy")]  # fmt: skip
    k = stale_assertion_rate(results)
    assert (k.value, k.met, k.target) == (50.0, False, 0.0)
    assert stale_assertion_rate([r("c")]).value is None  # nothing stale: no data, not 0%
    assert stale_assertion_rate(results[:1]).met is True


def test_fallback_per_turn_over_macro_and_etf_turns() -> None:
    results = [r("a", fallback_calls=2), r("b", suite="etf", fallback_calls=1),
               r("c", suite="etf"), r("d", suite="stock", fallback_calls=5)]  # fmt: skip
    k = fallback_per_turn(results)
    assert (k.value, k.numerator, k.denominator, k.met) == (1.0, 3, 3, True)
    assert fallback_per_turn([r("d", suite="stock")]).value is None


# ------------------------------------------------------------------------------ whole report


def test_zero_runs_report_is_all_no_data() -> None:
    report = kpi_report([])
    assert report.case_count == 0 and report.pass_rate is None
    assert all(k.value is None and k.met is None for k in report.kpis)
    assert pass_rate([]) is None


def test_all_errors_report() -> None:
    results = [crashed("a"), crashed("b", suite="etf"), crashed("c", suite="contract")]
    report = kpi_report(results, "run-1")
    assert report.pass_rate == 0.0 and report.failure_categories == {"error": 3}
    assert report.kpi("evidence_rate").value is None  # no answer to look at
    assert report.kpi("routing_accuracy").value is None
    assert [s.pass_rate for s in report.suites] == [0.0, 0.0, 0.0]


def test_report_counts_follow_seed_13_2_16() -> None:
    results = [r("a", tool_mode="single", target_agents=["macro"], structured_citation_count=2,
                 freshness_status="healthy"),
               r("b", tool_mode="parallel", target_agents=["macro", "ontology"],
                 structured_citation_count=0, freshness_status="stale", freshness_warning=True),
               r("c", suite="etf", passed=False, failure_category="wrong_fact")]  # fmt: skip
    report = kpi_report(results)
    assert report.tool_mode_counts == {"single": 1, "parallel": 1}
    assert report.target_agent_counts == {"macro": 2, "ontology": 1}
    assert report.freshness_status_counts == {"healthy": 1, "stale": 1, "none": 1}
    assert report.structured_citation_stats == {"avg": 0.667, "min": 0.0, "max": 2.0, "zero": 2.0}
    assert report.pass_rate == 66.67 and report.failure_categories == {"wrong_fact": 1}
    assert {k.name for k in report.kpis} >= {
        "evidence_rate", "cypher_schema_ok", "direction_empty_rate", "forbidden_cypher_block_rate",
        "routing_accuracy", "p95_latency_single", "p95_latency_multi", "stale_assertion_rate",
        "fallback_per_turn"}  # fmt: skip


# ------------------------------------------------------------------------------ weekly summary


def run(run_id: str, passed: int, total: int, hours_ago: float, pass_rate: float | None = None,
        kpis: list[CaseResult] | None = None) -> SuiteRun:  # fmt: skip
    return SuiteRun(run_id=run_id, suites=["macro"], status="finished", case_count=total,
                    passed_count=passed, pass_rate=pass_rate,
                    started_at=NOW - timedelta(hours=hours_ago),
                    kpis=kpi_report(kpis) if kpis is not None else None)  # fmt: skip


def test_weekly_summary_on_stored_runs() -> None:
    runs = [run("r1", 3, 4, 30), run("r2", 4, 4, 2, pass_rate=None)]
    results = [r("a", structured_citation_count=2), r("b", passed=False, problems=MISMATCH,
                                                       failure_category="routing_mismatch"),
               r("b", passed=False, failure_category="wrong_fact", structured_citation_count=1),
               r("g", suite="guard", structured_citation_count=0)]  # fmt: skip
    s = summarize(runs, results, days=7, now=NOW)
    assert s.run_count == 2 and s.case_count == 4
    assert s.avg_pass_rate == 87.5  # (75 + 100) / 2, the second rate rebuilt from its counts
    assert s.routing_mismatch_count == 1
    assert s.avg_structured_citations == 1.0  # guard cases are not answers
    assert s.top_failure_categories == [("routing_mismatch", 1), ("wrong_fact", 1)]
    assert s.top_failed_cases == [("b", 2)]
    assert s.status == "warning" and any("라우팅" in x for x in s.reasons)


def test_weekly_summary_healthy_and_empty() -> None:
    healthy = summarize([run("r1", 10, 10, 1, kpis=[r("a", structured_citation_count=1)])],
                        [r("a", structured_citation_count=1)], days=7, now=NOW)  # fmt: skip
    assert healthy.status == "healthy" and healthy.reasons == []
    empty = summarize([], [], days=7, now=NOW)
    assert empty.status == "warning" and empty.avg_pass_rate is None and empty.run_count == 0
    assert empty.window_start == NOW - timedelta(days=7)


def test_weekly_summary_warns_on_a_missed_kpi_of_the_latest_run() -> None:
    slow = [r("m", target_agents=["macro", "equity"], latency_ms=20_000)]
    s = summarize([run("old", 1, 1, 50), run("new", 1, 1, 1, kpis=slow)], slow, days=7, now=NOW)
    assert s.status == "warning" and "p95 응답 지연(복합 도메인)" in s.reasons[-1]


def test_run_pass_rate_prefers_counts() -> None:
    assert run_pass_rate(run("a", 1, 4, 1, pass_rate=0.0)) == 25.0
    assert run_pass_rate(run("b", 0, 0, 1, pass_rate=None)) is None


@pytest.mark.parametrize("days", [0, -3])
def test_weekly_days_must_be_positive(days: int) -> None:
    from agents.eval.weekly import weekly_summary

    with pytest.raises(ValueError):
        weekly_summary(days=days, save=False)
