"""Typed records shared by the contract modules (JSON-serializable via `asdict`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

ClauseKind = Literal["text", "항", "호"]


@dataclass(frozen=True)
class Clause:
    """One line of an article: a 항 (①), a 호 (1.) or plain text; `text` keeps the marker."""

    kind: ClauseKind
    number: int | None
    text: str


@dataclass
class Article:
    """A 조 (article_no > 0), the preamble (0) or a 별지 exhibit (article_no = -N)."""

    article_no: int
    title: str
    clauses: list[Clause] = field(default_factory=list)

    @property
    def content(self) -> list[str]:
        return [c.text for c in self.clauses]

    @property
    def body(self) -> str:
        return "\n".join(self.content)

    @property
    def label(self) -> str:
        """'제5조(데이터의 제공)', '별지1 대가', '전문'."""
        if self.article_no > 0:
            return f"제{self.article_no}조({self.title})"
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
