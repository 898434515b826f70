"""The offline planner: a smolagents `Model` that writes the CodeAgent's code without an LLM.

It plugs in where `LiteLLMModel` would. Each call reads the conversation smolagents sends
(system prompt, task, earlier steps and observations) and answers `Thought: …` plus a
`<code>` block, like a model would:

- step 1: search the named ETFs/stocks/tags (the seed's tool-order rules), print the matches;
- step 2: read those matches from the observation, call the dedicated tool with the codes and
  compose the answer from its result with a template (`final_answer`).

Questions it does not recognize get a plain final answer saying what it can answer.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable
from typing import Any

from smolagents.models import ChatMessage, MessageRole, Model
from smolagents.monitoring import TokenUsage

from agents.etf import answer_templates as tpl
from agents.etf import codegen, replies
from agents.etf.intents import Plan, detect_plan
from agents.etf.prompts import QUESTION_MARKER
from agents.understanding import QuestionFrame
from agents.understanding.lexicon import Lexicon

logger = logging.getLogger(__name__)

OFFLINE_MODEL_ID = "offline-planner"
APOLOGY = "죄송합니다. 답변 생성에 실패했습니다. 다시 질문해 주세요."
_RESOLVED_LINE = re.compile(r"^\{.*\}$", re.MULTILINE)


def message_text(message: ChatMessage | dict[str, Any]) -> str:
    content = message.content if isinstance(message, ChatMessage) else message.get("content")
    if isinstance(content, list):
        return "\n".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return str(content or "")


def message_role(message: ChatMessage | dict[str, Any]) -> str:
    role = message.role if isinstance(message, ChatMessage) else message.get("role")
    return str(role.value if isinstance(role, MessageRole) else role)


def current_question(task_text: str) -> str:
    """The question after the marker our prompt puts before it (else the whole task)."""
    if QUESTION_MARKER in task_text:
        return task_text.rsplit(QUESTION_MARKER, 1)[1].strip()
    return task_text.removeprefix("New task:").strip()


class OfflinePlanner(Model):
    """Rule-based stand-in for an LLM in smolagents' CodeAgent (no network, no cost)."""

    def __init__(
        self,
        lexicon: Lexicon | Callable[[], Lexicon],
        previous: tuple[QuestionFrame | None, list[str]] = (None, []),
        frame: QuestionFrame | None = None,
    ) -> None:
        super().__init__(model_id=OFFLINE_MODEL_ID)
        self._lexicon = lexicon
        self._previous = previous  # the previous turn's frame and listed codes (follow-ups)
        self._frame = frame  # the turn's plan as a model filled it (model_plan), if one did
        self.last_plan: Plan | None = None  # what the newest call understood (for the trace)

    @property
    def lexicon(self) -> Lexicon:
        return self._lexicon if isinstance(self._lexicon, Lexicon) else self._lexicon()

    def generate(
        self,
        messages: list[ChatMessage | dict[str, Any]],
        stop_sequences: list[str] | None = None,
        response_format: dict[str, str] | None = None,
        tools_to_call_from: list[Any] | None = None,
        **kwargs: Any,
    ) -> ChatMessage:
        text = self.respond(messages)
        return ChatMessage(
            role=MessageRole.ASSISTANT,
            content=text,
            token_usage=TokenUsage(input_tokens=0, output_tokens=0),
        )

    def respond(self, messages: list[ChatMessage | dict[str, Any]]) -> str:
        task_index = last_task_index(messages)
        if task_index is None or (
            task_index < len(messages) - 1 and message_role(messages[-1]) == MessageRole.USER.value
        ):
            # smolagents' max-steps summary request: a model answers in plain text here.
            return APOLOGY
        question = current_question(message_text(messages[task_index]))
        frame = self._frame if self._frame and self._frame.question == question else None
        plan = detect_plan(question, self.lexicon, *self._previous, frame=frame)
        self.last_plan = plan
        after = messages[task_index + 1 :]
        steps_done = sum(1 for m in after if message_role(m) == MessageRole.ASSISTANT.value)
        last = message_text(after[-1]) if after else ""
        return self.next_action(plan, steps_done, last)

    def next_action(self, plan: Plan, steps_done: int, last_observation: str) -> str:
        """The next `Thought` + code for a plan, given how many steps ran and what came back."""
        if plan.intent == "unsupported":
            return _action("질문 유형을 인식하지 못했으므로 답할 수 있는 범위를 안내합니다.",
                           codegen.final_text_code(replies.unsupported(plan)))  # fmt: skip
        if plan.intent == "define":
            return _action("용어 정의 질문이므로 데이터 조회 없이 내장 용어집에서 답합니다.",
                           codegen.final_text_code(replies.definition(plan)))  # fmt: skip
        if plan.intent == "declined":
            return _action("데이터 범위 밖의 질문이므로 답할 수 없는 이유와 가능한 질문을 안내합니다.",
                           codegen.final_text_code(replies.declined(plan)))  # fmt: skip
        if steps_done == 0 and (plan.etfs or plan.stocks or plan.tags):  # names to look up
            return _action(_resolve_thought(plan), codegen.resolve_code(plan))
        if last_observation.startswith("Error") or steps_done >= 2:
            detail = last_observation.splitlines()[1:3]
            text = tpl.tool_failed(plan.lang) + " ".join(detail)[:500]
            return _action("이전 단계가 실패했으므로 실패 내용을 그대로 알립니다.",
                           codegen.final_text_code(text))  # fmt: skip
        resolved = _resolved_from(last_observation) if steps_done else {}
        missing = codegen.failed_lookups(plan, resolved)
        if missing and not _enough_found(plan, resolved):
            plan.decline_reason = "not_found:" + ", ".join(missing)
            return _action("검색으로 확인되지 않은 이름이 있어 후보를 안내합니다.",
                           codegen.final_text_code("\n".join(missing)))  # fmt: skip
        thought = _ANSWER_THOUGHTS.get(plan.intent, "결과를 정리해 답합니다.")
        return _action(thought, codegen.answer_code(plan, resolved))


def last_task_index(messages: list[ChatMessage | dict[str, Any]]) -> int | None:
    for i in range(len(messages) - 1, -1, -1):
        if message_role(messages[i]) == MessageRole.USER.value and message_text(
            messages[i]
        ).startswith("New task:"):
            return i
    return None


def _resolved_from(observation: str) -> dict[str, Any]:
    """The JSON line step 1 printed (the first line that parses as a JSON object)."""
    for line in _RESOLVED_LINE.findall(observation):
        try:
            value = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            return value
    return {}


def _enough_found(plan: Plan, resolved: dict[str, Any]) -> bool:
    """Compare can go on with 2 of 3 ETFs; every other intent needs all its entities."""
    found = sum(1 for m in plan.etfs if isinstance(resolved.get(f"etf:{m.key}"), list)
                and resolved[f"etf:{m.key}"])  # fmt: skip
    if plan.intent == "compare" and found >= 2:
        plan.etfs = [m for m in plan.etfs if resolved.get(f"etf:{m.key}")]
        return True
    return False


def _resolve_thought(plan: Plan) -> str:
    parts = []
    if plan.stocks:
        parts.append("종목명(" + ", ".join(m.name for m in plan.stocks) + ")은 stock_search로")
    if plan.tags:
        parts.append("태그(" + ", ".join(m.name for m in plan.tags) + ")는 list_tags로")
    if plan.etfs:
        parts.append("ETF명(" + ", ".join(m.name for m in plan.etfs) + ")은 etf_search로")
    return " ".join(parts) + " 먼저 정확한 코드와 이름을 확인합니다."


_ANSWER_THOUGHTS = {
    "compare": "확인된 코드로 compare_etfs를 호출하고 비교표로 정리합니다.",
    "similar": "find_similar_etfs로 보유종목 비중이 겹치는 ETF를 찾습니다.",
    "holdings_changes": "get_holdings_changes로 보유종목 변화를 조회합니다.",
    "etf_prices": "get_etf_prices로 기간 가격 추이를 조회합니다.",
    "stock_prices": "get_stock_prices로 종목의 OHLCV 추이를 조회합니다.",
    "list_tags": "list_tags로 태그 목록과 ETF 수를 조회합니다.",
    "etf_info": "get_etf_info로 기본정보, 태그, 보유종목, 수익률을 조회합니다.",
    "stock_lookup": "검색 결과로 종목 코드를 답합니다.",
    "etf_set": "ETF 집합을 그래프에서 읽고, 필요한 값은 가격 도구로 채운 뒤 코드에서 거르고 정렬·집계합니다.",
    "etf_composed": "ETF 집합을 그래프에서 읽고 두 측정값을 가격 도구로 채운 뒤, 코드에서 한 값으로 정렬해 N개를 고르고 다른 값을 읽거나 집계합니다.",
    "holding_weight": "ETF의 최신 보유종목 스냅샷에서 해당 종목의 비중을 그래프로 조회합니다.",
    "holdings_aggregate": "ETF의 최신 보유종목을 비중 순으로 읽어 코드에서 합계·개수를 계산합니다.",
    "etf_difference": "두 ETF의 값을 도구로 읽고 코드에서 차이를 계산합니다.",
    "etf_month": "1년 가격을 조회해 코드에서 달·분기·연도별 값을 계산합니다.",
    "etf_measure": "get_etf_prices로 기간 수익률 또는 순자산을 조회합니다.",
    "common_holdings": "두 ETF의 최신 보유종목을 그래프에서 맞대어 공통 종목과 겹치는 비중을 계산합니다.",
    "holdings_counts": "각 ETF의 최신 보유종목 스냅샷에서 종목 수를 그래프로 세어 나란히 보입니다.",
    "etf_groups": "ETF를 운용사(또는 테마)와 함께 그래프에서 읽고 코드에서 그룹마다 값을 계산합니다.",
    "etf_attribution": "ETF의 기간 수익률과 상위 보유종목의 수익률을 도구로 읽고, 코드에서 종목별 기여(비중×수익률)를 계산합니다.",
}


def _action(thought: str, code: str) -> str:
    return f"Thought: {thought}\n<code>\n{code}\n</code>"
