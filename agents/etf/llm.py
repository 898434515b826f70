"""The ETF agent's model with a model configured: litellm, and the offline planner behind it.

`FallbackModel` is what the CodeAgent calls. It asks the configured `LiteLLMModel` (whose calls
go through `agents.llm.completion`: timeout, retries, reply check); when a call fails for good
it records the failure and lets the offline planner take over the rest of the turn. The planner
decides from the task and its own steps only (it counts the steps after the task), so the model
steps before the failure are hidden from it; they stay in the agent's memory and the trace.
"""

from __future__ import annotations

import logging
from typing import Any

from smolagents.models import ChatMessage, MessageRole, Model

from agents.etf.planner import OFFLINE_MODEL_ID, message_role, message_text
from agents.llm import LlmCallFailed

logger = logging.getLogger(__name__)

FALLBACK_TEXT = "오프라인 플래너가 이 질문에 대신 답했습니다."


class FallbackModel(Model):
    """The configured model until a call fails for good, then the offline planner."""

    def __init__(self, primary: Model, offline: Model) -> None:
        super().__init__(model_id=primary.model_id)
        self.primary = primary
        self.offline = offline
        self.failures: list[LlmCallFailed] = []
        self._switched_at: int | None = None  # len(messages) when the planner took over

    @property
    def fell_back(self) -> bool:
        return self._switched_at is not None

    @property
    def active_model_id(self) -> str | None:
        return OFFLINE_MODEL_ID if self.fell_back else self.primary.model_id

    def generate(
        self,
        messages: list[ChatMessage | dict[str, Any]],
        stop_sequences: list[str] | None = None,
        response_format: dict[str, str] | None = None,
        tools_to_call_from: list[Any] | None = None,
        **kwargs: Any,
    ) -> ChatMessage:
        if self._switched_at is None:
            try:
                return self.primary.generate(messages, stop_sequences=stop_sequences,
                                             response_format=response_format,
                                             tools_to_call_from=tools_to_call_from, **kwargs)  # fmt: skip
            except LlmCallFailed as e:
                logger.warning("ETF model call failed, offline planner takes over: %s", e)
                self.failures.append(e)
                self._switched_at = len(messages)
        return self.offline.generate(self._planner_view(messages), stop_sequences=stop_sequences)

    def _planner_view(self, messages: list[ChatMessage | dict[str, Any]]) -> list[Any]:
        """The conversation up to the task, then only the steps since the planner took over."""
        start = self._switched_at or len(messages)
        task = _last_task_index(messages[:start])
        if task is None:
            return messages
        return list(messages[: task + 1]) + list(messages[start:])


def _last_task_index(messages: list[ChatMessage | dict[str, Any]]) -> int | None:
    for i in range(len(messages) - 1, -1, -1):
        is_user = message_role(messages[i]) == MessageRole.USER.value
        if is_user and message_text(messages[i]).startswith("New task:"):
            return i
    return None
