"""FastAPI dependencies: the process's stores and API settings, kept on `app.state`."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from api.config import ApiConfig
from api.stores import Stores


def get_stores(request: Request) -> Stores:
    stores: Stores = request.app.state.stores
    return stores


def get_config(request: Request) -> ApiConfig:
    config: ApiConfig = request.app.state.config
    return config


StoresDep = Annotated[Stores, Depends(get_stores)]
ConfigDep = Annotated[ApiConfig, Depends(get_config)]
