"""The MCP server over `registry.build_tools`: `tools/list` and `tools/call`, stdio or HTTP.

    server = McpApp(stores)
    await server.server.run(read, write, ...)       # python -m api.mcp (stdio)
    app = server.http_app(config)                   # python -m api.mcp --transport http

Every tool is read-only (annotated so); a call runs in a worker thread and answers its JSON as
text content plus `structuredContent`, with `isError` set for the tool-error form. The HTTP
transport sits behind the API's own walls (`api.security.GuardMiddleware`: rate limit, bearer
token when API_TOKEN is set, request size).
"""

from __future__ import annotations

import json
import logging
from typing import Any

import anyio
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from starlette.types import ASGIApp

from api.config import ApiConfig
from api.mcp.registry import McpTool, OpeningCaches, build_tools, is_error, tool_error
from api.security import GuardMiddleware
from api.stores import Stores

logger = logging.getLogger(__name__)

NAME = "atlas-workbench"
INSTRUCTIONS = (
    "Atlas Workbench 데이터 도구: 국내 ETF(보유종목·태그·가격), 주식, 뉴스, 계약서 조항, 읽기 전용 SQL/Cypher. "
    "모든 도구는 읽기 전용이며 오류는 {status: 'error', error, retry_hint}로 돌아옵니다."
)


def _result(value: Any) -> types.CallToolResult:
    text = json.dumps(value, ensure_ascii=False, default=str)
    structured = value if isinstance(value, dict) else {"result": json.loads(text)}
    return types.CallToolResult(content=[types.TextContent(text=text)],
                                structured_content=structured, is_error=is_error(value))  # fmt: skip


class McpApp:
    def __init__(self, stores: Stores) -> None:
        self.stores = stores
        self.caches = OpeningCaches(stores)
        self.tools: dict[str, McpTool] = build_tools(stores, self.caches)
        self.server: Server[Any] = Server(NAME, version="1.0", instructions=INSTRUCTIONS,
                                          on_list_tools=self._list, on_call_tool=self._call)  # fmt: skip

    async def _list(self, ctx: ServerRequestContext[Any],
                    params: types.PaginatedRequestParams | None) -> types.ListToolsResult:  # fmt: skip
        read_only = types.ToolAnnotations(read_only_hint=True, destructive_hint=False)
        return types.ListToolsResult(tools=[
            types.Tool(name=t.name, description=t.description, input_schema=t.input_schema,
                       annotations=read_only)
            for t in self.tools.values()
        ])  # fmt: skip

    async def _call(self, ctx: ServerRequestContext[Any],
                    params: types.CallToolRequestParams) -> types.CallToolResult:  # fmt: skip
        tool = self.tools.get(params.name)
        if tool is None:
            return _result(tool_error(f"알 수 없는 도구입니다: {params.name[:80]}",
                                      "tools/list로 도구 이름을 확인하세요."))  # fmt: skip
        arguments = dict(params.arguments or {})
        try:
            value = await anyio.to_thread.run_sync(tool.call, arguments)
        except Exception:  # an unexpected failure is a tool error, never a traceback to the client
            logger.exception("MCP tool %s failed", tool.name)
            value = tool_error(
                f"{tool.name} 실행 중 내부 오류가 발생했습니다.", "서버 로그를 확인하세요."
            )
        return _result(value)

    def http_app(self, config: ApiConfig) -> ASGIApp:
        """Streamable HTTP at /mcp behind the API's rate limit, token and size walls."""
        app = self.server.streamable_http_app(host=config.host, json_response=True,
                                              max_request_body_size=config.max_body_bytes)  # fmt: skip
        return GuardMiddleware(app, config)

    def close(self) -> None:
        self.caches.clean()
