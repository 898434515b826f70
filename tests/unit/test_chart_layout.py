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
        if any(t.name == "거래량" for t in fig.data):  # the stock price chart: under its dates
            assert (legend.yref, legend.y, legend.yanchor) == ("paper", -0.1, "top")
        else:
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
    price, lower = charts_for({"series": series, "figures": figures, "events": events})
    by_name = {t.name: t for t in price.data}
    assert len(by_name["일봉"].x) == len(by_name["거래량"].x) == CANDLE_SESSIONS == 126
    assert list(by_name["20일 이동평균"].x) == days[-126:]
    assert list(by_name["이벤트 (▲ 상승일 · ▼ 하락일)"].x) == [days[-1]]  # the older one is cut
    assert price.layout.title.text == "KR:1 가격·거래량 (6개월 일봉)"
    drawdown, rsi = lower.data  # one figure, two rows on one date axis
    assert len(drawdown.x) == len(rsi.x) == 290  # the whole year
    assert lower.layout.title.text == "KR:1 고점 대비 낙폭 · RSI(14)"
    assert (drawdown.yaxis, rsi.yaxis) == ("y", "y2") and lower.layout.yaxis2.range == (0, 100)


def test_the_stock_charts_draw_once_with_margins_of_their_own() -> None:
    """Plotly's automargin (on for every axis in Streamlit's template) measured the labels and
    drew each chart again: the stock charts turn it off and size their margins to their labels."""
    from agents.stock.charts import charts_for

    days = [f"2026-{1 + i // 28:02d}-{1 + i % 28:02d}" for i in range(200)]
    series = {"dates": days, "open": [1.0] * 200, "high": [104_300.0] * 200, "low": [0.5] * 200,
              "close": [1.5] * 200, "volume": [42_000_000] * 200, "ma": {},
              "drawdown": [-0.2] * 200, "rsi": [50.0] * 200,
              "peers": [{"name": "이엔에프테크놀로지", "pe": 12.0, "is_self": False},
                        {"name": "A", "pe": 9.0, "is_self": True}]}  # fmt: skip
    figures = {"high_52w": 2.0, "low_52w": 0.5, "currency": "KRW", "security_id": "KR:1",
               "sector_median_pe": 10.0, "peer_scope": "섹터", "peer_count": 2}  # fmt: skip
    price, lower, peers = charts_for({"series": series, "figures": figures})
    for fig in (price, lower, peers):
        axes = [fig.layout[k] for k in fig.layout if k.startswith(("xaxis", "yaxis"))]
        assert axes and all(axis.automargin is False for axis in axes)
    # volume in 만 주 (4,200, not 42,000,000); '104,300' is the longest label beside its title
    volume = next(t for t in price.data if t.name == "거래량")
    assert max(volume.y) == 4_200 and price.layout.yaxis2.title.text == "거래량 (만 주)"
    assert price.layout.margin.l >= 7 * 7 + 40 > lower.layout.margin.l
    # nine Korean characters at -45° need more than the default 50 px under the bars
    assert peers.layout.margin.b > 100
