"""agents.answer_stream: every piece of answer text the sink keeps (and so stores) is yielded to
the screen exactly once, also when a stop ends the turn while a piece is queued or a model
thread is still writing. No timing is asserted: the late writer is released by the test."""

from __future__ import annotations

import threading
from collections.abc import Iterator

from agents.answer_stream import AnswerSink, TextPiece, with_text


def test_a_stop_keeps_exactly_the_pieces_it_yields() -> None:
    stop, release, wrote_late = threading.Event(), threading.Event(), threading.Event()
    sink = AnswerSink(stop)

    def steps() -> Iterator[int]:
        yield 1
        sink.put("첫 문장입니다. ")
        sink.put("둘째 문장입니다. ")
        stop.set()  # the user stops while both sentences may still be queued
        release.wait(timeout=30)
        sink.put("멈춘 뒤의 문장입니다.")  # written after the turn ended: neither shown nor kept
        wrote_late.set()
        yield 2

    seen = list(with_text(steps(), stop, sink))
    release.set()
    assert wrote_late.wait(timeout=30)
    pieces = [e.text for e in seen if isinstance(e, TextPiece)]
    assert seen[0] == 1 and 2 not in seen
    assert pieces == ["첫 문장입니다. ", "둘째 문장입니다. "]
    assert sink.text == "".join(pieces), "what is kept is what was yielded"


def test_without_a_stop_pieces_come_between_the_steps_in_order() -> None:
    sink = AnswerSink(threading.Event())

    def steps() -> Iterator[int]:
        yield 1
        sink.put("가. ")
        sink.put("")  # nothing to show: not a piece
        sink.put("나.")
        yield 2

    seen = list(with_text(steps(), None, sink))
    assert seen == [1, TextPiece("가. "), TextPiece("나."), 2]
    assert sink.closed and sink.text == "가. 나."
