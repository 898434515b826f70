"""Contract text → articles: 조 (제N조(제목); 제N조의M is its own article, branch M), 항 (①…),
호 (1. / 가.), 별지N (article_no = -N).

The original wording is kept line for line; markers stay in the text so a citation quotes the
clause exactly as written. Markdown decoration (headings, bold) is stripped before matching.
"""

from __future__ import annotations

import re

from agents.contract.errors import ContractFileError
from agents.contract.models import Article, Clause, ParsedContract

CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳"
KOREAN_ITEMS = "가나다라마바사아자차카타파하"

ARTICLE_RE = re.compile(
    r"^제\s*(\d{1,3})\s*조(?:\s*의\s*(\d{1,3}))?\s*(?:[(（]([^)）]{0,60})[)）])?\s*(.*)$"
)
EXHIBIT_RE = re.compile(
    r"^[\[【<〔(（]?\s*별\s*지\s*(?:제\s*)?(\d{1,2})\s*(?:호)?\s*[\]】>〕)）]?\s*(.*)$"
)
PARAGRAPH_RE = re.compile(rf"^([{CIRCLED}])\s*(.*)$")
ITEM_RE = re.compile(rf"^(\d{{1,2}}|[{KOREAN_ITEMS}])[.)]\s+(.*)$")
MARKDOWN_RE = re.compile(r"^(?:#{1,6}\s+|>\s+|[-*]\s+(?=제\s*\d|별지))")
PREAMBLE_TITLE = "전문"


def clean_line(line: str) -> str:
    """One line without Markdown decoration and surrounding whitespace."""
    line = line.replace("\u3000", " ").strip()
    line = MARKDOWN_RE.sub("", line)
    return line.replace("**", "").replace("__", "").strip()


def parse_contract_text(text: str, fallback_title: str = "계약서") -> ParsedContract:
    """Split a contract into articles; raises ContractFileError when no 제N조 is found."""
    if not text.strip():
        raise ContractFileError("계약서 내용이 비어 있습니다. 텍스트가 있는 파일을 올려 주세요.")
    lines = [clean_line(raw) for raw in text.splitlines()]
    title = _title(text, fallback_title)
    articles: list[Article] = []
    preamble = Article(0, PREAMBLE_TITLE)
    current = preamble
    for line in lines:
        if not line:
            continue
        started = _start_article(line)
        if started is not None and started.article_no < 0 and _seen(articles, started):
            started = (
                None  # '별지2) …' again: a wrapped reference inside a clause, not a new exhibit
            )
        if started is not None:
            current = started
            articles.append(current)
            continue
        if current is preamble and line == title:
            continue
        current.clauses.append(_clause(line))
    if not any(a.article_no > 0 for a in articles):
        raise ContractFileError(
            "조항(제N조)을 찾을 수 없습니다. '제1조(목적)'처럼 조 번호와 제목이 있는 계약서를 올려 주세요."
        )
    _check_duplicates(articles)
    if preamble.clauses:
        articles.insert(0, preamble)
    return ParsedContract(title=title, articles=articles, text=text)


def _seen(articles: list[Article], article: Article) -> bool:
    return any(a.key == article.key for a in articles)


def _title(text: str, fallback: str) -> str:
    for raw in text.splitlines():
        line = clean_line(raw)
        if line:
            return line[:120] if not ARTICLE_RE.match(line) else fallback
    return fallback


def _start_article(line: str) -> Article | None:
    match = ARTICLE_RE.match(line)
    if match and (match.group(3) is not None or not match.group(4)):
        number, branch = int(match.group(1)), int(match.group(2) or 0)
        title, rest = (match.group(3) or "").strip(), match.group(4)
        article = Article(number, "", branch=branch)
        article.title = title or article.ref
        if rest:
            article.clauses.append(_clause(rest))
        return article
    match = EXHIBIT_RE.match(line)
    if match:
        number, rest = int(match.group(1)), match.group(2).strip()
        return Article(-number, f"별지{number} {rest}".strip())
    return None


def _clause(line: str) -> Clause:
    match = PARAGRAPH_RE.match(line)
    if match:
        return Clause("항", CIRCLED.index(match.group(1)) + 1, line)
    match = ITEM_RE.match(line)
    if match:
        marker = match.group(1)
        number = int(marker) if marker.isdigit() else KOREAN_ITEMS.index(marker) + 1
        return Clause("호", number, line)
    return Clause("text", None, line)


def _check_duplicates(articles: list[Article]) -> None:
    """Each article once: 제3조 and 제3조의2 are two articles, 제3조 twice is a numbering error."""
    seen: set[int] = set()
    for article in articles:
        if article.key in seen:
            label = article.label if article.article_no > 0 else article.title
            raise ContractFileError(
                f"같은 번호의 조항이 두 번 나옵니다 ({label}). 계약서 번호 매김을 확인해 주세요."
            )
        seen.add(article.key)
