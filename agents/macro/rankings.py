"""Rankings across a set for the Equity and Real estate agents (issue 14): the stocks of a
sector by their return over the window ('은행주 최근 1개월 수익률 1위'), and regions by the
latest value of a housing series ('전세가율 가장 높은 지역'). Each ranking is one cited SQL
template; the order, the top N and the average are computed here and said in the key points."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from dateutil.relativedelta import relativedelta

from agents.macro.deals import level
from agents.macro.derived import FILTERED, contradicted, signed
from agents.macro.housing_asked import BY_MEASURE, FLOWS, SPECS
from agents.macro.indices import index_levels
from agents.macro.router import Route
from agents.macro.state import AgentResponse, RunContext, Series
from agents.macro.templates import TEMPLATES
from agents.macro.tools import lang_text, pct, run_step
from agents.understanding.coverage import (
    COMPOSED,
    nested_measure,
    pick_direction,
    pick_directions,
)
from agents.understanding.frame import COMPARATOR_WORDS
from agents.understanding.parse import asked_move
from agents.understanding.vocabulary import region_members, sector_members, vocabulary
from agents.verdict import meets
from agents.window_answer import asked_period
from data_access import figures as fig
from data_access.seed.news_text import josa


def sector_codes(route: Route) -> list[str]:
    """The data's sector names for the sector words of the question ('은행주' → 금융)."""
    keys = [e.key for e in route.frame.of("sector")] if route.frame else []
    return list(dict.fromkeys(code for key in keys for code in sector_members(key)))


def sector_moves(resp: AgentResponse, ctx: RunContext, route: Route, start: str) -> None:
    """Returns of a sector's stocks over the window, ranked as the question asks."""
    sectors = sector_codes(route)
    if not sectors:
        return
    frame = route.frame
    # the period's SQL interval and its name (figures: '1년' / '1 year', '3개월', '1주')
    period = fig.period_named(None, frame.period.months if frame and frame.period
                              else float(route.period_months))  # fmt: skip
    # '은행주' asked in Korean means Korean banks unless a region says otherwise
    country = (
        route.regions[0] if len(route.regions) == 1 else ("KR" if route.language == "ko" else "ALL")
    )
    dataset = "US_TOP50_DAILY_OHLCV" if country == "US" else "KR_STOCK_DAILY_OHLCV"
    result = run_step(resp, ctx, "equity_sector_window",
                      {"sectors": sectors, "country": country, "start": start,
                       "as_of": ctx.as_of_date, "interval": period.sql_interval, "dataset": dataset})  # fmt: skip
    rows = [r for r in (result.rows if result else []) if r["first_close"] and r["last_close"]]
    if not rows:
        resp.uncertainty.append(f"{', '.join(sectors)} 업종 종목의 시세가 없습니다.")
        return
    for r in rows:
        r["ret"] = (float(r["last_close"]) / float(r["first_close"]) - 1) * 100
    ascending = _ascending(route)
    rows.sort(key=lambda r: r["ret"], reverse=not ascending)
    n = (frame.operation.top_n if frame and frame.operation.kind == "rank" else None) or 5
    avg = sum(r["ret"] for r in rows) / len(rows)
    label = ", ".join(sectors)
    listed = ", ".join(f"{r['name']} {r['ret']:+.2f}%" for r in rows[:n])
    order = ("하위" if ascending else "상위", "bottom" if ascending else "top")
    move = asked_move(route.question)
    span = period.ko if route.language == "ko" else period.en
    said = move and contradicted(lang_text(route.language, f"{label} 업종 평균", f"the {label} "
                                           "sector average"), avg, span, move, route.language)  # fmt: skip
    if said:  # '은행주 왜 올랐어?' when the sector fell on average: said before the list
        resp.key_points.append(said)
    resp.key_points.append(lang_text(
        route.language,
        f"{label} 업종 {len(rows)}종목의 {span} 수익률 {order[0]} {min(n, len(rows))}: "
        f"{listed} (업종 평균 {avg:+.2f}%, 각 종목 마지막 거래일 {rows[0]['last_day']} 기준).",
        f"{label}: {order[1]} {min(n, len(rows))} of {len(rows)} stocks by {span} return: "
        f"{listed} (sector average {avg:+.2f}%).",
    ))  # fmt: skip


def _ascending(route: Route) -> bool:
    """'반도체주 왜 떨어졌어?': the fallers (the lowest) lead, unless an order was asked."""
    direction = route.frame.operation.direction if route.frame else None
    return direction == "asc" or (direction is None and asked_move(route.question) == "down")


NATIONWIDE = "전국"  # a total, never a member of a ranking of regions


def _named_regions(route: Route) -> list[str]:
    """The regions named, a group as its members ('수도권 중 …': 서울, 인천, 경기)."""
    return [m for r in route.real_estate_regions if r != NATIONWIDE
            for m in (region_members(r) or [r])]  # fmt: skip


def ranking_parent(route: Route) -> str:
    """The region a ranking stays inside ('서울에서 … 제일 많은 구' → '서울'); '' for all, or
    for the regions named ('서울 부산 대구 중 가장 많은 곳' ranks those three)."""
    named = _named_regions(route)
    return named[0] if len(named) == 1 else ""


def _members(rows: list[dict[str, Any]], route: Route) -> list[dict[str, Any]]:
    """The rows a ranking is over: the districts of the one region named, the regions named,
    else every region but the nation."""
    named, parent = _named_regions(route), ranking_parent(route)
    if parent:
        return [r for r in rows if str(r["region"]).startswith(parent + " ")]
    if named:
        return [r for r in rows if r["region"] in named]
    if _DISTRICTS.search(route.question):  # '전세가율 가장 높은 구': the districts held
        return [r for r in rows if " " in str(r["region"])]
    return [r for r in rows if r["region"] != NATIONWIDE]


_DISTRICTS = re.compile(r"(?<![가-힣])구(?:별|는|가|은|의|\s|\?|$)|\bdistricts?\b")


def _regions(resp: AgentResponse, ctx: RunContext, route: Route, template: str,
             window: bool = False) -> list[dict[str, Any]]:  # fmt: skip
    """The template's rows that hold a value, of the regions ranked (`_members`); a `window`
    template from 14 months back (a year's change or total and its base)."""
    start = (date.fromisoformat(ctx.as_of_date) - relativedelta(months=14)).isoformat()
    result = run_step(resp, ctx, template, {**({"start": start} if window else {}),
                                            "as_of": ctx.as_of_date})  # fmt: skip
    rows = [r for r in (result.rows if result else []) if r["value"] is not None]
    return _members(rows, route)


def region_ranking(resp: AgentResponse, ctx: RunContext, route: Route, template: str,
                   ko: str, en: str, unit: str) -> bool:  # fmt: skip
    """Regions by the latest value of one housing series; False when the template has none
    ('re_unsold_window' → 're_unsold_latest_by_region')."""
    name = f"{template.removesuffix('_window')}_latest_by_region"
    if name not in TEMPLATES:
        return False
    move = _move_asked(route)
    if not move and _total_asked(route, template):  # '올해 인허가 지역별 순위'
        return _total_ranking(resp, ctx, route, name.replace("_latest_", "_window_"),
                              (ko, en, unit))  # fmt: skip
    if move:  # '미분양 가장 많이 줄어든 지역': ranked by the change over the window
        return _change_ranking(resp, ctx, route, name.replace("_latest_", "_window_"), move,
                               (ko, en, unit))  # fmt: skip
    parent, rows = ranking_parent(route), _regions(resp, ctx, route, name)
    if not rows and parent:
        resp.uncertainty.append(lang_text(
            route.language, f"{ko}는 시·도 단위로만 있어 {parent} 안의 지역별 순위를 낼 수 없습니다.",
            f"{en} is held per province only: no ranking inside {parent}."))  # fmt: skip
        return True
    if not rows:
        return False
    frame = route.frame
    if frame is not None and frame.operation.comparator and frame.operation.threshold is not None:
        return regions_past_bars(resp, ctx, route, (template, rows))  # '전세가율 50% 넘는 지역'
    ascending = _ascending(route)
    rows.sort(key=lambda r: float(r["value"]), reverse=not ascending)
    n = with_ties(
        [float(r["value"]) for r in rows], (frame.operation.top_n if frame else None) or 3
    )
    listed = ", ".join(f"{r['region']} {level(float(r['value']), unit)} ({str(r['month'])[:7]})"
                       for r in rows[:n])  # fmt: skip
    values = [float(r["value"]) for r in rows[:n]]
    agg = frame.operation.aggregate if frame else None  # '가장 많은 지역 3곳과 그 합계'
    said = ""
    if agg == "sum" and unit in ("호", "건"):
        said = lang_text(route.language, f" — 합계 {level(sum(values), unit)}",
                         f" — total {level(sum(values), unit)}")  # fmt: skip
        frame.notes.append(COMPOSED)  # type: ignore[union-attr]  # ranked, cut, then summed
    elif agg == "avg":
        said = lang_text(route.language, f" — 평균 {level(sum(values) / len(values), unit)}",
                         f" — mean {level(sum(values) / len(values), unit)}")  # fmt: skip
    resp.key_points.append(lang_text(
        route.language,
        f"{ko} {'낮은' if ascending else '높은'} 지역 순 (지역별 최신월): {listed}{said}.",
        f"Regions by {en}, {'lowest' if ascending else 'highest'} first (latest month each): "
        f"{listed}{said}.",
    ))  # fmt: skip
    return True


def regions_past_bars(resp: AgentResponse, ctx: RunContext, route: Route,
                      held: tuple[str, list[dict[str, Any]]] | None = None) -> bool:  # fmt: skip
    """'전세가율 50% 넘는 지역', '전세가율 70% 이상이면서 미분양 5000호 넘는 지역': every region whose
    latest values meet every bar (each on its own series), counted and named, the first bar's
    largest first; `held`: the one bar's series already fetched (its template and rows). False
    unless the bars name housing series (two or more of them, when none is held)."""
    op = route.frame.operation if route.frame else None
    if op is None or op.comparator is None or op.threshold is None or not (held or op.conditions):
        return False
    bars = [(op.filter_measure, op.comparator, op.threshold),
            *((c.measure, c.comparator, c.threshold) for c in op.conditions)]  # fmt: skip
    if held is None and any(m not in BY_MEASURE for m, _, _ in bars):
        return False
    ko_en = "ko" if route.language == "ko" else "en"
    kept, said, rows = None, [], list[dict[str, Any]]()
    shown: dict[str, list[str]] = {}
    seen: set[str | None] = set()
    for measure, comparator, bar in bars[:1] if held else bars:
        template = held[0] if held else BY_MEASURE[str(measure)]
        _, _, ko, en, unit = SPECS[template]
        got = held[1] if held else _regions(resp, ctx, route,
                                            f"{template.removesuffix('_window')}_latest_by_region")  # fmt: skip
        rows = rows or sorted(got, key=lambda r: float(r["value"]), reverse=comparator[0] != "<")
        for r in got if measure not in seen else []:  # '2000호 이상 5000호 미만': shown once
            shown.setdefault(str(r["region"]), []).append(
                f"{ko + ' ' if len(bars) > 1 and not held else ''}{level(float(r['value']), unit)} "
                f"({str(r['month'])[:7]})")  # fmt: skip
        seen.add(measure)
        met = {str(r["region"]) for r in got if meets(float(r["value"]), comparator, bar)}
        kept = met if kept is None else kept & met
        words = COMPARATOR_WORDS[ko_en][comparator]
        said.append(f"{ko} {level(float(bar), unit)} {words}" if ko_en == "ko"
                    else f"{en} {words} {level(float(bar), unit)}")  # fmt: skip
    found = [str(r["region"]) for r in rows if str(r["region"]) in (kept or set())]
    listed = ", ".join(f"{r} {' · '.join(shown[r])}" for r in found)
    head = " 및 ".join(said) if ko_en == "ko" else " and ".join(said)
    resp.key_points.append(lang_text(
        route.language, f"{head} 지역 (지역별 최신월): {len(found)}곳 / {len(rows)}곳"
        + (f" — {listed}." if found else "."), f"Regions with {head} (latest month each): "
        f"{len(found)} of {len(rows)}" + (f" — {listed}." if found else ".")))  # fmt: skip
    route.frame.notes.append(FILTERED)  # type: ignore[union-attr]
    return True


def with_ties(ordered: list[float], n: int) -> int:
    """How many to list so that every region tied with the n-th is named too."""
    while 0 < n < len(ordered) and ordered[n] == ordered[n - 1]:
        n += 1
    return n


def _total_asked(route: Route, template: str) -> bool:
    """A flow ranked over a period said ('올해', '최근 6개월') or totalled ('누적', '합계'): each
    region's total over it, not its latest month."""
    frame = route.frame
    return (template in FLOWS and frame is not None
            and (frame.period is not None or frame.operation.aggregate == "sum"))  # fmt: skip


def _total_ranking(resp: AgentResponse, ctx: RunContext, route: Route, template: str,
                   labels: tuple[str, str, str]) -> bool:  # fmt: skip
    """Each region's total of the months inside the period (a year when none was said)."""
    ko, en, unit = labels
    frame = route.frame
    rows = _regions(resp, ctx, route, template, window=True)
    if not rows:
        return False
    values, months = _period_values(rows, asked_period(frame))
    totals = {region: sum(v) for region, v in values.items()}
    ascending = _ascending(route)
    ranked = sorted(totals.items(), key=lambda t: t[1], reverse=not ascending)
    n = with_ties([t[1] for t in ranked], (frame.operation.top_n if frame else None) or 3)
    listed = ", ".join(f"{region} {level(total, unit)}" for region, total in ranked[:n])
    span = f"{months[0]} ~ {months[-1]}"
    op = frame.operation if frame is not None else None
    if op is not None and op.comparator and op.threshold is not None:  # '1년 합계 1만호 넘는 지역'
        met = [(r, t) for r, t in ranked if meets(t, op.comparator, op.threshold)]
        words = COMPARATOR_WORDS["ko" if route.language == "ko" else "en"][op.comparator]
        bar, listed = level(op.threshold, unit), ", ".join(f"{r} {level(t, unit)}" for r, t in met)
        resp.key_points.append(lang_text(
            route.language, f"{ko} 합계 {bar} {words} 지역 ({span}): {len(met)}곳 / {len(ranked)}곳"
            + (f" — {listed}." if met else "."), f"Regions with total {en} {words} {bar} "
            f"({span}): {len(met)} of {len(ranked)}" + (f" — {listed}." if met else ".")))  # fmt: skip
        frame.notes.append(FILTERED)  # type: ignore[union-attr]
        return True
    resp.key_points.append(
        lang_text(
            route.language,
            f"{ko} 합계 {'낮은' if ascending else '높은'} 지역 순 ({span}): {listed}.",
            f"Regions by total {en}, {'lowest' if ascending else 'highest'} first ({span}): {listed}.",
        )
    )
    return True


def _period_values(rows: list[dict[str, Any]],
                   period: fig.Period) -> tuple[dict[str, list[float]], list[str]]:  # fmt: skip
    """Each region's monthly values inside the period ending at the rows' last month, and
    those months."""
    first = fig.base_date(max(_month(r) for r in rows), period)
    inside = [r for r in rows if _month(r) > first]
    values: dict[str, list[float]] = {}
    for r in inside:
        values.setdefault(str(r["region"]), []).append(float(r["value"]))
    return values, sorted({str(r["month"])[:7] for r in inside})


def _month(row: dict[str, Any]) -> date:
    return date.fromisoformat(str(row["month"])[:10])


def _move_asked(route: Route) -> str | None:
    """'늘어난' → 'up', '줄어든' → 'down' (a ranking by change); '상승률 높은 지역', '6개월 변화
    가장 큰 지역' rank by the growth rate or the change, largest first unless a low end is
    asked; else None (by level)."""
    move = _sign_bar(route) or asked_move(route.question)
    if move or not (_rate_asked(route) or _size_asked(route)):
        return move
    low_end = route.frame is not None and route.frame.operation.direction == "asc"
    if _size_asked(route):  # '6개월 변화 가장 큰 지역': the size of the change, either way
        return "least" if low_end else "most"
    if _FALL_RATE.search(route.question):  # '감소율 가장 큰 지역': the largest fall first
        return "up" if low_end else "down"
    return "down" if low_end else "up"


def _sign_bar(route: Route) -> str | None:
    """'1년 변화율이 마이너스인 지역', '1년 상승률 3% 넘는 지역': a bar on a change is a
    direction (the bar itself is applied in _moved_regions)."""
    op = route.frame.operation if route.frame is not None else None
    if op is None or op.kind != "filter" or op.threshold is None or not op.comparator:
        return None
    if op.threshold != 0 and not (_rate_asked(route) or _size_asked(route)):
        return None  # '주택가격지수 100 넘는 지역' is a bar on the level
    route.frame.notes.append(FILTERED)  # type: ignore[union-attr]
    return "down" if op.comparator.startswith("<") else "up"


_FALL_RATE = re.compile(r"(?:감소|하락)\s*[율률]")


def _size_asked(route: Route) -> bool:
    """'변화', '증감' without a direction: regions ranked by how much they changed."""
    return route.frame is not None and route.frame.statistic == "change" and not _rate_asked(route)


def _rate_said(route: Route) -> bool:
    frame = route.frame
    return frame is not None and (
        any(m.name == "return" for m in frame.measures) or frame.statistic == "return"
    )


def _rate_asked(route: Route) -> bool:
    """'상승률', 'growth year over year', '전월 대비': a rate of change, not a level."""
    frame = route.frame
    if frame is None:
        return False
    return _rate_said(route) or frame.operation.change_basis in ("yoy", "mom")


def _region_moves(resp: AgentResponse, ctx: RunContext, route: Route,
                  template: str) -> list[tuple[str, float, float, float, str, str]]:  # fmt: skip
    """(region, change, first value, last value, first month, last month) of each region over
    the question's period (a year when none; a month for '전월 대비')."""
    frame = route.frame
    period = asked_period(frame)
    if frame is not None and frame.operation.change_basis == "mom":  # '전월 대비': one month
        period = fig.PERIODS["1m"]
    by_region: dict[str, list[dict[str, Any]]] = {}
    for r in _regions(resp, ctx, route, template, window=True):
        by_region.setdefault(str(r["region"]), []).append(r)
    moves = []
    for region, rows in by_region.items():
        window = fig.window_rows(rows, "month", period)
        if len(window) >= 2:
            v0, v1 = float(window[0]["value"]), float(window[-1]["value"])
            moves.append((region, v1 - v0, v0, v1, str(window[0]["month"])[:7],
                          str(window[-1]["month"])[:7]))  # fmt: skip
    return moves


_AMONG = re.compile(r"(?:지역|곳|데)\s*(?:들\s*)?중|\bamong\b")


Reading = tuple[float, str]  # a region's figure and how the answer writes it


def _by_region(resp: AgentResponse, ctx: RunContext, route: Route, measure: str,
               how: str) -> dict[str, Reading]:  # fmt: skip
    """Each region's reading of one housing measure: its latest level ('level'), its growth in %
    or its change over the question's period ('growth', 'change'), or the period's total or
    mean of its months ('sum', 'avg')."""
    template = BY_MEASURE[measure]
    base, unit = template.removesuffix("_window"), SPECS[template][4]
    if how == "level":
        return {
            str(r["region"]): (
                float(r["value"]),
                f"{level(float(r['value']), unit)} ({str(r['month'])[:7]})",
            )  # fmt: skip
            for r in _regions(resp, ctx, route, f"{base}_latest_by_region")
        }
    if how in ("growth", "change"):
        moves = _region_moves(resp, ctx, route, f"{base}_window_by_region")
        return {r: (g, (f"{g:+.2f}%" if how == "growth" else signed(g, unit))
                    + f" ({level(v0, unit)} {m0} → {level(v1, unit)} {m1})")
                for r, d, v0, v1, m0, m1 in moves if v0 or how == "change"
                for g in [(v1 / v0 - 1) * 100 if how == "growth" else d]}  # fmt: skip
    values, months = _period_values(
        _regions(resp, ctx, route, f"{base}_window_by_region", window=True),
        asked_period(route.frame),
    )
    word = "합계" if how == "sum" else "평균"
    return {r: (stat, f"{months[0]} ~ {months[-1]} {len(v)}개월 {word} {level(stat, unit)}")
            for r, v in values.items() if v
            for stat in [sum(v) if how == "sum" else sum(v) / len(v)]}  # fmt: skip


def regions_composed(resp: AgentResponse, ctx: RunContext, route: Route) -> bool:
    """Two housing series, one choosing the regions, the other read or ranked among them:
    '미분양 가장 많은 지역의 전세가율' (the first's pick, the second read of it), '주택가격지수
    1년 상승률 가장 높은 지역의 …' (picked by a growth), '… 지역의 인허가 1년 합계' (the pick's
    total), and '주택가격지수 1년 하락한 지역 중 미분양 가장 많은 곳' (the regions the first's
    move or bar kept, ranked by the second). False unless two housing series and such a plan."""
    frame = route.frame
    if frame is None:
        return False
    op = frame.operation
    if not (op.kind == "rank" or (op.kind == "aggregate" and op.top_n == 1
                                  and op.aggregate in ("sum", "avg"))):  # fmt: skip
        return False
    said = [m for m in frame.measures if m.name in BY_MEASURE]
    if len({m.name for m in said}) < 2:
        return False
    first, second = said[0], next(m for m in said if m.name != said[0].name)
    among = _AMONG.search(route.question)
    if not among and nested_measure(frame) != second.surface:
        return False
    (_, _, ko1, en1, unit1), (_, _, ko2, en2, _) = (
        SPECS[BY_MEASURE[m.name]] for m in said[:1] + [second]
    )
    high = op.direction != "asc"
    if among:  # the set the first series' bar or move chose, then the order of the second
        if op.comparator and op.threshold is not None and op.filter_measure == first.name:
            kept = {r for r, (v, _) in _by_region(resp, ctx, route, first.name, "level").items()
                    if meets(v, op.comparator, op.threshold)}  # '미분양 5천호 넘는 지역 중'  # fmt: skip
            words = COMPARATOR_WORDS["ko" if route.language == "ko" else "en"][op.comparator]
            bar = level(op.threshold, unit1)
            chose = (f"{ko1} {bar} {words}", f"{en1} {words} {bar}")
        else:
            move = asked_move(route.question[: among.start()]) or "up"
            kept = {r for r, (d, _) in _by_region(resp, ctx, route, first.name, "change").items()
                    if (d > 0 if move == "up" else d < 0)}  # fmt: skip
            chose = ((f"{josa(ko1, '이/가')} 늘어난", f"{en1} rose") if move == "up" else
                     (f"{josa(ko1, '이/가')} 줄어든", f"{en1} fell"))  # fmt: skip
        rows = sorted(((r, x) for r, x in _by_region(resp, ctx, route, second.name, "level").items()
                       if r in kept), key=lambda t: t[1][0], reverse=high)  # fmt: skip
        n = with_ties([x[0] for _, x in rows], op.top_n or 1)
        listed = ", ".join(f"{r} {x[1]}" for r, x in rows[:n])
        line = (f"{chose[0]} 지역 {len(kept)}곳 중 {ko2} {'높은' if high else '낮은'} 순: "
                f"{listed or '없음'}.", f"Of the {len(kept)} regions where {chose[1]}, by {en2}, "
                f"{'highest' if high else 'lowest'} first: {listed or 'none'}.")  # fmt: skip
    else:  # the first series' pick among the regions that hold the second, then its reading
        low = route.question.lower()
        before = low[: low.find(second.surface.lower())]  # what picks, before the read measure
        rate = next((m for m in frame.measures if m.name == "return"), None)
        moved, grown = asked_move(before), rate is not None and rate.surface.lower() in before
        how = "growth" if grown else "change" if moved else "level"
        read = ("growth" if rate is not None and not grown  # '… 구의 주택가격지수 1년 상승률'
                else str(op.aggregate) if op.kind == "aggregate" else "level")  # fmt: skip
        seconds = _by_region(resp, ctx, route, second.name, read)
        firsts = {r: x for r, x in _by_region(resp, ctx, route, first.name, how).items()
                  if r in seconds}  # fmt: skip
        if not firsts:
            return False
        up = moved == "up" if how == "change" else high  # the largest rise (or fall)
        region = (max if up else min)(firsts, key=lambda r: firsts[r][0])
        shown = (f"{rate.surface} " if read == "growth" and rate else "") + seconds[region][1]
        named = {"growth": (f"{ko1} 상승률", f"{en1} growth"), "level": (ko1, en1),
                 "change": (f"{ko1} {'증가' if up else '감소'}폭", f"{en1} {'rise' if up else 'fall'}")}[how]  # fmt: skip
        which = "큰" if how == "change" else "높은" if high else "낮은"
        line = (f"{named[0]} 가장 {which} 지역: {region} {firsts[region][1]} → {ko2} {shown}.",
                f"The region with the {'highest' if high or how == 'change' else 'lowest'} "
                f"{named[1]}: {region} {firsts[region][1]} → {en2} {shown}.")  # fmt: skip
    resp.key_points.append(lang_text(route.language, *line))
    frame.notes.append(COMPOSED)
    return True


def regions_barred_read(resp: AgentResponse, ctx: RunContext, route: Route) -> bool:
    """'미분양 3천호 이상인 지역의 평균 전세가율': the regions one housing series' bar keeps, the
    other series read in each, and their mean (or sum). False unless that plan was asked."""
    frame = route.frame
    if frame is None or route.real_estate_regions:
        return False
    op, said = frame.operation, [m for m in frame.measures if m.name in BY_MEASURE]
    if (op.kind != "filter" or op.aggregate not in ("avg", "sum") or op.threshold is None
            or not op.comparator or len(said) != 2 or said[0].name != op.filter_measure
            or said[1].name == said[0].name):  # fmt: skip
        return False
    (_, _, ko1, en1, unit1), (_, _, ko2, en2, unit2) = (SPECS[BY_MEASURE[m.name]] for m in said)
    firsts, seconds = (_by_region(resp, ctx, route, m.name, "level") for m in said)
    read = [(r, x) for r, x in seconds.items()
            if r in firsts and meets(firsts[r][0], op.comparator, op.threshold)]  # fmt: skip
    values = [v for _, (v, _) in read]
    stat = (sum(values) / len(values) if op.aggregate == "avg" else sum(values)) if values else None
    words = COMPARATOR_WORDS["ko" if route.language == "ko" else "en"][op.comparator]
    bar, listed = level(op.threshold, unit1), ", ".join(f"{r} {x[1]}" for r, x in read)
    word = ("평균", "mean") if op.aggregate == "avg" else ("합계", "total")
    shown = level(stat, unit2) if stat is not None else "없음"
    resp.key_points.append(lang_text(
        route.language, f"{ko1} {bar} {words} 지역 {len(read)}곳의 {ko2} {word[0]}: {shown}"
        + (f" — {listed}." if read else "."), f"{en2} {word[1]} of the {len(read)} regions with "
        f"{en1} {words} {bar}: {shown}" + (f" — {listed}." if read else ".")))  # fmt: skip
    frame.notes += [COMPOSED, FILTERED]
    return True


def regions_ends_gap(resp: AgentResponse, ctx: RunContext, route: Route) -> bool:
    """'전세가율 가장 높은 지역과 가장 낮은 지역의 차이': both ends of one housing series' latest
    values across the regions, and their gap. False unless both ends and a gap were asked."""
    frame = route.frame
    if frame is None or frame.operation.kind != "difference" or route.real_estate_regions:
        return False
    said = {m.name for m in frame.measures if m.name in BY_MEASURE}
    if len(said) != 1 or set(pick_directions(frame)) != {"asc", "desc"}:
        return False
    measure = said.pop()
    rows = _by_region(resp, ctx, route, measure, "level")
    if len(rows) < 2:
        return False
    _, _, ko, en, unit = SPECS[BY_MEASURE[measure]]
    high, low = (f(rows, key=lambda r: rows[r][0]) for f in (max, min))
    shown = [f"{r} {rows[r][1]}" for r in (high, low)]
    gap = signed(rows[high][0] - rows[low][0], unit)
    resp.key_points.append(lang_text(
        route.language, f"{ko} 가장 높은 지역 {shown[0]} − 가장 낮은 지역 {shown[1]} = {gap} "
        f"({len(rows)}개 지역 중).", f"Highest {en}: {shown[0]}; lowest: {shown[1]}; gap {gap} "
        f"(of {len(rows)} regions)."))  # fmt: skip
    frame.notes.append(COMPOSED)
    return True


def named_regions_picked(route: Route, series: list[Series]) -> str | None:
    """'둘 중 (전세가율) 높은 곳의 미분양은?': of two regions named or carried, the one the first
    housing series picks (its latest value), then the second series' latest value there."""
    frame = route.frame
    if frame is None or len(route.real_estate_regions) != 2:
        return None
    said = [m for m in frame.measures if m.name in BY_MEASURE]
    if len({m.name for m in said}) != 2 or nested_measure(frame) != said[1].surface:
        return None
    side = pick_direction(frame)
    first, second = (BY_MEASURE[m.name] for m in said)
    ends = {k: s for s in series if (k := tuple(s.key.split(":", 1))) and s.points}
    pairs = [(r, a, b) for r in route.real_estate_regions
             if (a := ends.get((first, r))) and (b := ends.get((second, r)))]  # fmt: skip
    if side is None or len(pairs) != 2:
        return None
    region, a, b = (min if side == "asc" else max)(pairs, key=lambda p: p[1].points[-1][1])
    _, _, ko1, en1, unit1 = SPECS[first]
    _, _, ko2, en2, unit2 = SPECS[second]
    (m1, v1), (m2, v2) = a.points[-1], b.points[-1]
    frame.notes.append(COMPOSED)
    word = ("낮은", "lower") if side == "asc" else ("높은", "higher")
    return lang_text(route.language,
                     f"{ko1} 더 {word[0]} 곳: {region} {level(v1, unit1)} ({m1[:7]}) → {ko2} "
                     f"{level(v2, unit2)} ({m2[:7]}).", f"The {word[1]} {en1}: {region} "
                     f"{level(v1, unit1)} ({m1[:7]}) → {en2} {level(v2, unit2)} ({m2[:7]}).")  # fmt: skip


def _change_ranking(resp: AgentResponse, ctx: RunContext, route: Route, template: str,
                    move: str, labels: tuple[str, str, str]) -> bool:  # fmt: skip
    """Each region's change from the window's base month to its latest month, the largest rise
    (or fall) first; the window is the question's period (a year when none)."""
    ko, en, unit = labels
    frame = route.frame
    moves = _region_moves(resp, ctx, route, template)
    if not moves:
        return False
    # '상승률': ranked and shown in %; a count said with a basis ('전월 대비 가장 많이 늘어난')
    # is ranked by how many it added unless a rate is said
    rate = _rate_asked(route) and (unit not in ("호", "건") or _rate_said(route))
    growth = (lambda m: (m[3] / m[2] - 1) * 100 if m[2] else 0.0) if rate else (lambda m: m[1])
    size = move in ("most", "least")
    key = (lambda m: round(abs(growth(m)), 6)) if size else (lambda m: round(growth(m), 6))
    moves.sort(key=key, reverse=move in ("up", "most"))
    said = lambda m, rated: (f"{m[0]} {level(m[2], unit)} → {level(m[3], unit)} ("  # noqa: E731
                             + (f"{growth(m):+.2f}%" if rated else signed(m[1], unit)) + ")")  # fmt: skip
    span = f"{moves[0][4]} → {moves[0][5]}"
    if frame is not None and frame.operation.kind != "rank" and move in ("up", "down"):
        # '미분양 1년 전보다 늘어난 지역 몇 곳이야?': every region that moved that way, counted
        # (each move in its unit: a ratio's in %p); '1년 상승률 3% 넘는 지역': past the bar on
        # its change (its growth in % when a rate is asked)
        op = frame.operation
        barred = op.kind == "filter" and op.threshold is not None and op.comparator is not None
        if barred:
            bar, comparator = float(op.threshold or 0), str(op.comparator)
            kept = [m for m in moves if meets(growth(m), comparator, bar)]
            shown = f"{bar:g}%" if rate else level(bar, unit)
            words = COMPARATOR_WORDS["ko" if route.language == "ko" else "en"][comparator]
            head = (f"{ko} {'상승률' if rate else '변화'} {shown} {words}",
                    f"{en} {'growth' if rate else 'change'} {words} {shown}")  # fmt: skip
        else:
            kept = [m for m in moves if (m[1] > 0 if move == "up" else m[1] < 0)]
            head = (f"{josa(ko, '이/가')} {'늘어난' if move == 'up' else '줄어든'}",
                    f"{en} {'rose' if move == 'up' else 'fell'}")  # fmt: skip
        listed = ", ".join(said(m, barred and rate) for m in kept)
        resp.key_points.append(lang_text(
            route.language, f"{head[0]} 지역 ({span}): {len(kept)}곳 / {len(moves)}곳"
            + (f" — {listed}." if kept else "."), f"Regions where {head[1]} ({span}): "
            f"{len(kept)} of {len(moves)}" + (f" — {listed}." if kept else ".")))  # fmt: skip
        return True
    n = with_ties([key(m) for m in moves], (frame.operation.top_n if frame else None) or 3)
    listed = ", ".join(said(m, rate) for m in moves[:n])
    if size:
        ko_head = f"{ko} 변화 폭이 {'큰' if move == 'most' else '작은'} 지역 순"
        en_head = f"Regions by the size of the change in {en}, {'largest' if move == 'most' else 'smallest'} first"
    elif rate:
        ko_head = f"{ko} 상승률 {'높은' if move == 'up' else '낮은'} 지역 순"
        en_head = f"Regions by {en} growth, {'highest' if move == 'up' else 'lowest'} first"
    else:
        ko_head = f"{ko} {'증가' if move == 'up' else '감소'} 폭이 큰 지역 순"
        en_head = f"Regions by the {'rise' if move == 'up' else 'fall'} in {en}"
    resp.key_points.append(lang_text(route.language, f"{ko_head} ({span}): {listed}.",
                                     f"{en_head} ({span}): {listed}."))  # fmt: skip
    return True


def index_stand_ins(resp: AgentResponse, ctx: RunContext, route: Route, start: str) -> None:
    """Index levels are not in the data: the index's tracking ETF stands in, and says so."""
    from agents.macro.domain import cited_window

    specs = {s["key"]: s for s in vocabulary()["indices"]}
    answered = index_levels(resp, ctx, route, start)  # the index itself where stored (issue 25)
    for entity in route.frame.of("index") if route.frame else []:
        if entity.key in answered:
            continue
        proxy = specs.get(entity.key, {}).get("proxy_etf")
        if not proxy:
            resp.uncertainty.append(f"{entity.name} 지수와 그 대용 ETF가 데이터에 없습니다.")
            continue
        result = run_step(resp, ctx, "etf_price_window",
                          {"code": proxy, "start": start, "as_of": ctx.as_of_date})  # fmt: skip
        rows = cited_window(resp, result.rows if result else [], "trade_date", route)
        if not rows:
            continue
        first, last = rows[0], rows[-1]
        v0, v1, name = float(first["close"]), float(last["close"]), last["name"]
        resp.series.append(Series(key=proxy, title=f"{name} ({proxy}) 종가 — {entity.name} 대용",
                                  unit="KRW", points=[(str(r["trade_date"]), float(r["close"]))
                                                      for r in rows]))  # fmt: skip
        resp.key_points.append(lang_text(
            route.language,
            f"{entity.name} 지수 자체는 데이터에 없어 추종 ETF {name}({proxy})로 대신 봅니다: 종가 "
            f"{v1:,.0f}원 ({last['trade_date']}), {first['trade_date']} 대비 {pct(v0, v1):+.2f}%.",
            f"{entity.name} index levels are not in the data; its tracking ETF {name} ({proxy}) "
            f"stands in: close {v1:,.0f} on {last['trade_date']}, {pct(v0, v1):+.2f}% since "
            f"{first['trade_date']}.",
        ))  # fmt: skip


_PRICE_WORDS = ("가격", "비싼", "비싸", "싼", "집값", "중위", "price", "expensive", "cheap")


def deal_ranking(resp: AgentResponse, ctx: RunContext, route: Route, start: str) -> bool:
    """Regions (or the districts of one) by their deals over the window: how many, or the
    median price when the question is about prices."""
    parent = ranking_parent(route)
    result = run_step(resp, ctx, "re_transactions_by_region",
                      {"parent": parent, "start": start, "as_of": ctx.as_of_date})  # fmt: skip
    rows = _members(result.rows if result else [], route)
    if not rows:
        return False
    by_price = any(w in route.question.lower() for w in _PRICE_WORDS)
    key = "median_price" if by_price else "deals"
    frame = route.frame
    ascending = _ascending(route)
    rows.sort(key=lambda r: float(r[key]), reverse=not ascending)
    n = (frame.operation.top_n if frame else None) or 3
    listed = ", ".join(f"{r['region']} {int(r['deals']):,}건 (중위 {fig.fmt_krw(float(r['median_price']), '만')})"
                       for r in rows[:n])  # fmt: skip
    listed_en = ", ".join(f"{r['region']} {int(r['deals']):,} deals (median "
                          f"{fig.fmt_krw(float(r['median_price']), '만')})" for r in rows[:n])  # fmt: skip
    scope = f"{parent} 안" if parent else "전체"
    what = ("실거래 중위가격", "median deal price") if by_price else ("실거래 건수", "deal count")
    order = ("낮은" if ascending else "높은") if by_price else ("적은" if ascending else "많은")
    resp.key_points.append(lang_text(
        route.language,
        f"{scope} 지역 {len(rows)}곳의 {start} ~ {ctx.as_of_date} 아파트 {what[0]} {order} 순: "
        f"{listed}.",
        f"Regions{' in ' + parent if parent else ''} by {what[1]} of apartment deals, {start} to "
        f"{ctx.as_of_date} ({'lowest' if ascending else 'highest'} first): {listed_en}.",
    ))  # fmt: skip
    return True
