"""litellm calls of the Macro Q&A graph (the domain agents' tool-calling turns, route refinement,
general knowledge, answer writing), each recorded as an `llm` trace step with its model, tokens
and cost, and charged to the turn budget.

Failure policy (the documented offline fallback, see agents/llm.py): `agents.llm.completion`
bounds and retries each request; a call that still fails returns empty text (or no message) and
an error trace step, and every caller falls back to the offline path — a domain agent's tool
loop to its templates and GraphRAG, the router refinement to the rules' route, the answer writer
to the offline text composed from the evidence, the general agent to an "unanswered" response. A
text call answered without text (e.g. only tool calls) is treated the same way. A call that takes the turn over its token or cost budget raises
`BudgetExceeded` after recording its step, so the supervisor stops the run cleanly.

Models per role (seed 004 §2.5): a text call's step name says its role (`STEP_ROLES`: router
refinement, general knowledge, the answer writer), the domain agents' tool loops pass their
role's model (model_agents.py); each role's setting falls back to the Macro screen's model,
and the trace step records the model that answered it.
"""

from __future__ import annotations

import logging
import threading
from functools import partial
from typing import Any

from agents.answer_stream import CheckedStream, stream_checked
from agents.evidence import Stopwatch
from agents.llm import (
    BudgetExceeded,
    LlmCallFailed,
    TurnBudget,
    Usage,
    completion,
    configure_tracing,
    litellm_kwargs,
    macro_model_id,
    usage_of,
)
from data_access.config import MacroRole, Settings
from data_access.contracts import TraceStep

logger = logging.getLogger(__name__)
_budget_lock = threading.Lock()  # parallel agent nodes charge the same budget

# Text calls' step names -> their model role (seed 004 §2.5).
STEP_ROLES: dict[str, MacroRole] = {
    "router_refine": "router",
    "general": "general",
    "answer_writer": "answer",
    "answer_writer_repair": "answer",
}


def step_model(model: str, settings: Settings, name: str) -> str:
    """The model that answers a step: its role's setting, else the model the caller passed."""
    role = STEP_ROLES.get(name)
    return macro_model_id(role, settings, model) if role else model


def complete(model: str, settings: Settings, system: str, user: str, name: str,
             max_tokens: int = 800, budget: TurnBudget | None = None,
             steps: list[TraceStep] | None = None,
             response_format: dict[str, Any] | None = None,
             stream: CheckedStream | None = None) -> tuple[str, TraceStep]:  # fmt: skip
    """One chat completion; errors come back as an error trace step and empty text.

    `steps` (the run's LLM log) receives the step too, so a budget stop still shows every call.
    With `stream` (agents.answer_stream.open_gate) the text goes through its sentence gate to
    the screen as the model writes it; the returned text is the whole completion all the same.
    """
    if budget is not None and budget.exceeded:
        raise BudgetExceeded(budget.message())
    configure_tracing(settings)
    model = step_model(model, settings, name)
    watch = Stopwatch()
    messages: list[dict[str, Any]] = [{"role": "system", "content": system},
                                      {"role": "user", "content": user}]  # fmt: skip
    try:
        extra: dict[str, Any] = {"response_format": response_format} if response_format else {}
        call = completion if stream is None else partial(stream_checked, stream=stream)
        response = call(settings, model=model, messages=messages, max_tokens=max_tokens,
                        temperature=0, **extra, **litellm_kwargs(model, settings))  # fmt: skip
    except LlmCallFailed as e:
        return "", _failed(e, name, watch, steps)
    message = response.choices[0].message
    text = str(message.content or "")
    usage = usage_of(response, model)
    step = TraceStep(step=0, kind="llm", name=name, model=model, duration_ms=watch.ms,
                     observation=text[:500], tokens=usage.tokens, cost_usd=usage.cost_usd)  # fmt: skip
    if not text.strip():  # e.g. only tool calls: the caller falls back as for a failed call
        calls = len(getattr(message, "tool_calls", None) or [])
        step.status = "error"
        step.error = "LLM 응답에 텍스트가 없습니다" + (
            f" (도구 호출 {calls}개만 반환)" if calls else ""
        )
    _log(steps, step)
    _charge(budget, usage)
    return text, step


def complete_tools(model: str, settings: Settings, messages: list[dict[str, Any]],
                   tools: list[dict[str, Any]], name: str, *, parallel: bool,
                   budget: TurnBudget | None = None, steps: list[TraceStep] | None = None,
                   max_tokens: int = 800) -> tuple[dict[str, Any] | None, TraceStep]:  # fmt: skip
    """One tool-calling completion (seed 004 §8.4-3: `parallel_tool_calls` only when asked).

    Returns the assistant message as an OpenAI dict (content, tool_calls with ids, name and
    JSON-text arguments) and its trace step; a failed call returns None and an error step.
    """
    if budget is not None and budget.exceeded:
        raise BudgetExceeded(budget.message())
    configure_tracing(settings)
    watch = Stopwatch()
    # providers without the parameter (e.g. ollama) reject it: it is left out there
    extra = {"parallel_tool_calls": parallel} if _supports(model, "parallel_tool_calls") else {}
    try:
        response = completion(settings, model=model, messages=messages, tools=tools,
                              tool_choice="auto", max_tokens=max_tokens, temperature=0,
                              **extra, **litellm_kwargs(model, settings))  # fmt: skip
    except LlmCallFailed as e:
        return None, _failed(e, name, watch, steps)
    message = response.choices[0].message
    pairs = [(c.id or f"call_{i}", c.function.name or "", c.function.arguments or "")
             for i, c in enumerate(getattr(message, "tool_calls", None) or [])]  # fmt: skip
    calls = [{"id": i, "type": "function", "function": {"name": n, "arguments": a}}
             for i, n, a in pairs]  # fmt: skip
    text = str(message.content or "")
    usage = usage_of(response, model)
    shown = text[:300] or "; ".join(f"{n}({a[:200]})" for _, n, a in pairs)
    step = TraceStep(step=0, kind="llm", name=name, model=model, duration_ms=watch.ms,
                     observation=shown, tokens=usage.tokens, cost_usd=usage.cost_usd,
                     arguments={"parallel_tool_calls": parallel,
                                "tools": [t["function"]["name"] for t in tools]})  # fmt: skip
    _log(steps, step)
    _charge(budget, usage)
    out: dict[str, Any] = {"role": "assistant", "content": text or None}
    if calls:
        out["tool_calls"] = calls
    return out, step


def _failed(error: LlmCallFailed, name: str, watch: Stopwatch,
            steps: list[TraceStep] | None) -> TraceStep:  # fmt: skip
    """The error step of a call that failed for good, logged with the run's LLM steps."""
    logger.warning("LLM call %s failed: %s", name, error)
    step = error.trace_step(name).model_copy(update={"duration_ms": watch.ms})
    _log(steps, step)
    return step


def _supports(model: str, param: str) -> bool:
    import litellm

    provider, _, name = model.partition("/")
    try:
        supported = litellm.get_supported_openai_params(model=name or provider,
                                                        custom_llm_provider=provider if name else None)  # fmt: skip
    except Exception:  # litellm raises plain exceptions for unknown providers
        return False
    return param in (supported or [])


def _charge(budget: TurnBudget | None, usage: Usage) -> None:
    if budget is None:
        return
    with _budget_lock:
        budget.add(usage)
        over = budget.exceeded
    if over:
        raise BudgetExceeded(budget.message())


def _log(steps: list[TraceStep] | None, step: TraceStep) -> None:
    if steps is not None:
        with _budget_lock:
            steps.append(step)
