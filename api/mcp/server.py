"""The MCP server over `registry.build_tools`: `tools/list` and `tools/call`, stdio or HTTP.

    server = McpApp(stores)                         # or McpApp(None): stores opened on first use
    await server.server.run(read, write, ...)       # python -m api.mcp (stdio)
    app = server.http_app(config)                   # python -m api.mcp --transport http

Start-up is light on purpose (an MCP client waits for `initialize` before anything else). Over
stdio, `initialize`, `tools/list` and `ping` are answered by api.mcp.front before this module
and the SDK are even imported (about a second of CPU); then this server takes over the session.
This module imports only the `mcp` SDK and the tool catalog (`catalog.json`: names, descriptions and
input schemas, written from the agents' tool classes by `python -m api.mcp.catalog --write` and
checked against them by tests/unit/test_mcp_catalog.py). The agents, the stores and the live
tools load in a worker thread on the first `tools/list` or `tools/call`, so `initialize` and the
tool list answer at once and the first call waits only for what it needs.

Every tool is read-only (annotated so); a call runs in a worker thread and answers its JSON as
text content plus `structuredContent`, with `isError` set for the tool-error form. The HTTP
transport sits behind the API's own walls (`api.security.GuardMiddleware`: rate limit, bearer
token when API_TOKEN is set, request size). The SDK's own JSON-RPC errors (unknown method, bad
params, malformed JSON) go out in Korean in the same error shape (`api.mcp.errors`).
"""

from __future__ import annotations

import json
import logging
import threading
from typing import TYPE_CHECKING, Any

import anyio
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server

from api.mcp.catalog import load_catalog
from api.mcp.front import INSTRUCTIONS, NAME, VERSION

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from starlette.types import ASGIApp

    from api.config import ApiConfig
    from api.mcp.registry import McpTool, OpeningCaches
    from api.stores import Stores

logger = logging.getLogger(__name__)

PATH = "/mcp"


def tool_error(error: str, retry_hint: str) -> dict[str, Any]:
    return {"status": "error", "error": error, "retry_hint": retry_hint}


def _result(value: Any) -> types.CallToolResult:
    text = json.dumps(value, ensure_ascii=False, default=str)
    structured = value if isinstance(value, dict) else {"result": json.loads(text)}
    failed = isinstance(value, dict) and value.get("status") == "error"
    return types.CallToolResult(content=[types.TextContent(text=text)],
                                structured_content=structured, is_error=failed)  # fmt: skip


class McpApp:
    def __init__(self, stores: Stores | None = None) -> None:
        self._stores = stores
        self._caches: OpeningCaches | None = None
        self._tools: dict[str, McpTool] | None = None
        self._lock = threading.Lock()
        self.catalog = load_catalog()
        self.server: Server[Any] = Server(NAME, version=VERSION, instructions=INSTRUCTIONS,
                                          on_list_tools=self._list, on_call_tool=self._call)  # fmt: skip

    @property
    def stores(self) -> Stores:
        """The stores, opened (embedded servers started if need be) on first use."""
        with self._lock:
            if self._stores is None:
                from api.stores import Stores
                from data_access.config import get_settings

                self._stores = Stores.open(get_settings())
            return self._stores

    @property
    def tools(self) -> dict[str, McpTool]:
        """The live tools (the agents' tool classes, bound to the stores), built on first use."""
        stores = self.stores
        with self._lock:
            if self._tools is None:
                from api.mcp.registry import OpeningCaches, build_tools

                self._caches = OpeningCaches(stores)
                self._tools = build_tools(stores, self._caches)
            return self._tools

    def warm_up(self) -> None:
        """Load the tools in the background (returns at once); errors surface on a call."""

        def load() -> None:
            try:
                self.tools  # noqa: B018  # built and cached by the property
            except Exception:
                logger.exception("MCP tools failed to load")

        threading.Thread(target=load, name="mcp-warm-up", daemon=True).start()

    async def _list(self, ctx: ServerRequestContext[Any],
                    params: types.PaginatedRequestParams | None) -> types.ListToolsResult:  # fmt: skip
        if self._tools is None:
            self.warm_up()  # a client lists, then calls: start loading now
        read_only = types.ToolAnnotations(read_only_hint=True, destructive_hint=False)
        return types.ListToolsResult(tools=[
            types.Tool(name=t["name"], description=t["description"],
                       input_schema=t["input_schema"], annotations=read_only)
            for t in self._entries()
        ])  # fmt: skip

    def _entries(self) -> list[dict[str, Any]]:
        """The live tools once loaded (so the list can never disagree with what a call checks),
        the catalog before that."""
        if self._tools is None:
            return self.catalog
        return [{"name": t.name, "description": t.description, "input_schema": t.input_schema}
                for t in self._tools.values()]  # fmt: skip

    async def _call(self, ctx: ServerRequestContext[Any],
                    params: types.CallToolRequestParams) -> types.CallToolResult:  # fmt: skip
        name = params.name
        if name not in {t["name"] for t in self._entries()}:
            return _result(tool_error(f"알 수 없는 도구입니다: {name[:80]}",
                                      "tools/list로 도구 이름을 확인하세요."))  # fmt: skip
        arguments = params.arguments or {}
        try:
            value = await anyio.to_thread.run_sync(self._run, name, arguments)
        except Exception:  # an unexpected failure is a tool error, never a traceback to the client
            logger.exception("MCP tool %s failed", name)
            value = tool_error(f"{name} 실행 중 내부 오류가 발생했습니다.",
                               "잠시 후 다시 시도하고, 계속되면 서버 로그를 확인하세요.")  # fmt: skip
        return _result(value)

    def _run(self, name: str, arguments: Any) -> Any:
        return self.tools[name].call(arguments)

    def http_app(self, config: ApiConfig) -> ASGIApp:
        """Streamable HTTP at /mcp behind the API's rate limit, token and size walls (the
        standalone `python -m api.mcp --transport http`; its lifespan runs the sessions)."""
        from api.mcp.errors import KoreanJsonErrors
        from api.security import GuardMiddleware

        return GuardMiddleware(KoreanJsonErrors(self.streamable(config)), config)

    def streamable(self, config: ApiConfig) -> Starlette:
        """The SDK's streamable HTTP app at /mcp: JSON responses, the API's body limit, and on
        loopback the SDK's own Host/Origin check (DNS rebinding). Its lifespan runs the MCP
        sessions (api.mcp.mount enters it when the app is served inside the API)."""
        return self.server.streamable_http_app(streamable_http_path=PATH, host=config.host,
                                               json_response=True,
                                               max_request_body_size=config.max_body_bytes)  # fmt: skip

    def close(self) -> None:
        if self._caches is not None:
            self._caches.clean()
