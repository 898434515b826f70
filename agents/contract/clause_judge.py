"""The model's judgement of which 항/호 answers a content question, checked before it is used.

With a model configured, a single-topic content question is not answered by the offline
relevance cut alone: the model is shown the 항/호 lines of the clauses retrieved for it (those
the tools kept first, then the nearest others: `candidates`) and names the one that states what
is asked, or none ("no such clause"):

    found = retrieved(index, contract_id, question)  # the clauses found, and the offline cut's
    listing = candidates(evidence, found.clauses)    # [Candidate(id=1, citation='제7조(…) ②', …)]
    verdict = read_verdict(model_reply, listing)     # Verdict(chosen=…) / Verdict(none=True) / problem
    evidence = verdict.evidence(evidence, listing)   # the chosen clause alone, or none and related

A reply that names no candidate (an id not listed, no JSON, no "answer") is not used: the turn
goes on as it would have without the judge, with a notice. The offline answer's choice (the
offline relevance cut on the question, as without a model) is computed beside the model's and
the trace step `clause_check` says whether they agree.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from typing import Any

from agents.contract.answer import MARKER_RE, line_groups, select
from agents.contract.index import ContractIndex, Hit
from agents.contract.synthesis import Evidence, FoundClause, first_quote
from agents.contract.tools import TOP_K

# clauses shown to the judge: those the tools kept first, then the nearest others (six: the
# clause that answers an everyday word's question is often retrieved fifth or sixth)
MAX_ARTICLES = 6
MAX_CANDIDATES = 50
TEXT_CHARS = 200  # of a 항/호's text (its marker is in `clause`)
LEAD_CHARS = 120
RELATED = 2
JSON_RE = re.compile(r"\{.*\}", re.DOTALL)
NONE = "없음"


@dataclass(frozen=True)
class Candidate:
    id: int
    clause: FoundClause
    line: int  # index of the 항/호's first line in clause.content
    citation: str  # '제7조(계약의 해지) ②'
    text: str
    lead: str = ""  # the line a 호 completes ('… 다음 각 호의 경우 …')

    def listing(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "clause": self.citation, "text": self.text}
        if self.lead:
            out["lead"] = self.lead
        return out


@dataclass(frozen=True)
class Verdict:
    """What the model's reply says: a candidate, none, or a problem (the reply is not used)."""

    chosen: Candidate | None = None
    none: bool = False
    problem: str = ""

    @property
    def usable(self) -> bool:
        return not self.problem

    @property
    def citation(self) -> str:
        return self.chosen.citation if self.chosen is not None else NONE

    def evidence(self, offline: Evidence, listing: list[Candidate]) -> Evidence:
        """The evidence the answer is built from: the chosen clause alone (quoted at the chosen
        line), or no clause and the nearest ones as related."""
        kept = dict(standard=offline.standard, standard_title=offline.standard_title,
                    missing=offline.missing, errors=offline.errors)  # fmt: skip
        if self.chosen is not None:
            clause = replace(self.chosen.clause, answer_line=self.chosen.line)
            return Evidence(clauses=[clause], **kept)  # type: ignore[arg-type]
        nearest = list({c.clause.key: c.clause for c in listing}.values())[:RELATED]
        return Evidence(related=nearest, lacking=offline.lacking if not offline.clauses else "",
                        **kept)  # type: ignore[arg-type]  # fmt: skip


def candidates(evidence: Evidence, retrieved: list[FoundClause]) -> list[Candidate]:
    """The 항/호 lines the judge chooses from: of the clauses the tools kept, then of the
    others retrieved for the question, each clause once, numbered from 1."""
    first: dict[int, FoundClause] = {}
    for clause in [*evidence.clauses, *retrieved]:
        first.setdefault(clause.key, clause)  # as the tools found it, when they kept it
    clauses = list(first.values())[:MAX_ARTICLES]
    out: list[Candidate] = []
    for clause in clauses:
        lines = clause.content
        for group, marker, lead in line_groups(lines):
            text = MARKER_RE.sub("", " ".join(lines[i] for i in group).strip(), count=1)
            if text:
                above = lines[lead] if lead is not None else ""
                out.append(Candidate(len(out) + 1, clause, group[0],
                                     f"{clause.label} {marker}".strip(), text[:TEXT_CHARS],
                                     above[:LEAD_CHARS]))  # fmt: skip
    return out[:MAX_CANDIDATES]


@dataclass(frozen=True)
class Retrieved:
    """What the contract's index finds for a question: the clauses best first (the judge is
    shown them beyond those the tools kept) and what the offline relevance cut keeps of them
    (the offline answer, which the judge's choice is compared with)."""

    clauses: list[FoundClause]
    offline: list[FoundClause]


def retrieved(index: ContractIndex, contract_id: str, question: str) -> Retrieved:
    """The question searched as the offline hybrid search does (agents.contract.tools)."""
    hits = index.search(question, top=TOP_K * 2)
    kept = select(question, hits, articles=list(index.articles.values()))
    return Retrieved([_found(contract_id, h) for h in hits[:MAX_ARTICLES]],
                     [_found(contract_id, h) for h in kept])  # fmt: skip


def _found(contract_id: str, hit: Hit) -> FoundClause:
    a = hit.article
    return FoundClause(contract_id, a.article_no, a.label, a.title, a.content, "hybrid_search",
                       score=hit.score, retrievers=hit.retrievers, matched_terms=hit.matched_terms,
                       branch=a.branch, part=a.part, part_title=a.part_title,
                       branch_label=a.branch_label, numbering=a.numbering)  # fmt: skip


def listing_json(listing: list[Candidate]) -> str:
    return json.dumps([c.listing() for c in listing], ensure_ascii=False)


def read_verdict(reply: str, listing: list[Candidate]) -> Verdict:
    """The model's reply checked against the candidates it was shown: {"answer": id} names one
    of them, {"answer": null} says none answers; anything else is a problem (in Korean)."""
    match = JSON_RE.search(reply or "")
    try:
        data = json.loads(match.group(0)) if match else None
    except json.JSONDecodeError:
        data = None
    if not isinstance(data, dict) or "answer" not in data:
        return Verdict(problem=f"읽을 수 없는 답: {(reply or '').strip()[:80]!r}")
    answer = data["answer"]
    if answer is None:
        return Verdict(none=True)
    by_id = {c.id: c for c in listing}
    if isinstance(answer, bool) or not str(answer).strip().isdigit():
        return Verdict(problem=f"후보 번호가 아닌 답: {answer!r}")
    chosen = by_id.get(int(str(answer).strip()))
    if chosen is None:
        return Verdict(problem=f"후보에 없는 번호: {answer!r}")
    return Verdict(chosen=chosen)


def offline_citation(found: Retrieved, question: str) -> str:
    """The 항/호 the offline answer leads with ('없음' when it says no clause answers)."""
    quote = first_quote(Evidence(clauses=found.offline), "ko", question)
    return quote.citation if quote is not None else NONE
