"""Does a clause cover what the question is about, or only share a generic word with it?

A question is read as topic units, one per word (eojeol): the content nouns of '하자보수' are one
unit [하자, 보수], '기간' would be another, but generic words (기간, 금액, 언제, 계약, the parties …)
are aspects of a fact, not topics, and are dropped. A clause covers a unit when it holds every
morpheme of it (so '하자보수' is not covered by a 보수(fee) clause), or, for a one-morpheme unit,
a thesaurus concept or an English word's Korean register word of it. A question none of whose
units the best clause covers is about something the contract lacks:

    >>> topic_units("하자보수 기간은?")
    [TopicUnit(word='하자보수', morphemes=('하자', '보수'))]

A question with no topic unit at all ('기간은?') is not judged here (every clause may answer it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from agents.contract.models import Article
from agents.contract.thesaurus import restate, rewrite
from agents.contract.tokenize import tagged, tokens

# Generic words: what kind of fact is asked (a period, an amount, a party), never the topic.
ASPECT_WORDS = frozenset(
    "기간 시간 기한 일자 날짜 날 일 주 개월 월 년 금액 비용 돈 얼마 얼마나 언제 어디 누구 누가 무엇 뭐 몇 "
    "방법 조건 경우 내용 사항 관련 대하 관하 기준 절차 여부 범위 이상 이하 이내 미만 초과 최대 최소 "
    "지급 며칠 일주일 하루 한달 매주 매월 매년 요금 가격 값 퍼센트 "
    "중간 다시 매달 매번 다른 사람 처음 나중 미리 바로 직접 혹시 정말 꼭 "
    "계약 계약서 조항 조문 규정 약관 본 당사자 상대방 쪽 측 때 전 후 중 동안 가능 필요 의무 책임 권리 "
    "갑 을 병 회사 이용자 회원 고객 사업자 원사업자 수급사업자 발주자 수급인 도급인 임대인 임차인 "
    "근로자 사용자 매도인 매수인 여행자 여행사 제공자 이용 하다 되다 있다 없다 "
    "what when who how much many long period amount contract clause party parties the a an is are "
    "does do can of for to in on by".split()
)
NOUN_TAG_RE = re.compile(r"^(?:NNG|NNP|SL|XR|SH)")
VERB_TAGS = ("VV", "VA")


@dataclass(frozen=True)
class TopicUnit:
    word: str  # the question's word (eojeol) without its particles
    morphemes: tuple[str, ...]


@lru_cache(maxsize=1024)
def topic_units(question: str) -> list[TopicUnit]:
    """The question's topic units, in order (see the module docstring)."""
    units: list[TopicUnit] = []
    for word in re.findall(r"[0-9A-Za-z가-힣·]+", question):
        analysed = tagged(word)
        nouns = tuple(f for f, t in analysed if NOUN_TAG_RE.match(t) and f not in ASPECT_WORDS)
        if len(nouns) == 1 and len(nouns[0]) == 1:
            nouns = ()  # a lone syllable ('안', '방') says too little to be a topic
        found = [TopicUnit(word, nouns)] if nouns else []
        # a verb is a topic when the thesaurus knows it ('그만두' → termination), by its lemma
        found += [TopicUnit(f, (f,)) for f, t in analysed
                  if t in VERB_TAGS and f not in ASPECT_WORDS and rewrite(f).concepts]  # fmt: skip
        units += [u for u in found if all(v.morphemes != u.morphemes for v in units)]
    return units


def _article_words(article: Article) -> tuple[set[str], str]:
    text = f"{article.part_title}\n{article.title}\n{article.body}"
    return set(tokens(text)), re.sub(r"\s+", "", text)


def covers(unit: TopicUnit, article: Article) -> bool:
    """The clause holds the unit: the compound as written ('경업금지'), every morpheme of it when
    none is a lone syllable ('하자의 보수'), or (one morpheme) a concept or translation of it."""
    words, text = _article_words(article)
    if "".join(unit.morphemes) in text:
        return True
    if len(unit.morphemes) > 1:
        return all(len(m) > 1 and (m in words or m in text) for m in unit.morphemes)
    meant = rewrite(unit.word)
    register = {t for c in meant.concepts for t in c.terms} | set(meant.translated)
    register |= _prefix_words(unit.morphemes[0])
    return any(t in words or (len(t) > 1 and t in text) for t in register)


def _prefix_words(morpheme: str) -> set[str]:
    """Register words of an everyday word a longer morpheme starts with ('월급날' → 월급 →
    임금): Kiwi keeps such compounds whole, so the thesaurus's one-morpheme words miss them."""
    return {w for k in range(len(morpheme) - 1, 1, -1)
            for w in restate(morpheme[:k], [morpheme[:k]])}  # fmt: skip


def covered_count(question: str, article: Article) -> int:
    """How many of the question's topic units the clause covers."""
    return sum(1 for u in topic_units(question) if covers(u, article))


def uncovered(question: str, article: Article, *, every: bool = False) -> bool:
    """True when the question has topic units and the clause covers none of them (`every`: not
    all of them — a clause named by its title must be what the title names)."""
    units = topic_units(question)
    if not units:
        return False
    found = [covers(u, article) for u in units]
    return not all(found) if every else not any(found)
