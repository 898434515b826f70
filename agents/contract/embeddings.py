"""Pluggable dense embeddings for contract articles.

The embedders themselves live in `data_access.embeddings` (shared with the macro documents);
this module picks one from the settings: a litellm embedding model when `LLM_EMBEDDING_MODEL` is
set, else the local character n-gram TF-IDF + SVD embedder fitted on the contract's articles
(lsa.py: the same computation without scikit-learn, exact SVD).
"""

from __future__ import annotations

from agents.contract.lsa import CharLsaEmbedder
from data_access.config import Settings
from data_access.embeddings import MAX_COMPONENTS, Embedder, LiteLLMEmbedder, NgramSvdEmbedder

__all__ = ["MAX_COMPONENTS", "CharLsaEmbedder", "Embedder", "LiteLLMEmbedder", "NgramSvdEmbedder",
           "make_embedder"]  # fmt: skip


def make_embedder(settings: Settings) -> Embedder:
    from agents.llm import litellm_kwargs

    model = settings.model_for("embedding")
    if model:
        return LiteLLMEmbedder(model, litellm_kwargs(model, settings))
    return CharLsaEmbedder()
