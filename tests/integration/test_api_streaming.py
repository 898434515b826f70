"""The SSE bridge (`api.streaming.stream_turn`) on a real uvicorn server with turns whose event
streams fail or end without an answer: the steps already sent stay sent, then one `error` event
in the `{status, error, retry_hint}` form (with the HTTP status the failure would have had), and
the stream ends. The agents' own streams are covered in test_api.py / test_api_llm.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI, Request
from fastapi.responses import StreamingResponse

from api.background import BackgroundServer
from api.models import StepData, TurnAnswer
from api.streaming import SSE_MEDIA, parse_sse, stream_turn
from api.turns import Turn, with_ids
from data_access.errors import StoreUnavailable


def failing(after: int, error: Exception) -> Iterator[int]:
    yield from range(after)
    raise error


def step_of(event: Any, number: int) -> StepData:
    return StepData(step_number=number, observations=f"event {event}")


def finish(answer: Any) -> TurnAnswer:
    return with_ids(answer, None, None)


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    app = FastAPI()
    turns = {
        "store-down": lambda: failing(
            2, StoreUnavailable("PostgreSQL에 연결할 수 없습니다 (gone)")
        ),
        "bug": lambda: failing(1, KeyError("internal detail")),
        "no-answer": lambda: iter(range(1)),
    }

    @app.post("/{name}")
    async def run(name: str, request: Request) -> StreamingResponse:
        turn = Turn(turns[name](), step_of, finish)
        return StreamingResponse(stream_turn(turn, request, keepalive_s=15), media_type=SSE_MEDIA)

    with BackgroundServer(app) as server:
        yield server.url


def events(url: str, name: str) -> list[tuple[str, Any]]:
    with httpx.stream("POST", f"{url}/{name}", timeout=30) as response:
        assert response.status_code == 200
        return list(parse_sse(response.iter_lines()))


def test_a_store_failure_mid_stream_is_an_error_event_after_the_steps(url: str) -> None:
    got = events(url, "store-down")
    assert [k for k, _ in got] == ["step", "step", "error"]
    error = got[-1][1]
    assert error["type"] == "error" and error["data"]["status"] == "error"
    assert error["data"]["http_status"] == 503 and "PostgreSQL" in error["data"]["error"]
    assert "gone" not in error["data"]["error"]  # the driver's words stay in the log
    assert error["data"]["retry_hint"]


def test_an_unexpected_failure_says_so_without_its_details(url: str) -> None:
    got = events(url, "bug")
    assert [k for k, _ in got] == ["step", "error"]
    data = got[-1][1]["data"]
    assert data["http_status"] == 500 and "internal detail" not in str(data)


def test_a_stream_that_ends_without_an_answer_says_so(url: str) -> None:
    got = events(url, "no-answer")
    assert [k for k, _ in got] == ["step", "error"]
    assert got[-1][1]["data"]["error"] == "에이전트가 답변 없이 끝났습니다."
