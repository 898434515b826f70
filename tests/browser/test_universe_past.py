"""An answer over a past Top50 universe in real Chromium (issue 35, seed 004 §4-2): the window's
return on the universe as it was (당시 유니버스) and as it is (현재 유니버스), each with its
snapshot date, and the 편입/편출 between them; the trace shows the membership read."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.waits import ANSWER_TIMEOUT_MS, wait_idle

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("demo_data")]


def test_past_universe_answer_is_shown_then_and_now(
    page: Any, app_url: str, screenshot_dir: Path
) -> None:
    page.goto(app_url)
    page.get_by_role("link", name="매크로 Q&A").click()
    page.get_by_role("heading", name="매크로 Q&A", exact=True).wait_for()
    box = page.get_by_placeholder("거시·주식·부동산 질문 (예: 한국 기준금리 추이)")
    box.fill("KR_TOP50 3개월 수익률")
    box.press("Enter")
    page.get_by_text("당시 유니버스(").first.wait_for(timeout=ANSWER_TIMEOUT_MS)
    wait_idle(page)
    page.get_by_text("답변 모드:").first.wait_for()
    answer = page.get_by_text("당시 유니버스(").first
    assert "현재 유니버스(" in answer.inner_text()
    page.get_by_text("편출").first.wait_for()
    answer.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshot_dir / "macro_qa_past_universe.png"))
    page.get_by_text("실행 단계 (").click()
    page.get_by_text("universe_members").first.wait_for()
    assert page.locator('[data-testid="stException"]').count() == 0
