"""The model path through litellm: planning by function calling, the relevance judge, the 항/호
judge (agents.contract.clause_judge), synthesis.

Every call is recorded as a trace step with its model, tokens and cost, and counted against
the turn budget. Synthesis gets no tools, so clause text cannot make the model call anything.
Its answer is checked against the clauses it was given (agents.model_checks, `CONTRACT`
policy: article references, figures, periods, dates); one repair request, then removal.

Failures (see agents/llm.py): a call that fails for good is an error trace step, the caller
falls back (planning → the rule planner, the judge → top five by score, the 항/호 judge → the
answer without it, synthesis → the template answer), the turn makes no further model calls,
and `notices` says what was replaced. Planned
tool calls the registry could not run as asked (unknown tool, arguments that are not a JSON
object, missing required arguments) are dropped as error steps; with none left, the rule planner
plans.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from agents.answer_stream import CheckedStream, open_gate, stream_checked
from agents.contract import prompts
from agents.contract.index import Hit
from agents.contract.models import article_ref, split_key
from agents.contract.references import parse_ref
from agents.contract.registry import ToolCall
from agents.evidence import Stopwatch
from agents.llm import LlmCallFailed, TurnBudget, completion, litellm_kwargs, usage_of
from agents.model_checks import CONTRACT, check_model_text, pool_from
from data_access.config import Settings
from data_access.contracts import TraceStep

logger = logging.getLogger(__name__)

JSON_RE = re.compile(r"\{.*\}", re.DOTALL)
HANGUL = re.compile(r"[가-힣]")
JUDGE_CHARS = 300
REPAIR_REQUEST = (
    "답변에 <contract_data>의 조항으로 확인되지 않는 조항 번호·수치·기간·날짜가 있습니다: {}. "
    "주어진 조항에 있는 내용만으로 답변을 다시 쓰세요. 확인되지 않은 것은 빼고 다른 값으로 바꾸지 마세요."
)


@dataclass
class LlmSession:
    model_id: str
    settings: Settings
    budget: TurnBudget
    record: Callable[[TraceStep], None]
    failure: LlmCallFailed | None = None  # the call that failed for good: no more calls
    notices: list[str] = field(default_factory=list)  # what a fallback replaced, in Korean

    def _complete(self, name: str, messages: list[dict[str, Any]], instead: str,
                  stream: CheckedStream | None = None, **extra: Any) -> Any | None:  # fmt: skip
        """The response, or None when the call failed (recorded; `instead` names the fallback).
        With `stream`, the text goes through its sentence gate to the screen as it is written."""
        if self.failure is not None:
            return None
        watch = Stopwatch()
        call = completion if stream is None else partial(stream_checked, stream=stream)
        try:
            response = call(self.settings, model=self.model_id, messages=messages,
                            **litellm_kwargs(self.model_id, self.settings), **extra)  # fmt: skip
        except LlmCallFailed as e:
            self.failure = e
            self.notices.append(e.notice(instead))
            self.record(e.trace_step(name).model_copy(update={"duration_ms": watch.ms}))
            return None
        usage = usage_of(response, self.model_id)
        self.budget.add(usage)
        content = response.choices[0].message.content or ""
        self.record(TraceStep(step=0, kind="llm", name=name, model=self.model_id,
                              observation=content[:500], duration_ms=watch.ms,
                              tokens=usage.tokens, cost_usd=usage.cost_usd))  # fmt: skip
        return response

    def plan(self, question: str, schemas: list[dict[str, Any]], contract_type: str | None,
             titles: dict[int, str]) -> list[ToolCall]:  # fmt: skip
        system = prompts.PLANNER_SYSTEM.format(
            contract_type=contract_type or "provide",
            titles=", ".join(f"{article_ref(*split_key(n))} {t}" if n > 0 else t
                             for n, t in titles.items()))  # fmt: skip
        response = self._complete("planning", [{"role": "system", "content": system},
                                               {"role": "user", "content": question}],
                                  "규칙 기반 계획으로 대신했습니다.",
                                  tools=schemas, tool_choice="auto")  # fmt: skip
        if response is None:
            return []
        required = {s["function"]["name"]: s["function"]["parameters"].get("required", [])
                    for s in schemas}  # fmt: skip
        calls, dropped = [], 0
        for i, tc in enumerate(response.choices[0].message.tool_calls or [], 1):
            call, problem = _tool_call(tc, i, required)
            if call is not None:
                calls.append(call)
                continue
            dropped += 1
            self.record(TraceStep(step=0, kind="tool", name=str(tc.function.name or "?"),
                                  arguments={"raw": str(tc.function.arguments)[:300]},
                                  status="error", error=f"모델의 도구 호출을 실행하지 않았습니다: {problem}"))  # fmt: skip
        if dropped and not calls:
            self.notices.append("모델의 도구 호출이 모두 잘못되어 규칙 기반 계획으로 대신했습니다.")
        return calls

    def judge(self, query: str, hits: list[Hit]) -> list[int]:
        """Article keys the model keeps; on an unreadable reply, the top five by score. A branch
        article is listed (and may be kept) by its name: "article_no": "제3조의2"."""
        fallback = [h.article.key for h in hits[:5]]
        if self.budget.exceeded:
            return fallback
        listing = [{"article_no": h.article.ref if h.article.branch else h.article.article_no,
                    "title": h.article.title, "text": h.article.body[:JUDGE_CHARS]}
                   for h in hits]  # fmt: skip
        response = self._complete("relevance_filter", [
            {"role": "system", "content": prompts.JUDGE_SYSTEM},
            {"role": "user", "content": prompts.evidence_message(
                query, json.dumps(listing, ensure_ascii=False))}],
            "관련성 판단은 점수 순 상위 조항으로 대신했습니다.")  # fmt: skip
        if response is None:
            return fallback
        match = JSON_RE.search(response.choices[0].message.content or "")
        try:
            keep = json.loads(match.group(0))["keep"] if match else None
            valid = {h.article.key for h in hits}
            keys = [parse_ref(str(n)) for n in keep] if isinstance(keep, list) else []
            chosen = [k for k in keys if k is not None and k in valid]
        except (ValueError, KeyError, TypeError):
            chosen = []
        return chosen[:5] or fallback

    def judge_clause(self, question: str, listing_json: str) -> str | None:
        """The model's reply naming the 항/호 that answers (agents.contract.clause_judge reads
        and checks it); None when the call failed (recorded; the turn goes on without it)."""
        if self.budget.exceeded:
            return None
        response = self._complete("clause_judge", [
            {"role": "system", "content": prompts.CLAUSE_JUDGE_SYSTEM},
            {"role": "user", "content": prompts.evidence_message(question, listing_json)}],
            "조항 판단은 오프라인 답의 조항으로 대신했습니다.")  # fmt: skip
        return None if response is None else str(response.choices[0].message.content or "")

    def synthesize(self, question: str, evidence_json: str) -> str:
        """The model's answer after the check against the clauses it was given
        (agents.model_checks): one repair request, then what still does not match is removed
        and noted (`notices`: the turn is partial); "" when nothing is left (template answer)."""
        messages = [{"role": "system", "content": prompts.SYNTHESIS_SYSTEM},
                    {"role": "user", "content": prompts.evidence_message(question, evidence_json)}]  # fmt: skip
        lang = "ko" if HANGUL.search(question) else "en"
        pool = pool_from(_evidence(evidence_json), question)
        stream = open_gate(pool, CONTRACT, lang=lang)  # the screen shows it as it is written
        response = self._complete("synthesis", messages, "찾은 조항으로 템플릿 답변을 썼습니다.",
                                  stream=stream)  # fmt: skip
        if response is None:
            return ""
        text = str(response.choices[0].message.content or "").strip()
        check = stream.result() if stream is not None else check_model_text(
            text, pool, CONTRACT, repair=lambda bad: self._repair(messages, text, bad))  # fmt: skip
        self.record(check.trace_step("model_check"))
        if check.partial:
            self.notices.append(check.error() or "")
        kept = stream.kept_any if stream is not None else not check.empty
        return check.with_notice(lang) if kept else ""

    def _repair(self, messages: list[dict[str, Any]], text: str, bad: list[str]) -> str | None:
        """The one repair request: the same evidence, the previous answer and what failed."""
        response = self._complete("synthesis_repair", [*messages,
                                  {"role": "assistant", "content": text},
                                  {"role": "user", "content": REPAIR_REQUEST.format(", ".join(bad))}],
                                  "확인되지 않은 부분을 뺐습니다.")  # fmt: skip
        return None if response is None else str(response.choices[0].message.content or "")


def _evidence(evidence_json: str) -> Any:
    """The evidence as JSON when it parses (cut at a length it may not), else as text."""
    try:
        return json.loads(evidence_json)
    except json.JSONDecodeError:
        return evidence_json


def _tool_call(tc: Any, index: int,
               required: dict[str, list[str]]) -> tuple[ToolCall | None, str]:  # fmt: skip
    """A planned call the registry can run, or None and what is wrong with it (Korean)."""
    name = tc.function.name or ""
    if name not in required:
        return None, f"알 수 없는 도구 {name!r}"
    try:
        arguments = json.loads(tc.function.arguments or "{}")
    except json.JSONDecodeError:
        return None, "인자가 올바른 JSON이 아닙니다"
    if not isinstance(arguments, dict):
        return None, "인자가 JSON 객체가 아닙니다"
    missing = [r for r in required[name] if r not in arguments]
    if missing:
        return None, f"필수 인자 누락: {', '.join(missing)}"
    return ToolCall(name, arguments, tc.id or f"call_{index}"), ""
