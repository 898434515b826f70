"""The written figure definitions of data_access.figures on hand-checkable series."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from data_access import figures as fig
from data_access.trading_calendar import TradingDay, is_trading_day, resolve_day


def _bars(start: date, end: date, skip: set[date] = frozenset()) -> list[fig.Bar]:  # type: ignore[assignment]
    out, day = [], start
    while day <= end:
        if day.weekday() < 5 and day not in skip:
            out.append((day, 100.0 + len(out)))
        day += timedelta(days=1)
    return out


def test_base_date_is_calendar_months_back_clamped_to_the_month_end() -> None:
    assert fig.base_date(date(2026, 3, 31), "1m") == date(2026, 2, 28)
    assert fig.base_date(date(2024, 3, 31), "1m") == date(2024, 2, 29)
    assert fig.base_date(date(2026, 11, 20), "1y") == date(2025, 11, 20)
    assert fig.base_date(date(2026, 11, 20), "1w") == date(2026, 11, 13)
    assert fig.base_date(date(2026, 11, 20), "ytd") == date(2025, 12, 31)
    assert fig.base_date(date(2026, 11, 20), "mtd") == date(2026, 10, 31)
    assert fig.base_date(date(2024, 3, 1), "mtd") == date(2024, 2, 29)
    assert "mtd" not in fig.PERIODS  # asked for by name only: the screens' return sets keep theirs
    with pytest.raises(ValueError):
        fig.base_date(date(2026, 11, 20), "2q")


def test_the_base_close_is_the_last_bar_on_or_before_the_base_date() -> None:
    # bars to Sunday 11-22 end on Friday 11-20; its 3-month base 08-20 is a Thursday
    bars = _bars(date(2025, 1, 2), date(2026, 11, 22))
    r = fig.period_return(bars, "3m")
    assert r is not None and r.end_date == date(2026, 11, 20)
    assert r.base_target == date(2026, 8, 20) and r.start_date == date(2026, 8, 20)
    holiday = date(2026, 8, 20)
    r2 = fig.period_return(_bars(date(2025, 1, 2), date(2026, 11, 20), {holiday}), "3m")
    assert r2 is not None and r2.start_date == date(2026, 8, 19)  # before, never after
    close = dict(bars)
    assert r.pct == pytest.approx((close[r.end_date] / close[r.start_date] - 1) * 100)


def test_no_return_without_a_bar_on_or_before_the_base_date() -> None:
    bars = _bars(date(2026, 6, 1), date(2026, 11, 20))
    assert fig.period_return(bars, "1y") is None  # not a shorter window in disguise
    assert fig.period_return(bars, "3m") is not None
    assert fig.period_return([], "1m") is None


def test_as_of_uses_the_securitys_own_last_bar_on_or_before_it() -> None:
    bars = _bars(date(2025, 1, 2), date(2026, 11, 20))
    r = fig.period_return(bars, "1m", as_of=date(2026, 10, 4))  # a Sunday
    assert r is not None and r.end_date == date(2026, 10, 2)
    assert r.start_date == date(2026, 9, 2)


def test_window_rows_start_at_the_base_bar() -> None:
    rows = [{"d": d.isoformat(), "close": c} for d, c in _bars(date(2026, 1, 1), date(2026, 3, 31))]
    window = fig.window_rows(rows, "d", "1m")
    assert window[0]["d"] == "2026-02-27" and window[-1]["d"] == "2026-03-31"  # 02-28 is Saturday
    assert fig.covers(rows, "d", "1m") and not fig.covers(rows, "d", "1y")


def test_sql_base_date_matches_the_python_definition() -> None:
    assert fig.base_date_sql("last.d", "3m") == "(last.d - interval '3 months')::date"
    assert fig.base_date_sql("l.d", "1w") == "(l.d - interval '7 days')::date"
    assert "make_date" in fig.base_date_sql("l.d", "ytd")
    assert fig.base_date_sql("l.d", "mtd") == "(date_trunc('month', l.d) - interval '1 day')::date"


def test_yoy_and_mom_compare_the_same_month_a_year_or_a_month_earlier() -> None:
    points = [(date(2025, 10, 1), 100.0), (date(2026, 9, 1), 104.0), (date(2026, 10, 1), 110.0)]
    assert fig.yoy(points) == (pytest.approx(10.0), date(2025, 10, 1))
    assert fig.mom(points) == (pytest.approx((110 / 104 - 1) * 100), date(2026, 9, 1))
    assert fig.yoy(points[1:]) is None  # the base month is missing


def test_volatility_drawdown_and_median_with_count() -> None:
    assert fig.annualized_volatility([100.0, 101.0], 5) is None
    assert fig.max_drawdown([100.0, 120.0, 90.0, 130.0]) == pytest.approx(-0.25)
    m = fig.median_with_count([3.0, None, 1.0, 2.0])
    assert (m.value, m.count) == (2.0, 3) and m.ko() == "2.00 (n=3)"
    assert fig.median_with_count([]).ko() == "값 없음 (n=0)"


def test_calendar_moves_a_non_trading_day_back_and_says_so() -> None:
    sunday = resolve_day(date(2026, 11, 1), "KRX")
    assert sunday.session == date(2026, 10, 30) and sunday.reason == "주말"
    assert sunday.note_ko() == "11월 1일(일)은 휴장일이라 10월 30일 종가 기준입니다."
    chuseok = resolve_day(date(2026, 9, 25), "KRX")  # Chuseok: 09-24 and 09-25 closed
    assert chuseok.session == date(2026, 9, 23) and chuseok.reason == "휴장일"
    thanksgiving = resolve_day(date(2026, 11, 26), "NYSE")
    assert thanksgiving.session == date(2026, 11, 25)
    assert resolve_day(date(2026, 11, 26), "KRX") == TradingDay(
        date(2026, 11, 26), date(2026, 11, 26), "KRX"
    )
    assert not is_trading_day(date(2026, 12, 31), "KRX") and is_trading_day(
        date(2026, 12, 31), "NYSE"
    )


def test_a_windows_drawdown_counts_only_its_own_closes_and_a_year_to_date_from_january() -> None:
    """'drawdown': the deepest fall from a running high of the window's closes, in %, with its
    peak and trough both inside the window: the base close before it (the previous year's last
    close for 'this_year', here the highest) is no peak of it."""
    points = [(date(2025, 12, 30), 130.0), (date(2026, 1, 2), 90.0), (date(2026, 1, 5), 120.0),
              (date(2026, 1, 6), 96.0), (date(2026, 1, 7), 110.0)]  # fmt: skip
    f = fig.window_statistic(points, fig.Window(1, "this_year"), "drawdown")
    assert f is not None and f.value == pytest.approx(-20.0)
    assert (f.high, f.low, f.at) == ((date(2026, 1, 5), 120.0), (date(2026, 1, 6), 96.0),
                                     date(2026, 1, 6))  # fmt: skip
    assert f.count == 4 and f.first == date(2026, 1, 2)
    span = fig.span_statistic(points, date(2026, 1, 1), date(2026, 1, 6), "drawdown")
    assert span is not None and (span.value, span.high) == (pytest.approx(-20.0),
                                                            (date(2026, 1, 5), 120.0))  # fmt: skip
    assert fig.base_date(date(2026, 3, 31), "45d") == date(2026, 2, 14)  # any N-day label
    assert fig.period_of("5m").months == 5


def test_the_day_of_the_largest_move_is_a_window_statistic() -> None:
    """'max_move'/'min_move': the window's largest one-day rise (fall), each session against
    the one before (the first against the base), with its day and the observation before it;
    of a rate, in %p."""
    points = [(date(2026, 1, 1), 100.0), (date(2026, 1, 2), 110.0), (date(2026, 1, 5), 99.0),
              (date(2026, 1, 6), 100.0)]  # fmt: skip
    up = fig.window_statistic(points, fig.Window(3, "session"), "max_move")
    assert up is not None and up.value == pytest.approx(10.0)
    assert (up.at, up.base, up.count) == (date(2026, 1, 2), (date(2026, 1, 1), 100.0), 3)
    down = fig.window_statistic(points, fig.Window(2, "session"), "min_move")
    assert down is not None and down.value == pytest.approx(-10.0) and down.at == date(2026, 1, 5)
    rate = fig.window_statistic(points, fig.Window(3, "session"), "min_move", rate=True)
    assert rate is not None and rate.value == pytest.approx(-11.0)
    assert fig.window_statistic(points, fig.Window(4, "session"), "max_move") is None  # no base
