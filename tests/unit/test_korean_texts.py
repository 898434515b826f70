"""Korean for texts the user sees but we do not write: Streamlit's widget texts (pages/_i18n.py,
rewritten in the browser) and the agent library's trace headings (pages/_answer.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import streamlit

from pages._answer import trace_text
from pages._i18n import RULES, script

STATIC_JS = Path(streamlit.__file__).parent / "static" / "static" / "js"
# English as Streamlit 1.67's frontend writes it (template parts as they appear in the bundle).
FRONTEND_SOURCES = {
    "Add: NVDA": "label:`Add: ${",
    "6MB per file • PDF, DOCX": " per file",
    "6MB per file": " per file",
    "• PDF, DOCX, HWPX": " per file",
    "File must be 5.0MB or smaller.": "File must be ${",
    "Upload": "Upload",
    "Skip to main content": "Skip to main content",
    "Press Enter to submit form": "Enter to ${e}",
    "Press Ctrl+Enter to apply": "Enter to ${e}",
}
EXPECTED = {
    "Add: NVDA": "추가: NVDA",
    "6MB per file • PDF, DOCX": "PDF, DOCX",  # the label states the reader's limit
    "6MB per file": "",
    "• PDF, DOCX, HWPX": "PDF, DOCX, HWPX",
    "File must be 5.0MB or smaller.": "파일은 5.0MB 이하여야 합니다.",
    "Upload": "파일 선택",
    "Skip to main content": "본문으로 건너뛰기",
    "Press Enter to submit form": "Enter 키로 제출",
    "Press Ctrl+Enter to apply": "Ctrl+Enter 키로 적용",
}


def _korean(text: str) -> str | None:
    """The browser script's rule lookup, in Python (the patterns use the common regex subset)."""
    for pattern, replacement in RULES:
        if re.search(pattern, text):
            return re.sub(pattern, re.sub(r"\$(\d)", r"\\\1", replacement), text)
    return None


@pytest.mark.parametrize("english", list(EXPECTED))
def test_rules_turn_streamlit_texts_korean(english: str) -> None:
    assert _korean(english) == EXPECTED[english]


def test_our_own_texts_are_left_alone() -> None:
    for text in ("삼성전자 · KR:005930", "Add", "Upload files now", "NVDA 200MB per file please"):
        assert _korean(text) is None


@pytest.mark.parametrize("english", list(FRONTEND_SOURCES))
def test_the_english_is_still_what_this_streamlit_draws(english: str) -> None:
    """After a Streamlit upgrade a changed text would silently stay English: fail here instead."""
    needle = FRONTEND_SOURCES[english]
    assert any(needle in path.read_text(errors="ignore") for path in STATIC_JS.glob("*.js"))


def test_script_carries_the_rules_as_json() -> None:
    page_script = script()
    assert "RULES_JSON" not in page_script and "ATTRS_JSON" not in page_script
    assert '"^Add: (.*)$"' in page_script


def test_trace_headings_in_korean() -> None:
    observation = "Execution logs:\nfound 3\nLast output from code snippet:\n[1, 2]"
    assert trace_text(observation) == "실행 로그:\nfound 3\n코드 조각의 마지막 출력:\n[1, 2]"
    error = "Code execution failed at line 'x = f()' due to: InterpreterError: boom"
    assert trace_text(error) == "코드 실행 실패 (줄 'x = f()'): InterpreterError: boom"
    assert trace_text("Execution logs: inline text stays") == "Execution logs: inline text stays"


def test_an_opening_quote_is_korean_about_its_theme_and_said_once() -> None:
    from agents.opening.script import quote

    body = ("Analysts said positioning remains a key driver in the near term. "
            "시장에서는 관망세가 이어졌다. 엔비디아 주가는 실적 발표 뒤 약세를 보였다.")  # fmt: skip
    assert quote(body) == "시장에서는 관망세가 이어졌다."  # the English sentence is never read out
    assert quote(body, ("엔비디아",)) == "엔비디아 주가는 실적 발표 뒤 약세를 보였다."
    assert quote(body, ("엔비디아",), {"엔비디아 주가는 실적 발표 뒤 약세를 보였다."}) is None


def test_console_refusals_are_korean_with_the_right_particles() -> None:
    from pages._console import korean_reason

    assert korean_reason("DELETE is not allowed: only a single SELECT (read-only) may run") == (
        "DELETE 문은 실행할 수 없습니다. 읽기 전용 SELECT 한 문장만 실행됩니다.")  # fmt: skip
    table = korean_reason("relation pg_authid is not allowed: only the workbench's data tables")
    assert table is not None and table.startswith("pg_authid는 조회할 수 없는 테이블입니다.")
    assert korean_reason('column "nope" does not exist') == "열 nope가 없습니다."
    assert korean_reason("something new") is None


def test_rate_changes_in_percentage_points_and_levels_in_won() -> None:
    from agents.macro.templates import axis_unit, change_text, level_text

    assert change_text(2.5, 2.25, "percent") == "-0.25%p (-25bp)"
    assert level_text(1445.0, "KRW per USD") == "1,445.00원"
    assert change_text(1468.0, 1445.0, "KRW per USD") == "-23.00원 (-1.57%)"
    assert level_text(2.25, "percent", "en") == "2.25%"
    assert axis_unit("KRW per USD") == "원/달러" and axis_unit("percent") == "%"
