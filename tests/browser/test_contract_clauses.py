"""The contract clauses screen in real Chromium: upload a contract (a .docx made from the
bundled user-side sample), ask, see the cited clauses and the standard-contract comparison;
a broken upload shows a clear message; a past conversation reopens from "지난 대화"."""

from __future__ import annotations

import io
import re
import uuid
from pathlib import Path
from typing import Any

import pytest

from agents.contract.ingest.pipeline import SAMPLES_DIR
from tests.browser.waits import ANSWER_TIMEOUT_MS, only_one, wait_idle

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("demo_data")]


def _docx(path: Path) -> bytes:
    from docx import Document

    document = Document()
    for line in path.read_text(encoding="utf-8").splitlines():
        document.add_paragraph(line.lstrip("# "))
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def _open(page: Any, app_url: str) -> None:
    page.goto(app_url)
    page.get_by_role("link", name="계약 조항").click()
    page.get_by_role("heading", name="계약 조항", exact=True).wait_for()
    page.get_by_text("조항 목록").wait_for(timeout=ANSWER_TIMEOUT_MS)
    wait_idle(page)  # a rerun can still hold the previous question box for a moment


def test_upload_ask_and_see_cited_clauses(page: Any, app_url: str, screenshot_dir: Path) -> None:
    _open(page, app_url)
    page.locator('input[type="file"]').set_input_files(files=[{
        "name": "hanbit_contract.docx", "buffer": _docx(SAMPLES_DIR / "user_provide.md"),
        "mimeType": "application/vnd.openxmlformats-officedocument.wordprocessingml.document"}])  # fmt: skip
    page.get_by_text("저장했습니다 (16개 조항, 유형: 데이터 제공형)").wait_for(
        timeout=ANSWER_TIMEOUT_MS
    )
    page.get_by_text("비교 표준계약서: 데이터 제공형 표준계약서").wait_for()
    page.get_by_text("제14조(분쟁의 해결)", exact=True).first.wait_for()
    wait_idle(page)  # the upload's rerun has finished: its stale question box is gone
    only_one(page.get_by_label("질문")).fill("Is there a cap on liability for damages?")
    page.get_by_role("button", name="질문하기").click()
    page.get_by_text("Article 10 (손해배상) ② says:").wait_for(timeout=ANSWER_TIMEOUT_MS)
    page.get_by_text("답변 모드: 오프라인 플래너").wait_for()
    page.get_by_text("인용 조항").wait_for()
    citations = page.locator('[data-testid="stDataFrame"]').first
    citations.wait_for()
    page.get_by_text("표준계약서와 비교: 제10조(손해배상)").wait_for()
    wait_idle(page)  # the turn's rerun has drawn the stored answer (not the live one)
    answer = page.locator('[data-testid="stChatMessage"]').filter(
        has_text="Article 10 (손해배상)").last.inner_text()  # fmt: skip
    assert "Article 10 (손해배상)" in answer
    assert "직전 3개월 동안 지급된 대가를 한도로" in answer
    assert page.locator('[data-testid="stException"]').count() == 0
    page.get_by_text("표준계약서와 비교: 제10조(손해배상)").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshot_dir / "contract_clauses_answer.png"), full_page=True)


def test_broken_upload_shows_a_clear_message(page: Any, app_url: str) -> None:
    _open(page, app_url)
    page.locator('input[type="file"]').set_input_files(files=[{
        "name": "broken.pdf", "buffer": b"%PDF-1.4 not really", "mimeType": "application/pdf"}])  # fmt: skip
    page.get_by_text("PDF를 읽을 수 없습니다").wait_for(timeout=ANSWER_TIMEOUT_MS)
    page.get_by_text("조항 목록").wait_for()  # the screen keeps working with the stored contracts
    assert page.locator('[data-testid="stException"]').count() == 0


def test_a_past_conversation_reopens_from_the_picker(
    page: Any, app_url: str, screenshot_dir: Path
) -> None:
    marker = uuid.uuid4().hex[:6]
    question = f"제11조 비밀유지 기간 ({marker})"
    _open(page, app_url)
    only_one(page.get_by_label("질문")).fill(question)
    page.get_by_role("button", name="질문하기").click()
    page.get_by_text("표준계약서와 비교: 제11조(비밀유지)").wait_for(timeout=ANSWER_TIMEOUT_MS)
    page.get_by_text("기준일 2026-11-20").first.wait_for()
    _open(page, app_url)  # a fresh session: nothing in memory, only the run store
    assert page.get_by_text(question).count() == 0
    page.get_by_label("지난 대화").click()
    page.get_by_role("option", name=re.compile(re.escape(marker))).click()
    page.locator('[data-testid="stChatMessage"]').get_by_text(question).wait_for(
        timeout=ANSWER_TIMEOUT_MS
    )
    page.get_by_text("표준계약서와 비교: 제11조(비밀유지)").wait_for(timeout=ANSWER_TIMEOUT_MS)
    answer = page.locator('[data-testid="stChatMessage"]').nth(1).inner_text()
    assert "이 계약이 종료된 후에도 5년간 유지된다" in answer
    assert "기준일 2026-11-20" in answer
    assert page.locator('[data-testid="stException"]').count() == 0
    page.screenshot(path=str(screenshot_dir / "contract_clauses_reopened.png"), full_page=True)


def test_annexed_part_answer_and_no_such_clause(page: Any, app_url: str,
                                                screenshot_dir: Path) -> None:  # fmt: skip
    """A 한글 file with annexed agreements (written here, tests/fixtures/contracts/made_here):
    an answer from an annex names its part; a clause the contract lacks is said to be absent,
    the nearest clauses shown only as related; the examples are the service contract's."""
    from tests.fixtures.contracts.files import contract_file

    _open(page, app_url)
    page.locator('input[type="file"]').set_input_files(files=[{
        "name": "하도급계약서.hwpx", "buffer": contract_file("software_subcontract", "hwpx"),
        "mimeType": "application/octet-stream"}])  # fmt: skip
    page.get_by_text("유형: 용역·위탁").wait_for(timeout=ANSWER_TIMEOUT_MS)
    page.get_by_text("예시 질문 (용역·위탁 계약서에 맞춘 질문)").wait_for()
    page.get_by_text("[별첨 1 비밀유지계약서] 제5조(비밀유지기간)", exact=True).first.wait_for()
    wait_idle(page)
    only_one(page.get_by_label("질문")).fill(
        "비밀유지 의무는 계약 끝나고 몇 년 동안 지켜야 하나요?"
    )
    page.get_by_role("button", name="질문하기").click()
    page.get_by_text("(별첨 1 비밀유지계약서 제5조 비밀유지기간)").first.wait_for(
        timeout=ANSWER_TIMEOUT_MS
    )
    wait_idle(page)
    page.screenshot(path=str(screenshot_dir / "contract_annex_answer.png"), full_page=True)
    only_one(page.get_by_label("질문")).fill("소스코드 에스크로는 어떻게 되나요?")
    page.get_by_role("button", name="질문하기").click()
    # said in the answer and in the box above its related clauses, naming what is lacking
    page.get_by_text("이 계약서에는 소스코드 에스크로에 관한 조항이 없습니다.").first.wait_for(
        timeout=ANSWER_TIMEOUT_MS
    )
    page.get_by_text("관련 조항(답이 아님)").first.wait_for()
    wait_idle(page)
    page.screenshot(path=str(screenshot_dir / "contract_no_such_clause.png"), full_page=True)
