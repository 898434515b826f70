"""The MCP SDK's own JSON-RPC errors come back Korean, with a retry hint, in the project's error
shape (`data: {status, error, retry_hint}`), over stdio (`python -m api.mcp` as a subprocess,
raw JSON-RPC lines, as a hand-written client would send them) and over streamable HTTP (a real
uvicorn server): an unknown method, params that are not a tool call, a line that is not JSON,
JSON that is not a JSON-RPC message, a lost session, a wrong Accept header. Nothing of the
client's input is echoed whole, and the JSON-RPC code is the standard one.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from api.background import BackgroundServer
from api.config import ApiConfig
from api.mcp.server import McpApp
from api.stores import Stores

ROOT = Path(__file__).resolve().parents[2]
HANGUL = set(range(0xAC00, 0xD7A4))
LONG_METHOD = "x/" + "a" * 5000
PROTOCOL = "2025-06-18"
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}  # fmt: skip
# (line sent, JSON-RPC code expected); ids 2.. answer with their id, unreadable lines with null
STDIO_CASES: list[tuple[str, int]] = [
    (json.dumps({"jsonrpc": "2.0", "id": 2, "method": "bogus/method"}), -32601),
    (json.dumps({"jsonrpc": "2.0", "id": 3, "method": LONG_METHOD}), -32601),
    (json.dumps({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {}}), -32602),
    (
        json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 5,
                "method": "tools/call",
                "params": {"name": "etf_search", "arguments": "x"},
            }
        ),
        -32602,
    ),  # fmt: skip
    ("{not json", -32700),
    (json.dumps({"jsonrpc": "2.0", "id": 6}), -32600),
    ("[1, 2]", -32600),
]


def assert_korean(error: dict[str, Any], code: int) -> None:
    assert error["code"] == code, error
    data = error["data"]
    assert data["status"] == "error" and data["error"] == error["message"], error
    assert any(ord(ch) in HANGUL for ch in data["error"]), error
    assert any(ord(ch) in HANGUL for ch in data["retry_hint"]), error
    assert "a" * 100 not in json.dumps(error), "the client's input is echoed whole"


class StdioServer:
    """`python -m api.mcp` with raw lines on its stdin and its stdout read by a thread."""

    def __init__(self) -> None:
        keep = ("WORKBENCH_HOME", "WORKBENCH_SECRETS_FILE", "LITELLM_LOCAL_MODEL_COST_MAP", "PATH")
        env = {k: os.environ[k] for k in keep if k in os.environ}
        self.process = subprocess.Popen([sys.executable, "-m", "api.mcp"], cwd=ROOT, env=env,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True)  # fmt: skip
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def receive(self) -> dict[str, Any]:
        return json.loads(self.lines.get(timeout=60))

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()


@pytest.fixture(scope="module")
def stdio() -> Iterator[StdioServer]:
    server = StdioServer()
    server.send(json.dumps(INITIALIZE))
    assert server.receive()["id"] == 1
    server.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
    yield server
    server.close()


@pytest.mark.parametrize(("line", "code"), STDIO_CASES, ids=[str(c) for _, c in STDIO_CASES])
def test_stdio_protocol_errors_are_korean(stdio: StdioServer, line: str, code: int) -> None:
    stdio.send(line)
    reply = stdio.receive()
    sent = json.loads(line) if line.startswith('{"') else {}
    assert reply["id"] == (sent.get("id") if "method" in sent else None), reply
    assert_korean(reply["error"], code)


def test_stdio_unknown_tool_is_a_korean_tool_error(stdio: StdioServer) -> None:
    stdio.send(json.dumps({"jsonrpc": "2.0", "id": 20, "method": "tools/call",
                           "params": {"name": "nope" * 1000, "arguments": {}}}))  # fmt: skip
    result = stdio.receive()["result"]
    assert result["isError"] is True
    body = result["structuredContent"]
    assert body["status"] == "error" and "알 수 없는 도구" in body["error"] and body["retry_hint"]
    assert "nope" * 100 not in json.dumps(result)


def test_requests_sent_before_the_sdk_loads_are_answered_in_one_session() -> None:
    """Issue 34: the stdio front answers the handshake, the tool list and ping before the SDK is
    imported; what it leaves (sent in the same breath) is answered by the SDK's server in the
    session the front opened: a tool call right after `initialized` is not refused as
    uninitialized, and the SDK's tool list is the front's."""
    server = StdioServer()
    try:
        for line in (INITIALIZE, {"jsonrpc": "2.0", "method": "notifications/initialized"},
                     {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
                     {"jsonrpc": "2.0", "id": 3, "method": "ping"},
                     {"jsonrpc": "2.0", "id": 4, "method": "tools/call",
                      "params": {"name": "nope", "arguments": {}}},
                     {"jsonrpc": "2.0", "id": 5, "method": "tools/list",
                      "params": {"cursor": "x"}}):  # fmt: skip
            server.send(json.dumps(line))
        replies = {r["id"]: r for r in (server.receive() for _ in range(5))}
        assert replies[1]["result"]["serverInfo"]["name"] == "atlas-workbench"
        assert replies[3]["result"] == {}
        assert replies[4]["result"]["isError"] is True, replies[4]
        assert "알 수 없는 도구" in replies[4]["result"]["structuredContent"]["error"]
        assert replies[5]["result"] == replies[2]["result"] and replies[2]["result"]["tools"]
    finally:
        server.close()


@pytest.fixture(scope="module")
def http_url(settings: Any, services: Any) -> Iterator[str]:
    mcp_app = McpApp(Stores(settings, info=services))
    with BackgroundServer(mcp_app.http_app(ApiConfig(rate_limit_per_min=0))) as server:
        yield f"{server.url}/mcp"
    mcp_app.close()


def test_http_protocol_errors_are_korean(http_url: str) -> None:
    accept = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    opened = httpx.post(http_url, headers=accept, json=INITIALIZE, timeout=60)
    assert opened.status_code == 200, opened.text
    session = {**accept, "mcp-protocol-version": PROTOCOL}
    if opened.headers.get("mcp-session-id"):
        session["mcp-session-id"] = opened.headers["mcp-session-id"]
    httpx.post(http_url, headers=session,
               json={"jsonrpc": "2.0", "method": "notifications/initialized"})  # fmt: skip
    cases: list[tuple[dict[str, Any], int, int]] = [  # request, HTTP status, JSON-RPC code
        ({"json": {"jsonrpc": "2.0", "id": 2, "method": LONG_METHOD}}, 200, -32601),
        ({"json": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {}}}, 200, -32602),
        ({"content": b"{not json"}, 400, -32700),
        ({"json": [1, 2]}, 400, -32602),  # the SDK's code for a body of no request
        ({"json": {"jsonrpc": "2.0", "id": 4, "method": "tools/list"},
          "headers": {**session, "mcp-session-id": "deadbeef"}}, 404, -32600),
        ({"json": {"jsonrpc": "2.0", "id": 5, "method": "tools/list"},
          "headers": {"Content-Type": "application/json", "Accept": "text/html"}}, 406, -32600),
    ]  # fmt: skip
    for request, status, code in cases:
        response = httpx.post(http_url, **{"headers": session, **request}, timeout=60)
        assert response.status_code == status, (request, response.text[:300])
        assert_korean(response.json()["error"], code)
        assert int(response.headers["content-length"]) == len(response.content)
