"""Plotly figures for what the ETF tools returned (no Streamlit, so tests can build them too).

`charts_for(payload)` turns an answer's `payload["tool_results"]` into titled figures and
tables: price + volume, holdings weights, similarity, tag counts, holdings changes, comparison
table and normalized prices. Every figure has a Korean title and axis labels.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import pandas as pd
import plotly.graph_objects as go

from agents.chart_style import base_layout, figure_of, session_axis
from agents.colors import price_colors
from agents.etf.set_answers import SUMMARY_FIELD, fmt_krw

PALETTE = ("#2563eb", "#16a34a", "#ea580c", "#9333ea", "#0891b2", "#dc2626")
PERIOD_LABELS = {"1d": "전일", "1w": "1주", "1m": "1개월", "3m": "3개월", "6m": "6개월", "1y": "1년",
                 "ytd": "연초 이후", "mtd": "이번 달"}  # fmt: skip
CHANGE_LABELS = {"added": "신규편입", "removed": "제외", "increased": "비중증가", "decreased": "비중감소"}  # fmt: skip
# Row backgrounds by change type, in the gain/loss convention: (direction, strong tint).
CHANGE_TINTS = {"added": (1, True), "increased": (1, False), "decreased": (-1, False),
                "removed": (-1, True)}  # fmt: skip


@dataclass
class ChartItem:
    """One visual under an answer: a figure or a table (with an optional change-type colour)."""

    title: str
    figure: go.Figure | None = None
    table: pd.DataFrame | None = None
    row_colors: list[str] | None = None
    signed_columns: list[str] = field(default_factory=list)  # rise red / fall blue text


def _layout(title: str, x_label: str, y_label: str, height: int = 380) -> dict[str, Any]:
    return base_layout(title, x_label, y_label, height=height, top=60)


_figure = figure_of


def _bar_labels(values: list[float]) -> list[str]:
    return [f"{v:,.2f}".rstrip("0").rstrip(".") for v in values]


def price_figure(result: dict[str, Any], name: str, *, krw: bool = True) -> go.Figure:
    """Close line over trading-value bars for get_etf_prices / get_stock_prices output (two
    rows sharing one axis of sessions: 70% / 30% with a 6% gap). A session's bar is its 거래대금
    (close × volume, in 억 원, as the answers compute it) in the colour of its close against the
    one before; its hover adds the volume in 만 주. A foreign stock's bars (not `krw`) are its
    volume in 만 주. Weekends and holidays leave no gap."""
    daily = sorted(result.get("daily", []), key=lambda d: d["date"])
    dates = [d["date"] for d in daily]
    period = PERIOD_LABELS.get(result.get("summary", {}).get("period", ""), "")
    colors = price_colors()
    closes = [d["close"] for d in daily]
    moves = [0.0] + [(c or 0) - (p or 0) for p, c in zip(closes, closes[1:], strict=False)]
    volumes = [d.get("volume") or 0 for d in daily]
    shares = [round(v / 1e4, 1) for v in volumes]
    values = [round((c or 0) * v / 1e8, 1) for c, v in zip(closes, volumes, strict=True)]
    if not krw:
        values = shares
    bar, unit = ("거래대금", "억 원") if krw else ("거래량", "만 주")
    data: list[dict[str, Any]] = [
        {"type": "scatter", "x": dates, "y": closes, "name": "종가", "mode": "lines",
         "line": {"color": PALETTE[0], "width": 2}, "xaxis": "x", "yaxis": "y",
         "hovertemplate": "%{x}: %{y:,}" + ("원" if krw else "") + "<extra></extra>"},
        {"type": "bar", "x": dates, "y": values, "name": bar, "customdata": shares,
         "hovertemplate": f"%{{x}}: {bar} %{{y:,.1f}}{unit}"
                          + (" · 거래량 %{customdata:,.1f}만 주" if krw else "") + "<extra></extra>",
         "marker": {"color": [colors.for_change(m) for m in moves]}, "showlegend": False,
         "xaxis": "x2", "yaxis": "y2"},
    ]  # fmt: skip
    axis = session_axis(dates)
    layout = _layout(f"{name} 가격·{bar} ({period})", "", "", height=460)
    layout.update(
        xaxis={"anchor": "y", "domain": [0.0, 1.0], "matches": "x2", "showticklabels": False,
               "title": {"text": ""}, **axis},
        yaxis={"anchor": "x", "domain": [0.342, 1.0], "title": {"text": "종가 (원)" if krw else "종가 (USD)"}, "tickformat": ",", "automargin": True},
        xaxis2={"anchor": "y2", "domain": [0.0, 1.0], "title": {"text": "날짜"}, **axis},
        yaxis2={"anchor": "x2", "domain": [0.0, 0.282], "title": {"text": f"{bar} ({unit})"}, "tickformat": ",", "automargin": True},
    )  # fmt: skip
    return _figure(data, layout)


def weights_figure(holdings: list[dict[str, Any]], name: str) -> go.Figure:
    rows = sorted(holdings, key=lambda h: h["weight"])
    bars = {"type": "bar", "x": [h["weight"] for h in rows], "y": [h["stock_name"] for h in rows],
            "orientation": "h", "text": [f"{h['weight']:.2f}%" for h in rows],
            "textposition": "outside", "cliponaxis": False, "marker": {"color": PALETTE[0]}}  # fmt: skip
    # no '종목' beside the names: rotated, the two syllables read as a glyph ('머|KO' at 1440 px)
    return _figure([bars], _layout(f"{name} 상위 보유종목 비중", "비중 (%)", ""))


def bar_figure(labels: list[str], values: list[float], title: str, x_label: str,
               y_label: str) -> go.Figure:  # fmt: skip
    bars = {"type": "bar", "x": labels, "y": values, "marker": {"color": PALETTE[0]},
            "text": _bar_labels(values), "textposition": "outside", "cliponaxis": False}  # fmt: skip
    return _figure([bars], _layout(title, x_label, y_label))


def normalized_figure(series: dict[str, Any]) -> go.Figure:
    """Closes of compared ETFs rebased to 100 at the first common date."""
    data: list[dict[str, Any]] = []
    for i, (code, item) in enumerate(series.items()):
        daily = sorted(item["daily"], key=lambda d: d["date"])
        if not daily:
            continue
        base = daily[0]["close"] or 1
        data.append({
            "type": "scatter", "x": [d["date"] for d in daily],
            "y": [d["close"] / base * 100 for d in daily], "name": f"{item['name']} ({code})",
            "mode": "lines", "line": {"color": PALETTE[i % len(PALETTE)], "width": 2},
        })  # fmt: skip
    layout = _layout("비교 ETF 정규화 가격 (시작일 = 100)", "날짜", "지수 (시작일 = 100)")
    layout["xaxis"].update(session_axis(sorted({x for trace in data for x in trace["x"]})))
    return _figure(data, layout)


def changes_table(rows: list[dict[str, Any]]) -> tuple[pd.DataFrame, list[str]]:
    frame = pd.DataFrame([
        {"종목코드": r["stock_code"], "종목명": r["stock_name"],
         "변화": CHANGE_LABELS.get(r["change_type"], r["change_type"]),
         "이전 비중(%)": r["old_weight"], "현재 비중(%)": r["new_weight"]}
        for r in rows
    ])  # fmt: skip
    colors = price_colors()
    tints = {kind: colors.tint(sign, strong=strong) for kind, (sign, strong) in CHANGE_TINTS.items()}  # fmt: skip
    return frame, [tints.get(r["change_type"], "") for r in rows]


def compare_table(rows: list[dict[str, Any]]) -> pd.DataFrame:
    return pd.DataFrame([
        {"코드": r["code"], "이름": r["name"], "운용사": r.get("company"),
         "총보수(%)": r["expense_ratio"], "1개월 수익률(%)": r.get("return_1m"),
         "순자산(억 원)": round(r["latest_net_assets"] / 1e8) if r.get("latest_net_assets") else None,
         "태그": ", ".join(r.get("tags", [])),
         "상위 보유종목": ", ".join(f"{h['stock_name']} {h['weight']:.1f}%"
                               for h in r.get("top_holdings", []))}
        for r in rows
    ])  # fmt: skip


def _items_for(tool: str, args: dict[str, Any], result: Any, names: dict[str, str],
               asked: frozenset[str] = frozenset()) -> list[ChartItem]:  # fmt: skip
    code = args.get("etf_code") or args.get("stock_code") or ""
    name = names.get(code, code)
    if tool in ("get_etf_prices", "get_stock_prices") and result.get("daily"):
        krw = tool == "get_etf_prices" or (len(code) == 6 and code[0].isdigit())  # KRX codes
        return [ChartItem("가격 추이", figure=price_figure(result, name, krw=krw))]
    if tool == "get_etf_info" and result.get("top_holdings"):
        title = f"{result['name']} 보유종목"
        return [ChartItem(title, figure=weights_figure(result["top_holdings"], result["name"]))]
    if tool == "find_similar_etfs" and result and "correlation" in result[0]:
        fig = bar_figure([r["name"] for r in result], [r["correlation"] for r in result],
                         f"{name}와 일간 수익률이 비슷하게 움직인 ETF", "ETF", "상관계수")  # fmt: skip
        return [ChartItem("수익률 상관계수", figure=fig)]
    if tool == "find_similar_etfs" and result:
        fig = bar_figure([r["name"] for r in result], [r["similarity"] for r in result],
                         f"{name}와 유사한 ETF (보유 비중 겹침)", "ETF", "유사도 (%)")  # fmt: skip
        return [ChartItem("유사 ETF", figure=fig)]
    if tool == "list_tags" and result:
        fig = bar_figure([r["name"] for r in result], [r["count"] for r in result],
                         "태그별 ETF 수", "태그", "ETF 수")  # fmt: skip
        return [ChartItem("태그", figure=fig)]
    if tool == "get_holdings_changes" and result:
        frame, colors = changes_table(result)
        period = PERIOD_LABELS.get(args.get("period", ""), "")
        return [ChartItem(f"{name} 보유종목 변화 ({period})", table=frame,
                          row_colors=colors)]  # fmt: skip
    if tool == "compare_etfs" and result:
        return [ChartItem("ETF 비교표", table=compare_table(result),
                          signed_columns=["1개월 수익률(%)"])]  # fmt: skip
    if tool == "graph_query" and isinstance(result, list) and result:
        return graph_query_items(result, asked)
    return []


def _names(entries: list[dict[str, Any]]) -> dict[str, str]:
    """Code → name from every row the turn's tools returned (search hits, graph rows, info)."""
    names: dict[str, str] = {}
    for entry in entries:
        result = entry.get("result")
        rows = result if isinstance(result, list) else [result] if isinstance(result, dict) else []
        for row in rows:
            if isinstance(row, dict) and isinstance(row.get("code"), str) and row.get("name"):
                names.setdefault(row["code"], str(row["name"]))
            if isinstance(row, dict) and row.get("etf_code") and row.get("etf_name"):
                names.setdefault(str(row["etf_code"]), str(row["etf_name"]))
    return names


# ---------------------------------------------------------------- the answer's own result

# A listed answer's rows as the renderers write them: "1. KODEX 2차전지산업 (305720): …",
# "1. Applied Materials (AMAT): 13.44%" (a foreign holding's ticker)
LISTED_ROW = re.compile(r"^\s*\d+\.\s+(?P<name>.+?)\s+\((?P<code>[0-9A-Z][0-9A-Z.]{0,11})\):", re.M)
# The frame's measure → the field a tool result holds it in (graph rows, price summaries).
MEASURE_FIELDS = SUMMARY_FIELD | {"expense_ratio": "expense_ratio", "weight": "weight",
                                  "holdings": "weight"}  # fmt: skip
MEASURE_AXES = {
    "return": "수익률 (%)", "expense_ratio": "총보수 (%)", "weight": "비중 (%)",
    "holdings": "비중 (%)", "net_assets": "순자산 (억 원)", "close": "종가 (원)",
    "volume": "평균 거래량 (주)", "volatility": "변동성 (%)", "trading_value": "거래대금 (억 원)",
}  # fmt: skip
SIGNED_MEASURES = {"return"}
MAX_BARS = 15  # more bars than this and plotly skips every other label
EOK_MEASURES = {"net_assets", "trading_value"}


def _values_by_code(entries: list[dict[str, Any]], field_name: str,
                    one_day: bool) -> dict[str, float]:  # fmt: skip
    """Every value of `field_name` the turn's tools returned, by code (the last one wins)."""
    values: dict[str, float] = {}
    for entry in entries:
        result = entry.get("result")
        rows: list[Any] = []
        if isinstance(result, list):
            rows = result
        elif isinstance(result, dict) and isinstance(result.get("summaries"), dict):
            rows = [{"code": c, **s} for c, s in result["summaries"].items()]
        for row in rows:
            if not isinstance(row, dict) or not isinstance(row.get("code"), str):
                continue
            value = row.get(field_name)
            if one_day and field_name == "change_rate":  # the last close against the one before
                end, before = row.get("end_close"), row.get("previous_close")
                value = (end / before - 1) * 100 if end and before else None
            if isinstance(value, int | float):
                values[row["code"]] = float(value)
    return values


def _set_read(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The arguments and result rows of the turn's last price read over a set (a composed plan:
    the set ordered by one measure, cut, and another measure read), or {}."""
    for entry in reversed(entries):
        result = entry.get("result")
        if entry.get("tool") == "get_etf_prices" and isinstance(result, dict) \
                and isinstance(result.get("rows"), list):  # fmt: skip
            return {**(entry.get("arguments") or {}), "rows": result["rows"]}
    return {}


def answered_measure(frame: dict[str, Any], read: dict[str, Any]) -> str | None:
    """The measure the answer states: the one a composed plan read over its chosen set (the
    price read's column that is not its order: '거래대금 상위 5개 ETF의 평균 순자산' answers
    순자산, not 거래대금), else the question's last measure ('순자산이 가장 큰 ETF의 상위 5개
    보유종목' answers 보유종목)."""
    columns = [c.split("=", 1)[0].strip() for c in str(read.get("columns") or "").split(",")]
    chosen = [c for c in columns if c in MEASURE_FIELDS and c != read.get("order_by")]
    if chosen:
        return chosen[0]
    measures = [m.get("name") for m in frame.get("measures") or []]
    return next((m for m in reversed(measures) if m in MEASURE_FIELDS), None)


def _read_values(read: dict[str, Any], measure: str) -> dict[str, float]:
    """The measure's value of every row a set read returned, by code (as the plan computed it)."""
    return {row["code"]: float(row[measure]) for row in read.get("rows") or []
            if isinstance(row, dict) and isinstance(row.get("code"), str)
            and isinstance(row.get(measure), int | float)}  # fmt: skip


TRAILING_NOTE = re.compile(r"\s*\([^()]*\)$")
# characters per title line: a longer title is cut at 420 px (plotly does not wrap)
TITLE_WIDTH = 30


def title_lines(text: str, width: int = TITLE_WIDTH) -> str:
    """A title broken at spaces into lines of about `width` characters (plotly's <br>)."""
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return "<br>".join(lines)


NAME_CHARS = 12  # a bar's name beside it; the answer's list and the hover have it whole


def short_names(names: list[str], width: int = NAME_CHARS) -> list[str]:
    """Names cut to `width` characters ('KODEX 미국나스닥10…'), each still distinct: at 420 px
    the whole names took the chart's width and the bars and their values were drawn over them."""
    out: list[str] = []
    for name in names:
        short = name if len(name) <= width else name[: width - 1] + "…"
        while short in out:  # two names alike in their first characters: keep them apart
            short += "\u200b"
        out.append(short)
    return out


def answer_item(payload: dict[str, Any], text: str) -> ChartItem | None:
    """The chart of a listed answer (a ranking, a filtered set, top-N holdings, a set's
    average): exactly the rows the answer lists, in its order, with the measure it states. None
    when the answer lists fewer than two rows or a listed row's figure is not among the tool
    results."""
    frame = (payload.get("understanding") or {}).get("frame") or {}
    entries = payload.get("tool_results", [])
    read = _set_read(entries)
    measure = answered_measure(frame, read)
    listed = [(m["name"], m["code"]) for m in LISTED_ROW.finditer(text)]
    if measure is None or len(listed) < 2:
        return None
    period = (frame.get("period") or {}).get("label") or str(read.get("period") or "")
    values = _values_by_code(entries, MEASURE_FIELDS[measure], one_day=period == "1d")
    values.update(_read_values(read, measure))
    if any(code not in values for _, code in listed):
        return None
    rows = [(name, values[code] / (1e8 if measure in EOK_MEASURES else 1)) for name, code in listed]
    # the answer's first line that says what is listed: not a note before it ('⚠ 질문의 …은
    # 읽지 못해 …' titled the chart of a top-3 holdings answer)
    lines = [line for line in text.strip().splitlines() if line.strip() and not line.startswith("⚠")]  # fmt: skip
    head = (lines[0] if lines else "").rstrip(":").strip()
    # a closing note ('(합계 43.25%, 스냅샷 … 기준)') is the answer's, not the chart's
    if len(head) > 34:
        head = TRAILING_NOTE.sub("", head)
    title = title_lines(head)
    axis = MEASURE_AXES[measure]
    if period in PERIOD_LABELS and measure in ("return", "volatility", "volume"):
        axis = f"{PERIOD_LABELS[period]} {axis}"
    colors = price_colors()
    shown = rows[::-1]  # plotly draws the first bar at the bottom
    bars = {"type": "bar", "x": [v for _, v in shown], "y": short_names([n for n, _ in shown]),
            "customdata": [n for n, _ in shown], "orientation": "h", "textposition": "auto",
            "cliponaxis": False,
            "marker": {"color": [colors.for_change(v) if measure in SIGNED_MEASURES else PALETTE[0]
                                 for _, v in shown]},
            "text": [_bar_text(measure, v) for _, v in shown],
            "hovertext": [_value_text(measure, v) for _, v in shown],
            "hovertemplate": "%{customdata}: %{hovertext}<extra></extra>"}  # fmt: skip
    amounts = [0.0] + [v for _, v in rows]
    low, high = min(amounts), max(amounts)
    pad = (high - low) * 0.22 or 1.0  # room for the labels outside the bars, either side
    # the bars name the ETFs (or holdings) themselves: no y-axis title, which plotly drew
    # rotated beside the names
    top = 40 + 22 * (title.count("<br>") + 1)
    layout = base_layout(title, axis, "", height=max(260, top + 60 + 34 * len(rows)), top=top)
    layout["xaxis"]["range"] = [low - (pad if low < 0 else 0), high + (pad if high > 0 else 0)]
    layout["xaxis"]["tickformat"] = ","  # 100,000 (억 원), not plotly's '100k'
    layout["yaxis"]["automargin"] = True
    mean = _mean_line(frame, rows, measure)
    if mean:
        layout["shapes"], layout["annotations"] = mean
    fig = _figure([bars], layout)
    return ChartItem(head, figure=fig)


def _mean_line(frame: dict[str, Any], rows: list[tuple[str, float]],
               measure: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]] | None:  # fmt: skip
    """A dashed line at the rows' average, labelled, when the answer is that average."""
    operation = frame.get("operation") or {}
    if "avg" not in (operation.get("aggregate"), frame.get("statistic")):
        return None
    mean = sum(v for _, v in rows) / len(rows)
    line = {"type": "line", "xref": "x", "x0": mean, "x1": mean, "yref": "y domain", "y0": 0,
            "y1": 1, "line": {"dash": "dash", "color": "#6b7280"}}  # fmt: skip
    note = {"xref": "x", "x": mean, "yref": "y domain", "y": 1, "yanchor": "bottom",
            "text": f"평균 {_value_text(measure, mean)}", "showarrow": False}  # fmt: skip
    return [line], [note]


def _bar_text(measure: str, value: float) -> str:
    """A bar's label, short enough to sit beside the bar at 420 px ('15.9조', hover: the full
    '15조 9,431억 원')."""
    if measure in EOK_MEASURES and value >= 1e4:
        return f"{value / 1e4:,.1f}조"
    if measure in EOK_MEASURES:
        return f"{value:,.0f}억"
    return _value_text(measure, value)


def _value_text(measure: str, value: float) -> str:
    if measure in SIGNED_MEASURES:
        return f"{value:+.2f}%"
    if measure in EOK_MEASURES:  # as the answer writes it: '15조 9,431억 원'
        return fmt_krw(value * 1e8)
    if measure in ("close", "volume"):
        return f"{value:,.0f}"
    return f"{value:.2f}%"


# Column names of graph results as an analyst reads them (tables and chart axes).
GRAPH_COLUMNS = {
    "code": "코드", "name": "이름", "weight": "비중(%)", "other_weight": "비교 ETF 비중(%)",
    "expense_ratio": "총보수(%)", "date": "기준일", "other_date": "비교 ETF 기준일",
    "etf_code": "ETF 코드", "etf_name": "ETF 이름", "stock_name": "종목 이름", "count": "개수",
    "manager": "운용사", "theme": "테마", "holdings": "보유종목 수", "stock_code": "종목 코드",
    "total_weight": "비중 합계(%)", "overlap": "겹치는 종목 수", "old_weight": "이전 비중(%)",
    "new_weight": "새 비중(%)", "change_type": "변경 유형", "company": "운용사",
    "listed_date": "상장일", "benchmark": "기초지수", "similarity": "유사도", "score": "점수",
}  # fmt: skip


def graph_query_items(rows: list[dict[str, Any]],
                      asked: frozenset[str] = frozenset()) -> list[ChartItem]:  # fmt: skip
    """The result table, plus a bar chart when rows pair a name with a number (e.g. weights):
    all of them, or the top MAX_BARS of a number the question asked (`asked`: result columns).
    The top 15 of 40 by a column nobody asked for is no answer ('삼성자산운용 ETF 몇 개야?'
    charted its ETFs' fees)."""
    raw = pd.DataFrame(rows)
    frame = raw.round(2)
    frame = frame.rename(columns={c: GRAPH_COLUMNS.get(c, c) for c in frame.columns})
    items = [ChartItem("조회 결과", table=frame)]  # not how it was read (a graph query)
    label = next(
        (c for c in frame.columns if ("name" in c or "이름" in c)
         and pd.api.types.is_string_dtype(frame[c])), None
    )  # fmt: skip
    numeric = [c for c in frame.columns if pd.api.types.is_numeric_dtype(frame[c])]
    if label and numeric and len(frame) > 1:
        value = numeric[0]
        if len(frame) > MAX_BARS and raw.columns[frame.columns.get_loc(value)] not in asked:
            return items
        ordered = frame.sort_values(value, ascending=False).head(MAX_BARS).iloc[::-1]
        cut = f" (상위 {MAX_BARS}개)" if len(frame) > MAX_BARS else ""
        bars = {"type": "bar", "x": ordered[value].tolist(), "y": short_names(ordered[label].tolist()),
                "customdata": ordered[label].tolist(), "hovertemplate": "%{customdata}: %{x}<extra></extra>",
                "orientation": "h", "marker": {"color": PALETTE[0]}, "textposition": "outside",
                "text": [f"{v:,.2f}" for v in ordered[value]], "cliponaxis": False}  # fmt: skip
        # a bare '이름' says nothing of what is named: then the chart is titled as the ranking
        # it is ('이름별 보유종목 수' under '이름'); the names stand without an axis title (the
        # title names them, and a rotated Korean title read as a column of glyphs at 420 px)
        subject = label.removesuffix(" 이름") if label != GRAPH_COLUMNS["name"] else ""
        title = f"{subject}별 {value}{cut}" if subject else f"{value} 순위{cut}"
        layout = _layout(title, value, "", height=max(260, 120 + 26 * len(ordered)))
        if ordered[value].min() >= 0:  # room for the value written after the longest bar
            layout["xaxis"]["range"] = [0, float(ordered[value].max()) * 1.2]  # (cut at 420 px)
        items.append(ChartItem(f"{value} 비교", figure=_figure([bars], layout)))
    return items


def asked_columns(payload: dict[str, Any]) -> frozenset[str]:
    """The result columns of the measures the question asked (its frame's): the measure's name
    and the tool field it is read from ('holdings' is read as weights)."""
    frame = (payload.get("understanding") or {}).get("frame") or {}
    names = {m.get("name") for m in frame.get("measures") or [] if isinstance(m, dict)}
    return frozenset(str(n) for n in names | {MEASURE_FIELDS.get(str(n)) for n in names} if n)


def charts_for(payload: dict[str, Any], text: str = "") -> list[ChartItem]:
    """Figures and tables for an answer: the chart of its own listed result first (when `text`,
    the answer, lists rows), then those of its tool results (search results are left out; the
    tag counts and graph rows a listed answer was computed from are its inputs, not its answer)."""
    entries = payload.get("tool_results", [])
    names = _names(entries)
    asked = asked_columns(payload)
    own = answer_item(payload, text) if text else None
    items: list[ChartItem] = [own] if own else []
    # a set's price figures were read for the ETFs a graph query listed: that list is the
    # question's universe, not its answer (the answer text holds the ranked rows)
    universe = own is not None or any(
        e["tool"] == "get_etf_prices" and isinstance(e.get("result"), dict)
        and "summaries" in e["result"] for e in entries
    )  # fmt: skip
    for entry in entries:
        result = entry.get("result")
        if isinstance(result, dict) and result.get("status") == "error":
            continue
        if universe and entry["tool"] in ("graph_query", "list_tags"):
            continue
        items += _items_for(entry["tool"], entry.get("arguments", {}), result, names, asked)
    if payload.get("compare_prices"):
        items.append(ChartItem("정규화 가격", figure=normalized_figure(payload["compare_prices"])))
    return items
