"""Top50 universe history and survivorship (issue 35, seed 004 §4-1/§4-2/§4-3, §3.C).

The membership of each month-end snapshot is kept, dated, in `universe_membership` (migration
0017); a past window is measured on the universe as it was (당시 유니버스) and as it is (현재),
each named; 편입/편출 in the window are listed, and a stock's price answer says when it joined or
left. Figures are checked against independent SQL over the demo data (real PostgreSQL and
FalkorDB, offline service).
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

import pytest

from agents.macro.service import answer_question, make_context
from agents.macro.state import AgentResponse
from agents.macro.universe import clear_universe_cache, universe_snapshot
from data_access.postgres import connection, fetch_all, fetch_one
from data_access.seed.universe_history import membership_changes, refresh_universe_membership

pytestmark = pytest.mark.usefixtures("demo_data")

AS_OF = "2026-11-20"


def _members(pool: Any, universe: str, day: Any) -> dict[str, dict[str, Any]]:
    rows = fetch_all(
        "SELECT m.security_id, s.name, m.rank FROM universe_membership m JOIN stocks s"
        " USING (security_id) WHERE m.universe = %s AND m.snapshot_date = %s",
        (universe, day),
        pool=pool,
    )
    return {r["security_id"]: r for r in rows}


def _snapshot_on(pool: Any, universe: str, day: str) -> Any:
    row = fetch_one(
        "SELECT max(snapshot_date) AS d FROM universe_membership"
        " WHERE universe = %s AND snapshot_date <= %s",
        (universe, day),
        pool=pool,
    )
    assert row is not None and row["d"] is not None
    return row["d"]


def _window_return(pool: Any, ids: list[str], start: str, end: str) -> float:
    rows = fetch_all(
        "SELECT security_id, (array_agg(close ORDER BY trade_date))[1] AS a,"
        " (array_agg(close ORDER BY trade_date DESC))[1] AS b FROM stock_prices"
        " WHERE security_id = ANY(%s) AND trade_date BETWEEN %s AND %s GROUP BY 1",
        (ids, start, end),
        pool=pool,
    )
    values = [float(r["b"]) / float(r["a"]) - 1 for r in rows if r["a"] and r["b"]]
    return sum(values) / len(values) * 100


def test_history_is_dated_and_the_demo_data_has_joins_and_leaves(pg_pool: Any) -> None:
    with connection(pg_pool) as conn:
        changes = membership_changes(conn, "KR_TOP50")
    assert len(changes) >= 12  # a snapshot per month, two years of fundamentals
    assert any(joined for _, joined, _ in changes) and any(left for _, _, left in changes)
    sizes = fetch_all(
        "SELECT snapshot_date, count(*) AS n, min(rank) AS lo, max(rank) AS hi"
        " FROM universe_membership WHERE universe = 'KR_TOP50' GROUP BY 1",
        pool=pg_pool,
    )
    assert {(r["n"], r["lo"], r["hi"]) for r in sizes} == {(50, 1, 50)}


def test_refresh_rewrites_months_without_duplicates(pg_pool: Any) -> None:
    before = fetch_one("SELECT count(*) AS n FROM universe_membership", pool=pg_pool)
    with connection(pg_pool) as conn, conn.transaction():
        # a stale mid-month snapshot of the last month goes when that month is rewritten
        conn.execute(
            "INSERT INTO universe_membership SELECT universe, country, snapshot_date - 3,"
            " security_id, rank, market_cap FROM universe_membership"
            " WHERE snapshot_date = (SELECT max(snapshot_date) FROM universe_membership)"
        )
        written = refresh_universe_membership(conn)
    after = fetch_one("SELECT count(*) AS n FROM universe_membership", pool=pg_pool)
    assert before is not None and after is not None
    assert written == before["n"] == after["n"]


def test_past_top50_return_is_given_on_the_universe_then_and_now(
    pg_pool: Any, graph_store: Any
) -> None:
    clear_universe_cache()
    answer = answer_question("KR_TOP50 3개월 수익률", pool=pg_pool, store=graph_store)
    start = (date.fromisoformat(AS_OF) - timedelta(days=round(3 * 30.44))).isoformat()
    then_day, now_day = (
        _snapshot_on(pg_pool, "KR_TOP50", start),
        _snapshot_on(pg_pool, "KR_TOP50", AS_OF),
    )
    then, now = _members(pg_pool, "KR_TOP50", then_day), _members(pg_pool, "KR_TOP50", now_day)
    assert then_day < now_day and set(then) != set(now)  # survivorship matters in this window
    text = answer.answer
    assert f"당시 유니버스({then_day} 스냅샷, 50종목) 기준" in text
    assert f"현재 유니버스({now_day} 스냅샷, 50종목) 기준" in text
    then_avg = _window_return(pg_pool, list(then), start, AS_OF)
    now_avg = _window_return(pg_pool, list(now), start, AS_OF)
    said = re.search(
        r"당시 유니버스\([^)]*\) 기준 ([+-][\d.]+)%, 현재 유니버스\([^)]*\) 기준 ([+-][\d.]+)%",
        text,
    )
    assert said is not None
    assert float(said.group(1)) == pytest.approx(then_avg, abs=0.006)
    assert float(said.group(2)) == pytest.approx(now_avg, abs=0.006)
    joined = [now[s]["name"] for s in sorted(set(now) - set(then), key=lambda s: now[s]["rank"])]
    left = [then[s]["name"] for s in sorted(set(then) - set(now), key=lambda s: then[s]["rank"])]
    line = next(k for k in text.splitlines() if f"{then_day} → {now_day} 편입" in k)
    assert f"편입 {len(joined)}종목" in line and f"편출 {len(left)}종목" in line
    added, removed = line.split("편출", 1)
    assert re.findall(r"(?:: |, )([^:;,(]+)\(현재 \d+위", added) == joined
    assert re.findall(r"(?:: |, )([^:;,(]+)\(당시 \d+위", removed) == left
    tables = {c.table for c in answer.structured_citations}
    assert "universe_membership" in tables and "stock_prices" in tables


def test_universe_snapshot_is_cached_per_as_of_date(pg_pool: Any, graph_store: Any) -> None:
    clear_universe_cache()
    first = answer_question("KR_TOP50 6개월 수익률", pool=pg_pool, store=graph_store)
    second = answer_question("KR_TOP50 6개월 수익률", pool=pg_pool, store=graph_store)
    names = [[s.name.split("/")[-1] for s in a.trace] for a in (first, second)]
    assert "sql:universe_members" in names[0] and "cache:universe_members" not in names[0]
    assert "cache:universe_members" in names[1] and "sql:universe_members" not in names[1]
    assert first.answer == second.answer
    # the cached turn still cites the membership it read
    assert "universe_membership" in {c.table for c in second.structured_citations}


def test_a_reseed_invalidates_the_cached_snapshot(settings: Any, pg_pool: Any) -> None:
    """A reseed rewrites the membership and records a seed run: the next question reads the new
    members at once, not the cached ones (the cache used to clear only after 10 minutes)."""
    clear_universe_cache()
    ctx = make_context(settings, pg_pool, None, AS_OF)
    day = _snapshot_on(pg_pool, "KR_TOP50", AS_OF)
    before = universe_snapshot(AgentResponse(agent="equity"), ctx, "KR", AS_OF)
    assert before is not None and str(before.snapshot_date) == str(day)
    cached = AgentResponse(agent="equity")
    assert universe_snapshot(cached, ctx, "KR", AS_OF) == before
    assert [t.name for t in cached.trace] == ["cache:universe_members"]
    last = max(before.members, key=lambda m: m[2])  # the 50th member of the as-of snapshot
    outsider = fetch_one(
        "SELECT security_id FROM stocks WHERE country = 'KR' AND NOT is_etf"
        " AND NOT security_id = ANY(%s) ORDER BY security_id LIMIT 1",
        (list(before.ids),),
        pool=pg_pool,
    )
    assert outsider is not None
    swap = ("UPDATE universe_membership SET security_id = %s WHERE universe = 'KR_TOP50'"
            " AND snapshot_date = %s AND security_id = %s")  # fmt: skip
    with connection(pg_pool) as conn:  # what a reseed with other data writes, in one transaction
        conn.execute(swap, (outsider["security_id"], day, last[0]))
        run = conn.execute(
            "INSERT INTO seed_runs (scale, seed, as_of_date, checksums, row_counts, duration_ms)"
            " SELECT scale, seed, as_of_date, checksums, row_counts, duration_ms FROM seed_runs"
            " ORDER BY run_id DESC LIMIT 1 RETURNING run_id"
        ).fetchone()
    try:
        fresh = AgentResponse(agent="equity")
        after = universe_snapshot(fresh, ctx, "KR", AS_OF)
        assert [t.name for t in fresh.trace] == ["sql:universe_members"]  # not the cache
        assert after is not None and after.ids == before.ids - {last[0]} | {outsider["security_id"]}
    finally:
        with connection(pg_pool) as conn:
            conn.execute(swap, (last[0], day, outsider["security_id"]))
            conn.execute("DELETE FROM seed_runs WHERE run_id = %s", (run["run_id"],))
        clear_universe_cache()


def _changed_member(pool: Any, start: str) -> tuple[str, str, list[Any], list[Any]]:
    """A KR stock that joined and/or left the Top50 between the snapshot on or before start and
    the as-of snapshot, with its join and leave snapshot dates."""
    days = [
        r["snapshot_date"]
        for r in fetch_all(
            "SELECT DISTINCT snapshot_date FROM universe_membership WHERE universe = 'KR_TOP50'"
            " AND snapshot_date BETWEEN %s AND %s ORDER BY 1",
            (_snapshot_on(pool, "KR_TOP50", start), AS_OF),
            pool=pool,
        )
    ]
    sets = [set(_members(pool, "KR_TOP50", d)) for d in days]
    for sid in sorted(set().union(*sets)):
        joined = [
            d
            for p, c, d in zip(sets, sets[1:], days[1:], strict=False)
            if sid not in p and sid in c
        ]
        left = [
            d
            for p, c, d in zip(sets, sets[1:], days[1:], strict=False)
            if sid in p and sid not in c
        ]
        if joined and left:
            name = fetch_one("SELECT name FROM stocks WHERE security_id = %s", (sid,), pool=pool)
            assert name is not None
            return sid, name["name"], joined, left
    raise AssertionError("the demo data has no member that both joined and left in the window")


def test_stock_price_answer_has_join_and_leave_lines(pg_pool: Any, graph_store: Any) -> None:
    start = (date.fromisoformat(AS_OF) - timedelta(days=round(6 * 30.44))).isoformat()
    sid, name, joined, left = _changed_member(pg_pool, start)
    answer = answer_question(f"{name} 최근 6개월 주가", pool=pg_pool, store=graph_store)
    line = next(k for k in answer.answer.splitlines() if "유니버스 편입/편출" in k)
    assert sid in line or line.startswith(f"- {name} ")  # the member, by code or by name
    for day in joined:
        assert f"편입 {day} 스냅샷" in line
    for day in left:
        assert f"편출 {day} 스냅샷" in line
    steady = answer_question("삼성전자 최근 6개월 주가", pool=pg_pool, store=graph_store)
    assert "편입/편출" not in steady.answer  # rank 1 all along: no line


def test_earnings_answer_has_the_line_too(pg_pool: Any, graph_store: Any) -> None:
    start = (date.fromisoformat(AS_OF) - timedelta(days=round(12 * 30.44))).isoformat()
    sid, name, _, _ = _changed_member(pg_pool, start)
    answer = answer_question(f"{name} 실적", pool=pg_pool, store=graph_store)
    assert any((sid in k or k.startswith(f"- {name} ")) and "유니버스 편입/편출" in k
               for k in answer.answer.splitlines())  # fmt: skip


def test_stock_report_has_the_join_and_leave_line(pg_pool: Any) -> None:
    from agents.stock.service import generate_report

    start = (date.fromisoformat(AS_OF) - timedelta(days=365)).isoformat()
    sid, name, joined, left = _changed_member(pg_pool, start)
    answer = generate_report(sid, pool=pg_pool, save=False)
    line = next(s for s in answer.answer.split(". ") if "유니버스: 최근 1년 KR Top50" in s)
    for day in joined:
        assert f"편입 {day} 스냅샷" in line
    for day in left:
        assert f"편출 {day} 스냅샷" in line
    assert "universe_membership" in {c.table for c in answer.structured_citations}
    steady = generate_report("KR:005930", pool=pg_pool, save=False)
    assert "유니버스: 최근 1년" not in steady.answer
