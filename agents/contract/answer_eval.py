"""Answer precision: does the answer an analyst reads state the fact and quote the clause?

Over labelled questions (tests/fixtures/contracts/made_here/answers.json), each asked through the
screen's own `ask` (offline planner), per document:
- fact first: the fact that answers (a number, a period, a party) is in the answer's first line;
- quoted whole: the answer lists the labelled clause and quotes one of its 항/호 lines whole,
  and that line holds the fact;
- no such clause: a question about a clause the contract lacks is answered "no such clause"
  (payload `no_clause`, nothing cited).

    results = evaluate(load_questions(folder), pool)   # list[AnswerCheck]
    for doc, row in summarize(results).items(): ...
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from psycopg_pool import ConnectionPool

from agents.contract.ingest.pipeline import ingest_bytes
from data_access.contracts import AgentAnswer

PREFIX = "made-"
LISTED_RE = re.compile(r"^- \*\*(?P<citation>.+?)\*\* — (?P<line>.+)$")


@dataclass(frozen=True)
class AnswerQuestion:
    contract: str
    q: str
    fact: str | None
    article: str | None
    absent: bool
    set: str = ""

    @property
    def contract_id(self) -> str:
        return PREFIX + self.contract


@dataclass(frozen=True)
class AnswerCheck:
    question: AnswerQuestion
    fact_first: bool
    quoted_whole: bool
    no_clause: bool
    first_line: str

    @property
    def passed(self) -> bool:
        if self.question.absent:
            return self.no_clause
        return self.fact_first and self.quoted_whole


def load_questions(folder: Path) -> tuple[dict[str, str], list[AnswerQuestion]]:
    """(contract → file format, questions) of an answers.json."""
    raw = json.loads((folder / "answers.json").read_text(encoding="utf-8"))
    questions = [AnswerQuestion(r["contract"], r["q"], r.get("fact"), r.get("article"),
                                bool(r.get("absent")), r.get("set", "")) for r in raw["questions"]]  # fmt: skip
    return dict(raw["contracts"]), questions


def ingest(contracts: dict[str, str], file_of: Callable[[str, str], bytes],
           pool: ConnectionPool | None = None) -> None:  # fmt: skip
    """Store each contract from its file in the given format (read as an upload is)."""
    for name, fmt in contracts.items():
        ingest_bytes(f"{name}.{fmt}", file_of(name, fmt), contract_id=PREFIX + name, pool=pool)


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text.replace("**", ""))


def check(question: AnswerQuestion, answer: AgentAnswer) -> AnswerCheck:
    """One answer against its label (see the module docstring)."""
    lines = [line for line in answer.answer.splitlines() if line.strip()]
    first = lines[0] if lines else ""
    no_clause = bool(answer.payload.get("no_clause")) and not answer.citations
    if question.absent or question.fact is None:
        return AnswerCheck(question, False, False, no_clause, first)
    fact = _squash(question.fact)
    # labels compared without spaces: a PDF's per-glyph spacing may join '미 충족' in a title
    clauses = {_squash(c["label"]): c["content"] for c in answer.payload.get("clauses", [])}
    content = clauses.get(_squash(question.article or ""), [])
    quoted = [m.group("line") for line in lines if (m := LISTED_RE.match(line))]
    whole = any(_squash(q) in {_squash(_unmarked(c)) for c in content} and fact in _squash(q)
                for q in quoted)  # fmt: skip
    return AnswerCheck(question, fact in _squash(first), whole, no_clause, first)


def _unmarked(line: str) -> str:
    return re.sub(r"^(?:[①-⑳]|\d{1,2}[.)]|[가-하][.)])\s*", "", line)


def evaluate(
    questions: Sequence[AnswerQuestion], ask: Callable[[str, str], AgentAnswer]
) -> list[AnswerCheck]:
    return [check(q, ask(q.contract_id, q.q)) for q in questions]


def summarize(
    results: Sequence[AnswerCheck], key: Callable[[AnswerQuestion], str] = lambda q: q.contract
) -> dict[str, dict[str, float | int]]:
    """Per document (or per `key`: e.g. the question set): answerable n, fact-first and
    quoted-whole rates, absent n and its rate."""
    out: dict[str, dict[str, float | int]] = {}
    for doc in dict.fromkeys(key(r.question) for r in results):
        rows = [r for r in results if key(r.question) == doc]
        facts = [r for r in rows if not r.question.absent]
        absent = [r for r in rows if r.question.absent]
        out[doc] = {"answerable": len(facts),
                    "fact_first": sum(r.fact_first for r in facts) / (len(facts) or 1),
                    "quoted_whole": sum(r.quoted_whole for r in facts) / (len(facts) or 1),
                    "absent": len(absent),
                    "no_clause": sum(r.no_clause for r in absent) / (len(absent) or 1)}  # fmt: skip
    return out
