"""Planning → parallel execution → synthesis as a LangGraph state machine (seed 002).

    graph = build_graph(deps)
    state = graph.invoke({"question": "제5조와 손해배상 조항을 비교해줘"})

The planner is the model (function calling through litellm) when one is configured, the rule
planner otherwise; execution runs every planned call in parallel through the ToolRegistry;
synthesis is the model or the offline templates. Each node appends its own trace step.
"""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import asdict, dataclass, field
from typing import Any, TypedDict

from langgraph.graph import END, START, StateGraph

from agents.contract.llm import LlmSession
from agents.contract.planner import Plan, PlanContext, plan
from agents.contract.registry import ToolOutcome, ToolRegistry
from agents.contract.synthesis import Evidence, collect, offline_answer
from agents.evidence import Stopwatch
from data_access.contracts import TraceStep
from data_access.errors import WorkbenchError

logger = logging.getLogger(__name__)

EVIDENCE_JSON_CHARS = 12_000


class ContractState(TypedDict, total=False):
    question: str
    plan: Plan
    outcomes: list[ToolOutcome]
    evidence: Evidence
    answer: str
    status: str
    error: str | None


@dataclass
class GraphDeps:
    registry: ToolRegistry
    plan_context: PlanContext
    contract_id: str
    llm: LlmSession | None = None
    trace: list[TraceStep] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def record(self, step: TraceStep) -> None:
        # The relevance judge records from tool threads: number steps under a lock.
        with self._lock:
            self.trace.append(step.model_copy(update={"step": len(self.trace) + 1}))


def build_graph(deps: GraphDeps) -> Any:
    def planning(state: ContractState) -> ContractState:
        watch = Stopwatch()
        offline = plan(state["question"], deps.plan_context)
        chosen, source = offline, "offline-planner"
        if deps.llm is not None:
            try:
                calls = deps.llm.plan(state["question"], deps.registry.schemas(),
                                      deps.plan_context.contract_type, deps.plan_context.titles)  # fmt: skip
                if calls:
                    chosen, source = (
                        Plan(calls, offline.intent, offline.language),
                        deps.llm.model_id,
                    )
            except Exception as e:  # litellm raises provider-specific exceptions
                logger.warning("model planning failed, using the offline plan: %s", e)
                deps.record(TraceStep(step=0, kind="llm", name="planning", status="error",
                                      error=str(e)[:300], model=deps.llm.model_id))  # fmt: skip
        deps.record(TraceStep(step=0, kind="node", name="planning", duration_ms=watch.ms,
                              model=source, arguments={"intent": chosen.intent},
                              observation=", ".join(c.name for c in chosen.calls)))  # fmt: skip
        return {"plan": chosen}

    def execution(state: ContractState) -> ContractState:
        watch = Stopwatch()
        outcomes = deps.registry.execute_many(state["plan"].calls)
        for o in outcomes:
            deps.record(TraceStep(step=0, kind="tool", name=o.call.name, arguments=o.call.arguments,
                                  observation=json.dumps(o.result, ensure_ascii=False)[:500],
                                  duration_ms=o.duration_ms, status="ok" if o.ok else "error",
                                  error=None if o.ok else o.result.get("error")))  # fmt: skip
        deps.record(TraceStep(step=0, kind="node", name="execution", duration_ms=watch.ms,
                              observation=f"{len(outcomes)}개 도구 병렬 실행"))  # fmt: skip
        return {"outcomes": outcomes, "evidence": collect(outcomes, deps.contract_id)}

    def synthesis(state: ContractState) -> ContractState:
        watch = Stopwatch()
        evidence, chosen = state["evidence"], state["plan"]
        text = offline_answer(evidence, chosen.language, chosen.intent, state["question"])
        status, error = "ok", None
        if deps.llm is not None and (evidence.clauses or evidence.standard):
            if deps.llm.budget.exceeded:
                status, error = "budget_exceeded", deps.llm.budget.message()
                text = f"{error}\n\n{text}"
            else:
                try:
                    blob = json.dumps(asdict(evidence), ensure_ascii=False)[:EVIDENCE_JSON_CHARS]
                    text = deps.llm.synthesize(state["question"], blob) or text
                except (WorkbenchError, Exception) as e:  # provider errors: keep the template
                    logger.warning("model synthesis failed: %s", e)
                    status, error = (
                        "partial",
                        f"모델 답변 생성 실패, 템플릿 답변으로 대신합니다: {e}",
                    )
        if status == "ok" and deps.llm is not None and deps.llm.notices:  # a model fallback
            status, error = "partial", " / ".join(deps.llm.notices)
        if chosen.notes:
            text = "\n\n".join([text, *chosen.notes])
        if status == "ok" and evidence.errors and not evidence.clauses:
            status, error = "partial", "; ".join(evidence.errors)
        deps.record(TraceStep(step=0, kind="node", name="synthesis", duration_ms=watch.ms,
                              model=deps.llm.model_id if deps.llm else "offline-planner"))  # fmt: skip
        return {"answer": text, "status": status, "error": error}

    graph = StateGraph(ContractState)
    graph.add_node("planning", planning)
    graph.add_node("execution", execution)
    graph.add_node("synthesis", synthesis)
    graph.add_edge(START, "planning")
    graph.add_edge("planning", "execution")
    graph.add_edge("execution", "synthesis")
    graph.add_edge("synthesis", END)
    return graph.compile()
