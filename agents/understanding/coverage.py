"""Nothing left unread (issue 31): every content word of a question is accounted for — read
as a name, a measure, a window, a statistic, an operation or a known word — or listed as
unread. An unread word that can change the answer (a number, a name, a window or statistic no
screen computed, the second measure of a nested question) forbids `status="ok"`.

    cov = cover(frame)   # after the screen ran: it marks the window it used (window_answer)
    cov.read      # [ReadSpan(text='SK하이닉스', read_as='stock:SK하이닉스'), ('10거래일', '구간'), …]
    cov.decisive  # ['10거래일'] when no screen computed over it

`account(answer, frame)` is the one place every screen attaches the first trace step
("이해한 질문": read spans and unread words) and applies the rule.
"""

from __future__ import annotations

import re
from datetime import date
from functools import cache

from pydantic import BaseModel, Field

from agents.understanding.frame import (
    KINDS_KO,
    OPS_KO,
    STAT_WORDS_KO,
    UNITS_KO,
    CalendarSpan,
    QuestionFrame,
    measure_name,
)
from agents.understanding.glossary import load_glossary
from agents.understanding.morphemes import Morpheme, analyse
from agents.understanding.vocabulary import sector_within, vocabulary, vocabulary_words
from agents.understanding.windows import stat_of_word
from data_access.contracts import AgentAnswer, TraceStep
from data_access.seed.news_text import josa

POSITION = (
    "position:"  # a screen's note: it answered the n-th of an ordering ('position:2:두 번째')
)
COMPOSED = "composed"  # a screen's note: it ran the nested plan (set → order → take → read)
# words that frame a question without changing what is asked ('알려줘', '좀', '요즘 어때')
_FRAME_WORDS = frozenset(
    "알리 주 보이 어떻 어떠하 얼마 뭐 무엇 좀 요즘 현재 지금 최근 정도 혹시 그럼 그리고 하 있 되 것 수 "
    "거 건 데 중 때 대하 관하 궁금하 말하 싶 보 해주 나 저 제 우리 이 그 값 수치 기준 어디 언제 몇 "
    # what every screen does when asked ('찾아줘', '골라줘', '그려줘', '정리해줘')
    "찾 고르 뽑 그리 모으 세 보여주 정리 설명 요약 계산 나열 확인 부탁 숫자 그중 장중 "
    "what how is the of a an me show tell please for in on to and or was were are do does "
    "did give can you i what's much many there "
    # the things the workbench holds, which each screen reads with its own rules
    "태그 목록 종목 운용사 테마 지표 섹터 업종 시장 펀드 데이터 리스트 전체 전부 모두 "
    "상품 발표 아파트 주택 실거래 실 거래 동안 간 건수 순 최신 최신값 아래 위 밑 below above 기간 연 환산 "
    "연환산 region regions".split()
)  # fmt: skip
_NAME_TAGS = ("SL", "NNP", "SH")
_TAILS = frozenset("의 은 는 이 가 을 를 에 도 와 과 랑 만".split())  # a particle after a read word
_UNITS_AFTER_NUMBER = frozenset(
    "개 위 년 월 일 주 개월 분기 % 퍼센트 프로 억 조 천억 만 천 원 배 bp bps 호 건 세대 가구 포인트 pt 달러 군데".split()
)
_MAGNITUDES = frozenset(
    "만 천 백 억 조".split()
)  # '1만 호': the unit follows the number's magnitude


# words that decide which figure is asked even when the vocabulary knows them: a day named in
# words, an ordinal, a statistic no reader computes. Unless a reader consumed them, they are
# decisive ('지난 분기 말 값' answered with the latest value is another question)
_DECIDING_WORDS = frozenset(
    "분기 말 초 첫 마지막 연말 연초 월말 월초 상반기 하반기 여름 가을 겨울 재작년 월요일 화요일 수요일 목요일 "
    "금요일 째 표준편차 편차 분산 중앙값 중간값 중위 중위값 최빈값 왜도 첨도 그제 그저께 엊그제 "
    "그끄저께 첫째 둘째 셋째 넷째 다섯째".split()
)
PICKED = frozenset({"쪽", "것", "거", "곳", "편", "데"})  # the nouns a pick is said with
UNAPPLIED = "unapplied:"  # a frame note: a word read but not applied, so said unread
# the adjective that orders a pick ('보수가 싼 쪽', '수익률이 낮은 것'): ascending when it says less
_ASCENDING = frozenset({"낮", "싸", "작", "적", "저렴하"})
_DESCENDING = frozenset({"높", "크", "비싸", "많"})
_BETTER = frozenset(
    {"좋", "낫"}
)  # '더 나은 쪽', '수익률 제일 좋은 것': the good end of the measure
LOWER_IS_BETTER = frozenset({"expense_ratio", "volatility", "per", "pbr"})
ORDERING_ADJECTIVES = _ASCENDING | _DESCENDING | _BETTER  # an order said with an adjective


def pick_direction(frame: QuestionFrame, *, of_pick: bool = True) -> str | None:
    """'asc' or 'desc' from the last ordering adjective before the possessive, if any; with
    '중' ('보수 낮은 10개 중 수익률 제일 좋은 것'), the pick's after it and the set's before it."""
    found = pick_directions(frame, of_pick=of_pick)
    return found[-1] if found else None


def pick_directions(frame: QuestionFrame, *, of_pick: bool = True) -> list[str]:
    """Every ordering adjective's direction before the possessive, in order: both ends are
    asked in '순자산 가장 큰 것과 가장 작은 것의 보수 차이'."""
    tokens = analyse(frame.question)
    among = next((i for i, t in enumerate(tokens) if t.form == "중" and t.tag == "NNB"), None)
    if among is not None:
        tokens = tokens[among + 1 :] if of_pick else tokens[:among]
    elif frame.language == "en" and (split := _english_pick(frame.question.lower())) is not None:
        tokens = tuple(t for t in tokens if (t.start >= split) == of_pick)
    found: list[str] = []
    for i, t in enumerate(tokens):
        if t.tag == "JKG":
            break
        form = t.form.lower()
        if t.tag.startswith("VA") and t.form in _BETTER:
            if (measure := frame.measure()) is not None:
                found.append("asc" if measure in LOWER_IS_BETTER else "desc")
        elif t.tag.startswith("VA") and t.form in _ASCENDING | _DESCENDING:
            found.append("asc" if t.form in _ASCENDING else "desc")
        elif form in _RANK_WORDS and found and i > 0 and tokens[i - 1].form == "순":
            # '보수 낮은 순 상위 3개': the head of the order said, not the highest fees
            found.append(found[-1] if form == "상위" else "desc" if found[-1] == "asc" else "asc")
        elif form in _RANK_WORDS:  # '… 중 1년 수익률 하위 3개', '… has the lowest fee'
            found.append(_RANK_WORDS[form])
    return found


# ranking words that order a pick ('하위', 'the lowest')
_RANK_WORDS = {"하위": "asc", "최하위": "asc", "상위": "desc", "최상위": "desc", "lowest": "asc",
               "cheapest": "asc", "smallest": "asc", "worst": "asc", "highest": "desc",
               "largest": "desc", "biggest": "desc", "best": "desc"}  # fmt: skip
_WHICH_OF = re.compile(r"\b(?:which|what)(?: one)? of the \d+\b|\bamong the \d+\b")
_PICKED_BY = re.compile(r"\b(?:has|have|had|with|is)\s+the\b")


def _english_pick(low: str) -> int | None:
    """'Which of the 5 largest ETFs by net assets has the lowest fee?': where the pick's words
    start (after 'has the'), or None."""
    which = _WHICH_OF.search(low)
    verb = _PICKED_BY.search(low, which.end()) if which else None
    return verb.start() if verb else None


def ordinal_position(question: str) -> tuple[int, str] | None:
    """'두 번째로 큰', '3위', 'the second largest': the place asked for in an ordering."""
    tokens = analyse(question)
    for i, t in enumerate(tokens[:-1]):
        n = _ORDINAL_NUMBERS.get(t.form) if t.tag == "MM" else None
        n = int(t.form) if t.tag == "SN" and t.form.isdigit() else n
        after = [x.form for x in tokens[i + 1 : i + 3]]
        if n and (after == ["번", "째"] or after[:1] == ["위"] and t.tag == "SN"):
            end = tokens[i + (2 if after[0] == "번" else 1)].end
            return n, question[t.start : end]
        if t.form.lower() in _ORDINALS_EN:
            return _ORDINALS_EN[t.form.lower()], t.form
    return None


_ORDINAL_NUMBERS = {"첫": 1, "두": 2, "세": 3, "네": 4, "다섯": 5}
_ORDINALS_EN = {"second": 2, "third": 3, "fourth": 4, "fifth": 5, "2nd": 2, "3rd": 3}


READ = "read:"  # a screen's note: it computed what this word asks ('read:중위' for medians)
NEGATION = "negation"  # mark_read(frame, NEGATION): a screen applied the question's 'not'


def negations(tokens: tuple[Morpheme, ...], question: str) -> list[str]:
    """The phrases that leave a set out ('안 담은', '담지 않은', '삼성전자 없는', '제외한',
    '빼고', '말고'): each turns a set into its complement, so one nobody applied is decisive. A
    negated predicate ('안 올랐어?') asks yes or no and a threshold's own negation ('3% 넘지
    않는': the comparator turned around) is read elsewhere: neither is listed."""
    found = []
    for i, t in enumerate(tokens):
        prev = tokens[i - 1] if i else None
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if (
            t.form in ("안", "못")
            and t.tag == "MAG"
            and nxt is not None
            and nxt.tag in ("VV", "VA")
        ):
            start, end = i, i + 1
        elif t.form in ("않", "못") and t.tag == "VX" and prev is not None and prev.form == "지":
            start, end = max(0, i - 2), i
        elif _excludes(t, prev, nxt):
            start, end = i, i
        else:
            continue
        after = tokens[end + 1] if end + 1 < len(tokens) else None
        modifies = t.form in ("제외", "빼", "말") or (after is not None and after.tag == "ETM")
        if not modifies or _threshold_before(tokens, start):
            continue
        while (
            end + 1 < len(tokens)
            and tokens[end + 1].tag in ("XSV", "ETM", "EC")
            and (tokens[end + 1].start == tokens[end].end)
        ):  # '제외한', '빼고': the word as written
            end += 1
        stop = tokens[end].end
        found.append(question[tokens[start].start : stop])
    return found


def _threshold_before(tokens: tuple[Morpheme, ...], at: int) -> bool:
    """A number with its unit just before ('3% 넘지 않는', '1조 이상이 아닌')."""
    return any(x.tag == "SN" and i + 1 < len(tokens) and (tokens[i + 1].tag == "SW" or
               tokens[i + 1].form in _UNITS_AFTER_NUMBER)
               for i, x in enumerate(tokens[: at]) if i >= at - 4)  # fmt: skip


def _excludes(t: Morpheme, prev: Morpheme | None, nxt: Morpheme | None) -> bool:
    """'삼성전자 없는', 'TIGER 200에 없는', '제외한', '빼고', '말고': a named thing left out."""
    if t.form == "없" and t.tag == "VA":
        return prev is not None and (prev.tag in (*_NAME_TAGS, "SN") or prev.tag.startswith("JK"))
    if t.form in ("빼", "말") and t.tag == "VV":
        return nxt is not None and nxt.form in ("고", "ᆫ", "은")
    return t.form == "제외"


def mark_read(frame: QuestionFrame, *words: str) -> None:
    """The screen answered what these words ask (a statistic no reader names, e.g. a deal
    price that is the month's median): coverage counts them as read."""
    frame.notes += [READ + w for w in words if READ + w not in frame.notes]


class ReadSpan(BaseModel):
    text: str
    read_as: str


class Coverage(BaseModel):
    read: list[ReadSpan] = Field(default_factory=list)
    unread: list[str] = Field(default_factory=list)
    decisive: list[str] = Field(default_factory=list)  # unread words that can change the answer
    unheld: list[str] = Field(default_factory=list)  # terms the glossary says the data lacks
    # the figure asked is one no reader took ('서울 아파트 재산세 평균', '판매보수'): not answered
    asked: list[str] = Field(default_factory=list)


def _inside_known_word(low: str, t: Morpheme, known: frozenset[str]) -> bool:
    """'소비자물가' (Kiwi: 소비자 + 물가): a morpheme inside a vocabulary word said whole."""
    a = low.rfind(" ", 0, t.start) + 1
    b = low.find(" ", t.end) % (len(low) + 1)
    return any(low[i:j] in known for i in range(a, t.start + 1) for j in range(t.end, b + 1)
               if j - i > t.end - t.start)  # fmt: skip


def cover(frame: QuestionFrame) -> Coverage:
    """What the frame (and the screen that ran it) read of the question, and what it did not."""
    question, low = frame.question, frame.question.lower()
    spans = _read_spans(frame, low)
    cov = Coverage(read=[ReadSpan(text=question[a:b], read_as=label) for a, b, label in spans])
    known = vocabulary_words()
    tokens = analyse(question)
    nouns: list[int] = []  # unread nouns, which may be the figure asked
    for i, t in enumerate(tokens):
        if not (t.content or t.form in _DECIDING_WORDS) or any(
            a <= t.start and (t.end <= b or (t.start < b and question[b : t.end] in _TAILS))
            for a, b, _ in spans
        ):  # '은행주의' read as 은행주 + 의 (Kiwi: 은행 + 주의): the particle is no word
            continue
        form = t.form.lower()
        if READ + form in frame.notes:
            cov.read.append(ReadSpan(text=t.form, read_as="화면이 계산함"))
            continue
        if _latest_said(frame, tokens, i):  # '마지막 종가': the latest, which is what is read
            cov.read.append(ReadSpan(text=t.form, read_as="최신값"))
            continue
        if form in _DECIDING_WORDS:
            cov.unread.append(t.form)
            cov.decisive.append(
                _deciding_phrase(tokens, i, question, [(a, b) for a, b, _ in spans])
            )
            continue
        if form in _market_words():  # '국내주식 ETF': a market no reader applied narrows the set
            cov.unread.append(t.form)
            cov.decisive.append(_with_unit(tokens, i, question))
            continue
        if form in _FRAME_WORDS or (
            i
            and form in _UNITS_AFTER_NUMBER
            and (tokens[i - 1].form == "몇"
                 or (tokens[i - 1].tag == "MM" and frame.operation.top_n is not None)  # '세 군데'
                 or ((n := _number_before(tokens, i)) is not None and _number_read(frame, tokens, n)))
        ):  # fmt: skip
            continue  # '몇 bp야?' asks a figure in a unit; '10조 넘어' is the threshold's unit
        if form == "지나" and any(0 <= a - t.end <= 3 for a, _, _ in spans):
            continue  # '지난 2개 분기': the window read after it says which
        if (
            t.tag == "VA"
            and form in ORDERING_ADJECTIVES
            and _superlative_unapplied(frame, tokens, i)
        ):
            cov.unread.append(t.form)  # '순자산 제일 큰 ETF 운용사의 ETF 개수': no pick was made
            cov.decisive.append(question[tokens[i - 1].start : t.end])
            continue
        if request := _request(tokens, i, question):  # '만들어줘': what no screen does
            cov.unread.append(t.form)
            cov.decisive.append(request)
            continue
        if form in known and t.tag != "SN":
            continue
        if t.tag == "SN" and (_number_read(frame, tokens, i) or _in_a_name(tokens, i)):
            continue
        if t.tag != "SN" and _inside_known_word(low, t, known):
            continue
        cov.unread.append(t.form)
        defining = frame.operation.kind == "define" and t.tag.startswith(("VV", "VA"))
        how = t.tag == "NNB" and i and tokens[i - 1].tag == "ETM"  # '사는 법': a how-to
        if t.tag == "SN" or t.tag in _NAME_TAGS or t.tag == "NNG" or defining or how:
            # a definition asks nothing else: '요즘 뜨는 ETF 뭐야?' is not 'what is an ETF
            # a noun no reader took names what is asked ('연금계좌', '대표이사'): not answered
            cov.decisive.append(_with_unit(tokens, i, question))
            nouns += [i] if t.tag == "NNG" else []

    left_out = negations(tokens, question)  # '삼성전자 안 담은 ETF': not the holders
    if READ + NEGATION in frame.notes:
        cov.read += [ReadSpan(text=p, read_as="제외(여집합)") for p in left_out]
    else:
        cov.decisive += [p for p in left_out if p not in cov.decisive]
    for note in frame.notes:  # read, but not applied ('그날' of another series' extreme)
        if note.startswith(UNAPPLIED):
            word = note.removeprefix(UNAPPLIED)
            cov.read = [r for r in cov.read if r.text != word]
            cov.unread.append(word)
            cov.decisive.append(word)
    _unheld_terms(frame, spans, cov)
    _sectors_within(frame, cov)
    if when := _when_of_a_level(frame, tokens):  # '배당 언제 나와?': a date no figure holds
        cov.decisive.append(when)
    if _days_not_counted(frame):  # '올해 들어 하락한 날 며칠?' answered with the return
        cov.decisive.append(_counted_days_words(frame))
    span = frame.span
    asked_over = frame.operation.aggregate or frame.statistic or frame.measure() == "return"
    if span is not None and not span.used and asked_over and frame.as_of_span:
        cov.decisive.append(question[frame.as_of_span[0] : frame.as_of_span[1]])  # not computed
    period = frame.period
    if (
        span is not None
        and span.used
        and period is not None
        and period.surface
        and (frame.as_of_span and period.surface not in question[slice(*frame.as_of_span)])
        and abs(period.months - _months_of(span)) > 0.5  # '10월 한 달' is the span's length
    ):  # '작년 합계와 올해 합계': the span was computed, the second period was not
        cov.decisive.append(period.surface)
    w = frame.window
    if w is not None and not w.used and not frame.window_is_period():
        cov.decisive.append(w.surface if w.start >= 0 else f"(이전 질문의) {w.surface}")
    nested = nested_measure(frame, tokens)
    if nested and COMPOSED not in frame.notes:
        cov.decisive.append(nested)
    cov.decisive += [surface for surface, _ in frame.ambiguous()]
    cov.decisive = list(dict.fromkeys(cov.decisive))
    cov.asked = _unread_figure(
        frame, tokens, spans, [i for i in nouns if tokens[i].form in cov.unread]
    )
    return cov


# the endings of a noun that names a quantity ('재산세', '관리비', '지분율', '민원 건수')
_FIGURE_ENDINGS = ("율", "률", "세", "비", "액", "료", "량", "수")


def _unread_figure(frame: QuestionFrame, tokens: tuple[Morpheme, ...],
                   spans: list[tuple[int, int, str]], nouns: list[int]) -> list[str]:  # fmt: skip
    """The unread nouns that name the figure asked: a quantity noun with no measure or series
    read ('서울 아파트 재산세 평균', 'HMM 최대주주 지분율'), or unread nouns glued before the
    measure read, one compound ('판매보수': not the fee). Any figure answered for them would be
    another question's; a duration before a measure ('연간 수익률') is a period, not a compound."""
    if frame.operation.kind in ("define", "list") or frame.definition_term or not nouns:
        return []
    measures = [(a, b) for a, b, label in spans if label.startswith("측정:")]
    named = measures or any(e.kind in ("series", "index") for e in frame.entities)
    names_end = {e.end for e in frame.entities if e.start >= 0}
    unread, asked, end = set(nouns), [], -1
    for i in nouns:
        if tokens[i].start < end or tokens[i].form.endswith("간"):
            continue  # inside the compound already said ('가계부채 규모'); '일간', '연간'
        if any(0 <= tokens[i].start - e <= 1 for e in names_end):
            continue  # the tail of a name read ('마이크론 테크놀러지')
        j = i  # the unread nouns written next to each other from here
        while (
            j + 1 < len(tokens)
            and tokens[j + 1].start - tokens[j].end <= 1
            and (j + 1 in unread or tokens[j + 1].tag == "XSN")
        ):
            j += 1
        nxt = tokens[j + 1] if j + 1 < len(tokens) else tokens[j]
        noun_next = nxt is not tokens[j] and nxt.tag == "NNG" and nxt.start - tokens[j].end <= 1
        glued = noun_next and any(a <= nxt.start < b for a, b in measures)
        if noun_next and not any(a <= nxt.start < b for a, b, _ in spans):
            continue  # it says which of another noun ('관세 이벤트'): that noun is what is asked
        last = nxt if glued else tokens[j]
        said = frame.question[tokens[i].start : last.end]
        if glued or (not named and said.endswith(_FIGURE_ENDINGS)):
            asked.append(said)
            end = last.end
    return asked


# a figure read on a day: asked 'when', it is the date of an event the data do not hold
_LEVELS = frozenset({"dividend_yield", "per", "pbr", "eps", "market_cap", "expense_ratio"})


def _latest_said(frame: QuestionFrame, tokens: tuple[Morpheme, ...], i: int) -> bool:
    """'마지막 종가', 'last close': the last value held, when no day, span or window is asked
    ('마지막 주', '10월 마지막 거래일' say which)."""
    nxt = tokens[i + 1] if i + 1 < len(tokens) else None
    return (tokens[i].form == "마지막" and nxt is not None and nxt.tag == "NNG"
            and nxt.form in vocabulary_words() and nxt.form not in _SPAN_NOUNS
            and not (frame.as_of_date or frame.span or frame.window))  # fmt: skip


_SPAN_NOUNS = frozenset("주 달 분기 해 날 거래일 영업일 날짜 주말 월 년".split())


def _superlative_unapplied(frame: QuestionFrame, tokens: tuple[Morpheme, ...], i: int) -> bool:
    """'가장 큰', '제일 싼' with nothing ordered, picked or held to an extreme in the frame."""
    said = frame.question[tokens[max(0, i - 2)].start : tokens[i].start]
    if not re.search(r"가장|제일|최고로", said):
        return False
    op = frame.operation
    ordered = (op.kind in ("rank", "compare", "difference", "filter") or op.direction or op.top_n
               or op.group_by
               or op.aggregate in ("max", "min") or frame.statistic in ("max", "min", "extremes")
               or frame.reference is not None or frame.relation is not None)  # fmt: skip
    return not ordered and not any(n.startswith(("at_extreme:", READ)) for n in frame.notes)


@cache
def _market_words() -> frozenset[str]:
    """The one-word names of the markets the vocabulary knows ('국내', '미국', 'korea')."""
    said = [w for words in vocabulary()["regions"].values() for w in words]
    return frozenset(w for w in said if w.isalnum())


def _when_of_a_level(frame: QuestionFrame, tokens: tuple[Morpheme, ...]) -> str | None:
    """'삼성전자 배당 언제 나와?', '다음 배당일': a date no level figure holds (the word said)."""
    if (frame.statistic is not None or frame.operation.kind != "lookup" or not frame.measures
            or not all(m.name in _LEVELS for m in frame.measures)):  # fmt: skip
        return None
    said = frame.question.lower()
    for i, t in enumerate(tokens):
        if t.form == "언제":
            return t.form
        glued = i and t.form == "일" and t.tag == "NNB" and tokens[i - 1].end == t.start
        if glued and any(said[: t.start].endswith(m.surface.lower()) for m in frame.measures):
            return frame.question[tokens[i - 1].start : t.end]  # '배당일': the day, not the yield
    return None


def _months_of(span: CalendarSpan) -> float:
    first, last = (date.fromisoformat(d) for d in (span.first, span.last))
    return ((last - first).days + 1) / 30.44


def _days_not_counted(frame: QuestionFrame) -> bool:
    """A count of days is only ever a window's or a span's statistic: unread unless a screen
    computed over one."""
    return frame.statistic in ("up_days", "down_days") and not any(
        x is not None and x.used for x in (frame.window, frame.span)
    )


def _counted_days_words(frame: QuestionFrame) -> str:
    """The words that asked for a count of days ('하락한 날 며칠'), as written."""
    spans = sorted(frame.stat_spans)
    return frame.question[spans[0][0] : spans[-1][1]] if spans else "날 수"


def _sectors_within(frame: QuestionFrame, cov: Coverage) -> None:
    """'보험주', '은행주': a group the data's sectors do not split out, answered over the whole
    sector it sits in, which is said — the answer is not about insurers alone."""
    for e in frame.of("sector"):
        if e.start < 0 or (within := sector_within(e.key)) is None:
            continue
        said = frame.question[e.start : e.end]
        cov.decisive.append(said)
        cov.unheld.append(
            f"'{said}'{josa(said, '은/는')[len(said) :]} 데이터의 업종 분류에 따로 없어 {within} 업종 "
            "전체로 답했습니다." if frame.language == "ko" else f"'{said}' is no sector of its own "
            f"in this data: answered over the whole {within} sector."
        )  # fmt: skip


def _unheld_terms(frame: QuestionFrame, spans: list[tuple[int, int, str]], cov: Coverage) -> None:
    """A term the glossary says the data lacks ('달러 인덱스'), named and read by nothing: the
    answer cannot be about it, whatever a screen found for its words ('달러' → 원/달러 환율)."""
    if frame.operation.kind == "define":
        return  # '달러 인덱스가 뭐야?' is the glossary's own answer
    for match in load_glossary().find_all(frame.question):
        if (
            match.entry.held
            or match.entry.id == frame.definition_term
            or any(a <= match.start and match.end <= b for a, b, _ in spans)
            # a term a read span cuts is other words ('KODEX 골드선물 거래대금' is no '선물 거래')
            or any(a < match.start < b or a < match.end < b for a, b, _ in spans)
            or READ + match.text.lower() in frame.notes  # a screen computed it ('초과수익')
        ):  # a tag '배당' inside '배당금' does not read the term
            continue
        inside = [w for w in cov.unread if w in match.text]
        cov.decisive = [w for w in cov.decisive if w not in inside]
        cov.unread = [w for w in cov.unread if w not in inside]
        cov.read.append(ReadSpan(text=match.text, read_as="데이터에 없는 용어"))
        cov.decisive.append(match.text)
        cov.unheld.append(
            f"'{match.text}'{josa(match.text, '은/는')[len(match.text) :]} "
            + match.entry.in_data(frame.language)
        )


def _read_spans(frame: QuestionFrame, low: str) -> list[tuple[int, int, str]]:
    bar = frame.operation.threshold_of  # 'TIGER 200보다 보수 싼': the named bar is read too
    spans = [(e.start, e.end, f"{KINDS_KO.get(e.kind, e.kind)}:{e.name}")
             for e in [*frame.entities, *([bar] if bar else [])] if e.start >= 0]  # fmt: skip
    w = frame.window
    if w is not None and w.start >= 0 and (w.used or frame.window_is_period()):
        spans.append((w.start, w.end, f"구간:{w.n}{UNITS_KO.get(w.unit, w.unit)}"))  # (-1: carried)
    read_stat = w is None or w.used or frame.window_is_period()
    if frame.statistic and read_stat and not _days_not_counted(frame):
        for a, b in frame.stat_spans:  # each word as what it names ('수익률' a return)
            said = stat_of_word(frame.question[a:b]) or frame.statistic
            spans.append((a, b, f"통계:{STAT_WORDS_KO.get(said, said)}"))
    if frame.as_of_date and frame.as_of_span:
        spans.append((*frame.as_of_span, f"기준일:{frame.as_of_date}"))
    if frame.definition_term or frame.operation.kind == "define":  # '연준 점도표란': the term
        spans += [(m.start, m.end, f"용어:{m.entry.term_ko}") for m in
                  load_glossary().find_all(frame.question)
                  if m.entry.id == (frame.definition_term or m.entry.id)]  # fmt: skip
    if frame.area_m2 and frame.area_span:
        spans.append((*frame.area_span, f"면적:{frame.area_m2[0]:g}㎡"))
    if frame.floors and frame.floor_span:
        spans.append((*frame.floor_span, f"층:{frame.floors[0]}"))
    words = [(m.surface, f"측정:{measure_name(m.name, 'ko')}") for m in frame.measures]
    words += [(frame.period.surface, f"기간:{frame.period.surface}")] if frame.period else []
    op = OPS_KO.get(frame.operation.kind, frame.operation.kind)
    words += [(word, f"연산:{op}") for word in frame.operation.words]
    words += [(word, "데이터에 없음") for word in frame.unknown_words]  # read, and said so
    places = [n.removeprefix(POSITION).split(":", 1) for n in frame.notes if n.startswith(POSITION)]
    words += [(surface, f"순위:{n}번째") for n, surface in places]
    for word, label in words:  # a word said twice is read twice ('1년 … 평균 1년 수익률')
        spans += [(m.start(), m.end(), label) for m in re.finditer(re.escape(word.lower()), low)
                  if word]  # fmt: skip
    return sorted(spans)


def _request(tokens: tuple[Morpheme, ...], i: int, question: str) -> str | None:
    """A verb asked for with '-아/어 주다' ('만들어줘', 'ETF 사 줘') that no reader took."""
    after = tokens[i + 1 : i + 3]
    if tokens[i].tag == "VV" and len(after) == 2 and after[0].tag == "EC" and after[1].form == "주":
        return question[tokens[i].start : after[1].end + (1 if i + 3 < len(tokens) else 0)]
    return None


def _number_before(tokens: tuple[Morpheme, ...], i: int) -> int | None:
    """The number a unit at i belongs to, past its magnitude ('1만 호', '5천억 원')."""
    j = i - 1
    while j > 0 and tokens[j].form in _MAGNITUDES and tokens[j].tag == "NR":
        j -= 1
    return j if tokens[j].tag == "SN" else None


def _number_read(frame: QuestionFrame, tokens: tuple[Morpheme, ...], i: int) -> bool:
    """A number the frame holds: a top-N, a threshold, a date's parts."""
    value = float(tokens[i].form.replace(",", "")) if _is_number(tokens[i].form) else None
    op = frame.operation
    if value is not None and value == op.top_n:
        return True
    if op.threshold is not None or op.conditions:  # thresholds are read in their own units
        return True
    nxt = tokens[i + 1].form if i + 1 < len(tokens) else ""
    dated = frame.as_of_date is not None or any(n.startswith("month:") for n in frame.notes)
    return dated and nxt in ("년", "월", "일", "-", ".", "/")


def _in_a_name(tokens: tuple[Morpheme, ...], i: int) -> bool:
    """'Top50', 'K200', '코스피200': a number glued to Latin letters or a proper noun is part of
    a name, not a count."""
    before = tokens[i - 1] if i else None
    return before is not None and before.tag in ("SL", "NNP") and before.end == tokens[i].start


def _is_number(text: str) -> bool:
    try:
        float(text.replace(",", ""))
    except ValueError:
        return False
    return True


def _deciding_phrase(tokens: tuple[Morpheme, ...], i: int, question: str,
                     read: list[tuple[int, int]]) -> str:  # fmt: skip
    """The deciding word with the words glued to it by meaning ('두 번째', '지난 분기 말'), not
    into a name already read ('TIGER 200 분기별' is '분기')."""
    start = i
    while (
        start > 0
        and _glued_by_meaning(tokens[start - 1], tokens[start])
        and not any(a <= tokens[start - 1].start < b for a, b in read)
    ):
        start -= 1
    return question[tokens[start].start : tokens[i].end]


def _glued_by_meaning(before: Morpheme, word: Morpheme) -> bool:
    """'두 번째' (a count before its unit), '표준편차' (표준 + 편차, one written word)."""
    if before.end == word.start and before.tag.startswith("NN"):
        return True
    return before.tag in ("MM", "SN", "NNB", "NR", "ETM", "VV") and word.start - before.end <= 1


def _with_unit(tokens: tuple[Morpheme, ...], i: int, question: str) -> str:
    """'10' with the unit after it ('10거래일'), a noun with its suffix ('경쟁률'), as the user
    wrote it."""
    t = tokens[i]
    glued = i + 1 < len(tokens) and tokens[i + 1].start == t.end  # '10거래일', not '50 최근'
    if t.tag == "SN" and glued and tokens[i + 1].tag.startswith(("NN", "SL")):
        return question[t.start : tokens[i + 1].end]
    if glued and (tokens[i + 1].tag == "XSN" or t.tag in ("VV", "VA")):  # '경쟁률', '뜨는'
        return question[t.start : tokens[i + 1].end]
    return t.form


def nested_measure(frame: QuestionFrame, tokens: tuple[Morpheme, ...] | None = None) -> str | None:
    """'거래대금 상위 5개 ETF의 평균 순자산': a set chosen by one measure ('… 상위 5개 ETF의'),
    then another measure read of it — the measure after the possessive."""
    if len(frame.measures) < 2:
        return None
    tokens = tokens or analyse(frame.question)
    low = frame.question.lower()
    place = ordinal_position(frame.question)
    if place and frame.measures[-1].name != frame.measures[0].name:
        # '비중이 세 번째로 큰 ETF(의) 보수': the n-th's fee — a measure said after the place
        # ('보유종목 중 비중 2위' orders the holdings by it)
        at = low.find(place[1].lower())
        if low.find(frame.measures[-1].surface.lower()) > at:
            return frame.measures[-1].surface
    ranked = bool(frame.operation.top_n or frame.operation.kind == "rank")
    if frame.language == "en":  # 'expense ratio of the 3 largest ETFs by net assets'
        among = among_measure(frame, tokens) if ranked else None
        if among:  # 'which of the 5 largest ETFs by net assets has the lowest fee'
            return among
        by = low.find(" by ")
        after = [m for m in frame.measures if by >= 0 and low.find(m.surface.lower()) > by]
        before = [m for m in frame.measures if 0 <= low.find(m.surface.lower()) < by]
        return before[0].surface if after and before and after[0].name != before[0].name else None
    for i, t in enumerate(tokens):
        counted = i > 1 and tokens[i - 1].form == "개" and tokens[i - 2].tag == "SN"  # 'ETF 3개의'
        # '상위 3개 종목의 평균 PER': a counted set noun, then the possessive
        counted_noun = (t.tag == "JKG" and i > 2 and tokens[i - 2].form == "개"
                        and tokens[i - 3].tag == "SN" and tokens[i - 1].tag.startswith(("NN", "SL")))  # fmt: skip
        # '… 큰 쪽의', '… 싼 것의', '… 높은 종목의': the noun a clause picked, then its figure
        clause_pick = i > 1 and tokens[i - 1].tag in ("NNG", "SL") and _clause_before(tokens, i - 1)
        picked = i > 0 and (tokens[i - 1].form in PICKED or counted or counted_noun or clause_pick)
        # '싼 쪽 3개월 수익률', '하위 3개 ETF 평균 순자산': a picked noun or a counted set right
        # before a measure is the possessive unsaid
        said_set = (
            (t.form in PICKED and i > 0 and tokens[i - 1].tag == "ETM")
            or (ranked and (counted or (t.form == "개" and i > 0 and tokens[i - 1].tag == "SN")))
            or (  # '순자산 가장 작은 반도체 ETF 보유 상위 3종목': the set noun its clause picked
                # ('PBR 제일 낮은 자동차주 3개월 수익률': a sector said as that noun)
                ranked
                and (
                    t.form.lower() in ("etf", "펀드", "종목")
                    or any(e.end == t.end for e in frame.of("sector"))
                )
                and any(x.tag == "ETM" for x in tokens[max(0, i - 3) : i])
            )
        )
        unsaid = said_set and _measure_next(frame, low, t.end)
        # 'ETF의 …' and the topic 'ETF는 … 얼마나 올랐어': the set named, then what is read of it
        topic = t.tag == "JX" and i > 0 and tokens[i - 1].tag in ("NNG", "NNP", "SL")
        if not unsaid and (not (t.tag == "JKG" or topic) or not (ranked or picked)):
            continue
        before = [m for m in frame.measures if 0 <= low.find(m.surface.lower()) < t.start]
        after = [m for m in frame.measures if low.find(m.surface.lower()) > t.start]
        # '보유종목 상위 3개 평균 비중': the holdings' weights are what orders them, not a second read
        own = before and after and (before[0].name, after[0].name) == ("holdings", "weight")
        if before and after and after[0].name != before[0].name and not own:
            return after[0].surface
    return among_measure(frame, tokens) if ranked else None


def _clause_before(tokens: tuple[Morpheme, ...], at: int) -> bool:
    """A modifying clause ends right before the noun at `at`, or before a theme or name said
    with it ('비싼 ETF', '비싼 반도체 ETF')."""
    j = at - 1
    while j > 0 and at - j <= 2 and tokens[j].tag.startswith(("NN", "SL", "SN")):
        j -= 1
    return j >= 0 and tokens[j].tag == "ETM" and (at - j == 1 or tokens[at - 1].tag != "ETM")


def _measure_next(frame: QuestionFrame, low: str, at: int) -> bool:
    """A measure follows at `at`, with at most its period between ('쪽 3개월 수익률')."""
    found = [w for m in frame.measures if (w := low.find(m.surface.lower(), at)) >= 0]
    if not found:
        return False
    between = low[at : min(found)]
    for said in (
        frame.period.surface if frame.period else "",
        frame.window and frame.window.surface,
        *frame.operation.words,  # '… 3개 ETF 평균 순자산'
        *(frame.question[e.start : e.end] for e in frame.of("sector") if e.start >= 0),
    ):
        between = between.replace(said.lower(), "") if said else between
    return not between.strip()


def among_measure(frame: QuestionFrame, tokens: tuple[Morpheme, ...] | None = None) -> str | None:
    """'순자산 상위 5개 ETF 중 1개월 수익률이 가장 높은 것은?': a ranked set, then '중' and
    another measure that picks one of it (the measure after '중')."""
    tokens = tokens or analyse(frame.question)
    low = frame.question.lower()
    split = _english_pick(low) if frame.language == "en" else None
    if split is not None:  # 'which of the 5 largest … has the lowest fee'
        before = [m for m in frame.measures if 0 <= low.find(m.surface.lower()) < split]
        after = [m for m in frame.measures if low.find(m.surface.lower()) > split]
        return after[0].surface if before and after and after[0].name != before[0].name else None
    at = next((i for i, t in enumerate(tokens) if t.form == "중" and t.tag == "NNB"), None)
    if at is None or any(t.tag == "JKG" and t.start > tokens[at].end for t in tokens):
        return None
    among = tokens[at]
    counted = any(t.tag == "SN" and tokens[i + 1].form in ("개", "위")
                  for i, t in enumerate(tokens[:at]))  # fmt: skip
    if not counted:  # '비중 10% 이상인 ETF 중 …' is a filter, then a ranking (not a cut of N)
        return None
    before = [m for m in frame.measures if 0 <= low.find(m.surface.lower()) < among.start]
    after = [m for m in frame.measures if low.find(m.surface.lower()) > among.end]
    if before and after and after[0].name != before[0].name:
        return after[0].surface
    return None


def account(answer: AgentAnswer, frame: QuestionFrame) -> Coverage:
    """The first trace step (read spans, unread words) and the rule: a decisive unread word
    makes an `ok` answer `partial`, said in one sentence at its top."""
    cov = cover(frame)
    observation = frame.summary_ko()
    if cov.read:
        observation += " · 읽은 말: " + ", ".join(f"'{r.text}'→{r.read_as}" for r in cov.read)
    if cov.unread:
        observation += " · 읽지 못한 말: " + ", ".join(cov.unread)
    args = {**frame.model_dump(mode="json"), "coverage": cov.model_dump(mode="json")}
    answer.trace.insert(0, TraceStep(step=0, kind="understanding", name="이해한 질문",
                                     arguments=args, observation=observation))  # fmt: skip
    understanding = answer.payload.setdefault("understanding", {})
    understanding["unread"] = cov.decisive
    head: list[str] = []
    if frame.linked_notes and answer.status in ("ok", "partial"):
        head += [f"ℹ️ {n}" for n in frame.linked_notes]
    asked = [which_sentence(surface, names, frame.language) for surface, names in frame.ambiguous()]
    if asked:  # the name decides the answer: one question back, whatever the screen found
        answer.status = "partial"
        head += [f"❓ {s}" for s in asked]
    elif cov.asked and not answer.payload.get("declined") and answer.status in ("ok", "partial"):
        answer.status = "partial"  # the figure asked was not read: what follows is not its answer
        answer.payload["declined"] = True
        head += [f"⚠️ {u}" for u in cov.unheld if u not in answer.answer]
        head += [unasked_sentence(cov.asked, frame.language)]
    elif (
        cov.decisive
        and not answer.payload.get("declined")
        and (answer.status == "ok" or (answer.status == "partial" and answer.mode == "offline"))
    ):
        # said even when the offline screen made it partial for another reason
        answer.status = "partial"
        words = [w for w in cov.decisive if not any(f"'{w}'" in u for u in cov.unheld)
                 and f"'{w}'" not in answer.answer]  # not twice: a screen may have said it  # fmt: skip
        head += [f"⚠️ {u}" for u in cov.unheld if u not in answer.answer]
        head += ["⚠️ " + unread_sentence(words, frame.language)] if words else []
    if head:
        answer.answer = "\n\n".join([*head, answer.answer])
    return cov


def which_sentence(surface: str, names: list[str], lang: str) -> str:
    listed = ", ".join(names)
    if lang != "ko":
        return f"Which did you mean by '{surface}': {listed}? Ask again with the exact name."
    particle = josa(surface, "은/는")[len(surface) :]
    return f"'{surface}'{particle} {listed} 중 어느 것인가요? 정확한 이름으로 다시 물어 주세요."


def unasked_sentence(words: list[str], lang: str) -> str:
    quoted = ", ".join(f"'{w}'" for w in words)
    if lang != "ko":
        return (
            f"{quoted}: no figure in this workbench's data was read for it, so it is not "
            "answered. Below is what the data holds for the rest of the question, not its answer."
        )
    particle = josa(words[-1], "은/는")[len(words[-1]) :]
    return (
        f"{quoted}{particle} 이 워크벤치 데이터에서 읽지 못해 답하지 않았습니다. "
        "아래는 질문의 나머지에 대해 데이터에 있는 값으로, 질문의 답이 아닙니다."
    )


def unread_sentence(words: list[str], lang: str) -> str:
    quoted = ", ".join(f"'{w}'" for w in words)
    if lang != "ko":
        return f"I could not read {quoted} in the question; the answer below does not reflect it."
    particle = josa(words[-1], "은/는")[len(words[-1]) :]
    return f"질문의 {quoted}{particle} 읽지 못해 이 답에 반영하지 않았습니다."
