"""Word-level differences between a clause and its standard counterpart, and term highlighting,
as plain segments a page (or a test) can render: [(text, changed), ...]."""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

Segments = list[tuple[str, bool]]


def _words(text: str) -> list[str]:
    return re.findall(r"\S+\s*", text)


def diff_segments(clause: str, standard: str) -> tuple[Segments, Segments]:
    """(clause segments, standard segments); `changed` marks words only one side has."""
    left, right = _words(clause), _words(standard)
    ours: Segments = []
    theirs: Segments = []
    matcher = difflib.SequenceMatcher(None, left, right, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        same = op == "equal"
        if i2 > i1:
            ours.append(("".join(left[i1:i2]), not same))
        if j2 > j1:
            theirs.append(("".join(right[j1:j2]), not same))
    return ours, theirs


def highlight_segments(text: str, terms: list[str]) -> Segments:
    """`text` split so each word (between spaces) holding a matched term is its own highlighted
    segment: the whole word, its particle included ('의무는', not '의무' + '는': a background
    ends with a gap before the next character, which read '의무 는' on the screen)."""
    wanted = sorted({t for t in terms if len(t) >= 2}, key=len, reverse=True)
    if not wanted:
        return [(text, False)]
    pattern = re.compile("|".join(re.escape(t) for t in wanted), re.IGNORECASE)
    spans: list[tuple[int, int]] = []
    for m in pattern.finditer(text):
        start = max(text.rfind(" ", 0, m.start()), text.rfind("\n", 0, m.start())) + 1
        end = min((i for i in (text.find(" ", m.end()), text.find("\n", m.end())) if i >= 0),
                  default=len(text))  # fmt: skip
        if spans and start <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(end, spans[-1][1]))
        else:
            spans.append((start, end))
    out: Segments = []
    last = 0
    for start, end in spans:
        if start > last:
            out.append((text[last:start], False))
        out.append((text[start:end], True))
        last = end
    if last < len(text):
        out.append((text[last:], False))
    return out


LIST_MARKER_RE = re.compile(r"^(\d{1,3})\.(?=\s)")


def clause_lines(lines: Sequence[str]) -> str:
    """Clause lines as Markdown, one per line: a 호 line's '1.' is escaped, so it is no list
    item that swallows the 항 after it ('6. … 게시' then '③ 거래처는 …' drew ③ inside item 6)."""
    return "  \n".join(LIST_MARKER_RE.sub(r"\1\\.", line) for line in lines)
