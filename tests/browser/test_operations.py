"""The Data screen's 운영 tab in real Chromium, against the test stores with the demo data.

No model is configured (offline planner), so no LLM provider is involved: the evaluation runs
the golden cases through the screens' own service functions on the real PostgreSQL + FalkorDB.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from data_access.catalog import DOMAIN_TITLES_KO
from data_access.run_reports import projection_lags
from tests.browser.waits import wait_idle

pytestmark = pytest.mark.browser

CHART = ".js-plotly-plot .main-svg"
LAG_LABELS = {"ok": "정상", "warn": "경고", "fail": "실패", "none": "프로젝션 없음"}
RUN_TIMEOUT_MS = 300_000  # a wait for the suite, not a speed limit
RERUN_CASE = "etf-info-kodex200"
NOT_IN_ANSWER = "이 문장은 어떤 답변에도 나오지 않는다"


@pytest.fixture(scope="module")
def data_page(module_page: Any, app_url: str) -> Any:
    """The Data screen in one session for the three tests of its 운영 tab (the screen's first
    draw was made once per test); each opens the tab itself, so they pass in any order."""
    module_page.goto(app_url)  # the Data screen is the default page
    heading = module_page.get_by_role("heading", name="데이터", exact=True)
    heading.wait_for(timeout=RUN_TIMEOUT_MS)  # a wait: the app's first view when run alone
    return module_page


def _open_operations(page: Any) -> Any:
    page.get_by_role("tab", name="운영").click()
    panel = page.get_by_role("tabpanel", name="운영")
    panel.get_by_text("프로젝션 지연 (PostgreSQL → 그래프)").wait_for()
    return panel


def _assert_no_exception(page: Any) -> None:
    assert page.locator('[data-testid="stException"]').count() == 0


def test_projection_lag_and_run_reports(
    data_page: Any, demo_data: Any, pg_pool: Any, screenshot_dir: Path
) -> None:
    page = data_page
    panel = _open_operations(page)
    # One badge per projected domain, saying what data_access says about the same stores.
    for lag in projection_lags(pg_pool):
        title = DOMAIN_TITLES_KO[lag.domain]
        label = LAG_LABELS[lag.status]
        panel.get_by_text(re.compile(rf"^{title} · {label}( \(.+\))?$")).wait_for()
    panel.get_by_role("heading", name="최근 가져오기 실행 보고").wait_for()
    panel.get_by_text("도메인별 최근 프로젝션 단계 보고").click()
    panel.get_by_text("managers", exact=True).first.wait_for(state="attached")  # an ETF step
    page.screenshot(path=str(screenshot_dir / "data_operations_lag.png"), full_page=True)
    _assert_no_exception(page)


def test_run_a_suite_with_the_button(data_page: Any, demo_data: Any, screenshot_dir: Path) -> None:
    from agents.eval import load_cases

    page = data_page
    total = len(load_cases(["guard"]))
    panel = _open_operations(page)
    chosen = panel.locator('[data-testid="stMultiSelect"]').filter(has_text="실행할 스위트")
    chosen.get_by_text("금지 쿼리 차단").wait_for()  # the default: the quickest suite
    panel.get_by_role("button", name="평가 실행").click()
    bar = panel.locator('[data-testid="stProgress"]')
    bar.get_by_text(f"완료: {total}/{total} 통과").wait_for(timeout=RUN_TIMEOUT_MS)
    assert bar.get_by_role("progressbar").get_attribute("aria-valuenow") == "100"
    done = panel.get_by_text(re.compile(rf"^평가 실행 .+ 완료: {total}/{total} 통과"))
    done.wait_for()
    # The tiles show this run: the guard suite measures the forbidden-query block rates only.
    picker = panel.locator('[data-testid="stSelectbox"]').filter(has_text="KPI를 볼 평가 실행")
    assert picker.locator("input").first.input_value().endswith("금지 쿼리 차단 · 통과율 100.0%")
    run_id = done.inner_text().split()[2]
    panel.get_by_text(re.compile(f"^평가 실행 {run_id} \\(.*금지 쿼리 차단")).wait_for()
    panel.get_by_text("달성 · 목표 ≥ 100%").first.wait_for()
    assert panel.get_by_text(re.compile("^데이터 없음 · 목표")).count() >= 1
    # .first: while the run redraws, the chart of the runs before it can stay beside the new one
    panel.get_by_text(re.compile("^실행별 통과율과 주요 KPI")).first.wait_for()
    panel.locator(CHART).first.wait_for()
    page.screenshot(path=str(screenshot_dir / "data_operations_run.png"), full_page=True)
    _assert_no_exception(page)


@pytest.fixture()
def failed_case(pg_pool: Any, graph_store: Any, settings: Any, demo_data: Any) -> str:
    """A real golden case run once with one expectation its answer cannot meet (a real run,
    recorded like any other), so the tab has a failure whose rerun passes."""
    from agents.eval.cases import find_case
    from agents.eval.models import Fact
    from agents.eval.runner import run_suites

    case = find_case(RERUN_CASE)
    wrong = case.model_copy(
        update={"facts": [*case.facts, Fact(kind="contains", text=NOT_IN_ANSWER)]}
    )
    offline = settings.model_copy(update={"llm_model": None, "llm_model_etf": None})
    run = run_suites(pool=pg_pool, store=graph_store, settings=offline, cases=[wrong], kind="rerun")
    assert not run.results[0].passed and run.results[0].failure_category == "wrong_fact"
    return RERUN_CASE


def test_rerun_a_failed_case_from_its_report(
    data_page: Any, failed_case: str, screenshot_dir: Path
) -> None:
    page = data_page
    panel = _open_operations(page)
    page.get_by_role("button", name="새로 고침").click()  # reads are cached for 30 s
    panel.get_by_role("heading", name="최근 실패").wait_for()
    wait_idle(page)  # the refresh's rerun redraws the expander closed if it is clicked mid-run
    report = panel.locator('[data-testid="stExpander"]').filter(
        has_text=f"{failed_case} · 사실 불일치"
    )
    report.get_by_text(f"{failed_case} · 사실 불일치").click()
    report.get_by_text("입력", exact=True).wait_for()
    report.get_by_text(re.compile(r"^쿼리·도구 호출 \(\d+건\)")).wait_for()
    report.get_by_text("재현 명령").wait_for()
    report.get_by_role("button", name="재실행").click()
    result = report.get_by_text(re.compile("^재실행 결과: 통과"))
    result.wait_for(timeout=RUN_TIMEOUT_MS)
    report.scroll_into_view_if_needed()  # Streamlit scrolls inside its main area
    page.screenshot(path=str(screenshot_dir / "data_operations_rerun.png"), full_page=True)
    _assert_no_exception(page)
