"""Earnings, fundamentals and news events in the stock report, checked against independent SQL
over the whole demo dataset (offline writer, real PostgreSQL and LangGraph runs).

The expected numbers are computed here from the tables with SQL and formatted here, not with the
report's own functions, so a wrong join, sign or rounding in the report fails the test.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date
from typing import Any

import pytest

from agents.stock.service import generate_report
from data_access.postgres import fetch_all

pytestmark = pytest.mark.usefixtures("demo_data")

AS_OF = date(2026, 11, 20)

RECENT_EARNINGS = """
SELECT e.security_id, s.currency, e.period, e.event_date, e.eps_estimate, e.eps_actual
FROM earnings_events e JOIN stocks s USING (security_id)
WHERE e.event_date > %(as_of)s::date - 90 AND e.event_date <= %(as_of)s
  AND e.eps_actual IS NOT NULL
ORDER BY e.security_id, e.event_date
"""

BIG_MOVES = """
WITH moves AS (
    SELECT p.security_id, p.trade_date,
           p.close / lag(p.close) OVER (PARTITION BY p.security_id ORDER BY p.trade_date) - 1 AS r
    FROM stock_prices p JOIN stocks s USING (security_id)
    WHERE NOT s.is_etf AND p.trade_date > %(as_of)s::date - 60 AND p.trade_date <= %(as_of)s
)
SELECT security_id, trade_date, r FROM moves
WHERE trade_date >= %(as_of)s::date - 30 AND abs(r) > 0.05
ORDER BY security_id, trade_date
"""


def _money(value: float, currency: str) -> str:
    return f"{value:,.0f}원" if currency == "KRW" else f"${value:,.2f}"


def _section(report: str, heading: str) -> str:
    return report.split(f"## {heading}", 1)[1].split("\n## ", 1)[0]


_REPORTS: dict[str, Any] = {}  # one offline report per stock for the whole module


def _reports(pool: Any, security_ids: list[str]) -> dict[str, Any]:
    for sid in security_ids:
        if sid not in _REPORTS:
            _REPORTS[sid] = generate_report(sid, pool=pool, save=False)
    return {sid: _REPORTS[sid] for sid in security_ids}


def test_every_recent_earnings_event_is_stated_with_the_right_surprise(pg_pool: Any) -> None:
    rows = fetch_all(RECENT_EARNINGS, {"as_of": AS_OF}, pool=pg_pool)
    by_stock: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_stock[row["security_id"]].append(row)
    assert len(by_stock) >= 80  # every reporter of the demo data reported in the last 90 days
    reports = _reports(pg_pool, sorted(by_stock))
    for sid, events in by_stock.items():
        answer = reports[sid]
        assert answer.status == "ok", (sid, answer.error)
        report = answer.answer
        for e in events:
            est, act = float(e["eps_estimate"]), float(e["eps_actual"])
            surprise = f"{(act - est) / abs(est) * 100:+.2f}%"
            est_text, act_text = _money(est, e["currency"]), _money(act, e["currency"])
            row = (f"| {e['period']} | {e['event_date'].isoformat()} | {est_text} | {act_text} "
                   f"| {surprise} |")  # fmt: skip
            assert row in report, (sid, row)
        latest = events[-1]
        analysis = _section(report, "분석")
        est, act = float(latest["eps_estimate"]), float(latest["eps_actual"])
        for text in (latest["period"], latest["event_date"].isoformat(),
                     _money(act, latest["currency"]), _money(est, latest["currency"]),
                     f"{(act - est) / abs(est) * 100:+.2f}%"):  # fmt: skip
            assert text in analysis, (sid, text)
        assert answer.payload["review_check"]["passed"], sid


def test_every_big_move_of_the_last_30_days_is_explained_or_flagged(pg_pool: Any) -> None:
    rows = fetch_all(BIG_MOVES, {"as_of": AS_OF}, pool=pg_pool)
    by_stock: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_stock[row["security_id"]].append(row)
    assert len(by_stock) >= 30
    reports = _reports(pg_pool, sorted(by_stock))
    for sid, moves in by_stock.items():
        answer = reports[sid]
        analysis = _section(answer.answer, "분석")
        events = answer.payload["events"]
        for m in moves:
            day, move = m["trade_date"].isoformat(), float(m["r"])
            assert f"{move * 100:+.2f}%" in analysis, (sid, day, move)
            # an event on or before that session covers it, with that move as its event day or
            # next session
            covering = [e for e in events if day in (e["session"], e["next_session"])]
            assert covering, (sid, day)
            assert any(abs((e["move_day"] if e["session"] == day else e["move_next"]) - move)
                       < 1e-9 for e in covering)  # fmt: skip
        assert answer.payload["review_check"]["passed"], sid


def test_an_earnings_miss_with_a_big_drop_is_a_weighed_reason(pg_pool: Any) -> None:
    """삼성전자 missed its 2026Q3 estimate on 2026-10-29 and fell that day: the event, its
    reaction from the closes, and its weight are in the recommendation, not only in a list."""
    closes = fetch_all(
        "SELECT trade_date, close FROM stock_prices WHERE security_id = 'KR:005930'"
        " AND trade_date BETWEEN '2026-10-27' AND '2026-10-30' ORDER BY trade_date",
        pool=pg_pool,
    )
    by_day = {r["trade_date"].isoformat(): float(r["close"]) for r in closes}
    drop = by_day["2026-10-29"] / by_day["2026-10-28"] - 1
    assert drop < -0.05
    answer = generate_report("삼성전자", pool=pg_pool, save=False)
    event = next(e for e in answer.payload["events"] if e["category"] == "earnings")
    assert event["date"] == "2026-10-29" and event["move_day"] == pytest.approx(drop)
    assert event["earnings"]["surprise"] < 0 and event["polarity"] == -1
    recommendation = _section(answer.answer, "추천")
    assert "가중치: 기술적 35%" in recommendation and "이벤트 25%" in recommendation
    line = next(x for x in recommendation.splitlines() if x.startswith("- [이벤트"))
    assert "2026-10-29 실적" in line and f"{drop * 100:+.2f}%" in line
    pillars = answer.payload["recommendation"]["pillars"]
    assert pillars["event"]["raw"] < 0
    total = sum(p["weight"] * p["score"] for p in pillars.values())
    assert answer.payload["recommendation"]["score"] == pytest.approx(total, abs=1e-3)
    citations = {c.doc_id for c in answer.citations}
    assert {a["doc_id"] for a in event["articles"]} <= citations


def test_fundamentals_match_sql(pg_pool: Any) -> None:
    answer = generate_report("AAPL", pool=pg_pool, save=False)
    fu = answer.payload["fundamentals"]
    history = fetch_all(
        "SELECT as_of_date, eps, pe, pb, dividend_yield FROM stock_fundamentals"
        " WHERE security_id = 'US:AAPL' AND as_of_date <= %s ORDER BY as_of_date",
        (AS_OF,), pool=pg_pool,
    )  # fmt: skip
    latest = history[-1]
    year_ago = [h for h in history if (AS_OF - h["as_of_date"]).days >= 365][-1]
    assert fu["eps_growth"] == pytest.approx(float(latest["eps"]) / float(year_ago["eps"]) - 1)
    assert fu["pb"] == float(latest["pb"])
    assert fu["dividend_yield"] == pytest.approx(float(latest["dividend_yield"]) / 100)
    pes = sorted(float(h["pe"]) for h in history if h["pe"] and h["pe"] > 0)
    assert fu["pe_history_percentile"] == pytest.approx(
        sum(p <= float(latest["pe"]) for p in pes) / len(pes)
    )
    upcoming = fetch_all(
        "SELECT period, event_date FROM earnings_events WHERE security_id = 'US:AAPL'"
        " AND event_date > %s ORDER BY event_date LIMIT 1", (AS_OF,), pool=pg_pool,
    )  # fmt: skip
    assert fu["next_earnings"]["event_date"] == upcoming[0]["event_date"].isoformat()
    reported = fetch_all(
        "SELECT eps_estimate, eps_actual FROM earnings_events WHERE security_id = 'US:AAPL'"
        " AND event_date <= %s AND eps_actual IS NOT NULL ORDER BY event_date DESC LIMIT 4",
        (AS_OF,), pool=pg_pool,
    )  # fmt: skip
    beats = sum(r["eps_actual"] > r["eps_estimate"] for r in reported)
    assert fu["beats"] == beats and fu["misses"] == sum(
        r["eps_actual"] < r["eps_estimate"] for r in reported
    )
    rows = {r["figure"]: r for r in answer.payload["fundamental_rows"]}
    assert rows["PBR"]["value"] == f"{float(latest['pb']):,.2f}"
    # every read behind them is cited, with its row count
    cited = {(c.table, c.row_count) for c in answer.structured_citations}
    assert (
        "earnings_events",
        len(fetch_all("SELECT 1 FROM earnings_events WHERE security_id = 'US:AAPL'", pool=pg_pool)),
    ) in cited
    assert ("stock_fundamentals", len(history)) in cited
