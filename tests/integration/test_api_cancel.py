"""Stopping a streamed turn over the API (issue 20): `POST /api/turns/{id}/cancel` with the id
from the stream's `X-Turn-Id` header, on a real uvicorn server. The contract agent runs on the
LLM path against the local OpenAI-compatible replay server (tests/fixtures/openai_replay.py, the
only fake: the provider boundary), whose synthesis text is streamed in small SSE chunks with a
pause between them; the answer's checked sentences arrive as `text` events. Everything behind
the provider is real: litellm, LangGraph, the tools, PostgreSQL, the run store.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import SecretStr

from agents.cancel import CANCELLED_TEXT
from agents.contract.service import ensure_samples
from api.app import create_app
from api.background import BackgroundServer
from api.config import ApiConfig
from api.stores import Stores
from api.streaming import parse_sse
from data_access import runs
from tests.fixtures.openai_replay import ReplayServer

RECORDING = Path(__file__).resolve().parents[1] / "fixtures" / "openai_replay"
FIRST = "제5조(데이터의 제공)는 갑이 매월 5일까지 API로 데이터를 제공하도록 정합니다."
MORE = "두 조항 모두 갑의 의무를 다룹니다."


@pytest.fixture(scope="module")
def url(demo_data: Any, settings: Any, services: Any, pg_pool: Any) -> Iterator[str]:
    ensure_samples(pg_pool, settings)
    planning = json.loads((RECORDING / "contract_compare.json").read_text(encoding="utf-8"))
    text = " ".join([FIRST, *[MORE] * 40])  # about 40 × 0.05 s of stream after the first
    with ReplayServer([planning["responses"][0], text], stream_chars=6,
                      stream_pause_s=0.05) as replay:  # fmt: skip
        llm = settings.model_copy(update={"llm_model_contract": "openai/gpt-4.1-mini",
                                          "llm_api_base": replay.api_base,
                                          "openai_api_key": SecretStr("replay-key")})  # fmt: skip
        config = ApiConfig(rate_limit_per_min=0, keepalive_s=0.3)
        with BackgroundServer(create_app(config, Stores(llm, info=services))) as server:
            yield server.url


def test_the_cancel_endpoint_stops_a_streaming_answer_and_it_is_stored_cancelled(
    url: str, pg_pool: Any
) -> None:
    body = {"contract_id": "sample-user-provide",
            "message": f"제5조와 손해배상 조항을 비교해줘 {uuid.uuid4().hex[:6]}"}  # fmt: skip
    texts: list[str] = []
    answer: dict[str, Any] = {}
    with httpx.stream("POST", f"{url}/api/contract/message/stream", json=body,
                      timeout=60) as response:  # fmt: skip
        assert response.status_code == 200
        turn_id = response.headers["X-Turn-Id"]
        for kind, data in parse_sse(response.iter_lines()):
            if kind == "text":
                texts.append(data["data"]["text"])
                if len(texts) == 1:
                    stopped = httpx.post(f"{url}/api/turns/{turn_id}/cancel", timeout=10)
                    assert stopped.status_code == 200 and stopped.json()["cancelled"] is True
            elif kind == "answer":
                answer = data["data"]
    assert texts[0] == FIRST
    assert answer["status"] == "cancelled" and answer["answer"].startswith(FIRST)
    assert CANCELLED_TEXT in answer["answer"] and answer["answer"].count(MORE) < 40
    assert answer["answer"] == "".join(texts), "the stream's text is the stored answer"
    stored = runs.get_run(answer["payload"]["run_id"], pool=pg_pool)
    assert stored is not None and stored.answer.status == "cancelled"
    assert stored.answer.answer == answer["answer"]
    again = httpx.post(f"{url}/api/turns/{turn_id}/cancel", timeout=10)
    assert again.status_code == 404, "a finished turn is not running"


@pytest.mark.parametrize("turn_id", [str(uuid.uuid4()), "not-a-uuid", "' OR 1=1 --"])
def test_cancelling_an_unknown_turn_is_a_404_with_a_korean_reason(url: str, turn_id: str) -> None:
    response = httpx.post(f"{url}/api/turns/{turn_id}/cancel", timeout=10)
    assert response.status_code == 404
    assert "턴" in response.json()["error"]
