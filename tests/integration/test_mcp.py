"""The MCP server with the `mcp` package's own client: over stdio (`python -m api.mcp` started
by the client as a subprocess on the test stores with the demo data) it lists every seed tool
with its schema and each one is called; hostile calls come back as tool errors and change
nothing. The streamable HTTP transport runs on a real uvicorn server behind the API's token.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import anyio
import httpx
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from api.app import create_app
from api.background import BackgroundServer
from api.config import ApiConfig
from api.mcp.server import McpApp
from api.stores import Stores
from data_access.postgres import fetch_one

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "mcp-test-token-0123456789abcdef"
DAY = "2026-11-20"
CONTRACT = "sample-user-provide"
SEED_TOOLS = {
    "etf": {"etf_search", "stock_search", "list_tags", "get_etf_info", "find_similar_etfs",
            "get_holdings_changes", "get_etf_prices", "get_stock_prices", "compare_etfs",
            "graph_query"},
    "opening": {"get_news_list", "get_news_content", "list_downloaded_bodies",
                "count_keyword_frequency", "get_ohlcv"},
    "contract": {"hybrid_search", "article_index", "article_title", "standard_contract"},
    "stock": {"stock_data_tool", "financial_news_tool", "calculator_tool"},
    "query": {"sql_query", "cypher_query"},
}  # fmt: skip
CALLS: list[tuple[str, dict[str, Any], str]] = [  # tool, arguments, text the result must hold
    ("etf_search", {"query": "KODEX 200"}, "069500"),
    ("stock_search", {"query": "삼성전자"}, "005930"),
    ("list_tags", {}, "반도체"),
    ("get_etf_info", {"etf_code": "069500"}, "KODEX 200"),
    ("find_similar_etfs", {"etf_code": "069500"}, "code"),
    ("get_holdings_changes", {"etf_code": "069500", "period": "1m"}, "change_type"),
    ("get_etf_prices", {"etf_code": "069500", "period": "1m"}, "close"),
    ("get_stock_prices", {"stock_code": "005930", "period": "1m"}, "close"),
    ("compare_etfs", {"etf_codes": "069500,102110"}, "102110"),
    ("graph_query", {"cypher": "MATCH (e:ETF {code: '069500'}) RETURN {code: e.code, name: e.name}"},
     "KODEX 200"),
    ("get_news_list", {"day": DAY}, "publish_et_iso"),
    ("count_keyword_frequency", {"day": DAY, "keywords": ["반도체", "Fed"]}, "count"),
    ("get_ohlcv", {"ticker": "KR:005930", "start_date": "2026-11-01", "end_date": DAY}, "close"),
    ("list_contracts", {}, CONTRACT),
    ("hybrid_search", {"contract_id": CONTRACT, "topics": [
        {"topic_name": "손해배상", "queries": ["손해배상 한도"]}]}, "손해배상"),
    ("article_index", {"contract_id": CONTRACT, "article_numbers": [5]}, "matched_articles"),
    ("article_title", {"contract_id": CONTRACT, "title_queries": ["손해배상"]}, "손해배상"),
    ("standard_contract", {"contract_type": "provide", "queries": ["비밀유지"]}, "std-provide"),
    ("stock_data_tool", {"symbol": "삼성전자"}, "KR:005930"),
    ("financial_news_tool", {"query": "삼성전자", "max_results": 3}, "results"),
    ("calculator_tool", {"expression": "2 + 3 * 4"}, "14"),
    ("sql_query", {"query": "SELECT code, name FROM etfs WHERE code = '069500'"}, "KODEX 200"),
    ("cypher_query", {"query": "MATCH (e:ETF {code: '069500'}) RETURN e.name AS name"}, "KODEX 200"),
]  # fmt: skip
HOSTILE: list[tuple[str, dict[str, Any]]] = [
    ("sql_query", {"query": "DELETE FROM etfs"}),
    ("sql_query", {"query": "SELECT 1; DROP TABLE etfs"}),
    ("sql_query", {"query": "SELECT usename, passwd FROM pg_shadow"}),
    ("sql_query", {"query": "\x00\x1b[31m"}),
    ("cypher_query", {"query": "MATCH (n:ETF) DETACH DELETE n"}),
    ("cypher_query", {"query": "CREATE (:Hack {x: 1})"}),
    ("graph_query", {"cypher": "MATCH (e:ETF) SET e.name = 'x' RETURN e"}),
    ("calculator_tool", {"expression": "__import__('os').system('id')"}),
    ("get_etf_info", {"etf_code": "999999"}),
    ("get_etf_info", {}),
    ("etf_search", {"query": "KODEX", "drop": "table"}),
    ("hybrid_search", {"contract_id": "nope", "topics": []}),
    ("get_ohlcv", {"day": "2026-13-45", "ticker": "KR:005930", "start_date": "x", "end_date": "y"}),
    ("no_such_tool", {}),
]


T = TypeVar("T")


def run_in_thread(fn: Callable[[], Awaitable[T]]) -> T:
    """`anyio.run` on a thread of its own: Playwright's sync API (browser tests earlier in the
    session) keeps an event loop running on the main thread, and a loop cannot start inside it."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(anyio.run, fn).result()


def stdio_params() -> StdioServerParameters:
    keep = ("WORKBENCH_HOME", "WORKBENCH_SECRETS_FILE", "LITELLM_LOCAL_MODEL_COST_MAP", "PATH")
    env = {k: os.environ[k] for k in keep if k in os.environ}
    return StdioServerParameters(command=sys.executable, args=["-m", "api.mcp"], cwd=str(ROOT),
                                 env=env)  # fmt: skip


def text_of(result: Any) -> str:
    return "".join(getattr(c, "text", "") for c in result.content)


@pytest.fixture(scope="module")
def session(demo_data: Any) -> Iterator[dict[str, Any]]:
    """One stdio server for the module: its tool list and the results of every call."""

    async def run() -> dict[str, Any]:
        async with Client(stdio_params(), read_timeout_seconds=120) as client:
            listed = await client.list_tools()
            results = {name: await client.call_tool(name, args) for name, args, _ in CALLS}
            pks = [a["pk"] for a in json.loads(text_of(results["get_news_list"]))["articles"][:2]]
            content = await client.call_tool("get_news_content", {"day": DAY, "pks": pks})
            downloaded = await client.call_tool("list_downloaded_bodies", {"day": DAY})
            hostile = [await client.call_tool(name, args) for name, args in HOSTILE]
            called = {n for n, _, _ in CALLS} | {"get_news_content", "list_downloaded_bodies"}
            others = {
                t.name: await client.call_tool(t.name, {"day": DAY})
                for t in listed.tools
                if t.name not in called
            }  # tools beyond the seeds' (get_market_movers)
            return {"tools": listed.tools, "results": results, "pks": pks, "content": content,
                    "downloaded": downloaded, "hostile": hostile, "others": others}  # fmt: skip

    yield run_in_thread(run)


def test_every_seed_tool_is_listed_with_its_schema(session: dict[str, Any]) -> None:
    tools = {t.name: t for t in session["tools"]}
    for group, names in SEED_TOOLS.items():
        assert names <= set(tools), (group, names - set(tools))
    assert tools["etf_search"].input_schema["required"] == ["query"]
    assert tools["get_etf_prices"].input_schema["required"] == []  # etf_code, or a set's rows
    assert "topics" in tools["hybrid_search"].input_schema["properties"]
    assert tools["hybrid_search"].input_schema["required"][0] == "contract_id"
    assert "day" in tools["get_news_list"].input_schema["properties"]
    assert all(t.annotations and t.annotations.read_only_hint for t in tools.values())
    assert all(t.description for t in tools.values())


@pytest.mark.parametrize(("name", "expected"), [(n, e) for n, _, e in CALLS])
def test_each_tool_answers(session: dict[str, Any], name: str, expected: str) -> None:
    result = session["results"][name]
    assert not result.is_error, text_of(result)[:300]
    assert expected in text_of(result)
    json.loads(text_of(result))


def test_tools_beyond_the_seeds_answer_too(session: dict[str, Any]) -> None:
    for name, result in session["others"].items():
        assert not result.is_error, (name, text_of(result)[:300])


def test_news_bodies_are_read_and_remembered_per_day(session: dict[str, Any]) -> None:
    assert session["pks"] and not session["content"].is_error
    assert all(pk in text_of(session["content"]) for pk in session["pks"])
    assert all(pk in text_of(session["downloaded"]) for pk in session["pks"])


def test_hostile_calls_are_tool_errors_and_change_nothing(session: dict[str, Any],
                                                          pg_pool: Any) -> None:  # fmt: skip
    for (name, args), result in zip(HOSTILE, session["hostile"], strict=True):
        assert result.is_error, (name, args, text_of(result)[:200])
        body = json.loads(text_of(result))
        assert body["status"] == "error" and body["error"] and body["retry_hint"], name
        assert "Traceback" not in text_of(result)
        if name in ("sql_query", "cypher_query", "graph_query"):  # the guard's reason in Korean
            assert "is not allowed" not in body["error"] and "clause" not in body["error"], body
    row = fetch_one("SELECT count(*) AS n FROM etfs WHERE code = '069500' AND name = 'KODEX 200'",
                    pool=pg_pool)  # fmt: skip
    assert row and row["n"] == 1


def mcp_server(kind: str, stores: Stores, config: ApiConfig) -> tuple[Any, McpApp | None]:
    """The streamable HTTP transport as `python -m api.mcp --transport http` serves it, or at
    /mcp inside the API (`python -m api`: built on the first /mcp request, closed with the
    server), on the same stores as the API's routes."""
    if kind == "standalone":
        mcp_app = McpApp(stores)
        return mcp_app.http_app(config), mcp_app
    return create_app(config, stores), None


@pytest.mark.parametrize("kind", ["standalone", "api"])
def test_streamable_http_behind_the_token(settings: Any, services: Any, kind: str) -> None:
    stores = Stores(settings, info=services)
    config = ApiConfig(token=TOKEN, rate_limit_per_min=0)
    asgi, mcp_app = mcp_server(kind, stores, config)
    with BackgroundServer(asgi) as server:
        url = f"{server.url}/mcp"
        refused = httpx.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
        assert refused.status_code == 401 and refused.json()["status"] == "error"
        auth = {"Authorization": f"Bearer {TOKEN}"}
        foreign = httpx.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                             headers={**auth, "Origin": "http://evil.example"})  # fmt: skip
        assert foreign.status_code == 403 and "evil.example" in foreign.json()["error"]
        rebound = httpx.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                             headers={**auth, "Host": "evil.example"})  # fmt: skip
        assert rebound.status_code == 403

        async def run() -> tuple[int, str, str]:
            http = create_mcp_http_client(headers=auth)
            async with http, Client(streamable_http_client(url, http_client=http)) as client:
                listed = await client.list_tools()
                result = await client.call_tool("calculator_tool", {"expression": "(1 + 2) * 3"})
                found = await client.call_tool("stock_search", {"query": "삼성전자"})
                return len(listed.tools), text_of(result), text_of(found)

        count, text, found = run_in_thread(run)
        if mcp_app is None:  # inside the API: its routes answer beside /mcp, on one Stores
            assert httpx.get(f"{server.url}/healthz", headers=auth).status_code == 200
            loaded = asgi.state.mcp.mcp
            assert loaded is not None and loaded.stores is stores
    if mcp_app is not None:
        mcp_app.close()
    assert count >= sum(len(names) for names in SEED_TOOLS.values())
    assert json.loads(text)["result"] == 9.0
    assert "005930" in found
