"""The bundled finance glossary: answers "X란?" / "what is X" offline, with no database call.

    glossary = load_glossary()
    entry = glossary.lookup("ETF 총보수란?")
    entry.id, entry.term_ko, entry.in_data("ko")      # "expense_ratio", "총보수", "etfs.expense_ratio …"
    found = glossary.match("what is a yield curve inversion")
    found.entry.id, found.text                        # "yield_curve_inversion", "yield curve inversion"

The terms are data (`glossary.json`, written for this workbench): Korean and English names,
aliases, a category, a definition in both languages, a note on where the figure lives in this
workbench's data, and related entries. The file is checked when it is loaded (unique ids, every
alias owned by one entry only, related ids that exist) and a bad file raises `GlossaryError`.

Lookup folds the question the way aliases were folded (NFKC, case-folded, whitespace and joining
punctuation such as "/", "-", "·" dropped: "P/E" = "pe", "원 / 달러" = "원달러") and reads it left
to right, taking at each position the longest alias there (one dict probe per alias length that
starts with that character, no regex per alias), so overlapping names resolve as a reader would:
"역전세가 뭐야" is 역전세, not 전세가. Korean particles after a term ("총보수란", "스프레드가") need
nothing special. An alias that starts or ends with a Latin letter or digit must sit on a word
boundary ("PER" is not found in "percent"; a trailing plural "s" is allowed). Words listed as
`not_terms` in the file ("보수적": conservative, not the fee) hide the shorter alias inside them.

When a question names several terms, `match` prefers the one a definition cue points at ("…란",
"…가 뭐야", "… 뜻", "what is the …", "… mean"), then the longest, then, between equals, the later
one in a Korean question (the head noun comes last: "ETF 총보수" → 총보수) and the earlier one in
an English question. `find_all` returns every term named, left to right.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, cast, get_args

from data_access.errors import WorkbenchError

logger = logging.getLogger(__name__)

Category = Literal["etf", "equity", "macro", "bond", "fx", "real_estate", "derivatives", "general"]
CATEGORIES: frozenset[str] = frozenset(get_args(Category))

GLOSSARY_FILE = Path(__file__).with_name("glossary.json")
MAX_QUESTION_CHARS = 2000  # a lookup reads at most this much of a question: huge inputs stay cheap
MIN_ALIAS_CHARS = 2  # folded; a one-character alias would match inside too many words

# Dropped when folding, so spacing and punctuation variants of a term meet: "P/E", "원·달러", "Yield-curve".
_JOINERS = frozenset("-‐‑‒–—―_·・/.'’\"")
_ID_PATTERN = re.compile(r"^[a-z][a-z0-9_]*$")
_TEXT_FIELDS = (
    "term_ko", "term_en", "definition_ko", "definition_en", "in_data_ko", "in_data_en",
)  # fmt: skip


class GlossaryError(WorkbenchError):
    """The glossary file is missing, malformed or inconsistent (the message says where)."""


@dataclass(frozen=True)
class GlossaryEntry:
    """One term: its names, definition and where to read it in this workbench's data."""

    id: str
    term_ko: str
    term_en: str
    aliases: tuple[str, ...]
    category: Category
    definition_ko: str
    definition_en: str
    in_data_ko: str
    in_data_en: str
    related: tuple[str, ...] = ()

    def term(self, lang: str) -> str:
        return self.term_ko if lang == "ko" else self.term_en

    def definition(self, lang: str) -> str:
        return self.definition_ko if lang == "ko" else self.definition_en

    def in_data(self, lang: str) -> str:
        return self.in_data_ko if lang == "ko" else self.in_data_en

    @property
    def held(self) -> bool:
        """Whether the workbench's data holds the term (its in-data note says when not)."""
        return not self.in_data_ko.startswith(NOT_HELD_KO)

    @property
    def surfaces(self) -> tuple[str, ...]:
        """Every written form the entry answers to: both terms and the aliases."""
        return (self.term_ko, self.term_en, *self.aliases)


@dataclass(frozen=True)
class GlossaryMatch:
    """The entry a question names, and where: `text` is `question[start:end]`.

    Offsets are into the question after NFC normalisation (the same string for typed text).
    """

    entry: GlossaryEntry
    start: int
    end: int
    text: str


# ---------------------------------------------------------------- folding


@lru_cache(maxsize=8192)
def _fold_char(ch: str) -> str:
    folded = unicodedata.normalize("NFKC", ch).casefold()
    return "".join(c for c in folded if not c.isspace() and c not in _JOINERS)


def fold(text: str) -> str:
    """The form aliases are compared in: NFKC, case-folded, no whitespace or joining punctuation."""
    return "".join(_fold_char(ch) for ch in unicodedata.normalize("NFC", text))


def _is_word_char(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


@dataclass(frozen=True)
class _Folded:
    """A question folded, with each folded character's index in the question."""

    text: str
    positions: tuple[int, ...]

    @classmethod
    def of(cls, question: str) -> _Folded:
        chars: list[str] = []
        positions: list[int] = []
        for index, ch in enumerate(question):
            for folded in _fold_char(ch):
                chars.append(folded)
                positions.append(index)
        return cls("".join(chars), tuple(positions))

    def gap_before(self, i: int) -> bool:
        """True when whitespace or punctuation was dropped right before folded index i."""
        return i == 0 or self.positions[i] - self.positions[i - 1] > 1

    def word_ends_at(self, j: int, *, plural: bool = True) -> bool:
        """True when folded index j (exclusive end) is a word boundary; "…s" counts if `plural`."""
        if j >= len(self.text) or self.gap_before(j) or not _is_word_char(self.text[j]):
            return True
        return plural and self.text[j] == "s" and self.word_ends_at(j + 1, plural=False)


# ---------------------------------------------------------------- the glossary


@dataclass(frozen=True)
class Glossary:
    """The entries and a folded-alias index over them (build with `Glossary.build`)."""

    entries: tuple[GlossaryEntry, ...]
    fingerprint: str = ""  # first 12 hex digits of the file's sha256, for citations
    _by_id: Mapping[str, GlossaryEntry] = field(default_factory=dict, repr=False)
    # folded alias -> entry id; None for a not-a-term phrase
    _by_alias: Mapping[str, str | None] = field(default_factory=dict, repr=False)
    _lengths: Mapping[str, tuple[int, ...]] = field(default_factory=dict, repr=False)

    @classmethod
    def build(cls, entries: tuple[GlossaryEntry, ...], not_terms: tuple[str, ...] = (),
              fingerprint: str = "") -> Glossary:  # fmt: skip
        """Check the entries against each other and index their aliases; GlossaryError if bad.

        `not_terms` are words that contain an alias but mean something else ("보수적" holds 보수,
        the fee, but means conservative): found at a position, they hide the shorter alias there.
        """
        by_id: dict[str, GlossaryEntry] = {}
        for entry in entries:
            if entry.id in by_id:
                raise GlossaryError(f"용어집 항목 id가 중복됩니다: {entry.id}")
            by_id[entry.id] = entry
        by_alias: dict[str, str | None] = {}
        for entry in entries:
            for related in entry.related:
                if related == entry.id or related not in by_id:
                    raise GlossaryError(f"용어집 '{entry.id}'의 관련 항목이 없습니다: {related}")
            for surface in entry.surfaces:
                key = fold(surface)
                if len(key) < MIN_ALIAS_CHARS:
                    raise GlossaryError(f"용어집 '{entry.id}'의 별칭이 너무 짧습니다: {surface!r}")
                owner = by_alias.setdefault(key, entry.id)
                if owner != entry.id:
                    from data_access.seed.news_text import particles  # only on a broken glossary

                    raise GlossaryError(particles(
                        f"용어집 별칭 {surface!r}이(가) 두 항목에 있습니다: {owner}, {entry.id}"))  # fmt: skip
        for phrase in not_terms:
            key = fold(phrase)
            if len(key) < MIN_ALIAS_CHARS or by_alias.get(key) is not None:
                raise GlossaryError(
                    f"용어집의 '용어 아님' 표현이 별칭과 겹치거나 너무 짧습니다: {phrase!r}"
                )
            by_alias[key] = None
        lengths: dict[str, set[int]] = {}
        for key in by_alias:
            lengths.setdefault(key[0], set()).add(len(key))
        return cls(entries=entries, fingerprint=fingerprint, _by_id=by_id, _by_alias=by_alias,
                   _lengths={ch: tuple(sorted(ns, reverse=True)) for ch, ns in lengths.items()})  # fmt: skip

    def __len__(self) -> int:
        return len(self.entries)

    def __iter__(self) -> Iterator[GlossaryEntry]:
        return iter(self.entries)

    def get(self, entry_id: str) -> GlossaryEntry | None:
        return self._by_id.get(entry_id)

    def lookup(self, question: str) -> GlossaryEntry | None:
        """The entry a definition question asks about, or None when it names no known term."""
        found = self.match(question)
        return found.entry if found else None

    def match(self, question: str) -> GlossaryMatch | None:
        """The longest term named in the question, with its span (see the module docstring)."""
        prepared = _prepare(question)
        if prepared is None:
            return None
        text, folded = prepared
        hits = self._tokens(folded)
        if not hits:
            return None
        prefer_later = any("\uac00" <= ch <= "\ud7a3" for ch in folded.text)  # Korean

        def rank(hit: tuple[int, int]) -> tuple[bool, int, int]:
            start, end = folded.positions[hit[0]], folded.positions[hit[1] - 1] + 1
            asked = bool(_CUE_AFTER.match(text, end)) or _CUE_BEFORE.search(
                text, max(0, start - _CUE_LOOKBEHIND), start) is not None  # fmt: skip
            return asked, hit[1] - hit[0], hit[0] if prefer_later else -hit[0]

        return self._as_match(text, folded, max(hits, key=rank))

    def find_all(self, question: str) -> list[GlossaryMatch]:
        """Every term named in the question, left to right (overlaps read as `match` reads them)."""
        prepared = _prepare(question)
        if prepared is None:
            return []
        text, folded = prepared
        return [self._as_match(text, folded, hit) for hit in self._tokens(folded)]

    def _tokens(self, folded: _Folded) -> list[tuple[int, int]]:
        """Terms read left to right, longest first (folded indices): "역전세가" is 역전세, not 전세가.

        A not-a-term phrase is read like a term and then dropped, so it hides what it contains.
        """
        hits: list[tuple[int, int]] = []
        i = 0
        while i < len(folded.text):
            end = next((i + n for n in self._lengths.get(folded.text[i], ())
                        if self._fits(folded, i, i + n)), None)  # fmt: skip
            if end is None:
                i += 1
                continue
            if self._by_alias[folded.text[i:end]] is not None:
                hits.append((i, end))
            i = end
        return hits

    def _fits(self, folded: _Folded, i: int, j: int) -> bool:
        if j > len(folded.text):
            return False
        key = folded.text[i:j]
        if key not in self._by_alias:
            return False
        if _is_word_char(key[0]) and not folded.gap_before(i) and _is_word_char(folded.text[i - 1]):
            return False  # the alias starts inside a word
        return not _is_word_char(key[-1]) or folded.word_ends_at(j)

    def _as_match(self, text: str, folded: _Folded, hit: tuple[int, int]) -> GlossaryMatch:
        i, j = hit
        entry_id = self._by_alias[folded.text[i:j]]
        assert entry_id is not None  # _hits keeps only aliases of entries
        start, end = folded.positions[i], folded.positions[j - 1] + 1
        return GlossaryMatch(self._by_id[entry_id], start, end, text[start:end])


# A definition cue right after a term ("총보수란", "스프레드가 뭐야", "PER 뜻", "YoY mean") or right
# before it ("what is the …"): the term so marked is the one asked about, whatever else is named.
_CUE_AFTER = re.compile(
    r"\s*(?:이란|란|이라는|라는|이라고|라고|(?:은|는|이|가)(?=$|[\s?!.,]|뭐|무엇)|(?:의\s*)?(?:뜻|의미|정의)"
    r"|뭐|무엇|mean\b|means\b|meaning\b|definition\b|stands?\s+for\b)",
    re.IGNORECASE,
)
_CUE_BEFORE = re.compile(
    r"(?:what\s+(?:is|are|was|does)|what's|whats|define|definition\s+of|meaning\s+of|explain"
    r"|tell\s+me\s+about)(?:\s+(?:a|an|the))?\s*$",
    re.IGNORECASE,
)
_CUE_LOOKBEHIND = 40  # characters before a term searched for an English cue


def _prepare(question: str) -> tuple[str, _Folded] | None:
    """The question (NFC, cut to MAX_QUESTION_CHARS) and its folded form; None if it is empty."""
    if not isinstance(question, str) or not question.strip():
        return None
    text = unicodedata.normalize("NFC", question[:MAX_QUESTION_CHARS])
    return text, _Folded.of(text)


# ---------------------------------------------------------------- loading


def _entry_from_row(row: Any, index: int) -> GlossaryEntry:
    if not isinstance(row, dict):
        raise GlossaryError(f"용어집 {index}번째 항목이 객체가 아닙니다.")
    entry_id = row.get("id")
    if not isinstance(entry_id, str) or not _ID_PATTERN.match(entry_id):
        raise GlossaryError(f"용어집 {index}번째 항목의 id가 올바르지 않습니다: {entry_id!r}")
    for key in _TEXT_FIELDS:
        value = row.get(key)
        if not isinstance(value, str) or not value.strip():
            raise GlossaryError(f"용어집 '{entry_id}'에 '{key}' 내용이 없습니다.")
    category = row.get("category")
    if category not in CATEGORIES:
        raise GlossaryError(f"용어집 '{entry_id}'의 분류가 올바르지 않습니다: {category!r}")
    aliases, related = row.get("aliases", []), row.get("related", [])
    for key, values in (("aliases", aliases), ("related", related)):
        if not isinstance(values, list) or not all(isinstance(v, str) and v for v in values):
            raise GlossaryError(f"용어집 '{entry_id}'의 '{key}'는 문자열 목록이어야 합니다.")
    return GlossaryEntry(
        id=entry_id, term_ko=row["term_ko"], term_en=row["term_en"], aliases=tuple(aliases),
        category=cast(Category, category), definition_ko=row["definition_ko"],
        definition_en=row["definition_en"], in_data_ko=row["in_data_ko"],
        in_data_en=row["in_data_en"], related=tuple(related),
    )  # fmt: skip


def parse_glossary(raw: bytes, source: str = "glossary.json") -> Glossary:
    """A glossary from the file's bytes; GlossaryError naming `source` if anything is wrong."""
    try:
        document = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise GlossaryError(f"용어집 파일({source})을 읽을 수 없습니다: {e}") from e
    rows = document.get("entries") if isinstance(document, dict) else None
    if not isinstance(rows, list) or not rows:
        raise GlossaryError(f"용어집 파일({source})에 'entries' 목록이 없습니다.")
    entries = tuple(_entry_from_row(row, i + 1) for i, row in enumerate(rows))
    not_terms = document.get("not_terms", [])
    if not isinstance(not_terms, list) or not all(isinstance(p, str) for p in not_terms):
        raise GlossaryError(f"용어집 파일({source})의 'not_terms'는 문자열 목록이어야 합니다.")
    fingerprint = hashlib.sha256(raw).hexdigest()[:12]
    return Glossary.build(entries, tuple(not_terms), fingerprint=fingerprint)


NOT_HELD_KO = "이 워크벤치 데이터에는 없습니다"


@lru_cache(maxsize=8)
def _load(path: str) -> Glossary:
    try:
        raw = Path(path).read_bytes()
    except OSError as e:
        raise GlossaryError(f"용어집 파일을 열 수 없습니다: {path}") from e
    glossary = parse_glossary(raw, source=Path(path).name)
    logger.info("glossary loaded: %s entries from %s", len(glossary), path)
    return glossary


def load_glossary(path: Path | None = None) -> Glossary:
    """The glossary (default: the bundled file), parsed once per process and path."""
    return _load(str(path or GLOSSARY_FILE))


def entry_for(frame_measure_surfaces: list[str], question: str) -> GlossaryEntry | None:
    """The entry a definition question asks about: the measure the frame read ('P/E' in 'what is
    a P/E ratio') first, then the whole question."""
    glossary = load_glossary()
    for surface in frame_measure_surfaces:
        entry = glossary.lookup(surface)
        if entry is not None:
            return entry
    return glossary.lookup(question)
