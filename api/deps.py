"""FastAPI dependencies: the process's stores and API settings, kept on `app.state`.

Both are `async`: FastAPI runs a plain `def` dependency on a worker thread, two thread hand-offs
per request before the route runs, each a wait for a core on a busy machine (issue 34)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from api.config import ApiConfig
from api.stores import Stores


async def get_stores(request: Request) -> Stores:
    stores: Stores = request.app.state.stores
    return stores


async def get_config(request: Request) -> ApiConfig:
    config: ApiConfig = request.app.state.config
    return config


StoresDep = Annotated[Stores, Depends(get_stores)]
ConfigDep = Annotated[ApiConfig, Depends(get_config)]
