"""A model-written answer shown as it is written, a checked sentence at a time (issue 20).

    sink = AnswerSink(cancel)                       # the service, when a model is configured
    for event in with_text(graph_steps, cancel, sink):
        yield event                                 # steps, and TextPiece as sentences pass
    answer = settled(answer, sink)                  # stored text == the text shown
    yield from sink.tail(answer)

    # deep inside the agent, where the model writes the answer:
    gate = open_gate(pool, CONTRACT, lang="ko")     # None when nothing streams (CLI, eval)
    response = stream_checked(settings, gate, model=..., messages=...)
    text = gate.result().with_notice() if gate.kept_any else template_text

The model's tokens come through litellm (`agents.llm.stream_completion`); `SentenceGate`
(agents.model_checks, the same check as the whole-text one) releases a sentence only once it
is complete and matches the evidence; a sentence that does not is replaced by a marked note.
Each released piece becomes a `TextPiece` event in the service's stream (the pages draw them
with `st.write_stream`, the API sends them as `text` events). 중지 stops the model's stream
between two chunks; what was shown stays in the cancelled answer.
"""

from __future__ import annotations

import contextvars
import queue
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

from agents.cancel import until_cancelled
from agents.llm import stream_completion
from agents.model_checks import DEFAULT, EvidencePool, Policy, SentenceGate
from data_access.config import Settings
from data_access.contracts import AgentAnswer

T = TypeVar("T")


@dataclass(frozen=True)
class TextPiece:
    """A released piece of the answer text (a checked sentence or the note replacing one)."""

    text: str


@dataclass
class AnswerSink:
    """Where one turn's checked answer text goes while a model writes it."""

    cancel: threading.Event | None = None
    events: queue.Queue[tuple[str, object]] = field(default_factory=queue.Queue)
    pieces: list[str] = field(default_factory=list)
    # each finished model text as checked, by heading (a section written again replaces it)
    segments: dict[str, str] = field(default_factory=dict)
    unfinished: int = 0  # model texts begun and not finished (stopped, or the stream broke)
    closed: bool = False  # the turn's steps have ended (or were stopped): nothing more is shown
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def put(self, text: str) -> None:
        if not text:
            return
        with self._lock:  # a piece is kept only if it will also be shown
            if self.closed:
                return
            self.pieces.append(text)
            self.events.put(("side", TextPiece(text)))

    def close(self) -> list[TextPiece]:
        """Take no more text; the pieces put before and not yet taken, in order (a stop can end
        the wait for the next step while a sentence is queued: it is shown, not lost)."""
        with self._lock:
            self.closed = True
        rest: list[TextPiece] = []
        while True:
            try:
                kind, item = self.events.get_nowait()
            except queue.Empty:
                return rest
            if kind == "side" and isinstance(item, TextPiece):
                rest.append(item)

    @property
    def text(self) -> str:
        return "".join(self.pieces)

    @property
    def stopped(self) -> bool:
        return self.cancel is not None and self.cancel.is_set()

    def tail(self, answer: AgentAnswer) -> Iterator[TextPiece]:
        """The rest of the answer after what was shown (notes a screen appends), as one piece."""
        shown = self.text
        if shown and answer.answer.startswith(shown) and len(answer.answer) > len(shown):
            rest = answer.answer[len(shown) :]
            self.pieces.append(rest)
            yield TextPiece(rest)


def with_text(steps: Iterable[T], cancel: threading.Event | None,
              sink: AnswerSink | None) -> Iterator[T | TextPiece]:  # fmt: skip
    """`until_cancelled(steps, cancel)` with the sink's text pieces in between: the steps run
    on the helper thread with `sink` as the place model answers stream to."""
    if sink is None:
        return until_cancelled(steps, cancel)
    return _with_rest(steps, cancel, sink)


def _with_rest(steps: Iterable[T], cancel: threading.Event | None,
               sink: AnswerSink) -> Iterator[T | TextPiece]:  # fmt: skip
    """The steps and text pieces, then the pieces still queued when they ended: every piece
    the sink keeps is yielded once."""
    yield from until_cancelled(_into(steps, sink), cancel, side=sink.events)
    yield from sink.close()


def _into(steps: Iterable[T], sink: AnswerSink) -> Iterator[T]:
    """`steps`, each one pulled with `sink` current (set and reset on the thread pulling them)."""
    token = _SINK.set(sink)
    try:
        yield from steps
    finally:
        _SINK.reset(token)


_SINK: contextvars.ContextVar[AnswerSink | None] = contextvars.ContextVar(
    "answer_sink", default=None
)


@dataclass
class CheckedStream:
    """A sentence gate bound to the turn's sink."""

    gate: SentenceGate
    sink: AnswerSink
    heading: str = ""

    def on_text(self, chunk: str) -> bool:
        for piece in self.gate.feed(chunk):
            self.sink.put(piece)
        return not self.sink.stopped

    def close(self) -> None:
        for piece in self.gate.close():
            self.sink.put(piece)
        self.sink.segments[self.heading] = self.gate.result().with_notice(self.gate.lang)
        self.sink.unfinished -= 1

    @property
    def kept_any(self) -> bool:
        return self.gate.kept_any

    def result(self) -> Any:
        return self.gate.result()


def open_gate(pool: EvidencePool, policy: Policy = DEFAULT, *, lang: str = "ko",
              stale_warning: str | None = None, heading: str = "") -> CheckedStream | None:  # fmt: skip
    """A checked stream into the current turn's sink, or None when the turn does not stream.
    `heading` (a report section's title) is shown first; a second text starts on a new
    paragraph."""
    sink = _SINK.get()
    if sink is None:
        return None
    if sink.pieces:
        sink.put("\n\n")
    if heading:
        sink.put(f"**{heading}**\n\n")
    sink.unfinished += 1
    gate = SentenceGate(pool, policy, stale_warning=stale_warning, lang=lang)
    return CheckedStream(gate, sink, heading)


def stream_checked(settings: Settings, stream: CheckedStream, **kwargs: Any) -> Any:
    """`agents.llm.completion` with the model's text going through `stream`'s gate into the
    sink as it is written; the response is the whole completion (usage included). The gate is
    closed (last sentence, notice) unless the turn was stopped."""
    response = stream_completion(settings, stream.on_text, **kwargs)
    if not stream.sink.stopped:
        stream.close()
    return response


def settled(answer: AgentAnswer, sink: AnswerSink | None) -> AgentAnswer:
    """The answer holding what was shown: each streamed model text, as checked, is in it (a
    report places its sections among its tables; a section written again counts as its last
    version). A turn whose answer does not hold them (every
    model sentence was removed and a template answered; a turn stopped while the model wrote)
    (or broke off) keeps the shown text first, so what is stored is what the user saw, followed
    by the rest."""
    if sink is None or not sink.text or answer.answer.startswith(sink.text):
        return answer
    segments = sink.segments.values()
    if not sink.unfinished and segments and all(s in answer.answer for s in segments):
        return answer
    return answer.model_copy(update={"answer": f"{sink.text.rstrip()}\n\n{answer.answer}"})
