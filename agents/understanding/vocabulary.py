"""The vocabulary of questions (`vocabulary.json`): measures, operations, comparators, periods,
follow-up markers, macro series, indices and sector words — data, not code, so a new phrasing
is one line in the file. `Phrases` precomputes the folded forms once per process."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Generic, TypeVar

VOCABULARY_FILE = Path(__file__).with_name("vocabulary.json")
_LATIN = re.compile(r"[a-z0-9]")
_WORD = re.compile(r"[a-z0-9가-힣]")
T = TypeVar("T")


@lru_cache(maxsize=1)
def vocabulary() -> dict[str, Any]:
    data = dict(json.loads(VOCABULARY_FILE.read_text(encoding="utf-8")))
    # an English asker joined with a trade verb ('should i' + 'buy'; Korean advice is read from
    # morphemes, advice.py); a stated plan to trade ('thinking of buying': the 'soft_' parts) is
    # advice only when nothing measurable is asked, so it joins the soft advice words
    english, scope = data["advice_grammar"]["english"], data["out_of_scope"]
    for group, part in (("forecast", ""), ("advice_soft", "soft_")):
        scope[group] += [f"{asker} {verb}" for asker in english[f"{part}askers"]
                         for verb in english[f"{part}verbs"]]  # fmt: skip
    # a change's base said with any comparative ('전월보다', '작년이랑', '1년 전 대비'): one
    # entry per base noun, not one per spelling
    said = data["change_bases"]
    for basis, bases in said["bases"].items():
        data["change"][basis] += [f"{b}{c}" for b in bases for c in said["attached"]] + [
            f"{b} {c}" for b in bases for c in said["spaced"]]  # fmt: skip
    return data


@lru_cache(maxsize=1)
def english_forecast() -> re.Pattern[str]:
    """A modal before a move verb, its subject not the asker: 'will KODEX 200 rise', 'can it
    recover', 'do you expect it to fall'; 'can you show …' and 'will I …' are not forecasts."""
    grammar = vocabulary()["forecast_grammar"]["english"]

    def either(words: list[str]) -> str:
        return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))

    return re.compile(
        rf"\b(?:{either(grammar['modals'])})\s+(?!(?:{either(grammar['not_subjects'])})\b)"
        rf"(?:\S+\s+){{0,5}}?(?:{either(grammar['verbs'])})\b"
    )


@dataclass(frozen=True)
class Hit:
    label: str  # the group the phrase belongs to (a measure name, '>' …)
    phrase: str
    start: int  # in the lower-cased text
    end: int


def find_phrases(text: str, groups: dict[str, list[str]]) -> list[Hit]:
    """Every phrase of every group in `text` (lower-cased, entity names masked), longest first,
    non-overlapping. ASCII phrases match whole words; Korean phrases match anywhere (they are
    stems: '넘' covers 넘는/넘은/넘게), except that a leading '^' ties a phrase to the start of a
    word ('^금 가격' is not in '지금 가격', '^사야' is not in '운용사야')."""
    hits: list[Hit] = []
    taken = [False] * len(text)
    for label, phrase, word_start in _phrases_of(groups).candidates(text):
        for start in occurrences(text, phrase):
            end = start + len(phrase)
            if (not any(taken[start:end]) and _word_ok(text, phrase, start, end)
                    and not (word_start and start > 0 and _WORD.match(text[start - 1]))):  # fmt: skip
                taken[start:end] = [True] * (end - start)
                hits.append(Hit(label, phrase, start, end))
    return sorted(hits, key=lambda h: h.start)


def occurrences(text: str, needle: str) -> Iterator[int]:
    """Start offsets of a literal in text: str.find, since a regex per name (thousands of names at
    market scale) overflows re's compile cache and recompiles on every question."""
    start = text.find(needle)
    while start != -1:
        yield start
        start = text.find(needle, start + 1)


@dataclass(frozen=True)
class HeadIndex(Generic[T]):
    """Entries longest first (by their text, `form`), indexed by its first two characters, so a
    text is searched only for the entries that can start in it: the advice grammar alone is
    several hundred phrases, and at market scale most of the lexicon's 4,000 names cannot start
    anywhere in a question."""

    entries: tuple[T, ...]
    by_head: dict[str, tuple[int, ...]]

    @classmethod
    def of(cls, entries: Iterable[T], form: Callable[[T], str]) -> HeadIndex[T]:
        ordered = tuple(sorted(entries, key=lambda e: len(form(e)), reverse=True))
        by_head: dict[str, list[int]] = {}
        for i, entry in enumerate(ordered):
            by_head.setdefault(form(entry)[:2], []).append(i)
        return cls(ordered, {head: tuple(ix) for head, ix in by_head.items()})

    def candidates(self, text: str) -> list[T]:
        found = {i for head in _heads(text) if head in self.by_head for i in self.by_head[head]}
        return [self.entries[i] for i in sorted(found)]


@lru_cache(maxsize=64)
def _heads(text: str) -> frozenset[str]:
    """The one- and two-character starts in a text (a question is searched ~30 times)."""
    return frozenset({text[i : i + 2] for i in range(len(text))} | set(text))


_Phrases = HeadIndex[tuple[str, str, bool]]  # (label, phrase without '^', tied to a word start)
_SORTED: dict[tuple[tuple[str, tuple[str, ...]], ...], _Phrases] = {}
_BY_IDENTITY: dict[tuple[tuple[str, int], ...], tuple[tuple[list[str], ...], _Phrases]] = {}


def _phrases_of(groups: dict[str, list[str]]) -> _Phrases:
    """The phrases of a group set, computed once per distinct content (a list built per call,
    '보다' + '대비' phrases, is the same set each time: keyed by identity it grew without end)."""
    lists = tuple(groups.values())
    identity = tuple((label, id(phrases)) for label, phrases in groups.items())  # labels too
    held = _BY_IDENTITY.get(identity)
    if held is not None and all(a is b for a, b in zip(held[0], lists, strict=True)):
        return held[1]  # the vocabulary's own lists: no need to hash their content
    key = tuple((label, tuple(phrases)) for label, phrases in groups.items())
    found = _SORTED.get(key)
    if found is None:
        found = _SORTED[key] = HeadIndex.of(
            [(label, form.removeprefix("^"), form.startswith("^")) for label, phrases in
             groups.items() for p in phrases if p.strip() for form in _spacings(p.lower())],
            lambda entry: entry[1])  # fmt: skip
    if len(_BY_IDENTITY) > 256:
        _BY_IDENTITY.clear()
    _BY_IDENTITY[identity] = (lists, found)  # the lists are held: their ids stay theirs
    return found


_HANGUL_GAP = re.compile(r"(?<=[가-힣]) (?=[가-힣])")


def _spacings(phrase: str) -> tuple[str, ...]:
    """A Korean phrase as written and with its inner spaces dropped ('보다 높' is also
    '보다높'), a compound noun also with spaces between its nouns ('시가총액' is also '시가
    총액'), an English one with its hyphens as spaces ('year-end' is also 'year end'):
    spacing is loose, so one entry covers every way of writing it."""
    forms = dict.fromkeys((phrase, _HANGUL_GAP.sub("", phrase), phrase.replace("-", " "),
                           *_noun_gaps(phrase)))  # fmt: skip
    return tuple(forms)


_COMPOUND = re.compile(r"\^?[가-힣]{4,}")


@lru_cache(maxsize=4096)
def _noun_gaps(phrase: str) -> tuple[str, ...]:
    """A compound noun written with a space at some or all of the seams between its nouns, as
    Kiwi reads them ('주가순자산비율' → '주가 순자산 비율', '주가 순자산비율', …)."""
    if not _COMPOUND.fullmatch(phrase):
        return ()
    from agents.understanding.morphemes import analyse  # Kiwi: only for compounds

    head = "^" if phrase.startswith("^") else ""
    parts = analyse(phrase.removeprefix("^"))
    if len(parts) < 2 or len(parts) > 4 or not all(t.tag.startswith("NN") for t in parts):
        return ()
    seams = [t.start for t in parts[1:]]
    word = phrase.removeprefix("^")
    forms = []
    for mask in range(1, 2 ** len(seams)):
        cut = [at for i, at in enumerate(seams) if mask >> i & 1]
        pieces = [word[a:b] for a, b in zip([0, *cut], [*cut, len(word)], strict=True)]
        forms.append(head + " ".join(pieces))
    return tuple(forms)


def _word_ok(text: str, phrase: str, start: int, end: int) -> bool:
    if not phrase.strip().isascii():
        return True
    start += len(phrase) - len(phrase.lstrip())  # ' vs': its own space is the boundary
    end -= len(phrase) - len(phrase.rstrip())
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    head, tail = phrase.strip()[0], phrase.strip()[-1]
    if _LATIN.match(head) and _LATIN.match(before):
        return False
    return not (_LATIN.match(tail) and _LATIN.match(after))


@lru_cache(maxsize=1)
def vocabulary_words() -> frozenset[str]:
    """Every word of every vocabulary phrase (to tell a known word from an unread one)."""
    words: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, str):
            words.update(re.findall(r"[0-9a-z가-힣&]+", value.lower()))
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for key, item in value.items():
                if key != "note":  # a group's note explains it with example names
                    walk(key)
                    walk(item)

    for key, value in vocabulary().items():
        # names, not words; a region's English name is known only if the region is held;
        # a figure's parts ('이익') are words only together, read as that figure
        if key not in ("note", "version", "company_suffixes", "region_names_en", "measure_parts"):
            walk(value)
    return frozenset(words)


def sector_members(key: str) -> list[str]:
    """The data's sectors a sector word stands for ('은행주' → 금융, '기술주' → four)."""
    spec = next((x for x in vocabulary()["sectors"] if x["key"] == key), None)
    return list(spec.get("data_sectors") or [key]) if spec else [key]


def sector_within(key: str) -> str | None:
    """The one data sector a narrower word was answered over ('보험주' → 금융), else None: the
    data holds no industry below its sectors, so the answer is over the whole sector, said."""
    members = sector_members(key)
    return members[0] if len(members) == 1 and members[0] != key else None


def region_members(region: str) -> list[str]:
    """'수도권' → 서울, 인천, 경기: a group of regions the vocabulary names by its members."""
    spec = next((s for s in vocabulary()["re_regions"] if s["key"] == region), None)
    return list(spec.get("members", [])) if spec else []


@lru_cache(maxsize=1)
def unheld_places() -> dict[str, list[str]]:
    """The places no series is held of, by the name an answer says: the vocabulary's list, and
    the regions it names in English that the housing data does not hold ('경남', '용산구')."""
    voc = vocabulary()
    held = {s["key"] for s in voc["re_regions"]}
    named = [k for k in voc["region_names_en"] if k not in held and k != "지방"]  # a group, said
    places = [*named, *(k.split()[-1] for k in named if " " in k)]
    return {**voc["unheld_regions"], "기타 지역": [*voc["unheld_regions"]["기타 지역"], *places]}
