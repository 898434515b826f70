"""The HTTP API against a real uvicorn server on a free loopback port (httpx as the client), the
real test stores with the demo data, the offline planner: every endpoint, SSE event order and
shapes against seed 000, conversation continuity over the API and its appearance on the ETF
screen (AppTest), hostile and oversized input. One server for the module.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from api.app import create_app
from api.background import BackgroundServer
from api.config import ApiConfig
from api.stores import Stores
from api.streaming import parse_sse
from data_access.postgres import fetch_all, fetch_one

APP = str(Path(__file__).resolve().parents[2] / "app.py")
SEED_STEP_KEYS = {"step_number", "code", "observations", "tool_calls", "error"}
CONTRACT = "sample-user-provide"


@pytest.fixture(scope="module")
def client(demo_data: Any, settings: Any, services: Any) -> Iterator[httpx.Client]:
    # Stores(info=…) rather than Stores.open: the test process keeps its right to start servers.
    app = create_app(ApiConfig(rate_limit_per_min=0), Stores(settings, info=services))
    with BackgroundServer(app) as server, httpx.Client(base_url=server.url, timeout=120) as c:
        yield c


def stream(client: httpx.Client, path: str, body: dict[str, Any]) -> list[tuple[str, Any]]:
    with client.stream("POST", path, json=body) as response:
        assert response.status_code == 200, response.read()
        assert response.headers["content-type"].startswith("text/event-stream")
        return list(parse_sse(response.iter_lines()))


def check_answer_contract(data: dict[str, Any]) -> None:
    for key in ("answer", "status", "mode", "as_of_date", "data_freshness", "citations",
                "structured_citations", "trace", "tokens", "cost_usd"):  # fmt: skip
        assert key in data, key
    assert data["answer"] and data["mode"] == "offline" and data["tokens"] == 0


def runs_with(question: str, pg_pool: Any) -> int:
    row = fetch_one(
        "SELECT count(*) AS n FROM agent_runs WHERE question = %s", (question,), pg_pool
    )
    return int(row["n"]) if row else 0


# ---------------------------------------------------------------- ETF chat (seed 000)


def test_chat_message_answers_with_the_contract_and_is_stored(client: httpx.Client,
                                                              pg_pool: Any) -> None:  # fmt: skip
    response = client.post("/api/chat/message", json={"message": "KODEX 200과 TIGER 200 비교해줘"})
    assert response.status_code == 200
    data = response.json()
    check_answer_contract(data)
    assert data["status"] == "ok" and "069500" in json.dumps(data, ensure_ascii=False)
    assert "compare_etfs" in [t["name"] for t in data["trace"] if t["kind"] == "tool"]
    assert data["structured_citations"] and data["conversation_id"] and data["run_id"]
    stored = client.get(f"/api/runs/{data['run_id']}").json()
    assert stored["screen"] == "etf" and stored["answer"]["answer"] == data["answer"]
    assert stored["conversation_id"] == data["conversation_id"]


def test_stream_sends_seed_000_steps_then_one_answer(client: httpx.Client) -> None:
    events = stream(
        client, "/api/chat/message/stream", {"message": "삼성전자를 가장 많이 보유한 ETF는?"}
    )
    kinds = [kind for kind, _ in events if kind != "comment"]
    assert kinds[-1] == "answer" and kinds.count("answer") == 1 and kinds[0] == "step"
    assert set(kinds) == {"step", "answer"}
    steps = [data for kind, data in events if kind == "step"]
    for frame in steps:
        assert frame["type"] == "step" and set(frame["data"]) >= SEED_STEP_KEYS
    numbers = [f["data"]["step_number"] for f in steps]
    assert numbers == sorted(numbers) and numbers[0] == 1
    received = steps[0]["data"]  # sent before the agent runs: what was asked, not yet a result
    assert received["kind"] == "received" and not received["tool_calls"]
    assert "새 대화" in received["observations"] and "삼성전자를 가장" in received["observations"]
    assert any(f["data"]["tool_calls"] for f in steps)
    answer = events[-1][1]
    assert answer["type"] == "answer"
    check_answer_contract(answer["data"])
    assert "삼성전자" in answer["data"]["answer"] and answer["data"]["conversation_id"]


def test_conversation_continues_over_the_api_and_shows_on_the_etf_screen(
    client: httpx.Client, pg_pool: Any
) -> None:
    first = client.post("/api/chat/message", json={"message": "KODEX 200 정보 알려줘"}).json()
    cid = first["conversation_id"]
    events = stream(client, "/api/chat/message/stream",
                    {"message": "KODEX 200 3개월 가격 추이", "conversation_id": cid})  # fmt: skip
    assert events[-1][1]["data"]["conversation_id"] == cid
    detail = client.get(f"/api/conversations/{cid}").json()
    assert [m["role"] for m in detail["messages"]] == ["user", "assistant"] * 2
    assert detail["messages"][2]["content"] == "KODEX 200 3개월 가격 추이"
    listed = client.get("/api/conversations", params={"screen": "etf"}).json()
    assert cid in [c["conversation_id"] for c in listed]
    # The ETF screen lists the API's conversation and reopens both turns.
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(APP, default_timeout=120).run()
    at.switch_page("pages/etf_chat.py").run()
    picker = at.selectbox(key="etf_conversation_picker:new")
    picker.set_value(cid).run()
    assert not at.exception, [e.value for e in at.exception]
    assert [t["question"] for t in at.session_state["etf_turns"]] == [
        "KODEX 200 정보 알려줘", "KODEX 200 3개월 가격 추이"]  # fmt: skip


def test_follow_ups_resolve_against_the_stored_conversation(client: httpx.Client) -> None:
    first = client.post(
        "/api/chat/message", json={"message": "반도체 관련 ETF 보수율 낮은 순으로"}
    ).json()
    cheapest = re.search(r"\((\d{6})\)", first["answer"])
    assert cheapest, first["answer"]
    follow = client.post("/api/chat/message", json={
        "message": "그 중 보수가 가장 낮은 건?", "conversation_id": first["conversation_id"]}).json()  # fmt: skip
    assert cheapest.group(1) in follow["answer"]
    macro = client.post("/api/macro/message", json={"message": "한국 기준금리 추이"}).json()
    events = stream(client, "/api/macro/message/stream",
                    {"message": "미국은?", "conversation_id": macro["conversation_id"]})  # fmt: skip
    assert "미국 연방기금" in events[-1][1]["data"]["answer"]  # the US rate, by its name


def test_deleting_a_conversation_removes_its_messages_and_runs(client: httpx.Client,
                                                               pg_pool: Any) -> None:  # fmt: skip
    question = f"KODEX 200 정보 알려줘 {uuid.uuid4().hex[:6]}"
    data = client.post("/api/chat/message", json={"message": question}).json()
    cid, run_id = data["conversation_id"], data["run_id"]
    assert client.delete(f"/api/conversations/{cid}").status_code == 204
    assert client.get(f"/api/conversations/{cid}").status_code == 404
    assert client.get(f"/api/runs/{run_id}").status_code == 404
    assert client.delete(f"/api/conversations/{cid}").status_code == 404
    assert runs_with(question, pg_pool) == 0


# ---------------------------------------------------------------- the other screens


def test_macro_message_and_stream(client: httpx.Client) -> None:
    data = client.post("/api/macro/message", json={"message": "한국 기준금리 추이"}).json()
    check_answer_contract(data)
    assert data["structured_citations"] and data["conversation_id"]
    events = stream(client, "/api/macro/message/stream",
                    {"message": "한국 기준금리 추이와 원인", "conversation_id": data["conversation_id"]})  # fmt: skip
    steps = [d["data"] for k, d in events if k == "step"]
    assert (
        steps
        and all(s["name"] and s["observations"] for s in steps)
        and [s["name"] for s in steps[:2]] == ["접수", "router"]
        and "이어서" in steps[0]["observations"]
    )
    assert (
        events[-1][0] == "answer"
        and events[-1][1]["data"]["conversation_id"] == data["conversation_id"]
    )


def test_contract_stored_and_uploaded(client: httpx.Client) -> None:
    listed = client.get("/api/contract/contracts").json()
    assert CONTRACT in [c["contract_id"] for c in listed]
    data = client.post("/api/contract/message",
                       json={"contract_id": CONTRACT, "message": "손해배상 한도는?"}).json()  # fmt: skip
    check_answer_contract(data)
    assert data["citations"] and data["run_id"] and data["conversation_id"]
    again = client.post("/api/contract/message", json={
        "contract_id": CONTRACT, "message": "제5조는?", "conversation_id": data["conversation_id"]}).json()  # fmt: skip
    assert again["conversation_id"] == data["conversation_id"]
    text = "제1조(목적) 이 계약은 데이터 제공에 관한 사항을 정한다.\n제2조(손해배상) 손해배상 한도는 대금의 100%로 한다.\n"
    uploaded = client.post("/api/contract/contracts",
                           files={"file": ("api-test.txt", text.encode(), "text/plain")})  # fmt: skip
    assert uploaded.status_code == 201, uploaded.text
    info = uploaded.json()
    assert info["article_count"] == 2
    answer = client.post("/api/contract/message",
                         json={"contract_id": info["contract_id"], "message": "손해배상 한도"}).json()  # fmt: skip
    assert "100%" in json.dumps(answer, ensure_ascii=False)
    empty = client.post("/api/contract/contracts", files={"file": ("empty.txt", b"", "text/plain")})
    assert empty.status_code == 422 and empty.json()["status"] == "error"
    garbage = client.post("/api/contract/contracts",
                          files={"file": ("x.pdf", b"%PDF-1.7\n\x00\xff garbage", "application/pdf")})  # fmt: skip
    assert garbage.status_code == 422 and garbage.json()["error"]
    huge = client.post("/api/contract/contracts",
                       files={"file": ("big.txt", b"a" * (7 * 1024 * 1024), "text/plain")})  # fmt: skip
    assert huge.status_code == 413 and "너무 큽니다" in huge.json()["error"]
    unknown = client.post("/api/contract/message", json={"contract_id": "nope", "message": "제1조"})
    assert unknown.status_code == 404


def test_contract_stream_sends_graph_steps_then_the_answer(client: httpx.Client) -> None:
    events = stream(client, "/api/contract/message/stream",
                    {"contract_id": CONTRACT, "message": "손해배상 한도는?"})  # fmt: skip
    kinds = [kind for kind, _ in events if kind != "comment"]
    assert kinds[-1] == "answer" and kinds.count("answer") == 1 and kinds[0] == "step"
    steps = [data["data"] for kind, data in events if kind == "step"]
    assert [s["step_number"] for s in steps] == list(range(1, len(steps) + 1))
    assert any(s["tool_calls"] for s in steps)  # the parallel clause tools, as they ran
    answer = events[-1][1]["data"]
    check_answer_contract(answer)
    assert answer["citations"] and answer["conversation_id"]


def test_stock_report_and_stream(client: httpx.Client) -> None:
    data = client.post("/api/stock/report", json={"symbol": "삼성전자"}).json()
    check_answer_contract(data)
    assert data["status"] == "ok" and data["payload"]["security_id"] == "KR:005930"
    listed = client.get("/api/runs", params={"screen": "stock", "limit": 5}).json()
    assert data["run_id"] in [r["run_id"] for r in listed] and listed[0]["answer"]["trace"]
    events = stream(client, "/api/stock/report/stream", {"symbol": "AAPL", "language": "en"})
    kinds = {d["data"]["kind"] for k, d in events if k == "step"}
    assert {"node_end", "tool_attempt"} <= kinds and events[-1][0] == "answer"
    numbers = [d["data"]["step_number"] for k, d in events if k == "step"]
    assert numbers == list(range(1, len(numbers) + 1))  # node starts are not sent: no gaps


def test_opening_stream(client: httpx.Client) -> None:
    events = stream(client, "/api/opening/run/stream", {"date": "2026-11-20"})
    steps = [d["data"] for k, d in events if k == "step"]
    assert [s["step_number"] for s in steps] == list(range(1, len(steps) + 1))
    assert [s["name"] for s in steps][:2] == ["접수", "prefetch_news"]
    assert steps[0]["kind"] == "received" and "2026-11-20" in steps[0]["observations"]
    answer = events[-1][1]["data"]
    check_answer_contract(answer)
    assert answer["run_id"] and answer["payload"]["scripts"]
    assert client.get(f"/api/runs/{answer['run_id']}").json()["screen"] == "opening"


# A body per streamed route; the test below fails when a new stream has none here.
STREAM_BODIES = {
    "/api/chat/message/stream": {"message": "KODEX 200과 TIGER 200 비교해줘"},
    "/api/macro/message/stream": {"message": "한국 기준금리 추이와 원인"},
    "/api/contract/message/stream": {"contract_id": CONTRACT, "message": "손해배상 한도는?"},
    "/api/stock/report/stream": {"symbol": "삼성전자"},
    "/api/opening/run/stream": {"date": "2026-11-20"},
}


def test_every_stream_numbers_its_steps_one_by_one(client: httpx.Client) -> None:
    """Issue 34: step numbers a client sees start at 1 and never skip or repeat, on every
    stream the OpenAPI document lists (the stock stream used to skip its node starts)."""
    paths = [p for p in client.get("/openapi.json").json()["paths"] if p.endswith("/stream")]
    assert sorted(paths) == sorted(STREAM_BODIES), "a stream without a case here"
    for path in paths:
        events = stream(client, path, STREAM_BODIES[path])
        numbers = [d["data"]["step_number"] for k, d in events if k == "step"]
        assert len(numbers) >= 2 and events[-1][0] == "answer", (path, numbers, events[-1])
        assert numbers == list(range(1, len(numbers) + 1)), (path, numbers)


# ---------------------------------------------------------------- operations


def test_healthz_and_indicators(client: httpx.Client) -> None:
    health = client.get("/healthz")
    assert health.status_code == 200
    body = health.json()
    assert body["status"] == "ok" and body["postgres"]["ok"] and body["graph"]["ok"]
    assert body["postgres"]["version"] and {"python", "fastapi"} <= set(body["versions"])
    indicators = client.get("/admin/indicators").json()
    assert indicators["status"] in ("healthy", "warning", "unknown")
    assert {lag["domain"] for lag in indicators["projection_lag"]} and indicators["notes"]
    assert any("GRAPH_PROJECTION_SYNC" in n for n in indicators["notes"])
    weekly, latest = indicators["weekly"], indicators["latest_run"]
    rate = "-" if weekly["avg_pass_rate"] is None else f"{weekly['avg_pass_rate']:.1f}%"
    assert f"avg_pass_rate {rate}," in " ".join(indicators["notes"])
    if latest is not None:  # the newest finished run (one still going has no KPIs)
        assert latest["status"] == "finished" and indicators["notes"][0].startswith("최근 평가")
    page = client.get("/docs").text  # Swagger UI from local files, not a CDN
    assert "/static-offline-docs/swagger-ui-bundle.js" in page and "cdn" not in page.lower()
    assert client.get("/static-offline-docs/swagger-ui-bundle.js").status_code == 200
    docs = client.get("/openapi.json").json()
    assert (
        "/api/chat/message/stream" in docs["paths"]
        and "ChatRequest" in docs["components"]["schemas"]
    )
    examples = json.dumps(docs["components"]["schemas"]["ChatRequest"], ensure_ascii=False)
    assert "삼성전자" in examples and "Compare" in examples
    stored = {c["contract_id"] for c in client.get("/api/contract/contracts").json()}
    for example in docs["components"]["schemas"]["ContractRequest"]["examples"]:
        assert example["contract_id"] in stored  # the documented example runs as written


# ---------------------------------------------------------------- hostile input


HOSTILE_BODIES = [
    ({"message": ""}, 422),
    ({"message": "\x00\x1b[31m\u202e\u200b"}, 422),  # nothing left after cleaning
    ({"message": "가" * 2001}, 422),
    ({"message": 123}, 422),
    ({"message": "KODEX 200", "extra": 1}, 422),
    ({}, 422),
    ({"message": "KODEX 200", "conversation_id": "'; DROP TABLE conversations; --"}, 422),
    ({"message": "KODEX 200", "conversation_id": str(uuid.uuid4())}, 404),
]


@pytest.mark.parametrize("path", ["/api/chat/message", "/api/chat/message/stream"])
def test_hostile_chat_bodies_are_refused_as_json_and_store_nothing(
    client: httpx.Client, pg_pool: Any, path: str
) -> None:
    before = fetch_all("SELECT count(*) AS n FROM conversations", pool=pg_pool)[0]["n"]
    for body, status in HOSTILE_BODIES:
        response = client.post(path, json=body)
        assert response.status_code == status, (body, response.text)
        error = response.json()
        assert error["status"] == "error" and error["error"] and "Traceback" not in response.text
    assert fetch_all("SELECT count(*) AS n FROM conversations", pool=pg_pool)[0]["n"] == before


def test_malformed_oversized_and_misrouted_requests(client: httpx.Client, pg_pool: Any) -> None:
    broken = client.post("/api/chat/message", content=b'{"message": "KODEX',
                         headers={"content-type": "application/json"})  # fmt: skip
    assert broken.status_code == 422 and broken.json()["status"] == "error"
    big = client.post("/api/chat/message", json={"message": "가" * 100_000})
    assert big.status_code == 413 and "너무 큽니다" in big.json()["error"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted while it is read
        yield b'{"message": "'
        for _ in range(200):
            yield b"a" * 1000
        yield b'"}'

    chunked = client.post("/api/chat/message", content=chunks(),
                          headers={"content-type": "application/json"})  # fmt: skip
    assert chunked.status_code == 413
    macro = client.post("/api/macro/message", json={"message": "x", "conversation_id": None})
    etf_cid = client.get("/api/conversations", params={"screen": "etf"}).json()[0][
        "conversation_id"
    ]
    other_screen = client.post("/api/macro/message", json={"message": "한국 기준금리",
                                                           "conversation_id": etf_cid})  # fmt: skip
    assert other_screen.status_code == 404 and macro.status_code == 200
    assert client.get("/api/nope").json()["status"] == "error"
    assert client.get("/api/chat/message").status_code == 405
    assert client.post("/api/stock/report", json={"symbol": ""}).status_code == 422
    bad_day = client.post("/api/opening/run", json={"date": "2026-13-45"})
    assert bad_day.status_code == 422 and "date: 없는 날짜입니다" in bad_day.json()["error"]
    for field, body in (("date", {"date": "2026-11-20'; DROP TABLE etfs; --"}),
                        ("symbol", {"symbol": "005930'; DROP TABLE etfs; --"})):  # fmt: skip
        path = "/api/opening/run" if field == "date" else "/api/stock/report"
        refused = client.post(path, json=body)
        assert refused.status_code == 422 and f"{field}:" in refused.json()["error"]
        assert "DROP" not in refused.text
    assert client.get("/api/runs/not-a-uuid").status_code == 404
    assert client.get("/api/conversations", params={"screen": "nope"}).status_code == 422
    # A NUL and an escape inside a real question are cleaned, the rest is answered and stored.
    question = "KODEX 200\x00 정보 \x1b[31m알려줘"
    data = client.post("/api/chat/message", json={"message": question}).json()
    assert data["status"] == "ok" and runs_with("KODEX 200 정보 알려줘", pg_pool) >= 1
