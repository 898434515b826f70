"""The supervisor's web-search fallback (seed 004 §2.2, §3.F-3).

    web_fallback(state, ctx)       # the graph node: at most one provider call per turn
    with_web_documents(state)      # the state the answer is composed from, web documents added

Wanted when an agent reports missing evidence (`needs_web_fallback`) or a domain the turn used
is stale or missing. Found documents join the answer as document citations (`web:…` ids) and
key points marked [웹]; they never enter `structured_citations`. A failed provider call leaves
the internal evidence as the answer's only ground, and the answer says so.
"""

from __future__ import annotations

from typing import Any

from agents.macro.conflicts import ORDER
from agents.macro.state import AgentResponse, MacroState, RunContext
from agents.websearch import (
    TurnWebSearch,
    WebDocument,
    WebSearchResult,
    provider_from_settings,
    web_citations,
)
from data_access.contracts import TraceStep

WEB_SEARCH_DISABLED = (
    "웹 검색 제공자가 설정되지 않아 웹 검색 보완을 건너뛰었습니다 (내부 근거만 사용)."
)
WEB_SEARCH_DOWN = "웹 검색에 실패해 내부 근거만으로 답했습니다 (근거가 부족할 수 있습니다): {error}"


def web_fallback(state: MacroState, ctx: RunContext) -> dict[str, Any]:
    responses = state.get("agent_responses", {})
    missing = any(r.needs_web_fallback for r in responses.values())
    used = {d for r in responses.values() for d in r.data_freshness}
    stale = [d for d, f in state.get("data_freshness", {}).items() if f != "healthy" and d in used]
    wanted = (missing or bool(stale)) and state["route"].tool_mode != "llm_direct"
    provider = provider_from_settings(ctx.settings)
    info: dict[str, Any] = {"requested": wanted, "budget": 1, "calls": 0,
                            "provider": provider.name if provider else None,
                            "why": ("근거 부족" if missing else "") + (" 최신성" if stale else ""),
                            "reason": None if provider else WEB_SEARCH_DISABLED}  # fmt: skip
    if not wanted or provider is None:
        return {"needs_web_fallback": wanted, "web_fallback": info}
    search = TurnWebSearch(provider, budget=1)
    result = search.run(state["route"].question)
    info.update(calls=search.calls, status=result.status,
                documents=[d.__dict__ for d in result.documents])  # fmt: skip
    if result.status != "ok":
        info["reason"] = WEB_SEARCH_DOWN.format(error=result.error)
    elif not result.documents:
        info["reason"] = "웹 검색 결과가 없어 내부 근거만으로 답했습니다."
    return {"needs_web_fallback": wanted, "web_fallback": info, "llm_trace": [_step(result)]}


def _step(result: WebSearchResult) -> TraceStep:
    return TraceStep(step=0, kind="tool", name=f"web_search:{result.provider}",
                     arguments={"query": result.query, "budget": 1},
                     observation=", ".join(d.url for d in result.documents) or "0 documents",
                     status="ok" if result.status == "ok" else "error", error=result.error,
                     duration_ms=result.duration_ms)  # fmt: skip


def with_web_documents(state: MacroState) -> MacroState:
    """The state with the web documents added to one agent's evidence (a copy; the graph's own
    state is unchanged), so the offline text and the writer cite them like other documents."""
    web = state.get("web_fallback") or {}
    docs = web.get("documents") or []
    responses = state.get("agent_responses", {})
    first = next((n for n in ORDER if n in responses), None)
    if not docs or first is None:
        return state
    result = WebSearchResult(web.get("provider"), "", "ok", [WebDocument(**d) for d in docs])
    resp: AgentResponse = responses[first].model_copy(deep=True)
    for doc, citation in zip(result.documents, web_citations(result), strict=True):
        resp.citations.append(citation)
        when = f" ({doc.published})" if doc.published else ""
        resp.key_points.append(f"[웹] {doc.title}{when}: {doc.snippet[:200]}")
    return {**state, "agent_responses": {**responses, first: resp}}  # type: ignore[typeddict-item]
