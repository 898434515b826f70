"""What one answer's trace and evidence say, read the same way for every screen.

The KPI definitions in `agents.eval.kpi` rest on these readings, so they are spelled out here:

Cypher runs (`cypher_stats`)
- Macro Q&A: every trace step `<agent>/cypher:<name>` (Cypher templates, the GraphRAG expansion,
  Text2Cypher) plus every generated query the direction validator refused before it ran
  (`<agent>/direction_validator`, status rejected) and every one the guard refused
  (`<agent>/cypher_guard`).
- ETF chat: every distinct graph query behind a structured citation (table `graph:...`) plus
  every `graph_query` tool call that failed or was refused (those leave no citation).
- schema mismatch: a direction-validator rejection (pattern or label not in the schema) or a
  Cypher error naming an unknown label/relationship/property.
- empty: a Cypher step observing `0 rows` / a graph citation with row_count 0.
- direction empty: the Ontology agent's templated re-check of an empty result found the
  Evidence→Event→target pattern itself empty (`0 paths`), or the validator refused a pattern
  as reversed — an empty answer caused by relationship direction, not by the filter.

Fallback calls (`fallback_events`)
- Macro: a template's one fallback (`<agent>/fallback` steps: SQL→Cypher, Cypher→SQL),
  the single-mode companion Ontology call, GraphRAG degraded to Cypher (vector step error),
  Text2Cypher replaced by a template (validator/guard refusal, execution error), web searches
  made (`payload.web_fallback.calls`), the graph-down SQL path, and a model call that failed
  and fell back to offline text.
- ETF: the answer fell back to level 2 (last observation, status partial) or level 3 (apology).
Other screens have no fallback path of this kind and report none.
"""

from __future__ import annotations

import re
from typing import Any

from agents.eval.models import CypherStats, FreshnessStatus
from data_access.contracts import AgentAnswer, TraceStep

SCHEMA_ERROR = re.compile(
    r"not in the schema|unknown relationship type|unknown (label|property|relationship)"
    r"|not defined|does not exist",
    re.IGNORECASE,
)
WARNING_MARKERS = ("최신성", "freshness", "stale")
FRESHNESS_RANK = {"healthy": 0, "stale": 1, "missing": 2}


def base_name(step: TraceStep) -> str:
    """`macro/cypher:indicator_evidence` → `cypher:indicator_evidence`."""
    return step.name.rsplit("/", 1)[-1]


def cypher_stats(answer: AgentAnswer, suite: str) -> CypherStats:
    if suite == "etf":
        return _etf_cypher(answer)
    stats = CypherStats()
    for step in answer.trace:
        name = base_name(step)
        if step.kind == "tool" and name.startswith("cypher:"):
            stats.runs += 1
            if step.status == "error" and SCHEMA_ERROR.search(step.error or ""):
                stats.schema_mismatch += 1
            if (step.observation or "").strip() == "0 rows":
                stats.empty += 1
        elif step.kind == "guard" and name == "direction_validator" and step.status == "rejected":
            stats.runs += 1
            stats.schema_mismatch += 1
            stats.direction_empty += int("(reversed)" in (step.error or ""))
        elif step.kind == "guard" and name == "cypher_guard" and step.status == "rejected":
            stats.runs += 1
            stats.rejected += 1
        elif step.kind == "guard" and name == "empty_recheck":
            stats.direction_empty += int((step.observation or "").startswith("0 paths"))
    return stats


def _etf_cypher(answer: AgentAnswer) -> CypherStats:
    stats = CypherStats()
    for c in answer.structured_citations:
        if c.table.startswith("graph:"):
            stats.runs += 1
            stats.empty += int(c.row_count == 0)
    for step in answer.trace:
        if step.kind != "tool" or step.name != "graph_query" or step.status == "ok":
            continue
        stats.runs += 1
        stats.rejected += int(step.status == "rejected")
        stats.schema_mismatch += int(bool(SCHEMA_ERROR.search(step.error or "")))
    return stats


def fallback_events(answer: AgentAnswer, suite: str) -> list[str]:
    if suite == "macro":
        return _macro_fallbacks(answer)
    if suite == "etf":
        from agents.etf.service import APOLOGY

        if answer.answer.strip() == APOLOGY:
            return ["etf: 사과 응답 (3단계)"]
        if answer.status == "partial":
            return ["etf: 마지막 관찰값 응답 (2단계)"]
    return []


def _macro_fallbacks(answer: AgentAnswer) -> list[str]:
    events: list[str] = []
    for step in answer.trace:
        name = base_name(step)
        if step.kind == "guard" and name == "fallback":
            events.append(f"template: {step.observation or ''}".strip())
        elif step.kind == "tool" and name.startswith("vector:") and step.status == "error":
            events.append("graphrag → cypher")
        elif step.kind == "guard" and name in ("direction_validator", "cypher_guard") \
                and step.status == "rejected":  # fmt: skip
            events.append(f"text2cypher → template ({name})")
        elif step.kind == "tool" and name == "cypher:text2cypher" and step.status == "error":
            events.append("text2cypher → template (error)")
        elif step.kind == "llm" and step.status == "error":
            events.append(f"llm → offline ({step.name})")
    payload = answer.payload
    if payload.get("companion_used"):
        events.append("companion: ontology")
    web = payload.get("web_fallback") or {}
    events += ["web_search"] * int(web.get("calls") or 0)
    if payload.get("degraded"):
        events.append("graph → sql")
    return events


def freshness_status(answer: AgentAnswer) -> FreshnessStatus:
    values = [v for v in answer.data_freshness.values() if v in FRESHNESS_RANK]
    if not values:
        return "none"
    worst = max(values, key=lambda v: FRESHNESS_RANK[v])
    return worst  # type: ignore[return-value]


def has_freshness_warning(answer: AgentAnswer) -> bool:
    low = (answer.answer or "").casefold()
    return any(m in low for m in WARNING_MARKERS)


def route_of(answer: AgentAnswer) -> dict[str, Any]:
    """The Macro route (intent, tool_mode, target_agents ...) or {} for other screens."""
    route = answer.payload.get("route")
    return dict(route) if isinstance(route, dict) else {}


def queries_of(answer: AgentAnswer) -> list[dict[str, Any]]:
    """Every query-like step (tool calls, guards, generated code) with its text when known."""
    from agents.macro.templates import TEMPLATES

    out: list[dict[str, Any]] = []
    for step in answer.trace:
        if step.kind not in ("tool", "guard", "code"):
            continue
        name = base_name(step)
        template = TEMPLATES.get(name.split(":", 1)[-1]) if ":" in name else None
        out.append({
            "step": step.step, "kind": step.kind, "name": step.name,
            "code": step.code or (template.text if template else None),
            "arguments": step.arguments, "status": step.status, "error": step.error,
            "observation": (step.observation or "")[:500], "duration_ms": step.duration_ms,
        })  # fmt: skip
    return out


def evidence_of(answer: AgentAnswer) -> dict[str, Any]:
    payload = answer.payload
    uncertainty = [u for r in (payload.get("agent_responses") or {}).values()
                   for u in r.get("uncertainty", [])]  # fmt: skip
    return {
        "citations": [c.model_dump(mode="json") for c in answer.citations],
        "structured_citations": [c.model_dump(mode="json") for c in answer.structured_citations],
        "key_points": payload.get("key_points", []),
        "uncertainty": uncertainty,
        "data_freshness": answer.data_freshness,
        "as_of_date": answer.as_of_date,
    }
