"""One gain/loss colour convention across candles, volume bars, change tints and tiles."""

from __future__ import annotations

import pytest
from streamlit.proto.Metric_pb2 import Metric
from streamlit.testing.v1 import AppTest

from agents.colors import CONVENTIONS, arrow, price_colors
from agents.etf.charts import changes_table
from agents.stock.charts import price_figure
from data_access.config import Settings


def _series() -> dict:
    return {"dates": ["2026-11-19", "2026-11-20"], "open": [100.0, 105.0], "high": [106.0, 106.0],
            "low": [99.0, 97.0], "close": [105.0, 98.0], "volume": [10, 20], "ma": {}}  # fmt: skip


def test_korean_is_the_default_red_up_blue_down() -> None:
    assert Settings().price_colors == "korean"
    korean = price_colors()
    assert (korean.for_change(1.5), korean.for_change(-0.1)) == ("#dc2626", "#2563eb")
    assert (korean.tile_color(0.2), korean.tile_color(-3), korean.tile_color(0)) == (
        "red", "blue", "gray",
    )  # fmt: skip
    assert (arrow(-2.0), arrow(0.5), arrow(None), arrow(0)) == ("down", "up", "off", "off")


@pytest.mark.parametrize("name", list(CONVENTIONS))
def test_candles_and_volume_use_the_convention(name: str, monkeypatch) -> None:
    from data_access import config

    monkeypatch.setenv("PRICE_COLORS", name)
    config.get_settings.cache_clear()
    try:
        fig = price_figure(_series(), {"high_52w": 106, "low_52w": 97, "currency": "KRW"}, "X")
    finally:
        config.get_settings.cache_clear()
    colors = CONVENTIONS[name]
    candle = next(t for t in fig.data if t.type == "candlestick")
    assert candle.increasing.line.color == colors.up
    assert candle.decreasing.line.color == colors.down
    volume = next(t for t in fig.data if t.name == "거래량")
    assert list(volume.marker.color) == [colors.up, colors.down]  # day 1 rose, day 2 fell


def test_international_setting_is_green_up_red_down(monkeypatch) -> None:
    monkeypatch.setenv("PRICE_COLORS", "international")
    assert Settings().price_colors == "international"
    assert price_colors("international").tile_color(1.0) == "green"
    monkeypatch.setenv("PRICE_COLORS", "upside-down")
    with pytest.raises(ValueError):
        Settings()


def test_holdings_changes_rows_take_rise_and_fall_tints() -> None:
    rows = [{"stock_code": str(i), "stock_name": k, "change_type": k, "old_weight": 1.0,
             "new_weight": 2.0} for i, k in enumerate(("added", "increased", "decreased", "removed"))]  # fmt: skip
    _, tints = changes_table(rows)
    korean = price_colors("korean")
    assert tints == [*korean.up_tints, korean.down_tints[1], korean.down_tints[0]]


def test_tile_arrow_follows_the_score_not_the_text() -> None:
    """'종합 점수 -2.00' starts with a letter, so Streamlit alone would draw an up arrow."""

    def page() -> None:
        import streamlit as st

        from pages import _ui as ui

        ui.price_metric(st, "의견", "비중 축소", "종합 점수 -2.00", -2.0)
        ui.price_metric(st, "현재가", "1,000원", "+1.00%", 1.0)

    at = AppTest.from_function(page).run()
    down, up = at.metric
    assert (down.proto.direction, down.proto.color) == (Metric.DOWN, Metric.BLUE)
    assert (up.proto.direction, up.proto.color) == (Metric.UP, Metric.RED)


def test_sparkline_is_inline_svg_in_the_move_colour() -> None:
    from pages._ui import SPARK_HEIGHT, sparkline_svg

    svg = sparkline_svg([10.0, None, 12.0, 11.0], price_colors("korean").for_change(-1.0))
    assert svg.startswith("<svg") and 'stroke="#2563eb"' in svg and "<script" not in svg
    points = svg.split('points="')[1].split('"')[0].split()
    assert len(points) == 3  # the missing close is skipped
    assert [float(p.split(",")[1]) for p in points] == [SPARK_HEIGHT - 2, 2.0, SPARK_HEIGHT / 2]
    assert sparkline_svg([5.0, 5.0], "#000") != ""  # flat: a line, no division by zero
    assert sparkline_svg([5.0], "#000") == sparkline_svg([], "#000") == ""


def _event(move: float, session: str) -> dict:
    return {"session": session, "date": session, "move_day": move, "move_next": 0.01,
            "polarity": -1 if move > 0 else 1, "explained": True, "category": "earnings",
            "headline": "h"}  # fmt: skip


def test_event_markers_point_the_way_the_day_moved_in_its_colour() -> None:
    """A −6.74% day is ▼ in the fall colour under the candle whatever the news' tone; a rise ▲."""
    korean = price_colors("korean")
    events = [_event(0.031, "2026-11-19"), _event(-0.0674, "2026-11-20")]
    fig = price_figure(_series(), {"high_52w": 106, "low_52w": 97, "currency": "KRW"}, "X", events)
    markers = next(t for t in fig.data if t.name and t.name.startswith("이벤트"))
    assert list(markers.marker.symbol) == ["triangle-up", "triangle-down"]
    assert list(markers.marker.color) == [korean.up, korean.down]
    assert markers.y[0] > 106 and markers.y[1] < 97  # above the high, below the low


def test_etf_volume_bars_take_the_close_to_close_move() -> None:
    from agents.etf.charts import price_figure as etf_price_figure

    daily = [
        {"date": f"2026-11-1{i}", "close": c, "volume": 10}
        for i, c in enumerate((100, 102, 99, 99))
    ]
    fig = etf_price_figure({"daily": daily, "summary": {"period": "1m"}}, "KODEX 200")
    korean = price_colors("korean")
    volume = next(t for t in fig.data if t.name == "거래대금")
    assert list(volume.marker.color)[1:] == [korean.up, korean.down, korean.for_change(0)]
    assert fig.layout.title.text.startswith("KODEX 200 가격·거래대금")


def test_returns_in_tables_take_the_rise_and_fall_colours() -> None:
    import pandas as pd

    from pages._ui import signed_number, signed_style

    assert [signed_number(v) for v in ("+3.21%", "-6.74%", "−0.25%p", "-", "0.00%", 1.5, None)] == [
        1.0, -1.0, -1.0, None, None, 1.5, None]  # fmt: skip
    frame = pd.DataFrame({"이름": ["A", "B"], "1개월 수익률(%)": [2.0, -1.0]})
    html = signed_style(frame, ["1개월 수익률(%)"]).to_html()
    korean = price_colors("korean")
    assert f"color: {korean.up}" in html and f"color: {korean.down}" in html
