"""api.mcp.errors: each JSON-RPC error the MCP SDK answers by itself becomes Korean with a retry
hint in the project's error shape, keeps its code and the protocol's own structured data, and
never carries the client's input whole."""

from __future__ import annotations

import json

import mcp_types as types
import pytest

from api.mcp.errors import _rewrite_body, korean_error, korean_message

CODES = [-32700, -32600, -32601, -32602, -32603, -32001, -32020, -32021, -32022, -32099]


@pytest.mark.parametrize("code", CODES)
def test_every_code_is_korean_in_the_error_shape(code: int) -> None:
    error = korean_error(types.ErrorData(code=code, message="Something English", data="x"))
    assert error.code == code
    assert isinstance(error.data, dict)
    assert error.data["status"] == "error" and error.data["error"] == error.message
    assert "English" not in error.message and any("가" <= ch <= "힣" for ch in error.message)
    assert any("가" <= ch <= "힣" for ch in error.data["retry_hint"])


def test_protocol_data_is_kept_beside_the_shape() -> None:
    data = {"supported": ["2025-06-18"], "requested": "1999-01-01"}
    error = korean_error(types.ErrorData(code=-32022, message="Unsupported", data=data))
    assert isinstance(error.data, dict)
    assert error.data["supported"] == ["2025-06-18"] and error.data["retry_hint"]


def test_an_unknown_method_is_named_but_cut() -> None:
    error = korean_error(types.ErrorData(code=-32601, message="Method not found", data="m" * 9000))
    assert "m" * 80 in error.message and "m" * 81 not in error.message


def test_a_korean_error_is_left_as_it_is() -> None:
    once = korean_error(types.ErrorData(code=-32602, message="Invalid"))
    assert korean_error(once) == once


def test_only_errors_are_rewritten() -> None:
    ok = types.JSONRPCResponse(jsonrpc="2.0", id=1, result={"tools": []})
    assert korean_message(ok) is ok
    assert (
        _rewrite_body(json.dumps({"jsonrpc": "2.0", "id": 1, "result": {}}).encode(), 200) is None
    )


def test_http_status_says_what_the_transport_refused() -> None:
    body = json.dumps({"jsonrpc": "2.0", "id": None,
                       "error": {"code": -32600, "message": "Session not found"}}).encode()  # fmt: skip
    rewritten = _rewrite_body(body, 404)
    assert rewritten is not None
    error = json.loads(rewritten)["error"]
    assert "세션" in error["message"] and "initialize" in error["data"]["retry_hint"]


def test_the_api_mcp_route_outside_a_running_server_is_a_korean_503() -> None:
    """api.mcp.mount: /mcp in an app whose lifespan is not running (no session task group)
    answers in the error shape, without loading the SDK's server."""
    from fastapi.testclient import TestClient

    from api.app import create_app
    from api.config import ApiConfig
    from api.stores import Stores
    from data_access.config import get_settings

    app = create_app(ApiConfig(rate_limit_per_min=0), Stores(get_settings()))
    client = TestClient(app, base_url="http://127.0.0.1")  # a loopback Host, as the walls want
    response = client.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error" and "MCP" in body["error"] and body["retry_hint"]
    assert app.state.mcp.mcp is None
    assert create_app(ApiConfig(mcp=False), Stores(get_settings())).state.mcp is None
