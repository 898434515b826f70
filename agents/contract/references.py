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

from agents.contract.ingest.parse import CIRCLED
from agents.contract.models import MAX_BRANCH, article_key

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


def article_refs(question: str) -> list[int]:
    """Plain articles named (제N조): their numbers, in the order named."""
    found: list[int] = []
    for pattern in ARTICLE_RES:
        for m in pattern.finditer(question):
            number = int(m.group(1))
            if number > 0 and number not in found:
                found.append(number)
    return found


def branch_refs(question: str) -> list[tuple[int, int]]:
    """Branch articles named (제N조의M / Article N-M): (N, M) pairs, in the order named."""
    found: list[tuple[int, int]] = []
    for pattern in BRANCH_RES:
        for m in pattern.finditer(question):
            pair = (int(m.group(1)), int(m.group(2)))
            if pair[0] > 0 and 0 < pair[1] <= MAX_BRANCH and pair not in found:
                found.append(pair)
    return found


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
    found: list[tuple[int, int]] = []  # (position, key)
    for pattern in ARTICLE_RES:
        found += [(m.start(), int(m.group(1))) for m in pattern.finditer(question)]
    for pattern in BRANCH_RES:
        found += [(m.start(), article_key(int(m.group(1)), int(m.group(2))))
                  for m in pattern.finditer(question)
                  if int(m.group(1)) > 0 and 0 < int(m.group(2)) <= MAX_BRANCH]  # fmt: skip
    for pattern in EXHIBIT_RES:
        found += [(m.start(), -int(m.group(1))) for m in pattern.finditer(question)]
    keys = [key for _, key in sorted(found) if key != 0]
    return list(dict.fromkeys(keys))


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
