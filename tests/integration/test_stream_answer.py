"""A model-written answer streamed a checked sentence at a time (issue 20), through litellm with
`stream=True` against the local OpenAI-compatible replay server (tests/fixtures/openai_replay.py:
the only fake, at the provider boundary — it sends the recorded text as SSE chunks of a few
characters). Everything behind it is real: litellm, LangGraph, the contract tools, PostgreSQL,
the run store.

The recorded synthesis holds one sentence whose figure the clauses do not back ("7개월"): it is
never shown as written; a marked note takes its place, the stored answer equals the text shown,
and the turn is partial. A stop in the middle of the stream keeps what was shown and stores the
run as cancelled. The stock report streams each section under its heading, and the report holds
every section as it was shown.
"""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from agents.answer_stream import TextPiece
from agents.cancel import CANCELLED_TEXT
from agents.contract.service import ensure_samples, stream_ask
from agents.stock.service import stream_report
from data_access import runs
from data_access.config import Settings
from data_access.contracts import AgentAnswer
from tests.fixtures.openai_replay import ReplayServer

REPLAY = Path(__file__).resolve().parents[1] / "fixtures" / "openai_replay"
MODEL = "openai/gpt-4.1-mini"
CONTRACT = "sample-user-provide"
QUESTION = "제5조와 손해배상 조항을 비교해줘"
RIGHT = "제5조(데이터의 제공)는 갑이 매월 5일까지 API로 데이터를 제공하도록 정합니다."
WRONG = "제10조(손해배상)는 배상 책임을 직전 7개월 동안 지급된 대가로 제한합니다."
LAST = "두 조항 모두 갑의 의무를 다룹니다."


def recorded(synthesis: str) -> list[Any]:
    """The recorded planning call (two tool calls) and a synthesis text."""
    rec = json.loads((REPLAY / "contract_compare.json").read_text(encoding="utf-8"))
    return [rec["responses"][0], synthesis]


def llm_settings(settings: Settings, api_base: str) -> Settings:
    return settings.model_copy(update={"llm_model_contract": MODEL, "llm_api_base": api_base,
                                       "openai_api_key": SecretStr("replay-key")})  # fmt: skip


@pytest.fixture(scope="module")
def samples(pg_pool: Any, settings: Any) -> list[Any]:
    return ensure_samples(pg_pool, settings)


def test_sentences_stream_checked_and_the_stored_answer_is_what_was_shown(
    samples: Any, settings: Settings, pg_pool: Any
) -> None:
    events: list[object] = []
    with ReplayServer(recorded(f"{RIGHT} {WRONG} {LAST}"), stream_chars=6) as server:
        for event in stream_ask(CONTRACT, QUESTION, pool=pg_pool,
                                settings=llm_settings(settings, server.api_base)):  # fmt: skip
            events.append(event)
    assert server.requests[-1]["stream"] is True
    pieces = [e.text for e in events if isinstance(e, TextPiece)]
    answer = events[-1]
    assert isinstance(answer, AgentAnswer)
    assert pieces[0] == RIGHT, "a sentence is released whole, once checked"
    assert len(pieces) >= 3 and not any("7개월" in p and "뺐습니다" not in p for p in pieces)
    assert "근거와 다른 수치: 7개월" in "".join(pieces)
    assert WRONG not in answer.answer and LAST in answer.answer
    assert answer.answer == "".join(pieces), "what is stored is what was shown"
    assert answer.status == "partial" and "7개월" in (answer.error or "")
    check = next(t for t in answer.trace if t.name == "model_check")
    assert check.status == "error"
    synthesis = next(t for t in answer.trace if t.name == "synthesis" and t.kind == "llm")
    assert synthesis.tokens > 0, "usage of the streamed call is recorded"
    stored = runs.get_run(answer.payload["run_id"], pool=pg_pool)
    assert stored is not None and stored.answer.answer == answer.answer


def test_a_stop_in_the_middle_of_the_stream_keeps_the_shown_text(
    samples: Any, settings: Settings, pg_pool: Any
) -> None:
    stop = threading.Event()
    long_tail = " ".join([LAST] * 30)
    events: list[object] = []
    with ReplayServer(recorded(f"{RIGHT} {long_tail}"), stream_chars=6,
                      stream_pause_s=0.05) as server:  # fmt: skip
        for event in stream_ask(CONTRACT, QUESTION, pool=pg_pool, cancel=stop,
                                settings=llm_settings(settings, server.api_base)):  # fmt: skip
            events.append(event)
            if isinstance(event, TextPiece):
                stop.set()
    answer = events[-1]
    assert isinstance(answer, AgentAnswer) and answer.status == "cancelled"
    pieces = [e.text for e in events if isinstance(e, TextPiece)]
    assert pieces[0] == RIGHT and answer.answer.startswith(RIGHT)
    assert CANCELLED_TEXT in answer.answer and answer.answer.count(LAST) < 30
    assert answer.answer == "".join(pieces)
    stored = runs.get_run(answer.payload["run_id"], pool=pg_pool)
    assert stored is not None and stored.answer.status == "cancelled"
    assert stored.answer.answer.startswith(RIGHT)


def test_report_sections_stream_under_their_headings_and_the_report_holds_them(
    settings: Settings, pg_pool: Any
) -> None:
    rec = json.loads((REPLAY / "stock_report.json").read_text(encoding="utf-8"))
    stock = settings.model_copy(update={"llm_model_stock": MODEL, "llm_api_base": "",
                                        "openai_api_key": SecretStr("replay-key")})  # fmt: skip
    with ReplayServer(rec["responses"], model=rec["model"], stream_chars=10) as server:
        events = list(stream_report("AAPL", pool=pg_pool, save=False, settings=stock.model_copy(
            update={"llm_api_base": server.api_base})))  # fmt: skip
    answer = events[-1]
    assert isinstance(answer, AgentAnswer) and answer.mode == "llm"
    shown = "".join(e.text for e in events if isinstance(e, TextPiece))
    assert shown.startswith("**분석**\n\n") and "\n\n**추천**\n\n" in shown
    sections = [p for p in re.split(r"(?:^|\n\n)\*\*[^*\n]+\*\*\n\n", shown) if p]
    assert len(sections) >= 3 and all(section in answer.answer for section in sections)
    assert all(r["stream"] is True for r in server.requests)
