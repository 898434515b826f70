"""A general Korean contract-language thesaurus (thesaurus.json), one for every kind of contract.

Unlike the glossary (written for data contracts: a question's paraphrase → that contract's clause
wording), each concept here is a legal notion any contract may carry — compensation (배상 / 보상 /
손해), ending a contract (해지 / 해제 / 탈퇴), giving money back (반환 / 환급 / 환불) — with the
register words contracts use for it, everyday Korean wording of questions and English word starts.
Retrieval adds a concept token ("@refund") for each concept on both sides:

    >>> clause_concepts(["보증금", "반환"])
    ['@deposit', '@refund']
    >>> rewrite("돈은 언제 돌려받나요?").concept_ids
    ['refund', 'payment']

so a colloquial or English question meets a clause that shares none of its words. An English
question also gets the Korean register words of its English words (the file's 'bilingual' list,
written once for every kind of contract), so BM25 over morphemes and the dense retriever see Korean:

    >>> rewrite("Can the tenant sublet the house?").translated
    ['임차인', '주택', '전대', '양도']
"""

from __future__ import annotations

import json
import re
from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

THESAURUS_FILE = Path(__file__).with_name("thesaurus.json")
CONCEPT_PREFIX = "@"
REGISTER_WORDS = 2  # register words per matched concept appended to the dense retriever's query


@dataclass(frozen=True)
class LegalConcept:
    id: str
    terms: frozenset[str]
    register: tuple[str, ...]  # the terms in file order: the first ones are the most typical
    colloquial: tuple[str, ...]
    english: tuple[str, ...]

    @property
    def token(self) -> str:
        return CONCEPT_PREFIX + self.id


@dataclass
class Rewrite:
    """A question restated in contract register: its concepts and the words they stand for."""

    query: str
    concepts: list[LegalConcept] = field(default_factory=list)
    translated: list[str] = field(default_factory=list)  # Korean words for its English words

    @property
    def concept_ids(self) -> list[str]:
        return [c.id for c in self.concepts]

    @property
    def tokens(self) -> list[str]:
        return [c.token for c in self.concepts]

    @property
    def register_text(self) -> str:
        """The question followed by the register words of its concepts (for dense retrieval)."""
        words: list[str] = list(self.translated)
        for concept in self.concepts:
            words += [w for w in concept.register[:REGISTER_WORDS] if w not in words]
        return f"{self.query} {' '.join(words)}".strip()


@lru_cache(maxsize=1)
def concepts() -> tuple[LegalConcept, ...]:
    raw = json.loads(THESAURUS_FILE.read_text(encoding="utf-8"))
    return tuple(
        LegalConcept(
            c["id"],
            frozenset(c["terms"]),
            tuple(c["terms"]),
            tuple(c["colloquial"]),
            tuple(e.lower() for e in c["en"]),
        )  # fmt: skip
        for c in raw["concepts"]
    )


@lru_cache(maxsize=1)
def _by_term() -> dict[str, tuple[LegalConcept, ...]]:
    index: dict[str, list[LegalConcept]] = {}
    for concept in concepts():
        for term in concept.terms:
            index.setdefault(term, []).append(concept)
    return {term: tuple(found) for term, found in index.items()}


@dataclass(frozen=True)
class Translation:
    """Words of a question (English word starts, or everyday Korean) and the contract-register
    words they stand for. Matchers are built once, when the file is read."""

    words: tuple[str, ...]
    register: tuple[str, ...]
    pattern: re.Pattern[str] | None = None  # English: any of the word starts
    morphemes: frozenset[str] = frozenset()  # everyday one-morpheme words (matched as morphemes)


def _word_starts(stems: Sequence[str]) -> re.Pattern[str]:
    return re.compile(r"(?<![a-z])(?:" + "|".join(re.escape(s) for s in stems) + ")")


@lru_cache(maxsize=1)
def translations() -> tuple[Translation, ...]:
    raw = json.loads(THESAURUS_FILE.read_text(encoding="utf-8"))
    out = []
    for entry in raw.get("bilingual", []):
        stems = tuple(_words(e) for e in entry["en"])
        out.append(Translation(stems, tuple(entry["ko"]), pattern=_word_starts(stems)))
    return tuple(out)


def _words(text: str) -> str:
    """Lower-cased letters and digits with one space between words (a trailing space kept)."""
    return re.sub(r"[^a-z0-9]+", " ", text.lower())


def is_english(text: str) -> bool:
    """More Latin letters than Hangul syllables (a mixed 'Article 3의 deposit' counts by letters)."""
    return len(re.findall(r"[A-Za-z]", text)) > len(re.findall(r"[가-힣]", text))


def translate(query: str) -> list[str]:
    """Korean register words for the English words of `query`, in list order, each once."""
    if not re.search(r"[a-z]{2}", query.lower()):
        return []
    lowered = _words(query) + " "  # 'ban?' ends a word as 'ban '
    words: list[str] = []
    for entry in translations():
        if entry.pattern is not None and entry.pattern.search(lowered):
            words += [w for w in entry.register if w not in words]
    return words


# after a one-morpheme everyday word: an optional particle, then a space, a mark or the end
PARTICLE_AFTER = r"(?=(?:은|는|이|가|을|를|도|에|의|만|랑|이랑|와|과|로|으로)?(?:[\s?.!,]|$))"


@lru_cache(maxsize=1)
def everyday() -> tuple[Translation, ...]:
    """Everyday Korean words and the register words they stand for. A word that is one morpheme
    must be one of the question's morphemes ('재판' is not in '재판매'); a longer phrase ('방 빼',
    '나갈 때') is looked for in the text."""
    from agents.contract.tokenize import tokens

    raw = json.loads(THESAURUS_FILE.read_text(encoding="utf-8"))
    out = []
    for entry in raw.get("everyday", []):
        single = frozenset(w for w in entry["ko"] if tokens(w) == [w])
        phrases = tuple(w for w in entry["ko"] if w not in single)
        out.append(Translation(phrases, tuple(entry["register"]), None, single))
    return tuple(out)


PARTICLE_AFTER_RE = re.compile(PARTICLE_AFTER)


@lru_cache(maxsize=1)
def _single_words() -> tuple[frozenset[str], int]:
    """Every one-morpheme everyday word and the longest one's length."""
    words = frozenset(w for e in everyday() for w in e.morphemes)
    return words, max((len(w) for w in words), default=0)


@lru_cache(maxsize=4096)
def _alone(query: str) -> frozenset[str]:
    """The one-morpheme everyday words written as words of their own in `query`: not after a
    Hangul syllable, and followed by an optional particle, then a space, a mark or the end
    ('복비는' → 복비; not '재판' inside '재판매'). One scan for all entries: a compiled pattern per
    entry cost ~0.4 s at the first question after a restart."""
    words, longest = _single_words()
    found = set()
    for i in range(len(query)):
        if i and "가" <= query[i - 1] <= "힣":
            continue
        for j in range(i + 1, min(len(query), i + longest) + 1):
            if query[i:j] in words and PARTICLE_AFTER_RE.match(query, j):
                found.add(query[i:j])
    return frozenset(found)


def _used(entry: Translation, found: frozenset[str], query: str) -> list[str]:
    """The entry's everyday words the question uses: a one-morpheme word as a morpheme or as a
    word of its own (`_alone`: '복비는', which Kiwi splits into 복 + 비; not '재판' inside
    '재판매'), a phrase as written."""
    alone = _alone(query) if entry.morphemes else frozenset()
    return ([w for w in entry.morphemes if w in found or w in alone]
            + [w for w in entry.words if w in query])  # fmt: skip


def restate(query: str, morphemes: Iterable[str] = ()) -> list[str]:
    """Register words for the everyday words of a Korean question, in list order, each once."""
    return list(_restate(query, frozenset(morphemes)))


@lru_cache(maxsize=4096)
def _restate(query: str, found: frozenset[str]) -> tuple[str, ...]:
    words: list[str] = []
    for entry in everyday():
        if _used(entry, found, query):
            words += [w for w in entry.register if w not in words]
    return tuple(words)


@lru_cache(maxsize=1)
def meanings() -> tuple[Translation, ...]:
    """The file's meaning groups, each as an entry whose words stand for all of the group's
    ('물건' for 화물, 재화, 목적물 …; a one-morpheme word matched as a morpheme, a longer one as
    written)."""
    from agents.contract.tokenize import tokens

    raw = json.loads(THESAURUS_FILE.read_text(encoding="utf-8"))
    out = []
    for group in raw.get("meanings", []):
        single = frozenset(w for w in group if tokens(w) == [w])
        out.append(Translation(tuple(w for w in group if w not in single), tuple(group), None,
                               single))  # fmt: skip
    return tuple(out)


def kin(query: str, morphemes: Iterable[str] = ()) -> list[str]:
    """The other words of the meaning groups of the question's words, in file order:

    >>> kin("물건이 깨지면?", ["물건", "깨지"])[:3]
    ['물품', '상품', '제품']
    """
    return list(_kin(query, frozenset(morphemes)))


@lru_cache(maxsize=4096)
def _kin(query: str, found: frozenset[str]) -> tuple[str, ...]:
    """`kin`, cached: coverage asks it for each of a question's words against every clause."""
    words: list[str] = []
    for entry in meanings():
        used = _used(entry, found, query)
        if used:
            words += [w for w in entry.register if w not in words and w not in used]
    return tuple(words)


def stand_ins(query: str, morphemes: Iterable[str], vocabulary: Container[str]) -> list[str]:
    """Register words for the everyday words of a Korean question that the contract never uses
    ('복비' in a lease that says 중개보수, '세후' in deposit terms that say 원천징수): such a word
    matches nothing by itself, so its register words stand in for it (BM25 sees them as the
    question's words). An everyday word the contract does use ('도장' in deposit terms) keeps
    its synonyms out of BM25, where they weighed as much as the question's own words.

    A word of a meaning group the contract never uses ('물건' in freight terms) is stood in for
    by the group's words the contract says at least half as often as its most said one (화물,
    when `vocabulary` counts the contract's morphemes): a stray one (물품, said once, in 제7조)
    would outweigh the contract's own word in BM25, being rarer."""
    from agents.contract.tokenize import tokens

    def known(word: str) -> bool:
        # a verb stem alone may tokenize otherwise ('깨지' → 깨): the word itself counts too
        return word in vocabulary or all(t in vocabulary for t in tokens(word))

    found, words = frozenset(morphemes), []
    for entry in everyday():
        used = _used(entry, found, query)
        if used and not any(known(w) for w in used):
            words += [w for w in entry.register if w not in words]
    counts = vocabulary if isinstance(vocabulary, Mapping) else {}
    for held in kin_held(query, found, vocabulary):
        most = max(counts.get(w, 0) for w in held)
        words += [w for w in held if counts.get(w, 0) * 2 >= most and w not in words]
    return words


def kin_held(query: str, morphemes: Iterable[str], vocabulary: Container[str]) -> list[list[str]]:
    """For each meaning group of the question's words that `vocabulary` (a contract's or a
    clause's morphemes) never says in the question's own words, the group's words it says."""
    from agents.contract.tokenize import tokens

    def known(word: str) -> bool:
        return word in vocabulary or all(t in vocabulary for t in tokens(word))

    out = []
    found = frozenset(morphemes)
    for entry in meanings():
        used = _used(entry, found, query)
        held = [w for w in entry.register if w not in used and known(w)]
        if used and held and not any(known(w) for w in used):
            out.append(held)
    return out


def clause_concepts(tokens: Iterable[str]) -> list[str]:
    """Concept tokens for a clause's morphemes, one per occurrence (so BM25 sees their frequency)."""
    by_term = _by_term()
    return [c.token for t in tokens for c in by_term.get(t, ())]


@lru_cache(maxsize=1)
def _english_patterns() -> dict[str, re.Pattern[str]]:
    """Each concept's English word starts as one compiled pattern (a question tries them all)."""
    return {c.id: _word_starts(c.english) for c in concepts() if c.english}


def rewrite(query: str, query_tokens: Sequence[str] | None = None, *,
            bilingual: bool = True, restated: bool = True) -> Rewrite:  # fmt: skip
    """The concepts a question asks about: by its morphemes, its everyday wording or English
    (and the register words of its English words with `bilingual`, of its everyday Korean words
    with `restated`)."""
    from agents.contract.tokenize import tokens

    lowered = query.lower()
    translated = translate(query) if bilingual else []
    morphemes = set(tokens(query) if query_tokens is None else query_tokens)
    if restated:
        translated += [w for w in restate(query, morphemes) if w not in translated]
    patterns = _english_patterns()
    found = [
        c for c in concepts()
        if morphemes & c.terms or any(w in lowered for w in c.colloquial)
        or (c.id in patterns and patterns[c.id].search(lowered) is not None)
    ]  # fmt: skip
    return Rewrite(query, found, translated)
