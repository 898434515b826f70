"""Per-contract hybrid index: BM25 over kiwipiepy morphemes + dense vectors in pgvector, fused
with Reciprocal Rank Fusion; results are whole articles.

Hybrid fuses four rankings with equal weights: BM25, dense, a title ranking (articles whose title
is what the question is about: a glossary concept's clause name or the question's own morphemes)
and a reference ranking (제N조 / 별지N / Article N named in the question). On the labelled set the
figures are the same for every RRF k from 1 to 60 on both halves (bench/contract_search.py), so k
stays at the usual 60 and nothing is fitted.

Two query-side aids, each switchable so the benchmark measures it: the bilingual glossary (written
for data contracts) and the general legal thesaurus (thesaurus.py, one for every contract kind),
whose concept tokens are added to clauses and questions alike. The index is cached per (contract,
content hash, embedder) and rebuilt only when the contract changes.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from psycopg_pool import ConnectionPool
from rank_bm25 import BM25Okapi

from agents.contract import store
from agents.contract.embeddings import Embedder, make_embedder
from agents.contract.glossary import Expansion, expand
from agents.contract.models import Article
from agents.contract.references import article_keys
from agents.contract.thesaurus import Rewrite, clause_concepts, rewrite
from agents.contract.tokenize import tokens
from data_access.config import Settings, get_settings

SearchMode = Literal["hybrid", "bm25", "dense"]
RRF_K = 60
CANDIDATES = 20
TITLE_WEIGHT = 2  # title morphemes count twice: a clause's title says what it is about


@dataclass
class Hit:
    """One article found for a query, with where it ranked in each retriever."""

    article: Article
    score: float
    ranks: dict[str, int] = field(default_factory=dict)
    matched_terms: list[str] = field(default_factory=list)

    @property
    def retrievers(self) -> list[str]:
        return sorted(self.ranks)

    def to_dict(self) -> dict[str, object]:
        return {"article_no": self.article.article_no, "branch": self.article.branch,
                "key": self.article.key, "title": self.article.title,
                "label": self.article.label, "content": self.article.content,
                "score": round(self.score, 6), "retrievers": self.retrievers,
                "ranks": dict(self.ranks), "matched_terms": self.matched_terms}  # fmt: skip


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
        """Korean register words of an English question's words (thesaurus 'bilingual' list).
        They go to the dense retriever only: added to BM25's query they lost the tuning set's
        English questions more than they found (every synonym weighs as much as the question)."""
        return self.concepts.translated if self.concepts else []

    @property
    def highlight_terms(self) -> set[str]:
        """Words a clause shares with the question: its morphemes, its concepts' register words
        and the translated words' morphemes (so an English answer bolds the Korean it matched)."""
        translated = tokens(" ".join(self.translated)) if self.translated else []
        return set(self.morphemes) | self.concept_terms | set(translated)

    @property
    def bm25_tokens(self) -> list[str]:
        return self.morphemes + (self.concepts.tokens if self.concepts else [])

    @property
    def dense_text(self) -> str:
        if self.concepts is None:
            return self.expanded
        return Rewrite(self.expanded, self.concepts.concepts, self.translated).register_text

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


def article_tokens(article: Article) -> list[str]:
    return tokens(article.title) * TITLE_WEIGHT + tokens(article.body)


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


class ContractIndex:
    """BM25 + dense retrieval over one contract's articles."""

    def __init__(self, contract_id: str, content_hash: str, stored: list[store.StoredArticle],
                 embedder: Embedder, pool: ConnectionPool | None) -> None:  # fmt: skip
        self.contract_id = contract_id
        self.pool = pool
        self.articles = {s.article.key: s.article for s in stored}  # models.article_key
        self._numbers = [s.article.key for s in stored]
        self._bm25 = BM25Okapi([s.tokens or ["_"] for s in stored])
        self._bm25_concepts = BM25Okapi([with_concepts(s.tokens) or ["_"] for s in stored])
        self.embedder = embedder
        started = time.perf_counter()
        vectors = fit_vectors(embedder, [s.article for s in stored])
        self.signature = embedding_signature(embedder, content_hash, vectors.shape[1])
        if any(s.embedding_model != self.signature for s in stored):
            store.update_vectors(contract_id, self._numbers, vectors, self.signature, pool)
        self.build_ms = int((time.perf_counter() - started) * 1000)

    def bm25(self, query_tokens: list[str], k: int = CANDIDATES, *,
             concepts: bool = False) -> list[tuple[int, float]]:  # fmt: skip
        """Articles by BM25 over morphemes (and thesaurus concept tokens when `concepts`)."""
        if not query_tokens:
            return []
        scores = (self._bm25_concepts if concepts else self._bm25).get_scores(query_tokens)
        order = np.argsort(-scores, kind="stable")[:k]
        return [(self._numbers[i], float(scores[i])) for i in order if scores[i] > 0]

    def dense(self, query: str, k: int = CANDIDATES) -> list[tuple[int, float]]:
        vector = self.embedder.embed([query])[0]
        if not np.any(vector):
            return []
        return store.dense_search(self.contract_id, vector, self.signature, k, self.pool)

    def rankings(self, query: Query, mode: SearchMode = "hybrid") -> dict[str, list[int]]:
        """Each retriever's ranking of article numbers for a prepared question."""
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
               use_bilingual: bool = True, use_everyday: bool = True) -> list[Hit]:  # fmt: skip
        prepared = prepare(query, use_glossary=use_glossary, use_thesaurus=use_thesaurus,
                           use_bilingual=use_bilingual, use_everyday=use_everyday)  # fmt: skip
        highlight = prepared.highlight_terms
        hits = []
        for no, score, ranks in rrf(self.rankings(prepared, mode))[:top]:
            article = self.articles[no]
            matched = sorted(highlight & set(article_tokens(article)))
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
            return cached
    index = ContractIndex(contract_id, info.content_hash, store.load_articles(contract_id, pool),
                          embedder, pool)  # fmt: skip
    with _cache_lock:
        for old in [k for k in _cache if k[0] == contract_id]:
            del _cache[old]
        _cache[key] = index
    return index


def clear_cache() -> None:
    with _cache_lock:
        _cache.clear()
