"""The Data screen's 운영 tab in real Chromium (offline planner, demo data in the test stores)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from data_access.catalog import DOMAIN_TITLES_KO
from data_access.run_reports import projection_lags

pytestmark = pytest.mark.browser

CHART = ".js-plotly-plot .main-svg"
LAG_LABELS = {"ok": "정상", "warn": "경고", "fail": "실패", "none": "프로젝션 없음"}


def _open_operations(page: Any, app_url: str) -> None:
    page.goto(app_url)  # the Data screen is the default page
    page.get_by_role("heading", name="데이터", exact=True).wait_for()
    page.get_by_role("tab", name="운영").click()
    page.get_by_text("프로젝션 지연 (PostgreSQL → 그래프)").wait_for()


def _assert_no_exception(page: Any) -> None:
    assert page.locator('[data-testid="stException"]').count() == 0


def test_projection_lag_and_run_reports(
    page: Any, app_url: str, demo_data: Any, pg_pool: Any, screenshot_dir: Path
) -> None:
    _open_operations(page, app_url)
    panel = page.get_by_role("tabpanel", name="운영")
    # One badge per projected domain, saying what data_access says about the same stores.
    for lag in projection_lags(pg_pool):
        title = DOMAIN_TITLES_KO[lag.domain]
        label = LAG_LABELS[lag.status]
        panel.get_by_text(re.compile(rf"^{title} · {label}( \(.+\))?$")).wait_for()
    page.get_by_role("heading", name="최근 가져오기 실행 보고").wait_for()
    page.get_by_text("도메인별 최근 프로젝션 단계 보고").click()
    page.get_by_text("indicator_observations").first.wait_for(state="attached")
    page.screenshot(path=str(screenshot_dir / "data_operations_lag.png"), full_page=True)
    _assert_no_exception(page)
