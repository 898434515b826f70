"""PDF text lines → contract lines: wrapped lines joined into their sentence, split words and
numbers put back together, before articles and clauses are split.

A PDF has no paragraphs, only positioned lines: a clause wraps over several lines (and pages),
justified text leaves words broken ('편 집'), and some writers space every number ('제 4조',
'있다 .'). A line is joined to the one before it unless it starts a clause (제N조, ①, 1., 가.,
별지) or the one before ends a sentence or is a heading; a proviso ('다만, …', '이 경우 …')
carries on the 항 before it even after a full stop. A word broken at a line end or by a
stray space is joined without a space only when the joined word occurs elsewhere in the same
document (its own vocabulary decides, no dictionary):

    >>> normalise_lines(["제 4조(계약기간) 계약기간은 1년으로 한", "다 .", "② 편 집권은 갑에게 있다.",
    ...                  "편집권은 양도할 수 없다."])
    ['제4조(계약기간) 계약기간은 1년으로 한다.', '② 편집권은 갑에게 있다.', '편집권은 양도할 수 없다.']
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Sequence

from agents.contract.ingest.parse import (
    ARTICLE_RE,
    EXHIBIT_RE,
    ITEM_RE,
    PARAGRAPH_RE,
    PART_WORDS,
    bare_title,
)

PAGE_NUMBER_RE = re.compile(r"^[-–—(\[]?\s*\d{1,4}\s*(?:/\s*\d{1,4})?\s*[-–—)\]]?$")
ARTICLE_SPACING = ((re.compile(r"제\s+(\d{1,3})\s*조"), r"제\1조"),
                   (re.compile(r"제(\d{1,3})\s+조"), r"제\1조"),
                   (re.compile(r"(제\d{1,3}조)\s+의\s*(\d{1,3})"), r"\1의\2"),
                   (re.compile(r"\s+([.,)\]」』:;?!])"), r"\1"),
                   (re.compile(r"([(\[「『])\s+"), r"\1"))  # fmt: skip
SENTENCE_END = ("다.", ".", "다", ":", "?", "!")
# a proviso or a rider ('다만, …', '이 경우 …') goes on the 항 whose sentence ended the line
# before: it is that 항's second sentence, never a paragraph of its own
PROVISO_RE = re.compile(r"(?:다만|단)\s*,|다만\s|이\s*경우\s")
HEADING_CHARS = 30
HANGUL_RE = re.compile(r"[가-힣]")
WORD_EDGE = "'\"“”‘’()[]<>「」『』.,:;?!·"


class Vocabulary:
    """The document's own words (space-separated, edge punctuation stripped), for prefix look-ups."""

    def __init__(self, lines: Sequence[str]) -> None:
        words = [w.strip(WORD_EDGE) for line in lines for w in line.split()]
        self.counts = Counter(w for w in words if w)
        self._sorted = sorted(self.counts)

    def knows_start(self, joined: str, shorter_than: int) -> bool:
        """Some word of the document is a start of `joined` longer than `shorter_than` chars,
        `joined` starts a word, or they share a start two characters past the break ('편집권과'
        for '편집권은')."""
        joined = joined.strip(WORD_EDGE)
        if not joined:
            return False
        head = joined[: shorter_than + 1]
        i = bisect.bisect_left(self._sorted, head)
        while i < len(self._sorted) and self._sorted[i].startswith(head):
            word = self._sorted[i]
            if len(word) > shorter_than and (joined.startswith(word) or word.startswith(joined)
                                             or _common(word, joined) >= shorter_than + 2):  # fmt: skip
                return True
            i += 1
        return False


def _common(a: str, b: str) -> int:
    """The length of the common start of two words."""
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def normalise_lines(raw_lines: Sequence[str]) -> list[str]:
    """Cleaned, joined lines (see the module docstring)."""
    lines = [_spacing(line) for line in raw_lines]
    lines = [line for line in lines if line and not PAGE_NUMBER_RE.match(line)]
    vocabulary = Vocabulary(lines)
    out: list[str] = []
    for line in lines:
        line = _rejoin_broken(line, vocabulary)
        if out and _continues(out[-1], line):
            out[-1] = _join(out[-1], line, vocabulary)
        else:
            out.append(line)
    return [_spacing(line) for line in out]


def _spacing(line: str) -> str:
    line = " ".join(line.split())
    for pattern, replacement in ARTICLE_SPACING:
        line = pattern.sub(replacement, line)
    return line


def _starts_unit(line: str) -> bool:
    return any(p.match(line) for p in (ARTICLE_RE, PARAGRAPH_RE, ITEM_RE, EXHIBIT_RE))


def _is_heading(line: str) -> bool:
    """An annex's heading, or an article heading without brackets ('제1조 적용범위'): the next
    line starts the article's text, not its title's continuation."""
    return len(line) <= HEADING_CHARS and (any(w in line for w in PART_WORDS)
                                           or bare_title(line) is not None)  # fmt: skip


def _continues(previous: str, line: str) -> bool:
    """`line` carries on the sentence of `previous` (a wrapped line)."""
    if _starts_unit(line) or _is_heading(line) or _is_heading(previous):
        return False
    return (not previous.endswith(SENTENCE_END) or line.startswith(("다.", "다 .", "."))
            or PROVISO_RE.match(line) is not None)  # fmt: skip


def _join(previous: str, line: str, vocabulary: Vocabulary) -> str:
    """Without a space when the word broken at the line end is one the document uses whole."""
    last = previous.split()[-1] if previous.split() else ""
    first = line.split()[0]
    ending = line.startswith(".") or (first.startswith("다") and len(first.rstrip(".")) == 1)
    broken = (bool(HANGUL_RE.match(first[:1])) and bool(HANGUL_RE.search(last[-1:]))
              and vocabulary.knows_start(last + first, len(last.strip(WORD_EDGE))))  # fmt: skip
    return previous + ("" if ending or broken else " ") + line


def _rejoin_broken(line: str, vocabulary: Vocabulary) -> str:
    """'편 집권은' → '편집권은' when a lone syllable is used nowhere else on its own and the
    document knows the joined word."""
    words = line.split(" ")
    out: list[str] = []
    for word in words:
        if (out and _lone_syllable(out[-1], vocabulary) and HANGUL_RE.match(word[:1] or " ")
                and vocabulary.knows_start(out[-1] + word, 1)):  # fmt: skip
            out[-1] += word
            continue
        out.append(word)
    return " ".join(out)


def _lone_syllable(word: str, vocabulary: Vocabulary) -> bool:
    return len(word) == 1 and bool(HANGUL_RE.match(word)) and vocabulary.counts[word] <= 1
