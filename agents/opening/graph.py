"""The LangGraph flow of seed 003.

    prefetch_news → load_context → prepare_messages → agent ⇄ tools → extract_script → cleanup

`build_graph(deps)` compiles a fresh graph for one run (tests pass an in-memory checkpointer).
A day without news goes from prefetch_news straight to cleanup; an output that breaks the
rules goes back to the agent once with the reasons, then is rejected (never saved).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, Literal

from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.tools import BaseTool
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.prebuilt import ToolNode
from psycopg_pool import ConnectionPool

from agents.evidence import EvidenceCollector
from agents.llm import TurnBudget
from agents.opening import context as market
from agents.opening import news_store
from agents.opening.files import RunCache, save_result_files
from agents.opening.keywords import top_words
from agents.opening.models import ChatModelChoice, usage_of_message
from agents.opening.prompts import initial_messages, repair_message
from agents.opening.state import OpeningState
from agents.opening.validate import validate

MAX_REPAIRS = 1
NODE_LABELS = {
    "prefetch_news": "뉴스 수집",
    "load_context": "시장 컨텍스트",
    "prepare_messages": "프롬프트 준비",
    "agent": "에이전트 판단",
    "tools": "도구 실행",
    "extract_script": "대본 추출·검증",
    "cleanup": "캐시 정리",
}


@dataclass
class LlmCall:
    model: str
    tokens: int
    cost_usd: float
    duration_ms: int


@dataclass
class RunDeps:
    """Everything one run's nodes use; built by the service (or a test) per run."""

    day: date
    choice: ChatModelChoice
    tools: list[BaseTool]
    cache: RunCache
    home: Path
    collector: EvidenceCollector
    budget: TurnBudget
    pool: ConnectionPool | None = None
    llm_calls: list[LlmCall] = field(default_factory=list)
    saved: list[str] = field(default_factory=list)  # result files written


def prefetch_to_cache(day: date, cache: RunCache, pool: ConnectionPool | None,
                      collector: EvidenceCollector | None = None) -> dict[str, Any]:  # fmt: skip
    """The day's window from PostgreSQL into the run cache (news_list.json, titles.txt)."""
    read = news_store.news_in_window(day, pool)
    if collector is not None:
        collector.add_citation(read.citation)
    articles = [{"pk": r["pk"], "title": r["title"], "tickers": list(r["tickers"]),
                 "publish_et_iso": r["published_at"].astimezone(news_store.ET).isoformat(),
                 "url": r["url"], "source": r["source"], "lang": r["lang"]}
                for r in read.rows]  # fmt: skip
    start, end = news_store.window_bounds(day)
    meta = {"date": day.isoformat(), "window_start": start.isoformat(),
            "window_end": end.isoformat(), "count": len(articles)}  # fmt: skip
    cache.write_news_list({**meta, "articles": articles})
    return meta


def build_graph(deps: RunDeps, checkpointer: BaseCheckpointSaver[Any] | None = None
                ) -> CompiledStateGraph[Any, Any, Any, Any]:  # fmt: skip
    bound = deps.choice.model.bind_tools(deps.tools)

    def prefetch_news(state: OpeningState) -> dict[str, Any]:
        meta = prefetch_to_cache(deps.day, deps.cache, deps.pool, deps.collector)
        return {"news_meta": meta, "date": deps.day.isoformat(), "attempts": 0,
                "stop_reason": None if meta["count"] else "no_news"}  # fmt: skip

    def load_context(state: OpeningState) -> dict[str, Any]:
        context = market.market_context(deps.day, deps.pool, deps.collector)
        context["title_top_words"] = top_words(deps.cache.read_titles())
        return {"context_json": context}

    def prepare_messages(state: OpeningState) -> dict[str, Any]:
        return {"messages": initial_messages(deps.tools, market.compact(state["context_json"]))}

    def agent(state: OpeningState) -> dict[str, Any]:
        if deps.budget.exceeded:
            return {"stop_reason": "budget_exceeded", "messages": [AIMessage(content="")]}
        started = time.perf_counter()
        reply: BaseMessage = bound.invoke(list(state["messages"]))
        if isinstance(reply, AIMessage):
            usage = usage_of_message(reply, deps.choice.model_id)
            deps.budget.add(usage)
            deps.llm_calls.append(LlmCall(deps.choice.label, usage.tokens, usage.cost_usd,
                                          int((time.perf_counter() - started) * 1000)))  # fmt: skip
        return {"messages": [reply]}

    def extract_script(state: OpeningState) -> dict[str, Any]:
        if state.get("stop_reason"):
            return {}
        last = state["messages"][-1]
        text = last.content if isinstance(last.content, str) else str(last.content)
        count = int(state["news_meta"]["count"])
        check = validate(text, deps.collector.calls, deps.day.isoformat(), count)
        attempts = int(state.get("attempts", 0)) + 1
        if check.ok and check.result is not None:
            paths = save_result_files(deps.home, dict(check.result), deps.day.isoformat())
            deps.saved[:] = [str(p) for p in paths]
            return {**check.result, "validation": check.as_dict(), "attempts": attempts}
        out: dict[str, Any] = {"validation": check.as_dict(), "attempts": attempts}
        if attempts <= MAX_REPAIRS:
            out["messages"] = [repair_message(check.errors)]
        else:
            out["stop_reason"] = "invalid_output"
        return out

    def cleanup(state: OpeningState) -> dict[str, Any]:
        deps.cache.clean()
        return {}

    graph = StateGraph(OpeningState)
    for name, node in (("prefetch_news", prefetch_news), ("load_context", load_context),
                       ("prepare_messages", prepare_messages), ("agent", agent),
                       ("tools", ToolNode(deps.tools)), ("extract_script", extract_script),
                       ("cleanup", cleanup)):  # fmt: skip
        graph.add_node(name, node)  # type: ignore[call-overload]
    graph.add_edge(START, "prefetch_news")
    graph.add_conditional_edges("prefetch_news", after_prefetch)
    graph.add_edge("load_context", "prepare_messages")
    graph.add_edge("prepare_messages", "agent")
    graph.add_conditional_edges("agent", after_agent)
    graph.add_edge("tools", "agent")
    graph.add_conditional_edges("extract_script", after_extract)
    graph.add_edge("cleanup", END)
    return graph.compile(checkpointer=checkpointer)


def after_prefetch(state: OpeningState) -> Literal["load_context", "cleanup"]:
    return "cleanup" if state.get("stop_reason") == "no_news" else "load_context"


def after_agent(state: OpeningState) -> Literal["tools", "extract_script"]:
    last = state["messages"][-1]
    if isinstance(last, AIMessage) and last.tool_calls and not state.get("stop_reason"):
        return "tools"
    return "extract_script"


def after_extract(state: OpeningState) -> Literal["agent", "cleanup"]:
    validation = state.get("validation") or {}
    if state.get("stop_reason") or validation.get("ok", True):
        return "cleanup"
    return "agent"
