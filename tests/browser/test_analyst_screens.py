"""What an analyst sees, in real Chromium: charts drawn from the answer's own result, changes in
the analyst's units, and Korean on every screen (issue 33).

The rendered text of each screen is scanned for English: names, tickers, acronyms and units
(upper-case or with digits, like KODEX, KR:005930, EPS, bp) are allowed, and so are the few
product names listed in tests/browser/korean_text.py; a lower-case English word ('percent',
'parallel', 'not allowed') is not. Identifiers the screens show on purpose (code and preformatted text) are left out.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.browser.korean_text import english_words, internal_ids, prose
from tests.browser.waits import ANSWER_TIMEOUT_MS, only_one, wait_idle
from tests.qa.app_server import AppStartError, offline_env, streamlit_app
from tests.qa.scenarios import open_screen

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("demo_data")]

CHART = ".js-plotly-plot .main-svg"
# The text a reader sees: visible text nodes (chart text included), without code, preformatted
# text, data grids (their cells are data: codes, table names), icons (ligature names), the
# hidden Korean-texts helpers and links to sources (a linked title names a document).
VISIBLE_TEXT = """() => {
  const skip = 'code, pre, style, script, textarea, [data-testid="stDataFrame"], [data-testid="stIFrame"], '
    + '[data-testid="stIconMaterial"], [data-testid="stTable"], a[href^="http"]';
  const out = [];
  const root = document.querySelector('[data-testid="stApp"]');
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest(skip) || !el.checkVisibility()) continue;
    if (getComputedStyle(el).fontFamily.includes('Material')) continue;  // an icon's name
    out.push(n.nodeValue);
  }
  return out.join('\\n');
}"""
# Screens are opened by their deep links (app.py's url_path): the home (Data) screen is not drawn
# first on the way; the sidebar's links are followed by test_offline_korean's tour and the QA.
ANSWERS = """() => [...document.querySelectorAll('[data-testid="stCaptionContainer"]')]
  .filter((e) => e.textContent.includes('답변 모드:')).length"""


def test_internal_ids_are_found_not_tickers() -> None:
    assert internal_ids("삼성전자 (KR:005930) · US:AAPL · KR_USDKRW는") == [
        "KR:005930", "US:AAPL", "KR_USDKRW"]  # fmt: skip
    assert internal_ids("삼성전자 (005930) 종목 리포트 · AAPL · KRW · USD") == []


def test_english_words_finds_prose_not_names() -> None:
    assert english_words("KODEX 200 -0.25%p (-25bp) · KR:005930 · EPS · Q&A · 12 ms") == []
    assert english_words("2.25 percent · KRW per USD · DELETE is not allowed") == [
        "percent", "per", "is", "not", "allowed"]  # fmt: skip


def _korean_only(page: Any, where: str) -> None:
    text = prose(page.evaluate(VISIBLE_TEXT))
    lines = [line[:120] for line in text.splitlines() if english_words(line)]
    words = english_words(text)
    assert not words, f"{where}: English words on the screen: {sorted(set(words))} in {lines}"
    ids = [line[:120] for line in text.splitlines() if internal_ids(line)]
    assert not ids, f"{where}: internal ids on the screen (a name or ticker belongs there): {ids}"


def _ask(page: Any, placeholder: str, question: str) -> None:
    before = page.evaluate(ANSWERS)
    box = page.get_by_placeholder(placeholder)
    box.fill(question)
    box.press("Enter")
    page.wait_for_function(f"() => ({ANSWERS})() > {before}", timeout=ANSWER_TIMEOUT_MS)
    wait_idle(page)


def _chart_titled(page: Any, title: str) -> Any:
    """The plotly chart whose title is `title` (plotly writes it in tspans, one per line of a
    title wrapped for narrow screens: a line break may stand where a space was)."""
    words = r"\s*".join(re.escape(w) for w in title.split())
    chart = page.locator(".js-plotly-plot").filter(
        has=page.locator("text.gtitle", has_text=re.compile(f"^{words}$"))
    )
    chart.first.wait_for(timeout=ANSWER_TIMEOUT_MS)
    return chart.first


def test_etf_ranking_and_top_n_are_charted_from_the_answer(
    page: Any, app_url: str, screenshot_dir: Path
) -> None:
    open_screen(page, app_url, "/etf", "ETF 챗")
    placeholder = "ETF에 대해 물어보세요 (예: KODEX 200 정보 알려줘)"
    _ask(page, placeholder, "2차전지 ETF 6개월 수익률 순위")
    ranking = _chart_titled(page, "'2차전지' 태그 ETF (6개월 수익률 높은 순, 3개)")
    assert ranking.locator(".ytick").count() == 3  # the ranked three, not ETF counts per tag
    assert page.locator("text.gtitle", has_text="태그별 ETF 수").count() == 0
    _ask(page, placeholder, "KODEX 200 상위 5개 보유종목")
    top = _chart_titled(page, "KODEX 200 보유종목 136개 중 비중 상위 5개")
    assert top.locator(".ytick").count() == 5  # not the 30 rows the graph query read
    page.screenshot(path=str(screenshot_dir / "etf_answer_charts.png"), full_page=True)
    _korean_only(page, "ETF 챗")


def test_macro_rate_change_in_percentage_points(
    page: Any, app_url: str, screenshot_dir: Path
) -> None:
    open_screen(page, app_url, "/macro", "매크로 Q&A")
    _ask(
        page,
        "거시·주식·부동산 질문 (예: 한국 기준금리 추이)",
        "한국 기준금리 최근 추이는?",
    )
    answer = page.get_by_text(
        re.compile(r"한국은행 기준금리.*최신값 \d+\.\d{2}% .*%p \([+-]\d+bp\)")
    )
    answer.first.wait_for()
    _chart_titled(page, "한국은행 기준금리")  # by name, not 'KR_BASE_RATE'
    page.screenshot(path=str(screenshot_dir / "macro_rate_change.png"), full_page=True)
    _korean_only(page, "매크로 Q&A")


def test_data_screen_and_console_refusal_in_korean(page: Any, app_url: str) -> None:
    """Every tab of the Data screen, then the console's refusal."""
    open_screen(page, app_url, None, "데이터")
    page.locator('[data-testid="stDataFrame"]').first.wait_for()
    _korean_only(page, "데이터")
    tabs = [t.strip() for t in page.get_by_role("tab").all_inner_texts()]
    assert len(tabs) >= 4, tabs  # datasets, graph, console, operations at least
    for name in tabs[1:]:
        page.get_by_role("tab", name=name).click()
        wait_idle(page)
        _korean_only(page, f"데이터 · {name}")
    page.get_by_role("tab", name=tabs[0]).click()
    wait_idle(page)
    page.get_by_role("tab", name="쿼리 콘솔").click()
    box = page.locator('textarea[aria-label="쿼리"]')
    box.fill("DELETE FROM etfs")
    box.press("Control+Enter")
    page.get_by_role("button", name="실행").click()
    page.get_by_text("DELETE 문은 실행할 수 없습니다").wait_for()
    _korean_only(page, "쿼리 콘솔")


def test_stock_report_speaks_korean(page: Any, app_url: str) -> None:
    open_screen(page, app_url, "/stock", "종목 리포트")
    page.get_by_role("button", name="삼성전자", exact=True).click()
    page.get_by_role("heading", name="삼성전자 (005930) 종목 리포트").wait_for(
        timeout=ANSWER_TIMEOUT_MS
    )
    wait_idle(page)
    _korean_only(page, "종목 리포트")


def test_stock_question_speaks_korean(page: Any, app_url: str) -> None:
    """A question on the Stock screen: its answer, its chart and its figures."""
    from tests.qa.scenarios import stock_question

    open_screen(page, app_url, "/stock", "종목 리포트")
    stock_question(page)
    wait_idle(page)
    _korean_only(page, "종목 리포트 · 질문")


def test_first_visit_by_deep_link_opens_the_screen_without_english_popup(
    browser: Any, settings: Any
) -> None:
    """A fresh app process (the shared one has had its first visit): '/etf' opens the ETF
    screen with the app's own navigation from the start."""
    env = offline_env(Path(settings.home), dict(os.environ))
    try:
        with streamlit_app(env, Path(settings.home) / "streamlit-deep-link.log") as url:
            context = browser.new_context(viewport={"width": 1440, "height": 900}, locale="ko-KR")
            page = context.new_page()
            page.goto(f"{url}/etf", wait_until="commit")
            deadline, shown = time.monotonic() + 60, ""
            while time.monotonic() < deadline:
                dialogs = page.evaluate(
                    "() => [...document.querySelectorAll('[role=dialog]')].map(d => d.innerText)"
                )
                assert not [d for d in dialogs if "not found" in d.lower()], dialogs
                links = page.evaluate("""() => [...document.querySelectorAll(
                    '[data-testid="stSidebarNav"] a')].map(a => a.innerText.trim())""")
                assert not {"app", "access", "answer", "charts"} & {
                    line.splitlines()[-1] for line in links if line
                }, links
                shown = page.evaluate("document.body.innerText")
                if "ETF에 대해 물어보세요" in page.content():
                    break
                page.wait_for_timeout(100)
            page.get_by_role("heading", name="ETF 챗", exact=True).wait_for()
            context.close()
    except AppStartError as e:
        pytest.fail(str(e))
    assert shown


def test_opening_script_speaks_korean(page: Any, app_url: str, screenshot_dir: Path) -> None:
    """The day's script, themes, market context and notes (sources are cited by title in the
    document-evidence grid, which is data and not scanned)."""
    open_screen(page, app_url, "/opening", "오프닝 스크립트")
    page.get_by_role("button", name="대본 만들기").click()
    page.get_by_text("오늘 장 한마디").wait_for(timeout=ANSWER_TIMEOUT_MS)
    page.get_by_role("heading", name="핵심 테마").wait_for()
    wait_idle(page)
    page.screenshot(path=str(screenshot_dir / "opening_korean.png"), full_page=True)
    _korean_only(page, "오프닝 스크립트")


def test_contract_screen_speaks_korean(page: Any, app_url: str) -> None:
    """The bundled sample uploaded and asked about, as the screenshot QA does (trace closed)."""
    from tests.qa.scenarios import CONTRACT_QUESTION, CONTRACT_SAMPLE

    open_screen(page, app_url, "/contract", "계약 조항")
    page.get_by_text("조항 목록").wait_for(timeout=ANSWER_TIMEOUT_MS)
    page.locator('input[type="file"]').set_input_files(str(CONTRACT_SAMPLE))
    page.get_by_text("16개 조항, 유형: 데이터 제공형").first.wait_for(timeout=ANSWER_TIMEOUT_MS)
    wait_idle(page)
    only_one(page.get_by_label("질문")).fill(CONTRACT_QUESTION)
    page.get_by_role("button", name="질문하기").click()
    page.get_by_text("표준계약서와 비교: 제11조(비밀유지)").wait_for(timeout=ANSWER_TIMEOUT_MS)
    wait_idle(page)
    _korean_only(page, "계약 조항")
