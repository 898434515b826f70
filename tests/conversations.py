"""A conversation asked turn by turn, as the screens keep it (shared by the integration tests)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from agents.understanding.history import history_after
from data_access.contracts import AgentAnswer


def chain(ask: Callable[..., AgentAnswer], turns: Iterable[str], **kwargs: Any) -> AgentAnswer:
    """The last answer of a conversation: each turn asked with the turns before it."""
    history: list[Any] = []
    for turn in turns:
        answer = ask(turn, history=history, **kwargs)
        history = history_after(history, turn, answer)
    return answer
