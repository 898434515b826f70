"""The local dense embedder for contract articles: character 2-4-gram TF-IDF reduced by an exact
SVD (LSA), in NumPy only.

It computes what `data_access.embeddings.NgramSvdEmbedder` computes (scikit-learn's
TfidfVectorizer(analyzer='char_wb', ngram_range=(2, 4), sublinear_tf=True), TruncatedSVD, L2
rows) without scikit-learn: importing it took 2-8 s of a contract upload and of the first
question after a restart on these machines, and its randomized SVD spent ~1 s in LU
factorisations of a (features × k) matrix, where a contract has at most a few hundred articles —
so the SVD here is exact, through the small (articles × articles) Gram matrix
(bench/contract_ingest.py prints the stage times). NumPy alone: a contract's TF-IDF matrix is
small enough to hold dense (float32: 46 articles × ~9k n-grams ≈ 1.6 MB; 200 articles ≈ 30 MB),
and importing scipy.sparse cost 0.42 s of CPU of every cold CLI ingest and of the first
question after a restart (cProfile, process time).

    embedder = CharLsaEmbedder()
    embedder.fit(texts)
    vectors = embedder.embed(texts)   # float32, rows of unit length
"""

from __future__ import annotations

import re
from collections import Counter
from contextlib import AbstractContextManager
from functools import lru_cache
from typing import Any

import numpy as np

from data_access.embeddings import MAX_COMPONENTS

NGRAMS = (2, 4)
WHITESPACE_RE = re.compile(r"\s\s+")


def char_wb_ngrams(text: str, low: int = NGRAMS[0], high: int = NGRAMS[1]) -> list[str]:
    """scikit-learn's 'char_wb' n-grams: each word padded with a space, n-grams inside it (a word
    shorter than n counted once)."""
    out: list[str] = []
    for word in WHITESPACE_RE.sub(" ", text.lower()).split():
        padded = f" {word} "
        for n in range(low, high + 1):
            out += [padded[i : i + n] for i in range(max(1, len(padded) - n + 1))]
            if len(padded) <= n:
                break
    return out


class CharLsaEmbedder:
    """Char n-gram TF-IDF (sublinear tf, smooth idf, L2) → exact truncated SVD → L2 rows."""

    name = "char-lsa"

    def __init__(self, max_components: int = MAX_COMPONENTS) -> None:
        self.max_components = max_components
        self._vocabulary: dict[str, int] = {}
        self._idf = np.zeros(0)
        self._basis = np.zeros((0, 0))  # features × components

    def _tfidf(self, texts: list[str], *, grow: bool) -> np.ndarray:
        """Sublinear term frequencies (rows: texts, columns: the vocabulary's n-grams)."""
        grams = [Counter(char_wb_ngrams(text)) for text in texts]
        if grow:
            for counts in grams:
                for gram in counts:
                    self._vocabulary.setdefault(gram, len(self._vocabulary))
        matrix = np.zeros((len(texts), len(self._vocabulary)), dtype=np.float32)
        for row, counts in enumerate(grams):
            found = [(self._vocabulary[g], c) for g, c in counts.items() if g in self._vocabulary]
            if found:
                cols, values = zip(*found, strict=True)
                matrix[row, list(cols)] = 1.0 + np.log(np.asarray(values, dtype=np.float32))
        return matrix

    def fit(self, texts: list[str]) -> None:
        with _one_blas_thread():
            self._fit(texts)

    def _fit(self, texts: list[str]) -> None:
        self._vocabulary = {}
        matrix = self._tfidf(texts, grow=True)
        df = np.count_nonzero(matrix, axis=0)
        self._idf = (np.log((1 + len(texts)) / (1 + df)) + 1.0).astype(np.float32)
        matrix *= self._idf
        _l2_rows(matrix)
        k = max(1, min(self.max_components, matrix.shape[0], matrix.shape[1] - 1))
        gram = (matrix @ matrix.T).astype(np.float64)  # articles × articles: small
        eigenvalues, eigenvectors = np.linalg.eigh(gram)
        order = np.argsort(eigenvalues)[::-1][:k]
        singular = np.sqrt(np.clip(eigenvalues[order], 1e-12, None))
        # V = Xᵀ U Σ⁻¹: the right singular vectors, as TruncatedSVD's components_.T
        self._basis = matrix.T @ (eigenvectors[:, order] / singular).astype(np.float32)

    def embed(self, texts: list[str]) -> np.ndarray:
        if not self._basis.size:
            raise RuntimeError("CharLsaEmbedder.embed called before fit")
        matrix = self._tfidf(texts, grow=False)
        matrix *= self._idf
        with _one_blas_thread():
            reduced = _l2_rows(matrix) @ self._basis
        norms = np.linalg.norm(reduced, axis=1, keepdims=True)
        return np.asarray(reduced / np.where(norms > 0, norms, 1.0), dtype=np.float32)


def _l2_rows(matrix: np.ndarray) -> np.ndarray:
    """Each row scaled to unit length, in place (a zero row stays zero)."""
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    matrix /= np.where(norms > 0, norms, 1.0)
    return matrix


@lru_cache(maxsize=1)
def _blas() -> Any:
    from threadpoolctl import ThreadpoolController  # scikit-learn's dependency, already installed

    return ThreadpoolController()


def _one_blas_thread() -> AbstractContextManager[Any]:
    """OpenBLAS on one thread for these small products: on the shared two-core machine at load
    11-15, its threads spun for 10-40 ms of CPU (and 100-250 ms of wall) per 46 × 3,848 product
    that one thread does in 1 ms (bench/contract_ingest.py, 'vectors')."""
    return _blas().limit(limits=1, user_api="blas")  # type: ignore[no-any-return]
