"""One ETF chat turn, shared by the screen, the CLI, tests and the benchmark.

    for event in stream_answer("KODEX 200과 TIGER 200 비교해줘"):
        ...  # StepEvent per agent step as it finishes, then the AgentAnswer

The answer falls back in three levels (seed 000): the agent's final answer → the last
observation → an apology. Every turn carries the trace, the structured citations of every
query, the tool results (for charts), the as-of date and data freshness.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from psycopg_pool import ConnectionPool
from smolagents.agents import ActionStep, FinalAnswerStep
from smolagents.utils import AgentError

from agents.cancel import cancelled, requested, until_cancelled
from agents.etf.agent import build_agent, cut, reached_max_steps
from agents.etf.data import EtfData
from agents.etf.llm import (
    FALLBACK_TEXT,
    MAX_STEPS_TEXT,
    EvidenceCheck,
    FallbackModel,
    offline_takeover,
)
from agents.etf.planner import APOLOGY, OFFLINE_MODEL_ID, OfflinePlanner
from agents.etf.prompts import HistoryMessage, build_task
from agents.etf.tools import ToolContext, make_tools
from agents.etf.understood import understood
from agents.evidence import EvidenceCollector, ToolCallRecord
from agents.inputs import check_text, last_answer, rejected_answer
from agents.llm import TurnBudget, build_smolagents_model, usage_of
from agents.understanding import understand
from agents.understanding.history import previous_context
from agents.understanding.lexicon import ETF_KINDS, cached_lexicon
from agents.understanding.model_plan import FilledPlan, attach_plan, fill_plan
from data_access.config import Settings, get_settings
from data_access.contracts import AgentAnswer, TraceStep
from data_access.errors import WorkbenchError
from data_access.graph.base import GraphStore
from data_access.publishers import with_sources

logger = logging.getLogger(__name__)

SCREEN = "etf"
COMPARE_CHART_PERIOD = "3m"
MAX_TOOL_RESULTS = 20


@dataclass
class StepEvent:
    """One finished agent step, as the screen shows it while the run goes on."""

    step: int
    thought: str | None
    code: str | None
    observation: str | None
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None
    duration_ms: int = 0
    is_final: bool = False
    tokens: int = 0
    cost_usd: float = 0.0


@dataclass
class _Run:
    mode: str
    model_id: str | None
    collector: EvidenceCollector
    budget: TurnBudget
    trace: list[TraceStep] = field(default_factory=list)
    last_observation: str | None = None
    final: Any = None
    error: str | None = None
    status: str = "ok"
    fallback: FallbackModel | None = None  # set with a model: offline planner after a failure
    failures_seen: int = 0


def stream_answer(
    question: str,
    history: Sequence[HistoryMessage] = (),
    *,
    settings: Settings | None = None,
    store: GraphStore | None = None,
    pool: ConnectionPool | None = None,
    cancel: threading.Event | None = None,
) -> Iterator[StepEvent | AgentAnswer]:
    """Run one turn; yields a StepEvent per agent step, then the AgentAnswer (`cancelled` when
    `cancel` was set: within agents.cancel.POLL_S, also in the middle of a step)."""
    from data_access.catalog import current_as_of_date

    settings = settings or get_settings()
    started = time.perf_counter()
    checked = check_text(question)
    if checked.problem:
        yield rejected_answer(checked.problem, started)
        return
    question = checked.text
    as_of = current_as_of_date(pool).isoformat()
    collector = EvidenceCollector()
    context = ToolContext(store=store, pool=pool, collector=collector, as_of_date=as_of)
    llm = build_smolagents_model("etf", settings)
    filled = _model_plan(question, history, settings, pool)
    offline = OfflinePlanner(lambda: cached_lexicon(pool), previous_context(history),
                             frame=filled.frame)  # fmt: skip
    model = FallbackModel(llm, offline) if llm else offline
    run = _Run(
        mode="llm" if llm else "offline",
        model_id=getattr(llm, "model_id", None),
        collector=collector,
        budget=TurnBudget.from_settings(settings),
        fallback=model if isinstance(model, FallbackModel) else None,
    )
    tools, task = list(make_tools(context)), build_task(question, history)
    check = EvidenceCheck(collector, question, as_of, run.fallback) if llm else None
    agent = build_agent(model, tools, [check] if check else ())
    try:
        for event in until_cancelled(agent.run(task, stream=True), cancel):
            if isinstance(event, ActionStep):
                step_event = _record_step(run, event)
                yield step_event
                if run.budget.exceeded:
                    run.status, run.error = "budget_exceeded", run.budget.message()
                    agent.interrupt()
                    break
            elif isinstance(event, FinalAnswerStep):
                run.final = event.output
        if run.fallback is not None and run.status == "ok" and reached_max_steps(agent):
            yield from _takeover(run, offline, tools, task)
    except (AgentError, WorkbenchError) as e:
        logger.warning("ETF agent run failed: %s", e)
        run.error, run.status = str(e), "error"
    if requested(cancel):
        run.status = "cancelled"
        agent.interrupt()  # the step left running on its helper thread starts no other
    if run.fallback is not None and run.fallback.failures and run.error is None:
        run.error = run.fallback.failures[0].notice(FALLBACK_TEXT)
    fell_back = run.fallback is not None and run.fallback.fell_back
    if check is not None and run.final is not None and not fell_back:
        verified = check.checked_answer(str(run.final))  # the model's words, not trusted
        run.final, run.error = verified.with_notice(), run.error or verified.error()
    answer = _answer(run, context, as_of, pool, started)
    plan = getattr(offline, "last_plan", None)  # what the offline planner read, if it ran
    if plan is not None:
        understood(answer, plan, cached_lexicon(pool))
        attach_plan(answer, filled)
    yield cancelled(answer) if run.status == "cancelled" else answer


def answer_question(question: str, history: Sequence[HistoryMessage] = (),
                    **kwargs: Any) -> AgentAnswer:  # fmt: skip
    """The whole turn without streaming (CLI, tests, benchmark)."""
    return last_answer(stream_answer(question, history, **kwargs))


def _model_plan(question: str, history: Sequence[HistoryMessage], settings: Settings,
                pool: ConnectionPool | None) -> FilledPlan:  # fmt: skip
    """With LLM_MODEL_PLAN set, the model fills the plan the offline reading made (model_plan);
    the offline planner's executor runs it."""
    if not settings.llm_model_plan:
        return FilledPlan(None, None)
    lexicon = cached_lexicon(pool)
    previous, listed = previous_context(history)
    frame = understand(question, lexicon, kinds=ETF_KINDS, previous=previous,
                       previous_result=listed)  # fmt: skip
    return fill_plan(question, frame, lexicon, settings, settings.llm_model_plan, ETF_KINDS)


def _takeover(run: _Run, offline: OfflinePlanner, tools: list[Any],
              task: str) -> Iterator[StepEvent]:  # fmt: skip
    """The model reached its step limit: the offline planner answers, the model's text never."""
    assert run.fallback is not None
    run.fallback.hand_over()
    run.final, run.error = None, MAX_STEPS_TEXT
    for event in offline_takeover(offline, tools, task):
        if isinstance(event, ActionStep):
            yield _record_step(run, event)
        else:
            run.final = event.output


def _record_step(run: _Run, step: ActionStep) -> StepEvent:
    calls = run.collector.calls_since(sum(1 for t in run.trace if t.kind == "tool"))  # recorded
    usage = usage_of(getattr(step.model_output_message, "raw", None), run.model_id)
    if run.mode == "llm":
        run.budget.add(usage)
    duration = int((step.timing.duration or 0) * 1000)
    error = str(step.error) if step.error else None
    if run.fallback is not None:  # model calls that failed for good before this step's output
        for failure in run.fallback.failures[run.failures_seen :]:
            run.trace.append(failure.trace_step("model", step=step.step_number))
        run.failures_seen = len(run.fallback.failures)
    if step.observations:
        run.last_observation = step.observations
    event = StepEvent(
        step=step.step_number,
        thought=_thought(step.model_output),
        code=step.code_action,
        observation=cut(step.observations),
        tool_calls=[_call_dict(c) for c in calls],
        error=error,
        duration_ms=duration,
        is_final=bool(step.is_final_answer),
        tokens=usage.tokens,
        cost_usd=usage.cost_usd,
    )
    run.trace.append(TraceStep(
        step=step.step_number, kind="code", name=f"step {step.step_number}",
        code=step.code_action, observation=event.observation, duration_ms=duration,
        status="error" if error else "ok", error=error,
        model=(run.fallback.active_model_id if run.fallback else None) or run.model_id
        or (OFFLINE_MODEL_ID if run.mode == "offline" else None),
        tokens=usage.tokens, cost_usd=usage.cost_usd,
    ))  # fmt: skip
    for c in calls:
        run.trace.append(TraceStep(
            step=step.step_number, kind="tool", name=c.tool, arguments=c.arguments,
            observation=c.preview[:500], duration_ms=c.duration_ms,
            status="rejected" if c.status == "rejected" else c.status,  # type: ignore[arg-type]
            error=c.error,
        ))  # fmt: skip
    return event


def _thought(model_output: str | None) -> str | None:
    if not model_output:
        return None
    head = model_output.split("<code>", 1)[0].strip()
    return head.removeprefix("Thought:").strip() or None


def _call_dict(call: ToolCallRecord) -> dict[str, Any]:
    return {"tool": call.tool, "arguments": call.arguments, "duration_ms": call.duration_ms,
            "status": call.status, "error": call.error}  # fmt: skip


def _answer(run: _Run, context: ToolContext, as_of: str, pool: ConnectionPool | None,
            started: float) -> AgentAnswer:  # fmt: skip
    if run.final is not None and run.status == "ok":
        text, status = str(run.final), "partial" if run.error else "ok"  # error: a fallback
    elif run.last_observation:
        prefix = run.error + "\n\n" if run.status == "budget_exceeded" and run.error else ""
        text, status = (
            prefix + run.last_observation,
            run.status if run.status != "ok" else "partial",
        )
    else:
        budget_note = run.error if run.status == "budget_exceeded" else None
        text, status = budget_note or APOLOGY, run.status
    ok = [c for c in run.collector.calls if c.status == "ok"]
    results = [{"tool": c.tool, "arguments": c.arguments, "result": c.result}
               for c in ok[-MAX_TOOL_RESULTS:]]  # fmt: skip
    payload: dict[str, Any] = {"tool_results": results}
    compare_series = _compare_price_series(results, context)
    if compare_series:
        payload["compare_prices"] = compare_series
    return AgentAnswer(
        answer=text,
        mode=run.mode,  # type: ignore[arg-type]
        model=run.model_id,
        status=status if status in ("ok", "error", "partial", "budget_exceeded") else "error",  # type: ignore[arg-type]
        error=run.error,
        as_of_date=as_of,
        data_freshness=_freshness(pool),
        structured_citations=with_sources(run.collector.unique_citations(), pool=pool)[0],
        trace=run.trace,
        payload=payload,
        tokens=sum(t.tokens for t in run.trace),
        cost_usd=round(sum(t.cost_usd for t in run.trace), 6),
        duration_ms=int((time.perf_counter() - started) * 1000),
    )


def _compare_price_series(results: list[dict[str, Any]],
                          context: ToolContext) -> dict[str, Any]:  # fmt: skip
    """Daily closes of compared ETFs for the normalized-price chart (cited like any query)."""
    compared = [r for r in results if r["tool"] == "compare_etfs"]
    if not compared:
        return {}
    data: EtfData = context.data()
    series: dict[str, Any] = {}
    for etf in compared[-1]["result"]:
        prices = data.etf_prices(etf["code"], COMPARE_CHART_PERIOD)
        series[etf["code"]] = {"name": etf["name"], "daily": [
            {"date": d["date"], "close": d["close"]} for d in prices["daily"]]}  # fmt: skip
    return series


def _freshness(pool: ConnectionPool | None) -> dict[str, Any]:
    from data_access.catalog import recent_domain_freshness

    return dict(recent_domain_freshness(("etf", "equity"), pool))
