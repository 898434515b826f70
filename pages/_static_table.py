"""Small fixed tables drawn as one HTML element (no grid): the stock report's figures, earnings,
events and news (`show_sections`: several titled tables in one element).

    html_table([{"figure": "PER", "value": "+3.2%"}], {"figure": "지표", "value": "값"},
               signed=("value",))  # → '<table class="atlas-table">…<td style="color:#…">+3.2%</td>…'

A dataframe grid (st.dataframe) costs the browser its canvas, column sizing and Arrow decoding:
the report's six grids were ~0.3 s of its main-thread time for tables of 3-12 rows that need no
sorting or scrolling. Text is escaped; a change in a `signed` column is written in the rise/fall
colours of the charts (agents/colors.py).
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

import streamlit as st

from agents.colors import price_colors
from pages._ui import signed_number

# In a scrolling box: at 420 px a table wider than the page scrolls instead of being cut off.
CSS = (
    "<style>.atlas-table-box{overflow-x:auto}.atlas-table{border-collapse:collapse;width:100%;"
    "font-size:0.875rem;margin-bottom:0.75rem}.atlas-table th,.atlas-table td{border-bottom:1px "
    "solid rgba(49,51,63,0.1);padding:0.3rem 0.5rem;text-align:left;vertical-align:top}"
    ".atlas-table th{font-weight:600;color:rgba(49,51,63,0.7);white-space:nowrap}"
    ".atlas-table td.num{text-align:right;white-space:nowrap}.atlas-table td.short"
    "{white-space:nowrap}.atlas-table td.text{min-width:12em}"
    ".atlas-grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,24rem),1fr));"
    "column-gap:1.5rem}.atlas-grid>div{min-width:0}.atlas-title{margin:0 0 0.4rem}"
    ".atlas-note{font-size:0.875rem;color:rgba(49,51,63,0.6);margin:0 0 0.75rem}"
    # a phone's width: smaller type, tighter cells and headers that wrap, so that the report's
    # tables fit 420 px (the figures, earnings and events tables scrolled with their last
    # columns out of sight, 470-650 px wide)
    "@media (max-width:640px){.atlas-table{font-size:0.75rem}.atlas-table th,.atlas-table td"
    "{padding:0.25rem 0.3rem}.atlas-table th{white-space:normal;word-break:keep-all}"
    ".atlas-table td.text{min-width:7em}}</style>"
)
SHORT = 12  # a cell of at most this many characters is kept on one line (dates, names, labels)


def _cell(value: Any) -> str:
    if value is None or (isinstance(value, float) and value != value):
        return "–"
    if isinstance(value, bool):
        return "예" if value else "아니오"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.2f}"
    return str(value)


def html_table(rows: Sequence[Mapping[str, Any]], headers: Mapping[str, str],
               signed: Sequence[str] = (), links: Mapping[str, str] | None = None) -> str:  # fmt: skip
    """`rows` as an HTML table with `headers` (source column → Korean header) in their order;
    `links` maps a column to the row field holding its http(s) address (a news title → its URL)."""
    colors = price_colors()
    head = "".join(f"<th>{html.escape(label)}</th>" for label in headers.values())
    body = []
    for row in rows:
        cells = []
        for column in headers:
            value = row.get(column)
            text = html.escape(_cell(value))
            numeric = isinstance(value, int | float) or column in signed
            change = signed_number(value) if column in signed else None
            style = f' style="color:{colors.for_change(change)}"' if change else ""
            kind = "num" if numeric else "short" if len(text) <= SHORT else "text"
            url = str(row.get((links or {}).get(column, ""), "") or "")
            if url.startswith(("https://", "http://")):
                text = f'<a href="{html.escape(url, quote=True)}" target="_blank">{text}</a>'
            cells.append(f'<td class="{kind}"{style}>{text}</td>')
        body.append("<tr>" + "".join(cells) + "</tr>")
    table = f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody>"
    return f'<div class="atlas-table-box"><table class="atlas-table">{table}</table></div>'


def section(title: str, table: str, *, detail: str = "", note: str = "") -> str:
    """A titled block: '<b>title</b> detail', then `table` (html_table's or empty), then `note`
    in small grey type (what a caption under the table says)."""
    head = f"<b>{html.escape(title)}</b>" + (f" {html.escape(detail)}" if detail else "")
    tail = f'<p class="atlas-note">{html.escape(note)}</p>' if note else ""
    return f'<div><p class="atlas-title">{head}</p>{table}{tail}</div>'


def show_sections(*rows: Sequence[str]) -> None:
    """Sections as one HTML element: each row's sections side by side where the page is wide
    enough, one under the other where it is not (420 px). One element instead of a title, a
    table and columns for each: the browser drew every element as its own update."""
    grids = "".join(f'<div class="atlas-grid">{"".join(row)}</div>' for row in rows)
    st.html(CSS + grids)


def show_static_table(rows: Sequence[Mapping[str, Any]], headers: Mapping[str, str], *,
                      signed: Sequence[str] = (), links: Mapping[str, str] | None = None) -> None:  # fmt: skip
    st.html(CSS + html_table(rows, headers, signed, links))
