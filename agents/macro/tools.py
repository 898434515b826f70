"""Tool plumbing shared by the domain agents: run a template with its one fallback, record the
trace step and citation, turn evidence rows into document citations and paths."""

from __future__ import annotations

import json
from typing import Any

from agents.evidence import Stopwatch
from agents.macro.state import AgentResponse, RunContext
from agents.macro.templates import TemplateResult, get_template, run_template
from data_access.contracts import Citation, TraceStep
from data_access.errors import QueryRejected, StoreUnavailable, WorkbenchError


def lang_text(lang: str, ko: str, en: str) -> str:
    return ko if lang == "ko" else en


def run_step(resp: AgentResponse, ctx: RunContext, name: str, params: dict[str, Any],
             *, allow_fallback: bool = True) -> TemplateResult | None:  # fmt: skip
    """Run a template; on an empty result or a store outage run its fallback once."""
    watch = Stopwatch()
    try:
        result = run_template(name, params, pool=ctx.pool, store=ctx.store)
    except (StoreUnavailable, WorkbenchError) as e:
        status = "rejected" if isinstance(e, QueryRejected) else "error"
        _trace(resp, name, params, watch.ms, status, error=str(e))
        reason = "unavailable" if isinstance(e, StoreUnavailable) else "error"
        if isinstance(e, StoreUnavailable):
            resp.uncertainty.append(f"그래프/DB 장애로 {name} 대신 대체 경로 사용: {e}")
            resp.status = "degraded"
        return _fallback(resp, ctx, name, params, reason) if allow_fallback else None
    _trace(resp, name, params, result.duration_ms, "ok", rows=len(result.rows))
    if result.citation is not None:
        resp.structured_citations.append(result.citation)
    if not result.rows and allow_fallback:
        return _fallback(resp, ctx, name, params, "empty") or result
    return result


def _fallback(resp: AgentResponse, ctx: RunContext, name: str, params: dict[str, Any],
              reason: str) -> TemplateResult | None:  # fmt: skip
    template = get_template(name)
    if not template.fallback or (reason not in template.fallback_when and reason != "error"):
        return None
    fallback = get_template(template.fallback)
    fb_params = {k: params.get(k) for k in fallback.required}
    for key in fallback.required:  # documents_by_keyword takes lists that may be absent
        if fb_params[key] is None and key in ("themes", "codes", "ids"):
            fb_params[key] = []
    resp.trace.append(TraceStep(step=len(resp.trace) + 1, kind="guard", name="fallback",
                                observation=f"{name} → {fallback.name} ({reason})"))  # fmt: skip
    return run_step(resp, ctx, fallback.name, fb_params, allow_fallback=False)


def _trace(resp: AgentResponse, name: str, params: dict[str, Any], ms: int, status: str,
           *, rows: int | None = None, error: str | None = None) -> None:  # fmt: skip
    kind = get_template(name).kind
    resp.trace.append(TraceStep(
        step=len(resp.trace) + 1, kind="tool", name=f"{kind}:{name}",
        arguments=json.loads(json.dumps(params, default=str)), duration_ms=ms,
        status=status,  # type: ignore[arg-type]
        observation=None if rows is None else f"{rows} rows", error=error,
    ))  # fmt: skip


def add_documents(resp: AgentResponse, rows: list[dict[str, Any]], limit: int = 6) -> None:
    """Evidence rows → event→target paths (one per evidence) and document citations (documents
    only, one per document: several evidence rows of one document cite it once)."""
    seen_evidence = {p.get("evidence_id") for p in resp.paths}
    seen_docs = {c.doc_id for c in resp.citations}
    for row in rows:
        evidence_id = row.get("evidence_id")
        if evidence_id in seen_evidence or len(resp.paths) >= 2 * limit:
            continue
        seen_evidence.add(evidence_id)
        resp.paths.append({
            "event": row.get("event_title"), "event_date": str(row.get("event_date") or row.get("day") or ""),
            "theme": row.get("theme"), "target": row.get("target"), "evidence": row.get("text"),
            "evidence_id": evidence_id, "doc_id": str(row["doc_id"]),
        })  # fmt: skip
        doc_id = str(row["doc_id"])
        if doc_id in seen_docs or len(resp.citations) >= limit:
            continue
        seen_docs.add(doc_id)
        resp.citations.append(Citation(doc_id=doc_id, title=str(row["title"]),
                                       url=row.get("url"), evidence_id=evidence_id))  # fmt: skip


def pct(a: float, b: float) -> float:
    return (b / a - 1.0) * 100.0 if a else 0.0


def distinct_paths(paths: list[dict[str, Any]], limit: int) -> list[dict[str, Any]]:
    """The first `limit` paths to different events or targets (one event backed by several
    documents is one path, not four identical lines)."""
    seen: set[tuple[str, str, str]] = set()
    out = []
    for path in paths:
        key = (str(path.get("event")), str(path.get("event_date")), str(path.get("target")))
        if key not in seen:
            seen.add(key)
            out.append(path)
    return out[:limit]
