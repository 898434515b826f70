"""Korean morphological tokens for BM25 (kiwipiepy), shared by indexing and queries."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

# Content morphemes: nouns, verb/adjective stems, roots, foreign words, numbers, hanja.
KEEP_TAGS = ("NNG", "NNP", "NNB", "NR", "VV", "VA", "XR", "SL", "SN", "SH", "MAG")
STOP_FORMS = frozenset({"것", "수", "등", "이", "그", "하", "되", "있", "없", "않", "아니"})


def _analyzer() -> Any:
    """The process's one Kiwi (agents.understanding.morphemes): a second instance cost another
    ~500 MB and its own 3-5 s model load (measured in bench/contract_ingest.py)."""
    from agents.understanding.morphemes import kiwi

    return kiwi()


@lru_cache(maxsize=4096)
def _tokens(text: str) -> tuple[str, ...]:
    out: list[str] = []
    for token in _analyzer().tokenize(text):
        tag = str(token.tag).split("-")[0]
        if not tag.startswith(KEEP_TAGS):
            continue
        form = token.form.lower()
        if form in STOP_FORMS:
            continue
        out.append(form)
    return tuple(out)


def tokens(text: str) -> list[str]:
    """Content morphemes of `text`, lower-cased (cached: the same clause is tokenized once)."""
    return list(_tokens(text))


@lru_cache(maxsize=4096)
def _tagged(text: str) -> tuple[tuple[str, str], ...]:
    return tuple((t.form.lower(), str(t.tag).split("-")[0]) for t in _analyzer().tokenize(text))


def tagged(text: str) -> list[tuple[str, str]]:
    """Every morpheme of `text` with its tag, lower-cased (cached)."""
    return list(_tagged(text))


@lru_cache(maxsize=1)
def fingerprint() -> str:
    """What decides a clause's stored tokens: the shared Kiwi (its options, user words and
    version: morphemes.tokenizer_fingerprint) and the tags and forms kept here. Stored with
    each clause line's tokens; stored tokens under another fingerprint are analysed again."""
    import hashlib

    from agents.understanding.morphemes import tokenizer_fingerprint

    kept = f"{tokenizer_fingerprint()}|{KEEP_TAGS}|{sorted(STOP_FORMS)}"
    return hashlib.sha256(kept.encode()).hexdigest()[:16]


def clear_cache() -> None:
    """Forget cached analyses (the benchmark measures tokenizing a new document)."""
    _tokens.cache_clear()
    _tagged.cache_clear()
