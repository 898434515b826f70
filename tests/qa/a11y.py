"""Accessibility basics read from the rendered DOM: chart titles and axis labels, table headers,
no Streamlit exception box."""

from __future__ import annotations

import contextlib
from typing import Any, TypedDict

from playwright.sync_api import TimeoutError as PlaywrightTimeout

# One object per chart/table, read in the browser. A chart "has axes" when plotly drew a
# cartesian subplot with visible ticks; pie and network charts (axes hidden) need only a title.
_DOM_PROBE = """() => {
  const text = (el) => (el ? el.textContent.trim() : '');
  // Subplots name their axes x2, y3...: take the first non-empty title of each direction.
  const axisTitle = (plot, axis) => [...plot.querySelectorAll('text')]
    .filter((t) => new RegExp(`^${axis}[0-9]*title$`).test(t.getAttribute('class') || ''))
    .map(text).find((t) => t.length > 0) || '';
  // A category axis whose ticks are names (a horizontal bar per ETF) is labelled by them: a
  // title beside the names ('ETF', drawn rotated) says nothing more.
  const number = /^[−+-]?[0-9.,]+[%kMGB]?$|^[0-9]{4}-[0-9]{2}/;
  const named = (plot, axis) => {
    const ticks = [...plot.querySelectorAll(`.${axis}tick text`)].map(text).filter((t) => t);
    return ticks.length > 0 && ticks.every((t) => !number.test(t));
  };
  const charts = [...document.querySelectorAll('.js-plotly-plot')].map((plot) => {
    const ticks = plot.querySelectorAll('.xtick, .ytick').length;
    const pie = plot.querySelectorAll('.pielayer .slice').length > 0;
    return {
      title: text(plot.querySelector('.gtitle')),
      x_title: axisTitle(plot, 'x') || (named(plot, 'x') ? '(이름 눈금)' : ''),
      y_title: axisTitle(plot, 'y') || (named(plot, 'y') ? '(이름 눈금)' : ''),
      kind: pie ? 'pie' : (ticks > 0 ? 'cartesian' : 'no-axes'),
    };
  });
  // A grid in a closed expander or hidden tab is not rendered: it is listed, not judged.
  const frames = [...document.querySelectorAll('[data-testid="stDataFrame"]')].map((el) => {
    const heads = [...el.querySelectorAll('[role="columnheader"], th')].map(text);
    return {kind: 'dataframe', headers: heads.filter((h) => h.length > 0).length,
            rendered: el.checkVisibility()};
  });
  const tables = [...document.querySelectorAll('[data-testid="stTable"] table, .stMarkdown table')]
    .map((el) => ({kind: 'table', rendered: el.checkVisibility(), headers: [...el.querySelectorAll('th')].map(text)
      .filter((h) => h.length > 0).length}));
  return {
    charts,
    tables: frames.concat(tables),
    exceptions: document.querySelectorAll('[data-testid="stException"]').length,
  };
}"""


class ChartInfo(TypedDict):
    title: str
    x_title: str
    y_title: str
    kind: str


class A11yResult(TypedDict):
    charts: list[ChartInfo]
    tables: list[dict[str, Any]]
    exceptions: int
    failures: list[str]


# The data grid draws its accessible header cells a moment after the frame appears.
_GRIDS_READY = """() => [...document.querySelectorAll('[data-testid="stDataFrame"]')]
  .filter((el) => el.checkVisibility())
  .every((el) => el.querySelector('[role="columnheader"]'))"""
GRID_WAIT_MS = 10_000


def check_page(page: Any) -> A11yResult:
    """Probe the current page; `failures` lists every violated rule in plain English."""
    with contextlib.suppress(PlaywrightTimeout):  # a grid without headers is reported below
        page.wait_for_function(_GRIDS_READY, timeout=GRID_WAIT_MS)
    found = page.evaluate(_DOM_PROBE)
    failures: list[str] = []
    for i, chart in enumerate(found["charts"]):
        label = chart["title"] or f"chart #{i + 1}"
        if not chart["title"]:
            failures.append(f"chart #{i + 1} has no title")
        if chart["kind"] == "cartesian" and not (chart["x_title"] and chart["y_title"]):
            failures.append(f"chart '{label}' lacks an axis label (x='{chart['x_title']}', "
                            f"y='{chart['y_title']}')")  # fmt: skip
    for i, table in enumerate(found["tables"]):
        if table["rendered"] and table["headers"] == 0:
            failures.append(f"{table['kind']} #{i + 1} has no column headers")
    if found["exceptions"]:
        failures.append(f"{found['exceptions']} Streamlit exception box(es) on screen")
    return A11yResult(charts=found["charts"], tables=found["tables"],
                      exceptions=found["exceptions"], failures=failures)  # fmt: skip
