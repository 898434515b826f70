"""agents/websearch.py against a local HTTP server standing in for Tavily's /search
(tests/fixtures/tavily_stand_in.py, hand-written responses): parsing, the one-call budget, and a
refused key that never reaches the error text."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from agents.websearch import TavilyProvider, TurnWebSearch, web_citations
from tests.fixtures.tavily_stand_in import TavilyStandIn

KEY = "tvly-unit-secret-987654"


RESULTS = [{"title": "A", "url": "https://a.example/1", "content": "x " * 300},
           {"title": "", "url": "https://b.example/2"}, {"title": "no url"}]  # fmt: skip


@pytest.fixture
def server() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    with TavilyStandIn(RESULTS, refuse=["refused"], key=KEY) as stand_in:
        yield stand_in.base_url, stand_in.requests


def test_results_become_document_citations_within_one_call(server: Any) -> None:
    url, seen = server
    search = TurnWebSearch(TavilyProvider(KEY, url))
    result = search.run("한국 기준금리")
    assert result.status == "ok" and [d.url for d in result.documents] == [
        "https://a.example/1", "https://b.example/2"]  # fmt: skip
    assert len(result.documents[0].snippet) <= 400 and result.documents[1].title.startswith("https")
    citations = web_citations(result)
    assert all(c.doc_id.startswith("web:") and c.title.startswith("[웹] ") for c in citations)
    again = search.run("또 검색")
    assert again.status == "skipped" and "1회" in (again.error or "") and len(seen) == 1


def test_a_refused_key_is_an_error_without_the_key(server: Any) -> None:
    url, _ = server
    result = TurnWebSearch(TavilyProvider(KEY, url)).run("refused")
    assert result.status == "error" and "401" in (result.error or "")
    assert KEY not in (result.error or "")
    assert TurnWebSearch(None).run("x").status == "skipped"
