"""Typed records shared by the contract modules (JSON-serializable via `asdict`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

ClauseKind = Literal["text", "항", "호"]
# How a document numbers its articles: 제N조 headings (almost every contract), or, in a short
# agreement without them, its top-level paragraphs '1.' … / '①' … / '가.' … (parse.py)
Numbering = Literal["article", "number", "circled", "letter"]
LETTERS = "가나다라마바사아자차카타파하"
MAX_BRANCH = 999
KEY_BASE = 1000  # 제N조의M's key is N * KEY_BASE + M: above every 제N조 (N ≤ 999)
PART_BASE = 1_000_000  # an annexed part P (별첨 P, numbering restarted) adds P * PART_BASE


def article_key(article_no: int, branch: int = 0, part: int = 0) -> int:
    """One int per article of a contract, the key the index, tools and answers use: 제3조 → 3,
    별지1 → -1, 전문 → 0, 제3조의2 → 3002 (articles are numbered 1-999, so no key collides);
    the same article in annexed part 2 (its numbering restarted at 제1조) → 2_000_003."""
    base = article_no * KEY_BASE + branch if branch else article_no
    if not part:
        return base
    return base + part * PART_BASE if base >= 0 else base - part * PART_BASE


def split_part(key: int) -> tuple[int, int]:
    """(part, key within the part): 2_000_003 → (2, 3), 3002 → (0, 3002), -2_000_001 → (2, -1)."""
    part, base = divmod(abs(key), PART_BASE)
    return part, base if key >= 0 else -base


def split_key(key: int) -> tuple[int, int]:
    """(article_no, branch) of a key within its part: 3002 → (3, 2), 3 → (3, 0), -1 → (-1, 0)."""
    key = split_part(key)[1]
    return divmod(key, KEY_BASE) if key >= KEY_BASE else (key, 0)


def article_ref(article_no: int, branch: int = 0, numbering: Numbering = "article") -> str:
    """How a contract names the article: '제3조', '제3조의2', '별지1', '전문'; a numbered
    paragraph of an agreement without 조 ('3. …' or '③ …') is '제3항', a lettered one ('다. …')
    '다항', as Korean agreements cite their own paragraphs ('위 제2항에 따라')."""
    if article_no > 0 and numbering in ("number", "circled"):
        return f"제{article_no}항"
    if article_no > 0 and numbering == "letter":
        return f"{LETTERS[article_no - 1]}항" if article_no <= len(LETTERS) else f"제{article_no}항"
    if article_no > 0:
        return f"제{article_no}조" + (f"의{branch}" if branch else "")
    return f"별지{-article_no}" if article_no < 0 else "전문"


@dataclass(frozen=True)
class Clause:
    """One line of an article: a 항 (①), a 호 (1.) or plain text; `text` keeps the marker."""

    kind: ClauseKind
    number: int | None
    text: str


@dataclass
class Article:
    """A 조 (article_no > 0; `branch` M for 제N조의M), the preamble (0) or a 별지 exhibit
    (article_no = -N)."""

    article_no: int
    title: str
    clauses: list[Clause] = field(default_factory=list)
    branch: int = 0
    part: int = 0  # 0: the main body; P: the P-th annexed agreement (numbering restarted)
    part_title: str = ""  # the annex's heading ('비밀유지계약서'), '' in the main body
    numbering: Numbering = "article"  # 'number': the paragraph '3.' of an agreement without 조

    @property
    def key(self) -> int:
        return article_key(self.article_no, self.branch, self.part)

    @property
    def branch_label(self) -> str:
        """The article's number as the CLI and screen print it: '16', '16의2', '별지1', '전문';
        a numbered paragraph's '3항' (a lettered one's '다항')."""
        if self.article_no > 0 and self.numbering != "article":
            return self.ref.removeprefix("제")
        if self.article_no > 0:
            return f"{self.article_no}" + (f"의{self.branch}" if self.branch else "")
        return self.ref

    @property
    def ref(self) -> str:
        return article_ref(self.article_no, self.branch, self.numbering)

    @property
    def content(self) -> list[str]:
        return [c.text for c in self.clauses]

    @property
    def body(self) -> str:
        return "\n".join(self.content)

    @property
    def label(self) -> str:
        """'제5조(데이터의 제공)', '제3조의2(적용범위)', '별지1 대가', '전문'; an annexed part's
        article names its part first, by its heading, else '별첨 N': '[비밀유지계약서] 제3조(비밀유지)'."""
        own = f"{self.ref}({self.title})" if self.article_no > 0 else self.title
        if self.numbering != "article" and self.title in ("", self.ref):
            own = self.ref  # an untitled paragraph: '제3항', not '제3항(제3항)'
        return f"[{self.part_title or f'별첨 {self.part}'}] {own}" if self.part else own


@dataclass
class ParsedContract:
    title: str
    articles: list[Article]
    text: str  # the original text, as read from the file


@dataclass(frozen=True)
class ContractInfo:
    contract_id: str
    title: str
    contract_type: str | None
    is_standard: bool
    source_name: str
    source_format: str
    content_hash: str
    article_count: int
