"""Untrusted text at the edges: what a user types, and data text that goes into an LLM prompt.

    checked = check_text(question, what="질문")       # cleaned text, or a Korean reason
    if checked.problem: ...                          # show it; nothing runs, nothing is stored
    symbol = require_text(raw, what="종목 심볼", max_chars=60)   # or raises ToolInputError
    user = fence("macro_data", json_text)             # data the model must not obey

One place for every screen (questions, symbols, dates, contract searches, console queries,
uploaded file text), so a NUL byte, a terminal escape or a right-to-left override is handled
the same way everywhere. Cleaning is silent and keeps meaning: NFC (macOS sends decomposed
Hangul), CR/CRLF and Unicode line separators → newline, and these removed: ANSI escape
sequences (whole, so "\\x1b[31m" leaves no "[31m"), control characters other than newline and
tab (NUL among them: PostgreSQL text cannot hold it and psycopg raises on it), format
characters (bidi overrides and isolates, zero-width spaces and joiners, BOM, soft hyphen) and
lone surrogates (they cannot be encoded as UTF-8; they arrive from a shell argument with bytes
that are not UTF-8).
"""

from __future__ import annotations

import re
import time
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from data_access.errors import ToolInputError

if TYPE_CHECKING:  # imported where used: the contract upload reader needs only clean_text, and
    # pydantic's import was half a second of its worker's CPU
    from data_access.contracts import AgentAnswer

MAX_QUESTION_CHARS = 2000
PREVIEW_CHARS = 2000

_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")
_NEWLINES = re.compile(r"\r\n?|[\u2028\u2029\x85]")
_KEPT_CONTROLS = frozenset("\n\t")
_DROPPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs"})


@dataclass(frozen=True)
class CheckedText:
    """Cleaned input, or the Korean reason it cannot be used (`problem`)."""

    text: str
    problem: str | None = None

    @property
    def ok(self) -> bool:
        return self.problem is None


def clean_text(raw: object, *, strip: bool = True) -> str:
    """The text with invisible and control characters removed (see the module docstring);
    newlines and tabs kept, leading and trailing whitespace stripped unless `strip` is False."""
    if raw is None:
        return ""
    text = raw if isinstance(raw, str) else str(raw)
    text = _ANSI.sub("", _NEWLINES.sub("\n", text))
    kept = (
        c for c in text if c in _KEPT_CONTROLS or unicodedata.category(c) not in _DROPPED_CATEGORIES
    )
    text = unicodedata.normalize("NFC", "".join(kept))
    return text.strip() if strip else text


def check_text(
    raw: object, *, what: str = "질문", max_chars: int = MAX_QUESTION_CHARS
) -> CheckedText:
    """Clean `raw`, then refuse it when nothing is left or it is longer than `max_chars`."""
    text = clean_text(raw)
    if not text:
        return CheckedText("", f"{what}{_subject(what)} 비어 있습니다. {what}{_object(what)} "
                               "입력해 주세요.")  # fmt: skip
    if len(text) > max_chars:
        return CheckedText(text, f"{what}{_subject(what)} 너무 깁니다 ({len(text):,}자). "
                                 f"{max_chars:,}자 이내로 줄여서 다시 입력해 주세요.")  # fmt: skip
    return CheckedText(text)


def require_text(raw: object, *, what: str = "질문", max_chars: int = MAX_QUESTION_CHARS) -> str:
    """`check_text` for callers that raise: ToolInputError carries the Korean reason."""
    checked = check_text(raw, what=what, max_chars=max_chars)
    if checked.problem:
        raise ToolInputError(checked.problem)
    return checked.text


def preview(text: str, limit: int = PREVIEW_CHARS) -> str:
    """Text to show back on screen: at most `limit` characters, with the full length said."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… (총 {len(text):,}자 중 앞 {limit:,}자)"


def fence(tag: str, data: str) -> str:
    """`data` between <tag> and </tag>, any closing tag inside it defused, so text taken from
    the stores cannot end the data block early and pass as an instruction."""
    closing = re.compile(rf"<\s*/\s*{re.escape(tag)}\s*>", re.IGNORECASE)
    defused = closing.sub(lambda m: "＜" + m.group(0)[1:], data)
    return f"<{tag}>\n{defused}\n</{tag}>"


def _has_final_consonant(word: str) -> bool:
    last = word.rstrip()[-1:] or " "
    if "가" <= last <= "힣":
        return (ord(last) - ord("가")) % 28 != 0
    return last.isdigit() and last in "013678"  # 영, 일, 삼, 육, 칠, 팔


def _subject(word: str) -> str:
    return "이" if _has_final_consonant(word) else "가"


def _object(word: str) -> str:
    return "을" if _has_final_consonant(word) else "를"


def last_answer(events: Iterable[object]) -> AgentAnswer:
    """The AgentAnswer a screen's event stream ends with (the non-streaming form of a turn)."""
    from data_access.contracts import AgentAnswer

    answer: AgentAnswer | None = None
    for event in events:
        if isinstance(event, AgentAnswer):
            answer = event
    assert answer is not None  # every stream ends with its answer
    return answer


def rejected_answer(problem: str, started: float | None = None) -> AgentAnswer:
    """The answer to input that cannot be used: the Korean reason, nothing run, no trace."""
    from data_access.contracts import AgentAnswer

    elapsed = int((time.perf_counter() - started) * 1000) if started is not None else 0
    return AgentAnswer(answer=problem, mode="offline", status="error", error=problem,
                       duration_ms=elapsed, payload={"input_rejected": True})  # fmt: skip
