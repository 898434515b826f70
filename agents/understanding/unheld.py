"""Names we do not hold, read from morphemes (issue 31): a company, a house or a ticker the
question asks about that links to nothing in the data is said, not answered as the market, a
sector or the previous subject.

A word is a name when Kiwi reads a proper noun (NNP), a noun its dictionary does not know, or a
capitalised foreign word in it — so the list of 'words that are not company names' is Kiwi's
dictionary, not ours (it was 355 hand-written words).

    read_unheld_names(frame, "쿠팡 주가 왜 떨어졌어?", lexicon, kinds)  # unknown_words ['쿠팡']
    read_unexplained_subject(frame, "현대차와 토요타 비교", text, None)  # ['토요타']
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import takewhile

from agents.understanding.frame import QuestionFrame
from agents.understanding.lexicon import Lexicon
from agents.understanding.morphemes import Morpheme, alternatives, analyse
from agents.understanding.vocabulary import find_phrases, vocabulary, vocabulary_words

UNHELD = "unheld_company:"
_TICKER = re.compile(r"(?<![A-Za-z0-9&])([A-Z]{2,5})(?![A-Za-z0-9&])")
# capitals that are neither a vocabulary word nor a glossary term (those are read as such)
_KNOWN_CAPS = frozenset({"AI", "CD", "KRX", "MSCI"})
# what ends a word without being part of it: particles, endings, the copula, punctuation
_PUNCTUATION = ("SF", "SP", "SS", "SE", "SO", "SW")
_NOT_STEM = ("J", "E", "VCP", *_PUNCTUATION)
_SUBJECT_KINDS = frozenset({"stock", "etf", "series", "index", "sector", "re_region", "tag",
                            "manager"})  # fmt: skip
_STOCK_MEASURES = frozenset({"close", "return", "per", "pbr", "eps", "volume", "dividend_yield",
                             "high", "low", "earnings", "market_cap", "trading_value", "rsi",
                             "shares_outstanding"})  # fmt: skip
_CLOSE = 0.5  # log-probability gap under which Kiwi's second reading counts as well
_JOINED = re.compile(r"(?:랑|와|과|하고|이랑|,|&|\bvs\.?|\bversus\b|\band\b)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Word:
    """A space-separated word: its stem (particles and endings cut) and its morphemes."""

    stem: str
    question: str
    start: int
    end: int  # of the stem
    morphemes: tuple[Morpheme, ...]


def words(question: str, until: int | None = None) -> list[Word]:
    """The question's words up to `until` (a word crossing it is cut there)."""
    tokens = analyse(question)
    out = []
    for m in re.finditer(r"\S+", question[:until]):
        inside = tuple(t for t in tokens if m.start() <= t.start and t.end <= m.end())
        first = next((i for i, t in enumerate(inside) if not t.tag.startswith(_PUNCTUATION)), None)
        if first is None:
            continue
        stem = list(takewhile(lambda t: not t.tag.startswith(_NOT_STEM), inside[first:]))
        if not stem:
            continue
        start = stem[0].start  # "'부산은": 부산; '골드선물(H)': 골드선물
        out.append(Word(question[start : stem[-1].end], question, start, stem[-1].end, inside))
    return out


@lru_cache(maxsize=1)
def _reading() -> tuple[re.Pattern[str], frozenset[str], frozenset[str], tuple[str, ...]]:
    """The company cues as one pattern, the known words, the business words that end a company's
    name ('에너지', '카드'), the words that end only a house's ('자산운용', '증권')."""
    voc = vocabulary()
    korean = "|".join(sorted(map(re.escape, voc["company_cues"]["ko"]), key=len, reverse=True))
    english = "|".join(sorted(map(re.escape, voc["company_cues"]["en"]), key=len, reverse=True))
    cues = re.compile(rf"(?:{korean})|(?<![A-Za-z])(?:{english})(?![A-Za-z])", re.IGNORECASE)
    suffixes = frozenset(w.lower() for w in voc["company_suffixes"])
    return cues, vocabulary_words(), suffixes, tuple(voc["house_suffixes"]["words"])


def is_name(word: Word) -> bool:
    """A proper noun, a noun Kiwi does not know, or a capitalised foreign word — and not a word
    of our vocabulary or glossary ('What', 'Korea-US', '원전주', '미친' are not names)."""
    _, known, _, _ = _reading()
    low = re.sub(r"['’]s$", "", word.stem.lower())
    if low in known or len(low) < 2 or any(ch.isdigit() for ch in low) or _glossary_term(low):
        return False
    if word.stem.isascii():
        if "-" in low.strip("-"):
            return not all(part in known for part in low.split("-") if part)
        stems = (low.removesuffix("s"), low.removesuffix("ed"), low.removesuffix("ing"))
        capitalised = word.stem[0].isupper() and not word.stem.isupper()
        return capitalised and not any(s in known for s in stems)
    stem = [t for t in word.morphemes if word.start <= t.start and t.end <= word.end]
    # 'SK디스커버리': a Latin brand glued to Hangul names a company too
    brand = stem[0].tag == "SL" and len(stem[0].form) >= 2 and stem[0].form.isupper()
    # a known proper noun names a company with a Hangul noun after it ('한화에너지'), not with
    # a letter ('미국S&P500' is a region and an index)
    named = any((t.tag == "NNP" or (t.tag == "NNG" and t.oov))
                and (t.form.lower() not in known or (after and after.tag.startswith("NN")))
                for t, after in zip(stem, [*stem[1:], None], strict=True))  # fmt: skip
    return (brand or named) and (confident(word))


def confident(word: Word) -> bool:
    """Kiwi's next-best reading, about as likely, does not read the word as a name: '차이나?'
    at a question's end is 차이 + 나다 as much as China."""
    for tokens, gap in alternatives(word.question)[1:]:
        if gap > _CLOSE:
            break
        inside = [t for t in tokens if word.start <= t.start and t.end <= word.end]
        if inside and not any(t.tag in ("NNP", "SL") or t.oov for t in inside):
            return False
    return True


def read_unheld_names(frame: QuestionFrame, question: str, lexicon: Lexicon,
                      kinds: frozenset[str]) -> None:  # fmt: skip
    """Tickers ('QQQ'), companies before a company word ('쿠팡 주가', 'Sony shares') and houses
    ('한화투자증권') that name nothing we hold, read before the rest of the question."""
    _read_unknown_tickers(frame, question, lexicon)
    if "stock" in kinds and not frame.of("stock") and not frame.ambiguous():
        _read_unheld_company(frame, question)  # '삼성전지' is 삼성전자 or 삼성전기: asked back
    if "manager" in kinds and not any(n.startswith(UNHELD) for n in frame.notes):
        _read_house_names(frame, question)
    if "etf" in kinds and not frame.of("etf"):
        _read_unheld_fund(frame, question, lexicon)


def _read_unknown_tickers(frame: QuestionFrame, question: str, lexicon: Lexicon) -> None:
    """'QQQ', 'SPY': a ticker-like word that names nothing in the data is said, not dropped."""
    taken = [(e.start, e.end) for e in frame.entities]
    for m in _TICKER.finditer(question):
        word = m.group(1)
        inside = any(a <= m.start() < b for a, b in taken)
        if inside or word in _KNOWN_CAPS or word in lexicon.stocks or word in lexicon.brands:
            continue
        if word.lower() in vocabulary_words() or _glossary_term(word):
            continue  # 'QT가 뭐야': a term, not a ticker
        tail = re.match(r"[A-Za-z0-9&가-힣]*", question[m.end() :]).group(0)  # type: ignore[union-attr]
        stem = [t for t in analyse(question) if m.end() <= t.start and t.end <= m.end() + len(tail)
                and not t.tag.startswith(_NOT_STEM)]  # fmt: skip
        glued = question[m.end() : stem[-1].end] if stem else ""  # 'LG헬로비전': not 'LG'
        frame.unknown_words.append(word + glued if len(glued) > 1 else word)


def _said(frame: QuestionFrame, name: str) -> None:
    if name not in frame.unknown_words:  # 'TSMC' may be said already as a ticker
        frame.unknown_words.append(name)
    frame.notes.append(UNHELD + name)


def _read_unheld_company(frame: QuestionFrame, question: str) -> None:
    """'쿠팡 주가 왜 떨어졌어?', 'Why did Sony shares fall?', 'SK 에너지 주가': a name right
    before a company word, with no stock linked, is a company we do not hold ('SK 에너지' is
    not the energy sector)."""
    cues, _, suffixes, _ = _reading()
    linked = [(e.start, e.end) for e in frame.entities if e.kind != "sector" and e.start >= 0]
    for cue in cues.finditer(question):
        before = words(question, cue.start())
        if not before or any(a < before[-1].end and before[-1].start < b for a, b in linked):
            continue  # 'KODEX 200 주가': the word before the cue is a linked name
        last = before[-1]
        if last.stem.lower() in suffixes and len(before) >= 2 and _names_a_group(before[-2]):
            # a group name and a business word ('SK 에너지'), not a count or a word ('top 3
            # holdings', 'top holdings')
            name, start = f"{before[-2].stem} {last.stem}", before[-2].start
        elif any(e.kind == "sector" and e.start <= last.start and last.start + len(last.stem)
                 <= e.end for e in frame.entities):  # fmt: skip
            continue  # '소프트웨어주' read as one name by Kiwi: the sector said whole
        elif is_name(last):
            name, start = last.stem, last.start
        else:
            continue  # a question word, a term, a count ('상위 3개 비중')
        _said(frame, name)
        frame.entities = [e for e in frame.entities  # the sector word was part of the name
                          if not (e.kind == "sector" and start <= e.start < cue.start())]  # fmt: skip
        return


def _read_unheld_fund(frame: QuestionFrame, question: str, lexicon: Lexicon) -> None:
    """'TIGER 차이나전기차 순자산', 'KODEX 우주항공 보수': a fund brand, then a name no fund of
    ours has (no word we know, nothing linked), is a fund we do not hold — not the house's
    every fund."""
    brands = {b.lower() for b in lexicon.brands}
    spans = [(e.start, e.end) for e in frame.entities if e.start >= 0]
    for brand in frame.of("manager"):
        if brand.start < 0 or question[brand.start : brand.end].lower() not in brands:
            continue
        after = next((w for w in words(question) if w.start >= brand.end), None)
        if (after is None or question[brand.end : after.start].strip()  # 'TIGER, KODEX'
                or any(a < after.end and after.start < b for a, b in spans)
                or after.stem.lower() in vocabulary_words() or not re.search(r"[가-힣A-Za-z]", after.stem)):  # fmt: skip
            continue
        nouns = [t for t in after.morphemes if t.tag.startswith("NN")]
        if not is_name(after) and len(nouns) < 2:  # 'KODEX 시리즈', 'TIGER 상품': the house's funds
            continue
        _said(frame, f"{question[brand.start : brand.end]} {after.stem}")
        frame.entities.remove(brand)  # the house's funds are not what was asked
        return


def _names_a_group(word: Word) -> bool:
    """'SK', '한화', 'Samsung' can name a group; '3', 'top' cannot."""
    stem = word.stem
    return not stem.isdigit() and (not stem.isascii() or stem[:1].isupper())


def _read_house_names(frame: QuestionFrame, question: str) -> None:
    """'삼성액티브자산운용 ETF 평균 보수', '한국투자증권': a name ending in a house's business
    word that links to nothing is a house we do not hold, not the whole market ('국내증권' is
    not a name)."""
    _, _, _, endings = _reading()
    spans = [(e.start, e.end) for e in frame.entities if e.start >= 0]
    for word in words(question):
        if word.stem.isascii() or any(a < word.end and word.start < b for a, b in spans):
            continue
        low = word.stem.lower()
        if any(low.endswith(s) and len(low) > len(s) + 1 for s in endings) and is_name(word):
            _said(frame, word.stem)
            return


def read_unexplained_subject(frame: QuestionFrame, question: str, text: str,
                             previous: QuestionFrame | None) -> None:  # fmt: skip
    """'쿠팡 왜 떨어졌어?', 'How did Coupang do last month?', '현대차와 토요타 비교', '쿠팡은?' after a
    stock: a question about how a subject did (a stock measure, a move, a why, a comparison, a
    short follow-up) whose subject is a name we cannot link is said, not answered as the
    market's events, the other stock, or the previous subject."""
    if (frame.unknown_words or frame.operation.kind == "define" or frame.ambiguous()
            or any(n.startswith(UNHELD) for n in frame.notes)):  # fmt: skip
        return  # '삼성전지' (삼성전자 or 삼성전기) is asked back, not said as not held
    subjects = [e for e in frame.entities if e.kind in _SUBJECT_KINDS]
    compare = frame.operation.kind in ("compare", "difference")
    if subjects and not compare:
        return
    voc = vocabulary()
    low = question.lower()
    hits = find_phrases(text, {"why": voc["why"], "down": voc["change"]["down"],
                               "up": voc["change"]["up"], "ask": voc["subject_asks"]["phrases"]})  # fmt: skip
    stock_measures = [m for m in frame.measures if m.name in _STOCK_MEASURES]
    question_words = words(question)
    short_followup = previous is not None and not subjects and _bare_name_turn(question_words)
    if not (compare or hits or stock_measures or short_followup):
        return
    # with nothing linked, the subject comes before what is asked of it ('쿠팡 왜 …')
    asked_at = [h.start for h in hits] + [low.find(m.surface.lower()) for m in stock_measures
                                          if m.surface and m.surface.lower() in low]  # fmt: skip
    before = min(asked_at) if asked_at and not subjects else len(question)
    spans = [(e.start, e.end) for e in frame.entities if e.start >= 0]
    for word in question_words:
        if word.start >= before and not word.stem.isascii():
            break  # English names stand anywhere ('Why did Coupang drop?'), capitalised
        if any(a < word.end and word.start < b for a, b in spans) or not is_name(word):
            continue
        if subjects and not (_JOINED.search(question[: word.start])
                             or _JOINED.match(question[word.end :])):  # fmt: skip
            continue  # beside a linked subject, only a name joined to it ('현대차와 토요타')
        _said(frame, word.stem)  # (no word is said yet: the first line returned if one was)
        return


def _bare_name_turn(question_words: list[Word]) -> bool:
    """'쿠팡은?', 'what about Coupang?': a follow-up of one name and nothing else."""
    text = " ".join(w.stem.lower() for w in question_words)
    if re.fullmatch(r"(?:what|how) about \S+", text):
        return True
    return 1 <= len(question_words) <= 2 and not any(ch.isdigit() for ch in text)


def _glossary_term(word: str) -> bool:
    """The whole word is a term ('QT'), not a word that holds one ('삼성액티브자산운용')."""
    from agents.understanding.glossary import load_glossary

    found = load_glossary().match(word)
    return found is not None and found.end - found.start >= len(word.strip())
