"""Streaming with a model that takes its time: the ETF agent on the LLM path through a real
uvicorn server. The only fake is the LLM provider — tests/fixtures/openai_replay.py, a local
OpenAI-compatible HTTP server replaying the recorded CodeAgent turn in
tests/fixtures/openai_replay/etf_compare.json, here with each reply delayed. Everything behind
it is real (litellm, smolagents, the tools, PostgreSQL, the graph).

Shown here: a step leaves the server when it finishes (long before the answer), keep-alive
comments while a step runs, a client that disconnects stops the run (no further model calls;
stored as cancelled with the step that ran), and the conversation so far reaches the model's
prompt.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import SecretStr

os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"

from api.app import create_app
from api.background import BackgroundServer
from api.config import ApiConfig
from api.stores import Stores
from api.streaming import parse_sse
from data_access.postgres import fetch_one
from tests.fixtures.openai_replay import ReplayServer, slow

RECORDING = Path(__file__).resolve().parents[1] / "fixtures" / "openai_replay" / "etf_compare.json"
DELAY_S = 1.0


@contextmanager
def llm_api(settings: Any, services: Any, delay_s: float) -> Iterator[tuple[str, ReplayServer]]:
    """The API on the LLM path, its model replayed with `delay_s` before every reply."""
    recording = json.loads(RECORDING.read_text(encoding="utf-8"))
    replies = [slow(delay_s, r) if delay_s else r for r in recording["responses"]]
    with ReplayServer(replies, model=recording["model"]) as replay:
        llm = settings.model_copy(update={"llm_model_etf": "openai/gpt-4.1-mini",
                                          "llm_api_base": replay.api_base,
                                          "openai_api_key": SecretStr("replay-key")})  # fmt: skip
        config = ApiConfig(rate_limit_per_min=0, keepalive_s=0.3)
        with BackgroundServer(create_app(config, Stores(llm, info=services))) as server:
            yield server.url, replay


@pytest.fixture(scope="module")
def slow_api(demo_data: Any, settings: Any, services: Any) -> Iterator[tuple[str, ReplayServer]]:
    with llm_api(settings, services, DELAY_S) as api:
        yield api


@pytest.fixture(scope="module")
def url(slow_api: tuple[str, ReplayServer]) -> str:
    return slow_api[0]


@pytest.fixture(scope="module")
def replay(slow_api: tuple[str, ReplayServer]) -> ReplayServer:
    return slow_api[1]


def test_steps_leave_as_they_finish_with_keep_alives_between(
    url: str, replay: ReplayServer
) -> None:
    replay.requests.clear()
    arrivals: list[tuple[str, float]] = []
    started = time.monotonic()
    with httpx.stream("POST", f"{url}/api/chat/message/stream", timeout=60,
                      json={"message": "KODEX 200과 TIGER 200 비교해줘"}) as response:  # fmt: skip
        assert response.status_code == 200
        for kind, data in parse_sse(response.iter_lines()):
            if kind == "step" and data["data"]["kind"] == "received":
                kind = "received"  # step 1, sent before the agent runs (api.streaming)
            arrivals.append((kind, time.monotonic() - started))
            if kind == "answer":
                answer = data["data"]
    kinds = [k for k, _ in arrivals]
    assert kinds.count("step") == 3 and kinds[-1] == "answer"
    # the received step does not wait for the model; its call takes DELAY_S: keep-alives
    assert kinds[:2] == ["received", "comment"]
    first_step = next(t for k, t in arrivals if k == "step")
    assert first_step >= DELAY_S * 0.9
    assert arrivals[-1][1] - first_step >= 2 * DELAY_S * 0.9  # sent long before the end
    assert answer["mode"] == "llm" and answer["status"] == "ok" and answer["tokens"] > 0
    assert len(replay.requests) == 3


def test_disconnect_cancels_the_run_and_stores_it_cancelled(url: str, replay: ReplayServer,
                                                           pg_pool: Any) -> None:  # fmt: skip
    replay.requests.clear()
    question = f"연결 끊김 {uuid.uuid4().hex[:8]}"
    with httpx.stream("POST", f"{url}/api/chat/message/stream", timeout=60,
                      json={"message": question}) as response:  # fmt: skip
        for kind, data in parse_sse(response.iter_lines()):
            if kind == "step" and data["data"]["kind"] != "received":
                break  # the client goes away after the agent's first step
    time.sleep(2.5 * DELAY_S)  # the two remaining steps would have asked the model by now
    assert len(replay.requests) <= 2  # the call in flight at the disconnect, none after it
    row = fetch_one("SELECT status, trace FROM agent_runs WHERE question = %s", (question,),
                    pg_pool)  # fmt: skip
    assert row is not None and row["status"] == "cancelled"
    assert row["trace"], "the step that ran before the disconnect is kept"


def test_the_conversation_reaches_the_prompt(demo_data: Any, settings: Any, services: Any) -> None:
    with llm_api(settings, services, 0.0) as (url, replay):
        _check_history(url, replay)


def _check_history(url: str, replay: ReplayServer) -> None:
    first = httpx.post(f"{url}/api/chat/message", timeout=60,
                       json={"message": "KODEX 200과 TIGER 200 비교해줘"}).json()  # fmt: skip
    replay.requests.clear()
    httpx.post(f"{url}/api/chat/message", timeout=60,
               json={"message": "둘 중 보수가 낮은 것은?",
                     "conversation_id": first["conversation_id"]})  # fmt: skip
    prompt = json.dumps(replay.requests[0]["messages"], ensure_ascii=False)
    assert "KODEX 200과 TIGER 200 비교해줘" in prompt and "둘 중 보수가 낮은 것은?" in prompt
    assert first["answer"][:40].replace("\n", "\\n") in prompt
