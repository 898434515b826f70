"""Plotly figures shared by every screen: bar, line and a small network picture.

Every figure gets a title and axis labels (Korean, from the caller). Nothing here imports
Streamlit, so tests and benchmarks can build the same figures.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd
import plotly.graph_objects as go

from agents.chart_style import LEGEND, date_axes
from pages._result_shapes import GraphPicture

FONT_FAMILY = "Noto Sans KR, Noto Sans CJK KR, Malgun Gothic, Apple SD Gothic Neo, sans-serif"
PALETTE = ("#2563eb", "#16a34a", "#ea580c", "#9333ea", "#0891b2", "#dc2626", "#ca8a04", "#4b5563")
MAX_LINES = 8  # more series than this is unreadable; the table still has them all


def _finish(fig: go.Figure, title: str, x_label: str, y_label: str, height: int = 380) -> go.Figure:
    fig.update_layout(
        title={"text": title, "x": 0.0, "xanchor": "left"},
        xaxis_title=x_label,
        yaxis_title=y_label,
        font={"family": FONT_FAMILY},
        height=height,
        margin={"l": 60, "r": 20, "t": 60, "b": 50},
        legend=LEGEND,
    )
    return fig


def bar_chart(
    labels: Sequence[str],
    values: Sequence[float],
    *,
    title: str,
    x_label: str,
    y_label: str,
    log_y: bool = False,
    across: bool = False,
) -> go.Figure:
    """One bar per label, value printed on the bar. `across`: bars laid across, the labels
    level beside them, first on top (labels that are words: at -90° a Korean word's syllables
    stood one on another, unreadable at 420 px); `x_label` then names the values' axis."""
    text = [f"{v:,.0f}" for v in values]
    if across:
        bar = go.Bar(x=list(values)[::-1], y=list(labels)[::-1], orientation="h",
                     text=text[::-1], textposition="outside", cliponaxis=False,
                     marker_color=PALETTE[0], hovertemplate="%{y}: %{x:,}<extra></extra>")  # fmt: skip
        fig = go.Figure(bar)
        fig.update_xaxes(tickformat=",")
        return _finish(fig, title, x_label, "", height=max(260, 110 + 22 * len(labels)))
    fig = go.Figure(
        go.Bar(
            x=list(labels),
            y=list(values),
            text=text,
            textposition="outside",
            cliponaxis=False,
            marker_color=PALETTE[0],
            hovertemplate="%{x}: %{y:,}<extra></extra>",
        )
    )
    if log_y:
        fig.update_yaxes(type="log")
    fig.update_yaxes(tickformat=",")  # 100,000 rather than plotly's '100k'
    return _finish(fig, title, x_label, y_label)


def line_chart(
    frame: pd.DataFrame,
    *,
    x: str,
    y_columns: Sequence[str],
    title: str,
    x_label: str,
    y_label: str,
    group: str | None = None,
    markers: bool = False,
) -> go.Figure:
    """Lines over `x`: one per numeric column, or one per `group` value for a single column.

    `markers` draws each point too (a series of a few runs, where one point has no line)."""
    fig = go.Figure()
    frame = frame.sort_values(x)
    if group is not None and len(y_columns) == 1:
        series = [(str(key), part, y_columns[0]) for key, part in frame.groupby(group, sort=True)]
    else:
        series = [(col, frame, col) for col in y_columns]
    for i, (name, part, col) in enumerate(series[:MAX_LINES]):
        fig.add_trace(
            go.Scatter(
                x=part[x], y=part[col], name=name, mode="lines+markers" if markers else "lines",
                line={"color": PALETTE[i % len(PALETTE)], "width": 2},
            )
        )  # fmt: skip
    return date_axes(_finish(fig, title, x_label, y_label))


MAX_EDGE_LABELS = 20  # beyond this the repeated type names hide the picture
MAX_LEAF_CAPTIONS = 50  # beyond this only hubs keep their captions (hover shows the rest)


def network_chart(picture: GraphPicture, *, title: str) -> go.Figure:
    """Nodes on a deterministic layout, coloured by label, with relationship types on the edges."""
    positions = picture.layout()
    degrees = picture.degrees()
    fig = go.Figure()
    edge_x: list[float | None] = []
    edge_y: list[float | None] = []
    mid_x, mid_y, mid_text = [], [], []
    for edge in picture.edges:
        (x0, y0), (x1, y1) = positions[edge.source], positions[edge.target]
        edge_x += [x0, x1, None]
        edge_y += [y0, y1, None]
        mid_x.append((x0 + x1) / 2)
        mid_y.append((y0 + y1) / 2)
        mid_text.append(edge.rel_type)
    fig.add_trace(
        go.Scatter(x=edge_x, y=edge_y, mode="lines", line={"color": "#9ca3af", "width": 1},
                   hoverinfo="skip", showlegend=False)
    )  # fmt: skip
    if len(picture.edges) <= MAX_EDGE_LABELS:
        fig.add_trace(
            go.Scatter(x=mid_x, y=mid_y, mode="text", text=mid_text, hoverinfo="skip",
                       textfont={"size": 9, "color": "#6b7280"}, showlegend=False)
        )  # fmt: skip
    all_captions = len(picture.nodes) <= MAX_LEAF_CAPTIONS
    labels = [n.label for n in picture.nodes]
    majority = max(set(labels), key=labels.count)
    for i, label in enumerate(sorted({n.label for n in picture.nodes})):
        members = [n for n in picture.nodes if n.label == label]
        fig.add_trace(
            go.Scatter(
                x=[positions[n.node_id][0] for n in members],
                y=[positions[n.node_id][1] for n in members],
                mode="markers+text",
                name=label,
                text=[
                    n.caption
                    if all_captions or degrees[n.node_id] > 2 or n.label != majority
                    else ""
                    for n in members
                ],
                textposition="top center",
                textfont={"size": 11},
                marker={
                    "size": [18 if degrees[n.node_id] > 2 else 12 for n in members],
                    "color": PALETTE[i % len(PALETTE)],
                    "line": {"width": 1, "color": "white"},
                },
                hovertext=[n.hover for n in members],
                hoverinfo="text",
            )
        )
    hidden_axis: dict[str, Any] = {"showgrid": False, "zeroline": False, "showticklabels": False}
    fig.update_xaxes(**hidden_axis)
    fig.update_yaxes(**hidden_axis)
    height = 460 if len(picture.nodes) < 30 else 620
    # The axes carry no data here, so their titles say what the picture shows instead.
    x_label = "관계 유형: " + ", ".join(picture.rel_types()) if picture.edges else "관계 없음"
    return _finish(fig, title, x_label, "노드 배치 (스프링 레이아웃)", height=height)
