"""Checks of a Macro answer before it is shown, on the real embedded stores (seed 004 §2.3, §2.4,
§2.5, §13.9-3): contradicting figures are shown, the graph path's fall back to SQL is flagged,
an uncited figure in a model's general answer is marked, and the trace names the model of each
step. Model turns go through litellm to the local OpenAI-compatible replay server.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import SecretStr

os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"

from agents.macro.service import answer_question, make_context
from data_access.config import Settings
from data_access.contracts import AgentAnswer
from data_access.graph.base import GraphStore
from tests.fixtures.keyed_replay import KeyedReplayServer
from tests.fixtures.macro_conflict import EVENT, RATE_WHY
from tests.fixtures.macro_conflict import contradicting_event as written_event
from tests.fixtures.openai_replay import tool_call, tool_message

pytestmark = pytest.mark.usefixtures("demo_data")


@pytest.fixture
def contradicting_event(graph_store: GraphStore) -> Iterator[None]:
    with written_event(graph_store):
        yield


def guard(answer: AgentAnswer, name: str) -> Any:
    return next(t for t in answer.trace if t.kind == "guard" and t.name == name)


def test_a_contradicting_document_is_shown_beside_the_data_not_picked(
    settings: Settings, pg_pool: Any, graph_store: GraphStore, contradicting_event: None
) -> None:
    answer = answer_question(RATE_WHY, settings=settings, pool=pg_pool, store=graph_store)
    assert answer.status == "partial" and "근거 간 수치 충돌" in (answer.error or "")
    head = answer.answer.split("\n\n")[0]
    assert head.startswith("> ⚠️ 근거 간 수치 충돌 1건: 어느 한쪽을 고르지 않고")
    assert "'한국은행 기준금리 25bp 인상 (연 3.00%)'는 인상(상승), 수준 3.00%" in head
    assert "데이터는 2.25→2.25 (2026-09-01 관측, 변화 없음)" in head  # the data's side too
    step = guard(answer, "conflict_check")
    [conflict] = step.arguments["conflicts"]
    assert step.status == "error" and conflict["series"] == "KR_BASE_RATE"
    assert conflict["date"] == EVENT["day"] and conflict["kind"] == "direction"


def test_without_a_contradiction_the_answer_has_no_conflict(
    settings: Settings, pg_pool: Any, graph_store: GraphStore
) -> None:
    answer = answer_question(RATE_WHY, settings=settings, pool=pg_pool, store=graph_store)
    assert "충돌" not in answer.answer and answer.status == "ok"
    assert guard(answer, "conflict_check").status == "ok"
    assert guard(answer, "citation_check").status == "ok"


def test_the_graph_path_falling_back_to_sql_sets_needs_rdb_fallback(
    settings: Settings, pg_pool: Any, graph_store: GraphStore
) -> None:
    up = answer_question(RATE_WHY, settings=settings, pool=pg_pool, store=graph_store)
    assert up.payload["agent_responses"]["macro"]["needs_rdb_fallback"] is False
    assert not [t for t in up.trace if t.name == "rdb_fallback"]
    ctx = make_context(settings, pg_pool, None)  # no graph store: the Cypher evidence cannot run
    down = answer_question(RATE_WHY, settings=settings, pool=pg_pool, context=ctx)
    assert down.payload["agent_responses"]["macro"]["needs_rdb_fallback"] is True
    step = guard(down, "rdb_fallback")
    assert step.arguments == {"needs_rdb_fallback": True}
    assert "macro: indicator_evidence → documents_by_keyword (unavailable)" in (
        step.observation or ""
    )
    assert down.citations  # the documents came from SQL


MODEL = "openai/gpt-4.1-mini"
MOVIE = "주말에 볼 만한 영화 추천해줘"  # general knowledge, answered by the model directly
CPI = "한국 소비자물가 최근 6개월 추이를 보여줘"  # the Macro Economy agent, SQL only
CPI_SQL = ("SELECT obs_date, value FROM macro_observations WHERE series_code = 'KR_CPI' "
           "ORDER BY obs_date DESC LIMIT 6")  # fmt: skip


def with_model(settings: Settings, server: KeyedReplayServer, **roles: str) -> Settings:
    return settings.model_copy(update={"llm_model_macro": MODEL, "llm_api_base": server.api_base,
                                       "openai_api_key": SecretStr("replay-key"),
                                       "llm_num_retries": 0, **roles})  # fmt: skip


def test_an_uncited_figure_in_a_model_general_answer_is_marked(
    settings: Settings, pg_pool: Any, graph_store: GraphStore
) -> None:
    reply = "이번 주말에는 잔잔한 드라마를 추천합니다. 참고로 미국 물가상승률은 3.2%입니다."
    with KeyedReplayServer({"Answer briefly": [reply]}) as server:
        s = with_model(settings, server, llm_model_general="openai/general-model")
        answer = answer_question(MOVIE, settings=s, pool=pg_pool, store=graph_store,
                                 context=make_context(s, pg_pool, graph_store))  # fmt: skip
    assert [r["model"] for r in server.requests_for("Answer briefly")] == ["general-model"]
    assert answer.mode == "llm" and answer.status == "partial"
    assert "3.2% _(⚠️ 출처 없음)_" in answer.answer
    assert answer.answer.startswith("> ⚠️ 인용 근거(정형·문서 인용)가 없는 수치 1개를")
    assert "미인용: 3.2%" in (answer.error or "")
    assert answer.citations == [] and answer.structured_citations == []
    assert guard(answer, "citation_check").arguments["uncited"] == ["3.2%"]
    general = answer.payload["agent_responses"]["general_knowledge"]
    assert general["model"] == "openai/general-model"  # §2.5: the model that answered


def test_the_trace_names_the_model_behind_each_tool_step(
    settings: Settings, pg_pool: Any, graph_store: GraphStore
) -> None:
    replies = {"[agent:macro]": [tool_message(tool_call("sql_qa", {"query": CPI_SQL})), "근거"],
               "supervisor of a financial research desk": ["소비자물가는 완만했습니다."]}  # fmt: skip
    with KeyedReplayServer(replies) as server:
        s = with_model(settings, server, llm_model_macro_economy="openai/macro-economy-model",
                       llm_model_answer="openai/answer-model")  # fmt: skip
        answer = answer_question(CPI, settings=s, pool=pg_pool, store=graph_store,
                                 context=make_context(s, pg_pool, graph_store))  # fmt: skip
    assert answer.mode == "llm", answer.error
    sql = [t for t in answer.trace if t.name == "macro/sql_qa"]
    assert sql and {t.model for t in sql} == {"openai/macro-economy-model"}
    assert answer.payload["agent_responses"]["macro"]["model"] == "openai/macro-economy-model"
    writer = [t for t in answer.trace if t.name == "answer_writer"]
    assert [t.model for t in writer] == ["openai/answer-model"]
    checks = [t for t in answer.trace if t.name in ("conflict_check", "citation_check")]
    assert [t.model for t in checks] == [None, None]  # rules, not a model
