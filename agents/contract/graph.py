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
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any, TypedDict

from langgraph.graph import END, START, StateGraph

from agents.contract.clause_judge import (
    Retrieved,
    candidates,
    listing_json,
    offline_citation,
    read_verdict,
)
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
    # what the contract's index finds for a question (the 항/호 judge's candidates beyond those
    # the tools kept, and the offline answer's clauses); None: no 항/호 judge
    retrieve: Callable[[str], Retrieved] | None = None
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

    def judged(question: str, evidence: Evidence, chosen: Plan) -> Evidence | None:
        """The evidence the model's 항/호 judgement leaves: the chosen clause alone, or none
        (agents.contract.clause_judge); None when it was not asked (no model, not a one-topic
        content question) or its reply is not usable (then the turn goes on without it)."""
        llm = deps.llm
        if (llm is None or deps.retrieve is None or chosen.intent != "search"
                or len(evidence.topics) > 1 or evidence.errors):  # fmt: skip
            return None
        found = deps.retrieve(question)
        listing = candidates(evidence, found.clauses)
        reply = llm.judge_clause(question, listing_json(listing)) if listing else None
        if reply is None:
            return None
        verdict = read_verdict(reply, listing)
        offline = offline_citation(found, question)
        if not verdict.usable:
            deps.record(TraceStep(step=0, kind="node", name="clause_check", status="error",
                                  arguments={"offline": offline},
                                  error=f"모델의 조항 판단을 쓰지 않았습니다: {verdict.problem}"))  # fmt: skip
            llm.notices.append("모델의 조항 판단이 후보와 맞지 않아 쓰지 않았습니다.")
            return None
        agree = verdict.citation == offline
        said = ("모델과 오프라인 답이 같은 조항을 골랐습니다." if agree else
                f"모델과 오프라인 답이 다릅니다: 모델 {verdict.citation}, 오프라인 {offline}")  # fmt: skip
        deps.record(TraceStep(step=0, kind="node", name="clause_check", observation=said,
                              arguments={"model": verdict.citation, "offline": offline,
                                         "agree": agree}))  # fmt: skip
        return verdict.evidence(evidence, listing)

    def synthesis(state: ContractState) -> ContractState:
        watch = Stopwatch()
        evidence, chosen = state["evidence"], state["plan"]
        status, error = "ok", None
        verdict = judged(state["question"], evidence, chosen)
        if verdict is not None:  # the judged 항/호 quoted whole, its fact first (no prose)
            evidence = verdict
        text = offline_answer(evidence, chosen.language, chosen.intent, state["question"])
        if verdict is None and deps.llm is not None and (evidence.clauses or evidence.standard):
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
        return {"answer": text, "status": status, "error": error, "evidence": evidence}

    graph = StateGraph(ContractState)
    graph.add_node("planning", planning)
    graph.add_node("execution", execution)
    graph.add_node("synthesis", synthesis)
    graph.add_edge(START, "planning")
    graph.add_edge("planning", "execution")
    graph.add_edge("execution", "synthesis")
    graph.add_edge("synthesis", END)
    return graph.compile()
