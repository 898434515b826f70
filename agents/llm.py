"""Shared LLM plumbing for every agent: model per role, one way to call a provider (timeout,
retries, reply check), usage and cost, the per-turn budget.

litellm does the provider work; this module turns settings into model objects, makes every
model call of every agent through `completion()` (directly, or as the `client` of smolagents'
`LiteLLMModel` and of langchain-litellm's `ChatLiteLLM`), and turns litellm responses into
(tokens, cost) so traces can show them and a turn can stop cleanly when it goes over its budget
(DESIGN.md "Every LLM call ... records its model, tokens and cost").

Failure policy, the same for every agent. One request waits at most `llm_timeout_s`; a transient
failure (HTTP 408/409/429/5xx, a timeout, a connection error, a reply that is not a completion:
truncated or non-JSON body, empty `choices`) is retried `llm_num_retries` times with exponential
backoff from `llm_retry_backoff_s` (a 429's `Retry-After` is honoured up to `MAX_BACKOFF_S`);
anything else (a bad key, a bad request) fails at once. A call that still fails raises
`LlmCallFailed` with a Korean message, so one model call takes at most about
`(llm_num_retries + 1) × llm_timeout_s` plus the backoff, and each agent answers with its
documented fallback; the failed call is an `llm` trace step with `status="error"`:

| agent | when a model call fails for good | answer |
| --- | --- | --- |
| ETF chat (smolagents CodeAgent) | the offline planner takes over the turn from the task (earlier model steps stay in the trace) | offline planner's answer, `status="partial"`, `error` says so |
| Macro Q&A (LangGraph) | a domain agent's tool loop → its templates and GraphRAG (the offline agent when its first call fails); router refinement → the rules' route; general knowledge → "unanswered"; answer writer → the offline text from the evidence | offline rules/templates answer (`mode="offline"` when no call succeeded), `status="partial"`, `error` says so |
| Opening script (LangGraph ReAct) | the offline planner continues the same run from the tool results gathered so far | the validated offline script, `status="partial"`, `error` says so |
| Contract clauses (function calling) | planning → the rule planner; relevance judge → top five by score; synthesis → the template answer; after one failure the turn makes no more model calls | template answer over the found clauses, `status="partial"`, `error` says so |
| Stock report (LangGraph workflow) | the failed section and every later one use the template text | the full report from templates and figures, `status="partial"`, `error` says so |

Malformed tool calls never raise: arguments that are not JSON, an unknown tool name or missing
required arguments come back to the model as an error it can act on (Opening: a tool error or a
correction message; ETF: smolagents' parse/execution error of that step), or, where the model
has no next turn (Contract planning), the call is dropped with an error trace step and the rule
planner plans instead when no usable call is left. litellm gives a tool call without an id one.
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import SecretStr
from tenacity import RetryCallState, Retrying, retry_if_exception, stop_after_attempt

from data_access.config import AgentRole, MacroRole, Settings
from data_access.contracts import TraceStep
from data_access.errors import WorkbenchError
from data_access.secrets import redact, secret_values

# Never fetch the model price list from the network at import time.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

logger = logging.getLogger(__name__)

_KEY_BY_PREFIX = {"openai": "openai_api_key", "anthropic": "anthropic_api_key",
                  "gemini": "gemini_api_key"}  # fmt: skip
TRANSIENT_STATUS = frozenset({408, 409, 429})  # and every 5xx
MAX_BACKOFF_S = 10.0


class BudgetExceeded(WorkbenchError):
    """A turn used more tokens or money than its configured budget."""


class MalformedResponse(Exception):
    """The provider answered 200 but not with a usable completion (e.g. no choices)."""


class LlmCallFailed(WorkbenchError):
    """A model call failed for good: after its retries, or at once when retrying cannot help."""

    def __init__(self, model: str, attempts: int, cause: BaseException, duration_ms: int,
                 secrets: Sequence[str] = ()) -> None:  # fmt: skip
        self.model = model
        self.attempts = attempts
        self.cause = cause
        self.duration_ms = duration_ms
        self.kind = failure_kind(cause)
        tries = f"{attempts}회 시도" if attempts > 1 else "재시도하지 않는 오류"
        # Providers echo the key in auth errors: the message goes to answers, traces and logs.
        detail = f"{type(cause).__name__}: {redact(provider_detail(cause), secrets)}"
        super().__init__(f"LLM 호출 실패 ({tries}): {self.kind} — {detail}")

    def notice(self, fallback: str) -> str:
        """What the answer says: what failed and what answered instead (Korean)."""
        return f"{self} — {fallback}"

    def trace_step(self, name: str, step: int = 0) -> TraceStep:
        return TraceStep(step=step, kind="llm", name=name, model=self.model, status="error",
                         error=str(self)[:500], duration_ms=self.duration_ms,
                         arguments={"attempts": self.attempts, "kind": self.kind})  # fmt: skip


@dataclass(frozen=True)
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0

    @property
    def tokens(self) -> int:
        return self.input_tokens + self.output_tokens


@dataclass
class TurnBudget:
    """Tokens and cost spent in one turn against the configured limits."""

    max_tokens: int
    max_cost_usd: float
    tokens: int = 0
    cost_usd: float = 0.0

    @classmethod
    def from_settings(cls, settings: Settings) -> TurnBudget:
        return cls(settings.llm_max_tokens_per_turn, settings.llm_max_cost_per_turn_usd)

    def add(self, usage: Usage) -> None:
        self.tokens += usage.tokens
        self.cost_usd += usage.cost_usd

    @property
    def exceeded(self) -> bool:
        return self.tokens > self.max_tokens or self.cost_usd > self.max_cost_usd

    def message(self) -> str:
        return (
            f"이번 질문의 LLM 사용 한도를 넘어 실행을 멈췄습니다 (토큰 {self.tokens:,}/"
            f"{self.max_tokens:,}, 비용 ${self.cost_usd:.4f}/${self.max_cost_usd:.2f})."
        )


def model_id_for(role: AgentRole, settings: Settings) -> str | None:
    """The litellm model string for a role; None means the offline planner answers."""
    return settings.model_for(role)


def macro_model_id(role: MacroRole, settings: Settings, default: str) -> str:
    """The Macro Q&A model of one role (seed 004 §2.5), else `default` (the screen's model)."""
    return settings.model_for(role) or default


# ---- reasoning effort and tracing --------------------------------------------------------------


def apply_reasoning_effort(kwargs: dict[str, Any], settings: Settings) -> None:
    """Add the configured `reasoning_effort` for the call's model where the provider supports it
    (litellm's model map says so); elsewhere it is left out, as providers reject it."""
    model = str(kwargs.get("model", ""))
    effort = settings.reasoning_effort_for(model)
    if effort is None or "reasoning_effort" in kwargs:
        return
    import litellm

    try:
        supported = bool(litellm.supports_reasoning(model=model))
    except Exception:  # litellm raises plain exceptions for unknown providers
        supported = False
    if supported:
        kwargs["reasoning_effort"] = effort
    else:
        logger.info("reasoning_effort %s not sent: %s does not support it", effort, model)


_TRACING_ENV = {"langchain_api_key": "LANGCHAIN_API_KEY", "langchain_project": "LANGCHAIN_PROJECT",
                "langchain_endpoint": "LANGCHAIN_ENDPOINT"}  # fmt: skip


def configure_tracing(settings: Settings) -> bool:
    """LangSmith tracing of LangChain/LangGraph runs when `langchain_tracing_v2` is on (env or
    secrets.toml); off by default, and then nothing is set and nothing leaves the machine.
    Returns whether tracing is on."""
    if not settings.langchain_tracing_v2:
        return False
    os.environ["LANGCHAIN_TRACING_V2"] = "true"
    for field, name in _TRACING_ENV.items():
        value = getattr(settings, field)
        if value is not None:
            secret = isinstance(value, SecretStr)
            os.environ[name] = value.get_secret_value() if secret else str(value)
    with contextlib.suppress(ImportError, AttributeError):  # langsmith caches its env reads
        from langsmith import utils as ls_utils

        ls_utils.get_env_var.cache_clear()  # type: ignore[attr-defined]
    return True


def litellm_kwargs(model_id: str, settings: Settings) -> dict[str, Any]:
    """api_base / api_key for litellm from settings (only what is set)."""
    kwargs: dict[str, Any] = {}
    if settings.llm_api_base:
        kwargs["api_base"] = settings.llm_api_base
    field = _KEY_BY_PREFIX.get(model_id.split("/", 1)[0])
    secret = getattr(settings, field, None) if field else None
    if secret is not None:
        kwargs["api_key"] = secret.get_secret_value()
    return kwargs


def build_smolagents_model(role: AgentRole, settings: Settings) -> Any | None:
    """A smolagents `LiteLLMModel` for the role, or None when no model is configured."""
    model_id = model_id_for(role, settings)
    if model_id is None:
        return None
    configure_tracing(settings)
    from smolagents import LiteLLMModel

    # retry=False: smolagents' own rate-limit retry waits a minute per attempt.
    return LiteLLMModel(model_id=model_id, client=RetryingClient(settings), retry=False,
                        **litellm_kwargs(model_id, settings))  # fmt: skip


def build_langchain_model(role: AgentRole, settings: Settings, **params: Any) -> Any | None:
    """A langchain-litellm `ChatLiteLLM` for the role (None when no model is configured)."""
    model_id = model_id_for(role, settings)
    if model_id is None:
        return None
    configure_tracing(settings)
    from langchain_litellm import ChatLiteLLM

    kwargs = litellm_kwargs(model_id, settings)
    model = ChatLiteLLM(model=model_id, request_timeout=settings.llm_timeout_s, max_retries=1,
                        api_base=kwargs.get("api_base"), api_key=kwargs.get("api_key"), **params)  # fmt: skip
    model.client = RetryingClient(settings)  # max_retries=1 above: one attempt of ours
    return model


def usage_of(response: Any, model_id: str | None = None) -> Usage:
    """Tokens and cost of one litellm response (cost 0 when litellm has no price for it)."""
    if response is None:
        return Usage()
    usage = getattr(response, "usage", None)
    if usage is None and isinstance(response, dict):
        usage = response.get("usage")
    prompt = _field(usage, "prompt_tokens")
    completion = _field(usage, "completion_tokens")
    return Usage(prompt, completion, completion_cost(response, model_id))


def completion_cost(response: Any, model_id: str | None = None) -> float:
    import litellm

    try:
        return float(litellm.completion_cost(completion_response=response, model=model_id))
    except Exception as e:  # litellm raises plain Exception for unpriced models
        logger.info("no litellm price for %s: %s", model_id, e)
        return 0.0


def _field(usage: Any, name: str) -> int:
    if usage is None:
        return 0
    value = usage.get(name) if isinstance(usage, dict) else getattr(usage, name, 0)
    return int(value or 0)


# ---- one way to call a provider ----------------------------------------------------------------


def completion(settings: Settings, **kwargs: Any) -> Any:
    """`litellm.completion(**kwargs)` with the workbench's timeout, retries and reply check.

    Raises `LlmCallFailed` when the call fails for good (see the module docstring).
    """
    import litellm

    litellm.suppress_debug_info = True
    if kwargs.get("timeout") is None:
        kwargs["timeout"] = settings.llm_timeout_s
    # Retries happen here only: litellm's and the provider SDK's own retries are switched off
    # so the number of requests per call is exactly 1 + llm_num_retries.
    kwargs.update(num_retries=0, max_retries=0)
    apply_reasoning_effort(kwargs, settings)
    model = str(kwargs.get("model", ""))
    started = time.perf_counter()
    attempts = 0
    try:
        for attempt in _retrying(settings):
            with attempt:
                attempts += 1
                response = litellm.completion(**kwargs)
                if not kwargs.get("stream"):
                    check_response(response)
    except Exception as e:  # litellm maps provider failures to many exception types
        ms = int((time.perf_counter() - started) * 1000)
        secrets = secret_values(settings, kwargs.get("api_key"))
        logger.warning("LLM call to %s failed after %s attempt(s): %s", model, attempts,
                       redact(str(e), secrets))  # fmt: skip
        raise LlmCallFailed(model, attempts, e, ms, secrets) from e
    return response


def stream_completion(settings: Settings, on_text: Callable[[str], bool], **kwargs: Any) -> Any:
    """`completion(..., stream=True)`: each piece of text goes to `on_text` as the provider sends
    it, and `on_text` returning False stops reading (the 중지 button): the connection is closed
    and the text so far is what the model wrote. Returns one response assembled from the chunks
    (litellm's `stream_chunk_builder`), so `usage_of` and `choices[0].message` work as for a
    whole completion. Connecting is retried like any call; a stream that breaks half-way
    raises `LlmCallFailed` (what already went to `on_text` stays with the caller)."""
    import litellm

    kwargs.update(stream=True, stream_options={"include_usage": True})
    started = time.perf_counter()
    stream = completion(settings, **kwargs)
    chunks: list[Any] = []
    try:
        for chunk in stream:
            chunks.append(chunk)
            choices = getattr(chunk, "choices", None) or []
            text = getattr(choices[0].delta, "content", None) if choices else None
            if text and on_text(text) is False:
                break
    except Exception as e:  # the provider broke the stream half-way
        ms = int((time.perf_counter() - started) * 1000)
        raise LlmCallFailed(str(kwargs.get("model", "")), 1, e, ms,
                            secret_values(settings, kwargs.get("api_key"))) from e  # fmt: skip
    finally:
        _close_stream(stream)
    response = litellm.stream_chunk_builder(chunks, messages=kwargs.get("messages"))
    if response is None:  # stopped before the first chunk
        response = litellm.ModelResponse(model=kwargs.get("model"))
        response.choices[0].message.content = ""
    return response


def _close_stream(stream: Any) -> None:
    """Close the HTTP response under litellm's stream wrapper (a stopped stream is not read to
    its end)."""
    for target in (getattr(stream, "completion_stream", None), stream):
        close = getattr(target, "close", None)
        if callable(close):
            with contextlib.suppress(Exception):
                close()
            return


def check_response(response: Any) -> None:
    """A completion must have at least one choice with a message."""
    choices = getattr(response, "choices", None)
    if not choices or getattr(choices[0], "message", None) is None:
        raise MalformedResponse("the provider returned no choices")


def is_transient(error: BaseException) -> bool:
    """Worth another try: rate limits, server errors, timeouts, broken connections or replies."""
    import litellm

    if isinstance(error, MalformedResponse | litellm.Timeout | litellm.APIConnectionError):
        return True
    status = getattr(error, "status_code", None)
    return isinstance(status, int) and (status in TRANSIENT_STATUS or status >= 500)


def failure_kind(error: BaseException) -> str:
    """A short Korean name for what went wrong."""
    import litellm

    status = getattr(error, "status_code", None)
    text = str(error).lower()
    if isinstance(error, litellm.Timeout):
        return "응답 시간 초과"
    if isinstance(error, MalformedResponse) or "invalid response" in text or \
            "expecting value" in text or "unterminated string" in text:  # fmt: skip
        return "잘못된 형식의 응답"
    if isinstance(error, litellm.APIConnectionError) or "connection error" in text:
        return "연결 실패"
    if status == 429:
        return "요청 한도 초과(429)"
    if status in (401, 403):
        return f"인증 실패({status})"
    if isinstance(status, int) and status >= 500:
        return f"제공자 서버 오류({status})"
    if isinstance(status, int):
        return f"요청 오류({status})"
    return "호출 오류"


def provider_detail(error: BaseException, limit: int = 200) -> str:
    """The provider's own words, without litellm's repeated class-name prefixes."""
    text = " ".join(str(error).split())
    if text.startswith("litellm.") and " - " in text:
        text = text.split(" - ", 1)[1]
    return text[:limit]


def _retrying(settings: Settings) -> Retrying:
    return Retrying(
        stop=stop_after_attempt(max(settings.llm_num_retries, 0) + 1),
        wait=lambda state: _backoff(state, settings.llm_retry_backoff_s),
        retry=retry_if_exception(is_transient),
        reraise=True,
    )


def _backoff(state: RetryCallState, first_s: float) -> float:
    """Exponential from `first_s`; a Retry-After the provider sent wins, up to MAX_BACKOFF_S."""
    wait = first_s * 2 ** (state.attempt_number - 1)
    error = state.outcome.exception() if state.outcome else None
    headers = getattr(getattr(error, "response", None), "headers", None) or {}
    with contextlib.suppress(TypeError, ValueError):  # a date-form Retry-After is ignored
        wait = max(wait, float(headers.get("retry-after", 0)))
    return min(wait, MAX_BACKOFF_S)


class RetryingClient:
    """Stands in for the `litellm` module as the client of smolagents' `LiteLLMModel` and of
    langchain-litellm's `ChatLiteLLM`, so their calls get the same timeout and retries."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def completion(self, **kwargs: Any) -> Any:
        return completion(self.settings, **kwargs)
