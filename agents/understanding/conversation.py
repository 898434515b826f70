"""Conversations for the CLIs (and any caller without a screen): the history of a stored
conversation, and a turn saved into it — the same run-store conversations the chat screens list.

    history = conversation_history(conversation_id)      # [] for None
    conversation_id = remember("etf", question, answer, conversation_id)
"""

from __future__ import annotations

from psycopg_pool import ConnectionPool

from agents.understanding.history import HistoryMessage, history_after
from data_access import runs
from data_access.contracts import AgentAnswer


def conversation_history(conversation_id: str | None,
                         pool: ConnectionPool | None = None) -> list[HistoryMessage]:  # fmt: skip
    history: list[HistoryMessage] = []
    for turn in runs.load_turns(conversation_id, pool=pool) if conversation_id is not None else ():
        history = history_after(history, turn.question, turn.answer)
    return history


def remember(screen: str, question: str, answer: AgentAnswer, conversation_id: str | None,
             pool: ConnectionPool | None = None) -> str:  # fmt: skip
    """Save the turn (a new conversation when `conversation_id` is None); its conversation id."""
    conversation_id, _ = runs.record_turn(screen, question, answer, conversation_id, pool)
    return conversation_id
