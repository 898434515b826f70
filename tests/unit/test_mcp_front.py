"""The stdio front (api.mcp.front) answers the opening (`initialize`, or `server/discover` as the
SDK's own client sends it), `tools/list` and `ping` exactly as the SDK's server does, for every
protocol version, and loads nothing of the SDK to do it; what it does not take is left to the
SDK."""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp.shared.message import SessionMessage
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS

from api.mcp import front
from api.mcp.server import McpApp

ROOT = Path(__file__).resolve().parents[2]


def _params(version: str) -> dict[str, Any]:
    return {"protocolVersion": version, "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"}}  # fmt: skip


def _lines(version: str) -> list[dict[str, Any]]:
    """What a client sends first: the handshake, or its handshake-free equivalent."""
    if version in MODERN_PROTOCOL_VERSIONS:
        meta = {"_meta": {front.META + "protocolVersion": version,
                          front.META + "clientInfo": {"name": "test", "version": "1"},
                          front.META + "clientCapabilities": {}}}  # fmt: skip
        return [{"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": meta},
                {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": meta}]  # fmt: skip
    return [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": _params(version)},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
            {"jsonrpc": "2.0", "id": 3, "method": "ping"}]  # fmt: skip


async def _sdk_answers(version: str) -> list[dict[str, Any]]:
    """The same lines sent to McpApp's SDK server in process."""
    app = McpApp()
    app.warm_up = lambda: None  # type: ignore[method-assign]  # list only: no stores here
    send_in, read = anyio.create_memory_object_stream[SessionMessage | Exception](10)
    write, receive_out = anyio.create_memory_object_stream[SessionMessage](10)
    lines = _lines(version)
    answers: list[dict[str, Any]] = []
    async with anyio.create_task_group() as tg:
        options = app.server.create_initialization_options()
        tg.start_soon(app.server.run, read, write, options)
        for line in lines:
            await send_in.send(SessionMessage(types.jsonrpc_message_adapter.validate_python(line)))
        for _ in [line for line in lines if "id" in line]:
            message = (await receive_out.receive()).message
            answers.append(json.loads(message.model_dump_json(by_alias=True, exclude_unset=True)))
        await send_in.aclose()
    return answers


def _front_answers(version: str) -> list[Any]:
    state = front.Front()
    answers = [front.answer(state, json.dumps(line).encode()) for line in _lines(version)]
    assert False not in answers and state.listed and not state.pending
    return [a for a in answers if a is not None]


def test_the_front_knows_the_sdks_protocol_versions() -> None:
    assert front.HANDSHAKE_VERSIONS == HANDSHAKE_PROTOCOL_VERSIONS
    assert front.MODERN_VERSIONS == MODERN_PROTOCOL_VERSIONS


@pytest.mark.parametrize("version",
                         [*HANDSHAKE_PROTOCOL_VERSIONS, "2099-01-01", *MODERN_PROTOCOL_VERSIONS])  # fmt: skip
def test_the_front_answers_as_the_sdk_server(version: str) -> None:
    # in a thread of its own: a test run earlier in the same process may have left an event
    # loop running in this one ('Runner.run() cannot be called from a running event loop')
    with ThreadPoolExecutor(1) as worker:
        sdk = worker.submit(anyio.run, _sdk_answers, version).result()
    assert _front_answers(version) == sdk


@pytest.mark.parametrize("line", [
    b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "x"}}',
    b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}',  # before initialize
    b'{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": 1}}',
    b'{"jsonrpc": "2.0", "id": true, "method": "initialize", "params": {}}',
    b"not json", b"[1, 2]",
    # client info or capabilities the SDK checks more closely than the front does
    b'{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "x", '
    b'"capabilities": {"roots": 5}, "clientInfo": {"name": "a", "version": "1"}}}',
    b'{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "x", '
    b'"capabilities": {}, "clientInfo": {"name": "a", "version": "1", "icons": "x"}}}',
    b'{"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {}}',
])  # fmt: skip
def test_what_the_front_does_not_answer_is_left_to_the_sdk(line: bytes) -> None:
    assert front.answer(front.Front(), line) is False


def test_after_initialize_only_the_list_and_ping_are_answered() -> None:
    state = front.Front()
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": _params("2025-06-18")}
    assert front.answer(state, json.dumps(init).encode())
    again = front.answer(state, json.dumps({**init, "id": 2}).encode())  # a second initialize
    paged = {"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {"cursor": "x"}}
    assert again is False and front.answer(state, json.dumps(paged).encode()) is False


def test_the_front_loads_no_part_of_the_sdk() -> None:
    code = ("import sys, api.mcp.front, api.mcp.__main__; "
            "print(','.join(m for m in sys.modules if m.split('.')[0] in "
            "('mcp', 'mcp_types', 'pydantic', 'anyio', 'starlette', 'httpx')))")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True)  # fmt: skip
    assert out.stdout.strip() == "", out.stdout


def test_what_the_front_takes_the_sdk_takes_too() -> None:
    """Every client capability and client-info key the front accepts as it is, at once."""
    params = {"protocolVersion": "2025-06-18",
              "capabilities": {name: {flag: True for flag in flags}
                               for name, flags in front.CAPABILITIES.items()},
              "clientInfo": {key: "x" for key in front.CLIENT_INFO_KEYS}}  # fmt: skip
    state = front.Front()
    line = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params}
    assert front.answer(state, json.dumps(line).encode())
    types.InitializeRequestParams.model_validate(params, by_name=False)
