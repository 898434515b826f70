"""The Macro supervisor's web-search fallback (seed 004 §2.2, §3.F-3) with Tavily as provider.

Tavily is replaced by a small local HTTP server standing in for its `/search` endpoint
(tests/fixtures/tavily_stand_in.py: a hand-written response in Tavily's shape, requests kept); with the provider
down, the base URL points at a closed port. Everything else is real: the supervisor graph, the
stores, httpx. The turns run without a model (the fallback is the supervisor's, not a model's).
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import SecretStr

from agents.macro.service import answer_question, make_context
from data_access.config import Settings
from data_access.contracts import AgentAnswer
from tests.fixtures.tavily_stand_in import TavilyStandIn

pytestmark = pytest.mark.usefixtures("demo_data")

KEY = "tvly-replay-key-123456"
CPI = "한국 소비자물가 최근 6개월 추이를 보여줘"
RESULTS: dict[str, Any] = {"query": CPI, "results": [
    {"title": "10월 소비자물가 2.1% 상승", "url": "https://news.example.kr/cpi-2026-10",
     "content": "통계청이 발표한 10월 소비자물가지수는 전년 동월 대비 2.1% 올랐다.",
     "score": 0.91, "published_date": "2026-11-03"},
    {"title": "물가 둔화 흐름 이어져", "url": "https://news.example.kr/cpi-trend",
     "content": "근원물가 상승률이 석 달째 낮아졌다.", "score": 0.84},
]}  # fmt: skip


@pytest.fixture
def tavily() -> Iterator[TavilyStandIn]:
    with TavilyStandIn(RESULTS["results"]) as stand_in:
        yield stand_in


def _closed_port() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{s.getsockname()[1]}"


def ask(base_url: str, settings: Settings, pg_pool: Any, graph_store: Any,
        stale: bool = True) -> AgentAnswer:  # fmt: skip
    s = settings.model_copy(update={"tavily_api_key": SecretStr(KEY), "tavily_base_url": base_url,
                                    "llm_model": None, "llm_model_macro": None})  # fmt: skip
    ctx = make_context(s, pg_pool, graph_store)
    if stale:
        ctx.freshness = {**ctx.freshness, "macro": "stale"}
    return answer_question(CPI, settings=s, pool=pg_pool, store=graph_store, context=ctx)


def test_stale_evidence_gets_one_web_search_cited_as_documents(
    tavily: TavilyStandIn, settings: Settings, pg_pool: Any, graph_store: Any
) -> None:
    answer = ask(tavily.base_url, settings, pg_pool, graph_store)
    assert len(tavily.requests) == 1  # budget: one call per turn
    sent = tavily.requests[0]
    assert sent["path"] == "/search" and sent["auth"] == f"Bearer {KEY}"
    assert sent["body"]["query"] == CPI
    web = [c for c in answer.citations if c.doc_id.startswith("web:")]
    assert [c.url for c in web] == [r["url"] for r in RESULTS["results"]]
    assert all(c.title.startswith("[웹] ") for c in web)
    # never in the structured citations, which keep the SQL behind the numbers
    assert not any("example.kr" in json.dumps(c.model_dump()) for c in answer.structured_citations)
    assert any(c.dataset_code == "KR_CPI" for c in answer.structured_citations)
    assert "[웹] 10월 소비자물가 2.1% 상승" in answer.answer and "최신성 경고" in answer.answer
    info = answer.payload["web_fallback"]
    assert info["calls"] == 1 and info["status"] == "ok" and info["provider"] == "tavily"
    step = next(t for t in answer.trace if t.name == "web_search:tavily")
    assert step.status == "ok" and KEY not in json.dumps(answer.model_dump(mode="json"))


def test_fresh_evidence_makes_no_web_call(
    tavily: TavilyStandIn, settings: Settings, pg_pool: Any, graph_store: Any
) -> None:
    answer = ask(tavily.base_url, settings, pg_pool, graph_store, stale=False)
    assert not tavily.requests and not answer.payload["web_fallback"]["requested"]


def test_provider_down_answers_from_internal_evidence(
    settings: Settings, pg_pool: Any, graph_store: Any
) -> None:
    answer = ask(_closed_port(), settings, pg_pool, graph_store)
    info = answer.payload["web_fallback"]
    assert info["calls"] == 1 and info["status"] == "error"
    assert "웹 검색에 실패해 내부 근거만으로 답했습니다" in answer.answer
    assert not [c for c in answer.citations if c.doc_id.startswith("web:")]
    assert any(c.dataset_code == "KR_CPI" for c in answer.structured_citations)
    step = next(t for t in answer.trace if t.name == "web_search:tavily")
    assert step.status == "error" and "ConnectError" in (step.error or "")
    assert KEY not in json.dumps(answer.model_dump(mode="json"))
