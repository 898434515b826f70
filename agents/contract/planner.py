"""The offline planner: question → tool calls, by rules (DESIGN.md "The offline planner").

Recognizes 제N조 / N조 / Article N, 제N조의M / Article N-M, 별지N / Exhibit N, "… 조항" / "… clause" titles,
"표준계약서에는?" / "standard contract" questions and free-text topics (one per glossary concept).
It reads only the question and the contract's titles — never clause text — so nothing written
in a contract can steer which tools run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from agents.contract.glossary import concept_for_title, is_korean, matching_concepts
from agents.contract.models import article_key, article_ref
from agents.contract.references import article_refs, branch_refs, exhibit_refs
from agents.contract.registry import ToolCall
from agents.contract.types import label_of, standard_type

KO_TITLE_RE = re.compile(r"((?:[가-힣A-Za-z]+\s+)?[가-힣A-Za-z]+)\s*조항")
EN_TITLE_RE = re.compile(
    r"\b((?:[a-z-]+\s+){0,2}[a-z-]+)\s+(?:clause|provision)s?\b", re.IGNORECASE
)
STANDARD_RE = re.compile(r"표준\s*계약|표준에|일반적으로|통상|standard|typical|usual|normally",
                         re.IGNORECASE)  # fmt: skip
# "깎아 달라고", "different from the ad" are not comparisons: only explicit comparison wording
COMPARE_RE = re.compile(r"비교|차이|다른\s*점|compare|comparison|"
                        r"difference between|differ from each|versus|\bvs\b", re.IGNORECASE)  # fmt: skip
# '다른', '달라' compare only when the question names two clauses or more ('제5조와 제7조는 어떻게
# 달라?'); otherwise they describe a thing ('광고와 다른 제품이면 반품돼요?')
DIFFERS_RE = re.compile(r"다른|달라|다르")
PARTICLE_END = ("와", "과", "및", "의", "은", "는", "을", "를", "이", "가", "랑", "하고", "에서")
EN_STOP = {"the", "a", "an", "this", "that", "of", "on", "about", "which", "what", "is", "are",
           "and", "with", "show", "me", "find"}  # fmt: skip
MAX_CONCEPT_TOPICS = 3
# words that ask about the joined things together, not each apart
JOINT_RE = re.compile(r"둘\s*다|모두|함께|같이|동시에|달라|다르|both|together", re.IGNORECASE)
MAX_TOPICS = 4  # joined topics searched apart ('A와 B와 C는?')
CONJUNCTIONS = ("및", "그리고")
# a noun phrase's morphemes ('내 폰 기종', 'OS 정보'): what a joined piece without a predicate is
NOUN_PHRASE_TAG_RE = re.compile(r"^(?:NN|NR|NP|SL|SN|SH|XSN|XPN|MM)")


@dataclass
class PlanContext:
    """What the planner may know about the contract: its type and its article titles."""

    contract_type: str | None = None
    titles: dict[int, str] = field(default_factory=dict)  # by article key (models.article_key)
    parts: dict[int, str] = field(default_factory=dict)  # annexed part → its title


@dataclass
class Plan:
    calls: list[ToolCall]
    intent: str  # lookup | compare | standard | search
    language: str  # ko | en
    notes: list[str] = field(default_factory=list)  # said under the answer (e.g. no standard)


def no_standard_note(contract_type: str | None, language: str) -> str:
    if language == "en":
        return ("No standard contract of this contract's type is bundled, so it is not compared; "
                "bundled standards: data provision, data creation.")  # fmt: skip
    return (
        f"이 계약서 유형({label_of(contract_type)})에 맞는 표준계약서는 번들되어 있지 않아 "
        "비교하지 않습니다. 번들된 표준계약서: 데이터 제공형, 데이터 창출형."
    )


def title_refs(question: str) -> list[str]:
    out: list[str] = []
    for m in KO_TITLE_RE.finditer(question):
        words = [w for w in m.group(1).split() if not w.endswith(PARTICLE_END) and w[:1] != "조"]
        if words:
            out.append(" ".join(words))
    for m in EN_TITLE_RE.finditer(question):
        words = [w for w in m.group(1).lower().split() if w not in EN_STOP]
        concept = concept_for_title(" ".join(words)) if words else None
        if concept is not None and concept.title not in out:
            out.append(concept.title)
    return out


def split_topics(question: str) -> list[str]:
    """The topics a question joins ('데이터 제공 범위와 손해배상 조건은?' → ['데이터 제공 범위',
    '손해배상 조건은?']): pieces between a conjunction particle (와/과/이랑, Kiwi's JC), 및 or
    그리고 (English: 'and'), when every piece has a topic of its own (coverage.topic_units:
    '갑과 을의 의무' is one topic) and the question does not ask about them together ('둘 다',
    '함께', '달라요': JOINT_RE); else [question]."""
    from agents.contract.coverage import topic_units

    text = question.strip()
    if JOINT_RE.search(text):  # '도장이랑 서명을 둘 다 …', '사진이랑 색이 달라요': one question
        return [text]
    if not is_korean(text):
        pieces = re.split(r"\s+and\s+|\s*,\s*", text)
    else:
        from agents.understanding.morphemes import analyse

        cuts = [(m.start, m.end) for m in analyse(text)
                if m.tag == "JC" or m.form in CONJUNCTIONS]  # fmt: skip
        starts = [0] + [end for _, end in cuts]
        ends = [start for start, _ in cuts] + [len(text)]
        pieces = [text[a:b] for a, b in zip(starts, ends, strict=True)]
    pieces = [p.strip(" ,") for p in pieces if p.strip(" ,?")]
    if len(pieces) < 2 or len(pieces) > MAX_TOPICS or not all(topic_units(p) for p in pieces):
        return [text]
    return pieces


def topic_name(piece: str) -> str:
    """A topic as the answer names it: the piece without its trailing particle or ending
    ('손해배상 조건은?' → '손해배상 조건')."""
    if not is_korean(piece):
        return piece.rstrip("?").strip()
    from agents.understanding.morphemes import analyse

    content = [m for m in analyse(piece) if not m.tag.startswith(("J", "S", "E", "VCP"))]
    return piece[: content[-1].end].strip() if content else piece.rstrip("?").strip()


def shared_predicate(pieces: list[str]) -> str:
    """What the last joined piece says after its first noun phrase ('부가세는 누가 내요?' →
    '는 누가 내요?'): the predicate the joined nouns share ('관세랑 부가세는 누가 내요?' asks
    who pays each). '' for English or a last piece without one ('손해배상 조건은?')."""
    last = pieces[-1]
    if not is_korean(last):
        return ""
    from agents.understanding.morphemes import analyse

    morphemes = analyse(last)
    head = next((i for i, m in enumerate(morphemes) if not NOUN_PHRASE_TAG_RE.match(m.tag)), None)
    if not head or not any(m.content for m in morphemes[head:]):
        return ""  # '손해배상 조건은?': a particle is no predicate
    return last[morphemes[head].start :]


def _asks_alone(piece: str) -> bool:
    """A joined piece with a predicate of its own ('데이터 제공 범위와 …' has none; '계약을
    해지하면 위약금은 얼마고 …' has one): it does not borrow the last piece's."""
    from agents.understanding.morphemes import analyse

    morphemes = analyse(piece)
    return not morphemes or not NOUN_PHRASE_TAG_RE.match(morphemes[-1].tag)


def search_topics(question: str) -> list[dict[str, object]]:
    """Topics for hybrid_search: one per joined topic ('A와 B는?'), each searched on its own,
    else one per glossary concept of the question (all searched with the question). A joined
    noun phrase is searched with the predicate the pieces share ('통장 없이 카드나 전화로만
    거래해도 되나요?' searches '통장 없이 카드로만 거래해도 되나요?' too): alone, '카드' found
    the clause on lost cards."""
    pieces = split_topics(question)
    if len(pieces) > 1:
        out: list[dict[str, object]] = []
        tail = shared_predicate(pieces)
        for piece in pieces:
            concepts = matching_concepts(piece)[:1]
            asked = piece if not tail or _asks_alone(piece) else piece + tail
            queries = [asked] + [" ".join((c.title, *c.terms)) for c in concepts]
            out.append({"topic_name": topic_name(piece)[:40], "queries": queries})
        return out
    concepts = matching_concepts(question)[:MAX_CONCEPT_TOPICS]
    if not concepts:
        return [{"topic_name": question.strip()[:40], "queries": [question.strip()]}]
    return [{"topic_name": c.title, "queries": [question.strip(), " ".join((c.title, *c.terms))]}
            for c in concepts]  # fmt: skip


def named_part(question: str, parts: dict[int, str]) -> int:
    """The annexed part a question names ('비밀유지계약서 제5조', '별첨 2의 제1조'), else 0."""
    squashed = re.sub(r"\s+", "", question)
    for part, title in parts.items():
        words = [w for w in re.split(r"\s+", title) if len(w) > 2 and not w.isdigit()]
        numbered = re.search(r"별첨\s*(\d+)", title)
        if any(w in squashed for w in words) or (
            numbered and re.search(rf"별첨\s*{numbered.group(1)}(?!\d)", question)):  # fmt: skip
            return part
    return 0


def plan(question: str, context: PlanContext) -> Plan:
    language = "ko" if is_korean(question) else "en"
    articles, exhibits, titles = (
        article_refs(question),
        exhibit_refs(question),
        title_refs(question),
    )
    branches = branch_refs(question)
    calls: list[ToolCall] = []
    if articles or exhibits or branches:
        arguments: dict[str, object] = {"article_numbers": articles, "exhibit_numbers": exhibits}
        if branches:
            arguments["article_refs"] = [article_ref(n, m) for n, m in branches]
        part = named_part(question, context.parts)
        if part:
            arguments["part"] = part
        calls.append(ToolCall("article_index", arguments))
    if titles:
        calls.append(ToolCall("article_title", {"title_queries": titles}))
    wants_standard = bool(STANDARD_RE.search(question))
    standard = standard_type(context.contract_type or "provide")
    if not calls:
        calls.append(ToolCall("hybrid_search", {"topics": search_topics(question)}))
    if wants_standard and standard:
        keys = articles + [article_key(n, m) for n, m in branches]
        named = [context.titles[k] for k in keys if k in context.titles] + titles
        queries = named or [str(q) for t in search_topics(question) for q in t["queries"]][:2]  # type: ignore[attr-defined]
        calls.append(ToolCall("standard_contract", {"contract_type": standard,
                                                    "queries": queries}))  # fmt: skip
    notes = (
        [no_standard_note(context.contract_type, language)]
        if wants_standard and not standard
        else []
    )
    named_clauses = len(articles) + len(exhibits) + len(branches) + len(titles)
    compare = bool(COMPARE_RE.search(question)) or (
        named_clauses >= 2 and bool(DIFFERS_RE.search(question)))  # fmt: skip
    intent = "standard" if wants_standard else "compare" if compare else (
        "lookup" if articles or exhibits or branches or titles else "search")  # fmt: skip
    return Plan([ToolCall(c.name, c.arguments, f"call_{i}") for i, c in enumerate(calls, 1)],
                intent, language, notes)  # fmt: skip
