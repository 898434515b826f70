"""Every figure keeps its legend under the plot (never over the title) and its bar labels
unclipped, whichever module built it."""

from __future__ import annotations

import pandas as pd

from agents.etf.charts import bar_figure, weights_figure
from agents.stock.charts import pe_peers_figure, price_figure
from pages._charts import bar_chart, line_chart


def _figures() -> list:
    series = {"dates": ["2026-11-19", "2026-11-20"], "open": [1.0, 2.0], "high": [2.0, 3.0],
              "low": [0.5, 1.0], "close": [2.0, 1.5], "volume": [1, 2], "ma": {"ma20": [1.0, 2.0]},
              "peers": [{"name": "A", "pe": 9.0, "is_self": True}, {"name": "B", "pe": 12.0, "is_self": False}]}  # fmt: skip
    figures = {"high_52w": 3.0, "low_52w": 0.5, "currency": "KRW", "sector_median_pe": 10.0,
               "peer_scope": "섹터", "peer_count": 2}  # fmt: skip
    frame = pd.DataFrame(
        {"d": pd.to_datetime(["2026-11-19", "2026-11-20"]), "a": [1, 2], "b": [2, 1]}
    )
    return [
        bar_chart(["가", "나"], [1.0, 2.0], title="t", x_label="x", y_label="y"),
        line_chart(frame, x="d", y_columns=["a", "b"], title="t", x_label="x", y_label="y"),
        bar_figure(["가"], [1.0], "t", "x", "y"),
        weights_figure([{"stock_name": "가", "weight": 3.0}], "E"),
        price_figure(series, figures, "S"),
        pe_peers_figure(series, figures, "S"),
    ]


def test_legend_below_the_plot_and_title_on_the_left() -> None:
    for fig in _figures():
        legend, title = fig.layout.legend, fig.layout.title
        assert (legend.yref, legend.y, legend.yanchor) == ("container", 0.0, "bottom")
        assert title.xanchor == "left"


def test_outside_bar_labels_are_not_clipped() -> None:
    bars = [t for fig in _figures() for t in fig.data if t.type == "bar" and t.textposition]
    assert bars and all(t.cliponaxis is False for t in bars)


def test_date_axes_write_numbers_not_english_months() -> None:
    price, peers = _figures()[4], _figures()[5]
    stops = [s.value for s in price.layout.xaxis.tickformatstops]
    assert stops == ["%m-%d", "%Y-%m"] and price.layout.xaxis.hoverformat == "%Y-%m-%d"
    assert not peers.layout.xaxis.tickformatstops  # a category axis keeps its names


def test_the_stock_price_chart_draws_half_a_year_of_candles() -> None:
    """A year's 290 candles and volume bars were most of the report's chart drawing in the
    browser: the last 126 sessions are drawn, moving averages and events with them."""
    from agents.stock.charts import CANDLE_SESSIONS, charts_for

    days = [f"d{i:03d}" for i in range(290)]
    series = {"dates": days, "open": [1.0] * 290, "high": [2.0] * 290, "low": [0.5] * 290,
              "close": [1.5] * 290, "volume": [1] * 290, "ma": {"ma20": [1.0] * 290},
              "drawdown": [0.0] * 290, "rsi": [50.0] * 290}  # fmt: skip
    figures = {"high_52w": 2.0, "low_52w": 0.5, "currency": "KRW", "security_id": "KR:1"}
    events = [{"session": days[-1], "date": days[-1], "move_day": -0.0674, "explained": True,
               "category": "earnings", "polarity": -1, "headline": "h"},
              {"session": days[0], "date": days[0], "move_day": 0.01, "explained": True,
               "category": "earnings", "polarity": 1, "headline": "h"}]  # fmt: skip
    price, drawdown, rsi = charts_for({"series": series, "figures": figures, "events": events})
    by_name = {t.name: t for t in price.data}
    assert len(by_name["일봉"].x) == len(by_name["거래량"].x) == CANDLE_SESSIONS == 126
    assert list(by_name["20일 이동평균"].x) == days[-126:]
    assert list(by_name["이벤트 (▲ 상승일 · ▼ 하락일)"].x) == [days[-1]]  # the older one is cut
    assert price.layout.title.text == "KR:1 가격·거래량 (6개월 일봉)"
    assert len(drawdown.data[0].x) == len(rsi.data[0].x) == 290  # the whole year
