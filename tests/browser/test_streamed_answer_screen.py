"""Issue 20 in real Chromium: with a model configured, the answer's text appears a checked
sentence at a time while the turn is still running (st.write_stream), a sentence whose figure
the clauses do not back shows as a marked note instead, and the stored answer is the text shown.

The contract screen runs with a model whose provider is the local replay server
(tests/fixtures/openai_replay.py, the only fake: the LLM-provider boundary): the recorded
planning call, then a synthesis text sent as SSE chunks of a few characters, PAUSE_S apart, so
the stream takes a few seconds.
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from data_access.postgres import fetch_one
from tests.browser.waits import ANSWER_TIMEOUT_MS, only_one, wait_idle
from tests.fixtures.openai_replay import ReplayServer
from tests.qa.app_server import AppStartError, streamlit_app

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("demo_data")]

RECORDING = Path(__file__).resolve().parents[1] / "fixtures" / "openai_replay"
MODEL = "openai/gpt-4.1-mini"
PAUSE_S = 0.15
FIRST = "제5조(데이터의 제공)는 갑이 매월 5일까지 API로 데이터를 제공하도록 정합니다."
SECOND = "을은 제공받은 날로부터 3일 이내에 검수하여야 합니다."
WRONG = "제10조(손해배상)는 배상 책임을 직전 7개월 동안 지급된 대가로 제한합니다."
LAST = "비교하면 제5조는 절차를, 제10조는 책임의 범위를 정합니다."


@pytest.fixture(scope="module")
def streaming_app(pg_pool: Any, settings: Any) -> Iterator[str]:
    recording = json.loads((RECORDING / "contract_compare.json").read_text(encoding="utf-8"))
    replies = [recording["responses"][0], " ".join([FIRST, SECOND, WRONG, LAST])]
    with ReplayServer(replies, model=recording["model"], stream_chars=8,
                      stream_pause_s=PAUSE_S) as server:  # fmt: skip
        env = {**os.environ, "WORKBENCH_HOME": str(settings.home), "LLM_MODEL_CONTRACT": MODEL,
               "LLM_API_BASE": server.api_base, "OPENAI_API_KEY": "replay-key"}  # fmt: skip
        try:
            with streamlit_app(env, Path(settings.home) / "streamlit-stream-test.log") as url:
                yield url
        except AppStartError as e:
            pytest.fail(str(e))


def test_answer_text_appears_in_checked_pieces_before_the_turn_ends(
    page: Any, streaming_app: str, pg_pool: Any, screenshot_dir: Path
) -> None:
    page.goto(streaming_app)
    page.get_by_role("link", name="계약 조항").click()
    page.get_by_role("heading", name="계약 조항", exact=True).wait_for()
    page.get_by_text("조항 목록").wait_for(timeout=ANSWER_TIMEOUT_MS)
    wait_idle(page)
    question = f"제5조와 손해배상 조항을 비교해줘 ({uuid.uuid4().hex[:6]})"
    only_one(page.get_by_label("질문")).fill(question)
    page.get_by_role("button", name="질문하기").click()

    page.get_by_text(FIRST).first.wait_for(timeout=ANSWER_TIMEOUT_MS)
    stop = page.get_by_role("button", name="중지")
    assert stop.is_visible(), "the first sentence is on screen while the turn still runs"
    assert page.get_by_text(LAST).count() == 0, "the rest is not written yet"
    page.get_by_text("답변 작성 중").first.wait_for()
    page.get_by_text("근거와 다른 수치: 7개월").first.wait_for(timeout=ANSWER_TIMEOUT_MS)
    page.get_by_text("근거와 다른 수치: 7개월").first.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshot_dir / "contract_streaming.png"))

    page.get_by_text("답변 모드: LLM").first.wait_for(timeout=ANSWER_TIMEOUT_MS)
    wait_idle(page)
    shown = page.get_by_text(WRONG)  # the collapsed trace keeps the model's raw reply
    assert not any(shown.nth(i).is_visible() for i in range(shown.count())), \
        "the unbacked sentence is never shown as part of the answer"  # fmt: skip
    run = fetch_one(
        "SELECT status, answer FROM agent_runs WHERE screen = 'contract' AND question = %s",
        (question,), pg_pool,
    )  # fmt: skip
    assert run is not None and run["status"] == "partial"
    assert run["answer"].startswith(f"{FIRST} {SECOND} _(⚠️ 근거와 다른 수치: 7개월")
    assert LAST in run["answer"] and WRONG not in run["answer"]
