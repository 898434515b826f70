"""One figure, one value on every screen (issue 19): the period returns over 1W/1M/3M/6M/1Y/YTD
of ten securities and five ETFs, asked of each screen that shows them, against an independent
SQL truth of the written definition (data_access.figures: the base close is the last bar on or
before the as-of bar minus the calendar period; YTD against the previous year's last close).

Screens: the stock report's figures (compute_figures, what the report node runs), the stock
screen's questions (answer_stock_question), Macro Q&A (answer_question, offline planner), the
ETF chat's price tools (get_stock_prices / get_etf_prices / get_etf_info) and its agent's
answers (offline planner). ETFs are asked of the ETF screen (Macro answers an index question
with the index series itself, not with an ETF). No LLM and no fake: every screen runs its real path offline.
"""

from __future__ import annotations

import json
import re
from datetime import date
from typing import Any

import pytest

from agents.etf.service import answer_question as etf_answer
from agents.etf.tools import ToolContext, make_tools
from agents.evidence import EvidenceCollector
from agents.macro.service import answer_question as macro_answer
from agents.stock.analysis import compute_figures
from agents.stock.data import StockData
from agents.stock.question import answer_stock_question
from agents.stock.quotes import database_quote
from data_access.postgres import fetch_one

pytestmark = pytest.mark.usefixtures("demo_data")

SECURITIES = {
    "KR:005930": "삼성전자", "KR:000660": "SK하이닉스", "KR:373220": "LG에너지솔루션",
    "KR:035420": "NAVER", "KR:105560": "KB금융", "KR:012330": "현대모비스",
    "US:NVDA": "NVIDIA", "US:AAPL": "Apple", "US:MSFT": "Microsoft", "US:TSLA": "Tesla",
}  # fmt: skip
ETFS = {"069500": "KODEX 200", "069660": "KOSEF 200", "091160": "KODEX 반도체",
        "091170": "KODEX 은행", "091230": "TIGER 반도체"}  # fmt: skip
PERIODS = {
    "1w": "1주",
    "1m": "1개월",
    "3m": "3개월",
    "6m": "6개월",
    "1y": "1년",
    "ytd": "연초 대비",
}

# Written independently of data_access.figures: the base date in PostgreSQL terms.
_BASE = {"1w": "(l.d - interval '7 days')::date", "1m": "(l.d - interval '1 month')::date",
         "3m": "(l.d - interval '3 months')::date", "6m": "(l.d - interval '6 months')::date",
         "1y": "(l.d - interval '1 year')::date",
         "ytd": "make_date(extract(year FROM l.d)::int - 1, 12, 31)"}  # fmt: skip
_TRUTH = """
WITH p AS (SELECT trade_date, close FROM {table} WHERE {key} = %(id)s AND trade_date <= %(as_of)s),
l AS (SELECT max(trade_date) AS d FROM p),
b AS (SELECT max(p.trade_date) AS d FROM p, l WHERE p.trade_date <= {base})
SELECT round((100 * ((SELECT close FROM p, l WHERE p.trade_date = l.d)
       / (SELECT close FROM p, b WHERE p.trade_date = b.d) - 1))::numeric, 2) AS pct
"""
_SIGNED = r"([+-]\d+\.\d\d)%"


def truth(pool: Any, table: str, key: str, ident: str, period: str, as_of: date) -> float:
    sql = _TRUTH.format(table=table, key=key, base=_BASE[period])
    row = fetch_one(sql, {"id": ident, "as_of": as_of}, pool)
    assert row is not None and row["pct"] is not None
    return float(row["pct"])


def signed(pattern: str, text: str) -> float:
    found = re.search(pattern, text)
    assert found, f"no figure for {pattern!r} in: {text[:300]}"
    return float(found.group(1))


@pytest.fixture(scope="module")
def as_of(pg_pool: Any) -> date:
    from data_access.catalog import current_as_of_date

    return current_as_of_date(pg_pool)


@pytest.fixture(scope="module")
def tools(pg_pool: Any, graph_store: Any) -> dict[str, Any]:
    context = ToolContext(store=graph_store, pool=pg_pool, collector=EvidenceCollector())
    return {t.name: t for t in make_tools(context)}


def tool(tools: dict[str, Any], name: str, **kwargs: Any) -> dict[str, Any]:
    out = json.loads(tools[name](**kwargs))
    assert out.get("status") != "error", out
    return dict(out)


@pytest.mark.parametrize("sid", list(SECURITIES))
def test_a_securitys_returns_agree_on_every_screen(sid: str, pg_pool: Any, as_of: date,
                                                   tools: dict[str, Any]) -> None:  # fmt: skip
    name = SECURITIES[sid]
    data = StockData(pg_pool, EvidenceCollector(), as_of)
    report, _ = compute_figures(data, database_quote(data, sid))
    code = sid.split(":", 1)[1]
    for period, ko in PERIODS.items():
        want = truth(pg_pool, "stock_prices", "security_id", sid, period, as_of)
        seen: dict[str, float] = {}
        value = report["returns"][period]
        assert value is not None
        seen["stock report"] = round(value * 100, 2)
        question = answer_stock_question(f"{name} {ko} 수익률", pool=pg_pool)
        assert question is not None
        seen["stock question"] = signed(rf"수익률 {_SIGNED}", question.answer)
        macro = macro_answer(f"{name} {ko} 수익률", pool=pg_pool)
        seen["macro"] = signed(rf"대비 {_SIGNED}", macro.answer)
        prices = tool(tools, "get_stock_prices", stock_code=code, period=period)
        seen["etf chat tool"] = prices["summary"]["change_rate"]
        assert seen == dict.fromkeys(seen, want), f"{sid} {period}: {seen} (truth {want})"
        window = report["return_windows"][period]
        assert window is not None and window["end_date"] == prices["summary"]["end_date"]
        assert window["start_date"] == prices["summary"]["start_date"]


@pytest.mark.parametrize("code", list(ETFS))
def test_an_etfs_returns_agree_on_every_screen(code: str, pg_pool: Any, as_of: date,
                                               tools: dict[str, Any]) -> None:  # fmt: skip
    name = ETFS[code]
    info = tool(tools, "get_etf_info", etf_code=code)
    for period, ko in PERIODS.items():
        want = truth(pg_pool, "etf_prices", "etf_code", code, period, as_of)
        seen = {"etf prices tool": tool(tools, "get_etf_prices", etf_code=code,
                                        period=period)["summary"]["change_rate"]}  # fmt: skip
        if period in info["returns"]:
            seen["etf info tool"] = info["returns"][period]
        if period != "ytd":  # the ETF planner's periods are the seed's five (no YTD)
            agent = etf_answer(f"{name} {ko} 수익률", pool=pg_pool)
            seen["etf chat"] = signed(rf"수익률은 {_SIGNED}", agent.answer)
        assert seen == dict.fromkeys(seen, want), f"{code} {period}: {seen} (truth {want})"


@pytest.mark.parametrize("as_of", [date(2026, 11, 16), date(2026, 11, 18)])
def test_bases_on_weekends_take_the_session_before(as_of: date, pg_pool: Any) -> None:
    """As-of dates whose period bases fall on weekends (2026-08-16, 2025-11-16, 2026-10-18):
    the screens that take an as-of date use the last close on or before the base date."""
    for sid in ("KR:005930", "US:NVDA", "US:AAPL"):
        data = StockData(pg_pool, EvidenceCollector(), as_of)
        report, _ = compute_figures(data, database_quote(data, sid))
        for period, ko in PERIODS.items():
            want = truth(pg_pool, "stock_prices", "security_id", sid, period, as_of)
            value = report["returns"][period]
            question = answer_stock_question(f"{SECURITIES[sid]} {ko} 수익률", pool=pg_pool,
                                             as_of=as_of.isoformat())  # fmt: skip
            assert question is not None and value is not None
            seen = {"stock report": round(value * 100, 2),
                    "stock question": signed(rf"수익률 {_SIGNED}", question.answer)}  # fmt: skip
            assert seen == dict.fromkeys(seen, want), f"{sid} {period} {as_of}: {seen} ({want})"


def test_a_closed_day_asked_reads_as_the_session_before_and_says_so(pg_pool: Any) -> None:
    answer = answer_stock_question("삼성전자 1개월 수익률", pool=pg_pool, as_of="2026-11-22")
    assert answer is not None and answer.as_of_date == "2026-11-20"
    assert "11월 22일(일)은 휴장일이라 11월 20일 종가 기준입니다." in answer.answer
    assert answer.status == "ok"  # the session before is the asked day's answer, not a miss
