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

Deals are not compared: the SQL deal series takes a region's sub-regions ('서울' with
'서울 강남구'), whole months only and the asked bands, which the summary's per-region row does
not. A series that already came from the graph (the SQL template fell back to it) is not
compared with itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from agents.macro.conflicts import Conflict, value_conflicts
from agents.macro.state import AgentResponse, RunContext, Series
from agents.macro.templates import TEMPLATES
from agents.macro.tools import run_step

# SQL template of a housing series → the summary's property holding the same monthly figure.
MEASURES = {"re_price_index_window": "house_price_index", "re_jeonse_window": "jeonse_ratio",
            "re_unsold_window": "unsold_units", "re_permits_window": "permits"}  # fmt: skip
SUMMARY_TEMPLATE = "re_summary_measures"
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
    if not series:
        return CrossCheck()
    checked, out = resp.model_copy(deep=True), CrossCheck()
    for s in series:
        graph = _summary_series(checked, ctx, s)
        if graph is None:
            continue
        found = value_conflicts([(f"SQL({TEMPLATES[_template(s)].table})", s), (GRAPH_SIDE, graph)])
        out.conflicts += [_monthly(c) for c in found]
        if not found:
            out.agreed.append(f"{s.title} {len(graph.points)}개월")
    out.responses = {"real_estate": checked}
    return out


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
    region = series.key.split(":", 1)[1]
    days = sorted(d for d, _ in series.points)
    if not days:
        return None
    status, uncertainty = resp.status, list(resp.uncertainty)
    cited = len(resp.structured_citations)
    result = run_step(resp, ctx, SUMMARY_TEMPLATE,
                      {"region": region, "start": days[0][:10], "as_of": ctx.as_of_date},
                      allow_fallback=False)  # fmt: skip
    resp.status, resp.uncertainty = status, uncertainty  # the check failing degrades nothing
    prop = MEASURES[_template(series)]
    points = [(f"{r['month']}-01", float(r[prop])) for r in (result.rows if result else [])
              if r.get(prop) is not None]  # fmt: skip
    if not {d for d, _ in points} & set(days):
        del resp.structured_citations[cited:]
        return None
    return series.model_copy(update={"points": points})
