"""The LangGraph flow of seed 003.

    prefetch_news → load_context → prepare_messages → agent ⇄ tools → extract_script → cleanup

`build_graph(deps)` compiles a fresh graph for one run (tests pass an in-memory checkpointer).
A day without news goes from prefetch_news straight to cleanup; an output that breaks the
rules goes back to the agent once with the reasons, then is rejected (never saved).

Model faults (see agents/llm.py): when a model call fails for good (after the shared retries),
the offline planner takes over the same run from the tool results gathered so far, and the
failure stays in the trace. A reply whose tool calls cannot be parsed (arguments that are not
JSON) gets a correction message and goes back to the model, at most `MAX_CORRECTIONS` times,
then the offline planner takes over; unknown tools and bad arguments come back from the
ToolNode as tool errors the model can act on.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.tools import BaseTool
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.prebuilt import ToolNode
from psycopg_pool import ConnectionPool

from agents.evidence import EvidenceCollector
from agents.llm import LlmCallFailed, TurnBudget
from agents.opening import context as market
from agents.opening import news_store
from agents.opening.files import RunCache, save_result_files
from agents.opening.keywords import top_words
from agents.opening.models import ChatModelChoice, usage_of_message
from agents.opening.planner import MODEL_NAME, OfflineOpeningModel
from agents.opening.prompts import initial_messages, repair_message
from agents.opening.state import OpeningState
from agents.opening.validate import validate

MAX_REPAIRS = 1
MAX_CORRECTIONS = 2  # unparsable tool calls sent back to the model before the planner takes over
FALLBACK_TEXT = "오프라인 플래너가 이어서 대본을 만들었습니다."
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
    status: str = "ok"
    error: str | None = None


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
    offline: BaseChatModel | None = None  # the planner, once it has taken over from the model
    fallback_reason: str | None = None  # why it took over (Korean), for the answer
    corrections: int = 0

    def take_over(self, reason: str) -> BaseChatModel:
        self.offline = self.offline or OfflineOpeningModel()
        self.fallback_reason = self.fallback_reason or reason
        return self.offline

    def fallback_notice(self) -> str | None:
        return f"{self.fallback_reason} — {FALLBACK_TEXT}" if self.fallback_reason else None


def prefetch_to_cache(day: date, cache: RunCache, pool: ConnectionPool | None,
                      collector: EvidenceCollector | None = None) -> dict[str, Any]:  # fmt: skip
    """The day's window from PostgreSQL into the run cache (news_list.json, titles.txt)."""
    read = news_store.news_in_window(day, pool)
    if collector is not None:
        collector.add_citation(read.citation)
    articles = [{"pk": r["pk"], "title": r["title"], "tickers": list(r["tickers"]),
                 "themes": list(r["themes"]),
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
        messages = list(state["messages"])
        if deps.offline is not None:
            return {"messages": [_offline_turn(deps, messages)]}
        started = time.perf_counter()
        try:
            reply: BaseMessage = bound.invoke(messages)
        except LlmCallFailed as e:
            deps.llm_calls.append(LlmCall(deps.choice.label, 0, 0.0, e.duration_ms, "error",
                                          str(e)))  # fmt: skip
            deps.take_over(str(e))
            return {"messages": [_offline_turn(deps, messages)]}
        if isinstance(reply, AIMessage):
            usage = usage_of_message(reply, deps.choice.model_id)
            deps.budget.add(usage)
            deps.llm_calls.append(LlmCall(deps.choice.label, usage.tokens, usage.cost_usd,
                                          int((time.perf_counter() - started) * 1000)))  # fmt: skip
            if reply.invalid_tool_calls and not reply.tool_calls:
                return {"messages": _correction(deps, reply, messages)}
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


def after_agent(state: OpeningState) -> Literal["tools", "agent", "extract_script"]:
    last = state["messages"][-1]
    if state.get("stop_reason"):
        return "extract_script"
    if isinstance(last, AIMessage) and last.tool_calls:
        return "tools"
    if isinstance(last, HumanMessage):  # a correction for unparsable tool calls
        return "agent"
    return "extract_script"


def _offline_turn(deps: RunDeps, messages: list[BaseMessage]) -> BaseMessage:
    """The planner's next step after it took over (recorded like any model turn, cost 0)."""
    started = time.perf_counter()
    assert deps.offline is not None
    reply = deps.offline.invoke(messages)
    deps.llm_calls.append(LlmCall(MODEL_NAME, 0, 0.0, int((time.perf_counter() - started) * 1000)))
    return reply


def _correction(deps: RunDeps, reply: AIMessage, messages: list[BaseMessage]) -> list[BaseMessage]:
    """Tool calls that could not be parsed: say so and ask again, or let the planner take over."""
    bad = ", ".join(f"{c.get('name') or '?'}({str(c.get('args') or '')[:80]})"
                    for c in reply.invalid_tool_calls)  # fmt: skip
    deps.llm_calls[-1].status = "error"
    deps.llm_calls[-1].error = f"인자를 해석할 수 없는 도구 호출: {bad}"
    deps.corrections += 1
    if deps.corrections > MAX_CORRECTIONS:
        deps.take_over(f"모델이 해석할 수 없는 도구 호출을 {deps.corrections}번 보냈습니다")
        return [reply, _offline_turn(deps, [*messages, reply])]
    return [reply, HumanMessage(
        "직전 응답의 도구 호출 인자를 JSON으로 해석할 수 없어 실행하지 않았습니다: "
        f"{bad}. 인자를 올바른 JSON 객체로 다시 호출하세요."
    )]  # fmt: skip


def after_extract(state: OpeningState) -> Literal["agent", "cleanup"]:
    validation = state.get("validation") or {}
    if state.get("stop_reason") or validation.get("ok", True):
        return "cleanup"
    return "agent"
