"""Who writes the analysis, recommendation and review: templates offline, litellm with a model.

Both writers take the same section name and facts; the LLM writer records model, tokens, cost
and duration of every call, stops calling once the turn budget is spent, and falls back to the
template text (saying so) when the provider fails for good (after the retries of
`agents.llm.completion`); after such a failure the later sections use the templates without
calling again, so a dead provider costs one bounded call per report, not one per section.

Every model text is checked against the facts it was given (agents.model_checks): a figure,
date or reference the facts do not hold gets one repair request (`prompts.repair_messages`);
what is still unbacked after it is removed sentence by sentence, the section ends with a notice
saying so and `error` is set (the report is `partial`). A section left empty by the removal is
the template text. On a screen (agents.answer_stream) a section streams as the model writes
it, a checked sentence at a time, under its heading; there is no repair request then.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from agents.answer_stream import CheckedStream, open_gate, stream_checked
from agents.evidence import Stopwatch
from agents.llm import LlmCallFailed, TurnBudget, Usage, completion, litellm_kwargs, usage_of
from agents.model_checks import CheckResult, EvidencePool, check_model_text, pool_from
from agents.stock.prompts import Section, messages, repair_messages
from agents.stock.report import HEADINGS
from agents.stock.state import Language
from data_access.config import Settings

logger = logging.getLogger(__name__)

OFFLINE_MODEL = "offline-templates"
MAX_OUTPUT_TOKENS = 700
TEMPLATE_INSTEAD = "이 절은 템플릿 문장으로 대신했습니다."
MODEL_TEXT_KEYS = ("previous_text", "analysis", "recommendation")  # model-written, not evidence


@dataclass(frozen=True)
class Written:
    text: str
    model: str
    usage: Usage
    duration_ms: int
    error: str | None = None  # why the template text was used instead of the model's
    check: CheckResult | None = None  # the check of the model's text against the facts


class ReportWriter(Protocol):
    mode: str
    model_id: str | None
    budget_error: str | None

    def write(self, section: Section, facts: dict[str, Any], fallback: str,
              lang: Language) -> Written: ...  # fmt: skip


class TemplateWriter:
    """Offline: the template text is the section."""

    mode = "offline"
    model_id: str | None = None
    budget_error: str | None = None

    def write(self, section: Section, facts: dict[str, Any], fallback: str,
              lang: Language) -> Written:  # fmt: skip
        return Written(fallback, OFFLINE_MODEL, Usage(), 0)


class LiteLLMWriter:
    """A model through `agents.llm.completion`, unless a test passes another `completion`."""

    mode = "llm"

    def __init__(self, model_id: str, settings: Settings,
                 completion: Callable[..., Any] | None = None) -> None:  # fmt: skip
        self.model_id: str | None = model_id
        self.settings = settings
        self.kwargs = litellm_kwargs(model_id, settings)
        self.failure: LlmCallFailed | None = None  # the call that failed for good, if any
        self.budget = TurnBudget.from_settings(settings)
        self.budget_error: str | None = None
        self._completion = completion

    def write(self, section: Section, facts: dict[str, Any], fallback: str,
              lang: Language) -> Written:  # fmt: skip
        model = self.model_id or ""
        if self.budget_error:
            return Written(fallback, model, Usage(), 0, self.budget_error)
        if self.failure is not None:
            return Written(fallback, model, Usage(), 0,
                           "앞선 LLM 호출이 실패해 이 절도 템플릿으로 썼습니다 (호출하지 않음).")  # fmt: skip
        watch = Stopwatch()
        lang_code = "en" if lang == "en" else "ko"
        stream = None if self._completion is not None else open_gate(  # a screen shows it
            evidence_pool(facts), lang=lang_code, heading=HEADINGS[lang_code].get(section, ""))  # fmt: skip
        try:
            response = self._call(messages(section, facts, lang), model, stream)
            text = str(response.choices[0].message.content or "").strip()
        except LlmCallFailed as e:  # provider down, bad key, timeout: the template still answers
            logger.warning("stock %s via %s failed: %s", section, model, e)
            self.failure = e
            return Written(fallback, model, Usage(), watch.ms, e.notice(TEMPLATE_INSTEAD)[:400])
        usage = self._count(response, model)
        if not text:
            return Written(fallback, model, usage, watch.ms, "LLM이 빈 응답을 반환했습니다.")
        spent: list[Usage] = [usage]
        check = stream.result() if stream is not None else check_model_text(
            text, evidence_pool(facts), repair=lambda bad: self._repair(
                section, facts, lang, text, bad, spent))  # fmt: skip
        usage = Usage(sum(u.input_tokens for u in spent), sum(u.output_tokens for u in spent),
                      sum(u.cost_usd for u in spent))  # fmt: skip
        if not (stream.kept_any if stream is not None else not check.empty):
            return Written(fallback, model, usage, watch.ms,
                           f"{check.error()} {TEMPLATE_INSTEAD}", check)  # fmt: skip
        return Written(check.with_notice(lang_code), model, usage, watch.ms, check.error(), check)

    def _count(self, response: Any, model: str) -> Usage:
        usage = usage_of(response, model)
        self.budget.add(usage)
        if self.budget.exceeded:
            self.budget_error = self.budget.message()
        return usage

    def _repair(self, section: Section, facts: dict[str, Any], lang: Language, previous: str,
                bad: list[str], spent: list[Usage]) -> str | None:  # fmt: skip
        """The one repair request; None when the budget is spent or the call fails."""
        if self.budget_error:
            return None
        try:
            response = self._call(repair_messages(section, facts, lang, previous, bad),
                                  self.model_id or "")  # fmt: skip
        except LlmCallFailed as e:
            logger.warning("stock %s repair failed: %s", section, e)
            return None
        spent.append(self._count(response, self.model_id or ""))
        return str(response.choices[0].message.content or "")

    def _call(self, prompt: list[Any], model: str, stream: CheckedStream | None = None) -> Any:
        kwargs = {"model": model, "messages": prompt, "max_tokens": MAX_OUTPUT_TOKENS,
                  "temperature": 0.2, **self.kwargs}  # fmt: skip
        if self._completion is not None:
            return self._completion(**kwargs)
        if stream is not None:
            return stream_checked(self.settings, stream, **kwargs)
        return completion(self.settings, **kwargs)


def evidence_pool(facts: dict[str, Any]) -> EvidencePool:
    """What a section's claims are checked against: the facts without earlier model text."""
    return pool_from({k: v for k, v in facts.items() if k not in MODEL_TEXT_KEYS})


def build_writer(settings: Settings) -> ReportWriter:
    model_id = settings.model_for("stock")
    return LiteLLMWriter(model_id, settings) if model_id else TemplateWriter()
