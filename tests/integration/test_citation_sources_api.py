"""Citation sources over the HTTP API (issue 35): with a real OpenDART 주요계정 answer imported,
the stock report and the Macro answer the API sends cite it with OpenDART named as its source,
the demo data's citations name the demo, and the OpenAPI document declares the field.
A real uvicorn server on a loopback port, the test stores with the demo data, offline.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from api.app import create_app
from api.background import BackgroundServer
from api.config import ApiConfig
from api.stores import Stores
from data_access.publishers import DEMO, OPENDART
from tests.integration.test_import_dart_stock_report import imported  # noqa: F401

pytestmark = pytest.mark.usefixtures("demo_data")


@pytest.fixture(scope="module")
def client(demo_data: Any, settings: Any, services: Any) -> Iterator[httpx.Client]:
    app = create_app(ApiConfig(rate_limit_per_min=0), Stores(settings, info=services))
    with BackgroundServer(app) as server, httpx.Client(base_url=server.url, timeout=120) as c:
        yield c


def _by_table(data: dict[str, Any], table: str) -> list[dict[str, Any]]:
    return [c for c in data["structured_citations"] if c["table"] == table]


@pytest.mark.usefixtures("imported")
def test_the_api_sends_each_citations_source(client: httpx.Client) -> None:
    report = client.post("/api/stock/report", json={"symbol": "삼성전자"}).json()
    [accounts] = _by_table(report, "dart_financial_accounts")
    assert (accounts["dataset_code"], accounts["source"]) == ("DART_SINGLE_ACCOUNTS", OPENDART)
    assert {c["source"] for c in _by_table(report, "stock_prices")} == {DEMO}
    assert "## 공시 재무 (OpenDART 단일회사 주요계정)" in report["answer"]
    assert all(d["source"] for d in report["citations"])  # the news outlets
    macro = client.post("/api/macro/message", json={"message": "삼성전자 실적"}).json()
    [accounts] = _by_table(macro, "dart_financial_accounts")
    assert accounts["source"] == OPENDART
    assert all(c["source"] for c in macro["structured_citations"])
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    assert "source" in schemas["StructuredCitation"]["properties"]
    assert "source" in schemas["Citation"]["properties"]
