"""The ETF agent's model with a model configured: litellm, and the offline planner behind it.

`FallbackModel` is what the CodeAgent calls. It asks the configured `LiteLLMModel` (whose calls
go through `agents.llm.completion`: timeout, retries, reply check); when a call fails for good
it records the failure and lets the offline planner take over the rest of the turn. The planner
decides from the task and its own steps only (it counts the steps after the task), so the model
steps before the failure are hidden from it; they stay in the agent's memory and the trace.

`EvidenceCheck` is the model's final answer checked against the turn's tool results
(agents.model_checks): the first `final_answer` with a figure or date no tool observed is
refused once with the list (the model's repair chance, as a smolagents final-answer check);
what the accepted answer still holds unbacked is removed by `checked_answer`, which makes the
turn partial. A run that reaches MAX_STEPS without a final answer is handed to the offline
planner (`offline_takeover`); the model's own closing text is never the answer.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

from smolagents import Tool
from smolagents.agents import ActionStep, FinalAnswerStep
from smolagents.models import ChatMessage, Model

from agents.etf.agent import MAX_STEPS, build_agent
from agents.etf.planner import OFFLINE_MODEL_ID, last_task_index
from agents.evidence import EvidenceCollector
from agents.llm import LlmCallFailed
from agents.model_checks import (
    CheckResult,
    EvidencePool,
    check_model_text,
    pool_from,
    unverified_texts,
)

logger = logging.getLogger(__name__)

FALLBACK_TEXT = "오프라인 플래너가 이 질문에 대신 답했습니다."
MAX_STEPS_TEXT = f"모델이 {MAX_STEPS}단계 안에 답을 내지 못해 오프라인 플래너가 대신 답했습니다."
REFUSED = ("final_answer에 도구 결과로 확인되지 않은 수치·날짜가 있습니다: {}. 도구가 돌려준 값만 "
           "쓰거나 그 부분을 빼고 final_answer를 다시 호출하세요 (다른 값으로 바꾸지 마세요).")  # fmt: skip


class FallbackModel(Model):
    """The configured model until a call fails for good, then the offline planner."""

    def __init__(self, primary: Model, offline: Model) -> None:
        super().__init__(model_id=primary.model_id)
        self.primary = primary
        self.offline = offline
        self.failures: list[LlmCallFailed] = []
        self._switched_at: int | None = None  # len(messages) when the planner took over

    def hand_over(self) -> None:
        """The offline planner answers from here on (the model reached its step limit)."""
        self._switched_at = self._switched_at or 0

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
        task = last_task_index(messages[:start])
        if task is None:
            return messages
        return list(messages[: task + 1]) + list(messages[start:])


class EvidenceCheck:
    """A smolagents final-answer check: figures and dates in the model's `final_answer` must be
    in the turn's tool results (or the question). Refuses once; `checked_answer` does the rest."""

    __name__ = "evidence_check"  # smolagents names the check in its error message

    def __init__(self, collector: EvidenceCollector, question: str, as_of: str,
                 model: FallbackModel | None = None) -> None:  # fmt: skip
        self.collector = collector
        self.question = question
        self.as_of = as_of
        self.model = model
        self.refused: list[str] = []

    def pool(self) -> EvidencePool:
        results = [c.result for c in self.collector.calls if c.status == "ok"]
        return pool_from(results, self.question, as_of=self.as_of)

    def __call__(self, final_answer: Any, memory: Any = None, agent: Any = None) -> bool:
        if self.refused or (self.model is not None and self.model.fell_back):
            return True  # one repair chance; the offline planner's text is its own
        bad = unverified_texts(str(final_answer), self.pool())
        if bad:
            self.refused = bad
            raise ValueError(REFUSED.format(", ".join(bad)))
        return True

    def checked_answer(self, text: str) -> CheckResult:
        """The accepted answer with what is still unbacked removed (no further repair)."""
        return check_model_text(text, self.pool())


def offline_takeover(offline: Model, tools: list[Tool],
                     task: str) -> Iterator[ActionStep | FinalAnswerStep]:  # fmt: skip
    """The offline planner's own run of the task over the same tools (and evidence)."""
    for event in build_agent(offline, tools).run(task, stream=True):
        if isinstance(event, ActionStep | FinalAnswerStep):
            yield event
