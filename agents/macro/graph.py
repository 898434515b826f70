"""The supervisor graph (seed 004 §2, §13.3): route (rules, refined by the router model when one
is configured: agents/macro/route_refine.py) → fan out to the target agents (LangGraph `Send`, so
parallel routes run concurrently; with a model each domain agent is a tool-calling loop,
agents/macro/model_agents.py) → single-mode companion call once → merge and validate as-of dates,
compare the agents' figures and the graph's housing summary with SQL's (contradictions are
shown, not picked: agents/macro/conflicts.py, summary_check.py, `conflict_check` step) and flag
the graph path's fall back to SQL (`needs_rdb_fallback`, `rdb_fallback` step) → web-search fallback (one call per turn at most, agents/websearch.py) →
compose the cited answer, checked before it is shown (agents/macro/checks.py).

    graph = build_graph(ctx)
    for update in graph.stream({"question": q}, stream_mode="updates"): ...
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Literal

from langgraph.graph import END, START, StateGraph
from langgraph.types import Send

from agents.macro.answer import compose_answer
from agents.macro.conflicts import find_conflicts
from agents.macro.conflicts import trace_step as conflict_step
from agents.macro.derived import compared_across_agents
from agents.macro.domain import equity_agent, macro_agent, real_estate_agent
from agents.macro.model_agents import model_agent
from agents.macro.ontology import general_agent, glossary_points, ontology_agent
from agents.macro.route_refine import refine_route
from agents.macro.router import Route, route
from agents.macro.state import AgentResponse, MacroState, RunContext
from agents.macro.summary_check import cross_check
from agents.macro.templates import TEMPLATES
from agents.macro.web_fallback import web_fallback, with_web_documents
from data_access.catalog import stale_hours_by_domain
from data_access.contracts import TraceStep
from data_access.publishers import with_sources

AgentFn = Callable[[Route, RunContext], AgentResponse]
AGENTS: dict[str, AgentFn] = {
    "macro": macro_agent, "equity": equity_agent, "real_estate": real_estate_agent,
    "ontology": ontology_agent, "general_knowledge": general_agent,
}  # fmt: skip
# The freshness windows of the catalogue (data_access.catalog), widest per domain, in hours.
MAX_STALE_HOURS = stale_hours_by_domain()
MODEL_AGENTS = ("macro", "equity", "real_estate", "ontology")
_FALLBACK = re.compile(r"(\S+) → (\S+) \((\w+)\)")


def run_agent(name: str, r: Route, ctx: RunContext) -> AgentResponse:
    """The agent's response with every citation naming its publisher (one lookup per agent)."""
    response = _run_agent(name, r, ctx)
    response.structured_citations, response.citations = with_sources(
        response.structured_citations, response.citations, ctx.pool
    )
    return response


def _run_agent(name: str, r: Route, ctx: RunContext) -> AgentResponse:
    """The tool-calling loop when a model is configured, else the offline agent."""
    if ctx.macro_model is not None and name in MODEL_AGENTS:
        return model_agent(name, r, ctx)
    response = AGENTS[name](r, ctx)
    # §2.5: the model that answered the agent (the general agent's direct answer), else rules
    response.model = next((t.model for t in reversed(response.trace)
                           if t.kind == "llm" and t.status == "ok" and t.model), None)  # fmt: skip
    if r.frame is not None and r.frame.definition_term and name == r.target_agents[0]:
        glossary_points(response, r, first=True)  # '…뭐야? 지금은 얼마야?': the term, then figures
    return response


def build_graph(ctx: RunContext, checkpointer: Any = None) -> Any:
    """A fresh compiled supervisor graph bound to one run context."""

    def route_node(state: MacroState) -> dict[str, Any]:
        r, steps = refine_route(state.get("route") or route(state["question"], ctx.pool), ctx)
        return {"route": r, "intent": r.intent, "target_domains": list(r.target_agents),
                "requested_as_of_date": r.requested_as_of_date,
                "max_stale_hours": MAX_STALE_HOURS, "llm_trace": steps}  # fmt: skip

    def fan_out(state: MacroState) -> list[Send]:
        r = state["route"]
        return [Send("agent", {"agent_name": a, "route": r}) for a in r.target_agents]

    def agent_node(payload: dict[str, Any]) -> dict[str, Any]:
        name = payload["agent_name"]
        response = run_agent(name, payload["route"], ctx)
        response.needs_rdb_fallback = bool(rdb_fallbacks(response))
        return {"agent_responses": {name: response}}

    def companion_node(state: MacroState) -> dict[str, Any]:
        """Single mode: one auxiliary Ontology call when an agent lacked evidence (§2.2)."""
        r, responses = state["route"], state.get("agent_responses", {})
        wanted = (
            r.tool_mode == "single"
            and "ontology" not in responses
            and any(resp.needs_companion for resp in responses.values())
        )
        if not wanted:
            return {"companion_used": False}
        companion = r.model_copy(update={"graph_need": True})
        response = run_agent("ontology", companion, ctx)
        response.needs_rdb_fallback = bool(rdb_fallbacks(response))
        return {"agent_responses": {"ontology": response},
                "companion_used": True, "fallback_queries": ["ontology companion"]}  # fmt: skip

    graph = StateGraph(MacroState)
    graph.add_node("router", route_node)
    graph.add_node("agent", agent_node)  # type: ignore[arg-type]
    graph.add_node("companion", companion_node)
    graph.add_node("validate_as_of", lambda state: validate_as_of(state, ctx))
    graph.add_node("web_fallback", lambda state: web_fallback(state, ctx))
    graph.add_node("compose", lambda state: compose_answer(with_web_documents(state), ctx))
    graph.add_edge(START, "router")
    graph.add_conditional_edges("router", fan_out, ["agent"])
    graph.add_edge("agent", "companion")
    graph.add_edge("companion", "validate_as_of")
    graph.add_edge("validate_as_of", "web_fallback")
    graph.add_edge("web_fallback", "compose")
    graph.add_edge("compose", END)
    return graph.compile(checkpointer=checkpointer)


def validate_as_of(state: MacroState, ctx: RunContext) -> dict[str, Any]:
    """All agents must answer as of the same date, not after the requested one (§8.2-5)."""
    responses = state.get("agent_responses", {})
    dates = {r.as_of_date for r in responses.values() if r.as_of_date}
    requested = state.get("requested_as_of_date")
    notes: list[str] = []
    if len(dates) > 1:
        notes.append(f"에이전트 기준일 불일치: {', '.join(sorted(dates))}")
    if requested and requested < ctx.as_of_date:
        notes.append(f"요청 기준일 {requested}이 데이터 기준일 {ctx.as_of_date}보다 이릅니다: "
                     "최신 데이터로 답했습니다.")  # fmt: skip
    elif requested and requested > ctx.as_of_date:
        notes.append(
            f"요청 기준일 {requested}의 데이터가 없어 {ctx.as_of_date} 기준으로 답했습니다."
        )
    freshness: dict[str, Any] = {}
    for resp in responses.values():
        freshness.update(resp.data_freshness)
    checked = cross_check(responses, ctx)  # §12.2-4: the graph's housing summary against SQL
    route = state["route"]
    checked.responses.update(compared_across_agents(
        route.frame, {**responses, **checked.responses}, route.language))  # fmt: skip
    responses = {**responses, **checked.responses}
    conflicts = find_conflicts(responses) + checked.conflicts  # §2.3: shown, not picked
    steps = [conflict_step(conflicts, len(responses), checked.agreed)]
    fallbacks = {n: rdb_fallbacks(resp) for n, resp in responses.items() if resp.needs_rdb_fallback}
    if fallbacks:  # §2.4: the graph path fell back to SQL
        steps.append(TraceStep(
            step=0, kind="guard", name="rdb_fallback", arguments={"needs_rdb_fallback": True},
            observation="그래프 경로가 비었거나 장애여서 RDB(SQL)로 대신 조회했습니다: " + "; ".join(
                f"{n}: {', '.join(f)}" for n, f in fallbacks.items())))  # fmt: skip
    return {"final_as_of_date": max(dates) if dates else ctx.as_of_date,
            "as_of_validation_passed": len(dates) <= 1, "as_of_notes": notes,
            "data_freshness": freshness, "needs_rdb_fallback": bool(fallbacks),
            "conflicts": [c.model_dump() for c in conflicts], "llm_trace": steps,
            "agent_responses": checked.responses}  # fmt: skip


def rdb_fallbacks(resp: AgentResponse) -> list[str]:
    """The template fallbacks of an agent that went from the graph (Cypher) to SQL, as the
    trace's `fallback` steps write them ('indicator_evidence → documents_by_keyword (empty)')."""
    out = []
    for t in (t for t in resp.trace if t.kind == "guard" and t.name == "fallback"):
        m = _FALLBACK.match(t.observation or "")
        kinds = [TEMPLATES[n].kind if n in TEMPLATES else None for n in m.groups()[:2]] if m else []
        if kinds == ["cypher", "sql"]:
            out.append(t.observation or "")
    return out


def status_of(responses: dict[str, AgentResponse]) -> Literal["ok", "partial"]:
    return "ok" if all(r.status in ("ok",) for r in responses.values()) else "partial"
