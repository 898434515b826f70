"""litellm calls of the Macro Q&A graph (Text2Cypher, general knowledge, answer writing), each
recorded as an `llm` trace step with its model, tokens and cost."""

from __future__ import annotations

import logging
from typing import Any

from agents.evidence import Stopwatch
from agents.llm import litellm_kwargs, usage_of
from data_access.config import Settings
from data_access.contracts import TraceStep

logger = logging.getLogger(__name__)


def complete(model: str, settings: Settings, system: str, user: str, name: str,
             max_tokens: int = 800) -> tuple[str, TraceStep]:  # fmt: skip
    """One chat completion; errors come back as an error trace step and empty text."""
    import litellm

    watch = Stopwatch()
    messages: list[dict[str, Any]] = [{"role": "system", "content": system},
                                      {"role": "user", "content": user}]  # fmt: skip
    try:
        response = litellm.completion(model=model, messages=messages, max_tokens=max_tokens,
                                      temperature=0, **litellm_kwargs(model, settings))  # fmt: skip
    except Exception as e:  # litellm maps provider failures to many exception types
        logger.warning("LLM call %s failed: %s", name, e)
        return "", TraceStep(step=0, kind="llm", name=name, model=model, duration_ms=watch.ms,
                             status="error", error=str(e)[:500])  # fmt: skip
    text = str(response.choices[0].message.content or "")
    usage = usage_of(response, model)
    return text, TraceStep(step=0, kind="llm", name=name, model=model, duration_ms=watch.ms,
                           observation=text[:500], tokens=usage.tokens,
                           cost_usd=usage.cost_usd)  # fmt: skip
