"""`reasoning_effort` per model and optional LangSmith tracing (issue 35), with no network: the
model is the local OpenAI-compatible replay server, LangSmith's endpoint a local HTTP server
that records what a tracer would send.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from pydantic import SecretStr

os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"

from agents.llm import completion, configure_tracing
from data_access.config import Settings
from tests.fixtures.openai_replay import ReplayServer

TRACING_VARS = ("LANGCHAIN_TRACING_V2", "LANGCHAIN_API_KEY", "LANGCHAIN_PROJECT",
                "LANGCHAIN_ENDPOINT", "LANGSMITH_TRACING", "LANGSMITH_TRACING_V2")  # fmt: skip


def test_reasoning_effort_goes_only_to_models_that_support_it(settings: Settings) -> None:
    s = settings.model_copy(update={"llm_reasoning_effort": {"openai/o3-mini": "high", "*": "low"},
                                    "llm_num_retries": 0})  # fmt: skip
    sent: list[dict[str, Any]] = []
    with ReplayServer(["네 (replay)"]) as server:
        for model, config in (("openai/o3-mini", s), ("openai/o4-mini", s),
                              ("openai/gpt-4.1-mini", s), ("openai/o3-mini", settings)):  # fmt: skip
            completion(config, model=model, messages=[{"role": "user", "content": "hi"}],
                       api_base=server.api_base, api_key="replay-key")  # fmt: skip
            sent.append(dict(server.requests[-1]))
    assert [r.get("reasoning_effort") for r in sent] == [
        "high",  # its own setting
        "low",  # the '*' default
        None,  # a model without reasoning: left out (providers reject it)
        None,  # not configured
    ]


def test_reasoning_effort_setting_parses_and_validates() -> None:
    s = Settings(llm_reasoning_effort="openai/o3-mini=HIGH, gemini/gemini-2.5-flash=low")
    assert s.reasoning_effort_for("openai/o3-mini") == "high"
    assert s.reasoning_effort_for("openai/gpt-4.1") is None
    assert Settings(llm_reasoning_effort="medium").reasoning_effort_for("any/model") == "medium"
    with pytest.raises(ValueError, match="reasoning_effort must be one of"):
        Settings(llm_reasoning_effort="openai/o3-mini=extreme")


class _Collector(BaseHTTPRequestHandler):
    posts: list[tuple[str, bytes]] = []

    def _reply(self, body: dict[str, Any]) -> None:
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        self._reply({"version": "0.0-local", "batch_ingest_config": {}})

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self.posts.append((self.path, self.rfile.read(length)))
        self._reply({})

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture()
def langsmith_stand_in() -> Iterator[str]:
    saved = {k: os.environ.get(k) for k in TRACING_VARS}
    for key in TRACING_VARS:
        os.environ.pop(key, None)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Collector)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _Collector.posts = []
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value
    configure_tracing(Settings(langchain_tracing_v2=False))


def _traced_run() -> None:
    from langchain_core.runnables import RunnableLambda
    from langchain_core.tracers.langchain import wait_for_all_tracers
    from langsmith import utils as ls_utils

    ls_utils.get_env_var.cache_clear()  # type: ignore[attr-defined]

    def step(x: int) -> int:
        return x + 1

    RunnableLambda(step, name="atlas_traced_step").invoke(1)
    wait_for_all_tracers()


def test_tracing_is_off_by_default(langsmith_stand_in: str) -> None:
    s = Settings(langchain_endpoint=langsmith_stand_in)
    assert s.langchain_tracing_v2 is False and configure_tracing(s) is False
    assert "LANGCHAIN_TRACING_V2" not in os.environ
    _traced_run()
    assert _Collector.posts == []


def test_tracing_on_sends_runs_to_the_configured_endpoint(langsmith_stand_in: str) -> None:
    s = Settings(langchain_tracing_v2=True, langchain_endpoint=langsmith_stand_in,
                 langchain_api_key=SecretStr("ls-local-key"), langchain_project="atlas-test")  # fmt: skip
    assert configure_tracing(s) is True
    assert os.environ["LANGCHAIN_PROJECT"] == "atlas-test"
    _traced_run()
    assert _Collector.posts, "no run reached the LangSmith endpoint"
    sent = b"".join(body for _, body in _Collector.posts)
    assert b"atlas_traced_step" in sent
