"""The first second of the stdio MCP server: `initialize` and `tools/list` answered before the
`mcp` SDK is imported.

    front = serve_front()            # python -m api.mcp: reads stdin until the SDK is loaded
    ... the SDK's stdio server takes over (api.mcp.__main__), replaying `front.replay`

Importing the `mcp` SDK costs about a second of CPU (its package `__init__` loads the client,
the high-level server and every protocol version's pydantic models; on the shared two-core
machine, at load 20, six seconds of wall time), and an MCP client waits for `initialize` before
anything else (issue 34). This module uses the standard library only: it answers the opening
(`initialize` and `notifications/initialized`, or the handshake-free `server/discover` the
SDK's own client sends), `tools/list` from `catalog.json` and `ping`, the way the SDK's
low-level server would (tests/unit/test_mcp_front.py compares both answers for
every handshake version), while a thread imports the SDK. Once it is loaded, or as soon as a
line comes that the front does not answer (a tool call, anything malformed or unknown), the
SDK's server takes over: it is given the client's opening request again under an id of the
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
# The SDK's (mcp_types.version): the protocol revisions the initialize handshake negotiates,
# and those without a handshake (`server/discover`, each request carrying its version in
# `_meta`, what the SDK's own client speaks); tests/unit/test_mcp_front.py fails when the
# installed SDK says otherwise.
HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
MODERN_VERSIONS = ("2026-07-28",)
META = "io.modelcontextprotocol/"  # the prefix of the protocol's own `_meta` keys
REPLAYED_ID = "atlas-front-opening"  # the replayed opening request's id (its answer is dropped)
CLIENT_INFO_KEYS = {"name", "version", "title"}
# The client capabilities the front takes as they are (name → the flags it may carry); any other
# is left to the SDK, which checks each one's shape.
CAPABILITIES: dict[str, set[str]] = {"roots": {"listChanged"}, "sampling": set(),
                                     "elicitation": set()}  # fmt: skip
READ_BYTES = 65536
POLL_MS = 50  # how often the front looks whether the SDK has loaded while stdin is quiet


@dataclass
class Front:
    """What the front did: the handshake it answered and the lines it left to the SDK."""

    opening: dict[str, Any] | None = None  # the initialize or server/discover it answered
    initialized: bool = False  # the client's notifications/initialized arrived
    listed: bool = False  # a tools/list was answered (the tools start loading at the hand-over)
    pending: list[bytes] = field(default_factory=list)  # lines for the SDK, in order
    eof: bool = False  # stdin ended before the hand-over
    loader: threading.Thread | None = None  # importing the SDK (join before importing it too)


def negotiated(requested: object) -> str:
    return requested if requested in HANDSHAKE_VERSIONS else HANDSHAKE_VERSIONS[-1]  # type: ignore[return-value]


def _server_info() -> dict[str, Any]:
    return {"name": NAME, "version": VERSION}


def initialize_result(params: dict[str, Any]) -> dict[str, Any]:
    return {"capabilities": {"tools": {"listChanged": False}}, "instructions": INSTRUCTIONS,
            "protocolVersion": negotiated(params.get("protocolVersion")),
            "serverInfo": _server_info()}  # fmt: skip


def _tools() -> list[dict[str, Any]]:
    """The catalog as the server lists it before the live tools are loaded."""
    read_only = {"destructiveHint": False, "readOnlyHint": True}
    return [{"annotations": read_only, "description": t["description"],
             "inputSchema": t["input_schema"], "name": t["name"]} for t in load_catalog()]  # fmt: skip


def _modern(result: dict[str, Any]) -> dict[str, Any]:
    """A result as the SDK sends it in the handshake-free era."""
    return {"cacheScope": "private", **result, "resultType": "complete", "ttlMs": 0,
            "_meta": {META + "serverInfo": _server_info()}}  # fmt: skip


def discover_result() -> dict[str, Any]:
    return _modern({"capabilities": {"tools": {"listChanged": False}},
                    "instructions": INSTRUCTIONS, "supportedVersions": list(MODERN_VERSIONS)})  # fmt: skip


def _plain_client(client: object, capabilities: object) -> bool:
    """Client info and capabilities the SDK surely accepts (anything else is left to it, and
    to its error)."""
    if not isinstance(client, dict) or not isinstance(capabilities, dict):
        return False
    if set(client) - CLIENT_INFO_KEYS or not {"name", "version"} <= set(client):
        return False
    if not all(isinstance(v, str) for v in client.values()):
        return False
    for name, flags in capabilities.items():
        allowed = CAPABILITIES.get(name)
        if allowed is None or not isinstance(flags, dict) or set(flags) - allowed:
            return False
        if not all(isinstance(v, bool) for v in flags.values()):
            return False
    return True


def _plain_initialize(params: object) -> bool:
    if not isinstance(params, dict) or set(params) - {
        "protocolVersion",
        "capabilities",
        "clientInfo",
    }:
        return False
    return isinstance(params.get("protocolVersion"), str) and _plain_client(
        params.get("clientInfo"), params.get("capabilities"))  # fmt: skip


def _modern_params(params: object) -> bool:
    """`{"_meta": {…protocolVersion, clientInfo, clientCapabilities}}` of a handshake-free
    version, and nothing else."""
    if not isinstance(params, dict) or set(params) != {"_meta"}:
        return False
    meta = params["_meta"]
    keys = {META + k for k in ("protocolVersion", "clientInfo", "clientCapabilities")}
    if not isinstance(meta, dict) or set(meta) != keys:
        return False
    return meta[META + "protocolVersion"] in MODERN_VERSIONS and _plain_client(
        meta[META + "clientInfo"], meta[META + "clientCapabilities"])  # fmt: skip


def _reply(ident: object, result: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": ident, "result": result}


def answer(front: Front, line: bytes) -> dict[str, Any] | None | bool:
    """The front's reply to one line: a JSON-RPC response, None (a notification it took), or
    False (the SDK must answer it)."""
    try:
        message = json.loads(line)
    except ValueError:
        return False
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
        return False
    method, params, ident = message.get("method"), message.get("params"), message.get("id")
    request = "id" in message and isinstance(ident, int | str) and not isinstance(ident, bool)
    if "id" in message and not request:
        return False
    opening = None if front.opening is None else front.opening["method"]
    if opening is None and request and method == "initialize" and _plain_initialize(params):
        front.opening = {"method": method, "params": params}
        return _reply(ident, initialize_result(params))
    if opening is None and request and method == "server/discover" and _modern_params(params):
        front.opening = {"method": method, "params": params}
        return _reply(ident, discover_result())
    if opening == "initialize":
        if method == "notifications/initialized" and not request and params in (None, {}):
            front.initialized = True
            return None
        if method in ("tools/list", "ping") and request and params in (None, {}):
            front.listed = front.listed or method == "tools/list"
            return _reply(ident, {"tools": _tools()} if method == "tools/list" else {})
    if (
        opening == "server/discover"
        and method == "tools/list"
        and request
        and _modern_params(params)
    ):
        front.listed = True
        return _reply(ident, _modern({"tools": _tools()}))
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
    """Answer what the front can until the SDK (imported on a thread started once the opening
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
        if front.opening is not None and front.loader is None:
            front.loader = _start_loading()


def _start_loading() -> threading.Thread:
    def load() -> None:
        import api.mcp.server  # noqa: F401  # the SDK and the server module

    thread = threading.Thread(target=load, name="mcp-sdk-import", daemon=True)
    thread.start()
    return thread
