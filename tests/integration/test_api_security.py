"""The API's walls on real uvicorn servers: a token when one is set (missing, wrong, right), the
refusal to listen beyond loopback without one (the real CLIs, which exit before anything
loads), the per-client rate limit, and a store that is down (a real connection to a port where
nothing listens: a clear 503 naming PostgreSQL and the reason).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest

from api.app import create_app
from api.background import BackgroundServer
from api.config import ApiConfig, ApiConfigError, check_bind, is_loopback
from api.stores import Stores
from tests.unit.test_api_store_errors import english_words

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "t0ken-for-the-api-tests-0123456789"


@pytest.fixture(scope="module")
def stores(settings: Any, services: Any) -> Stores:
    return Stores(settings, info=services)


@pytest.fixture(scope="module")
def guarded(stores: Stores) -> Iterator[str]:
    config = ApiConfig(token=TOKEN, rate_limit_per_min=1, rate_limit_burst=8)
    with BackgroundServer(create_app(config, stores)) as server:
        yield server.url


def test_token_missing_wrong_and_right(guarded: str) -> None:
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": TOKEN},
                    {"Authorization": f"Basic {TOKEN}"}):  # fmt: skip
        response = httpx.get(f"{guarded}/healthz", headers=headers)
        assert response.status_code == 401, headers
        assert response.headers["www-authenticate"] == "Bearer"
        assert response.json()["status"] == "error" and "Bearer" in response.json()["retry_hint"]
    ok = httpx.get(f"{guarded}/healthz", headers={"Authorization": f"Bearer {TOKEN}"})
    assert ok.status_code == 200 and ok.json()["status"] == "ok"


def test_rate_limit_per_client(guarded: str) -> None:
    statuses = [httpx.get(f"{guarded}/nothing-here").status_code for _ in range(12)]
    assert statuses.count(429) >= 4 and statuses[-1] == 429
    limited = httpx.get(f"{guarded}/healthz")
    assert limited.status_code == 429 and int(limited.headers["retry-after"]) >= 1
    assert limited.json()["error"] == "요청이 너무 많습니다."


def test_bind_rule() -> None:
    for host in ("127.0.0.1", "127.8.9.10", "::1", "[::1]", "localhost"):
        assert is_loopback(host)
        check_bind(ApiConfig(host=host))
    for host in ("0.0.0.0", "::", "10.1.2.3", "example.com"):
        assert not is_loopback(host)
        with pytest.raises(ApiConfigError, match="API_TOKEN"):
            check_bind(ApiConfig(host=host))
        check_bind(ApiConfig(host=host, token=TOKEN))
    with pytest.raises(ApiConfigError, match="16"):
        check_bind(ApiConfig(host="0.0.0.0", token="short"))


@pytest.mark.parametrize("module", [["api"], ["api.mcp", "--transport", "http"]])
def test_cli_refuses_to_listen_beyond_loopback_without_a_token(module: list[str]) -> None:
    env = {k: v for k, v in os.environ.items() if k != "API_TOKEN"}
    done = subprocess.run([sys.executable, "-m", *module, "--host", "0.0.0.0"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "API_TOKEN" in done.stderr and "Traceback" not in done.stderr


def test_store_down_answers_503_with_the_reason(settings: Any, services: Any) -> None:
    dead_uri = "postgresql://postgres@127.0.0.1:1/postgres"  # nothing listens on port 1
    dead = Stores(settings.model_copy(update={"database_url": dead_uri}),
                  info=replace(services, postgres_uri=dead_uri))  # fmt: skip
    app = create_app(ApiConfig(), dead)
    with BackgroundServer(app) as server:
        chat = httpx.post(f"{server.url}/api/chat/message", json={"message": "KODEX 200 정보"})
        assert chat.status_code == 503
        body = chat.json()
        assert body["status"] == "error" and "PostgreSQL에 연결할 수 없습니다" in body["error"]
        assert not english_words(body["error"]), body  # the driver's words are in the log only
        assert "services start" in body["retry_hint"]
        streamed = httpx.post(f"{server.url}/api/chat/message/stream", json={"message": "KODEX"})
        assert (
            streamed.status_code == 503 and streamed.headers["content-type"] == "application/json"
        )
        health = httpx.get(f"{server.url}/healthz")
        assert health.status_code == 503 and health.json()["status"] == "down"
        assert health.json()["postgres"]["error"] and health.json()["graph"]["ok"]


def test_token_from_the_secrets_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secrets = tmp_path / "secrets.toml"
    secrets.write_text(f'token = "not-this-one-0123456789"\n[api]\ntoken = "{TOKEN}"\n', "utf-8")
    monkeypatch.setenv("WORKBENCH_SECRETS_FILE", str(secrets))
    monkeypatch.delenv("API_TOKEN", raising=False)
    assert ApiConfig().token_value == TOKEN
    monkeypatch.setenv("API_TOKEN", "from-the-environment-0123")
    assert ApiConfig().token_value == "from-the-environment-0123"
    secrets.write_text("[api\ntoken = ", "utf-8")
    with pytest.raises(ApiConfigError, match="cannot read"):
        ApiConfig()


def test_requests_a_web_page_made_a_browser_send_are_refused(settings: Any, services: Any) -> None:
    app = create_app(ApiConfig(rate_limit_per_min=0), Stores(settings, info=services))
    with BackgroundServer(app) as server:
        own = {"Host": f"127.0.0.1:{server.port}"}
        for headers in ({"Host": f"rebound.example:{server.port}"},  # DNS rebinding
                        {**own, "Origin": "https://evil.example"},  # a cross-site form post
                        {**own, "Origin": "null"}):  # fmt: skip
            refused = httpx.post(f"{server.url}/api/contract/contracts", headers=headers,
                                 files={"file": ("x.txt", b"x", "text/plain")})  # fmt: skip
            assert refused.status_code == 403, headers
            assert refused.json()["status"] == "error" and refused.json()["error"]
        same_site = httpx.get(f"{server.url}/healthz",
                              headers={**own, "Origin": f"http://localhost:{server.port}"})  # fmt: skip
        assert same_site.status_code == 200
