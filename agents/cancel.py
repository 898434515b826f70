"""Stopping a turn (the screens' 중지 button): one flag the caller sets, checked between steps.

    stop = threading.Event()
    for event in stream_answer(question, cancel=stop):   # another thread may call stop.set()
        ...  # the stream ends with an AgentAnswer whose status is "cancelled"

A service pulls its agent's steps through `until_cancelled(steps, cancel)`, which ends within
`POLL_S` of the flag being set, also in the middle of a long step (a model call that takes
seconds): that step is left to finish on its helper thread and is dropped. The service then
answers `cancelled(answer)` from what ran so far: those steps stay in the trace, and the run is
stored as cancelled.
"""

from __future__ import annotations

import contextvars
import logging
import queue
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

from data_access.contracts import AgentAnswer

logger = logging.getLogger(__name__)
T = TypeVar("T")
POLL_S = 0.05

CANCELLED_TEXT = "중지 버튼으로 멈춘 실행입니다."


def requested(cancel: threading.Event | None) -> bool:
    """Whether the caller asked the turn to stop."""
    return cancel is not None and cancel.is_set()


def cancelled(answer: AgentAnswer) -> AgentAnswer:
    """`answer` (built from what ran so far) as a stopped turn: its text says so, status
    `cancelled`; trace, citations and payload are kept as they are."""
    steps = len({t.step for t in answer.trace})
    kept = (f" 멈추기 전에 끝난 단계 {steps}개는 아래 실행 단계에 남아 있습니다." if steps
            else " 끝난 단계는 없습니다.")  # fmt: skip
    text = CANCELLED_TEXT + kept
    return answer.model_copy(update={"answer": text, "status": "cancelled", "error": text})


def until_cancelled(steps: Iterable[T], cancel: threading.Event | None,
                    side: queue.Queue[tuple[str, object]] | None = None) -> Iterator[T]:  # fmt: skip
    """`steps` one by one, pulled on a helper thread so that waiting for the next one ends as soon
    as `cancel` is set (checked every POLL_S); an exception from `steps` is raised here. Without
    a flag (and no `side`), `steps` itself.

    `side` is a queue other threads put `("side", item)` on while a step runs (the answer text a
    model streams, agents.answer_stream): each item is yielded as soon as it is put there,
    between the steps, in order."""
    if cancel is None and side is None:
        yield from steps
        return
    cancel = cancel or threading.Event()
    source = iter(steps)
    asked, left = threading.Semaphore(0), threading.Event()
    out: queue.Queue[tuple[str, object]] = side if side is not None else queue.Queue()

    def pump() -> None:
        while True:
            asked.acquire()
            if left.is_set():  # the consumer stopped: start no other step, let it clean up
                _close(source)
                return
            try:
                out.put(("item", next(source)))
            except StopIteration:
                out.put(("end", None))
                return
            except BaseException as e:  # re-raised in the consumer
                out.put(("error", e))
                return

    context = contextvars.copy_context()  # the caller's context vars (acting viewer …)
    _HELPERS.run(lambda: context.run(pump))
    try:
        waiting = False  # a step was asked for and has not come yet
        while not cancel.is_set():
            if not waiting:
                asked.release()
                waiting = True
            kind, value = _next(out, cancel)
            if kind == "side":
                yield value  # type: ignore[misc]
                continue
            waiting = False
            if kind == "item":
                yield value  # type: ignore[misc]
            elif kind == "error":
                raise value  # type: ignore[misc]
            else:  # end of the steps, or stopped while waiting for one
                return
    finally:
        left.set()
        asked.release()  # wakes the helper if it waits for a request


def _close(source: Iterator[object]) -> None:
    """Close a generator left between steps (its `finally` blocks run here, not at garbage
    collection, where an error would only be printed)."""
    close = getattr(source, "close", None)
    if close is None:
        return
    for _ in range(2):  # smolagents yields in a `finally`: the first close only reaches it
        try:
            close()
            return
        except RuntimeError:
            continue
        except Exception:  # a failure while cleaning up a stopped run changes nothing
            logger.warning("closing a stopped run's steps failed", exc_info=True)
            return


def _next(out: queue.Queue[tuple[str, object]], cancel: threading.Event) -> tuple[str, object]:
    while True:
        try:
            return out.get(timeout=POLL_S)
        except queue.Empty:
            if cancel.is_set():
                return ("stopped", None)


class _Helpers:
    """Daemon threads that pull steps, kept and reused: starting a thread waits until the new
    thread has run, on a busy machine a wait for a core before every turn's first step (issue
    34). A new one starts only when none is idle; daemon, so a process that ends does not wait
    for a step left running."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[Callable[[], object]] = queue.SimpleQueue()
        self._idle = 0
        self._lock = threading.Lock()

    def run(self, job: Callable[[], object]) -> None:
        with self._lock:
            start = self._idle == 0
            if not start:
                self._idle -= 1  # that one takes this job
        self._jobs.put(job)
        if start:
            threading.Thread(target=self._work, name="cancellable-steps", daemon=True).start()

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            try:
                job()
            except BaseException:  # the pump puts its own errors on the queue; this is a bug
                logger.exception("a step helper failed")
            with self._lock:
                self._idle += 1


_HELPERS = _Helpers()
