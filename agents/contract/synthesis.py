"""Evidence → answer: the matched clauses (with where they came from), their standard-contract
counterparts with differences, and the offline answer templates (Korean or English).
"""

from __future__ import annotations

import difflib
from dataclasses import asdict, dataclass, field
from typing import Any

from agents.contract.answer import Quote, emphasize, one_line, operative, quote_line
from agents.contract.coverage import topic_units
from agents.contract.ingest.parse import CIRCLED
from agents.contract.models import article_key
from agents.contract.references import paragraph_refs
from agents.contract.registry import ToolOutcome
from agents.contract.tokenize import tokens
from data_access.contracts import Citation

SNIPPET_CHARS = 220
SAME, SIMILAR = 0.95, 0.6


@dataclass
class FoundClause:
    contract_id: str
    article_no: int
    label: str
    title: str
    content: list[str]
    tool: str
    topic: str | None = None
    score: float | None = None
    retrievers: list[str] = field(default_factory=list)
    matched_terms: list[str] = field(default_factory=list)
    branch: int = 0  # M of 제N조의M
    part: int = 0  # the annexed part (0: the main body)
    part_title: str = ""
    branch_label: str = ""  # '16의2'
    numbering: str = "article"  # 'number': an agreement's paragraph '3.', labelled '제3항'
    answer_line: int = -1  # the content line of the 항/호 a model judged to answer (-1: none)
    loose: list[str] = field(default_factory=list)  # the question's words it was read loosely on

    @property
    def key(self) -> int:
        return article_key(self.article_no, self.branch, self.part)


@dataclass
class Evidence:
    clauses: list[FoundClause] = field(default_factory=list)
    standard: list[FoundClause] = field(default_factory=list)
    standard_title: str | None = None
    missing: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    related: list[FoundClause] = field(default_factory=list)  # nearest, when none answers
    lacking: str = ""  # what the question asks about that no clause holds ('적립금 유효기간')
    # topics asked apart ('A와 B는?'): each topic's clauses, in the order asked ([] = none)
    topics: dict[str, list[FoundClause]] = field(default_factory=dict)

    @property
    def no_clause(self) -> bool:
        """Nothing in the contract answers (the answer says so; related clauses are not cited)."""
        return not self.clauses and not self.standard and not self.errors

    def to_payload(self) -> dict[str, Any]:
        return {"clauses": [asdict(c) for c in self.clauses],
                "related": [asdict(c) for c in self.related], "no_clause": self.no_clause,
                "lacking": self.lacking,
                "standard": [asdict(c) for c in self.standard],
                "standard_title": self.standard_title, "missing": self.missing,
                "errors": self.errors,
                "topics": {t: [c.label for c in cs] for t, cs in self.topics.items()}}  # fmt: skip


def _clause(contract_id: str, raw: dict[str, Any], tool: str, topic: str | None) -> FoundClause:
    return FoundClause(contract_id, int(raw["article_no"]), str(raw.get("label") or raw["title"]),
                       str(raw["title"]), list(raw.get("content", [])), tool, topic,
                       raw.get("score"), list(raw.get("retrievers", [])),
                       list(raw.get("matched_terms", [])), int(raw.get("branch") or 0),
                       int(raw.get("part") or 0), str(raw.get("part_title") or ""),
                       str(raw.get("branch_label") or ""),
                       numbering=str(raw.get("numbering") or "article"),
                       loose=[str(w) for w in raw.get("loose") or []])  # fmt: skip


def collect(outcomes: list[ToolOutcome], contract_id: str) -> Evidence:
    """Clauses from every successful tool result, without repeats, in call order."""
    evidence = Evidence()
    seen: set[tuple[str, int]] = set()

    def add(target: list[FoundClause], clause: FoundClause) -> None:
        key = (clause.contract_id, clause.key)
        if key not in seen:
            seen.add(key)
            target.append(clause)

    for outcome in outcomes:
        result, tool = outcome.result, outcome.call.name
        if not outcome.ok:
            evidence.errors.append(f"{tool}: {result.get('error')}")
            continue
        evidence.missing += result.get("missing", [])
        evidence.related += [_clause(contract_id, raw, tool, None)
                             for raw in result.get("related", [])]  # fmt: skip
        evidence.lacking = evidence.lacking or str(result.get("lacking") or "")
        for raw in result.get("matched_articles", []):
            add(evidence.clauses, _clause(contract_id, raw, tool, None))
        if tool == "standard_contract":
            evidence.standard_title = result.get("title")
            for query, rows in result.get("results", {}).items():
                for raw in rows[:1]:  # the best standard clause per query
                    add(
                        evidence.standard, _clause(result["standard_contract_id"], raw, tool, query)
                    )
        else:
            results = result.get("results", {})
            for topic, rows in results.items():
                found = [_clause(contract_id, raw, tool, topic) for raw in rows]
                if tool == "hybrid_search" and len(results) > 1:
                    evidence.topics[topic] = found
                for clause in found:
                    add(evidence.clauses, clause)
    return evidence


def similarity(a: list[str], b: list[str]) -> float:
    return difflib.SequenceMatcher(None, "\n".join(a), "\n".join(b), autojunk=False).ratio()


def counterpart(clause: FoundClause, standard: list[FoundClause]) -> FoundClause | None:
    """The standard clause with the same title, else the most similar text."""
    if not standard:
        return None
    for s in standard:
        if s.title == clause.title:
            return s
    best = max(standard, key=lambda s: similarity(clause.content, s.content))
    return best if similarity(clause.content, best.content) > 0.3 else None


def citations(evidence: Evidence) -> list[Citation]:
    return [Citation(doc_id=f"{c.contract_id}#{_anchor(c)}", title=c.label,
                     evidence_id=f"{c.tool}:{_anchor(c)}")
            for c in evidence.clauses + evidence.standard]  # fmt: skip


def _anchor(c: FoundClause) -> str:
    """The article's place in a citation id: '5' as before, '3-2' for 제3조의2, 'p1.5' for 제5조
    of annexed part 1."""
    own = f"{c.article_no}-{c.branch}" if c.branch else str(c.article_no)
    return f"p{c.part}.{own}" if c.part else own


def paragraph_lines(content: list[str], number: int) -> list[str]:
    """The lines of 항 `number` (its ② line and the 호 under it); [] when it has no such 항."""
    marker = CIRCLED[number - 1] if 0 < number <= len(CIRCLED) else ""
    out: list[str] = []
    for line in content:
        if out and line[:1] in CIRCLED:
            break
        if out or (marker and line.startswith(marker)):
            out.append(line)
    return out


def _listed(c: FoundClause, language: str, paragraphs: dict[int, int]) -> str:
    """A clause as a lookup lists it: the 항 the question named ('제3조의2 ②'), else a snippet."""
    lines = paragraph_lines(c.content, paragraphs[c.key]) if c.key in paragraphs else []
    if lines:
        return f"- **{_name(c, language)} {lines[0][0]}** — {_snippet(lines)}"
    return f"- **{_name(c, language)}** — {_snippet(c.content)}"


def _snippet(content: list[str]) -> str:
    text = " ".join(content)
    return text if len(text) <= SNIPPET_CHARS else text[: SNIPPET_CHARS - 1] + "…"


def _verdict(ratio: float, language: str) -> str:
    if language == "en":
        return "same as the standard" if ratio >= SAME else (
            "close to the standard" if ratio >= SIMILAR else "differs from the standard")  # fmt: skip
    return (
        "표준과 같음" if ratio >= SAME else "표준과 비슷함" if ratio >= SIMILAR else "표준과 다름"
    )


def _name(c: FoundClause, language: str) -> str:
    """How an answer names the clause: its label; in English 'Article 3-2 (title)', 'Paragraph 3
    (title)' for an agreement's '3.', 'Exhibit 1 (title)', an annexed part's heading (else 'Annex
    N') first."""
    if language != "en":
        return c.label
    number = f"{c.article_no}-{c.branch}" if c.branch else str(c.article_no)
    kind = "Article" if c.numbering == "article" else "Paragraph"  # an agreement's '3.'
    own = (f"{kind} {number} ({c.title})" if c.article_no > 0 else
           f"Exhibit {-c.article_no} ({c.title})" if c.article_no < 0 else c.label)  # fmt: skip
    return f"[{c.part_title or f'Annex {c.part}'}] {own}" if c.part else own


NO_CLAUSE = {
    "ko": "이 계약서에는 해당 조항이 없습니다.",
    "en": "This contract has no clause on that.",
}


def no_clause_line(lacking: str, language: str) -> str:
    """'이 계약서에는 적립금 유효기간에 관한 조항이 없습니다.' when the question's missing topic
    is known (coverage.missing_topic); the plain sentence otherwise."""
    if not lacking or language != "ko":
        return NO_CLAUSE[language]
    return f"이 계약서에는 {lacking}에 관한 조항이 없습니다."


NO_CLAUSE_HINT = {
    "ko": "조 번호(예: 제5조)나 다른 표현으로 다시 물어볼 수 있습니다.",
    "en": "You can ask again with an article number (e.g. Article 5) or other words.",
}


def _quote(c: FoundClause, language: str, asked: list[str], question: str) -> Quote:
    """The clause's operative 항/호: the one a model judged to answer, else the best match."""
    if 0 <= c.answer_line < len(c.content):
        return quote_line(_name(c, language), c.content, c.answer_line, c.matched_terms, asked,
                          question)  # fmt: skip
    return operative(_name(c, language), c.content, c.matched_terms, asked, question)


def first_quote(evidence: Evidence, language: str, question: str) -> Quote | None:
    """The quote the answer's first line is built from (None when no clause answers)."""
    if not evidence.clauses:
        return None
    return _quote(evidence.clauses[0], language, tokens(question), question)


def _quoted(quote: Quote) -> str:
    """A clause as the answer lists it: its operative 항/호 line, whole, matched words in bold."""
    item = f"- **{quote.citation}** — {emphasize(quote.line or quote.sentence, quote.matched)}"
    if not quote.lead:
        return item
    return f"- **{quote.lead_citation}** — {emphasize(quote.lead, quote.matched)}\n{item}"


def offline_answer(evidence: Evidence, language: str, intent: str, question: str = "") -> str:
    """The template answer: for a content question, a one-line answer from the operative sentence
    of the best clause, then each clause's operative sentence; "no such clause" when nothing
    cleared the relevance cut."""
    en = language == "en"
    asked = tokens(question) if question else []
    if not evidence.clauses and not evidence.standard:
        lines = [no_clause_line(evidence.lacking, language) + " " + NO_CLAUSE_HINT[language]]
        lines += [f"- {e}" for e in evidence.errors]
        lines += _related_lines(evidence, language)
    elif not evidence.clauses:
        lines = [NO_CLAUSE[language]]
    elif intent == "search" and len(evidence.topics) > 1 and not _stated_together(evidence):
        lines = _per_topic_lines(evidence, language, question)
        # each topic's words pick its line; the question (the predicate the topics share:
        # '관세랑 부가세는 누가 내요?') tells which kind of fact is asked
        quotes = [_quote(c, language, tokens(c.topic or question), question or c.topic or "")
                  for c in evidence.clauses]  # fmt: skip
        lines += ["", "Clauses:" if en else "근거 조항:"] + [_quoted(q) for q in quotes]
    elif intent == "search":
        quotes = [_quote(c, language, asked, question) for c in evidence.clauses]
        lines = [
            one_line(quotes[0], language),
            *_loose_lines(evidence.clauses[0], language),
            "",
            "Clauses:" if en else "근거 조항:",
        ]
        lines += [_quoted(q) for q in quotes]
    else:
        head = "Relevant clauses of the contract:" if en else "질문과 관련된 계약서 조항입니다."
        lines = [head, ""]
        named = paragraph_refs(question)
        lines += [_listed(c, language, named) for c in evidence.clauses]
    if intent == "compare" and len(evidence.clauses) >= 2:
        parts = [f"{_name(c, language)}" for c in evidence.clauses]
        lines += ["", ("Compared: " if en else "비교 대상: ") + ", ".join(parts) + (
            " — each covers a different subject; see the full text above." if en else
            " — 각 조항의 내용은 위와 같습니다.")]  # fmt: skip
    lines += _standard_lines(evidence, language)
    if evidence.missing:
        lines += ["", ("Not in this contract: " if en else "이 계약서에 없는 조항: ")
                  + ", ".join(evidence.missing)]  # fmt: skip
    return "\n".join(lines).strip()


def _stated_together(evidence: Evidence) -> bool:
    """The topics asked apart are stated together, in one line of the one clause that answers
    each ('관리비랑 공과금 정산은 누가 해요?': 제10조 ① '임차인은 … 공과금과 관리비를
    정산하여야 한다'): they are answered once, from that line, not topic by topic."""
    best = [found[0] for found in evidence.topics.values() if found]
    if len(best) != len(evidence.topics) or len({c.key for c in best}) != 1:
        return False
    # each topic's nouns (not a condition's: '나갈 때 관리비' is 관리비)
    words = [[m for u in topic_units(topic) if not (u.context or u.predicate) for m in u.morphemes]
             for topic in evidence.topics]  # fmt: skip
    return all(words) and any(
        all(t in line for ws in words for t in ws) for line in best[0].content
    )


def _per_topic_lines(evidence: Evidence, language: str, question: str = "") -> list[str]:
    """One answer line per topic asked apart, each from its own best clause ('데이터 제공 범위:
    …', '손해배상 조건: …'), then the topics the contract has no clause on: what it says comes
    first ('국민연금이나 건강보험은 …?' opens with 건강보험's clause, not with 국민연금's absence)."""
    lines, lacking = [], []
    for topic, found in evidence.topics.items():
        if not found:
            lacking.append(f"{topic}: {NO_CLAUSE[language]}")
            continue
        best = found[0]
        quote = _quote(best, language, tokens(topic), question or topic)
        lines.append(f"{topic}: {one_line(quote, language)}")
    return lines + lacking


def _loose_lines(clause: FoundClause, language: str) -> list[str]:
    """Which of the question's words the answering clause does not hold, when it answers on a
    loose reading of them (answer.loose_answer): said in a paragraph of its own under the answer's
    first line, so the reader can judge the reading."""
    if not clause.loose:
        return []
    words = ", ".join(f"'{w}'" for w in clause.loose)
    if language == "en":
        return ["", f"(This contract does not use the words {words}; read as {clause.label}.)"]
    return [
        "",
        f"(이 계약서에는 {words}{_topic_particle(clause.loose[-1])} 쓰지 않아, "
        f"가장 가까운 {clause.label}의 내용으로 읽었습니다.)",
    ]


def _topic_particle(word: str) -> str:
    """'이라는 말을' after a final consonant, '라는 말을' after a vowel."""
    last = word[-1:]
    final = "가" <= last <= "힣" and (ord(last) - 0xAC00) % 28 != 0
    return "이라는 말을" if final else "라는 말을"


RELATED_HEAD = {"ko": "관련 조항(답이 아님):", "en": "Related clauses (not an answer):"}


def _related_lines(evidence: Evidence, language: str) -> list[str]:
    """The nearest clauses when none answers, said to be related only (never quoted as the answer)."""
    if not evidence.related:
        return []
    return ["", RELATED_HEAD[language]] + [f"- {_name(c, language)}" for c in evidence.related]


def _standard_lines(evidence: Evidence, language: str) -> list[str]:
    if not evidence.standard:
        return []
    en = language == "en"
    title = evidence.standard_title or ("the standard contract" if en else "표준계약서")
    lines = ["", f"**{title}**" + (" — counterpart clauses:" if en else " 대응 조항:")]
    for s in evidence.standard:
        lines.append(f"- **{_name(s, language)}** — {_snippet(s.content)}")
    for c in evidence.clauses:
        match = counterpart(c, evidence.standard)
        if match is not None:
            ratio = similarity(c.content, match.content)
            lines.append(f"- {_name(c, language)} ↔ {title} {_name(match, language)}: "
                         f"{_verdict(ratio, language)} ({ratio:.0%})")  # fmt: skip
    return lines
