"""Issue 20 in real Chromium: the 중지 button stops a running turn, the steps that ran stay on the
screen and in the run store, and the run is stored as cancelled.

The ETF screen runs with a model configured whose provider is the local replay server
(tests/fixtures/openai_replay.py, the only fake: the LLM-provider boundary) replaying the
recorded KODEX 200 vs TIGER 200 turn with its second reply held HOLD_S seconds, so the turn is
waiting for that reply when 중지 is clicked. Two times are measured and printed: the app's own
(the flag set → the cancelled answer in the page, from the app log) and the click → the stopped
answer drawn in the browser (which includes the rerun of the whole page on a loaded machine).
The only bound asserted is the generous one: the stop did not wait for the reply under way.
"""

from __future__ import annotations

import json
import os
import re
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agents.cancel import CANCELLED_TEXT
from data_access.postgres import fetch_one
from tests.browser.waits import ANSWER_TIMEOUT_MS, wait_idle
from tests.fixtures.openai_replay import ReplayServer, slow
from tests.qa.app_server import AppStartError, streamlit_app

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("demo_data")]

RECORDING = Path(__file__).resolve().parents[1] / "fixtures" / "openai_replay" / "etf_compare.json"
MODEL = "openai/gpt-4.1-mini"
HOLD_S = 30.0
STOPPED_LOG = re.compile(r"etf_live_turn stopped (\d+) ms after 중지")
BOX = "ETF에 대해 물어보세요 (예: KODEX 200 정보 알려줘)"


@pytest.fixture(scope="module")
def slow_model_app(pg_pool: Any, settings: Any) -> Iterator[tuple[str, ReplayServer]]:
    recording = json.loads(RECORDING.read_text(encoding="utf-8"))
    first, second, *rest = recording["responses"]
    replies = [first, slow(HOLD_S, second), *rest]
    with ReplayServer(replies, model=recording["model"]) as server:
        env = {**os.environ, "WORKBENCH_HOME": str(settings.home), "LLM_MODEL_ETF": MODEL,
               "LLM_API_BASE": server.api_base, "OPENAI_API_KEY": "replay-key"}  # fmt: skip
        try:
            with streamlit_app(env, _log(settings)) as url:
                yield url, server
        except AppStartError as e:
            pytest.fail(str(e))


def _log(settings: Any) -> Path:
    return Path(settings.home) / "streamlit-stop-test.log"


def test_stop_ends_the_turn_and_stores_it_cancelled(
    page: Any,
    slow_model_app: tuple[str, ReplayServer],
    pg_pool: Any,
    settings: Any,
    screenshot_dir: Path,
) -> None:
    url, server = slow_model_app
    page.goto(url)
    page.get_by_role("link", name="ETF 챗").click()
    page.get_by_role("heading", name="ETF 챗", exact=True).wait_for(timeout=ANSWER_TIMEOUT_MS)
    wait_idle(page)
    question = f"KODEX 200과 TIGER 200 비교해줘 ({uuid.uuid4().hex[:6]})"
    box = page.get_by_placeholder(BOX)
    box.fill(question)
    box.press("Enter")
    page.get_by_text("단계 1 ·").first.wait_for(timeout=ANSWER_TIMEOUT_MS)  # streamed in
    assert box.is_disabled()  # no second question while this one runs
    assert len(server.requests) == 2  # step 2's reply is being waited for
    clicked = time.perf_counter()
    page.get_by_role("button", name="중지").click()
    page.get_by_text(CANCELLED_TEXT).first.wait_for(timeout=ANSWER_TIMEOUT_MS)
    stopped_s = time.perf_counter() - clicked
    in_app = STOPPED_LOG.findall(_log(settings).read_text(errors="replace"))
    print(f"\n중지: cancelled answer in the app {in_app[-1] if in_app else '?'} ms after the flag,"
          f" on screen {stopped_s:.2f} s after the click (reply held {HOLD_S:.0f} s)")  # fmt: skip
    assert stopped_s < HOLD_S, "the stop waited for the model reply under way"
    wait_idle(page)
    page.screenshot(path=str(screenshot_dir / "etf_stopped.png"), full_page=True)

    run = fetch_one(
        "SELECT status, trace FROM agent_runs WHERE screen = 'etf' AND question = %s",
        (question,), pg_pool,
    )  # fmt: skip
    assert run is not None and run["status"] == "cancelled"
    tools = [t["name"] for t in run["trace"] if t["kind"] == "tool"]
    assert tools == ["etf_search", "etf_search"], "step 1's calls kept, step 2 dropped"
    page.get_by_text("실행 단계 (3)").click()  # the kept trace on screen: step 1 and its 2 calls
    page.get_by_text("etf_search").first.wait_for()
    assert not box.is_disabled()
    assert len(server.requests) == 2, "no model call after the stop"
