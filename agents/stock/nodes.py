"""The four nodes of the seed's workflow. Each returns only the state it adds or changes."""

from __future__ import annotations

import json
from typing import Any

from agents.stock import report as rpt
from agents.stock import templates as t
from agents.stock.analysis import StockFigures, compute_figures
from agents.stock.deps import WorkflowDeps, emit
from agents.stock.prompts import Section
from agents.stock.signals import Assessment, assess
from agents.stock.state import FinancialAgentState, Message, ToolHistoryEntry, WorkflowError
from agents.stock.tools import StockTool, ToolResult
from data_access.contracts import TraceStep


def _call(deps: WorkflowDeps, state: FinancialAgentState, node: str, tool: StockTool,
          **inputs: Any) -> tuple[ToolResult, ToolHistoryEntry]:  # fmt: skip
    """Run a tool, put it in the trace, and describe it for `tool_history`."""
    calls_before = deps.data.collector.last_seq
    result = tool.run(**inputs)
    duration = sum(c.duration_ms for c in deps.data.collector.calls_since(calls_before))
    ok = result["status"] == "success"
    deps.add_step(TraceStep(
        step=deps.current_step, kind="tool", name=tool.name, arguments=inputs,
        observation=json.dumps(result, ensure_ascii=False, default=str)[:500],
        duration_ms=duration, status="ok" if ok else "error", error=result.get("error"),
    ))  # fmt: skip
    entry = ToolHistoryEntry(node=node, iteration=state.get("iteration", 0), tool=tool.name,
                             inputs=inputs, status=result["status"],
                             attempts=int(result.get("attempts", 1)), error=result.get("error"))  # fmt: skip
    return result, entry


def _error(node: str, tool: str | None, message: str, *, critical: bool,
           retryable: bool = True) -> WorkflowError:  # fmt: skip
    return WorkflowError(node=node, tool=tool, message=message, critical=critical,
                         retryable=retryable)  # fmt: skip


def research(deps: WorkflowDeps, state: FinancialAgentState) -> dict[str, Any]:
    """StockDataTool, then FinancialNewsTool (local store when the configured provider fails)."""
    iteration = state.get("iteration", 0) + 1
    state = {**state, "iteration": iteration}  # type: ignore[typeddict-item]
    stock, entry = _call(deps, state, "research", deps.tools.stock, symbol=state["stock_symbol"])
    history, errors, notes = [entry], [], list(stock.get("notes", []))
    update: dict[str, Any] = {"iteration": iteration, "stock_data": stock}
    if stock["status"] != "success":
        errors.append(_error("research", stock_tool := deps.tools.stock.name, stock["error"],
                             critical=True, retryable=bool(stock.get("retryable"))))  # fmt: skip
        emit({"event": "retry_workflow", "tool": stock_tool, "iteration": iteration})
        return {**update, "status": "researching", "errors": errors, "tool_history": history,
                "notes": notes}  # fmt: skip
    query = f"{stock['name']} {stock['security_id'].split(':', 1)[1]}"
    limit = deps.context.news_max_results
    news, entry = _call(deps, state, "research", deps.tools.news, query=query, max_results=limit)
    history.append(entry)
    if news["status"] != "success":
        errors.append(_error("research", deps.tools.news.name, news["error"], critical=False))
        if deps.tools.news.provider != "local":
            notes.append("Tavily 뉴스 검색이 실패해 로컬 뉴스 저장소를 사용했습니다.")
            news, entry = _call(deps, state, "research", deps.tools.local_news, query=query,
                                max_results=limit)  # fmt: skip
            history.append(entry)
    elif news["provider"] == "local" and deps.context.tavily_api_key is None:
        notes.append("Tavily가 설정되지 않아 로컬 뉴스 저장소에서 검색했습니다.")
    message = Message(role="assistant", content=f"research: {stock['name']} "
                      f"{stock['current_price']} ({stock.get('source')}), news {len(news.get('results', []))}")  # fmt: skip
    return {**update, "news_data": news, "status": "analyzing", "errors": errors,
            "tool_history": history, "notes": notes, "messages": [message]}  # fmt: skip


def _write(deps: WorkflowDeps, section: Section, facts: dict[str, Any], fallback: str,
           lang: Any) -> tuple[str, str | None]:  # fmt: skip
    emit({"event": "llm_start", "section": section, "model": deps.writer.model_id})
    written = deps.writer.write(section, facts, fallback, lang)
    if deps.writer.mode == "llm":
        deps.add_step(TraceStep(
            step=deps.current_step, kind="llm", name=section, model=written.model,
            duration_ms=written.duration_ms, tokens=written.usage.tokens,
            cost_usd=written.usage.cost_usd, status="error" if written.error else "ok",
            error=written.error, observation=written.text[:300],
        ))  # fmt: skip
    return written.text, written.error


def _facts(state: FinancialAgentState, figures: StockFigures) -> dict[str, Any]:
    stock = state["stock_data"] or {}
    keep = ("security_id", "name", "name_en", "market", "sector", "currency", "current_price",
            "change", "change_percent", "volume", "market_cap", "pe_ratio", "52w_high", "52w_low")  # fmt: skip
    return {"stock": {k: stock.get(k) for k in keep}, "figures": figures}


def analyze(deps: WorkflowDeps, state: FinancialAgentState) -> dict[str, Any]:
    """Figures from PostgreSQL, then the analysis paragraph (model or template)."""
    stock, lang = state["stock_data"] or {}, state.get("language", "ko")
    figures, series = compute_figures(deps.data, stock, deps.context.history_days)
    news = [n["title"] for n in (state.get("news_data") or {}).get("results", [])]
    fallback = t.analysis_text(stock, figures, lang)
    text, error = _write(deps, "analysis", {**_facts(state, figures), "news_titles": news},
                         fallback, lang)  # fmt: skip
    errors = [_error("analyze", None, error, critical=False)] if error else []
    return {"analysis": {"figures": figures, "series": series, "text": text},
            "status": "recommending", "errors": errors,
            "messages": [Message(role="assistant", content=text)]}  # fmt: skip


def _calculations(deps: WorkflowDeps, state: FinancialAgentState,
                  f: StockFigures) -> tuple[list[dict[str, Any]], list[ToolHistoryEntry]]:  # fmt: skip
    ko = state.get("language", "ko") == "ko"
    p, high, low = _g(f["price"]), _g(f["high_52w"]), _g(f["low_52w"])
    wanted = [("52주 고가까지 (%)" if ko else "Upside to 52W high (%)", f"({high} - {p}) / {p} * 100"),
              ("52주 저가까지 (%)" if ko else "Downside to 52W low (%)", f"({low} - {p}) / {p} * 100")]  # fmt: skip
    if f["pe"] and f["pe"] > 0 and f["sector_median_pe"]:
        label = "섹터 중앙 PER 적용 가격" if ko else "Price at sector median P/E"
        wanted.append((label, f"{p} * {_g(f['sector_median_pe'])} / {_g(f['pe'])}"))
    out, history = [], []
    for label, expression in wanted:
        result, entry = _call(
            deps, state, "recommend", deps.tools.calculator, expression=expression
        )
        history.append(entry)
        out.append({"label": label, "expression": expression, "result": result.get("result"),
                    "status": result["status"]})  # fmt: skip
    return out, history


def _g(value: float) -> str:
    """A number as a calculator literal without a trailing '.0' (104300, 15.115)."""
    return format(value, ".10g")


def recommend(deps: WorkflowDeps, state: FinancialAgentState) -> dict[str, Any]:
    """Signals from the figures, CalculatorTool for the distances, then the recommendation text."""
    lang = state.get("language", "ko")
    figures: StockFigures = (state["analysis"] or {})["figures"]
    assessment: Assessment = assess(figures)
    calculations, history = _calculations(deps, state, figures)
    fallback = t.recommendation_text(assessment, calculations, lang)
    facts = {**_facts(state, figures), "view": assessment["stance"], "score": assessment["score"],
             "reasons": [t.signal_text(s, lang) for s in assessment["reasons"]],
             "risks": [t.signal_text(s, lang) for s in assessment["risks"]],
             "calculations": calculations}  # fmt: skip
    text, error = _write(deps, "recommendation", facts, fallback, lang)
    recommendations = {**assessment, "calculations": calculations, "text": text,
                       "reason_texts": facts["reasons"], "risk_texts": facts["risks"]}  # fmt: skip
    errors = [_error("recommend", None, error, critical=False)] if error else []
    return {"recommendations": recommendations, "status": "reviewing", "tool_history": history,
            "errors": errors, "messages": [Message(role="assistant", content=text)]}  # fmt: skip


def review(deps: WorkflowDeps, state: FinancialAgentState) -> dict[str, Any]:
    """A check of the recommendation against its data, then the final report."""
    lang = state.get("language", "ko")
    stock = state["stock_data"] or {}
    analysis, rec = state["analysis"] or {}, state["recommendations"] or {}
    figures: StockFigures = analysis["figures"]
    news = (state.get("news_data") or {}).get("results", [])
    notes = list(state.get("notes", []))
    assessment = Assessment(stance=rec["stance"], score=rec["score"], reasons=rec["reasons"],
                            risks=rec["risks"])  # fmt: skip
    fallback = t.review_text(figures, assessment, len(news), notes, lang)
    facts = {**_facts(state, figures), "analysis": analysis["text"], "recommendation": rec["text"],
             "news_count": len(news), "notes": notes}  # fmt: skip
    text, error = _write(deps, "review", facts, fallback, lang)
    if deps.writer.budget_error:
        notes.append(deps.writer.budget_error)
    report = rpt.final_report(
        stock=stock, figures=figures, assessment=assessment, analysis=analysis["text"],
        recommendation=rec["text"], review=text, news=news, notes=notes,
        as_of=deps.data.as_of.isoformat(), lang=lang,
    )  # fmt: skip
    errors = [_error("review", None, error, critical=False)] if error else []
    return {"final_report": report, "status": "done", "end_reason": "done", "errors": errors,
            "messages": [Message(role="assistant", content=text)]}  # fmt: skip
