"""Conversation history shared by the chat screens, the CLIs, the API and the eval runner.

An assistant message may carry the turn's `context` (the frame it understood and the codes its
answer listed, from `AgentAnswer.payload["followup"]`), so "그 중 보수가 가장 낮은 건?" or "what
about TIGER 200?" resolve against the previous turn instead of being asked in a vacuum.

    history = history_after([], "반도체 ETF 목록", answer)
    frame, result = previous_context(history)
    history = conversation_history(conversation_id)  # a stored conversation's, for the CLIs
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from psycopg_pool import ConnectionPool

from agents.understanding.frame import QuestionFrame
from data_access import runs

FOLLOWUP_KEY = "followup"


@dataclass(frozen=True)
class HistoryMessage:
    role: str  # user | assistant
    content: str
    context: dict[str, Any] | None = field(default=None, compare=False)


def followup_payload(frame: QuestionFrame, result: Sequence[str]) -> dict[str, Any]:
    """What an answer keeps for the next turn: its frame and the codes it listed."""
    return {"frame": frame.model_dump(mode="json"), "result": list(result)[:200]}


def history_after(history: Sequence[HistoryMessage], question: str,
                  answer: Any) -> list[HistoryMessage]:  # fmt: skip
    """`history` plus one turn (the question and the answer with its follow-up context)."""
    payload = getattr(answer, "payload", None) or {}
    if payload.get("input_rejected"):
        return list(history)
    context = payload.get(FOLLOWUP_KEY)
    return [*history, HistoryMessage("user", question),
            HistoryMessage("assistant", getattr(answer, "answer", "") or "", context)]  # fmt: skip


def previous_context(history: Sequence[HistoryMessage]) -> tuple[QuestionFrame | None, list[str]]:
    """The frame and result codes of the newest assistant turn that kept them."""
    for message in reversed(history):
        if message.role == "assistant" and message.context:
            try:
                frame = QuestionFrame.model_validate(message.context.get("frame") or {})
            except ValueError:
                return None, []
            return frame, [str(c) for c in message.context.get("result") or []]
    return None, []


def conversation_history(conversation_id: str | None,
                         pool: ConnectionPool | None = None) -> list[HistoryMessage]:  # fmt: skip
    """The history of a stored conversation (the run store the chat screens list); [] for None."""
    history: list[HistoryMessage] = []
    for turn in runs.load_turns(conversation_id, pool=pool) if conversation_id is not None else ():
        history = history_after(history, turn.question, turn.answer)
    return history
