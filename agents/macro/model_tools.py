"""The tools a Macro Q&A domain agent's model may call (seed 004 §8.4-1), and what each does.

    specs = tool_specs("equity", ctx)          # OpenAI function specs with the seed's descriptions
    observation = run_tool("sql_qa", {"query": "SELECT …"}, "equity", route, ctx, part)

`sql_qa` (model-written SQL, agents/macro/sql_qa.py), `cypher_qa` (model-written Cypher: the
direction validator, then the Cypher guard and `GRAPH.RO_QUERY`), `graph_rag` (vector top-k +
graph expansion, agents/macro/graphrag.py) and `templates` (the agent's vetted templates: the
offline path itself, as a tool). Each executor writes its trace steps, key points and citations
into `part` (an AgentResponse of its own, merged by the loop) and returns a JSON-serializable
observation for the model; expected failures come back as `{"status": "error"|"rejected",
"error", "retry_hint"}`, never as exceptions. SQL results are cited in `structured_citations`
only, documents in `citations` only (§8.4-4).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agents.evidence import Stopwatch, make_citation
from agents.macro.domain import equity_agent, macro_agent, real_estate_agent
from agents.macro.graphrag import graphrag_evidence
from agents.macro.ontology import (
    FEW_SHOTS,
    graph_schema,
    offline_evidence,
    validate_cypher_direction,
)
from agents.macro.router import Route
from agents.macro.sql_qa import DOMAIN_TABLES, schema_text, sql_qa
from agents.macro.state import AgentResponse, RunContext, Series
from agents.macro.tools import add_documents
from data_access.contracts import TraceStep
from data_access.errors import QueryRejected, WorkbenchError

MAX_OBSERVED_ROWS = 30  # rows shown back to the model; the key points keep first and last
CYPHER_MAX_ROWS = 50
SQL_STEP, CYPHER_STEP, TEMPLATES_STEP = "sql_qa", "cypher:cypher_qa", "templates"
SQLQA_DESCRIPTION = (
    "SQLQA: 시계열 수치(가격, 거래량, 실적, 지수한도 등) 원천 데이터 검색 전용. One read-only "
    "PostgreSQL SELECT over these tables only (a LIMIT is added when missing):\n{schema}"
)
CYPHERQA_DESCRIPTION = (
    "CypherQA: 테마, 뉴스 팩트, 기업 간 지배구조/관계, 거시 정책 연관성 검색 전용. One read-only "
    "openCypher query; use the labels and relationships exactly in the direction shown:\n{schema}"
    "\nDirection examples:\n{shots}\nReturn event_title, event_date, theme, target, evidence_id, "
    "text, doc_id, title, url when you look for evidence. Dates are ISO strings."
)
GRAPHRAG_DESCRIPTION = (
    "GraphRAG: 문서 벡터 검색 후 그래프 확장(근거 → 이벤트 → 지표/기업). 왜 올랐는지, 어떤 "
    "리스크인지처럼 문서 근거 기반 설명이 필요할 때."
)
TEMPLATES_DESCRIPTION = (
    "Templates: 이 에이전트의 검증된 쿼리 템플릿(지표·종목·지역 기간 수치와 근거 이벤트). "
    "질문이 흔한 형태(추이, 최신값, 기간 변화)이면 가장 안전한 경로."
)
Executor = Callable[[dict[str, Any], str, Route, RunContext, AgentResponse], dict[str, Any]]
OFFLINE_AGENTS = {"macro": macro_agent, "equity": equity_agent, "real_estate": real_estate_agent}


def _spec(name: str, description: str, param: str | None = None,
          about: str = "") -> dict[str, Any]:  # fmt: skip
    props = {param: {"type": "string", "description": about}} if param else {}
    return {"type": "function", "function": {
        "name": name, "description": description,
        "parameters": {"type": "object", "properties": props, "required": [param] if param else []},
    }}  # fmt: skip


def tool_specs(agent: str, ctx: RunContext) -> list[dict[str, Any]]:
    """The tools offered to `agent`: SQL only where it has tables; graph tools when the graph
    store is up; its templates always (the Ontology agent's are its evidence templates)."""
    specs: list[dict[str, Any]] = []
    if agent in DOMAIN_TABLES:
        specs.append(_spec("sql_qa", SQLQA_DESCRIPTION.format(schema=schema_text(agent, ctx.pool)),
                           "query", "one SELECT statement"))  # fmt: skip
    if ctx.store is not None:
        schema = graph_schema(ctx.store).to_prompt()
        specs.append(_spec("cypher_qa", CYPHERQA_DESCRIPTION.format(schema=schema, shots=FEW_SHOTS),
                           "query", "one read-only openCypher query"))  # fmt: skip
        specs.append(_spec("graph_rag", GRAPHRAG_DESCRIPTION, "question",
                           "what to look for, in the question's words"))  # fmt: skip
    specs.append(_spec("templates", TEMPLATES_DESCRIPTION))
    return specs


def run_tool(name: str, args: dict[str, Any], agent: str, route: Route, ctx: RunContext,
             part: AgentResponse) -> dict[str, Any]:  # fmt: skip
    executor = EXECUTORS.get(name)
    if executor is None:
        part.trace.append(_step(part, f"model:{name}", args, "error", error="unknown tool"))
        return _error(f"unknown tool {name}", f"use one of {', '.join(EXECUTORS)}")
    return executor(args, agent, route, ctx, part)


def _error(error: str, hint: str, status: str = "error") -> dict[str, Any]:
    return {"status": status, "error": error, "retry_hint": hint}


def _step(part: AgentResponse, name: str, args: dict[str, Any], status: str = "ok", *,
          code: str | None = None, observation: str | None = None, error: str | None = None,
          ms: int = 0) -> TraceStep:  # fmt: skip
    guard = status == "rejected" or name in ("direction_validator", "cypher_guard")
    return TraceStep(step=len(part.trace) + 1, kind="guard" if guard else "tool",
                     name=name, arguments=args, code=code, observation=observation,
                     status=status, error=error, duration_ms=ms)  # type: ignore[arg-type]  # fmt: skip


def _sql(args: dict[str, Any], agent: str, route: Route, ctx: RunContext,
         part: AgentResponse) -> dict[str, Any]:  # fmt: skip
    result = sql_qa(str(args.get("query") or ""), agent, ctx)
    part.trace.append(_step(part, SQL_STEP, {"tables": list(DOMAIN_TABLES.get(agent, ()))},
                            result.status, code=result.query, ms=result.duration_ms,
                            observation=f"{len(result.rows)} rows" if result.status == "ok" else None,
                            error=result.rejected or result.error))  # fmt: skip
    if result.rejected:
        return _error(result.rejected, "한 개의 SELECT만, 제시된 테이블만 쓰세요", "rejected")
    if result.error:
        return _error(result.error, "컬럼 이름과 타입을 스키마에서 확인하세요")
    if result.citation is not None and result.rows:
        part.structured_citations.append(result.citation)
        part.key_points.append(rows_point(result.citation.dataset_code, result.rows))
        part.series += rows_series(result.rows, result.citation.dataset_code)
    return {"status": "ok", "row_count": len(result.rows),
            "rows": _jsonable(result.rows[:MAX_OBSERVED_ROWS])}  # fmt: skip


def _cypher(args: dict[str, Any], agent: str, route: Route, ctx: RunContext,
            part: AgentResponse) -> dict[str, Any]:  # fmt: skip
    query = str(args.get("query") or "").strip()
    if ctx.store is None or not query:
        return _error(
            "그래프 저장소가 없거나 쿼리가 비었습니다", "graph_rag 또는 templates를 쓰세요"
        )
    problems = validate_cypher_direction(query, graph_schema(ctx.store))
    part.trace.append(_step(part, "direction_validator", {}, "rejected" if problems else "ok",
                            code=query, error="; ".join(problems) or None))  # fmt: skip
    if problems:
        return _error("; ".join(problems), "관계 방향을 스키마대로 고치세요", "rejected")
    watch = Stopwatch()
    try:
        rows = ctx.store.run_guarded(query, max_rows=CYPHER_MAX_ROWS)
    except QueryRejected as e:
        part.trace.append(_step(part, "cypher_guard", {}, "rejected", code=query, error=str(e),
                                ms=watch.ms))  # fmt: skip
        return _error(str(e), "읽기 전용 MATCH … RETURN 쿼리만 허용됩니다", "rejected")
    except WorkbenchError as e:
        part.trace.append(_step(part, CYPHER_STEP, {}, "error", code=query, error=str(e),
                                ms=watch.ms))  # fmt: skip
        return _error(str(e), "스키마의 라벨·속성 이름을 확인하세요")
    part.trace.append(_step(part, CYPHER_STEP, {}, code=query, observation=f"{len(rows)} rows",
                            ms=watch.ms))  # fmt: skip
    rows = [dict(r) for r in rows]
    if rows and all(r.get("doc_id") and r.get("title") for r in rows):
        add_documents(part, rows)  # evidence rows → document citations and paths
    elif rows:  # figures from the graph: a structured citation, like SQL
        part.structured_citations.append(make_citation(
            dataset_code="GRAPH", table="graph", query=query, params=None, row_count=len(rows),
            filters={"model_cypher": True}, as_of_date=ctx.as_of_date))  # fmt: skip
        part.key_points.append(rows_point("GRAPH", rows))
    return {"status": "ok", "row_count": len(rows), "rows": _jsonable(rows[:MAX_OBSERVED_ROWS])}


def _graph_rag(args: dict[str, Any], agent: str, route: Route, ctx: RunContext,
               part: AgentResponse) -> dict[str, Any]:  # fmt: skip
    asked = str(args.get("question") or "").strip() or route.question
    rows = graphrag_evidence(route.model_copy(update={"question": asked}), ctx, part)
    if rows is None:
        return _error("벡터 인덱스를 쓸 수 없습니다", "cypher_qa 또는 templates를 쓰세요")
    add_documents(part, rows)
    return {"status": "ok", "documents": [{"doc_id": c.doc_id, "title": c.title}
                                          for c in part.citations],
            "evidence": [{"event": p["event"], "date": p["event_date"], "text": p["evidence"]}
                         for p in part.paths[:8]]}  # fmt: skip


def _templates(args: dict[str, Any], agent: str, route: Route, ctx: RunContext,
               part: AgentResponse) -> dict[str, Any]:  # fmt: skip
    part.trace.append(_step(part, TEMPLATES_STEP, {"agent": agent}))
    run_templates(agent, route, ctx, part)
    part.trace[0].observation = f"{len(part.key_points)} key points"
    return {"status": "ok" if part.key_points else "empty", "key_points": part.key_points[:12],
            "uncertainty": part.uncertainty[:6]}  # fmt: skip


def run_templates(agent: str, route: Route, ctx: RunContext, part: AgentResponse) -> None:
    """The agent's offline path (its templates, with their own fallbacks) into `part`."""
    if agent in OFFLINE_AGENTS:
        merge_into(part, OFFLINE_AGENTS[agent](route, ctx))
        return
    add_documents(part, offline_evidence(route, ctx, part) or [])


def merge_into(into: AgentResponse, part: AgentResponse) -> None:
    """`part`'s steps, points, citations, series and paths appended to `into`, without repeats."""
    offset = len(into.trace)
    into.trace += [t.model_copy(update={"step": offset + i + 1}) for i, t in enumerate(part.trace)]
    into.key_points += [p for p in part.key_points if p not in into.key_points]
    into.uncertainty += [u for u in part.uncertainty if u not in into.uncertainty]
    docs = {c.doc_id for c in into.citations}
    into.citations += [c for c in part.citations if c.doc_id not in docs]
    prints = {(s.query_fingerprint, s.table) for s in into.structured_citations}
    into.structured_citations += [s for s in part.structured_citations
                                  if (s.query_fingerprint, s.table) not in prints]  # fmt: skip
    keys = {s.key for s in into.series}
    into.series += [s for s in part.series if s.key not in keys]
    seen = {p.get("evidence_id") for p in into.paths}
    into.paths += [p for p in part.paths if p.get("evidence_id") not in seen]
    into.needs_web_fallback = into.needs_web_fallback or part.needs_web_fallback
    if part.status == "degraded":
        into.status = "degraded"


def rows_point(dataset: str, rows: list[dict[str, Any]]) -> str:
    """A key point stating what the rows hold: their count, the first and the last row."""
    first, last = rows[0], rows[-1]
    text = f"{dataset} 조회 결과 {len(rows)}행: " + _row(first)
    return text + (f" … {_row(last)}" if len(rows) > 1 else "") + "."


def _row(row: dict[str, Any]) -> str:
    return ", ".join(f"{k}={_fmt(v)}" for k, v in list(row.items())[:6])


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:,.2f}"
    if hasattr(value, "is_finite"):  # Decimal
        return f"{float(value):,.2f}"
    return str(value)[:40]


def rows_series(rows: list[dict[str, Any]], key: str) -> list[Series]:
    """A chart when the rows are a time series: one date column and one numeric column."""
    if len(rows) < 2:
        return []
    cols = list(rows[0])
    dates = [c for c in cols if c.endswith(("date", "month", "day"))]
    values = [c for c in cols if c not in dates and _numeric(rows[0][c])]
    if not dates or not values:
        return []
    d, v = dates[0], values[0]
    points = sorted((str(r[d])[:10], float(r[v])) for r in rows if r[v] is not None and r[d])
    return [Series(key=f"sql_qa:{key}:{v}", title=f"{key} {v}", points=points)]


def _numeric(value: Any) -> bool:
    return isinstance(value, int | float) or hasattr(value, "is_finite")


def _jsonable(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v if isinstance(v, int | float | str | None) else str(v) for k, v in r.items()}
            for r in rows]  # fmt: skip


EXECUTORS: dict[str, Executor] = {"sql_qa": _sql, "cypher_qa": _cypher, "graph_rag": _graph_rag,
                                  "templates": _templates}  # fmt: skip
