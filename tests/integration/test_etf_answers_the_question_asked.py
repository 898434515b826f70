"""Fresh rounds r124–r134 (issue 31), through the ETF chat offline on the embedded stores: a
carried stock's weight in the fund talked of, a pick's holdings, a place before a holdings cut,
a tie at the n-th place, a holding's valuation and a ranking by the premium. Each answered
another question with status ok, or declined, before. Truth is SQL here."""

from __future__ import annotations

from typing import Any

import pytest

from agents.etf.service import answer_question
from data_access.config import Settings
from data_access.contracts import AgentAnswer
from data_access.postgres import fetch_all
from tests.conversations import chain

pytestmark = pytest.mark.usefixtures("demo_data")

# each ETF's holdings on its latest snapshot, heaviest first
_HOLDINGS = """SELECT s.name, s.security_id, h.weight FROM etf_holdings h JOIN stocks s USING (security_id)
WHERE h.etf_code = %(code)s AND h.as_of_date = (SELECT max(as_of_date) FROM etf_holdings
  WHERE etf_code = %(code)s) ORDER BY h.weight DESC"""
# each ETF's last session: its close, NAV and net assets
_LAST = """SELECT e.code, e.name, e.expense_ratio, p.close, p.nav, p.net_assets FROM etfs e
JOIN LATERAL (SELECT close, nav, net_assets FROM etf_prices WHERE etf_code = e.code
  ORDER BY trade_date DESC LIMIT 1) p ON true"""


def _ask(pool: Any, store: Any, settings: Settings, *turns: str) -> AgentAnswer:
    def ask(question: str, history: list[Any]) -> AgentAnswer:
        return answer_question(question, history, settings=settings, store=store, pool=pool)

    return chain(ask, turns)


def _holdings(pool: Any, code: str) -> list[dict[str, Any]]:
    return fetch_all(_HOLDINGS, {"code": code}, pool)


def _code(pool: Any, name: str) -> str:
    return str(fetch_all("SELECT code FROM etfs WHERE name = %s", (name,), pool)[0]["code"])


def test_a_carried_stocks_weight_is_in_the_fund_talked_of(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'KODEX 반도체 보유종목' → '그 중 3위 종목은?' → '그 종목 비중은?' listed the ETFs holding
    the stock most (ok); '… 담긴 ETF는?' still asks its holders."""
    third = _holdings(pg_pool, _code(pg_pool, "KODEX 반도체"))[2]
    answer = _ask(pg_pool, graph_store, offline, "KODEX 반도체 보유종목", "그 중 3위 종목은?",
                  "그 종목 비중은?")  # fmt: skip
    assert answer.status == "ok", answer.answer
    assert f"{third['name']}의 비중은 {float(third['weight']):.2f}%" in answer.answer
    second = _holdings(pg_pool, _code(pg_pool, "KODEX 200"))[1]
    holders = fetch_all(
        "SELECT e.name FROM etf_holdings h JOIN etfs e ON e.code = h.etf_code WHERE "
        "h.security_id = %(sid)s AND h.as_of_date = (SELECT max(as_of_date) FROM etf_holdings "
        "x WHERE x.etf_code = h.etf_code) ORDER BY h.weight DESC LIMIT 1",
        {"sid": second["security_id"]}, pg_pool)  # fmt: skip
    kept = _ask(pg_pool, graph_store, offline, "KODEX 200 보유종목", "비중 2위는?",
                "그 종목이 가장 많이 담긴 ETF는?")  # fmt: skip
    assert f"1. {holders[0]['name']} (" in kept.answer, kept.answer


def test_a_picks_holdings_and_a_place_before_a_holdings_cut(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'보수 가장 싼 반도체 ETF 상위 보유종목' gave the ETF and no holdings (ok); '순자산 1위
    ETF의 상위 3개 보유종목' was right but partial ('1위' unread)."""
    tagged = fetch_all(_LAST + " JOIN etf_tags t ON t.etf_code = e.code AND t.tag = '반도체' "
                       "ORDER BY e.expense_ratio", None, pg_pool)  # fmt: skip
    assert tagged[0]["expense_ratio"] < tagged[1]["expense_ratio"]  # one cheapest, no tie
    top = _holdings(pg_pool, tagged[0]["code"])[0]
    picked = _ask(pg_pool, graph_store, offline, "보수 가장 싼 반도체 ETF 상위 보유종목")
    assert picked.status == "ok" and picked.answer.startswith(tagged[0]["name"]), picked.answer
    assert f"1. {top['name']} (" in picked.answer
    largest = max(fetch_all(_LAST, None, pg_pool), key=lambda r: r["net_assets"] or 0)
    three = [r["name"] for r in _holdings(pg_pool, largest["code"])[:3]]
    first = _ask(pg_pool, graph_store, offline, "순자산 1위 ETF의 상위 3개 보유종목")
    assert first.status == "ok" and first.answer.startswith(largest["name"]), first.answer
    assert [f"{i}. {n} (" in first.answer for i, n in enumerate(three, 1)] == [True] * 3


def test_a_tie_at_the_place_asked_is_said_and_no_other_fund_leads(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'보수 2위 ETF 순자산은?': the tie note's codes made the answer lead with another fund."""
    fees = sorted(fetch_all(_LAST, None, pg_pool), key=lambda r: r["expense_ratio"])
    tied = [r for r in fees if r["expense_ratio"] == fees[1]["expense_ratio"]]
    assert len(tied) > 1  # the demo data ties the second place
    answer = _ask(pg_pool, graph_store, offline, "보수 2위 ETF 순자산은?")
    assert "2번째는" not in answer.answer, answer.answer
    assert f"같은 ETF가 {len(tied) - 1}개 더 있습니다" in answer.answer


def test_a_holdings_valuation_is_the_stock_screens_snapshot(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'KODEX 은행 보유종목' → '1위 비중은?' → '그 종목 PBR은?' said the ETF chat does not read
    PBR; now the stock's last valuation snapshot, cited."""
    top = _holdings(pg_pool, _code(pg_pool, "KODEX 은행"))[0]
    snap = fetch_all("SELECT pb, dividend_yield FROM stock_fundamentals WHERE security_id = %s "
                     "ORDER BY as_of_date DESC LIMIT 1", (top["security_id"],), pg_pool)[0]  # fmt: skip
    answer = _ask(pg_pool, graph_store, offline, "KODEX 은행 보유종목", "1위 비중은?",
                  "그 종목 PBR은?")  # fmt: skip
    assert answer.status == "ok", answer.answer
    assert f"{top['name']}의 PBR은 {float(snap['pb']):,.2f}배" in answer.answer
    assert "STOCK_FUNDAMENTALS" in {c.dataset_code for c in answer.structured_citations}
    yielded = _ask(pg_pool, graph_store, offline, f"{top['name']} 배당수익률")
    assert f"{float(snap['dividend_yield']):.2f}%" in yielded.answer, yielded.answer


def test_etfs_rank_by_their_latest_premium(pg_pool: Any, graph_store: Any,
                                           offline: Settings) -> None:  # fmt: skip
    """'ETF 괴리율 높은 거' declined; the premium is the last close against the NAV."""
    rows = [r for r in fetch_all(_LAST, None, pg_pool) if r["nav"]]
    ranked = sorted(rows, key=lambda r: r["close"] / r["nav"], reverse=True)[:3]
    answer = _ask(pg_pool, graph_store, offline, "괴리율 가장 높은 ETF 3개")
    assert answer.status == "ok", answer.answer
    for i, r in enumerate(ranked, 1):
        premium = (float(r["close"]) / float(r["nav"]) - 1) * 100
        assert f"{i}. {r['name']} ({r['code']}): 최근 거래일 괴리율 {premium:.2f}%" in answer.answer


def test_a_holding_by_place_and_its_valuation(pg_pool: Any, graph_store: Any,
                                              offline: Settings) -> None:  # fmt: skip
    """'… 보유종목' → '5위는?' listed the top five, so '그 종목 비중' had no stock to follow (a
    partial of the fund's card); 'KODEX 반도체 1위 보유종목의 PBR' listed it and said PBR unread."""
    fifth = _holdings(pg_pool, _code(pg_pool, "KODEX 2차전지산업"))[4]
    placed = _ask(pg_pool, graph_store, offline, "KODEX 2차전지산업 보유종목", "5위는?")
    assert placed.status == "ok" and f"비중 5위 종목: {fifth['name']} (" in placed.answer
    weight = _ask(pg_pool, graph_store, offline, "KODEX 2차전지산업 보유종목", "5위는?",
                  "그 종목 비중 얼마야?")  # fmt: skip
    assert f"{fifth['name']}의 비중은 {float(fifth['weight']):.2f}%" in weight.answer, weight.answer
    top = _holdings(pg_pool, _code(pg_pool, "KODEX 반도체"))[0]
    pb = fetch_all("SELECT pb FROM stock_fundamentals WHERE security_id = %s ORDER BY as_of_date "
                   "DESC LIMIT 1", (top["security_id"],), pg_pool)[0]["pb"]  # fmt: skip
    valued = _ask(pg_pool, graph_store, offline, "KODEX 반도체 1위 보유종목의 PBR")
    assert valued.status == "ok", valued.answer
    assert f"{top['name']}의 PBR은 {float(pb):,.2f}배" in valued.answer


def test_a_window_beside_a_sets_premium_is_said_unread(pg_pool: Any, graph_store: Any,
                                                       offline: Settings) -> None:  # fmt: skip
    """A set's premium is each ETF's last session's: a window asked beside it is not applied, so
    the answer is partial and says so (not the latest premiums as the window's, status ok)."""
    answer = _ask(pg_pool, graph_store, offline, "3개월 괴리율 평균 높은 ETF 3개")
    assert answer.status == "partial" and "'3개월'" in answer.answer, answer.answer


def test_two_named_etfs_premiums_side_by_side(pg_pool: Any, graph_store: Any,
                                              offline: Settings) -> None:  # fmt: skip
    """'KODEX 200과 TIGER 200 괴리율 비교' gave the compare card (fees, returns), status ok."""
    last = {r["name"]: r for r in fetch_all(_LAST, None, pg_pool)}
    a, b = (round((float(last[n]["close"]) / float(last[n]["nav"]) - 1) * 100, 2)
            for n in ("KODEX 200", "TIGER 200"))  # fmt: skip
    answer = _ask(pg_pool, graph_store, offline, "KODEX 200과 TIGER 200 괴리율 비교")
    assert answer.status == "ok", answer.answer
    assert f"KODEX 200 {a:.2f}% − TIGER 200 {b:.2f}%" in answer.answer
