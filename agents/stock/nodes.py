"""The four nodes of the seed's workflow. Each returns only the state it adds or changes."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

from agents.evidence import Stopwatch
from agents.stock import report as rpt
from agents.stock import review as rv
from agents.stock import sections as sec
from agents.stock import templates as t
from agents.stock.analysis import StockFigures, compute_figures
from agents.stock.dating import date_security
from agents.stock.deps import WorkflowDeps, emit
from agents.stock.events import WINDOW_DAYS, NewsEvent, build_events
from agents.stock.fundamentals import Fundamentals, compute_fundamentals
from agents.stock.prompts import Section
from agents.stock.research_filings import FiledAccounts, filed_accounts, price_source
from agents.stock.review import ReviewCheck
from agents.stock.signals import Assessment, assess
from agents.stock.state import (
    FinancialAgentState,
    Language,
    Message,
    ToolHistoryEntry,
    WorkflowError,
)
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
    imported = price_source(deps.data, stock["security_id"])  # the report names an import
    return {**update, "news_data": news, "status": "analyzing", "errors": errors,
            "tool_history": history, "notes": notes, "messages": [message],
            "stock_data": {**stock, "price_source": imported},
            "filed_accounts": _filed_accounts(deps, stock["security_id"])}  # fmt: skip


def _filed_accounts(deps: WorkflowDeps, security_id: str) -> FiledAccounts | None:
    """The company's imported OpenDART 주요계정 (research_filings), in the trace."""
    watch = Stopwatch()
    filed = filed_accounts(deps.data, security_id)
    deps.add_step(TraceStep(
        step=deps.current_step, kind="code", name="filed_accounts", duration_ms=watch.ms,
        arguments={"security_id": security_id},
        observation=(f"{filed['source']} {filed['report']} {filed['basis']} "
                     f"({filed['filed_on']} 접수): " + ", ".join(
                         f"{line['account']} {line['amount']}" for line in filed["lines"]))
        if filed else "가져온 OpenDART 주요계정 없음",
    ))  # fmt: skip
    return filed


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


def _events(deps: WorkflowDeps, stock: dict[str, Any], series: dict[str, Any]) -> list[NewsEvent]:
    """The last WINDOW_DAYS of news about the stock, grouped into events with their reactions."""
    start = deps.data.as_of - timedelta(days=WINDOW_DAYS)
    security_id = stock["security_id"]
    return build_events(
        deps.data.recent_news(security_id, start), deps.data.earnings(security_id),
        list(zip(series["dates"], series["close"], strict=True)),
        name_keys=(stock["name"], stock.get("name_en") or ""),
        country=security_id.split(":", 1)[0], start=start, as_of=deps.data.as_of,
    )  # fmt: skip


def event_facts(events: list[NewsEvent]) -> list[dict[str, Any]]:
    """Events as the model sees them: no URLs, article titles only."""
    return [{k: v for k, v in e.items() if k != "articles"}
            | {"article_titles": [a["title"] for a in e["articles"]]} for e in events]  # fmt: skip


def analysis_fallback(stock: dict[str, Any], figures: StockFigures, fundamentals: Fundamentals,
                      events: list[NewsEvent], lang: Language) -> str:  # fmt: skip
    """The template analysis: technicals, then fundamentals, then the events."""
    return "\n\n".join([
        t.analysis_text(stock, figures, lang),
        sec.fundamentals_text(fundamentals, figures, lang),
        sec.events_text(events, lang, figures["currency"]),
    ])  # fmt: skip


def _computed(deps: WorkflowDeps, name: str, watch: Stopwatch, summary: str) -> None:
    """A computation from the database in the trace (its queries are structured citations)."""
    deps.add_step(TraceStep(step=deps.current_step, kind="code", name=name,
                            duration_ms=watch.ms, observation=summary[:500]))  # fmt: skip


def analyze(deps: WorkflowDeps, state: FinancialAgentState) -> dict[str, Any]:
    """Figures, fundamentals and news events from PostgreSQL, then the analysis (model or
    template)."""
    stock, lang = state["stock_data"] or {}, state.get("language", "ko")
    sector_rows = deps.data.sector_valuation(stock["sector"])
    figures, series = compute_figures(deps.data, stock, deps.context.history_days, sector_rows)
    watch = Stopwatch()
    fundamentals = compute_fundamentals(deps.data, stock, sector_rows)
    upcoming = fundamentals["next_earnings"]
    _computed(deps, "fundamentals", watch, f"{len(fundamentals['quarters'])} quarters, streak "
              f"{fundamentals['streak']:+d}, next {upcoming['event_date'] if upcoming else '-'}")  # fmt: skip
    watch = Stopwatch()
    events = _events(deps, stock, dict(series))
    _computed(deps, "news_events", watch, "; ".join(
        f"{e['date']} {e['category']} {t.pct(e['move'])}" for e in events) or "none")  # fmt: skip
    news = [n["title"] for n in (state.get("news_data") or {}).get("results", [])]
    fallback = analysis_fallback(stock, figures, fundamentals, events, lang)
    facts = {**_facts(state, figures), "fundamentals": fundamentals,
             "events": event_facts(events), "news_titles": news,
             "filed_accounts": state.get("filed_accounts")}  # fmt: skip
    text, error = _write(deps, "analysis", facts, fallback, lang)
    errors = [_error("analyze", None, error, critical=False)] if error else []
    return {"analysis": {"figures": figures, "series": series, "fundamentals": fundamentals,
                         "events": events, "text": text},
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
    analysis = state["analysis"] or {}
    figures: StockFigures = analysis["figures"]
    assessment: Assessment = assess(figures, analysis["fundamentals"], analysis["events"],
                                    as_of=deps.data.as_of.isoformat())  # fmt: skip
    calculations, history = _calculations(deps, state, figures)
    fallback = t.recommendation_text(assessment, calculations, lang)
    facts = {**_facts(state, figures), "view": assessment["stance"], "score": assessment["score"],
             "pillars": assessment.get("pillars"),
             "reasons": [t.signal_text(s, lang) for s in assessment["reasons"]],
             "risks": [t.signal_text(s, lang) for s in assessment["risks"]],
             "calculations": calculations}  # fmt: skip
    text, error = _write(deps, "recommendation", facts, fallback, lang)
    narrative = text  # what the review checks: the words, not the rule list below them
    if text != fallback:  # the model's words; the weighed reasons and risks stay beside them
        text += "\n\n" + t.rules_block(assessment, lang)
    recommendations = {**assessment, "calculations": calculations, "text": text,
                       "narrative": narrative if text != fallback else "",
                       "reason_texts": facts["reasons"], "risk_texts": facts["risks"]}  # fmt: skip
    errors = [_error("recommend", None, error, critical=False)] if error else []
    return {"recommendations": recommendations, "status": "reviewing", "tool_history": history,
            "errors": errors, "messages": [Message(role="assistant", content=text)]}  # fmt: skip


def _check_and_repair(deps: WorkflowDeps, state: FinancialAgentState,
                      text: str) -> tuple[str, ReviewCheck, str | None]:  # fmt: skip
    """The review's explanation check on the analysis and recommendation; repairs what fails."""
    lang = state.get("language", "ko")
    analysis, rec = state["analysis"] or {}, state["recommendations"] or {}
    items = rv.required_items(analysis["fundamentals"], analysis["events"], lang,
                              as_of=deps.data.as_of)  # fmt: skip
    narrative = rec.get("narrative", rec["text"])
    missing = rv.unexplained(text + "\n" + narrative, items)
    check = rv.ReviewCheck(passed=not missing, required=[i["key"] for i in items],
                           missing=[i["key"] for i in missing], repaired_by=None,
                           still_missing_after_model=[])  # fmt: skip
    error = None
    if missing and deps.writer.mode == "llm":
        facts = {**_facts(state, analysis["figures"]), "fundamentals": analysis["fundamentals"],
                 "events": event_facts(analysis["events"]), "previous_text": text,
                 "must_explain": [i["sentence"] for i in missing]}  # fmt: skip
        fallback = text + "\n\n" + rv.repair_paragraph(missing, lang)
        rewritten, error = _write(deps, "analysis", facts, fallback, lang)
        if error is None:  # the model rewrote it; what it still left out gets the templates
            still = rv.unexplained(rewritten + "\n" + narrative, missing)
            check["still_missing_after_model"] = [i["key"] for i in still]
            text, missing = rewritten, still
            check["repaired_by"] = "model"
    if missing:
        text += "\n\n" + rv.repair_paragraph(missing, lang)
        check["repaired_by"] = "template"
    deps.add_step(TraceStep(
        step=deps.current_step, kind="guard", name="review_check",
        arguments={"required": check["required"]},
        observation=rv.review_note(check, lang), status="ok" if check["passed"] else "error",
        error=None if check["passed"] else f"unexplained: {', '.join(check['missing'])}",
    ))  # fmt: skip
    return text, check, error


def review(deps: WorkflowDeps, state: FinancialAgentState) -> dict[str, Any]:
    """The explanation check (and repair), a check of the recommendation against its data, then
    the final report."""
    lang = state.get("language", "ko")
    stock = state["stock_data"] or {}
    analysis, rec = dict(state["analysis"] or {}), state["recommendations"] or {}
    figures: StockFigures = analysis["figures"]
    news = (state.get("news_data") or {}).get("results", [])
    notes = list(state.get("notes", []))
    analysis["text"], check, repair_error = _check_and_repair(deps, state, analysis["text"])
    analysis["review_check"] = check
    assessment = Assessment(stance=rec["stance"], score=rec["score"], reasons=rec["reasons"],
                            risks=rec["risks"], pillars=rec.get("pillars", {}))  # fmt: skip
    fallback = (t.review_text(figures, assessment, len(news), notes, lang) + " "
                + rv.review_note(check, lang))  # fmt: skip
    facts = {**_facts(state, figures), "analysis": analysis["text"], "recommendation": rec["text"],
             "news_count": len(news), "fundamentals": analysis["fundamentals"],
             "events": event_facts(analysis["events"]),
             "explanation_check": check, "notes": notes}  # fmt: skip
    text, error = _write(deps, "review", facts, fallback, lang)
    if text != fallback:
        text += "\n\n" + rv.review_note(check, lang)
    if deps.writer.budget_error:
        notes.append(deps.writer.budget_error)
    dating = date_security(stock["security_id"], deps.data.as_of, deps.data.pool)
    report = rpt.final_report(
        stock=stock, figures=figures, fundamentals=analysis["fundamentals"],
        events=analysis["events"], assessment=assessment, analysis=analysis["text"],
        recommendation=rec["text"], review=text, news=news, notes=notes,
        as_of=dating.as_of.isoformat(), lang=lang, warnings=dating.notes(lang),
        filed=state.get("filed_accounts"),
    )  # fmt: skip
    errors = [_error("review", None, e, critical=False) for e in (repair_error, error) if e]
    return {"final_report": report, "status": "done", "end_reason": "done", "errors": errors,
            "analysis": analysis, "messages": [Message(role="assistant", content=text)]}  # fmt: skip
