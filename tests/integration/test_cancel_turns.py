"""Stopping a turn (the 중지 button, issue 20) in each of the five services, offline planner, real
stores: the flag is set when the first step arrives, the stream ends with a `cancelled` answer
whose trace holds the steps that ran, no later step runs, and the run store keeps it as cancelled.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from agents.cancel import CANCELLED_TEXT
from agents.contract.service import ensure_samples, stream_ask
from agents.etf.service import stream_answer as etf_stream
from agents.macro.service import stream_answer as macro_stream
from agents.opening.service import stream_opening
from agents.stock.service import ProgressEvent, stream_report
from data_access import runs
from data_access.config import Settings
from data_access.contracts import AgentAnswer

pytestmark = pytest.mark.usefixtures("demo_data")


def _finished_step(event: object) -> bool:
    """A step that did work (the stock workflow also reports a node's start)."""
    return not isinstance(event, ProgressEvent) or event.event == "node_end"


def _stop_at_first_step(events: Iterator[object], stop: threading.Event) -> tuple[int, AgentAnswer]:
    """Consume a stream, setting `stop` when its first finished step arrives: (events after the
    flag was set, answer)."""
    after, answer = 0, None
    for event in events:
        if isinstance(event, AgentAnswer):
            answer = event
        elif stop.is_set():
            after += 1
        elif _finished_step(event):
            stop.set()
    assert answer is not None
    return after, answer


def _assert_cancelled(after: int, answer: AgentAnswer) -> None:
    assert after == 0, "no step runs after the flag is seen"
    assert answer.status == "cancelled"
    assert answer.answer.startswith(CANCELLED_TEXT) and answer.error == answer.answer
    assert answer.trace, "the steps that ran are kept"


Start = Callable[[threading.Event], Iterator[object]]


def _cases(pool: Any, store: Any, settings: Settings) -> dict[str, Start]:
    contract_id = ensure_samples(pool, settings)[-1].contract_id
    return {
        "etf": lambda stop: etf_stream("KODEX 200과 TIGER 200 비교해줘", settings=settings,
                                       store=store, pool=pool, cancel=stop),
        "macro": lambda stop: macro_stream("한국 기준금리 최근 추이는?", settings=settings,
                                           store=store, pool=pool, cancel=stop),
        "contract": lambda stop: stream_ask(contract_id, "손해배상 한도는?", settings=settings,
                                            pool=pool, cancel=stop),
        "opening": lambda stop: stream_opening(None, settings=settings, pool=pool, cancel=stop),
        "stock": lambda stop: stream_report("삼성전자", settings=settings, pool=pool, cancel=stop),
    }  # fmt: skip


@pytest.mark.parametrize("screen", ["etf", "macro", "contract", "opening", "stock"])
def test_a_stopped_turn_ends_cancelled_with_its_partial_trace(
    screen: str, pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    stop = threading.Event()
    steps, answer = _stop_at_first_step(_cases(pg_pool, graph_store, offline)[screen](stop), stop)
    _assert_cancelled(steps, answer)
    if screen in ("contract", "opening", "stock"):  # these services store their own runs
        payload = answer.payload.get("context", answer.payload)  # opening: under "context"
        stored = runs.get_run(payload["run_id"], pool=pg_pool)
        assert stored is not None and stored.screen == screen
        assert stored.answer.status == "cancelled" and stored.answer.trace == answer.trace


def test_a_cancelled_chat_turn_round_trips_through_the_run_store(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    stop = threading.Event()
    events = etf_stream("KODEX 200 정보 알려줘", settings=offline, store=graph_store,
                        pool=pg_pool, cancel=stop)  # fmt: skip
    _, answer = _stop_at_first_step(events, stop)
    conversation_id, run_id = runs.record_turn("etf", "KODEX 200 정보 알려줘", answer, pool=pg_pool)
    [turn] = runs.load_turns(conversation_id, pool=pg_pool)
    assert turn.run_id == run_id and turn.answer == answer
    assert turn.answer.status == "cancelled"


def test_an_unset_flag_changes_nothing(pg_pool: Any, graph_store: Any, offline: Settings) -> None:
    events = list(etf_stream("KODEX 200 정보 알려줘", settings=offline, store=graph_store,
                             pool=pg_pool, cancel=threading.Event()))  # fmt: skip
    answer = events[-1]
    assert isinstance(answer, AgentAnswer) and answer.status == "ok"
