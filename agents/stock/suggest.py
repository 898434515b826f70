"""'Did you mean …' for a stock symbol that matched nothing: names and tickers that look like
what was typed, in Korean and English — not codes that merely share digits.

    rank("삼송전자", candidates)  # [삼성전자 (0.9), ...]  Hangul compared letter by letter (jamo)
    rank("APPL", candidates)      # [Apple (0.9)]          one edit from the ticker AAPL
    rank("00593", candidates)     # [삼성전자, 삼성전자우]  a digit missing, not 005940
    rank("005390", candidates)    # [삼성전자]             two digits swapped, not 005380
    rank("ZZZQ", candidates)      # []                     nothing looks like it

A name scores by sequence similarity of the jamo-decomposed, space-free, lower-case forms of
its Korean name, English name and aliases (a typed prefix of a name scores high too); a ticker
scores within one edit (Damerau-Levenshtein), a numeric code only for a swap or a missing or
extra digit. Below `MIN_SCORE` nothing
is suggested; ties go to the larger company.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher

from rapidfuzz.distance import OSA

from agents.understanding.names import jamo
from data_access.ids import Suggestion

MIN_SCORE = 0.65
_PREFIXES = re.compile(r"^(kr|us):|^a(?=\d{6}$)|\.(ks|kq)$")


@dataclass(frozen=True)
class Candidate:
    security_id: str
    code: str
    name: str
    names: tuple[str, ...]  # Korean name, English name, aliases
    size: float  # market value, for ties


def normalize(text: str) -> str:
    key = re.sub(r"\s+", "", text).lower()
    return _PREFIXES.sub("", key)


def edit_distance(a: str, b: str) -> int:
    """Optimal-string-alignment distance: insertions, deletions, substitutions, swaps."""
    return int(OSA.distance(a, b))


def name_score(query: str, name: str) -> float:
    """Similarity of two normalized names; a typed prefix of the name counts as a strong match."""
    if not query or not name:
        return 0.0
    prefix = (
        0.75 + 0.25 * len(query) / len(name) if len(query) >= 2 and name.startswith(query) else 0.0
    )
    matcher = SequenceMatcher(None, jamo(query), jamo(name), autojunk=False)
    if matcher.quick_ratio() < MIN_SCORE:  # an upper bound of ratio(): most names stop here
        return prefix
    return max(prefix, matcher.ratio())


def code_score(query: str, code: str) -> float:
    """A ticker within one edit of what was typed; a numeric code only one swap, missing or
    extra digit away (5+ digits): codes are dense, so a changed digit is another company."""
    if query == code:
        return 1.0
    if edit_distance(query, code) != 1:
        return 0.0
    if query.isdigit():
        swapped = len(query) == len(code) and sorted(query) == sorted(code)
        return 0.9 if len(query) >= 5 and (swapped or len(query) != len(code)) else 0.0
    return 0.9


def score(query: str, candidate: Candidate) -> float:
    code = candidate.code.lower()
    if query.isdigit():  # a code: only codes one edit away, never names
        return code_score(query, code) if code.isdigit() else 0.0
    best = max((name_score(query, normalize(n)) for n in candidate.names if n), default=0.0)
    if query.isascii() and len(query) <= 6 and not code.isdigit():
        best = max(best, code_score(query, code))
    return best


def rank(text: str, candidates: list[Candidate], limit: int = 5) -> list[Suggestion]:
    query = normalize(text)
    if not query:
        return []
    scored = [(score(query, c), c) for c in candidates]
    kept = sorted(((s, c) for s, c in scored if s >= MIN_SCORE),
                  key=lambda sc: (-sc[0], -sc[1].size, sc[1].security_id))  # fmt: skip
    return [Suggestion(kind="stock", id=c.security_id, code=c.code, name=c.name,
                       score=round(s, 4)) for s, c in kept[:limit]]  # fmt: skip
