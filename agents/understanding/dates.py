"""A day named in words, read from Kiwi morphemes: a calendar span relative to today and an edge
of it ('지난 분기 말', '올해 첫 거래일', '작년 말', '이번 달 초', '연말', 'end of last quarter').

    read_date_point("미국 10년물 금리 지난 분기 말 값", today=date(2026, 11, 28))
    # DatePoint(day=date(2026, 9, 30), edge='last', surface='지난 분기 말', …)

A point said as a change's base ('올해 첫 거래일 대비') is marked `base`: the parser makes it the
start of the period (a span the vocabulary names, '작년 말 대비', stays the period reader's). A point that has not come yet ('이번 달 말' before it ends) is not read, so the
coverage says it was not understood instead of answering with today's value.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Literal

from dateutil.relativedelta import relativedelta

from agents.understanding.morphemes import Morpheme, analyse
from data_access.seed.calendar import next_trading_day, previous_trading_day

Scale = Literal["year", "quarter", "month", "week"]
Edge = Literal["first", "last"]

# a calendar span by its offset from the current one ('지난' → -1)
_SPANS: dict[str, tuple[Scale, int]] = {
    "올해": ("year", 0), "올": ("year", 0), "금년": ("year", 0), "작년": ("year", -1), "지난해": ("year", -1),
    "전년": ("year", -1), "재작년": ("year", -2), "이달": ("month", 0), "금월": ("month", 0),
    "지난달": ("month", -1), "전월": ("month", -1), "저번달": ("month", -1),
    "지난주": ("week", -1), "이번주": ("week", 0), "금주": ("week", 0), "전주": ("week", -1),
    "지지난주": ("week", -2), "지지난달": ("month", -2), "지지난해": ("year", -2),
}  # fmt: skip
_SCALES: dict[str, Scale] = {"해": "year", "년": "year", "year": "year", "분기": "quarter",
                             "quarter": "quarter", "달": "month", "월": "month", "month": "month",
                             "주": "week", "week": "week"}  # fmt: skip
_OFFSETS = {"이번": 0, "this": 0, "지나": -1, "지난": -1, "지지난": -2, "전": -1, "직전": -1, "저번": -1,
            "last": -1, "previous": -1}  # fmt: skip
# '지난달 15일', '이번 달 3일': a day of a month said by its place ('지난 15일' is a window), the
# month words those of the spans above
_MONTH_WORDS = {w: offset for w, (scale, offset) in _SPANS.items() if scale == "month"}
_MONTH_DAY_SAID = re.compile(r"(?P<w>" + "|".join([*map(re.escape, _MONTH_WORDS),
                             r"(?:지난|이번|저번)\s*달"]) + r")\s*(?P<d>\d{1,2})\s*일"
                             r"(?!\s*(?:간|동안|연속))")  # fmt: skip


def read_month_day(text: str, today: date) -> tuple[date, int, re.Match[str]] | None:
    """'지난달 15일': the first day of the month said, the day number and where it was said."""
    m = _MONTH_DAY_SAID.search(text)
    if m is None:
        return None
    compact = re.sub(r"\s+", "", m.group("w"))
    offset = _MONTH_WORDS.get(compact, _OFFSETS.get(compact.removesuffix("달"), 0))
    return today.replace(day=1) + relativedelta(months=offset), int(m.group("d")), m


# a span and its edge in one word ('연말' is the end of the last full year)
_EDGE_WORDS: dict[str, tuple[Scale, int, Edge]] = {
    "연말": ("year", -1, "last"), "연초": ("year", 0, "first"), "월말": ("month", -1, "last"),
    "월초": ("month", 0, "first"), "분기말": ("quarter", -1, "last"),
    "year-end": ("year", -1, "last"),
}  # fmt: skip
# a part of a year named by a word: its first month and how many months ('겨울' runs into the next year)
_YEAR_PARTS = {"상반기": (1, 6), "하반기": (7, 6), "봄": (3, 3), "여름": (6, 3), "가을": (9, 3),
               "겨울": (12, 3)}  # fmt: skip
_WEEKDAYS = {w: i for i, words in enumerate((
    ("월요일", "monday"), ("화요일", "tuesday"), ("수요일", "wednesday"), ("목요일", "thursday"),
    ("금요일", "friday"), ("토요일", "saturday"), ("일요일", "sunday"))) for w in words}  # fmt: skip
_AHEAD = frozenset({"다음", "next", "오", "coming", "내주", "차주", "다가오"})  # '다음 주 월요일'
# '작년 연말', '2024년 연초': the year's edge said again with the year
_LAST = frozenset({"말", "끝", "마지막", "막", "연말", "end", "last"})
_FIRST = frozenset({"초", "첫", "처음", "시작", "연초", "start", "beginning", "first"})
_DAY_WORDS = frozenset({"거래일", "영업일", "날", "일", "세션", "day", "session", "trading"})
BASE_AFTER = frozenset({"대비", "이후", "부터", "보다", "比", "since", "vs"})


@dataclass(frozen=True)
class DatePoint:
    day: date
    edge: Edge
    surface: str
    start: int
    end: int
    base: bool = False  # said as a change's base ('올해 첫 거래일 대비')


def read_date_point(text: str, today: date | None = None) -> DatePoint | None:
    """The first day named by a span and its edge, resolved against `today`."""
    today = today or date.today()
    if (named := read_named_day(text, today)) is not None:
        return named
    tokens = analyse(text)
    for i in range(len(tokens)):
        found = _span_at(tokens, i, today)
        if found is None:
            continue
        (first, last), j, edge = found
        edge, j = _edge_after(tokens, j, edge)
        if edge is None:
            continue
        day = _on_edge(first, last, edge, tokens[i:j])
        if day > today:
            return None  # not come yet
        after = [t.form.lower() for t in tokens[j : j + 3]]  # '작년 말 대비', '지난달 말에 비해'
        return DatePoint(day=day, edge=edge, surface=text[tokens[i].start : tokens[j - 1].end],
                         start=tokens[i].start, end=tokens[j - 1].end,
                         base=bool(after) and (after[0] in BASE_AFTER or after[:2] in (
                             ["에", "비하"], ["에", "비교"])))  # fmt: skip
    return None


def _span_at(tokens: tuple[Morpheme, ...], i: int,
             today: date) -> tuple[tuple[date, date], int, Edge | None] | None:  # fmt: skip
    """The calendar span starting at token i, the index after it, and an edge said with it."""
    form = tokens[i].form.lower()
    before = {t.form.lower() for t in tokens[max(0, i - 2) : i]}
    if i and tokens[i - 1].end == tokens[i].start and tokens[i - 1].form + form in _SPANS:
        form = tokens[i - 1].form + form  # Kiwi reads '지지난주' as 지 + 지난주: the word glued
    if form in _WEEKDAYS and not before & _AHEAD:  # '금요일 종가': the last such day up to today
        day = today - timedelta(days=(today.weekday() - _WEEKDAYS[form]) % 7)
        return (day, day), i + 1, "last"
    if (tokens[i].tag == "SN" and form.isdigit() and 2000 <= int(form) <= 2100
            and i + 1 < len(tokens) and tokens[i + 1].form == "년"):  # fmt: skip
        # '2025년 말': a year by its number, with an edge after it ('2025년 3분기 말')
        return _quarter_of(tokens, i + 2, int(form)) or (_months(int(form), 1, 12), i + 2, None)
    if (tokens[i].tag == "SN" and form.isdigit() and [t.form for t in tokens[i + 1 : i + 3]]
            == ["주", "전"] and i + 3 < len(tokens) and tokens[i + 3].form in _WEEKDAYS):  # fmt: skip
        # '2주 전 월요일': that day of the week N weeks back
        return _weekday_of(_span("week", -int(form), today), "week", tokens, i + 3)
    if form == "재" and i + 1 < len(tokens) and tokens[i + 1].form == "작년":  # Kiwi: 재 + 작년
        return _span("year", -2, today), i + 2, None
    if form in _EDGE_WORDS:
        scale, offset, edge = _EDGE_WORDS[form]
        return _span(scale, offset, today), i + 1, edge
    if form in _SPANS:
        scale, offset = _SPANS[form]
        j = i + 1
        if scale == "year" and j < len(tokens) and tokens[j].form in _YEAR_PARTS:
            return _months(today.year + offset, *_YEAR_PARTS[tokens[j].form]), j + 1, None
        if scale == "year" and (quarter := _quarter_of(tokens, j, today.year + offset)):
            return quarter  # '올해 1분기 말'
        return _weekday_of(_span(scale, offset, today), scale, tokens, j)
    if tokens[i].tag == "SN" and form in ("1", "2", "3", "4") and (quarter := _quarter_of(
            tokens, i, today.year - (date(today.year, int(form) * 3, 1) > today))):  # fmt: skip
        return quarter  # '1분기 말': of this year once it has ended, else of last year
    if form in ("상반기", "하반기"):
        return _months(today.year, *_YEAR_PARTS[form]), i + 1, None
    if form in _OFFSETS:
        j = i + 2 if i + 1 < len(tokens) and tokens[i + 1].tag == "ETM" else i + 1  # '지나' + 'ㄴ'
        said = tokens[j].form.lower() if j < len(tokens) else ""
        if said in _WEEKDAYS and form in ("last", "지나", "지난", "저번"):
            day = today - timedelta(days=(today.weekday() - _WEEKDAYS[said]) % 7 or 7)
            return (day, day), j + 1, "last"  # '지난 금요일', 'last Friday': the one before today
        if said in _SCALES:
            return _weekday_of(_span(_SCALES[said], _OFFSETS[form], today), _SCALES[said], tokens,
                               j + 1)  # fmt: skip
    if form in ("end", "start", "beginning") and i + 2 < len(tokens) and tokens[i + 1].form == "of":
        inner = _span_at(tokens, i + 2, today)
        if inner is not None:
            return inner[0], inner[1], "last" if form == "end" else "first"
    return None


def _weekday_of(span: tuple[date, date], scale: Scale, tokens: tuple[Morpheme, ...],
                j: int) -> tuple[tuple[date, date], int, Edge | None]:  # fmt: skip
    """'지난주 금요일', '이번 주 월요일': that day of the week named."""
    if scale == "week" and j < len(tokens) and tokens[j].form.lower() in _WEEKDAYS:
        day = span[0] + timedelta(days=_WEEKDAYS[tokens[j].form.lower()])
        return (day, day), j + 1, "last"
    return span, j, None


def _quarter_of(tokens: tuple[Morpheme, ...], j: int,
                year: int) -> tuple[tuple[date, date], int, Edge | None] | None:  # fmt: skip
    """'3분기' at token j: that quarter of `year`, and the index after it."""
    if (j + 1 < len(tokens) and tokens[j].form in ("1", "2", "3", "4")
            and tokens[j + 1].form == "분기"):  # fmt: skip
        q = int(tokens[j].form)
        return _months(year, q * 3 - 2, 3), j + 2, None
    return None


def _edge_after(tokens: tuple[Morpheme, ...], j: int, edge: Edge | None) -> tuple[Edge | None, int]:
    """'말', '첫 거래일', '마지막 영업일' after the span (the day word is part of the edge)."""
    if edge is None and j < len(tokens):
        form = tokens[j].form.lower()
        edge = "last" if form in _LAST else "first" if form in _FIRST else None
        j += edge is not None
    while edge is not None and j < len(tokens) and tokens[j].form.lower() in _DAY_WORDS:
        j += 1
    return edge, j


def _on_edge(first: date, last: date, edge: Edge, said: tuple[Morpheme, ...]) -> date:
    """The edge day; '첫 거래일' of a span is its first session, '말' its last calendar day
    (the screens read a value on or before it)."""
    if edge == "first":
        sessions = any(t.form in ("거래일", "영업일", "trading", "session") for t in said)
        return next_trading_day(first, "KRX") if sessions else first
    sessions = any(t.form in ("거래일", "영업일") for t in said)
    return previous_trading_day(last, "KRX") if sessions else last


def _span(scale: Scale, offset: int, today: date) -> tuple[date, date]:
    if scale == "year":
        return _months(today.year + offset, 1, 12)
    if scale == "quarter":
        q = (today.year * 4 + (today.month - 1) // 3) + offset
        year, index = divmod(q, 4)
        return _months(year, index * 3 + 1, 3)
    if scale == "month":
        m = today.year * 12 + today.month - 1 + offset
        return _months(m // 12, m % 12 + 1, 1)
    monday = today - timedelta(days=today.weekday()) + timedelta(weeks=offset)
    return monday, monday + timedelta(days=6)


def _months(year: int, month: int, count: int) -> tuple[date, date]:
    """`count` calendar months from `month` of `year` (past December into the next year)."""
    end_year, end_month = divmod(year * 12 + month - 1 + count - 1, 12)
    end_month += 1
    return date(year, month, 1), date(end_year, end_month,
                                      calendar.monthrange(end_year, end_month)[1])  # fmt: skip


@dataclass(frozen=True)
class SpanRead:
    first: date
    last: date
    label_ko: str
    label_en: str
    start: int
    end: int


_NOT_WHOLE = (
    r"(?!\s*(?:연말|연초|말|초|첫|마지막|끝|대비|이후|부터|같은|동기|동월|이맘|이때|오늘|이날|\d))"
)
YEAR_WORDS = {word: offset for word, (scale, offset) in _SPANS.items() if scale == "year"} | {
    "this year": 0, "last year": -1}  # fmt: skip
# '올 상반기', '올 3월': '올' is this year only before a part of it ('올 것' is a verb)
_YEAR_SAID = (
    r"(?:(?P<y>20\d{2})\s*년\s*|(?P<w>올해|금년|작년|지난해|재작년|(?<![가-힣])올(?=\s*(?:상반기"
    r"|하반기|봄|여름|가을|겨울|[1-4]\s*분기|\d{1,2}\s*월)))\s*(?:의\s*)?)"
)
_RECENT = r"(?<!최근)(?<!최근 )(?<!직전)(?<!직전 )"  # "최근 2분기" is a window; "지난 2분기" is Q2
_QUARTER = re.compile(_YEAR_SAID + r"?" + _RECENT + r"(?P<q>[1-4])\s*분기" + _NOT_WHOLE)
_RELATIVE_QUARTER = re.compile(r"(?P<o>지난|이번|직전|저번|전)\s*분기" + _NOT_WHOLE)
_YEAR_PART = re.compile(r"(?:" + _YEAR_SAID + r"|(?<![가-힣]))(?P<h>" + "|".join(_YEAR_PARTS) + r")"
                        + _NOT_WHOLE)  # fmt: skip
_YEAR_PART_EN = {"상반기": "H1", "하반기": "H2", "봄": "spring", "여름": "summer", "가을": "autumn",
                 "겨울": "winter"}  # fmt: skip
_RANGE = re.compile(
    r"(?:(?P<y1>20\d{2})\s*년\s*)?(?P<m1>\d{1,2})\s*월\s*(?:부터|에서|~|-|–)\s*"
    r"(?:(?P<y2>20\d{2})\s*년\s*)?(?P<m2>\d{1,2})\s*월(?:\s*까지)?(?!\s*\d)"
)
_YEAR = re.compile(
    r"(?<!\d)(?:(?P<y>20\d{2})\s*년(?!\s*\d)|(?P<w>올해|금년|작년|지난해|재작년))" + _NOT_WHOLE
)


_ORDINALS = {"첫째": 1, "첫번째": 1, "첫": 1, "둘째": 2, "두번째": 2, "셋째": 3, "세번째": 3, "넷째": 4,
             "네번째": 4, "다섯째": 5, "마지막": -1}  # fmt: skip
# a month by number ('3월', of a year said) or by its place ('지난달', '이번 달')
_MONTH_SAID = (_YEAR_SAID + r"?(?:(?P<m>\d{1,2})\s*월|(?P<o>지지난|지난|저번|이번)\s*달|"
               r"(?P<r>전월|이달|금월))\s*")  # fmt: skip
_NTH_WEEKDAY = re.compile(_MONTH_SAID + r"(?P<n>" + "|".join(_ORDINALS)
                          + r")\s*주\s*(?P<d>[월화수목금토일])요일")  # fmt: skip


# days named by a word, on a fixed date ('작년 크리스마스'; lunar holidays move, and are not here)
_NAMED_DAYS = {"크리스마스": (12, 25), "성탄절": (12, 25), "christmas": (12, 25), "신정": (1, 1),
               "새해 첫날": (1, 1), "삼일절": (3, 1), "어린이날": (5, 5), "현충일": (6, 6),
               "광복절": (8, 15), "개천절": (10, 3), "한글날": (10, 9)}  # fmt: skip
_NAMED_DAY = re.compile(_YEAR_SAID + r"?(?P<d>"
                        + "|".join(_NAMED_DAYS) + ")", re.IGNORECASE)  # fmt: skip


def read_named_day(text: str, today: date) -> DatePoint | None:
    """A day named in words: '3월 둘째 주 금요일' (the second Friday of March, '마지막 주' the
    last) or '작년 크리스마스', of the latest such that has come (a year said: of it)."""
    if (m := _NAMED_DAY.search(text)) is not None:
        month, day_of_month = _NAMED_DAYS[m.group("d").lower()]
        year = _said_year(m, today) or today.year - (date(today.year, month, day_of_month) > today)
        day = date(year, month, day_of_month)
        return None if day > today else DatePoint(day, "last", m.group(0), *m.span())
    m = _NTH_WEEKDAY.search(text)
    if m is None or (said := _month_of(m, today)) is None:
        return None
    weeks, n = _month_weeks(*said), _ORDINALS[m.group("n")]
    if n > len(weeks):
        return None
    day = weeks[n - 1 if n > 0 else -1] + timedelta(days="월화수목금토일".index(m.group("d")))
    return None if day > today else DatePoint(day, "last", m.group(0), *m.span())


def _month_weeks(year: int, month: int) -> list[date]:
    """The Mondays of a month's weeks, counted as Korean calendars do: the first is the week of
    the month's first weekday ('1월 둘째 주' of 2026 is 5–9 January); the last ('마지막 주')
    holds most of its five weekdays in the month, its Wednesday ('9월 마지막 주' is 28–30
    September; a week with only 31 August is not August's)."""
    first, end = date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1])
    if first.weekday() > 4:  # a Saturday or Sunday 1st: the first week is the next one
        first += timedelta(days=7 - first.weekday())
    last_weekday = end - timedelta(days=max(0, end.weekday() - 4))
    weeks, monday = [], first - timedelta(days=first.weekday())
    while monday <= last_weekday:
        weeks.append(monday)
        monday += timedelta(days=7)
    if len(weeks) > 1 and (weeks[-1] + timedelta(days=2)).month != month:
        weeks.pop()  # the last week holds fewer than three of the month's weekdays
    return weeks


def read_calendar_span(text: str, today: date, *, over_days: bool) -> SpanRead | None:
    """A calendar span named whole: '3월부터 6월까지', and with `over_days` (a statistic of its
    days or a return over it is asked) 'N분기' (of a year said or the latest such), '지난
    분기', '상반기' or a year ('작년 합계', '3분기 수익률', '2025년 최고치'); said alone, a
    quarter is a reported one ('지난 분기 EPS'). A span with an edge or a base ('지난 분기 말',
    '작년 대비') is a day or a period, read elsewhere."""
    found = _range(text, today)
    if found is not None or not over_days:
        return found
    for found in (
        _quarter(text, today),
        _year_part(text, today),
        _nth_month(text, today),
        _nth_week(text, today),
        _week_or_month(text, today),
    ):
        if found is not None:
            return found
    if (m := _YEAR.search(text)) is None or (year := _said_year(m, today)) is None:
        return None
    return SpanRead(*_months(year, 1, 12), f"{year}년", str(year), *m.span())


_NTH_WEEK = re.compile(_MONTH_SAID + r"(?P<n>" + "|".join(_ORDINALS)
                       + r")\s*주(?!\s*[월화수목금토일]요일)")  # fmt: skip


def _month_of(m: re.Match[str], today: date) -> tuple[int, int] | None:
    """The year and month a `_MONTH_SAID` match names: '3월' the latest March that has come (a
    year said: of it), '지난달' the month before the data's last day's."""
    if not m.group("m"):
        first = _span("month", _back(m.group("o") or m.group("r")), today)[0]
        return first.year, first.month
    if not 1 <= (month := int(m.group("m"))) <= 12:
        return None
    return _said_year(m, today) or today.year - (month > today.month), month


def _nth_week(text: str, today: date) -> SpanRead | None:
    """'3월 둘째 주', '지난달 셋째 주': the month's Nth Monday-to-Sunday week ('마지막 주' the
    last; weeks as `_month_weeks` numbers them)."""
    if (m := _NTH_WEEK.search(text)) is None or (said := _month_of(m, today)) is None:
        return None
    (year, month), n = said, _ORDINALS[m.group("n")]
    mondays = _month_weeks(year, month)
    if n > len(mondays) or (start := mondays[n - 1 if n > 0 else -1]) > today:
        return None
    label = f"{year}년 {month}월 {m.group('n')} 주"
    month_end = date(year, month, calendar.monthrange(year, month)[1])  # the month's days only
    return SpanRead(max(start, date(year, month, 1)), min(start + timedelta(days=6), month_end),
                    label, f"week {n} of {year}-{month:02d}", *m.span())  # fmt: skip


def _said_year(m: re.Match[str], today: date) -> int | None:
    if m.group("y"):
        return int(m.group("y"))
    return today.year + YEAR_WORDS[m.group("w")] if m.group("w") else None


def _quarter(text: str, today: date) -> SpanRead | None:
    if m := _QUARTER.search(text):
        q = int(m.group("q"))
        ended = bool(re.search(r"지난\s*$", text[: m.start()]))  # '지난 4분기': the last one ended
        year = _said_year(m, today) or (
            today.year if (q if ended else q - 1) * 3 < today.month else today.year - 1
        )
        first, last = _months(year, q * 3 - 2, 3)
    elif m := _RELATIVE_QUARTER.search(text):
        first, last = _span("quarter", 0 if m.group("o") == "이번" else -1, today)
        q, year = (first.month + 2) // 3, first.year
    else:
        return None
    return SpanRead(first, last, f"{year}년 {q}분기", f"Q{q} {year}", *m.span())


# 'over the last month' is a window; 'last month' the calendar month
_RELATIVE_MONTH = re.compile(r"(?:(?<!the )(?P<o>지지난|지난|저번|이번|last|previous|this)\s*(?:달|month\b)|"
                             r"(?P<w>전월|이달|금월))" + _NOT_WHOLE)  # fmt: skip
# '전주' is also a city: only '지난주', '저번 주', '이번 주', '금주'
_RELATIVE_WEEK = re.compile(r"(?:(?P<o>지지난|지난|저번|이번|last|previous|this)\s*(?:주(?![가-힣])|"
                            r"week\b)|(?P<w>금주))" + _NOT_WHOLE)  # fmt: skip


def _week_or_month(text: str, today: date) -> SpanRead | None:
    """'지난달 수익률', '이번 주 평균': the calendar month or week (Monday to Sunday) before or
    holding the data's last day."""
    if m := _RELATIVE_MONTH.search(text):
        first, last = _span("month", _back(m.group("o") or m.group("w")), today)
        label = first.isoformat()[:7]
        return SpanRead(first, last, label, label, *m.span())
    if m := _RELATIVE_WEEK.search(text):
        back = _back(m.group("o") or m.group("w"))
        first, last = _span("week", back, today)  # the dates follow the label
        ko, en = {0: ("이번 주", "this week"), -1: ("지난주", "last week")}.get(
            back, (f"{first} 주", f"week of {first}"))  # fmt: skip
        return SpanRead(first, last, ko, en, *m.span())
    return None


def _back(said: str) -> int:
    """How many weeks or months back a word says ('이번' 0, '지난' 1 back, '지지난' 2)."""
    return _OFFSETS[said] if said in _OFFSETS else _SPANS[said][1]


_NTH_MONTH = re.compile(_YEAR_SAID + r"(?P<n>첫|첫째|첫번째|마지막)\s*달")


def _nth_month(text: str, today: date) -> SpanRead | None:
    """'올해 첫 달', '작년 마지막 달': the year's first or last month (none yet to come)."""
    if (m := _NTH_MONTH.search(text)) is None or (year := _said_year(m, today)) is None:
        return None
    month = 12 if m.group("n") == "마지막" else 1
    first, last = _months(year, month, 1)
    label = first.isoformat()[:7]
    return None if first > today else SpanRead(first, last, label, label, *m.span())


def _year_part(text: str, today: date) -> SpanRead | None:
    """'상반기', '작년 여름': that part of the year said, else the latest one that has begun."""
    m = _YEAR_PART.search(text)
    if m is None:
        return None
    part = m.group("h")
    first_month, count = _YEAR_PARTS[part]
    year = _said_year(m, today) or today.year - (first_month > today.month)
    first, last = _months(year, first_month, count)
    return SpanRead(first, last, f"{year}년 {part}", f"{_YEAR_PART_EN[part]} {year}", *m.span())


def _range(text: str, today: date) -> SpanRead | None:
    m = _RANGE.search(text)
    if m is None:
        return None
    m1, m2 = int(m.group("m1")), int(m.group("m2"))
    if not (1 <= m1 <= 12 and 1 <= m2 <= 12):
        return None
    y2 = int(m.group("y2") or m.group("y1") or 0) or (today.year if m2 <= today.month
                                                       else today.year - 1)  # fmt: skip
    y1 = int(m.group("y1") or 0) or (y2 if m1 <= m2 else y2 - 1)
    first, last = date(y1, m1, 1), date(y2, m2, calendar.monthrange(y2, m2)[1])
    if first > last:
        return None
    ko = f"{y1}-{m1:02d} ~ {y2}-{m2:02d}"
    return SpanRead(first, last, ko, ko, *m.span())
