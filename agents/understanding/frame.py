"""The typed frame of one question (DESIGN.md "Understanding a question").

A frame is JSON-serializable (pydantic) so it travels in the trace ("이해한 질문"), the
answer payload (follow-ups resolve against the previous turn's frame) and `--json`.
"""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import BaseModel, Field

from agents.understanding.windows import UNITS_KO, WindowRead
from agents.understanding.windows import Field as StatField

EntityKind = Literal[
    "etf", "stock", "tag", "manager", "series", "index", "sector", "region", "re_region"
]  # fmt: skip
OperationKind = Literal[
    "lookup", "filter", "rank", "compare", "difference", "aggregate", "change", "trend", "list",
    "define", "unknown",
]  # fmt: skip
Comparator = Literal[">", ">=", "<", "<=", "="]

# the trace's words for the frame's codes (summary_ko): an analyst reads the first step
OPS_KO = {"lookup": "조회", "filter": "조건 거르기", "rank": "순위", "compare": "비교",
           "difference": "차이", "aggregate": "집계", "change": "변화", "trend": "추이",
           "list": "목록", "define": "용어 설명", "unknown": "알 수 없음"}  # fmt: skip
KINDS_KO = {"etf": "ETF", "stock": "종목", "tag": "테마", "manager": "운용사", "series": "지표",
             "index": "지수", "sector": "업종", "region": "지역", "re_region": "부동산 지역"}  # fmt: skip
AGGREGATES_KO = {"sum": "합계", "avg": "평균", "count": "개수", "max": "최대", "min": "최소",
                  "list": "목록"}  # fmt: skip
RELATIONS_KO = {"holders": "보유 ETF", "holdings": "보유 종목", "similar": "비슷한 ETF",
                 "holdings_changes": "보유 비중 변화", "together": "함께 담은 ETF",
                 "common_holdings": "공통 보유 종목", "weight_in": "안의 비중",
                 "peers": "업종 비교"}  # fmt: skip
STAT_WORDS_KO = {"avg": "평균", "moving_average": "이동평균", "sum": "합계", "max": "최고치",
             "min": "최저치", "range": "최고치와 최저치의 차이", "extremes": "최고치와 최저치",
             "return": "수익률", "change": "변화", "volatility": "변동성", "std": "표준편차",
             "up_days": "오른 날 수", "down_days": "내린 날 수"}  # fmt: skip
Aggregate = Literal["sum", "avg", "count", "max", "min", "list"]  # list: the top N rows themselves
Reference = Literal["subset", "same", "replace"]
Lang = Literal["ko", "en"]
AMBIGUOUS = "ambiguous:"  # a note: 'ambiguous:<typed>:<name>|<name>'

# Measures the frame can name: the unit an analyst reads them in, and what an answer calls them.
MEASURES: dict[str, tuple[str, str, str]] = {
    "expense_ratio": ("%", "총보수", "expense ratio"), "return": ("%", "수익률", "return"),
    "weight": ("%", "비중", "weight"), "net_assets": ("KRW", "순자산총액", "net assets"),
    "market_cap": ("KRW", "시가총액", "market cap"), "close": ("price", "종가", "close"),
    "open": ("price", "시가", "open"),
    "high": ("price", "고가", "high"), "low": ("price", "저가", "low"),
    "volume": ("shares", "거래량", "volume"), "trading_value": ("KRW", "거래대금", "trading value"),
    "value": ("series", "값", "value"), "per": ("x", "PER", "P/E"), "pbr": ("x", "PBR", "P/B"),
    "eps": ("currency", "EPS", "EPS"), "dividend_yield": ("%", "배당수익률", "dividend yield"),
    "shares_outstanding": ("shares", "상장주식수", "shares outstanding"),
    "count": ("count", "개수", "count"), "holdings": ("list", "보유종목", "holdings"),
    "rsi": ("index", "RSI", "RSI"), "earnings": ("currency", "실적", "earnings"),
    "volatility": ("%", "변동성", "volatility"), "drawdown": ("%", "최대 낙폭", "max drawdown"),
    "premium": ("%", "괴리율", "premium"), "nav": ("KRW", "NAV", "NAV"),
    "benchmark": ("text", "기초지수", "benchmark"), "listed_date": ("date", "상장일", "listing date"),
    "jeonse_ratio": ("%", "전세가율", "jeonse ratio"), "unsold": ("units", "미분양", "unsold homes"),
    "permits": ("units", "인허가", "permits"), "house_price": ("index", "주택가격", "house prices"),
    "deal_count": ("count", "거래 건수", "deal count"),  # housing deals counted ('몇 건')
}  # fmt: skip
MEASURE_UNITS: dict[str, str] = {name: unit for name, (unit, _, _) in MEASURES.items()}
FIELDS_KO = {f: MEASURES[f][1] if f in MEASURES else "고가·저가" for f in get_args(StatField)}


DAY_OF_MOVE = "day_of_move"  # a note: '최대 상승일', '가장 많이 오른 날' ask a day's move
ANY_BAR = "any_bar"  # a note: the bars said with '이거나', 'or' are met by any one of them
SPAN_AND_NOW = "span_and_now"  # a note: a span's statistic said beside 'now' ('지금과 작년 최고치')
MONTH_OF_MOVE = "month_of_move:"  # a note + max/min: '가장 많이 오른 달', each month's return
PLAN = "plan:"  # a composed plan's steps, in words, for the trace ('전체 ETF → … → 상위 3 → …')

# The housing series' measures (Real estate answers them).
HOUSING_MEASURES = frozenset({"jeonse_ratio", "unsold", "permits", "house_price"})

# A comparator in an answer's words, per language.
COMPARATOR_WORDS: dict[str, dict[str, str]] = {
    "ko": {">": "초과", ">=": "이상", "<": "미만", "<=": "이하", "=": "인"},
    "en": {">": "above", ">=": "at least", "<": "below", "<=": "at most", "=": "equal to"},
}


def measure_name(measure: str, lang: str) -> str:
    names = MEASURES.get(measure)
    return (names[1] if lang == "ko" else names[2]) if names else measure


def bar_text(value: float, unit: str | None) -> str:
    """A threshold as the analyst wrote it: 100,000 억 is '10조', 0.0001 억 '10,000원'."""
    if unit == "$":  # an amount in dollars ('1조 달러'), said in 조 or 억 of dollars
        big = abs(value) >= 1e12
        return f"{value / (1e12 if big else 1e8):g}{'조' if big else '억'} 달러"
    if unit == "억" and abs(value) >= 10_000:
        return f"{value / 10_000:g}조"
    if unit == "억" and abs(value) < 1:
        return f"{value * 1e8:,.0f}원"
    if abs(value) >= 10_000 and value == int(value):  # '1000만주': 10,000,000
        return f"{value:,.0f}{unit or ''}"
    return f"{value:g}{unit or ''}"


class Entity(BaseModel):
    kind: EntityKind
    key: str  # ETF/stock code, tag name, manager name, series code, region code …
    name: str  # display name
    start: int = -1  # span in the question (characters), -1 when inherited from a turn
    end: int = -1
    inherited: bool = False  # taken from the previous turn's frame


class Measure(BaseModel):
    name: str
    unit: str
    surface: str = ""  # the words that named it


class Period(BaseModel):
    label: str  # 1d 1w 1m 3m 6m 1y …
    months: float
    surface: str = ""


class CalendarSpan(BaseModel):
    """Days named as a calendar span ('10월', '지난 분기', '작년', '3월부터 6월까지'): a
    statistic over it reads the days first..last; said alone, its last day is the as-of day."""

    first: str  # ISO dates, inclusive
    last: str
    label_ko: str
    label_en: str
    used: bool = False  # set by the screen that computed over it (coverage reads it)

    def label(self, lang: str) -> str:
        return self.label_ko if lang == "ko" else self.label_en


class Condition(BaseModel):
    """One more threshold of a filter ('… and net assets over 1 trillion won')."""

    measure: str
    comparator: Comparator
    threshold: float
    unit: str | None = None


class Operation(BaseModel):
    kind: OperationKind = "lookup"
    comparator: Comparator | None = None  # a filter (alone, or before a ranking)
    filter_measure: str | None = None
    threshold: float | None = None
    threshold_unit: str | None = None  # % or 억 …
    top_n: int | None = None
    direction: Literal["asc", "desc"] | None = None
    aggregate: Aggregate | None = None
    change_basis: Literal["period", "yoy", "mom"] | None = None
    words: list[str] = Field(default_factory=list)  # the words that chose it (for the trace)
    conditions: list[Condition] = Field(default_factory=list)  # thresholds after the first
    group_by: Literal["manager", "tag"] | None = None  # '운용사별 평균 보수': one value per group
    group_first: int | None = None  # 'ETF가 가장 많은 운용사': the groups kept, first by the value
    threshold_of: Entity | None = None  # 'KODEX 200보다 보수 싼 ETF': that ETF's value is the bar
    also_count: bool = False  # '몇 개고 평균 보수는?': the count beside the aggregate asked


class QuestionFrame(BaseModel):
    question: str
    language: Lang
    entities: list[Entity] = Field(default_factory=list)
    measures: list[Measure] = Field(default_factory=list)
    operation: Operation = Field(default_factory=Operation)
    relation: str | None = None  # holders | holdings | similar | holdings_changes | together …
    period: Period | None = None
    more_periods: list[Period] = Field(default_factory=list)  # '1개월 3개월 1년 수익률': the rest
    as_of_date: str | None = None
    as_of_span: tuple[int, int] | None = None  # the words that named the day
    span: CalendarSpan | None = None  # a month, quarter, half, year or range named whole
    per_period: Literal["month", "quarter", "year"] | None = None  # '분기별 수익률': one per period
    reference: Reference | None = None  # how the question leans on the previous turn
    previous_result: list[str] = Field(default_factory=list)  # codes the previous turn listed
    replaced: list[Entity] = Field(default_factory=list)  # what a 'what about X?' turn swapped out
    # the figures a 'PBR은?' turn swapped out, for a later '둘 다'
    replaced_measures: list[Measure] = Field(default_factory=list)
    definition_term: str | None = None  # glossary id for define questions
    unknown_words: list[str] = Field(default_factory=list)  # asked-for things we do not hold
    window: WindowRead | None = None  # 'N units' with a statistic over it (windows.py)
    statistic: str | None = None  # avg, sum, max, min, range, moving_average, volatility, …
    stat_field: str | None = None  # close, high, low, volume … ('최고가' is the high)
    stat_spans: list[tuple[int, int]] = Field(default_factory=list)
    area_m2: tuple[float, float] | None = None  # '전용 84㎡': deals of 84 ≤ area < 85 ㎡
    area_span: tuple[int, int] | None = None
    floors: tuple[int, int] | None = None  # '30층 이상': deals on floors 30 ≤ floor ≤ 999
    floor_span: tuple[int, int] | None = None
    # "'SK하이닉쓰'를 SK하이닉스로 읽었습니다"
    linked_notes: list[str] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)

    def of(self, kind: EntityKind) -> list[Entity]:
        return [e for e in self.entities if e.kind == kind]

    def ambiguous(self) -> list[tuple[str, list[str]]]:
        """Typed names as close to several names ('삼성전지': 삼성전자, 삼성전기): ask which."""
        found = [n.removeprefix(AMBIGUOUS).split(":", 1) for n in self.notes
                 if n.startswith(AMBIGUOUS)]  # fmt: skip
        return [(surface, names.split("|")) for surface, names in found]

    def measure(self) -> str | None:
        return self.measures[0].name if self.measures else None

    def window_is_period(self) -> bool:
        """The window is the period the period reader took ('3개월' → 3m, '1주' → 1w): the
        screens' period figures (returns, changes) compute it."""
        w, p = self.window, self.period
        if w is None or p is None:
            return False
        months = {"day": 1 / 30, "week": 0.25, "month": 1, "quarter": 3, "year": 12}.get(w.unit)
        if w.unit == "week" and w.n % 52 == 0:
            months = 12 / 52  # '52주', '52-week': the year the period reader names it (1y)
        return months is not None and abs(w.n * months - p.months) < 1e-6

    def summary_ko(self) -> str:
        """One line for the trace's first step ("이해한 질문"), in the analyst's words."""
        op = self.operation
        parts = [f"연산={OPS_KO.get(op.kind, op.kind)}"]
        if self.entities:
            parts.append("대상=" + ", ".join(f"{e.name}({KINDS_KO.get(e.kind, e.kind)})"
                                             for e in self.entities))  # fmt: skip
        if self.measures:
            parts.append("측정=" + ", ".join(measure_name(m.name, "ko") for m in self.measures))
        if op.comparator is not None and op.threshold is not None:
            parts.append(f"조건 {op.comparator} {bar_text(op.threshold, op.threshold_unit)}")
        for c in op.conditions:
            parts.append(f"조건 {c.measure} {c.comparator} {c.threshold:g}{c.unit or ''}")
        order = "오름차순" if op.direction == "asc" else "내림차순"
        if op.top_n:
            parts.append(f"상위 {op.top_n}개 ({order})")
        elif op.direction:
            parts.append(f"정렬={order}")
        if op.aggregate:
            parts.append(f"집계={AGGREGATES_KO.get(op.aggregate, op.aggregate)}"
                         + (" + 개수" if op.also_count else ""))  # fmt: skip
        if op.group_by:
            parts.append(f"그룹={KINDS_KO.get(op.group_by, op.group_by)}별")
        if op.threshold_of is not None:
            parts.append(f"기준={op.threshold_of.name}의 값 {op.comparator}")
        if op.change_basis and op.change_basis != "period":
            parts.append("변화 기준=" + {"yoy": "전년 동기 대비", "mom": "전월 대비"}[
                op.change_basis])  # fmt: skip
        if self.relation:
            parts.append(f"관계={RELATIONS_KO.get(self.relation, self.relation)}")
        if self.window:
            unit = UNITS_KO.get(self.window.unit, self.window.unit)
            parts.append(f"구간={self.window.n}{unit}")
        if self.statistic:
            field = FIELDS_KO.get(self.stat_field or "", "")
            parts.append(f"통계={STAT_WORDS_KO.get(self.statistic, self.statistic)}"
                         + (f"({field})" if field else ""))  # fmt: skip
        if self.period:
            since = self.period.label.removeprefix("since:")
            parts.append(f"기간={since} 이후" if since != self.period.label
                         else f"기간={self.period.surface or self.period.label}")  # fmt: skip
        if self.span:
            parts.append(f"기간={self.span.first} ~ {self.span.last}")
        elif self.as_of_date:
            parts.append(f"기준일={self.as_of_date}")
        if self.reference:
            parts.append("이전 턴 참조=" + {"subset": "그 중에서", "same": "같은 대상",
                                            "replace": "대상 바꿈"}[self.reference])  # fmt: skip
        if self.definition_term:
            parts.append(f"용어={self.definition_term}")
        if self.unknown_words:
            parts.append("데이터에 없는 항목=" + ", ".join(self.unknown_words))
        parts += ["계획=" + n.removeprefix(PLAN) for n in self.notes if n.startswith(PLAN)]
        return " · ".join(parts)
