"""Local dense embeddings shared by the screens (contract articles, macro documents).

Default: character n-gram TF-IDF reduced with truncated SVD (LSA), fitted on the corpus it will
search — no download, no GPU, works for Korean because it never needs word boundaries.
`LiteLLMEmbedder` wraps a litellm embedding model when one is configured; the caller passes the
provider kwargs (data_access never imports agents).
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

MAX_COMPONENTS = 64


class Embedder(Protocol):
    name: str

    def fit(self, texts: list[str]) -> None: ...

    def embed(self, texts: list[str]) -> np.ndarray: ...


class NgramSvdEmbedder:
    """Char 2–4-gram TF-IDF → SVD, L2-normalized; deterministic for the same texts."""

    name = "ngram-svd"

    def __init__(self, max_components: int = MAX_COMPONENTS) -> None:
        self.max_components = max_components
        self._pipeline: Any = None

    @property
    def dimension(self) -> int:
        if self._pipeline is None:
            raise RuntimeError("NgramSvdEmbedder.dimension read before fit")
        return int(self._pipeline.steps[1][1].n_components)

    def fit(self, texts: list[str]) -> None:
        from sklearn.decomposition import TruncatedSVD
        from sklearn.feature_extraction.text import TfidfVectorizer
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import Normalizer

        vectorizer = TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 4), sublinear_tf=True)
        features = vectorizer.fit_transform(texts)
        # Randomized SVD with a fixed seed: deterministic for the same corpus.
        components = max(1, min(self.max_components, features.shape[0], features.shape[1] - 1))
        svd = TruncatedSVD(n_components=components, algorithm="randomized", random_state=0)
        self._pipeline = make_pipeline(vectorizer, svd, Normalizer(copy=False))
        self._pipeline.fit(texts)

    def embed(self, texts: list[str]) -> np.ndarray:
        if self._pipeline is None:
            raise RuntimeError("NgramSvdEmbedder.embed called before fit")
        return np.asarray(self._pipeline.transform(texts), dtype=np.float32)


class LiteLLMEmbedder:
    """A litellm embedding model (`openai/text-embedding-3-small`, `ollama/...`); no fitting."""

    def __init__(self, model: str, kwargs: dict[str, Any]) -> None:
        self.name = f"litellm:{model}"
        self.model = model
        self.kwargs = kwargs

    def fit(self, texts: list[str]) -> None:
        return None

    def embed(self, texts: list[str]) -> np.ndarray:
        import litellm

        response = litellm.embedding(model=self.model, input=texts, **self.kwargs)
        vectors = np.asarray([row["embedding"] for row in response.data], dtype=np.float32)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return np.asarray(vectors / np.maximum(norms, 1e-9), dtype=np.float32)
