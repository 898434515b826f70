"""Typed records shared by the contract modules (JSON-serializable via `asdict`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

ClauseKind = Literal["text", "항", "호"]
MAX_BRANCH = 999
KEY_BASE = 1000  # 제N조의M's key is N * KEY_BASE + M: above every 제N조 (N ≤ 999)


def article_key(article_no: int, branch: int = 0) -> int:
    """One int per article of a contract, the key the index, tools and answers use: 제3조 → 3,
    별지1 → -1, 전문 → 0, 제3조의2 → 3002 (articles are numbered 1-999, so no key collides)."""
    return article_no * KEY_BASE + branch if branch else article_no


def split_key(key: int) -> tuple[int, int]:
    """(article_no, branch) of a key: 3002 → (3, 2), 3 → (3, 0), -1 → (-1, 0)."""
    return divmod(key, KEY_BASE) if key >= KEY_BASE else (key, 0)


def article_ref(article_no: int, branch: int = 0) -> str:
    """How a contract names the article: '제3조', '제3조의2', '별지1', '전문'."""
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

    @property
    def key(self) -> int:
        return article_key(self.article_no, self.branch)

    @property
    def ref(self) -> str:
        return article_ref(self.article_no, self.branch)

    @property
    def content(self) -> list[str]:
        return [c.text for c in self.clauses]

    @property
    def body(self) -> str:
        return "\n".join(self.content)

    @property
    def label(self) -> str:
        """'제5조(데이터의 제공)', '제3조의2(적용범위)', '별지1 대가', '전문'."""
        if self.article_no > 0:
            return f"{self.ref}({self.title})"
        return self.title


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
