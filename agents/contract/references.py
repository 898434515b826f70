"""Explicit article and exhibit references in a question: 제N조 / N조 / Article N, 제N조의M /
Article N-M (a branch article), 별지N / Exhibit N.

Shared by the offline planner (which routes them to `article_index`) and the hybrid index (where
they are one of the fused rankings).

    >>> article_refs("제3조와 제3조의2 ②를 비교"), branch_refs("제3조와 제3조의2 ②를 비교")
    ([3], [(3, 2)])
    >>> article_keys("제3조의2 ② 또는 별지1")
    [3002, -1]
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypeVar

from agents.contract.ingest.parse import CIRCLED
from agents.contract.models import MAX_BRANCH, article_key

_T = TypeVar("_T")

# '제3조의2' names 제3조의2, not 제3조; '제3조의 규정' and '제3조의 2항' (its 항 2) name 제3조
BRANCH_TAIL = r"\s*의\s*(\d{1,3})(?!\d|\s*[항호])"
NOT_BRANCH = rf"(?!{BRANCH_TAIL})"
ARTICLE_RES = (
    re.compile(rf"제\s*(\d{{1,3}})\s*조{NOT_BRANCH}(?!\s*원)"),
    re.compile(rf"(?<![\d제])(\d{{1,3}})\s*조{NOT_BRANCH}(?![원항\d])"),
    re.compile(r"\b(?:article|art\.|section|clause)\s*(\d{1,3})\b(?!-\d)", re.IGNORECASE),
)
BRANCH_RES = (
    re.compile(rf"(?<!\d)(?:제\s*)?(\d{{1,3}})\s*조{BRANCH_TAIL}"),
    re.compile(r"\b(?:article|art\.|section|clause)\s*(\d{1,3})-(\d{1,3})\b", re.IGNORECASE),
)
# '제3조의2 ②', '제5조 제2항', '3조의 2항' (제3조's 항 2): an article and one of its 항
PARAGRAPH_RE = re.compile(
    r"(?<!\d)(?:제\s*)?(\d{1,3})\s*조(?:\s*의\s*(\d{1,3}))?\s*의?\s*"
    r"(?:(?:제\s*)?(\d{1,2})\s*항|([①-⑳]))"
)
EXHIBIT_RES = (
    re.compile(r"별\s*지\s*(?:제\s*)?(\d{1,2})"),
    re.compile(r"\b(?:exhibit|appendix|annex|schedule)\s*(\d{1,2})\b", re.IGNORECASE),
)


def _named(patterns: Sequence[re.Pattern[str]], question: str,
           read: Callable[[re.Match[str]], _T | None]) -> list[tuple[int, _T]]:  # fmt: skip
    """(where, what) of each match of `patterns`, one pattern after another, that `read` takes
    for a reference (None: it names none, as 제0조)."""
    return [(m.start(), v) for p in patterns for m in p.finditer(question)
            if (v := read(m)) is not None]  # fmt: skip


def _article(m: re.Match[str]) -> int | None:
    return int(m.group(1)) or None


def _branch(m: re.Match[str]) -> tuple[int, int] | None:
    pair = (int(m.group(1)), int(m.group(2)))
    return pair if pair[0] > 0 and 0 < pair[1] <= MAX_BRANCH else None


def article_refs(question: str) -> list[int]:
    """Plain articles named (제N조): their numbers, in the order named."""
    return list(dict.fromkeys(n for _, n in _named(ARTICLE_RES, question, _article)))


def branch_refs(question: str) -> list[tuple[int, int]]:
    """Branch articles named (제N조의M / Article N-M): (N, M) pairs, in the order named."""
    return list(dict.fromkeys(pair for _, pair in _named(BRANCH_RES, question, _branch)))


def paragraph_refs(question: str) -> dict[int, int]:
    """{article key: 항 number} for each article named with one of its 항 ('제3조의2 ②' →
    {3002: 2}); the first 항 named per article."""
    found: dict[int, int] = {}
    for m in PARAGRAPH_RE.finditer(question):
        number, branch = int(m.group(1)), int(m.group(2) or 0)
        paragraph = int(m.group(3)) if m.group(3) else CIRCLED.index(m.group(4)) + 1
        if number > 0 and branch <= MAX_BRANCH and paragraph > 0:
            found.setdefault(article_key(number, branch), paragraph)
    return found


def exhibit_refs(question: str) -> list[int]:
    found: list[int] = []
    for pattern in EXHIBIT_RES:
        found += [
            int(m.group(1)) for m in pattern.finditer(question) if int(m.group(1)) not in found
        ]
    return found


def article_keys(question: str) -> list[int]:
    """Every article and exhibit named, as article keys (models.article_key: 제3조의2 → 3002), in
    the order named."""
    found = [*_named(ARTICLE_RES, question, _article),
             *((at, article_key(*pair)) for at, pair in _named(BRANCH_RES, question, _branch)),
             *_named(EXHIBIT_RES, question, lambda m: -int(m.group(1)))]  # fmt: skip
    return list(dict.fromkeys(key for _, key in sorted(found) if key != 0))


def parse_ref(value: str) -> int | None:
    """One reference written by a model or a tool caller ('제3조의2', '3의2', '3-2', '제5조',
    '별지1', '7') as an article key; None when it names no article."""
    text = value.strip()
    if re.fullmatch(r"\d{1,3}-\d{1,3}", text):
        text = text.replace("-", "조의")
    elif re.fullmatch(r"\d{1,3}\s*의\s*\d{1,3}", text):
        text = text.replace("의", "조의", 1)
    elif re.fullmatch(r"-?\d{1,3}", text):
        return int(text) or None
    keys = article_keys(text)
    return keys[0] if len(keys) == 1 else None
