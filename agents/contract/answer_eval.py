"""Answer precision: does the answer an analyst reads state the fact and quote the clause?

Over labelled questions (tests/fixtures/contracts/made_here/answers.json), each asked through the
screen's own `ask` (offline planner), per document:
- fact first: the fact that answers (a number, a period, a party) is in the answer's first line;
- quoted whole: the answer lists the labelled clause and quotes one of its 항/호 lines whole,
  and that line holds the fact;
- no such clause: a question about a clause the contract lacks is answered "no such clause"
  (payload `no_clause`, nothing cited);
- right 항: for questions labelled with the 항/호 that answers (`clause`: '③', '2.' for a 호, ''
  for an article without numbered clauses), a listed citation names that article and ends with
  that 항/호, and its quoted line holds the fact (stricter than quoted whole: a neighbouring 항 of
  the same article that happens to repeat the words does not count).

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

from agents.contract.answer import polite
from agents.contract.errors import ContractFileError
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
    clause: str | None = None  # the 항/호 marker that answers ('③', '2.'); '' = unnumbered

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
    right_clause: bool | None = None  # None: the question has no 항 label
    cited: tuple[str, ...] = ()  # the listed citations ('제7조(계약의 해지) ②'), in order
    related: tuple[str, ...] = ()  # the clauses listed as related (not an answer), in order

    @property
    def right_related(self) -> bool:
        """Said absent, but the labelled clause is among those listed as related."""
        label = _squash(self.question.article or "")
        return bool(label) and any(_squash(r).startswith(label) for r in self.related)

    @property
    def passed(self) -> bool:
        if self.question.absent:
            return self.no_clause
        return self.fact_first and self.quoted_whole

    @property
    def miss(self) -> str:
        """Why the answer fails its label ('' when it does not): for a clause the contract lacks,
        'answered absent'; else 'said absent' (no clause given), 'wrong article' (the labelled
        one not cited), 'wrong 항' (cited, but no quoted line holds the fact), 'fact not first'
        (quoted, but the first sentence does not state it)."""
        if self.question.absent:
            return "" if self.no_clause else "answered absent"
        if self.passed:
            return ""
        if self.no_clause or not self.cited:
            return "said absent"
        label = _squash(self.question.article or "")
        if not any(_squash(c).startswith(label) for c in self.cited):
            return "wrong article"
        return "fact not first" if self.quoted_whole else "wrong 항"


def load_questions(folder: Path) -> tuple[dict[str, str], list[AnswerQuestion]]:
    """(contract → file format, questions) of an answers.json."""
    raw = json.loads((folder / "answers.json").read_text(encoding="utf-8"))
    questions = [AnswerQuestion(r["contract"], r["q"], r.get("fact"), r.get("article"),
                                bool(r.get("absent")), r.get("set", ""), r.get("clause"))
                 for r in raw["questions"]]  # fmt: skip
    return dict(raw["contracts"]), questions


def ingest(contracts: dict[str, str], file_of: Callable[[str, str], bytes],
           pool: ConnectionPool | None = None) -> dict[str, str]:  # fmt: skip
    """Store each contract from its file in the given format (read as an upload is); returns the
    refused ones (name → the message the user would read): their questions cannot be asked, and
    count as misses (`refused_answer`) rather than stopping the run."""
    refused: dict[str, str] = {}
    for name, fmt in contracts.items():
        try:
            ingest_bytes(f"{name}.{fmt}", file_of(name, fmt), contract_id=PREFIX + name, pool=pool)
        except ContractFileError as e:
            refused[name] = str(e)
    return refused


def refused_answer(reason: str) -> AgentAnswer:
    """What a question about a refused document gets: nothing cited, no "no such clause"."""
    return AgentAnswer(answer=f"(읽지 못한 계약서: {reason})", mode="offline", status="error")


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text.replace("**", ""))


def check(question: AnswerQuestion, answer: AgentAnswer) -> AnswerCheck:
    """One answer against its label (see the module docstring)."""
    lines = [line for line in answer.answer.splitlines() if line.strip()]
    first = lines[0] if lines else ""
    no_clause = bool(answer.payload.get("no_clause")) and not answer.citations
    related = tuple(c.get("label", "") for c in answer.payload.get("related", []))
    if question.absent or question.fact is None:
        return AnswerCheck(
            question,
            False,
            False,
            no_clause,
            first,
            cited=tuple(c.get("label", "") for c in answer.payload.get("clauses", [])),
            related=related,
        )
    # the answer speaks 합니다체: a fact labelled '책임을 지지 않는다' is stated '… 않습니다'
    facts = {_squash(question.fact), _squash(polite(question.fact))}
    # labels compared without spaces: a PDF's per-glyph spacing may join '미 충족' in a title
    clauses = {_squash(c["label"]): c["content"] for c in answer.payload.get("clauses", [])}
    content = clauses.get(_squash(question.article or ""), [])
    listed = [
        (m.group("citation"), m.group("line")) for line in lines if (m := LISTED_RE.match(line))
    ]
    whole = any(_squash(q) in {_squash(_unmarked(c)) for c in content} and _holds(q, facts)
                for _, q in listed)  # fmt: skip
    right = None if question.clause is None else any(
        _names_clause(cite, question.article or "", question.clause) and _holds(q, facts)
        for cite, q in listed)  # fmt: skip
    cited = tuple(cite for cite, _ in listed)
    return AnswerCheck(question, _holds(first, facts), whole, no_clause, first, right, cited,
                       related)  # fmt: skip


def _holds(text: str, facts: set[str]) -> bool:
    return any(f in _squash(text) for f in facts)


def _names_clause(citation: str, article: str, clause: str) -> bool:
    """'제11조(금융사고자금 지급정지) ③' names 제11조's ③; '제7조(…) ① 2.' its 2호; an
    unnumbered article is named by its label alone."""
    cite, label = _squash(citation), _squash(article)
    if not cite.startswith(label):
        return False
    rest = cite[len(label) :]
    return rest == "" if clause == "" else rest.endswith(_squash(clause))


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
        labelled = [r for r in facts if r.right_clause is not None]
        out[doc] = {"answerable": len(facts),
                    "right_clause": (sum(bool(r.right_clause) for r in labelled) / len(labelled)
                                     if labelled else float("nan")),
                    "fact_first": sum(r.fact_first for r in facts) / (len(facts) or 1),
                    "quoted_whole": sum(r.quoted_whole for r in facts) / (len(facts) or 1),
                    "absent": len(absent),
                    "no_clause": sum(r.no_clause for r in absent) / (len(absent) or 1)}  # fmt: skip
    return out


def recall_at(
    questions: Sequence[AnswerQuestion], search: Callable[[str, str], Sequence[dict[str, object]]]
) -> dict[str, list[int | None]]:
    """Where the labelled article ranks (0 = first; None = not in the list `search` returns) for
    each present question, grouped per document and per 'document (set)'."""
    out: dict[str, list[int | None]] = {}
    for q in questions:
        if q.absent or not q.article:
            continue
        labels = [_squash(str(h.get("label", ""))) for h in search(q.contract_id, q.q)]
        rank = next((i for i, label in enumerate(labels) if label == _squash(q.article)), None)
        for key in (q.contract, f"{q.contract} ({q.set})" if q.set else ""):
            if key:
                out.setdefault(key, []).append(rank)
    return out
