"""Issue 20 in real Chromium: a tour of every screen that also runs a turn on each (an ETF and a
Macro question, the opening script made so its market tiles and charts draw, a contract question,
a stock report; each turn streams its steps under the live status line) requests nothing beyond
loopback and logs no console error or warning; Streamlit's own widget texts are Korean; a refused,
too-long question stays in its box."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlparse

import pytest

from agents.inputs import MAX_QUESTION_CHARS
from tests.browser.waits import ANSWER_TIMEOUT_MS, only_one

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("demo_data")]

SCREENS = ("데이터", "ETF 챗", "매크로 Q&A", "오프닝 스크립트", "계약 조항", "종목 리포트")
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'


def _idle(page: Any) -> None:
    for _ in range(2):  # a rerun can start right after a run ends
        page.locator(IDLE).wait_for(timeout=ANSWER_TIMEOUT_MS)
        page.wait_for_timeout(300)


def _record(page: Any) -> tuple[list[str], list[str]]:
    outside: list[str] = []
    console: list[str] = []
    page.on("request", lambda r: outside.append(r.url)
            if urlparse(r.url).scheme in ("http", "https", "ws", "wss")
            and urlparse(r.url).hostname not in LOOPBACK else None)  # fmt: skip
    page.on("console", lambda m: console.append(f"{m.type}: {m.text}")
            if m.type in ("error", "warning") else None)  # fmt: skip
    return outside, console


CHAT_BOXES = {"ETF 챗": ("ETF에 대해 물어보세요 (예: KODEX 200 정보 알려줘)", "KODEX 200 정보 알려줘"),
              "매크로 Q&A": ("거시·주식·부동산 질문 (예: 한국 기준금리 추이)",
                          "한국 기준금리 최근 추이는?")}  # fmt: skip


def _turn(page: Any, screen: str) -> None:
    """Run one turn on the screen and wait for its answer (every answer has its mode caption)."""
    before = _captions(page)
    if screen in CHAT_BOXES:
        placeholder, question = CHAT_BOXES[screen]
        box = page.get_by_placeholder(placeholder)
        box.fill(question)
        box.press("Enter")
    elif screen == "계약 조항":
        page.get_by_text("조항 목록").wait_for(timeout=ANSWER_TIMEOUT_MS)
        only_one(page.get_by_label("질문")).fill("계약을 중간에 그만둘 수 있나요?")
        page.get_by_role("button", name="질문하기").click()
    elif screen == "종목 리포트":
        page.get_by_role("button", name="삼성전자", exact=True).click()
    else:
        return
    page.wait_for_function(f"() => {CAPTIONS_JS} > {before}", timeout=ANSWER_TIMEOUT_MS)
    _idle(page)
    assert page.get_by_role("button", name="중지").count() == 0  # the live controls are gone


CAPTIONS_JS = "document.body.innerText.split('답변 모드').length - 1"


def _captions(page: Any) -> int:
    return int(page.evaluate(f"() => {CAPTIONS_JS}"))


def test_tour_stays_on_loopback_without_console_warnings(
    page: Any, app_url: str, screenshot_dir
) -> None:  # type: ignore[no-untyped-def]
    outside, console = _record(page)
    page.set_default_timeout(ANSWER_TIMEOUT_MS)  # a wait, not a limit: six screens and five turns
    page.goto(app_url)
    page.get_by_role("heading", name="데이터", exact=True).wait_for(timeout=ANSWER_TIMEOUT_MS)
    for screen in SCREENS:
        page.get_by_role("link", name=screen).click()
        page.get_by_role("heading", name=screen, exact=True).wait_for(timeout=ANSWER_TIMEOUT_MS)
        _idle(page)
        _turn(page, screen)
        if screen == "오프닝 스크립트":
            page.get_by_role("button", name="대본 만들기").click()
            page.get_by_role("heading", name="시장 컨텍스트").wait_for(timeout=ANSWER_TIMEOUT_MS)
            _idle(page)
            tiles = page.locator(".st-key-market-tiles")
            assert tiles.locator("svg polyline").count() >= 5  # the sparklines drew
            tiles.screenshot(path=str(screenshot_dir / "opening_tiles.png"))
        if screen == "계약 조항":
            dropzone = page.locator('[data-testid="stFileUploaderDropzone"]')
            dropzone.get_by_text("PDF, DOCX, HWPX, HWP, TXT, MD", exact=True).wait_for()
            assert dropzone.get_by_role("button", name="파일 선택").count() == 1
            assert "per file" not in dropzone.inner_text()
    page.wait_for_timeout(1000)
    assert outside == [], f"requests beyond loopback: {outside}"
    assert console == [], f"browser console: {console}"


def test_refused_paste_keeps_its_text(page: Any, app_url: str) -> None:
    page.goto(app_url + "/etf")  # by its deep link: the tour above follows the sidebar's links
    page.get_by_role("heading", name="ETF 챗", exact=True).wait_for(timeout=ANSWER_TIMEOUT_MS)
    _idle(page)
    text = ("KODEX 200 보유종목 " * (MAX_QUESTION_CHARS // 10)).strip()
    box = page.get_by_placeholder("ETF에 대해 물어보세요 (예: KODEX 200 정보 알려줘)")
    box.fill(text)
    box.press("Enter")
    page.get_by_text("질문이 너무 깁니다").first.wait_for(timeout=ANSWER_TIMEOUT_MS)
    _idle(page)
    assert box.input_value() == text  # still there to shorten, not wiped
