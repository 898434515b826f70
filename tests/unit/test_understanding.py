"""The question-understanding layer on its own: frames read from questions with a small in-memory
lexicon (the integration and golden tests run it against the real data)."""

from __future__ import annotations

import re

import pytest

from agents.understanding import QuestionFrame, understand
from agents.understanding.coverage import among_measure, pick_direction
from agents.understanding.history import HistoryMessage, history_after, previous_context
from agents.understanding.lexicon import MACRO_KINDS, Lexicon
from data_access.contracts import AgentAnswer


@pytest.fixture(scope="module")
def lexicon() -> Lexicon:
    return Lexicon(
        etfs={"069500": "KODEX 200", "102110": "TIGER 200", "360750": "TIGER 미국S&P500",
              "379780": "KBSTAR 미국S&P500", "091160": "KODEX 반도체"},
        stocks={"005930": ("삼성전자", "Samsung Electronics"), "000660": ("SK하이닉스", "SK hynix"),
                "005380": ("현대차", "Hyundai Motor"), "V": ("Visa", "Visa"),
                "NVDA": ("NVIDIA", "NVIDIA")},
        tags=["반도체", "배당", "미국S&P500", "해외주식", "2차전지"],
        managers={"삼성자산운용": "Samsung Asset Management"},
        brands={"KODEX": "삼성자산운용"},
        aliases=[("비자", "stock", "V"), ("삼전", "stock", "005930")],
    )  # fmt: skip


def read(lexicon: Lexicon, question: str, **kwargs: object) -> QuestionFrame:
    return understand(question, lexicon, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("question", "kind", "comparator", "threshold", "unit"),
    [
        ("현대차 비중이 3% 넘는 ETF 전부", "filter", ">", 3.0, "%"),
        ("보수가 0.1% 이하인 반도체 ETF", "filter", "<=", 0.1, "%"),
        ("ETFs with net assets over 5 trillion won", "filter", ">", 50_000.0, "억"),
        ("순자산 5조 이상 ETF", "filter", ">=", 50_000.0, "억"),
        ("순자산 5천억 이상 ETF", "filter", ">=", 5_000.0, "억"),
        ("순자산 1조 5천억 넘는 ETF", "filter", ">", 15_000.0, "억"),
        ("2차전지 ETF 중 3개월 수익률이 -8%보다 나쁜 것", "filter", "<", -8.0, "%"),
        ("semiconductor ETFs with an expense ratio of 0.1% or less", "filter", "<=", 0.1, "%"),
    ],
)  # fmt: skip
def test_thresholds(lexicon: Lexicon, question: str, kind: str, comparator: str,
                    threshold: float, unit: str) -> None:  # fmt: skip
    op = read(lexicon, question).operation
    assert (op.kind, op.comparator, op.threshold, op.threshold_unit) == (
        kind, comparator, threshold, unit)  # fmt: skip


def test_a_second_threshold_is_a_condition_of_its_own(lexicon: Lexicon) -> None:
    op = read(
        lexicon, "ETFs with expense ratio under 0.1% and net assets over 1 trillion won"
    ).operation
    assert (op.comparator, op.threshold, op.filter_measure) == ("<", 0.1, "expense_ratio")
    assert [(c.measure, c.comparator, c.threshold, c.unit) for c in op.conditions] == [
        ("net_assets", ">", 10_000.0, "억")]  # fmt: skip
    band = read(lexicon, "보수 0.1% 이상 0.3% 이하 반도체 ETF").operation
    assert (band.comparator, band.threshold) == (">=", 0.1)
    assert [(c.comparator, c.threshold) for c in band.conditions] == [("<=", 0.3)]
    assert not read(lexicon, "현대차 비중이 3% 넘는 ETF 전부").operation.conditions


def test_a_fall_turns_the_threshold_and_names_the_return(lexicon: Lexicon) -> None:
    frame = read(lexicon, "최근 3개월 8% 넘게 빠진 2차전지 ETF")
    assert frame.measure() == "return" and frame.period and frame.period.label == "3m"
    assert (frame.operation.comparator, frame.operation.threshold) == ("<", -8.0)


@pytest.mark.parametrize(
    ("question", "kind", "top_n", "direction", "measure"),  # direction None: the measure's default
    [
        ("반도체 테마 중 6개월 수익률 1위", "rank", 1, None, "return"),  # default order per measure
        ("순자산 상위 5개 ETF", "rank", 5, "desc", "net_assets"),
        ("채권 ETF 중 보수 제일 싼 3개", "rank", 3, "asc", "expense_ratio"),
        ("보수가 제일 비싼 ETF 뭐야?", "rank", 1, "desc", "expense_ratio"),
        ("이번 주 가장 많이 떨어진 ETF", "rank", 1, "asc", "return"),
        ("반도체 관련 ETF 보수율 낮은 순으로", "rank", None, "asc", "expense_ratio"),
    ],
)  # fmt: skip
def test_rankings(lexicon: Lexicon, question: str, kind: str, top_n: int | None,
                  direction: str, measure: str) -> None:  # fmt: skip
    frame = read(lexicon, question)
    op = frame.operation
    assert (op.kind, op.top_n, op.direction, frame.measure()) == (kind, top_n, direction, measure)


@pytest.mark.parametrize(
    ("question", "kind", "aggregate"),
    [
        ("KODEX 200 상위 5개 종목 비중 합", "aggregate", "sum"),
        ("반도체 ETF 평균 보수", "aggregate", "avg"),
        ("삼성자산운용 ETF 몇 개야?", "aggregate", "count"),
        ("코덱스200 최근 6개월 최저치", "aggregate", "min"),
        ("KODEX 200과 TIGER 200 보수 차이", "difference", None),
        ("KODEX 200과 TIGER 200 비교해줘", "compare", None),
        ("KODEX 200 3개월 가격 추이", "trend", None),
        ("ETF 총보수란?", "define", None),
        ("what is the expense ratio of kodex200", "lookup", None),
    ],
)  # fmt: skip
def test_operations(lexicon: Lexicon, question: str, kind: str, aggregate: str | None) -> None:
    op = read(lexicon, question).operation
    assert (op.kind, op.aggregate) == (kind, aggregate)


def test_entities_carry_spans_and_forms(lexicon: Lexicon) -> None:
    question = "타이거 S&P500하고 RISE 미국S&P500 보수 차이"
    frame = read(lexicon, question)
    etf = frame.of("etf")[0]
    assert etf.key == "360750" and question[etf.start : etf.end] == "타이거 S&P500"
    assert [e.key for e in read(lexicon, "코덱스200 정보").of("etf")] == ["069500"]
    assert [e.key for e in read(lexicon, "ETFs holding NVDA").of("stock")] == ["NVDA"]
    assert [e.key for e in read(lexicon, "삼전 가장 많이 담은 ETF").of("stock")] == ["005930"]


def test_a_korean_name_starts_a_word(lexicon: Lexicon) -> None:
    """'소비자물가' holds '비자' (Visa's alias): not a stock."""
    assert not read(lexicon, "소비자물가지수가 뭐야", kinds=MACRO_KINDS).of("stock")
    assert read(lexicon, "비자 주가", kinds=MACRO_KINDS).of("stock")


def test_macro_series_through_regions_and_spreads(lexicon: Lexicon) -> None:
    gap = read(lexicon, "미국과 한국 기준금리 격차", kinds=MACRO_KINDS)
    series = sorted(gap.of("series"), key=lambda e: e.start)
    assert gap.operation.kind == "difference"
    assert [e.key for e in series] == ["FEDFUNDS", "KR_BASE_RATE"]  # in the order asked
    spread = read(lexicon, "장단기 금리차 얼마야?", kinds=MACRO_KINDS)
    assert {e.key for e in spread.of("series")} == {"DGS10", "DGS2"}
    assert spread.period is None  # '10년물' is a series, not a ten-year window
    tenor = read(lexicon, "미국 10년물과 한국 10년물 금리 차이", kinds=MACRO_KINDS)
    assert [e.key for e in tenor.of("series")] == ["DGS10"]  # not Korea's policy rate, nor
    assert tenor.unknown_words == ["한국 10년물 금리"]  # another US rate for its '금리'


def test_deal_bands_read_an_area_and_leave_prices_to_the_threshold(lexicon: Lexicon) -> None:
    area = read(lexicon, "강남구 전용 84㎡ 실거래가 평균", kinds=MACRO_KINDS)
    assert area.area_m2 == (84.0, 85.0) and area.area_span is not None
    assert read(lexicon, "잠실 59m2 거래", kinds=MACRO_KINDS).area_m2 == (59.0, 60.0)
    priced = read(lexicon, "서울 10억 이상 아파트 거래 건수", kinds=MACRO_KINDS).operation
    assert (priced.comparator, priced.threshold, priced.threshold_unit) == (">=", 10.0, "억")
    assert read(lexicon, "KODEX 200 보수", kinds=MACRO_KINDS).area_m2 is None


@pytest.mark.parametrize(
    ("question", "as_of"),
    [("2026년 6월 1일 기준 미국 기준금리", "2026-06-01"), ("2026년 3월 말 한국 기준금리", "2026-03-31"),
     ("3월 말 미국 10년 국채금리 (2026년)", "2026-03-31"),
     ("US 10-year yield at the end of March 2026", "2026-03-31"),
     ("how did the market react", None)],
)  # fmt: skip
def test_as_of_dates(lexicon: Lexicon, question: str, as_of: str | None) -> None:
    assert read(lexicon, question, kinds=MACRO_KINDS).as_of_date == as_of


@pytest.mark.parametrize(
    ("question", "change_basis"),
    [("미국 CPI 전년 동월 대비", "yoy"), ("한국 물가 전월 대비", "mom"), ("미국 실업률 작년 대비", "yoy"),
     ("KR CPI year over year", "yoy")],
)  # fmt: skip
def test_change_bases(lexicon: Lexicon, question: str, change_basis: str) -> None:
    assert read(lexicon, question, kinds=MACRO_KINDS).operation.change_basis == change_basis


@pytest.mark.parametrize(
    ("question", "note"),
    [("내일 삼성전자 주가 맞춰줘", "forecast"), ("비트코인 가격", "unheld_assets"),
     ("지금 날씨 어때?", "chit_chat"), ("KODEX 200 실시간 호가", "realtime")],
)  # fmt: skip
def test_out_of_scope_is_noted(lexicon: Lexicon, question: str, note: str) -> None:
    assert any(n.startswith(f"out_of_scope:{note}") for n in read(lexicon, question).notes)


def test_unheld_measures_and_places(lexicon: Lexicon) -> None:
    assert read(lexicon, "KODEX 200 추적오차").unknown_words == ["추적오차"]
    assert read(lexicon, "삼성전자 목표주가").measures == []  # not a '주가' question
    frame = read(lexicon, "중국 PMI 최근 수치", kinds=MACRO_KINDS)
    assert set(frame.unknown_words) == {"중국", "PMI"}


def _previous(
    lexicon: Lexicon, question: str, result: list[str]
) -> tuple[QuestionFrame, list[str]]:
    return read(lexicon, question), result


def test_follow_ups(lexicon: Lexicon) -> None:
    listed = ["069500", "102110", "091160"]
    prev, result = _previous(lexicon, "배당 ETF 보수 낮은 순으로 보여줘", listed)
    subset = read(lexicon, "거기서 상위 3개만", previous=prev, previous_result=result)
    assert subset.reference == "subset" and subset.previous_result == listed
    assert subset.operation.direction == "asc" and subset.measure() == "expense_ratio"
    first = read(lexicon, "1위 ETF 보수는?", previous=prev, previous_result=result)
    assert first.reference == "same" and [e.key for e in first.of("etf")] == ["069500"]
    info = read(lexicon, "KODEX 200 정보")
    same = read(lexicon, "그거 3개월 수익률은?", previous=info)
    assert same.reference == "same" and same.of("etf")[0].inherited
    assert same.measure() == "return" and same.period and same.period.label == "3m"
    other = read(lexicon, "what about TIGER 200?", previous=same)
    assert other.reference == "replace" and other.measure() == "return"
    assert [e.key for e in other.of("etf")] == ["102110"]
    region = read(lexicon, "그럼 미국은?", kinds=MACRO_KINDS,
                  previous=read(lexicon, "한국 기준금리 최근 추이", kinds=MACRO_KINDS))  # fmt: skip
    assert region.reference == "replace" and region.operation.kind == "trend"


@pytest.mark.parametrize("question", ["그때 무슨 일 있었어?", "그 무렵 뉴스는?", "What happened around then?",
                                      "그날 무슨 일이 있었길래?"])  # fmt: skip
def test_what_happened_then_anchors_to_the_previous_extreme(
    lexicon: Lexicon, question: str
) -> None:
    high = read(lexicon, "원달러 환율 최근 1년 최고치", kinds=MACRO_KINDS)
    then = read(lexicon, question, kinds=MACRO_KINDS, previous=high)
    assert "anchor:extreme" in then.notes and "asks:why" in then.notes
    assert then.operation.aggregate == "max" and [e.key for e in then.of("series")] == ["KR_USDKRW"]
    trend = read(lexicon, "원달러 환율 최근 추이", kinds=MACRO_KINDS)
    assert "anchor:extreme" not in read(lexicon, question, kinds=MACRO_KINDS, previous=trend).notes


@pytest.mark.parametrize(("question", "side"), [("그 중 가장 컸던 때는?", "high"),
                                              ("가장 작았던 날은?", "low"), ("최저는 언제였어?", "low")])  # fmt: skip
def test_the_extreme_of_a_gap_asked_after_it(lexicon: Lexicon, question: str, side: str) -> None:
    """After '장단기 금리차 추이' the gap's own high or low is asked, not a ranking of the two."""
    gap = read(lexicon, "미국 10년물 금리와 2년물 금리 차이 추이", kinds=MACRO_KINDS)
    then = read(lexicon, question, kinds=MACRO_KINDS, previous=gap)
    assert then.operation.kind == "difference" and [m.name for m in then.measures] == [side]
    assert {e.key for e in then.of("series")} == {"DGS10", "DGS2"}


def test_follow_ups_resolve_to_what_the_previous_answer_named(lexicon: Lexicon) -> None:
    holdings = read(lexicon, "KODEX 반도체 보유종목 상위 5개")
    weight = read(lexicon, "그 중 SK하이닉스 비중은?", previous=holdings)
    assert [e.key for e in weight.of("etf")] == ["091160"] and weight.relation == "weight_in"
    assert weight.measure() == "weight"
    plain = read(lexicon, "SK하이닉스 주가", previous=read(lexicon, "KODEX 200 정보"))
    assert not plain.of("etf")  # a stock's own question after an ETF stays the stock's
    winner = read(lexicon, "반도체 ETF 중 순자산 제일 큰 거")
    it = read(lexicon, "그거 1년 수익률은?", previous=winner, previous_result=["091160"])
    assert [e.key for e in it.of("etf")] == ["091160"] and it.of("etf")[0].inherited


def test_both_after_a_swapped_subject_means_the_two(lexicon: Lexicon) -> None:
    first = read(lexicon, "KODEX 200 보수")
    swapped = read(lexicon, "TIGER 200은?", previous=first)
    assert swapped.reference == "replace" and [e.key for e in swapped.replaced] == ["069500"]
    both = read(lexicon, "둘 중 어디가 더 싸?", previous=swapped)
    assert sorted(e.key for e in both.of("etf")) == ["069500", "102110"]
    assert both.measure() == "expense_ratio"


@pytest.mark.parametrize(("question", "comparator"), [
    ("배당 ETF 중 1년 수익률 마이너스인 것", "<"), ("semiconductor ETFs with negative returns", "<"),
    ("수익률 플러스인 반도체 ETF", ">"),
])  # fmt: skip
def test_a_sign_word_is_a_threshold_of_zero(lexicon: Lexicon, question: str,
                                            comparator: str) -> None:  # fmt: skip
    op = read(lexicon, question).operation
    assert (op.kind, op.comparator, op.threshold, op.filter_measure) == (
        "filter", comparator, 0.0, "return")  # fmt: skip


def test_a_korean_word_that_begins_one_name_is_that_stock() -> None:
    lexicon = Lexicon(stocks={"000880": ("한화", None), "012450": ("한화에어로스페이스", None),
                              "042660": ("한화오션", None), "005930": ("삼성전자", None),
                              "009150": ("삼성전기", None), "TMO": ("Thermo Fisher", None)})  # fmt: skip
    keys = lambda q: [m.key for m in lexicon.recognize(q)]  # noqa: E731
    assert keys("한화에어로 3개월 수익률") == ["012450"]
    assert keys("한화에어로의 주가") == ["012450"]
    assert keys("한화 주가") == ["000880"]
    assert keys("삼성전 주가") == []  # 삼성전자 or 삼성전기: not guessed
    assert keys("what is the VIX") == []  # English words are not abbreviations


def test_follow_ups_that_add_compare_or_rank_regions(lexicon: Lexicon) -> None:
    ten = read(lexicon, "미국 10년물 금리", kinds=MACRO_KINDS)
    two = read(lexicon, "2년물은?", kinds=MACRO_KINDS, previous=ten)
    gap = read(lexicon, "둘 차이는?", kinds=MACRO_KINDS, previous=two)
    assert {e.key for e in gap.of("series")} == {"DGS10", "DGS2"}
    kr = read(lexicon, "한국 기준금리 최근 추이", kinds=MACRO_KINDS)
    us = read(lexicon, "미국이랑 비교하면?", kinds=MACRO_KINDS, previous=kr)
    assert [e.key for e in us.of("series")] == ["KR_BASE_RATE", "FEDFUNDS"]
    seoul = read(lexicon, "서울 전세가율", kinds=MACRO_KINDS)
    top = read(lexicon, "가장 높은 지역은?", kinds=MACRO_KINDS, previous=seoul)
    assert top.relation == "regions" and not top.of("re_region")
    samsung = read(lexicon, "삼성전자 3개월 수익률", kinds=MACRO_KINDS)
    both = read(lexicon, "SK하이닉스랑 비교하면?", kinds=MACRO_KINDS, previous=samsung)
    assert [e.key for e in both.of("stock")] == ["005930", "000660"]
    assert both.period is not None and both.period.label == "3m"


def test_coordinated_brands_share_one_rest_of_a_name() -> None:
    lexicon = Lexicon(
        etfs={"069500": "KODEX 200", "102110": "TIGER 200", "105190": "ACE 200",
              "277630": "TIGER 코스피", "091160": "KODEX 반도체", "091230": "TIGER 반도체"},
        benchmarks={"069500": "코스피 200", "102110": "코스피 200", "105190": "코스피 200",
                    "277630": "코스피"},
    )  # fmt: skip
    keys = lambda q: [m.key for m in lexicon.recognize(q)]  # noqa: E731
    assert keys("코스피200 ETF 세 개 코덱스 타이거 ACE 보수 비교") == ["069500", "102110", "105190"]
    assert keys("타이거 코스피200") == ["102110"]  # the benchmark, not 'TIGER 코스피' + '200'
    assert keys("KODEX, TIGER 반도체 수익률 비교") == ["091160", "091230"]
    assert keys("KODEX 200과 TIGER 비교") == ["069500", "102110"]
    assert keys("코덱스 타이거 비교") == []  # no shared rest: nothing is guessed


@pytest.mark.parametrize(("question", "label"), [
    ("52주 최고가", "1y"), ("52-week high", "1y"), ("12개월 수익률", "1y"), ("1주 수익률", "1w"),
    ("24개월 추이", "2y"), ("9개월 수익률", "9m"),
])  # fmt: skip
def test_periods_are_named_canonically(lexicon: Lexicon, question: str, label: str) -> None:
    frame = read(lexicon, question)
    assert frame.period is not None and frame.period.label == label
    if label.endswith("y"):
        assert frame.period.months == 12 * int(label[:-1])  # 52 weeks are not 13 months


@pytest.mark.parametrize(("question", "unknown", "series"), [
    ("한국 10년 국채 금리 지금", "한국 10년 국채 금리", []),
    ("한국 2년물 금리", "한국 2년물 금리", []),
    ("미국 10년 국채 금리", None, ["DGS10"]),
    ("10년물 금리", None, ["DGS10"]),
    ("미국 10년물과 기준금리 차이", None, ["DGS10", "FEDFUNDS"]),  # the sibling's region
    ("미국 실업률과 CPI", None, ["UNRATE", "CPIAUCSL"]),
    ("장단기 금리차", None, ["DGS10", "DGS2"]),  # the spread's '금리' is not a topic
])  # fmt: skip
def test_a_region_before_another_regions_series_is_not_held(
    lexicon: Lexicon, question: str, unknown: str | None, series: list[str]
) -> None:
    frame = read(lexicon, question, kinds=MACRO_KINDS)
    assert [e.key for e in frame.of("series")] == series
    assert frame.unknown_words == ([unknown] if unknown else [])


@pytest.mark.parametrize(("question", "basis", "period"), [
    ("한국 물가상승률", "yoy", None), ("미국 인플레이션 최근", "yoy", None),
    ("미국 CPI 3개월 상승률", None, "3m"), ("미국 10년물 금리 전주 대비", None, "1w"),
])  # fmt: skip
def test_rates_of_price_indices_and_week_over_week(
    lexicon: Lexicon, question: str, basis: str | None, period: str | None
) -> None:
    frame = read(lexicon, question, kinds=MACRO_KINDS)
    assert frame.operation.change_basis == basis
    assert (frame.period.label if frame.period else None) == period


@pytest.mark.parametrize(("question", "period", "as_of"), [
    # a day said as a base is the period's start, not the as-of day (fresh round 12: '1월 2일 대비
    # 코스닥 수익률' was answered as of 1월 2일, a year back from it)
    ("1월 2일 대비 코스닥 수익률", "since:20..-01-02", None),
    ("삼성전자 3월 3일 이후 수익률", "since:20..-03-03", None),
    ("코스닥 return since 2026-03-02", "since:2026-03-02", None),
    ("올해 첫 거래일 대비 코스닥 수익률", "since:20..-01-0.", None),  # its first KRX session
    ("작년 말 대비 코스닥 수익률", "ytd", None),  # the vocabulary's named period
    ("1월 2일 코스닥 종가", None, "20..-01-02"),
])  # fmt: skip
def test_a_day_said_as_a_base_starts_the_period(
    lexicon: Lexicon, question: str, period: str | None, as_of: str | None
) -> None:
    frame = read(lexicon, question, kinds=MACRO_KINDS)
    assert re.fullmatch(period or "", frame.period.label if frame.period else "")
    assert re.fullmatch(as_of or "", frame.as_of_date or "")


@pytest.mark.parametrize(("question", "missing"), [
    ("유로 환율 추이", "다른 통화 환율"), ("한국 국채 10년물 금리", "한국 국채 10년물"),
    ("미국 30년물 금리", "다른 만기 국채"), ("미국 주택가격 추이", "미국 주택가격"),
    ("미국 회사채 스프레드", "신용 스프레드"), ("다음 FOMC 언제야?", "향후 일정"),
    ("금 가격 추이", "out_of_scope:unheld_assets:금 가격"), ("연준 의장 누구야", "out_of_scope:general:누구야"),
    ("Will the Fed cut rates next month?", "out_of_scope:forecast:will the"),
])  # fmt: skip
def test_what_is_not_held_is_named(lexicon: Lexicon, question: str, missing: str) -> None:
    frame = read(lexicon, question, kinds=MACRO_KINDS)
    assert missing in frame.unknown_words + frame.notes, (frame.unknown_words, frame.notes)
    if question.startswith(("유로", "한국 국채", "미국 30년")):
        assert not [e for e in frame.of("series") if e.key in ("KR_USDKRW", "DGS10")]
    assert frame.period is None or not frame.period.label.startswith("30")


@pytest.mark.parametrize("question", [
    "미국 기준금리 언제쯤 인하될 것 같아?", "CPI 다음 달에 얼마 나올 것 같아", "미국 금리 더 올릴 여지 있어?",
    "금리 인하 가능성 얼마나 돼?", "금리 고점 찍은 거 맞죠?", "나스닥 지금 거품이야?", "원달러 환율 더 오를 것 같아?",
    "Is the won going to weaken further?", "Is inflation likely to come down?", "Where is the base rate heading?",
    "현대차 주가 전망", "원달러 환율 전망?",
])  # fmt: skip
def test_macro_forecasts_are_named(lexicon: Lexicon, question: str) -> None:
    assert _advice(read(lexicon, question, kinds=MACRO_KINDS))


@pytest.mark.parametrize("question", [
    "금리 인상 기간 동안 코스피 수익률", "기준금리 인하 횟수는?", "미국 금리 인상 시기 환율은 어땠어?",
    "When did the Fed cut rates?", "How much did the Fed raise rates in 2022?", "Did inflation cool in 2024?",
    "기준금리 고점 찍은 날은?", "금리를 올릴 때 주택가격은 어떻게 움직였어?",
])  # fmt: skip
def test_past_policy_moves_are_data_not_forecasts(lexicon: Lexicon, question: str) -> None:
    assert not _advice(read(lexicon, question, kinds=MACRO_KINDS))


@pytest.mark.parametrize("question", ["Bitcoin ETF", "bitcoin ETF expense ratio", "이더리움 ETF 있어?",
                                      "암호화폐 ETF 중 보수 싼 거", "solana ETF returns"])  # fmt: skip
def test_crypto_on_the_etf_screen_is_named_as_not_held(lexicon: Lexicon, question: str) -> None:
    assert any(n.startswith("out_of_scope:unheld_assets") for n in read(lexicon, question).notes)


@pytest.mark.parametrize(
    "question", ["물타기란?", "손절이 뭐야?", "익절 뜻", "What is dollar-cost averaging?"]
)
def test_trading_words_asked_to_be_defined_are_definitions_not_advice(lexicon: Lexicon,
                                                                      question: str) -> None:  # fmt: skip
    for kinds in (MACRO_KINDS, None):
        frame = read(lexicon, question, **({"kinds": kinds} if kinds else {}))
        assert frame.operation.kind == "define" and not frame.entities, frame.summary_ko()
        assert not [n for n in frame.notes if n.startswith("out_of_scope")]


@pytest.mark.parametrize(
    "question", ["QT가 뭐야", "What does basis point mean?", "테일러 준칙이 뭐야?"]
)
def test_terms_are_defined_not_read_as_tickers_or_averages(lexicon: Lexicon, question: str) -> None:
    frame = read(lexicon, question, kinds=MACRO_KINDS)
    assert frame.operation.kind == "define" and not frame.unknown_words


def test_history_keeps_each_answers_frame_and_codes(lexicon: Lexicon) -> None:
    frame = read(lexicon, "배당 ETF 목록")
    answer = AgentAnswer(answer="…", mode="offline", status="ok",
                         payload={"followup": {"frame": frame.model_dump(mode="json"),
                                               "result": ["069500"]}})  # fmt: skip
    history = history_after([], "배당 ETF 목록", answer)
    assert [m.role for m in history] == ["user", "assistant"]
    got, codes = previous_context(history)
    assert got == frame and codes == ["069500"]
    rejected = AgentAnswer(answer="x", mode="offline", status="error",
                           payload={"input_rejected": True})  # fmt: skip
    assert history_after(history, "", rejected) == history  # refused input is not conversation
    assert previous_context([HistoryMessage("assistant", "plain")]) == (None, [])


def test_frame_summary_is_one_korean_line(lexicon: Lexicon) -> None:
    summary = read(lexicon, "현대차 비중이 3% 넘는 ETF 전부").summary_ko()
    assert summary == "연산=조건 거르기 · 대상=현대차(종목) · 측정=비중 · 조건 > 3% · 관계=보유 ETF"


@pytest.mark.parametrize(
    ("question", "comparator"),
    [("보수가 0.3%를 넘지 않는 반도체 ETF", "<="), ("비중 5% 이상이 아닌 삼성전자 보유 ETF", "<"),
     ("ETFs with fees not above 0.1%", "<="), ("ETFs with fees above 0.1%", ">")],
)  # fmt: skip
def test_a_negated_comparator_turns_around(
    lexicon: Lexicon, question: str, comparator: str
) -> None:
    assert read(lexicon, question).operation.comparator == comparator


@pytest.mark.parametrize(
    ("question", "top_n"),
    [("반도체 ETF 중 보수 싼 거 세 개", 3), ("보수 제일 낮은 ETF 두개", 2),
     ("two cheapest S&P500 ETFs", 2), ("top three semiconductor ETFs by fee", 3),
     ("ETFs with the three lowest fees", 3), ("반도체 ETF 다섯 곳 보수 낮은 순", 5)],
)  # fmt: skip
def test_counting_words_are_numbers(lexicon: Lexicon, question: str, top_n: int) -> None:
    assert read(lexicon, question).operation.top_n == top_n


@pytest.mark.parametrize(
    ("question", "noted"),
    [("KODEX 200 지금 가격", False), ("금 가격 알려줘", True), ("KODEX 200 운용사야?", False),
     ("반도체 ETF 사야 할까?", True), ("삼성전자 회사채 수익률", True)],
)  # fmt: skip
def test_scope_words_tied_to_word_starts(lexicon: Lexicon, question: str, noted: bool) -> None:
    """'지금 가격' holds '금 가격' and '운용사야' holds '사야': neither is gold nor advice."""
    notes = [n for n in read(lexicon, question).notes if n.startswith("out_of_scope:")]
    assert bool(notes) is noted, notes


def test_most_recent_is_the_latest_not_a_maximum(lexicon: Lexicon) -> None:
    frame = read(lexicon, "KODEX 200 가장 최근 가격")
    assert frame.operation.kind == "lookup" and frame.operation.aggregate is None
    assert frame.operation.top_n is None


def test_a_manager_by_its_nickname_or_series(lexicon: Lexicon) -> None:
    for question in ("KODEX 시리즈 평균 보수", "Samsung AM ETFs average fee", "삼성 ETF 평균 보수"):
        assert [e.key for e in read(lexicon, question).of("manager")] == ["삼성자산운용"], question


def test_how_two_funds_differ_is_a_comparison(lexicon: Lexicon) -> None:
    assert read(lexicon, "KODEX 200 TIGER 200 차이점").operation.kind == "compare"
    assert read(lexicon, "KODEX 200 TIGER 200 보수 차이").operation.kind == "difference"


def test_inclusion_without_a_window_is_the_holdings(lexicon: Lexicon) -> None:
    assert read(lexicon, "KODEX 200 편입 상위 3종목").relation == "holdings"
    assert read(lexicon, "KODEX 200 최근 1개월 편입된 종목").relation == "holdings_changes"


def test_counting_a_one_item_list_counts_the_list(lexicon: Lexicon) -> None:
    previous = read(lexicon, "반도체 ETF 중 보수 0.1% 이하")
    frame = read(lexicon, "그럼 몇 개?", previous=previous, previous_result=["091160"])
    assert frame.reference == "subset" and frame.previous_result == ["091160"]


@pytest.mark.parametrize(
    ("question", "series", "unknown"),
    [("유로 환율 알려줘", [], "다른 통화 환율"), ("엔화 환율은?", [], "다른 통화 환율"),
     ("원달러 환율이랑 엔화", ["KR_USDKRW"], "다른 통화 환율"),
     ("한미 실업률 차이", ["KR_UNEMPLOYMENT", "UNRATE"], None),
     ("difference between US and Korea unemployment rate", ["KR_UNEMPLOYMENT", "UNRATE"], None),
     ("미 국채 10년 금리 지금", ["DGS10"], None), ("미국 10년물 국채 금리 최근", ["DGS10"], None)],
)  # fmt: skip
def test_currencies_country_pairs_and_maturities(
    lexicon: Lexicon, question: str, series: list[str], unknown: str | None
) -> None:
    """'엔화 환율' is not the 원/달러 rate; '한미' names both countries; 'unemployment rate' is
    one topic (its 'rate' is no policy rate); '10년' after 국채 is a maturity, not a window."""
    frame = read(lexicon, question, kinds=MACRO_KINDS)
    assert sorted(e.key for e in frame.of("series")) == sorted(series)
    assert (unknown in frame.unknown_words) if unknown else not frame.unknown_words
    assert frame.period is None


def test_last_month_as_a_basis_is_month_over_month(lexicon: Lexicon) -> None:
    frame = read(lexicon, "한국 소비자물가 지난달 대비 얼마나 올랐어", kinds=MACRO_KINDS)
    assert frame.operation.change_basis == "mom" and frame.period is None


@pytest.mark.parametrize(("question", "kind", "basis"), [
    ("한국 소비자물가 월간 상승률", None, "mom"), ("미국 금리가 한국보다 얼마나 높아?", "difference", None),
    ("미국 CPI 작년이랑 비교하면?", None, "yoy"),
])  # fmt: skip
def test_bases_and_gaps_in_everyday_words(
    lexicon: Lexicon, question: str, kind: str | None, basis: str | None
) -> None:
    op = read(lexicon, question, kinds=MACRO_KINDS).operation
    assert (kind is None or op.kind == kind) and op.change_basis == basis


@pytest.mark.parametrize("followup", ["그럼 10년짜리는?", "and the 10-year?", "10년물도 알려줘"])
def test_another_maturity_replaces_the_series(lexicon: Lexicon, followup: str) -> None:
    previous = read(lexicon, "미국 2년물 금리", kinds=MACRO_KINDS)
    frame = read(lexicon, followup, kinds=MACRO_KINDS, previous=previous)
    assert [e.key for e in frame.of("series")] == ["DGS10"] and frame.period is None


@pytest.mark.parametrize(("question", "group", "kind", "aggregate"), [
    ("운용사별 평균 보수", "manager", "aggregate", "avg"), ("운용사별 ETF 개수", "manager", "aggregate", "count"),
    ("average fee by manager", "manager", "aggregate", "avg"), ("테마별 ETF 수", "tag", "aggregate", "count"),
    ("운용사별로 보수 가장 싼 ETF", "manager", "rank", None), ("KODEX 200 보수", None, "lookup", None),
])  # fmt: skip
def test_per_group_questions(
    lexicon: Lexicon, question: str, group: str | None, kind: str, aggregate: str | None
) -> None:
    op = read(lexicon, question).operation
    assert (op.group_by, op.kind, op.aggregate) == (group, kind, aggregate)


def test_a_second_region_before_a_regional_series_is_coordinated(lexicon: Lexicon) -> None:
    """'한국 미국 실업률 비교' is both countries' unemployment; '한국 2년물 금리' stays a series we
    lack (the US 2-year's alias names no region of its own)."""
    both = read(lexicon, "한국 미국 실업률 비교", kinds=MACRO_KINDS)
    assert sorted(e.key for e in both.of("series")) == ["KR_UNEMPLOYMENT", "UNRATE"]
    assert not both.unknown_words


def test_a_short_word_inside_another_is_not_a_name(lexicon: Lexicon) -> None:
    assert not read(lexicon, "삼성전자 이유가 뭐야", kinds=MACRO_KINDS).of("index")
    assert read(lexicon, "유가 최근 추이", kinds=MACRO_KINDS).of("index")  # the word itself is


@pytest.mark.parametrize("question", ["KODEX 평균 보수", "삼성에서 운용하는 ETF 보수 평균",
                                      "삼성자산 ETF들 평균 보수", "the average fee of Samsung's ETFs",
                                      "average expense ratio KODEX"])  # fmt: skip
def test_a_house_by_its_brand_or_a_short_form(lexicon: Lexicon, question: str) -> None:
    assert [e.key for e in read(lexicon, question).of("manager")] == ["삼성자산운용"]
    assert not read(lexicon, "KODEX 200 보수").of("manager")  # a name, not the house


@pytest.mark.parametrize(("question", "stocks"), [
    ("삼성전자의 주가", ["005930"]), ("삼성전자주가 알려줘", ["005930"]), ("SK하이닉스랑 삼성전자", ["000660", "005930"]),
    ("삼성전자에서는", ["005930"]), ("SK하이닉스이노텍 주가", []), ("삼성전자서비스 주가", []),
])  # fmt: skip
def test_a_name_that_runs_on_is_another_company(
    lexicon: Lexicon, question: str, stocks: list[str]
) -> None:
    """'LG헬로비전' is not LG, '카카오모빌리티' not 카카오: a held name inside a longer word names
    a company we do not hold, unless the rest is a particle or a question word."""
    assert sorted(e.key for e in read(lexicon, question, kinds=MACRO_KINDS).of("stock")) == sorted(
        stocks
    )


@pytest.mark.parametrize(("question", "comparator", "measure"), [
    ("KODEX 200보다 보수 싼 ETF", "<", "expense_ratio"), ("ETFs cheaper than TIGER 200", "<", "expense_ratio"),
    ("KODEX 반도체보다 1년 수익률 높은 반도체 ETF", ">", "return"),
])  # fmt: skip
def test_an_etf_as_the_bar_of_a_filter(
    lexicon: Lexicon, question: str, comparator: str, measure: str
) -> None:
    frame = read(lexicon, question)
    op = frame.operation
    assert (op.kind, op.comparator, op.filter_measure) == ("filter", comparator, measure)
    assert op.threshold_of is not None and not frame.of("etf")  # the bar, not the subject


def test_a_term_alone_or_beside_a_data_ask(lexicon: Lexicon) -> None:
    """'스프레드?' alone is a definition; '스프레드가 뭐야? 지금 장단기 스프레드는 얼마야?' keeps the
    data ask and the term to define ('spread', the one the cue follows)."""
    assert read(lexicon, "스프레드?", kinds=MACRO_KINDS).operation.kind == "define"
    both = read(lexicon, "스프레드가 뭐야? 지금 장단기 스프레드는 얼마야?", kinds=MACRO_KINDS)
    assert both.operation.kind == "difference" and both.definition_term == "spread"
    assert read(lexicon, "장단기 스프레드 얼마야", kinds=MACRO_KINDS).definition_term is None


def test_initials_as_they_are_said() -> None:
    from agents.understanding.lexicon import spelled_initials

    assert spelled_initials("SK하이닉스") == "에스케이하이닉스"
    assert spelled_initials("삼성SDI") == "삼성에스디아이"
    assert spelled_initials("NAVER") == "NAVER" and spelled_initials("POSCO홀딩스") == "POSCO홀딩스"


@pytest.mark.parametrize(("question", "kind"), [
    ("Korea's unemployment rate vs the US", "compare"), ("한국 실업률 - 미국 실업률", "difference"),
    ("Korean and US jobless rates, what's the spread?", "difference"),
])  # fmt: skip
def test_two_countries_compared_in_everyday_ways(
    lexicon: Lexicon, question: str, kind: str
) -> None:
    """' vs' after a word, a minus sign between two series, 'what's the spread' of two
    countries' jobless rates: a comparison of both unemployment series, never a definition."""
    frame = read(lexicon, question, kinds=MACRO_KINDS)
    assert frame.operation.kind == kind
    assert sorted(e.key for e in frame.of("series")) == ["KR_UNEMPLOYMENT", "UNRATE"]


def test_as_many_similar_funds_as_asked(lexicon: Lexicon) -> None:
    frame = read(lexicon, "KODEX 200과 비슷한 ETF 3개")
    assert frame.relation == "similar" and frame.operation.top_n == 3


def test_a_universe_name_is_not_a_top_n(lexicon: Lexicon) -> None:
    assert read(lexicon, "KR Top50 거래대금 상위 5개", kinds=MACRO_KINDS).operation.top_n == 5


@pytest.mark.parametrize(("question", "kind", "term"), [
    ("what is the US unemployment rate", "lookup", None), ("What is the latest US CPI?", "lookup", None),
    ("실업률이란?", "define", None), ("What does CPI mean?", "define", None),
])  # fmt: skip
def test_what_is_asks_a_figure_when_a_country_is_named(
    lexicon: Lexicon, question: str, kind: str, term: str | None
) -> None:
    frame = read(lexicon, question, kinds=MACRO_KINDS)
    assert frame.operation.kind == kind and frame.definition_term == term


@pytest.mark.parametrize("question", ["top 5 ETFs by 1-year return",
                                      "What are the five best-performing ETFs over 1 year?",
                                      "best performing ETFs over the past year top 5"])  # fmt: skip
def test_a_ranking_count_is_no_threshold(lexicon: Lexicon, question: str) -> None:
    """'five best-performing … over 1 year': 5 is how many, not 'over 5'; 'top' is no ETF name."""
    op = read(lexicon, question).operation
    assert (op.kind, op.top_n, op.comparator) == ("rank", 5, None)


@pytest.mark.parametrize(
    "followup", ["and year over year?", "over the last 6 months?", "past year change?"]
)
def test_an_english_follow_up_of_modifiers_keeps_the_series(
    lexicon: Lexicon, followup: str
) -> None:
    previous = read(lexicon, "US CPI latest", kinds=MACRO_KINDS)
    frame = read(lexicon, followup, kinds=MACRO_KINDS, previous=previous)
    assert [e.key for e in frame.of("series")] == ["CPIAUCSL"] and frame.reference == "same"


def test_follow_ups_over_two_funds_and_onto_holdings(lexicon: Lexicon) -> None:
    first = read(lexicon, "KODEX 200 info")
    second = read(lexicon, "and TIGER 200?", previous=first)
    both = read(lexicon, "which is cheaper?", previous=second)
    assert sorted(e.key for e in both.of("etf")) == ["069500", "102110"]
    holders = read(lexicon, "삼성전자 많이 담은 ETF")
    cheapest = read(
        lexicon, "그 중 보수 제일 싼 거", previous=holders, previous_result=["069500", "102110"]
    )
    top = read(lexicon, "그거 상위 5개 종목", previous=cheapest, previous_result=["102110"])
    assert top.relation == "holdings" and [e.key for e in top.of("etf")] == ["102110"]


def test_which_of_the_two_moved_more_compares_them(lexicon: Lexicon) -> None:
    """'서울 … 1년 변화' → '부산은?' → '둘 중 어디가 더 많이 올랐어?': both moves, compared."""
    first = read(lexicon, "삼성전자 3개월 수익률", kinds=MACRO_KINDS)
    second = read(lexicon, "SK하이닉스는?", kinds=MACRO_KINDS, previous=first)
    both = read(lexicon, "둘 중 어디가 더 많이 올랐어?", kinds=MACRO_KINDS, previous=second)
    assert both.operation.kind == "compare" and len(both.of("stock")) == 2


def test_the_other_end_of_a_ranking_and_index_numbers(lexicon: Lexicon) -> None:
    """'and the worst?' after '…best 6-month return' among a listed set ranks the same set the
    other way; '꼴찌는?' after a theme's 1위 the same theme; 'Nasdaq 100' is no top 100."""
    listed = read(lexicon, "List dividend ETFs")
    best = read(lexicon, "which one has the best 6-month return?", previous=listed,
                previous_result=["A", "B", "C"])  # fmt: skip
    assert best.reference == "subset" and best.operation.direction == "desc"
    worst = read(lexicon, "and the worst?", previous=best, previous_result=["A"])
    assert worst.reference == "subset" and worst.previous_result == ["A", "B", "C"]
    assert worst.operation.direction == "asc" and worst.measure() == "return"
    assert worst.period is not None and worst.period.label == "6m"
    top = read(lexicon, "반도체 ETF 중 1년 수익률 1위")
    last = read(lexicon, "꼴찌는?", previous=top, previous_result=["091160"])
    assert [e.key for e in last.of("tag")] == [e.key for e in top.of("tag")] and not last.of("etf")
    assert last.operation.direction == "asc"
    assert read(lexicon, "Cheapest Nasdaq 100 ETF").operation.top_n == 1
    assert read(lexicon, "Top 3 Nasdaq 100 ETFs by 1-year return").operation.top_n == 3


@pytest.mark.parametrize(("question", "measure"), [("요즘 잘 나가는 ETF", "return"),
                                                  ("거래 제일 활발한 ETF", "volume")])  # fmt: skip
def test_everyday_words_for_a_ranked_set(lexicon: Lexicon, question: str, measure: str) -> None:
    frame = read(lexicon, question)
    assert (frame.operation.kind, frame.measure()) == ("rank", measure)


@pytest.mark.parametrize(("question", "stocks"), [
    ("카카오 모빌리티 주가", []), ("Kakao Mobility stock", []), ("SK하이닉스 주가", ["000660"]),
    ("삼성전자 반도체 부문", ["005930"]),
])  # fmt: skip
def test_a_company_word_after_a_space_names_another_company(
    lexicon: Lexicon, question: str, stocks: list[str]
) -> None:
    """'카카오 모빌리티' is not 카카오: a company word (모빌리티, 증권, 카드 …) right after a held
    name, with no held name for the whole, is another company; a theme word is not."""
    lx = Lexicon(stocks={"000660": ("SK하이닉스", "SK hynix"), "005930": ("삼성전자", "Samsung Electronics"),
                         "035720": ("카카오", "Kakao")})  # fmt: skip
    assert sorted(e.key for e in read(lx, question, kinds=MACRO_KINDS).of("stock")) == stocks


def _advice(frame: QuestionFrame) -> bool:
    return any(n.startswith("out_of_scope:forecast") for n in frame.notes)


@pytest.mark.parametrize("question", [
    # a trade verb in any form joined with an ending that asks whether to (the advice grammar)
    "KODEX 200 계속 들고 있어도 돼?", "KODEX 200 손절해야 하나요", "어떤 ETF에 투자해야 돼?",
    "1000만원 있는데 어디에 넣을까?", "TIGER 200 담을까?", "TIGER 200 보유해도 괜찮을까요?",
    "KODEX 200 사는 게 나을까요 아니면 TIGER 200?", "반도체 ETF 갈아타야 할까", "TIGER 200 팔면 좋을까",
    # advice without a measure; outlooks and price targets
    "초보자에게 좋은 ETF는?", "안전한 ETF 뭐야?", "노후 대비로 어떤 ETF가 좋아?", "앞으로 오를 ETF는?",
    "ETF 포트폴리오 짜줘", "KODEX 200 전망 어때?", "KODEX 200 목표가는?", "best ETF to buy",
    "What ETF will go up next month?", "Should I hold TIGER 200?",
    # English askers joined with trade verbs; opinions and valuations
    "Would you buy TIGER 200 here?", "Is now a good time to get into KODEX 200?",
    "Should I take profits on TIGER 200?", "Do you think KODEX 200 is overvalued?",
    "KODEX 200 비중 늘릴까요?", "KODEX 200 어떻게 생각해?", "ETF 뭐가 나아?",
    # trying, keeping, adding: '-어 볼까', '-어 둘까', '추가 매수', 'hold or sell'
    "KODEX 200에 돈 넣어볼까?", "KODEX 200 사 볼까?", "KODEX 200 사둘까?", "KODEX 200 추가 매수?",
    "KODEX 200 hold or sell?", "Good entry point for TIGER 200?", "KODEX 200 지금 사면 수익 날까?",
    "이 ETF 장기 보유 괜찮나요",
    # how to place money, when to trade, a point ahead of the data
    "여유자금 500만원 어떻게 굴릴까?", "KODEX 200 존버?", "KODEX 200 언제 팔아?", "When should I sell TIGER 200?",
    "3년 뒤 KODEX 200 가격은?", "What will KODEX 200 be worth a year from now?", "KODEX 200 1년 후 수익률 예상",
    "KODEX 200 비중을 포트폴리오에서 몇 %로 가져가야 해?", "레버리지 ETF 위험해?", "KODEX 200 사는 거 어때?",
    "Is KODEX 200 a good long-term hold?", "I'm thinking of buying KODEX 200", "KODEX 200 살려고 하는데",
    # when to trade: a verb's future form or a trade noun with a timing word, a nominal form
    "TIGER 200 팔 타이밍인가", "TIGER 200 지금이 살 때야?", "TIGER 200 매도 시점 알려줘",
    "지금 반도체 ETF에 들어가기엔 늦었나요?", "KODEX 200 사기에 적당한 때인가요",
    # more trade verbs and judgement endings: 옮기다, 진입하다, 청산하다, 타다, '-는 건 무리'
    "TIGER 200 팔고 KODEX 200으로 옮기는 게 맞나요?", "KODEX 200 지금 진입해도 되나",
    "KODEX 200 청산하는 게 낫겠죠?", "반도체 ETF 지금 타도 돼?", "이 가격에 KODEX 200 사는 건 무리일까",
    "너라면 KODEX 200 살래?", "KODEX 200 추매 각?", "코덱스200 매수 ㄱㄱ?", "KODEX 200 보유 유지 vs 매도?",
    "TIGER 200 수익 실현할까요", "KODEX 200 지금 안 사면 후회할까요", "KODEX 200 사려는데 괜찮은 선택일까요",
    # moves asked of the future: '-ㄹ 것 같', nouns, a move after a point ahead, English modals
    "TIGER 200 더 떨어질 것 같아?", "KODEX 200 상승 여력 있어?", "KODEX 200 바닥 찍었나요?",
    "KODEX 200 반등 나올까", "KODEX 200 오늘 사면 내일 오르나요?", "Will KODEX 200 rise tomorrow?",
    "Can KODEX 200 recover?", "Is KODEX 200 going to keep falling?", "How high can KODEX 200 go?",
    "Is it a good idea to buy KODEX 200?", "Is TIGER 200 a sell?", "Time to buy KODEX 200?",
    "Would buying KODEX 200 now be a mistake?", "What should I do with my KODEX 200?",
    # spacing as typed ('사는게 맞아'), '-어 두다' forms, worth and season words, holding long
    "KODEX 200 지금 사는게 맞아?", "금 ETF 사둘 만해?", "KODEX200 살가치 있음?", "타이거 200 팔아 말아",
    "채권 ETF 지금 담기 좋은 시기인가요", "KODEX 200 사서 1년 묵히면 어때", "TIGER 200 지금 팔면 바보일까?",
    "코덱스 200 매수각인가요", "인버스 ETF로 헤지해야 할까요?", "I'm holding KODEX 200 at a loss, sell or wait?",
    "Any buy recommendations among semiconductor ETFs?",
    # '-어 버리다', waiting, '-면 안 되나', late-cycle words; English askers of sense and timing
    "KODEX 200 팔아버릴까 생각 중", "나스닥 ETF 조정 올 때까지 기다릴까", "KODEX 200 지금 사면 안 되나요?",
    "반도체 ETF는 이제 끝물인가요?", "Is it too early to buy KODEX 200?", "Is KODEX 200 likely to go higher?",
    "Does it make sense to add to KODEX 200 now?", "What's your pick between KODEX 200 and TIGER 200?",
    # opportunities, attractiveness, strategies, stop levels, the asker's own portfolio
    "KODEX 200 저가 매수 기회인가요?", "Is this a buying opportunity for KODEX 200?", "TIGER 200 지금 가격이면 매력적이야?",
    "레버리지 ETF 단기 매매 전략 알려줘", "What's a good stop-loss for TIGER 200?", "KODEX 200 리밸런싱 해야 할까?",
    "내 포트에서 반도체 비중 몇 %가 적당해?", "How much of my portfolio should be in KODEX 200?",
    "반도체 ETF 포트폴리오에 편입할까요?", "이 정도 떨어졌으면 KODEX 200 주워도 되나",
    # opinions asked, merit, carrying on, cashing out; English worth/bet/gerund forms
    "KODEX 200 지금 들어가는 거 어떻게 보세요?", "KODEX 200 이 가격 메리트 있나요?",
    "TIGER 200 좀 더 들고 갈 만한가요", "KODEX 200 매도하고 현금화할까", "Is TIGER 200 worth holding?",
    "Is KODEX 200 a safe bet?", "Do you see KODEX 200 going up?", "Would you be buying TIGER 200 right now?",
    "TIGER 200 손실인데 버틸까요", "KODEX 200 지금 사기 적절한 시점?", "Would adding KODEX 200 be wise?",
    "Can you tell me whether to buy TIGER 200?",
])  # fmt: skip
def test_advice_in_its_many_forms_is_declined(lexicon: Lexicon, question: str) -> None:
    frame = read(lexicon, question)
    assert _advice(frame), frame.notes
    assert frame.operation.kind != "define"  # '안전한 ETF 뭐야?' asks which ETF, not what one is


@pytest.mark.parametrize("question", [
    "수익률 좋은 ETF 3개", "성과 좋은 반도체 ETF", "운용사야?", "회사도 알려줘", "ETF 총보수란?",
    "KODEX 200이랑 비슷한 ETF 추천해줘", "삼성전자 사업보고서 정리해줘", "KODEX 200 최근 1년 수익률",
    "삼성전자 매수 상위 ETF", "사이즈가 큰 ETF", "KODEX 200 vs TIGER 200 보수는 어디가 나아?",
    "KODEX 200 vs TIGER 200 어디가 나아?",  # two named funds: compared on the facts
    "Which has the better 1-year return, KODEX 200 or TIGER 200?",
    "What do the holdings suggest about KODEX 200?", "KODEX 200 차트 볼까", "KODEX 200 보유 종목 보여줘",
    "KODEX 200 추가 상장 종목", "1년 전 KODEX 200 종가", "KODEX 200 1년 전 대비", "삼성전자 EPS 예상치",
    "레버리지 ETF 변동성 얼마나 커?",
    # the same verbs, nouns and modals asking for data: a summary, a return by entry point,
    # a stated plan with a measure, a past move, a move as a condition, a request to show
    "KODEX 200 보유 종목 표로 정리해줘", "KODEX 200 수익률 정리하면 좋겠어", "KODEX 200 매수 시점별 수익률",
    "KODEX 200 사려는데 보수가 얼마야?", "I want to buy KODEX 200, what's its expense ratio?",
    "Can you show KODEX 200's price over the last year?", "Could you compare KODEX 200 and TIGER 200 fees?",
    "Which ETFs lost the most last month?", "How much did TIGER 200 drop in October?",
    "Did KODEX 200 recover its losses since March?", "금리가 오를 때 채권 가격은 어떻게 돼?",
    "코스피가 하락할 때 오른 ETF", "ETF 팔 때 세금은?", "외국인 매수 상위 ETF",
    "Which ETFs would have lower fees than KODEX 200?", "KODEX 200 1년 전에 샀으면 지금 수익률은?",
    "What would the return be if I bought KODEX 200 a year ago?", "KODEX 200 안 되는 이유",
    "KODEX 200에 새로 편입된 종목", "아파트 매매가격 전년 대비", "Is KODEX 200 up this year?",
    "What would I have earned holding KODEX 200 for a year?", "KODEX 200 매수할 때 드는 보수는?",
    "Show me ETFs that fell more than 10% this year", "Can I see ETFs falling the most this month?",
])  # fmt: skip
def test_data_questions_near_advice_words_are_not_advice(lexicon: Lexicon, question: str) -> None:
    assert not _advice(read(lexicon, question))


@pytest.mark.parametrize("question", [
    "KODEX 200 vs TIGER 200 어디가 나아?", "KODEX 200이 좋아요 TIGER 200이 좋아요?",
    "Which is a better investment, KODEX 200 or TIGER 200?",
])  # fmt: skip
def test_which_of_two_funds_to_buy_is_compared_with_the_judgement_said(lexicon: Lexicon,
                                                                        question: str) -> None:  # fmt: skip
    frame = read(lexicon, question)
    assert not _advice(frame) and any(n.startswith("advice_compared:") for n in frame.notes)
    assert not any(n.startswith("advice_compared:") for n in read(lexicon, "KODEX 200이랑 TIGER 200 "
                                                                   "보수 비교").notes)  # fmt: skip


@pytest.mark.parametrize(("question", "name"), [
    ("쿠팡 주가 왜 떨어졌어?", "쿠팡"), ("쿠팡의 주가", "쿠팡"), ("쿠팡주가 추이", "쿠팡"),
    ("Why did Sony shares fall?", "Sony"), ("Coupang stock reaction to FOMC", "Coupang"),
    ("SK 에너지 주가", "SK 에너지"), ("토스 기업가치", "토스"), ("한화에너지 비중 높은 ETF", "한화에너지"),
    # no company cue: the subject of a move, a why, a stock measure or a comparison
    ("쿠팡 왜 떨어졌어?", "쿠팡"), ("쿠팡 최근 한 달 어땠어?", "쿠팡"), ("How did Coupang do last month?", "Coupang"),
    ("Why did Coupang drop?", "Coupang"), ("쿠팡 3개월 수익률", "쿠팡"), ("쿠팡 52주 최고가", "쿠팡"),
    ("현대차와 토요타 주가 비교", "토요타"), ("삼성전자랑 토요타 비교", "토요타"),
])  # fmt: skip
def test_a_company_we_do_not_hold_is_named_as_missing(lexicon: Lexicon, question: str,
                                                       name: str) -> None:  # fmt: skip
    frame = read(lexicon, question, kinds=MACRO_KINDS)
    assert f"unheld_company:{name}" in frame.notes
    assert not frame.of("sector")  # 'SK 에너지' is not the energy sector


@pytest.mark.parametrize("question", [
    "삼성전자 주가 왜 떨어졌어?", "반도체 주가 왜 빠졌어?", "요즘 주식시장 왜 떨어져?", "코스피 주가 추이",
    "대형주 주가 어때?", "미국 주식 요즘 어때?", "Why did tech stocks fall?", "How is the stock market doing?",
    "Which stock fell the most this month?", "KODEX 200 주가", "이 회사 주가", "삼성전자 전기 대비 실적",
    "2차전지 주가 왜 올랐어",
    # verbs, sector-stock words and question words beside a why or a move
    "요즘 증시 왜 이렇게 빠져?", "부동산 가격 왜 오르는 거야?", "실업률 어떻게 됐어?", "원전주 어때?",
    "통신주 PER", "금리 인하가 부동산에 미친 영향", "미중 무역분쟁 영향 받은 종목", "PER 뜻이 뭐야",
    "What's the 6-month return of TIGER 200?", "KODEX 200 보유 종목 상위 3개 비중 합계",
    "FOMC 발표 후 시장 분위기 어땠어", "Why did yields rise?", "How did bank stocks do?",
    "KODEX 200 closing price on October 15", "Korea-US policy rate gap", "그때 무슨 일 있었어?",
    "한국 실업률은 미국보다 몇 %p 낮아?", "TIGER 200 사이즈 비교",
])  # fmt: skip
def test_question_words_before_a_company_cue_are_not_companies(lexicon: Lexicon,
                                                               question: str) -> None:  # fmt: skip
    kinds = MACRO_KINDS | {"etf"}
    assert not [n for n in read(lexicon, question, kinds=kinds).notes
                if n.startswith("unheld_company")]  # fmt: skip


def test_a_company_we_do_not_hold_is_not_the_previous_subject(lexicon: Lexicon) -> None:
    """'쿠팡은?' after 삼성전자 asks about 쿠팡: it is said, not answered as 삼성전자."""
    previous = read(lexicon, "삼성전자 주가", kinds=MACRO_KINDS)
    frame = read(lexicon, "쿠팡은?", kinds=MACRO_KINDS, previous=previous)
    assert "unheld_company:쿠팡" in frame.notes
    assert not frame.of("stock") and frame.reference is None


@pytest.mark.parametrize("question", [
    "KODEX 200이랑 TIGER 200 무슨 차이야?", "What's the difference between KODEX 200 and TIGER 200?",
    "삼성전자랑 SK하이닉스 뭐가 달라?",
])  # fmt: skip
def test_what_differs_between_two_named_funds_is_a_comparison(lexicon: Lexicon,
                                                              question: str) -> None:  # fmt: skip
    assert read(lexicon, question).operation.kind == "compare"
    # with a measure it is the gap of that figure
    assert read(lexicon, "KODEX 200이랑 TIGER 200 보수 차이가 뭐야?").operation.kind == "difference"


def test_a_count_asked_beside_an_average_is_kept(lexicon: Lexicon) -> None:
    """'몇 개고 평균 보수는?' asks both: the average, with the count beside it."""
    op = read(lexicon, "삼성자산운용 ETF 몇 개고 평균 보수는?").operation
    assert (op.aggregate, op.also_count) == ("avg", True)
    assert not read(lexicon, "삼성자산운용 ETF 평균 보수").operation.also_count


@pytest.mark.parametrize(("question", "manager"), [
    ("ETFs run by Samsung AM", "삼성자산운용"), ("How many ETFs does Samsung AM run?", "삼성자산운용"),
])  # fmt: skip
def test_a_house_short_name_that_means_the_house_alone(lexicon: Lexicon, question: str,
                                                       manager: str) -> None:  # fmt: skip
    assert [e.key for e in read(lexicon, question).of("manager")] == [manager]


def test_a_house_we_do_not_hold_is_not_the_whole_market(lexicon: Lexicon) -> None:
    """'삼성액티브자산운용' is another house (it had been answered with every ETF's average);
    '삼성자산운용' and an industry word ('석유화학') are not flagged."""
    frame = read(lexicon, "삼성액티브자산운용 ETF 평균 보수")
    assert "unheld_company:삼성액티브자산운용" in frame.notes
    for question in ("삼성자산운용 ETF 평균 보수", "석유화학 ETF", "국내증권 ETF"):
        assert not [n for n in read(lexicon, question).notes if n.startswith("unheld")], question


def test_the_head_index_finds_what_a_full_scan_finds() -> None:
    """find_phrases searches only phrases whose first two characters occur in the text; on the
    whole out-of-scope vocabulary it must find exactly what scanning every phrase finds."""
    from agents.understanding.vocabulary import _word_ok, find_phrases, vocabulary

    groups = vocabulary()["out_of_scope"]
    phrases = sorted(((label, p.lower()) for label, ps in groups.items() for p in ps if p.strip()),
                     key=lambda lp: -len(lp[1].removeprefix("^")))  # fmt: skip

    def full_scan(text: str) -> list[tuple[str, int]]:
        taken, hits = [False] * len(text), []
        for label, raw in phrases:
            phrase, tied = raw.removeprefix("^"), raw.startswith("^")
            at = text.find(phrase)
            while at != -1:
                end = at + len(phrase)
                if (not any(taken[at:end]) and _word_ok(text, phrase, at, end)
                        and not (tied and at > 0 and (text[at - 1].isalnum()))):  # fmt: skip
                    taken[at:end] = [True] * (end - at)
                    hits.append((label, at))
                at = text.find(phrase, at + 1)
        return sorted(hits, key=lambda h: h[1])

    for text in ("kodex 200 지금 사도 돼?", "운용사야?", "should i buy tiger 200 or sell it?",
                 "내일 금 가격 오를까 아니면 팔아야 할까", "초보자에게 좋은 etf 추천 좀", "날씨 어때"):  # fmt: skip
        assert [(h.label, h.start) for h in find_phrases(text, groups)] == full_scan(text), text


@pytest.mark.parametrize("question", [
    "삼성 쪽 ETF 평균 보수", "삼성에서 나온 ETF 평균 총보수", "코덱스 평균 보수", "코덱스 ETF들 평균 총보수",
])  # fmt: skip
def test_a_house_by_its_brand_in_hangul_or_a_looser_phrase(lexicon: Lexicon, question: str) -> None:
    """These had been answered with every ETF's average."""
    assert [e.key for e in read(lexicon, question).of("manager")] == ["삼성자산운용"]


@pytest.mark.parametrize(("question", "direction"), [
    ("반도체 ETF 보수 낮은 순", "asc"), ("순자산 큰 순", "desc"), ("보수 낮은 순으로 보여줘", "asc"),
])  # fmt: skip
def test_an_order_closing_the_question_is_a_ranking(lexicon: Lexicon, question: str,
                                                    direction: str) -> None:  # fmt: skip
    op = read(lexicon, question).operation
    assert (op.kind, op.direction) == ("rank", direction)
    assert read(lexicon, "순자산 1조 넘는 ETF").operation.kind == "filter"  # '순자산' is no order


@pytest.mark.parametrize("question", [
    "원달러 환율 이번 달 들어 얼마나 올랐어?", "환율 전월 말 대비", "KODEX 200 month to date return",
    "환율 지난달 말 대비 변화",
])  # fmt: skip
def test_the_month_to_date_is_a_period(lexicon: Lexicon, question: str) -> None:
    frame = read(lexicon, question, kinds=MACRO_KINDS | {"etf"})
    assert frame.period is not None and frame.period.label == "mtd"
    assert read(lexicon, "환율 지난달 대비", kinds=MACRO_KINDS).operation.change_basis == "mom"


def test_size_words_rank_by_net_assets_and_which_of_them_is_the_list(lexicon: Lexicon) -> None:
    """'반도체 ETF 중 제일 큰 거' ranks by net assets; 'which of them is the largest?' after a list
    of many is that list (it had been read as 'which of the two' and not understood)."""
    frame = read(lexicon, "반도체 ETF 중 제일 큰 거")
    assert (frame.measure(), frame.operation.kind, frame.operation.direction) == (
        "net_assets",
        "rank",
        "desc",
    )
    assert read(lexicon, "가장 큰 폭으로 떨어진 ETF").measure() == "return"  # a move, not a size
    previous = read(lexicon, "ETFs with fees under 0.1%")
    frame = read(
        lexicon,
        "which of them is the largest?",
        previous=previous,
        previous_result=["069500", "102110", "360750"],
    )
    assert frame.reference == "subset" and frame.measure() == "net_assets"


def test_a_why_carries_to_a_follow_up_of_the_same_subject(lexicon: Lexicon) -> None:
    """'KODEX 반도체 왜 떨어졌어?' → '3개월로 보면?': the same why over three months."""
    previous = read(lexicon, "KODEX 반도체 왜 떨어졌어?")
    frame = read(lexicon, "3개월로 보면?", previous=previous)
    assert "asks:why" in frame.notes and frame.period is not None and frame.period.label == "3m"
    assert "asks:why" not in read(lexicon, "KODEX 반도체 3개월 수익률").notes


@pytest.mark.parametrize(("question", "kind", "aggregate", "measure"), [
    ("삼성전자 가장 많이 오른 날", "aggregate", "max", "return"),
    ("KODEX 200 최근 3개월 중 가장 많이 떨어진 날", "aggregate", "min", "return"),
    ("VIX 가장 높았던 날", "aggregate", "max", None),
    ("삼성전자 1년 최고가", "aggregate", "max", "high"),
])  # fmt: skip
def test_the_day_of_the_largest_move_is_not_the_highest_close(
    lexicon: Lexicon, question: str, kind: str, aggregate: str, measure: str | None
) -> None:
    """'가장 많이 오른 날' is the largest one-day rise (it had been read as the highest close)."""
    frame = read(lexicon, question, kinds=MACRO_KINDS | {"etf"})
    assert (frame.operation.kind, frame.operation.aggregate, frame.measure()) == (
        kind,
        aggregate,
        measure,
    )


@pytest.mark.parametrize(("question", "kind", "key"), [
    ("삼성 주가", "stock", "005930"), ("Samsung shares", "stock", "005930"),
    ("ETFs that hold both Samsung and SK하이닉스", "stock", "005930"),
    ("삼성 ETF", "manager", "삼성자산운용"), ("Number of ETFs managed by Samsung", "manager", "삼성자산운용"),
])  # fmt: skip
def test_samsung_alone_is_the_stock_unless_the_house_is_meant(lexicon: Lexicon, question: str,
                                                              kind: str, key: str) -> None:  # fmt: skip
    """'삼성' or 'Samsung' is 삼성전자 when no fund word makes it the house ('삼성 ETF',
    'managed by Samsung'); '삼성카드' stays another company."""
    frame = read(lexicon, question)
    assert key in [e.key for e in frame.of(kind)]  # type: ignore[arg-type]
    assert not read(lexicon, "삼성카드 주가", kinds=MACRO_KINDS).of("stock")


@pytest.mark.parametrize(("question", "measure"), [
    ("KODEX 200 1년 동안 최대 낙폭", "drawdown"), ("삼성전자 MDD", "drawdown"),
    ("KODEX 200 max drawdown", "drawdown"),
])  # fmt: skip
def test_a_drawdown_is_its_own_measure(lexicon: Lexicon, question: str, measure: str) -> None:
    assert read(lexicon, question, kinds=MACRO_KINDS | {"etf"}).measure() == measure


@pytest.mark.parametrize("question", ["TIGER 200 환헤지 돼?", "TIGER 200 샤프지수"])
def test_measures_we_do_not_hold_are_named(lexicon: Lexicon, question: str) -> None:
    """Hedging and the Sharpe ratio are not in the data: said, not answered with the info card."""
    assert read(lexicon, question).unknown_words


def test_a_word_as_close_to_two_names_is_asked_back() -> None:
    """'삼성전지' holds the alias 삼성 (삼성전자) but is one letter from 삼성전자 and from
    삼성전기: the answer asks which (it used to answer 삼성전자 silently, status ok)."""
    from agents.understanding.coverage import account

    lexicon = Lexicon(etfs={}, stocks={"005930": ("삼성전자", "Samsung Electronics"),
                                       "009150": ("삼성전기", "Samsung Electro-Mechanics")},
                      tags=[], managers={}, brands={}, aliases=[("삼성", "stock", "005930")])  # fmt: skip
    frame = read(lexicon, "삼성전지 종가", kinds=frozenset({"stock"}))
    assert frame.ambiguous() == [("삼성전지", ["삼성전자", "삼성전기"])]
    assert not frame.of("stock") and not frame.unknown_words  # asked, not 'not held'
    answer = AgentAnswer(answer="종가 94,000원", mode="offline", status="ok")
    account(answer, frame)
    assert answer.status == "partial"
    assert answer.answer.startswith("❓ '삼성전지'는 삼성전자, 삼성전기 중 어느 것인가요?")
    # a name and its particle, or the name alone, stay the name
    assert [
        e.key for e in read(lexicon, "삼성전자가 올랐어?", kinds=frozenset({"stock"})).entities
    ] == ["005930"]
    assert [e.key for e in read(lexicon, "삼성 주가", kinds=frozenset({"stock"})).entities] == [
        "005930"
    ]


@pytest.mark.parametrize(("question", "read_as", "note"), [
    ("환률 최근 1주 변화", "환율 최근 1주 변화", "'환률'을 환율로 읽었습니다."),
    ("미국 실업율 추이", "미국 실업률 추이", "'실업율'을 실업률로 읽었습니다."),
    ("수익율 상위 ETF", "수익률 상위 ETF", "'수익율'을 수익률로 읽었습니다."),
])  # fmt: skip
def test_rate_suffix_spelt_against_the_rule_is_read(lexicon: Lexicon, question: str, read_as: str,
                                                    note: str) -> None:  # fmt: skip
    """률/율 follow the syllable before them (율 after a vowel or ㄴ): '환률' is 환율."""
    frame = read(lexicon, question, kinds=MACRO_KINDS | {"etf"})
    assert (frame.question, frame.linked_notes) == (read_as, [note])
    assert read(lexicon, "비율과 이자율", kinds=MACRO_KINDS).linked_notes == []


@pytest.mark.parametrize(("question", "place"), [
    ("호주 기준금리", "호주"), ("브라질 CPI 추이", "브라질"), ("캐나다 실업률은?", "캐나다"),
])  # fmt: skip
def test_a_proper_noun_before_a_regional_series_is_a_region_we_do_not_hold(
    lexicon: Lexicon, question: str, place: str
) -> None:
    """Any place, not only the unheld list's: Korea's rate is not answered for Australia's."""
    frame = read(lexicon, question, kinds=MACRO_KINDS)
    assert place in frame.unknown_words and not frame.of("series")
    # a person's words on rates are not a region ('트럼프 금리 인하 발언')
    assert "트럼프" not in read(lexicon, "트럼프 금리 인하 발언", kinds=MACRO_KINDS).unknown_words


def test_a_request_no_screen_does_is_decisive(lexicon: Lexicon) -> None:
    """'만들어줘', '사줘' ask what no screen does: never ok; '찾아줘', '골라줘' are asks."""
    from agents.understanding.coverage import cover

    assert cover(read(lexicon, "반도체 ETF 만들어줘")).decisive == ["만들어줘"]
    assert cover(read(lexicon, "KODEX 200 사줘")).decisive == ["사줘"]
    for asked in ("반도체 ETF 찾아줘", "보수 낮은 ETF 골라줘", "KODEX 200 차트 그려줘"):
        assert cover(read(lexicon, asked)).decisive == [], asked


def test_which_of_two_series_is_higher_is_their_gap(lexicon: Lexicon) -> None:
    """'둘 중 더 높은 쪽은?' over series is their gap; over funds a pick stays a pick."""
    for asked in ("미국 CPI와 한국 CPI 중 더 높은 쪽은?", "미국 실업률과 한국 실업률 중 어디가 더 높아?",
                  "한국과 미국 기준금리 어느 쪽이 더 낮아?"):  # fmt: skip
        assert read(lexicon, asked, kinds=MACRO_KINDS).operation.kind == "difference", asked
    assert (
        read(lexicon, "KODEX 200과 TIGER 200 중 보수가 더 싼 쪽은?").operation.kind != "difference"
    )


@pytest.mark.parametrize(("question", "label"), [
    ("KODEX 200 3개월 수익률", "3m"), ("반도체 ETF 석 달 수익률", "3m"), ("KODEX 200 52주 최고가", "1y"),
    ("KODEX 200 1년 전에 샀으면 지금 수익률은?", "1y"), ("10년-2년 스프레드 3개월 변화", "3m"),
    ("10년 국채금리 석 달 동안 얼마나 움직였어", "3m"), ("KODEX 200 last 6 months return", "6m"),
    ("KODEX 200 주가", None), ("미국 10년 국채 금리", None), ("2026년 평균", None),
    ("KODEX 200 연초 이후 수익률", "ytd"),
])  # fmt: skip
def test_the_period_is_read_by_the_window_reader(lexicon: Lexicon, question: str,
                                                 label: str | None) -> None:  # fmt: skip
    """One reader for counts and units: a fund's '200' is no 200-week period, a tenor no
    10-year one, a calendar year no 2026-year one (the regex period reader read all three)."""
    period = read(lexicon, question).period
    assert (period.label if period else None) == label


def test_two_letter_typos_the_unit_asked_and_whole_words(lexicon: Lexicon) -> None:
    """Fresh round 10: a two-letter word Kiwi does not know is a typo of the one word a letter
    away ('죵가' → 종가; '환율' and '추이' are words); '몇 bp야' asks the gap's unit, it is no
    unread name; an out-of-scope word is quoted as written ('비트코인', not '코인')."""
    from agents.understanding.coverage import cover

    typo = read(lexicon, "삼성전자 죵가", kinds=frozenset({"stock"}))
    assert (typo.question, typo.linked_notes) == ("삼성전자 종가", ["'죵가'를 종가로 읽었습니다."])
    assert read(lexicon, "환율 추이", kinds=MACRO_KINDS).linked_notes == []
    # known nouns are no typo: a compound ending in a vocabulary word, a noun and its verb
    for said in ("서울 인허가 월평균 올해", "52주 최고가랑 얼마나 차이나?"):
        assert read(lexicon, said, kinds=MACRO_KINDS).linked_notes == [], said
    assert read(lexicon, "한국 기준금니", kinds=MACRO_KINDS).linked_notes == [
        "'기준금니'를 기준금리로 읽었습니다."
    ]
    assert cover(read(lexicon, "차이는 몇 bp야?", kinds=MACRO_KINDS)).decisive == []
    scope = [
        n for n in read(lexicon, "비트코인 ETF 추천해줘").notes if n.startswith("out_of_scope:")
    ]
    assert scope and scope[0].endswith(":비트코인")


@pytest.mark.parametrize(("question", "day"), [
    ("미국 10년물 금리 지난 분기 말 값", "2026-09-30"), ("올해 첫 거래일 종가", "2026-01-02"),
    ("코스닥 지난주 금요일 종가", "2026-11-20"), ("이번 주 월요일 종가", "2026-11-23"),
    ("지난 주 수요일 종가", "2026-11-18"), ("금요일 종가", "2026-11-27"),
    ("KOSPI close last Friday", "2026-11-27"), ("다음 주 월요일 종가", None), ("지난주 대비", None),
])  # fmt: skip
def test_a_day_named_in_words(question: str, day: str | None) -> None:
    """Spans and their edges, and a day of a week ('지난주 금요일', fresh round 11: read as
    unread, answered with the latest close); a day not come yet is not read."""
    from datetime import date

    from agents.understanding.dates import read_date_point

    found = read_date_point(question, today=date(2026, 11, 28))
    assert (found.day.isoformat() if found else None) == day


@pytest.mark.parametrize(("question", "pick", "direction"), [
    # fresh round 15: the English pick among a cut, and '하위' ordering the pick after '중'
    ("Which of the 5 largest ETFs by net assets has the lowest fee?", "fee", "asc"),
    ("거래량 상위 10개 ETF 중 1년 수익률 하위 3개", "수익률", "asc"),
    ("순자산 상위 5개 ETF 중 1개월 수익률이 가장 높은 것은?", "수익률", "desc"),
])  # fmt: skip
def test_a_pick_among_a_cut_and_its_order(
    lexicon: Lexicon, question: str, pick: str, direction: str
) -> None:
    frame = read(lexicon, question)
    assert among_measure(frame) == pick and pick_direction(frame) == direction


def test_a_syllable_added_inside_a_name_is_a_typo(
    lexicon: Lexicon,
) -> None:
    """Round 107: 'KODEX 반도체체' (a syllable too many inside the name) links to KODEX 반도체
    with a note, as 'KODEX 인버어스' does to KODEX 인버스; a bare number is no fund name."""
    added = read(lexicon, "KODEX 반도체체 3개월 수익률")
    assert [e.key for e in added.of("etf")] == ["091160"] and added.linked_notes
    # round 109: a Latin word written apart after the typo is part of the name
    funds = Lexicon(etfs={"091230": "TIGER 반도체", "396500": "TIGER 반도체TOP10"}, stocks={},
                    tags=["반도체"], managers={}, brands={}, aliases=[])  # fmt: skip
    apart = read(funds, "TIGER 반도채 TOP10 보수")
    assert [e.key for e in apart.of("etf")] == ["396500"]
    assert not read(lexicon, "200 수익률").of("etf")


@pytest.mark.parametrize(("question", "span"), [
    # fresh round 122: '작년 여름' said '여름' unread and averaged the whole year
    ("작년 여름 미국 CPI 평균", ("2025-06-01", "2025-08-31")),
    ("2025년 겨울 VIX 최고치", ("2025-12-01", "2026-02-28")),  # winter runs into the next year
    ("올해 봄 평균 종가", ("2026-03-01", "2026-05-31")),
    ("가을 수익률", ("2025-09-01", "2025-11-30")),  # this autumn has not begun on 2026-08-15
    ("상반기 평균", ("2026-01-01", "2026-06-30")),
    ("돌봄 서비스 평균", None),  # '봄' inside a word is no season
])  # fmt: skip
def test_a_part_of_a_year_named_by_a_word(question: str, span: tuple[str, str] | None) -> None:
    from datetime import date

    from agents.understanding.dates import read_calendar_span

    found = read_calendar_span(question, date(2026, 8, 15), over_days=True)
    assert ((found.first.isoformat(), found.last.isoformat()) if found else None) == span


def test_a_fund_said_by_the_start_of_its_name() -> None:
    """Round 123: 'TIGER 원유선물' (of TIGER 원유선물Enhanced(H)) was read as the house and a
    theme, with '선물' said not held. The one fund whose name starts so is linked; a start several
    funds share stays their set, and a typo link never ends inside a word whose rest is a noun
    ('TIGER 2차' of '2차전지' is no typo of TIGER 200)."""
    funds = Lexicon(etfs={"130680": "TIGER 원유선물Enhanced(H)", "364980": "TIGER 2차전지TOP10",
                          "305540": "TIGER 2차전지테마", "102110": "TIGER 200",
                          "091160": "KODEX 반도체"},
                    stocks={}, tags=["원유", "2차전지", "반도체"],
                    managers={"미래에셋자산운용": "Mirae Asset", "삼성자산운용": "Samsung"},
                    brands={"TIGER": "미래에셋자산운용", "KODEX": "삼성자산운용"}, aliases=[])  # fmt: skip
    short = read(funds, "TIGER 원유선물은 보수가 얼마야")
    assert [e.key for e in short.of("etf")] == ["130680"]
    assert short.linked_notes == ["'TIGER 원유선물'을 TIGER 원유선물Enhanced(H)로 읽었습니다."]
    shared = read(funds, "TIGER 2차전지 수익률")
    assert not shared.of("etf") and [e.key for e in shared.of("tag")] == ["2차전지"]
    typo = read(funds, "KODEX 반도채 순자산")  # the typo's whole word, not a prefix 'KODEX 반도'
    assert typo.linked_notes == ["'KODEX 반도채'를 KODEX 반도체로 읽었습니다."]


def test_a_word_kiwi_breaks_into_odd_pieces_may_be_a_misspelt_name() -> None:
    """Round 126: '하이부 종가' was an unknown stock — Kiwi reads '하이부' as 하/IC + 이/NR +
    부/NNB, so no name-like run held it. Such a written word is tried as a whole (still one jamo
    edit for a short name); a measure acronym beside a Korean name keeps the question Korean."""
    from agents.understanding.parse import language_of

    names = Lexicon(etfs={}, stocks={"352820": ("하이브", "HYBE")}, tags=[], managers={},
                    brands={}, aliases=[])  # fmt: skip
    typo = read(names, "하이부 종가", kinds=frozenset({"stock"}))
    assert [e.key for e in typo.of("stock")] == ["352820"]
    assert typo.linked_notes == ["'하이부'를 하이브로 읽었습니다."]
    assert not read(names, "하하하 종가", kinds=frozenset({"stock"})).of("stock")
    assert language_of("현대건설 per", []) == "ko" and language_of("price per share", []) == "en"


@pytest.mark.parametrize(("question", "day"), [
    ("LG화학 3월 둘째 주 금요일 종가", "2026-03-13"), ("10월 마지막 주 금요일", "2026-10-30"),
    ("2025년 9월 첫째 주 월요일", "2025-09-01"), ("12월 둘째 주 금요일", "2025-12-12"),
])  # fmt: skip
def test_the_nth_weekday_of_a_month(question: str, day: str) -> None:
    """Round 127: '3월 둘째 주 금요일' said '둘째', '금요일' unread and gave the end of March."""
    from datetime import date

    from agents.understanding.dates import read_date_point

    found = read_date_point(question, today=date(2026, 11, 28))
    assert found is not None and found.day.isoformat() == day


@pytest.mark.parametrize(("question", "day"), [
    ("작년 크리스마스 원달러 환율", "2025-12-25"), ("삼성전자 광복절 종가", "2026-08-15"),
    ("2024년 한글날 코스피", "2024-10-09"), ("크리스마스 종가", "2025-12-25"),
])  # fmt: skip
def test_a_day_named_by_a_holiday(question: str, day: str) -> None:
    """Round 133: '작년 크리스마스 원달러 환율' said '크리스마스' unread and gave the latest rate."""
    from datetime import date

    from agents.understanding.dates import read_date_point

    found = read_date_point(question, today=date(2026, 11, 28))
    assert found is not None and found.day.isoformat() == day


@pytest.mark.parametrize(("text", "bars"), [
    # round 136: '20배 이상 30배 이하' paired 이상 with 30 and 이하 with 20 (none met both)
    ("per 20배 이상 30배 이하 종목 몇 개", [(">=", 20.0), ("<=", 30.0)]),
    ("미분양 2000호 이상 5000호 미만 지역", [(">=", 2000.0), ("<", 5000.0)]),
    ("보수 0.1% 이상 0.3% 이하 etf", [(">=", 0.1), ("<=", 0.3)]),
    ("환율 넘는 1400원 날", [(">", 1400.0)]),
])  # fmt: skip
def test_a_range_pairs_each_comparator_with_the_number_before_it(
    text: str, bars: list[tuple[str, float]]
) -> None:
    from agents.understanding.parse import _thresholds

    assert [(c, v) for c, v, _, _ in _thresholds(text)] == bars


def test_periods_shown_follow_the_window_asked(lexicon: Lexicon) -> None:
    """Round 136: '월별 추이 최근 6개월' and '월별 평균 종가 최근 3개월' listed twelve months."""
    from agents.window_answer import PER_COUNT, per_period_count

    assert per_period_count(read(lexicon, "인천 전세가율 월별 추이 최근 6개월", kinds=MACRO_KINDS),
                            "month") == 6  # fmt: skip
    assert per_period_count(read(lexicon, "미국 CPI 분기별 평균 최근 4분기", kinds=MACRO_KINDS),
                            "quarter") == 4  # fmt: skip
    assert (
        per_period_count(read(lexicon, "삼성전자 분기별 수익률"), "quarter") == PER_COUNT["quarter"]
    )


def test_a_cut_said_after_an_ordered_set_noun_takes_its_head(lexicon: Lexicon) -> None:
    """Round 134: '보수 낮은 ETF 상위 2개의 순자산 합계' summed the two dearest funds: '상위' is
    the head of the order said before the set noun, as in '보수 낮은 순 상위 3개'."""
    for said in ("보수 낮은 ETF 상위 2개의 순자산 합계", "보수 낮은 순 상위 3개 평균 순자산"):
        assert read(lexicon, said).operation.direction == "asc", said
    assert read(lexicon, "순자산 상위 5개 ETF 평균 보수").operation.direction == "desc"


def test_an_unread_quantity_noun_is_the_figure_asked(lexicon: Lexicon) -> None:
    """A quantity no reader took ('재산세', '지분율') or glued before the measure read
    ('판매보수' is no fee) is the figure asked: any figure answered would be another question's.
    A modifier of another noun, a duration before a measure or a word beside a read figure is not."""
    from agents.understanding.coverage import cover

    asked = {
        "서울 아파트 재산세 평균": ["재산세"],
        "삼성전자 최대주주 지분율": ["주주 지분율"],
        "KODEX 200 판매보수 얼마야": ["판매보수"],
        "서울 아파트 평균 관리비": ["관리비"],
        "관세 이벤트가 반도체 테마로 이어진 경로": [],  # '관세' says which events
        "KODEX 200 작년 연간 수익률": [],  # a duration
        "KODEX 200 1년 수익률": [],
        "삼성전자 PER 알려줘": [],
    }
    for question, words in asked.items():
        assert cover(read(lexicon, question, kinds=MACRO_KINDS)).asked == words, question


def test_an_answer_whose_figure_was_not_read_is_declined(lexicon: Lexicon) -> None:
    """`account` says the figure was not read first and marks the answer declined, whatever
    default figures the screen found for the rest of the question."""
    from agents.understanding.coverage import account, cover

    answer = AgentAnswer(answer="서울 주택가격지수 109.55", mode="offline", status="ok")
    account(answer, read(lexicon, "서울 아파트 재산세 평균", kinds=MACRO_KINDS))
    assert answer.status == "partial" and answer.payload["declined"]
    assert answer.answer.startswith(
        "'재산세'는 이 워크벤치 데이터에서 읽지 못해 답하지 않았습니다."
    )
    assert cover(read(lexicon, "NVIDIA 코퍼레이션 종가")).asked == []  # a name's tail
