"""The local dense embedder for contract articles: character 2-4-gram TF-IDF reduced by an exact
SVD (LSA), in NumPy and SciPy only.

It computes what `data_access.embeddings.NgramSvdEmbedder` computes (scikit-learn's
TfidfVectorizer(analyzer='char_wb', ngram_range=(2, 4), sublinear_tf=True), TruncatedSVD, L2
rows) without scikit-learn: importing it took 2-8 s of a contract upload and of the first
question after a restart on these machines, and its randomized SVD spent ~1 s in LU
factorisations of a (features × k) matrix, where a contract has at most a few hundred articles —
so the SVD here is exact, through the small (articles × articles) Gram matrix
(bench/contract_ingest.py prints the stage times).

    embedder = CharLsaEmbedder()
    embedder.fit(texts)
    vectors = embedder.embed(texts)   # float32, rows of unit length
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
from scipy import sparse

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

    def _tfidf(self, texts: list[str], *, grow: bool) -> sparse.csr_matrix:
        rows, cols, values = [], [], []
        for row, text in enumerate(texts):
            for gram, count in Counter(char_wb_ngrams(text)).items():
                col = self._vocabulary.get(gram)
                if col is None and grow:
                    col = self._vocabulary[gram] = len(self._vocabulary)
                if col is not None:
                    rows.append(row)
                    cols.append(col)
                    values.append(1.0 + np.log(count))
        shape = (len(texts), len(self._vocabulary))
        return sparse.csr_matrix((values, (rows, cols)), shape=shape, dtype=np.float64)

    def fit(self, texts: list[str]) -> None:
        self._vocabulary = {}
        counts = self._tfidf(texts, grow=True)
        df = np.bincount(counts.indices, minlength=counts.shape[1])
        self._idf = np.log((1 + len(texts)) / (1 + df)) + 1.0
        matrix = _l2_rows(counts.multiply(self._idf).tocsr())
        k = max(1, min(self.max_components, matrix.shape[0], matrix.shape[1] - 1))
        gram = (matrix @ matrix.T).toarray()  # articles × articles: small
        eigenvalues, eigenvectors = np.linalg.eigh(gram)
        order = np.argsort(eigenvalues)[::-1][:k]
        singular = np.sqrt(np.clip(eigenvalues[order], 1e-12, None))
        # V = Xᵀ U Σ⁻¹: the right singular vectors, as TruncatedSVD's components_.T
        self._basis = np.asarray(matrix.T @ (eigenvectors[:, order] / singular))

    def embed(self, texts: list[str]) -> np.ndarray:
        if not self._basis.size:
            raise RuntimeError("CharLsaEmbedder.embed called before fit")
        matrix = _l2_rows(self._tfidf(texts, grow=False).multiply(self._idf).tocsr())
        reduced = np.asarray(matrix @ self._basis)
        norms = np.linalg.norm(reduced, axis=1, keepdims=True)
        return np.asarray(reduced / np.where(norms > 0, norms, 1.0), dtype=np.float32)


def _l2_rows(matrix: sparse.csr_matrix) -> sparse.csr_matrix:
    norms = np.sqrt(np.asarray(matrix.multiply(matrix).sum(axis=1)).ravel())
    scale = sparse.diags(1.0 / np.where(norms > 0, norms, 1.0))
    return sparse.csr_matrix(scale @ matrix)
