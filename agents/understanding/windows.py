"""Windows and statistics, read once for every series (DESIGN.md "Understanding a question").

A window is a count and a unit ('10거래일', '지난 2주', '반년', 'last 12 sessions'); a statistic
is what is computed over it ('평균', '이동평균', '최고치와 최저치 차이', '변동성'). Both are read
from Kiwi morphemes, so spacing and particles do not matter ('20일 이동평균은', '20 일 이평').

    read_window_stat("SK하이닉스 최근 10거래일 평균 종가는?")
    # WindowStat(window=WindowRead(n=10, unit='session', surface='10거래일'), stat='avg', field='close')

The corpus in tests/unit/test_windows.py is this reader's specification.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Literal

from pydantic import BaseModel

from agents.understanding.morphemes import Morpheme, analyse

Unit = Literal["session", "day", "week", "month", "quarter", "year", "prev_week", "prev_month"]
Stat = Literal["avg", "sum", "max", "min", "range", "extremes", "moving_average", "volatility",
               "return", "change", "std", "up_days", "down_days"]  # fmt: skip
# 'high_low': the highest high and the lowest low ('최고가와 최저가'), two fields of one bar
Field = Literal["close", "open", "high", "low", "high_low", "volume", "trading_value", "value"]

UNITS_KO = {"session": "거래일", "day": "일", "week": "주", "month": "개월", "quarter": "분기",
            "year": "년", "prev_week": "지난주", "prev_month": "지난달"}  # fmt: skip
_UNITS: dict[str, Unit] = {
    "거래일": "session", "영업일": "session", "세션": "session", "session": "session",
    "sessions": "session", "일": "day", "날": "day", "일간": "day", "day": "day", "days": "day",
    "주": "week", "주일": "week", "주간": "week", "week": "week", "weeks": "week",
    "개월": "month", "달": "month", "개월간": "month", "month": "month", "months": "month",
    "분기": "quarter", "quarter": "quarter", "quarters": "quarter",
    "년": "year", "년간": "year", "해": "year", "year": "year", "years": "year",
    "mo": "month", "wk": "week", "yr": "year", "yrs": "year", "w": "week", "y": "year",
    "d": "day",  # '52w high', '1y', '5d' ('m' is also a million: not read as months)
}  # fmt: skip
_NATIVE = {"한": 1, "두": 2, "세": 3, "석": 3, "네": 4, "넉": 4, "다섯": 5, "여섯": 6, "일곱": 7,
           "여덟": 8, "아홉": 9, "열": 10, "일": 1, "이": 2, "삼": 3, "one": 1, "two": 2,
           "three": 3, "four": 4, "five": 5, "six": 6, "ten": 10, "twelve": 12}  # fmt: skip
# a whole word that is a window ('반년', '일주일' is 일/NR + 주일)
_WORDS: dict[str, tuple[int, Unit]] = {"반년": (6, "month"), "보름": (15, "day"),
                                       "하루": (1, "day"), "이틀": (2, "day"), "사흘": (3, "day"),
                                       "나흘": (4, "day"), "닷새": (5, "day"), "엿새": (6, "day"),
                                       "이레": (7, "day"), "열흘": (10, "day"), "한달": (1, "month"),
                                       "일주일": (1, "week")}  # fmt: skip
# '10년물', '2년 만기': a bond's tenor, not a window
_TENOR_AFTER = frozenset({"물", "만기", "국채", "treasury", "yield", "bond", "bonds"})
_AGO = frozenset({"전", "前", "ago"})
_SESSION_WORDS = frozenset({"trading", "거래"})  # 'last 10 trading days'

STAT_WORDS: dict[str, Stat] = {
    "평균": "avg", "일평균": "avg", "월평균": "avg", "average": "avg", "mean": "avg", "avg": "avg",
    "합계": "sum", "합산": "sum", "총합": "sum", "누적": "sum", "합": "sum", "sum": "sum",
    "total": "sum",
    "최고": "max", "최대": "max", "최댓값": "max", "최대값": "max", "고점": "max",
    "highest": "max", "max": "max", "maximum": "max", "peak": "max",
    "최저": "min", "최소": "min", "최솟값": "min", "최소값": "min", "저점": "min",
    "lowest": "min", "min": "min", "minimum": "min", "trough": "min",
    "이평": "moving_average", "이평선": "moving_average",
    "변동성": "volatility", "volatility": "volatility",
    "수익률": "return", "return": "return", "returns": "return", "등락률": "return",
    "변화": "change", "증감": "change", "변하": "change", "change": "change", "range": "range",
    "고저차": "range", "범위": "range", "표준편차": "std", "stdev": "std",
}  # fmt: skip
# a statistic Kiwi reads as two words: '고저폭' is the window's high-low width; '등락폭' (and
# '변동폭', the golden set's word for it, read by the period reader) its change; '변화율',
# '증감률', '증가율' a rate of change, in %
_TWO_WORDS: dict[tuple[str, str], Stat] = {
    ("이동", "평균"): "moving_average", ("moving", "average"): "moving_average",
    ("수익", "률"): "return", ("변동", "성"): "volatility", ("표준", "편차"): "std",
    ("고저", "폭"): "range", ("등락", "폭"): "change",
    **{(w, r): "return" for w in ("변화", "증감", "변동", "증가", "감소", "등락") for r in ("율", "률")},
}  # fmt: skip
_GAP_WORDS = frozenset({"차이", "격차", "차", "폭", "difference", "gap", "spread"})
_FIELDS: dict[str, Field] = {
    "종가": "close", "주가": "close", "가격": "close", "close": "close", "closing": "close",
    "price": "close", "고가": "high", "high": "high", "저가": "low", "low": "low", "시가": "open",
    "시초가": "open",
    "거래량": "volume", "volume": "volume", "거래대금": "trading_value",
}  # fmt: skip


class WindowRead(BaseModel):
    n: int
    unit: Unit
    surface: str
    start: int
    end: int
    used: bool = False  # set by the screen that computed over it (coverage reads it)

    def label(self, lang: str) -> str:
        if lang == "ko":
            return f"최근 {self.n}{UNITS_KO[self.unit]}"
        return f"last {self.n} {self.unit}{'s' if self.n != 1 else ''}"


class WindowStat(BaseModel):
    window: WindowRead | None
    stat: Stat | None
    field: Field | None = None
    spans: list[tuple[int, int]] = []


def _number(m: Morpheme) -> int | None:
    if m.tag == "SN":
        digits = m.form.replace(",", "")
        return int(digits) if digits.isdigit() else None
    return _NATIVE.get(m.form.lower()) if m.tag in ("MM", "NR", "SL", "NNG") else None


def read_window(tokens: tuple[Morpheme, ...], text: str) -> WindowRead | None:
    """The first count + unit that is a window (not a date, a calendar year or a tenor)."""
    return next(windows(tokens, text), None)


def windows(tokens: tuple[Morpheme, ...], text: str, *, ago: bool = False) -> Iterator[WindowRead]:
    """Every count + unit that is a window, in question order; with `ago`, also a span back to
    a day ('1년 전에 샀으면', '3 months ago': the period since then)."""
    for i, m in enumerate(tokens):
        glued = i + 1 < len(tokens) and tokens[i + 1].start == m.end  # '반년' is 반 + 년 at times
        word, end = (m.form + tokens[i + 1].form, tokens[i + 1].end) if glued else (m.form, m.end)
        if m.form in _WORDS or word in _WORDS:
            word, end = (m.form, m.end) if m.form in _WORDS else (word, end)
            n, unit = _WORDS[word]
            yield WindowRead(n=n, unit=unit, surface=word, start=m.start, end=end)
            continue
        count = _number(m)
        if count is None or i + 1 >= len(tokens):
            continue
        j = i + 1
        if tokens[j].form in _SESSION_WORDS and j + 1 < len(tokens):  # 'trading days'
            j += 1
        word = tokens[j].form.lower()
        if tokens[j].form in ("-", "개") and j + 1 < len(tokens):  # '20-day', '2개 분기'
            j, word = j + 1, tokens[j + 1].form.lower()
        found = _UNITS.get(word)
        if found is None or count <= 0 or (found == "year" and count >= 100):
            continue  # '2026년' is a calendar year
        if j + 1 < len(tokens) and tokens[j + 1].form.lower() in (
                _TENOR_AFTER if ago else _TENOR_AFTER | _AGO):  # fmt: skip
            continue  # '10년물' is a tenor; '1년 전 대비' a day a year ago (a change's base)
        if found == "week" and text[tokens[j].end : tokens[j].end + 1] == "당":
            continue  # '한 주당 순이익': per share, not a week
        paired = [t.tag for t in tokens[j + 1 : j + 3]] == ["SO", "SN"] or (
            i >= 2 and tokens[i - 1].tag == "SO" and tokens[i - 2].form.lower() in _UNITS)  # fmt: skip
        if paired:
            continue  # '10년-2년 스프레드': a pair of tenors, neither a window
        if found == "day" and ((i > 0 and tokens[i - 1].form == "월") or (
                j + 1 < len(tokens) and tokens[j + 1].form in ("기준", "자", "당일"))):  # fmt: skip
            continue  # '11월 20일', '20일 기준', '20일자': a date
        if j > i + 1 and tokens[i + 1].form in _SESSION_WORDS:
            found = "session"
        yield WindowRead(n=count, unit=found, surface=text[m.start : tokens[j].end],
                         start=m.start, end=tokens[j].end)  # fmt: skip


def read_window_stat(text: str) -> WindowStat:
    """The window and the statistic asked over it, with the spans that said it."""
    tokens = analyse(text)
    window = read_window(tokens, text)
    stat: Stat | None = None
    field: Field | None = None
    spans: list[tuple[int, int]] = []
    lowered = [t.form.lower() for t in tokens]
    has_max = has_min = False
    priced: set[str] = set()  # '최고가', '최저가': the day's high or low, unless '종가' is named
    for i, (m, form) in enumerate(zip(tokens, lowered, strict=True)):
        nxt = lowered[i + 1] if i + 1 < len(lowered) else ""
        found = STAT_WORDS.get(form)
        if (form, nxt) == ("수익", "률") and i and lowered[i - 1] == "배당":
            continue  # '배당수익률' is the dividend yield, a measure, not a return over a window
        if (form, nxt) in _TWO_WORDS:
            found = _TWO_WORDS[form, nxt]
            spans.append((tokens[i + 1].start, tokens[i + 1].end))
        elif form in ("평균", "average") and i and lowered[i - 1] in ("이동", "moving"):
            continue
        elif form == "선" and i and lowered[i - 1] == "일" and tokens[i - 1].end == m.start:
            found = "moving_average"  # '20일선': the 20-day moving average line
        if found is None:  # '거래대금' is 거래 + 대금 to Kiwi
            field = field or _FIELDS.get(form + nxt) or _FIELDS.get(form)
            continue
        after = lowered[i + 2] if i + 2 < len(lowered) else ""
        if found == "sum" and "return" in (STAT_WORDS.get(nxt), _TWO_WORDS.get((nxt, after))):
            spans.append((m.start, m.end))  # '누적 수익률', '누적 변화율': the return itself
            continue
        if found in ("max", "min") and nxt == "가" and tokens[i + 1].start == m.end:
            priced.add(found)  # '최고가' (Kiwi reads the 가 of '최고가 최저가' as a particle too)
        has_max |= found == "max"
        has_min |= found == "min"
        if stat is None or _PRECEDENCE[found] > _PRECEDENCE[stat]:
            stat = found
        spans.append((m.start, m.end))
    if priced and "종가" not in lowered and "close" not in lowered:
        field = "high_low" if len(priced) == 2 else "high" if "max" in priced else "low"
    gaps = [(t.start, t.end) for t, w in zip(tokens, lowered, strict=True) if w in _GAP_WORDS]
    if {"high", "low"} <= set(lowered) or {"고가", "저가"} <= set(lowered):
        # 'high low', '고가 저가': both ends; '고가와 저가 차이': the width between them
        field, stat = "high_low", stat or ("range" if gaps else "extremes")
        spans += [(t.start, t.end) for t, w in zip(tokens, lowered, strict=True)
                  if w in ("high", "low", "고가", "저가")] + (gaps if stat == "range" else [])  # fmt: skip
    if has_max and has_min:  # '최고치와 최저치': both ends; with '차이', the width between them
        stat, spans = ("range", spans + gaps) if gaps else ("extremes", spans)
    counted = _days_moved(tokens)  # '15거래일 중 상승한 날 몇 번?': a count of the days
    if counted is not None:
        stat, said = counted
        spans += said
    if stat == "std" and field is None:
        stat = "volatility"  # '20거래일 표준편차' of a price is of its returns; '종가 표준편차' of closes
    if window is not None and stat in ("moving_average", "volatility") and window.unit == "day":
        window.unit = "session"  # a '20일 이동평균', '20일 변동성' is over 20 sessions, as quoted
    usual = next((t for t in tokens if t.form in ("평소", "평상시", "usual")), None)
    if usual is not None and stat is None and window is None:
        # '오늘 거래량 평소보다 많아?': the usual level is the last 20 sessions' average
        stat, window = "avg", WindowRead(n=20, unit="session", surface=usual.form,
                                         start=usual.start, end=usual.end)  # fmt: skip
        spans.append((usual.start, usual.end))
    return WindowStat(window=window, stat=stat, field=field, spans=_joined(spans))


def _joined(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Spans that touch are one word ('수익'+'률', '이동'+'평균'): the trace names it whole."""
    out: list[tuple[int, int]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(b, out[-1][1]))
        else:
            out.append((a, b))
    return out


def stat_of_word(word: str) -> Stat | None:
    """The statistic one word of the question names ('수익률' a return, '평균' a mean): the same
    reading as the question's, over the word alone."""
    return read_window_stat(word).stat


# '넘은 적 있어?', '30 넘은 날 있어?', 'ever': a question of the window's days (every screen)
_EVER_SAID = (
    r"적\s*(?:이|있|없)|(?<=[가-힣] )적(?=\s|\?|$)|\bever\b"
    r"|(?<=[가-힣] )(?:날|때|달)\s*(?:이\s*)?(?:있|없)"
)
EVER = re.compile(_EVER_SAID, re.IGNORECASE)
# … or how many of them ('며칠', '몇 번'), when, or the days themselves ('100만주 넘은 날')
DAYS_ASKED = re.compile(_EVER_SAID + r"|며칠|몇\s*(?:번|회|일)|언제|how many|when"
                        r"|(?<=[가-힣] )날(?=\s|$|\?|들)|(?<=[던은는인] )달(?=\s|$|\?|들)",
                        re.IGNORECASE)  # fmt: skip


_UP = frozenset({"오르", "상승", "올라가", "up", "rose", "rise", "gained"})
_DOWN = frozenset({"내리", "하락", "떨어지", "빠지", "down", "fell", "fall", "drop", "lost"})
_COUNT_WORDS = frozenset({"몇", "며칠", "수", "횟수", "개수", "many", "count"})


def _days_moved(tokens: tuple[Morpheme, ...]) -> tuple[Stat, list[tuple[int, int]]] | None:
    """'상승한 날 몇 번', '오른 날 며칠', '하락일 수', 'how many up days': the count of the
    window's sessions that rose (fell) from the one before."""
    forms = [t.form.lower() for t in tokens]
    if "연속" in forms:  # '몇 일 연속 올랐어?': a run up to the latest, not a count of days
        return None
    for i, form in enumerate(forms):
        if form not in _UP | _DOWN:
            continue
        day = next((j for j in range(i + 1, min(i + 4, len(forms)))  # '하락일' is 하락 + 이 + ᆯ
                    if forms[j] in ("날", "일", "day", "days", "sessions")
                    or (forms[j] == "이" and tokens[j].tag == "VCP")), None)  # fmt: skip
        count = next((j for j in range(i + 1, len(forms)) if forms[j] in _COUNT_WORDS), None)
        stat: Stat = "up_days" if form in _UP else "down_days"
        if day is not None and count is not None:
            return stat, [(tokens[k].start, tokens[k].end) for k in (i, day, count)]
        # '몇 번 올랐어', '며칠 하락했어', '오른 횟수', 'how many times did it rise'
        times = [j for j in range(max(0, i - 5), min(i + 4, len(forms)))
                 if forms[j] in _TIMES or (forms[j] == "몇" and j + 1 < len(forms)
                                           and forms[j + 1] in _COUNTERS)]  # fmt: skip
        if times:
            said = {k for j in times for k in (j, j + 1) if forms[j] == "몇"} | set(times)
            return stat, [(tokens[k].start, tokens[k].end) for k in sorted({i, *said})]
    return None


_TIMES = frozenset({"며칠", "횟수", "times"})
_COUNTERS = frozenset({"번", "회", "일", "차례"})
# a more specific statistic wins: '이동평균' over '평균', '변동성' over '변화'
_PRECEDENCE: dict[Stat, int] = {
    "moving_average": 5, "range": 5, "extremes": 5, "volatility": 4, "std": 4, "avg": 3, "sum": 3,
    "max": 3, "min": 3, "return": 2, "change": 1, "up_days": 6, "down_days": 6}  # fmt: skip
