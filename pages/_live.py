"""A turn that runs on a worker thread while the page draws its steps as they come, with the
elapsed time of the step under way and a 중지 button, and the model's answer text as it is
written (`st.write_stream`, each sentence once checked: agents.answer_stream) (issue 20).

    turn = LiveTurn.begin(LIVE_KEY, question, lambda stop: stream_answer(q, ..., cancel=stop))
    ...                                  # the page reruns; on every run while it is going:
    answer = follow(LiveTurn.current(LIVE_KEY), render_step, title="에이전트가 도구를 호출하는 중…")

The turn lives in the session, not in one script run: any rerun (a click elsewhere, the 중지
button) redraws the steps shown so far and goes on following it. 중지 sets the service's cancel
flag (agents/cancel.py); the service stops after the step it is in and answers `cancelled` with
the steps that ran. The worker acts as the viewer who started the turn, so what it stores is
theirs.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import queue
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from agents.answer_stream import TextPiece
from data_access import access
from data_access.contracts import AgentAnswer
from pages import _ui as ui
from pages._answer import literal_tildes

logger = logging.getLogger(__name__)

POLL_S = 0.2  # how often the status line is redrawn (and a click on 중지 is noticed)
LONG_STEP_S = 2.0  # a step running this long shows its own seconds
STOP_LABEL = "중지"
# A chat turn answered within this draws its answer alone, without a live box shown first
# (most offline ETF and Macro turns on demo data); a longer one shows its steps from then on.
QUIET_S = 0.5

Stream = Callable[[threading.Event], Iterable[object]]
RenderStep = Callable[[object], str | None]  # draws one step; returns its status-line text


@dataclass(frozen=True)
class _Failed:
    error: BaseException


_DONE = object()


@dataclass
class LiveTurn:
    """One running turn: its worker's events, what has been drawn, and the cancel flag."""

    key: str
    question: str
    stop: threading.Event = field(default_factory=threading.Event)
    events: queue.Queue[object] = field(default_factory=queue.Queue)
    shown: list[object] = field(default_factory=list)
    text: list[str] = field(default_factory=list)  # the answer's pieces streamed so far
    labels: list[str] = field(default_factory=list)
    answer: AgentAnswer | None = None
    error: BaseException | None = None
    started: float = field(default_factory=time.perf_counter)
    last_step: float = field(default_factory=time.perf_counter)
    stop_clicked: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # what the page needs when it ends
    drawn: bool = False  # whether `follow` drew the live box (a quiet turn's answer came first)

    @classmethod
    def begin(cls, key: str, question: str, stream: Stream, **extra: Any) -> LiveTurn:
        """Start `stream(stop_flag)` on a worker thread and keep the turn in the session."""
        turn = cls(key=key, question=question, extra=extra)
        viewer = access.current_viewer()  # resolved here: the worker has no Streamlit session

        def work() -> None:
            with access.acting_as(viewer):
                try:
                    for event in stream(turn.stop):
                        turn.events.put(event)
                except Exception as e:  # shown by the page as the run's failure
                    turn.events.put(_Failed(e))
                finally:
                    turn.events.put(_DONE)

        context = contextvars.copy_context()
        threading.Thread(target=context.run, args=(work,), name=f"turn-{key}", daemon=True).start()
        st.session_state[key] = turn
        return turn

    @staticmethod
    def current(key: str) -> LiveTurn | None:
        turn = st.session_state.get(key)
        return turn if isinstance(turn, LiveTurn) else None

    def end(self) -> None:
        """Forget the turn (after the page has kept its answer)."""
        if st.session_state.get(self.key) is self:
            del st.session_state[self.key]

    def request_stop(self) -> None:
        if not self.stop.is_set():
            self.stop_clicked = time.perf_counter()
            self.stop.set()

    @property
    def finished(self) -> bool:
        return self.answer is not None or self.error is not None

    def status_line(self, title: str) -> str:
        now = time.perf_counter()
        if self.stop.is_set():
            return f"중지하는 중… (완료된 단계 {len(self.shown)}개는 실행 기록에 남습니다)"
        head = self.labels[-1] if self.labels else title
        if self.text:  # the model is writing the answer
            head = "답변 작성 중 (근거와 맞는지 확인된 문장부터 표시)"
        parts = [head, f"경과 {now - self.started:.1f}초"]
        if now - self.last_step >= LONG_STEP_S:
            parts.append(f"현재 단계 {now - self.last_step:.0f}초째 진행 중")
        return " · ".join(parts)

    def _pull(self, render: RenderStep, status: Any, title: str) -> str | None:
        """Wait up to POLL_S for the worker's next event and take it: a step is drawn in the
        status box, a piece of answer text is returned (for `st.write_stream`)."""
        piece = None
        with contextlib.suppress(queue.Empty):
            event = self.events.get(timeout=POLL_S)
            if isinstance(event, TextPiece):
                self.text.append(event.text)
                piece = literal_tildes(event.text)
            else:
                with inside(status):
                    self._take(event, render)
        # also where a click on 중지 lands; `expanded` kept, an update without it folds the box
        status.update(label=self.status_line(title), state="running", expanded=True)
        return piece

    def _written(self, render: RenderStep, status: Any, title: str) -> Iterator[str]:
        """The answer text so far, then each piece as it comes, until the turn ends."""
        yield literal_tildes("".join(self.text))
        while not self.finished:
            piece = self._pull(render, status, title)
            if piece:
                yield piece

    def _take(self, event: object, render: RenderStep) -> None:
        if isinstance(event, AgentAnswer):
            self.answer = event
            if self.stop_clicked is not None:
                logger.info("%s stopped %d ms after 중지 (status %s)", self.key,
                            (time.perf_counter() - self.stop_clicked) * 1000, event.status)  # fmt: skip
        elif isinstance(event, _Failed):
            self.error = event.error
        elif event is not _DONE:
            self.shown.append(event)
            self.last_step = time.perf_counter()
            label = render(event)
            if label:
                self.labels.append(label)
        elif not self.finished:  # the stream ended without an answer
            self.error = RuntimeError("에이전트가 답변 없이 끝났습니다.")


@contextlib.contextmanager
def inside(box: Any) -> Iterator[None]:
    """Draw into `box` (an `st.status`) as `with box:` does, without its exit: Streamlit's status
    sleeps 50 ms on every exit of its `with` block while running, and marks itself complete
    (redrawn 'running' by the next status line). Entered once per step of a turn, that was
    50 ms of the page's run per step: 0.35 s of a Macro turn, more for the stock report's
    tool calls, before the answer could be drawn (profiled under AppTest)."""
    DeltaGenerator.__enter__(box)
    try:
        yield
    finally:
        DeltaGenerator.__exit__(box, None, None, None)


def done_label(answer: AgentAnswer) -> str:
    """The status line of a finished turn (screens pass their own for a completed one)."""
    steps = len({t.step for t in answer.trace})
    if answer.status == "cancelled":
        return f"중지됨 · 실행된 단계 {steps}개"
    return f"완료 · {steps}단계" if answer.status != "error" else "실패"


def _wait_quietly(turn: LiveTurn, quiet_s: float) -> None:
    """Take the worker's events without drawing them until `quiet_s` after the turn began, the
    answer is in, or the model starts writing. A step drawn and then replaced by the answer a
    moment later cost the browser a render of the page each (a chat turn sent ~25 such deltas
    before its answer); the steps taken are kept and drawn if the turn goes on."""
    while not turn.finished and not turn.text:
        left = quiet_s - (time.perf_counter() - turn.started)
        if left <= 0:
            return
        with contextlib.suppress(queue.Empty):
            event = turn.events.get(timeout=min(left, POLL_S))
            if isinstance(event, TextPiece):
                turn.text.append(event.text)
            else:
                turn._take(event, lambda _event: None)


def follow(turn: LiveTurn, render: RenderStep, *, title: str,
           done: Callable[[AgentAnswer], str] = done_label,
           quiet_s: float = 0.0) -> AgentAnswer | None:  # fmt: skip
    """Draw the turn until it ends: the steps so far, then each new one as it arrives, under a
    status line with the elapsed time and a 중지 button. Returns the answer, or None when the
    run failed (the reason is shown in the status box). With `quiet_s` (screens that put the
    answer in the live box's place) a turn answered within that time draws no live box at all."""
    _wait_quietly(turn, quiet_s)
    if turn.answer is not None:
        return turn.answer
    turn.drawn = True
    stop_slot = st.empty()  # emptied when the turn ends
    stop_slot.button(STOP_LABEL, key=f"{turn.key}-stop", on_click=turn.request_stop,
                     icon=":material/stop_circle:", disabled=turn.stop.is_set(),
                     help="진행 중인 단계를 기다리지 않고 멈추고, 그때까지 완료된 단계를 실행 기록으로 "
                          "남깁니다.")  # fmt: skip
    status = st.status(turn.status_line(title), expanded=True)
    with inside(status):
        labels = [render(event) for event in turn.shown]
    if not turn.labels:  # steps taken quietly: their status lines now
        turn.labels = [label for label in labels if label]
    text_slot = st.empty()  # under the steps: the model's answer as it is written
    while not turn.finished:
        if turn.text:  # from the first piece on, the stream draws (and takes every event)
            text_slot.container().write_stream(turn._written(render, status, title))
            break
        turn._pull(render, status, title)
    stop_slot.empty()
    text_slot.empty()  # the page draws the finished answer (the same text) in its place
    if turn.error is not None:
        with status:
            ui.show_run_error(status, turn.error)
        return None
    answer = turn.answer
    assert answer is not None
    failed = answer.status in ("error", "cancelled")
    label = done_label(answer) if answer.status == "cancelled" else done(answer)
    status.update(label=label, state="error" if failed else "complete", expanded=False)
    return answer
