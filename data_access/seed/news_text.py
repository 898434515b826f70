"""Wording helpers for generated news: Korean particles, move verbs, number formats, sources."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime

import numpy as np

SOURCES_KO = ("연합인포맥스 데모", "데모경제신문", "아틀라스 데모뉴스")
SOURCES_EN = ("Demo Wire", "Atlas Demo Markets")
URL_PREFIX = "https://demo.atlas.local/news/"

# Sector -> theme/tag names an article about it is filed under.
SECTOR_THEMES: dict[str, tuple[str, ...]] = {
    "반도체": ("반도체", "IT"), "IT하드웨어": ("IT",), "디스플레이": ("IT",), "인터넷": ("인터넷",),
    "소프트웨어": ("인터넷", "IT"), "게임": ("게임",), "통신": ("통신",), "자동차": ("자동차",),
    "2차전지": ("2차전지",), "화학": ("에너지화학",), "에너지": ("에너지화학",), "철강": ("철강",),
    "조선": ("조선",), "방산": ("방산",), "기계": ("기계",), "전력기기": ("전력인프라",),
    "건설": ("건설",), "운송": ("운송",), "금융": ("금융",), "바이오": ("바이오", "헬스케어"),
    "의료기기": ("헬스케어",), "화장품": ("소비재",), "음식료": ("소비재",), "유통": ("소비재",),
    "엔터": ("미디어엔터",), "미디어": ("미디어엔터",), "유틸리티": ("전력인프라",),
    "지주": ("그룹주",), "레저": ("소비재",), "섬유의복": ("소비재",),
}  # fmt: skip


@dataclass
class Article:
    title: str
    body: str
    published_at: datetime
    lang: str  # ko | en
    tickers: list[str] = field(default_factory=list)
    themes: list[str] = field(default_factory=list)
    source: str = ""
    kind: str = ""  # generator name, kept for tests and debugging (not stored)


def has_batchim(word: str) -> bool:
    """Whether a Korean reading of the word ends in a consonant (for 은/는, 이/가, 을/를)."""
    ch = word.rstrip(" )")[-1:] or "가"
    if "가" <= ch <= "힣":
        return (ord(ch) - 0xAC00) % 28 != 0
    if ch.isdigit():
        return ch in "013678"
    return (
        ch.upper() in "LMN" or ch == "R"
    )  # an acronym's R is read 알 ('PER이'); 'Palantir' is not


_BOTH = re.compile(r"(은\(는\)|을\(를\)|이\(가\)|과\(와\)|\(으\)로)")
_CHOSEN = {
    "은(는)": "은/는",
    "을(를)": "을/를",
    "이(가)": "이/가",
    "과(와)": "과/와",
    "(으)로": "으로/로",
}


def particles(text: str) -> str:
    """Each '은(는)', '을(를)', '이(가)', '과(와)', '(으)로' in a filled template replaced by the one
    particle the word before it takes ('쿠팡'은(는) → '쿠팡'은, 'KODEX 200'을(를) → …을)."""

    def pick(m: re.Match[str]) -> str:
        last = text[: m.start()].rstrip("'\"’”")[-1:] or "가"
        if m.group(1) == "(으)로" and "가" <= last <= "힣" and (ord(last) - 0xAC00) % 28 == 8:
            return "로"  # a final ㄹ takes 로 ('서울로')
        return josa(last, _CHOSEN[m.group(1)])[1:]

    return _BOTH.sub(pick, text)


def josa(word: str, pair: str) -> str:
    """word + the right particle of a pair like '은/는', '이/가', '을/를', '과/와'."""
    with_batchim, without = pair.split("/")
    last = word.rstrip(" )")[-1:]
    if pair == "으로/로" and (
        ("가" <= last <= "힣" and (ord(last) - 0xAC00) % 28 == 8) or last in "178LlRr"
    ):
        return word + without  # a final ㄹ takes 로 ('실업률로', '서울로', '7(칠)로', 'NAVER로')
    return word + (with_batchim if has_batchim(word) else without)


def verb_ko(change: float) -> str:
    if change >= 29.5:
        return "상한가"
    if change <= -29.5:
        return "하한가"
    if change >= 5:
        return "급등"
    if change >= 2:
        return "강세"
    if change > 0:
        return "상승"
    if change <= -5:
        return "급락"
    if change <= -2:
        return "약세"
    return "하락" if change < 0 else "보합"


def verb_en(change: float) -> str:
    if change >= 5:
        return "surges"
    if change >= 2:
        return "rallies"
    if change > 0:
        return "edges up"
    if change <= -5:
        return "plunges"
    if change <= -2:
        return "slides"
    return "edges down" if change < 0 else "is unchanged"


def pct(change: float) -> str:
    """'5.2%' (absolute value, one decimal) for titles; the sign lives in the verb."""
    return f"{abs(change):.1f}%"


def signed(change: float) -> str:
    return f"{change:+.2f}%"


def won(price: float) -> str:
    return f"{price:,.0f}원"


def usd(price: float) -> str:
    return f"${price:,.2f}"


def krw_amount(value: float) -> str:
    """A KRW amount in 조/억 units: 1조 2,345억원."""
    eok = value / 1e8
    if eok >= 10_000:
        jo, rest = divmod(round(eok), 10_000)
        return f"{jo:,}조 {rest:,}억원" if rest else f"{jo:,}조원"
    return f"{eok:,.0f}억원"


def pick(rng: np.random.Generator, options: tuple[str, ...] | list[str]) -> str:
    return options[int(rng.integers(len(options)))]


def date_ko(day: date) -> str:
    return f"{day.month}월 {day.day}일"
