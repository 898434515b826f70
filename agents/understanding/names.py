"""One fuzzy name linker for every screen (issue 31): a word the exact lexicon did not link
is compared, letter by letter (Hangul split into jamo), with every name of the asked kinds.

    link_typos("SK하이닉쓰 종가", lexicon, frozenset({"stock"}), taken=[])
    # [FuzzyLink(surface='SK하이닉쓰', kind='stock', key='000660', name='SK하이닉스', edits=1)]

A unique name within two letters is linked (the answer says so on its first line); several close names of
different things are returned as `candidates` so the screen asks which; nothing close links
nothing. Words of the vocabulary ('순자산', '수익률') are never names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from agents.understanding.lexicon import Lexicon, fold
from agents.understanding.morphemes import Morpheme, analyse
from agents.understanding.vocabulary import vocabulary
from data_access.seed.news_text import josa

# a typo is a letter or two (jamo) away: '삼성전쟈' → 삼성전자 is 1, '한화투자증권' → 한국투자증권 is 3
MAX_EDITS = 2
_MAX_WORDS = 7  # morphemes in one name ('TIGER 미국 S & P 500')
_NAME_TAGS = ("SL", "NNP", "NNG", "SH", "SN")
_HANGUL_BASE, _HANGUL_LAST = 0xAC00, 0xD7A3
_INITIALS = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ"
_MEDIALS = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ"
_FINALS = " ㄱㄲㄳㄴㄵㄶㄷㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅄㅅㅆㅇㅈㅊㅋㅌㅍㅎ"


def jamo(text: str) -> str:
    """Hangul syllables split into their letters ('성' → 'ㅅㅓㅇ'); other characters kept."""
    out = []
    for ch in text:
        code = ord(ch)
        if _HANGUL_BASE <= code <= _HANGUL_LAST:
            index = code - _HANGUL_BASE
            out.append(_INITIALS[index // 588] + _MEDIALS[(index % 588) // 28])
            final = _FINALS[index % 28]
            if final != " ":
                out.append(final)
        else:
            out.append(ch)
    return "".join(out)


@dataclass(frozen=True)
class FuzzyLink:
    surface: str  # the words as typed
    start: int
    end: int
    kind: str
    key: str
    name: str
    edits: int  # jamo edits from the typed words to the name
    candidates: tuple[str, ...] = field(default_factory=tuple)  # several close names: ask which

    @property
    def unique(self) -> bool:
        return not self.candidates


Row = tuple[str, str, str, str]  # (jamo form, kind, key, display name)
_CACHE: dict[tuple[int, frozenset[str]], tuple[Lexicon, list[str], list[Row]]] = {}


def _names(lexicon: Lexicon, kinds: frozenset[str]) -> tuple[list[str], list[Row]]:
    """The jamo forms of the linkable names (ETFs, stocks, managers), once per lexicon."""
    held = (id(lexicon), kinds)
    if held not in _CACHE or _CACHE[held][0] is not lexicon:
        if len(_CACHE) > 16:
            _CACHE.clear()
        rows: list[Row] = [(jamo(s), kind, key, name) for s, kind, key, name in lexicon.surface_forms()
                if kind in kinds and kind in ("etf", "stock", "manager") and len(s) >= 3]  # fmt: skip
        _CACHE[held] = (lexicon, [r[0] for r in rows], rows)
    return _CACHE[held][1], _CACHE[held][2]


def link_typos(question: str, lexicon: Lexicon, kinds: frozenset[str],
               taken: list[tuple[int, int]], known_words: frozenset[str] = frozenset(),
               ) -> list[FuzzyLink]:  # fmt: skip
    """Close names for the stretches of unlinked name-like words (at most one link per
    stretch, the longest stretch that links)."""
    choices, rows = _names(lexicon, kinds)
    if not choices:
        return []
    out: list[FuzzyLink] = []
    tokens = analyse(question)
    for run in _runs(tokens, taken):
        found = [link for i in _starts(run, known_words, question) for size in range(1, _MAX_WORDS + 1)
                 if i + size <= len(run) and (link := _best(question, run[i : i + size], choices, rows))
                 and not _cuts_a_noun(question, tokens, link.end)]  # fmt: skip
        if found:  # the closest reading ('TIGR 반도체', not 'TIGR 반도체 6')
            out.append(min(found, key=lambda link: (link.edits, link.start - link.end)))
    linked = taken + [(link.start, link.end) for link in out]
    for word in _odd_words(question, tokens, linked, known_words):
        if link := _closest(question, *word, choices, rows):
            out.append(link)
    return out


# Kiwi's pieces for a word it could not read as one ('하이부': 하/IC + 이/NR + 부/NNB)
_ODD_TAGS = ("IC", "NR", "NNB", "MM", "XR", "UN", "W_")


def _odd_words(question: str, tokens: tuple[Morpheme, ...], taken: list[tuple[int, int]],
               known_words: frozenset[str]) -> list[tuple[int, int]]:  # fmt: skip
    """Written words (without their particle) that Kiwi broke into odd pieces, outside the
    names and words already read: where a misspelt name the name-like runs miss may be."""
    out = []
    for m in re.finditer(r"[가-힣A-Za-z0-9]{3,}", question):
        inside = [t for t in tokens if m.start() <= t.start < m.end()]
        if any(a < m.end() and m.start() < b for a, b in taken) or not any(
                t.tag.startswith(_ODD_TAGS) for t in inside) or m.group(0) in known_words:  # fmt: skip
            continue
        body = [t for t in inside if not t.tag.startswith(("J", "E"))]
        if body and body[-1].end - m.start() >= 3:
            out.append((m.start(), body[-1].end))
    return out


def _cuts_a_noun(question: str, tokens: tuple[Morpheme, ...], end: int,
                 kept: tuple[str, ...] = ("J", "E", "X", "V")) -> bool:  # fmt: skip
    """A link ending inside a written word whose rest is a noun ('TIGER 2차' of '2차전지' is no
    typo of TIGER 200); a rest that is an ending or a verb piece ('삼성바이오로직슨') is the typo's.
    `kept`: the tags a rest may have."""
    if end >= len(question) or not question[end].isalnum():
        return False
    word_end = end
    while word_end < len(question) and question[word_end].isalnum():
        word_end += 1
    return any(not t.tag.startswith(kept) for t in tokens if end <= t.start < word_end)


def _cuts_a_word(question: str, tokens: tuple[Morpheme, ...], end: int) -> bool:
    """A name said short ends where a written word does, or before its particle ('원유선물은')."""
    return _cuts_a_noun(question, tokens, end, kept=("J", "E"))


def link_name_words(question: str, lexicon: Lexicon, kinds: frozenset[str],
                    taken: list[tuple[int, int]], known_words: frozenset[str] = frozenset(),
                    ) -> list[FuzzyLink]:  # fmt: skip
    """A Latin word that names exactly one stock by its English name's leading word ('Meta' of
    Meta Platforms, 'hynix' of SK hynix after a short prefix): that stock. A word several names
    share, a later word ('Platforms', 'Motor'), or such a word the vocabulary knows links nothing."""
    if "stock" not in kinds:
        return []
    owners, others = _english_words(lexicon)
    out = []
    for m in re.finditer(r"[A-Za-z][A-Za-z&.\-]{3,}", question):
        word = m.group(0).lower()
        if any(a < m.end() and m.start() < b for a, b in taken) or fold(word) in others:
            continue  # 'Seoul' is the region before it is Seoul Semiconductor's first word
        codes = owners.get(word, set())
        if word in known_words and word.upper() not in lexicon.stocks:
            continue  # a word the vocabulary reads ('Korean' is not Korean Air; 'Meta' is META)
        if len(codes) == 1:
            code = next(iter(codes))
            out.append(FuzzyLink(m.group(0), m.start(), m.end(), "stock", code,
                                 lexicon.stocks[code][0], 0))  # fmt: skip
    return out


def link_short_names(question: str, lexicon: Lexicon, taken: list[tuple[int, int]],
                     ) -> list[FuzzyLink]:  # fmt: skip
    """A fund said by the start of its name ('TIGER 원유선물' for TIGER 원유선물Enhanced(H)): the
    one fund whose name starts with a brand and the words after it (up to three), the longest
    such start. Words several funds start with ('TIGER 2차전지') stay the set they name."""
    tokens = analyse(question)
    brands, names = _fund_names(lexicon)
    korean = _korean_brands()  # '코덱스' → kodex
    out = []
    for i, t in enumerate(tokens):
        brand = korean.get(fold(t.form), fold(t.form))
        if brand not in brands or any(a <= t.start < b for a, b in taken):
            continue
        ends = [u.end for u in tokens[i + 1 :] if question.count(" ", t.end, u.end) <= 3]
        for end in reversed(ends):
            said = brand + fold(question[t.end : end])
            fits = [(code, n) for folded, code, n in names if folded.startswith(said)]
            if (len(said) - len(brand) >= 2 and len(fits) == 1 and fold(fits[0][1]) != said
                    and not _cuts_a_word(question, tokens, end)):  # fmt: skip
                out.append(FuzzyLink(question[t.start : end], t.start, end, "etf", *fits[0], 0))
                break
    return out


@lru_cache(maxsize=1)
def _korean_brands() -> dict[str, str]:
    """The folded Korean brand words and the brand each stands for ('코덱스' → kodex), once."""
    return {fold(k): fold(v) for k, v in vocabulary()["brand_aliases"].items()}


_FUNDS_CACHE: dict[int, tuple[Lexicon, frozenset[str], list[tuple[str, str, str]]]] = {}


def _fund_names(lexicon: Lexicon) -> tuple[frozenset[str], list[tuple[str, str, str]]]:
    """The folded brands and (folded name, code, name) of every fund, once per lexicon."""
    held = _FUNDS_CACHE.get(id(lexicon))
    if held is None or held[0] is not lexicon:
        _FUNDS_CACHE.clear()
        _FUNDS_CACHE[id(lexicon)] = held = (
            lexicon, frozenset(fold(b) for b in lexicon.brands),
            [(fold(n), code, n) for code, n in lexicon.etfs.items()])  # fmt: skip
    return held[1], held[2]


_WORDS_CACHE: dict[int, tuple[Lexicon, dict[str, set[str]], frozenset[str]]] = {}


def _english_words(lexicon: Lexicon) -> tuple[dict[str, set[str]], frozenset[str]]:
    """The leading word of each stock's English name → its stocks, and the words left to other
    readers (once per lexicon): every whole name ('Kakao Mobility' is another company; a whole
    name is the exact reader's) and the houses' first words ('Samsung's ETFs' is the house)."""
    held = _WORDS_CACHE.get(id(lexicon))
    if held is None or held[0] is not lexicon:
        owners: dict[str, set[str]] = {}
        for code, (name, name_en) in lexicon.stocks.items():  # US names are English already
            for english in (name, name_en or ""):
                words = re.findall(r"[a-z][a-z&.\-]+", english.lower()) if english.isascii() else []
                # the leading word, or the one after a short prefix ('SK hynix', 'LG Chem')
                lead = words[1:2] if words and len(words[0]) <= 3 else words[:1]
                for w in lead:
                    owners.setdefault(w, set()).add(code)
        others = frozenset({form for form, *_ in lexicon.surface_forms()} | {
            (name_en or "").split()[0].lower() for name_en in lexicon.managers.values() if name_en})  # fmt: skip
        _WORDS_CACHE.clear()
        _WORDS_CACHE[id(lexicon)] = held = (lexicon, owners, others)
    return held[1], held[2]


def _runs(tokens: tuple[Morpheme, ...], taken: list[tuple[int, int]]) -> list[list[Morpheme]]:
    """Maximal runs of adjacent name-like words outside linked names."""
    runs: list[list[Morpheme]] = []
    for t in tokens:
        joiner = t.form in ("&", "-", ".") and bool(runs and runs[-1])  # 'S&P500', 'K-뷰티'
        # '코스삑' is 코스 + 삑 (an adverb) to Kiwi: a piece glued to a name-like word is its part
        glued = bool(runs and runs[-1]) and t.start == runs[-1][-1].end and t.tag[0] not in "JES"
        free = (t.tag in _NAME_TAGS or joiner or glued) and not any(a < t.end and t.start < b
                                                                     for a, b in taken)  # fmt: skip
        if not free:
            runs.append([])
        elif runs and runs[-1] and t.start - runs[-1][-1].end <= 1:
            runs[-1].append(t)
        else:
            runs.append([t])
    return [r for r in runs if r]


def _starts(run: list[Morpheme], known_words: frozenset[str], question: str) -> list[int]:
    """Where a name may start: at a word's beginning ('한화투자증권' does not hold a name
    starting at '투자'), not a number, and not a vocabulary word unless letters follow it in
    the same written word ('SK하이닉쓰', '삼성전쟈' however Kiwi splits it: 'SK' and '삼성'
    alone are words, here they start a name; '코스피200' is the index)."""
    return [i for i, t in enumerate(run) if t.tag != "SN"
            # '수익', '상위', '인덱스': common nouns Kiwi knows are words, not misspelt names —
            # unless a piece no noun takes is glued to it ('삼성전저': 삼성전 + 저/XPN)
            and (t.tag != "NNG" or (len(t.form) >= 3 and (t.oov or _odd_glue(run[i + 1:], t))))
            and (t.start == 0 or not question[t.start - 1].isalnum())
            and (t.form.lower() not in known_words
                 or (t.end < len(question) and question[t.end].isalpha()))]  # fmt: skip


def _odd_glue(rest: list[Morpheme], word: Morpheme) -> bool:
    """A piece glued to the word that is neither a noun nor grammar (particle, ending, suffix)."""
    end = word.end
    for t in rest:
        if t.start != end:
            return False
        if t.tag[0] not in "NJE" and not t.tag.startswith("XS"):
            return True
        end = t.end
    return False


def _best(question: str, words: list[Morpheme], choices: list[str],
          rows: list[Row]) -> FuzzyLink | None:  # fmt: skip
    """The name within MAX_EDITS letters (jamo) of the words, or of their whole word — Kiwi may
    read a typo's last syllable as an ending ('삼성바이오로직슨': …로직 + 슬/VV + ᆫ); None when none
    or exact."""
    end = words[-1].end
    whole = end
    while whole < len(question) and question[whole].isalnum():
        whole += 1
    # '… TOP10' written apart after the typo ('TIGER 반도채 TOP10'): a Latin word of the name
    more = _LATIN_AFTER.match(question, whole)
    stops = {end, whole, more.end() if more else whole}
    links = [_closest(question, words[0].start, stop, choices, rows) for stop in stops]
    found = [link for link in links if link is not None]
    return min(found, key=lambda link: (link.edits, link.start - link.end)) if found else None


_LATIN_AFTER = re.compile(r" [A-Za-z][A-Za-z0-9]*(?![가-힣])")


def _closest(question: str, start: int, end: int, choices: list[str],
             rows: list[Row]) -> FuzzyLink | None:  # fmt: skip
    surface = question[start:end]
    query = jamo(fold(surface))
    if len(query) < 4:
        return None
    limit = MAX_EDITS if len(query) >= 8 else 1
    found = process.extract(query, choices, scorer=Levenshtein.distance, limit=8,
                            score_cutoff=limit)  # fmt: skip
    if not found or found[0][1] == 0:
        return None  # an exact name is the lexicon's, not a typo
    choice = choices[found[0][2]]
    short = {w for w in re.findall(r"[a-z]+", query) if len(w) <= 3}
    if not short <= set(re.findall(r"[a-z]+", choice)):
        return None  # initials name the company ('JYP 엔터' is not 'YG엔터' misspelt)
    inside = choice[:3] == query[:3] and choice[-2:] == query[-2:]  # 'KODEX 인버어스': a syllable
    if abs(len(choice) - len(query)) > (limit if inside else 1):  # added inside the name
        return None  # a part of a longer name ('투자증권' in NH투자증권) is not a typo of it
    best = rows[found[0][2]]
    rivals = [rows[i][3] for _, d, i in found[1:] if d == found[0][1] and rows[i][2] != best[2]]
    candidates = tuple(dict.fromkeys([best[3], *rivals])) if rivals else ()
    return FuzzyLink(surface, start, end, best[1], best[2], best[3], int(found[0][1]),
                     candidates)  # fmt: skip


@lru_cache(maxsize=4)
def _word_jamo(known_words: frozenset[str]) -> tuple[list[str], list[str]]:
    """The Hangul vocabulary words of two syllables or more, and their jamo forms."""
    words = sorted(w for w in known_words if len(w) >= 2 and all("가" <= c <= "힣" for c in w))
    return words, [jamo(w) for w in words]


def correct_words(question: str, known_words: frozenset[str],
                  taken: list[tuple[int, int]]) -> tuple[str, list[str]]:  # fmt: skip
    """A Hangul word (with or without a one-letter particle) one letter (jamo) from exactly one
    vocabulary word of the same length ('실엄률' → 실업률, '기준금니' → 기준금리; of two letters
    only one Kiwi does not know: '죵가' → 종가) is read as that word; the notes say so. Names and
    words the vocabulary holds are left alone."""
    question, notes = _respell_rate_suffix(question, known_words, taken)
    words, forms = _word_jamo(known_words)
    tokens = analyse(question)
    for m in _HANGUL_WORD.finditer(question):
        inside = [t for t in tokens if m.start() <= t.start < m.end()]
        if len(m.group(0)) == 2 and not (len(inside) == 1 and inside[0].oov):
            continue  # two letters: only a word Kiwi does not know ('죵가', '보쑤')
        tags = [t.tag for t in inside]
        # '인하가' is 인하 + 가, '어디야' 어디 + 이 + 야: a known word with its particle or copula
        spelt = len(tags) >= 2 and tags[0].startswith(("NN", "NP")) and not inside[0].oov and all(
            tag.startswith(("J", "VCP", "E")) for tag in tags[1:])  # fmt: skip
        # '기다릴까', not '소비자물까'; '차이나' is 차이 + 나다, a noun and its predicate
        # '적당해' is 적당 + 하 + 어 (a root and its predicate suffix)
        verb = bool(tags) and (tags[0].startswith(("VV", "VA", "VX")) or (
            (tags[0] == "XR" or tags[0].startswith("NN") and not inside[0].oov) and len(tags) > 1
            and tags[1].startswith(("VV", "VA", "XSV", "XSA"))))  # fmt: skip
        known = len(inside) == 1 and inside[0].tag == "NNG" and not inside[0].oov and (
            inside[0].form == m.group(0))  # fmt: skip  # '인덱스' is a word, not 킨덱스 misspelt
        # '월평균' is 월 + 평균 to Kiwi: a noun before a vocabulary word is a compound, not a typo
        compound = len(inside) >= 2 and inside[-1].form in known_words and all(
            t.tag.startswith("NN") and not t.oov for t in inside)  # fmt: skip
        if spelt or verb or known or compound or any(a < m.end() and m.start() < b
                                                     for a, b in taken):  # fmt: skip
            continue  # a noun with its particle, a verb: not a misspelt noun
        for word in (m.group(0), m.group(0)[:-1]):
            if len(word) < (2 if word == m.group(0) else 3) or word in known_words:
                break
            found = process.extract(jamo(word), forms, scorer=Levenshtein.distance, limit=2,
                                    score_cutoff=1)  # fmt: skip
            close = [words[i] for _, d, i in found if d == 1 and len(words[i]) == len(word)]
            if len(close) == 1:
                question = question[: m.start()] + close[0] + question[m.start() + len(word) :]
                notes.append(_read_as(word, close[0]))
                break
    return question, notes


_HANGUL_WORD = re.compile(r"[가-힣]{2,}")


def _read_as(word: str, right: str) -> str:
    """The note that a misspelt word was read as the right one."""
    return f"'{word}'{josa(word, '을/를')[len(word) :]} {josa(right, '으로/로')} 읽었습니다."


# 률/율 and 렬/열 follow the syllable before them (율 after a vowel or ㄴ, 률 after any other
# final): '환률', '실업율', '수익율' are the commonest misspellings of the words analysts use
_SUFFIX_SPELLINGS = {"률": "율", "율": "률", "렬": "열", "열": "렬"}
_SOFT_FINALS = (0, 4)  # no final, ㄴ


def _respell_rate_suffix(question: str, known_words: frozenset[str],
                         taken: list[tuple[int, int]]) -> tuple[str, list[str]]:  # fmt: skip
    notes: list[str] = []
    for m in _HANGUL_WORD.finditer(question):
        for i in range(m.start() + 1, m.end()):
            other = _SUFFIX_SPELLINGS.get(question[i])
            if other is None or any(a <= i < b for a, b in taken):
                continue
            soft = (ord(question[i - 1]) - _HANGUL_BASE) % 28 in _SOFT_FINALS
            if (other in "율열") != soft:
                continue  # written as the rule says
            word, right = question[m.start() : i + 1], question[m.start() : i] + other
            if right in known_words and word not in known_words:
                question = question[:i] + other + question[i + 1 :]
                notes.append(_read_as(word, right))
    return question, notes
