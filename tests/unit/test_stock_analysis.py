"""The report's figures on hand-checkable series, and the rules that turn them into a view."""

from __future__ import annotations

import math
import statistics
from datetime import date, timedelta

import pytest

from agents.stock import analysis as a
from agents.stock import templates
from agents.stock.analysis import StockFigures
from agents.stock.signals import assess


def test_report_returns_are_calendar_periods_not_session_counts() -> None:
    """245 sessions a year: the 1-year base is the close a calendar year back, not 252 bars."""
    rows, day = [], date(2025, 11, 3)
    while day <= date(2026, 11, 20):
        if day.weekday() < 5:
            rows.append({"date": day.isoformat(), "close": 100.0 + len(rows)})
        day += timedelta(days=1)
    returns = a.calendar_returns(rows)
    one_year = returns["1y"]
    assert one_year is not None and one_year.start_date == date(2025, 11, 20)
    base = next(r["close"] for r in rows if r["date"] == "2025-11-20")
    assert one_year.pct == pytest.approx((rows[-1]["close"] / base - 1) * 100)
    ytd = returns["ytd"]
    assert ytd is not None and ytd.start_date == date(2025, 12, 31)


def test_volatility_is_the_annualized_sample_stdev_of_daily_returns() -> None:
    closes = [100.0, 101.0, 99.0, 102.0, 100.0]
    returns = [b / a_ - 1 for a_, b in zip(closes, closes[1:], strict=False)]
    expected = statistics.stdev(returns) * math.sqrt(252)
    assert a.annualized_volatility(closes, 4) == pytest.approx(expected)
    assert a.annualized_volatility(closes, 10) is None


def test_drawdown_measures_against_the_running_peak() -> None:
    closes = [100.0, 120.0, 90.0, 130.0, 117.0]
    assert a.drawdown_series(closes) == pytest.approx([0.0, 0.0, -0.25, 0.0, -0.1])
    assert a.max_drawdown(closes) == pytest.approx(-0.25)


def test_moving_average_is_trailing_and_starts_after_the_window() -> None:
    assert a.moving_average([1.0, 2.0, 3.0, 4.0], 3) == [None, None, 2.0, 3.0]


def test_rsi_extremes_and_a_hand_computed_value() -> None:
    rising = [float(i) for i in range(1, 30)]
    assert a.rsi_series(rising)[-1] == 100.0
    falling = list(reversed(rising))
    assert a.rsi_series(falling)[-1] == pytest.approx(0.0)
    # period 2: changes +2, -1 → gain 1.0, loss 0.5 → RSI 66.67; then +1: gain 1.0, loss 0.25
    series = a.rsi_series([10.0, 12.0, 11.0, 12.0], period=2)
    assert series[:2] == [None, None]
    assert series[2] == pytest.approx(100 - 100 / (1 + 1.0 / 0.5))
    assert series[3] == pytest.approx(100 - 100 / (1 + 1.0 / 0.25))


def test_range_position_and_relative() -> None:
    assert a.range_position(75.0, 50.0, 150.0) == pytest.approx(0.25)
    assert a.range_position(1.0, 2.0, 2.0) is None
    assert a.relative(12.0, 10.0) == pytest.approx(0.2)
    assert a.relative(None, 10.0) is None


def _figures(**overrides: object) -> StockFigures:
    base = StockFigures(
        security_id="KR:000001", trade_date="2026-11-20", currency="KRW", price=100.0,
        sessions=260, returns={"1w": 0.01, "1m": 0.02, "3m": 0.15, "6m": 0.2, "1y": 0.3},
        volatility_20d=0.2, volatility_60d=0.25, max_drawdown_1y=-0.12, drawdown_current=-0.02,
        ma={"ma20": 98.0, "ma60": 95.0, "ma120": 90.0},
        price_vs_ma={"ma20": 0.02, "ma60": 0.05, "ma120": 0.11}, rsi14=55.0, high_52w=105.0,
        low_52w=70.0, range_position=30 / 35, pe=8.0, sector="반도체", sector_median_pe=12.0,
        pe_premium=8 / 12 - 1, peer_scope="KR 반도체", peer_count=30,
    )  # fmt: skip
    return StockFigures(**{**base, **overrides})  # type: ignore[typeddict-item]


def test_uptrend_momentum_and_discount_make_an_overweight_view_with_reasons() -> None:
    view = assess(_figures())
    assert view["stance"] == "overweight" and view["score"] == pytest.approx(
        0.35 * 2 / 2.5 + 0.4 * 1 / 4
    )
    assert [s["code"] for s in view["reasons"]] == ["trend_up", "momentum_strong", "pe_discount"]
    text = templates.signal_text(view["reasons"][2], "ko")
    assert "PER 8.00배" in text and "12.00배" in text and "보다 33.33% 낮아" in text


@pytest.mark.parametrize(
    ("premium", "said"),
    [(-0.1587, "보다 15.87% 낮습니다"), (0.12, "보다 12.00% 높습니다"), (-0.03, "와 비슷합니다")],
)
def test_the_pe_comparison_wording_follows_the_size_of_the_gap(premium: float, said: str) -> None:
    """34.57 against 41.09 (16% lower) had been '비슷합니다': only a gap under 5% is similar."""
    view = assess(_figures(pe=34.57, pe_premium=premium))
    (pe,) = [s for s in view["reasons"] if s["code"].startswith("pe_")]
    assert said in templates.signal_text(pe, "ko") and pe["weight"] == 0.0


def test_downtrend_and_premium_make_an_underweight_view_and_risks_are_listed() -> None:
    view = assess(_figures(price_vs_ma={"ma20": -0.1, "ma60": -0.1, "ma120": -0.2},
                           returns={"3m": -0.2}, pe=30.0, pe_premium=1.5, rsi14=25.0,
                           drawdown_current=-0.35, volatility_60d=0.6, range_position=0.05))  # fmt: skip
    assert view["stance"] == "underweight"
    risks = {s["code"] for s in view["risks"]}
    assert {"deep_drawdown", "high_volatility", "near_52w_low", "rsi_oversold_risk"} <= risks


def test_missing_pe_is_a_risk_not_a_reason() -> None:
    view = assess(_figures(pe=None, pe_premium=None))
    assert "pe_missing" in {s["code"] for s in view["risks"]}
    assert "pe_discount" not in {s["code"] for s in view["reasons"]}


def test_figure_rows_cover_every_figure_in_both_languages() -> None:
    ko = templates.figure_rows(_figures(), "ko")
    en = templates.figure_rows(_figures(), "en")
    assert len(ko) == len(en) == 19
    assert {"figure": "RSI(14)", "value": "55.0"} in ko
    assert any(r["figure"].startswith("Sector median P/E") and r["value"] == "12.00" for r in en)
