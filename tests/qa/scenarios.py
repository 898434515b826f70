"""Scripted scenarios per screen: reach the screen through the sidebar and do what a user does.

Each scenario leaves the screen in a settled state worth a screenshot (answer shown, trace open).
Screens are reached through the navigation links, never deep links (see pages/_ui.ensure_shell).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.browser.waits import only_one
from tests.browser.waits import wait_idle as script_idle

ANSWER_TIMEOUT_MS = 90_000
# A screen's first view in a new app process (stores, catalogue, the page's own queries) took
# over 30 s at load 18 on the shared two-core machine: a wait, not a measure, so a long one.
FIRST_VIEW_MS = 90_000
NARROW_MAX_PX = 768  # Streamlit overlays the sidebar below this width
CHART = ".js-plotly-plot .main-svg"
OPENING_DAY = "2026-11-20"
# The bundled user-side sample, uploaded as a user would: its id is the content hash, so every
# run stores (or finds) the same contract and the screen stays the same.
CONTRACT_SAMPLE = Path(__file__).resolve().parents[2] / "agents/contract/samples/user_provide.md"
ETF_QUESTION = "KODEX 200 3개월 가격 추이"
MACRO_QUESTION = "삼성전자 최근 3개월 수익률과 하락 원인은?"
CONTRACT_QUESTION = "제11조 비밀유지 기간은?"

Scenario = Callable[[Any], None]


def open_screen(page: Any, base_url: str, link: str | None, heading: str) -> None:
    """Load the app at "/" and follow the sidebar link `link` (None: stay on the home screen)."""
    if link is not None and link.startswith("/"):  # a deep link, as from a bookmark
        page.goto(base_url + link)
        page.get_by_role("heading", name=heading, exact=True).wait_for(timeout=FIRST_VIEW_MS)
        collapse = page.get_by_test_id("stSidebarCollapseButton")
        if page.viewport_size["width"] < NARROW_MAX_PX and collapse.is_visible():
            collapse.click()
        return
    page.goto(base_url)
    # the sidebar is drawn: the shell is up (a process's first view prepares the stores first)
    page.get_by_text("답변 모드").first.wait_for(timeout=FIRST_VIEW_MS)
    if link is not None:
        expand = page.get_by_test_id("stExpandSidebarButton")
        if expand.is_visible():  # narrow viewports start with the sidebar collapsed
            expand.click()
        page.get_by_role("link", name=link).click(timeout=FIRST_VIEW_MS)
        collapse = page.get_by_test_id("stSidebarCollapseButton")
        if page.viewport_size["width"] < NARROW_MAX_PX and collapse.is_visible():
            collapse.click()
    page.get_by_role("heading", name=heading, exact=True).wait_for(timeout=FIRST_VIEW_MS)


def wait_idle(page: Any, timeout_ms: int = ANSWER_TIMEOUT_MS) -> None:
    """Until Streamlit's "running" indicator is gone (a rerun has finished)."""
    running = page.locator('[data-testid="stStatusWidgetRunningIcon"]')
    running.wait_for(state="detached", timeout=timeout_ms)


def open_trace(page: Any) -> None:
    """Open the trace and wait for its steps: they are drawn by the rerun the click starts
    (pages/_answer.render_trace), which may not have begun when the click returns."""
    steps = page.get_by_text("실행 단계 (").first
    steps.wait_for()
    steps.click()
    trace = page.locator('[data-testid="stExpander"]').filter(has_text="실행 단계 (").first
    trace.get_by_text(re.compile(r"^1\. ")).first.wait_for(timeout=ANSWER_TIMEOUT_MS)


def data_screen(page: Any) -> None:
    page.get_by_role("tab", name="데이터셋").wait_for()
    page.locator('[data-testid="stDataFrame"]').first.wait_for()
    page.get_by_text("도메인별 적재 행 수").wait_for()
    page.locator(CHART).first.wait_for()


def etf_chat(page: Any) -> None:
    box = page.get_by_placeholder("ETF에 대해 물어보세요 (예: KODEX 200 정보 알려줘)")
    box.fill(ETF_QUESTION)
    box.press("Enter")
    page.get_by_role("paragraph").filter(has_text="KODEX 200의 3개월 가격 추이").wait_for(
        timeout=ANSWER_TIMEOUT_MS
    )
    page.locator(CHART).first.wait_for()
    open_trace(page)
    page.get_by_text("정형 데이터 근거 (").wait_for()


def macro_qa(page: Any) -> None:
    box = page.get_by_placeholder("거시·주식·부동산 질문 (예: 한국 기준금리 추이)")
    box.fill(MACRO_QUESTION)
    box.press("Enter")
    page.get_by_text("· 병렬 실행").first.wait_for(timeout=ANSWER_TIMEOUT_MS)
    page.get_by_text("삼성전자 종가").first.wait_for()
    open_trace(page)
    page.get_by_text("정형 데이터 근거 (").wait_for()


def opening_script(page: Any) -> None:
    picker = page.locator('[data-testid="stSelectbox"]').filter(has_text="거래일")
    value = picker.locator("input").first.input_value()
    if not value.startswith(OPENING_DAY):
        picker.click()
        page.get_by_role("option", name=re.compile(f"^{OPENING_DAY}")).click()
    page.get_by_role("button", name="대본 만들기").click()
    page.get_by_text("오늘 장 한마디").wait_for(timeout=ANSWER_TIMEOUT_MS)
    page.get_by_role("heading", name="핵심 테마").wait_for()
    page.locator(CHART).first.wait_for()
    open_trace(page)  # parallel tool calls are listed in planned order, so this is stable


def contract_clauses(page: Any) -> None:
    page.get_by_text("조항 목록").wait_for(timeout=ANSWER_TIMEOUT_MS)
    page.locator('input[type="file"]').set_input_files(str(CONTRACT_SAMPLE))
    page.get_by_text("저장했습니다 (16개 조항, 유형: 데이터 제공형)").wait_for(
        timeout=ANSWER_TIMEOUT_MS
    )
    wait_idle(page)
    _type_and_keep(page, "질문", CONTRACT_QUESTION)
    page.get_by_role("button", name="질문하기").click()
    page.get_by_text("표준계약서와 비교: 제11조(비밀유지)").wait_for(timeout=ANSWER_TIMEOUT_MS)
    # the answer's last part (a capture once caught the page before its evidence and downloads)
    page.get_by_text("답변·근거 Markdown 내려받기").wait_for(timeout=ANSWER_TIMEOUT_MS)
    open_trace(page)


def _type_and_keep(page: Any, label: str, text: str) -> None:
    """Type `text` into the box labelled `label` and make sure it is still there once the page
    is quiet: a rerun the upload started drew the form again and dropped what had been typed
    (the QA once sent the contract question empty: '질문이 비어 있습니다')."""
    for _ in range(3):
        only_one(page.get_by_label(label)).fill(text)
        script_idle(page)
        if only_one(page.get_by_label(label)).input_value() == text:
            return
    raise AssertionError(f"the box '{label}' did not keep what was typed")


def stock_report(page: Any) -> None:
    page.get_by_role("button", name="삼성전자", exact=True).click()
    page.get_by_role("heading", name="삼성전자 (005930) 종목 리포트").wait_for(
        timeout=ANSWER_TIMEOUT_MS
    )
    page.get_by_text("리포트에 사용한 뉴스").wait_for()
    open_trace(page)


def _ask(page: Any, placeholder: str, question: str) -> None:
    """One chat question, until its answer (one more answer-mode line) has been drawn."""
    count = """() => [...document.querySelectorAll('[data-testid="stCaptionContainer"]')]
      .filter((e) => e.textContent.includes('답변 모드:')).length"""
    before = page.evaluate(count)
    box = page.get_by_placeholder(placeholder)
    box.fill(question)
    box.press("Enter")
    page.wait_for_function(f"() => ({count})() > {before}", timeout=ANSWER_TIMEOUT_MS)
    wait_idle(page)


def etf_answer_charts(page: Any) -> None:
    """A ranking and a top-N answer, each charted from its own rows."""
    placeholder = "ETF에 대해 물어보세요 (예: KODEX 200 정보 알려줘)"
    _ask(page, placeholder, "2차전지 ETF 6개월 수익률 순위")
    page.locator("text.gtitle", has_text="'2차전지' 태그 ETF").first.wait_for()
    _ask(page, placeholder, "KODEX 200 상위 5개 보유종목")
    page.locator("text.gtitle", has_text="KODEX 200 보유종목").first.wait_for()


def macro_rate(page: Any) -> None:
    """A rate's move in %p and bp, its chart titled by the series' name."""
    _ask(
        page,
        "거시·주식·부동산 질문 (예: 한국 기준금리 추이)",
        "한국 기준금리 최근 추이는?",
    )
    page.get_by_text("%p (").first.wait_for()
    page.locator("text.gtitle", has_text="한국은행 기준금리").first.wait_for()


STOCK_QUESTION = "삼성전자 최근 3개월 최고가는?"


def stock_question(page: Any) -> None:
    """A question on the Stock screen, charted from the prices it read over the window asked,
    with the extreme asked for marked ('최고 …')."""
    box = page.get_by_role("combobox").first
    box.click()
    box.fill(STOCK_QUESTION)
    page.keyboard.press("Enter")
    # the choice is made once its list has closed (clicked before that, an empty symbol went)
    page.wait_for_function(
        "(el) => el.getAttribute('aria-expanded') === 'false'", arg=box.element_handle()
    )
    page.get_by_role("button", name="리포트 생성").click()
    page.locator("text.gtitle", has_text="삼성전자 종가").first.wait_for(timeout=ANSWER_TIMEOUT_MS)
    page.locator("text.annotation-text", has_text="최고").first.wait_for()


def deep_link(page: Any) -> None:
    """A first visit by bookmark: the screen itself, no 'Page not found' notice."""
    page.get_by_text("예시 질문").wait_for()
    page.get_by_text("답변 모드").first.wait_for(state="attached")


# name → (sidebar link, a deep link '/…', or None for "/"; page heading; scenario)
SCREENS: dict[str, tuple[str | None, str, Scenario]] = {
    "data": (None, "데이터", data_screen),
    "etf": ("ETF 챗", "ETF 챗", etf_chat),
    "macro": ("매크로 Q&A", "매크로 Q&A", macro_qa),
    "opening": ("오프닝 스크립트", "오프닝 스크립트", opening_script),
    "contract": ("계약 조항", "계약 조항", contract_clauses),
    "stock": ("종목 리포트", "종목 리포트", stock_report),
    "etf_answer_charts": ("ETF 챗", "ETF 챗", etf_answer_charts),
    "macro_rate": ("매크로 Q&A", "매크로 Q&A", macro_rate),
    "stock_question": ("종목 리포트", "종목 리포트", stock_question),
    "deep_link": ("/etf", "ETF 챗", deep_link),
}


def run_scenario(page: Any, base_url: str, screen: str) -> None:
    link, heading, scenario = SCREENS[screen]
    open_screen(page, base_url, link, heading)
    scenario(page)
    wait_idle(page)
