"""Macro Q&A on market data (issue 25): index levels instead of ETF stand-ins, market rankings
of one day ('오늘 거래대금 상위 10개'), Top50 universe snapshots and 편입/편출 — each answer's
figures equal independent SQL over the demo data, through the whole offline service."""

from __future__ import annotations

import re
from typing import Any

import pytest

from agents.macro.service import answer_question
from data_access.contracts import AgentAnswer
from data_access.figures import fmt_krw
from data_access.postgres import fetch_all, fetch_one

pytestmark = pytest.mark.usefixtures("demo_data")


def _ask(question: str, pg_pool: Any, graph_store: Any) -> AgentAnswer:
    return answer_question(question, pool=pg_pool, store=graph_store)


def _kr_day(pg_pool: Any) -> Any:
    row = fetch_one("SELECT max(p.trade_date) AS d FROM stock_prices p JOIN stocks s"
                    " USING (security_id) WHERE s.country = 'KR'", pool=pg_pool)  # fmt: skip
    assert row is not None
    return row["d"]


def _listed(text: str) -> list[str]:
    """The names of a ranking key point ('1. 삼성전자 1조 1,820억 원, 2. …')."""
    return re.findall(r"\d+\. (.+?) (?:(?:[\d,]+조 )?[\d,]+억 원|[+-][\d.]+%|\$[\d,.]+B)", text)


def test_trading_value_top10_today(pg_pool: Any, graph_store: Any) -> None:
    answer = _ask("오늘 거래대금 상위 10개", pg_pool, graph_store)
    day = _kr_day(pg_pool)
    truth = fetch_all(
        "SELECT s.name, p.close * p.volume AS v FROM stock_prices p JOIN stocks s"
        " USING (security_id) WHERE s.country = 'KR' AND NOT s.is_etf AND p.trade_date = %s"
        " ORDER BY v DESC, s.security_id LIMIT 10", (day,), pool=pg_pool,
    )  # fmt: skip
    assert answer.status == "ok" and "거래대금 상위 10개" in answer.answer
    assert _listed(answer.answer) == [r["name"] for r in truth]
    top = fmt_krw(float(truth[0]["v"]))
    assert top in answer.answer and str(day) in answer.answer
    cited = {c.dataset_code for c in answer.structured_citations}
    assert "KR_STOCK_DAILY_OHLCV" in cited and "순위" not in (answer.payload.get(
        "understanding", {}).get("unanswered") or [""])[0]  # fmt: skip


def test_top50_ranking_states_its_snapshot(pg_pool: Any, graph_store: Any) -> None:
    answer = _ask("KR_TOP50 오늘 등락률 하위 5개", pg_pool, graph_store)
    snapshot = fetch_one("SELECT max(f.as_of_date) AS d FROM stock_fundamentals f JOIN stocks s"
                         " USING (security_id) WHERE s.country = 'KR' AND f.as_of_date <= %s",
                         (_kr_day(pg_pool),), pool=pg_pool)  # fmt: skip
    assert snapshot is not None
    members = fetch_all(
        "SELECT f.security_id FROM stock_fundamentals f JOIN stocks s USING (security_id)"
        " WHERE s.country = 'KR' AND NOT s.is_etf AND f.as_of_date = %s"
        " ORDER BY f.market_cap DESC, f.security_id LIMIT 50", (snapshot["d"],), pool=pg_pool,
    )  # fmt: skip
    truth = fetch_all(
        "SELECT s.name FROM stock_prices p JOIN stocks s USING (security_id)"
        " WHERE p.security_id = ANY(%s) AND p.trade_date = %s ORDER BY p.change_rate, s.security_id"
        " LIMIT 5", ([m["security_id"] for m in members], _kr_day(pg_pool)), pool=pg_pool,
    )  # fmt: skip
    assert f"KR Top50 유니버스({snapshot['d']} 스냅샷 기준" in answer.answer
    assert _listed(answer.answer) == [r["name"] for r in truth]


def test_universe_changes_between_snapshots(pg_pool: Any, graph_store: Any) -> None:
    answer = _ask("KR Top50 편입 편출 종목", pg_pool, graph_store)
    dates = [r["d"] for r in fetch_all(
        "SELECT max(f.as_of_date) AS d FROM stock_fundamentals f JOIN stocks s USING (security_id)"
        " WHERE s.country = 'KR' AND f.market_cap IS NOT NULL GROUP BY date_trunc('month',"
        " f.as_of_date) ORDER BY d DESC LIMIT 2", pool=pg_pool)]  # fmt: skip

    def top50(day: Any) -> set[str]:
        return {r["name"] for r in fetch_all(
            "SELECT s.name FROM stock_fundamentals f JOIN stocks s USING (security_id)"
            " WHERE s.country = 'KR' AND NOT s.is_etf AND f.as_of_date = %s"
            " ORDER BY f.market_cap DESC, f.security_id LIMIT 50", (day,), pool=pg_pool)}  # fmt: skip

    after, before = top50(dates[0]), top50(dates[1])
    line = next(p for p in answer.answer.splitlines() if "편입" in p and "스냅샷" in p)
    assert f"{dates[1]} → {dates[0]} 스냅샷" in line
    added = set(re.findall(r"([^ ,;]+)\(\d+위\)", line))
    removed = set(re.findall(r"([^ ,;]+)\(직전 \d+위\)", line))
    assert (added, removed) == (after - before, before - after)
    assert f"편입 {len(after - before)}종목" in line


def test_index_level_not_a_stand_in(pg_pool: Any, graph_store: Any) -> None:
    answer = _ask("코스피 최근 한 달 흐름", pg_pool, graph_store)
    last = fetch_one("SELECT trade_date, close FROM market_series_prices WHERE series_code = '^KS11'"
                     " ORDER BY trade_date DESC LIMIT 1", pool=pg_pool)  # fmt: skip
    assert last is not None
    assert f"코스피 {float(last['close']):,.2f}포인트 ({last['trade_date']})" in answer.answer
    assert "^KS11" not in answer.answer  # by its name, not its id (issue 33)
    assert "대용" not in answer.answer and "KODEX 200" not in answer.answer
    assert "KOSPI_INDEX" in {c.dataset_code for c in answer.structured_citations}
    series = answer.payload["agent_responses"]["equity"]["series"]
    assert [s["key"] for s in series] == ["^KS11"]  # the chart under the answer


@pytest.mark.parametrize("question", [
    "오늘 거래대금 상위 999999개",
    "'; DROP TABLE stocks; -- 거래대금 상위 3개",
    "코스닥 거래대금 상위 0개",
])  # fmt: skip
def test_hostile_ranking_questions_are_bounded(question: str, pg_pool: Any,
                                               graph_store: Any) -> None:  # fmt: skip
    answer = _ask(question, pg_pool, graph_store)
    assert answer.status in ("ok", "partial") and len(_listed(answer.answer)) <= 50
    assert fetch_one("SELECT count(*) AS n FROM stocks", pool=pg_pool)["n"] > 0  # type: ignore[index]


def test_stock_answer_states_its_universe_snapshot(pg_pool: Any, graph_store: Any) -> None:
    answer = _ask("삼성전자 최근 한 달 주가", pg_pool, graph_store)
    snap = fetch_one(
        "SELECT max(f.as_of_date) AS d FROM stock_fundamentals f JOIN stocks s USING (security_id)"
        " WHERE s.country = 'KR' AND f.market_cap IS NOT NULL AND f.as_of_date <= %s",
        (_kr_day(pg_pool),), pool=pg_pool,
    )  # fmt: skip
    ranked = fetch_all(
        "SELECT f.security_id FROM stock_fundamentals f JOIN stocks s USING (security_id)"
        " WHERE s.country = 'KR' AND NOT s.is_etf AND f.as_of_date = %s"
        " ORDER BY f.market_cap DESC, f.security_id", (snap["d"],), pool=pg_pool,  # type: ignore[index]
    )  # fmt: skip
    rank = [r["security_id"] for r in ranked].index("KR:005930") + 1
    # the line names the stock, not its code (issue 33: codes written as names)
    assert f"삼성전자: KR Top50 유니버스 {rank}위 ({snap['d']} 스냅샷 기준)." in answer.answer  # type: ignore[index]


@pytest.mark.parametrize(
    ("question", "agents"),
    [("오늘 거래대금 상위 10개", ["equity"]), ("KR Top50 편입 편출 종목", ["equity"]),
     ("1년간 아파트 가격지수 상승률 1위 지역은?", ["real_estate"]),
     ("반도체주 중 1개월 수익률 1위", ["equity"])],
)  # fmt: skip
def test_market_rankings_route_to_equity_and_housing_ones_do_not(
    question: str, agents: list[str], pg_pool: Any, graph_store: Any
) -> None:
    answer = _ask(question, pg_pool, graph_store)
    assert answer.payload["route"]["target_agents"] == agents
