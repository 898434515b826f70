"""Stopping a turn (the screens' 중지 button): one flag the caller sets, checked between steps.

    stop = threading.Event()
    for event in stream_answer(question, cancel=stop):   # another thread may call stop.set()
        ...  # the stream ends with an AgentAnswer whose status is "cancelled"

A service checks `requested(cancel)` after each step (agent step, graph node, progress event),
stops there, and answers with `cancelled(answer)`: the steps that ran stay in the trace, the run
is stored as cancelled. A step that is running when the flag is set finishes first.
"""

from __future__ import annotations

import threading

from data_access.contracts import AgentAnswer

CANCELLED_TEXT = (
    "중지 버튼으로 멈춘 실행입니다. 멈추기 전까지 실행된 단계는 아래 실행 단계에 남아 있습니다."
)


def requested(cancel: threading.Event | None) -> bool:
    """Whether the caller asked the turn to stop."""
    return cancel is not None and cancel.is_set()


def cancelled(answer: AgentAnswer) -> AgentAnswer:
    """`answer` (built from what ran so far) as a stopped turn: its text says so, status
    `cancelled`; trace, citations and payload are kept as they are."""
    steps = len({t.step for t in answer.trace})
    text = CANCELLED_TEXT + (f" (실행된 단계 {steps}개)" if steps else "")
    return answer.model_copy(update={"answer": text, "status": "cancelled", "error": text})
