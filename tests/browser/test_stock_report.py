"""The stock report screen in real Chromium: run a report, see the live node view, the report,
the charts with the event markers, the figures, fundamentals, earnings and events tables, the
news citations and the tool log; an unknown symbol shows the nearest matches."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser.waits import ANSWER_TIMEOUT_MS, only_one

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("demo_data")]

CHART = ".js-plotly-plot .main-svg"
TABLE = "table.atlas-table"  # the small fixed tables, drawn as HTML (pages/_static_table.py)
TEXTS = "els => els.map(e => e.textContent)"


def _headers(table: Any) -> list[str]:
    return list(table.locator("th").evaluate_all(TEXTS))


def _open(page: Any, app_url: str) -> None:
    page.goto(app_url + "/stock")  # by its deep link: the Data screen is not drawn on the way
    page.get_by_role("heading", name="종목 리포트", exact=True).wait_for(timeout=ANSWER_TIMEOUT_MS)
    page.get_by_role("button", name="리포트 생성").wait_for()


def _ask(page: Any, question: str) -> None:
    """The symbol box takes the question as a new option (sent once its list has closed: clicked
    before that under load, the form once sent an empty symbol), then 리포트 생성."""
    box = page.get_by_role("combobox").first
    box.click()
    box.fill(question)
    page.keyboard.press("Enter")
    page.wait_for_function("(el) => el.getAttribute('aria-expanded') === 'false'",
                           arg=box.element_handle())  # fmt: skip
    page.get_by_role("button", name="리포트 생성").click()


def _assert_no_exception(page: Any) -> None:
    assert page.locator('[data-testid="stException"]').count() == 0


def test_example_symbol_runs_the_workflow_and_shows_the_report(
    page: Any, app_url: str, screenshot_dir: Path
) -> None:
    _open(page, app_url)
    page.get_by_role("button", name="삼성전자", exact=True).click()
    page.get_by_role("heading", name="삼성전자 (005930) 종목 리포트").wait_for(
        timeout=ANSWER_TIMEOUT_MS
    )
    page.get_by_text("답변 모드: 오프라인 플래너").wait_for()
    for title in ("삼성전자 가격·거래량 (6개월 일봉)", "삼성전자 고점 대비 낙폭 · RSI(14)",
                  "삼성전자 PER과 섹터 비교"):  # fmt: skip
        page.get_by_text(title, exact=False).first.wait_for()
    assert page.locator(CHART).count() >= 3
    page.get_by_text("핵심 지표").first.wait_for()
    page.get_by_text("RSI(14)").first.wait_for()
    # The earnings miss of 2026-10-29 as a marker on the candlesticks and a row of the tables.
    markers = page.locator(".js-plotly-plot").first.locator(".scatterlayer .trace text")
    assert "실적" in markers.evaluate_all(TEXTS)
    page.get_by_text("실적·기본 지표 (섹터·자기 과거 대비)").wait_for()
    page.get_by_text("주요 이벤트 (최근 30일, 1건)", exact=False).wait_for()
    for header in ("자기 과거 중앙값", "서프라이즈", "원인 확인"):
        page.locator(f"{TABLE} th", has_text=header).first.wait_for()
    # tables by their second column: 종목 (fundamentals), 발표일 (earnings), 유형 (events)
    tables = {h[1]: t for t in page.locator(TABLE).all() if len(h := _headers(t)) > 1}
    assert _headers(tables["발표일"])[4] == "서프라이즈"
    quarter = tables["발표일"].locator("td").evaluate_all(TEXTS)[:6]
    assert quarter == ["2026Q3", "2026-10-29", "2,012원", "1,658원", "-17.59%", "하회"]
    surprise = tables["발표일"].locator("td").nth(4)  # a miss in the fall colour (blue)
    assert surprise.evaluate("e => getComputedStyle(e).color") == "rgb(37, 99, 235)"
    event = tables["유형"].locator("td").evaluate_all(TEXTS)
    assert event[:2] == ["2026-10-29", "실적"] and "-6.74%" in event
    assert "PBR" in tables["종목"].locator("td").evaluate_all(TEXTS)
    page.get_by_text("리포트에 사용한 뉴스").wait_for()
    page.get_by_text("도구 호출 로그 (5)").wait_for()  # stock, news, three calculations
    page.get_by_text("완료", exact=True).click()  # the live node view, kept after the run
    page.get_by_text("▶ 1. 리서치").wait_for()
    page.get_by_text("✔ 검토 완료 → 상태: 완료", exact=False).wait_for()
    page.get_by_text("실행 단계 (").click()
    page.get_by_text("calculator_tool").last.wait_for()
    # the trace's rerun drew the page without the node view: its elements moved up one place and
    # the last run's stood beside them until the run ended
    only_one(page.get_by_role("button", name="리포트 Markdown 내려받기"))
    only_one(page.get_by_role("button", name="리포트 JSON 내려받기"))
    page.screenshot(path=str(screenshot_dir / "stock_report.png"), full_page=True)
    _assert_no_exception(page)


def test_typed_unknown_symbol_shows_nearest_matches(
    page: Any, app_url: str, screenshot_dir: Path
) -> None:
    _open(page, app_url)
    box = page.get_by_role("combobox").first
    box.click()
    box.fill("삼송전자")
    page.keyboard.press("Enter")
    page.get_by_role("button", name="리포트 생성").click()
    page.get_by_text("혹시 이 종목을 찾으셨나요?").first.wait_for(timeout=ANSWER_TIMEOUT_MS)
    page.get_by_text("주식 데이터 조회 실패").first.wait_for()
    page.get_by_role("button", name="삼성전자 (005930)").wait_for()  # a look-alike name
    page.screenshot(path=str(screenshot_dir / "stock_unknown.png"), full_page=True)
    _assert_no_exception(page)


def test_a_question_is_charted_from_its_own_window(
    page: Any, app_url: str, screenshot_dir: Path
) -> None:
    """'SK하이닉스 최근 5일 종가' answers with five closes and draws those five sessions, titled
    in words, the first and last close written beside their points (issue 33)."""
    _open(page, app_url)
    _ask(page, "SK하이닉스 최근 5일 종가")
    page.get_by_text("최근 5거래일 종가").first.wait_for(timeout=ANSWER_TIMEOUT_MS)
    title = page.locator("text.gtitle", has_text="SK하이닉스 종가 (최근 5거래일)")
    title.wait_for(timeout=ANSWER_TIMEOUT_MS)
    closes = page.get_by_text("최근 5거래일 종가").first.inner_text()
    written = page.locator(".js-plotly-plot .annotation-text").evaluate_all(TEXTS)
    assert len(written) == 2 and all(w.replace(",", "") + "원" in closes.replace(",", "")
                                     for w in written), (written, closes)  # fmt: skip
    page.screenshot(path=str(screenshot_dir / "stock_question_chart.png"), full_page=True)
    _assert_no_exception(page)


def test_a_follow_up_asks_the_last_figures_of_another_stock(
    page: Any, app_url: str, screenshot_dir: Path
) -> None:
    """'삼성전자 PER', then 'SK하이닉스는?': the second turn is SK하이닉스's PER (the screen keeps
    its last figures turn), not the full report a bare name asks for (issue 31)."""
    _open(page, app_url)
    for question, name in (
        ("삼성전자 PER", "삼성전자 (005930)"),
        ("SK하이닉스는?", "SK하이닉스 (000660)"),
    ):
        _ask(page, question)
        page.get_by_text(name).first.wait_for(timeout=ANSWER_TIMEOUT_MS)
    page.get_by_text(re.compile(r"PER \d+\.\d{2}배, PBR")).first.wait_for(timeout=ANSWER_TIMEOUT_MS)
    assert page.get_by_role("heading", name=re.compile("SK하이닉스.*종목 리포트")).count() == 0
    assert page.get_by_text("삼성전자 (005930)").count() == 0  # the answer is the second turn's
    page.screenshot(path=str(screenshot_dir / "stock_follow_up.png"), full_page=True)
    _assert_no_exception(page)


def test_a_partial_answer_says_why_in_its_banner(page: Any, app_url: str) -> None:
    """A stock answer made partial by the reading ('보험주' answered over the whole 금융 sector)
    carried no error text, and its banner read '부분 답변: None'."""
    _open(page, app_url)
    _ask(page, "배당수익률 가장 높은 보험주의 PER")
    page.get_by_text("금융 업종 전체로 답했습니다").first.wait_for(timeout=ANSWER_TIMEOUT_MS)
    page.get_by_text("부분 답변: 질문의 일부만 답했습니다", exact=False).wait_for()
    assert page.get_by_text("부분 답변: None").count() == 0
    _assert_no_exception(page)
