"""The Macro Q&A screen in real Chromium: a parallel question shows the route panel, the agent
cards, a chart, the trace and both citation tables."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.waits import ANSWER_TIMEOUT_MS

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("demo_data")]

CHART = ".js-plotly-plot .main-svg"
QUESTION = "삼성전자 최근 3개월 수익률과 하락 원인은?"  # equity SQL + graph evidence: parallel


def _open(page: Any, app_url: str) -> None:
    page.goto(app_url + "/macro")  # by its deep link: the Data screen is not drawn on the way
    page.get_by_role("heading", name="매크로 Q&A", exact=True).wait_for(timeout=ANSWER_TIMEOUT_MS)
    page.get_by_text("예시 질문").wait_for()


def test_parallel_question_shows_route_agents_chart_and_trace(
    page: Any, app_url: str, screenshot_dir: Path
) -> None:
    _open(page, app_url)
    box = page.get_by_placeholder("거시·주식·부동산 질문 (예: 한국 기준금리 추이)")
    box.fill(QUESTION)
    box.press("Enter")
    route = page.get_by_text("라우팅: 주식 + 관계·근거").or_(page.get_by_text("· 병렬 실행"))
    route.first.wait_for(timeout=ANSWER_TIMEOUT_MS)
    page.get_by_text("· 병렬 실행").first.wait_for()
    page.get_by_text("답변 모드:").first.wait_for()
    page.get_by_text("주식 · 완료").first.wait_for()  # the Equity agent card
    page.get_by_text("종가").first.wait_for()
    chart = page.locator(CHART).first
    chart.wait_for()
    assert page.locator(CHART).count() >= 1
    page.get_by_text("삼성전자 종가").first.wait_for()  # the price chart's title
    page.get_by_text("· 병렬 실행").first.click()  # open the route panel
    page.get_by_text("판단 근거").wait_for()
    steps = page.get_by_text("실행 단계 (")
    steps.wait_for()
    steps.click()
    page.get_by_text("equity/sql:equity_price_window").first.wait_for()
    page.get_by_text("정형 데이터 근거 (").wait_for()
    page.screenshot(path=str(screenshot_dir / "macro_qa_parallel.png"), full_page=True)
    page.get_by_text("근거 경로: 이벤트").first.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshot_dir / "macro_qa_parallel_path.png"))
    assert page.locator('[data-testid="stException"]').count() == 0
