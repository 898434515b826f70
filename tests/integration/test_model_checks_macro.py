"""Checks after the model on the Macro screen (agents.model_checks in the answer writer).

The model is a scripted one (tests/fixtures/scripted_model.py), not a recording: in a domain
agent's tool loop it calls the SQL tool it is offered (sql_qa, else the templates), then closes;
as the answer writer it repeats the first key point it was given and adds a figure and a
document marker no tool returned ("12.7% 급등 [7]"), and repeats itself when asked to repair.
Everything behind litellm is real: the LangGraph supervisor and tool loop, the SQL guard and the
reader role on PostgreSQL, FalkorDB.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"

from agents.macro.service import answer_question, make_context
from data_access.config import Settings
from tests.fixtures.openai_replay import Reply, tool_call, tool_message
from tests.fixtures.scripted_model import (
    ScriptedServer,
    last_user_text,
    scripted_settings,
    system_text,
)

pytestmark = pytest.mark.usefixtures("demo_data")

CPI = "한국 소비자물가 최근 6개월 추이를 보여줘"
CPI_SQL = ("SELECT obs_date, value FROM macro_observations WHERE series_code = 'KR_CPI' "
           "ORDER BY obs_date DESC LIMIT 6")  # fmt: skip
INVENTED = "소비자물가는 전년 대비 12.7% 급등해 2027년 3월 31일까지 오를 전망입니다 [7]."
WRITER = "supervisor of a financial research desk"


def key_points(request: dict[str, Any]) -> list[str]:
    data = last_user_text(request).split("<macro_data>", 1)[1].split("</macro_data>", 1)[0]
    return list(json.loads(data)["key_points"])


def analyst(request: dict[str, Any]) -> Reply:
    if request.get("tools"):
        if any(m["role"] == "tool" for m in request["messages"]):
            return "근거를 모았습니다."
        offered = {t["function"]["name"] for t in request["tools"]}
        if "sql_qa" in offered:
            return tool_message(tool_call("sql_qa", {"query": CPI_SQL}))
        return tool_message(tool_call("templates", {}))
    if WRITER in system_text(request):
        return f"{key_points(request)[0]}. {INVENTED}"
    return "{}"  # anything else (a router refinement): unreadable, the rules stand


def test_a_figure_the_model_adds_is_removed_and_the_turn_is_partial(
    settings: Settings, pg_pool: Any, graph_store: Any
) -> None:
    with ScriptedServer(analyst) as server:
        s = scripted_settings(settings, "macro", server, llm_num_retries=0)
        answer = answer_question(CPI, settings=s, pool=pg_pool, store=graph_store,
                                 context=make_context(s, pg_pool, graph_store))  # fmt: skip
        writer = [r for r in server.requests if WRITER in system_text(r)]
    assert answer.mode == "llm" and answer.status == "partial"
    body = answer.answer.split("⚠️ 근거로", 1)[0]
    first = key_points(writer[0])[0]
    assert first in body  # the real figures stay, with the SQL behind them cited
    assert [c.dataset_code for c in answer.structured_citations if c.filters.get("model_sql")] == [
        "KR_CPI"]  # fmt: skip
    assert "12.7%" not in body and "[7]" not in body
    assert "미확인: 12.7%, 2027년 3월 31일, [7]" in answer.answer
    assert answer.error and "근거로 확인되지 않은" in answer.error
    assert len(writer) == 2 and "12.7%, 2027년 3월 31일, [7]" in last_user_text(writer[1])
    assert not any(r.get("stream") for r in writer), "answer_question does not stream"
    check = next(t for t in answer.trace if t.name == "model_check")
    assert check.kind == "guard" and check.status == "error" and check.arguments["repaired"]
