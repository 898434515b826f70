"""Web-search fallback (seed 004 §2.2, §3.F-3): one provider interface, Tavily first.

    search = TurnWebSearch(provider_from_settings(settings))   # None when no key is configured
    result = search.run("한국 기준금리 전망")                    # at most one call per turn
    result.status, result.documents, web_citations(result)

The supervisor calls it once per turn at most (`budget=1`), when the agents' internal evidence is
missing or stale. Results are documents: they become `citations` (doc_id `web:…`, with URL),
never `structured_citations`. A provider that is down, slow or refuses the key gives
`status="error"` with a Korean reason, and the answer rests on internal evidence only (§3.F-3).

Tavily is called over plain HTTP (httpx; the `tavily-python` package is not a dependency):
`POST {base}/search` with the key as a bearer token. The key comes from settings
(`TAVILY_API_KEY`, or `tavily_api_key` in .streamlit/secrets.toml) and is redacted from every
error text.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass, field
from typing import Literal, Protocol

import httpx

from agents.evidence import Stopwatch
from data_access.config import Settings
from data_access.contracts import Citation
from data_access.errors import WorkbenchError
from data_access.secrets import redact

logger = logging.getLogger(__name__)

TAVILY_BASE_URL = "https://api.tavily.com"
TIMEOUT_S = 8.0
MAX_RESULTS = 5
WEB_PREFIX = "web:"


class WebSearchFailed(WorkbenchError):
    """The provider could not be reached or refused the request."""


@dataclass(frozen=True)
class WebDocument:
    url: str
    title: str
    snippet: str = ""
    published: str | None = None
    score: float | None = None


class WebSearchProvider(Protocol):
    name: str

    def search(self, query: str, max_results: int = MAX_RESULTS) -> list[WebDocument]: ...


@dataclass
class WebSearchResult:
    provider: str | None
    query: str
    status: Literal["ok", "error", "skipped"]
    documents: list[WebDocument] = field(default_factory=list)
    error: str | None = None
    duration_ms: int = 0


class TavilyProvider:
    """Tavily's search endpoint over HTTP."""

    name = "tavily"

    def __init__(self, api_key: str, base_url: str = TAVILY_BASE_URL,
                 timeout_s: float = TIMEOUT_S) -> None:  # fmt: skip
        self._key = api_key
        self.base_url = base_url.rstrip("/")
        self.timeout_s = timeout_s

    def search(self, query: str, max_results: int = MAX_RESULTS) -> list[WebDocument]:
        body = {"query": query, "max_results": max_results, "search_depth": "basic",
                "include_answer": False}  # fmt: skip
        try:
            response = httpx.post(f"{self.base_url}/search", json=body, timeout=self.timeout_s,
                                  headers={"Authorization": f"Bearer {self._key}"})  # fmt: skip
            response.raise_for_status()
            results = response.json().get("results") or []
        except (httpx.HTTPError, ValueError, AttributeError) as e:
            raise WebSearchFailed(redact(f"{type(e).__name__}: {e}", [self._key])[:300]) from e
        return [_document(r) for r in results[:max_results] if isinstance(r, dict) and r.get("url")]


def _document(row: dict[str, object]) -> WebDocument:
    score = row.get("score")
    return WebDocument(url=str(row["url"]), title=str(row.get("title") or row["url"])[:200],
                       snippet=" ".join(str(row.get("content") or "").split())[:400],
                       published=str(row["published_date"])[:10] if row.get("published_date") else None,
                       score=float(score) if isinstance(score, int | float) else None)  # fmt: skip


def provider_from_settings(settings: Settings) -> WebSearchProvider | None:
    """Tavily when its key is set (TAVILY_BASE_URL may point elsewhere, e.g. a test server)."""
    if settings.tavily_api_key is None:
        return None
    return TavilyProvider(settings.tavily_api_key.get_secret_value(),
                          settings.tavily_base_url or TAVILY_BASE_URL)  # fmt: skip


class TurnWebSearch:
    """One turn's web search with its budget (seed §2.2: N=1 for the whole turn)."""

    def __init__(self, provider: WebSearchProvider | None, budget: int = 1) -> None:
        self.provider = provider
        self.budget = budget
        self.calls = 0

    def run(self, query: str) -> WebSearchResult:
        name = self.provider.name if self.provider else None
        if self.provider is None:
            return WebSearchResult(
                name, query, "skipped", error="웹 검색 제공자가 설정되지 않았습니다"
            )
        if self.calls >= self.budget:
            return WebSearchResult(
                name, query, "skipped", error="이번 질문의 웹 검색 예산(1회)을 이미 썼습니다"
            )
        self.calls += 1
        watch = Stopwatch()
        try:
            documents = self.provider.search(query)
        except WebSearchFailed as e:
            logger.warning("web search (%s) failed: %s", name, e)
            return WebSearchResult(name, query, "error", error=f"웹 검색 실패: {e}",
                                   duration_ms=watch.ms)  # fmt: skip
        return WebSearchResult(name, query, "ok", documents, duration_ms=watch.ms)


def web_citations(result: WebSearchResult) -> list[Citation]:
    """Web documents as document citations (never structured citations)."""
    return [Citation(doc_id=WEB_PREFIX + hashlib.sha1(d.url.encode()).hexdigest()[:12],
                     title=f"[웹] {d.title}", url=d.url) for d in result.documents]  # fmt: skip
