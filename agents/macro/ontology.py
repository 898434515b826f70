"""Ontology Master and GeneralKnowledge agents (seed 004 §3.B, §12.2-5, §2.3-6).

Ontology: relationship/path questions over Event → Indicator/Company with Evidence → Document,
from the evidence templates and GraphRAG, with one templated re-check when the result is empty.
With a model the agent is a tool loop (agents/macro/model_agents.py) whose `cypher_qa` tool uses
the direction-annotated schema (`GraphSchema.to_prompt()`), the right/wrong few-shots and the
direction validator below; this module's path is then its fallback.
"""

from __future__ import annotations

import re
import time
from typing import Any

from agents.evidence import Stopwatch
from agents.macro.graphrag import graphrag_evidence
from agents.macro.llm_calls import complete
from agents.macro.router import Route
from agents.macro.state import AgentResponse, RunContext
from agents.macro.templates import identifiers_as_code
from agents.macro.tools import add_documents, distinct_paths, lang_text, run_step
from data_access.contracts import Citation, TraceStep
from data_access.errors import WorkbenchError
from data_access.graph.base import GraphSchema, GraphStore

RECHECK_CYPHER = "MATCH (v:Evidence)-[:SUPPORTS]->(e:Event)-[:AFFECTS]->(t) RETURN count(v) AS n"
FEW_SHOTS = """Right: MATCH (v:Evidence)-[:SUPPORTS]->(e:Event)-[:AFFECTS]->(i:EconomicIndicator)
Wrong: MATCH (e:Event)-[:SUPPORTS]->(v:Evidence)   // SUPPORTS points from Evidence to Event
Right: MATCH (c:Company)-[:HAS_DAILY_BAR]->(b:EquityDailyBar)
Wrong: MATCH (b:EquityDailyBar)-[:HAS_DAILY_BAR]->(c:Company)
Right: MATCH (v:Evidence)-[:FROM_DOCUMENT]->(d:Document)"""
_NODE = re.compile(r"\(([^()]*)\)")
_REL = re.compile(r"^\s*(<?)-\[\s*\w*\s*:\s*(\w+)[^\]]*\]-(>?)\s*$")
_SCHEMA_CACHE: dict[int, tuple[float, GraphSchema]] = {}


def graph_schema(store: GraphStore, ttl_s: float = 300) -> GraphSchema:
    cached = _SCHEMA_CACHE.get(id(store))
    if cached and time.monotonic() - cached[0] < ttl_s:
        return cached[1]
    schema = store.schema()
    _SCHEMA_CACHE[id(store)] = (time.monotonic(), schema)
    return schema


def validate_cypher_direction(cypher: str, schema: GraphSchema) -> list[str]:
    """Relationship patterns whose direction (or labels) contradict the schema."""
    known = {(r.from_label, r.type, r.to_label) for r in schema.relationships}
    types = {r.type for r in schema.relationships}
    nodes = list(_NODE.finditer(cypher))
    labels: dict[str, str] = {}
    for n in nodes:
        var, _, label = n.group(1).split("{")[0].partition(":")
        if label.strip():
            labels[var.strip()] = label.strip().split(":")[0].split()[0]
    errors: list[str] = []
    for left, right in zip(nodes, nodes[1:], strict=False):
        rel = _REL.match(cypher[left.end() : right.start()])
        if not rel:
            continue
        back, rel_type, fwd = rel.groups()
        a, b = _label(left.group(1), labels), _label(right.group(1), labels)
        src, dst = (b, a) if back and not fwd else (a, b)
        if rel_type not in types:
            errors.append(f"unknown relationship type {rel_type}")
        elif src and dst and (src, rel_type, dst) not in known:
            hint = " (reversed)" if (dst, rel_type, src) in known else ""
            errors.append(f"(:{src})-[:{rel_type}]->(:{dst}) is not in the schema{hint}")
    return errors


def _label(node_text: str, labels: dict[str, str]) -> str | None:
    var, _, label = node_text.split("{")[0].partition(":")
    if label.strip():
        return label.strip().split(":")[0].split()[0]
    return labels.get(var.strip())


def ontology_agent(route: Route, ctx: RunContext) -> AgentResponse:
    watch = Stopwatch()
    fresh = ctx.freshness.get("documents", "healthy")
    resp = AgentResponse(agent="ontology", as_of_date=ctx.as_of_date,
                         data_freshness={"documents": fresh})  # fmt: skip
    rows = offline_evidence(route, ctx, resp)
    if not rows:
        recheck_empty(ctx, resp)
    add_documents(resp, rows or [])
    resp.key_points += path_points(resp, route)
    resp.status = "ok" if rows else "empty"
    resp.needs_web_fallback = not rows
    resp.duration_ms = watch.ms
    return resp


def path_points(resp: AgentResponse, route: Route, limit: int = 4) -> list[str]:
    """The first evidence paths as key points (what the answer writer sees of the graph)."""
    points = []
    for path in distinct_paths(resp.paths, limit):
        target = f" → {path['target']}" if path.get("target") else ""
        points.append(lang_text(
            route.language, f"경로: 근거 → 이벤트 '{path['event']}'({path['event_date']}, 테마 "
            f"{path['theme']}){target}", f"Path: evidence → event '{path['event']}' "
            f"({path['event_date']}, theme {path['theme']}){target}"))  # fmt: skip
    return points


def offline_evidence(route: Route, ctx: RunContext, resp: AgentResponse) -> list[dict[str, Any]]:
    """Seed §3.B: a question anchored on a named indicator/company → its Cypher template first;
    an explanatory one → GraphRAG first. Each backs the other up once when it finds nothing."""
    anchored = bool(route.matched_security_ids) or bool(route.indicator_codes and not route.themes)
    if anchored:
        return _template_evidence(route, ctx, resp) or graphrag_evidence(route, ctx, resp) or []
    rows = graphrag_evidence(route, ctx, resp)
    return rows if rows else _template_evidence(route, ctx, resp)


def _template_evidence(route: Route, ctx: RunContext, resp: AgentResponse) -> list[dict[str, Any]]:
    params: dict[str, Any] = {"as_of": ctx.as_of_date, "themes": route.themes or ["금리"],
                              "codes": route.indicator_codes, "ids": route.matched_security_ids}  # fmt: skip
    if route.matched_security_ids:
        name = "company_evidence"
    elif route.indicator_codes and not route.themes:
        name = "indicator_evidence"
    else:
        name = "theme_evidence"
    result = run_step(resp, ctx, name, params)
    return result.rows if result else []


def recheck_empty(ctx: RunContext, resp: AgentResponse) -> None:
    """One templated re-check: is the result empty because of the filter, or the pattern?"""
    if ctx.store is None:
        return
    watch = Stopwatch()
    try:
        n = int(ctx.store.run_guarded(RECHECK_CYPHER)[0]["n"])
    except WorkbenchError as e:
        resp.uncertainty.append(f"재검증 쿼리 실패: {e}")
        return
    verdict = "조건 미충족(패턴은 존재)" if n else "패턴 자체가 비어 있음(방향/스키마 확인 필요)"
    resp.trace.append(TraceStep(step=len(resp.trace) + 1, kind="guard", name="empty_recheck",
                                code=RECHECK_CYPHER, observation=f"{n} paths: {verdict}",
                                duration_ms=watch.ms))  # fmt: skip
    resp.uncertainty.append(f"빈 결과 재검증: {verdict}")


def glossary_points(resp: AgentResponse, route: Route, *, first: bool = False) -> bool:
    """The glossary entry the question names, as key points cited by entry ('first': before the
    figures, for '스프레드가 뭐야? 지금 장단기 스프레드는 얼마야?')."""
    from agents.understanding.glossary import entry_for, load_glossary  # loads on first use

    frame = route.frame
    entry = (load_glossary().get(frame.definition_term) if frame and frame.definition_term
             else entry_for([m.surface for m in frame.measures] if frame else [], route.question))  # fmt: skip
    if entry is None:
        return False
    ko = route.language == "ko"
    # a Korean answer names the term in Korean (no English gloss) and the data's tables and
    # columns as code
    head = entry.term_ko if ko else f"{entry.term_en} ({entry.term_ko})"
    points = [f"**{head}** — " + (entry.definition_ko if ko else entry.definition_en),
              ("데이터에서 읽는 법: " + identifiers_as_code(entry.in_data_ko)) if ko
              else ("In this data: " + entry.in_data_en)]  # fmt: skip
    at = 0 if first else len(resp.key_points)
    resp.key_points[at:at] = points
    resp.citations.append(Citation(doc_id=f"glossary:{entry.id}",
                                   title=f"내장 용어집: {entry.term_ko}" if ko
                                   else f"Bundled glossary: {entry.term_en}"))  # fmt: skip
    return True


def general_agent(route: Route, ctx: RunContext) -> AgentResponse:
    """Non-financial questions: the model answers directly, no DB or graph call."""
    watch = Stopwatch()
    resp = AgentResponse(agent="general_knowledge", as_of_date=ctx.as_of_date)
    define = route.frame is not None and route.frame.operation.kind == "define"
    if ctx.macro_model is None and define and glossary_points(resp, route):
        pass  # '스프레드가 뭐야?': the bundled glossary's entry, cited; no database or graph call
    elif ctx.macro_model is None:
        resp.status = "skipped"
        resp.uncertainty.append(lang_text(
            route.language,
            "오프라인 모드에서는 금융 데이터와 무관한 일반 질문에 답할 수 없습니다. 모델을 설정하면 "
            "GeneralKnowledge 에이전트가 직접 답합니다.",
            "Offline mode cannot answer general (non-financial) questions; configure a model to "
            "let the GeneralKnowledge agent answer directly."))  # fmt: skip
    else:
        system = "Answer briefly in the language of the question. No financial data is available."
        text, step = complete(ctx.macro_model, ctx.settings, system, route.question, "general",
                              budget=ctx.budget, steps=ctx.llm_steps)  # fmt: skip
        step.step = 1
        resp.trace.append(step)
        if text:
            resp.key_points.append(text.strip())
        else:
            resp.status = "error"
            resp.uncertainty.append(step.error or "모델 응답이 비어 있습니다.")
    resp.duration_ms = watch.ms
    return resp
