"""The §6 KPI report of seed 004, computed from case results (pure functions, no I/O).

    report = kpi_report(results, run_id="...")
    report.kpi("routing_accuracy").value   # percent, or None when the run has no data for it

Definitions (what the traces record; see `agents.eval.traces` for the readings):

- evidence_rate — 근거 포함 응답률: answers of the agent suites (everything but `guard`) that
  carry at least one document or structured citation, over all such answers. Turns the router
  sent to the GeneralKnowledge agent (`llm_direct`) are left out: by design they use no data.
  Cases that raised before answering are left out (they count as `error` in the pass rate), and
  so are declined answers (a question about data we do not hold has nothing to cite).
- cypher_schema_ok — Schema 미스매치 없는 Cypher 실행률: Cypher runs without a schema mismatch
  over all Cypher runs (template, GraphRAG expansion, Text2Cypher incl. validator-refused ones,
  ETF graph queries).
- direction_empty_rate — 관계 방향성 오류로 인한 Empty 응답률: Cypher runs whose empty result
  was diagnosed as a direction/pattern error (empty re-check found no such path, or the validator
  refused a reversed pattern) over all Cypher runs.
- forbidden_cypher_block_rate — 금지 Cypher 차단율: hostile Cypher queries refused over hostile
  Cypher queries sent, across the guard suite's Cypher paths (text guard, ETF `graph_query`
  tool, GraphStore read path). `forbidden_sql_block_rate` is the same for SQL (extra row).
- routing_accuracy — 라우팅 정확도(Golden set): cases with an expected tool mode / target agents
  whose route had no routing mismatch, over those cases.
- p95_latency_single / p95_latency_multi — p95 응답 지연: Macro Q&A turn latency (the runner's
  wall time around the service call) of turns routed to one agent / to two or more agents;
  nearest-rank p95.
- stale_assertion_rate — stale 데이터 단정 응답률: answers whose data freshness is stale or
  missing and whose text carries no freshness warning, over answers with stale/missing data.
- fallback_per_turn — fallback 평균 호출 수: fallback events per turn over the turns of the
  screens that have fallback paths (Macro Q&A, ETF chat).
- opening_editor_coverage — 오프닝 편집자 상위 3 포함률: held-out opening days whose themes name at
  least 2 of the 3 biggest news-backed moves (|change| × won market cap, computed by SQL in
  `agents.eval.opening_editor`), over held-out days; `_tune` is the same on tuning days and
  `opening_editor_top3_share` the share of all top-3 items named, over all opening days;
  `opening_concrete_themes` the share of opening themes whose headline names a company, sector
  or macro event (not the 'keyword — company' pattern).
- correctness_<screen>_<split> — 답변 정확도: analyst questions (issue 14) of one screen and split
  (`tune` / `heldout`, fixed by question group) whose answer passed every check, over them;
  `routing_accuracy_heldout` is routing accuracy on the held-out analyst questions. The §6 KPIs
  above are computed over the regression set (cases without a split) when the run has one.
A KPI with an empty denominator is reported with value None ("no data"), never as 100%.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from agents.eval.models import CaseResult, KpiReport, KpiValue, SuiteStats

FALLBACK_SUITES = ("macro", "etf")
NO_DATA = "데이터 없음"


def percentile(values: Sequence[float], q: float = 95.0) -> float | None:
    """Nearest-rank percentile; None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100.0 * len(ordered)))
    return float(ordered[rank - 1])


def _answered(results: Sequence[CaseResult]) -> list[CaseResult]:
    """Agent-suite results that produced an answer (the runner did not catch an exception)."""
    return [r for r in results if r.suite != "guard" and r.mode is not None]


def _ratio(name: str, label: str, num: float, den: float, target: float,
           comparator: str = ">=", note: str = "") -> KpiValue:  # fmt: skip
    value = round(100.0 * num / den, 2) if den else None
    return _kpi(name, label, value, target, "%", comparator, num, den, note)


def _kpi(name: str, label: str, value: float | None, target: float, unit: str,
         comparator: str, num: float | None = None, den: float | None = None,
         note: str = "") -> KpiValue:  # fmt: skip
    met = None if value is None else (value >= target if comparator == ">=" else value <= target)
    return KpiValue(name=name, label_ko=label, value=value, target=target, unit=unit,  # type: ignore[arg-type]
                    comparator=comparator, met=met, numerator=num, denominator=den,  # type: ignore[arg-type]
                    note=note or (NO_DATA if value is None else ""))  # fmt: skip


def evidence_rate(results: Sequence[CaseResult]) -> KpiValue:
    # a declined question (data we do not hold) has nothing to cite, by design
    pool = [r for r in _answered(results) if r.tool_mode != "llm_direct" and not r.declined]
    ok = sum(1 for r in pool if r.citation_count + r.structured_citation_count > 0)
    return _ratio("evidence_rate", "근거 포함 응답률", ok, len(pool), 95.0)


def cypher_schema_ok(results: Sequence[CaseResult]) -> KpiValue:
    runs = sum(r.cypher.runs for r in results)
    bad = sum(r.cypher.schema_mismatch for r in results)
    return _ratio("cypher_schema_ok", "Schema 미스매치 없는 Cypher 실행률", runs - bad, runs, 99.0)


def direction_empty_rate(results: Sequence[CaseResult]) -> KpiValue:
    runs = sum(r.cypher.runs for r in results)
    empty = sum(r.cypher.direction_empty for r in results)
    return _ratio("direction_empty_rate", "관계 방향성 오류로 인한 Empty 응답률", empty, runs, 1.0,
                  "<=")  # fmt: skip


def block_rate(results: Sequence[CaseResult], language: str = "cypher") -> KpiValue:
    stats = [r.guard for r in results if r.guard is not None and r.guard.language == language]
    sent = sum(s.attempted for s in stats)
    blocked = sum(s.blocked for s in stats)
    if language == "cypher":
        return _ratio("forbidden_cypher_block_rate", "금지 Cypher 차단율", blocked, sent, 100.0)
    return _ratio("forbidden_sql_block_rate", "금지 SQL 차단율 (추가)", blocked, sent, 100.0)


def routing_accuracy(results: Sequence[CaseResult]) -> KpiValue:
    labelled = [r for r in _answered(results)
                if r.expected_tool_mode or r.expected_target_agents is not None]  # fmt: skip
    ok = sum(1 for r in labelled if not any(p.category == "routing_mismatch" for p in r.problems))
    return _ratio("routing_accuracy", "라우팅 정확도(Golden set)", ok, len(labelled), 90.0)


def p95_latency(results: Sequence[CaseResult], multi: bool) -> KpiValue:
    turns = [r for r in _answered(results) if r.suite == "macro" and r.target_agents
             and (len(r.target_agents) > 1) == multi]  # fmt: skip
    value = percentile([r.latency_ms for r in turns])
    if multi:
        return _kpi("p95_latency_multi", "p95 응답 지연(복합 도메인)", value, 10_000, "ms", "<=",
                    den=len(turns))  # fmt: skip
    return _kpi("p95_latency_single", "p95 응답 지연(단일 도메인)", value, 6_000, "ms", "<=",
                den=len(turns))  # fmt: skip


def stale_assertion_rate(results: Sequence[CaseResult]) -> KpiValue:
    stale = [r for r in _answered(results) if r.freshness_status in ("stale", "missing")]
    silent = sum(1 for r in stale if not r.freshness_warning)
    return _ratio("stale_assertion_rate", "stale 데이터 단정 응답률", silent, len(stale), 0.0, "<=")


def fallback_per_turn(results: Sequence[CaseResult]) -> KpiValue:
    turns = [r for r in _answered(results) if r.suite in FALLBACK_SUITES]
    calls = sum(r.fallback_calls for r in turns)
    value = round(calls / len(turns), 3) if turns else None
    return _kpi("fallback_per_turn", "fallback 평균 호출 수(턴당)", value, 1.0, "calls", "<=",
                calls, len(turns))  # fmt: skip


def editor_coverage(results: Sequence[CaseResult], split: str = "holdout") -> KpiValue:
    """Opening days (of `split`) whose themes name at least 2 of the editor's top 3."""
    days = [r.coverage for r in results if r.coverage is not None and r.coverage.split == split]
    ok = sum(1 for c in days if c.ok)
    if split == "holdout":
        return _ratio("opening_editor_coverage", "오프닝 테마의 편집자 상위 3 포함률(검증일)",
                      ok, len(days), 90.0,
                      note="검증일 중 뉴스 기반 시총 가중 상위 3개 중 2개 이상을 테마로 다룬 날의 비율")  # fmt: skip
    return _ratio("opening_editor_coverage_tune", "오프닝 테마의 편집자 상위 3 포함률(튜닝일)",
                  ok, len(days), 90.0)  # fmt: skip


def editor_top3_share(results: Sequence[CaseResult]) -> KpiValue:
    """Share of the editor's top-3 items (all opening days) that the themes name."""
    days = [r.coverage for r in results if r.coverage is not None]
    return _ratio("opening_editor_top3_share", "편집자 상위 3 중 테마가 다룬 비율(전체일)",
                  sum(c.covered for c in days), sum(len(c.top) for c in days), 66.7)  # fmt: skip


def concrete_themes(results: Sequence[CaseResult]) -> KpiValue:
    """Opening themes whose headline names a company, sector or macro event."""
    days = [r.coverage for r in results if r.coverage is not None]
    total = sum(len(c.themes) for c in days)
    vague = sum(len(c.vague_themes) for c in days)
    return _ratio("opening_concrete_themes", "사건을 명시한 오프닝 테마 비율", total - vague, total,
                  100.0)  # fmt: skip


KPI_FUNCTIONS: tuple[Callable[[Sequence[CaseResult]], KpiValue], ...] = (
    evidence_rate,
    cypher_schema_ok,
    direction_empty_rate,
    block_rate,
    routing_accuracy,
    lambda rs: p95_latency(rs, multi=False),
    lambda rs: p95_latency(rs, multi=True),
    stale_assertion_rate,
    fallback_per_turn,
    lambda rs: block_rate(rs, "sql"),
    editor_coverage,
    lambda rs: editor_coverage(rs, "tune"),
    editor_top3_share,
    concrete_themes,
)


def answer_correctness(suite: str, split: str) -> Callable[[Sequence[CaseResult]], KpiValue]:
    """Share of a screen's analyst questions (issue 14) of one split answered correctly: every
    fact right, declines declined, nothing answered as another question."""

    def kpi(results: Sequence[CaseResult]) -> KpiValue:
        mine = [r for r in results if r.suite == suite and r.split == split]
        half = "보류셋" if split == "heldout" else "튜닝셋"
        return _ratio(f"correctness_{suite}_{split}", f"답변 정확도 {suite} ({half})",
                      sum(r.passed for r in mine), len(mine), 95.0)  # fmt: skip

    return kpi


def routing_accuracy_heldout(results: Sequence[CaseResult]) -> KpiValue:
    """Routing accuracy on the held-out analyst questions that carry routing labels."""
    routed = [r for r in results if r.split == "heldout" and (r.expected_tool_mode
              or r.expected_target_agents is not None)]  # fmt: skip
    ok = sum(1 for r in routed if not any(p.category == "routing_mismatch" for p in r.problems))
    return _ratio(
        "routing_accuracy_heldout", "라우팅 정확도 (분석가 보류셋)", ok, len(routed), 95.0
    )


ANALYST_KPIS: tuple[Callable[[Sequence[CaseResult]], KpiValue], ...] = (
    *(answer_correctness(s, h) for s in ("etf", "macro", "stock") for h in ("heldout", "tune")),
    routing_accuracy_heldout,
)


def pass_rate(results: Sequence[CaseResult]) -> float | None:
    return round(100.0 * sum(r.passed for r in results) / len(results), 2) if results else None


def suite_stats(results: Sequence[CaseResult]) -> list[SuiteStats]:
    out: list[SuiteStats] = []
    for suite in dict.fromkeys(r.suite for r in results):
        mine = [r for r in results if r.suite == suite]
        out.append(SuiteStats(suite=suite, cases=len(mine), passed=sum(r.passed for r in mine),
                              pass_rate=pass_rate(mine),
                              p95_latency_ms=percentile([r.latency_ms for r in mine])))  # fmt: skip
    return out


def citation_stats(results: Sequence[CaseResult]) -> dict[str, float]:
    counts = [r.structured_citation_count for r in _answered(results)]
    if not counts:
        return {}
    return {"avg": round(sum(counts) / len(counts), 3), "min": float(min(counts)),
            "max": float(max(counts)), "zero": float(sum(1 for c in counts if c == 0))}  # fmt: skip


def kpi_report(results: Sequence[CaseResult], run_id: str | None = None) -> KpiReport:
    answered = _answered(results)
    # §6 KPIs over the regression set (analyst questions include declines, which by design cite
    # nothing); the analyst sets get their own correctness and routing KPIs per split.
    core = [r for r in results if r.split is None] or list(results)
    return KpiReport(
        run_id=run_id, computed_at=datetime.now(UTC), case_count=len(results),
        passed_count=sum(r.passed for r in results), pass_rate=pass_rate(results),
        kpis=[f(core) for f in KPI_FUNCTIONS]
        + [k for f in ANALYST_KPIS if (k := f(results)).denominator],
        suites=suite_stats(results),
        failure_categories=dict(Counter(r.failure_category for r in results
                                        if r.failure_category).most_common()),
        tool_mode_counts=dict(Counter(r.tool_mode for r in answered if r.tool_mode)),
        target_agent_counts=dict(Counter(a for r in answered for a in r.target_agents)),
        freshness_status_counts=dict(Counter(r.freshness_status for r in answered)),
        structured_citation_stats=citation_stats(results),
    )  # fmt: skip
