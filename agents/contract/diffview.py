"""Word-level differences between a clause and its standard counterpart, and term highlighting,
as plain segments a page (or a test) can render: [(text, changed), ...]."""

from __future__ import annotations

import difflib
import re

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
    """`text` split so each occurrence of a matched term is its own highlighted segment."""
    wanted = sorted({t for t in terms if len(t) >= 2}, key=len, reverse=True)
    if not wanted:
        return [(text, False)]
    pattern = re.compile("|".join(re.escape(t) for t in wanted), re.IGNORECASE)
    out: Segments = []
    last = 0
    for m in pattern.finditer(text):
        if m.start() > last:
            out.append((text[last : m.start()], False))
        out.append((m.group(0), True))
        last = m.end()
    if last < len(text):
        out.append((text[last:], False))
    return out
