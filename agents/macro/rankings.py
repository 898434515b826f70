"""Rankings across a set for the Equity and Real estate agents (issue 14): the stocks of a
sector by their return over the window ('은행주 최근 1개월 수익률 1위'), and regions by the
latest value of a housing series ('전세가율 가장 높은 지역'). Each ranking is one cited SQL
template; the order, the top N and the average are computed here and said in the key points."""

from __future__ import annotations

import re
from datetime import date
from typing import Any, NamedTuple

from dateutil.relativedelta import relativedelta

from agents.macro.deals import deal_window, level
from agents.macro.derived import DEALS, FILTERED, contradicted, signed
from agents.macro.housing_asked import BY_MEASURE, DEAL_WORDS, FLOWS, SPECS
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
from agents.understanding.frame import ANY_BAR, COMPARATOR_WORDS
from agents.understanding.parse import asked_move
from agents.understanding.vocabulary import (
    find_phrases,
    region_members,
    sector_members,
    vocabulary,
)
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
             window: bool = False, named: tuple[str, ...] = ()) -> list[dict[str, Any]]:  # fmt: skip
    """The template's rows that hold a value, of the regions ranked (`_members`) or `named`; a
    `window` template from 14 months back (a year's change or total and its base)."""
    start = (date.fromisoformat(ctx.as_of_date) - relativedelta(months=14)).isoformat()
    result = run_step(resp, ctx, template, {**({"start": start} if window else {}),
                                            "as_of": ctx.as_of_date})  # fmt: skip
    rows = [r for r in (result.rows if result else []) if r["value"] is not None]
    return [r for r in rows if r["region"] in named] if named else _members(rows, route)


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


def _rates(route: Route) -> tuple[bool, bool]:
    """A rate of change said ('상승률', a return measure or statistic), and said or asked by a
    basis ('전월 대비', 'growth year over year'): not a level."""
    frame = route.frame
    said = frame is not None and (frame.statistic == "return" or any(m.name == "return" for m in frame.measures))  # fmt: skip
    return said, said or (frame is not None and frame.operation.change_basis in ("yoy", "mom"))


_FALL_RATE = re.compile(r"(?:감소|하락)\s*[율률]")


def _move_asked(route: Route) -> str | None:
    """'늘어난' → 'up', '줄어든' → 'down' (a ranking by change); '상승률 높은 지역', '6개월 변화
    가장 큰 지역' rank by the growth rate or the change (its size when no way is said: 'most',
    'least'), largest first unless a low end is asked; else None (by level)."""
    frame, rate = route.frame, _rates(route)[1]
    op, size = frame.operation if frame else None, frame is not None and frame.statistic == "change" and not rate  # fmt: skip
    if (op is not None and op.kind == "filter" and op.threshold is not None and op.comparator
            and (op.threshold == 0 or rate or size)):  # fmt: skip
        # '1년 변화율이 마이너스인 지역', '1년 상승률 3% 넘는 지역': a bar on a change is a way
        # ('주택가격지수 100 넘는 지역' is a bar on the level)
        frame.notes.append(FILTERED)  # type: ignore[union-attr]
        return "down" if op.comparator.startswith("<") else "up"
    move, low_end = asked_move(route.question), op is not None and op.direction == "asc"
    if move or not (rate or size):
        return move
    if size:  # '6개월 변화 가장 큰 지역': the size of the change, either way
        return "least" if low_end else "most"
    falls = bool(_FALL_RATE.search(route.question))  # '감소율 가장 큰 지역': the largest fall first
    return "up" if low_end == falls else "down"


_AMONG = re.compile(r"(?:지역|곳|데)\s*(?:들\s*)?중|\bamong\b")


class Reading(NamedTuple):
    """A region's figure of one housing series: the value ranked, barred or summed, how it is
    written, the months behind it (the base's and the last), the levels at a move's two ends,
    and how many months a total or mean took."""

    value: float
    shown: str
    m0: str = ""
    m1: str = ""
    ends: tuple[str, str] = ("", "")
    months: int = 0


def _reading(resp: AgentResponse, ctx: RunContext, route: Route, template: str, how: str,
             named: tuple[str, ...] = (), since: str = "") -> dict[str, Reading]:  # fmt: skip
    """Each region's reading of one housing series: its latest level ('level'), its growth in %
    or its change over the question's period ('growth', 'change'), or the period's total or
    mean of its months ('sum', 'avg'); of the apartment deals since `since`, their count or
    median price ('deals', 'price')."""
    base, unit = template.removesuffix("_window"), SPECS[template][4]
    if template == DEALS:  # their count ('deals'), median ('price') or mean price ('mean')
        result = run_step(resp, ctx, "re_transactions_by_region",
                          {"parent": ranking_parent(route), "start": since, "as_of": ctx.as_of_date})  # fmt: skip
        field = {"price": "median_price", "mean": "avg_price"}.get(how, "deals")
        said = (
            ("평균", "mean", "avg_price") if how == "mean" else ("중위", "median", "median_price")
        )
        return {str(r["region"]): Reading(float(r[field]), lang_text(
            route.language, f"{int(r['deals']):,}건 ({said[0]} {price})", f"{int(r['deals']):,} deals ({said[1]} {price})"),
            since, ctx.as_of_date) for r in _members(result.rows if result else [], route)
            for price in [fig.fmt_krw(float(r[said[2]]), "만")]}  # fmt: skip
    if how == "level":
        return {str(r["region"]): Reading(float(r["value"]), level(float(r["value"]), unit),
                                          m1=str(r["month"])[:7])
                for r in _regions(resp, ctx, route, f"{base}_latest_by_region", named=named)}  # fmt: skip
    frame, by_region = route.frame, dict[str, list[dict[str, Any]]]()
    for r in _regions(resp, ctx, route, f"{base}_window_by_region", True, named):
        by_region.setdefault(str(r["region"]), []).append(r)
    out, period = {}, asked_period(frame)
    if how in ("growth", "change"):  # first to last month of the period; '전월 대비': one month
        period = fig.PERIODS["1m"] if frame and frame.operation.change_basis == "mom" else period
        for region, rows in by_region.items():
            if len(w := fig.window_rows(rows, "month", period)) >= 2 and (float(w[0]["value"]) or how == "change"):  # fmt: skip
                v0, v1 = float(w[0]["value"]), float(w[-1]["value"])
                g = (v1 / v0 - 1) * 100 if how == "growth" else v1 - v0
                out[region] = Reading(g, f"{g:+.2f}%" if how == "growth" else signed(g, unit), str(w[0]["month"])[:7],
                                      str(w[-1]["month"])[:7], (level(v0, unit), level(v1, unit)))  # fmt: skip
        return out
    month = lambda r: date.fromisoformat(str(r["month"])[:10])  # noqa: E731
    first = fig.base_date(max(month(r) for rows in by_region.values() for r in rows), period) if by_region else None  # fmt: skip
    inside = {region: [r for r in rows if month(r) > first] for region, rows in by_region.items()}  # type: ignore[operator]
    months = sorted({str(r["month"])[:7] for rows in inside.values() for r in rows})
    for region, rows in inside.items():  # the months inside the period ending at the last month
        if values := [float(r["value"]) for r in rows]:
            stat = sum(values) / (1 if how == "sum" else len(values))
            out[region] = Reading(stat, level(stat, unit), months[0], months[-1], months=len(values))  # fmt: skip
    return out


def _said(x: Reading, how: str, listed: bool = False) -> str:
    """A reading in a line ('75.00% (2026-10)', '+2.10% (100 2025-10 → 102.1 2026-10)'); in a
    ranking's list, whose head holds the months, a move as its ends ('100호 → 120호 (+20호)')."""
    moved = how in ("growth", "change")
    if how in ("deals", "price", "mean"):  # a region's deals: '45건 (평균 52억 …)'
        return x.shown
    if listed and how != "level":
        return f"{x.ends[0]} → {x.ends[1]} ({x.shown})" if moved else x.shown
    if moved:
        return f"{x.shown} ({x.ends[0]} {x.m0} → {x.ends[1]} {x.m1})"
    if how == "level":
        return f"{x.shown} ({x.m1})"
    return f"{x.m0} ~ {x.m1} {x.months}개월 {'합계' if how == 'sum' else '평균'} {x.shown}"


Bar = tuple[str, str, str, float | None]  # template, reading, comparator, bar (None: the sign)
_DEAL_READINGS = {"deals": ("실거래 건수", "deal count", "건"),
                  "mean": ("실거래 평균가", "mean deal price", "원")}  # fmt: skip
_HEADS = {  # a ranking's head by its reading: the words before '지역 순', the high and low end
    "level": (("{ko} {0}", "높은", "낮은"), ("Regions by {en}, {0} first", "highest", "lowest")),
    "sum": (("{ko} 합계 {0}", "높은", "낮은"), ("Regions by total {en}, {0} first", "highest", "lowest")),
    "growth": (("{ko} 상승률 {0}", "높은", "낮은"), ("Regions by {en} growth, {0} first", "highest", "lowest")),
    "change": (("{ko} {0} 폭이 큰", "증가", "감소"), ("Regions by the {0} in {en}", "rise", "fall")),
    "deals": (("아파트 실거래 건수 {0}", "많은", "적은"), ("Regions by apartment deal count, {0} first", "highest", "lowest")),
    "price": (("아파트 {ko} {0}", "높은", "낮은"), ("Regions by apartment {en}, {0} first", "highest", "lowest")),
    "size": (("{ko} 변화 폭이 {0}", "큰", "작은"),
             ("Regions by the size of the change in {en}, {0} first", "largest", "smallest")),
}  # fmt: skip


def _bar_words(bar: Bar, lang: str) -> tuple[str, str]:
    """'미분양 5,000호 초과', 'unsold units above 5,000'; a sign bar: '미분양이 늘어난'."""
    template, how, comparator, threshold = bar
    _, _, ko, en, unit = SPECS[template]
    if template == DEALS and how in _DEAL_READINGS:  # '거래 100건 넘는', '평균 거래가 10억 이상'
        ko, en, unit = _DEAL_READINGS[how]
    if threshold is None:
        up = comparator == ">"
        return f"{josa(ko, '이/가')} {'늘어난' if up else '줄어든'}", f"{en} {'rose' if up else 'fell'}"  # fmt: skip
    words = COMPARATOR_WORDS["ko" if lang == "ko" else "en"][comparator]
    shown = f"{threshold:g}%" if how == "growth" else level(threshold, unit)
    ko_how, en_how = {"sum": ("합계 ", "total "), "growth": ("상승률 ", ""),
                      "change": ("변화 ", "")}.get(how, ("", ""))  # fmt: skip
    en_tail = {"growth": " growth", "change": " change"}.get(how, "")
    return f"{ko} {ko_how}{shown} {words}", f"{en_how}{en}{en_tail} {words} {shown}"


def _plan(resp: AgentResponse, ctx: RunContext, route: Route, *, bars: tuple[Bar, ...] = (),
          order: tuple[str, str] | None = None, high: bool = True, n: int | None = None,
          read: tuple[str, str] | None = None, size: bool = False, then: str = "",
          named: tuple[str, ...] = (), since: str = "") -> bool:  # fmt: skip
    """The one region plan: the regions the question ranks over (`_members`), kept by every
    bar, ordered by one reading (the largest first when `high`; by its size when `size`), the
    top `n` taken (ties kept), another reading of them (`read`), then said as `then` asks:
    '' a list ('지역 순', or the regions kept and counted), 'sum'/'avg' the list and its total,
    'pick' the first's reading of the second, 'mean'/'total' the read ones' mean or total,
    'gap' the two ends and their gap. False when no region holds the readings."""
    lang, frame = route.language, route.frame
    asked = [*((t, how) for t, how, _, _ in bars), *(x for x in (order, read) if x)]
    got = {x: _reading(resp, ctx, route, *x, named, since) for x in dict.fromkeys(asked)}
    kept: set[str] | None = None
    either = frame is not None and ANY_BAR in frame.notes  # '… 이상이거나 … 이상인': any one
    for t, how, comparator, threshold in bars:
        met = {r for r, x in got[t, how].items() if meets(x.value, comparator, threshold or 0)}
        kept = met if kept is None else (kept | met) if either else kept & met
    reads = got.get(read, {}) if read else {}
    key = lambda t: round(abs(t[1].value) if size else t[1].value, 6)  # noqa: E731
    everyone = sorted(got[order].items() if order else (), key=key, reverse=high)
    # a pick is made among every region ranked; its reading may then be the province's
    ordered = [(r, x) for r, x in everyone if (kept is None or r in kept)
               and (not read or r in reads or (then == "pick" and not named))]  # fmt: skip
    need = 2 if then == "gap" else max(len(named), 1)  # both ends; each region named
    if not got[bars[0][:2]] if bars and not (n or then) else not bars and len(ordered) < need:
        return False
    how = order[1] if order else "level"
    _, _, ko, en, unit = SPECS[order[0] if order else bars[0][0]]
    top = ordered[: with_ties([key(t) for t in ordered], n)] if n else ordered
    span = lang_text(lang, "지역별 최신월", "latest month each") if how == "level" or not everyone else (
        f"{everyone[0][1].m0} {'→' if how in ('growth', 'change') else '~'} {everyone[0][1].m1}")  # fmt: skip
    if then == "gap":  # '가장 높은 지역과 가장 낮은 지역의 차이'
        (hi, a), (lo, b) = ordered[0], ordered[-1]
        ends, gap = (
            [f"{hi} {_said(a, how)}", f"{lo} {_said(b, how)}"],
            signed(a.value - b.value, unit),
        )
        line = (f"{ko} 가장 높은 지역 {ends[0]} − 가장 낮은 지역 {ends[1]} = {gap} ({len(ordered)}개 지역 중).",
                f"Highest {en}: {ends[0]}; lowest: {ends[1]}; gap {gap} (of {len(ordered)} regions).")  # fmt: skip
    elif then in ("mean", "total", "each"):  # '미분양 3천호 이상인 지역의 평균 전세가율'
        _, _, ko2, en2, unit2 = SPECS[read[0]]  # type: ignore[index]
        chosen = [(r, x) for r, x in reads.items() if kept is None or r in kept]
        values = [x.value for _, x in chosen]
        stat = (sum(values) / len(values) if then == "mean" else sum(values)) if values else None
        bar, listed = (
            _bar_words(bars[0], lang),
            ", ".join(f"{r} {_said(x, 'level')}" for r, x in chosen),
        )
        word = {"mean": ("평균", "mean"), "total": ("합계", "total")}.get(then)
        stated = level(stat, unit2) if stat is not None else "없음"
        line = (f"{bar[0]} 지역 {len(chosen)}곳의 {ko2} {word[0]}: {stated}" + (f" — {listed}." if chosen else "."),
                f"{en2} {word[1]} of the {len(chosen)} regions with {bar[1]}: {stated}"
                + (f" — {listed}." if chosen else "."))  if word else (  # fmt: skip
            f"{bar[0]} 지역 {len(chosen)}곳의 {ko2}: {listed or '없음'}.",
            f"{en2} of the {len(chosen)} regions with {bar[1]}: {listed or 'none'}.")  # fmt: skip
        frame.notes += [FILTERED, COMPOSED]  # type: ignore[union-attr]
    elif then == "pick":  # '미분양 가장 많은 지역의 전세가율': the first's pick, the second read
        (region, x), (_, _, ko2, en2, _) = ordered[0], SPECS[read[0]]  # type: ignore[index]
        rate = next((m.surface for m in frame.measures if m.name == "return"), "")  # type: ignore[union-attr]
        held = region if region in reads else region.split()[0]  # '서울 서초구' → 서울's
        red = (f"{rate} " if read[1] == "growth" and rate else "") + (_said(reads[held], read[1]) if held in reads else lang_text(lang, "없음", "not held"))  # type: ignore[index]  # fmt: skip
        if held != region:  # the district's figure is not held: the province's, said
            red += lang_text(lang, f" ({held} 값)", f" ({held}'s)")
            resp.uncertainty.append(lang_text(
                lang, f"{josa(ko2, '은/는')} {region} 단위로 없어 {held} 값으로 답했습니다.",
                f"{en2} is not held for {region}: {held}'s is given."))  # fmt: skip
        what = {"growth": (f"{ko} 상승률", f"{en} growth"), "level": (ko, en),
                 "change": (f"{ko} {'증가' if high else '감소'}폭", f"{en} {'rise' if high else 'fall'}")}[how]  # fmt: skip
        which = (
            "큰" if how == "change" else "높은" if high else "낮은"
        )  # of two named: '더 높은 곳'
        head = (f"{what[0]} 더 {which} 곳", f"The {'higher' if high else 'lower'} {what[1]}") if named else (
            f"{what[0]} 가장 {which} 지역", f"The region with the {'highest' if high or how == 'change' else 'lowest'} {what[1]}")  # fmt: skip
        line = (f"{head[0]}: {region} {_said(x, how)} → {ko2} {red}.",
                f"{head[1]}: {region} {_said(x, how)} → {en2} {red}.")  # fmt: skip
    elif bars and order and n:  # '미분양 5천호 넘는 지역 중 전세가율 가장 높은 곳'
        chose, listed = _bar_words(bars[0], lang), ", ".join(f"{r} {_said(x, how)}" for r, x in top)
        by = {"growth": (f"{ko} 상승률", f"{en} growth"), "change": (f"{ko} 변화폭", f"{en} change"),
              **{k: v[:2] for k, v in _DEAL_READINGS.items()}}.get(how, (ko, en))  # fmt: skip
        line = (f"{chose[0]} 지역 {len(kept or ())}곳 중 {by[0]} {'높은' if high else '낮은'} 순: {listed or '없음'}.",
                f"Of the {len(kept or ())} regions where {chose[1]}, by {by[1]}, "
                f"{'highest' if high else 'lowest'} first: {listed or 'none'}.")  # fmt: skip
    elif bars:  # '전세가율 50% 넘는 지역', '미분양 늘어난 지역 몇 곳': kept, counted and named
        base = bars[0][:2]
        shown_by = list(dict.fromkeys((t, h) for t, h, _, _ in bars))
        words = [_bar_words(b, lang) for b in bars]
        found = [r for r, _ in ordered]
        listed = ", ".join(r + " " + " · ".join(
            (SPECS[t][2] + " " if len(bars) > 1 else "") + _said(got[t, h][r], h, listed=True)
            for t, h in shown_by) for r in found)  # fmt: skip
        joiner = (" 또는 ", " or ") if either else (" 및 ", " and ")
        head = (joiner[0].join(w[0] for w in words), joiner[1].join(w[1] for w in words))
        prep = "with" if base[1] in ("level", "sum") else "where"
        span = lang_text(lang, "지역별 최신월", "latest month each") if base[1] == "level" else span
        total = len(got[base])
        line = (f"{head[0]} 지역 ({span}): {len(found)}곳 / {total}곳" + (f" — {listed}." if found else "."),
                f"Regions {prep} {head[1]} ({span}): {len(found)} of {total}" + (f" — {listed}." if found else "."))  # fmt: skip
        if any(b[3] is not None and b[1] in ("level", "sum") for b in bars):
            frame.notes.append(FILTERED)  # type: ignore[union-attr]
    else:  # '전세가율 가장 높은 지역', '미분양 증가 폭이 큰 지역 순'
        listed = ", ".join(f"{r} {_said(x, how, listed=True)}" for r, x in top)
        values = [x.value for _, x in top]
        summed = then == "sum" and unit in ("호", "건")  # '가장 많은 지역 3곳과 그 합계'
        put = level(sum(values) / (1 if summed else len(values)), unit)
        tail = lang_text(lang, f" — {'합계' if summed else '평균'} {put}", f" — {'total' if summed else 'mean'} "
                         f"{put}") if summed or then == "avg" else ""  # fmt: skip
        if summed:
            frame.notes.append(COMPOSED)  # type: ignore[union-attr]  # ranked, cut, then summed
        (ko_head, *ko_ends), (en_head, *en_ends) = _HEADS["size" if size else how]
        line = (ko_head.format(ko_ends[not high], ko=ko) + f" 지역 순 ({span}): {listed}{tail}.",
                en_head.format(en_ends[not high], en=en) + f" ({span}): {listed}{tail}.")  # fmt: skip
    resp.key_points.append(lang_text(lang, *line))
    if then in ("gap", "pick", "mean", "total") or (bars and order and n):
        frame.notes.append(COMPOSED)  # type: ignore[union-attr]
    return True


def region_ranking(resp: AgentResponse, ctx: RunContext, route: Route, template: str) -> bool:
    """Regions by one housing series as the question reads it: its latest value, its change or
    growth over the period ('미분양 가장 많이 줄어든 지역'), a flow's total ('올해 인허가 지역별
    순위'), or the regions past a bar on one of those ('전세가율 50% 넘는 지역'). False when the
    series has no per-region template or no region holds it."""
    if f"{template.removesuffix('_window')}_latest_by_region" not in TEMPLATES:
        return False
    op, move, unit = route.frame.operation if route.frame else None, _move_asked(route), SPECS[template][4]  # fmt: skip
    barred = op is not None and bool(op.comparator) and op.threshold is not None
    n, high = (op.top_n if op else None) or 3, not _ascending(route)
    bar = (str(op.comparator), op.threshold) if barred else ("", None)  # type: ignore[union-attr]
    if not move and _total_asked(route, template):  # each region's total over the period
        if barred:  # '1년 합계 1만호 넘는 지역'
            return _plan(resp, ctx, route, bars=((template, "sum", *bar),), order=(template, "sum"), high=high)  # fmt: skip
        return _plan(resp, ctx, route, order=(template, "sum"), high=high, n=n)
    if move:  # '상승률': ranked and shown in %; a count said with a basis ('전월 대비 가장 많이
        # 늘어난') is ranked by how many it added unless a rate is said
        said, asked = _rates(route)
        how = "growth" if asked and (unit not in ("호", "건") or said) else "change"
        if op is not None and op.kind != "rank" and move in ("up", "down"):
            # '미분양 1년 전보다 늘어난 지역 몇 곳이야?': every region that moved that way, counted;
            # '1년 상승률 3% 넘는 지역': past the bar on its change (its growth when a rate is asked)
            sign = (template, "change", ">" if move == "up" else "<", None)
            kept = (template, how, *bar) if barred and op.kind == "filter" else sign
            return _plan(resp, ctx, route, bars=(kept,), order=(template, how), high=move == "up")  # type: ignore[arg-type]
        return _plan(resp, ctx, route, order=(template, how), high=move in ("up", "most"), n=n,
                     size=move in ("most", "least"))  # fmt: skip
    if barred:  # '전세가율 50% 넘는 지역': the largest first
        done = _plan(resp, ctx, route, bars=((template, "level", *bar),), order=(template, "level"),
                     high=bar[0][0] != "<")  # type: ignore[arg-type]  # fmt: skip
    else:
        done = _plan(resp, ctx, route, order=(template, "level"), high=high, n=n,
                     then=str(op.aggregate or "") if op else "")  # fmt: skip
    if done or not (parent := ranking_parent(route)):
        return done
    _, _, ko, en, _ = SPECS[template]
    resp.uncertainty.append(lang_text(
        route.language, f"{ko}는 시·도 단위로만 있어 {parent} 안의 지역별 순위를 낼 수 없습니다.",
        f"{en} is held per province only: no ranking inside {parent}."))  # fmt: skip
    return True


def regions_composed(resp: AgentResponse, ctx: RunContext, route: Route, picks: bool = True) -> bool:  # fmt: skip
    """Two housing series, one choosing the regions, the other read or ranked among them:
    '미분양 가장 많은 지역의 전세가율' (the first's pick, the second read of it), '주택가격지수
    1년 상승률 가장 높은 지역의 …' (picked by a growth), '… 지역의 인허가 1년 합계' (the pick's
    total), '주택가격지수 1년 하락한 지역 중 미분양 가장 많은 곳' (the regions the first's move or
    bar kept, ranked by the second), '미분양 3천호 이상인 지역의 평균 전세가율' (the kept ones'
    mean), '전세가율 가장 높은 지역과 가장 낮은 지역의 차이' (one series' two ends), and
    '전세가율 70% 이상이면서 미분양 5000호 넘는 지역' (bars on two series). False unless such a
    plan was asked (the mean and the ends only, unless `picks`)."""
    frame = route.frame
    if frame is None:
        return False
    op, said = frame.operation, [m for m in frame.measures if m.name in BY_MEASURE]
    names = list(dict.fromkeys(m.name for m in said))
    if (not route.real_estate_regions and op.kind == "difference" and len(names) == 1
            and set(pick_directions(frame)) == {"asc", "desc"}):  # both ends of one series, their gap  # fmt: skip
        return _plan(resp, ctx, route, order=(BY_MEASURE[names[0]], "level"), then="gap")
    bars = [(op.filter_measure, op.comparator, op.threshold),
            *((c.measure, c.comparator, c.threshold) for c in op.conditions)]  # fmt: skip
    if (picks and op.conditions and op.comparator and op.threshold is not None
            and all(m in BY_MEASURE for m, _, _ in bars)):  # fmt: skip
        # '전세가율 70% 이상이면서 미분양 5000호 넘는 지역': the regions past every bar (each on
        # its own series), counted and named, the first bar's largest first
        return _plan(resp, ctx, route, bars=tuple((BY_MEASURE[str(m)], "level", c, t) for m, c, t in bars),  # type: ignore[misc]
                     order=(BY_MEASURE[str(op.filter_measure)], "level"), high=op.comparator[0] != "<")  # fmt: skip
    if len(names) < 2:
        return False
    first, second = said[0], next(m for m in said if m.name != said[0].name)
    one, two = BY_MEASURE[first.name], BY_MEASURE[second.name]
    bar = (one, "level", str(op.comparator), op.threshold)
    low = route.question.lower()
    moved = asked_move(low[low.find(second.surface.lower()) :])
    if (picks and op.kind == "filter" and op.filter_measure == first.name and op.comparator
            and op.threshold is not None and moved in ("up", "down")):  # fmt: skip
        # '주택가격지수 100 이상이면서 미분양이 1년 전보다 늘어난 지역': a level bar on one, a
        # move of the other
        sign = (two, "change", ">" if moved == "up" else "<", None)
        return _plan(resp, ctx, route, bars=(bar, sign), order=(one, "level"),  # type: ignore[arg-type]
                     high=op.comparator[0] != "<")  # fmt: skip
    each = nested_measure(frame) == second.surface  # '55% 넘는 곳의 주택가격지수': each one's
    if (op.kind == "filter" and (op.aggregate in ("avg", "sum") or each)
            and op.threshold is not None and op.comparator and len(said) == 2
            and first.name == op.filter_measure
            and (not route.real_estate_regions or ranking_parent(route))):  # '서울 자치구 중'  # fmt: skip
        then = {"avg": "mean", "sum": "total"}.get(str(op.aggregate), "each")
        return _plan(resp, ctx, route, bars=(bar,), read=(two, "level"), then=then)
    if not picks or not (op.kind == "rank" or (op.kind == "aggregate" and op.top_n == 1
                                               and op.aggregate in ("sum", "avg"))):  # fmt: skip
        return False
    among = _AMONG.search(route.question)
    if not among and nested_measure(frame) != second.surface:
        return False
    high = op.direction != "asc"
    if among:  # the set the first series' bar or move chose, then the order of the second
        if not (op.comparator and op.threshold is not None and op.filter_measure == first.name):
            move = asked_move(route.question[: among.start()]) or "up"  # '… 하락한 지역 중'
            bar = (one, "change", ">" if move == "up" else "<", None)
        elif op.threshold_unit == "%" and SPECS[one][4] != "%":  # '1년 변화율이 마이너스인':
            bar = (one, "growth", str(op.comparator), op.threshold)  # a bar on its growth
        rate = next((m for m in frame.measures if m.name == "return"), None)  # '… 중 1년 상승률
        grown = rate is not None and rate.surface.lower() in low[among.end() :]  # 가장 큰 곳'
        return _plan(resp, ctx, route, bars=(bar,), order=(two, "growth" if grown else "level"),
                     high=high, n=op.top_n or 1)  # fmt: skip
    # the first series' pick among the regions that hold the second, then its reading
    before = low[: low.find(second.surface.lower())]  # what picks, before the read measure
    rate = next((m for m in frame.measures if m.name == "return"), None)
    moved, grown = asked_move(before), rate is not None and rate.surface.lower() in before
    how = "growth" if grown else "change" if moved else "level"
    after = low[len(before) + len(second.surface) :]  # what is read of the pick
    changed = find_phrases(after, {"c": vocabulary()["change"]["period"]})  # '… 의 지수 1년 변화'
    read = ("growth" if rate is not None and not grown  # '… 구의 주택가격지수 1년 상승률'
            else str(op.aggregate) if op.kind == "aggregate"
            else "change" if changed or asked_move(after) else "level")  # fmt: skip
    if how == "growth" and _FALL_RATE.search(before):  # '하락률이 가장 큰': the deepest fall
        high = not high
    return _plan(resp, ctx, route, order=(one, how), high=moved == "up" if how == "change" else high,
                 read=(two, read), then="pick")  # fmt: skip


def named_regions_picked(resp: AgentResponse, ctx: RunContext, route: Route) -> bool:
    """'둘 중 (전세가율) 높은 곳의 미분양은?': of two regions named or carried, the one the first
    housing series picks (its latest value), then the second series' latest value there."""
    frame, named = route.frame, tuple(route.real_estate_regions)
    said = [m for m in frame.measures if m.name in BY_MEASURE] if frame else []
    side = (
        pick_direction(frame)
        if frame and len(named) == 2 and len({m.name for m in said}) == 2
        else None
    )
    if side is None or nested_measure(frame) != said[1].surface:  # type: ignore[arg-type]
        return False
    return _plan(resp, ctx, route, order=(BY_MEASURE[said[0].name], "level"), high=side != "asc",
                 read=(BY_MEASURE[said[1].name], "level"), then="pick", named=named)  # fmt: skip


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


_PRICE_WORDS = ("가격", "비싼", "비싸", "싼", "저렴", "집값", "중위", "price", "expensive", "cheap")


_REGIONS_SAID = re.compile(r"지역|시도|광역시|자치구|(?<![가-힣])구(?:별|는|가|의|\s|$)|regions?")


def deal_regions(resp: AgentResponse, ctx: RunContext, route: Route) -> bool:
    """'최근 3개월 아파트 평균 거래가 10억 이상인 지역', '… 거래가 100건 넘는 지역 중 평균가 가장
    낮은 곳': the regions' apartment deals over the window said held to a bar on their count or
    price (the mean when '평균' is said, else the median), listed, or ordered by the other and
    the first picked."""
    frame, low = route.frame, route.question.lower()
    threshold = frame.operation.threshold if frame else None
    if (frame is None or threshold is None or route.real_estate_regions
            or not frame.operation.comparator or not _REGIONS_SAID.search(low)
            or not DEAL_WORDS.search(low)):  # fmt: skip
        return False
    op, priced = frame.operation, "mean" if "평균" in low else "price"
    won = op.threshold_unit == "억"
    bar: Bar = (DEALS, priced if won else "deals", str(op.comparator),
                threshold * (1e8 if won else 1.0))  # fmt: skip
    since = deal_window(frame, ctx.as_of_date, None, 12)[0]  # the window said, a year unless
    picked = pick_direction(frame)  # '… 중 평균가 가장 낮은 곳': ordered by the other reading
    if picked is not None:
        op.kind, op.direction, op.top_n = "rank", picked, op.top_n or 1  # type: ignore[assignment]
        return _plan(resp, ctx, route, bars=(bar,), order=(DEALS, "deals" if won else priced),
                     high=picked != "asc", n=op.top_n, since=since)  # fmt: skip
    return _plan(resp, ctx, route, bars=(bar,), order=bar[:2], since=since)


def deal_ranking(resp: AgentResponse, ctx: RunContext, route: Route, start: str) -> bool:
    """Regions (or the districts of one) by their apartment deals since `start`: how many, or
    the median price when the question is about prices ('서울에서 아파트 제일 싼 구')."""
    how = "price" if any(w in route.question.lower() for w in _PRICE_WORDS) else "deals"
    op = route.frame.operation if route.frame else None
    return _plan(resp, ctx, route, order=(DEALS, how), high=not _ascending(route),
                 n=(op.top_n if op else None) or 3, since=start)  # fmt: skip
