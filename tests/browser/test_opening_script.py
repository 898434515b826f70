"""The opening-script screen in real Chromium: run a day, see themes, script, context, evidence."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.waits import ANSWER_TIMEOUT_MS

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("demo_data")]

CHART = ".js-plotly-plot .main-svg"


def _open(page: Any, app_url: str) -> None:
    page.goto(app_url)
    page.get_by_role("link", name="오프닝 스크립트").click()
    page.get_by_role("heading", name="오프닝 스크립트", exact=True).wait_for()
    page.get_by_role("button", name="대본 만들기").wait_for()
    picker = page.locator('[data-testid="stSelectbox"]').first.locator("input").first
    assert picker.input_value().startswith("2026-11-20 (금) · 기사")  # latest day with news


def test_run_shows_themes_script_context_and_evidence(
    page: Any, app_url: str, screenshot_dir: Path
) -> None:
    _open(page, app_url)
    page.get_by_role("button", name="대본 만들기").click()
    page.get_by_text("오늘 장 한마디").wait_for(timeout=ANSWER_TIMEOUT_MS)
    page.get_by_text("답변 모드: 오프라인 플래너").wait_for()
    page.get_by_role("heading", name="핵심 테마").wait_for()
    page.get_by_text("11월 20일 오프닝입니다.").wait_for()
    assert page.locator('[data-testid="stChatMessage"]').count() >= 6
    # a script line cites an English article by its outlet, not by its English headline (the
    # lead theme's two sources are English; the theme's 관련 뉴스 keeps the titles)
    cited = page.locator('[data-testid="stChatMessage"] [data-testid="stCaptionContainer"]')
    lines = [c.inner_text() for c in cited.all()]
    assert lines and all(line.startswith("출처: ") for line in lines), lines
    assert "Atlas Demo Markets 영문 기사 1 · Atlas Demo Markets 영문 기사 2" in lines[0], lines
    assert not any("NVIDIA" in line for line in lines), lines
    # the lead theme is the day's biggest story, in Korean, and the ranking behind it is shown
    page.get_by_role("heading", name="엔비디아, 분기 EPS 예상치 밑돌아 급락").wait_for()
    page.get_by_text("시장 영향력 순위").click()
    movers = page.locator('[data-testid="stExpander"]').filter(has_text="시장 영향력 순위")
    movers.locator('[data-testid="stDataFrame"]').wait_for()
    movers.get_by_text("등락률 × 원화 시가총액 순").wait_for()
    page.get_by_role("heading", name="시장 컨텍스트").wait_for()
    page.get_by_text("코스피", exact=True).first.wait_for()  # the index level itself (issue 25)
    page.locator(CHART).first.wait_for()  # keyword frequencies
    page.get_by_text("제목 키워드 빈도").first.wait_for()
    page.get_by_text("실행 단계 (").click()
    page.locator("text=get_ohlcv >> visible=true").first.wait_for()
    page.get_by_text("문서 근거").wait_for()
    page.get_by_role("button", name="오프닝 결과 JSON 내려받기").wait_for()
    page.get_by_role("button", name="대본 Markdown 내려받기").wait_for()
    page.screenshot(path=str(screenshot_dir / "opening_script_run.png"), full_page=True)
    assert page.locator('[data-testid="stException"]').count() == 0


def test_a_past_script_reopens(page: Any, app_url: str) -> None:
    _open(page, app_url)
    page.get_by_text("지난 스크립트").wait_for()
    page.get_by_role("button", name="열기").click()
    page.get_by_text("답변 모드:").first.wait_for(timeout=ANSWER_TIMEOUT_MS)
    page.get_by_role("button", name="답변·근거 JSON 내려받기").wait_for()
    assert page.locator('[data-testid="stException"]').count() == 0
