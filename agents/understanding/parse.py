"""`understand(question, lexicon)` → `QuestionFrame`: entities, measures, one operation, period,
references to the previous turn — from the vocabulary file, not a rule per question.

    understand("보수가 0.1% 이하인 반도체 ETF 중 6개월 수익률 1위", lex)
    # operation: rank top 1 desc by return, with filter expense_ratio <= 0.1 %; tag 반도체; 6m

Order of reading: entities (masked out of the text), as-of date and period, numbers, then the
operation words. The screen planners decide what they can compile; this module only reads.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import replace
from datetime import date, timedelta
from typing import Any, Literal

from dateutil.relativedelta import relativedelta

from agents.understanding.advice import asks_advice
from agents.understanding.coverage import ORDERING_ADJECTIVES, PICKED, READ, UNAPPLIED, mark_read
from agents.understanding.dates import (
    BASE_AFTER,
    YEAR_WORDS,
    SpanRead,
    read_calendar_span,
    read_date_point,
    read_month_day,
    read_named_day,
)
from agents.understanding.frame import (
    AMBIGUOUS,
    ANY_BAR,
    DAY_OF_MOVE,
    HOUSING_MEASURES,
    MEASURE_UNITS,
    MONTH_OF_MOVE,
    SPAN_AND_NOW,
    CalendarSpan,
    Condition,
    Entity,
    Measure,
    Operation,
    Period,
    QuestionFrame,
)
from agents.understanding.lexicon import ETF_KINDS, Lexicon
from agents.understanding.morphemes import Morpheme, analyse
from agents.understanding.names import (
    correct_words,
    link_name_words,
    link_short_names,
    link_typos,
)
from agents.understanding.unheld import read_unexplained_subject, read_unheld_names
from agents.understanding.vocabulary import (
    Hit,
    english_forecast,
    find_phrases,
    unheld_places,
    vocabulary,
    vocabulary_words,
)
from agents.understanding.windows import (
    DAYS_ASKED,
    STAT_WORDS,
    WindowRead,
    read_window_stat,
    windows,
)
from data_access import figures as fig
from data_access.seed.calendar import next_trading_day, previous_trading_day
from data_access.seed.news_text import josa

_HANGUL = re.compile(r"[\uac00-\ud7a3]")
_WORD_CHAR = re.compile(r"[0-9A-Za-z가-힣]")
_MASK = "\u25a1"  # keeps positions; never part of a phrase or a number
# a number and its unit; Korean amounts may be compound ('5천억', '1조 5천억', '3천만')
_COUNTERS = "(?:원|호|건|명|주|가구|세대|채|개|대|달러)"
_NUMBER = re.compile(
    r"(?<![\w.])([-−+]?\d+(?:[.,]\d+)*)\s*(%p|%|퍼센트|프로|percent|천억|백억|천만|억|조"
    rf"|[만천](?![가-힣])|[만천](?={_COUNTERS})"
    r"|trillion|billion|bp)?(?:(?<=조)\s*(\d+)\s*(천억|백억|억)|(?<=만)\s*(\d+)\s*(천))?"
)  # '2만7천원': a compound after 만 too
_TIMES = {"만": 10_000.0, "천": 1_000.0}  # '1만호', '5천 건', '100만주': a count, not won
_EOK_PER = {
    "조": 10_000.0,
    "천억": 1_000.0,
    "백억": 100.0,
    "억": 1.0,
    "천만": 0.1,
    "만": 0.0001,
    "천": 0.00001,
}
_DATE = re.compile(r"(20\d{2})\s*[-./년]\s*(\d{1,2})\s*[-./월]\s*(\d{1,2})\s*일?")
_MONTH = re.compile(r"(?:(?P<y>20\d{2})\s*년\s*)?(?P<m>\d{1,2})\s*월\s*(?P<edge>(?:마지막|첫)\s*"
                    r"(?:거래일|영업일|날)|말|초|첫날|)(?!\s*\d)")  # fmt: skip
_MONTH_EN = re.compile(  # an English month only with a year or 'end of' ('may' is a word)
    r"(?:(?P<edge>end of |beginning of |start of )(?:the month of )?)?\b(?P<m>"
    r"jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)(?:[a-z]*)\.?\s*,?\s*(?P<y>20\d{2})\b"
)
_YEAR = re.compile(r"(20\d{2})\s*년?")
# a year said in words before a month ('재작년 12월'): the longest word first, so 재작년 is not 작년
_YEAR_WORD = re.compile(
    r"(?<![가-힣])(" + "|".join(sorted(YEAR_WORDS, key=len, reverse=True)) + r")\s*$"
)
_MONTH_DAY = re.compile(r"(?<![\d.])(\d{1,2})\s*월\s*(\d{1,2})\s*일")
_MONTHS_EN = {m: i for i, m in enumerate(
    "jan feb mar apr may jun jul aug sep oct nov dec".split(), 1)}  # fmt: skip
_TOP_N = re.compile(
    r"(?:상위|하위|톱|top|bottom|best|worst|cheapest|lowest|highest|largest|biggest)\s*(\d{1,3})"
    r"|(\d{1,3})\s*(?:개(?!월)|위|종목|곳|군데|funds?|etfs?|stocks?|holdings|cheapest|largest|biggest|best"
    r"|lowest|highest|smallest|worst|most|top)"
)
# 'KR Top50', 'US top 50 유니버스': the universe's name, not a top-N
_UNIVERSE_NAME = re.compile(r"\b(kr|us|한국|미국)\s*top\s*50$")
# 'Nasdaq 100 ETF', '코스닥 150 ETF': the number closes an index's name (or a name the lexicon
# read), it is not a count
_INDEX_BEFORE = re.compile(
    r"(?:\u25a1|nasdaq|s&p|kospi|kosdaq|나스닥|코스피|코스닥|msci|russell|stoxx|nikkei|닛케이|dow|다우)\s*$"
)
WHY_NOTE = (
    "asks:why"  # what moved it ('왜', 'what drove'): kept for a follow-up of the same subject
)
# 'A가 나아 B가 나아?': which to buy is not judged; the two named funds are compared on facts
ADVICE_COMPARED = "advice_compared:"
# '최근 1년 최고치' → '그때 무슨 일 있었어?': the events near the date the extreme was reached
EXTREME_ANCHOR = "anchor:extreme"
RATIO = "ratio"  # a difference asked as a quotient ('A가 B의 몇 배야?')
BAR_AT = "bar_at:"  # 'bar_at:mean': the set's own mean (or median) of the measure is the bar
AT_EXTREME = "at_extreme:"  # '<A>가 가장 높았던 달의 <B>': B read on the day A peaked (key:side)
_PERIOD_MONTHS = {"1d": 1 / 30, "1w": 0.25, "1m": 1.0, "3m": 3.0, "6m": 6.0, "1y": 12.0}
_DATA_WORDS = (
    "현재",
    "지금",
    "최근",
    "얼마",
    "최신",
    "수치",
    "latest",
    "current",
    "now",
    "level",
    "reading",
    " at?",
    " at ",
    "몇",
    "today",
)


_ACRONYMS = frozenset({"vs", "per", "pbr", "eps", "roe", "etf", "pe", "bp", "yoy", "mom", "cpi"})


def language_of(question: str, entities: list[Entity]) -> str:
    """Korean when Hangul remains outside the linked names ('expense ratio of TIGER 미국S&P500?'
    is English); English for English words ('KODEX 200 fee?'), Korean for names and acronyms."""
    rest = question
    for e in sorted(entities, key=lambda e: -e.start):
        if e.start >= 0:
            rest = rest[: e.start] + " " + rest[e.end :]
    if _HANGUL.search(rest):
        return "ko"
    words = re.findall(r"[A-Za-z]{2,}", rest)
    if _HANGUL.search(question):  # 'NAVER PBR vs 카카오', '삼성물산 PER PBR': acronyms and 'vs'
        # beside a Korean name are no English, in any case ('현대건설 per')
        words = [w for w in words if w.lower() not in _ACRONYMS and not w.isupper()]
    if len(words) >= 2 or (words and not words[0].isupper()):
        return "en"
    return "ko"  # names and an acronym only ('KODEX 200 PER', '069500'): the users' language


def understand(
    question: str,
    lexicon: Lexicon,
    *,
    kinds: frozenset[str] = ETF_KINDS,
    previous: QuestionFrame | None = None,
    previous_result: list[str] | None = None,
) -> QuestionFrame:
    """Read one question (and the previous turn's frame, for follow-ups) into a frame."""
    entities = _recognized(question, lexicon, kinds)
    linked_notes = _link_typos(question, lexicon, kinds, entities)
    taken = [(e.start, e.end) for e in entities if e.start >= 0]
    question, corrected = correct_words(question, vocabulary_words(), taken)
    if corrected:  # same length: every span stays; the corrected word may be part of a name
        found = _recognized(question, lexicon, kinds)
        entities = sorted(found + [e for e in entities if not any(
            f.start < e.end and e.start < f.end for f in found)], key=lambda e: e.start)  # fmt: skip
        linked_notes += corrected
    linked_notes += _same_theme(question, entities, lexicon, previous)
    text = _digits_for_number_words(_masked(question.lower(), entities))
    ambiguous = [n for n in linked_notes if n.startswith(AMBIGUOUS)]  # a question back
    frame = QuestionFrame(question=question, language=language_of(question, entities),  # type: ignore[arg-type]
                          entities=entities, notes=ambiguous,
                          linked_notes=[n for n in linked_notes if n not in ambiguous])  # fmt: skip
    read_unheld_names(frame, question, lexicon, kinds)
    # the screens' today is the data's last session ('지난주 금요일', '올해 첫 거래일', '3일 전')
    today = date.fromisoformat(lexicon.latest_session) if lexicon.latest_session else date.today()
    text = _read_as_of(frame, text, today)
    text = _read_days_ago(frame, text, lexicon.latest_session)
    text = _read_period(frame, text)
    _span_length_restated(frame)
    if frame.period is None and (latest := _LATEST_UNIT.search(question)):
        frame.notes.append(READ + latest.group(1))  # '최근 월': the latest month, as looked up
    if "series" in kinds:
        _read_series_words(frame, text)
    before_measures = text
    text = _read_measures(frame, text, funds="etf" in kinds)
    _read_relation(frame, before_measures)  # 'holdings changes' holds a measure word
    _foreign_housing(frame)
    if "re_region" in kinds:  # '서울 미분양' → '경기는?': the housing talk goes on
        _read_housing_region_words(frame, previous)
    if not (frame.of("re_region") or _HOUSING_WORD.search(question)
            or (previous is not None and previous.of("re_region"))):  # fmt: skip
        frame.measures = [m for m in frame.measures if m.name != "deal_count"]  # '공시 몇 건'
    _read_operation(frame, text, before_measures)
    _how_many_of_a_count(frame)
    if THEN_AND_NOW in frame.notes and frame.operation.kind in ("lookup", "compare"):
        frame.operation.kind, frame.operation.change_basis = "change", "period"
    _read_group_by(frame, before_measures)
    _read_relative_threshold(frame)
    _read_stock_as_bar(frame)
    _read_bar_at_the_mean(frame)
    _read_asked_term(frame)
    if frame.relation == "similar" and (m := _TOP_N.search(text)):  # '비슷한 ETF 3개'
        frame.operation.top_n = int(m.group(1) or m.group(2))
    _read_movement(frame, text)
    _read_size(frame, text)
    _read_scope(frame, before_measures)  # '금 가격': the scope words hold measure words
    if find_phrases(question.lower(), {"why": vocabulary()["why"]}):
        frame.notes.append(WHY_NOTE)
    if "stock" in kinds:
        read_unexplained_subject(frame, question, text, previous)
    _read_followup(frame, text, previous, previous_result or [], lexicon)
    if previous is not None and frame.operation.kind == "compare" and _which_is_more(frame):
        frame.operation.kind = "difference"  # '둘 중 적은 곳은?': one of the two named before
    if frame.reference is not None:
        _settle_single_subject(frame, text)
        _bar_after_a_figure(frame, previous)
    _read_comparative_to_subject(frame)
    _read_window_stat(frame, question)
    _aggregate_across(frame, previous)
    _read_at_extreme(frame)
    _read_move_pick(frame)
    frame.per_period = _per_period(question)
    _read_month_of_move(frame)
    if "re_region" in kinds:
        _read_area(frame, question)
    if (
        frame.operation.threshold_unit == "억"
        and not frame.measures
        and (frame.of("stock") or frame.of("etf"))
    ):  # '삼성전자 10만원 넘은 날 있어?', 'KODEX 200 6만원 넘어?': a bar in won is on the price
        frame.measures = [Measure(name="close", unit="원")]
    return frame


# Kiwi reads '날' after '…였던' as 나 + ㄹ: the day said, read from the text
_WHEN_AFTER = re.compile(r"\s*(날|달|때|시점|주|해|시기|분기)(?![가-힣])")
_WHEN_NOUNS = frozenset({"달", "날", "때", "시점", "주", "해", "시기", "분기", "월", "일"})
_SUPERLATIVE = re.compile(r"가장|제일|최고로?")


def _read_at_extreme(frame: QuestionFrame) -> None:
    """'미국 실업률이 가장 높았던 달의 연방기금금리', 'VIX가 제일 높았던 날 코스피', '코스피가 가장
    많이 떨어진 날 환율': the first series' extreme (or biggest one-day move) over the window names
    a day; the other is read on that day (macro derived)."""
    subjects = sorted((e for e in frame.entities if e.kind in ("series", "index") and e.start >= 0),
                      key=lambda e: e.start)  # fmt: skip
    topics = _topic_series(frame, subjects) if len(subjects) < 2 else []
    subjects = sorted([*subjects, *topics], key=lambda e: e.start)
    if len(subjects) != 2 or frame.reference is not None:
        return
    tokens = analyse(frame.question)
    for i, t in enumerate(tokens):
        said_stat = STAT_WORDS.get(t.form) if t.tag.startswith("NN") else None  # '최고치였던'
        extreme = said_stat if said_stat in ("max", "min") else None
        if not subjects[0].end <= t.start < subjects[1].start or not (
                t.tag.startswith(("VA", "VV")) or extreme):  # fmt: skip
            continue
        rest = tokens[i + 1 : i + 5]
        said = None if extreme else _SUPERLATIVE.search(frame.question, subjects[0].end, t.start)
        word, word_end = (t.form, t.end) if extreme else (said.group(0), said.end()) if said else (
            "", 0)  # fmt: skip
        when = next((r for r in rest if r.form in _WHEN_NOUNS and r.tag.startswith("NN")), None)
        past = next((r for r in rest if r.form == "던"), None)
        if when is None and past is not None and (m := _WHEN_AFTER.match(frame.question, past.end)):
            when = replace(past, form=m.group(1), start=m.start(1), end=m.end(1))  # '…였던 날'
        if not word or when is None or when.end > subjects[1].start:
            continue
        if extreme and past is not None:  # '최근 1년 최고치였던 날'
            side = "max" if extreme == "max" else "min"
        elif t.tag == "VA" and t.form in _ORDERING_ADJECTIVES and past is not None:
            side = "min" if t.form in ("낮", "작", "적") else "max"  # '높았던': a day past
        elif (move := asked_move(frame.question[t.start : when.start])) is not None:
            side = move  # '가장 많이 떨어진 날': the day of the largest one-day fall
        else:
            continue
        # '… 날 코스피 수익률': the other's move that day, not its level
        moved = any(m.name == "return" and frame.question.lower().find(m.surface.lower(), subjects[1].start) > 0
                    for m in frame.measures)  # fmt: skip
        # 'CPI 상승률이 가장 높았던 달': the day its year-over-year rate peaked, not its level
        between = frame.question[subjects[0].end : t.start]
        rate = any(
            m.name == "return" and m.surface and m.surface in between for m in frame.measures
        ) or bool(find_phrases(between.lower(), {"y": vocabulary()["change"]["yoy"]}))
        frame.notes.append(f"{AT_EXTREME}{subjects[0].key}:{side}" + (":return" if moved else "")
                           + (":rate" if rate else ""))  # fmt: skip
        op = frame.operation
        op.kind, op.top_n, op.direction, op.aggregate = "lookup", None, None, None
        mark_read(frame, word, frame.question[word_end : when.end].strip())
        frame.entities = sorted([*frame.entities, *topics], key=lambda e: e.start)
        return


def _topic_series(frame: QuestionFrame, subjects: list[Entity]) -> list[Entity]:
    """'실업률이 가장 높았던 달의 기준금리': topics said with no region of their own are the
    series of the region the other subject has, else of the question's home market."""
    low = frame.question.lower()
    topics = vocabulary()["region_topics"]
    region = next((s["region"] for e in subjects for s in vocabulary()["series"]
                   if s["code"] == e.key), "KR" if frame.language == "ko" else "US")  # fmt: skip
    hits = find_phrases(low, {k: t["words"] for k, t in topics.items()})
    return [_series_entity(code).model_copy(update={"start": h.start, "end": h.end})
            for h in hits if (code := topics[h.label].get(region))
            and not any(e.start < h.end and h.start < e.end for e in subjects)]  # fmt: skip


_MOVE_DEGREE = re.compile(r"(?:더|가장|제일)\s*(?:많이|크게)\s*$|덜\s*$")


def _aggregate_across(frame: QuestionFrame, previous: QuestionFrame | None) -> None:
    """'에코프로 1개월 수익률' → '에코프로비엠은?' → '둘 합쳐서 평균은?': the mean is across the
    subjects of the talk (each one's figure as before), not a mean over the window."""
    op, w = frame.operation, frame.window
    subjects = [e for e in frame.entities if e.kind in ("stock", "etf", "index", "series")]
    if (previous is None or frame.reference != "same" or len(subjects) < 2
            or not all(e.inherited for e in subjects) or op.kind != "aggregate"
            or op.aggregate not in ("sum", "avg") or frame.statistic != op.aggregate
            or previous.statistic in (None, op.aggregate) or (w is not None and w.start >= 0)):  # fmt: skip
        return
    frame.statistic, frame.stat_field = previous.statistic, previous.stat_field


def _read_move_pick(frame: QuestionFrame) -> None:
    """'삼성전자와 LG전자 중 1년 덜 빠진 쪽의 PER': two subjects, one picked by how much it moved
    (its return over the period), then another figure read of it."""
    subjects = [e for e in frame.entities if e.kind in ("stock", "etf", "index", "series")]
    if len(subjects) < 2 or any(m.name == "return" for m in frame.measures) or not frame.measures:
        return
    tokens = analyse(frame.question)
    for i in range(2, len(tokens) - 1):
        verb, ending, noun = tokens[i - 2], tokens[i - 1], tokens[i]
        if not (noun.form in PICKED and ending.tag == "ETM" and verb.tag.startswith("VV")
                and tokens[i + 1].tag == "JKG"):  # fmt: skip
            continue
        said = frame.question[verb.start : ending.end]
        if asked_move(said) is None or not _MOVE_DEGREE.search(frame.question[: verb.start]):
            continue
        frame.measures.insert(0, Measure(name="return", unit=MEASURE_UNITS["return"], surface=said))
        if frame.operation.kind == "change":  # the move picks; the figure read is a level
            frame.operation.kind = "compare"
        return


def _how_many_of_a_count(frame: QuestionFrame) -> None:
    """'How many unsold homes in Busan?', '부산 미분양 몇 호?': a measure that is itself a count
    (homes, shares), of a named subject, asks its level — not a count of things."""
    op = frame.operation
    counted = [MEASURE_UNITS.get(m.name) for m in frame.measures]
    if (op.kind == "aggregate" and op.aggregate == "count" and op.comparator is None
            and frame.relation is None and counted and set(counted) <= {"units", "shares"}
            and any(e.kind in ("re_region", "stock", "etf") for e in frame.entities)):  # fmt: skip
        op.kind, op.aggregate = "lookup", None


def _span_length_restated(frame: QuestionFrame) -> None:
    """'10월 한 달 수익률', '3분기 석 달': a length said right after a span that restates it is
    the span's words, not a trailing window."""
    span, period, said = frame.span, frame.period, frame.as_of_span
    if span is None or period is None or said is None or not period.surface:
        return
    at = frame.question.find(period.surface, said[1])
    months = (date.fromisoformat(span.last) - date.fromisoformat(span.first)).days / 30.44
    if at >= 0 and not frame.question[said[1] : at].strip() and abs(period.months - months) <= 0.5:
        frame.as_of_span, frame.period = (said[0], at + len(period.surface)), None


def _bar_after_a_figure(frame: QuestionFrame, previous: QuestionFrame | None) -> None:
    """'반도체 ETF 평균 보수' → 'KODEX 200보다 높아?' / '0.3% 넘어?': a bar said alone holds the
    figure the last turn gave — its measure and its aggregate — to it; after one fund's figure
    ('KODEX 반도체 1년 수익률') a fund named as the bar is the other side of a comparison."""
    op = frame.operation
    own = [m for m in frame.measures if m.surface and m.surface.lower() in frame.question.lower()]
    if previous is None or op.comparator is None or own or not frame.measures:
        return
    if not bar_is_the_predicate(frame):
        return
    op.filter_measure = frame.measures[0].name
    before = previous.operation
    funds = [e for e in frame.entities if e.kind == "etf" and e.inherited]
    if op.threshold_of is not None and len(funds) == 1 and not frame.of("tag"):
        frame.entities.append(op.threshold_of)  # two funds compared, as said in one question
        op.kind, op.comparator, op.threshold_of, op.filter_measure = "lookup", None, None, None
    elif before.kind == "aggregate" and before.aggregate in ("avg", "sum", "max", "min"):
        op.kind, op.aggregate = "aggregate", before.aggregate


# '전용 84㎡', '59m2', '84 제곱미터': a floor area as listings write it (84.97㎡ is '84㎡')
_AREA = re.compile(r"(?:전용\s*(?:면적)?\s*)?(\d{2,3})(?:\.\d+)?\s*(?:㎡|m²|m2|제곱\s*미터|평방\s*미터)"
                   r"(?:\s*형)?", re.IGNORECASE)  # fmt: skip


_AREA_SIDE = re.compile(
    r"\s*(?:(?P<up>이상|넘는|넘은|초과|over|above)|(?P<below>이하|미만|under|below))"
)


_FLOOR = re.compile(r"(?<![\d.])(\d{1,2})\s*층(?![가-힣])")


def _read_area(frame: QuestionFrame, question: str) -> None:
    """Deal bands: '전용 84㎡' the units listed as 84㎡ (84 ≤ area < 85), '84㎡ 이상', '60㎡
    이하' a side of it; '30층 이상', '5층 이하', '10층' the floors."""
    if m := _AREA.search(question):
        n, side = float(m.group(1)), _AREA_SIDE.match(question, m.end())
        frame.area_m2 = (
            (n, n + 1.0) if side is None else (n, 1e4) if side.group("up") else (0.0, n + 1.0)
        )
        frame.area_span = (m.start(), side.end() if side else m.end())
        _band_not_a_bar(frame, n, side)
    if m := _FLOOR.search(question):
        k, side = int(m.group(1)), _AREA_SIDE.match(question, m.end())
        frame.floors = (k, k) if side is None else (k, 999) if side.group("up") else (0, k)
        frame.floor_span = (m.start(), side.end() if side else m.end())
        _band_not_a_bar(frame, k, side)


def _band_not_a_bar(frame: QuestionFrame, n: float, side: re.Match[str] | None) -> None:
    """'84㎡ 이상': the side is the band's, not a bar on a figure."""
    op = frame.operation
    if side and op.threshold == n and op.threshold_unit is None:
        op.comparator, op.threshold = None, None
        op.kind = "aggregate" if op.aggregate else "lookup"


_PER = re.compile(r"(월|분기|연도|년)\s*별|\b(monthly|quarterly|yearly|annual)\b|\bby (month|quarter|year)\b",
                  re.IGNORECASE)  # fmt: skip
_PER_UNITS = {"월": "month", "분기": "quarter", "연도": "year", "년": "year", "monthly": "month",
              "quarterly": "quarter", "yearly": "year", "annual": "year", "month": "month",
              "quarter": "quarter", "year": "year"}  # fmt: skip


def _per_period(question: str) -> Literal["month", "quarter", "year"] | None:
    """'분기별 수익률', '월별 평균', 'quarterly returns': one figure per calendar period."""
    m = _PER.search(question)
    word = next((g for g in m.groups() if g), None) if m else None
    return _PER_UNITS[word.lower()] if word else None  # type: ignore[return-value]


def _read_window_stat(frame: QuestionFrame, question: str) -> None:
    """The window and statistic reader (windows.py), outside linked names ('KODEX 200')."""
    found = read_window_stat(question)
    taken = [(e.start, e.end) for e in frame.entities if e.start >= 0]
    if frame.as_of_span:  # '사흘 전 종가': the count names the day, not a window
        taken.append(frame.as_of_span)
    w = found.window
    if w is not None and not any(a < w.end and w.start < b for a, b in taken):
        frame.window = w
    if found.stat is not None or frame.statistic is None:  # (not one a follow-up carried over)
        frame.statistic, frame.stat_field = found.stat, found.field
        frame.stat_spans = found.spans
    if found.stat == "std":  # '종가 표준편차' is of the closes, not the volatility measure
        frame.measures = [m for m in frame.measures if m.name != "volatility"]
    if found.stat in ("max", "min") and frame.measure() == "drawdown":
        frame.statistic = None  # '최대 낙폭' is one measure, its '최대' no window statistic


_GENERIC_KINDS = frozenset(
    {"tag", "sector", "region", "re_region", "manager"}
)  # parts of fund names


def _link_typos(question: str, lexicon: Lexicon, kinds: frozenset[str],
                entities: list[Entity]) -> list[str]:  # fmt: skip
    """Names typed with a typo ('SK하이닉쓰', 'KODX 200'): a unique close name joins the
    entities (in place) with a note the answer shows first; several close names are a question
    back ('ambiguous:…' in the notes the coverage reads)."""
    # a theme or sector word may be part of a typo'd fund name ('TIGR 반도체'), and a short name
    # written inside a longer word may be the start of a typo'd name ('삼성전지': 삼성 + 전지)
    taken = [(e.start, e.end) for e in entities if e.start >= 0 and e.kind not in _GENERIC_KINDS
             and not _inside_word(question, e)]  # fmt: skip
    notes = []
    brands = frozenset(b.lower() for b in lexicon.brands)  # 'KODEX 코스닥15O' starts at KODEX
    known = vocabulary_words() - brands
    words = link_name_words(question, lexicon, kinds, taken, known)  # 'hynix', 'Meta'
    if "etf" in kinds:  # 'TIGER 원유선물': the one fund whose name starts so
        words += link_short_names(question, lexicon, taken)
    taken += [(w.start, w.end) for w in words]
    for link in [*words, *link_typos(question, lexicon, kinds, taken, known)]:
        entities[:] = [e for e in entities if not (link.start <= e.start and e.end <= link.end)]
        if not link.unique:  # '삼성전지' is as close to 삼성전자 as to 삼성전기: ask which
            notes.append(f"{AMBIGUOUS}{link.surface}:" + "|".join(link.candidates))
            continue
        entities.append(Entity(kind=link.kind, key=link.key, name=link.name,  # type: ignore[arg-type]
                               start=link.start, end=link.end))  # fmt: skip
        particle = josa(link.surface, "을/를")[len(link.surface) :]
        notes.append(f"'{link.surface}'{particle} {josa(link.name, '으로/로')} 읽었습니다.")
    entities.sort(key=lambda e: e.start)
    return notes


def _inside_word(question: str, e: Entity) -> bool:
    """A name that ends inside a written word whose rest is not a particle or an ending
    ('삼성전지' holds the alias 삼성; '삼성전자가' is the name and its particle)."""
    if e.end >= len(question) or not question[e.end].isalnum():
        return False
    rest = [
        t for t in analyse(question) if e.end <= t.start and t.start < _word_end(question, e.end)
    ]
    return any(not t.tag.startswith(("J", "E", "X", "VCP")) and t.form not in _PARTICLES
               for t in rest)  # fmt: skip


# particles Kiwi may tag as nouns after a number ('KODEX 200과 …': 과/NNG)
_PARTICLES = frozenset("과 와 랑 이랑 하고 도 만 은 는 이 가 을 를 의 에 보다".split())


def _word_end(question: str, at: int) -> int:
    while at < len(question) and question[at].isalnum():
        at += 1
    return at


_SAME_THEME = re.compile(r"(?:같은|동일한?)\s*(?:테마|섹터|분야)의?|\bsame (?:theme|sector)\b")


def _same_theme(question: str, entities: list[Entity], lexicon: Lexicon,
                previous: QuestionFrame | None) -> list[str]:  # fmt: skip
    """'TIGER 2차전지테마랑 같은 테마의 KODEX ETF', '(…) → 같은 테마 KODEX는?': the fund of a brand
    that shares a theme with the fund named (or talked about) is named in place (in place of
    the brand, so a follow-up replaces the subject); several: the theme and the brand, a set."""
    m = _SAME_THEME.search(question)
    if m is None:
        return []
    # the brand said alone ('… TIGER ETF'; a short-name link may have read it as one fund)
    brand = next(((b, i) for b in lexicon.brands if (i := question.find(b)) >= 0 and not any(
        e.start <= i < e.end and e.end - e.start > len(b) for e in entities if e.kind == "etf")),
        None)  # fmt: skip
    said = [e for e in entities if e.kind == "etf" and (brand is None or e.start != brand[1])]
    source = said or (previous.of("etf") if previous else [])
    themes = set(lexicon.fund_tags.get(source[0].key, [])) if source else set()
    if not themes or brand is None:
        return []
    word, at = brand
    funds = [c for c, tags in lexicon.fund_tags.items() if themes <= set(tags)
             and c != source[0].key and lexicon.fund_managers.get(c) == lexicon.brands[word]]  # fmt: skip
    entities[:] = [e for e in entities if not (e.kind == "manager" and e.start <= at < e.end)]
    theme = ", ".join(sorted(themes))
    start = min([m.start(), *(e.start for e in source if e.start >= 0)])
    entities[:] = [e for e in entities if e.kind != "etf"]
    if len(funds) != 1:  # several: the themes and the brand's manager, a set
        entities += [
            Entity(kind="tag", key=t, name=t, start=start, end=m.end()) for t in sorted(themes)
        ]
        entities.append(Entity(kind="manager", key=lexicon.brands[word], name=lexicon.brands[word],
                               start=at, end=at + len(word)))  # fmt: skip
        entities.sort(key=lambda e: e.start)
        return [f"같은 테마({theme})의 {word} ETF {len(funds)}개로 읽었습니다."]
    name = lexicon.etfs[funds[0]]  # said from the fund named on ('TIGER … 랑 같은 테마의 KODEX')
    entities.append(Entity(kind="etf", key=funds[0], name=name, start=start, end=at + len(word)))
    entities.sort(key=lambda e: e.start)
    return [f"같은 테마({theme})의 {word} ETF를 {josa(name, '으로/로')} 읽었습니다."]


def _recognized(question: str, lexicon: Lexicon, kinds: frozenset[str]) -> list[Entity]:
    """The lexicon's exact names in the question, outside longer measure phrases."""
    return _outside_measures(question, [
        Entity(kind=m.kind, key=m.key, name=m.name, start=m.start, end=m.end)  # type: ignore[arg-type]
        for m in lexicon.recognize(question, kinds)
    ])  # fmt: skip


_THEME_AFTER = re.compile(r"\s*(?:etf|펀드|테마|주\b|관련)", re.IGNORECASE)  # '배당 ETF': the theme


def _outside_measures(question: str, entities: list[Entity]) -> list[Entity]:
    """'KODEX 200 배당 수익률': the tag '배당' is part of the measure '배당 수익률' (dividend
    yield), so a tag inside a longer measure phrase is not an entity; a stock's short form that
    is exactly a measure word ('NAV') is the measure."""
    low = question.lower()
    voc = vocabulary()
    hits = find_phrases(low, {**voc["measures"], **voc["unheld_measures"]})
    unheld = find_phrases(low, voc["unheld_measures"])  # '유로 환율' is not the 원/달러 '환율'

    def inside(e: Entity, found: list[Hit]) -> bool:
        return any(h.start <= e.start and e.end <= h.end and (h.end - h.start) > (e.end - e.start)
                   for h in found)  # fmt: skip

    def is_measure(e: Entity) -> bool:  # 'KODEX 200 NAV': the measure, not a short form of NAVER
        typed = question[e.start : e.end]
        return e.kind == "stock" and typed.lower() != e.name.lower() and any(
            h.start == e.start and h.end == e.end for h in hits)  # fmt: skip

    named = any(e.kind in ("etf", "stock") for e in entities)

    def attribute(e: Entity) -> bool:  # 'KODEX 200 배당', '삼성전자 배당': its dividend, no theme
        same = any(h.start == e.start and h.end == e.end for h in hits)
        return e.kind == "tag" and named and same and not _THEME_AFTER.match(low, e.end)

    return [e for e in entities if not ((e.kind == "tag" and (inside(e, hits) or attribute(e)))
                                        or (e.kind == "series" and inside(e, unheld))
                                        or is_measure(e)
                                        or _rate_of_other_currency(e, low, unheld))]  # fmt: skip


def _rate_of_other_currency(e: Entity, low: str, unheld: list[Hit]) -> bool:
    """'유로 환율', '엔화 환율은?': the bare word '환율' is the rate of the currency named, not the
    원/달러 series, unless the dollar is named too."""
    bare = low[e.start : e.end].strip() in ("환율", "exchange rate", "fx")
    other = any(h.label == "다른 통화 환율" for h in unheld)
    return e.kind == "series" and bare and other and not re.search(r"달러|usd|dollar|\$", low)


def _settle_single_subject(frame: QuestionFrame, text: str) -> None:
    """After a follow-up brought its subject back ('그럼 최근 6개월 최고치는?'), a superlative or
    a high/low about that one subject is a max/min over the window, not a ranking."""
    op = frame.operation
    if not _single_subject(frame) or frame.relation is not None:
        return
    if op.kind in ("rank", "lookup") and frame.measure() in ("high", "low"):
        op.kind, op.top_n = "aggregate", None
        op.aggregate = "max" if frame.measure() == "high" else "min"
    elif op.kind == "rank" and frame.measure() in _LEVEL_MEASURES:
        op.kind, op.top_n = "aggregate", None
        op.aggregate = _extreme_of(text)  # type: ignore[assignment]


def _masked(low: str, entities: list[Entity]) -> str:
    chars = list(low)
    for e in entities:
        chars[e.start : e.end] = _MASK * (e.end - e.start)
    return "".join(chars)


_KOREAN_COUNT = {"한": 1, "하나": 1, "두": 2, "둘": 2, "세": 3, "셋": 3, "석": 3, "네": 4, "넷": 4,
                 "다섯": 5, "여섯": 6, "일곱": 7, "여덟": 8, "아홉": 9}  # fmt: skip
_ENGLISH_COUNT = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                  "nine": 9, "ten": 10, "twenty": 20}  # fmt: skip
_NUMBER_WORD = re.compile(
    r"(?<![가-힣])("
    + "|".join(sorted(_KOREAN_COUNT, key=len, reverse=True))
    + r")(?=\s*(?:개|곳|종목|가지|군데|펀드))"
    r"|\b(" + "|".join(_ENGLISH_COUNT) + r")\b"
)


def _digits_for_number_words(text: str) -> str:
    """'세 개', '다섯 곳', 'top three', 'two cheapest' → digits, and '가장 최근' → '최근', padded
    with spaces so every position (entity spans, hits) stays where it was."""

    def digit(m: re.Match[str]) -> str:
        word = m.group(0)
        value = str(_KOREAN_COUNT.get(word) or _ENGLISH_COUNT[word])
        return value.ljust(len(word)) if len(value) <= len(word) else word

    return _LATEST_SUPERLATIVE.sub(lambda m: " " * len(m.group(0)), _NUMBER_WORD.sub(digit, text))


# '가장 최근 가격', 'the most recent close': the latest value, not a maximum or a top-1 ranking
_LATEST_SUPERLATIVE = re.compile(r"(?:가장|제일|젤)\s*(?=최근|마지막|최신)|\bmost(?=\s+recent)")


def _blank(text: str, start: int, end: int) -> str:
    return text[:start] + _MASK * (end - start) + text[end:]


def _read_as_of(frame: QuestionFrame, text: str, today: date) -> str:
    """'2026-03-31', '2026년 3월 말', '3월 말 … (2026년)', 'end of March 2026' → an as-of date;
    a day followed by '대비', '이후', 'since' is the base of the period up to the latest bar."""
    m = _DATE.search(text)
    if m:
        try:
            day = date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        except ValueError:
            frame.notes.append(f"날짜를 읽지 못했습니다: {m.group(0)}")
            return _dated(frame, text, m.start(), m.end())
        return _on_day(frame, text, day, m.start(), m.end())
    m = _MONTH_DAY.search(text)
    if m:  # '10월 31일': that day of the latest such month
        month, day_of_month = int(m.group(1)), int(m.group(2))
        try:
            day = date(_latest_year(month, today), month, day_of_month)
        except ValueError:
            frame.notes.append(f"날짜를 읽지 못했습니다: {m.group(0)}")
            return _dated(frame, text, m.start(), m.end())
        return _on_day(frame, text, day, m.start(), m.end())
    if month_day := read_month_day(text, today):  # '지난달 15일': that day of last month
        first_day, day_number, m = month_day
        try:
            day = first_day.replace(day=day_number)
        except ValueError:
            frame.notes.append(f"날짜를 읽지 못했습니다: {m.group(0)}")
            return _dated(frame, text, m.start(), m.end())
        return _on_day(frame, text, day, m.start(), m.end())
    if (named := read_named_day(text, today)) is not None:  # '3월 둘째 주 금요일', '크리스마스'
        return _on_day(frame, text, named.day, named.start, named.end)
    over_days = _stat_over_days(frame.question)
    span = read_calendar_span(text, today, over_days=over_days)
    if span is not None:  # '지난 분기 평균', '3월부터 6월까지', '작년 합계'
        return _read_span(frame, text, span, today)
    month_said = _MONTH.search(text) or _MONTH_EN.search(text)
    whole = None if over_days else read_calendar_span(text, today, over_days=True)
    if whole and month_said and not whole.start <= month_said.start() < whole.end:
        whole = None  # '3월 말 … (2026년)': the month's own day, not the year's ('3월 둘째 주')
    if (
        whole is not None
        and (_level_asked(frame.question) or _rate_of_a_month(frame.question, whole))
        and read_date_point(frame.question, today) is None
    ):
        # '지난주 종가', '작년 기준금리': the level at the end of that week or year, not its move
        # ('지난주 금요일 종가' is that day, read below)
        return _on_day(frame, text, min(whole.last, today), whole.start, whole.end)
    if not (m := month_said):
        return _read_relative_point(frame, text, today)
    month = int(m.group("m")) if m.group("m").isdigit() else _MONTHS_EN[m.group("m")[:3]]
    year_match = _YEAR.search(text)
    said = _YEAR_WORD.search(text[: m.start()])  # '올해 1월', '작년 12월': the year said in words
    year = int(m.group("y") or (year_match.group(1) if year_match else 0)) or (
        today.year + YEAR_WORDS[said.group(1)] if said else _latest_year(month, today)
    )
    if said and not m.group("y"):
        text = _blank(text, said.start(), said.end())
    edge = (m.group("edge") or "").strip()
    last = calendar.monthrange(year, month)[1]
    first = edge.startswith(("초", "첫", "beginning of", "start of"))
    on = date(year, month, 1 if first else last)
    if first and edge:  # '11월 첫 거래일', '3월 초': its first session (a screen reads back)
        on = next_trading_day(on, "KRX")
    elif edge.endswith(("거래일", "영업일")):  # '10월 마지막 거래일': its last session
        on = previous_trading_day(on, "KRX")
    if _BASE_AFTER.match(text, m.end()):  # '3월 말 대비'; '2월 이후': since the close before it
        since = _SINCE_WORD.match(text, m.end())  # '12월 대비' is against December's own level
        base = on if edge else date(year, month, 1) - timedelta(days=1) if since else on
        return _on_day(frame, text, base, m.start(), m.end())
    frame.as_of_date = on.isoformat()
    if not (m.group("edge") or "").strip():  # '10월 평균': the month's own days
        label = f"{year:04d}-{month:02d}"
        frame.span = CalendarSpan(first=f"{label}-01", last=f"{label}-{last:02d}", label_ko=label,
                                  label_en=label)  # fmt: skip
    text = _dated(frame, text, m.start(), m.end())
    if year_match and not m.group("y"):
        text = _blank(text, year_match.start(), year_match.end())
    return text


def _read_span(frame: QuestionFrame, text: str, span: SpanRead, today: date) -> str:
    """A span named whole: said alone its last day (up to today) is the as-of day ('지난 분기
    종가'); a statistic over it reads its days (the screens mark it used)."""
    frame.span = CalendarSpan(first=span.first.isoformat(), last=span.last.isoformat(),
                              label_ko=span.label_ko, label_en=span.label_en)  # fmt: skip
    if _NOW.search(frame.question) and _stat_over_days(frame.question):
        frame.notes.append(SPAN_AND_NOW)  # '지금과 작년 최고치': the span's figure and the latest
        return _blank(text, span.start, span.end)
    frame.as_of_date = min(span.last, today).isoformat()
    return _dated(frame, text, span.start, span.end)


# figures that accrue over a span or are reported for it: '지난달 거래 건수' is the month's count,
# '지난 분기 EPS' the quarter reported, not a level on the span's last day
_FLOWS = ("volume", "trading_value", "deal_count", "earnings", "eps")


def _level_asked(question: str) -> bool:
    """A level named with no move, change or statistic asked ('지난주 종가', not '지난주 종가
    변화' or '지난달 평균 가격')."""
    low = question.lower()
    if _stat_over_days(question) or asked_move(question):
        return False
    change, measures = vocabulary()["change"], vocabulary()["measures"]
    return not find_phrases(low, {"c": [*change["period"], *change["yoy"], *change["mom"]],
                                  "t": vocabulary()["trend"], "w": vocabulary()["why"],
                                  **{m: measures[m] for m in _FLOWS}})  # fmt: skip


def _rate_of_a_month(question: str, span: SpanRead) -> bool:
    """'지난달 전년 동월 대비': a month's own year-over-year (or month-over-month) change."""
    change = vocabulary()["change"]  # ('전월 대비', '지난달보다' say the base, not the month)
    hits = find_phrases(question.lower(), {"c": [*change["yoy"], *change["mom"]]})
    apart = [h for h in hits if h.end <= span.start or h.start >= span.end]
    return (span.last - span.first).days < 31 and bool(apart) and len(apart) == len(hits)


def _stat_over_days(question: str) -> bool:
    """A statistic of a series' days or a return is asked ('평균', '합계', '최고치', '수익률'):
    a quarter or year named is then its own days ('작년 합계', '3분기 수익률')."""
    return (
        read_window_stat(question).stat
        in (
            "avg",
            "sum",
            "max",
            "min",
            "range",
            "extremes",
            "std",
            "return",
            "up_days",
            "down_days",
            "volatility",  # '작년 변동성': the year's own days
            "drawdown",
        )
        or bool(DAYS_ASKED.search(question))
        or bool(  # '작년 며칠': the year's days; '3분기 상승률', '올해 낙폭': a return, a drawdown
            find_phrases(
                question.lower(), {m: vocabulary()["measures"][m] for m in ("return", "drawdown")}
            )
        )
    )


# the words after a day that make it a change's base: the date reader's, as written text
_BASE_AFTER = re.compile(r"\s*(?:" + "|".join(map(re.escape, sorted(BASE_AFTER)))
                         + r"|에\s*비해|(?:과|와)\s*비교"  # '1월과 최근 달 차이': since then
                         + r"|(?:과|와|이랑|랑)\s*(?:지금|현재|최근|최신|오늘))")  # fmt: skip
_SINCE_WORD = re.compile(r"\s*(?:이후|부터|since)", re.IGNORECASE)
_SINCE_BEFORE = re.compile(r"\b(?:since|from)\s*$", re.IGNORECASE)


def _on_day(frame: QuestionFrame, text: str, day: date, start: int, end: int) -> str:
    """A named day: the as-of date, or, said as a base ('1월 2일 대비'), the start of the
    period up to the latest bar."""
    if _BASE_AFTER.match(text, end) or _SINCE_BEFORE.search(text[:start]):
        # '작년 (연)말 대비' is the year to date, which every screen's period figures take
        ytd = day == date(date.today().year - 1, 12, 31)
        frame.period = Period(label="ytd" if ytd else fig.since_period(day).key,
                              months=_months_since(day), surface=frame.question[start:end])  # fmt: skip
        frame.as_of_span = (start, end)  # read (the coverage shows it), as the period's base
        return _blank(text, start, end)
    frame.as_of_date = day.isoformat()
    return _dated(frame, text, start, end)


def _months_since(day: date) -> float:
    return max(0.1, (date.today() - day).days / 30.4)


def _dated(frame: QuestionFrame, text: str, start: int, end: int) -> str:
    """The words that named the as-of day are read (the coverage shows them) and blanked."""
    frame.as_of_span = (start, end)
    return _blank(text, start, end)


def _read_relative_point(frame: QuestionFrame, text: str, today: date) -> str:
    """'지난 분기 말', '올해 첫 거래일', '작년 말 환율': a day named relative to today."""
    point = read_date_point(frame.question, today)  # its morphemes are already analysed
    if point is None or text[point.start : point.end].count(_MASK):
        return text  # not inside a name
    if point.base and any(h.start <= point.start and point.end <= h.end for h in
                          find_phrases(text, vocabulary()["period_words"])):  # fmt: skip
        return text  # '작년 말 대비', '연초 이후': the period reader's named period (YTD)
    if point.base or _BASE_AFTER.match(frame.question, point.end):  # '작년 말과 비교'
        return _on_day(frame, text, point.day, point.start, point.end)
    day = point.day  # '연초 종가': a start's holiday moves to the first session, not the last
    frame.as_of_date = (next_trading_day(day, "KRX", inclusive=True) if point.edge == "first"
                        and day < today else day).isoformat()  # fmt: skip
    return _dated(frame, text, point.start, point.end)


# '어제 종가', '그저께 종가': the sessions before the data's last one, the day the screens show
# as 기준일 (today); '어제 얼마나 올랐어', '어제보다' are the last session's one-day move
_DAYS_AGO = re.compile(r"(?<![가-힣])(?P<d>어제|그저께|엊그제|그제)(?![가-힣])")
_SESSIONS_AGO = {"어제": 1, "그저께": 2, "엊그제": 2, "그제": 2}
_YEAR_AGO_DAY = re.compile(r"(?<![가-힣])(?P<w>재작년|작년|지난해)\s*(?:이맘때|같은\s*날|오늘)")
# after 'N일 전': a change's base ('1년 전 대비', '6개월 전과 비교') or a holding period
# ('3개월 전에 샀으면', '… 전 종가 대비 수익률') — not a day whose figure is asked
_SINCE_AFTER = re.compile(
    r"^\s*(?:대비|보다|과|와|이랑|랑|부터|이후|에\s*(?:샀|사|투자|매수|넣))"
    r"|대비|비교|수익률|변화|변동|올랐|내렸|떨어|상승|하락|return|change|since"
)


def _read_days_ago(frame: QuestionFrame, text: str, latest: str | None) -> str:
    """A day counted back from the data's last session, the day the screens call today:
    '그저께 종가' (the session before it), '3일 전 종가', '2주 전 환율', '5거래일 전 종가'."""
    if latest is None or frame.as_of_date:
        return text
    last = date.fromisoformat(latest)
    said = [m.group("d") for m in _DAYS_AGO.finditer(text)]
    moved = _SINCE_AFTER.search(text) or asked_move(text) is not None
    if "어제" in said and (len(said) > 1 or moved):  # '어제 얼마나 올랐어', '어제 가장 많이 오른
        return text  # ETF', '어제 종가랑 그제 종가 차이': the last session's one-day change
    if (m := _DAYS_AGO.search(text)) is not None:
        day, start, end = _sessions_back(last, _SESSIONS_AGO[m.group("d")]), m.start(), m.end()
    elif (m := _YEAR_AGO_DAY.search(text)) and not _SINCE_AFTER.search(text[m.end() :]):
        # '작년 이맘때 종가': the value on the day a year (재작년: two) back, not the change since
        years = -YEAR_WORDS[m.group("w")]
        day = previous_trading_day(last - relativedelta(years=years), "KRX", inclusive=True)
        start, end = m.start(), m.end()
    elif (back := _counted_back(frame.question, text)) is not None:
        window, end = back
        start = window.start
        day = (
            _sessions_back(last, window.n)
            if window.unit == "session"
            else (
                previous_trading_day(fig.Window(window.n, window.unit).start(last) or last, "KRX")
            )
        )
    else:
        return text
    if same_day := _SAME_DAY.match(frame.question, end):  # '6개월 전 오늘': that day, not now
        end = same_day.end()
    if _NOW.search(frame.question[:start] + frame.question[end:]):  # '지금 PER이랑 1년 전
        # PER': then and now, a change
        frame.period = Period(label=fig.since_period(day).key, months=_months_since(day),
                              surface=frame.question[start:end])  # fmt: skip
        frame.as_of_span = (start, end)
        frame.notes.append(THEN_AND_NOW)
        return _blank(text, start, end)
    frame.as_of_date = day.isoformat()
    return _dated(frame, text, start, end)


_NOW = re.compile(r"지금|현재|오늘|요즘|최신|최근\s*값|가장\s*최근|\bnow\b|\bcurrent|\btoday\b|\blatest\b",
                  re.IGNORECASE)  # fmt: skip
_SAME_DAY = re.compile(r"\s*(?:오늘|이맘때|같은\s*날)")  # after 'N개월 전': the same date
THEN_AND_NOW = "then_and_now"  # a day counted back said beside 'now': the change between them


def _counted_back(question: str, text: str) -> tuple[WindowRead, int] | None:
    """'3일 전' (a count, a unit, then 전/ago) naming a day, with the end of its span."""
    tokens = analyse(question)
    for w in windows(tokens, question, ago=True):
        after = next((t for t in tokens if t.start >= w.end), None)
        if after is None or after.form.lower() not in ("전", "前", "ago"):
            continue
        if text[w.start : after.end] != question[w.start : after.end].lower():
            continue  # inside a name already read
        if not _SINCE_AFTER.search(question[after.end :].lower()):
            return w, after.end
    return None


def _sessions_back(last: date, n: int) -> date:
    day = last
    for _ in range(n):
        day = previous_trading_day(day, "KRX", inclusive=False)
    return day


def _latest_year(month: int, today: date) -> int:
    return today.year if month <= today.month else today.year - 1


def _read_period(frame: QuestionFrame, text: str) -> str:
    """The period a figure is taken over: a count and a unit (the window reader's '3개월',
    '반년', 'last 12 months', outside names and dates already read) or a named one ('지난주',
    '연초 이후', 'ytd') from the vocabulary, whichever says more."""
    voc = vocabulary()
    # '지난달 대비', '1년 전 대비' name a change basis (read later), not the window
    bases = find_phrases(text, {"mom": voc["change"]["mom"], "yoy": voc["change"]["yoy"]})
    outside = lambda a, b: not any(h.start < b and a < h.end for h in bases)  # noqa: E731
    hits = [
        h
        for h in find_phrases(text, voc["period_words"])
        if outside(h.start, h.end) and text[h.end : h.end + 1] != "별"
    ]  # '분기별 수익률': one per quarter, not a window
    found = [w for w in windows(analyse(frame.question), frame.question, ago=True)
             if w.unit in _PERIOD_UNITS and outside(w.start, w.end)
             and text[w.start : w.end] == frame.question[w.start : w.end].lower()]  # fmt: skip
    counted = found[0] if found else None
    if counted and (not hits or counted.end - counted.start >= hits[0].end - hits[0].start):
        frame.period = _counted_period(counted, text)
        # '1개월 3개월 1년 수익률': the other periods of the same figure, for a screen to read
        frame.more_periods = [_counted_period(w, text) for w in found[1:]
                              if w.unit in ("week", "month", "quarter", "year")]  # fmt: skip
        return _blank(text, counted.start, counted.end)
    if hits:
        h = hits[0]
        months = _PERIOD_MONTHS.get(h.label) or (1.0 if h.label == "mtd" else _ytd_months())
        frame.period = Period(label=h.label, months=months, surface=h.phrase)
        return _blank(text, h.start, h.end)
    return text


def _counted_period(counted: WindowRead, text: str) -> Period:
    suffix, months = _PERIOD_UNITS[counted.unit]
    n = counted.n * (3 if counted.unit == "quarter" else 1)  # '최근 2분기' is 6 months
    label = _canonical_period(n, suffix)
    months = 12.0 * int(label[:-1]) if label.endswith("y") else n * months
    return Period(label=label, months=months, surface=text[counted.start : counted.end])


# a window's unit as a period's: sessions are days to the period figures ('10거래일' is 10d)
_PERIOD_UNITS = {"session": ("d", 1 / 30), "day": ("d", 1 / 30), "week": ("w", 0.25),
                 "month": ("m", 1.0), "quarter": ("m", 1.0), "year": ("y", 12.0)}  # fmt: skip


def _canonical_period(n: int, suffix: str) -> str:
    """'52주', '12개월', '24 months' name the same windows as '1년', '2년'."""
    if suffix == "w" and n % 52 == 0:
        return f"{n // 52}y"
    if suffix == "m" and n % 12 == 0:
        return f"{n // 12}y"
    return f"{n}{suffix}"


def _ytd_months() -> float:
    today = date.today()
    return max(1.0, today.month - 1 + today.day / 30)


_TENOR_AFTER = re.compile(r"\s*(?:국채\s*)?\d{1,2}\s*년\s*(?:물|만기)(?:\s*(?:국채\s*)?금리)?")


def _read_series_words(frame: QuestionFrame, text: str) -> None:
    """Macro words that name a series through a region ('미국 금리' → FEDFUNDS) and spreads
    ('장단기 금리차' → DGS10 − DGS2)."""
    voc = vocabulary()
    for spread in voc["spreads"]:
        spread_hits = find_phrases(text, {spread["id"]: spread["aliases"]})
        for hit in spread_hits:  # '장단기 금리차' names its two series; its '금리' is not a topic
            text = _blank(text, hit.start, hit.end)
        if spread_hits:
            frame.operation.kind = "difference"
            frame.operation.words.append(spread["id"])
            said = spread_hits[0]  # the words that named both series are read as them
            for code in spread["codes"]:
                if not any(e.key == code for e in frame.entities):
                    frame.entities.append(_series_entity(code).model_copy(
                        update={"start": said.start, "end": said.end}))  # fmt: skip
    region_hits = {h.label: h for h in reversed(find_phrases(text, voc["regions"]))}
    for pair in find_phrases(text, {"p": list(voc["region_pairs"])}):  # '한미 금리차': both
        for i, region in enumerate(voc["region_pairs"][pair.phrase]):
            region_hits.setdefault(region, Hit(region, pair.phrase, pair.start + i, pair.end))
    regions = sorted(region_hits, key=lambda r: region_hits[r].start)
    for region in regions:
        hit = region_hits[region]
        frame.entities.append(Entity(kind="region", key=region, name=region, start=hit.start,
                                     end=hit.end))  # fmt: skip
    region_of = {s["code"]: s["region"] for s in voc["series"]}
    covered = _region_mismatches(frame, text, region_hits, region_of)
    # '미국과 한국 기준금리': a region without a series of its own gets the topic's series
    low = frame.question.lower()
    covered |= {region_of[e.key] for e in frame.of("series")}
    # read together, longest first: 'unemployment rate' is one topic, not also a policy 'rate'
    asked = {
        h.label for h in find_phrases(low, {k: t["words"] for k, t in voc["region_topics"].items()})
    }
    for key, topic in voc["region_topics"].items():
        if key not in asked:
            continue
        for region in dict.fromkeys(regions):
            code = topic.get(region)
            if code and region not in covered:
                hit = region_hits[region]
                tenor = _TENOR_AFTER.match(text, hit.end)
                if tenor:  # '한국 10년물': that region's bond we do not hold, not its policy rate
                    frame.unknown_words.append(frame.question[hit.start : tenor.end()].strip())
                    text = _blank(text, hit.start, tenor.end())  # nor another region's '금리'
                    covered.add(region)
                    continue
                frame.entities.append(_series_entity(code).model_copy(
                    update={"start": hit.start, "end": hit.end}))  # fmt: skip
                covered.add(region)
    _sibling_region_topics(frame, text, region_of)
    for hit in find_phrases(text, unheld_places()):
        name = hit.phrase if hit.label == "기타 지역" else hit.label  # name the place asked about
        # '일본 10년물 금리' is Japan's yield, which we do not hold — not the US one
        named = [e for e in frame.of("series") if _qualifies(text, hit.end, e)]
        if named:
            frame.entities.remove(named[0])
            name = frame.question[hit.start : named[0].end]
        if name not in frame.unknown_words:
            frame.unknown_words.append(name)
    _unlisted_region(frame)


_BARE_RATE_WORDS = frozenset({"금리", "rate", "rates", "interest rate"})


def _unlisted_region(frame: QuestionFrame) -> None:
    """'호주 기준금리', '브라질 CPI': a proper noun nothing else read, written right before a
    series word each region has its own of, names a region we do not hold — the unheld list
    names the common ones, Kiwi's NNP tag the rest. Said as '일본' is (not Korea's answered)."""
    topics = vocabulary()["region_topics"].values()
    # not the bare '금리' ('트럼프 금리 인하 발언' is a person's words on rates)
    words = tuple(w for spec in topics for w in spec["words"] if w not in _BARE_RATE_WORDS)
    regional = {code for spec in topics for region, code in spec.items() if region != "words"}
    known = vocabulary_words()
    low = frame.question.lower()
    for t in analyse(frame.question):
        if (
            t.tag != "NNP"
            or t.form.lower() in known
            or any(e.start < t.end and t.start < e.end for e in frame.entities)
        ):
            continue
        named = [e for e in frame.of("series") if e.key in regional and _qualifies(low, t.end, e)]
        if named or low[t.end :].lstrip(" 의").startswith(words):
            frame.entities = [e for e in frame.entities if e not in named[:1]]
            frame.unknown_words.append(t.form)


def _sibling_region_topics(frame: QuestionFrame, text: str, region_of: dict[str, str]) -> None:
    """'미국 실업률과 CPI', '미국 10년물과 기준금리 차이': a topic word without a region of its
    own takes the one region of the other series named in the question."""
    regions = {region_of[e.key] for e in frame.of("series")}
    if len(regions) != 1 or frame.of("region") and len(frame.of("region")) > 1:
        return
    region = next(iter(regions))
    covered_topics = {t for t, spec in vocabulary()["region_topics"].items()
                      if any(spec.get(r) == e.key for e in frame.of("series") for r in ("KR", "US"))}  # fmt: skip
    ends = [e.end for e in frame.of("series") if e.end >= 0]
    for topic, spec in vocabulary()["region_topics"].items():
        hits = [h for h in find_phrases(text, {"t": spec["words"]})  # '10년물 금리': the yield's
                if not any(0 <= h.start - end <= 1 for end in ends)]  # own word  # fmt: skip
        code = spec.get(region)
        if hits and code and topic not in covered_topics:
            frame.entities.append(_series_entity(code).model_copy(
                update={"start": hits[0].start, "end": hits[0].end}))  # fmt: skip


def _region_mismatches(frame: QuestionFrame, text: str, region_hits: dict[str, Hit],
                       region_of: dict[str, str]) -> set[str]:  # fmt: skip
    """'한국 10년 국채 금리' is not the US 10-year yield: a region written right before a series
    of another region names a series we do not hold. It is said (unknown), the series dropped,
    and the region gets no stand-in series; returns those regions."""
    mismatched: set[str] = set()
    own_words = vocabulary()["regions"]
    for entity in list(frame.of("series")):
        surface = frame.question[entity.start : entity.end].lower()
        if any(surface.startswith(w) for w in own_words.get(region_of.get(entity.key, ""), [])):
            continue  # '한국 미국 실업률': the series names its own region; '한국' is a second one
        for region, hit in region_hits.items():
            if region_of.get(entity.key) != region and _qualifies(text, hit.end, entity):
                frame.entities.remove(entity)
                frame.unknown_words.append(frame.question[hit.start : entity.end])
                mismatched.add(region)
                break
    return mismatched


def _qualifies(text: str, region_end: int, series: Entity) -> bool:
    """A region word written right before a series names that series' region ('일본 10년물',
    '한국 국채 10년물': nothing but bond words between them)."""
    if series.start < region_end:
        return False
    between = re.sub(r"국채|국고채|treasury", "", text[region_end : series.start])
    return not between.strip(" 의")


def _series_entity(code: str) -> Entity:
    spec = next(s for s in vocabulary()["series"] if s["code"] == code)
    return Entity(kind="series", key=code, name=spec["name"])


_HOLDINGS_SPLIT = re.compile(  # a rank or place between ('보유 상위 3종목', '보유 1위 종목')
    r"보유\s*(?:비중\s*)?(?:(?:상위|하위)\s*\d*\s*(?:개\s*)?|\d{1,2}\s*위\s*)종목"
)


def _read_measures(frame: QuestionFrame, text: str, *, funds: bool = True) -> str:
    """Measures in question order; their words are blanked ('expense ratio' is not a ratio
    question) except those that also name an aggregate ('최저치' is low *and* min)."""
    voc = vocabulary()
    aggregate_words = {p for words in voc["aggregates"].values() for p in words}
    for hit in find_phrases(text, voc["unheld_measures"]):  # '목표주가' is not a 주가 question
        if hit.label not in frame.unknown_words:
            frame.unknown_words.append(hit.label)
        text = _blank(text, hit.start, hit.end)
    said = re.search(r"(?<![A-Za-z])PER(?![A-Za-z])", frame.question) or (  # not 'per ounce'
        re.search(r"[가-힣]", frame.question)  # '삼전 per 몇이야', '현대건설 per': beside Korean
        and re.search(r"(?<![A-Za-z])per(?![A-Za-z])(?!\s+[A-Za-z])", frame.question, re.I)
    )
    if said:
        frame.measures.append(Measure(name="per", unit="x", surface=said.group(0)))
    for hit in find_phrases(text, voc["measures"]):
        if not any(m.name == hit.label for m in frame.measures):
            frame.measures.append(
                Measure(name=hit.label, unit=MEASURE_UNITS[hit.label], surface=hit.phrase)
            )
        if hit.phrase not in aggregate_words:
            text = _blank(text, hit.start, hit.end)
    for name, said_as in voc["measure_parts"].items():  # '주가가 이익의 몇 배': the P/E
        if name == "note" or any(m.name == name for m in frame.measures):
            continue
        for span in filter(None, (_parts_said(frame.question, parts) for parts in said_as)):
            words = frame.question[span[0] : span[1]]
            frame.measures = [m for m in frame.measures if m.surface not in words]  # '주가'
            frame.measures.append(Measure(name=name, unit=MEASURE_UNITS[name], surface=words))
            text = _blank(text, *span)
            break
    split = _HOLDINGS_SPLIT.search(text)  # '보유 상위 3종목': the holdings, a rank between
    if split and not any(m.name == "holdings" for m in frame.measures):
        frame.measures.append(Measure(name="holdings", unit="", surface="보유"))
        text = _blank(text, split.start(), split.start() + 2)
    housing = frame.of("re_region") or {m.name for m in frame.measures} & HOUSING_MEASURES
    if (
        funds  # '더 싼 거야?' of a stock's PER is its valuation, not a fee
        and not housing
        and not any(m.name == "expense_ratio" for m in frame.measures)
        and (cheap := find_phrases(text, {"cheap": voc["cheap_words"]}))
    ):  # '싼 ETF' is a fee; '강남구 제일 비싼 아파트' is a deal price
        # the word as written: a nested question's first measure is found by it ('싼 쪽의 …')
        frame.measures.append(Measure(name="expense_ratio", unit="%", surface=cheap[0].phrase))
    held = _HOLDS_MUCH.search(text)
    if held and frame.of("stock") and not any(m.name == "weight" for m in frame.measures):
        # '삼성전자를 가장 많이 담은 ETF 3개의 평균 보수': holding much is the stock's weight
        frame.measures.insert(0, Measure(name="weight", unit=MEASURE_UNITS["weight"],
                                         surface=held.group(1)))  # fmt: skip
    return text


_HOLDS_MUCH = re.compile(r"(많이)\s*(?:담|보유|편입|들고)")


def _parts_said(question: str, parts: list[str]) -> tuple[int, int] | None:
    """Where every part of a figure is said, each a morpheme of its own ('영업이익' is 영업 +
    이익 glued: another word, not the part '이익'), or None."""
    tokens = analyse(question)
    found = []
    for part in parts:
        at = next((i for i, t in enumerate(tokens) if t.form == part), None)
        if at is None:
            return None
        before = tokens[at - 1] if at else None
        if before and before.end == tokens[at].start and before.tag.startswith("NN") and (
                before.form not in parts):  # fmt: skip
            return None
        found.append(tokens[at])
    return min(t.start for t in found), max(t.end for t in found)


_HOUSING_WORD = re.compile(r"아파트|실거래|주택|부동산")  # '경기 아파트 거래량': 경기 the place


def _read_housing_region_words(frame: QuestionFrame, previous: QuestionFrame | None) -> None:
    """'경기 미분양': a region whose name is also a common word ('경기', the economy) is that
    region only beside a housing measure (the vocabulary's `housing_aliases`), or in a bare
    follow-up of a housing question ('서울 미분양' → '경기는?')."""
    housing = {m.name for m in frame.measures} & HOUSING_MEASURES or _HOUSING_WORD.search(
        frame.question) or (not frame.measures and previous is not None
                            and {m.name for m in previous.measures} & HOUSING_MEASURES)  # fmt: skip
    if not housing:
        return
    regions = {
        a: s["key"] for s in vocabulary()["re_regions"] for a in s.get("housing_aliases", ())
    }
    taken = [(e.start, e.end) for e in frame.entities if e.start >= 0]
    frame.entities += [Entity(kind="re_region", key=regions[t.form], name=regions[t.form],
                              start=t.start, end=t.end)
                       for t in analyse(frame.question) if t.form in regions
                       and t.tag.startswith("NN")
                       and not any(a < t.end and t.start < b for a, b in taken)]  # fmt: skip
    frame.entities.sort(key=lambda e: e.start)  # '서울이랑 경기 미분양': in question order


def _foreign_housing(frame: QuestionFrame) -> None:
    """'미국 주택가격 추이': housing data here is Korean only; a foreign region is said, not
    answered with the Korean national index."""
    housing = [m for m in frame.measures if m.name in HOUSING_MEASURES]
    foreign = [e for e in frame.of("region") if e.key != "KR"]
    if housing and foreign and not frame.of("re_region"):
        place = foreign[0]  # as the question wrote it ('미국'), not the region's code ('US')
        said = frame.question[place.start : place.end] if place.start >= 0 else place.name
        frame.unknown_words.append(f"{said} {housing[0].surface or housing[0].name}")


def _read_operation(frame: QuestionFrame, text: str, raw: str) -> None:
    voc = vocabulary()
    op = frame.operation
    words = lambda group: find_phrases(text, {"w": group})  # noqa: E731
    threshold = _threshold(text, raw) or _sign(text)
    aggregates = find_phrases(raw, voc["aggregates"])  # '구성종목 수' keeps its measure word
    if _MEANING.search(frame.question.lower()):  # 'what does basis point mean?' is no average
        aggregates = [h for h in aggregates if h.phrase != "mean"]
    ranking = _ranking(text) or bool(_PLACE_ASKED.search(text))  # '몇 위야?': its place
    change = find_phrases(text, voc["change"])
    concept_only = all(e.kind in ("series", "index") for e in _data_subjects(frame))
    # 'what is the US unemployment rate' asks the figure; '실업률이란?' the meaning
    regional = bool(frame.of("region") or find_phrases(frame.question.lower(), voc["regions"]))
    defined = words(voc["define"]) or (words(voc["define_weak"]) and concept_only
                                       and not regional)  # fmt: skip
    if (
        defined
        and _is_definition(frame, text)
        and not (ranking or aggregates or (threshold and threshold[0]))
    ):
        op.kind = "define"
    elif _asks_what_differs(frame, text):
        op.kind = "compare"  # 'TIGER 나스닥100하고 ACE 나스닥100 차이가 뭐야?'
    elif (op.kind == "difference" or _difference_words(text) or words(voc["ratio"])
          or _minus_between(frame, text) or _which_is_more(frame)):  # fmt: skip
        op.kind = "difference"
        if words(voc["ratio"]):  # '몇 배야?': the quotient of the two, not their gap
            frame.notes.append(RATIO)
    elif threshold and threshold[0] and not ranking:
        op.kind = "filter"
    elif any(h.label in ("sum", "avg", "count") for h in aggregates):
        op.kind = "aggregate"
    elif (
        (aggregates or frame.measure() in ("high", "low"))
        and _single_subject(frame)
        and (frame.relation is None)
    ):  # '지난 1년 VIX 고점': the max over the window
        op.kind = "aggregate"
        if not aggregates:
            op.aggregate = (
                "max" if frame.measure() == "high" else "min"
            )  # '코덱스200 최근 6개월 최저치': min over a window, not a ranking
    elif (ranking and _single_subject(frame) and frame.relation is None
          and (frame.measure() in _LEVEL_MEASURES or _asks_when(text))
          and not _ranks_regions_within(frame)):  # fmt: skip
        # '인천 미분양 가장 많았던 달': one subject's extreme over time, not a ranking of regions
        op.kind, op.aggregate = "aggregate", _extreme_of(text)  # type: ignore[assignment]
    elif ranking or (_TOP_N.search(raw) and not _TOP_N.search(text)):
        op.kind = "rank"  # 'the five best-performing ETFs': a count inside a measure phrase
    elif aggregates:
        op.kind = "aggregate"
    elif words(voc["compare"]):
        op.kind = "compare"
    elif any(h.label in ("yoy", "mom") for h in change):
        op.kind = "change"
    elif words(voc["trend"]):
        op.kind = "trend"
    elif change:
        op.kind = "change"
    elif words(voc["list"]):
        op.kind = "list"
    if threshold and threshold[0] and op.kind in ("filter", "rank", "list", "lookup", "difference",
                                                  "aggregate"):  # fmt: skip
        if op.kind in ("list", "lookup"):
            op.kind = "filter"
        op.comparator, op.threshold, op.threshold_unit = threshold  # type: ignore[assignment]
        bars = _thresholds(text, raw)  # '… 이고 순자산 1조 넘는', '… 이고 수익률 마이너스인'
        primary = next((t for t in bars if t[:3] == threshold), None)
        op.filter_measure = _filter_measure(frame, text, primary[3] if primary else None)
        for comparator, value, unit, at in [t for t in bars if t is not primary]:
            measure = _filter_measure(frame, text, at)
            if measure:
                op.conditions.append(Condition(measure=measure, comparator=comparator,  # type: ignore[arg-type]
                                               threshold=value, unit=unit))  # fmt: skip
        if op.conditions and _EITHER.search(raw):  # '70% 이상이거나 3000호 이상인': any one bar
            frame.notes.append(ANY_BAR)
    if aggregates and op.kind in ("aggregate", "filter"):
        op.aggregate = aggregates[0].label  # type: ignore[assignment]
        others = [h.label for h in aggregates if h.label not in ("count", aggregates[0].label)]
        if op.aggregate == "count" and others:  # '몇 개고 평균 보수는?': both, the count beside
            op.aggregate = others[0]  # type: ignore[assignment]
        if op.aggregate == "sum" and "avg" in others and _COMBINE.search(raw):
            op.aggregate = "avg"  # '합치면 평균은?': put together, then averaged
        op.also_count = op.aggregate != "count" and any(h.label == "count" for h in aggregates)
    counted = _TOP_N.search(text) if op.kind in ("lookup", "list") else None
    if counted and (frame.relation in ("holders", "holdings") or not frame.of("etf")):
        op.kind = "rank"  # '삼성전자 많이 담은 ETF 3개': a count asks for the top N
    if op.kind == "rank":
        _read_rank(frame, text, raw)
    elif op.kind in ("aggregate", "difference") and (m := _TOP_N.search(text)) and m.group(1):
        op.top_n = int(m.group(1))  # '상위 5개 종목 비중 합', '수익률 하위 5개 ETF의 평균 보수'
        cut = find_phrases(text[: m.end()], {"desc": voc["rank"]["top_words"],
                                             "asc": voc["rank"]["bottom_words"]})  # fmt: skip
        op.direction = cut[-1].label if cut else op.direction  # type: ignore[assignment]
        said = [h for h in find_phrases(text[: m.start()], {"desc": voc["rank"]["desc"],
                                                           "asc": voc["rank"]["asc"]})
                if cut and h.end <= cut[-1].start]  # fmt: skip
        if cut and said and _ORDER_THEN_CUT.fullmatch(text[said[-1].end : cut[-1].start]):
            # '보수 낮은 순 상위 3개', '보수 낮은 ETF 상위 2개': the head of the order said
            # ('하위': its tail)
            head, way = cut[-1].label == "desc", said[-1].label
            op.direction = "asc" if (way == "asc") == head else "desc"
    elif op.kind in ("aggregate", "difference") and m and m.group(2) and (
            find_phrases(text[: m.start()], {"s": voc["rank"]["superlative"], "d": voc["rank"]["desc"],
                                             "a": voc["rank"]["asc"]})
            or (not text[m.end():].lstrip().startswith(("etf", "펀드"))
                and (frame.of("etf") or frame.relation == "holders"))):  # fmt: skip
        # '삼성전자를 가장 많이 담은 ETF 3개의 평균 보수', '총보수 가장 낮은 ETF 3개 평균 순자산',
        # '해외주식 ETF 중 보수 낮은 3개의 평균': an order word before the count cuts the set'
        op.top_n = int(m.group(2))
        order = find_phrases(
            text[: m.start()], {"desc": voc["rank"]["desc"], "asc": voc["rank"]["asc"]}
        )
        op.direction = order[-1].label if order else op.direction  # type: ignore[assignment]
    elif (
        op.kind == "aggregate"
        and op.top_n is None
        and len(frame.measures) >= 2
        and (picked := _picked_set(text, voc))
    ):  # '미분양 가장 많은 지역의 인허가 1년 합계': the one the order picks, then its total
        op.top_n, op.direction = 1, picked  # type: ignore[assignment]
    basis = next((h.label for h in change if h.label in ("yoy", "mom")), None) or next(
        (
            h.label
            for h in find_phrases(raw, {"yoy": voc["change"]["yoy"], "mom": voc["change"]["mom"]})
        ),
        None,
    )  # '월간 상승률': the basis phrase holds a measure word the text has blanked
    if basis is None and _growth_rate(frame) and op.kind in ("lookup", "change"):
        basis, op.kind = "yoy", "change"  # '한국 물가상승률': inflation is year over year
    if basis:
        op.change_basis = basis  # type: ignore[assignment]
    elif op.kind == "change":
        op.change_basis = "period"
    if (op.kind == "lookup" and not frame.entities and frame.measure() in _SET_ORDERS
            and re.search(r"\betfs?\b|etf|펀드", text)):  # fmt: skip
        op.kind = "rank"  # '요즘 잘 나가는 ETF', 'ETF 수익률': the set in the measure's order
    op.words = [h.phrase for h in (*aggregates, *change)][:6] + op.words


_LEVEL_MEASURES = (None, "close", "high", "low", "value")
_WHEN_WORD = re.compile(
    r"([가-힣]+)\s?(?:날|달|때|시기|시점|일자)(?=$|[\s?.!은는이가을를에])"
    r"|\b(?:which|what)\s+(?:day|month|week|date)\b|\bwhen\b|\bon what date\b",
    re.IGNORECASE,
)
_NOT_WHEN = frozenset(
    "지난 이번 저번 다음 한 두 세 몇 이 그 매 요 올 이달 전 오는".split()
)  # '지난 달'


def _ranks_regions_within(frame: QuestionFrame) -> bool:
    """'Which Seoul district had the most deals?': the districts of one region, ranked."""
    return bool(frame.of("re_region")) and re.search(
        vocabulary()["region_set_pattern"], frame.question.lower()) is not None  # fmt: skip


_MOVE_DAY = re.compile(r"(?:(?:상승|급등)|(하락|급락))일(?=$|[\s?.!은는이가을를에])")
_MOVE_MONTH = re.compile(
    r"(?:오른|올랐던|내린|내렸던|떨어진|떨어졌던|상승한|하락한)\s*달(?=$|[\s?.!은는이가을를에])"
)
_PICKED_SET = re.compile(r"[가-힣]{0,2}\s*(?:지역|곳|데|종목|etf|펀드)\s*의\s")


def _picked_set(text: str, voc: dict[str, Any]) -> str | None:
    """'가장 많은 지역의 …': a superlative order word right before a possessive set noun picks
    one member (its direction), which the measure after it is read of."""
    said = find_phrases(text, {"s": voc["rank"]["superlative"]})
    order = find_phrases(text, {"desc": voc["rank"]["desc"], "asc": voc["rank"]["asc"]})
    for h in order:
        if any(s.end <= h.start for s in said) and _PICKED_SET.match(text, h.end):
            return h.label
    return None


_ORDER_THEN_CUT = re.compile(r"\S?\s*(?:순|etf|펀드|종목|주식|것|거|곳|지역)\s*")
_LEVEL_MONTH = re.compile(r"(?:가장|제일)\s*(높|낮|많|적|크|작)(?:았던|었던|은)\s*달")
_MEAN = re.compile(r"평균|average|mean")
_COMBINE = re.compile(r"합치|합쳐|together|combined")


def _read_month_of_move(frame: QuestionFrame) -> None:
    """'가장 많이 오른 달': each calendar month's return, the largest (not a day's move)."""
    op = frame.operation
    # '가장 높았던 달 평균': each month's mean, the highest picked
    level = _MEAN.search(frame.question) and _LEVEL_MONTH.search(frame.question)
    if level and op.kind == "aggregate":
        op.aggregate = "max" if level.group(1) in ("높", "많", "크") else "min"
    if op.kind == "aggregate" and op.aggregate in ("max", "min") and (level or (
            frame.measure() == "return" and _MOVE_MONTH.search(frame.question))):  # fmt: skip
        frame.per_period = "month"
        frame.notes = [n for n in frame.notes if n != DAY_OF_MOVE] + [
            f"{MONTH_OF_MOVE}{op.aggregate}"
        ]
        op.aggregate = None  # each month's figure is figured, then the extreme is picked
        frame.statistic = "avg" if level else (
            None if frame.statistic in ("max", "min") else frame.statistic)  # fmt: skip


def _asks_when(text: str) -> bool:
    """'가장 많았던 달', '가장 많이 오른 날', 'which day': a moment over time is asked ('지난 달',
    'last month' name a window, not a moment)."""
    return bool(_MOVE_DAY.search(text)) or any(  # '최대 상승일': the day of a move
        m.group(1) is None or m.group(1) not in _NOT_WHEN for m in _WHEN_WORD.finditer(text)
    )


_SET_ORDERS = ("return", "volume", "volatility", "net_assets")  # a bare set asks them ordered
_MEANING = re.compile(r"\bwhat (?:does|do)\b.*\bmean\b")


def _read_asked_term(frame: QuestionFrame) -> None:
    """A glossary term the question asks to define: alone ('스프레드?') it is a definition; beside
    a data ask ('스프레드가 뭐야? 지금 장단기 스프레드는 얼마야?') the frame keeps it so the answer
    defines it before the figures."""
    from agents.understanding.glossary import load_glossary

    short = len(frame.question.strip()) <= 20
    if not short and not _DEFINE_CUE.search(frame.question.lower()):
        return  # most questions: no cue, no glossary pass (the p95 budget is 5 ms)
    glossary = load_glossary()
    found = glossary.match(frame.question)
    if found is None:
        return
    inside = [e for e in frame.entities if found.start <= e.start and e.end <= found.end]
    whole = _WHAT_IS.match(frame.question[: found.start]) and not frame.question[found.end :].strip(
        " ?!."
    )  # 'What is dollar-cost averaging?': the term is all that is asked
    if (
        inside
        and len(inside) == len(frame.entities)
        and (whole or _defines(frame.question, found.end))
    ):
        # 'What is dollar-cost averaging?': '달러' inside the term names no tag to look up
        frame.entities = []
        frame.measures = []
        frame.operation.kind = "define"
        return
    bare = found.text.strip().lower() == frame.question.strip(" ?!.。").strip().lower()
    if bare and not frame.entities and frame.operation.kind in ("lookup", "difference"):
        frame.operation.kind = "define"  # a term on its own: 'spread?', '스프레드'
    elif frame.operation.kind != "define":
        asked = [m for m in glossary.find_all(frame.question) if _defines(frame.question, m.end)]
        if asked:
            frame.definition_term = asked[0].entry.id
            if how := _HOW_IT_ARISES.match(frame.question, asked[0].end):  # '… 왜 생기나요?'
                frame.operation.kind = "define"  # how a figure arises is what the term explains
                mark_read(frame, how.group(0).strip(), *(t.form for t in analyse(how.group(0))))


_HOW_IT_ARISES = re.compile(r"(?:은|는|이|가)?\s*왜\s*(?:생기|생겨|발생)")
_WHAT_IS = re.compile(r"\s*what(?:'s| is| are)(?: an?| the)?\s*$", re.IGNORECASE)
_DEFINE_CUE = re.compile(
    r"이란|란\?|뭐야|뭐예요|뭐임|무엇|뜻|의미|정의|왜\s*(?:생기|생겨|발생)|\bmean|\bdefin"
    r"|\bwhat(?:'s| is| are)\b"
)


def _defines(question: str, end: int) -> bool:
    """A definition cue right after the term ('…가 뭐야', '…란', '… 뜻') or an explicit English one
    ('what does X mean', 'define X'); 'what is the latest CPI' asks data, not a definition."""
    after = question[end : end + 8]
    after = question[end : end + 10]  # '괴리율은 왜 생기나요?': how it arises is its definition
    return bool(re.match(r"\s*(이란|란|(이|가)\s*뭐|(이|가)\s*무엇|\s*뜻|의\s*뜻|의미|(?:은|는|이|가)?\s*"
                         r"왜\s*(?:생기|생겨|발생))", after)) or bool(
        re.search(r"\b(mean|means|meaning|definition|define)\b", question.lower()))  # fmt: skip


_MEASURE_THEN_THAN = re.compile(r"\s*(?:\d+\s*(?:개월|년|주|일|거래일)\s*)?([가-힣a-z]+?)\s*보다")


def _read_stock_as_bar(frame: QuestionFrame) -> None:
    """'삼성전자보다 PER 낮은 반도체주': the named stock's figure is the bar of a filter over a
    set of stocks (a sector, or every stock), not the subject; '삼성전자 PER이 SK하이닉스보다
    낮아?' (a yes or no) and two stocks compared are not."""
    stocks, low = frame.of("stock"), frame.question.lower()
    if len(stocks) != 1 or not frame.of("sector") or frame.operation.kind in ("difference",
                                                                            "compare"):  # fmt: skip
        return
    e = stocks[0]
    between = _MEASURE_THEN_THAN.match(low, e.end)
    if not (low[e.end :].lstrip().startswith("보다") or between):
        return
    rank = vocabulary()["rank"]
    way = find_phrases(low[e.end :], {"<": rank["asc"], ">": rank["desc"]})
    if not way or bar_is_the_predicate(frame, way[0].label):
        return
    op = frame.operation
    op.kind, op.comparator, op.threshold_of = "filter", way[0].label, e  # type: ignore[assignment]
    op.filter_measure = frame.measure()
    frame.entities.remove(e)
    mark_read(frame, "보다")


_AT_THE_MEAN = re.compile(r"(평균|중앙값|중간값)\s*(?:[A-Za-z가-힣]+\s*)?보다\s*(?:더\s*)?"
                          r"(낮|높|작|크|싸|비싸|많|적)")  # fmt: skip


def _read_bar_at_the_mean(frame: QuestionFrame) -> None:
    """'반도체 업종 평균 PER보다 낮은 반도체주 몇 개': the set's own mean (or median) of the
    measure is the bar of a filter over the set (counted when '몇 개' is said). A named stock
    against its sector's mean ('카카오 PER이 업종 평균보다 낮아?') is the stock's own answer."""
    said = _AT_THE_MEAN.search(frame.question)
    if said is None or frame.of("stock") or frame.of("etf") or not frame.measures:
        return
    op = frame.operation
    op.kind, op.comparator = "filter", "<" if said.group(2) in ("낮", "작", "싸", "적") else ">"
    op.filter_measure = frame.measure()
    op.aggregate = "count" if op.also_count else None
    frame.notes.append(BAR_AT + ("mean" if said.group(1) == "평균" else "median"))
    mark_read(frame, said.group(1), "보다")


def _read_relative_threshold(frame: QuestionFrame) -> None:
    """'KODEX 200보다 보수 싼 ETF', 'ETFs cheaper than TIGER 200': the named ETF's value is the
    threshold of a filter over the others, not the subject of the question."""
    low = frame.question.lower()
    if frame.operation.kind in ("difference", "compare") or len(frame.of("etf")) != 1:
        return  # '코덱스200이 타이거200보다 얼마나 높아?': two named ETFs compared, not a set
    surfaces = {m.surface.lower() for m in frame.measures}
    for e in frame.of("etf"):
        after, before = low[e.end : e.end + 4].lstrip(), low[: e.start].rstrip()
        # 'KODEX 200 3개월 수익률보다': its measure (and window) said between name and '보다'
        between = _MEASURE_THEN_THAN.match(low, e.end)
        if between and between.group(1) in surfaces:
            after = "보다"
        if not (after.startswith("보다") or before.endswith("than")):
            continue
        rank = vocabulary()["rank"]
        tail = low[e.end :] if after.startswith("보다") else low[: e.start]
        way = find_phrases(tail, {"<": rank["asc"] + ["cheaper"], ">": rank["desc"] + ["better"]})
        if not way:
            return
        op = frame.operation
        held = bar_is_the_predicate(frame, way[0].label)  # '… 가장 싼 ETF의 수익률은 A보다 높아?'
        if not (held and op.kind in ("rank", "aggregate")):  # '… 평균 보수는 A보다 높아?'
            op.kind, op.top_n = "filter", None  # type: ignore[assignment]
        op.comparator, op.threshold_of = way[0].label, e  # type: ignore[assignment]
        cheap = vocabulary()["cheap_words"] + ["cheaper", "비싼", "비싸", "expensive", "pricier"]
        if not frame.measures and find_phrases(tail, {"c": cheap}):
            frame.measures.append(Measure(name="expense_ratio", unit="%"))  # 'cheaper than'
        # the bar's measure: named after it ('A보다 보수 싼'), else the nearest before it
        after_bar = [m for m in frame.measures if low.find(m.surface.lower(), e.end) >= 0]
        placed = [(low.rfind(m.surface.lower(), 0, e.start), m) for m in frame.measures]
        before_bar = [max(placed, key=lambda p: p[0])[1]] if placed else []
        said = after_bar[0] if after_bar else before_bar[0] if before_bar else None
        op.filter_measure = said.name if said else "expense_ratio"
        frame.entities.remove(e)
        return


def bar_is_the_predicate(frame: QuestionFrame, comparator: str | None = None) -> bool:
    """'… ETF의 1년 수익률은 KODEX 200보다 높아?', '… 10% 넘어?': the comparison is the
    question's own predicate (a sentence-final ending follows it), so the figure is held to the
    bar; in '10% 넘는 ETF' it qualifies a noun and filters a set."""
    if (comparator or frame.operation.comparator) is None:
        return False
    if frame.language == "en":  # 'is the average fee … above 0.3%?': a yes-or-no question
        return re.match(r"\s*(?:is|are|was|were|does|do|did|has|have)\b", frame.question,
                        re.IGNORECASE) is not None  # fmt: skip
    tokens = analyse(frame.question)
    final = next((i for i, t in enumerate(tokens) if t.tag == "EF"), None)
    stem = (final or 0) - 1
    while stem >= 0 and tokens[stem].tag in ("EP", "VCP"):  # '넘었어', '이상이야'
        stem -= 1
    if final is None or stem < 0:
        return False
    at, low = tokens[stem].start, frame.question.lower()
    rank = vocabulary()["rank"]  # '보다 높아': an order word after a named bar
    said = find_phrases(
        low, {**vocabulary()["comparators"], "asc": rank["asc"], "desc": rank["desc"]}
    )
    return any(h.start <= at < h.end for h in said)


def _read_comparative_to_subject(frame: QuestionFrame) -> None:
    """'KODEX 200과 비슷한 ETF 중 더 싼 거', '(TIGER 200 보수) → 더 싼 ETF 있어?': '더' and a
    comparative with no '보다' compare other ETFs with the one ETF talked about."""
    low, op, etfs = frame.question.lower(), frame.operation, frame.of("etf")
    asks_etfs = frame.relation == "similar" or ("etf" in low and etfs and etfs[0].inherited)
    if len(etfs) != 1 or op.threshold_of is not None or "보다" in low or not asks_etfs:
        return
    more = re.search(r"(?<![가-힣])더\s*(\S+)", low)
    if more is None:
        return
    rank = vocabulary()["rank"]
    way = find_phrases(more.group(1), {"<": rank["asc"], ">": rank["desc"]})
    if not way:
        return
    if not frame.measures and find_phrases(
        more.group(1), {"c": vocabulary()["cheap_words"] + ["비싼", "비싸"]}
    ):
        frame.measures.append(Measure(name="expense_ratio", unit="%"))
    op.kind, op.comparator, op.threshold_of = "filter", way[0].label, etfs[0]  # type: ignore[assignment]
    op.filter_measure = frame.measure() or "expense_ratio"
    op.top_n = None
    op.words.append(more.group(0))
    frame.entities.remove(etfs[0])


_GROUP_BY = {
    "manager": re.compile(
        r"(운용사|자산운용사|운용회사|브랜드)\s*(별|마다)|\b(by|per|each) "
        r"(manager|issuer|brand|asset manager)s?\b"
    ),
    "tag": re.compile(r"(테마|태그|섹터|유형)\s*(별|마다)|\b(by|per|each) (theme|tag|sector)s?\b"),
}


# the group itself asked for by a superlative: 'ETF가 가장 많은 운용사', 'which manager has …'
_GROUP_ASKED = {
    "manager": re.compile(r"(?:가장|제일)\s*\S+\s+(?:자산운용사|운용사|운용회사|브랜드)(?!\s*(?:별|마다))"
                          r"|\bwhich (?:manager|issuer|brand)\b"),
    "tag": re.compile(r"(?:가장|제일)\s*\S+\s+(?:테마|태그|섹터)(?!\s*(?:별|마다))|\bwhich (?:theme|sector)\b"),
}  # fmt: skip
# '운용사별 ETF 개수 중 가장 적은 곳': the groups said, then one of them picked
_GROUP_PICKED = re.compile(r"(?:가장|제일)\s*\S+\s*(?:곳|데|것|거)")
# summed per group when no statistic is said ('순자산 가장 큰 운용사': the house's total)
_ADDITIVE = frozenset({"net_assets", "market_cap", "volume", "trading_value"})


def _read_group_by(frame: QuestionFrame, text: str) -> None:
    """'운용사별 평균 보수', 'ETF count by manager': one aggregate per manager (or theme), the
    count when no measure is named; a ranking per group keeps its ranking. A group asked for by
    a superlative ('평균 보수 가장 낮은 운용사') is the same aggregate, its first group kept."""
    op = frame.operation
    for key, pattern in _GROUP_BY.items():
        if pattern.search(text):
            op.group_by = key  # type: ignore[assignment]
            if _GROUP_ASKED[key].search(text) or _GROUP_PICKED.search(text):
                break  # '운용사별 평균 수익률 가장 높은 운용사', '… 중 가장 적은 곳'
            if op.kind == "rank":  # '운용사별로 보수 가장 싼 ETF': the best of each group
                op.aggregate = None
                return
            op.kind = "aggregate"
            op.aggregate = op.aggregate or ("avg" if frame.measures else "count")  # type: ignore[assignment]
            return
    for key, pattern in _GROUP_ASKED.items():  # the group itself asked for
        if op.group_by == key and not pattern.search(text):  # '운용사별 … 중 가장 적은 곳'
            pattern = _GROUP_PICKED
        if (said := pattern.search(text)) and op.kind in ("rank", "aggregate", "lookup"):
            measure = frame.measure()
            op.group_by, op.kind = key, "aggregate"  # type: ignore[assignment]
            many = re.match(r"\s*(\d{1,2})\s*(?:곳|개|군데)", text[said.end() :])  # '… 운용사 3곳'
            op.group_first, op.top_n = int(many.group(1)) if many else op.top_n or 1, None
            op.words += [many.group(0).strip()] if many else []
            rank = vocabulary()[
                "rank"
            ]  # the superlative's own word: '가장 많은' first, '적은' last
            way = find_phrases(said.group(0).lower(), {"asc": rank["asc"], "desc": rank["desc"]})
            op.direction = way[0].label if way else op.direction or "desc"  # type: ignore[assignment]
            counted = measure is None or op.aggregate == "count"
            op.aggregate = (
                "count"
                if counted
                else op.aggregate
                or (  # type: ignore[assignment]
                    "sum" if measure in _ADDITIVE else "avg"
                )
            )
            op.words.append(said.group(0))
            return


def _minus_between(frame: QuestionFrame, text: str) -> bool:
    """'한국 실업률 - 미국 실업률': a minus sign between two named series is their difference."""
    named = sorted((e for e in frame.entities if e.kind in ("series", "etf", "stock") and e.start >= 0),
                   key=lambda e: e.start)  # fmt: skip
    return any(re.fullmatch(r"\s*[-−–]\s*", text[a.end : b.start] or "x")
               for a, b in zip(named, named[1:], strict=False))  # fmt: skip


def _asks_what_differs(frame: QuestionFrame, text: str) -> bool:
    """Two named funds or stocks, no measure, and 'what is the difference': their facts side by
    side, not the gap of a default figure."""
    named = [e for e in frame.entities if e.kind in ("etf", "stock")]
    asked = find_phrases(text, {"w": vocabulary()["what_differs"]["phrases"]})
    return len(named) >= 2 and not frame.measures and bool(asked)


def _whole_word(question: str, hit: Hit) -> str:
    """The written word holding a phrase found inside it ('비트코인' for '코인')."""
    start, end = hit.start, hit.end
    if hit.phrase.lower() != question[start:end].lower() or " " in hit.phrase:
        return hit.phrase
    while start > 0 and _HANGUL.match(question[start - 1]) and _HANGUL.match(question[start]):
        start -= 1
    return question[start:end] if start < hit.start else hit.phrase


def _which_is_more(frame: QuestionFrame) -> bool:
    """'둘 중 더 높은 쪽은?', '어느 나라가 더 낮아?': '더' and an ordering adjective over series
    (or a follow-up's) ask which is higher — their gap. Funds and stocks pick one instead."""
    if any(e.kind in ("etf", "stock") for e in frame.entities):
        return False
    tokens = analyse(frame.question)
    # '높은 쪽은?': one side of two; '서울과 부산 중 높은 곳': one of the two subjects named
    # ('가장 높은 곳' over every region is a ranking)
    ranked = bool(re.search(r"가장|제일|most|least|highest|lowest", frame.question, re.I))
    two = len(_compared_subjects(frame)) >= 2 and not ranked
    sides = {"쪽"} | (PICKED if two else set())
    return any(t.form == "더" and t.tag == "MAG" and any(
        n.tag == "VA" and n.form in _ORDERING_ADJECTIVES for n in tokens[i + 1 : i + 3])
        for i, t in enumerate(tokens)) or any(
        t.tag == "VA" and t.form in _ORDERING_ADJECTIVES and any(
            n.form in sides for n in tokens[i + 1 : i + 3]) for i, t in enumerate(tokens)) or (
        _than_a_subject(frame, tokens))  # fmt: skip


def _compared_subjects(frame: QuestionFrame) -> set[str]:
    return {e.key for e in frame.entities if e.kind in ("series", "re_region", "index", "region")}


def _than_a_subject(frame: QuestionFrame, tokens: tuple[Morpheme, ...], named: int = 2) -> bool:
    """'부산 인허가가 서울보다 많아?', '미국 실업률이 한국보다 높아?': a named subject (not a
    number: '1400원보다') before '보다', then an ordering adjective — which is higher, a gap
    (of the `named` subjects said; one in a follow-up, the other is the last turn's)."""
    if len(_compared_subjects(frame)) < named:
        return False
    return any(
        t.form == "보다" and t.tag == "JKB" and i > 0
        and tokens[i - 1].tag.startswith(("NNG", "NNP", "SL"))
        and any(n.tag == "VA" and n.form in _ORDERING_ADJECTIVES for n in tokens[i + 1 : i + 3])
        for i, t in enumerate(tokens))  # fmt: skip


_ORDERING_ADJECTIVES = frozenset({"높", "낮", "크", "작", "많", "적"})


def _difference_words(text: str) -> bool:
    """'금리 차이' asks a number; '두 ETF 차이점' asks how they differ (a comparison): read
    together, the longer compare phrase takes its words from the difference one."""
    voc = vocabulary()
    if _BARE_GAP.search(text):  # '금리 차': '차' as a word of its own (not '현대차', '차트')
        return True
    return any(h.label == "d" for h in find_phrases(text, {"d": voc["difference"],
                                                           "c": voc["compare"]}))  # fmt: skip


# '금리 차', and '10년물 금리차' where the name took '금리' (masked): '차' after a name is the gap
_BARE_GAP = re.compile(rf"(?:^|\s|{_MASK})차(?=$|[\s?.!]|는|가|를|도)")


def _growth_rate(frame: QuestionFrame) -> bool:
    """A rate of a price index with no period of its own: the series' usual basis (CPI → YoY)."""
    growth = {s["code"] for s in vocabulary()["series"] if s.get("growth_basis") == "yoy"}
    return (frame.measure() == "return" and frame.period is None
            and any(e.key in growth for e in frame.of("series")))  # fmt: skip


def _extreme_of(text: str) -> str:
    directions = find_phrases(text, {"max": vocabulary()["rank"]["desc"],
                                     "min": vocabulary()["rank"]["asc"]})  # fmt: skip
    return directions[0].label if directions else "max"


def _sign(text: str) -> tuple[str, float, str] | None:
    """'1년 수익률 마이너스인 것', 'negative returns': a threshold of zero."""
    hits = find_phrases(text, vocabulary()["sign_words"])
    return (hits[0].label, 0.0, "%") if hits else None


def _filter_measure(frame: QuestionFrame, text: str, at: int | None = None) -> str | None:
    """The measure named closest before the comparator ('보수가 0.1% 이하인 … 수익률 1위'); `at`
    is the position of a later comparator."""
    if not frame.measures:
        return None
    voc = vocabulary()  # a sign word ('마이너스인') qualifies the measure before it too
    comparators = find_phrases(text, voc["comparators"]) or find_phrases(text, voc["sign_words"])
    if not comparators:
        return frame.measures[0].name
    comparator = comparators[0].start if at is None else at
    positions = [(frame.question.lower().find(m.surface.lower()), m.name) for m in frame.measures]
    before = [(p, n) for p, n in positions if 0 <= p <= comparator]
    return max(before)[1] if before else frame.measures[0].name


def _data_subjects(frame: QuestionFrame) -> list[Entity]:
    return [e for e in frame.entities if e.kind not in ("region",)]


def _single_subject(frame: QuestionFrame) -> bool:
    kinds = ("etf", "stock", "series", "index") + (("re_region",) if frame.relation is None else ())
    subjects = [e for e in frame.entities if e.kind in kinds]
    return len(subjects) == 1 and not frame.of("tag") and not frame.of("manager")


def _is_definition(frame: QuestionFrame, text: str) -> bool:
    """'ETF 총보수란?' defines; 'KODEX 200 총보수가 뭐야?', 'what is the current VIX' or 'Korean
    and US jobless rates, what's the spread?' (two countries) ask data."""
    if any(e.kind in ("etf", "stock", "tag", "manager") for e in frame.entities):
        return False
    if len(frame.of("region")) >= 2:
        return False
    return not any(w in text for w in _DATA_WORDS) and frame.period is None


def _threshold(text: str, raw: str = "") -> tuple[str | None, float, str | None] | None:
    """(comparator, number, unit) of 'N% 넘는', 'at least N%', 'N억 이상' …"""
    found = _thresholds(text, raw)
    return found[0][:3] if found else None


# a count of time is a window or a date, never a bar ('PER 1년 전보다 낮아졌어?')
_TIME_AFTER = re.compile(r"\s*(?:년|개월|달|주|일|거래일|영업일|분기|years?|months?|weeks?|days?)")
_PLACE_ASKED = re.compile(r"몇\s*(?:위|등|번째)|순위")


def _thresholds(text: str, raw: str = "") -> list[tuple[str, float, str | None, int]]:
    """Every comparator with its nearest number not taken by an earlier one: (comparator,
    number, unit, comparator position) — '보수 0.1% 미만이고 순자산 1조 넘는'. A ranking's count is
    found in `raw` too (the same positions, before measure words were blanked: 'five
    best-performing')."""
    comparators = find_phrases(text, vocabulary()["comparators"])
    numbers = [m for m in _NUMBER.finditer(text)
               if not _is_rank_number(text, m) and not (raw and _is_rank_number(raw, m))
               and not (m.group(2) is None and _TIME_AFTER.match(text, m.end()))]  # fmt: skip
    out: list[tuple[str, float, str | None, int]] = []
    taken: set[int] = set()
    for c in comparators:
        free = [m for m in numbers if m.start() not in taken]
        if not free:
            break
        best = min(free, key=lambda m: _distance(text, m, c))
        taken.add(best.start())
        out.append((*_read_number(text, c, best), c.start))
    signs: list[tuple[str, float, str | None, int]] = [
        (h.label, 0.0, "%", h.start) for h in find_phrases(text, vocabulary()["sign_words"])
    ]
    return sorted(out + signs, key=lambda t: t[3])  # '마이너스인': a bar of zero


_UNIT_BETWEEN = re.compile(r"\s*[가-힣A-Za-z%]{0,3}\s*")


def _distance(text: str, number: re.Match[str], c: Hit) -> int:
    """How far a number is from a comparator; a number right before it, with only its unit
    between, is its own ('20배 이상 30배 이하': 20 is 이상's, not 30)."""
    if number.end() <= c.start and _UNIT_BETWEEN.fullmatch(text, number.end(), c.start):
        return 0
    return min(abs(number.end() - c.start), abs(number.start() - c.end))


def _read_number(text: str, c: Hit, best: re.Match[str]) -> tuple[str, float, str | None]:
    value = float(best.group(1).replace(",", "").replace("−", "-"))
    unit = best.group(2)
    if unit in ("퍼센트", "프로", "percent"):
        unit = "%"
    extra = (best.group(3), best.group(4)) if best.group(3) else (best.group(5), best.group(6))
    if unit in _TIMES and not re.match(r"\s*원", text[best.end() :]):
        value = value * _TIMES[unit] + (float(extra[0]) * _TIMES[extra[1]] if extra[0] else 0.0)
        unit = None
    elif unit in _EOK_PER:  # KRW amounts in 억: '5천억' 5000, '1조 5천억' 15000, '3천만' 0.3
        value *= _EOK_PER[unit]
        if extra[0]:
            value += float(extra[0]) * _EOK_PER[extra[1]]
        unit = "억"
    elif unit == "trillion":
        value, unit = value * 10_000, "억"
    elif unit == "billion":
        value, unit = value * 10, "억"
    dollars = _DOLLARS.match(text, best.end()) or text[: best.start()].endswith("$")
    if unit == "억" and dollars:  # '1조 달러', '$1 trillion': an amount in dollars, not won
        value, unit = value * 1e8, "$"
    return _NEGATED[c.label] if _negated(text, c.start, c.end) else c.label, value, unit


_NEGATED = {">": "<=", ">=": "<", "<": ">=", "<=": ">"}
_DOLLARS = re.compile(r"\s*(?:달러|dollars?\b|usd\b)", re.IGNORECASE)


def _negated(text: str, start: int, end: int) -> bool:
    """'3%를 넘지 않는', '5% 이상이 아닌', 'not above': the comparator turned around."""
    after = text[end : end + 8]
    korean = re.match(r"\s*(않|못|지\s*않|지\s*못|이\s*아닌|가\s*아닌|아닌|안\s)", after)
    return bool(korean) or text[max(0, start - 5) : start].endswith("not ")


def _is_rank_number(text: str, m: re.Match[str]) -> bool:
    """'5개', '3위', 'top 5', 'five best', '5 cheapest': a count of a ranking, not a threshold."""
    tail = text[m.end() : m.end() + 3]
    if tail.startswith(("개", "위", "종목", "곳")):
        return True
    return any(r.start() <= m.start() < r.end() for r in _TOP_N.finditer(text))


# '보수 낮은 순', '큰 순서': '순' closing a modifier is an order ('순자산' is a measure)
_ORDER_AFTER_MODIFIER = re.compile(r"[가-힣]\s?순(?=$|[\s?.!,]|으로|서)")


def _ranking(text: str) -> list[Hit]:
    rank = vocabulary()["rank"]
    hits = find_phrases(text, {"top": rank["top_words"], "bottom": rank["bottom_words"],
                               "sup": rank["superlative"], "order": rank["order_words"]})  # fmt: skip
    if not hits and (m := _ORDER_AFTER_MODIFIER.search(text)):
        hits.append(Hit("order", m.group(0), m.start(), m.end()))
    return hits


def _read_rank(frame: QuestionFrame, text: str, raw: str = "") -> None:
    rank = vocabulary()["rank"]
    op = frame.operation
    counts = [m for t in (text, raw) for m in _TOP_N.finditer(t)]  # raw: 'five best-performing'
    m = next((m for m in counts if not _UNIVERSE_NAME.search(m.string[: m.end()])
              and not (m.group(2) and _INDEX_BEFORE.search(m.string[: m.start(2)]))), None)  # fmt: skip
    if m:
        op.top_n = int(m.group(1) or m.group(2))
    elif find_phrases(text, {"s": rank["superlative"]}) and not _wants_ordering(raw or text):
        op.top_n = 1
    directions = find_phrases(text, {"desc": rank["desc"], "asc": rank["asc"]})
    if directions:
        op.direction = directions[0].label  # type: ignore[assignment]


def _wants_ordering(text: str) -> bool:
    """'보수 낮은 순으로', 'ETFs with the lowest fees': the whole set in order, not one winner."""
    order = find_phrases(text, {"o": vocabulary()["rank"]["order_words"]})
    return (
        bool(order)
        or _ORDER_AFTER_MODIFIER.search(text) is not None
        or re.search(
            r"\b(etfs|funds|stocks|holdings|companies|regions|districts|cities|sectors|"
            r"countries)\b|(?:종목|etf|펀드|지역)들",
            text,
        )
        is not None  # plural: a list
    )


def _read_relation(frame: QuestionFrame, text: str) -> None:
    housing = frame.of("re_region") or {m.name for m in frame.measures} & HOUSING_MEASURES
    if housing and re.search(
        vocabulary()["region_set_pattern"], frame.question.lower()
    ):  # '서울에서 거래 제일 많은 구', '미분양 가장 많은 지역': the answer is a set of regions
        frame.relation = "regions"
        return
    rel = vocabulary()["relations"]
    hits = {h.label for h in find_phrases(text, rel)}
    stocks, etfs = frame.of("stock"), frame.of("etf")
    etf_word = "etf" in text or "펀드" in text or "fund" in text
    if "common_holdings" in hits and len(etfs) >= 2:
        frame.relation = "common_holdings"  # 'KODEX 반도체와 TIGER 반도체 공통 보유 종목'
    elif "similar" in hits and (etfs or not stocks):
        frame.relation = "similar"  # without a fund named, the one talked about (a follow-up)
    elif stocks and etfs and frame.measure() == "weight" and not _change_words(text):
        frame.relation = "weight_in"  # '코덱스 반도체 한미반도체 편입비중': a weight, not a change
    elif etfs and ("holdings_changes" in hits or ("편입" in text and frame.period)):
        # '1개월간 편입된 종목' is a change; '편입 상위 3종목' (no window) is the holdings
        frame.relation = "holdings_changes"
    elif len(stocks) >= 2 and not etfs and ("together" in hits or "holders" in hits or etf_word):
        frame.relation = "together"
    elif stocks and etfs:
        frame.relation = "weight_in"
    elif stocks and not etfs and ("holders" in hits or etf_word):
        frame.relation = "holders"
    elif etfs and (
        any(m.name == "holdings" for m in frame.measures)
        or ("holders" in hits and not stocks)
        or "holdings" in hits
    ):  # '코덱스200 뭐 제일 많이 담고 있어?', '타이거 반도체 상위 5개 종목'
        frame.relation = "holdings"
    elif "holders" in hits and not stocks and not etfs and etf_word:
        frame.notes.append("missing_subject:stock")  # '쿠팡을 담은 ETF': a stock we do not hold


def _change_words(text: str) -> bool:
    """'늘어난', '빠진', 'increased': the question is about a change of holdings."""
    return bool(find_phrases(text, vocabulary()["holdings_change_kinds"])) and not find_phrases(
        text, {"w": ["편입비중", "편입 비중"]}
    )


_UP_STEM = re.compile(r"(상승|급등|강세|강해|올라|반등|증가)(?![률율])")
_DOWN_STEM = re.compile(r"(하락|급락|약세|약해|내려|폭락|감소)(?![률율])")
# a question of how far something moved (the move is the figure asked, not an order)
_HOW_MUCH = re.compile(r"얼마나|몇\s*(?:%|퍼센트|프로)|\bhow much\b|\bby how\b", re.IGNORECASE)


def asked_move(question: str) -> str | None:
    """The direction a question says something moved ('왜 이렇게 올랐어?' → 'up', '하락 이유' →
    'down'), or None; '상승률' is a measure, not a move."""
    low = question.lower()
    change = vocabulary()["change"]
    hits = find_phrases(low, {"up": change["up"], "down": change["down"]})
    if hits:
        return hits[0].label
    up, down = _UP_STEM.search(low), _DOWN_STEM.search(low)
    if up and (not down or up.start() < down.start()):
        return "up"
    return "down" if down else None


def _read_size(frame: QuestionFrame, text: str) -> None:
    """'which is the largest?', '제일 큰 거' with nothing else measured: funds are sized by net
    assets (stocks by market cap)."""
    if frame.measures or frame.operation.kind not in ("rank", "compare", "lookup"):
        return
    hits = find_phrases(text, vocabulary()["size_words"])
    if hits:
        measure = "market_cap" if frame.of("stock") and not frame.of("etf") else "net_assets"
        frame.measures.append(Measure(name=measure, unit=MEASURE_UNITS[measure],
                                      surface=hits[0].phrase))  # fmt: skip
        if frame.operation.kind == "lookup":
            frame.operation.kind = "rank"
        if frame.operation.kind == "rank" and frame.operation.direction is None:
            frame.operation.direction = "asc" if hits[0].label == "small" else "desc"


def _read_movement(frame: QuestionFrame, text: str) -> None:
    """'8% 넘게 빠진', '가장 많이 떨어진', 'top gainers': a move is a return, and a fall turns
    the threshold and the order around."""
    change = vocabulary()["change"]
    moves = find_phrases(text, {"down": change["down"], "up": change["up"]})
    moves += [Hit("down" if m.group(1) else "up", m.group(0), m.start(), m.end())
              for m in _MOVE_DAY.finditer(text)]  # '최대 상승일': the day of the largest rise  # fmt: skip
    if not moves:
        return
    op = frame.operation
    down = moves[0].label == "down"
    if op.kind == "aggregate" and op.aggregate in ("max", "min") and _asks_when(text):
        # '가장 많이 오른 날', 'the day it fell most': the largest one-day move, not the high
        if frame.measure() in (None, "close", "value"):
            frame.measures.insert(0, Measure(name="return", unit="%", surface=moves[0].phrase))
            op.aggregate = "min" if down else "max"  # type: ignore[assignment]
        frame.notes.append(DAY_OF_MOVE)  # a day's move, not the window's extreme level
        return
    if (
        op.kind == "rank"
        and frame.measure() not in (None, "return")
        and len(frame.measures) == 1
        and _HOW_MUCH.search(text)
    ):  # '거래량 제일 많은 ETF는 어제 얼마나 올랐어?': the ranked one's move is read after the cut
        frame.measures.append(Measure(name="return", unit="%", surface=moves[0].phrase))
        return
    crossing = op.threshold_unit != "%" and _CROSSED.search(text)
    if op.kind == "filter" and (op.threshold_unit == "억" or crossing) and frame.measure() is None:
        # '30만원 아래로 떨어진 적 있어?', '코스피 4000 아래로 떨어진 적': a level crossed, not
        # the size of a move (a fund's or a stock's price; a series' own value)
        if frame.of("etf") or frame.of("stock"):
            frame.measures.insert(0, Measure(name="close", unit=MEASURE_UNITS["close"], surface=""))
        return
    if op.kind in ("filter", "rank") and frame.measure() in (None, "return"):
        if frame.measure() is None:
            frame.measures.insert(0, Measure(name="return", unit="%", surface=moves[0].phrase))
        if op.kind == "filter" and op.filter_measure in (None, "return"):
            op.filter_measure = "return"
            if down and op.threshold is not None and op.threshold > 0:
                flipped = {">": "<", ">=": "<=", "<": ">", "<=": ">="}
                op.threshold = -op.threshold
                op.comparator = flipped.get(op.comparator or ">", "<")  # type: ignore[assignment]
        if op.kind == "rank" and op.direction in (None, "desc") and down:
            op.direction = "asc"  # the biggest fall is the lowest return


_LATEST_UNIT = re.compile(r"(?:최근|최신|가장\s*최근)\s*(월|달|분기)(?![가-힣])")
_CROSSED = re.compile(r"\d\S*\s*(?:아래|밑|위)\s*(?:로|으로)")  # '4000 아래로', '1400원 밑으로'

# a point ahead of the data ('3년 뒤', '6개월 후에', 'a year from now'); '1년 전 대비' is behind it
_FUTURE_POINT = re.compile(
    r"\d+\s*(?:년|개월|달|주|일)\s*(?:뒤|후)(?!\s*대비)|(?:a|one|\d+)\s+(?:years?|months?|weeks?)"
    r"\s+from now|\bin\s+\d+\s+(?:years|months)\b",
    re.IGNORECASE,
)


def _move_ahead(question: str, text: str) -> str | None:
    """A price move, in any tense, after a point ahead of the data ('내일 오르나요'): the
    question's words from the one to the other."""
    grammar = vocabulary()["forecast_grammar"]
    ahead = find_phrases(text, {"ahead": grammar["future_words"]})
    tokens = analyse(question)
    when = next((t for t in tokens if t.form == "언제"), None)
    if not ahead and when is not None and not any(t.tag == "EP" for t in tokens):
        # '금리 언제 내려?', '언제 인하해?': when a move will come (not '언제 내렸어?')
        ahead = [replace(m, start=when.start) for m in find_phrases(text, {"ahead": ["언제"]})]
    # a move after it, or its outlook ('내년 실적 전망', '다음 달 CPI 예상'): no data holds that
    said = {
        "move": grammar["move_stems"],
        "outlook": ["전망", "예상", "예측", "outlook", "forecast"],
    }
    moves = [m for m in find_phrases(text, said) if ahead and m.start > ahead[0].start]
    if not moves:
        return None
    end = moves[0].end
    while end < len(question) and _WORD_CHAR.match(question[end]):
        end += 1
    return question[ahead[0].start : end]


def _defines_glossary_term(frame: QuestionFrame) -> bool:
    from agents.understanding.glossary import load_glossary

    found = load_glossary().match(frame.question)
    return found is not None and _defines(frame.question, found.end)


def _read_scope(frame: QuestionFrame, text: str) -> None:
    """Questions outside the product: forecasts and advice, assets we do not hold, chit-chat.
    A soft advice word ('좋은 ETF', '추천', '노후') is advice only when nothing measurable is
    asked: '수익률 좋은 ETF' is a ranking; '초보자에게 좋은 ETF', '안전한 ETF 뭐야?' are advice.
    'X랑 비슷한 ETF 추천' asks for the ETFs whose holdings overlap most, which the data answers,
    and 'A랑 B 중 어디가 나아?' is a comparison of two named funds."""
    defined = frame.operation.kind == "define" and _defines_glossary_term(frame)
    for hit in find_phrases(text, vocabulary()["out_of_scope"]):
        if defined and hit.label in ("forecast", "advice_soft"):
            continue  # '물타기란?', '손절이 뭐야?': a trading word defined, not advice asked
        if frame.relation == "similar" and "추천" in hit.phrase:
            continue  # '고배당주랑 비슷한 거 추천': similar holdings are data, not advice
        if hit.label == "advice_soft":
            named = [e for e in frame.entities if e.kind in ("etf", "stock")]
            if len(named) >= 2 and not (frame.measures or frame.relation):
                frame.notes.append(f"{ADVICE_COMPARED}{hit.phrase}")  # said beside the facts
            if frame.measures or frame.relation or len(named) >= 2:
                continue  # 'A가 나아 B가 나아?': two named funds are compared on the facts
            hit = replace(hit, label="forecast")
            if frame.operation.kind == "define":  # '안전한 ETF 뭐야?' asks which, not what
                frame.operation.kind = "lookup"
        if hit.label == "chit_chat" and frame.operation.kind == "define":
            frame.operation.kind = "lookup"  # 'What is the weather in Seoul?' is no term
        frame.notes.append(f"out_of_scope:{hit.label}:{_whole_word(frame.question, hit)}")
    if not any(n.startswith("out_of_scope:forecast") for n in frame.notes) and not defined:
        _read_advice(frame)
    if any(n.startswith("out_of_scope:forecast") for n in frame.notes):
        return
    # the forecasts no single phrase names: a point ahead, a modal before a move, a move ahead
    if future := _FUTURE_POINT.search(frame.question):  # '3년 뒤 가격', 'a year from now'
        frame.notes.append(f"out_of_scope:forecast:{future.group(0)}")
    elif move := english_forecast().search(text):  # 'will KODEX 200 rise', 'can it recover'
        frame.notes.append(f"out_of_scope:forecast:{frame.question[move.start() : move.end()]}")
    elif ahead := _move_ahead(frame.question, text):  # '내일 오르나요?', '다음 주 떨어져요?'
        frame.notes.append(f"out_of_scope:forecast:{ahead}")


def _read_advice(frame: QuestionFrame) -> None:
    """Advice and forecasts from the morpheme grammar (advice.py): '사도 될까', '팔아야 하나',
    '오를 것 같아'; a stated plan ('사려는데') only when nothing measurable is asked."""
    hit = asks_advice(frame.question)
    if hit is None:
        return
    if hit.kind == "intention" and (frame.measures or frame.relation):
        return  # '사려는데 보수 얼마야?' asks the fee
    named = [e for e in frame.entities if e.kind in ("etf", "stock")]
    if hit.kind == "advice" and len(named) >= 2 and (frame.measures or frame.relation):
        frame.notes.append(f"{ADVICE_COMPARED}{hit.surface}")  # 'A랑 B 중 뭘 살까? 보수는?'
        return
    frame.notes.append(f"out_of_scope:forecast:{hit.surface}")


def _new_set(frame: QuestionFrame, previous: QuestionFrame, marks: set[str]) -> bool:
    """'1년 수익률 가장 높은 ETF는?' after 'KODEX 200 보수': a ranking over all funds, asked anew
    (after a theme or a stock's holders, the same words narrow that set)."""
    return (frame.operation.kind == "rank" and bool(_FUNDS.search(frame.question))
            and not marks & {"same", "subset", "both"} and bool(previous.of("etf"))
            and not (previous.of("tag") or previous.of("manager") or previous.of("stock")))  # fmt: skip


_FUNDS = re.compile(r"etf|펀드|fund", re.IGNORECASE)


# statistics of one subject's days ('최고치 대비 얼마나 낮아?'); a set word asks over many
_OF_A_SUBJECT = frozenset({"max", "min", "avg", "sum", "range", "volatility", "moving_average"})
_SET_ASKED = re.compile(r"etf|종목|펀드|지역|어디|뭐|which|what", re.IGNORECASE)


def _read_followup(frame: QuestionFrame, text: str, previous: QuestionFrame | None,
                   previous_result: list[str], lexicon: Lexicon) -> None:  # fmt: skip
    if previous is None or any(n.startswith("unheld_company:") for n in frame.notes):
        return  # '쿠팡은?' after 삼성전자 asks about 쿠팡, which we do not hold
    if previous.of("manager") and not frame.of("manager"):
        _as_managers(frame, lexicon)  # '미래에셋 ETF 개수' → '삼성은?': the manager, not 삼성전자
    if _manager_of_previous(frame, previous, previous_result, lexicon):
        return  # '순자산 제일 큰 ETF의 운용사' → '그 운용사 ETF 몇 개야?': that house's funds
    if (frame.operation.kind == "define" and frame.definition_term is None
            and _difference_words(text)):  # fmt: skip
        frame.operation.kind = "difference"  # "what's the gap?" after two series: their gap
    followup = vocabulary()["followup"]
    words = {k: v for k, v in followup.items() if isinstance(v, list)}
    # the question's own words too: '두 종목 중' is '2 종목 중' in the text numbers are read in
    marks = {h.label for t in (text, frame.question.lower()) for h in find_phrases(t, words)}
    ordinal = find_phrases(text, followup["ordinal"])
    own = list(frame.entities)
    if "then" in marks and _then_of_another(frame, previous, own):
        return  # 'VIX 1년 최고치는?' → '그때 코스피는?': 코스피 on the VIX's day
    if _then_against_now(frame, previous, own):
        return  # … → '그날 환율은?' → '지금이랑 비교하면?': that day's value against the latest
    counted = frame.operation.aggregate == "count"  # '그럼 몇 개?' counts a list even of one
    listed = (len(previous_result) > 1 or counted) and not previous.of("etf")
    summed = frame.operation.kind == "aggregate" and frame.operation.aggregate in ("sum", "avg")
    if ("both" in marks or summed) and not own and previous.replaced:
        # 'KODEX 200 보수' → 'TIGER 200은?' → '둘 중 어디가 더 싸?': both subjects of the talk
        frame.reference = "same"
        frame.entities += [e.model_copy(update={"inherited": True, "start": -1, "end": -1})
                           for e in previous.replaced + [e for e in previous.entities
                                                         if e.kind == previous.replaced[0].kind]]  # fmt: skip
        _read_relation(frame, frame.question.lower())  # '두 ETF 공통 종목은?': of the two
        # '어디가 더 올랐어?' after two places: which of the two, not a ranking of every region
        said = frame.relation = None if frame.relation == "regions" else frame.relation
        _inherit_context(frame, previous, entities=True)
        frame.relation = said or frame.relation
        if frame.operation.kind == "change" and not _EACH.search(frame.question.lower()):
            frame.operation.kind = "compare"  # '둘 중 어디가 더 많이 올랐어?' (not '둘 다 올랐어?')
        elif frame.operation.kind == "lookup" and _orders_itself(frame):
            frame.operation.kind = "compare"  # '둘 중 높은 건?': the two figures, which is higher
        if frame.operation.kind == "difference" and previous.operation.top_n == 1:
            # '미래에셋 ETF 중 순자산 1위' → '삼성은?' → '둘 차이는?': the two first ones' gap
            frame.operation.top_n = 1
            frame.operation.direction = previous.operation.direction
    elif frame.operation.kind == "difference" and not own and len(previous_result) == 2:
        # '상위 2개만' → '보수 차이는?': the gap of the two the last answer listed
        frame.reference = "same"
        frame.entities += [_listed(code, lexicon) for code in previous_result]
        _inherit_context(frame, previous, entities=True)
    elif ordinal and previous_result and not own:
        # '1위 ETF 보수는?', '그 중 첫 번째 거': the n-th item of the previous answer
        n = int(ordinal[0].label)
        if n <= len(previous_result):
            item = _listed(previous_result[n - 1], lexicon)
            frame.reference = "same"
            frame.operation.words.append(ordinal[0].phrase)
            frame.entities.append(item)
            if (item.kind == "stock" and previous.relation == "holdings" and previous.of("etf")
                    and frame.measure() in (None, "weight")):  # fmt: skip
                # '상위 5개 종목' → '그 중 두 번째 종목 비중은?': that holding inside the fund
                frame.entities += [e.model_copy(update={"inherited": True, "start": -1, "end": -1})
                                   for e in previous.of("etf")]  # fmt: skip
                frame.relation = "weight_in"
            _inherit_context(frame, previous, entities=True)
            if frame.operation.kind == "rank":
                frame.operation.kind, frame.operation.top_n = "lookup", None
    elif _holding_in_previous_etf(frame, previous):
        # 'KODEX 반도체 상위 5개 종목' → '그 중 SK하이닉스 비중은?': the stock inside that ETF
        frame.reference = "same"
        frame.entities += [e.model_copy(update={"inherited": True, "start": -1, "end": -1})
                           for e in previous.of("etf")]  # fmt: skip
        frame.relation = "weight_in"
        frame.operation.words += [h.phrase for h in find_phrases(text, {"s": followup["subset"]})]
        if not frame.measures:
            frame.measures.append(Measure(name="weight", unit="%"))
    elif (
        (
            "subset" in marks
            or (marks & {"same", "both"} or counted or _bare_aggregate(frame, own))
            and listed
        )
        and previous_result
        and previous.relation != "holdings"
    ):
        # '상위 3개만' → '그 평균은?': the average of the three listed (a fund's holdings listed
        # are read inside that fund: '그 중 비중 가장 큰 종목')
        # 'which of them is the largest?' after a list of many: the previous answer's set
        frame.reference = "subset"
        frame.previous_result = list(previous_result)
        _inherit_context(frame, previous, entities=False)
    elif not own and "same" not in marks and _other_end_of_ranking(frame, previous):
        # '배당 ETF 중 6개월 수익률 1위' → 'and the worst?': the same set, the other end
        if previous.reference == "subset" and previous.previous_result:
            frame.reference, frame.previous_result = "subset", list(previous.previous_result)
        else:
            frame.reference = "same"
            frame.entities += [e.model_copy(update={"inherited": True, "start": -1, "end": -1})
                               for e in previous.entities]  # fmt: skip
        frame.measures = frame.measures or list(previous.measures)
        frame.period = frame.period or previous.period
        frame.operation.top_n = frame.operation.top_n or previous.operation.top_n
        _list_end(frame, previous)
    elif (
        not own
        and not _new_set(frame, previous, marks)
        and (
            "same" in marks
            or "then" in marks
            or "replace" in marks
            or _bare_followup(frame)
            or (frame.relation == "similar" and not frame.of("etf"))  # '비슷한 ETF 중 더 싼 거'
            or len(frame.question.strip()) <= 15
            or (
                len(frame.question.strip()) <= 30 and (frame.operation.change_basis or frame.period)
            )
            or (
                read_window_stat(frame.question).stat in _OF_A_SUBJECT
                and not _SET_ASKED.search(frame.question)
            )
        )
    ):  # '왜 떨어졌어?' after 삼성전자; 'over the last 6 months?' after a series; '지금은 최고치
        # 대비 얼마나 낮아?' (a statistic asked of no subject of its own: the one talked about)
        frame.reference = "same"
        asked = frame.operation.model_copy()  # before the previous turn's order is inherited
        frame.entities += _previous_subjects(previous, previous_result, lexicon, frame.question)
        if frame.relation is None and frame.of("stock"):  # '그 종목 들고 있는 ETF 몇 개?'
            frame.notes = [n for n in frame.notes if n != "missing_subject:stock"]
            _read_relation(frame, frame.question.lower())  # of the stock just taken
        if frame.operation.kind in ("difference", "compare") and previous.replaced:
            # '10년물' → '2년물은?' → '둘 차이는?': the swapped-out subject comes back
            frame.entities += [e for e in previous.replaced
                               if not any(o.key == e.key for o in frame.entities)]  # fmt: skip
        _inherit_context(frame, previous, entities=True)
        _regions_asked(frame)
        if "then" in marks:
            _anchor_to_extreme(frame, previous)
        _extreme_of_a_gap(frame, previous, asked)
        _gap_of_the_extremes(frame, previous)
    elif own and _adds_to_previous(frame, previous):
        # 'SK하이닉스랑 비교하면?' after 삼성전자 3개월: both, over the same window; '미국이랑
        # 비교하면?' after 한국 기준금리: the same topic for the region asked
        frame.reference = "same"
        joined = _JOINED.search(frame.question) is not None  # every subject of the talk
        talked = previous.entities + (previous.replaced if joined else [])
        frame.entities = [e.model_copy(update={"inherited": True, "start": -1, "end": -1})
                          for e in talked] + own + _topic_for_regions(frame, previous)  # fmt: skip
        _inherit_context(frame, previous, entities=True)
    elif (
        own
        and (_bare_followup(frame) or "same_span" in marks)
        and ("replace" in marks or "same_span" in marks or len(text.strip()) <= 40)
    ):  # '전국은 같은 기간 어떻게 바뀌었어?': the subject swapped, the figure and span kept
        frame.reference = "replace"
        kinds = {e.kind for e in own}
        if kinds == {
            "region"
        }:  # '한국은?' after '미국 CPI': the region's series replaces the US one
            kinds = {"region", "series"}
        frame.replaced = [e.model_copy(update={"inherited": True, "start": -1, "end": -1})
                          for e in previous.entities if e.kind in kinds]  # fmt: skip
        # subjects stay replaced as a whole, except the other side of a pair relation:
        # '그 중 삼성전자 비중은?' → 'TIGER 200에서는?' keeps 삼성전자 (its weight in TIGER 200)
        paired = previous.relation == "weight_in"
        frame.entities += [e.model_copy(update={"inherited": True, "start": -1, "end": -1})
                           for e in previous.entities if e.kind not in kinds
                           and (paired or e.kind not in ("series", "stock", "etf"))]  # fmt: skip
        _inherit_context(frame, previous, entities=True)
        if "then" in marks:  # '그날 코스피는?' after another series' high: that day is not
            then = find_phrases(text, {"t": followup["then"]})  # known here, so it is unread
            frame.notes += [f"{UNAPPLIED}{h.phrase}" for h in then]


def _as_managers(frame: QuestionFrame, lexicon: Lexicon) -> None:
    """A stock's name said where the talk is about managers reads as the manager it would be
    before 'ETF' ('삼성' → 삼성자산운용)."""
    for i, e in enumerate(frame.entities):
        if e.kind != "stock" or e.start < 0:
            continue
        said = frame.question[e.start : e.end]
        found = [m for m in _recognized(f"{said} ETF", lexicon, frozenset({"manager"}))
                 if m.end == len(said)]  # fmt: skip
        if len(found) == 1:
            frame.entities[i] = found[0].model_copy(update={"start": e.start, "end": e.end})


def _other_end_of_ranking(frame: QuestionFrame, previous: QuestionFrame) -> bool:
    """'and the worst?', '꼴찌는?' after a ranking of a set: a ranking again, its direction the
    only thing asked (no measure of its own, or the same one)."""
    op, before = frame.operation, previous.operation
    same_measure = not frame.measures or frame.measure() == previous.measure()
    return (op.kind == "rank" and before.kind == "rank" and op.direction is not None
            and same_measure and not previous.of("etf") and frame.relation is None
            and not _holdings_words(frame))  # '보유 상위 5종목': the picked ETF's holdings  # fmt: skip


def _orders_itself(frame: QuestionFrame) -> bool:
    """An ordering adjective of the question's own ('제일 낮은 종목은?'), not the list's order."""
    return any(t.tag.startswith("VA") and t.form in ORDERING_ADJECTIVES
               for t in analyse(frame.question))  # fmt: skip


_HEAD, _TAIL = re.compile(r"(?<!최)상위|\btop\b", re.I), re.compile(r"(?<!최)하위|\bbottom\b", re.I)


def _list_end(frame: QuestionFrame, previous: QuestionFrame) -> None:
    """'보수 낮은 순' → '상위 3개만': with no ordering adjective of its own, '상위' is the head of
    the list as it was ordered, '하위' its tail — not 'the highest' or 'the lowest'."""
    if _orders_itself(frame) or previous.operation.direction is None:
        return
    head, tail = _HEAD.search(frame.question), _TAIL.search(frame.question)
    if bool(head) != bool(tail):
        flip = {"asc": "desc", "desc": "asc"}
        before = previous.operation.direction
        frame.operation.direction = before if head else flip[before]  # type: ignore[assignment]


def _holdings_words(frame: QuestionFrame) -> bool:
    return bool(find_phrases(frame.question.lower(), {"h": vocabulary()["relations"]["holdings"]}))


def _extreme_of_a_gap(frame: QuestionFrame, previous: QuestionFrame, op: Operation) -> None:
    """'장단기 금리차 추이' → '그 중 가장 컸던 때는?': the gap's own high (or low) over the
    window, not a ranking of the two series (`op` is the operation as asked, before the
    previous turn's order was inherited)."""
    asks_extreme = op.kind == "rank" or (op.kind == "aggregate" and op.aggregate in ("max", "min"))
    if previous.operation.kind != "difference" or not asks_extreme:
        return
    side = "low" if op.direction == "asc" or op.aggregate == "min" else "high"
    frame.operation = previous.operation.model_copy()
    frame.measures = [Measure(name=side, unit="")]


def _gap_of_the_extremes(frame: QuestionFrame, previous: QuestionFrame) -> None:
    """'… 최고치' → '최저치는?' → '둘 차이는?': one subject's two extremes just asked, so the
    width between them over the same window (not the subject's gap with nothing)."""
    subjects = [e for e in frame.entities if e.kind in ("series", "index", "stock", "etf")]
    if (frame.operation.kind == "difference" and len(subjects) == 1
            and previous.statistic in ("max", "min") and not previous.replaced):  # fmt: skip
        if _NOW.search(frame.question):  # '지금과 차이는?': the extreme against the latest
            frame.statistic, frame.stat_field = previous.statistic, previous.stat_field
            frame.measures = list(previous.measures)
            return
        frame.statistic, frame.stat_field = "range", None
        frame.measures = [Measure(name="high", unit=""), Measure(name="low", unit="")]


def _then_against_now(frame: QuestionFrame, previous: QuestionFrame, own: list[Entity]) -> bool:
    """'지금이랑 비교하면?' after a series read on the day another peaked: the same reading, with
    each value set against its latest."""
    said = next((n for n in previous.notes if n.startswith(AT_EXTREME)), None)
    now = _NOW.search(frame.question)
    talked = {e.key for e in previous.entities}  # '지금 코스피는 그때보다 높아?': named again
    if said is None or now is None or any(e.key not in talked for e in own):
        return False
    frame.entities = [e.model_copy(update={"inherited": True, "start": -1, "end": -1})
                      for e in previous.entities]  # fmt: skip
    frame.reference = "same"
    frame.notes.append(f"{said}:now")
    frame.operation = previous.operation.model_copy()
    frame.window = frame.window or previous.window
    frame.period = frame.period or previous.period
    mark_read(frame, now.group(0), *(w for w in (*_COMPARE_WORDS, "그때", "그날", "보다")
                                     if w in frame.question))  # fmt: skip
    return True


_COMPARE_WORDS = ("비교", "차이", "대비", "compare")
_EITHER = re.compile(r"이거나|거나\s|또는|혹은|\bor\b")
_EACH = re.compile(r"둘\s*다|모두|각각|\bboth\b|\beach\b")  # each subject's own figure


def _then_of_another(frame: QuestionFrame, previous: QuestionFrame, own: list[Entity]) -> bool:
    """'그때 코스피는?' after one series' high or low: the other series read on that day."""
    op = previous.operation
    side = op.aggregate if op.kind == "aggregate" else previous.statistic
    anchors = [e for e in previous.entities if e.kind in ("series", "index")]
    if side not in ("max", "min") or len(anchors) != 1 or not own:
        return False
    if not all(e.kind in ("series", "index") for e in own) or anchors[0].key in {
        e.key for e in own
    }:
        return False
    frame.entities = [anchors[0].model_copy(update={"inherited": True, "start": -1, "end": -1}),
                      *own]  # fmt: skip
    frame.reference = "same"
    frame.notes.append(f"{AT_EXTREME}{anchors[0].key}:{side}")
    frame.operation.kind = "lookup"
    if frame.window is None and previous.window is not None:
        frame.window = previous.window.model_copy(update={"start": -1, "end": -1, "used": False})
    frame.period = frame.period or previous.period
    then = find_phrases(frame.question.lower(), {"t": vocabulary()["followup"]["then"]})
    mark_read(frame, *(h.phrase for h in then), *(t.form for h in then for t in analyse(h.phrase)))
    return True


def _anchor_to_extreme(frame: QuestionFrame, previous: QuestionFrame) -> None:
    """'그때 무슨 일 있었어?' after a high or a low: the same extreme, and the events near the
    date it was reached (not the latest events)."""
    op = previous.operation
    if op.kind == "aggregate" and op.aggregate in ("max", "min"):
        frame.operation = op.model_copy()
        frame.measures = list(previous.measures)
        frame.notes.append(EXTREME_ANCHOR)
        if WHY_NOTE not in frame.notes:
            frame.notes.append(WHY_NOTE)  # the events are the graph's


# '… → AMD는? → Intel까지 셋 중 가장 낮은 건?': the new one joins every subject of the talk
_JOINED = re.compile(r"까지|도\s*(?:같이|포함|넣어)")


def _adds_to_previous(frame: QuestionFrame, previous: QuestionFrame) -> bool:
    """A short compare follow-up whose own subjects are of the previous subjects' kind (or only
    regions): the previous subjects stay and the new ones join them."""
    if len(frame.question) > 30:
        return False
    than = frame.operation.kind == "lookup" and _than_a_subject(frame, analyse(frame.question), 1)
    picked = frame.operation.kind == "rank" or frame.operation.aggregate in (
        "max",
        "min",
        "avg",
        "sum",
    )
    joined = picked and bool(_JOINED.search(frame.question))
    if frame.operation.kind not in ("compare", "difference") and not (than or joined):
        return False
    own = {e.kind for e in frame.entities}
    before = {e.kind for e in previous.entities if e.kind != "region"}
    if than:  # '서울 미분양' → '부산보다 많아?': the two, which is higher
        frame.operation.kind = "difference"
    return bool(before) and (own <= before or own == {"region"})


def _topic_for_regions(frame: QuestionFrame, previous: QuestionFrame) -> list[Entity]:
    """The previous series' topic for each region this turn names (한국 기준금리 → 미국: FEDFUNDS)."""
    out: list[Entity] = []
    topics = vocabulary()["region_topics"].values()
    for region in frame.of("region"):
        for series in previous.of("series"):
            spec = next((t for t in topics if series.key in t.values()), None)
            code = spec.get(region.key) if spec else None
            if code and code != series.key and not any(e.key == code for e in out):
                out.append(_series_entity(code))
    return out


def _regions_asked(frame: QuestionFrame) -> None:
    """'가장 높은 지역은?' after '서울 전세가율': a ranking of regions, not of Seoul."""
    if frame.operation.kind != "rank" or not re.search(vocabulary()["region_set_pattern"],
                                                       frame.question.lower()):  # fmt: skip
        return
    if {m.name for m in frame.measures} & HOUSING_MEASURES:
        frame.relation = "regions"
        frame.entities = [e for e in frame.entities if not (e.kind == "re_region" and e.inherited)]


def _holding_in_previous_etf(frame: QuestionFrame, previous: QuestionFrame) -> bool:
    """A stock asked about right after one ETF's holdings (or with a weight word) is a holding of
    that ETF, not a question about the stock alone."""
    own_kinds = {e.kind for e in frame.entities}
    if own_kinds != {"stock"} or len(frame.of("stock")) != 1 or len(previous.of("etf")) != 1:
        return False
    holdings = previous.relation in ("holdings", "holdings_changes", "weight_in")
    return frame.measure() == "weight" or (holdings and frame.measure() is None)


THAT_STOCK = re.compile(r"그\s*종목|that stock|the stock", re.IGNORECASE)  # a stock referred to


THAT_MANAGER = re.compile(r"그\s*운용사|that (?:manager|issuer|fund house)", re.IGNORECASE)


def _manager_of_previous(frame: QuestionFrame, previous: QuestionFrame, previous_result: list[str],
                         lexicon: Lexicon) -> bool:  # fmt: skip
    """'그 운용사': the manager of the one fund the last answer named (or asked about)."""
    said = THAT_MANAGER.search(frame.question)
    if said is None or frame.of("manager"):
        return False
    funds = [c for c in previous_result if c in lexicon.etfs] or [e.key for e in previous.of("etf")]
    houses = {lexicon.fund_managers[c] for c in funds if c in lexicon.fund_managers}
    if len(houses) != 1:
        return False
    house = houses.pop()
    frame.entities.append(Entity(kind="manager", key=house, name=house, start=said.start(),
                                 end=said.end()))  # fmt: skip
    return True


def _previous_subjects(previous: QuestionFrame, previous_result: list[str],
                       lexicon: Lexicon, question: str = "") -> list[Entity]:  # fmt: skip
    """What '그거', 'it', '그 ETF' point at: the one item a set question's answer named
    ('그중 순자산 제일 큰 건?' → TIGER …; '그 종목' → the one stock it named, even of a fund's
    holdings), else the previous turn's own subjects."""
    named_subject = any(e.kind in ("etf", "stock", "series", "index") for e in previous.entities)
    one_stock = len(previous_result) == 1 and previous_result[0] in lexicon.stocks
    if len(previous_result) == 1 and (
        not named_subject or (one_stock and THAT_STOCK.search(question))
    ):
        return [_listed(previous_result[0], lexicon)]
    subjects = previous.entities
    if THAT_STOCK.search(question) and len(previous.of("stock")) == 1:
        subjects = previous.of("stock")  # '그 종목' after a stock's weight in a fund: the stock
    # in the order they were asked ('미국과 한국 금리 차이' stays 미국 − 한국 on '1년 전에는?')
    ordered = sorted(subjects, key=lambda e: e.start if e.start >= 0 else 1 << 30)
    return [e.model_copy(update={"inherited": True, "start": -1, "end": -1}) for e in ordered]


def _listed(code: str, lexicon: Lexicon) -> Entity:
    """An item the last answer listed, as a subject of this turn (a fund, else a stock)."""
    if code in lexicon.etfs:
        return Entity(kind="etf", key=code, name=lexicon.etfs[code], inherited=True)
    name = lexicon.stocks[code][0] if code in lexicon.stocks else code
    return Entity(kind="stock", key=code, name=name, inherited=True)


def _bare_followup(frame: QuestionFrame) -> bool:
    """No measure and no operation of its own: 'what about TIGER 200?', '그럼 미국은?'."""
    return not frame.measures and frame.operation.kind in ("lookup", "list")


def _picked_unsaid(frame: QuestionFrame) -> bool:
    """'높은 쪽 총보수', '싼 것의 수익률' with no measure before the pick: it picks by a
    measure the question does not say (the previous turn's)."""
    tokens = analyse(frame.question)
    at = next((t.start for i, t in enumerate(tokens) if i and t.form in PICKED
               and tokens[i - 1].tag == "ETM"), None)  # fmt: skip
    low = frame.question.lower()
    return at is not None and all(low.find(m.surface.lower()) > at for m in frame.measures)


_THEN = re.compile(r"그\s*때|그날|\bthen\b")
# 'then', and the span since then ('그동안 수익률은?', '그 사이 상승률은?'): words, as coverage reads them
_THEN_WORDS = ("그때", "그 때", "then")
_SINCE_WORDS = ("그동안", "동안", "사이", "그새", "since", "between")
_SINCE_THEN = _THEN_WORDS + _SINCE_WORDS


def _carry_statistic(frame: QuestionFrame, previous: QuestionFrame) -> None:
    """The last turn's statistic and window, when this turn names none of its own."""
    frame.statistic, frame.stat_field = previous.statistic, previous.stat_field
    frame.window = frame.window or (previous.window.model_copy(
        update={"start": -1, "end": -1, "used": False}) if previous.window else None)  # fmt: skip


def _since_the_day_named(frame: QuestionFrame, previous: QuestionFrame) -> Period | None:
    """'3개월 전에는?' → '얼마나 늘었어?': a change asked after a day named back from now is the
    change over that span ('1년 전엔?' → '그럼 수익률은?': the return since; a calendar day,
    '9월 말', names no span: None)."""
    low = frame.question.lower()
    moved = (frame.operation.kind in ("change", "difference") or frame.measure() == "return"
             or any(w in low for w in _SINCE_WORDS))  # '그동안 몇 bp 변했어?'  # fmt: skip
    if not moved or previous.as_of_span is None:
        return None
    said = previous.question[previous.as_of_span[0] : previous.as_of_span[1]]
    probe = QuestionFrame(question=said, language=frame.language)
    _read_period(probe, said.lower())
    if probe.period is not None:  # '그때보다 올랐어?': then is the day the last turn named
        frame.notes += [f"{READ}{w}" for w in _SINCE_THEN]
    return probe.period


def _bare_aggregate(frame: QuestionFrame, own: list[Entity]) -> bool:
    """'그 평균은?', '합계는?', '평균 1년 수익률은?': an aggregate naming no set of its own (no
    name, no 'ETF'), asked of a list."""
    op = frame.operation
    named_set = bool(own) or bool(_SET_ASKED.search(frame.question))
    return op.kind == "aggregate" and op.aggregate != "count" and not named_set and (
        not frame.measures or op.aggregate in ("avg", "sum", "max", "min"))  # fmt: skip


def _inherit_context(frame: QuestionFrame, previous: QuestionFrame, *, entities: bool) -> None:
    if (
        _holdings_words(frame)
        and frame.relation in (None, previous.relation)
        and entities
        and frame.of("etf")
    ):
        frame.relation = "holdings"  # '그 ETF 보수는?' → '상위 5개 종목은?': its holdings, not fees
        return
    bare = not frame.measures
    both = find_phrases(frame.question.lower(), {"b": vocabulary()["followup"]["both"]})
    if bare and both and previous.replaced_measures:
        # 'PER' → 'PBR은?' → '둘 다 업종 평균이랑 비교': the figure swapped out comes back
        frame.measures = [*previous.replaced_measures, *previous.measures]
    elif bare:
        frame.measures = list(previous.measures)
    elif _picked_unsaid(frame) and previous.measures and previous.measure() != frame.measure():
        # '둘 중 높은 쪽 총보수는?' after two returns: the pick is by the previous measure
        frame.measures.insert(0, previous.measures[0].model_copy(update={"surface": ""}))
    elif entities and {m.name for m in frame.measures}.isdisjoint(
        m.name for m in previous.measures
    ):
        frame.replaced_measures = list(previous.measures)
    op = frame.operation
    if op.kind in ("lookup", "list") and bare and entities:
        frame.operation = previous.operation.model_copy()
    elif op.aggregate == "sum" and bare and previous.operation.aggregate == "count":
        op.aggregate = "count"  # 'ETF 개수' → '삼성은?' → '합치면?': the counts added
    elif (
        op.kind == "aggregate"
        and bare
        and op.comparator is None
        and previous.operation.comparator
        and previous.relation == "holdings"
    ):  # '비중 10% 넘는 것만' → '그 합계는?': the total of the holdings the last turn kept
        prev = previous.operation
        op.comparator, op.threshold, op.threshold_unit = (
            prev.comparator,
            prev.threshold,
            prev.threshold_unit,
        )
        op.filter_measure, op.conditions = prev.filter_measure, list(prev.conditions)
    elif op.kind == "rank" and bare and not _orders_itself(frame):
        # '거기서 상위 3개만': 상위 means the head of the list as it was ordered
        op.direction = previous.operation.direction
    if frame.period is None and frame.span is None and frame.window is None and previous.span:
        frame.span = previous.span.model_copy(update={"used": False})  # '코스피 올해 수익률' → …
    if frame.period is None:
        frame.period = previous.period or _since_the_day_named(frame, previous)
    if previous.statistic in ("max", "min") and _THEN.search(frame.question):
        # '최근 1년 최고치는?' → '그때보다 지금 얼마나 낮아?': the extreme's line sets the latest
        # value against it
        _carry_statistic(frame, previous)
        frame.notes += [f"{READ}{w}" for w in ("그때", "그날", "then")]
    if bare and frame.statistic is None and previous.statistic:  # '20거래일 평균은?' → '기아는?'
        _carry_statistic(frame, previous)
    if frame.relation is None:
        frame.relation = previous.relation
    if bare and entities and WHY_NOTE in previous.notes and WHY_NOTE not in frame.notes:
        frame.notes.append(WHY_NOTE)  # '왜 떨어졌어?' → '3개월로 보면?': the same why, longer
