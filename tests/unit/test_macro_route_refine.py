"""Router refinement (agents/macro/route_refine.py): what a router model may change in the rules'
route and what it may not. Pure merging of a proposal into a route; the model call itself is
replayed in tests/integration/test_macro_model_agents.py."""

from __future__ import annotations

from agents.macro.route_refine import RouteProposal, merge_proposal
from agents.macro.router import Route

MODEL = "openai/router"


def _route(agents: list[str], sql: bool, graph: bool, mode: str) -> Route:
    return Route(question="q", language="ko", intent="x", target_agents=agents,  # type: ignore[arg-type]
                 sql_need=sql, graph_need=graph, tool_mode=mode)  # type: ignore[arg-type]  # fmt: skip


def test_an_added_need_makes_the_route_parallel() -> None:
    rule = _route(["equity"], True, False, "single")
    out = merge_proposal(rule, RouteProposal(target_agents=["equity"], sql_need=True,
                                             graph_need=True, reason="원인 질문"), MODEL)  # fmt: skip
    assert (out.tool_mode, out.graph_need, out.refined_by) == ("parallel", True, MODEL)
    assert out.reasons[-1].startswith("라우터 모델 보정: SQL 필요=True, Graph 필요=True")


def test_an_added_agent_is_kept_and_a_dropped_one_stays() -> None:
    rule = _route(["macro"], True, False, "single")
    out = merge_proposal(rule, RouteProposal(target_agents=["real_estate"], sql_need=True), MODEL)
    assert out.target_agents == ["macro", "real_estate"] and out.tool_mode == "parallel"
    assert any("빠지지 않습니다 (macro)" in r for r in out.reasons)


def test_parallel_and_needs_cannot_be_undone() -> None:
    rule = _route(["equity"], True, True, "parallel")
    out = merge_proposal(rule, RouteProposal(target_agents=["equity"]), MODEL)
    assert (out.tool_mode, out.sql_need, out.graph_need) == ("parallel", True, True)
    assert any("내려가지 않습니다" in r for r in out.reasons)


def test_general_knowledge_gets_no_db_call_and_domain_questions_stay_domain() -> None:
    general = _route(["general_knowledge"], False, False, "llm_direct")
    out = merge_proposal(general, RouteProposal(target_agents=["macro"], sql_need=True), MODEL)
    assert out.target_agents == ["general_knowledge"] and out.tool_mode == "llm_direct"
    assert not out.sql_need and any("DB·그래프를 호출하지 않습니다" in r for r in out.reasons)
    domain = _route(["macro"], True, False, "single")
    out = merge_proposal(domain, RouteProposal(target_agents=["general_knowledge"]), MODEL)
    assert out.target_agents == ["macro"] and out.tool_mode == "single"
    unknown = merge_proposal(domain, RouteProposal(target_agents=["macro", "DROP"]), MODEL)
    assert unknown.target_agents == ["macro"]
