"""Shared LLM plumbing for every agent: model per role, usage and cost, the per-turn budget.

litellm does the provider work; this module only turns settings into model objects and
litellm responses into (tokens, cost) so traces can show them and a turn can stop cleanly
when it goes over its budget (DESIGN.md "Every LLM call ... records its model, tokens and cost").
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from typing import Any

from data_access.config import AgentRole, Settings
from data_access.errors import WorkbenchError

# Never fetch the model price list from the network at import time.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

logger = logging.getLogger(__name__)

_KEY_BY_PREFIX = {"openai": "openai_api_key", "anthropic": "anthropic_api_key",
                  "gemini": "gemini_api_key"}  # fmt: skip


class BudgetExceeded(WorkbenchError):
    """A turn used more tokens or money than its configured budget."""


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
    from smolagents import LiteLLMModel

    return LiteLLMModel(model_id=model_id, **litellm_kwargs(model_id, settings))


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
