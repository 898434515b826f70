"""The checks a Macro answer passes before it is shown (agents/macro/checks.py, conflicts.py) and
the citation rules the eval judge shares with them (agents.model_checks.citation_gaps): pure
functions over agent responses as the agents write them."""

from __future__ import annotations

from agents.eval.judge import problems_of
from agents.eval.models import CaseResult, GoldenCase
from agents.macro.answer import compose_answer
from agents.macro.checks import check_citations
from agents.macro.conflicts import find_conflicts
from agents.macro.router import Route
from agents.macro.state import AgentResponse, RunContext, Series
from agents.model_checks import check_failure, citation_gaps
from data_access.config import Settings
from data_access.contracts import AgentAnswer, Citation, StructuredCitation

SC = StructuredCitation(dataset_code="KR_BASE_RATE", table="macro_observations",
                        query_fingerprint="f1", row_count=12)  # fmt: skip
RATE = Series(key="KR_BASE_RATE", title="한국은행 기준금리 (KR_BASE_RATE)", unit="percent",
              points=[("2026-07-01", 2.25), ("2026-08-01", 2.25), ("2026-09-01", 2.25),
                      ("2026-10-01", 2.25)])  # fmt: skip


def route(question: str, agents: list[str], mode: str = "single") -> Route:
    return Route(
        question=question,
        language="ko",
        intent="macro",
        target_agents=agents,  # type: ignore[arg-type]
        sql_need=True,
        graph_need=False,
        tool_mode=mode,
    )  # type: ignore[arg-type]


def state(r: Route, **responses: AgentResponse) -> dict:  # type: ignore[type-arg]
    return {"route": r, "agent_responses": responses, "final_as_of_date": "2026-11-20"}


def test_a_figure_no_cited_agent_holds_is_marked_and_the_turn_is_partial() -> None:
    cited = AgentResponse(agent="macro", key_points=["기준금리 최신값 2.25% (2026-10-01)."],
                          structured_citations=[SC])  # fmt: skip
    uncited = AgentResponse(agent="equity", key_points=["삼성전자 수익률 +7.31%."])
    s = state(route("기준금리와 삼성전자", ["macro", "equity"]), macro=cited, equity=uncited)
    text = "기준금리는 2.25% (2026-10-01)입니다. 삼성전자 수익률은 +7.31%입니다."
    check = check_citations(text, s, [], [SC])
    assert check.uncited == ["7.31%"]
    assert "7.31% _(⚠️ 출처 없음)_" in check.text and "2.25% _(" not in check.text
    step = check.trace_step()
    assert step.status == "error" and "미인용: 7.31%" in (step.error or "")
    assert check_failure([step]) is not None  # the service makes the turn partial with it


def test_compose_marks_uncited_figures_of_the_offline_text_with_one_korean_sentence() -> None:
    uncited = AgentResponse(agent="macro", key_points=["미국 CPI 상승률 3.2%."])
    s = state(route("미국 CPI", ["macro"]), macro=uncited)
    ctx = RunContext(settings=Settings(), pool=None, store=None, as_of_date="2026-11-20")
    update = compose_answer(s, ctx)  # type: ignore[arg-type]
    assert update["answer"].startswith("> ⚠️ 인용 근거(정형·문서 인용)가 없는 수치 1개를")
    assert "3.2% _(⚠️ 출처 없음)_" in update["answer"]
    assert [t.name for t in update["llm_trace"]] == ["citation_check"]


def test_a_general_knowledge_answer_loses_store_citations_but_keeps_its_glossary() -> None:
    general = AgentResponse(agent="general_knowledge", key_points=["CPI는 소비자 물가지수입니다."],
                            citations=[Citation(doc_id="glossary:cpi", title="내장 용어집: CPI")],
                            structured_citations=[SC])  # fmt: skip
    web = Citation(doc_id="web:1", title="CPI 기사")
    s = state(route("CPI란?", ["general_knowledge"], "llm_direct"), general_knowledge=general)
    check = check_citations("CPI는 소비자 물가지수입니다.", s, [general.citations[0], web], [SC])
    assert [c.doc_id for c in check.citations] == ["glossary:cpi"] and check.structured == []
    assert check.dropped == ["KR_BASE_RATE", "web:1"] and check.failed
    assert "일반 지식 답변은 데이터를 쓰지 않으므로" in check.notice()


def test_citation_gaps_are_the_rules_the_eval_judge_applies() -> None:
    glossary = Citation(doc_id="glossary:vix", title="내장 용어집: VIX")
    assert citation_gaps([glossary], [], general=True) == []
    assert [c for c, _ in citation_gaps([], [SC], general=True)] == ["general_with_citation"]
    assert [c for c, _ in citation_gaps([], [], need_structured=True, need_documents=True)] == [
        "missing_structured_citation", "missing_citation"]  # fmt: skip
    case = GoldenCase(id="g", suite="macro", question="VIX가 뭐야?")
    answer = AgentAnswer(answer="…", mode="llm", structured_citations=[SC])
    result = CaseResult(suite="macro", case_id="g", question="q", passed=False,
                        tool_mode="llm_direct")  # fmt: skip
    assert [p.category for p in problems_of(case, answer, result)] == ["general_with_citation"]


def test_two_values_for_the_same_series_and_date_are_a_conflict() -> None:
    sql = AgentResponse(agent="macro", series=[RATE])
    graph = AgentResponse(agent="ontology", series=[RATE.model_copy(update={
        "points": [("2026-09-01", 2.5), ("2026-10-01", 2.25)]})])  # fmt: skip
    [conflict] = find_conflicts({"macro": sql, "ontology": graph})
    assert conflict.kind == "value" and conflict.date == "2026-09-01"
    assert conflict.sides == {"거시경제": "2.25", "관계·근거": "2.5"}


def test_an_event_whose_move_or_level_the_series_contradicts_is_a_conflict() -> None:
    data = AgentResponse(agent="macro", series=[RATE])
    docs = AgentResponse(agent="ontology", paths=[
        {"event": "한국은행 기준금리 25bp 인상 (연 3.00%)", "event_date": "2026-09-15",
         "target": "KR_BASE_RATE"},
        {"event": "한국은행 기준금리 동결 (연 2.25%)", "event_date": "2026-08-27",
         "target": "KR_BASE_RATE"},
        {"event": "FOMC 기준금리 25bp 인상 (3.00~3.25%)", "event_date": "2026-09-15",
         "target": "KR_BASE_RATE"},  # about the Fed's rate, not this one: not a claim on it
    ])  # fmt: skip
    [conflict] = find_conflicts({"macro": data, "ontology": docs})
    assert conflict.kind == "direction" and conflict.date == "2026-09-15"
    assert "는 인상(상승), 수준 3.00%, 데이터는 2.25→2.25 (2026-09-01 관측" in conflict.message


def test_an_event_outside_the_window_is_not_judged() -> None:
    data = AgentResponse(agent="macro", series=[RATE])
    docs = AgentResponse(agent="ontology", paths=[
        {"event": "한국은행 기준금리 25bp 인상 (연 3.00%)", "event_date": "2026-06-15",
         "target": "KR_BASE_RATE"}])  # fmt: skip
    assert find_conflicts({"macro": data, "ontology": docs}) == []
