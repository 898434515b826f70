"""LLM provider faults on every agent: errors, timeouts and malformed replies → retries, then the
documented fallback (the table in agents/llm.py); nothing hangs, nothing raises.

The LLM provider is replaced by the local OpenAI-compatible replay server
(tests/fixtures/openai_replay.py), which answers with recorded replies or recorded faults (HTTP
429/500/503 with OpenAI error bodies, a reply slower than the client's timeout, a truncated or
non-JSON body, an empty `choices` list, malformed tool calls). Everything behind the provider
boundary is real: litellm, smolagents, LangGraph, the tools, PostgreSQL and FalkorDB.

Each agent call runs in a thread the test waits for (`WAIT_S`, generous): a call that has not
returned by then is reported as a hang. That is a wait, not a speed assertion; what bounds the
call is the product's per-request timeout (`llm_timeout_s`) and retry count (`llm_num_retries`).
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import pytest
from pydantic import SecretStr

os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"

from agents.contract.service import ask, ensure_samples
from agents.etf.service import answer_question as etf_answer
from agents.macro.service import answer_question as macro_answer
from agents.opening.service import result_of, run_opening
from agents.stock.service import generate_report
from data_access.config import Settings
from data_access.contracts import AgentAnswer, TraceStep
from tests.fixtures.keyed_replay import KEEP_ROUTE
from tests.fixtures.openai_replay import (
    ReplayServer,
    Reply,
    empty_choices,
    http_error,
    non_json_body,
    slow,
    tool_call,
    tool_message,
    truncated_body,
)

pytestmark = pytest.mark.usefixtures("demo_data")

T = TypeVar("T")
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "openai_replay"
MODEL = "openai/gpt-4.1-mini"
TIMEOUT_S = 1.0  # the client's per-request timeout in these tests
# ... and in the timeout fault, where every attempt waits it out (a 60 s reply): a shorter one
# times out the same way, three attempts per failed call on every agent.
TIMEOUT_FAULT_S = 0.5
RETRIES = 2
ATTEMPTS = RETRIES + 1
WAIT_S = 240.0  # how long a test waits for an agent call before calling it a hang

ETF_QUESTION = "KODEX 200과 TIGER 200 비교해줘"
MACRO_QUESTION = "원달러 환율에 영향을 준 이벤트 경로는?"
OPENING_DAY = "2026-11-20"
CONTRACT = "sample-user-provide"
CONTRACT_QUESTION = "제5조와 손해배상 조항을 비교해줘"
STOCK = "AAPL"

# fault → the Korean kind the answer names (agents.llm.failure_kind)
PROVIDER_FAULTS: dict[str, tuple[Reply, str]] = {
    "http_429": (http_error(429), "요청 한도 초과(429)"),
    "http_500": (http_error(500), "제공자 서버 오류(500)"),
    "http_503": (http_error(503), "제공자 서버 오류(503)"),
    "timeout": (slow(60, "too late"), "응답 시간 초과"),
    "truncated_body": (truncated_body(), "잘못된 형식의 응답"),
    "non_json_body": (non_json_body(), "잘못된 형식의 응답"),
    "empty_choices": (empty_choices(), "잘못된 형식의 응답"),
}


def bounded(call: Callable[[], T], wait_s: float = WAIT_S) -> T:
    """Run `call` in a thread and wait for it; not returning within `wait_s` is a hang."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = call()
        except BaseException as e:  # re-raised in the test thread
            box["error"] = e

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(wait_s)
    if thread.is_alive():
        pytest.fail(f"the agent call had not returned after {wait_s:.0f} s: it hangs")
    if "error" in box:
        raise box["error"]
    return box["value"]  # type: ignore[no-any-return]


def recording(name: str) -> dict[str, Any]:
    return dict(json.loads((FIXTURES / name).read_text(encoding="utf-8")))


def llm_settings(
    settings: Settings, role: str, api_base: str, timeout_s: float = TIMEOUT_S
) -> Settings:
    return settings.model_copy(update={
        f"llm_model_{role}": MODEL, "llm_api_base": api_base,
        "openai_api_key": SecretStr("replay-key"), "llm_timeout_s": timeout_s,
        "llm_num_retries": RETRIES, "llm_retry_backoff_s": 0.05,
    })  # fmt: skip


def llm_steps(answer: AgentAnswer) -> list[TraceStep]:
    return [t for t in answer.trace if t.kind == "llm"]


def failed_llm_steps(answer: AgentAnswer) -> list[TraceStep]:
    return [t for t in llm_steps(answer) if t.status == "error"]


@dataclass(frozen=True)
class Agent:
    """How to run one agent against a replay server, and what it was recorded to say."""

    role: str
    run: Callable[[Settings, dict[str, Any]], AgentAnswer]
    replies: Callable[[], list[Reply]]  # a good recorded run
    requests_on_failure: int  # requests before the fallback when every call fails
    fallback_words: str  # what the answer's error says answered instead


def _macro_replies() -> list[Reply]:
    """The router first (it falls back to the Macro model; it keeps the rules' route), then the
    Macro and Ontology agents' tool loops (concurrent, so the same reply for any caller: a loop
    that ends at once answers from its templates) and the answer writer."""
    return [KEEP_ROUTE, *[recording("macro_text2cypher.json")["answer_writer"]] * 3]


AGENTS = {
    "etf": Agent(
        "etf",
        lambda s, f: etf_answer(
            ETF_QUESTION, settings=s, store=f["graph_store"], pool=f["pg_pool"]
        ),  # fmt: skip
        lambda: list(recording("etf_compare.json")["responses"]),
        ATTEMPTS,
        "오프라인 플래너가 이 질문에 대신 답했습니다",
    ),
    "macro": Agent(
        "macro",
        lambda s, f: macro_answer(
            MACRO_QUESTION, settings=s, pool=f["pg_pool"], store=f["graph_store"]
        ),  # fmt: skip
        _macro_replies,
        4 * ATTEMPTS,  # the router, the two agents' tool loops and the writer each fall back
        "오프라인 규칙/템플릿으로 대신 답했습니다",
    ),
    "opening": Agent(
        "opening",
        lambda s, f: run_opening(OPENING_DAY, settings=s, pool=f["pg_pool"], save=False),
        lambda: list(recording("opening_20261120.json")["responses"]),
        ATTEMPTS,
        "오프라인 플래너가 이어서 대본을 만들었습니다",
    ),
    "contract": Agent(
        "contract",
        lambda s, f: ask(CONTRACT, CONTRACT_QUESTION, pool=f["pg_pool"], settings=s, save=False),
        lambda: list(recording("contract_compare.json")["responses"]),
        ATTEMPTS,  # planning fails; the turn then makes no more model calls
        "규칙 기반 계획으로 대신했습니다",
    ),
    "stock": Agent(
        "stock",
        lambda s, f: generate_report(STOCK, settings=s, pool=f["pg_pool"], save=False),
        lambda: list(recording("stock_report.json")["responses"]),
        ATTEMPTS,  # the first section fails; later sections use templates without calling
        "템플릿 문장으로 대신했습니다",
    ),
}


@pytest.fixture(scope="module")
def stores(pg_pool: Any, graph_store: Any, settings: Settings) -> dict[str, Any]:
    ensure_samples(pg_pool, settings)
    return {"pg_pool": pg_pool, "graph_store": graph_store}


@pytest.fixture(scope="module")
def offline(settings: Settings, stores: dict[str, Any]) -> dict[str, AgentAnswer]:
    """Each agent's answer with no model configured: what a fallback must reproduce."""
    assert settings.llm_model is None
    return {name: bounded(partial(agent.run, settings, stores)) for name, agent in AGENTS.items()}


def run_with(agent: Agent, replies: list[Reply], settings: Settings, stores: dict[str, Any],
             timeout_s: float = TIMEOUT_S) -> tuple[AgentAnswer, ReplayServer]:  # fmt: skip
    with ReplayServer(replies) as server:
        answer = bounded(lambda: agent.run(
            llm_settings(settings, agent.role, server.api_base, timeout_s), stores))  # fmt: skip
    return answer, server


# ---- provider faults: retries, then the documented fallback -------------------------------------


def _same_as_offline(name: str, answer: AgentAnswer, offline: AgentAnswer) -> None:
    """The fallback is the real offline path, not a canned message."""
    if name == "opening":
        assert result_of(answer) == result_of(offline) and result_of(answer)["scripts"]
    elif name == "stock":
        for section in ("## 분석", "## 추천", "## 검토", "RSI(14)"):
            assert section in answer.answer
        assert answer.payload["figures"] == offline.payload["figures"]
    else:
        assert answer.answer == offline.answer
    # the same queries (parallel tool calls may finish in another order)
    assert sorted(c.query_fingerprint for c in answer.structured_citations) == sorted(
        c.query_fingerprint for c in offline.structured_citations
    )


@pytest.mark.parametrize("fault", PROVIDER_FAULTS)
@pytest.mark.parametrize("name", AGENTS)
def test_provider_fault_is_retried_then_the_fallback_answers(
    name: str, fault: str, settings: Settings, stores: dict[str, Any],
    offline: dict[str, AgentAnswer],
) -> None:  # fmt: skip
    agent = AGENTS[name]
    reply, kind = PROVIDER_FAULTS[fault]
    timeout_s = TIMEOUT_FAULT_S if fault == "timeout" else TIMEOUT_S
    answer, server = run_with(agent, [reply], settings, stores, timeout_s)
    assert len(server.requests) == agent.requests_on_failure  # 1 try + RETRIES per failed call
    assert answer.status == "partial", answer.error
    assert kind in (answer.error or "") and agent.fallback_words in (answer.error or "")
    failed = failed_llm_steps(answer)  # the failed call is in the trace, with its retries
    assert failed and failed[0].model == MODEL
    assert kind in (failed[0].error or "") and f"{ATTEMPTS}회 시도" in (failed[0].error or "")
    assert answer.tokens == 0 and answer.cost_usd == 0
    _same_as_offline(name, answer, offline[name])


def test_a_bad_key_is_not_retried(settings: Settings, stores: dict[str, Any]) -> None:
    answer, server = run_with(AGENTS["stock"], [http_error(401, "Incorrect API key")], settings,
                              stores)  # fmt: skip
    assert len(server.requests) == 1
    assert answer.status == "partial" and "인증 실패(401)" in (answer.error or "")
    assert "재시도하지 않는 오류" in (failed_llm_steps(answer)[0].error or "")


@pytest.mark.parametrize("name", AGENTS)
def test_a_transient_fault_then_success_keeps_the_model_answer(
    name: str, settings: Settings, stores: dict[str, Any]
) -> None:
    agent = AGENTS[name]
    good = agent.replies()
    answer, server = run_with(agent, [http_error(503), *good], settings, stores)
    assert answer.status == "ok", answer.error
    assert answer.mode == "llm" and answer.model == MODEL
    assert len(server.requests) == len(good) + 1  # the retry, then the recorded run
    assert not failed_llm_steps(answer)
    assert answer.tokens == len(good) * (1200 + 150)


# ---- malformed replies and tool calls: a failed step, never an exception ------------------------


def test_etf_malformed_actions_are_fed_back_and_the_agent_recovers(
    settings: Settings, stores: dict[str, Any], offline: dict[str, AgentAnswer]
) -> None:
    """CodeAgent: a reply with only tool calls (no code), a call of an unknown tool and a tool
    called without its required argument are three failed steps whose errors go back to the
    model; the recorded run then answers."""
    good = AGENTS["etf"].replies()
    bad: list[Reply] = [
        tool_message(tool_call("etf_search", '{"query": "KODEX 2', call_id=None)),
        "Thought: 모든 데이터를 가져옵니다.\n<code>\nprint(fetch_everything())\n</code>",
        "Thought: 비교합니다.\n<code>\nprint(compare_etfs())\n</code>",
    ]
    answer, server = run_with(AGENTS["etf"], bad + good, settings, stores)
    assert answer.status == "ok" and len(server.requests) == 6
    code_steps = [t for t in answer.trace if t.kind == "code"]
    assert [t.status for t in code_steps] == ["error"] * 3 + ["ok"] * 3
    assert "code parsing" in (code_steps[0].error or "")
    assert "fetch_everything" in (code_steps[1].error or "")
    assert "compare_etfs" in (code_steps[2].error or "")
    for i in (1, 2, 3):  # each error is in what the model is sent next
        sent = json.dumps(server.requests[i]["messages"][-1], ensure_ascii=False)
        assert "Error" in sent
    assert "| 총보수(%) |" in answer.answer


OPENING_TOOLS = {"get_news_list", "get_news_content", "list_downloaded_bodies",
                 "count_keyword_frequency", "get_ohlcv"}  # fmt: skip
OPENING_MALFORMED: dict[str, tuple[Reply, str]] = {
    "arguments_not_json": (
        tool_message(tool_call("get_news_list", '{"keywords": ["NVIDIA"')),
        "JSON으로 해석할 수 없어",
    ),
    "unknown_tool": (tool_message(tool_call("get_everything", {})), "get_everything"),
    "missing_required_arguments": (tool_message(tool_call("get_ohlcv", {})), "ticker"),
}


@pytest.mark.parametrize("case", OPENING_MALFORMED)
def test_opening_malformed_tool_call_is_fed_back_then_the_run_goes_on(
    case: str, settings: Settings, stores: dict[str, Any]
) -> None:
    bad, feedback = OPENING_MALFORMED[case]
    good = AGENTS["opening"].replies()
    answer, server = run_with(AGENTS["opening"], [bad, *good], settings, stores)
    assert answer.status == "ok", answer.error
    assert len(server.requests) == 1 + len(good)
    sent_back = server.requests[1]["messages"][-1]
    assert sent_back["role"] in ("user", "tool") and feedback in json.dumps(
        sent_back, ensure_ascii=False
    )
    assert result_of(answer)["scripts"]


def test_opening_tool_call_without_id_still_runs(
    settings: Settings, stores: dict[str, Any]
) -> None:
    good = AGENTS["opening"].replies()
    first = dict(good[0])  # type: ignore[arg-type]
    first["tool_calls"] = [{**c, "id": None} for c in first["tool_calls"]]
    answer, server = run_with(AGENTS["opening"], [first, *good[1:]], settings, stores)
    assert answer.status == "ok", answer.error
    tools = [t.name for t in answer.trace if t.kind == "tool"]
    assert tools[:2] == ["get_news_list", "count_keyword_frequency"]
    ids = [m["tool_call_id"] for m in server.requests[1]["messages"] if m["role"] == "tool"]
    assert len(ids) == 2 and all(ids)


def test_opening_repeated_unparsable_calls_hand_over_to_the_planner(
    settings: Settings, stores: dict[str, Any], offline: dict[str, AgentAnswer]
) -> None:
    bad = tool_message(tool_call("get_news_list", "{not json"))
    answer, server = run_with(AGENTS["opening"], [bad], settings, stores)
    assert len(server.requests) == 3  # the reply, then two corrections
    assert answer.status == "partial" and "해석할 수 없는 도구 호출" in (answer.error or "")
    assert [t.status for t in llm_steps(answer)][:3] == ["error"] * 3
    assert result_of(answer) == result_of(offline["opening"])


CONTRACT_MALFORMED: dict[str, tuple[dict[str, Any], str]] = {
    "arguments_not_json": (
        tool_call("article_index", '{"article_numbers": [5'), "인자가 올바른 JSON이 아닙니다"),
    "unknown_tool": (tool_call("delete_contract", {"contract_id": CONTRACT}), "알 수 없는 도구"),
    "missing_required_arguments": (tool_call("article_title", {}), "필수 인자 누락: title_queries"),
}  # fmt: skip


@pytest.mark.parametrize("case", CONTRACT_MALFORMED)
def test_contract_malformed_plan_falls_back_to_the_rule_planner(
    case: str, settings: Settings, stores: dict[str, Any], offline: dict[str, AgentAnswer]
) -> None:
    bad, problem = CONTRACT_MALFORMED[case]
    synthesis = "제5조와 제10조를 비교했습니다. (replay)"
    answer, server = run_with(AGENTS["contract"], [tool_message(bad), synthesis], settings,
                              stores)  # fmt: skip
    assert len(server.requests) == 2  # planning, then synthesis over the rule plan's clauses
    assert answer.status == "partial" and "규칙 기반 계획" in (answer.error or "")
    dropped = [t for t in answer.trace if t.kind == "tool" and t.status == "error"]
    assert len(dropped) == 1 and problem in (dropped[0].error or "")
    assert answer.payload["clauses"] == offline["contract"].payload["clauses"]
    assert answer.answer == synthesis


def test_contract_keeps_the_valid_calls_of_a_mixed_plan(
    settings: Settings, stores: dict[str, Any]
) -> None:
    rec = recording("contract_compare.json")["responses"]
    valid = rec[0]["tool_calls"][0]  # article_index for article 5, wire format
    plan = tool_message(valid, tool_call("article_title", "{oops"), tool_call("nope", {}))
    answer, server = run_with(AGENTS["contract"], [plan, rec[1]], settings, stores)
    # The replayed synthesis also cites 제10조, which this plan no longer retrieved: the check
    # after the model (agents.model_checks) asks once more, then answers from the template.
    assert answer.status == "partial" and len(server.requests) == 3
    assert "제10조" in (answer.error or "")
    tools = [(t.name, t.status) for t in answer.trace if t.kind == "tool"]
    assert ("article_index", "ok") in tools and len([s for _, s in tools if s == "error"]) == 2
    assert [c["article_no"] for c in answer.payload["clauses"]] == [5]


def test_contract_tool_call_without_id_still_runs(
    settings: Settings, stores: dict[str, Any]
) -> None:
    rec = recording("contract_compare.json")["responses"]
    calls = [{k: v for k, v in c.items() if k != "id"} for c in rec[0]["tool_calls"]]
    answer, _ = run_with(AGENTS["contract"], [tool_message(*calls), rec[1]], settings, stores)
    assert answer.status == "ok" and answer.answer == rec[1]["content"]
    assert [c["article_no"] for c in answer.payload["clauses"]] == [5, 10]


def test_stock_reply_without_text_uses_the_templates(
    settings: Settings, stores: dict[str, Any], offline: dict[str, AgentAnswer]
) -> None:
    bad = tool_message(tool_call("get_price", {"symbol": STOCK}))
    answer, server = run_with(AGENTS["stock"], [bad], settings, stores)
    assert len(server.requests) == 3  # each section asked once: the reply arrived, it was empty
    assert answer.status == "partial" and "빈 응답" in (answer.error or "")
    assert [t.status for t in llm_steps(answer)] == ["error"] * 3
    assert answer.payload["figures"] == offline["stock"].payload["figures"]
