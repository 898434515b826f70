"""Figures derived from a turn's series as the question frame asks (agents.macro.derived): pure
functions over cited series points, checked on small series with known answers."""

from __future__ import annotations

from agents.macro.derived import (
    change,
    compare_returns,
    correlation,
    gap_series,
    premise,
    streak,
    threshold_days,
)
from agents.macro.state import Series
from agents.understanding.parse import asked_move

FX = Series(key="KR_USDKRW", title="원/달러 환율 (KR_USDKRW)", unit="KRW per USD",
            points=[("2026-01-02", 1390.0), ("2026-01-05", 1410.5), ("2026-01-06", 1402.0),
                    ("2026-01-07", 1399.0), ("2026-01-08", 1420.0)])  # fmt: skip
RATE = Series(key="KR_BASE_RATE", title="한국은행 기준금리 (KR_BASE_RATE)", unit="percent",
              points=[("2026-01-01", 3.0), ("2026-02-01", 2.75), ("2026-03-01", 2.5),
                      ("2026-04-01", 2.25)])  # fmt: skip


def test_threshold_days_counts_the_observations_that_meet_it() -> None:
    text = threshold_days(FX, ">", 1400.0, "ko")
    assert text is not None
    assert "기간(2026-01-02 ~ 2026-01-08, 관측치 5개) 중 1,400.00 초과: 3일" in text
    assert "처음 2026-01-05 (1,410.50), 마지막 2026-01-08 (1,420.00)" in text
    none = threshold_days(FX, ">", 1500.0, "ko")  # none: the nearest the window came, its high
    assert none is not None and "초과: 없음." in none and "최고치: 1,420.00 (2026-01-08)" in none
    below = threshold_days(RATE, "<", 2.6, "en")  # a monthly series counts its months
    assert below is not None and "months below 2.60%: 2, first on 2026-03-01" in below
    months = threshold_days(RATE, "<", 2.6, "ko")
    assert months is not None and "2.60% 미만: 2번 — 처음 2026-03-01 (2.50%)" in months


def test_streak_is_the_run_that_ends_at_the_latest_observation() -> None:
    text = streak(RATE, "ko")
    assert text is not None and "최근 3회 연속 하락" in text and "2026-04-01 -0.25%p" in text
    mixed = streak(FX, "en")
    assert mixed is not None and "rises in a row up to 2026-01-08: 1" in mixed


def test_compare_returns_orders_and_gives_the_gap() -> None:
    a = Series(key="A", title="Apple (US:AAPL) 종가", unit="USD",
               points=[("2026-05-20", 100.0), ("2026-11-20", 109.35)])  # fmt: skip
    b = Series(key="B", title="Microsoft (US:MSFT) 종가", unit="USD",
               points=[("2026-05-20", 200.0), ("2026-11-20", 217.04)])  # fmt: skip
    text = compare_returns([b, a], "ko")
    assert text is not None and text.index("Apple +9.35%") < text.index("Microsoft +8.52%")
    assert "0.83%p 높습니다" in text


def test_a_premise_the_data_contradicts_is_said() -> None:
    fell = Series(key="KR:005930", title="삼성전자 (KR:005930) 종가", unit="KRW",
                  points=[("2026-10-20", 101500.0), ("2026-11-20", 94000.0)])  # fmt: skip
    text = premise(fell, "up", "ko")
    assert text is not None and "질문과 달리" in text and "-7.39% 하락" in text
    assert premise(fell, "down", "ko") is None  # the question agrees with the data


def test_asked_move_reads_verbs_and_nouns() -> None:
    assert asked_move("삼성전자 최근 한 달 왜 이렇게 올랐어?") == "up"
    assert asked_move("코스피 최근 하락 이유") == "down"
    assert asked_move("은행주 최근 왜 약해?") == "down"
    assert asked_move("미국 CPI 상승률") is None  # a measure, not a move
    assert asked_move("why did NVDA drop") == "down"


def test_gap_series_and_correlation() -> None:
    level = {d: 4.0 + (d % 3) / 10 + d / 100 for d in range(1, 16)}
    ten = Series(key="DGS10", title="미국 10년 국채 금리 (DGS10)", unit="percent",
                 points=[(f"2026-01-{d:02d}", v) for d, v in level.items()])  # fmt: skip
    two = Series(key="DGS2", title="미국 2년 국채 금리 (DGS2)", unit="percent",
                 points=[(f"2026-01-{d:02d}", 3.0 + 2 * (level[d] - 4.0)) for d in range(2, 16)])  # fmt: skip
    gaps = gap_series(ten, two)
    assert gaps.unit == "%p" and gaps.points[0][0] == "2026-01-02" and len(gaps.points) == 14
    assert abs(gaps.points[0][1] - (level[2] - (3.0 + 2 * (level[2] - 4.0)))) < 1e-9
    text = correlation(ten, two, "ko")
    assert text is not None and "상관계수 +1.00" in text  # every move of one is twice the other's


def test_a_daily_series_changes_against_the_same_day_a_monthly_one_the_same_month() -> None:
    """'환율 전년 대비': the last close on or before the same day a year earlier (as every window
    is read), not the last close of that month; CPI keeps the same month a year earlier."""
    fx = Series(key="KR_USDKRW", title="원/달러 환율 (KR_USDKRW)", unit="KRW per USD",
                points=[("2025-11-19", 1460.0), ("2025-11-20", 1468.0), ("2025-11-28", 1487.1),
                        ("2026-10-20", 1412.5), ("2026-10-30", 1424.9), ("2026-11-20", 1445.0)])  # fmt: skip
    yoy = change(fx, "yoy", "ko")
    assert yoy is not None and "1년 전 대비 -1.57%" in yoy and "(2025-11-20)" in yoy
    mom = change(fx, "mom", "ko")
    assert mom is not None and "1개월 전 대비 +2.30%" in mom and "(2026-10-20)" in mom
    cpi = Series(key="KR_CPI", title="한국 소비자물가지수 (KR_CPI)", unit="index",
                 points=[("2025-10-01", 116.34), ("2026-09-01", 118.86), ("2026-10-01", 118.90)])  # fmt: skip
    assert "전년 동월 대비 +2.20%" in (change(cpi, "yoy", "ko") or "")


def test_a_rate_gap_is_also_given_in_basis_points() -> None:
    from agents.macro.derived import difference

    fed = Series(key="FEDFUNDS", title="미국 연방기금 실효금리 (FEDFUNDS)", unit="percent",
                 points=[("2026-10-01", 3.06)])  # fmt: skip
    text = difference(fed, RATE, "ko")
    assert text is not None and "+0.81%p (+81bp)" in text


def test_a_premise_is_checked_over_the_move_asked() -> None:
    """'한 달 새 얼마나 올랐어?' when the rate rose over the month but fell over the year: no
    '질문과 달리' (the year's fall is not the move asked about)."""
    from agents.macro.derived import _since_base

    fx = Series(key="KR_USDKRW", title="원/달러 환율 (KR_USDKRW)", unit="KRW per USD",
                points=[("2025-11-20", 1468.0), ("2026-10-20", 1412.5), ("2026-11-20", 1445.0)])  # fmt: skip
    assert premise(fx, "up", "ko") is not None  # over the whole window it fell
    assert premise(_since_base(fx, "mom"), "up", "ko") is None


def test_moves_of_an_effective_rate_are_not_decisions() -> None:
    from agents.macro.derived import moves_of

    fed = Series(key="FEDFUNDS", title="미국 연방기금 실효금리 (FEDFUNDS)", unit="percent",
                 points=[("2026-08-01", 3.33), ("2026-09-01", 3.22), ("2026-10-01", 3.08)])  # fmt: skip
    text = moves_of(fed, "ko") or ""
    assert "변경 2회" in text and "정책금리 결정 횟수와 다를 수 있습니다" in text
    assert "결정 횟수" not in (moves_of(RATE, "ko") or "")
