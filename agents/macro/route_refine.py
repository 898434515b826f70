"""Router refinement by `LLM_MODEL_ROUTER` (seed 004 §7-3: rules first, then LLM assistance).

    refined, steps = refine_route(rule_route, ctx)

The model reads the question and the rules' route and answers one JSON object
(`RouteProposal`: target agents, SQL need, graph need, reason; structured output through
`response_format`). It may only add to the rules' route — another domain agent, a need the rules
missed — and what it proposes against the rules' guarantees is ignored and said in the route's
reasons:
- a general-knowledge route (`llm_direct`) makes no DB or graph call: nothing is added to it;
- the rules' agents stay (§8.2: "필수 호출"); a proposal to drop one is ignored;
- SQL and graph both needed, or two domain agents → `parallel`; a proposal cannot undo either.
A failed or malformed reply leaves the rules' route as it is.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from agents.macro.llm_calls import complete
from agents.macro.router import DOMAIN_AGENTS, AgentName, Route
from agents.macro.state import RunContext
from data_access.contracts import TraceStep

SYSTEM = (
    "[router] You refine the route of a Korean financial research desk. Agents: macro (rates, "
    "prices, jobs, FX), equity (stocks, earnings, OHLCV), real_estate (housing deals, jeonse, "
    "unsold, permits), ontology (relationships, event → theme → indicator paths). sql_need: the "
    "question asks for raw time-series figures; graph_need: it asks for news, events, causes or "
    "cited explanations. Answer one JSON object: "
    '{"target_agents": [...], "sql_need": bool, "graph_need": bool, "reason": "..."}'
)


class RouteProposal(BaseModel):
    target_agents: list[str] = Field(default_factory=list)
    sql_need: bool = False
    graph_need: bool = False
    reason: str = ""


def refine_route(rule: Route, ctx: RunContext) -> tuple[Route, list[TraceStep]]:
    """The rules' route, refined by the router model when one is configured."""
    if ctx.router_model is None:
        return rule, []
    user = json.dumps({"question": rule.question, "rules_route": {
        "target_agents": rule.target_agents, "sql_need": rule.sql_need,
        "graph_need": rule.graph_need, "tool_mode": rule.tool_mode}}, ensure_ascii=False)  # fmt: skip
    text, step = complete(ctx.router_model, ctx.settings, SYSTEM, user, "router_refine",
                          max_tokens=300, budget=ctx.budget, steps=ctx.llm_steps,
                          response_format={"type": "json_object"})  # fmt: skip
    step.step = 1
    if not text.strip():
        return rule.model_copy(
            update={"reasons": [*rule.reasons, "라우터 모델 응답 없음 → 규칙 라우팅 유지"]}
        ), [step]
    try:
        proposal = RouteProposal.model_validate(json.loads(_json_part(text)))
    except (ValueError, ValidationError) as e:
        step.status, step.error = "error", f"구조화 응답이 아닙니다: {str(e)[:200]}"
        return rule.model_copy(
            update={"reasons": [*rule.reasons, "라우터 모델 응답 형식 오류 → 규칙 라우팅 유지"]}
        ), [step]
    return merge_proposal(rule, proposal, ctx.router_model), [step]


def _json_part(text: str) -> str:
    start, end = text.find("{"), text.rfind("}")
    return text[start : end + 1] if start >= 0 and end > start else text


def merge_proposal(rule: Route, proposal: RouteProposal, model: str) -> Route:
    """Apply what the proposal may change; record what it may not (module docstring)."""
    notes: list[str] = []
    if rule.tool_mode == "llm_direct":
        if (
            proposal.target_agents != ["general_knowledge"]
            or proposal.sql_need
            or proposal.graph_need
        ):
            notes.append("무시: 일반 지식 질문은 DB·그래프를 호출하지 않습니다 (규칙 보장)")
        return _noted(rule, model, notes)
    proposed = [a for a in proposal.target_agents if a in DOMAIN_AGENTS]
    dropped = [a for a in rule.target_agents if a not in proposed]
    if dropped:
        notes.append(f"무시: 규칙이 고른 에이전트는 빠지지 않습니다 ({', '.join(dropped)})")
    if "general_knowledge" in proposal.target_agents:
        notes.append("무시: 도메인 질문을 일반 지식(LLM Direct)으로 바꿀 수 없습니다")
    agents: list[AgentName] = list(rule.target_agents)
    added = [a for a in proposed if a not in agents]
    agents += added  # type: ignore[arg-type]
    sql_need = rule.sql_need or proposal.sql_need
    graph_need = rule.graph_need or proposal.graph_need or "ontology" in agents
    if rule.sql_need and not proposal.sql_need or rule.graph_need and not proposal.graph_need:
        notes.append("무시: 규칙이 판정한 SQL/Graph 필요는 내려가지 않습니다")
    domains = [a for a in agents if a != "ontology"]
    mode = "parallel" if (sql_need and graph_need) or len(domains) > 1 else rule.tool_mode
    if rule.tool_mode == "parallel" and mode != "parallel":
        mode = "parallel"  # unreachable by construction; kept as the guarantee itself
    changes = [f"에이전트 추가 {', '.join(added)}"] if added else []
    if sql_need != rule.sql_need or graph_need != rule.graph_need:
        changes.append(f"SQL 필요={sql_need}, Graph 필요={graph_need}")
    if mode != rule.tool_mode:
        changes.append(f"{rule.tool_mode} → {mode}")
    notes.insert(0, f"라우터 모델 보정: {'; '.join(changes) or '변경 없음'}"
                 + (f" ({proposal.reason[:120]})" if proposal.reason else ""))  # fmt: skip
    refined = rule.model_copy(update={"target_agents": agents, "sql_need": sql_need,
                                      "graph_need": graph_need, "tool_mode": mode})  # fmt: skip
    return _noted(refined, model, notes)


def _noted(r: Route, model: str, notes: list[str]) -> Route:
    update: dict[str, Any] = {"reasons": [*r.reasons, *notes], "refined_by": model}
    return r.model_copy(update=update)
