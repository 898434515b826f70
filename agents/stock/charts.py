"""Plotly figures of a stock report (no Streamlit, so tests and the CLI can build them too).

`charts_for(payload)` returns the three figures the screen shows: candlesticks with volume,
moving averages and the 52-week band; drawdown from the running high over RSI(14) with its 30/70
lines (one figure, two rows); P/E against the sector peers with the median. Every figure has a
title and axis labels, and fixed margins (see `_fixed_margins`).
"""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

from agents.chart_style import LEGEND, base_layout, figure_of, hline, session_axis
from agents.colors import price_colors
from agents.stock.templates import EVENT_CATEGORIES, pct

MA_COLORS = {"ma20": "#ea580c", "ma60": "#2563eb", "ma120": "#9333ea"}
HIGHLIGHT = "#ea580c"  # the stock among its peers: not a gain or a loss colour
MAX_PEER_BARS = 30
UNEXPLAINED = "#f59e0b"  # outline of an event marker no news explains
POLARITY_WORDS = {1: " (호재)", -1: " (악재)", 0: ""}


# The price chart's sessions: half a year of daily candles. A year's 290 candles and volume bars
# were most of the report's chart drawing in the browser (~1.7 s under load); the drawdown and
# RSI charts (lines) keep the whole year, the 52-week band its year.
CANDLE_SESSIONS = 126
DAILY_KEYS = ("dates", "open", "high", "low", "close", "volume")


def recent(series: dict[str, Any], sessions: int) -> dict[str, Any]:
    """`series` cut to its last `sessions` sessions (prices, volume and moving averages)."""
    cut = {k: series[k][-sessions:] for k in DAILY_KEYS if k in series}
    cut["ma"] = {k: v[-sessions:] for k, v in (series.get("ma") or {}).items()}
    return {**series, **cut}


def _layout(title: str, x_label: str, y_label: str, height: int = 360) -> dict[str, Any]:
    return base_layout(title, x_label, y_label, height=height, top=70)


def _fixed_margins(layout: dict[str, Any], *, left: int = 60, bottom: int = 50) -> dict[str, Any]:
    """`layout` with its margins set here and plotly's automargin off on every axis. Automargin
    (on in Streamlit's template) measures the tick labels and draws the figure again with the
    margins it found: about half of each chart's drawing in the browser (standalone, the three
    charts took 260-520 ms with it and 130-170 ms without)."""
    layout["margin"].update(l=left, b=bottom)
    for key, axis in layout.items():
        if key.startswith(("xaxis", "yaxis")):
            axis["automargin"] = False
    return layout


def _left_for(*values: float | None) -> int:
    """A left margin wide enough for the longest tick label of `values` written in full
    ('40,000,000') beside its rotated axis title (~7 px a character at 12 px, ~40 px for the title)."""
    longest = max((len(f"{abs(v):,.0f}") + (v < 0) for v in values if v is not None), default=3)
    return 7 * longest + 44


def _bottom_for(labels: list[str]) -> int:
    """A bottom margin for category labels drawn at -45° (a Korean character is ~12 px wide at
    12 px; its height at -45° about 0.71 of that) and the axis title under them."""
    longest = max((len(label) for label in labels), default=4)
    return min(180, round(12 * 0.71 * longest) + 56)


def _unit(currency: str) -> str:
    return "원" if currency == "KRW" else "USD"


def _event_markers(series: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any] | None:
    """One marker per news event on its first session, in the gain/loss convention of the
    candles: a day that rose gets ▲ in the rise colour above the candle, a day that fell ▼ in
    the fall colour below it. A move no news explains has an amber outline; hover shows the
    headline, whether the news was good or bad, and the reaction."""
    where = {d: i for i, d in enumerate(series["dates"])}
    shown = [e for e in events if e.get("session") in where]
    if not shown:
        return None
    colors = price_colors()
    xs, ys, fills, symbols, outlines, labels, hovers = [], [], [], [], [], [], []
    for e in shown:
        i = where[e["session"]]
        move = e.get("move_day") or 0.0
        up = move >= 0
        xs.append(e["session"])
        ys.append(series["high"][i] * 1.03 if up else series["low"][i] * 0.97)
        fills.append(colors.for_change(move) if move else colors.up)
        symbols.append("triangle-up" if up else "triangle-down")
        outlines.append("#111827" if e["explained"] else UNEXPLAINED)
        labels.append(EVENT_CATEGORIES["ko"].get(e["category"], e["category"]))
        moves = f"당일 {pct(e.get('move_day'))} · 다음 거래일 {pct(e.get('move_next'))}"
        tone = POLARITY_WORDS.get(e["polarity"], "")
        why = "" if e["explained"] else "<br>뉴스로 설명되지 않는 급변"
        hovers.append(f"{e['date']} {labels[-1]}{tone}<br>{e['headline'][:60] or '(뉴스 없음)'}"
                      f"<br>{moves}{why}")  # fmt: skip
    return {
        "type": "scatter", "x": xs, "y": ys, "mode": "markers+text", "name": "이벤트 (▲ 상승일 · ▼ 하락일)",
        "text": labels, "textfont": {"size": 11}, "hovertext": hovers, "hoverinfo": "text",
        "textposition": ["top center" if s == "triangle-up" else "bottom center" for s in symbols],
        "marker": {"size": 13, "color": fills, "symbol": symbols, "line": {"width": 2, "color": outlines}},
        "xaxis": "x", "yaxis": "y",
    }  # fmt: skip


def _rounded(values: list[float | None]) -> list[float | None]:
    """Two decimals, as drawn and hovered: the unrounded moving averages, drawdowns and RSI
    (17 digits each) were most of the report's chart data the browser parsed and checked."""
    return [None if v is None else round(v, 2) for v in values]


def price_figure(series: dict[str, Any], figures: dict[str, Any], name: str,
                 events: list[dict[str, Any]] | None = None) -> go.Figure:  # fmt: skip
    """Candlesticks of the last CANDLE_SESSIONS sessions, moving averages, the 52-week high/low
    band and the news events over volume bars (two rows sharing the date axis: prices 75%,
    volume 25%)."""
    series = recent(series, CANDLE_SESSIONS)
    dates, colors = series["dates"], price_colors()
    top = {"xaxis": "x", "yaxis": "y"}
    data: list[dict[str, Any]] = [{
        "type": "candlestick", "x": dates, "open": series["open"], "high": series["high"],
        "low": series["low"], "close": series["close"], "name": "일봉",
        "increasing": {"line": {"color": colors.up}}, "decreasing": {"line": {"color": colors.down}}, **top,
    }]  # fmt: skip
    for key, values in series["ma"].items():
        data.append({"type": "scatter", "x": dates, "y": _rounded(values), "mode": "lines",
                     "name": f"{key[2:]}일 이동평균",
                     "line": {"color": MA_COLORS.get(key, "#4b5563"), "width": 1.5}, **top})  # fmt: skip
    high, low = figures["high_52w"], figures["low_52w"]
    for level, label, dash in ((high, "52주 고가", "dash"), (low, "52주 저가", "dot")):
        data.append({"type": "scatter", "x": [dates[0], dates[-1]], "y": [level, level],
                     "mode": "lines", "name": label,
                     "line": {"color": "#6b7280", "dash": dash, "width": 1}, **top})  # fmt: skip
    markers = _event_markers(series, events or [])
    if markers is not None:
        data.append(markers)
    moves = [c - o for o, c in zip(series["open"], series["close"], strict=False)]
    # volume in 만 주 ('4,000', not '40,000,000'): a short tick label keeps the left margin
    # narrow enough for the candles at 420 px
    volume = _rounded([v / 10_000 if v is not None else None for v in series["volume"]])
    data.append({"type": "bar", "x": dates, "y": volume, "name": "거래량",
                 "hovertemplate": "%{x}: %{y:,.1f}만 주<extra></extra>",
                 "marker": {"color": [colors.up if m >= 0 else colors.down for m in moves]},
                 "showlegend": False, "xaxis": "x2", "yaxis": "y2"})  # fmt: skip
    # short enough for 420 px (the legend names the moving averages, the band and the events)
    layout = _layout(f"{name} 가격·거래량 (6개월 일봉)", "", "", height=520)
    axis = session_axis(dates)  # sessions side by side: no empty weekends between the candles
    layout.update(
        xaxis={"anchor": "y", "domain": [0.0, 1.0], "matches": "x2", "showticklabels": False,
               "rangeslider": {"visible": False}, **axis},
        yaxis={"anchor": "x", "domain": [0.28, 1.0], "title": {"text": f"가격 ({_unit(figures['currency'])})"},
               "tickformat": ","},
        # no axis title under the dates: the legend under them wraps into rows at 420 px, and
        # with fixed margins plotly drew the title over the tick labels
        xaxis2={"anchor": "y2", "domain": [0.0, 1.0], **axis},
        yaxis2={"anchor": "x2", "domain": [0.0, 0.24], "title": {"text": "거래량 (만 주)"}, "tickformat": ","},
        shapes=[{"type": "rect", "xref": "x domain", "x0": 0, "x1": 1, "yref": "y", "y0": low,
                 "y1": high, "fillcolor": "#9ca3af", "opacity": 0.07, "line": {"width": 0}}],
    )  # fmt: skip
    # The legend hangs under the dates (paper coordinates): at the container's bottom, with the
    # margins fixed, its rows wrapped at 420 px covered the date labels; plotly grows the bottom
    # margin for it as for the shared legend.
    layout["legend"] = {**LEGEND, "yref": "paper", "y": -0.1, "yanchor": "top"}
    _fixed_margins(
        layout, left=_left_for(max(series["high"]), max(v or 0 for v in volume)), bottom=72
    )
    return figure_of(data, layout)


def pe_peers_figure(series: dict[str, Any], figures: dict[str, Any], name: str) -> go.Figure:
    """The stock's P/E among its sector peers (the stock highlighted), with the sector median."""
    peers = list(series["peers"])
    if len(peers) > MAX_PEER_BARS:  # keep the stock itself and spread the rest evenly
        step = len(peers) / MAX_PEER_BARS
        picked = {int(i * step) for i in range(MAX_PEER_BARS)}
        peers = [p for i, p in enumerate(peers) if i in picked or p["is_self"]]
    own = next((p["pe"] for p in peers if p["is_self"]), None)
    written = f"{name} {own:.1f}배 · " if own is not None else ""
    # two lines: on one ('… PER vs 섹터 (KR 반도체, 32종목) · 삼성전자 14.8배') it was cut at 420 px
    layout = _layout(f"{name} PER과 섹터 비교<br>{written}{figures['peer_scope']} {figures['peer_count']}종목",
                     "종목", "PER (배)", height=420)  # fmt: skip
    layout["margin"]["t"] = 84
    layout["xaxis"]["tickangle"] = -45
    median = figures.get("sector_median_pe")
    if median:
        shape, notes = hline(median, dash="dash", color="#16a34a", label=f"섹터 중앙값 {median:.2f}",
                             label_at="left")  # fmt: skip
        notes[0]["bgcolor"] = "rgba(255,255,255,0.85)"
        layout["shapes"], layout["annotations"] = [shape], notes
    pes = [p["pe"] for p in peers if p["pe"] is not None]
    _fixed_margins(
        layout,
        left=_left_for(max(pes, default=0.0)),
        bottom=_bottom_for([p["name"] for p in peers]),
    )
    return figure_of([{
        "type": "bar", "x": [p["name"] for p in peers], "y": [p["pe"] for p in peers],
        "marker": {"color": [HIGHLIGHT if p["is_self"] else "#9ca3af" for p in peers]},
        # no value labels on the bars: the browser measured each of the 31 (0.6 -> 0.37 s of
        # main-thread time for this chart); the stock's own PER is in the title, each bar's in
        # its hover
        "name": "PER", "hovertemplate": "%{x}: PER %{y:.2f}<extra></extra>",
    }], layout)  # fmt: skip


def drawdown_rsi_figure(series: dict[str, Any], name: str) -> go.Figure:
    """Drawdown from the running high over RSI(14) with its 30/70 lines: one figure with two
    rows on one date axis (the whole year). Two plotly charts cost the browser twice a chart's
    fixed drawing work (Streamlit draws each figure again once its width is known)."""
    dates = series["dates"]
    axis = session_axis(dates)
    layout = _layout(f"{name} 고점 대비 낙폭 · RSI(14)", "", "", height=440)
    layout.update(
        xaxis={"anchor": "y", "domain": [0.0, 1.0], "matches": "x2", "showticklabels": False, **axis},
        yaxis={"anchor": "x", "domain": [0.56, 1.0], "title": {"text": "낙폭 (%)"}},
        xaxis2={"anchor": "y2", "domain": [0.0, 1.0], "title": {"text": "거래일", "standoff": 22}, **axis},
        yaxis2={"anchor": "x2", "domain": [0.0, 0.44], "title": {"text": "RSI"}, "range": [0, 100]},
        shapes=[], annotations=[],
    )  # fmt: skip
    for level, label in ((70, "과매수 70"), (30, "과매도 30")):
        shape, notes = hline(level, yref="y2", label=label)
        layout["shapes"].append(shape)
        layout["annotations"] += notes
    layout["showlegend"] = False  # each row's axis names its line
    _fixed_margins(layout, left=_left_for(-100.0), bottom=64)
    return figure_of([
        {"type": "scatter", "x": dates, "y": _rounded([v * 100 for v in series["drawdown"]]),
         "mode": "lines", "fill": "tozeroy", "name": "낙폭", "line": {"color": price_colors().down, "width": 1.5},
         "hovertemplate": "%{x}: %{y:.2f}%<extra></extra>", "xaxis": "x", "yaxis": "y"},
        {"type": "scatter", "x": dates, "y": _rounded(series["rsi"]), "mode": "lines", "name": "RSI(14)",
         "line": {"color": "#9333ea", "width": 1.5}, "xaxis": "x2", "yaxis": "y2"},
    ], layout)  # fmt: skip


def _point_note(x: str, y: float, text: str, color: str, *, right: bool) -> dict[str, Any]:
    """A value written beside its point on a white ground (plotly's trace text sat on the line)."""
    return {"x": x, "y": y, "text": text, "showarrow": False, "yshift": 14,
            "xanchor": "left" if right else "right", "font": {"color": color},
            "bgcolor": "rgba(255,255,255,0.85)"}  # fmt: skip


EXTREME_WORDS = {"max": "최고", "min": "최저"}
WINDOW_BOTTOM = 60  # the date ticks and the axis title '날짜' under them (fixed margins)


def window_figure(rows: list[dict[str, Any]], name: str, label: str, *, currency: str = "KRW",
                  volume: bool = False, extreme: tuple[str, str] | None = None) -> go.Figure:  # fmt: skip
    """A question's own figure (agents.stock.report_window): the closes of the window asked,
    its first and last close written beside their points in the rise/fall colour of the move,
    and with `extreme` ('max', 'high') the session of the extreme asked for; or the volume
    bars, when the question was about volume."""
    dates, colors = [r["date"] for r in rows], price_colors()
    if volume:
        values = _rounded([r["volume"] / 10_000 for r in rows])
        layout = _layout(f"{name} 거래량 ({label})", "날짜", "거래량 (만 주)", height=340)
        bars = {"type": "bar", "x": dates, "y": values, "name": "거래량",
                "marker": {"color": "#6b7280"},
                "hovertemplate": "%{x}: %{y:,.1f}만 주<extra></extra>"}  # fmt: skip
        _fixed_margins(layout, left=_left_for(max(v or 0 for v in values)), bottom=WINDOW_BOTTOM)
        layout["xaxis"].update(session_axis(dates))
        return figure_of([bars], layout)
    closes, unit = [r["close"] for r in rows], _unit(currency)

    def money(v: float) -> str:
        return f"{v:,.2f}" if unit == "USD" else f"{v:,.0f}"

    color = colors.up if closes[-1] >= closes[0] else colors.down
    notes = [_point_note(dates[0], closes[0], money(closes[0]), "#374151", right=True),
             _point_note(dates[-1], closes[-1], money(closes[-1]), color, right=False)]  # fmt: skip
    data: list[dict[str, Any]] = [
        {"type": "scatter", "x": dates, "y": closes, "mode": "lines", "name": "종가",
         "line": {"color": "#4b5563", "width": 2}, "hovertemplate": "%{x}: %{y:,}<extra></extra>"},
        {"type": "scatter", "x": [dates[0], dates[-1]], "y": [closes[0], closes[-1]],
         "mode": "markers", "name": "처음·마지막 종가", "marker": {"size": 8, "color": color},
         "hoverinfo": "skip"},
    ]  # fmt: skip
    top = max(closes)
    if extreme is not None and extreme[0] in EXTREME_WORDS:
        stat, field = extreme
        pick = max if stat == "max" else min
        row = pick(rows, key=lambda r: r.get(field, r["close"]))
        value, mark = row.get(field, row["close"]), colors.up if stat == "max" else colors.down
        top = max(top, value)
        data.append({"type": "scatter", "x": [row["date"]], "y": [value], "mode": "markers",
                     "name": EXTREME_WORDS[stat], "hoverinfo": "skip",
                     "marker": {"size": 10, "symbol": "triangle-up" if stat == "max" else "triangle-down",
                                "color": mark}})  # fmt: skip
        notes.append(_point_note(row["date"], value, f"{EXTREME_WORDS[stat]} {money(value)} ({row['date'][5:]})",
                                 mark, right=row["date"] <= dates[len(dates) // 2]))  # fmt: skip
    layout = _layout(f"{name} 종가 ({label})", "날짜", f"종가 ({unit})", height=340)
    layout.update(showlegend=False, annotations=notes)
    layout["yaxis"]["tickformat"] = ","
    layout["xaxis"].update(session_axis(dates))
    _fixed_margins(layout, left=_left_for(top), bottom=WINDOW_BOTTOM)
    return figure_of(data, layout)


def charts_for(payload: dict[str, Any]) -> list[go.Figure]:
    """The report's figures, or none when the run produced no figures (an error report)."""
    series, figures = payload.get("series"), payload.get("figures")
    if not series or not figures or not series.get("dates"):
        return []
    name = str(payload.get("name") or figures["security_id"])
    out = [price_figure(series, figures, name, payload.get("events")),
           drawdown_rsi_figure(series, name)]  # fmt: skip
    if series.get("peers"):
        out.append(pe_peers_figure(series, figures, name))
    return out
