"""One Macro Q&A turn, shared by the screen, the CLI, tests and the benchmark.

    for event in stream_answer("한국 기준금리 추이와 원인"):
        ...  # NodeEvent per finished graph node (TextPiece: the model's checked sentences),
             # then the AgentAnswer

`answer_question` (CLI, eval, tests) does not stream: its model answer is checked whole, after
one repair request.

The payload carries the route, every agent's response (key points, series, paths), the merged
key points and the web-fallback status; the answer carries the trace and both citation lists.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from psycopg_pool import ConnectionPool

from agents.answer_stream import AnswerSink, TextPiece, settled, with_text
from agents.cancel import cancelled, requested
from agents.inputs import check_text, last_answer, rejected_answer
from agents.llm import BudgetExceeded, TurnBudget
from agents.macro.answer import AGENT_TITLES
from agents.macro.followup import read_question
from agents.macro.graph import build_graph, status_of
from agents.macro.router import Route, route
from agents.macro.state import AgentResponse, RunContext
from agents.macro.understood import attach, decline_route, decline_text, unanswered
from agents.model_checks import check_failure
from agents.understanding.frame import QuestionFrame
from agents.understanding.history import HistoryMessage
from agents.understanding.lexicon import MACRO_KINDS, cached_lexicon
from agents.understanding.model_plan import FilledPlan, attach_plan, fill_plan
from data_access.config import Settings, get_settings
from data_access.contracts import AgentAnswer, TraceStep
from data_access.errors import WorkbenchError
from data_access.graph.base import GraphStore

logger = logging.getLogger(__name__)
SCREEN = "macro"
LLM_FALLBACK_TEXT = "해당 부분은 오프라인 규칙/템플릿으로 대신 답했습니다."


@dataclass
class NodeEvent:
    """One finished graph node, as the screen shows it while the run goes on."""

    node: str
    summary: str
    duration_ms: int = 0
    details: dict[str, Any] = field(default_factory=dict)


def make_context(settings: Settings, pool: ConnectionPool | None, store: GraphStore | None,
                 as_of: str | None = None) -> RunContext:  # fmt: skip
    from data_access.catalog import DOMAINS, current_as_of_date, recent_domain_freshness

    as_of = as_of or current_as_of_date(pool).isoformat()
    # reused for a minute: it counts whole tables (≈0.3 s a turn at market scale, bench/)
    freshness = recent_domain_freshness(DOMAINS, pool)
    if store is not None and not store.health():
        store = None  # graph down: SQL and templates answer, with the reason in the trace
    model = settings.model_for("macro")
    return RunContext(settings=settings, pool=pool, store=store, as_of_date=as_of,
                      freshness=freshness, macro_model=model,
                      router_model=settings.model_for("router"),
                      budget=TurnBudget.from_settings(settings) if model else None)  # fmt: skip


def _requested_freshness(ctx: RunContext, requested: str) -> None:
    """A question asked as of a date after the data: judge freshness as of that date (§3.E)."""
    from data_access.catalog import domain_freshness

    try:
        ctx.freshness = dict(domain_freshness(date.fromisoformat(requested), ctx.pool))
    except (WorkbenchError, ValueError) as e:
        logger.warning("freshness as of %s unavailable: %s", requested, e)


def stream_answer(
    question: str,
    *,
    history: Sequence[HistoryMessage] = (),
    settings: Settings | None = None,
    store: GraphStore | None = None,
    pool: ConnectionPool | None = None,
    context: RunContext | None = None,
    cancel: threading.Event | None = None,
    stream_text: bool = True,
) -> Iterator[NodeEvent | TextPiece | AgentAnswer]:
    """A NodeEvent per finished graph node, then the AgentAnswer (`cancelled` when `cancel` was
    set: within agents.cancel.POLL_S, also in the middle of a node). With a model and
    `stream_text`, a model answer written through `agents.answer_stream.open_gate` also comes as
    TextPieces, a checked sentence at a time; the answer's text starts with what they showed."""
    settings = settings or get_settings()
    started = time.perf_counter()
    checked = check_text(question)
    if checked.problem:
        yield rejected_answer(checked.problem, started)
        return
    text = " ".join(checked.text.split())
    ctx = context or make_context(settings, pool, store)
    graph_down = store is not None and ctx.store is None
    frame = read_question(text, history, ctx.pool)
    filled = _model_plan(text, frame, settings, ctx.pool)
    frame = filled.frame or frame  # the model's plan runs; the offline reading is compared
    r = route(text, ctx.pool, frame=frame)
    offline = ctx.macro_model is None  # with a model the LLM paths stay as they are
    refusal = decline_text(frame, r) if offline else None
    if refusal is not None:
        yield _declined(refusal, decline_route(frame, r), ctx, started)
        return
    if r.requested_as_of_date and r.requested_as_of_date < ctx.as_of_date:
        ctx.as_of_date = r.requested_as_of_date  # answer as of the date the user asked for
    elif r.requested_as_of_date and r.requested_as_of_date > ctx.as_of_date:
        _requested_freshness(ctx, r.requested_as_of_date)
    state: dict[str, Any] = {"route": r}
    trace: list[TraceStep] = []
    shown: dict[str, int] = {}  # each agent's steps already in the trace
    last = time.perf_counter()
    sink = AnswerSink(cancel) if ctx.macro_model and stream_text else None
    try:
        updates = build_graph(ctx).stream({"question": text, "route": r}, stream_mode="updates")
        for update in with_text(updates, cancel, sink):
            if isinstance(update, TextPiece):
                yield update
                continue
            for node, delta in update.items():
                now = time.perf_counter()
                ms, last = int((now - last) * 1000), now
                delta = delta or {}
                _merge(state, delta)
                trace += _node_trace(node, delta, ms, len(trace), shown)
                yield NodeEvent(node=node, summary=_summary(node, delta), duration_ms=ms)
    except BudgetExceeded as e:
        answer = _budget_stop(str(e), ctx, started, trace)
    else:
        answer = _answer(state, ctx, started, trace, graph_down)
        if requested(cancel):
            answer = cancelled(answer)
        else:
            attach(answer, frame, unanswered(frame, r) if offline else [], declined=False)
            attach_plan(answer, filled)
    answer = settled(answer, sink)  # what the model had shown stays in the stored text
    if sink is not None:
        yield from sink.tail(answer)
    yield answer


def _model_plan(text: str, frame: QuestionFrame | None, settings: Settings,
                pool: ConnectionPool | None) -> FilledPlan:  # fmt: skip
    """With LLM_MODEL_PLAN set, the model fills the plan the offline reading made (model_plan)."""
    if frame is None or not settings.llm_model_plan:
        return FilledPlan(None, None)
    lexicon = cached_lexicon(pool)
    return fill_plan(text, frame, lexicon, settings, settings.llm_model_plan, MACRO_KINDS)


def _declined(text: str, r: Route, ctx: RunContext, started: float) -> AgentAnswer:
    """A question about data we do not hold: said plainly, nothing queried."""
    answer = AgentAnswer(answer=text, mode="offline", status="partial", as_of_date=ctx.as_of_date,
                         data_freshness=ctx.freshness,
                         payload={"route": r.model_dump(mode="json"), "agent_responses": {}},
                         duration_ms=int((time.perf_counter() - started) * 1000))  # fmt: skip
    attach(answer, r.frame, [], declined=True)
    return answer


def _budget_stop(message: str, ctx: RunContext, started: float,
                 trace: list[TraceStep]) -> AgentAnswer:  # fmt: skip
    """The turn went over its LLM budget: stop, keep every LLM call made so far in the trace."""
    shown = sum(1 for t in trace if t.kind == "llm")  # calls of nodes that finished
    steps = trace + [t.model_copy(update={"step": len(trace) + i + 1})
                     for i, t in enumerate(ctx.llm_steps[shown:])]  # fmt: skip
    llm = list(ctx.llm_steps)
    return AgentAnswer(
        answer=message, mode="llm", model=ctx.macro_model, status="budget_exceeded",
        error=message, as_of_date=ctx.as_of_date, data_freshness=ctx.freshness, trace=steps,
        payload={"budget": {"max_tokens": ctx.budget.max_tokens if ctx.budget else None,
                            "max_cost_usd": ctx.budget.max_cost_usd if ctx.budget else None}},
        tokens=sum(t.tokens for t in llm), cost_usd=round(sum(t.cost_usd for t in llm), 6),
        duration_ms=int((time.perf_counter() - started) * 1000),
    )  # fmt: skip


def answer_question(question: str, **kwargs: Any) -> AgentAnswer:
    kwargs.setdefault("stream_text", False)  # nobody reads the text as it is written
    return last_answer(stream_answer(question, **kwargs))


def _merge(state: dict[str, Any], delta: dict[str, Any]) -> None:
    for key, value in delta.items():
        if key == "agent_responses":
            state.setdefault(key, {}).update(value)
        elif key == "llm_trace":
            state.setdefault(key, []).extend(value)
        else:
            state[key] = value


# The trace's words for the route and the agents' results ('경로: 주식 (단일)', '주식 담당: 완료,
# 핵심 7개'): the analyst reads them on the screen, where 'equity: ok' was an internal word.
AGENT_WORDS = AGENT_TITLES["ko"]
MODE_WORDS = {"single": "단일", "parallel": "병렬", "llm_direct": "모델 직접 답변"}
STATUS_WORDS = {"ok": "완료", "empty": "결과 없음", "error": "오류", "degraded": "일부만",
                "skipped": "건너뜀"}  # fmt: skip


def _summary(node: str, delta: dict[str, Any]) -> str:
    if node == "router" and "route" in delta:
        r = delta["route"]
        agents = " + ".join(AGENT_WORDS.get(a, a) for a in r.target_agents)
        return f"경로: {agents} ({MODE_WORDS.get(r.tool_mode, r.tool_mode)})"
    if node == "agent":
        return "; ".join(f"{AGENT_WORDS.get(n, n)} 담당: {STATUS_WORDS.get(resp.status, resp.status)}, "
                         f"핵심 {len(resp.key_points)}개"
                         for n, resp in delta.get("agent_responses", {}).items())  # fmt: skip
    if node == "companion":
        return "보조 Ontology 호출 1회" if delta.get("companion_used") else "보조 호출 없음"
    if node == "validate_as_of":
        return "기준일 정합 " + ("통과" if delta.get("as_of_validation_passed") else "불일치")
    if node == "web_fallback":
        web = delta.get("web_fallback", {})
        return (web.get("reason") or "") if web.get("requested") else "웹 검색 보완 필요 없음"
    return "답변 작성 완료"


def _node_trace(node: str, delta: dict[str, Any], ms: int, offset: int,
                shown: dict[str, int]) -> list[TraceStep]:  # fmt: skip
    """The node's step, then the steps its responses added: a response copied on by a later node
    (validate_as_of's cross-check) carries its agent's steps, `shown` already, again."""
    steps = [TraceStep(step=offset + 1, kind="node", name=node, duration_ms=ms,
                       observation=_summary(node, delta))]  # fmt: skip
    for name, resp in delta.get("agent_responses", {}).items():
        new, shown[name] = resp.trace[shown.get(name, 0) :], len(resp.trace)
        for t in new:
            steps.append(t.model_copy(update={"step": offset + len(steps) + 1,
                                              "name": f"{name}/{t.name}"}))  # fmt: skip
    for t in delta.get("llm_trace", []):
        steps.append(t.model_copy(update={"step": offset + len(steps) + 1}))
    return steps


def _answer(state: dict[str, Any], ctx: RunContext, started: float, trace: list[TraceStep],
            graph_down: bool) -> AgentAnswer:  # fmt: skip
    responses: dict[str, AgentResponse] = state.get("agent_responses", {})
    r = state["route"]
    llm_used = ctx.macro_model is not None and any(t.kind == "llm" and t.status == "ok"
                                                   for t in trace)  # fmt: skip
    payload = {
        "route": r.model_dump(mode="json"),
        "agent_responses": {n: resp.model_dump(mode="json") for n, resp in responses.items()},
        "key_points": state.get("key_points", []),
        "as_of_validation": {"passed": state.get("as_of_validation_passed", True),
                             "notes": state.get("as_of_notes", [])},
        "web_fallback": state.get("web_fallback", {}),
        "companion_used": state.get("companion_used", False),
        "graph_available": ctx.store is not None,
        "degraded": ("그래프 저장소에 연결할 수 없어 SQL 근거로만 답했습니다." if graph_down else None),
    }  # fmt: skip
    answer_text = state.get("answer", "")
    status, error = status_of(responses), None
    failed = [t for t in trace if t.kind == "llm" and t.status == "error"]
    if failed:  # the documented fallback answered (agents/llm.py): say so
        status, error = "partial", f"{failed[0].error} — {LLM_FALLBACK_TEXT}"
    elif removed := check_failure(trace):  # agents.model_checks took model claims out
        status, error = "partial", removed
    if graph_down:
        answer_text = f"> ⚠️ {payload['degraded']}\n\n" + answer_text
    return AgentAnswer(
        answer=answer_text, mode="llm" if llm_used else "offline",
        model=ctx.macro_model if llm_used else None, status=status, error=error,
        as_of_date=state.get("final_as_of_date") or ctx.as_of_date,
        data_freshness=state.get("data_freshness", {}),
        citations=state.get("citations", []),
        structured_citations=state.get("structured_citations", []), trace=trace, payload=payload,
        tokens=sum(t.tokens for t in trace), cost_usd=round(sum(t.cost_usd for t in trace), 6),
        duration_ms=int((time.perf_counter() - started) * 1000),
    )  # fmt: skip
