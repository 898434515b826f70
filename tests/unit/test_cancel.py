"""agents.cancel.until_cancelled: a stop request ends the wait for a step that is still running
(a model call that takes seconds), without starting another step; errors and the end of the steps
come through unchanged. No timing is asserted: a step that never ends until the test lets it
would hang the loop if the stop were not honoured mid-step."""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator

import pytest

from agents.cancel import CANCELLED_TEXT, cancelled, until_cancelled
from data_access.contracts import AgentAnswer, TraceStep


def _steps(gate: threading.Event, started: list[int]) -> Iterator[int]:
    started.append(1)
    yield 1
    started.append(2)
    gate.wait(timeout=30)  # the long step: runs until the test opens the gate
    yield 2
    started.append(3)
    yield 3


def test_a_stop_between_steps_starts_no_other() -> None:
    gate, stop, started = threading.Event(), threading.Event(), []
    seen = []
    for item in until_cancelled(_steps(gate, started), stop):
        seen.append(item)
        stop.set()
    gate.set()
    threading.Event().wait(0.1)  # room for a step that should not start
    assert seen == [1] and started == [1]


def test_a_stop_while_waiting_mid_step() -> None:
    gate, stop, started = threading.Event(), threading.Event(), []
    seen = []
    threading.Timer(0.2, stop.set).start()  # while step 2 waits on the gate
    for item in until_cancelled(_steps(gate, started), stop):
        seen.append(item)
    assert not gate.is_set(), "the loop ended while step 2 was still running"
    gate.set()
    threading.Event().wait(0.1)  # step 2 ends on the helper thread; step 3 must not start
    assert seen == [1] and started == [1, 2]


def test_without_a_stop_every_step_and_errors_come_through() -> None:
    gate = threading.Event()
    gate.set()
    assert list(until_cancelled(_steps(gate, []), threading.Event())) == [1, 2, 3]
    assert list(until_cancelled(_steps(gate, []), None)) == [1, 2, 3]

    def failing() -> Iterator[int]:
        yield 1
        raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):
        list(until_cancelled(failing(), threading.Event()))


def test_a_cancelled_answer_keeps_its_trace() -> None:
    steps = [TraceStep(step=1, kind="tool", name="etf_search"),
             TraceStep(step=1, kind="code", name="step 1")]  # fmt: skip
    answer = cancelled(AgentAnswer(answer="부분", mode="offline", trace=steps, payload={"a": 1}))
    assert answer.status == "cancelled" and answer.trace == steps and answer.payload == {"a": 1}
    assert answer.answer.startswith(CANCELLED_TEXT) and answer.error == answer.answer
    assert "끝난 단계 1개는 아래 실행 단계에 남아 있습니다" in answer.answer
    nothing = cancelled(AgentAnswer(answer="", mode="offline"))
    assert nothing.answer == f"{CANCELLED_TEXT} 끝난 단계는 없습니다."


def test_side_items_come_between_the_steps_and_pull_no_step_ahead() -> None:
    """What another thread puts on `side` while a step runs (a model's streamed sentences)
    comes through at once, in order, and taking it does not make the helper start a step early."""
    side: queue.Queue[tuple[str, object]] = queue.Queue()
    started: list[int] = []

    def steps() -> Iterator[int]:
        started.append(1)
        side.put(("side", "a"))
        side.put(("side", "b"))
        yield 1
        started.append(2)
        yield 2

    seen: list[object] = []
    for item in until_cancelled(steps(), None, side=side):
        seen.append(item)
        if item == 1:
            threading.Event().wait(0.1)  # room for a step pulled ahead
            assert started == [1], "taking side items did not ask for another step"
    assert seen == ["a", "b", 1, 2]
