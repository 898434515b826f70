"""agents/websearch.py against a local HTTP server standing in for Tavily's /search (hand-written
responses): parsing, the one-call budget, and a refused key that never reaches the error text."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from agents.websearch import TavilyProvider, TurnWebSearch, web_citations

KEY = "tvly-unit-secret-987654"


@pytest.fixture
def server() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    seen: list[dict[str, Any]] = []

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            return

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            seen.append(body)
            if body["query"] == "refused":  # Tavily-style 401 that echoes the key
                status, data = 401, {"detail": {"error": f"Unauthorized: invalid key {KEY}"}}
            else:
                status, data = 200, {"results": [
                    {"title": "A", "url": "https://a.example/1", "content": "x " * 300},
                    {"title": "", "url": "https://b.example/2"}, {"title": "no url"}]}  # fmt: skip
            raw = json.dumps(data).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", seen
    httpd.shutdown()
    httpd.server_close()


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
