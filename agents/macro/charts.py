"""Plotly figures for the series a Macro Q&A answer used (as-of date marked)."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

import plotly.graph_objects as go
from dateutil.relativedelta import relativedelta

from agents.chart_style import base_layout, session_axis
from agents.colors import price_colors
from agents.macro.templates import axis_unit
from data_access.market_series import is_rate_unit

ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}")
# a code in parentheses: " (KR:005930)", " (KR_CPI)"
CODE_IN_TITLE = re.compile(r"\s*\((?=[^)]*[A-Z_:0-9])[A-Z0-9_:.\-^]+\)")
LABEL_WIDTH = 12  # characters per line of a path label: at 420 px a longer line is cut
PATH_COLORS = ("#636efa", "#00a08a")  # events, what they moved
# A series this short gets a marker per point (a policy rate's decisions, monthly CPI); a longer
# one is a line: 250 daily markers cost the browser ~0.1-0.2 s per chart and hid the line.
MARKER_POINTS = 40


def plain_title(title: str) -> str:
    """A series title without its code: '삼성전자 (KR:005930) 종가' → '삼성전자 종가'."""
    return CODE_IN_TITLE.sub("", title).strip()


# Rates set by a decision and held until the next one: drawn as steps (a line between the
# months before and after a cut read as a gradual fall over the month).
STEP_SERIES = frozenset({"KR_BASE_RATE"})


def series_figures(payload: dict[str, Any], as_of: str | None) -> list[go.Figure]:
    """One line chart per series the answer used, titled by name, with the as-of date marked.
    Each is built in one step from data (traces and layout as dicts): built call by call
    (update_layout, add_vline, add_annotation) a figure took 40-230 ms of the page's run."""
    figures: list[go.Figure] = []
    span = asked_span(payload)
    frame = (payload.get("understanding") or {}).get("frame") or {}
    for resp in payload.get("agent_responses", {}).values():
        for s in resp.get("series", []):
            points, inside, label = _window(s.get("points") or [], span, frame)
            if not points:
                continue
            title = plain_title(str(s["title"])) or s["key"]  # the name, not the code
            if label and len(points) < len(s["points"]):
                title = f"{title} ({label})"
            layout: dict[str, Any] = {
                "title": {"text": title}, "height": 320, "margin": {"l": 40, "r": 20, "t": 50, "b": 40},
                "xaxis": {"title": {"text": "날짜"}}, "yaxis": {"title": {"text": axis_unit(s.get("unit") or "")}, "tickformat": ","},
            }  # fmt: skip
            changed = _change_points(s, points, frame)
            if changed is not None:  # the answer gives the change in %, not the level
                points, inside, title = (
                    changed[0],
                    [],
                    f"{plain_title(str(s['title']))} {changed[1]}",
                )
                layout["title"]["text"] = title
                axis_title = f"{changed[1].split()[0]} (%)"
                layout["yaxis"].update(title={"text": axis_title}, ticksuffix="%", zeroline=True)
                last = points[-1]
                # the last change written above its point ('+2.20%'), as the answer gives it
                layout["annotations"] = [{"x": last[0], "y": last[1], "text": f"{last[1]:+.2f}%",
                                          "showarrow": False, "yshift": 14, "xanchor": "right",
                                          "bgcolor": "rgba(255,255,255,0.85)"}]  # fmt: skip
            xs = [p[0] for p in points]
            ys = [p[1] for p in points]
            if all(ISO_DAY.match(str(x)) for x in xs):  # a daily series: its sessions, no gaps
                layout["xaxis"].update(session_axis([str(x) for x in xs]))
            if as_of:
                layout["shapes"] = [{"type": "line", "x0": as_of, "x1": as_of, "xref": "x", "y0": 0,
                                     "y1": 1, "yref": "y domain", "line": {"dash": "dot", "color": "gray"}}]  # fmt: skip
                # above the plot at the line, right-aligned: at the top of the data it covered
                # the line's last points (at 420 px, '기준일 2026-11-20' over a rate's last months)
                layout.setdefault("annotations", []).append({"x": as_of, "xref": "x", "y": 1, "yref": "paper",
                                          "yanchor": "bottom", "xanchor": "right",
                                          "text": f"기준일 {as_of}", "showarrow": False,
                                          "font": {"size": 11, "color": "gray"}})  # fmt: skip
            mode = "lines+markers" if len(xs) <= MARKER_POINTS else "lines"
            trace = {"type": "scatter", "x": xs, "y": ys, "mode": mode, "name": title}
            if s["key"] in STEP_SERIES:  # held until the next decision: a step, not a slope
                trace["line"] = {"shape": "hv"}
            data = [trace] + _extreme_mark(inside, frame.get("statistic"), layout)
            figures.append(go.Figure({"data": data, "layout": layout}))
    return figures


CHANGE_MEASURES = frozenset({"return"})
CHANGE_WORDS = frozenset({"상승률", "수익률", "변화율", "증가율", "하락률", "등락률"})


def _change_points(series: dict[str, Any], points: list[list[Any]],
                   frame: dict[str, Any]) -> tuple[list[list[Any]], str] | None:  # fmt: skip
    """A level series' points as its % change from the answer's base, and the title's words
    ('상승률 (2025-10 대비)'), when the answer states that change ('한국 소비자물가 상승률
    추이' answers '2025-10-01의 116.34 대비 +2.20%' and had been charted as the index level):
    the base is the point a year before the last for a year-on-year change, else the first point
    drawn (the window's base). None when the question asked no change in % or the series is a
    rate (its move is in %p: the level chart shows it)."""
    measures = {m.get("name") for m in frame.get("measures") or [] if isinstance(m, dict)}
    yoy = (frame.get("operation") or {}).get("change_basis") == "yoy"
    asked = yoy or bool(measures & CHANGE_MEASURES) or frame.get("statistic") == "return"
    unit = str(series.get("unit") or "").strip().lower()
    if not asked or is_rate_unit(unit) or len(points) < 2:
        return None
    if not all(ISO_DAY.match(str(p[0])) for p in points):
        return None
    drawn = points
    if yoy:
        year_back = (
            date.fromisoformat(str(points[-1][0])[:10]) - relativedelta(years=1)
        ).isoformat()
        whole = series.get("points") or points
        before = [i for i, p in enumerate(whole) if str(p[0])[:10] <= year_back]
        drawn = whole[before[-1] :] if before else points
    base = float(drawn[0][1] or 0)
    if not base:
        return None
    first, last = (date.fromisoformat(str(p[0])[:10]) for p in (drawn[0], drawn[-1]))
    monthly = (last - first).days > 20 * (len(drawn) - 1)  # a month's point is named by its month
    changed = [[p[0], round((float(p[1]) / base - 1) * 100, 2)] for p in drawn]
    word = next((m.get("surface") for m in frame.get("measures") or []
                 if isinstance(m, dict) and m.get("surface") in CHANGE_WORDS), "상승률")  # fmt: skip
    return changed, f"{word} ({str(drawn[0][0])[: 7 if monthly else 10]} 대비)"


WINDOW_MONTHS = {"month": 1, "year": 12}
EXTREMES = {"max": ("최고", max, "triangle-up"), "min": ("최저", min, "triangle-down")}


def _window(points: list[list[Any]], span: dict[str, Any] | None,
            frame: dict[str, Any]) -> tuple[list[list[Any]], list[list[Any]], str]:  # fmt: skip
    """The points drawn, those inside the window asked, and its label: a calendar span
    ('올해'), or 'N개월'/'N년' back from the last point ('코스피 최근 1년 최저치' drew 15 months,
    a lower low before the year beside the year's), drawn with the point before it (a change's
    base); all points otherwise."""
    if span is not None:
        drawn = within(points, span)
        return drawn, [p for p in drawn if str(p[0]) >= str(span["first"])], str(span["label_ko"])
    window = frame.get("window") or {}
    months = WINDOW_MONTHS.get(str(window.get("unit")), 0) * int(window.get("n") or 0)
    if not months or not points or not all(ISO_DAY.match(str(p[0])) for p in points):
        return points, points, ""
    start = (date.fromisoformat(str(points[-1][0])[:10]) - relativedelta(months=months)).isoformat()
    base = [i for i, p in enumerate(points) if str(p[0]) <= start]
    drawn = points[base[-1] if base else 0 :]
    return drawn, [p for p in drawn if str(p[0]) > start], str(window.get("surface") or "")


def _extreme_mark(inside: list[list[Any]], statistic: str | None,
                  layout: dict[str, Any]) -> list[dict[str, Any]]:  # fmt: skip
    """The highest or lowest point of the window a maximum or minimum was asked of, marked and
    written beside it ('최고 1,467.50 (01-13)'), as the answer states it; [] otherwise."""
    if statistic not in EXTREMES or not inside:
        return []
    word, pick, symbol = EXTREMES[statistic]
    x, y = pick(inside, key=lambda p: p[1])
    layout["showlegend"] = False  # one line, titled: a legend beside it narrowed the plot
    layout.setdefault("annotations", []).append({
        "x": x, "y": y, "text": f"{word} {y:,.2f} ({str(x)[5:10]})", "showarrow": False,
        "yshift": 14 if statistic == "max" else -14, "bgcolor": "rgba(255,255,255,0.85)",
        "xanchor": "left" if x <= inside[len(inside) // 2][0] else "right"})  # fmt: skip
    return [{"type": "scatter", "x": [x], "y": [y], "mode": "markers", "name": word,
             "marker": {"size": 10, "symbol": symbol, "color": "#111827"}, "hoverinfo": "skip",
             "showlegend": False}]  # fmt: skip


COMPARE_COLORS = ("#1f2937", "#ea580c", "#0891b2")  # series, not gains and losses (red/blue)


def comparison_figure(payload: dict[str, Any]) -> go.Figure | None:
    """Two or three series a question compared, on one chart: their returns from the window's
    first point when a return was compared ('코스피와 나스닥 3개월 수익률 비교': indices of 4,000
    and 22,000 points drawn apart said nothing of which rose more), their levels when they share
    a unit (two rates). None for anything else (each series keeps its own chart)."""
    frame = (payload.get("understanding") or {}).get("frame") or {}
    series = [s for resp in payload.get("agent_responses", {}).values()
              for s in resp.get("series", []) if s.get("points")]  # fmt: skip
    if (frame.get("operation") or {}).get("kind") != "compare" or not 2 <= len(series) <= 3:
        return None
    returns = frame.get("statistic") == "return"
    if not returns and len({s.get("unit") for s in series}) > 1:
        return None
    span, traces, names = asked_span(payload), [], []
    for color, s in zip(COMPARE_COLORS, series, strict=False):
        points = within(s["points"], span)
        base = float(points[0][1])
        if returns and not base:
            return None
        ys = [round((float(p[1]) / base - 1) * 100, 2) if returns else p[1] for p in points]
        name = plain_title(str(s["title"])) or s["key"]
        names.append(name.removesuffix(" 종가") if returns else name)  # a return is of the close
        traces.append({"type": "scatter", "x": [p[0] for p in points], "y": ys, "mode": "lines",
                       "name": names[-1], "line": {"color": color, "width": 2}})  # fmt: skip
    period = (frame.get("period") or {}).get("surface") or (span or {}).get("label_ko")
    title = "·".join(names) + (" 수익률" if returns else "") + (f" ({period})" if period else "")
    unit = "수익률 (%, 첫날 대비)" if returns else axis_unit(series[0].get("unit") or "")
    layout = base_layout(title, "", unit, height=340)
    layout["xaxis"].update(session_axis(sorted({str(x) for t in traces for x in t["x"]})))
    if returns:
        layout["yaxis"]["ticksuffix"] = "%"
    return go.Figure({"data": traces, "layout": layout})


# One per-period return list as agents.window_answer.per_period_text writes it: '코스피 월별
# 수익률: 2026-08 +8.45% (08-03 ~ 08-31), …' ('2026년 1분기', '2026년' for quarters and years)
PER_PERIOD = re.compile(
    r"(?:^|\. )(?P<name>[^:.]+?) (?P<per>월별|분기별|연도별) 수익률: (?P<rows>[^\n]+)"
)
PERIOD_ROW = re.compile(
    r"(?P<label>\d{4}(?:-\d{2}|년 \d분기|년)) (?P<value>[+-]\d+(?:\.\d+)?)% \(\d{2}-\d{2} ~ \d{2}-\d{2}\)"
)
PICKED = re.compile(
    r"가장 크게 (?:오른|내린) (?:달|분기|해): (?P<label>\d{4}(?:-\d{2}|년 \d분기|년)) "
)


def period_figure(payload: dict[str, Any]) -> go.Figure | None:
    """The returns of an answer's periods ('코스피 최근 1년 중 가장 많이 오른 달' answers every
    month's return, the largest first), one bar per period in the rise/fall colours, the period
    the answer picked outlined and written above its bar; None when no answer line lists them.
    Read from the answer's own line, so the chart shows exactly the figures it gives (the closes
    line had been drawn)."""
    for point in payload.get("key_points") or []:
        found = PER_PERIOD.search(str(point))
        if found is None:
            continue
        rows = [(m["label"], float(m["value"])) for m in PERIOD_ROW.finditer(found["rows"])]
        if len(rows) < 2:
            continue
        picked = PICKED.search(str(point))
        return _period_bars(rows, found["name"], found["per"], picked["label"] if picked else None)
    return None


def _period_bars(rows: list[tuple[str, float]], name: str, per: str,
                 picked: str | None) -> go.Figure:  # fmt: skip
    colors = price_colors()
    labels = [label for label, _ in rows]
    bars = {"type": "bar", "x": labels, "y": [v for _, v in rows],
            "marker": {"color": [colors.for_change(v) for _, v in rows],
                       "line": {"width": [3 if label == picked else 0 for label in labels],
                                "color": "#111827"}},
            "hovertemplate": "%{x}: %{y:+.2f}%<extra></extra>"}  # fmt: skip
    axis = {"월별": "월", "분기별": "분기", "연도별": "연도"}[per]
    layout = base_layout(f"{plain_title(name)} {per} 수익률", axis, "수익률 (%)", height=360)
    layout["xaxis"].update(type="category", tickangle=-45 if len(rows) > 6 else 0)
    layout["yaxis"].update(ticksuffix="%", zeroline=True)
    layout["showlegend"] = False
    # the pick's figure as a note beside its bar's end (a bar's own outside text was shrunk to
    # the bar's width: unreadable at 420 px)
    layout["annotations"] = [
        {"x": label, "y": v, "text": f"{v:+.2f}%", "showarrow": False, "yshift": 12 if v >= 0 else -12,
         "bgcolor": "rgba(255,255,255,0.85)", "font": {"color": colors.for_change(v)}}
        for label, v in rows if label == picked
    ]  # fmt: skip
    return go.Figure({"data": [bars], "layout": layout})


def asked_span(payload: dict[str, Any]) -> dict[str, Any] | None:
    """The calendar span the question named and the answer used ('지난달', '올해'), or None."""
    frame = (payload.get("understanding") or {}).get("frame") or {}
    span = frame.get("span")
    return span if isinstance(span, dict) and span.get("used") and span.get("first") else None


def within(points: list[list[Any]], span: dict[str, Any] | None) -> list[list[Any]]:
    """`points` inside `span`, with the last one before it (a return's base); all of them without
    a span or when they are not dated days. '코스피 지난달 수익률' drew the whole year, and
    '원달러 환율 올해 최고치' last December's higher peak beside this year's."""
    if span is None or not all(ISO_DAY.match(str(p[0])) for p in points):
        return points
    first, last = str(span["first"]), str(span.get("last") or "9999-12-31")
    before = [p for p in points if str(p[0]) < first][-1:]
    inside = [p for p in points if first <= str(p[0]) <= last]
    return before + inside if inside else points


# where a word without spaces may break: before '(' and after '·'
BREAK_IN_WORD = re.compile(r"(?=\()|(?<=·)")


def _atoms(text: str, width: int) -> list[tuple[str, bool]]:
    """The pieces a label may break between, each with whether a space comes before it. A
    Korean compound has no space ('연결재무제표기준영업(잠정)실적(공정공시)', cut at 420 px): it
    breaks before '(' and after '·', and a piece still longer than a line is cut."""
    atoms: list[tuple[str, bool]] = []
    for word in text.split():
        for i, part in enumerate(p for p in BREAK_IN_WORD.split(word) if p):
            for j in range(0, len(part), width):
                atoms.append((part[j : j + width], i == 0 and j == 0))
    return atoms


def wrap_label(text: str, width: int = LABEL_WIDTH) -> str:
    """A label broken into lines of at most `width` characters, at spaces where it has them
    (plotly does not wrap)."""
    lines: list[str] = []
    for atom, spaced in _atoms(text, width):
        joined = (" " if spaced else "") + atom
        if lines and len(lines[-1]) + len(joined) <= width:
            lines[-1] += joined
        else:
            lines.append(atom)
    return "<br>".join(lines)


def path_figure(payload: dict[str, Any]) -> go.Figure | None:
    """Evidence → event → target edges of relationship answers as a small layered graph: events
    on the left, what they moved on the right (by name), each label on its own lines above its
    node so nothing is cut on a narrow screen."""
    paths = [p for r in payload.get("agent_responses", {}).values() for p in r.get("paths", [])]
    if not paths:
        return None
    # code → name of every series the answer used ('KR_USDKRW' → '원/달러 환율(종가)')
    names = {s["key"]: str(s["title"]).split(" (")[0]
             for r in payload.get("agent_responses", {}).values()
             for s in r.get("series", []) if s.get("title")}  # fmt: skip
    events = list(dict.fromkeys(str(p["event"]) for p in paths))[:8]
    targets = list(dict.fromkeys(str(p.get("target") or p.get("theme")) for p in paths))[:8]
    pos = {e: (0.0, float(-i)) for i, e in enumerate(events)}
    pos.update({f"t:{t}": (1.0, float(-i)) for i, t in enumerate(targets)})
    edge_x: list[float | None] = []
    edge_y: list[float | None] = []
    for p in paths:
        e, t = str(p["event"]), f"t:{p.get('target') or p.get('theme')}"
        if e in pos and t in pos:
            edge_x += [pos[e][0], pos[t][0], None]
            edge_y += [pos[e][1], pos[t][1], None]
    data: list[dict[str, Any]] = [{"type": "scatter", "x": edge_x, "y": edge_y, "mode": "lines",
                                   "line": {"color": "#999"}, "hoverinfo": "skip", "showlegend": False}]  # fmt: skip
    # One trace per side, not per node: plotly lays out and draws each trace on its own, and
    # a one-point trace per node (up to sixteen) made this the slowest answer chart to draw.
    for side, color in ((events, PATH_COLORS[0]), ([f"t:{t}" for t in targets], PATH_COLORS[1])):
        shown = [names.get(k.removeprefix("t:"), k.removeprefix("t:")) for k in side]
        data.append({"type": "scatter", "x": [pos[k][0] for k in side], "y": [pos[k][1] for k in side],
                     "mode": "markers+text", "text": [wrap_label(s) for s in shown],
                     "textposition": "top center", "hovertext": shown, "hoverinfo": "text",
                     "marker": {"color": color, "size": 10}, "textfont": {"size": 11},
                     "showlegend": False})  # fmt: skip
    rows = max(len(events), len(targets))
    layout = {"title": {"text": "근거 경로: 이벤트 → 영향 대상"}, "height": max(280, 160 + 80 * rows),
              "margin": {"l": 10, "r": 10, "t": 50, "b": 40},
              "xaxis": {"title": {"text": "이벤트 → 대상"}, "range": [-0.45, 1.45], "showticklabels": False,
                        "showgrid": False, "zeroline": False},
              "yaxis": {"title": {"text": ""}, "showticklabels": False, "showgrid": False, "zeroline": False,
                        "range": [-(rows - 1) - 0.4, 0.9]}}  # fmt: skip
    return go.Figure({"data": data, "layout": layout})
