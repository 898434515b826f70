"""Market rankings and the Top-N universe history for the Equity agent (issue 25, seed 004 §4).

    market_ranking(resp, ctx, route)    # '오늘 거래대금 상위 10개', '코스닥 등락률 하위 5개'
    universe_changes(resp, ctx, route)  # 'KR Top50 편입·편출 종목'
    universe_performance(resp, ctx, route)  # 'KR Top50 최근 3개월 수익률': 당시 vs 현재 유니버스
    universe_membership(resp, ctx, route, "KR:005930")  # rank + 편입/편출 inside the window

A ranking reads one trading day of one market (the last on or before the as-of date) through
the `market_ranking_day` template; asked of a 'Top50' universe it is limited to the members of
the latest month-end snapshot and the answer states that snapshot's date. Universe changes
compare the two latest snapshots (or the two the question's period spans).

Survivorship (seed 004 §4-2, issue 35): every snapshot is a dated membership row
(`universe_membership`), so a past window is measured on the universe as it was at its start
(당시 유니버스) and, separately, on the universe as it is (현재 유니버스); the answer says which
is which and lists the 편입/편출 between them. A stock's price or earnings answer gets a line of
its own when it joined or left inside the window. One as-of date's snapshot and meta are cached
per process (§3.C), so repeated questions skip the query (the trace says 'cache'); the cache is
keyed by the data version too (the latest seed and import runs, the history's size and last
snapshot), so right after a reseed or an import the snapshot is read again.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from agents.formatting import amount
from agents.macro.market_questions import (
    RANKED_MEASURES,
    UNIVERSE_WORDS,
    asks_universe_changes,
    ranking_measure,
)
from agents.macro.router import Route
from agents.macro.state import AgentResponse, RunContext
from agents.macro.tools import lang_text, run_step
from agents.macro.universe_sql import UNIVERSE_DATA_VERSION
from agents.understanding.parse import asked_move
from data_access.contracts import StructuredCitation, TraceStep
from data_access.errors import WorkbenchError
from data_access.postgres import fetch_one

UNIVERSE_SIZE = 50
DEFAULT_TOP_N = 10
MAX_TOP_N = 50
# index entity key (agents.understanding vocabulary) → (country, market)
_INDEX_MARKETS = {"KOSPI": ("KR", "KOSPI"), "KOSDAQ": ("KR", "KOSDAQ"),
                  "NASDAQ": ("US", "NASDAQ"), "SPX": ("US", "ALL"), "DOW": ("US", "ALL")}  # fmt: skip


def _asks_universe(question: str) -> bool:
    low = question.lower().replace("_", "")
    return any(w in low for w in UNIVERSE_WORDS)


_COUNT = re.compile(
    r"(?:상위|하위|top|bottom)\s*(\d{1,3})(?!\d)|(\d{1,3})\s*(?:개(?!월)|종목|위)", re.I
)
_UNIVERSE_NAME = re.compile(r"(?:kr|us)?_?(?:top|탑|상위)\s*50|유니버스|universe", re.I)


def _top_n(question: str, framed: int | None, universe: bool) -> int:
    """How many to list: the count the question states outside a universe name ('KR_TOP50 …
    상위 10개' lists 10, not 50)."""
    if not universe:
        return framed or DEFAULT_TOP_N
    for top, count in _COUNT.findall(_UNIVERSE_NAME.sub(" ", question)):
        return int(top or count)
    return DEFAULT_TOP_N


def market_of(route: Route) -> tuple[str, str]:
    """(country, market) the question is about: an index word, a region, KR_TOP50/US_TOP50, or
    Korean stocks by default for a Korean question."""
    low = route.question.lower().replace("_", "")
    if "ustop" in low or "미국" in low:
        return "US", "ALL"
    if "krtop" in low:
        return "KR", "ALL"
    for entity in route.frame.of("index") if route.frame else []:
        if entity.key in _INDEX_MARKETS:
            return _INDEX_MARKETS[entity.key]
    if len(route.regions) == 1 and route.regions[0] in ("US", "KR"):
        return route.regions[0], "ALL"
    return ("KR" if route.language == "ko" else "US"), "ALL"


def _day(route: Route, ctx: RunContext) -> str:
    return route.requested_as_of_date or ctx.as_of_date


def market_ranking(resp: AgentResponse, ctx: RunContext, route: Route,
                   sectors: list[str] | None = None) -> bool:  # fmt: skip
    """The top (or bottom) N stocks of a market on one day by the asked measure; False when the
    question is not a market ranking."""
    frame = route.frame
    measure = ranking_measure(frame)
    if measure is None or frame is None:
        return False
    country, market = market_of(route)
    universe = UNIVERSE_SIZE if _asks_universe(route.question) else 0
    n = max(1, min(_top_n(route.question, frame.operation.top_n, bool(universe)), MAX_TOP_N))
    direction = "asc" if frame.operation.direction == "asc" else "desc"
    dataset = "US_TOP50_DAILY_OHLCV" if country == "US" else "KR_STOCK_DAILY_OHLCV"
    params = {"country": country, "as_of": _day(route, ctx), "market": market,
              "sectors": sectors or [], "universe_size": universe, "measure": measure,
              "direction": direction, "n": n, "dataset": dataset}  # fmt: skip
    result = run_step(resp, ctx, "market_ranking_day", params)
    rows = result.rows if result else []
    ko, en = RANKED_MEASURES[measure]
    scope = _scope(country, market, universe, rows)
    if not rows:
        resp.uncertainty.append(lang_text(
            route.language, f"{scope[0]}의 {_day(route, ctx)} 이전 시세가 없어 {ko} 순위를 낼 수 없습니다.",
            f"No prices of {scope[1]} on or before {_day(route, ctx)}: no {en} ranking."))  # fmt: skip
        return True
    listed = ", ".join(f"{i}. {r['name']} {_figure(r, measure)}" for i, r in enumerate(rows, 1))
    day = str(rows[0]["trade_date"])
    order = ("하위" if direction == "asc" else "상위", "bottom" if direction == "asc" else "top")
    resp.key_points.append(lang_text(
        route.language,
        f"{day} {scope[0]} {ko} {order[0]} {len(rows)}개: {listed}.",
        f"{scope[1]}, {order[1]} {len(rows)} by {en} on {day}: {listed}.",
    ))  # fmt: skip
    return True


def _scope(country: str, market: str, universe: int,
           rows: list[dict[str, Any]]) -> tuple[str, str]:  # fmt: skip
    """Which stocks were ranked, in Korean and English ('KR Top50 (2026-10-30 스냅샷)')."""
    where = market if market != "ALL" else ("국내 주식" if country == "KR" else "미국 주식")
    where_en = market if market != "ALL" else f"{country} stocks"
    if not universe:
        return where, where_en
    snapshot = str(rows[0]["snapshot_date"]) if rows and rows[0]["snapshot_date"] else "-"
    return (f"{country} Top{universe} 유니버스({snapshot} 스냅샷 기준, {where})",
            f"{country} Top{universe} universe (snapshot {snapshot}, {where_en})")  # fmt: skip


def _figure(row: dict[str, Any], measure: str) -> str:
    if measure == "return":
        return f"{float(row['change_rate']):+.2f}%" if row["change_rate"] is not None else "-"
    if measure == "volume":
        return f"{int(row['volume'] or 0):,}주"
    value = row[measure]
    if value is None:
        return "-"
    return amount(float(value), row["currency"])


def universe_changes(resp: AgentResponse, ctx: RunContext, route: Route) -> bool:
    """편입/편출 of the Top-N universe between the two latest snapshots (each dated)."""
    if not asks_universe_changes(route.question):
        return False
    country = market_of(route)[0]
    snaps = run_step(resp, ctx, "universe_snapshots",
                     {"country": country, "as_of": _day(route, ctx)})  # fmt: skip
    dates = [str(r["snapshot_date"]) for r in (snaps.rows if snaps else [])]
    if len(dates) < 2:
        resp.uncertainty.append(
            f"{country} Top{UNIVERSE_SIZE} 스냅샷이 둘 이상 없어 편입·편출을 비교할 수 없습니다."
        )
        return True
    # the previous snapshot, or the one a period back ('3개월간 편입') when one was asked
    months = route.frame.period.months if route.frame and route.frame.period else 1.0
    to_date, from_date = dates[0], dates[min(max(1, round(months)), len(dates) - 1)]
    result = run_step(resp, ctx, "universe_changes", {"country": country, "from_date": from_date,
                                                      "to_date": to_date, "size": UNIVERSE_SIZE})  # fmt: skip
    rows = result.rows if result else []
    added = [f"{r['name']}({r['rank']}위)" for r in rows if r["change"] == "in"]
    removed = [f"{r['name']}(직전 {r['old_rank']}위)" for r in rows if r["change"] == "out"]
    label = f"{country} Top{UNIVERSE_SIZE} 유니버스 {from_date} → {to_date} 스냅샷"
    resp.key_points.append(lang_text(
        route.language,
        f"{label}: 편입 {len(added)}종목 {', '.join(added) or '없음'}; "
        f"편출 {len(removed)}종목 {', '.join(removed) or '없음'}.",
        f"{country} Top{UNIVERSE_SIZE} universe, snapshot {from_date} → {to_date}: "
        f"added {', '.join(added) or 'none'}; removed {', '.join(removed) or 'none'}.",
    ))  # fmt: skip
    return True


def market_question(route: Route) -> bool:
    """A market-wide ranking or a universe-change question (no stock named)."""
    return ranking_measure(route.frame) is not None or asks_universe_changes(route.question)


def market_answer(resp: AgentResponse, ctx: RunContext, route: Route, sectors: list[str]) -> None:
    """Universe changes when asked, then the ranking ('거래대금 상위 10개 … 편입 종목'); a
    Top50 return over a window is the universe's performance, then and now."""
    universe_changes(resp, ctx, route)
    if universe_performance(resp, ctx, route):
        return
    market_ranking(resp, ctx, route, sectors)


def universe_membership(resp: AgentResponse, ctx: RunContext, route: Route, sid: str) -> None:
    """Which Top-N snapshot a stock's figures are read against (seed 004 §4: as_of_universe_date),
    and a 편입/편출 line when it joined or left the universe inside the question's window."""
    result = run_step(resp, ctx, "universe_rank", {"security_id": sid, "as_of": ctx.as_of_date},
                      allow_fallback=False)  # fmt: skip
    row = result.rows[0] if result and result.rows else None
    if row is None or row["snapshot_date"] is None:
        return
    country, day, rank = row["country"], row["snapshot_date"], row["rank"]
    inside = rank is not None and rank <= UNIVERSE_SIZE
    where = f"{rank}위" if inside else f"밖({rank}위)" if rank else "밖"
    resp.key_points.append(lang_text(
        route.language,
        f"{sid}: {country} Top{UNIVERSE_SIZE} 유니버스 {where} ({day} 스냅샷 기준).",
        f"{sid}: {'rank ' + str(rank) + ' in' if inside else 'outside'} the {country} "
        f"Top{UNIVERSE_SIZE} universe (snapshot {day}).",
    ))  # fmt: skip
    _membership_changes(resp, ctx, route, sid)


def window_start(as_of: str, months: float) -> str:
    """The first day of a window of `months` ending on as_of (the price answers' own rule)."""
    return (date.fromisoformat(as_of) - timedelta(days=round(months * 30.44))).isoformat()


def _months(route: Route) -> float:
    frame = route.frame
    return frame.period.months if frame and frame.period else float(route.period_months)


def _membership_changes(resp: AgentResponse, ctx: RunContext, route: Route, sid: str) -> None:
    """'편입 2026-06-30 스냅샷(43위)' / '편출 …' lines for a member that changed in the window."""
    start = window_start(ctx.as_of_date, _months(route))
    result = run_step(resp, ctx, "universe_member_history",
                      {"security_id": sid, "start": start, "as_of": ctx.as_of_date},
                      allow_fallback=False)  # fmt: skip
    rows = result.rows if result else []
    joined, left = [], []
    for prev, cur in zip(rows, rows[1:], strict=False):
        if prev["rank"] is None and cur["rank"] is not None:
            joined.append((str(cur["snapshot_date"]), cur["rank"]))
        elif prev["rank"] is not None and cur["rank"] is None:
            left.append((str(cur["snapshot_date"]), prev["rank"]))
    if not joined and not left:
        return
    country = rows[0]["country"]
    ko = [f"편입 {d} 스냅샷({r}위)" for d, r in joined] + [
        f"편출 {d} 스냅샷(직전 {r}위)" for d, r in left
    ]
    en = [f"added in the {d} snapshot (rank {r})" for d, r in joined] + [
        f"removed in the {d} snapshot (was rank {r})" for d, r in left
    ]
    resp.key_points.append(lang_text(
        route.language,
        f"{sid} {country} Top{UNIVERSE_SIZE} 유니버스 편입/편출 ({start}~{ctx.as_of_date}): "
        f"{', '.join(sorted(ko, key=lambda t: t.split()[1]))}. 이 기간의 유니버스 기준 비교에는 "
        "당시 유니버스와 현재 유니버스가 다릅니다.",
        f"{sid} in the {country} Top{UNIVERSE_SIZE} universe ({start} to {ctx.as_of_date}): "
        f"{'; '.join(en)}; the universe then and now differ over this window.",
    ))  # fmt: skip


# ---------------------------------------------------------------- universe snapshot cache (§3.C)


@dataclass(frozen=True)
class UniverseSnapshot:
    """One country's Top-N members on the latest snapshot on or before an as-of date."""

    country: str
    as_of: str
    snapshot_date: str
    members: tuple[tuple[str, str, int], ...]  # (security_id, name, rank), rank order

    @property
    def ids(self) -> set[str]:
        return {m[0] for m in self.members}

    def meta(self) -> dict[str, Any]:
        return {"universe": f"{self.country}_TOP{UNIVERSE_SIZE}", "as_of": self.as_of,
                "snapshot_date": self.snapshot_date, "count": len(self.members)}  # fmt: skip


CACHE_TTL_S = 600.0  # a backstop for writes no load records; a reseed or import is seen at once
_SNAPSHOTS: dict[
    tuple[int, str, str, str], tuple[float, UniverseSnapshot, StructuredCitation | None]
]
_SNAPSHOTS = {}


def clear_universe_cache() -> None:
    _SNAPSHOTS.clear()


def data_version(ctx: RunContext) -> str:
    """The loads the membership comes from ('seed 3 · import 12 · 2400 rows to 2026-11-20'):
    the cache key's part that a reseed or an import changes. '' when it cannot be read."""
    try:
        row = fetch_one(UNIVERSE_DATA_VERSION, pool=ctx.pool)
    except WorkbenchError:
        return ""
    if row is None:
        return ""
    return (f"seed {row['seed_run']} · import {row['import_run']} · "
            f"{row['members']} rows to {row['latest']}")  # fmt: skip


def universe_snapshot(resp: AgentResponse, ctx: RunContext, country: str,
                      as_of: str) -> UniverseSnapshot | None:  # fmt: skip
    """The snapshot in effect on as_of, from the cache (per as-of date and data version) or the
    history table."""
    version = data_version(ctx)
    key = (id(ctx.pool), country, as_of, version)
    hit = _SNAPSHOTS.get(key) if version else None
    if hit and time.monotonic() - hit[0] < CACHE_TTL_S:
        snap, citation = hit[1], hit[2]
        resp.trace.append(TraceStep(
            step=len(resp.trace) + 1, kind="tool", name="cache:universe_members",
            arguments={"country": country, "as_of": as_of, "data_version": version},
            observation=f"캐시: {snap.snapshot_date} 스냅샷 {len(snap.members)}종목"))  # fmt: skip
        if citation is not None:
            resp.structured_citations.append(citation)
        return snap
    result = run_step(resp, ctx, "universe_members", {"country": country, "as_of": as_of},
                      allow_fallback=False)  # fmt: skip
    rows = result.rows if result else []
    if not rows:
        return None
    snap = UniverseSnapshot(country, as_of, str(rows[0]["snapshot_date"]),
                            tuple((r["security_id"], r["name"], int(r["rank"])) for r in rows))  # fmt: skip
    for old in [k for k in _SNAPSHOTS if k[0] == key[0] and k[3] != version]:
        del _SNAPSHOTS[old]  # snapshots of an older load of this database
    if version:
        _SNAPSHOTS[key] = (time.monotonic(), snap, result.citation if result else None)
    return snap


# ---------------------------------------------------------------- survivorship (§4-2)


def asks_universe_performance(route: Route) -> bool:
    """'KR Top50 최근 3개월 수익률': the universe's return over a window (not a one-day ranking,
    not a list of changes, not a top-N by a measure)."""
    frame = route.frame
    if not _asks_universe(route.question) or asks_universe_changes(route.question):
        return False
    if frame is None or frame.period is None or frame.period.months < 0.2:
        return False
    if _COUNT.search(_UNIVERSE_NAME.sub(" ", route.question)):
        return False  # 'Top50 중 3개월 수익률 상위 5개' stays a ranking
    # the frame reads '수익률', '성과', '상승률' as the return, '올랐어', '떨어졌어?' as a move
    return any(m.name == "return" for m in frame.measures) or asked_move(route.question) is not None


def universe_performance(resp: AgentResponse, ctx: RunContext, route: Route) -> bool:
    """The equal-weight return over the window of the universe as it was at the window's start
    (당시 유니버스) and as it is (현재 유니버스), each named with its snapshot date, and the
    members that joined or left between them. False when the question is not this."""
    if not asks_universe_performance(route):
        return False
    country = market_of(route)[0]
    as_of = _day(route, ctx)
    start = window_start(as_of, _months(route))
    then = universe_snapshot(resp, ctx, country, start)
    now = universe_snapshot(resp, ctx, country, as_of)
    if then is None or now is None:
        resp.uncertainty.append(lang_text(
            route.language,
            f"{start} 이전의 {country} Top{UNIVERSE_SIZE} 스냅샷이 없어 당시 유니버스 기준 수익률을 "
            "계산할 수 없습니다.",
            f"No {country} Top{UNIVERSE_SIZE} snapshot on or before {start}: the universe as it "
            "was cannot be measured."))  # fmt: skip
        return True
    ids = sorted(then.ids | now.ids)
    dataset = "US_TOP50_DAILY_OHLCV" if country == "US" else "KR_STOCK_DAILY_OHLCV"
    closes = run_step(resp, ctx, "universe_window_closes",
                      {"security_ids": ids, "start": start, "as_of": as_of, "dataset": dataset})  # fmt: skip
    returns = {r["security_id"]: float(r["last_close"]) / float(r["first_close"]) - 1
               for r in (closes.rows if closes else []) if r["first_close"] and r["last_close"]}  # fmt: skip
    then_avg, then_n = _average(returns, then)
    now_avg, now_n = _average(returns, now)
    surface = route.frame.period.surface if route.frame and route.frame.period else ""
    label = surface.strip() or f"최근 {round(_months(route))}개월"
    universe = f"{country} Top{UNIVERSE_SIZE}"
    gap = (now_avg - then_avg) * 100 if then_avg is not None and now_avg is not None else None
    resp.key_points.append(lang_text(
        route.language,
        f"{universe} {label}({start}~{as_of}) 동일가중 평균 수익률: 당시 유니버스({then.snapshot_date} "
        f"스냅샷, {then_n}종목) 기준 {_pct(then_avg)}, 현재 유니버스({now.snapshot_date} 스냅샷, "
        f"{now_n}종목) 기준 {_pct(now_avg)}"
        + (f" (차이 {gap:+.2f}%p: 현재 구성원으로 과거를 재면 생존 편향이 들어갑니다)." if gap is not None
           else "."),
        f"{universe} equal-weight return {start} to {as_of}: the universe as it was (snapshot "
        f"{then.snapshot_date}, {then_n} stocks) {_pct(then_avg)}; as it is (snapshot "
        f"{now.snapshot_date}, {now_n} stocks) {_pct(now_avg)}"
        + (f" (gap {gap:+.2f}pp: today's members measured backwards carry survivorship bias)."
           if gap is not None else "."),
    ))  # fmt: skip
    joined = [m for m in now.members if m[0] not in then.ids]
    left = [m for m in then.members if m[0] not in now.ids]
    resp.key_points.append(lang_text(
        route.language,
        f"{then.snapshot_date} → {now.snapshot_date} 편입 {len(joined)}종목: "
        f"{_listed(joined, returns, '현재')}; 편출 {len(left)}종목: {_listed(left, returns, '당시')}.",
        f"{then.snapshot_date} → {now.snapshot_date}: added {len(joined)} "
        f"({_listed(joined, returns, 'now', 'en')}); removed {len(left)} "
        f"({_listed(left, returns, 'then', 'en')}).",
    ))  # fmt: skip
    return True


def _average(returns: dict[str, float], snap: UniverseSnapshot) -> tuple[float | None, int]:
    values = [returns[sid] for sid in snap.ids if sid in returns]
    return (sum(values) / len(values) if values else None), len(values)


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:+.2f}%"


def _listed(members: list[tuple[str, str, int]], returns: dict[str, float], when: str,
            lang: str = "ko") -> str:  # fmt: skip
    if not members:
        return "없음" if lang == "ko" else "none"
    if lang == "en":
        return ", ".join(f"{name} (rank {rank} {when}, {_pct(returns.get(sid))})"
                         for sid, name, rank in members)  # fmt: skip
    return ", ".join(f"{name}({when} {rank}위, 기간 {_pct(returns.get(sid))})"
                     for sid, name, rank in members)  # fmt: skip
