"""Explicit article and exhibit references in a question: 제N조 / N조 / Article N, 별지N / Exhibit N.

Shared by the offline planner (which routes them to `article_index`) and the hybrid index (where
they are one of the fused rankings).
"""

from __future__ import annotations

import re

ARTICLE_RES = (
    re.compile(r"제\s*(\d{1,3})\s*조(?!\s*원)"),
    re.compile(r"(?<![\d제])(\d{1,3})\s*조(?![원항\d])"),
    re.compile(r"\b(?:article|art\.|section|clause)\s*(\d{1,3})\b", re.IGNORECASE),
)
EXHIBIT_RES = (
    re.compile(r"별\s*지\s*(?:제\s*)?(\d{1,2})"),
    re.compile(r"\b(?:exhibit|appendix|annex|schedule)\s*(\d{1,2})\b", re.IGNORECASE),
)


def article_refs(question: str) -> list[int]:
    found: list[int] = []
    for pattern in ARTICLE_RES:
        for m in pattern.finditer(question):
            number = int(m.group(1))
            if number > 0 and number not in found:
                found.append(number)
    return found


def exhibit_refs(question: str) -> list[int]:
    found: list[int] = []
    for pattern in EXHIBIT_RES:
        found += [
            int(m.group(1)) for m in pattern.finditer(question) if int(m.group(1)) not in found
        ]
    return found
