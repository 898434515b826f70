"""Grade one answer against its golden case: the recorded fields (seed §13.2-16) and every
problem found, with one primary failure category (the first in `CATEGORY_ORDER`)."""

from __future__ import annotations

from agents.eval import traces
from agents.eval.models import CATEGORY_ORDER, CaseResult, FactResult, GoldenCase, Problem
from agents.model_checks import citation_gaps
from data_access.contracts import AgentAnswer

EXCERPT_CHARS = 600


def primary_category(problems: list[Problem]) -> str | None:
    if not problems:
        return None
    found = {p.category for p in problems}
    return next((c for c in CATEGORY_ORDER if c in found), problems[0].category)


def problems_of(case: GoldenCase, answer: AgentAnswer, result: CaseResult) -> list[Problem]:
    problems: list[Problem] = []
    problems += _status_problems(case, answer)
    problems += _routing_problems(case, result)
    problems += _decline_problems(case, answer)
    problems += [Problem(category=category, message=message)  # the rules answers are held to
                 for category, message in citation_gaps(
                     answer.citations, answer.structured_citations,
                     general=result.tool_mode == "llm_direct",
                     need_structured=case.require_structured_citation,
                     need_documents=case.require_citation)]  # fmt: skip
    problems += _freshness_problems(case, result)
    problems += _fact_problems(result.facts)
    return problems


def _status_problems(case: GoldenCase, answer: AgentAnswer) -> list[Problem]:
    if answer.status in case.expected_status:
        return []
    detail = f": {answer.error}" if answer.error else ""
    if answer.status == "error":
        return [Problem(category="error", message=f"답변 상태 error{detail}"[:500])]
    if answer.status == "budget_exceeded":
        return [Problem(category="budget_exceeded", message=f"예산 초과{detail}"[:500])]
    return [Problem(category="unexpected_status",
                    message=f"상태 {answer.status} (기대: {', '.join(case.expected_status)})")]  # fmt: skip


def _decline_problems(case: GoldenCase, answer: AgentAnswer) -> list[Problem]:
    declined = bool(answer.payload.get("declined"))
    if case.expect_declined and not declined:
        return [Problem(category="not_declined",
                        message="범위 밖 질문인데 거절하지 않고 답했습니다")]  # fmt: skip
    if declined and not case.expect_declined:
        return [Problem(category="wrongly_declined",
                        message="답할 수 있는 질문을 범위 밖이라며 거절했습니다")]  # fmt: skip
    return []


def _routing_problems(case: GoldenCase, result: CaseResult) -> list[Problem]:
    out: list[Problem] = []
    if case.expected_tool_mode and result.tool_mode != case.expected_tool_mode:
        out.append(Problem(category="routing_mismatch",
                           message=f"tool_mode {result.tool_mode} (기대: {case.expected_tool_mode})"))  # fmt: skip
    expected = case.expected_target_agents
    if expected is not None and sorted(result.target_agents) != sorted(expected):
        out.append(Problem(category="routing_mismatch",
                           message=f"target_agents {result.target_agents} (기대: {expected})"))  # fmt: skip
    if case.expected_intent and result.intent != case.expected_intent:
        out.append(Problem(category="routing_mismatch",
                           message=f"intent {result.intent} (기대: {case.expected_intent})"))  # fmt: skip
    return out


def _freshness_problems(case: GoldenCase, result: CaseResult) -> list[Problem]:
    if result.freshness_warning:
        return []
    if result.freshness_status in ("stale", "missing"):
        return [Problem(category="freshness_stale",
                        message=f"데이터가 {result.freshness_status}인데 답변에 최신성 경고가 없습니다")]  # fmt: skip
    if case.expect_freshness_warning:
        return [Problem(category="freshness_stale",
                        message="최신성 경고가 있어야 하는 질문인데 경고가 없습니다")]  # fmt: skip
    return []


def _fact_problems(facts: list[FactResult]) -> list[Problem]:
    out: list[Problem] = []
    for f in facts:
        if f.passed:
            continue
        category = "fact_error" if f.error else "wrong_fact"
        out.append(Problem(category=category, message=f.message or f"{f.kind} 실패"))
    return out


def grade(case: GoldenCase, answer: AgentAnswer, facts: list[FactResult],
          latency_ms: int) -> CaseResult:  # fmt: skip
    """The case result of one answer: recorded fields first, then the problems they show."""
    route = traces.route_of(answer)
    fallbacks = traces.fallback_events(answer, case.suite)
    result = CaseResult(
        suite=case.suite, case_id=case.id, question=case.question, passed=False,
        split=case.split, declined=bool(answer.payload.get("declined")), status=answer.status, mode=answer.mode, intent=route.get("intent"),
        tool_mode=route.get("tool_mode"), expected_tool_mode=case.expected_tool_mode,
        target_agents=list(route.get("target_agents") or []),
        expected_target_agents=case.expected_target_agents,
        structured_citation_count=len(answer.structured_citations),
        citation_count=len(answer.citations),
        freshness_status=traces.freshness_status(answer),
        freshness_warning=traces.has_freshness_warning(answer),
        latency_ms=latency_ms, fallback_calls=len(fallbacks), fallback_events=fallbacks,
        cypher=traces.cypher_stats(answer, case.suite), facts=facts,
        answer_excerpt=(answer.answer or "")[:EXCERPT_CHARS], error=answer.error,
        tokens=answer.tokens, cost_usd=answer.cost_usd,
    )  # fmt: skip
    problems = problems_of(case, answer, result)
    result.problems = problems
    result.passed = not problems
    result.failure_category = primary_category(problems)
    return result


def error_result(case: GoldenCase, error: str, latency_ms: int) -> CaseResult:
    """A case whose run raised: recorded as `error` with the exception text; the run goes on."""
    problem = Problem(category="error", message=error[:500])
    return CaseResult(suite=case.suite, case_id=case.id, question=case.question, passed=False,
                      split=case.split, failure_category="error", problems=[problem], status="error",
                      expected_tool_mode=case.expected_tool_mode,
                      expected_target_agents=case.expected_target_agents,
                      latency_ms=latency_ms, error=error[:2000])  # fmt: skip
