"""One Kiwi analyser per process, shared by every screen (questions, contract search, the
opening script's title words), and the question's morphemes with their character spans.

    analyse("SK하이닉스 최근 10거래일 평균 종가는?")
    # (SK/SL 0-2, 하이닉스/NNP 2-6, 최근/NNG 7-9, 10/SN 10-12, 거래일/NNG 12-15, 평균/NNG …)

Kiwi's model takes seconds to load (NOTES.md): `preload()` starts that in a daemon thread at
process start (app, API, MCP), so the first question does not wait for it.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

# analysts' shorthand Kiwi would split ('이평' → 이 + 평) or misread ('사둘' as a noun)
_DOMAIN_NOUNS = (
    "이평 이평선 고저차 거래일 영업일 손절 익절 추매 물타기 불타기 존버 리밸런싱 현금화".split()
)
_DOMAIN_VERBS = ("사두",)
_BRANDS = ("토스",)  # brands Kiwi holds only as common nouns (toss)
_UNKNOWN_ID = 2  # the id Kiwi gives every out-of-dictionary morpheme
_lock = threading.Lock()
_kiwi: Any = None


def kiwi() -> Any:
    """The process's Kiwi instance (built on first use, under a lock)."""
    global _kiwi
    with _lock:
        if _kiwi is None:
            from kiwipiepy import Kiwi

            instance = Kiwi(load_multi_dict=False)  # 2 s and 340 MB instead of 7 s and 530 MB
            for word in _DOMAIN_NOUNS:
                instance.add_user_word(word, "NNG", 0)
            for word in _DOMAIN_VERBS:
                instance.add_user_word(word, "VV", 0)
            for word in _BRANDS:
                instance.add_user_word(word, "NNP", 0)
            instance.tokenize("워밍업")  # the model loads lazily on the first call
            _kiwi = instance
        return _kiwi


def preload() -> None:
    """Load Kiwi in the background; returns at once."""
    threading.Thread(target=kiwi, name="atlas-kiwi", daemon=True).start()


@dataclass(frozen=True)
class Morpheme:
    form: str
    tag: str  # Sejong tag without Kiwi's irregular-conjugation suffix ('VV', not 'VV-I')
    start: int
    end: int
    oov: bool = False  # a word Kiwi's dictionary does not hold ('쿠루루팡', '크래프톤')

    @property
    def content(self) -> bool:
        """A word that can carry meaning (not a particle, ending, affix or punctuation)."""
        return self.tag.startswith(("NN", "NR", "NP", "VV", "VA", "MAG", "MM", "XR", "SL", "SN",
                                    "SH"))  # fmt: skip


@lru_cache(maxsize=2048)
def analyse(text: str) -> tuple[Morpheme, ...]:
    """The morphemes of `text` with their spans in it (cached: follow-ups repeat questions)."""
    return tuple(_morpheme(t) for t in kiwi().tokenize(text))


@lru_cache(maxsize=256)
def alternatives(text: str, n: int = 3) -> tuple[tuple[tuple[Morpheme, ...], float], ...]:
    """Kiwi's `n` best readings of `text`, each with its log-probability gap to the best."""
    results = kiwi().analyze(text, top_n=n)
    best = results[0][1] if results else 0.0
    return tuple((tuple(_morpheme(t) for t in tokens), best - score) for tokens, score in results)


def _morpheme(t: Any) -> Morpheme:
    start = int(t.start)
    return Morpheme(str(t.form), str(t.tag).split("-")[0], start, start + int(t.len),
                    oov=int(t.id) == _UNKNOWN_ID)  # fmt: skip


@lru_cache(maxsize=1)
def tokenizer_fingerprint() -> str:
    """A short hash of what decides this process's Kiwi analyses: the kiwipiepy and model
    versions, how `kiwi()` builds its instance (options and user-word code, by its source) and
    the user-word lists it reads. Analyses stored on disk (contract clause tokens) carry it and are redone
    when it differs, so a changed option or user word does not leave stale tokens behind."""
    import hashlib
    import inspect
    from importlib import metadata

    parts = [inspect.getsource(kiwi)]
    # every word list `kiwi()` reads (user nouns, verbs, brands …), whatever it is named
    for name in kiwi.__code__.co_names:
        value = globals().get(name)
        if isinstance(value, tuple | list) and all(isinstance(v, str) for v in value):
            parts.append(f"{name}={value!r}")
    for package in ("kiwipiepy", "kiwipiepy_model"):
        try:
            parts.append(f"{package}=={metadata.version(package)}")
        except metadata.PackageNotFoundError:
            parts.append(f"{package} missing")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]
