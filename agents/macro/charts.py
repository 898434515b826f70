"""Plotly figures for the series a Macro Q&A answer used (as-of date marked)."""

from __future__ import annotations

import re
from typing import Any

import plotly.graph_objects as go

from agents.chart_style import date_axes

ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}")


def series_figures(payload: dict[str, Any], as_of: str | None) -> list[go.Figure]:
    figures: list[go.Figure] = []
    for resp in payload.get("agent_responses", {}).values():
        for s in resp.get("series", []):
            if not s.get("points"):
                continue
            xs = [p[0] for p in s["points"]]
            ys = [p[1] for p in s["points"]]
            fig = go.Figure(go.Scatter(x=xs, y=ys, mode="lines+markers", name=s["key"]))
            fig.update_layout(title=s["title"], xaxis_title="날짜", yaxis_title=s.get("unit") or "값",
                              height=320, margin={"l": 40, "r": 20, "t": 50, "b": 40})  # fmt: skip
            if all(ISO_DAY.match(str(x)) for x in xs):
                date_axes(fig)
            if as_of:
                fig.add_vline(x=as_of, line_dash="dot", line_color="gray")
                fig.add_annotation(x=as_of, y=max(ys), text=f"기준일 {as_of}", showarrow=False)
            figures.append(fig)
    return figures


def path_figure(payload: dict[str, Any]) -> go.Figure | None:
    """Evidence → event → target edges of relationship answers as a small layered graph."""
    paths = [p for r in payload.get("agent_responses", {}).values() for p in r.get("paths", [])]
    if not paths:
        return None
    events = list(dict.fromkeys(str(p["event"]) for p in paths))[:8]
    targets = list(dict.fromkeys(str(p.get("target") or p.get("theme")) for p in paths))[:8]
    pos = {e: (0.0, float(i)) for i, e in enumerate(events)}
    pos.update({f"t:{t}": (1.0, float(i)) for i, t in enumerate(targets)})
    edge_x: list[float | None] = []
    edge_y: list[float | None] = []
    for p in paths:
        e, t = str(p["event"]), f"t:{p.get('target') or p.get('theme')}"
        if e in pos and t in pos:
            edge_x += [pos[e][0], pos[t][0], None]
            edge_y += [pos[e][1], pos[t][1], None]
    fig = go.Figure(go.Scatter(x=edge_x, y=edge_y, mode="lines", line={"color": "#999"},
                               hoverinfo="skip", showlegend=False))  # fmt: skip
    for label, (x, y) in pos.items():
        fig.add_trace(go.Scatter(x=[x], y=[y], mode="markers+text", text=[label.removeprefix("t:")],
                                 textposition="middle right" if x else "middle left",
                                 showlegend=False))  # fmt: skip
    rows = max(len(events), len(targets))
    fig.update_layout(title="근거 경로: 이벤트 → 영향 대상", xaxis_title="이벤트 → 대상",
                      yaxis_title="", height=max(260, 140 + 48 * rows),
                      margin={"l": 20, "r": 20, "t": 50, "b": 40},
                      xaxis={"range": [-1.6, 2.0], "showticklabels": False},
                      yaxis={"showticklabels": False, "range": [-0.6, rows - 0.4]})  # fmt: skip
    return fig
