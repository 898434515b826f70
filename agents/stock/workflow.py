"""The seed's state machine: research → analysis → recommendation → review, with retries.

    graph = build_graph(deps)                 # or build_graph(deps, checkpointer=InMemorySaver())
    final = graph.invoke(initial_state("AAPL", "AAPL 주식 분석 요청"))
    shared_graph().invoke(state, {"configurable": {"deps": deps}})  # compiled once per process

`research` retries itself while the stock data failed (`should_continue`: iteration cap, two
critical errors, done); a run that cannot get its data ends in `fail`, which writes the error
report. Nodes report progress as LangGraph custom stream events (`stream_mode="custom"`).
"""

from __future__ import annotations

import functools
import logging
from typing import Any, Literal

from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph

from agents.evidence import Stopwatch
from agents.stock import report as rpt
from agents.stock.deps import NodeFn, WorkflowDeps, emit
from agents.stock.nodes import analyze, recommend, research, review
from agents.stock.state import FinancialAgentState, critical_errors
from data_access.contracts import TraceStep

logger = logging.getLogger(__name__)


def should_continue(state: FinancialAgentState) -> Literal["continue", "end"]:
    """The seed's branch, plus: bad input (an unknown symbol) is not worth another try."""
    if state["iteration"] >= state["max_iterations"]:
        return "end"
    if len(critical_errors(state)) >= 2:
        return "end"
    if state["status"] == "done":
        return "end"
    stock = state.get("stock_data")
    if not stock or stock["status"] != "success":
        return "end" if stock and stock.get("retryable") is False else "continue"
    return "end"


def after_research(state: FinancialAgentState) -> Literal["analyze", "continue", "end"]:
    stock = state.get("stock_data")
    if stock and stock["status"] == "success":
        return "analyze"
    return should_continue(state)


def end_reason(state: FinancialAgentState) -> str:
    lang = state.get("language", "ko")
    stock = state.get("stock_data") or {}
    if stock.get("retryable") is False:
        return str(stock.get("error", ""))
    if state["iteration"] >= state["max_iterations"]:
        return (f"최대 반복 횟수({state['max_iterations']}회)에 도달했습니다." if lang == "ko"
                else f"Reached the iteration cap ({state['max_iterations']}).")  # fmt: skip
    if len(critical_errors(state)) >= 2:
        return ("치명적 오류가 2회 발생해 중단했습니다." if lang == "ko"
                else "Stopped after two critical errors.")  # fmt: skip
    return "unknown"


def fail(deps: WorkflowDeps, state: FinancialAgentState) -> dict[str, Any]:
    reason = end_reason(state)
    report = rpt.error_report(state["stock_symbol"], state.get("errors", []), reason,
                              state.get("language", "ko"))  # fmt: skip
    return {"status": "error", "final_report": report, "end_reason": reason}


def _node(bound: WorkflowDeps | None, name: str, fn: NodeFn) -> Any:
    """Time a node, announce its start and end, and record it in the trace.

    The run's dependencies come from `config["configurable"]["deps"]` (the shared graph) or
    from `bound` (a graph built for one run). Typed `Any` because LangGraph's node protocols
    match on the parameter names, which a `Callable[...]` type cannot express.
    """

    def run(state: FinancialAgentState, config: RunnableConfig) -> dict[str, Any]:
        deps: WorkflowDeps = (config.get("configurable") or {}).get("deps") or bound  # type: ignore[assignment]
        step = deps.begin_step()
        emit({"event": "node_start", "node": name, "step": step,
              "iteration": state.get("iteration", 0)})  # fmt: skip
        watch = Stopwatch()
        update = fn(deps, state)
        new_errors = update.get("errors", [])
        status = "error" if any(e["critical"] for e in new_errors) else "ok"
        summary = update.get("status", "")
        deps.add_step(TraceStep(
            step=step, kind="node", name=name, duration_ms=watch.ms, status=status,
            arguments={"iteration": update.get("iteration", state.get("iteration", 0))},
            observation=f"status → {summary}",
            error="; ".join(e["message"] for e in new_errors) or None,
        ))  # fmt: skip
        emit({"event": "node_end", "node": name, "step": step, "status": summary,
              "duration_ms": watch.ms, "errors": [e["message"] for e in new_errors]})  # fmt: skip
        return update

    return run


def build_graph(deps: WorkflowDeps | None = None, *, checkpointer: Any = None) -> Any:
    """A compiled graph: bound to one run's dependencies (tests pass an in-memory
    checkpointer), or, without `deps`, one that reads them from the run's config."""
    graph = StateGraph(FinancialAgentState)
    graph.add_node("research", _node(deps, "research", research))
    graph.add_node("analyze", _node(deps, "analyze", analyze))
    graph.add_node("recommend", _node(deps, "recommend", recommend))
    graph.add_node("review", _node(deps, "review", review))
    graph.add_node("fail", _node(deps, "fail", fail))
    graph.add_edge(START, "research")
    graph.add_conditional_edges(
        "research", after_research, {"analyze": "analyze", "continue": "research", "end": "fail"}
    )
    graph.add_edge("analyze", "recommend")
    graph.add_edge("recommend", "review")
    graph.add_conditional_edges("review", should_continue, {"continue": "research", "end": END})
    graph.add_edge("fail", END)
    return graph.compile(checkpointer=checkpointer)


@functools.cache
def shared_graph() -> Any:
    """One compiled graph per process (compiling took ~13 ms of a ~50 ms report); each run
    passes its dependencies as `{"configurable": {"deps": deps}}`."""
    return build_graph()
