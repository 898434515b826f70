"""One agent run as the API drives it, whichever screen's service runs it.

    turn = etf_turn(request, stores)          # api.agent_turns: checks, conversation, service call
    answer = run_to_answer(turn)              # POST …/message
    async for frame in stream_turn(turn, …)   # POST …/message/stream (api.streaming)

A `Turn` holds the service's own event iterator (the same generator the screen consumes), how
one of its events becomes a streamed step, what is done with the answer (stored, ids
attached), and the cancel flag the service was started with (set when the stream's client goes
away or calls the cancel endpoint: api.running). Input is checked with the screens' own check (`agents.inputs.check_text`) before
anything runs, so a refused question is a 422, not a stored turn.
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from psycopg_pool import ConnectionPool

from agents.inputs import check_text
from api.errors import ApiError
from api.models import StepData, TurnAnswer
from data_access import runs
from data_access.contracts import AgentAnswer
from data_access.errors import WorkbenchError

logger = logging.getLogger(__name__)

NO_ANSWER = "에이전트가 답변 없이 끝났습니다."
NEW_CONVERSATION_HINT = "conversation_id 없이 보내면 새 대화가 시작됩니다."
QUOTED_CHARS = 120  # of the question a stream's received step repeats


@dataclass
class Turn:
    events: Iterator[Any]  # the service's StepEvent/NodeEvent/... stream, ending in AgentAnswer
    step_of: Callable[[Any, int], StepData | None]  # (event, running number) → step, or skip
    finish: Callable[[AgentAnswer], TurnAnswer]  # store the answer, attach conversation/run ids
    cancel: threading.Event = field(default_factory=threading.Event)  # the service's stop flag
    turn_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    # What was asked, as the service will read it: a stream's first step (api.streaming), sent
    # before the service runs; None sends none.
    received: str | None = None

    def close(self) -> None:
        """Stop the service's generator where it stands (a client went away)."""
        close = getattr(self.events, "close", None)
        if close is not None:
            close()


def run_to_answer(turn: Turn) -> TurnAnswer:
    answer: AgentAnswer | None = None
    for event in turn.events:
        if isinstance(event, AgentAnswer):
            answer = event
    if answer is None:  # every service ends with its answer; say so if one ever does not
        raise ApiError(500, NO_ANSWER, "다시 시도하세요.")
    return turn.finish(answer)


def checked(text: str, what: str = "질문", max_chars: int | None = None, *,
            field: str = "message") -> str:  # fmt: skip
    """The cleaned text the agent will see, or a 422 naming the field, with the screens' Korean
    reason."""
    result = check_text(text, what=what) if max_chars is None else check_text(
        text, what=what, max_chars=max_chars)  # fmt: skip
    if result.problem:
        raise ApiError(422, f"{field}: {result.problem}", f"입력({what})을 고쳐 다시 보내세요.")
    return result.text


def parse_uuid(value: str, what: str) -> str:
    try:
        return str(uuid.UUID(value))
    except (ValueError, AttributeError, TypeError):
        raise ApiError(404, f"찾을 수 없는 {what} id입니다: {value[:60]!r}",
                       f"{what} id는 UUID 형식입니다.") from None  # fmt: skip


def open_conversation(conversation_id: str | None, screen: str,
                      pool: ConnectionPool) -> runs.Conversation | None:  # fmt: skip
    """The stored conversation to continue (404 if unknown or from another screen)."""
    if conversation_id is None:
        return None
    found = runs.get_conversation(parse_uuid(conversation_id, "대화"), pool=pool)
    if found is None or found.screen != screen:
        raise ApiError(404, f"이 화면({screen})의 대화를 찾을 수 없습니다: {conversation_id}",
                       NEW_CONVERSATION_HINT)  # fmt: skip
    return found


def with_ids(answer: AgentAnswer, conversation_id: str | None, run_id: str | None) -> TurnAnswer:
    return TurnAnswer(**answer.model_dump(), conversation_id=conversation_id, run_id=run_id)


def record(screen: str, question: str, answer: AgentAnswer,
           conversation: runs.Conversation | None, pool: ConnectionPool,
           *, save: bool = True) -> TurnAnswer:  # fmt: skip
    """Store a chat turn the way the screens do (`runs.record_turn`); a failed save is said in
    the payload, the answer is still returned."""
    conversation_id = conversation.conversation_id if conversation else None
    if not save:
        return with_ids(answer, conversation_id, None)
    try:
        conversation_id, run_id = runs.record_turn(screen, question, answer, conversation_id, pool)
    except WorkbenchError as e:
        logger.warning("API turn not saved: %s", e)
        answer.payload["save_error"] = str(e)
        return with_ids(answer, conversation_id, None)
    return with_ids(answer, conversation_id, run_id)


def quoted(text: str, limit: int = QUOTED_CHARS) -> str:
    """`text` in quotes, cut at `limit` characters (a received step never repeats a long
    question whole)."""
    return repr(text if len(text) <= limit else text[:limit] + "…")


def received_question(question: str, conversation: runs.Conversation | None) -> str:
    where = (f"대화 {conversation.conversation_id} 이어서" if conversation is not None
             else "새 대화")  # fmt: skip
    return f"질문을 받았습니다 ({where}, {len(question)}자): {quoted(question)}"
