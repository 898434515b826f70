"""Entity linking for question understanding: ETFs, stocks, tags, managers, macro series, market
indices and sector words in a question, each with its span.

The gazetteer comes from the data itself (`load_lexicon` reads PostgreSQL: names, English names
and the `entity_aliases` table) plus the vocabulary file (series aliases, indices, sector words,
brand transliterations such as 코덱스 → KODEX), so a new ETF or tag is recognized as soon as it
is loaded. Matching is longest-first over a spacing- and case-insensitive form of the question;
matched spans are masked so 'KODEX 반도체' is one ETF, not an ETF plus a tag. Each screen asks
for the kinds it answers about (`recognize(q, kinds=...)`): '코스닥' is a tag on the ETF screen
and a market index on the Macro screen.
"""

from __future__ import annotations

import re
import threading
import time
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from os.path import commonprefix
from typing import Any

from psycopg_pool import ConnectionPool

from agents.understanding.vocabulary import HeadIndex, occurrences, vocabulary, vocabulary_words
from data_access.catalog import current_as_of_date
from data_access.errors import WorkbenchError
from data_access.postgres import fetch_all, fetch_one

# English words for Korean tag names (tags are stored in Korean).
TAG_SYNONYMS: dict[str, str] = {
    "semiconductor": "반도체", "semiconductors": "반도체", "chip": "반도체", "chips": "반도체",
    "dividend": "배당", "dividends": "배당", "battery": "2차전지", "batteries": "2차전지",
    "secondary battery": "2차전지", "bank": "금융", "financial": "금융", "finance": "금융",
    "automobile": "자동차", "auto": "자동차", "bio": "바이오", "biotech": "바이오",
    "healthcare": "헬스케어", "construction": "건설", "steel": "철강", "shipbuilding": "조선",
    "defense": "방산", "internet": "인터넷", "game": "게임", "games": "게임", "robot": "로봇",
    "robotics": "로봇", "nuclear": "원전", "gold": "금", "oil": "원유", "crude oil": "원유",
    "bond": "채권", "bonds": "채권", "leverage": "레버리지", "leveraged": "레버리지", "inverse": "인버스",
    "kosdaq": "코스닥", "large cap": "대형주", "small cap": "중소형주", "s&p500": "미국S&P500",
    "s&p 500": "미국S&P500", "nasdaq": "미국나스닥", "treasury": "미국채", "dollar": "달러",
    "commodities": "원자재", "commodity": "원자재", "telecom": "통신", "media": "미디어엔터",
}  # fmt: skip
_MANAGER_SUFFIXES = ("투자신탁운용", "투자자산운용", "자산운용")
_HANGUL = re.compile(r"[\uac00-\ud7a3]")
_LATIN = re.compile(r"[a-z0-9&]")
_CACHE_TTL_S = 300.0
_MARKET_WORDS = ("미국", "국내", "코리아", "글로벌")

# a share-class note at the end of an ETF name, often left out when asked: (합성), (H), (합성 H)
_ENT = re.compile(r"\s*Ent\.?$")  # a name's English 'Ent.' is said '엔터' in Korean
_SHARE_CLASS = re.compile(r"\((?:합성|H|합성 H)\)$")


def fold(text: str) -> str:
    """Lower case without whitespace: the form both questions and names are matched in."""
    return "".join(text.split()).lower()  # str.split: the same whitespace as \s, no regex


@dataclass(frozen=True)
class Mention:
    kind: str  # etf | stock | tag | manager | series | index | sector
    key: str  # ETF/stock code, tag name, manager name, series code, index key, sector key
    name: str  # display name
    start: int  # span in the question as typed
    end: int = -1


@dataclass
class Lexicon:
    """Known names: ETFs (code → name), stocks (code → name, English name), tags, managers."""

    etfs: dict[str, str] = field(default_factory=dict)
    stocks: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    tags: list[str] = field(default_factory=list)
    managers: dict[str, str | None] = field(default_factory=dict)  # name → English name
    brands: dict[str, str] = field(default_factory=dict)  # 'KODEX' → manager name
    security_ids: dict[str, str] = field(default_factory=dict)  # stock code → security_id
    aliases: list[tuple[str, str, str]] = field(default_factory=list)  # (alias, kind, key)
    benchmarks: dict[str, str] = field(default_factory=dict)  # ETF code → benchmark index name
    fund_managers: dict[str, str] = field(default_factory=dict)  # ETF code → manager
    fund_tags: dict[str, list[str]] = field(default_factory=dict)  # ETF code → its themes
    sectors: list[str] = field(default_factory=list)  # the stocks' sectors in the data
    latest_session: str | None = None  # the data's last trading day: '그저께' is the one before
    _index: HeadIndex[tuple[str, str, str, str]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._index = HeadIndex.of(self._surfaces(), lambda s: s[0])

    def surface_forms(self) -> tuple[tuple[str, str, str, str], ...]:
        """(folded surface, kind, key, display name) of every name, longest first."""
        return self._index.entries

    def _surfaces(self) -> list[tuple[str, str, str, str]]:
        """(folded surface form, kind, key, display name) for every name we can recognize."""
        out = [(fold(n), "etf", c, n) for c, n in self.etfs.items()]
        names = set(self.etfs.values())
        for code, name in self.etfs.items():  # 'TIGER KOFR금리액티브' is '…액티브(합성)'
            bare = _SHARE_CLASS.sub("", name)
            if bare != name and bare not in names:
                out.append((fold(bare), "etf", code, name))
        for code, (name, name_en) in self.stocks.items():
            out.append((fold(name), "stock", code, name))
            if name_en:
                out.append((fold(name_en), "stock", code, name))
                bare_en = _CORPORATE_TAIL.sub("", name_en)  # 'KB Financial' for '… Group'
                if bare_en != name_en and len(bare_en) >= 4:
                    out.append((fold(bare_en), "stock", code, name))
            spoken = spelled_initials(name)
            if spoken != name:  # 'SK하이닉스' said '에스케이하이닉스', '삼성SDI' '삼성에스디아이'
                out.append((fold(spoken), "stock", code, name))
            if (said := _ENT.sub("엔터", name)) != name:  # 'JYP Ent.' said 'JYP엔터'
                out.append((fold(said), "stock", code, name))
        out += [(fold(t), "tag", t, t) for t in self.tags]
        out += [(fold(en), "tag", ko, ko) for en, ko in TAG_SYNONYMS.items() if ko in self.tags]
        for name, name_en in self.managers.items():
            out.append((fold(name), "manager", name, name))
            if name_en:
                out.append((fold(name_en), "manager", name, name))
        out += self._manager_english_short_forms()
        out += self._alias_surfaces()
        return [s for s in out if s[0]]

    def _alias_surfaces(self) -> list[tuple[str, str, str, str]]:
        """Aliases from the data and the vocabulary: stock nicknames, brand transliterations
        ('코덱스 200' → KODEX 200), macro series, market indices and sector words."""
        out: list[tuple[str, str, str, str]] = []
        for alias, kind, key in self.aliases:
            name = self.etfs.get(key) if kind == "etf" else (self.stocks.get(key) or (key,))[0]
            if name:
                out.append((fold(alias), kind, key, name))
        voc = vocabulary()
        said = voc["name_word_aliases"]  # '탑10' is TOP10 said in Korean
        for code, name in self.etfs.items():
            forms = [name] + [korean + name[len(brand) :] for korean, brand in
                              voc["brand_aliases"].items() if name.split()[0] == brand]  # fmt: skip
            out += [(fold(form), "etf", code, name) for form in forms[1:]]
            out += [(fold(form.replace(english, korean)), "etf", code, name) for form in forms
                    for korean, english in said.items() if english in form]  # fmt: skip
        for alias, tag in voc["tag_aliases"].items():
            if tag in self.tags:
                out.append((fold(alias), "tag", tag, tag))
        for spec in voc["series"]:
            for alias in [spec["code"], *spec["aliases"]]:
                out.append((fold(alias), "series", spec["code"], spec["name"]))
        for spec in voc["indices"]:
            out += [(fold(a), "index", spec["key"], spec["name"]) for a in spec["aliases"]]
        for spec in voc["sectors"]:
            out += [(fold(a), "sector", spec["key"], spec["key"]) for a in _sector_forms(spec)]
        named = {spec["key"] for spec in voc["sectors"]}
        for sector in (x for x in self.sectors if x not in named):  # '인터넷주', '통신 업종'
            out += [
                (fold(sector + suffix), "sector", sector, sector) for suffix in _SECTOR_SUFFIXES
            ]
        english = voc["region_names_en"]  # 'Daegu', 'Seoul Gangnam-gu': the names answers use
        for spec in voc["re_regions"]:
            said = {*spec["aliases"], *([english[spec["key"]]] if spec["key"] in english else [])}
            out += [(fold(a), "re_region", spec["key"], spec["key"]) for a in said]
        return out

    def _manager_english_short_forms(self) -> list[tuple[str, str, str, str]]:
        """'Mirae Asset' for 'Mirae Asset Global Investments' when no other manager shares it."""
        forms: dict[str, set[str]] = {}
        for name, name_en in self.managers.items():
            words = (name_en or "").split()
            if len(words) >= 3:
                forms.setdefault(fold(" ".join(words[:2])), set()).add(name)
        return [(form, "manager", next(iter(names)), next(iter(names)))
                for form, names in forms.items() if len(names) == 1]  # fmt: skip

    def recognize(self, question: str, kinds: frozenset[str] | None = None) -> list[Mention]:
        """Non-overlapping mentions of the given kinds (default: ETF-screen kinds), longest names
        first, in question order, with spans in the question as typed."""
        kinds = kinds or ETF_KINDS
        folded, gaps, where = _fold_mapped(question)
        taken = [False] * len(folded)
        found: list[Mention] = []
        for match in re.finditer(r"(?<![0-9A-Za-z])([0-9][0-9A-Z]{5})(?![0-9A-Za-z])", question):
            code = match.group(1)
            kind = "etf" if code in self.etfs else "stock" if code in self.stocks else None
            if kind and kind in kinds:
                name = self.etfs.get(code) or self.stocks[code][0]
                found.append(Mention(kind, code, name, match.start(), match.end()))
                a = folded.find(code.lower())
                taken[a : a + 6] = [True] * 6
        if "etf" in kinds:
            found += self._brand_names(folded, gaps, taken, where)
        if "stock" in kinds:  # US tickers written as tickers: 'NVDA and AAPL'
            # not glued to Hangul: 'HD현대중공업' is a Korean name, not Home Depot's ticker
            # nor spaced from the rest of one: 'HD 현대일렉트릭' folds to that company's name
            names: list[str] | None = None  # read only when a ticker is written
            for match in re.finditer(r"(?<![A-Za-z0-9])([A-Z]{2,5})(?![A-Za-z0-9가-힣])", question):
                code = match.group(1)
                if code in self.stocks and code not in self.etfs:
                    a = folded.find(code.lower())
                    if names is None:
                        names = [s for s, kind, _, _ in self._index.candidates(folded)
                                 if kind == "stock"]  # fmt: skip
                    longer = any(len(n) > len(code) and folded.startswith(n, a) for n in names)
                    if a >= 0 and not longer and not any(taken[a : a + len(code)]):
                        taken[a : a + len(code)] = [True] * len(code)
                        found.append(Mention("stock", code, self.stocks[code][0], match.start(),
                                             match.end()))  # fmt: skip
        for surface, kind, key, name in self._index.candidates(folded):
            if kind not in kinds:
                continue
            for a in occurrences(folded, surface):
                b = a + len(surface)
                if any(taken[a:b]) or not _bounded(folded, gaps, a, b, surface):
                    continue
                if kind == "tag" and name.isascii() and name.isupper() and name not in question:
                    continue  # 'IT' the theme, not 'it' the pronoun
                word_starts = kind in ("stock", "sector") or (kind == "index" and len(surface) <= 2)
                if (word_starts and _HANGUL.match(surface[0]) and a > 0 and a not in gaps
                        and _HANGUL.match(folded[a - 1])):  # fmt: skip
                    continue  # '소비자물가' holds '비자' (Visa), '이유가' '유가', '한화투자증권주가'
                    # '증권주': a Korean name of a stock, a sector or a short index starts a word
                if kind == "stock" and _longer_name(folded, gaps, b):
                    continue  # 'LG헬로비전', '카카오모빌리티': another company, not LG or 카카오
                taken[a:b] = [True] * (b - a)
                found.append(Mention(kind, key, name, where[a], where[b - 1] + 1))
        if "stock" in kinds:  # '한화에어로' is 한화에어로스페이스, not 한화 + '에어로'
            found = self._abbreviated_stocks(question, found)
        if "etf" in kinds:
            found += self._coordinated_brands(folded, gaps, taken, where, found)
        if "manager" in kinds:
            found += [Mention(m.kind, m.key, m.name, where[m.start], where[m.end - 1] + 1)
                      for m in self._manager_short_forms(folded, gaps, taken)]  # fmt: skip
        if "stock" in kinds:  # after the houses: '삼성 ETF' is the house, '삼성 주가' the stock
            found += self._weak_stock_aliases(folded, gaps, taken, where)
        unique: dict[tuple[str, str], Mention] = {}
        for m in sorted(found, key=lambda m: m.start):
            unique.setdefault((m.kind, m.key), m)
        return list(unique.values())

    def _weak_stock_aliases(self, folded: str, gaps: set[int], taken: list[bool],
                            where: list[int]) -> list[Mention]:  # fmt: skip
        """Group names that mean one stock when nothing else claimed them ('삼성 주가',
        'both Samsung and SK hynix' → 삼성전자); a longer company name is not them ('삼성카드')."""
        out: list[Mention] = []
        for alias, code in vocabulary()["weak_stock_aliases"].items():
            if code not in self.stocks:
                continue
            form = fold(alias)
            for a in occurrences(folded, form):
                b = a + len(form)
                if (any(taken[a:b]) or not _bounded(folded, gaps, a, b, form)
                        or _longer_name(folded, gaps, b)):  # fmt: skip
                    continue
                taken[a:b] = [True] * (b - a)
                out.append(Mention("stock", code, self.stocks[code][0], where[a], where[b - 1] + 1))
        return out

    def _brand_names(self, folded: str, gaps: set[int], taken: list[bool],
                     where: list[int]) -> list[Mention]:  # fmt: skip
        """A brand and an abbreviated rest of a name: '타이거 S&P500' is TIGER 미국S&P500 when
        exactly that ETF's name, without a market word such as '미국', starts the rest."""
        by_brand = self._brand_index
        out: list[Mention] = []
        for brand_form, entries in by_brand.items():
            for a in occurrences(folded, brand_form):
                b = a + len(brand_form)
                if any(taken[a:b]) or (a > 0 and a not in gaps and _LATIN.match(folded[a - 1])):
                    continue
                rest = folded[b:]
                hits = [
                    (len(tail), code) for tail, code in entries if tail and rest.startswith(tail)
                ] or _said_in_part(rest, entries, b, gaps)
                if (best := _one_longest(hits)) is None:
                    continue  # none, or two ETFs fit equally: not a name, leave it to the others
                length, code = best
                end = b + length
                if (end < len(folded) and end not in gaps and _LATIN.match(folded[end - 1])
                        and _LATIN.match(folded[end])):  # fmt: skip
                    continue  # letters glued on: 'TIGER Nasdaq100 close' (a space ends the name)
                taken[a:end] = [True] * (end - a)
                out.append(Mention("etf", code, self.etfs[code], where[a], where[end - 1] + 1))
        return out

    def _abbreviated_stocks(self, question: str, found: list[Mention]) -> list[Mention]:
        """A word that begins exactly one stock's name and is longer than any name found inside
        it ('삼성바이오' → 삼성바이오로직스, 'LG에너지' → LG에너지솔루션) names that stock; a
        particle after it is left out ('한화에어로의')."""
        index = self._name_prefixes
        out = list(found)
        for word in _WORD.finditer(question):
            a, b = word.span()
            inside = [m for m in out if a <= m.start and m.end <= b]
            if (any(m.end - m.start == b - a for m in inside)
                    or any(m.kind != "stock" for m in inside)):  # fmt: skip
                continue  # the word is a whole name already, or something else
            text = word.group(0)
            if not _HANGUL.search(text) or self._names_a_manager(text):
                continue  # English words begin names by chance ('the' → Thermo Fisher)
            for cut in (text, text[:-1] if text[-1] in _PARTICLES else None):
                if cut and len(cut) >= 3 and (code := index.get(cut.lower())):
                    out = [m for m in out if m not in inside]
                    out.append(Mention("stock", code, self.stocks[code][0], a, a + len(cut)))
                    break
        return out

    def _names_a_manager(self, word: str) -> bool:
        """'미래에셋' is the manager's short form (미래에셋자산운용), not 미래에셋증권."""
        low = word.lower()
        return any(name.lower().startswith(low) for name in self.managers) or any(
            fold(brand) == fold(word) for brand in self.brands)  # fmt: skip

    @cached_property
    def _name_prefixes(self) -> dict[str, str]:
        """Prefix (3 characters or more, shorter than the name, with Hangul) → the one stock it
        begins."""
        seen: dict[str, set[str]] = {}
        for code, (name, _) in self.stocks.items():
            low = name.lower()
            for n in range(3, len(low)):
                seen.setdefault(low[:n], set()).add(code)
        names = {n.lower() for n, _ in self.stocks.values()}
        return {p: next(iter(c)) for p, c in seen.items() if len(c) == 1 and p not in names}

    def _coordinated_brands(self, folded: str, gaps: set[int], taken: list[bool],
                            where: list[int], found: list[Mention]) -> list[Mention]:  # fmt: skip
        """Brands listed with one shared rest of a name: '코스피200 ETF 코덱스 타이거 ACE',
        'KODEX 200과 TIGER 비교' — each bare brand takes the longest rest written elsewhere in
        the question that names exactly one of its ETFs."""
        by_brand = self._brand_index
        bare = [(a, a + len(form), form) for form in by_brand for a in occurrences(folded, form)
                if not any(taken[a : a + len(form)])
                and _bounded(folded, gaps, a, a + len(form), form)]  # fmt: skip
        if not bare or (len(bare) < 2 and not any(m.kind == "etf" for m in found)):
            return []
        out = []
        for a, b, form in bare:
            outside = folded[:a] + "\0" * (b - a) + folded[b:]
            hits = [(len(tail), code) for tail, code in by_brand[form]
                    if len(tail) >= 2 and tail in outside]  # fmt: skip
            if (best := _one_longest(hits)) is None:
                continue  # none, or two of its ETFs fit equally
            code = best[1]
            taken[a:b] = [True] * (b - a)
            out.append(Mention("etf", code, self.etfs[code], where[a], where[b - 1] + 1))
        return out

    @cached_property
    def _brand_index(self) -> dict[str, list[tuple[str, str]]]:
        aliases = {v: k for k, v in vocabulary()["brand_aliases"].items()}
        said = vocabulary()["name_word_aliases"]
        synonyms = [(fold(en), fold(ko)) for en, ko in TAG_SYNONYMS.items()]  # not per ETF
        index: dict[str, list[tuple[str, str]]] = {}
        for code, name in self.etfs.items():
            words = name.split()
            if len(words) < 2:
                continue
            rest = fold(" ".join(words[1:]))
            tails = {rest} | {rest[len(w) :] for w in _MARKET_WORDS if rest.startswith(w)}
            if self.benchmarks.get(code):  # '타이거 코스피200' is TIGER 200 (코스피 200)
                tails.add(fold(self.benchmarks[code]))
            # 'TIGER Semiconductor' is TIGER 반도체: a theme tail said in English
            tails |= {en for en, ko in synonyms if ko in tails}
            tails |= {t.replace(fold(en), ko) for t in tails for ko, en in said.items()
                      if fold(en) in t}  # '타이거 반도체 탑10': TOP10 said in Korean  # fmt: skip
            for form in {fold(words[0]), fold(aliases.get(words[0], words[0]))}:
                index.setdefault(form, []).extend((t, code) for t in tails if t)
        return index

    def _manager_short_forms(self, folded: str, gaps: set[int], taken: list[bool]) -> list[Mention]:
        """'미래에셋 ETF', '삼성에서 운용하는', '삼성자산 ETF', 'Samsung's ETFs': a manager named by a
        short form, followed by a word about funds; a brand alone ('KODEX 평균 보수') where no
        ETF name took it."""
        out = []
        for form, manager, pattern, whole_word in self._manager_patterns:
            if form not in folded:
                continue  # most questions name no house: skip the regex
            for m in pattern.finditer(folded):
                a, b = m.start(), m.start() + len(form)
                ends = b == len(folded) or b in gaps or not _WORD.match(folded[b])
                if whole_word and not ends:
                    continue  # 'KODEX200' is an ETF's name, 'KODEX 평균' the house
                if not any(taken[a:b]):
                    taken[a:b] = [True] * (b - a)
                    out.append(Mention("manager", manager, manager, a, b))
        return out

    @cached_property
    def _manager_patterns(self) -> list[tuple[str, str, re.Pattern[str], bool]]:
        """(short form, manager, its pattern, must end a word), longest first — built once per
        lexicon (they were rebuilt for every question: 1.8 ms of each at market scale)."""
        brands = {fold(b): m for b, m in self.brands.items()}
        for alias, brand in vocabulary()["brand_aliases"].items():  # '코덱스 평균 보수'
            if brand in self.brands and len(alias) >= 3:  # not '솔' alone
                brands.setdefault(fold(alias), self.brands[brand])
        forms: dict[str, str] = {}
        for name in self.managers:
            for suffix in _MANAGER_SUFFIXES:
                if name.endswith(suffix) and len(name) > len(suffix) + 1:
                    forms[fold(name[: -len(suffix)])] = name
                    forms[fold(name[: -len(suffix)] + suffix[:-2])] = name  # '삼성자산'
        for alias, name in vocabulary()["manager_aliases"].items():
            if name in self.managers:  # '한투운용', 'KIM ETF': what analysts call the house
                forms.setdefault(fold(alias), name)
        alone = {fold(a) for a in vocabulary()["manager_aliases_alone"]["aliases"]}
        # '미래에셋 반도체 ETF': a theme may stand between the house and the fund word
        themes = "|".join(re.escape(fold(t)) for t in sorted(self.tags, key=len, reverse=True))
        fund_after = _FUND_WORD_AFTER.replace("(?=", f"(?=(?:{themes})?", 1) if themes else (
            _FUND_WORD_AFTER)  # fmt: skip
        patterns = [(form, manager, re.escape(form) + ("" if form in alone else fund_after))
                    for form, manager in forms.items()]  # fmt: skip
        patterns += [(form, manager, re.escape(form)) for form, manager in brands.items()]
        # 'ETFs managed by Samsung': a house word before the short form names the house too
        patterns += [(form, manager, _HOUSE_WORD_BEFORE + re.escape(form))
                     for form, manager in forms.items() if form not in alone]  # fmt: skip
        return [(form, manager, re.compile(pattern), form in brands or form in alone)
                for form, manager, pattern in sorted(patterns, key=lambda f: len(f[0]), reverse=True)]  # fmt: skip


# what follows a house's short form when it names the house: a fund word, maybe after a particle
_HOUSE_WORD_BEFORE = (r"(?:(?<=managedby)|(?<=issuedby)|(?<=offeredby)|(?<=runby)|(?<=from)"
                      r"|(?<=운용사가)|(?<=운용사는)|(?<=운용사))")  # '운용사가 미래에셋인 …'  # fmt: skip
_FUND_WORD_AFTER = (r"(?=((이랑|랑|과|와|하고|및|and|,)[가-힣a-z]{2,8}?)?"  # '미래에셋이랑 삼성 ETF'
                    r"(에서|의|가|이|'s|s)?(쪽|측|계열|거|것)?(에서|이|가)?"
                    r"(나온|만든|출시한|내놓은|운용하는)?(운용|etf|상품|시리즈|브랜드|라인업|계열|펀드|fund))")  # fmt: skip
# ('삼성 쪽 ETF', '삼성에서 나온 ETF': what sits between the house and the fund word)


_WORD = re.compile(r"[0-9A-Za-z가-힣&]+")
_PARTICLES = "의은는이가을를도와과랑"
_PARTICLES_ONE = tuple(_PARTICLES)

ETF_KINDS = frozenset({"etf", "stock", "tag", "manager"})
MACRO_KINDS = frozenset({"stock", "series", "index", "sector", "re_region"})


_SECTOR_SUFFIXES = (
    "섹터",
    "업종",
    "주",
    "종목",
    "관련주",
    "사",
    "회사",
    "기업",
    "업체",
)  # '지주사', '지주회사'


def _sector_forms(spec: dict[str, Any]) -> list[str]:
    """A sector's aliases plus the everyday forms of its name ('반도체 섹터', '조선 업종', 'chip
    sector' beside 'chip stocks')."""
    english = [a[: -len(" stocks")] + " sector" for a in spec["aliases"] if a.endswith(" stocks")]
    return [*spec["aliases"], *(spec["key"] + s for s in _SECTOR_SUFFIXES), *english]


_ENDINGS = ("에서", "에게", "보다", "하고", "이랑", "까지", "부터", "으로", "처럼", "만", "에",
            "로", *_PARTICLES_ONE)  # fmt: skip
_LONG_ENDINGS = tuple(e for e in _ENDINGS if len(e) > 1)


# the corporate word an English name is said without ('KB Financial', 'Hanwha Aerospace')
_CORPORATE_TAIL = re.compile(
    r"\s+(?:group|holdings?|co\.?,?\s*ltd\.?|co\.?|corp(?:oration)?\.?|inc\.?|ltd\.?|company)$",
    re.IGNORECASE,
)


@lru_cache(maxsize=1)
def _company_suffixes() -> frozenset[str]:
    return frozenset(fold(w) for w in vocabulary()["company_suffixes"])


def _longer_name(folded: str, gaps: set[int], b: int) -> bool:
    """Whether the word a name ends in goes on into a name we do not hold: the rest of the word
    is neither a particle ('삼성전자의', 'SK하이닉스랑') nor a question word ('삼성전자주가'), or
    the next word is a company word ('카카오 모빌리티')."""
    if b >= len(folded):
        return False
    end = min([g for g in gaps if g > b] + [len(folded)])
    word = re.sub(r"[^0-9a-z가-힣&]+$", "", folded[b:end])
    if b in gaps:
        return word in _company_suffixes()
    if not word or not _WORD.match(folded[b]) or word in _ENDINGS or word.startswith(_LONG_ENDINGS):
        return False  # '삼성전자의', '삼성전자에서는' (one syllable alone: 'SK이터닉스' is a name)
    if any(word.startswith(s) or (len(word) >= 2 and s.startswith(word))
           for s in _company_suffixes()):  # fmt: skip
        return True  # '한화에너지', '셀트리온헬스': a group name and a business word (or its start)
    words, endings = vocabulary_words(), (*_ENDINGS, "")
    return not any(word[:k] in words and word[k:] in endings for k in range(2, len(word) + 1))


_LETTER_NAMES = dict(zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", (
    "에이 비 씨 디 이 에프 지 에이치 아이 제이 케이 엘 엠 엔 오 피 큐 알 에스 티 유 브이 더블유 엑스 "
    "와이 제트").split(), strict=True)) | {"&": "앤"}  # fmt: skip
# 'SK', 'KT&G' (said '케이티앤지'), 'E&A'; a lone capital is a word's, not an initial
_INITIALS = re.compile(r"(?<![A-Za-z])(?:[A-Z]{1,4}(?:&[A-Z]{1,4})+|[A-Z]{2,4})(?![A-Za-z])")


def spelled_initials(name: str) -> str:
    """A name's upper-case initials as Koreans say them letter by letter ('SK' → '에스케이');
    whole words ('NAVER', 'POSCO') are left alone."""
    return _INITIALS.sub(lambda m: "".join(_LETTER_NAMES[ch] for ch in m.group(0)), name)


def _fold_mapped(text: str) -> tuple[str, set[int], list[int]]:
    """`fold(text)`, the folded positions that had whitespace before them in `text` and, per
    folded character, its index in `text`."""
    folded: list[str] = []
    gaps: set[int] = set()
    for ch in text.lower():
        if ch.isspace():
            gaps.add(len(folded))
        else:
            folded.append(ch)
    return "".join(folded), gaps, [i for i, ch in enumerate(text) if not ch.isspace()]


def _bounded(folded: str, gaps: set[int], a: int, b: int, surface: str) -> bool:
    """Latin names need non-Latin neighbours; one-syllable Korean names need non-Hangul ones."""
    before = folded[a - 1] if a > 0 and a not in gaps else " "
    after = folded[b] if b < len(folded) and b not in gaps else " "
    if _LATIN.fullmatch(surface[-1]) and _LATIN.match(after):
        return False
    if _LATIN.fullmatch(surface[0]) and _LATIN.match(before):
        return False
    return not (len(surface) == 1 and (_HANGUL.match(before) or _HANGUL.match(after)))


def _brands(etfs: dict[str, str], managed_by: dict[str, str]) -> dict[str, str]:
    """A brand (first word of ETF names) maps to a manager when all its ETFs share that manager."""
    seen: dict[str, set[str]] = {}
    for code, name in etfs.items():
        brand = name.split()[0] if name.split() else ""
        if len(brand) >= 2 and code in managed_by:
            seen.setdefault(brand, set()).add(managed_by[code])
    return {b: next(iter(m)) for b, m in seen.items() if len(m) == 1}


def load_lexicon(pool: ConnectionPool | None = None) -> Lexicon:
    etf_rows = fetch_all("SELECT code, name, manager, benchmark FROM etfs ORDER BY code", pool=pool)
    stock_rows = fetch_all("SELECT code, name, name_en, security_id FROM stocks WHERE NOT is_etf "
                           "ORDER BY security_id", pool=pool)  # fmt: skip
    alias_rows = fetch_all("SELECT kind, alias, target FROM entity_aliases", pool=pool)
    tag_rows = fetch_all("SELECT etf_code, tag FROM etf_tags ORDER BY tag, etf_code", pool=pool)
    manager_rows = fetch_all("SELECT name, name_en FROM managers ORDER BY name", pool=pool)
    sector_rows = fetch_all("SELECT DISTINCT sector FROM stocks WHERE sector IS NOT NULL AND NOT "
                            "is_etf ORDER BY sector", pool=pool)  # fmt: skip
    etfs = {r["code"]: r["name"] for r in etf_rows}
    fund_tags: dict[str, list[str]] = {}  # one pass over the tag rows, not one per fund
    for r in tag_rows:
        fund_tags.setdefault(r["etf_code"], []).append(r["tag"])
    stocks: dict[str, tuple[str, str | None]] = {}
    security_ids: dict[str, str] = {}
    for r in stock_rows:
        stocks.setdefault(r["code"], (r["name"], r["name_en"]))
        security_ids.setdefault(r["code"], r["security_id"])
    code_of = {sid: code for code, sid in security_ids.items()}
    aliases = [(str(r["alias"]), str(r["kind"]), str(code_of.get(r["target"], r["target"])))
               for r in alias_rows]  # fmt: skip
    aliases += [(a, "stock", c) for a, c in vocabulary()["stock_aliases"].items() if c in stocks]
    return Lexicon(
        etfs=etfs, stocks=stocks, tags=list(dict.fromkeys(r["tag"] for r in tag_rows)),
        fund_tags=fund_tags,
        managers={r["name"]: r["name_en"] for r in manager_rows},
        brands=_brands(etfs, {r["code"]: r["manager"] for r in etf_rows}),
        security_ids=security_ids, aliases=[a for a in aliases if a[1] in ("etf", "stock")],
        benchmarks={r["code"]: r["benchmark"] for r in etf_rows if r.get("benchmark")},
        fund_managers={r["code"]: r["manager"] for r in etf_rows if r.get("manager")},
        sectors=[r["sector"] for r in sector_rows],
        latest_session=current_as_of_date(pool).isoformat(),
    )  # fmt: skip


_cached: dict[str, tuple[float, str, Lexicon]] = {}
_lock = threading.Lock()
# how many names there are: an import or upload that adds a stock, an ETF or an alias changes it
_NAMES_VERSION = ("SELECT (SELECT count(*) FROM stocks) AS stocks, (SELECT count(*) FROM etfs) AS "
                  "etfs, (SELECT count(*) FROM entity_aliases) AS aliases")  # fmt: skip


def cached_lexicon(pool: ConnectionPool | None = None) -> Lexicon:
    """The lexicon of one database (keyed by the pool's conninfo), reloaded when its names were
    added to (an import: the next question knows the new stock) and at most every five minutes
    otherwise; a second database (a private test stack, an external PostgreSQL) has its own."""
    key = str(getattr(pool, "conninfo", "") or "default")
    version = _names_version(pool)
    with _lock:
        found = _cached.get(key)
        stale = found is None or time.monotonic() - found[0] > _CACHE_TTL_S or found[1] != version
        if stale:
            found = _cached[key] = (time.monotonic(), version, load_lexicon(pool))
        assert found is not None
        return found[2]


def _names_version(pool: ConnectionPool | None) -> str:
    try:
        row = fetch_one(_NAMES_VERSION, pool=pool)
    except WorkbenchError:
        return ""  # the load itself says what is wrong
    return "" if row is None else f"{row['stocks']}/{row['etfs']}/{row['aliases']}"


def _said_in_part(rest: str, entries: list[tuple[str, str]], at: int,
                  gaps: set[int]) -> list[tuple[int, str]]:  # fmt: skip
    """'TIGER 미국필라델피아 반도체' for TIGER 미국필라델피아반도체나스닥: the words said are the
    start of one of the brand's names (five letters or more, ending where a word ends): each
    (letters said, code) once, for `_one_longest` to pick."""
    found = {(n, code) for tail, code in entries if (n := len(commonprefix([rest, tail]))) >= 5
             and (at + n in gaps or n == len(rest))}  # fmt: skip
    return list(found)


def _one_longest(hits: list[tuple[int, str]]) -> tuple[int, str] | None:
    """The longest (length, code) when no other hit is as long: two names that fit a brand's
    words equally are neither."""
    best = max(hits, default=None)
    return best if best is not None and sum(n == best[0] for n, _ in hits) == 1 else None
