"""Layout shared by every plotly figure (agents/*/charts.py and pages/_charts.py).

The legend sits under the plot, below the x-axis title, in the figure's own coordinates: at the
top right it covered a left-aligned title as soon as the page was narrow (420 px) and wrapped.
Plotly grows the bottom margin to fit it, however many rows it wraps into.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date, timedelta
from typing import Any

import plotly.graph_objects as go

FONT_FAMILY = "Noto Sans KR, Noto Sans CJK KR, NanumGothic, sans-serif"
LEGEND: dict[str, Any] = {
    "orientation": "h",
    "yref": "container",
    "y": 0.0,
    "yanchor": "bottom",
    "xanchor": "left",
    "x": 0.0,
}

ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}")
DAY_MS = 86_400_000
# Plotly writes English month names on date axes ("Jan 2026"): numbers instead, coarser when
# zoomed out. Only for date axes (on a number axis these formats would garble the ticks).
DATE_TICKS: list[dict[str, Any]] = [
    {"dtickrange": [None, DAY_MS * 27], "value": "%m-%d"},
    {"dtickrange": [DAY_MS * 27, None], "value": "%Y-%m"},
]


DATE_AXIS: dict[str, Any] = {"tickformatstops": DATE_TICKS, "hoverformat": "%Y-%m-%d"}
DAILY_GAP_DAYS = 4  # a series whose dates are mostly this close is daily (sessions), not monthly


def session_breaks(dates: Sequence[str]) -> list[dict[str, Any]]:
    """Plotly rangebreaks that close the gaps between a daily series' sessions: the weekends
    (when no date falls on one) and every weekday the series has no row for (a holiday). A
    date axis drew each weekend and holiday as an empty stretch of the price line and a missing
    volume bar. [] for a series that is not daily (monthly CPI keeps its calendar axis)."""
    days = sorted({date.fromisoformat(str(d)[:10]) for d in dates if ISO_DAY.match(str(d))})
    if len(days) < 3 or len(days) < len(dates):
        return []
    gaps = sorted((b - a).days for a, b in zip(days, days[1:], strict=False))
    if gaps[len(gaps) // 2] > DAILY_GAP_DAYS:
        return []
    weekend = any(d.weekday() >= 5 for d in days)
    held = set(days)
    span = (days[0] + timedelta(n) for n in range((days[-1] - days[0]).days))
    missing = [d.isoformat() for d in span if d not in held and (weekend or d.weekday() < 5)]
    breaks: list[dict[str, Any]] = [] if weekend else [{"bounds": ["sat", "mon"]}]
    return breaks + ([{"values": missing}] if missing else [])


def session_axis(dates: Sequence[str]) -> dict[str, Any]:
    """A date axis over a series' sessions: Korean-neutral ticks and no weekend or holiday gaps."""
    breaks = session_breaks(dates)
    return {**DATE_AXIS, "rangebreaks": breaks} if breaks else dict(DATE_AXIS)


def date_axes(fig: Any) -> Any:
    """Korean-neutral date ticks and hover dates (YYYY-MM-DD) on every x axis of `fig`."""
    fig.update_xaxes(**DATE_AXIS)
    return fig


def hline(y: float, *, yref: str = "y", dash: str = "dash", color: str = "#6b7280",
          label: str | None = None, label_at: str = "right") -> tuple[dict[str, Any], list[dict[str, Any]]]:  # fmt: skip
    """A horizontal line across the plot at `y` and its label, as the layout's shape and
    annotation (what `fig.add_hline` makes, written as data: built in one step with the figure,
    plotly's add_hline took ~0.1 s a call on this machine)."""
    shape = {"type": "line", "xref": f"{yref.replace('y', 'x')} domain", "x0": 0, "x1": 1,
             "yref": yref, "y0": y, "y1": y, "line": {"dash": dash, "color": color}}  # fmt: skip
    notes = [] if label is None else [{
        "xref": f"{yref.replace('y', 'x')} domain", "x": 1 if label_at == "right" else 0,
        "xanchor": label_at, "yref": yref, "y": y, "yanchor": "bottom", "text": label,
        "showarrow": False,
    }]  # fmt: skip
    return shape, notes


def base_layout(title: str, x_label: str, y_label: str, *, height: int = 380,
                top: int = 60) -> dict[str, Any]:  # fmt: skip
    """A figure's layout as data: a left-aligned title, the shared legend, titled axes."""
    return {
        "title": {"text": title, "x": 0.0, "xanchor": "left"},
        "font": {"family": FONT_FAMILY},
        "height": height,
        "margin": {"l": 60, "r": 20, "t": top, "b": 50},
        "legend": LEGEND,
        "xaxis": {"title": {"text": x_label}},
        "yaxis": {"title": {"text": y_label}},
    }


def figure_of(data: list[dict[str, Any]], layout: dict[str, Any]) -> go.Figure:
    """A figure built in one step from its traces and layout as data. Built call by call
    (make_subplots, add_trace, update_layout …) the ETF price figure took 0.25-0.8 s and the
    stock report's four figures 0.7 s of the page's run before a chart could be sent."""
    return go.Figure({"data": data, "layout": layout})
