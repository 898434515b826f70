"""The graph's monthly real-estate summary cross-checked against SQL (seed 004 §12.2-4, §2.3).

A real-estate answer reads its housing series from SQL (price index, jeonse ratio, unsold
units, permits); the graph holds the same figures per region and month in
`RealEstateMonthlySummary` (data_access/projection/macro.py). When both exist for a series'
region and months they are compared month by month:
- they agree: both are cited (the summary's structured citation joins SQL's) and the
  `conflict_check` step names what the graph confirmed ('서울 주택가격지수 7개월');
- they disagree (a stale or wrong projection): the conflict is shown as every contradiction is
  (agents/macro/conflicts.py: both sides named, neither picked, the turn `partial`).

    checked = cross_check(responses, ctx)
    checked.responses["real_estate"].structured_citations   # SQL's and the summary's
    checked.conflicts, checked.agreed

Deals (`re_transactions_monthly`) are compared on what the answer shows, for the same region
and months: the SQL deal series of a region takes its sub-regions ('서울' is '서울 강남구', '서울
송파구' …), so the monthly counts are compared with the sum of the summary's `transactions` over
the region and its sub-regions, and the monthly medians with the summary's `median_price_krw`
only when the region has no sub-region (a median of several regions is not the median of their
medians). What cannot be compared is said in the answer: a series cut to a price or area band
('10억 이상', '전용 84㎡': the summary has no bands), and the medians of a region with
sub-regions. A series that already came from the graph (the SQL template fell back to it) is
not compared with itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from agents.macro.conflicts import Conflict, value_conflicts
from agents.macro.derived import DEALS
from agents.macro.state import AgentResponse, RunContext, Series
from agents.macro.templates import DEAL_BANDS, TEMPLATES
from agents.macro.tools import run_step

# SQL template of a housing series → the summary's property holding the same monthly figure.
MEASURES = {"re_price_index_window": "house_price_index", "re_jeonse_window": "jeonse_ratio",
            "re_unsold_window": "unsold_units", "re_permits_window": "permits"}  # fmt: skip
SUMMARY_TEMPLATE = "re_summary_measures"
DEALS_SUMMARY = "re_summary_deals"
GRAPH_SIDE = "그래프 월간 요약(RealEstateMonthlySummary)"


@dataclass
class CrossCheck:
    """What the summary check found; `responses` holds the real-estate response with the
    summary's trace step and citation (empty when nothing was compared)."""

    responses: dict[str, AgentResponse] = field(default_factory=dict)
    conflicts: list[Conflict] = field(default_factory=list)
    agreed: list[str] = field(default_factory=list)


def cross_check(responses: dict[str, AgentResponse], ctx: RunContext) -> CrossCheck:
    """Compare each SQL housing series of the real-estate answer with the graph's summary."""
    resp = responses.get("real_estate")
    if resp is None or ctx.store is None:
        return CrossCheck()
    series = [s for s in resp.series if _template(s) in MEASURES and not _fell_back(resp, s)]
    deals = [s for s in resp.series if _template(s) == DEALS]
    if not series and not deals:
        return CrossCheck()
    checked, out = resp.model_copy(deep=True), CrossCheck()
    for s in series:
        graph = _summary_series(checked, ctx, s)
        if graph is not None:
            _compare(out, s, graph)
    for s in deals:
        for sql, graph in _deal_pairs(checked, ctx, s):
            _compare(out, sql, graph)
    out.responses = {"real_estate": checked}
    return out


def _compare(out: CrossCheck, sql: Series, graph: Series) -> None:
    found = value_conflicts([(f"SQL({TEMPLATES[_template(sql)].table})", sql), (GRAPH_SIDE, graph)])
    out.conflicts += [_monthly(c) for c in found]
    if not found:
        months = {d for d, _ in sql.points} & {d for d, _ in graph.points}
        out.agreed.append(f"{sql.title} {len(months)}개월")


def _monthly(conflict: Conflict) -> Conflict:
    """A monthly figure is said by its month ('서울 주택가격지수 2026-09: …'), not its first day."""
    said = conflict.message.replace(f" {conflict.date}:", f" {conflict.date[:7]}:", 1)
    return conflict.model_copy(update={"message": said})


def _template(series: Series) -> str:
    return series.key.split(":", 1)[0]


def _fell_back(resp: AgentResponse, series: Series) -> bool:
    """The SQL template ran its graph fallback: the series is the summary already."""
    name = _template(series)
    return any(t.name == "fallback" and (t.observation or "").startswith(f"{name} →")
               for t in resp.trace)  # fmt: skip


def _summary_series(resp: AgentResponse, ctx: RunContext, series: Series) -> Series | None:
    """The summary's values for the series' region and months (dated as SQL dates a month, its
    first day), or None when the graph has none of those months. The read is in the trace; its
    citation stays only when some month was compared."""
    region, days = series.key.split(":", 1)[1], {d for d, _ in series.points}
    if not days:
        return None
    cited, prop = len(resp.structured_citations), MEASURES[_template(series)]
    rows = _rows(resp, ctx, SUMMARY_TEMPLATE,
                 {"region": region, "start": min(days)[:10], "as_of": ctx.as_of_date}, days)  # fmt: skip
    points = [(_day(r), float(r[prop])) for r in rows if r.get(prop) is not None]
    if not points:
        del resp.structured_citations[cited:]
        return None
    return series.model_copy(update={"points": points})


def _deal_pairs(resp: AgentResponse, ctx: RunContext,
                series: Series) -> list[tuple[Series, Series]]:  # fmt: skip
    """(SQL, graph) series of a deal answer's monthly counts and medians, for its months; what
    cannot be compared is said in the answer (`resp.uncertainty`)."""
    region, ko = series.key.split(":", 1)[1], bool(re.search(r"[가-힣]", series.title))
    asked = next((t.arguments for t in reversed(resp.trace) if t.name == f"sql:{DEALS}"
                  and t.arguments.get("region") == region), None)  # fmt: skip
    if asked is None:
        return []
    if any(asked.get(b) is not None for b in DEAL_BANDS):
        resp.uncertainty.append(
            f"{series.title}: {GRAPH_SIDE}에는 가격대·면적·층 구분이 없어 그래프와 대조하지 않았습니다"
            " (SQL 값만)." if ko else f"{series.title}: not cross-checked with the graph's monthly"
            " summary, which has no price or area bands (SQL only)."
        )  # fmt: skip
        return []
    days = {d for d, _ in series.points}
    sql_rows = _rows(resp, ctx, DEALS, dict(asked), days)
    graph_rows = _rows(resp, ctx, DEALS_SUMMARY, {k: asked[k] for k in ("region", "start", "as_of")},
                       days)  # fmt: skip
    if not sql_rows or not graph_rows:
        return []
    counted = series.unit == "건"  # '거래 건수' asked: the series is the counts
    count_title = (
        series.title if counted else f"{region} 실거래 건수" if ko else f"{region} deal count"
    )
    pairs = [_pair(series, count_title, sql_rows, "deals", _sums(graph_rows))]
    if counted:
        return pairs
    regions = {r["region"] for r in graph_rows}
    if regions == {region}:
        medians = {_day(r): float(r["median_price_krw"]) for r in graph_rows}
        pairs.append(_pair(series, series.title, sql_rows, "value", medians))
    else:
        names = ", ".join(sorted(regions)[:3]) + (
            f" 외 {len(regions) - 3}" if len(regions) > 3 else ""
        )
        resp.uncertainty.append(
            f"{series.title}: {GRAPH_SIDE}에는 지역별 중위가격만 있어 {len(regions)}개 지역({names})을"
            " 합친 중위가격은 그래프와 대조하지 않았습니다 (월별 거래 건수는 대조)." if ko
            else f"{series.title}: the graph's monthly summary holds one median per region, so the"
            f" median over {len(regions)} regions ({names}) is not cross-checked (the monthly"
            " counts are)."
        )  # fmt: skip
    return pairs


def _rows(resp: AgentResponse, ctx: RunContext, name: str, params: dict[str, Any],
          days: set[str]) -> list[dict[str, Any]]:  # fmt: skip
    """The template's rows for the series' months; its trace step stays, its citation only for
    the graph's side (SQL's is cited already) and only when some month was read."""
    status, uncertainty, cited = resp.status, list(resp.uncertainty), len(resp.structured_citations)
    result = run_step(resp, ctx, name, params, allow_fallback=False)
    resp.status, resp.uncertainty = status, uncertainty  # the check failing degrades nothing
    rows = [r for r in (result.rows if result else []) if _day(r) in days]
    if name == DEALS or not rows:
        del resp.structured_citations[cited:]
    return rows


def _day(row: dict[str, Any]) -> str:
    """A month as the deal series dates it: its first day ('2026-09-01')."""
    return f"{str(row['month'])[:7]}-01"


def _sums(rows: list[dict[str, Any]]) -> dict[str, float]:
    out: dict[str, float] = {}
    for r in rows:
        out[_day(r)] = out.get(_day(r), 0.0) + float(r["transactions"])
    return out


def _pair(series: Series, title: str, sql_rows: list[dict[str, Any]], column: str,
          graph: dict[str, float]) -> tuple[Series, Series]:  # fmt: skip
    sql = series.model_copy(update={"title": title, "points": [(_day(r), float(r[column]))
                                                               for r in sql_rows]})  # fmt: skip
    return sql, sql.model_copy(update={"points": sorted(graph.items())})
