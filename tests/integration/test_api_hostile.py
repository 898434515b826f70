"""Hostile input on every HTTP API route and every MCP tool (issue 34), on real servers and the
real test stores: wrong types, over-long strings, trailing SQL, control characters only, path
parts, extra and missing fields. Each is answered with a 4xx (HTTP) or `isError` (MCP) in the one
error shape `{status: "error", error, retry_hint}`, in Korean, naming the field; the value sent is
never echoed whole; nothing is stored.

The cases are generated from the OpenAPI document and from `tools/list`, so a new route or tool
is covered (or the coverage test fails) without editing this file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from api.app import create_app
from api.background import BackgroundServer
from api.config import ApiConfig
from api.mcp.catalog import load_catalog
from api.mcp.server import McpApp
from api.models import EXAMPLE_CONTRACT
from api.stores import Stores
from data_access.postgres import fetch_one
from tests.integration.test_mcp import run_in_thread

HANGUL = re.compile(r"[가-힣]")
LONG = "가" * 5000  # over every cap (2000 chars for text, 200 for ids), under the 64 KB body cap
CONTROL = "\x00\x1b[31m\u202e\u200b"  # nothing left once cleaned
TRAILING = "'; DROP TABLE etfs; --"
PATH = "../../etc/passwd"
COUNTED = ("conversations", "messages", "agent_runs", "contracts", "etfs")
# A valid body per agent route; each case changes one field of it.
VALID = {
    "/api/chat/message": {"message": "KODEX 200 정보"},
    "/api/macro/message": {"message": "한국 기준금리 추이"},
    "/api/contract/message": {"contract_id": EXAMPLE_CONTRACT, "message": "손해배상 한도는?"},
    "/api/stock/report": {"symbol": "삼성전자"},
    "/api/opening/run": {"date": "2026-11-20"},
}
FREE_TEXT = {"message"}  # a question may hold quotes, slashes, SQL words: it is text, not a key
# Routes with path or query parts: (method, path template) → hostile requests.
PARTS: dict[tuple[str, str], list[tuple[str, str]]] = {
    ("get", "/api/conversations"): [("GET", "/api/conversations?screen=" + TRAILING),
                                    ("GET", "/api/conversations?screen=etf&limit=abc"),
                                    ("GET", "/api/conversations?limit=100000")],
    ("get", "/api/conversations/{conversation_id}"): [("GET", f"/api/conversations/{TRAILING}"),
                                                      ("GET", "/api/conversations/..%2F..%2Fetc"),
                                                      ("GET", f"/api/conversations/{'a' * 3000}")],
    ("delete", "/api/conversations/{conversation_id}"): [
        ("DELETE", f"/api/conversations/{TRAILING}"), ("DELETE", "/api/conversations/%00")],
    ("get", "/api/runs"): [("GET", "/api/runs"), ("GET", "/api/runs?screen=etf&limit=-1")],
    ("get", "/api/runs/{run_id}"): [("GET", f"/api/runs/{TRAILING}"),
                                    ("GET", f"/api/runs/{'b' * 3000}")],
    ("post", "/api/turns/{turn_id}/cancel"): [("POST", f"/api/turns/{TRAILING}/cancel"),
                                              ("POST", "/api/turns/..%2F..%2F/cancel")],
}  # fmt: skip
NO_INPUT = {("get", "/healthz"), ("get", "/admin/indicators")}


def counts(pool: Any) -> dict[str, int]:
    out = {}
    for table in COUNTED:
        row = fetch_one(f"SELECT count(*) AS n FROM {table}", pool=pool)
        out[table] = int(row["n"]) if row else 0
    return out


def check_refusal(text: str, status: int | None, field: str | None, sent: Any) -> None:
    """One error shape, Korean, naming the field, not echoing the value whole."""
    body = json.loads(text)
    assert set(body) >= {"status", "error", "retry_hint"}, text[:300]
    assert body["status"] == "error" and body["retry_hint"], text[:300]
    assert HANGUL.search(body["error"]) and HANGUL.search(body["retry_hint"]), text[:300]
    if field is not None:
        assert field in body["error"], (field, body["error"])
    if isinstance(sent, str) and len(sent) >= 100:
        assert sent[:100] not in text, "the value was echoed back"
    assert "Traceback" not in text
    if status is not None:
        assert 400 <= status < 500, (status, text[:300])


# ---------------------------------------------------------------- HTTP API


@pytest.fixture(scope="module")
def api(demo_data: Any, settings: Any, services: Any) -> Iterator[httpx.Client]:
    app = create_app(ApiConfig(rate_limit_per_min=0), Stores(settings, info=services))
    with BackgroundServer(app) as server, httpx.Client(base_url=server.url, timeout=60) as c:
        yield c


def body_cases(path: str, schema: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any], str]]:
    """(case, body, field the answer must name) for one agent route."""
    valid = VALID[path]
    for name, spec in schema["properties"].items():
        base = {**valid}
        typed = "string" in json.dumps(spec)
        yield "wrong type", {**base, name: 123 if typed else "x"}, name
        yield "array", {**base, name: [1, 2]}, name
        if typed:
            yield "too long", {**base, name: LONG}, name
            yield "control only", {**base, name: CONTROL}, name
            if name not in FREE_TEXT:
                yield "trailing sql", {**base, name: f"{valid.get(name) or 'x'}{TRAILING}"}, name
                yield "path parts", {**base, name: PATH}, name
    for name in schema.get("required", []):
        yield "missing", {k: v for k, v in valid.items() if k != name}, name
    yield "extra", {**valid, "evil": 1}, "evil"


# Routes outside the OpenAPI document: the docs pages and their files (no input) and /mcp (the MCP
# tools' own cases below).
OUTSIDE_SCHEMA = {"/openapi.json", "/static-offline-docs", "/docs", "/docs/oauth2-redirect",
                  "/redoc", "/mcp"}  # fmt: skip


def test_every_route_with_input_has_hostile_cases(api: httpx.Client, settings: Any,
                                                   services: Any) -> None:  # fmt: skip
    app = create_app(ApiConfig(), Stores(settings, info=services))  # its routes, not served
    outside = {r.path for r in app.routes
               if hasattr(r, "path") and not getattr(r, "include_in_schema", False)}  # fmt: skip
    outside |= {r.path for r in app.routes if getattr(r, "path", None) == "/mcp"}
    assert outside == OUTSIDE_SCHEMA, "a route outside the OpenAPI document without cases here"
    spec = api.get("/openapi.json").json()
    for path, methods in spec["paths"].items():
        for method in methods:
            key = (method, path)
            if path.endswith("/stream"):
                path = path.removesuffix("/stream")
            covered = path in VALID or key in PARTS or key in NO_INPUT
            covered = covered or path == "/api/contract/contracts"  # upload: its own test below
            assert covered, f"no hostile cases for {method.upper()} {path}"


def test_hostile_bodies_on_every_agent_route(api: httpx.Client, pg_pool: Any) -> None:
    spec = api.get("/openapi.json").json()
    schemas = spec["components"]["schemas"]
    before = counts(pg_pool)
    tried = 0
    for path in VALID:
        ref = spec["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]
        schema = schemas[ref["$ref"].rsplit("/", 1)[1]]
        for case, body, field in body_cases(path, schema):
            for route in (path, f"{path}/stream"):
                response = api.post(route, json=body)
                assert response.status_code == 422, (route, case, response.text[:300])
                check_refusal(response.text, response.status_code, field, body.get(field))
                tried += 1
    assert tried > 80 and counts(pg_pool) == before


def test_malformed_bodies_and_hostile_path_and_query_parts(api: httpx.Client,
                                                           pg_pool: Any) -> None:  # fmt: skip
    before = counts(pg_pool)
    for requests in PARTS.values():
        for method, url in requests:
            response = api.request(method, url)
            check_refusal(response.text, response.status_code, None, url)
    for raw in (b'{"message": "KODEX', b"\xff\xfe{}", b'"just a string"', b"[1, 2]",
                b'{"message": "a"} trailing'):  # fmt: skip
        response = api.post("/api/chat/message", content=raw,
                            headers={"content-type": "application/json"})  # fmt: skip
        check_refusal(response.text, response.status_code, None, raw)
    no_file = api.post("/api/contract/contracts", data={"x": "1"})
    check_refusal(no_file.text, no_file.status_code, "file", None)
    assert counts(pg_pool) == before


# ---------------------------------------------------------------- MCP tools


# Arguments that are free text (a search, a query, an expression): quotes, slashes and SQL words
# are text there. Every other string argument is a code, a date, an id or a word from a set.
FREE_ARGS = {"query", "cypher", "expression", "keywords", "topics", "title_queries", "queries"}
# A valid value for the required arguments the cases do not change, so the one changed argument
# is what the tool (or the schema) has to refuse.
VALID_ARGS = {"etf_code": "069500", "etf_codes": "069500,102110", "stock_code": "005930",
              "symbol": "005930", "ticker": "005930", "contract_id": EXAMPLE_CONTRACT,
              "start_date": "2026-11-02", "end_date": "2026-11-20", "day": "2026-11-20",
              "query": "KODEX", "cypher": "MATCH (e:ETF) RETURN e.code LIMIT 1",
              "expression": "1 + 1", "contract_type": "provide", "pks": ["x"],
              "keywords": ["반도체"], "topics": ["손해배상"], "title_queries": ["손해배상"],
              "queries": ["손해배상"]}  # fmt: skip


def argument_cases(schema: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any], str]]:
    """(case, arguments, argument the answer must name) for one tool's input schema."""
    props, required = schema.get("properties", {}), schema.get("required", [])
    base = {name: VALID_ARGS.get(name, "x") for name in required}  # one argument fails
    for name, spec in props.items():
        spec = next((s for s in spec.get("anyOf", []) if s.get("type") == "string"), spec)
        kinds = spec.get("type") if isinstance(spec.get("type"), list) else [spec.get("type")]
        yield "wrong type", {**base, name: {"a": 1} if "object" not in kinds else 7}, name
        if "string" in kinds:
            yield "too long", {**base, name: "가" * (spec["maxLength"] + 1)}, name
            yield "control only", {**base, name: CONTROL}, name
            if name not in FREE_ARGS:
                valid = VALID_ARGS.get(name) or (spec.get("enum") or ["2026-11-20"])[0]
                yield "trailing sql", {**base, name: f"{valid}{TRAILING}"}, name
                yield "path parts", {**base, name: PATH}, name
    for name in required:
        yield "missing", {k: v for k, v in base.items() if k != name}, name
    yield "extra", {**base, "evil": 1}, "evil"


def test_hostile_arguments_on_every_mcp_tool(settings: Any, services: Any, demo_data: Any,
                                            pg_pool: Any) -> None:  # fmt: skip
    mcp_app = McpApp(Stores(settings, info=services))
    before = counts(pg_pool)

    async def run(url: str) -> list[tuple[str, str, str, dict[str, Any], Any]]:
        out = []
        http = create_mcp_http_client()
        async with http, Client(streamable_http_client(url, http_client=http)) as client:
            tools = (await client.list_tools()).tools
            assert [t.name for t in tools] == [e["name"] for e in load_catalog()]
            for tool in tools:
                for case, args, field in argument_cases(tool.input_schema):
                    result = await client.call_tool(tool.name, args)
                    out.append((tool.name, case, field, args, result))
        return out

    with BackgroundServer(mcp_app.http_app(ApiConfig(rate_limit_per_min=0))) as server:
        results = run_in_thread(lambda: run(f"{server.url}/mcp"))
    mcp_app.close()
    for name, case, field, args, result in results:
        text = "".join(getattr(c, "text", "") for c in result.content)
        assert result.is_error, (name, case, text[:300])
        check_refusal(text, None, field, args.get(field))
    assert len(results) > 150 and counts(pg_pool) == before
