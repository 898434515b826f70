"""The seed's retrieval, rebuilt as a benchmark baseline: Whoosh keyword search + FAISS, RRF.

Seed 002's HybridSearchTool searched a contract with Whoosh (keyword, BM25F) and FAISS (vectors)
and fused the two rankings with Reciprocal Rank Fusion, returning whole articles. This module does
exactly that over one contract, so `bench/contract_search.py` can put the seed's approach next to
ours in one run:

- Whoosh: an in-RAM index (`RamStorage`) with one document per article (label + body, the same text
  the dense retriever embeds), Whoosh's default `StandardAnalyzer` (regex word tokens, lower-case,
  English stop words: no Korean morphology), BM25F scoring, the question's words OR-ed together.
- FAISS: `IndexFlatIP` over the L2-normalized article vectors of the contract's own embedder (the
  one our dense retriever uses), so inner product = cosine similarity.

Used only by the benchmark and its test; the screen uses `agents.contract.index`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from agents.contract.glossary import expand
from agents.contract.index import CANDIDATES, ContractIndex, article_text, rrf


class SeedBaseline:
    """Whoosh + FAISS over one contract's articles, fused with RRF (k = 60, as in ours)."""

    def __init__(self, index: ContractIndex) -> None:
        import faiss
        from whoosh.fields import ID, TEXT, Schema
        from whoosh.filedb.filestore import RamStorage

        self.index = index
        self._numbers = list(index.articles)
        schema = Schema(article_no=ID(stored=True), content=TEXT())
        self._whoosh: Any = RamStorage().create_index(schema)
        writer = self._whoosh.writer()
        for no in self._numbers:
            writer.add_document(article_no=str(no), content=article_text(index.articles[no]))
        writer.commit()
        self._analyzer = schema["content"].analyzer
        vectors = index.embedder.embed([article_text(index.articles[n]) for n in self._numbers])
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        faiss.normalize_L2(vectors)
        self._faiss: Any = faiss.IndexFlatIP(vectors.shape[1])
        self._faiss.add(vectors)

    def keyword(self, query: str, k: int = CANDIDATES) -> list[int]:
        """Whoosh BM25F over the question's analyzed words (OR)."""
        from whoosh.query import Or, Term

        words = sorted({t.text for t in self._analyzer(query)})
        if not words:
            return []
        with self._whoosh.searcher() as searcher:
            results = searcher.search(Or([Term("content", w) for w in words]), limit=k)
            return [int(hit["article_no"]) for hit in results]

    def vector(self, query: str, k: int = CANDIDATES) -> list[int]:
        """FAISS exact inner-product search over the normalized article vectors."""
        import faiss

        vector = np.ascontiguousarray(self.index.embedder.embed([query]), dtype=np.float32)
        if not np.any(vector):
            return []
        faiss.normalize_L2(vector)
        _, ids = self._faiss.search(vector, min(k, len(self._numbers)))
        return [self._numbers[i] for i in ids[0] if i >= 0]

    def search(self, query: str, *, use_glossary: bool = False) -> list[int]:
        """Article numbers best first. The seed had no glossary: off unless asked for."""
        text = expand(query).text if use_glossary else query
        rankings = {"whoosh": self.keyword(text), "faiss": self.vector(text)}
        return [no for no, _, _ in rrf(rankings)]
