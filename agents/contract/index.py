"""Per-contract hybrid index: BM25 over kiwipiepy morphemes + dense vectors in pgvector, fused
by their scores; results are whole articles.

Hybrid adds up each retriever's score scaled to 0-1 on the question (a convex combination, not
Reciprocal Rank Fusion): BM25 over the whole article and BM25 over its best 항 (the paragraph that
matches best decides half of the lexical score, so one operative 항 in a long article counts),
each divided by the question's best score and weighted ½; dense cosine min-max scaled over the
contract's articles, weight 1; an article or exhibit named in the question (제N조 / 별지N /
Article N), weight 2. Unlike RRF, a retriever that is sure (its best article far ahead of the
next) keeps that lead in the sum, and a retriever that barely separates its candidates moves
little. Measured on the tuning halves only (bench/contract_search.py prints the earlier RRF
beside it): R@1 0.833 → 0.885 on the real tuning contracts and 0.905 → 0.929 on the samples'
tuning half, glossary off. A title ranking (articles whose title is what the question names)
lost R@1 there as an RRF member and as an added score, so titles weigh inside BM25 (twice); only
a title the question names whole (`titles_named`: as written, '재하도급' that Kiwi reads as 하도급
alone, or every morpheme of it) adds 0.5. A compound the contract never writes ('근무지', one
Kiwi morpheme) is searched by its longest start the contract does use (`known_prefixes`: 근무).
Both left R@1 of the real tune / held-out / fresh sets unchanged (0.892 / 0.741 / 0.917) and
answer 근무지, 납품 기한 and 재하도급 questions of the answer set (bench/contract_answers.py).

Two more scores (issue 32, from the held-out misses' top-5): `coverage` (weight 0.5) counts each
of the question's distinct words once, by its rarity in the contract, where BM25 let a long
article that repeats the question's common words beat the one holding its rare word; the purpose
and definitions articles weigh -0.3 unless the question asks what something is or means (they
hold the contract's vocabulary: '핵 프로그램 쓰면 어떤 제재를' ranked 제2조(용어의 정의) first).
Korean R@1 (bench/contract_search.py, hybrid, glossary off) tune 0.900 → 0.900, held-out 0.739 →
0.761 (R@5 0.935 → 0.957), fresh 0.917 → 0.917, fresh-2 0.868 → 0.895; a lower dense weight
(0.75) gained one question each on tune and fresh-2 but lost two answers of the answer set
(재하도급, 원재료 연동), so dense keeps weight 1.

Two query-side aids, each switchable so the benchmark measures it: the bilingual glossary (written
for data contracts) and the general legal thesaurus (thesaurus.py, one for every contract kind),
whose concept tokens are added to clauses and questions alike. The index is cached per (contract,
content hash, embedder) and rebuilt only when the contract changes.
"""

from __future__ import annotations

import math
import re
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

import numpy as np
from psycopg_pool import ConnectionPool
from rank_bm25 import BM25Okapi

from agents.contract import store
from agents.contract.coverage import title_share, title_weights
from agents.contract.embeddings import Embedder, make_embedder
from agents.contract.glossary import Expansion, applies_to, expand
from agents.contract.models import Article
from agents.contract.parties import PARTY_WORDS, line_subjects
from agents.contract.references import article_keys
from agents.contract.thesaurus import Rewrite, clause_concepts, is_english, rewrite, stand_ins
from agents.contract.tokenize import tokens
from data_access.config import Settings, get_settings

SearchMode = Literal["hybrid", "bm25", "dense"]
_T = TypeVar("_T")
Fusion = Literal["score", "rrf"]
RRF_K = 60
CANDIDATES = 20
# Score fusion: each retriever's 0-1 scaled score times its weight, summed. The two BM25s share
# the lexical weight; a named article outweighs both text retrievers agreeing on another one.
NOTES_WEIGHT = -0.15  # lease held-out R@1 0.789 -> 0.842, fresh-2 0.917 -> 0.833, tune unchanged
FUSION_WEIGHTS = {
    "bm25": 0.5,
    "clause": 0.5,
    "dense": 1.0,
    "reference": 2.0,
    "title": 0.5,
    "coverage": 0.5,
    "definitions": -0.3,
    "notes": NOTES_WEIGHT,
}
TITLE_WEIGHT = 2  # title morphemes count twice: a clause's title says what it is about
# Titles that name no topic (a purpose or definitions clause): never 'named' by a question
UNNAMED_TITLES = frozenset({"목적", "정의", "용어의정의", "기타", "기타사항", "전문"})
# A purpose or definitions article holds the contract's vocabulary and matches many questions by
# their words; it answers only a question that asks what something is or means
DEFINITION_TITLES = frozenset({"목적", "정의", "용어의정의"})
DEFINITION_CUE_RE = re.compile(r"뜻|정의|의미|뭐|뭔|무엇|무슨|이란|목적|누구를\s*말|누굴\s*말|가리키|"
                               r"mean|defin|what is|purpose",
                               re.IGNORECASE)  # fmt: skip
SQUASH_RE = re.compile(r"[\s·ㆍ,.()\[\]「」『』\"'“”‘’]+")
MIN_PREFIX = 2  # syllables a compound's known start must have ('근무' of '근무지')


@dataclass
class Hit:
    """One article found for a query, with where it ranked in each retriever."""

    article: Article
    score: float
    ranks: dict[str, int] = field(default_factory=dict)
    matched_terms: list[str] = field(default_factory=list)
    # the question's words the clause does not hold, when it answers on a loose reading of them
    # (answer.loose_answer: '내보내다' answered by 제13조(해고의 예고))
    loose: list[str] = field(default_factory=list)

    @property
    def retrievers(self) -> list[str]:
        return sorted(self.ranks)

    def to_dict(self) -> dict[str, object]:
        return article_dict(self.article, score=round(self.score, 6), retrievers=self.retrievers,
                            ranks=dict(self.ranks), matched_terms=self.matched_terms)  # fmt: skip


def article_dict(article: Article, **extra: Any) -> dict[str, Any]:
    """An article as the tools return it (and the search lists it), with `extra` fields."""
    return {"article_no": article.article_no, "branch": article.branch, "key": article.key,
            "branch_label": article.branch_label, "numbering": article.numbering,
            "part": article.part,
            "part_title": article.part_title, "title": article.title, "label": article.label,
            "content": article.content, **extra}  # fmt: skip


@dataclass
class Query:
    """A question prepared for the retrievers: glossary expansion and thesaurus concepts."""

    text: str
    expansion: Expansion
    concepts: Rewrite | None = None

    @property
    def expanded(self) -> str:
        return self.expansion.text

    @property
    def morphemes(self) -> list[str]:
        """The question's morphemes and the glossary's added words' (analyzed apart: the added
        words repeat across questions and come from the cache, so a question costs one analysis)."""
        added = " ".join(self.expansion.added_terms)
        return tokens(self.text) + (tokens(added) if added else [])

    @property
    def translated(self) -> list[str]:
        """Korean register words of an English question's words (thesaurus 'bilingual' list) and
        of a Korean question's everyday words (its 'everyday' list)."""
        return self.concepts.translated if self.concepts else []

    @property
    def english(self) -> bool:
        """More Latin letters than Hangul: the question's own words match nothing in a Korean
        contract, so its translated words stand in for them (BM25 and the dense query)."""
        return is_english(self.text)

    @property
    def highlight_terms(self) -> set[str]:
        """Words a clause shares with the question: its morphemes, its concepts' register words
        and the translated words' morphemes (so an English answer bolds the Korean it matched)."""
        translated = tokens(" ".join(self.translated)) if self.translated else []
        return set(self.morphemes) | self.concept_terms | set(translated)

    @property
    def bm25_tokens(self) -> list[str]:
        """Morphemes and concept tokens; an English question's translated words' morphemes too
        (a Korean question's everyday words stay out: their synonyms weighed as much as the
        question's own words and lost the tuning set more than they found). Tune English R@1
        (glossary off) 0.762 -> 0.810 with them."""
        words = self.morphemes + (self.concepts.tokens if self.concepts else [])
        if self.english and self.translated:
            words += tokens(" ".join(self.translated))
        return words

    @property
    def dense_text(self) -> str:
        """The question with its concepts' register words; for an English question the Korean
        words alone when it has any (the Latin letters' n-grams match nothing in a Korean article
        and only dilute the query vector)."""
        if self.concepts is None:
            return self.expanded
        text = self.expanded
        if self.english and (self.translated or self.concepts.concepts):
            text = " ".join(self.expansion.added_terms)
        return Rewrite(text, self.concepts.concepts, self.translated).register_text

    @property
    def concept_terms(self) -> set[str]:
        """Register words of the question's concepts (a clause's matched words include them)."""
        return {t for c in (self.concepts.concepts if self.concepts else []) for t in c.terms}


def prepare(text: str, *, use_glossary: bool = True, use_thesaurus: bool = True,
            use_bilingual: bool = True, use_everyday: bool = True) -> Query:  # fmt: skip
    """`use_bilingual` (English words → Korean register words) and `use_everyday` (everyday
    Korean words → register words) are parts of the thesaurus."""
    expansion = expand(text) if use_glossary else Expansion(text)
    concepts = (rewrite(text, bilingual=use_bilingual, restated=use_everyday)
                if use_thesaurus else None)  # fmt: skip
    return Query(text, expansion, concepts)


def with_concepts(article_tokens: list[str]) -> list[str]:
    return article_tokens + clause_concepts(article_tokens)


def article_text(article: Article) -> str:
    return f"{article.label}\n{article.body}"


def line_tokens(article: Article) -> list[list[str]]:
    """Each clause line's morphemes (stored with the article, so an index built after a restart
    analyses nothing but the question)."""
    return [tokens(c.text) for c in article.clauses]


def article_tokens(article: Article, lines: Sequence[list[str]] | None = None) -> list[str]:
    """The title's morphemes (twice) and every line's."""
    lines = line_tokens(article) if lines is None else lines
    return tokens(article.title) * TITLE_WEIGHT + [t for line in lines for t in line]


def embedding_signature(embedder: Embedder, content_hash: str, dimension: int) -> str:
    """Names the vectors: model, dimension and contract version (stale ones are recomputed)."""
    return f"{embedder.name}/{dimension}:{content_hash[:16]}"


def fit_vectors(embedder: Embedder, articles: Sequence[Article]) -> np.ndarray:
    texts = [article_text(a) for a in articles]
    embedder.fit(texts)
    return embedder.embed(texts)


def title_ranking(query: Query, articles: dict[int, Article]) -> list[int]:
    """Articles whose title names what the question asks about, best first.

    Each glossary concept the question matched counts 1 for an article whose title contains the
    concept's clause name (or is contained in it); each of the question's own morphemes found in
    the title adds its share of the title's morphemes. Thesaurus concepts stay out of it: on the
    tuning contracts they made titles match too loosely (a '사용' title for every use question).
    """
    concept_titles = [c.title for c in query.expansion.concepts]
    query_terms = set(tokens(query.text))
    scores: dict[int, float] = {}
    for no, article in articles.items():
        if not article.title:
            continue
        score = float(sum(1 for t in concept_titles if t in article.title or article.title in t))
        title_terms = set(tokens(article.title))
        if title_terms:
            score += len(query_terms & title_terms) / len(title_terms)
        if score > 0:
            scores[no] = score
    return sorted(scores, key=lambda no: (-scores[no], no))


def squash(text: str) -> str:
    return SQUASH_RE.sub("", text)


def titles_named(question: str, articles: dict[int, Article],
                 title_tokens: dict[int, list[str]] | None = None) -> dict[int, float]:  # fmt: skip
    """Articles whose whole title the question names: the title as written ('재하도급' in
    '재하도급하려면', which Kiwi reads as 하도급 alone) or every morpheme of it ('계약의 해지'
    in '계약 해지 통보는'). A purpose, definitions or catch-all title names no topic.
    `title_tokens`: each title's morphemes as stored (else analysed now)."""
    asked, morphemes = squash(question), set(tokens(question))
    named: dict[int, float] = {}
    for key, article in articles.items():
        title = squash(article.title)
        if len(title) < 2 or title in UNNAMED_TITLES:
            continue
        stored = title_tokens.get(key) if title_tokens is not None else None
        words = set(tokens(article.title) if stored is None else stored)
        if title in asked or (words and words <= morphemes):
            named[key] = 1.0
    return named


def definitions(question: str, articles: dict[int, Article]) -> dict[int, float]:
    """The purpose and definitions articles, unless the question asks what something is or
    means (their weight is negative: they match many questions by the contract's vocabulary)."""
    if DEFINITION_CUE_RE.search(question):
        return {}
    return {key: 1.0 for key, a in articles.items() if squash(a.title) in DEFINITION_TITLES}


NOTES_TITLE_RE = re.compile(r"확인|유의|안내|참고|중요사항|설명|주의")
EXHIBIT_NAMED_RE = re.compile(r"별지|별첨|부록|exhibit|annex|appendix", re.IGNORECASE)


def notes(question: str, articles: dict[int, Article]) -> dict[int, float]:
    """Exhibits of notes for the reader ('별지1 법의 보호를 받기 위한 중요사항! 반드시
    확인하세요'), unless the question names an exhibit: they restate the law around the
    contract in everyday words, so they meet many questions an article answers (their weight is
    negative, a nudge: an article about as close comes first)."""
    if EXHIBIT_NAMED_RE.search(question):
        return {}
    return {key: 1.0 for key, a in articles.items()
            if a.article_no < 0 and NOTES_TITLE_RE.search(a.title)}  # fmt: skip


def known_prefixes(morphemes: Sequence[str], vocabulary: frozenset[str]) -> list[str]:
    """For each compound the contract never uses ('근무지', one Kiwi morpheme), its longest start
    of at least two syllables that the contract does use ('근무' of 근무장소): a compound Kiwi
    keeps whole otherwise matches nothing."""
    found = []
    for word in morphemes:
        if len(word) <= MIN_PREFIX or word in vocabulary or not word.isalpha():
            continue
        prefix = next((word[:k] for k in range(len(word) - 1, MIN_PREFIX - 1, -1)
                       if word[:k] in vocabulary), None)  # fmt: skip
        if prefix:
            found.append(prefix)
    return found


def reference_ranking(query: str, articles: dict[int, Article]) -> list[int]:
    """Articles and exhibits (negative keys) named in the question, in the order named."""
    return [key for key in article_keys(query) if key in articles]


def rrf(rankings: dict[str, list[int]], k: int = RRF_K) -> list[tuple[int, float, dict[str, int]]]:
    """Reciprocal Rank Fusion of several rankings of article numbers, best first."""
    scores: dict[int, float] = {}
    ranks: dict[int, dict[str, int]] = {}
    for retriever, ranking in rankings.items():
        for rank, article_no in enumerate(ranking, start=1):
            scores[article_no] = scores.get(article_no, 0.0) + 1.0 / (k + rank)
            ranks.setdefault(article_no, {})[retriever] = rank
    order = sorted(scores, key=lambda no: (-scores[no], no))
    return [(no, scores[no], ranks[no]) for no in order]


def _grouped(article: Article, per_line: Sequence[_T]) -> list[list[_T]]:
    """`per_line` (one item per clause line) grouped by 항: a 항 starts a group."""
    units: list[list[_T]] = []
    for clause, item in zip(article.clauses, per_line, strict=True):
        if clause.kind == "항" or not units:
            units.append([])
        units[-1].append(item)
    return units


def scaled(scores: dict[int, float], floor: float | None = None) -> dict[int, float]:
    """Scores mapped to 0-1 on this question: (s - floor) / (best - floor); `floor` defaults to
    the lowest score (min-max), BM25 passes 0 (an article matching nothing scores 0)."""
    if not scores:
        return {}
    best = max(scores.values())
    low = min(scores.values()) if floor is None else floor
    if best <= low:
        return {key: 1.0 for key in scores}
    return {key: (value - low) / (best - low) for key, value in scores.items()}


def ranking(scores: dict[int, float]) -> list[int]:
    return sorted(scores, key=lambda key: (-scores[key], key))


def fuse(scores: dict[str, dict[int, float]],
         weights: dict[str, float] | None = None) -> list[tuple[int, float, dict[str, int]]]:  # fmt: skip
    """Weighted sum of already scaled scores, best first, with each retriever's rank of each."""
    weights = FUSION_WEIGHTS if weights is None else weights
    total: dict[int, float] = {}
    ranks: dict[int, dict[str, int]] = {}
    for retriever, found in scores.items():
        for rank, key in enumerate(ranking(found), start=1):
            weight = weights.get(retriever, 1.0)
            total[key] = total.get(key, 0.0) + weight * found[key]
            if weight > 0:  # a penalty (the definitions articles) found nothing
                ranks.setdefault(key, {})[retriever] = rank
            else:
                ranks.setdefault(key, {})
    return [(key, total[key], ranks[key]) for key in ranking(total)]


class Lexical:
    """BM25 over token lists that belong to articles (several 항 of one article: its best counts),
    with and without the thesaurus's concept tokens."""

    def __init__(self, keys: list[int], token_lists: list[list[str]]) -> None:
        self.keys = keys
        self._plain = BM25Okapi([t or ["_"] for t in token_lists])
        self._concepts = BM25Okapi([with_concepts(t) or ["_"] for t in token_lists])

    def coverage(self, query_tokens: list[str], *, concepts: bool) -> dict[int, float]:
        """How much of what the question asks each article holds, 0-1: each of the question's
        distinct words (morphemes and concept tokens) the contract uses counts once, by its
        rarity log(N / df) over the contract's articles relative to a word only one article
        holds (log N). BM25 counts repeats, so a long article that says common words of the
        question many times ('통보', '배상') outscored the one that holds its rare word
        ('미달'); words most articles hold ('하도급' in a subcontract) add almost nothing."""
        docs = (self._concepts if concepts else self._plain).doc_freqs
        holders = {t: [i for i, d in enumerate(docs) if t in d] for t in set(query_tokens)}
        weights = {t: math.log(len(docs) / len(found)) for t, found in holders.items() if found}
        total = len(weights) * math.log(len(docs)) if len(docs) > 1 else 0.0
        if total <= 0:
            return {}
        out: dict[int, float] = {}
        for term, weight in weights.items():
            for i in holders[term]:
                key = self.keys[i]
                out[key] = out.get(key, 0.0) + weight / total
        return out

    def scores(self, query_tokens: list[str], *, concepts: bool) -> dict[int, float]:
        """Each matching article's best BM25 score (> 0 only)."""
        if not query_tokens:
            return {}
        raw = (self._concepts if concepts else self._plain).get_scores(query_tokens)
        best: dict[int, float] = {}
        for key, value in zip(self.keys, raw.tolist(), strict=True):
            if value > best.get(key, 0.0):
                best[key] = value
        return best


def clause_token_lists(articles: Sequence[Article],
                       lines: Sequence[Sequence[list[str]]] | None = None,
                       titles: Sequence[list[str]] | None = None,
                       ) -> tuple[list[int], list[list[str]]]:  # fmt: skip
    """Keys and tokens of every 항 unit, each with its article's title (weighted as in articles);
    `lines` / `titles`: each article's stored line / title tokens (else analysed now)."""
    keys: list[int] = []
    lists: list[list[str]] = []
    for i, article in enumerate(articles):
        title = (tokens(article.title) if titles is None else titles[i]) * TITLE_WEIGHT
        per_line = line_tokens(article) if lines is None else lines[i]
        for unit in _grouped(article, per_line) or [[]]:
            keys.append(article.key)
            lists.append(title + [t for line in unit for t in line])
    return keys, lists


def _tokenized(
    contract_id: str, stored: list[store.StoredArticle], pool: ConnectionPool | None
) -> list[store.StoredArticle]:
    """The articles with their morphemes: analysed now (and stored) for a contract ingested
    without them (the CLI stores an upload without loading Kiwi) or before line tokens were kept."""
    missing = [s for s in stored if s.line_tokens is None or (not s.tokens and s.article.clauses)]
    if not missing:
        return stored
    for s in missing:
        s.line_tokens = line_tokens(s.article)
        s.tokens = article_tokens(s.article, s.line_tokens)
    store.update_tokens(contract_id, missing, pool)
    return stored


def stored_title_tokens(stored: store.StoredArticle) -> list[str]:
    """The title's morphemes, read back from the stored article tokens (the title's, TITLE_WEIGHT
    times, then every line's): the first question after a restart analyses no title."""
    lines = sum(len(line) for line in stored.line_tokens or [])
    title_part = len(stored.tokens) - lines
    if title_part < 0 or title_part % TITLE_WEIGHT:
        return tokens(stored.article.title)
    return stored.tokens[: title_part // TITLE_WEIGHT]


class ContractIndex:
    """BM25 (articles and their 항) + dense retrieval over one contract's articles."""

    def __init__(self, contract_id: str, content_hash: str, stored: list[store.StoredArticle],
                 embedder: Embedder, pool: ConnectionPool | None,
                 contract_type: str | None = None) -> None:  # fmt: skip
        self.contract_id = contract_id
        self.contract_type = contract_type  # the glossary applies to its own types only
        self.pool = pool
        self.articles = {s.article.key: s.article for s in stored}  # models.article_key
        self._numbers = [s.article.key for s in stored]
        stored = _tokenized(contract_id, stored, pool)
        # each article's and title's morphemes as stored: a question analyses nothing else
        self._tokens = {s.article.key: s.tokens for s in stored}
        self._titles = {s.article.key: stored_title_tokens(s) for s in stored}
        self._articles = Lexical(self._numbers, [s.tokens for s in stored])
        self._clauses = Lexical(*clause_token_lists(
            [s.article for s in stored], [s.line_tokens or [] for s in stored],
            [self._titles[s.article.key] for s in stored]))  # fmt: skip
        self.vocabulary = frozenset(t for s in stored for t in s.tokens)
        # how often the contract says each morpheme: a meaning group stands in by its most said word
        self.frequency = Counter(t for s in stored for t in s.tokens)
        # the parties the contract's lines are about ('도급인은 …'): a party word it never uses so
        # ('회사' in '회사 정리 신청') matches a question's '회사가' by accident
        self.parties = frozenset(p for s in stored for line in s.article.body.splitlines()
                                 for p in line_subjects(line))  # fmt: skip
        self.embedder = embedder
        vectors = fit_vectors(embedder, [s.article for s in stored])
        self.signature = embedding_signature(embedder, content_hash, vectors.shape[1])
        if any(s.embedding_model != self.signature for s in stored):
            store.update_vectors(contract_id, self._numbers, vectors, self.signature, pool)

    def bm25(self, query_tokens: list[str], k: int = CANDIDATES, *,
             concepts: bool = False) -> list[tuple[int, float]]:  # fmt: skip
        """Articles by BM25 over morphemes (and thesaurus concept tokens when `concepts`)."""
        scores = self._articles.scores(query_tokens, concepts=concepts)
        return [(key, scores[key]) for key in ranking(scores)[:k]]

    def dense(self, query: str, k: int = CANDIDATES) -> list[tuple[int, float]]:
        vector = self.embedder.embed([query])[0]
        if not np.any(vector):
            return []
        return store.dense_search(self.contract_id, vector, self.signature, k, self.pool)

    def scores(self, query: Query, mode: SearchMode = "hybrid") -> dict[str, dict[int, float]]:
        """Each retriever's scores for a prepared question, scaled to 0-1 (see `fuse`)."""
        concepts = query.concepts is not None
        words = query.bm25_tokens + known_prefixes(query.morphemes, self.vocabulary)
        # a party word the contract never names a party by: the question's everyday name for the
        # other side ('회사가' of a contract between 도급인 and 수급인), not a topic
        words = [w for w in words if w not in PARTY_WORDS or w in self.parties]
        if query.concepts is not None and not query.english:  # everyday words the contract lacks
            words += tokens(" ".join(stand_ins(query.text, query.morphemes, self.frequency)))
        out: dict[str, dict[int, float]] = {}
        if mode in ("hybrid", "bm25"):
            out["bm25"] = scaled(self._articles.scores(words, concepts=concepts), 0.0)
        if mode == "hybrid":
            out["clause"] = scaled(self._clauses.scores(words, concepts=concepts), 0.0)
        if mode in ("hybrid", "dense"):
            out["dense"] = scaled(dict(self.dense(query.dense_text, k=len(self.articles))))
        if mode == "hybrid":
            out["reference"] = dict.fromkeys(reference_ranking(query.text, self.articles), 1.0)
            out["title"] = self._title_scores(query.text)
            out["coverage"] = self._articles.coverage(words, concepts=concepts)  # 0-1 as it is
            out["definitions"] = definitions(query.text, self.articles)
            out["notes"] = notes(query.text, self.articles)
        return out

    def _title_scores(self, question: str) -> dict[int, float]:
        """Each article whose title the question names, by the share of the question's topic
        that title names (coverage.title_share): a title named by a side word decides little."""
        named = titles_named(question, self.articles, self._titles)
        if not named:
            return {}
        weights = title_weights(question, list(self.articles.values()))
        return {key: title_share(question, self._titles[key], weights) for key in named}

    def rankings(self, query: Query, mode: SearchMode = "hybrid",
                 fusion: Fusion = "score") -> dict[str, list[int]]:  # fmt: skip
        """Each retriever's ranking of article numbers for a prepared question; `fusion="rrf"`
        gives the rankings the earlier RRF hybrid fused (with the title ranking, dense top 20)."""
        if fusion == "score":
            return {name: ranking(found) for name, found in self.scores(query, mode).items()}
        rankings: dict[str, list[int]] = {}
        if mode in ("hybrid", "bm25"):
            rankings["bm25"] = [no for no, _ in self.bm25(query.bm25_tokens,
                                                          concepts=query.concepts is not None)]  # fmt: skip
        if mode in ("hybrid", "dense"):
            rankings["dense"] = [no for no, _ in self.dense(query.dense_text)]
        if mode == "hybrid":
            rankings["title"] = title_ranking(query, self.articles)
            rankings["reference"] = reference_ranking(query.text, self.articles)
        return rankings

    def search(self, query: str, *, mode: SearchMode = "hybrid", top: int = 5,
               use_glossary: bool = True, use_thesaurus: bool = True,
               use_bilingual: bool = True, use_everyday: bool = True,
               fusion: Fusion = "score") -> list[Hit]:  # fmt: skip
        """Articles for `query`, best first. The glossary expands the question only when it applies
        to the contract's type. `fusion="rrf"` is the earlier fusion, kept so the benchmark prints
        both in one run."""
        use_glossary = use_glossary and applies_to(self.contract_type)
        prepared = prepare(query, use_glossary=use_glossary, use_thesaurus=use_thesaurus,
                           use_bilingual=use_bilingual, use_everyday=use_everyday)  # fmt: skip
        fused = (fuse(self.scores(prepared, mode)) if fusion == "score"
                 else rrf(self.rankings(prepared, mode, "rrf")))  # fmt: skip
        highlight = prepared.highlight_terms | set(known_prefixes(prepared.morphemes,
                                                                 self.vocabulary))  # fmt: skip
        hits = []
        for no, score, ranks in fused[:top]:
            article = self.articles[no]
            matched = sorted(highlight & set(self._tokens[no]))
            hits.append(Hit(article, score, ranks, matched))
        return hits


_cache: dict[tuple[str, str, str], ContractIndex] = {}
_cache_lock = threading.Lock()


def get_index(contract_id: str, pool: ConnectionPool | None = None,
              settings: Settings | None = None) -> ContractIndex:  # fmt: skip
    """The cached index of a contract; rebuilt when its content hash or the embedder changes."""
    settings = settings or get_settings()
    info = store.require_contract(contract_id, pool)
    embedder = make_embedder(settings)
    key = (contract_id, info.content_hash, embedder.name)
    with _cache_lock:
        cached = _cache.get(key)
        if cached is not None:
            cached.contract_type = info.contract_type  # the picker may have changed it
            return cached
    index = ContractIndex(contract_id, info.content_hash, store.load_articles(contract_id, pool),
                          embedder, pool, info.contract_type)  # fmt: skip
    with _cache_lock:
        for old in [k for k in _cache if k[0] == contract_id]:
            del _cache[old]
        _cache[key] = index
    return index


def clear_cache() -> None:
    with _cache_lock:
        _cache.clear()
