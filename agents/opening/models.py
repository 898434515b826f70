"""The chat model of a run: litellm (through langchain-litellm, with the shared timeout and
retries of `agents.llm`) when configured, else the planner."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage

from agents.llm import Usage, build_langchain_model, model_id_for
from agents.opening.planner import MODEL_NAME, OfflineOpeningModel
from data_access.config import Settings

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class ChatModelChoice:
    model: BaseChatModel
    model_id: str | None  # None = offline planner

    @property
    def mode(self) -> str:
        return "offline" if self.model_id is None else "llm"

    @property
    def label(self) -> str:
        return self.model_id or MODEL_NAME


def build_chat_model(settings: Settings) -> ChatModelChoice:
    model_id = model_id_for("opening", settings)
    model = build_langchain_model("opening", settings, temperature=0.0)
    if model_id is None or model is None:
        return ChatModelChoice(OfflineOpeningModel(), None)
    return ChatModelChoice(model, model_id)


def usage_of_message(message: AIMessage, model_id: str | None) -> Usage:
    """Tokens (from usage_metadata) and cost (litellm's price table) of one model reply."""
    meta: Any = message.usage_metadata or {}
    prompt, completion = int(meta.get("input_tokens", 0)), int(meta.get("output_tokens", 0))
    if model_id is None or not (prompt or completion):
        return Usage(prompt, completion, 0.0)
    import litellm

    try:
        costs = litellm.cost_per_token(model=model_id, prompt_tokens=prompt,
                                       completion_tokens=completion)  # fmt: skip
        cost = float(sum(costs))
    except Exception as e:  # litellm raises plain Exception for unpriced models
        logger.info("no litellm price for %s: %s", model_id, e)
        cost = 0.0
    return Usage(prompt, completion, cost)
