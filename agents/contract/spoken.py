"""Numbers said in spoken Korean, written as a contract writes them: '출발 보름 전에' → '출발 15일
전에', '사흘 안에' → '3일 안에', '석 달' → '3개월', '월세를 두 번' → '월세를 2번', '반년' →
'6개월'. A contract counts in digits ('15일전까지', '3영업일 이내', '6개월 전부터'); a question
that counts in words shares no number with the clause that answers it.

    >>> digits("출발 열흘 전에 취소하면?")
    '출발 10일 전에 취소하면?'
    >>> digits("석 달치 월세를 못 내면")
    '3개월치 월세를 못 내면'

The closed classes of Korean numerals only (native day counts, native and Sino-Korean numerals
before a unit of time or a count); any other word is left as it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# native day counts: a word of its own ('하루에', '이틀 안에'; not '하루살이')
DAYS = {"하루": 1, "이틀": 2, "사흘": 3, "나흘": 4, "닷새": 5, "엿새": 6, "이레": 7, "여드레": 8,
        "아흐레": 9, "열흘": 10, "보름": 15, "일주일": 7}  # fmt: skip
# native numerals before a counter ('두 달', '석 달', '세 번', '한 해')
NATIVE = {"한": 1, "두": 2, "세": 3, "석": 3, "네": 4, "넉": 4, "다섯": 5, "여섯": 6, "일곱": 7,
          "여덟": 8, "아홉": 9, "열": 10}  # fmt: skip
# Sino-Korean numerals spelled out before a unit of time ('일 년', '삼 개월')
SINO = {"일": 1, "이": 2, "삼": 3, "사": 4, "오": 5, "육": 6, "칠": 7, "팔": 8, "구": 9, "십": 10}
COUNTERS = {"달": "개월", "해": "년", "번": "번", "차례": "번", "시간": "시간", "주": "주"}
# a particle, a suffix ('치', '째', '간', '쯤', '씩', '만에') or the end may follow a counted word
AFTER = r"(?=[\s,.?!)]|[에의은는을를이가도만쯤치째간씩동안까부]|$)"
WORD_START = r"(?<![가-힣0-9])"


def _either(words: Iterable[str]) -> str:
    return "(" + "|".join(sorted(words, key=len, reverse=True)) + ")"


DAYS_RE = re.compile(rf"{WORD_START}{_either(DAYS)}{AFTER}(?!\s*종일)")  # '하루 종일': all day
NATIVE_RE = re.compile(rf"{WORD_START}{_either(NATIVE)}\s*{_either(COUNTERS)}{AFTER}")
SINO_RE = re.compile(rf"{WORD_START}{_either(SINO)}\s*(년|개월){AFTER}")
HALF_YEAR_RE = re.compile(rf"{WORD_START}반년{AFTER}")


def digits(question: str) -> str:
    """The question with its spoken numbers in digits (see the module docstring)."""
    text = DAYS_RE.sub(lambda m: f"{DAYS[m.group(1)]}일", question)
    text = HALF_YEAR_RE.sub("6개월", text)
    text = NATIVE_RE.sub(lambda m: f"{NATIVE[m.group(1)]}{COUNTERS[m.group(2)]}", text)
    return SINO_RE.sub(lambda m: f"{SINO[m.group(1)]}{m.group(2)}", text)
