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
