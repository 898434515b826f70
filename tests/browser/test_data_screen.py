"""The Data screen in real Chromium: it renders in Korean, charts draw, the console works."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.waits import ANSWER_TIMEOUT_MS

pytestmark = pytest.mark.browser

SERIES_QUERY = (
    "SELECT d::date AS day, (extract(day FROM d) * 1.5)::float AS value"
    " FROM generate_series('2026-11-01'::date, '2026-11-20', '1 day') AS d"
)
CHART = ".js-plotly-plot .main-svg"


def _open(page: Any, app_url: str) -> None:
    page.goto(app_url)  # the Data screen is the default page, at "/"
    # A wait, not a limit: run alone, this file makes the app's first view (stores, catalogue),
    # which took over 30 s at load 11-19.
    page.get_by_role("heading", name="데이터", exact=True).wait_for(timeout=ANSWER_TIMEOUT_MS)
    page.get_by_text("답변 모드").wait_for()
    page.get_by_role("tab", name="데이터셋").wait_for()


@pytest.fixture(scope="module")
def data_page(module_page: Any, app_url: str) -> Any:
    """The Data screen in one session for the tests of its tabs: each clicks its own tab, so
    they pass in any order; the screen's first draw (catalogue, charts, sidebar) is made once."""
    _open(module_page, app_url)
    return module_page


def _assert_no_exception(page: Any) -> None:
    assert page.locator('[data-testid="stException"]').count() == 0


def _run_query(page: Any, query: str) -> None:
    box = page.locator('textarea[aria-label="쿼리"]')
    box.fill(query)
    box.press("Control+Enter")  # commit the text before the button rerun
    page.get_by_role("button", name="실행").click()


def test_datasets_tab_shows_the_catalogue(data_page: Any, screenshot_dir: Path) -> None:
    page = data_page
    page.get_by_role("tab", name="데이터셋").click()
    page.locator('[data-testid="stDataFrame"]').first.wait_for()
    # The grid draws on a canvas; its accessible cells are in the DOM but not "visible".
    page.get_by_text("KR_ETF_DAILY_PRICE").first.wait_for(state="attached")
    page.get_by_text("데모 데이터").first.wait_for()  # the sidebar labels seeded data
    page.get_by_text("도메인별 적재 행 수").wait_for()
    page.locator(CHART).first.wait_for()
    assert page.get_by_text("result shapes").count() == 0  # no pages/ auto-discovery
    page.screenshot(path=str(screenshot_dir / "data_datasets.png"), full_page=True)
    _assert_no_exception(page)


def test_projection_and_schema_tabs_show_the_graph(data_page: Any, screenshot_dir: Path) -> None:
    page = data_page
    page.get_by_role("tab", name="프로젝션 실행").click()
    page.get_by_text("최근 배치의 단계별 반영 행 수").wait_for()
    page.screenshot(path=str(screenshot_dir / "data_projection_runs.png"), full_page=True)
    page.get_by_role("tab", name="그래프 스키마").click()
    page.get_by_text("라벨별 노드 수").wait_for()
    page.get_by_text("관계 유형 (방향 포함)").wait_for()
    page.get_by_text("(ETF)-[:HOLDS]->(Stock)").first.wait_for(state="attached")
    page.screenshot(path=str(screenshot_dir / "data_graph_schema.png"), full_page=True)
    _assert_no_exception(page)


def test_console_runs_a_query_and_charts_the_series(data_page: Any, screenshot_dir: Path) -> None:
    page = data_page
    page.get_by_role("tab", name="쿼리 콘솔").click()
    page.get_by_text("SQL", exact=True).click()  # the language another test may have changed
    page.locator(".st-key-console_query_SQL textarea").wait_for()
    _run_query(page, SERIES_QUERY)
    page.get_by_text("20행 ·").wait_for()
    chart = page.get_by_role("tabpanel", name="쿼리 콘솔").locator(CHART).last
    chart.wait_for()
    page.get_by_text("쿼리 결과 시계열").first.wait_for()
    page.screenshot(path=str(screenshot_dir / "data_console_sql.png"), full_page=True)
    _assert_no_exception(page)


def test_console_draws_graph_results_as_a_network(data_page: Any, screenshot_dir: Path) -> None:
    page = data_page
    page.get_by_role("tab", name="쿼리 콘솔").click()
    page.get_by_text("Cypher", exact=True).click()
    page.locator('textarea[aria-label="쿼리"]').wait_for()
    page.get_by_role("button", name="실행").click()  # the example: ETF-TAGGED->Tag paths
    page.get_by_text("쿼리 결과 그래프").wait_for()
    page.get_by_text("관계 유형: TAGGED").wait_for()
    page.get_by_role("tabpanel", name="쿼리 콘솔").locator(CHART).last.wait_for()
    page.screenshot(path=str(screenshot_dir / "data_console_cypher.png"), full_page=True)
    _assert_no_exception(page)


def test_stores_that_are_down_are_reported_in_korean(
    page: Any, stores_down_app_url: str, screenshot_dir: Path
) -> None:
    page.goto(stores_down_app_url)
    page.get_by_role("heading", name="데이터", exact=True).wait_for()
    page.get_by_text("PostgreSQL에 연결할 수 없어 이 영역을 표시하지 못했습니다").first.wait_for()
    page.get_by_text("연결 안 됨").nth(1).wait_for()
    assert page.get_by_text("연결 안 됨").count() == 2  # PostgreSQL and Neo4j in the sidebar
    page.get_by_role("tab", name="그래프 스키마").click()
    page.get_by_text("그래프 저장소에 연결할 수 없어").wait_for()
    page.get_by_role("tab", name="쿼리 콘솔").click()
    page.get_by_text("Cypher", exact=True).click()
    page.locator('textarea[aria-label="쿼리"]').wait_for()
    page.get_by_role("button", name="실행").click()
    page.get_by_text("그래프 저장소에 연결할 수 없습니다.").wait_for()
    page.screenshot(path=str(screenshot_dir / "data_stores_down.png"), full_page=True)
    _assert_no_exception(page)
    assert page.get_by_text("secret").count() == 0  # no password on screen
