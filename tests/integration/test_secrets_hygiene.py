"""Secrets never reach what the workbench writes or shows (issue 16), checked, not assumed.

Fake secrets (provider keys, the reader URL's password, the Neo4j password) are put into the
settings of a real API server (uvicorn on loopback, the real test stores, demo data); every
screen's flow runs through it (ETF chat, Macro Q&A, contract question, stock report, opening
script), plus an ETF turn on the LLM path whose provider — the only fake: the local replay server
of tests/fixtures/openai_replay.py — answers 401 with the key echoed in its error message, as
real providers partly do. Then everything written is searched: the HTTP bodies (answers, SSE
steps, stored runs, downloads' source), the run store's rows written during the test
(agent_runs, messages, artifacts, conversations) and every log record of the process.
"""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from pydantic import SecretStr

from api.app import create_app
from api.background import BackgroundServer
from api.config import ApiConfig
from api.stores import Stores
from data_access.postgres import fetch_all
from tests.fixtures.openai_replay import ReplayServer, http_error

TOKEN = uuid.uuid4().hex
SECRETS = {
    "openai_api_key": f"sk-atlasFAKE{TOKEN}",
    "anthropic_api_key": f"sk-ant-atlasFAKE{TOKEN}",
    "gemini_api_key": f"AIzaatlasFAKE{TOKEN}",
    "fred_api_key": f"fredatlasFAKE{TOKEN}",
    "tavily_api_key": f"tvly-atlasFAKE{TOKEN}",
    "neo4j_password": f"neo4jatlasFAKE{TOKEN}",
}
READER_PASSWORD = f"pgatlasFAKE{TOKEN}"


@pytest.fixture(scope="module")
def written(demo_data: Any, settings: Any, services: Any, pg_pool: Any) -> Iterator[list[str]]:
    """Run every flow with the fake secrets; yield every text the workbench wrote or sent."""
    started = datetime.now(UTC)
    handler = _Collect()
    logging.getLogger().addHandler(handler)
    previous = logging.getLogger().level
    logging.getLogger().setLevel(logging.DEBUG)
    bodies: list[str] = []
    fake = {k: SecretStr(v) for k, v in SECRETS.items()}
    reader_url = f"postgresql://atlas_agent:{READER_PASSWORD}@127.0.0.1:1/atlas"
    offline = settings.model_copy(update={**fake, "database_reader_url": SecretStr(reader_url)})
    try:
        with _api(offline, services) as client:
            bodies += _offline_flows(client)
        key = SECRETS["openai_api_key"]
        refusal = http_error(401, f"Incorrect API key provided: {key}. You can find your key …")
        with ReplayServer([refusal]) as replay:
            llm = offline.model_copy(
                update={"llm_model_etf": "openai/gpt-4.1-mini", "llm_api_base": replay.api_base}
            )
            with _api(llm, services) as client:
                response = client.post("/api/chat/message", json={"message": "KODEX 200 정보"})
                bodies.append(response.text)
            sent = json.dumps(replay.requests)
        assert replay.requests, "the LLM path was not taken"
        rows = _rows_since(started, pg_pool)
        yield [*bodies, *rows, *handler.texts, sent]
    finally:
        logging.getLogger().removeHandler(handler)
        logging.getLogger().setLevel(previous)


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.texts: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.texts.append(self.format(record) + (record.exc_text or ""))


def _api(settings: Any, services: Any) -> Any:
    app = create_app(ApiConfig(rate_limit_per_min=0), Stores(settings, info=services))
    return _Client(BackgroundServer(app))


class _Client:
    def __init__(self, server: BackgroundServer) -> None:
        self.server = server

    def __enter__(self) -> httpx.Client:
        url = self.server.__enter__().url
        self.client = httpx.Client(base_url=url, timeout=180)
        return self.client

    def __exit__(self, *exc: object) -> None:
        self.client.close()
        self.server.__exit__(*exc)


def _offline_flows(client: httpx.Client) -> list[str]:
    calls = [
        ("/api/chat/message", {"message": "KODEX 200과 TIGER 200 비교해줘"}),
        ("/api/macro/message", {"message": "한국 기준금리 추이"}),
        ("/api/contract/message", {"contract_id": "sample-user-provide", "message": "제10조"}),
        ("/api/stock/report", {"symbol": "삼성전자"}),
        ("/api/opening/run/stream", {"date": "2026-11-20"}),
    ]
    texts = []
    for path, body in calls:
        response = client.post(path, json=body)
        assert response.status_code == 200, (path, response.text[:300])
        texts.append(response.text)
    texts.append(client.get("/healthz").text)
    return texts


def _rows_since(started: datetime, pool: Any) -> list[str]:
    queries = [
        "SELECT * FROM agent_runs WHERE created_at >= %s",
        "SELECT * FROM messages WHERE created_at >= %s",
        "SELECT * FROM artifacts WHERE created_at >= %s",
        "SELECT * FROM conversations WHERE updated_at >= %s",
    ]
    rows: list[dict[str, Any]] = []
    for query in queries:
        rows += fetch_all(query, (started,), pool=pool)
    assert rows, "no run was stored"
    return [json.dumps(r, default=str, ensure_ascii=False) for r in rows]


def test_no_secret_in_anything_written(written: list[str]) -> None:
    text = "\n".join(written)
    leaked = [
        name for name, value in {**SECRETS, "reader": READER_PASSWORD}.items() if value in text
    ]
    assert not leaked and TOKEN not in text, [line[:300] for line in written if TOKEN in line][:5]


def test_the_flows_really_ran(written: list[str]) -> None:
    text = "\n".join(written)
    assert "069500" in text and "KODEX" in text  # the ETF answer
    assert "제10조" in text or "10" in text  # the contract question
