"""Server-Sent Events for a `Turn`: a step leaves as soon as the service yields it.

    return StreamingResponse(stream_turn(turn, request, keepalive_s=15), media_type=SSE_MEDIA)

Step 1 (`kind: "received"`) says what was asked and is sent at once, before the service runs
(it needs no store: issue 34's first step within 100 ms); the service's steps follow from step 2.
The service's generator runs on a thread of a shared pool and hands events over a queue; the response
loop sends each one as it arrives (seed 000: `{"type": "step", "data": {...}}`, then
`{"type": "answer", "data": {...}}`; with a model, the answer's checked sentences as
`{"type": "text", "data": {"text": ...}}` while it is written), a `: keep-alive` comment whenever
`keepalive_s` passed without one, and checks twice a second whether the client is still there.
When it is not, the turn's cancel flag is set (as by `POST /api/turns/{id}/cancel`,
api.running): the service stops within its poll interval and the run is stored as cancelled,
with the steps and text it had.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
import threading
import time
from collections.abc import AsyncIterator, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from starlette.requests import Request

from agents.answer_stream import TextPiece
from api import running
from api.errors import ApiError, classify, error_body
from api.models import StepData
from api.turns import NO_ANSWER, Turn
from data_access.contracts import AgentAnswer

logger = logging.getLogger(__name__)

SSE_MEDIA = "text/event-stream"
RECEIVED = "received"  # the kind of a stream's first step (`received_step`)
POLL_S = 0.5
_END = "end"
MAX_PRODUCERS = 64  # streams running at once; more wait for a free thread
# The turns' threads are kept and reused: starting a thread per stream waits for the new thread
# to get the GIL, which under several clients is several switch intervals (issue 34).
_PRODUCERS = ThreadPoolExecutor(max_workers=MAX_PRODUCERS, thread_name_prefix="api-stream")


def frame(kind: str, data: Any) -> str:
    payload = json.dumps({"type": kind, "data": data}, ensure_ascii=False, default=str)
    return f"event: {kind}\ndata: {payload}\n\n"


def received_step(turn: Turn) -> StepData | None:
    """Step 1 of a stream: what was asked, sent before the service runs (it needs no store,
    so a client hears at once that its input passed the checks and the run started; the
    service's own steps follow from step 2)."""
    if turn.received is None:
        return None
    return StepData(step_number=1, kind=RECEIVED, name="접수", observations=turn.received)


def _produce(turn: Turn, put: Any, stop: threading.Event, sent: int = 0) -> None:
    """Runs in the turn's thread: service events → (kind, data) on the queue (`sent`: steps
    already sent, numbered before the service's)."""
    answer: AgentAnswer | None = None
    number = sent
    try:
        for event in turn.events:  # a stopped turn ends soon with its cancelled answer
            if isinstance(event, AgentAnswer):
                answer = event
            elif isinstance(event, TextPiece):
                put(("text", {"text": event.text}))
            else:  # numbered by the steps sent, so the numbers a client sees never skip
                step = turn.step_of(event, number + 1)
                if step is not None:
                    number += 1
                    put(("step", step.model_dump(mode="json")))
        if answer is None:  # every service ends with its answer; say so if one ever does not
            raise ApiError(500, NO_ANSWER, "다시 시도하세요.")
        stored = turn.finish(answer)
        if stop.is_set():
            logger.info("stream client gone: run stopped after %s steps (%s)", number,
                        answer.status)  # fmt: skip
        put(("answer", stored.model_dump(mode="json")))
    except Exception as e:  # sent as an error event; the stream has already said 200
        failure = classify(e)
        put(("error", {**error_body(failure.error, failure.retry_hint),
                       "http_status": failure.status_code}))  # fmt: skip
    finally:
        turn.close()
        put((_END, None))


async def stream_turn(turn: Turn, request: Request, *, keepalive_s: float) -> AsyncIterator[str]:
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
    stop = threading.Event()

    def put(item: tuple[str, Any]) -> None:
        loop.call_soon_threadsafe(queue.put_nowait, item)

    running.started(turn)
    received = received_step(turn)
    sent = 0 if received is None else 1
    _PRODUCERS.submit(contextvars.copy_context().run, _produce, turn, put, stop, sent)
    last_sent = time.monotonic()
    try:
        if received is not None:
            yield frame("step", received.model_dump(mode="json"))
        while True:
            try:
                kind, data = await asyncio.wait_for(queue.get(), POLL_S)
            except TimeoutError:
                if await request.is_disconnected():
                    return
                if time.monotonic() - last_sent >= keepalive_s:
                    last_sent = time.monotonic()
                    yield ": keep-alive\n\n"
                continue
            if kind == _END:
                return
            last_sent = time.monotonic()
            yield frame(kind, data)
    finally:
        stop.set()
        turn.cancel.set()  # gone before the end (or the end was sent: nothing left to stop)
        running.ended(turn)


def parse_sse(lines: Iterable[str]) -> Iterator[tuple[str, Any]]:
    """Client side (tests, bench, a notebook): `(event, data)` per event, `("comment", text)` per
    keep-alive, from the text lines of a response (e.g. `httpx` `iter_lines()`)."""
    event, data = "message", []
    for line in lines:
        if line.startswith(":"):
            yield "comment", line[1:].strip()
        elif line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].strip())
        elif not line and data:
            yield event, json.loads("\n".join(data))
            event, data = "message", []
