"""The Macro Q&A answer writer streamed a checked sentence at a time (issue 20).

The provider is a local OpenAI-compatible server (tests/fixtures/scripted_model.py over
tests/fixtures/openai_replay.py, the only fake, at the provider boundary): in a domain agent's
tool loop it calls the SQL tool it is offered, then closes; as the answer writer it repeats the
first key point it was given, adds a figure and a document marker no tool returned, and ends with
a sentence without figures, sent as SSE chunks of a few characters. Everything behind it is real:
litellm's stream, the sentence gate, the LangGraph supervisor and tool loop, the SQL guard,
PostgreSQL, FalkorDB and the run store.
"""

from __future__ import annotations

import os
import threading
from typing import Any

import pytest

os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"

from agents.answer_stream import TextPiece
from agents.cancel import CANCELLED_TEXT
from agents.macro.service import SCREEN, make_context, stream_answer
from data_access import runs
from data_access.config import Settings
from data_access.contracts import AgentAnswer
from tests.fixtures.openai_replay import Reply, tool_call, tool_message
from tests.fixtures.scripted_model import ScriptedServer, scripted_settings, system_text
from tests.integration.test_model_checks_macro import CPI, CPI_SQL, INVENTED, WRITER, key_points

pytestmark = pytest.mark.usefixtures("demo_data")

LAST = "자세한 흐름은 아래 표와 차트에서 확인할 수 있습니다."


def writer_script(tail: str) -> Any:
    def script(request: dict[str, Any]) -> Reply:
        if request.get("tools"):
            if any(m["role"] == "tool" for m in request["messages"]):
                return "근거를 모았습니다."
            offered = {t["function"]["name"] for t in request["tools"]}
            return tool_message(tool_call("sql_qa", {"query": CPI_SQL}) if "sql_qa" in offered
                                else tool_call("templates", {}))  # fmt: skip
        if WRITER in system_text(request):
            return f"{key_points(request)[0]}. {tail}"
        return "{}"  # a router refinement: unreadable, the rules stand

    return script


def run(server: ScriptedServer, settings: Settings, pg_pool: Any, graph_store: Any,
        stop: threading.Event | None = None) -> tuple[list[str], AgentAnswer]:  # fmt: skip
    """(the text pieces shown, the answer); `stop` is set when the first piece arrives."""
    s = scripted_settings(settings, "macro", server, llm_num_retries=0)
    pieces: list[str] = []
    answer = None
    for event in stream_answer(CPI, settings=s, pool=pg_pool, store=graph_store, cancel=stop,
                               context=make_context(s, pg_pool, graph_store)):  # fmt: skip
        if isinstance(event, TextPiece):
            pieces.append(event.text)
            if stop is not None:
                stop.set()
        elif isinstance(event, AgentAnswer):
            answer = event
    assert answer is not None
    return pieces, answer


def test_a_wrong_figure_is_never_shown_and_the_answer_is_what_was_shown(
    settings: Settings, pg_pool: Any, graph_store: Any
) -> None:
    with ScriptedServer(writer_script(f"{INVENTED} {LAST}"), stream_chars=7) as server:
        pieces, answer = run(server, settings, pg_pool, graph_store)
        writer = [r for r in server.requests if WRITER in system_text(r)]
    assert len(writer) == 1 and writer[0]["stream"] is True, "streamed, no repair request"
    first = key_points(writer[0])[0]
    assert any(p.startswith(first) for p in pieces), "a sentence is released whole, once checked"
    assert not any("12.7%" in p and "뺐습니다" not in p for p in pieces)
    assert "근거와 다른 수치: 12.7%, 2027년 3월 31일, [7]" in "".join(pieces)
    assert LAST in "".join(pieces)
    assert answer.answer == "".join(pieces), "what is stored is what was shown"
    assert answer.mode == "llm" and answer.status == "partial"
    assert answer.error and "근거로 확인되지 않은" in answer.error
    check = next(t for t in answer.trace if t.name == "model_check")
    assert check.status == "error" and not check.arguments["repaired"]
    step = next(t for t in answer.trace if t.name == "answer_writer")
    assert step.kind == "llm" and step.tokens > 0, "usage of the streamed call is recorded"


def test_a_stop_mid_stream_keeps_the_shown_sentences_and_stores_the_run_cancelled(
    settings: Settings, pg_pool: Any, graph_store: Any
) -> None:
    stop = threading.Event()
    long_tail = " ".join([LAST] * 30)
    with ScriptedServer(writer_script(long_tail), stream_chars=7, stream_pause_s=0.05) as server:
        pieces, answer = run(server, settings, pg_pool, graph_store, stop)
    assert answer.status == "cancelled" and CANCELLED_TEXT in answer.answer
    assert pieces and answer.answer.startswith(pieces[0])
    assert answer.answer.count(LAST) < 30, "the model's stream was closed early"
    assert answer.answer == "".join(pieces)
    _, run_id = runs.record_turn(SCREEN, CPI, answer, pool=pg_pool)
    stored = runs.get_run(run_id, pool=pg_pool)
    assert stored is not None and stored.answer.status == "cancelled"
    assert stored.answer.answer == answer.answer
