"""Recognise what a query result is, so the console can draw it: a time series or a graph.

Rows are the plain dicts `run_read_only` and `GraphStore.run_guarded` return. Graph values
follow the `GraphStore` contract: nodes `{_id, _labels, ...props}`, relationships
`{_id, _type, _start, _end, ...props}`, paths `{nodes: [...], relationships: [...]}`.
No Streamlit here: this is pure and unit-tested.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

import numpy as np
import pandas as pd

Row = dict[str, Any]

_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}([T ][\d:.+\-Z]*)?$")
_CAPTION_KEYS = ("name", "title", "code", "series_code", "security_id", "doc_id", "event_id")
MAX_GROUPS = 8
GRAVITY = 1.0


# ---------------------------------------------------------------- tables


def _cell(value: Any) -> Any:
    """A value a dataframe column can hold: nested structures become compact JSON text."""
    if isinstance(value, (dict, list, tuple)):
        return json.dumps(value, ensure_ascii=False, default=str)
    if isinstance(value, Decimal):
        return float(value)
    return value


def table_frame(rows: list[Row]) -> pd.DataFrame:
    """Rows as a dataframe, column order kept, nested values flattened to text."""
    return pd.DataFrame([{k: _cell(v) for k, v in row.items()} for row in rows])


# ---------------------------------------------------------------- time series


@dataclass(frozen=True)
class TimeSeriesShape:
    x: str
    y_columns: list[str]
    group: str | None  # a low-cardinality text column splitting one value column into lines


def _is_date_like(values: Iterable[Any]) -> bool:
    seen = False
    for v in values:
        if v is None:
            continue
        if isinstance(v, (date, datetime)) or (isinstance(v, str) and _ISO_DATE.match(v)):
            seen = True
            continue
        return False
    return seen


def _is_numeric(values: Iterable[Any]) -> bool:
    seen = False
    for v in values:
        if v is None:
            continue
        if isinstance(v, bool) or not isinstance(v, (int, float, Decimal)):
            return False
        seen = True
    return seen


def detect_time_series(rows: list[Row]) -> TimeSeriesShape | None:
    """A date-like column plus at least one numeric column, where each line (one per `group`
    value, or the whole result) has one row per date and at least two dates. A snapshot of many
    rows on one date, or rows repeating dates with no column to split them, is not a series:
    the console shows only its table."""
    if len(rows) < 2:
        return None
    columns = list(rows[0].keys())
    values = {c: [r.get(c) for r in rows] for c in columns}
    x = next((c for c in columns if _is_date_like(values[c])), None)
    if x is None:
        return None
    numeric = [c for c in columns if c != x and _is_numeric(values[c])]
    if not numeric:
        return None
    texts = [
        c for c in columns
        if c not in numeric and c != x and all(isinstance(v, str) for v in values[c])
    ]  # fmt: skip
    group = next((c for c in texts if 1 < len(set(values[c])) <= MAX_GROUPS), None)
    group = group if len(numeric) == 1 else None
    return (
        TimeSeriesShape(x=x, y_columns=numeric, group=group) if _is_series(rows, x, group) else None
    )


def _is_series(rows: list[Row], x: str, group: str | None) -> bool:
    keys = [(r.get(group) if group else None, str(r.get(x))) for r in rows if r.get(x) is not None]
    dates = {d for _, d in keys}
    return len(dates) >= 2 and len(set(keys)) == len(keys)


def time_series_frame(rows: list[Row], shape: TimeSeriesShape) -> pd.DataFrame:
    """The rows with the x column as datetimes and value columns as floats."""
    frame = pd.DataFrame(rows)
    frame[shape.x] = pd.to_datetime(frame[shape.x].astype(str), errors="coerce")
    for col in shape.y_columns:
        frame[col] = pd.to_numeric(frame[col], errors="coerce")
    return frame.dropna(subset=[shape.x])


# ---------------------------------------------------------------- graphs


@dataclass(frozen=True)
class GraphNode:
    node_id: str
    label: str
    caption: str
    hover: str


@dataclass(frozen=True)
class GraphEdge:
    source: str
    target: str
    rel_type: str


@dataclass
class GraphPicture:
    nodes: list[GraphNode]
    edges: list[GraphEdge]

    def layout(self, iterations: int = 80) -> dict[str, tuple[float, float]]:
        return spring_layout([n.node_id for n in self.nodes], self.edges, iterations)

    def degrees(self) -> dict[str, int]:
        counts = {n.node_id: 0 for n in self.nodes}
        for e in self.edges:
            counts[e.source] += 1
            counts[e.target] += 1
        return counts

    def rel_types(self) -> list[str]:
        return sorted({e.rel_type for e in self.edges})


def _first(d: Row, keys: tuple[str, ...]) -> Any:
    return next((d[k] for k in keys if d.get(k) is not None), None)


def _is_node(v: Any) -> bool:
    return isinstance(v, dict) and "_labels" in v


def _is_rel(v: Any) -> bool:
    return isinstance(v, dict) and "_type" in v


def _is_path(v: Any) -> bool:
    return isinstance(v, dict) and isinstance(v.get("nodes"), list) and "relationships" in v


def _graph_values(value: Any) -> Iterable[Row]:
    """Every node/relationship dict inside a value (paths and lists are opened)."""
    if _is_node(value) or _is_rel(value):
        yield value
    elif _is_path(value):
        yield from value["nodes"]
        yield from value["relationships"]
    elif isinstance(value, list):
        for item in value:
            yield from _graph_values(item)


def _node(d: Row) -> GraphNode:
    labels = d.get("_labels") or ["노드"]
    label = str(labels[0] if isinstance(labels, list) else labels)
    node_id = str(d["_id"])
    caption = str(_first(d, _CAPTION_KEYS) or node_id)
    props = [f"{k}: {v}" for k, v in d.items() if not k.startswith("_")][:6]
    return GraphNode(node_id, label, caption[:24], "<br>".join([f"<b>{label}</b>", *props]))


def extract_graph(rows: list[Row]) -> GraphPicture | None:
    """Nodes and relationships found anywhere in the rows; None when there are none."""
    nodes: dict[str, GraphNode] = {}
    edges: dict[tuple[str, str, str], GraphEdge] = {}
    for row in rows:
        for value in row.values():
            for item in _graph_values(value):
                if _is_node(item) and item.get("_id") is not None:
                    node = _node(item)
                    nodes.setdefault(node.node_id, node)
                elif _is_rel(item):
                    start, end = item.get("_start"), item.get("_end")
                    if start is None or end is None:
                        continue
                    # Parallel relationships (one HOLDS per date) are drawn as one line.
                    edge = GraphEdge(str(start), str(end), str(item["_type"]))
                    edges.setdefault((edge.source, edge.target, edge.rel_type), edge)
    # Relationships returned without their end nodes still get (anonymous) endpoints.
    for edge in edges.values():
        for end in (edge.source, edge.target):
            nodes.setdefault(end, GraphNode(end, "노드", end, f"id: {end}"))
    if not nodes:
        return None
    return GraphPicture(list(nodes.values()), list(edges.values()))


def spring_layout(
    node_ids: list[str], edges: list[GraphEdge], iterations: int = 80
) -> dict[str, tuple[float, float]]:
    """Fruchterman-Reingold from a circle start: deterministic, vectorised, fine to ~500 nodes."""
    n = len(node_ids)
    if n == 0:
        return {}
    angles = np.pi / 2 - 2 * np.pi * np.arange(n) / n
    pos = np.column_stack([np.cos(angles), np.sin(angles)])
    if n == 1:
        return {node_ids[0]: (0.0, 0.0)}
    index = {node_id: i for i, node_id in enumerate(node_ids)}
    adjacency = np.zeros((n, n))
    for e in edges:
        i, j = index[e.source], index[e.target]
        if i != j:
            adjacency[i, j] = adjacency[j, i] = 1.0
    k = np.sqrt(4.0 / n)  # ideal edge length for a 2x2 box
    temperature = 0.2
    for _ in range(iterations):
        delta = pos[:, None, :] - pos[None, :, :]
        distance = np.maximum(np.linalg.norm(delta, axis=-1), 1e-3)
        force = k * k / distance**2 - adjacency * distance / k
        displacement = np.einsum("ij,ijk->ik", force, delta)
        # Gravity keeps disconnected components (one star per tag) near each other instead of
        # drifting apart and leaving each component a dot after rescaling.
        displacement -= GRAVITY * pos * np.linalg.norm(pos, axis=-1, keepdims=True) / k
        length = np.maximum(np.linalg.norm(displacement, axis=-1), 1e-6)
        pos += displacement / length[:, None] * np.minimum(length, temperature)[:, None]
        temperature *= 0.95
    pos -= pos.mean(axis=0)
    scale = np.abs(pos).max() or 1.0
    pos /= scale
    return {node_id: (float(pos[i, 0]), float(pos[i, 1])) for node_id, i in index.items()}
