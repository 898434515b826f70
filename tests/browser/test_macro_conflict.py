"""A conflict between the evidence shown to the user in real Chromium (seed 004 §2.3): a
document in the graph says the base rate was raised to 3.00% while the observations stay at
2.25%; the answer shows both sides at its top, and the trace's `conflict_check` step says so.
Then a housing figure the graph's monthly summary holds differently from SQL (§12.2-4): both
values are shown, neither picked; and a month's deal count the summary holds differently."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from data_access.graph.base import GraphStore
from tests.browser.waits import ANSWER_TIMEOUT_MS, wait_idle
from tests.fixtures.macro_conflict import HOUSING, RATE_WHY, altered_summary, contradicting_event

DEALS = "서울 강남구 아파트 실거래가 최근 1년"  # counts and medians cross-checked with the summary
pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("demo_data")]


def test_a_conflict_is_shown_in_the_answer_and_the_trace(
    page: Any, app_url: str, screenshot_dir: Path, graph_store: GraphStore
) -> None:
    with contradicting_event(graph_store):
        page.goto(app_url)
        page.get_by_role("link", name="매크로 Q&A").click()
        page.get_by_role("heading", name="매크로 Q&A", exact=True).wait_for()
        box = page.get_by_placeholder("거시·주식·부동산 질문 (예: 한국 기준금리 추이)")
        box.fill(RATE_WHY)
        box.press("Enter")
        page.get_by_text("근거 간 수치 충돌 1건").first.wait_for(timeout=ANSWER_TIMEOUT_MS)
        page.get_by_text("인상(상승), 수준 3.00%").first.wait_for()
        wait_idle(page)  # the chat has stopped scrolling to its end
        page.get_by_text("답변 모드:").first.wait_for()
        page.get_by_text("근거 간 수치 충돌 1건").first.scroll_into_view_if_needed()
        page.screenshot(path=str(screenshot_dir / "macro_qa_conflict.png"))
        steps = page.get_by_text("실행 단계 (")
        steps.click()
        page.get_by_text("conflict_check").first.wait_for()
        page.get_by_text("conflict_check").first.scroll_into_view_if_needed()
        page.screenshot(path=str(screenshot_dir / "macro_qa_conflict_trace.png"))
        assert page.locator('[data-testid="stException"]').count() == 0
    with altered_summary(graph_store, "서울|2026-09", "house_price_index", 112.97) as sql_value:
        box.fill(HOUSING)
        box.press("Enter")
        shown = f"SQL(re_house_price_index) {sql_value:,.6g} ↔ 그래프 월간 요약"
        page.get_by_text(shown).first.wait_for(timeout=ANSWER_TIMEOUT_MS)
        wait_idle(page)
        page.get_by_text(shown).first.scroll_into_view_if_needed()
        page.screenshot(path=str(screenshot_dir / "macro_qa_re_summary_conflict.png"))
        assert page.get_by_text("RealEstateMonthlySummary) 112.97").count() >= 1
        assert page.locator('[data-testid="stException"]').count() == 0
    [deals] = graph_store.read(
        "MATCH (r:RealEstateMonthlySummary {summary_key: '서울 강남구|2026-08'})"
        " RETURN r.transactions AS n"
    )
    with altered_summary(graph_store, "서울 강남구|2026-08", "transactions", deals["n"] + 5):
        box.fill(DEALS)
        box.press("Enter")
        shown = f"서울 강남구 실거래 건수 2026-08: SQL(re_transactions) {deals['n']:,}"
        page.get_by_text(shown).first.wait_for(timeout=ANSWER_TIMEOUT_MS)
        wait_idle(page)
        page.get_by_text(shown).first.scroll_into_view_if_needed()
        page.screenshot(path=str(screenshot_dir / "macro_qa_deal_count_conflict.png"))
        assert page.get_by_text(f"RealEstateMonthlySummary) {deals['n'] + 5:,}").count() >= 1
        assert page.locator('[data-testid="stException"]').count() == 0
