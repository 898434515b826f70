"""The Macro, Equity and Real estate agents (seed 004 §12.1-12.2): templates in, §8.3 out.

Each agent is a plain function `(route, ctx) -> AgentResponse`: numbers come from SQL templates
(structured citations), explanations from graph evidence templates (document citations).
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any, NamedTuple

from agents.evidence import Stopwatch
from agents.formatting import amount
from agents.macro import deal_trend
from agents.macro.dart_accounts import accounts_answer, asks_accounts
from agents.macro.deals import (
    count_gap,
    counts_asked,
    deal_count_window,
    deal_filter,
    deal_points,
    deal_stats,
    filter_words,
    level,
    price_mean_asked,
    summed_deals,
)
from agents.macro.derived import (
    DAYS_ASKED,
    DEALS,
    asked_part,
    derived_points,
    growth_window,
    picked_read_window,
    signed,
    window_asked,
)
from agents.macro.disclosures import disclosure_answer
from agents.macro.housing_asked import FLOWS, PRICE_INDEX, asked_series
from agents.macro.rankings import (
    deal_ranking,
    deal_regions,
    index_stand_ins,
    named_regions_picked,
    region_ranking,
    regions_composed,
    sector_codes,
    sector_moves,
)
from agents.macro.router import Route
from agents.macro.state import AgentResponse, RunContext, Series
from agents.macro.templates import (
    EARNINGS_STATUS_KO,
    FRESHNESS_KO,
    change_text,
    evidence_text,
    is_rate_unit,
    level_text,
    prefer_language,
)
from agents.macro.tools import add_documents, distinct_paths, lang_text, pct, run_step
from agents.macro.universe import market_answer, market_question, universe_membership
from agents.understanding import QuestionFrame
from agents.understanding.coverage import cover, mark_read
from agents.understanding.frame import SPAN_AND_NOW
from agents.understanding.parse import AT_EXTREME, EXTREME_ANCHOR, asked_move
from agents.understanding.vocabulary import region_members, vocabulary
from agents.window_answer import per_period_months
from data_access import figures as fig
from data_access.catalog import DOMAIN_TITLES_KO
from data_access.seed.news_text import josa

MAX_ITEMS = 3
MAX_REGIONS = 8  # '광역시' is six


def start_date(as_of: str, months: int) -> str:
    return (date.fromisoformat(as_of) - timedelta(days=int(months * 30.44))).isoformat()


def fetch_start(as_of: str, months: int) -> str:
    """Query from a little before the window: a monthly series' latest value lags the as-of."""
    return start_date(as_of, months + 2)


def cited_window(resp: AgentResponse, rows: list[dict[str, Any]], key: str, route: Route,
                 months: int | None = None) -> list[dict[str, Any]]:  # fmt: skip
    """Rows from the period's base row (the last one on or before the series' own last
    observation minus the period) to that last one: data_access.figures' definition, which the
    ETF tools and the stock screens follow too. The newest citation is narrowed to them (the
    window the answer used, not the wider fetch)."""
    frame_period = route.frame.period if route.frame else None
    if months is None and frame_period is not None:
        period = fig.period_named(frame_period.label, frame_period.months)
    else:
        period = fig.period_named(None, months or route.period_months)
    rows = fig.window_rows(rows, key, period)
    if rows and resp.structured_citations:
        last = resp.structured_citations[-1]
        span = last.date_range.model_copy(update={"start": str(rows[0][key])[:10]})
        resp.structured_citations[-1] = last.model_copy(update={"row_count": len(rows),
                                                                "date_range": span})  # fmt: skip
    return rows


def agent_response(agent: str, ctx: RunContext, domain: str) -> AgentResponse:
    fresh = ctx.freshness.get(domain, "healthy")
    resp = AgentResponse(agent=agent, as_of_date=ctx.as_of_date, data_freshness={domain: fresh})
    if fresh != "healthy":
        resp.uncertainty.append(
            f"{DOMAIN_TITLES_KO.get(domain, domain)} 데이터 최신성 경고: {FRESHNESS_KO.get(fresh, fresh)} — "
            "강한 결론을 내리지 않습니다."
        )
    return resp


ANCHOR_DAYS = 14  # '그때 무슨 일?': the events within two weeks of the extreme's date


def _evidence(resp: AgentResponse, ctx: RunContext, name: str, params: dict[str, Any],
              route: Route) -> None:  # fmt: skip
    anchor = _extreme_anchor(resp, route)
    merged = {
        "themes": route.themes or ["금리"],
        "codes": route.indicator_codes,
        "ids": route.matched_security_ids,
        "as_of": min(ctx.as_of_date, _shift(anchor[0], ANCHOR_DAYS)) if anchor else ctx.as_of_date,
        **params,
    }
    result = run_step(resp, ctx, name, merged)
    rows = result.rows if result else []
    add_documents(resp, rows)
    resp.paths = prefer_language(resp.paths, route.language)  # a Korean review before a statement
    since = start_date(ctx.as_of_date, _window_months(route))  # the move's window
    inside = lambda p: str(p.get("event_date", ""))[:10] >= since  # noqa: E731
    # events of the move's window first, then those the question names
    resp.paths.sort(key=lambda p: (not inside(p), -_named_in_question(str(p.get("event", "")),
                                                                     route.question)))  # fmt: skip
    if anchor:
        _events_near(resp, route, anchor)
        return
    caveated: set[str] = set()  # an older event is said to be older once, not on each line
    for path in distinct_paths(resp.paths, 3):
        event = f"{path.get('event_date')} {path.get('event')}"
        before = "" if inside(path) or event in caveated else lang_text(
            route.language, f" (조회 구간 {since} 이전의 이벤트: 이번 움직임의 원인으로 단정할 수 없습니다)",
            f" (an event before the window from {since}: not shown to cause this move)")  # fmt: skip
        if not inside(path):
            caveated.add(event)
        resp.key_points.append(lang_text(
            route.language, f"근거 이벤트 {path['event_date']} {path['event']}: {evidence_text(path['evidence'], route.language)}{before}",
            f"Evidence event {path['event_date']} {path['event']}: {evidence_text(path['evidence'], route.language)}{before}"))  # fmt: skip
    if not rows:
        resp.uncertainty.append("관련 문서 근거를 찾지 못했습니다.")
        resp.needs_web_fallback = True


def _extreme_anchor(resp: AgentResponse, route: Route) -> tuple[str, str] | None:
    """(date, what) of the extreme a '그때 무슨 일?' follow-up points at: the first series'
    high or low over the window, as the previous answer named it."""
    frame = route.frame
    if frame is None or EXTREME_ANCHOR not in frame.notes or not resp.series:
        return None
    which, points = frame.operation.aggregate or "max", resp.series[0].points
    if not points:
        return None
    point = (max if which == "max" else min)(points, key=lambda p: p[1])  # its first day
    word = lang_text(route.language, "최고치" if which == "max" else "최저치",
                     "high" if which == "max" else "low")  # fmt: skip
    return point[0][:10], f"{resp.series[0].title} {word}"


def _shift(day: str, days: int) -> str:
    return (date.fromisoformat(day) + timedelta(days=days)).isoformat()


def _events_near(resp: AgentResponse, route: Route, anchor: tuple[str, str]) -> None:
    """The events nearest the extreme's date, each with its distance in days; none within
    ANCHOR_DAYS is said, with the nearest ones as context, never as the cause."""
    day, what = anchor
    at = date.fromisoformat(day)
    gap = lambda p: abs((date.fromisoformat(str(p.get("event_date"))[:10]) - at).days)  # noqa: E731
    near = sorted(distinct_paths(resp.paths, len(resp.paths)), key=gap)[:3]
    close = [p for p in near if gap(p) <= ANCHOR_DAYS]
    near = close or near  # events farther off only when none is near, and said to be context
    lo, hi = _shift(day, -ANCHOR_DAYS), _shift(day, ANCHOR_DAYS)
    resp.key_points.append(lang_text(
        route.language,
        f"{what}를 기록한 {day} 전후({lo} ~ {hi}) 데이터의 이벤트 {len(close)}건"
        + ("입니다." if close else "이 없습니다. 가장 가까운 이벤트를 참고로 보입니다 (원인으로 단정할 수 없습니다)."),
        f"Events in the data within {ANCHOR_DAYS} days of {day}, when the {what} was reached: "
        + (f"{len(close)}." if close else "none; the nearest are shown for context, not as the cause.")))  # fmt: skip
    for path in near:
        days = (date.fromisoformat(str(path["event_date"])[:10]) - at).days
        when = lang_text(route.language, f"{abs(days)}일 {'후' if days > 0 else '전'}" if days else "당일",
                         f"{abs(days)} days {'after' if days > 0 else 'before'}" if days else "that day")  # fmt: skip
        resp.key_points.append(lang_text(
            route.language, f"근거 이벤트 {path['event_date']} {path['event']} ({when}): {evidence_text(path['evidence'], route.language)}",
            f"Evidence event {path['event_date']} {path['event']} ({when}): {evidence_text(path['evidence'], route.language)}"))  # fmt: skip


def _named_in_question(event: str, question: str) -> int:
    """How much of the question's words the event's name holds (in characters): 'FOMC 이후 환율 반응' puts the
    FOMC decision before a CPI release of the same weeks (a stable sort keeps the rest's order)."""
    words = {w for w in re.findall(r"[0-9a-z가-힣]{2,}", question.lower())}
    return sum(len(w) for w in words if w in event.lower())  # 'fomc' says more than '발표'


def _widened(route: Route, months: int) -> int | None:
    """The months a window was widened to (a YoY/MoM base month), else None: the question's own
    period ('ytd', '3m') then decides the base row."""
    asked = route.frame is not None and window_asked(route.frame) is not None  # its own window
    return months if months != route.period_months or asked else None


def _window_months(route: Route) -> int:
    """The query window: the question's period, widened so a YoY/MoM base month is inside."""
    frame = route.frame
    basis = frame.operation.change_basis if frame else None
    need = {"yoy": 14, "mom": 3}.get(basis or "", 0)
    if basis == "yoy" and frame is not None and DAYS_ASKED.search(frame.question):
        need = max(need, route.period_months + 13)  # '3% 넘은 달 올해 몇 번?': each month's YoY
    if frame is not None and frame.per_period:  # '분기별': the periods shown and a base before
        need = max(need, per_period_months(frame.per_period))
    if frame is not None and frame.span is not None:  # '작년 합계': the span and a base before it
        last = date.today() if SPAN_AND_NOW in frame.notes else date.fromisoformat(frame.span.last)
        days = (last - date.fromisoformat(frame.span.first)).days  # '지금과 작년 최고치': to now
        need = max(need, days // 30 + (14 if basis == "yoy" else 2))  # '작년 대비 올해 누적' too
    if frame is not None and any(
        n.startswith(AT_EXTREME) and n.endswith(":rate") for n in frame.notes
    ):
        need = max(need, route.period_months + 13)  # 'CPI 상승률이 가장 높았던 달': each YoY rate
    read = picked_read_window(frame) if frame else None
    if read is not None:  # '… 빠진 쪽의 1년 수익률': the longer window read after the pick
        need = max(need, -(-fig.Window(read.n, read.unit).calendar_days() // 30) + 1)
    ask = window_asked(frame, max(1, len(route.indicator_codes))) if frame else None
    if ask is not None:  # '60거래일 평균': the whole window and its base are fetched
        need = max(need, -(-ask.window.calendar_days() // 30))
        need += 13 if frame is not None and growth_window(frame) else 0  # YoY rates need a year
    for more in frame.more_periods if frame else []:  # '3개월 평균과 1년 평균': the longer one too
        need = max(need, int(more.months) + 1)
    return max(route.period_months, need)


def macro_agent(route: Route, ctx: RunContext) -> AgentResponse:
    """Indicator levels and changes (SQL, graph fallback) plus event evidence when asked why."""
    watch, resp = Stopwatch(), agent_response("macro", ctx, "macro")
    months = _window_months(route)
    start = fetch_start(ctx.as_of_date, months)
    for code in route.indicator_codes[:MAX_ITEMS]:
        result = run_step(resp, ctx, "macro_series_window",
                          {"code": code, "start": start, "as_of": ctx.as_of_date})  # fmt: skip
        rows = cited_window(resp, result.rows if result else [], "obs_date", route,
                            _widened(route, months))  # fmt: skip
        if not rows:
            resp.uncertainty.append(f"{code}: {start}~{ctx.as_of_date} 관측치가 없습니다.")
            continue
        first, last = rows[0], rows[-1]
        v0, v1 = float(first["value"]), float(last["value"])
        # the series' name in the answer's language: the vocabulary's short English name for
        # an English question (the table's Korean name otherwise)
        spec: dict[str, Any] = next((s for s in vocabulary()["series"] if s["code"] == code), {})
        english = spec.get("name_en") if route.language == "en" else None
        name, unit = str(english or last.get("name_ko") or code), last.get("unit") or ""
        resp.series.append(Series(key=code, title=f"{name} ({code})", unit=unit,
                                  points=[(str(r["obs_date"]), float(r["value"])) for r in rows]))  # fmt: skip
        # a day asked ('3월 말 금리'): its value, not the latest
        ko_word, en_word = (
            ("", "") if route.frame and route.frame.as_of_date else ("최신값 ", "latest ")
        )
        if _widened(route, months) is not None:
            # the window was widened to hold a base or a whole window: its start was not asked
            resp.key_points.append(lang_text(
                route.language, f"{name} {ko_word}{level_text(v1, unit)} ({last['obs_date']}).",
                f"{name} ({code}) {en_word}{level_text(v1, unit, 'en')} ({last['obs_date']})."))  # fmt: skip
            continue
        if route.frame is not None and is_rate_unit(unit):
            mark_read(route.frame, "bp")  # a rate's change is written in %p and bp
        resp.key_points.append(lang_text(
            route.language,
            f"{name} {ko_word}{level_text(v1, unit)} ({last['obs_date']}), "
            f"{first['obs_date']}의 {level_text(v0, unit)} 대비 {change_text(v0, v1, unit)}.",
            f"{name} ({code}) {en_word}{level_text(v1, unit, 'en')} ({last['obs_date']}), "
            f"{change_text(v0, v1, unit, 'en')} vs {level_text(v0, unit, 'en')} on {first['obs_date']}.",
        ))  # fmt: skip
    # what the question asked of those series (a gap, a max, a YoY change) comes first
    resp.key_points[:0] = derived_points(route.frame, resp.series, months, route.language)
    if route.graph_need:
        _evidence(resp, ctx, "indicator_evidence", {}, route)
    if not resp.key_points:
        resp.status = "empty"
        resp.needs_companion = True
    resp.duration_ms = watch.ms
    return resp


def equity_agent(route: Route, ctx: RunContext) -> AgentResponse:
    """Prices, returns, drawdown and volume (OHLCV SQL), valuation, earnings, event evidence."""
    watch, resp = Stopwatch(), agent_response("equity", ctx, "equity")
    start = fetch_start(ctx.as_of_date, _window_months(route))  # '15거래일': all 15 sessions
    if not route.matched_security_ids and market_question(route):
        market_answer(resp, ctx, route, sector_codes(route))  # '오늘 거래대금 상위 10개' (issue 25)
    elif not route.matched_security_ids and sector_codes(route):
        sector_moves(resp, ctx, route, start)  # '은행주 최근 흐름': the sector's stocks, ranked
    elif not route.matched_security_ids and route.frame and route.frame.of("index"):
        index_stand_ins(resp, ctx, route, start)  # '코스피 요즘 어때?': said to be a stand-in
    elif not route.matched_security_ids:
        resp.status, resp.needs_companion = "empty", True
        resp.uncertainty.append(lang_text(
            route.language, "질문에서 종목을 찾지 못해 가격·실적 수치를 조회하지 않았습니다.",
            "No stock was recognised in the question, so no price or earnings figures were queried."))  # fmt: skip
    for sid in route.matched_security_ids[:MAX_ITEMS]:
        _equity_prices(resp, ctx, route, sid, start)
        _equity_fundamentals(resp, ctx, route, sid)
        universe_membership(resp, ctx, route, sid)  # its Top50 snapshot (seed 004 §4, issue 25)
        disclosure_answer(resp, ctx, route, sid)  # '최근 공시', '가이던스': OpenDART (issue 35)
        _equity_earnings(resp, ctx, route, sid)
        if asks_accounts(route.question):  # imported OpenDART 주요계정 (issue 35)
            accounts_answer(resp, ctx, route, sid)
    resp.key_points[:0] = derived_points(route.frame, resp.series, route.period_months,
                                         route.language)  # fmt: skip
    if route.graph_need and route.matched_security_ids:
        _evidence(resp, ctx, "company_evidence", {}, route)
    elif route.graph_need and sector_codes(route):
        # '반도체주 왜 떨어졌어?': the sector's news events beside its stocks' moves
        themes = list(dict.fromkeys(route.themes + [e.key for e in route.frame.of("sector")]))  # type: ignore[union-attr]
        _evidence(resp, ctx, "theme_evidence", {"themes": themes}, route)
    resp.duration_ms = watch.ms
    return resp


def _equity_prices(resp: AgentResponse, ctx: RunContext, route: Route, sid: str,
                   start: str) -> None:  # fmt: skip
    dataset = "KR_STOCK_DAILY_OHLCV" if sid.startswith("KR:") else "US_TOP50_DAILY_OHLCV"
    result = run_step(resp, ctx, "equity_price_window",
                      {"security_id": sid, "start": start, "as_of": ctx.as_of_date,
                       "dataset": dataset})  # fmt: skip
    rows = cited_window(resp, result.rows if result else [], "trade_date", route)
    if not rows:
        resp.uncertainty.append(f"{sid}: 기간 내 시세가 없습니다.")
        return
    closes = [float(r["close"]) for r in rows]
    first, last = rows[0], rows[-1]
    high = max(closes)
    volumes = [int(r["volume"]) for r in rows if r["volume"] is not None]  # NULL when imported
    avg_volume = sum(volumes) / len(volumes) if volumes else 0.0
    name = last.get("name") or sid
    windowed = route.frame is not None and window_asked(route.frame) is not None
    fetched = result.rows if windowed and result else rows  # '20거래일 평균': all 20 sessions
    resp.series.append(Series(key=sid, title=f"{name} ({sid}) 종가", unit=last.get("currency") or "",
                              points=[(str(r["trade_date"]), float(r["close"])) for r in fetched]))  # fmt: skip
    resp.key_points.append(lang_text(
        route.language,
        f"{_called(name, sid)} 종가 {_price_ko(closes[-1], sid)} ({last['trade_date']}), {first['trade_date']} 대비 "
        f"{pct(closes[0], closes[-1]):+.2f}%, 기간 고점 {_price_ko(high, sid)} 대비 {pct(high, closes[-1]):+.2f}%, "
        f"평균 거래량 {avg_volume:,.0f}주 ({len(rows)}거래일).",
        f"{name} ({sid}) closed at {closes[-1]:,.2f} on {last['trade_date']}: "
        f"{pct(closes[0], closes[-1]):+.2f}% since {first['trade_date']}, "
        f"{pct(high, closes[-1]):+.2f}% from the period high {high:,.2f}, average volume "
        f"{avg_volume:,.0f} over {len(rows)} sessions.",
    ))  # fmt: skip


def _equity_fundamentals(resp: AgentResponse, ctx: RunContext, route: Route, sid: str) -> None:
    result = run_step(resp, ctx, "equity_fundamentals_latest",
                      {"security_id": sid, "as_of": ctx.as_of_date})  # fmt: skip
    if result and result.rows:
        f = result.rows[0]
        held = f.get("market_cap") is not None
        currency = "KRW" if sid.startswith("KR:") else "USD"
        cap = amount(float(f["market_cap"]), currency) if held else ""
        eps = f", EPS {float(f['eps']):,.2f}" if f.get("eps") is not None else ""
        eps_ko = f", EPS {_price_ko(float(f['eps']), sid)}" if f.get("eps") is not None else ""
        point = lang_text(
            route.language,
            f"{sid} 밸류에이션({f['as_of_date']}): PER {f['pe']}, PBR {f['pb']}{eps_ko}, 배당수익률 "
            f"{f['dividend_yield']}%{', 시가총액 ' + cap if cap else ''}.",
            f"{sid} valuation ({f['as_of_date']}): P/E {f['pe']}, P/B {f['pb']}{eps}, dividend "
            f"yield {f['dividend_yield']}%{', market cap ' + cap if cap else ''}.",
        )
        asked = route.frame.measure() if route.frame else None  # 'PBR 얼마야?': it leads
        led = asked in ("per", "pbr", "dividend_yield", "market_cap", "eps")
        resp.key_points.insert(0 if led else len(resp.key_points), point)


def _called(name: str, sid: str) -> str:
    """A stock as the analyst names it: '삼성전자(005930)', 'Apple(AAPL)'; the ticker alone when
    no name is held (the internal 'KR:' / 'US:' prefix is never written)."""
    ticker = sid.split(":", 1)[-1]
    return ticker if name in (sid, ticker) else f"{name}({ticker})"


def _price_ko(value: float, sid: str) -> str:
    """A price as the analyst writes it: '94,000원' (a won price has no '.00'), '182.50달러'."""
    return f"{value:,.0f}원" if sid.startswith("KR:") else f"{value:,.2f}달러"


def _equity_earnings(resp: AgentResponse, ctx: RunContext, route: Route, sid: str) -> None:
    """The last two reported (or expected) quarters, when earnings were asked: EPS estimate,
    actual and the surprise; they lead the answer when earnings were what was asked."""
    measures = {m.name for m in route.frame.measures} if route.frame else set()
    if not measures & {"eps", "earnings"}:  # '실적', '가이던스', 'EPS' are read as these
        return
    result = run_step(resp, ctx, "equity_earnings", {"security_id": sid, "as_of": ctx.as_of_date})
    rows = (result.rows if result else [])[:2]
    if not rows:
        resp.uncertainty.append(lang_text(route.language, f"{sid}의 분기 실적 발표 데이터가 없습니다.",
                                          f"No quarterly earnings releases are held for {sid}."))  # fmt: skip
    points = []
    for e in rows:
        est, act, status = e["eps_estimate"], e["eps_actual"], str(e["status"] or "")
        surprise = f" ({pct(float(est), float(act)):+.1f}%)" if act is not None and est else ""
        shown = lambda v: "-" if v is None else f"{float(v):,.2f}"  # noqa: E731
        points.append(lang_text(
            route.language,
            f"{sid} {e['period']} 실적({e['event_date']}, {EARNINGS_STATUS_KO.get(status, status)}): EPS 예상 "
            f"{shown(est)} / 실제 {shown(act)}{surprise}.",
            f"{sid} {e['period']} earnings ({e['event_date']}, {e['status']}): EPS estimate "
            f"{shown(est)} / actual {shown(act)}{surprise}.",
        ))  # fmt: skip
    at = 0 if route.frame and route.frame.measure() in ("eps", "earnings") else len(resp.key_points)
    resp.key_points[at:at] = points


def _moved(v0: float, v1: float, unit: str) -> str:
    """The change in the series' own unit (derived.signed: %p for ratios, units for counts); an
    apartment price's in 억 or 만 원 however small, as its level beside it is written."""
    if unit == "원":
        return ("+" if v1 >= v0 else "-") + fig.fmt_krw(abs(v1 - v0), "만")
    return signed(v1 - v0, unit)


_COUNTED = frozenset({"unsold", "permits"})  # housing series counted in 호: they add up


def regions_summed(frame: QuestionFrame | None, regions: list[str]) -> bool:
    """'인천이랑 경기 미분양 합계', '수도권 미분양 합계': two or more regions' counts (a group
    counts its members) asked added together."""
    members = [m for r in regions for m in (region_members(r) or [r])]
    return (frame is not None and frame.operation.aggregate == "sum" and len(members) >= 2
            and bool({m.name for m in frame.measures} & _COUNTED))  # fmt: skip


def regions_averaged(frame: QuestionFrame | None, regions: list[str]) -> bool:
    """'서울 전세가율' → '경기는?' → '두 곳 평균은?': two or more regions' latest values averaged
    (no window or period asked: a window's average is each region's own)."""
    return (frame is not None and frame.operation.aggregate == "avg" and len(regions) >= 2
            and frame.window is None and frame.period is None and frame.span is None)  # fmt: skip


class _Latest(NamedTuple):
    region: str
    month: str
    value: float
    unit: str


def _group_totals(frame: QuestionFrame | None, groups: dict[str, list[str]],
                  series: list[Series], language: str) -> list[str]:  # fmt: skip
    """'수도권 인허가 올해 합계': a flow's total over the period asked, each member's months
    added, then the members added."""
    if (
        frame is None
        or not (frame.period or frame.span)
        or "sum" not in (frame.operation.aggregate, frame.statistic)
    ):
        return []
    lines = []
    for group, members in groups.items():
        for flow in FLOWS:
            parts = [asked_part(frame, s) for s in series
                     if s.key.split(":", 1) in ([flow, m] for m in members)]  # fmt: skip
            if len(parts) != len(members) or not all(p.points for p in parts):
                continue
            totals = [(p.key.split(":", 1)[1], sum(v for _, v in p.points)) for p in parts]
            first = min(p.points[0][0] for p in parts)[:7]
            last = max(p.points[-1][0] for p in parts)[:7]
            what = parts[0].title.split(" ", 1)[1]  # '서울 주택 인허가' → '주택 인허가'
            unit = parts[0].unit
            total = level(sum(t for _, t in totals), unit)
            each = " + ".join(f"{r} {level(t, unit)}" for r, t in totals)
            lines.append(lang_text(language, f"{group} {what} {first} ~ {last} 합계 {total} ({each}).",
                                   f"{group} {what}, {first} to {last}: {total} in all ({each})."))  # fmt: skip
    return lines


def _group_sums(groups: dict[str, list[str]], latest: dict[str, list[_Latest]],
                language: str, *, mean: bool = False) -> list[str]:  # fmt: skip
    """A group's count ('수도권 미분양'): its members' latest values added, when every member
    has the same month (an index or a ratio is not added: each member is shown instead); with
    `mean`, any figure's members averaged ('두 곳 평균은?')."""
    lines = []
    for group, members in groups.items():
        for ko, found in latest.items():
            rows = [f for f in found if f.region in members]
            months, unit = {r.month for r in rows}, rows[0].unit if rows else ""
            if len(rows) != len(members) or len(months) != 1 or not (mean or unit in ("호", "건")):
                continue
            total, month = sum(r.value for r in rows) / (len(rows) if mean else 1), rows[0].month
            parts = (", " if mean else " + ").join(
                f"{r.region} {level(r.value, unit)}" for r in rows
            )
            said = ("평균 ", "the mean of ") if mean else ("", "")
            lines.append(lang_text(language, f"{group} {ko} {month} {said[0]}{level(total, unit)} ({parts}).",
                                   f"{said[1]}{group} {ko} {level(total, unit)} in {month} ({parts})."))  # fmt: skip
    return lines


def real_estate_agent(route: Route, ctx: RunContext) -> AgentResponse:
    """Regional housing series (price index, jeonse ratio, unsold, permits, deals) via SQL."""
    watch, resp = Stopwatch(), agent_response("real_estate", ctx, "real_estate")
    months = _window_months(route)
    start = fetch_start(ctx.as_of_date, months)
    chosen = asked_series(route)
    if not chosen and route.frame is not None and cover(route.frame).unheld:
        # '서울 오피스텔 평균 월세', '청약 경쟁률': a term the data lacks and no housing series
        # named — the default index would answer another question
        resp.uncertainty.append(lang_text(
            route.language, "부동산 데이터는 주택가격지수, 전세가율, 미분양, 주택 인허가, 아파트 "
            "실거래(가격·건수·면적·층)입니다.", "The housing data: the price index, jeonse ratio, "
            "unsold units, permits and apartment deals (price, count, area, floor)."))  # fmt: skip
        resp.status, resp.duration_ms = "empty", watch.ms
        return resp
    specs = chosen or [PRICE_INDEX]
    if not counts_asked(route.frame):  # a price trend reads the index first, not a count's
        specs = deal_trend.with_price_index(specs, route)
    if specs[0][1] == "re_price_index_window" and chosen and chosen[0] != specs[0]:
        resp.uncertainty.append(lang_text(
            route.language, "추세는 주택가격지수로 먼저 봅니다: 실거래 중위가격은 그달 거래된 "
            "단지·면적 구성에 따라 흔들립니다.", "The trend is read from the house price index "
            "first: a monthly median of deals moves with which flats happened to trade."))  # fmt: skip
    frame = route.frame
    if regions_composed(resp, ctx, route, picks=False):
        # '가장 높은 지역과 가장 낮은 지역의 차이', '미분양 3천호 이상인 지역의 평균 전세가율'
        resp.duration_ms = watch.ms
        return resp
    # a group named ('광역시', '수도권') is a set of regions, as '지역' is
    grouped = bool(route.real_estate_regions) and all(
        map(region_members, route.real_estate_regions)
    )
    over_regions = frame is not None and (frame.relation == "regions" or grouped)
    if (
        frame is not None
        and (
            frame.operation.kind == "rank"
            or (frame.operation.kind == "aggregate" and frame.operation.top_n == 1)  # a pick
            or (over_regions and frame.operation.top_n is not None)
            or (over_regions and asked_move(route.question) is not None)
            or (over_regions and frame.operation.threshold is not None)
        )
        and (over_regions or not route.real_estate_regions)
        # regions named: ranked among themselves only by a superlative ('서울 부산 대구 중
        # 가장 많은 곳'); '마포구랑 성동구 중 어디가 더 많이 올랐어?' compares the two (below)
        and (frame.operation.kind == "rank" or len(set(route.real_estate_regions) - {"전국"}) < 2)
    ):  # '전세가율 가장 높은 지역', '서울에서 거래 제일 많은 구': regions ranked; '늘어난 지역',
        # '50% 넘는 지역': kept
        if regions_composed(resp, ctx, route):  # '전세가율 70% 이상이면서 미분양 5000호 넘는'
            resp.duration_ms = watch.ms  # '… 지역의 전세가율'
            return resp
        ranked = [deal_ranking(resp, ctx, route, start_date(ctx.as_of_date, months))
                  if name == DEALS
                  else region_ranking(resp, ctx, route, name) for _, name, *_ in specs[:2]]  # fmt: skip
        if any(ranked):
            resp.duration_ms = watch.ms
            return resp
    if deal_regions(resp, ctx, route):  # '평균 거래가
        resp.duration_ms = watch.ms  # 10억 이상인 지역': the regions' deals held to a bar
        return resp
    asked = route.real_estate_regions or ["전국"]
    if not route.real_estate_regions:
        resp.uncertainty.append("지역이 없어 '전국'을 기준으로 조회했습니다.")
    groups = {r: m for r in asked if (m := region_members(r))}
    regions = list(dict.fromkeys(m for r in asked for m in groups.get(r, [r])))
    if len(regions) > MAX_REGIONS:  # said, never dropped in silence
        resp.uncertainty.append(lang_text(
            route.language, f"지역은 {MAX_REGIONS}곳까지 답합니다: {', '.join(regions[MAX_REGIONS:])}"
            f"{josa(regions[-1], '은/는')[len(regions[-1]):]} 뺐습니다.", f"Up to {MAX_REGIONS} "
            f"regions are answered: {', '.join(regions[MAX_REGIONS:])} left out."))  # fmt: skip
    regions = regions[:MAX_REGIONS]
    for group, members in groups.items():  # '수도권': the data has its members' series only
        resp.uncertainty.append(lang_text(
            route.language, f"{group} 지표는 따로 없어 {josa('·'.join(members), '으로/로')} 나눠 보고, 호·건으로 "
            "세는 수치는 그 합계도 냈습니다.", f"There is no {group} series: it is shown as "
            f"{', '.join(members)}, with their sum for counts."))  # fmt: skip
    averaged = regions_averaged(frame, asked) and not groups  # '두 곳 평균은?'
    if (regions_summed(frame, asked) or averaged) and not groups:  # '인천이랑 경기 미분양 합계'
        groups = {"·".join(asked): list(asked)}
    latest: dict[str, list[_Latest]] = {}  # a series' words → each region's latest value
    # a count over the asked window leads (deal_count_window): no second total for the deals
    windowed = counts_asked(route.frame) and frame is not None and frame.period
    # a region in the answer's language ('서울' → 'Seoul'; an unlisted name stays Korean)
    names_en = vocabulary()["region_names_en"] if route.language == "en" else {}
    for region in regions:
        for _, name, ko, en, unit in specs[:MAX_ITEMS]:
            bands = deal_filter(route.frame) if name == DEALS else {}
            result = run_step(resp, ctx, name, {"region": region, "start": start,
                                                "as_of": ctx.as_of_date, **bands})  # fmt: skip
            raw: list[dict[str, Any]] = result.rows if result else []
            dropped: list[str] = []
            if name == DEALS and not summed_deals(frame):  # medians of whole months only (a
                raw, dropped = deal_trend.complete_months(raw, start, ctx.as_of_date)  # sum: all)
            rows = cited_window(resp, raw, "month", route, _widened(route, months))
            if not rows:
                resp.uncertainty.append(f"{region} {ko}: 기간 내 데이터가 없습니다.")
                continue
            if name == DEALS and (counts_asked(route.frame) or summed_deals(frame)):
                rows = [{**r, "value": r["deals"]} for r in rows]  # '거래 건수': counted deals
                ko, en, unit = "실거래 건수", "deal count", "건"
            elif name == DEALS and frame is not None:
                mark_read(frame, "중위", "median")  # the deal price is the month's median
            if bands:  # '10억 이상', '전용 84㎡': the series is of those deals only, and says so
                ko = filter_words(route.frame, "ko") + ko
                en = filter_words(route.frame, "en") + en
            v0, v1 = float(rows[0]["value"]), float(rows[-1]["value"])
            m0, m1 = str(rows[0]["month"])[:7], str(rows[-1]["month"])[:7]
            latest.setdefault(ko, []).append(_Latest(region, m1, v1, unit))
            shown = str(names_en.get(region, region))  # 'Seoul' in an English answer
            title = f"{shown} {ko if route.language == 'ko' else en}"
            resp.series.append(Series(key=f"{name}:{region}", title=title, unit=unit,
                                      points=[(str(r["month"]), float(r["value"])) for r in rows]))  # fmt: skip
            deals = deal_trend.counts_note(rows, dropped, route.language, total=not windowed,
                                            medians=not counts_asked(route.frame))  # fmt: skip
            if _widened(route, months) is not None:
                resp.key_points.append(lang_text(  # the widened window's start was not asked
                    route.language, f"{region} {ko} {m1} {level(v1, unit)}.{deals}",
                    f"{shown} {en} {level(v1, unit)} in {m1}.{deals}"))  # fmt: skip
                continue
            resp.key_points.append(lang_text(
                route.language,
                f"{region} {ko} {m1} {level(v1, unit)}, {m0}의 {level(v0, unit)} 대비 "
                f"{_moved(v0, v1, unit)} ({pct(v0, v1):+.2f}%).{deals}",
                f"{shown} {en} {level(v1, unit)} in {m1}, {_moved(v0, v1, unit)} "
                f"({pct(v0, v1):+.2f}%) vs {level(v0, unit)} in {m0}.{deals}",
            ))  # fmt: skip
    if named_regions_picked(resp, ctx, route):  # '둘 중 높은 곳의 미분양은?': the pick leads
        resp.key_points.insert(0, resp.key_points.pop())
    elif not (counts_asked(frame) and price_mean_asked(frame)):  # the mean is deal_stats'
        resp.key_points[:0] = derived_points(route.frame, resp.series, months, route.language)
    resp.key_points[:0] = (_group_totals(frame, groups, resp.series, route.language)
                           or _group_sums(groups, latest, route.language, mean=averaged))  # fmt: skip
    if any(spec[1] == DEALS for spec in specs[:MAX_ITEMS]):
        counts = []
        for region in regions:
            deal_points(resp, ctx, route, region, months)
            deal_stats(resp, ctx, route, region, months)
            if counted := deal_count_window(resp, ctx, route, region):
                counts.append((region, *counted))
        if gap := count_gap(route, counts):
            resp.key_points.insert(0, gap)
    if route.graph_need:
        _evidence(resp, ctx, "theme_evidence", {"themes": ["부동산"]}, route)
    if not resp.key_points:
        resp.status = "empty"
    resp.duration_ms = watch.ms
    return resp
