"""The window and statistic reader's corpus (agents/understanding/windows.py) and the window
figures it feeds (data_access.figures.window_statistic): each line is a question as an analyst
wrote it and what must be read from it — the corpus is the reader's specification."""

from datetime import date, timedelta

import pytest

from agents.understanding.windows import read_window_stat
from data_access import figures as fig

CORPUS = [  # question, (n, unit) or None, statistic, field
    ("SK하이닉스 최근 10거래일 평균 종가는?", (10, "session"), "avg", "close"),
    ("NAVER 20일 이동평균은?", (20, "session"), "moving_average", None),
    ("카카오 30 일 이평 얼마야", (30, "session"), "moving_average", None),
    ("기아 최근 5거래일 거래량 합계", (5, "session"), "sum", "volume"),
    ("현대모비스 지난 2주 최고가는?", (2, "week"), "max", "high"),
    ("셀트리온 60거래일 최저 종가", (60, "session"), "min", "close"),
    ("What was the average close over the last 12 sessions?", (12, "session"), "avg", "close"),
    ("average over 10 trading days", (10, "session"), "avg", None),
    ("광주 미분양 주택 지난 4개월 평균은 얼마?", (4, "month"), "avg", None),
    ("미국 10년물 금리 최근 6개월 최고치와 최저치 차이는?", (6, "month"), "range", None),
    ("기아 최근 5거래일 종가 범위", (5, "session"), "range", "close"),
    ("반년 평균", (6, "month"), "avg", None),
    ("석 달 평균", (3, "month"), "avg", None),
    ("일주일 최고치", (1, "week"), "max", None),
    ("두 분기 변동성", (2, "quarter"), "volatility", None),
    ("삼성SDI 최근 3개월 변동성은?", (3, "month"), "volatility", None),
    ("KODEX 200 3개월 수익률", (3, "month"), "return", None),
    ("삼성전자 11월 20일 종가", None, None, "close"),  # a date, not a window
    ("2026년 평균", None, "avg", None),  # a calendar year
    ("미국 2년물 금리", None, None, None),  # a tenor
    ("US 10 year treasury yield", None, None, None),
    ("서울 아파트 매매가격지수 1년 전 대비 변화", None, "change", "close"),  # a base a year ago
    ("KOSPI vs 3 months ago", None, None, None),
    ("현대차 최근 7거래일 평균 거래대금", (7, "session"), "avg", "trading_value"),  # 거래 + 대금
    # both ends asked (fresh round 12): the highest high and the lowest low, not one of them
    ("셀트리온 최근 한 달 최고가와 최저가", (1, "month"), "extremes", "high_low"),
    ("원달러 환율 최근 3개월 최고치와 최저치는?", (3, "month"), "extremes", None),
    ("최근 10거래일 종가 최고가와 최저가", (10, "session"), "extremes", "close"),
    ("최근 한 달 고저폭", (1, "month"), "range", None),  # fresh round 13
    ("코스피 최근 5거래일 등락폭", (5, "session"), "change", None),
    ("현대차 배당수익률이랑 기아 배당수익률 차이", None, None, None),  # a measure, not a return
]


@pytest.mark.parametrize(("question", "window", "stat", "field"), CORPUS)
def test_corpus(question: str, window: tuple[int, str] | None, stat: str | None,
                field: str | None) -> None:  # fmt: skip
    read = read_window_stat(question)
    got = (read.window.n, read.window.unit) if read.window else None
    assert got == window
    assert read.stat == stat
    assert read.field == field
    if read.window:  # the span is the words that said it
        assert question[read.window.start : read.window.end] == read.window.surface


def _daily(n: int) -> list[tuple[date, float]]:
    start = date(2026, 1, 1)
    return [(start + timedelta(days=i), 100.0 + i) for i in range(n)]


def test_sessions_are_the_last_observations_and_their_base_the_one_before() -> None:
    points = _daily(30)
    f = fig.window_statistic(points, fig.Window(10, "session"), "avg")
    assert f is not None and f.count == 10 and f.value == pytest.approx(124.5)
    r = fig.window_statistic(points, fig.Window(10, "session"), "return")
    assert r is not None and r.base == points[-11]
    assert r.value == pytest.approx((129 / 119 - 1) * 100)


def test_a_monthly_series_six_month_window_holds_six_observations() -> None:
    months = [(date(2026, m, 1), float(m)) for m in range(1, 12)]
    f = fig.window_statistic(months, fig.Window(6, "month"), "avg")
    assert f is not None and f.count == 6 and f.first == date(2026, 6, 1)


def test_range_max_min_and_rate_changes() -> None:
    points = [(date(2026, 3, d), v) for d, v in ((2, 3.0), (3, 3.4), (4, 2.9), (5, 3.1))]
    r = fig.window_statistic(points, fig.Window(1, "week"), "range")
    assert r is not None and r.value == pytest.approx(0.5) and r.high == points[1]
    assert r.low == points[2]
    c = fig.window_statistic(points, fig.Window(2, "session"), "change", rate=True)
    assert c is not None and c.value == pytest.approx(-0.3)
    assert fig.window_statistic([], fig.Window(2, "session"), "avg") is None
    assert fig.window_statistic(points, fig.Window(9, "session"), "return") is None  # no base


def test_extremes_are_the_highest_high_and_the_lowest_low() -> None:
    highs = [(date(2026, 3, d), v) for d, v in ((2, 10.0), (3, 12.0), (4, 11.0))]
    lows = [(date(2026, 3, d), v) for d, v in ((2, 8.0), (3, 9.0), (4, 7.5))]
    both = fig.window_extremes(highs, lows, fig.Window(3, "session"))
    assert both is not None and both.high == highs[1] and both.low == lows[2]
    assert both.value == pytest.approx(4.5)
    one = fig.window_statistic(highs, fig.Window(2, "session"), "extremes")
    assert one is not None and (one.high, one.low) == (highs[1], highs[2])
    assert fig.window_extremes(highs, [], fig.Window(3, "session")) is None


def test_this_week_and_this_month_run_to_the_last_observation() -> None:
    """'이번 주 평균', '이번 달 평균': from the Monday or the 1st of the last observation's week or
    month (fresh round 15: '이번 달' was the last bar of October onwards, labelled a month)."""
    points = [(date(2026, 10, 26) + timedelta(days=i), float(i)) for i in range(25)]  # to 11-19
    month = fig.window_statistic(points, fig.Window(1, "this_month"), "avg")
    assert month is not None and (month.first, month.last) == (
        date(2026, 11, 1),
        date(2026, 11, 19),
    )
    week = fig.window_statistic(points, fig.Window(1, "this_week"), "avg")
    assert week is not None and week.first == date(2026, 11, 16)


def test_a_named_base_day_is_the_periods_base() -> None:
    """'1월 2일 대비', '올해 첫 거래일 대비': the period from that day to the as-of bar."""
    p = fig.period_named("since:2026-01-02", 10.0)
    assert p.since == date(2026, 1, 2) and p.sql_interval is None
    assert fig.base_date(date(2026, 11, 20), p) == date(2026, 1, 2)
    assert fig.base_date_sql("d", "since:2026-01-02") == "DATE '2026-01-02'"


def test_last_week_and_last_month_are_calendar_periods() -> None:
    """'지난주 평균' is the Monday-to-Sunday week before the last observation's week; '지난달' the
    month before its month — not the last 7 or 30 days."""
    points = [
        (date(2026, 11, 2) + timedelta(days=i), float(i)) for i in range(18)
    ]  # to 11-19 (Thu)
    week = fig.window_statistic(points, fig.Window(1, "prev_week"), "avg")
    assert week is not None and (week.first, week.last) == (date(2026, 11, 9), date(2026, 11, 15))
    month = fig.window_points([(date(2026, m, 15), 1.0) for m in (9, 10, 11)],
                              fig.Window(1, "prev_month"))  # fmt: skip
    assert month == [(date(2026, 10, 15), 1.0)]


SPANS = [  # question, (first, last) the span names, on a data day of 2026-11-20
    ("기아 지난 분기 평균 종가", ("2026-07-01", "2026-09-30")),
    ("KODEX 200 3분기 수익률", ("2026-07-01", "2026-09-30")),
    ("코스피 작년 4분기 최고치", ("2025-10-01", "2025-12-31")),
    ("TIGER 200 상반기 평균 거래량", ("2026-01-01", "2026-06-30")),
    ("삼성전자 3월부터 6월까지 수익률", ("2026-03-01", "2026-06-30")),
    ("원달러 환율 11월~2월 평균", ("2025-11-01", "2026-02-28")),
    ("인천 주택 인허가 작년 합계", ("2025-01-01", "2025-12-31")),
    ("미국 10년물 금리 2025년 평균", ("2025-01-01", "2025-12-31")),
    ("나스닥 지난달 수익률", ("2026-10-01", "2026-10-31")),  # the calendar month, not 30 days
    ("VIX 지난주 평균", ("2026-11-09", "2026-11-15")),  # Monday to Sunday
    ("전주 아파트 매매가격지수 평균", None),  # a city
    ("삼전 지난 분기 EPS", None),  # said alone, a quarter is the reported one
    ("코스피 지난 분기 말 종가", None),  # an edge: a day
    ("타이거 S&P500 작년 이맘때 대비 수익률", None),  # a base day
    ("코스피 작년 대비", None),
]


@pytest.mark.parametrize(("question", "span"), SPANS)
def test_calendar_spans(question: str, span: tuple[str, str] | None) -> None:
    from agents.understanding.dates import read_calendar_span
    from agents.understanding.parse import _stat_over_days

    low = question.lower()
    found = read_calendar_span(low, date(2026, 11, 20), over_days=_stat_over_days(question))
    assert (found and (found.first.isoformat(), found.last.isoformat())) == (span or None)
    if span is not None:  # its figure is the span's own days, a return from the close before
        points = [(date(2025, 12, 30), 100.0), (date(2026, 7, 1), 110.0), (date(2026, 9, 30), 121.0),
                  (date(2026, 10, 1), 130.0)]  # fmt: skip
        third = fig.span_statistic(points, date(2026, 7, 1), date(2026, 9, 30), "return")
        assert third is not None and third.count == 2 and third.value == pytest.approx(21.0)


NEGATED = [  # question, the phrases that leave a set out
    ("삼성전자 안 담은 ETF 중 순자산 가장 큰 것", ["안 담은"]),
    ("삼성전자를 담지 않은 반도체 ETF", ["담지 않은"]),
    ("TIGER 200에 없는 종목", ["없는"]),
    ("SK하이닉스 제외한 ETF 평균 총보수", ["제외한"]),
    ("삼성전자 빼고 순자산 큰 ETF", ["빼고"]),
    ("1년 수익률 3% 넘지 않는 ETF", []),  # the threshold's comparator, turned around
    ("총보수 0.1% 이상이 아닌 ETF", []),
    ("코스피 안 올랐어?", []),  # a yes-or-no question, answered by the move
]


@pytest.mark.parametrize(("question", "phrases"), NEGATED)
def test_negations(question: str, phrases: list[str]) -> None:
    from agents.understanding.coverage import negations
    from agents.understanding.morphemes import analyse

    assert negations(analyse(question), question) == phrases


def test_the_days_over_a_bar_are_counted_inside_the_window_only() -> None:
    """'6만원 넘은 날 최근 10거래일 며칠?': the window's days past the bar, the base day not among
    them; a bar met exactly counts for 'at least' and not for 'above'."""
    points = _daily(30)  # 100 … 129; the last ten are 120 … 129, the base 119
    above = fig.window_statistic(points, fig.Window(10, "session"), "days_above", threshold=125.0)
    assert (
        above is not None
        and above.value == 4
        and [p[1] for p in above.hits] == [126, 127, 128, 129]
    )
    least = fig.window_statistic(
        points, fig.Window(10, "session"), "days_at_least", threshold=125.0
    )
    assert least is not None and least.value == 5
    below = fig.window_statistic(points, fig.Window(10, "session"), "days_below", threshold=120.0)
    assert below is not None and below.value == 0 and below.hits == ()
