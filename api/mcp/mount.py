"""The MCP server at /mcp inside the API's process, loaded on the first /mcp request.

    mount = McpMount(stores, config)
    app.router.routes.append(Route("/mcp", endpoint=mount))   # api.app.create_app does this
    async with mount.running(): ...                           # in the API's lifespan

One process then holds one set of stores and one Kiwi for the screens' routes and for MCP
clients, behind the same walls (api.security.GuardMiddleware: rate limit, token, Host/Origin,
body size). The `mcp` SDK (about 23 MB resident) and the live tools load only when a client
first calls /mcp: an API nobody reaches over MCP does not carry them. The SDK's session manager
then runs in a task of the API's lifespan, so it stops with the server.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

import anyio
from anyio.abc import TaskGroup, TaskStatus
from starlette.types import ASGIApp, Receive, Scope, Send

from api.config import ApiConfig
from api.errors import error_body

MCP_PATH = "/mcp"  # the same path as the standalone server's (api.mcp.server.PATH)

if TYPE_CHECKING:
    from starlette.applications import Starlette

    from api.mcp.server import McpApp
    from api.stores import Stores


class McpMount:
    """An ASGI app for the /mcp route that builds the MCP server on first use."""

    def __init__(self, stores: Stores, config: ApiConfig) -> None:
        self.stores = stores
        self.config = config
        self.mcp: McpApp | None = None  # built on the first /mcp request
        self._asgi: ASGIApp | None = None
        self._group: TaskGroup | None = None
        self._lock: anyio.Lock | None = None

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """While the API serves: the task group the MCP sessions will run in."""
        async with anyio.create_task_group() as group:
            self._group, self._lock = group, anyio.Lock()
            try:
                yield
            finally:
                self._group = None
                group.cancel_scope.cancel()
        if self.mcp is not None:
            self.mcp.close()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        app = await self._loaded()
        if app is None:
            await _not_running(send)
            return
        await app(scope, receive, send)

    async def _loaded(self) -> ASGIApp | None:
        if self._asgi is None and self._lock is not None:
            async with self._lock:
                if self._asgi is None:
                    await self._start()
        return self._asgi

    async def _start(self) -> None:
        # the SDK's import takes ~0.5 s of CPU: off the event loop, which keeps serving
        server = await anyio.to_thread.run_sync(importlib.import_module, "api.mcp.server")
        errors = importlib.import_module("api.mcp.errors")
        mcp: McpApp = server.McpApp(self.stores)
        inner = mcp.streamable(self.config)
        group = self._group
        if group is None:  # the server is stopping
            return
        await group.start(_serve, inner)
        self.mcp, self._asgi = mcp, errors.KoreanJsonErrors(inner)


async def _serve(inner: Starlette, *, task_status: TaskStatus[None]) -> None:
    """Run the SDK app's lifespan (its session manager) until the API stops."""
    async with inner.router.lifespan_context(inner):
        task_status.started()
        await anyio.sleep_forever()


async def _not_running(send: Send) -> None:
    body = json.dumps(error_body("MCP 서버가 실행 중이 아닙니다.",
                                 "API 서버가 완전히 시작된 뒤 다시 시도하세요."),
                      ensure_ascii=False).encode()  # fmt: skip
    headers: list[Any] = [(b"content-type", b"application/json"),
                          (b"content-length", str(len(body)).encode())]  # fmt: skip
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": body})
