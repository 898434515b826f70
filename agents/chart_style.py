"""Layout shared by every plotly figure (agents/*/charts.py and pages/_charts.py).

The legend sits under the plot, below the x-axis title, in the figure's own coordinates: at the
top right it covered a left-aligned title as soon as the page was narrow (420 px) and wrapped.
Plotly grows the bottom margin to fit it, however many rows it wraps into.
"""

from __future__ import annotations

from typing import Any

LEGEND: dict[str, Any] = {
    "orientation": "h",
    "yref": "container",
    "y": 0.0,
    "yanchor": "bottom",
    "xanchor": "left",
    "x": 0.0,
}

DAY_MS = 86_400_000
# Plotly writes English month names on date axes ("Jan 2026"): numbers instead, coarser when
# zoomed out. Only for date axes (on a number axis these formats would garble the ticks).
DATE_TICKS: list[dict[str, Any]] = [
    {"dtickrange": [None, DAY_MS * 27], "value": "%m-%d"},
    {"dtickrange": [DAY_MS * 27, None], "value": "%Y-%m"},
]


def date_axes(fig: Any) -> Any:
    """Korean-neutral date ticks and hover dates (YYYY-MM-DD) on every x axis of `fig`."""
    fig.update_xaxes(tickformatstops=DATE_TICKS, hoverformat="%Y-%m-%d")
    return fig
