"""Title words for the market context: Korean nouns (kiwipiepy) and English words, no stopwords.

top_words(["DB하이텍, 19.6% 급등…실적 전망 상향", "NVIDIA plunges 5.1%"], 50)
→ [{"word": "DB하이텍", "count": 1}, {"word": "급등", "count": 1}, ...]
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from typing import TypedDict

TOP_N = 50
_KEEP_TAGS = {"NNG", "NNP", "SL", "SH", "XR", "XSN"}

# Function words and newsroom boilerplate that say nothing about the day's market.
STOPWORDS_KO = frozenset(
    "것 수 등 및 이 그 저 때 중 위 후 전 내 외 간 측 말 날 일 월 년 주 원 건 개 명 곳 점 대 속 "
    "오늘 이번 지난 올해 관련 대비 기준 가운데 이날 당일 마감 특징주 마켓브리핑 뉴스 속보 종합 "
    "기자 발표 전망 소식 시장 거래 종목 주가 업종 증시 대형주 평균 최근 계속 이후 현재 다음".split()
)
STOPWORDS_EN = frozenset(
    "a an the and or of to in on for at by with from as is are was were be been after before "
    "than over into its it this that these those up down more less per vs amid about new "
    "shares stock stocks inc corp co ltd company companies street wall large caps leads "
    "session".split()
)
# Words that say which way prices went: kept in the context, but not themes by themselves.
MOVE_WORDS = frozenset(
    "급등 급락 강세 약세 상승 하락 반등 약보합 강보합 보합 rallies slides plunges jumps falls "
    "fall rises rise edges gains drops soars tumbles leads".split()
)
# Generic deal and newsroom words: frequent on any day, never a theme by themselves.
GENERIC_WORDS = frozenset(
    "체결 공시 계약 규모 기대감 우려 글로벌 일제히 대규모 상향 하향 전환 신고가 신저가 거래량 "
    "misses beats estimate estimates results quarterly large caps eps session".split()
)


class WordCount(TypedDict):
    word: str
    count: int


def _kiwi():  # type: ignore[no-untyped-def]
    # The process's one Kiwi (≈500 MB resident with its model): a second instance here kept
    # another copy in every API/MCP server after its first opening run (issue 34).
    from agents.understanding.morphemes import kiwi

    return kiwi()


def tokenize(text: str) -> list[str]:
    """Content words of one title: runs of adjacent nouns/foreign words joined into one compound
    ('DB' + '하이텍' → 'DB하이텍', '기술' + '이전' → '기술이전'); English lower-cased."""
    words: list[str] = []
    run_start, run_end = -1, -1
    for token in _kiwi().tokenize(text):
        if token.tag not in _KEEP_TAGS:
            if run_start >= 0:
                words.append(text[run_start:run_end])
            run_start = -1
            continue
        if run_start >= 0 and token.start == run_end:
            run_end = token.start + token.len
            continue
        if run_start >= 0:
            words.append(text[run_start:run_end])
        run_start, run_end = token.start, token.start + token.len
    if run_start >= 0:
        words.append(text[run_start:run_end])
    cleaned = [w.lower() if w.isascii() else w for w in words]
    return [w for w in cleaned if not _is_stopword(w)]


def _is_stopword(word: str) -> bool:
    if word.lower() in STOPWORDS_EN or word in STOPWORDS_KO:
        return True
    return len(word) < 2 or word.replace(".", "").isdigit()


def top_words(titles: Iterable[str], n: int = TOP_N) -> list[WordCount]:
    """The `n` most frequent title words (a word counts once per title), ties by first seen."""
    counts: Counter[str] = Counter()
    for title in titles:
        counts.update(dict.fromkeys(tokenize(title), 1))
    return [{"word": w, "count": c} for w, c in counts.most_common(n)]


def _pattern(keyword: str) -> re.Pattern[str]:
    """Latin keywords match whole words ('AI' not in 'said'); others match as substrings
    (Korean attaches particles: '반도체' in '반도체주가')."""
    escaped = re.escape(keyword)
    if keyword.isascii():
        return re.compile(rf"(?<![A-Za-z0-9]){escaped}(?![A-Za-z0-9])", re.IGNORECASE)
    return re.compile(escaped, re.IGNORECASE)


def count_in(text: str, keyword: str) -> int:
    """Occurrences of `keyword` in `text`, case-insensitive."""
    return len(_pattern(keyword).findall(text)) if keyword else 0


def contains(text: str, keyword: str) -> bool:
    return bool(keyword) and _pattern(keyword).search(text) is not None
