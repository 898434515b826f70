"""An agreement without 제N조 headings, read by its top-level numbered paragraphs.

Short agreements (the FTC 하도급대금 직접지급 합의서, a 확약서, a memorandum) number their
paragraphs '1.' … '5.' (or '①' …, '가.' …) and have no 조. When the parser finds no 제N조, each
such paragraph is read as an article (article_no = its number, `numbering` = its style), cited
'제3항' ('다항' for a lettered one): see models.article_ref.

    >>> lines = ["합의서", "1. 갑은 … 한다.", "2. 을은 … 한다."]
    >>> [a.ref for a in numbered_paragraphs(lines, "합의서", lambda t: Clause("text", None, t))]
    ['제1항', '제2항']

Only a document whose first marked line starts a sequence 1, 2, 3 … of one style that never
jumps or restarts, after a short preamble that does not announce a list ('…은 다음과 같다:'),
and whose every paragraph states a sentence, is read this way; a list inside prose ('준비물:
1. 신분증 2. 도장'), numbering that jumps (1., 2., 4.) or restarts (two lists) is not, and the
document is refused as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from agents.contract.models import LETTERS, Article, Clause, Numbering

CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳"  # as parse.CIRCLED (parse imports this module)
# '3. 원사업자가 …' (not '3.5%' nor a date's '12. 21.'), '③ …', '다. …'
MARKERS: dict[Numbering, re.Pattern[str]] = {
    "number": re.compile(r"^(\d{1,2})\.(?!\s*\d)\s*(\S.*)$"),
    "circled": re.compile(rf"^([{CIRCLED}])\s*(\S.*)$"),
    "letter": re.compile(rf"^([{LETTERS}])\.\s*(\S.*)$"),
}
MIN_PARAGRAPHS = 2
MAX_LEAD_LINES = 8  # the title's subtitle, the parties, '갑과 을은 다음과 같이 합의한다.'
MAX_HEADING_CHARS = 40
SENTENCE_END_RE = re.compile(r"(?:다|요)\s*[.。]?\s*$|(?:다|요)\.\s")


def _number(style: Numbering, marker: str) -> int:
    if style == "number":
        return int(marker)
    return (CIRCLED if style == "circled" else LETTERS).index(marker) + 1


def _first_marked(lines: list[str]) -> tuple[int, Numbering] | None:
    for i, line in enumerate(lines):
        for style, pattern in MARKERS.items():
            if pattern.match(line):
                return i, style
    return None


def numbered_paragraphs(lines: list[str], title: str,
                        read_line: Callable[[str], Clause]) -> list[Article] | None:  # fmt: skip
    """The articles of a document numbered by paragraphs (see the module docstring), the preamble
    (article 0) first when it has text; None when the document is not read that way. `lines`
    are the parser's cleaned lines, empty ones included; `read_line` reads a line within a
    paragraph as a 조's line is read (① a 항, 1) a 호, else text)."""
    body = [line for line in lines if line]
    if body and body[0] == title:
        body = body[1:]
    first = _first_marked(body)
    if first is None:
        return None
    start, style = first
    pattern = MARKERS[style]
    marks = [(i, m) for i, line in enumerate(body) if (m := pattern.match(line))]
    numbers = [_number(style, m.group(1)) for _, m in marks]
    if len(numbers) < MIN_PARAGRAPHS or numbers != list(range(1, len(numbers) + 1)):
        return None  # jumps, restarts or a single item: a list, or numbering not to guess at
    lead = body[:start]
    if len(lead) > MAX_LEAD_LINES or (lead and lead[-1].rstrip().endswith(":")):
        return None  # a list announced inside prose
    articles = [Article(0, "전문", [Clause("text", None, line) for line in lead], numbering=style)]
    ends = [i for i, _ in marks[1:]] + [len(body)]
    for (at, match), end in zip(marks, ends, strict=True):
        article = Article(_number(style, match.group(1)), "", numbering=style)
        text, rest = match.group(2).strip(), body[at + 1 : end]
        if rest and len(text) <= MAX_HEADING_CHARS and not SENTENCE_END_RE.search(text):
            article.title = text  # '2. 하도급대금 직접지급 방법과 절차' heads the lines below it
        else:
            rest = [text, *rest]
        if not any(SENTENCE_END_RE.search(line) for line in rest):
            return None  # an item of a list ('1. 신분증'), not a paragraph that states something
        article.title = article.title or article.ref
        article.clauses = [read_line(line) for line in rest]
        articles.append(article)
    return articles if articles[0].clauses else articles[1:]
