"""The ETF chat screen in real Chromium: ask, see the answer, a chart and the agent's steps."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.waits import ANSWER_TIMEOUT_MS, wait_idle

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("demo_data")]

CHART = ".js-plotly-plot .main-svg"


def _open(page: Any, app_url: str) -> None:
    # By its deep link: the home (Data) screen is not drawn first on the way to every test.
    # The sidebar's links are followed by test_offline_korean's tour and the screenshot QA; a
    # cold deep link is test_analyst_screens' test_first_visit_by_deep_link_opens_the_screen_….
    page.goto(app_url + "/etf")
    page.get_by_role("heading", name="ETF 챗", exact=True).wait_for(timeout=ANSWER_TIMEOUT_MS)
    page.get_by_text("예시 질문").wait_for()
    page.get_by_role("button", name="KODEX 200과 TIGER 200 비교해줘").wait_for()
    page.get_by_text("새 대화").first.wait_for()


def _assert_no_exception(page: Any) -> None:
    assert page.locator('[data-testid="stException"]').count() == 0


def test_example_question_answers_with_chart_steps_and_citations(
    page: Any, app_url: str, screenshot_dir: Path
) -> None:
    _open(page, app_url)
    page.screenshot(path=str(screenshot_dir / "etf_chat_empty.png"), full_page=True)
    page.get_by_role("button", name="KODEX 200과 TIGER 200 비교해줘").click()
    heading = page.get_by_role("heading", name="KODEX 200과 TIGER 200 비교")
    heading.wait_for(timeout=ANSWER_TIMEOUT_MS)
    page.get_by_text("답변 모드: 오프라인 플래너").wait_for()
    page.locator(CHART).first.wait_for()  # normalized prices of the compared ETFs
    page.get_by_text("ETF 비교표").wait_for()
    steps = page.get_by_text("실행 단계 (")
    steps.wait_for()
    steps.click()
    page.get_by_text("compare_etfs").first.wait_for()
    page.get_by_text("정형 데이터 근거 (").wait_for()
    page.get_by_role("button", name="답변·근거 JSON 내려받기").wait_for()
    page.screenshot(path=str(screenshot_dir / "etf_chat_compare.png"), full_page=True)
    _assert_no_exception(page)


def test_typed_question_shows_price_chart(page: Any, app_url: str, screenshot_dir: Path) -> None:
    _open(page, app_url)
    box = page.get_by_placeholder("ETF에 대해 물어보세요 (예: KODEX 200 정보 알려줘)")
    box.fill("KODEX 200 3개월 가격 추이")
    box.press("Enter")
    answer = page.get_by_role("paragraph").filter(has_text="KODEX 200의 3개월 가격 추이")
    answer.wait_for(timeout=ANSWER_TIMEOUT_MS)
    chart = page.locator(CHART).first
    chart.wait_for()
    page.get_by_text("가격·거래대금").first.wait_for()
    page.screenshot(path=str(screenshot_dir / "etf_chat_prices.png"), full_page=True)
    _assert_no_exception(page)


def test_follow_up_answers_from_the_previous_answers_etfs(
    page: Any, app_url: str, screenshot_dir: Path
) -> None:
    """'그 중 …' in the browser: the second question ranks the first answer's ETFs (issue 14),
    and the trace's first step says what was understood."""
    _open(page, app_url)
    box = page.get_by_placeholder("ETF에 대해 물어보세요 (예: KODEX 200 정보 알려줘)")
    box.fill("배당 ETF 목록")
    box.press("Enter")
    page.get_by_text("'배당' 태그 ETF").first.wait_for(timeout=ANSWER_TIMEOUT_MS)
    box.fill("그 중 1년 수익률 제일 높은 거")
    box.press("Enter")
    page.get_by_text("직전 답변의 ETF").first.wait_for(timeout=ANSWER_TIMEOUT_MS)
    wait_idle(page)  # the turn's rerun has drawn the stored answer with its trace
    page.get_by_text("실행 단계 (").last.click()
    wait_idle(page)
    html = page.content()  # the trace's first step is the frame the planner read
    assert "이해한 질문" in html and "이전 턴 참조=그 중에서" in html
    page.screenshot(path=str(screenshot_dir / "etf_chat_follow_up.png"), full_page=True)
    _assert_no_exception(page)


def test_a_nested_question_shows_its_plan_and_the_words_it_read(
    page: Any, app_url: str, screenshot_dir: Path
) -> None:
    """Issue 31 in the browser: a nested question is answered as the plan it is (the ranked three
    and their average fee), and the trace's first step lists the words read and what each was
    read as; a typo'd name is linked with the note on the answer's first line."""
    _open(page, app_url)
    box = page.get_by_placeholder("ETF에 대해 물어보세요 (예: KODEX 200 정보 알려줘)")
    box.fill("순자산 상위 3개 ETF의 평균 총보수는?")
    box.press("Enter")
    page.get_by_text("순자산총액 높은 순 상위 3개 ETF의 총보수 평균").first.wait_for(
        timeout=ANSWER_TIMEOUT_MS
    )
    wait_idle(page)
    page.get_by_text("실행 단계 (").last.click()
    wait_idle(page)
    html = page.content()
    assert "이해한 질문" in html and "읽은 말" in html and "측정:순자산" in html
    page.screenshot(path=str(screenshot_dir / "etf_chat_nested_plan.png"), full_page=True)
    box.fill("KODX 200 총보수")
    box.press("Enter")
    page.get_by_text("'KODX 200'을 KODEX 200으로 읽었습니다.").first.wait_for(
        timeout=ANSWER_TIMEOUT_MS
    )
    _assert_no_exception(page)
