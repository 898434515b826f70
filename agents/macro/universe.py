"""Market rankings and the Top-N universe history for the Equity agent (issue 25, seed 004 §4).

    market_ranking(resp, ctx, route)    # '오늘 거래대금 상위 10개', '코스닥 등락률 하위 5개'
    universe_changes(resp, ctx, route)  # 'KR Top50 편입·편출 종목'

A ranking reads one trading day of one market (the last on or before the as-of date) through
the `market_ranking_day` template; asked of a 'Top50' universe it is limited to the members of
the latest month-end snapshot and the answer states that snapshot's date. Universe changes
compare the two latest snapshots (or the two the question's period spans).
"""

from __future__ import annotations

import re
from typing import Any

from agents.macro.market_questions import (
    RANKED_MEASURES,
    UNIVERSE_WORDS,
    asks_universe_changes,
    ranking_measure,
)
from agents.macro.router import Route
from agents.macro.state import AgentResponse, RunContext
from agents.macro.tools import lang_text, run_step

UNIVERSE_SIZE = 50
DEFAULT_TOP_N = 10
MAX_TOP_N = 50
# index entity key (agents.understanding vocabulary) → (country, market)
_INDEX_MARKETS = {"KOSPI": ("KR", "KOSPI"), "KOSDAQ": ("KR", "KOSDAQ"),
                  "NASDAQ": ("US", "NASDAQ"), "SPX": ("US", "ALL"), "DOW": ("US", "ALL")}  # fmt: skip


def _asks_universe(question: str) -> bool:
    low = question.lower().replace("_", "")
    return any(w in low for w in UNIVERSE_WORDS)


_COUNT = re.compile(r"(?:상위|하위|top|bottom)\s*(\d{1,3})(?!\d)|(\d{1,3})\s*(?:개|종목|위)", re.I)
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
    won = row["currency"] == "KRW"
    if measure == "return":
        return f"{float(row['change_rate']):+.2f}%" if row["change_rate"] is not None else "-"
    if measure == "volume":
        return f"{int(row['volume'] or 0):,}주"
    value = row[measure]
    if value is None:
        return "-"
    amount = float(value)
    return f"{amount / 1e8:,.0f}억원" if won else f"${amount / 1e9:,.2f}B"


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
    to_date, from_date = dates[0], _base_snapshot(dates, route)
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


def _base_snapshot(dates: list[str], route: Route) -> str:
    """The previous snapshot, or the one a period back ('3개월간 편입') when one was asked."""
    months = route.frame.period.months if route.frame and route.frame.period else 1.0
    return dates[min(max(1, round(months)), len(dates) - 1)]


def market_question(route: Route) -> bool:
    """A market-wide ranking or a universe-change question (no stock named)."""
    return ranking_measure(route.frame) is not None or asks_universe_changes(route.question)


def market_answer(resp: AgentResponse, ctx: RunContext, route: Route, sectors: list[str]) -> None:
    """Universe changes when asked, then the ranking ('거래대금 상위 10개 … 편입 종목')."""
    universe_changes(resp, ctx, route)
    market_ranking(resp, ctx, route, sectors)


def universe_membership(resp: AgentResponse, ctx: RunContext, route: Route, sid: str) -> None:
    """Which Top-N snapshot a stock's figures are read against (seed 004 §4: as_of_universe_date)."""
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
