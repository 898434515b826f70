"""The first second of the stdio MCP server: `initialize` and `tools/list` answered before the
`mcp` SDK is imported.

    front = serve_front()            # python -m api.mcp: reads stdin until the SDK is loaded
    ... the SDK's stdio server takes over (api.mcp.__main__), replaying `front.replay`

Importing the `mcp` SDK costs about a second of CPU (its package `__init__` loads the client,
the high-level server and every protocol version's pydantic models; on the shared two-core
machine, at load 20, six seconds of wall time), and an MCP client waits for `initialize` before
anything else (issue 34). This module uses the standard library only: it answers the handshake
(`initialize`, `notifications/initialized`), `tools/list` from `catalog.json` and `ping`, the
way the SDK's low-level server would (tests/unit/test_mcp_front.py compares both answers for
every handshake version), while a thread imports the SDK. Once it is loaded, or as soon as a
line comes that the front does not answer (a tool call, anything malformed or unknown), the
SDK's server takes over: it is given the client's `initialize` again under an id of the
front's own (its answer is dropped), the `initialized` notification, and the lines the front
had not answered, in order, then reads stdin itself.
"""

from __future__ import annotations

import json
import os
import select
import sys
import threading
from dataclasses import dataclass, field
from typing import Any

from api.mcp.catalog import load_catalog

NAME = "atlas-workbench"
VERSION = "1.0"
INSTRUCTIONS = (
    "Atlas Workbench 데이터 도구: 국내 ETF(보유종목·태그·가격), 주식, 뉴스, 계약서 조항, 읽기 전용 SQL/Cypher. "
    "모든 도구는 읽기 전용이며 오류는 {status: 'error', error, retry_hint}로 돌아옵니다."
)
# The SDK's (mcp_types.version): the protocol revisions the initialize handshake negotiates;
# tests/unit/test_mcp_front.py fails when the installed SDK says otherwise.
HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
REPLAYED_ID = "atlas-front-initialize"  # the replayed initialize's id (its answer is dropped)
READ_BYTES = 65536
POLL_MS = 50  # how often the front looks whether the SDK has loaded while stdin is quiet


@dataclass
class Front:
    """What the front did: the handshake it answered and the lines it left to the SDK."""

    initialize: dict[str, Any] | None = None  # the client's initialize params, once answered
    initialized: bool = False  # the client's notifications/initialized arrived
    listed: bool = False  # a tools/list was answered (the tools start loading at the hand-over)
    pending: list[bytes] = field(default_factory=list)  # lines for the SDK, in order
    eof: bool = False  # stdin ended before the hand-over
    loader: threading.Thread | None = None  # importing the SDK (join before importing it too)


def negotiated(requested: object) -> str:
    return requested if requested in HANDSHAKE_VERSIONS else HANDSHAKE_VERSIONS[-1]  # type: ignore[return-value]


def initialize_result(params: dict[str, Any]) -> dict[str, Any]:
    return {"capabilities": {"tools": {"listChanged": False}}, "instructions": INSTRUCTIONS,
            "protocolVersion": negotiated(params.get("protocolVersion")),
            "serverInfo": {"name": NAME, "version": VERSION}}  # fmt: skip


def tools_list_result() -> dict[str, Any]:
    """The catalog as the server's `tools/list` sends it before the live tools are loaded."""
    read_only = {"destructiveHint": False, "readOnlyHint": True}
    return {"tools": [{"annotations": read_only, "description": t["description"],
                       "inputSchema": t["input_schema"], "name": t["name"]}
                      for t in load_catalog()]}  # fmt: skip


def _plain_initialize(params: object) -> bool:
    """Params the SDK surely accepts (anything else is left to it, and to its error)."""
    if not isinstance(params, dict):
        return False
    client = params.get("clientInfo")
    return (isinstance(params.get("protocolVersion"), str)
            and isinstance(params.get("capabilities"), dict) and isinstance(client, dict)
            and isinstance(client.get("name"), str)
            and isinstance(client.get("version"), str))  # fmt: skip


def answer(front: Front, line: bytes) -> dict[str, Any] | None | bool:
    """The front's reply to one line: a JSON-RPC response, None (a notification it took), or
    False (the SDK must answer it)."""
    try:
        message = json.loads(line)
    except ValueError:
        return False
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
        return False
    method, params, known = message.get("method"), message.get("params"), "id" in message
    ident = message.get("id")
    if known and (isinstance(ident, bool) or not isinstance(ident, int | str)):
        return False
    if method == "initialize" and known and front.initialize is None:
        if not _plain_initialize(params):
            return False
        front.initialize = params
        return {"jsonrpc": "2.0", "id": ident, "result": initialize_result(params)}
    if front.initialize is None:
        return False
    if method == "notifications/initialized" and not known and params in (None, {}):
        front.initialized = True
        return None
    if method in ("tools/list", "ping") and known and params in (None, {}):
        front.listed = front.listed or method == "tools/list"
        result = tools_list_result() if method == "tools/list" else {}
        return {"jsonrpc": "2.0", "id": ident, "result": result}
    return False


def _write(reply: dict[str, Any]) -> None:
    text = json.dumps(reply, ensure_ascii=False, separators=(",", ":")) + "\n"
    data, fd = text.encode("utf-8"), sys.stdout.fileno()
    while data:
        data = data[os.write(fd, data) :]


def _readable(fd: int, timeout_ms: int | None) -> bool:
    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLHUP)
    return bool(poller.poll(timeout_ms))


def serve_front() -> Front:
    """Answer what the front can until the SDK (imported on a thread started once `initialize`
    is answered) has loaded or a line needs it; stdin is read with `os.read`, so nothing is left
    in a buffer the SDK's own reader would not see. A partial line at the hand-over is read to
    its end first. The caller joins `front.loader` before importing the SDK itself (two threads
    importing the same modules deadlock)."""
    front, fd, rest = Front(), sys.stdin.fileno(), b""
    while True:
        load = front.loader
        loaded = load is not None and not load.is_alive()
        if (front.pending or loaded or front.eof) and not rest:
            return front
        wait = None if load is None or rest or front.pending else POLL_MS
        if not _readable(fd, wait):
            continue
        data = os.read(fd, READ_BYTES)
        if not data:
            front.eof = True
            if rest:
                front.pending.append(rest)
                rest = b""
            continue
        *lines, rest = (rest + data).split(b"\n")
        for line in lines:
            if not line.strip():
                continue
            reply = False if front.pending else answer(front, line)
            if reply is False:
                front.pending.append(line)
            elif reply is not None:
                _write(reply)
        if front.initialize is not None and front.loader is None:
            front.loader = _start_loading()


def _start_loading() -> threading.Thread:
    def load() -> None:
        import api.mcp.server  # noqa: F401  # the SDK and the server module

    thread = threading.Thread(target=load, name="mcp-sdk-import", daemon=True)
    thread.start()
    return thread
