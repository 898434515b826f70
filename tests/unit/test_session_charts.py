"""Price charts over sessions, in an analyst's units, and a change charted as the answer gives
it (issue 33)."""

from __future__ import annotations

from datetime import date, timedelta

from agents.chart_style import session_breaks
from agents.etf.charts import price_figure
from agents.macro.charts import series_figures


def _weekdays(first: str, n: int, skip: frozenset[str] = frozenset()) -> list[str]:
    day, out = date.fromisoformat(first), []
    while len(out) < n:
        if day.weekday() < 5 and day.isoformat() not in skip:
            out.append(day.isoformat())
        day += timedelta(days=1)
    return out


def test_a_daily_series_breaks_at_weekends_and_at_its_holidays() -> None:
    dates = _weekdays("2026-09-21", 10, skip=frozenset({"2026-09-24", "2026-09-25"}))
    assert session_breaks(dates) == [
        {"bounds": ["sat", "mon"]},
        {"values": ["2026-09-24", "2026-09-25"]},
    ]


def test_a_series_with_weekend_dates_breaks_only_where_a_day_is_missing() -> None:
    assert session_breaks(["2026-11-20", "2026-11-21", "2026-11-22", "2026-11-24"]) == [
        {"values": ["2026-11-23"]}
    ]


def test_a_monthly_series_keeps_its_calendar_axis() -> None:
    assert session_breaks([f"2026-{m:02d}-01" for m in range(1, 11)]) == []


def test_the_etf_price_chart_bars_are_trading_value_in_eok_over_sessions() -> None:
    dates = _weekdays("2026-11-10", 6)
    daily = [{"date": d, "close": 10_000 + 100 * i, "volume": 1_500_000 + i}
             for i, d in enumerate(dates)]  # fmt: skip
    fig = price_figure({"daily": daily, "summary": {"period": "1m"}}, "KODEX 200")
    bars = next(t for t in fig.data if t.type == "bar")
    # 10,000원 × 1,500,000주 = 150억 원; the hover keeps the volume in 만 주
    assert bars.name == "거래대금" and bars.y[0] == 150.0 and bars.customdata[0] == 150.0
    assert fig.layout.yaxis2.title.text == "거래대금 (억 원)"
    assert fig.layout.xaxis2.rangebreaks[0].bounds == ("sat", "mon")
    assert fig.layout.title.text == "KODEX 200 가격·거래대금 (1개월)"


def test_a_foreign_stock_keeps_its_volume_in_man_ju() -> None:
    daily = [{"date": d, "close": 200.5, "volume": 3_000_000} for d in _weekdays("2026-11-10", 3)]
    fig = price_figure(
        {"daily": daily, "summary": {"period": "1m"}}, "Applied Materials", krw=False
    )
    assert fig.layout.yaxis2.title.text == "거래량 (만 주)" and fig.data[1].y[0] == 300.0


def _cpi_payload(frame: dict[str, object]) -> dict[str, object]:
    points = [[f"{2025 + (m >= 12)}-{m % 12 + 1:02d}-01", 116.34 + 0.2 * (m - 9)]
              for m in range(9, 22)]  # 2025-10 … 2026-10  # fmt: skip
    series = {"key": "KR_CPI", "title": "한국 소비자물가지수 (KR_CPI)", "unit": "index 2020=100",
              "points": points}  # fmt: skip
    return {"agent_responses": {"macro": {"series": [series]}}, "understanding": {"frame": frame}}


def test_an_inflation_rate_is_charted_as_the_rate_the_answer_gives_not_the_index() -> None:
    frame = {"measures": [{"name": "return", "surface": "상승률"}], "operation": {"kind": "trend"}}
    (fig,) = series_figures(_cpi_payload(frame), "2026-11-20")
    line = fig.data[0]
    assert fig.layout.title.text == "한국 소비자물가지수 상승률 (2025-10 대비)"
    assert line.x[0] == "2025-10-01" and line.y[0] == 0.0
    assert line.y[-1] == round((116.34 + 2.4) / 116.34 * 100 - 100, 2)  # the answer's +x.xx%
    assert fig.layout.yaxis.title.text == "상승률 (%)"


def test_a_level_asked_without_a_change_stays_the_level() -> None:
    (fig,) = series_figures(_cpi_payload({"measures": [], "operation": {"kind": "trend"}}), None)
    assert fig.data[0].y[0] == 116.34 and fig.layout.title.text == "한국 소비자물가지수"


def test_a_rate_series_keeps_its_level_chart_when_a_change_is_asked() -> None:
    payload = _cpi_payload({"measures": [{"name": "return", "surface": "상승률"}]})
    payload["agent_responses"]["macro"]["series"][0]["unit"] = "percent"  # type: ignore[index]
    (fig,) = series_figures(payload, None)
    assert fig.data[0].y[0] == 116.34


def test_the_months_an_answer_lists_are_charted_with_its_pick_marked() -> None:
    from agents.macro.charts import period_figure

    point = ("코스피 최근 3개월 중 가장 크게 오른 달: 2026-10 +8.45% (10-01 ~ 10-30). 코스피 월별 "
             "수익률: 2026-09 -3.71% (09-01 ~ 09-30), 2026-10 +8.45% (10-01 ~ 10-30), "
             "2026-11 +1.28% (11-02 ~ 11-20).")  # fmt: skip
    fig = period_figure({"key_points": [point, "코스피 4,020.00포인트 (2026-11-20)"]})
    assert fig is not None and fig.layout.title.text == "코스피 월별 수익률"
    bars = fig.data[0]
    assert list(bars.x) == ["2026-09", "2026-10", "2026-11"] and list(bars.y) == [-3.71, 8.45, 1.28]
    assert list(bars.marker.line.width) == [0, 3, 0]
    assert [(a.x, a.text) for a in fig.layout.annotations] == [("2026-10", "+8.45%")]
    assert period_figure({"key_points": ["코스피 4,020.00포인트 (2026-11-20)"]}) is None
