"""The FastAPI application: agent endpoints, stored work, operations, behind the API's walls.

    app = create_app(ApiConfig(), Stores.open(get_settings()))
    uvicorn.run(app, host="127.0.0.1", port=8600)       # what `python -m api` does

With `config.scheduler` (what `python -m api` sets) the weekly KPI report runs on its schedule
while the server runs (api.schedule). With `config.mcp` (the default) the MCP server answers
streamable HTTP at /mcp in the same process, on the same stores, behind the same walls
(api.mcp.mount: the `mcp` SDK and the tools load on the first /mcp request). OpenAPI docs at /docs and /redoc (request and response models with Korean and English
examples), served from local files.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager

from fastapi import FastAPI
from fastapi_offline import FastAPIOffline
from starlette.routing import Route

from api import errors
from api.config import ApiConfig
from api.mcp.mount import MCP_PATH, McpMount
from api.memory import HeapTrimmer
from api.routes_admin import router as admin_router
from api.routes_agents import router as agents_router
from api.routes_store import router as store_router
from api.security import GuardMiddleware
from api.stores import Stores

DESCRIPTION = """Atlas Workbench의 다섯 에이전트(ETF 챗, 매크로 Q&A, 계약 조항, 종목 리포트,
오프닝 스크립트)를 화면과 같은 서비스 함수로 호출합니다. 답변은 공통 계약(answer, status, mode,
as_of_date, data_freshness, citations, structured_citations, trace, tokens, cost)을 따르고,
`…/stream` 엔드포인트는 단계가 끝날 때마다 Server-Sent Events로 보냅니다 (seed 000).

The five agents of the workbench over HTTP, through the same service functions as the screens.
Loopback only by default; beyond loopback every request needs `Authorization: Bearer <API_TOKEN>`."""


def create_app(config: ApiConfig, stores: Stores) -> FastAPI:
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        """The weekly KPI report's scheduler (when configured), the MCP sessions and the heap
        trimmer (api.memory) run while the server does."""
        from api.schedule import WeeklyReportScheduler, parse_at

        at = parse_at(config.weekly_report_at) if config.scheduler else None
        scheduler = WeeklyReportScheduler(stores, at) if at else None
        app.state.scheduler = scheduler
        if scheduler is not None:
            scheduler.start()
        try:
            async with AsyncExitStack() as stack:
                stack.enter_context(HeapTrimmer(config.trim_every_s))
                if app.state.mcp is not None:
                    await stack.enter_async_context(app.state.mcp.running())
                yield
        finally:
            if scheduler is not None:
                scheduler.stop()

    # Swagger UI and ReDoc from the fastapi-offline wheel: /docs works without a CDN.
    app = FastAPIOffline(title="Atlas Workbench API", version="1.0", description=DESCRIPTION,
                         lifespan=lifespan)  # fmt: skip
    app.state.config = config
    app.state.stores = stores
    app.state.scheduler = None
    errors.install(app)
    for router in (agents_router, store_router, admin_router):
        app.include_router(router)
    app.state.mcp = McpMount(stores, config) if config.mcp else None
    if app.state.mcp is not None:  # MCP over streamable HTTP, loaded on its first request
        app.router.routes.append(Route(MCP_PATH, endpoint=app.state.mcp))
    app.add_middleware(GuardMiddleware, config=config)
    return app
