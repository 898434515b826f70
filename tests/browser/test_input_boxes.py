"""Hostile and malformed input typed into every input box of every screen, in real Chromium
(issue #8, part 4). The boxes are the inventory in tests/fixtures/hostile_inputs.py.

For each box and input: a Korean message is visible (the refusal, or the answer under its Korean
mode caption), there is no exception box and no traceback text, and on a chat screen the answer
given before the bad input is still there, unchanged. 100 k characters go in with `fill`, not
typing. Malformed uploads go to the contract uploader. One page per screen, reused across
inputs (the stock screen reloads between inputs: it shows one report at a time).
"""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from pages._console import run_cypher, run_sql
from tests.browser.waits import ANSWER_TIMEOUT_MS, only_one
from tests.browser.waits import wait_idle as _wait_idle
from tests.fixtures.hostile_inputs import BAD_UPLOADS, BROWSER_HOSTILE, INVENTORY, REFUSED

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("demo_data")]

MESSAGE = '[data-testid="stChatMessage"]'
HANGUL = re.compile(r"[가-힣]")
CLEANED = {"nul", "ansi", "carriage_return", "rtl_override", "zero_width"}
ETF_BOX = "ETF에 대해 물어보세요 (예: KODEX 200 정보 알려줘)"
MACRO_BOX = "거시·주식·부동산 질문 (예: 한국 기준금리 추이)"
MACRO_FIRST = f"한국 기준금리 최근 추이는? ({uuid.uuid4().hex[:6]})"  # this run's conversation
SETTLE_MS = 1500  # a submit that must do nothing is given this long to do something anyway


def _boxes(screen: str, *kinds: str) -> list[str]:
    return [b.label for b in INVENTORY if b.screen == screen and b.kind in kinds]


def _answer_text(message: Any) -> str:
    """An answer as shown, without what follows its mode caption (downloads draw late)."""
    return str(message.inner_text()).split("답변 모드", 1)[0]


def _shown(page: Any) -> str:
    """The chat as shown, for failure messages: the first words of every message."""
    return " | ".join(m.inner_text()[:50].replace("\n", " ") for m in page.locator(MESSAGE).all())


def _assert_clean(page: Any) -> None:
    assert page.locator('[data-testid="stException"]').count() == 0
    assert page.get_by_text("Traceback").count() == 0


@pytest.fixture(scope="module")
def context(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1440, "height": 1600}, locale="ko-KR")
    yield ctx
    ctx.close()


def _open(context: Any, app_url: str, link: str | None, heading: str) -> Any:
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(app_url)
    if link:
        page.get_by_role("link", name=link).click()
    page.get_by_role("heading", name=heading, exact=True).wait_for(timeout=ANSWER_TIMEOUT_MS)
    return page


# ---------------------------------------------------------------- chat screens (ETF, Macro)


def _turn_done(page: Any, count: int, newest: int) -> Any:
    """Wait until `count` chat messages are shown and the message at `newest` is a finished
    answer (every answer carries its Korean mode caption); return that message."""
    page.wait_for_function(
        "n => document.querySelectorAll('[data-testid=\"stChatMessage\"]').length >= n",
        arg=count, timeout=ANSWER_TIMEOUT_MS,
    )  # fmt: skip
    answer = page.locator(MESSAGE).nth(newest)
    answer.get_by_text("답변 모드").wait_for(timeout=ANSWER_TIMEOUT_MS)
    _wait_idle(page)
    return answer


def _chat(page: Any, placeholder: str, text: str) -> Any | None:
    """Send `text` from the chat box; the new answer, or None when the box sent nothing."""
    before = page.locator(MESSAGE).count()
    box = page.get_by_placeholder(placeholder)
    box.fill(text)
    box.press("Enter")
    if not _sent(page, before):
        _wait_idle(page)
        return None
    return _turn_done(page, before + 2, before + 1)


def _sent(page: Any, before: int) -> bool:
    """The question shows as a new message: a box that sends nothing is given SETTLE_MS to send
    anyway, one that sends goes on as soon as it has. Counted from here, not in the page: on a
    busy machine the page's own timers fire late while it draws the rerun."""
    deadline = time.monotonic() + SETTLE_MS / 1000
    while True:
        last = time.monotonic() >= deadline  # "not sent" only from a count begun after it
        if page.locator(MESSAGE).count() > before:
            return True
        if last:
            return False
        page.wait_for_timeout(100)


class ChatScreen:
    def __init__(self, page: Any, placeholder: str, first: str) -> None:
        self.page, self.placeholder = page, placeholder
        answer = _chat(page, placeholder, first)
        assert answer is not None
        self.first_answer = _answer_text(answer)

    def check(self, key: str, text: str) -> None:
        answer = _chat(self.page, self.placeholder, text)
        if answer is None:  # Streamlit's chat box does not send an empty message
            assert key in ("empty", "whitespace"), f"{key!r} was not sent"
        else:
            shown = answer.inner_text()
            assert HANGUL.search(shown), shown[:200]
            if key in REFUSED:
                assert "비어 있습니다" in shown or "너무 깁니다" in shown, _shown(self.page)
            if key == "100k":  # the question is echoed cut, with its length
                self.page.get_by_text("총 100,000자 중 앞 2,000자").first.wait_for()
        _assert_clean(self.page)
        assert _answer_text(self.page.locator(MESSAGE).nth(1)) == self.first_answer


@pytest.fixture(scope="module")
def etf_chat(context: Any, app_url: str) -> ChatScreen:
    page = _open(context, app_url, "ETF 챗", "ETF 챗")
    return ChatScreen(page, ETF_BOX, "KODEX 200 정보 알려줘")


@pytest.fixture(scope="module")
def macro_chat(context: Any, app_url: str) -> ChatScreen:
    page = _open(context, app_url, "매크로 Q&A", "매크로 Q&A")
    return ChatScreen(page, MACRO_BOX, MACRO_FIRST)


@pytest.mark.parametrize("key", BROWSER_HOSTILE)
def test_etf_chat_box(etf_chat: ChatScreen, key: str) -> None:
    etf_chat.check(key, BROWSER_HOSTILE[key])
    if key in CLEANED:  # answered as the clean question: 삼성전자's code
        assert "005930" in etf_chat.page.locator(MESSAGE).last.inner_text()


@pytest.mark.parametrize("key", BROWSER_HOSTILE)
def test_macro_chat_box(macro_chat: ChatScreen, key: str) -> None:
    macro_chat.check(key, BROWSER_HOSTILE[key])
    if key in CLEANED:
        assert "삼성전자(005930)" in macro_chat.page.locator(MESSAGE).last.inner_text()


def _type_into_select(page: Any, label: str) -> None:
    """Type every hostile input into a select box's filter, then leave it: nothing is picked."""
    box = page.get_by_role("combobox", name=label, exact=True)
    for text in BROWSER_HOSTILE.values():
        box.click()
        box.fill(text)
        page.keyboard.press("Escape")
    _wait_idle(page)


def test_a_conversation_with_the_same_label_does_not_replace_the_open_one(
    macro_chat: ChatScreen, pg_pool: Any
) -> None:
    """Streamlit sends a picked option back as its label: another conversation with the same
    first question and minute, or a label that changed since the last render, must not open."""
    from data_access import runs
    from data_access.postgres import execute, fetch_one

    ours = fetch_one("SELECT conversation_id::text AS id FROM conversations WHERE title = %s",
                     (MACRO_FIRST[:60],), pg_pool)  # fmt: skip
    assert ours is not None
    twin = runs.create_conversation("macro", MACRO_FIRST[:60], pool=pg_pool)
    runs.add_message(twin, "user", "다른 세션의 질문", pool=pg_pool)
    execute(
        "UPDATE conversations SET updated_at = date_trunc('minute', now())"
        " + (CASE WHEN conversation_id = %s THEN 30 ELSE 29 END) * interval '1 second'"
        " WHERE conversation_id IN (%s, %s)", (ours["id"], ours["id"], twin), pg_pool,
    )  # fmt: skip
    page = macro_chat.page
    for _ in range(2):  # the first rerun draws the new labels, the second sends one back
        assert _chat(page, MACRO_BOX, "\u200b ") is not None
        _assert_clean(page)
        assert _answer_text(page.locator(MESSAGE).nth(1)) == macro_chat.first_answer
    assert page.get_by_text("다른 세션의 질문").count() == 0


@pytest.mark.parametrize("label", _boxes("etf_chat.py", "select"))
def test_etf_select_boxes(etf_chat: ChatScreen, label: str) -> None:
    _type_into_select(etf_chat.page, label)
    _assert_clean(etf_chat.page)
    assert _answer_text(etf_chat.page.locator(MESSAGE).nth(1)) == etf_chat.first_answer


@pytest.mark.parametrize("label", _boxes("macro_qa.py", "select"))
def test_macro_select_boxes(macro_chat: ChatScreen, label: str) -> None:
    _type_into_select(macro_chat.page, label)
    _assert_clean(macro_chat.page)
    assert _answer_text(macro_chat.page.locator(MESSAGE).nth(1)) == macro_chat.first_answer


# ---------------------------------------------------------------- contract clauses


class ContractScreen:
    """Newest turn first on this screen: the first answer is the last message."""

    def __init__(self, page: Any) -> None:
        self.page = page
        page.get_by_text("조항 목록").wait_for(timeout=ANSWER_TIMEOUT_MS)
        self.ask("손해배상 한도는?")
        self.first_answer = _answer_text(page.locator(MESSAGE).last)

    def ask(self, text: str) -> Any:
        before = self.page.locator(MESSAGE).count()
        only_one(self.page.get_by_label("질문")).fill(text)
        self.page.get_by_role("button", name="질문하기").click()
        return _turn_done(self.page, before + 2, 1)


@pytest.fixture(scope="module")
def contract(context: Any, app_url: str) -> ContractScreen:
    return ContractScreen(_open(context, app_url, "계약 조항", "계약 조항"))


@pytest.mark.parametrize("key", BROWSER_HOSTILE)
def test_contract_question_box(contract: ContractScreen, key: str) -> None:
    shown = contract.ask(BROWSER_HOSTILE[key]).inner_text()
    assert HANGUL.search(shown), shown[:200]
    if key in REFUSED:
        assert ("비어 있습니다" if key != "100k" else "너무 깁니다") in shown, shown[:200]
    _assert_clean(contract.page)
    assert _answer_text(contract.page.locator(MESSAGE).last) == contract.first_answer


UPLOADS = ["empty file", "renamed binary", "oversized", "docx: zip of junk", "docx: broken xml"]


@pytest.mark.parametrize("case", UPLOADS)
def test_contract_uploader_refuses_malformed_files(contract: ContractScreen, case: str) -> None:
    name, data, message = BAD_UPLOADS[case]
    page = contract.page
    page.locator('input[type="file"]').set_input_files(
        files=[{"name": name, "buffer": data, "mimeType": "application/octet-stream"}]
    )
    page.locator('[data-testid="stAlert"]').filter(has_text=message).wait_for(
        timeout=ANSWER_TIMEOUT_MS
    )
    _wait_idle(page)  # the rest of the screen is redrawn after the message
    page.get_by_text("조항 목록").wait_for()  # the screen keeps working on the stored contracts
    _assert_clean(page)
    picker = page.get_by_role("combobox", name="지난 대화", exact=True).input_value()
    assert _answer_text(page.locator(MESSAGE).last) == contract.first_answer, (picker, _shown(page))


@pytest.mark.parametrize("label", _boxes("contract_clauses.py", "select"))
def test_contract_select_boxes(contract: ContractScreen, label: str) -> None:
    _type_into_select(contract.page, label)
    _assert_clean(contract.page)
    assert _answer_text(contract.page.locator(MESSAGE).last) == contract.first_answer


# ---------------------------------------------------------------- stock report


@pytest.fixture(scope="module")
def stock_page(context: Any, app_url: str) -> Any:
    return _open(context, app_url, "종목 리포트", "종목 리포트")


def _expected_stock_text(key: str) -> str:
    if key in ("empty", "whitespace"):
        return "종목 심볼이 비어 있습니다"
    if key == "100k":
        return "종목 심볼이 너무 깁니다"
    if key in CLEANED:
        return "삼성전자 (005930) 종목 리포트"
    return "알 수 없는 종목입니다"


@pytest.mark.parametrize("key", BROWSER_HOSTILE)
def test_stock_symbol_box(stock_page: Any, key: str) -> None:
    page = stock_page
    page.reload()  # one report per session on this screen: start each input from a clean one
    page.get_by_role("button", name="리포트 생성").wait_for(timeout=ANSWER_TIMEOUT_MS)
    _wait_idle(page)
    text = BROWSER_HOSTILE[key]
    if text:
        box = page.get_by_role("combobox").first
        box.click()
        box.fill(text)
        page.keyboard.press("Enter")
    page.get_by_role("button", name="리포트 생성").click()
    page.get_by_text(_expected_stock_text(key)).first.wait_for(timeout=ANSWER_TIMEOUT_MS)
    _wait_idle(page)
    _assert_clean(page)


def test_stock_select_and_language_boxes(stock_page: Any) -> None:
    page = stock_page
    for label in _boxes("stock_report.py", "select"):
        if page.get_by_role("combobox", name=label, exact=True).count():  # once one is stored
            _type_into_select(page, label)
    page.get_by_text("English", exact=True).click()
    _wait_idle(page)
    _assert_clean(page)


# ---------------------------------------------------------------- opening script


def test_opening_select_boxes(context: Any, app_url: str) -> None:
    page = _open(context, app_url, "오프닝 스크립트", "오프닝 스크립트")
    page.get_by_role("button", name="대본 만들기").wait_for(timeout=ANSWER_TIMEOUT_MS)
    for label in _boxes("opening_script.py", "select"):
        if page.get_by_role("combobox", name=label, exact=True).count():
            _type_into_select(page, label)
    day = page.get_by_role("combobox", name="거래일 (뉴스가 있는 날)", exact=True)
    assert re.search(r"^\d{4}-\d{2}-\d{2} \(.\) · 기사 [\d,]+건$", day.input_value())  # still set
    _assert_clean(page)
    page.close()


# ---------------------------------------------------------------- data console


@pytest.fixture(scope="module")
def console(context: Any, app_url: str) -> Any:
    page = _open(context, app_url, None, "데이터")
    page.get_by_role("tab", name="쿼리 콘솔").click()
    page.locator('textarea[aria-label="쿼리"]').wait_for()
    return page


def _run_console(page: Any, language: str, query: str) -> None:
    page.get_by_text(language, exact=True).click()
    box = page.locator(f".st-key-console_query_{language} textarea")  # one box per language
    box.wait_for()
    _wait_idle(page)
    box.fill(query)
    box.press("Control+Enter")  # commit the text before the button rerun
    page.get_by_role("button", name="실행").click()
    _wait_idle(page)


@pytest.mark.parametrize("language", ["SQL", "Cypher"])
@pytest.mark.parametrize("key", BROWSER_HOSTILE)
def test_console_query_box(console: Any, graph_store: Any, pg_pool: Any, key: str,
                           language: str) -> None:  # fmt: skip
    page = console
    marker = f"marker-{key}-{language}"
    _run_console(page, "SQL", f"SELECT '{marker}' AS m")  # a known state before the bad input
    page.get_by_text(marker).first.wait_for(state="attached", timeout=ANSWER_TIMEOUT_MS)
    text = BROWSER_HOSTILE[key]
    expected = (run_sql(text, pool=pg_pool) if language == "SQL"
                else run_cypher(text, store=graph_store))["error"]  # fmt: skip
    assert expected and HANGUL.search(expected)
    _run_console(page, language, text)
    page.locator('[data-testid="stAlert"]').filter(
        has_text=expected[:60]).wait_for(timeout=ANSWER_TIMEOUT_MS)  # fmt: skip
    page.get_by_text(marker).first.wait_for(state="detached")  # the message replaced the result
    _assert_clean(page)


# A number box takes digits only: Chromium refuses to put letters or escapes into it at all.
@pytest.mark.parametrize("value", ["99999", "-5", "0", "1e9"])
def test_console_row_limit_box(console: Any, value: str) -> None:
    page = console
    box = page.get_by_label("최대 행 수")
    box.fill(value)
    box.press("Enter")
    _wait_idle(page)
    _run_console(page, "SQL", "SELECT generate_series(1, 3000) AS i")
    caption = page.get_by_text(re.compile(r"^[\d,]+행 · ")).first
    caption.wait_for(timeout=ANSWER_TIMEOUT_MS)
    rows = int(caption.inner_text().split("행", 1)[0].replace(",", ""))
    assert 1 <= rows <= 1000
    _assert_clean(page)
