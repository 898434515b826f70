"""Turning a finished workflow state into the shared AgentAnswer (report, figures, evidence)."""

from __future__ import annotations

import logging
import time
from typing import Any

from psycopg_pool import ConnectionPool

from agents.stock import sections as sec
from agents.stock import templates as t
from agents.stock.data import StockData
from agents.stock.deps import WorkflowDeps
from agents.stock.report import return_basis
from agents.stock.tools import STOCK_HINT, ToolLog
from agents.stock.writer import OFFLINE_MODEL
from data_access.contracts import AgentAnswer, Citation, TraceStep
from data_access.publishers import with_sources

logger = logging.getLogger(__name__)


def _ms(started: float) -> int:
    return int((time.perf_counter() - started) * 1000)


def _status(final: dict[str, Any], deps: WorkflowDeps) -> tuple[str, str | None]:
    errors = final.get("errors", [])
    if final.get("status") != "done":
        return "error", final.get("end_reason") or "; ".join(e["message"] for e in errors)
    if deps.writer.budget_error:
        return "budget_exceeded", deps.writer.budget_error
    soft = [e["message"] for e in errors if not e["critical"]]
    if soft:
        return "partial", "; ".join(soft)
    return "ok", None


def build_answer(final: dict[str, Any], deps: WorkflowDeps, log: ToolLog, started: float,
                 pool: ConnectionPool | None) -> AgentAnswer:  # fmt: skip
    stock = final.get("stock_data") or {}
    analysis = final.get("analysis") or {}
    news = final.get("news_data") or {}
    rec = final.get("recommendations") or {}
    lang = final.get("language", "ko")
    status, error = _status(final, deps)
    figures = analysis.get("figures")
    fundamentals, events = analysis.get("fundamentals"), analysis.get("events") or []
    payload: dict[str, Any] = {
        "symbol": final.get("stock_symbol"),
        "security_id": stock.get("security_id"),
        "name": stock.get("name"),
        "language": lang,
        "report": final.get("final_report"),
        "stock": stock,
        "figures": figures,
        "figure_rows": t.figure_rows(figures, lang) if figures else [],
        "return_basis": return_basis(lang),
        "fundamentals": fundamentals,
        "fundamental_rows": sec.fundamental_rows(fundamentals, figures, lang)
        if fundamentals and figures else [],
        "earnings_rows": sec.earnings_rows(fundamentals, lang) if fundamentals else [],
        "events": events,
        "event_rows": sec.event_rows(events, lang),
        "review_check": analysis.get("review_check"),
        "series": analysis.get("series"),
        "recommendation": {k: v for k, v in rec.items() if k not in ("reasons", "risks")} | (
            {"stance_label": t.STANCE[lang][rec["stance"]]} if rec else {}),
        "news": news.get("results", []),
        "news_provider": news.get("provider"),
        "tool_log": log.records,
        "tool_history": final.get("tool_history", []),
        "notes": final.get("notes", []),
        "filed_accounts": final.get("filed_accounts"),
        "workflow": {"status": final.get("status"), "iteration": final.get("iteration"),
                     "max_iterations": final.get("max_iterations"),
                     "end_reason": final.get("end_reason"), "errors": final.get("errors", [])},
    }  # fmt: skip
    trace = _with_offline_steps(deps)
    # every citation names its publisher (OpenDART, an imported file, the demo data …)
    structured, documents = with_sources(deps.data.collector.unique_citations(),
                                         _citations(news.get("results", []), events), pool)  # fmt: skip
    return AgentAnswer(
        answer=final.get("final_report") or "",
        mode="llm" if deps.writer.mode == "llm" else "offline",
        model=deps.writer.model_id,
        status=status,  # type: ignore[arg-type]
        error=error,
        # dated by the stock's own last bar (the figures'), not the newest date of any stock
        as_of_date=str((figures or {}).get("trade_date") or deps.data.as_of.isoformat()),
        data_freshness=freshness(pool),
        citations=documents,
        structured_citations=structured,
        trace=trace,
        payload=payload,
        tokens=sum(s.tokens for s in trace),
        cost_usd=round(sum(s.cost_usd for s in trace), 6),
        duration_ms=_ms(started),
    )


def _citations(news: list[dict[str, Any]], events: list[dict[str, Any]]) -> list[Citation]:
    """The news the research step found, then the articles behind each event (once each)."""
    out: dict[str, Citation] = {}
    for n in news:
        doc_id = str(n.get("doc_id") or n["url"])
        out.setdefault(doc_id, Citation(doc_id=doc_id, title=n["title"], url=n["url"]))
    for event in events:
        for a in event["articles"]:
            out.setdefault(
                a["doc_id"], Citation(doc_id=a["doc_id"], title=a["title"], url=a["url"])
            )
    return list(out.values())


def _with_offline_steps(deps: WorkflowDeps) -> list[TraceStep]:
    """Offline runs say which sections the templates wrote (cost 0), in node order."""
    if deps.writer.mode == "llm":
        return list(deps.trace)
    out: list[TraceStep] = []
    for step in deps.trace:
        out.append(step)
        if step.kind == "node" and step.name in ("analyze", "recommend", "review"):
            out.append(TraceStep(step=step.step, kind="llm", name=step.name, model=OFFLINE_MODEL,
                                 observation="템플릿으로 작성 (LLM 호출 없음, 비용 0)"))  # fmt: skip
    return out


def unknown_symbol_answer(symbol: str, message: str, suggestions: list[dict[str, Any]],
                          data: StockData, started: float) -> AgentAnswer:  # fmt: skip
    """The seed's StockDataTool error form as an answer, with the nearest names."""
    lines = [f"**{message}**"]
    if suggestions:
        lines += ["", "혹시 이 종목을 찾으셨나요?", ""]
        lines += [f"- {s['name']} (`{s['id']}`)" for s in suggestions]
    error_form = {"symbol": symbol, "status": "error", "error": message, "retry_hint": STOCK_HINT}
    return AgentAnswer(
        answer="\n".join(lines),
        mode="offline",
        status="error",
        error=message,
        as_of_date=data.as_of.isoformat(),
        structured_citations=with_sources(data.collector.unique_citations(), pool=data.pool)[0],
        trace=[
            TraceStep(
                step=1,
                kind="tool",
                name="stock_data_tool",
                arguments={"symbol": symbol},
                status="error",
                error=message,
            )
        ],
        payload={"symbol": symbol, "suggestions": suggestions, "error_form": error_form},
        duration_ms=_ms(started),
    )


def freshness(pool: ConnectionPool | None) -> dict[str, Any]:
    """Freshness of the equity and news domains the report rests on."""
    from data_access.catalog import recent_domain_freshness

    return dict(recent_domain_freshness(("equity", "news"), pool))
