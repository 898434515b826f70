"""Each Macro Q&A domain agent against the real stores: its key-point numbers equal independent
SQL over the demo data, the §8.3 contract holds, citations are split (documents only /
numeric queries only), stale data yields 'no firm conclusion', documents are cited once."""

from __future__ import annotations

import re
from typing import Any

import pytest
from dateutil.relativedelta import relativedelta

from agents.macro.domain import equity_agent, macro_agent, real_estate_agent
from agents.macro.followup import read_question
from agents.macro.ontology import ontology_agent
from agents.macro.router import route
from agents.macro.service import answer_question, make_context
from agents.macro.state import AgentResponse, RunContext
from agents.macro.tools import pct
from data_access.config import Settings
from data_access.figures import fmt_krw
from data_access.postgres import fetch_all
from tests.truth import window_volatility_pct

pytestmark = pytest.mark.usefixtures("demo_data")

NUMERIC_TABLES = {"macro_observations", "stock_prices", "stock_fundamentals", "earnings_events",
                  "re_house_price_index", "re_jeonse_ratio", "re_unsold_housing", "re_permits",
                  "re_transactions", "IndicatorObservation", "EquityDailyBar",
                  "RealEstateMonthlySummary",
                  "universe_membership", "dart_disclosures"}  # fmt: skip


@pytest.fixture
def ctx(settings: Settings, pg_pool: Any, graph_store: Any) -> RunContext:
    return make_context(settings.model_copy(update={"llm_model": None, "llm_model_macro": None}),
                        pg_pool, graph_store)  # fmt: skip


def _contract(resp: AgentResponse, ctx: RunContext) -> None:
    """Seed 004 §8.3: every field present; structured citations complete and numeric-only."""
    assert resp.as_of_date == ctx.as_of_date and resp.data_freshness
    assert resp.key_points and all(isinstance(u, str) for u in resp.uncertainty)
    for s in resp.structured_citations:
        assert s.table in NUMERIC_TABLES, s.table
        assert s.dataset_code and s.query_fingerprint and s.as_of_date and s.row_count >= 0
        assert s.date_range.end == ctx.as_of_date and isinstance(s.filters, dict)
    docs = [c.doc_id for c in resp.citations]
    assert len(docs) == len(set(docs)), "a document is cited once"


def _documents_exist(resp: AgentResponse, pg_pool: Any) -> None:
    ids = [c.doc_id for c in resp.citations]
    found = fetch_all("SELECT doc_id FROM documents WHERE doc_id = ANY(%s)", (ids,), pool=pg_pool)
    assert {r["doc_id"] for r in found} == set(ids)


def test_macro_agent_numbers_match_sql(ctx: RunContext, pg_pool: Any) -> None:
    r = route("한국 기준금리 최근 6개월 추이와 원인은?")
    resp = macro_agent(r, ctx)
    rows = fetch_all(  # the window ends at the series' own last observation
        "WITH last AS (SELECT max(obs_date) AS d FROM macro_observations WHERE series_code = "
        "'KR_BASE_RATE' AND obs_date <= %s) SELECT obs_date, value FROM macro_observations, last "
        "WHERE series_code = 'KR_BASE_RATE' AND obs_date BETWEEN (last.d - interval '6 months') "
        "AND last.d ORDER BY obs_date", (ctx.as_of_date,), pool=pg_pool,
    )  # fmt: skip
    v0, v1 = float(rows[0]["value"]), float(rows[-1]["value"])
    point = resp.key_points[0]
    assert f"최신값 {v1:,.2f}" in point and f"{rows[-1]['obs_date']}" in point
    move = v1 - v0  # a rate moves in %p and bp, not in percent of itself
    assert f"{move:+,.2f}%p ({round(move * 100):+d}bp)" in point
    assert resp.structured_citations[0].row_count == len(rows)
    assert resp.citations, "a 'why' question brings document evidence"
    _contract(resp, ctx)
    _documents_exist(resp, pg_pool)


def test_equity_agent_numbers_match_sql(ctx: RunContext, pg_pool: Any) -> None:
    resp = equity_agent(route("삼성전자 3개월 수익률"), ctx)
    rows = fetch_all(
        "WITH last AS (SELECT max(trade_date) AS d FROM stock_prices WHERE security_id = "
        "'KR:005930' AND trade_date <= %s) SELECT close, volume FROM stock_prices, last "
        "WHERE security_id = 'KR:005930' AND trade_date BETWEEN (last.d - interval '3 months') "
        "AND last.d ORDER BY trade_date", (ctx.as_of_date,), pool=pg_pool,
    )  # fmt: skip
    closes = [float(r["close"]) for r in rows]
    avg_volume = sum(int(r["volume"]) for r in rows) / len(rows)
    point = resp.key_points[0]
    # named with its ticker, a won price without '.00' (issue 33)
    assert point.startswith("삼성전자(005930) 종가 ") and "KR:" not in point
    assert f"종가 {closes[-1]:,.0f}원" in point and f"{pct(closes[0], closes[-1]):+.2f}%" in point
    assert f"고점 {max(closes):,.0f}원" in point and f"평균 거래량 {avg_volume:,.0f}주" in point
    pe = fetch_all(
        "SELECT pe FROM stock_fundamentals WHERE security_id = 'KR:005930' AND as_of_date <= %s "
        "ORDER BY as_of_date DESC LIMIT 1", (ctx.as_of_date,), pool=pg_pool,
    )[0]["pe"]  # fmt: skip
    assert any(f"PER {pe}" in p for p in resp.key_points)
    assert {s.table for s in resp.structured_citations} >= {"stock_prices", "stock_fundamentals"}
    assert not resp.citations  # no 'why': numbers only
    _contract(resp, ctx)


def test_real_estate_agent_numbers_match_sql(ctx: RunContext, pg_pool: Any) -> None:
    resp = real_estate_agent(route("서울 강남구 전세가율 추이"), ctx)
    rows = fetch_all(
        "WITH last AS (SELECT max(month) AS d FROM re_jeonse_ratio WHERE region = '서울 강남구' "
        "AND month <= %s) SELECT month, ratio FROM re_jeonse_ratio, last WHERE region = "
        "'서울 강남구' AND month BETWEEN (last.d - interval '12 months') AND last.d ORDER BY month",
        (ctx.as_of_date,), pool=pg_pool,
    )  # fmt: skip
    v0, v1 = float(rows[0]["ratio"]), float(rows[-1]["ratio"])
    point = resp.key_points[0]
    assert f"{str(rows[-1]['month'])[:7]} {v1:,.2f}%" in point and f"{pct(v0, v1):+.2f}%" in point
    assert resp.structured_citations[0].table == "re_jeonse_ratio"
    assert resp.structured_citations[0].dataset_code == "KR_JEONSE_RATIO"
    _contract(resp, ctx)


def _framed(question: str, ctx: RunContext) -> Any:
    """The route the service builds: rules plus the question frame."""
    return route(question, ctx.pool, frame=read_question(question, [], ctx.pool))


def test_regions_are_ranked_inside_the_region_asked(ctx: RunContext, pg_pool: Any) -> None:
    """'서울에서 거래 제일 많은 구' ranks Seoul's districts by deals; '전국' is never a member."""
    resp = real_estate_agent(_framed("서울에서 아파트 거래 제일 많은 구 3곳", ctx), ctx)
    start = resp.structured_citations[0].date_range.start
    rows = fetch_all(
        "SELECT region, count(*) AS n FROM re_transactions WHERE region LIKE '서울 %%' AND "
        "deal_date >= %s AND deal_date <= %s GROUP BY region ORDER BY n DESC LIMIT 3",
        (start, ctx.as_of_date), pool=pg_pool,
    )  # fmt: skip
    point = resp.key_points[0]
    listed = [p.split(" (")[0] for p in point.split(": ", 1)[1].split("), ")]
    assert listed == [f"{r['region']} {r['n']:,}건" for r in rows]
    unsold = real_estate_agent(_framed("전국에서 미분양 가장 많은 지역", ctx), ctx)
    top = fetch_all(
        "SELECT DISTINCT ON (region) region, units FROM re_unsold_housing WHERE month <= %s "
        "AND region <> '전국' ORDER BY region, month DESC", (ctx.as_of_date,), pool=pg_pool)  # fmt: skip
    best = max(top, key=lambda r: r["units"])
    assert f"{best['region']} {best['units']:,}호" in unsold.key_points[0]
    assert "전국" not in unsold.key_points[0].split(":", 1)[1]


def test_mean_deal_price_is_the_mean_of_the_deals(ctx: RunContext, pg_pool: Any) -> None:
    resp = real_estate_agent(_framed("강남구 아파트 평균 거래가격 지난 3개월", ctx), ctx)
    point = resp.key_points[0]
    first, last = point.split("서울 강남구 ", 1)[1].split(" 아파트")[0].split(" ~ ")
    row = fetch_all(
        "SELECT count(*) AS n, avg(price_krw)::bigint AS mean FROM re_transactions WHERE region = "
        "'서울 강남구' AND deal_date BETWEEN %s AND %s", (first, last), pool=pg_pool)[0]  # fmt: skip
    assert f"{row['n']:,}건의 평균 거래가격 {fmt_krw(float(row['mean']), '만')}" in point
    counts = real_estate_agent(_framed("대전 아파트 실거래 건수 전월 대비", ctx), ctx)
    assert "실거래 건수 전월 대비" in counts.key_points[0] and "건 (" in counts.key_points[0]


def test_ontology_agent_paths_match_sql_evidence(ctx: RunContext, pg_pool: Any) -> None:
    resp = ontology_agent(route("원달러 환율에 영향을 준 이벤트 경로는?"), ctx)
    assert resp.status == "ok" and resp.paths and not resp.structured_citations
    ids = [p["evidence_id"] for p in resp.paths]
    rows = fetch_all(
        "SELECT v.evidence_id, v.doc_id, e.title, e.theme FROM evidence v "
        "JOIN events e USING (event_id) WHERE v.evidence_id = ANY(%s)", (ids,), pool=pg_pool,
    )  # fmt: skip
    by_id = {r["evidence_id"]: r for r in rows}
    assert set(by_id) == set(ids)
    for p in resp.paths:
        assert by_id[p["evidence_id"]]["doc_id"] == p["doc_id"]
        assert by_id[p["evidence_id"]]["title"] == p["event"] and p["target"] == "KR_USDKRW"
    _contract(resp, ctx)
    _documents_exist(resp, pg_pool)


def test_document_citations_are_deduplicated(pg_pool: Any, graph_store: Any) -> None:
    """Several evidence rows of one document cite it once (per agent and merged)."""
    answer = answer_question("한국 기준금리 최근 추이와 원인", pool=pg_pool, store=graph_store)
    paths = [p for r in answer.payload["agent_responses"].values() for p in r["paths"]]
    docs = [c.doc_id for c in answer.citations]
    assert len(docs) == len(set(docs)) and docs
    assert len({p["evidence_id"] for p in paths}) >= len(docs)
    assert not {c.table for c in answer.structured_citations} - NUMERIC_TABLES


def test_stale_dataset_gives_no_firm_conclusion(pg_pool: Any, graph_store: Any) -> None:
    """Asking as of a date far after the data makes every domain stale (nothing is mutated)."""
    answer = answer_question("2027-06-30 기준 한국 기준금리 추이", pool=pg_pool, store=graph_store)
    assert answer.data_freshness["macro"] == "stale"
    assert "최신성 경고" in answer.answer and "결론을 단정하지 않습니다" in answer.answer
    macro = answer.payload["agent_responses"]["macro"]
    assert any("강한 결론을 내리지 않습니다" in u for u in macro["uncertainty"])
    assert any("2027-06-30" in n for n in answer.payload["as_of_validation"]["notes"])
    assert answer.structured_citations  # the numbers are still shown, with the warning


def test_healthy_dataset_has_no_warning(pg_pool: Any, graph_store: Any) -> None:
    answer = answer_question("한국 기준금리 추이", pool=pg_pool, store=graph_store)
    assert answer.data_freshness["macro"] == "healthy" and "최신성 경고" not in answer.answer


def test_a_held_and_an_unheld_series_answer_the_held_part(pg_pool: Any, graph_store: Any) -> None:
    """'미국 CPI랑 중국 PMI': CPI is answered and cited, PMI is said to be missing (partial);
    'PCE 물가' alone (CPI only a region-topic stand-in) is declined."""
    both = answer_question("미국 CPI랑 중국 PMI 최근 추이", pool=pg_pool, store=graph_store)
    assert both.status == "partial" and not both.payload["declined"]
    said = "미국 소비자물가지수(CPI-U) 최신값"  # by its name, not CPIAUCSL (issue 33)
    assert said in both.answer and "PMI" in both.answer.split(said)[-1]
    assert any(c.filters.get("code") == "CPIAUCSL" or "CPIAUCSL" in str(c.filters)
               for c in both.structured_citations)  # fmt: skip
    pce = answer_question("미국 PCE 물가 최근 수치", pool=pg_pool, store=graph_store)
    assert pce.payload["declined"] and "PCE" in pce.answer


def test_regions_ranked_by_their_change(ctx: RunContext, pg_pool: Any) -> None:
    """'미분양 가장 많이 줄어든 지역': each region's change over a year, the largest fall first."""
    resp = real_estate_agent(_framed("미분양 가장 많이 줄어든 지역", ctx), ctx)
    rows = fetch_all(
        "WITH last AS (SELECT region, max(month) AS m FROM re_unsold_housing WHERE month <= %s "
        "AND region <> '전국' GROUP BY region) SELECT l.region, (SELECT units FROM "
        "re_unsold_housing u WHERE u.region = l.region AND u.month = l.m) - (SELECT units FROM "
        "re_unsold_housing u WHERE u.region = l.region AND u.month <= l.m - interval '12 months' "
        "ORDER BY month DESC LIMIT 1) AS delta FROM last l", (ctx.as_of_date,), pool=pg_pool)  # fmt: skip
    fall = min((r for r in rows if r["delta"] is not None), key=lambda r: r["delta"])
    assert (
        f"{fall['region']} " in resp.key_points[0]
        and f"({fall['delta']:+,}호)" in resp.key_points[0]
    )


def test_bitcoin_and_oil_are_answered_from_their_series(pg_pool: Any, graph_store: Any) -> None:
    """BTC-USD and CL=F are market series now: answered with their closes, not declined."""
    for question, code in (("비트코인 최근 한 달", "BTC-USD"), ("유가 최근 추이", "CL=F")):
        answer = answer_question(question, pool=pg_pool, store=graph_store)
        assert not answer.payload["declined"] and code in answer.answer, answer.answer[:300]
        last = fetch_all(
            "SELECT close FROM market_series_prices WHERE series_code = %s ORDER BY trade_date "
            "DESC LIMIT 1", (code,), pool=pg_pool)[0]["close"]  # fmt: skip
        assert f"{float(last):,.2f}" in answer.answer


def test_regions_ranked_by_growth_rate_and_a_country_we_lack(
    ctx: RunContext, pg_pool: Any, graph_store: Any
) -> None:
    """'집값 상승률 높은 지역': each region's house price index change in % over a year, the
    highest first (SQL); '한국과 일본 기준금리': Korea's rate answered, Japan said missing."""
    resp = real_estate_agent(_framed("집값 상승률 높은 지역 순위", ctx), ctx)
    rows = fetch_all(
        "WITH last AS (SELECT region, max(month) AS m FROM re_house_price_index WHERE month <= %s "
        "AND region <> '전국' GROUP BY region) SELECT l.region, (SELECT index_value FROM re_house_price_index "
        "p WHERE p.region = l.region AND p.month = l.m) / (SELECT index_value FROM re_house_price_index p "
        "WHERE p.region = l.region AND p.month <= l.m - interval '12 months' ORDER BY month DESC "
        "LIMIT 1) AS ratio FROM last l", (ctx.as_of_date,), pool=pg_pool)  # fmt: skip
    best = max((r for r in rows if r["ratio"] is not None), key=lambda r: r["ratio"])
    point = resp.key_points[0]
    assert "상승률 높은 지역 순" in point
    assert point.split(": ", 1)[1].startswith(best["region"] + " ")
    assert f"({(float(best['ratio']) - 1) * 100:+.2f}%)" in point
    both = answer_question("한국과 일본 기준금리 비교", pool=pg_pool, store=graph_store)
    assert both.status == "partial" and not both.payload["declined"]
    assert "한국은행 기준금리 최신값" in both.answer and "일본" in both.answer
    assert "KR_BASE_RATE" not in both.answer  # the series by its name, not its id (issue 33)


def test_eps_asked_leads_with_the_reported_quarters(ctx: RunContext, pg_pool: Any) -> None:
    """'삼성전자 주당순이익': the last reported quarter's EPS (estimate, actual) leads, and the
    valuation line carries the EPS the fundamentals hold — both against SQL."""
    resp = equity_agent(_framed("삼성전자 주당순이익 얼마야", ctx), ctx)
    quarter = fetch_all(
        "SELECT period, eps_actual FROM earnings_events WHERE security_id = 'KR:005930' AND "
        "event_date <= %s ORDER BY event_date DESC LIMIT 1", (ctx.as_of_date,), pool=pg_pool)[0]  # fmt: skip
    eps = fetch_all(
        "SELECT eps FROM stock_fundamentals WHERE security_id = 'KR:005930' AND as_of_date <= %s "
        "ORDER BY as_of_date DESC LIMIT 1", (ctx.as_of_date,), pool=pg_pool)[0]["eps"]  # fmt: skip
    assert quarter["period"] in resp.key_points[0]
    assert f"실제 {float(quarter['eps_actual']):,.2f}" in resp.key_points[0]
    assert any(f"EPS {float(eps):,.0f}원" in p for p in resp.key_points)


def test_a_sector_why_lists_the_fallers_with_its_news(ctx: RunContext, pg_pool: Any) -> None:
    """'반도체주 왜 떨어졌어?': the sector's worst returns first, then the sector's news events
    (documents that exist); '은행주 왜 올랐어?' states the premise when the average fell."""
    resp = equity_agent(_framed("반도체주 왜 떨어졌어", ctx), ctx)
    head = resp.key_points[0]
    assert "수익률 하위" in head
    returns = [float(r) for r in re.findall(r" ([+-]\d+\.\d+)%", head.split(": ", 1)[1])[:-1]]
    assert returns == sorted(returns)
    assert resp.citations and any("근거 이벤트" in p for p in resp.key_points)
    for point in (p for p in resp.key_points if p.startswith("근거 이벤트")):
        said = re.search(r"조회 구간 (\d{4}-\d{2}-\d{2}) 이전의 이벤트", point)
        assert said is None or point.split()[2] < said[1]  # an older event is said to be older
    _contract(resp, ctx)
    _documents_exist(resp, pg_pool)
    banks = equity_agent(_framed("은행주 왜 올랐어", ctx), ctx)
    average = float(re.search(r"업종 평균 ([+-]\d+\.\d+)%", " ".join(banks.key_points))[1])
    assert ("질문과 달리" in banks.key_points[0]) == (average < 0)


def test_deal_count_over_the_window_asked(ctx: RunContext, pg_pool: Any) -> None:
    """'강남구 최근 1개월 거래 건수' and '…한달간 몇 건?': the deals after as-of minus a month, up to
    as-of (SQL); '지난달' keeps the last calendar month's count."""
    n = fetch_all(
        "SELECT count(*) AS n FROM re_transactions WHERE region = '서울 강남구' AND deal_date > "
        "%s::date - interval '1 month' AND deal_date <= %s", (ctx.as_of_date, ctx.as_of_date),
        pool=pg_pool)[0]["n"]  # fmt: skip
    for question in ("강남구 최근 1개월 거래 건수", "강남구 아파트 매매 한달간 몇 건?"):
        resp = real_estate_agent(_framed(question, ctx), ctx)
        assert f"아파트 실거래 {n:,}건." in resp.key_points[0], question
    last = real_estate_agent(_framed("강남구 지난달 아파트 거래량", ctx), ctx)
    assert "실거래 건수" in last.key_points[0]


def test_defining_a_term_we_hold_no_data_for(pg_pool: Any, graph_store: Any) -> None:
    """'신용 스프레드가 뭐야': defined from the glossary (which says no series is held), not
    refused as a data question."""
    answer = answer_question("신용 스프레드가 뭐야", pool=pg_pool, store=graph_store)
    assert not answer.payload["declined"] and "회사채 금리가 국채 금리보다" in answer.answer


def test_a_company_we_do_not_hold_is_not_a_held_one_by_prefix(
    pg_pool: Any, graph_store: Any
) -> None:
    """'SK디스커버리 주가', '카카오모빌리티 주가' are declined (not SK's or 카카오's price); '삼성전자의
    주가' is still 삼성전자."""
    for question in ("SK디스커버리 주가", "카카오모빌리티 주가", "한화투자증권 주가"):
        answer = answer_question(question, pool=pg_pool, store=graph_store)
        assert answer.payload["declined"], question
    held = answer_question("삼성전자의 주가", pool=pg_pool, store=graph_store)
    assert "삼성전자(005930) 종가" in held.answer and not held.payload["declined"]


def test_a_company_we_do_not_hold_is_declined_not_answered_as_the_market(
    pg_pool: Any, graph_store: Any
) -> None:
    """'쿠팡 왜 떨어졌어?' had been answered with the FOMC events, 'SK 에너지 주가' with the energy
    sector, 'SK에너지 실적' with SK's price: each is declined and routed as the stock question it
    is. Beside a held stock, the unheld one is said and the held one answered (partial)."""
    for question in ("쿠팡 왜 떨어졌어?", "Why did Coupang drop?", "SK 에너지 주가", "SK에너지 실적",
                     "How did Coupang do last month?"):  # fmt: skip
        answer = answer_question(question, pool=pg_pool, store=graph_store)
        assert answer.payload["declined"], question
        assert answer.payload["route"]["target_agents"] == ["equity"], question
        assert "KR:034730" not in answer.answer and "FOMC" not in answer.answer, question
    both = answer_question("현대차와 토요타 주가 비교", pool=pg_pool, store=graph_store)
    assert both.status == "partial" and not both.payload["declined"]
    assert "현대차(005380) 종가" in both.answer and "토요타" in both.answer


def test_a_sale_price_index_is_the_index_not_the_deals(ctx: RunContext, pg_pool: Any) -> None:
    """'서울 아파트 매매가격지수': the house price index (its '매매가' is no deal price)."""
    resp = real_estate_agent(_framed("서울 아파트 매매가격지수", ctx), ctx)
    row = fetch_all("SELECT index_value FROM re_house_price_index WHERE region = '서울' AND month "
                    "<= %s ORDER BY month DESC LIMIT 1", (ctx.as_of_date,), pool=pg_pool)[0]  # fmt: skip
    assert (
        "주택가격지수" in resp.key_points[0]
        and f"{float(row['index_value']):.2f}" in resp.key_points[0]
    )


def test_a_definition_before_the_figures_asked_with_it(pg_pool: Any, graph_store: Any) -> None:
    """'스프레드가 뭐야? 지금 장단기 스프레드는 얼마야?': the glossary's definition (cited) and the
    10y − 2y gap from SQL, in that order."""
    answer = answer_question("스프레드가 뭐야? 지금 장단기 스프레드는 얼마야?", pool=pg_pool,
                             store=graph_store)  # fmt: skip
    gap = fetch_all(
        "SELECT (SELECT value FROM macro_observations WHERE series_code = 'DGS10' ORDER BY "
        "obs_date DESC LIMIT 1) - (SELECT value FROM macro_observations WHERE series_code = "
        "'DGS2' ORDER BY obs_date DESC LIMIT 1) AS gap", pool=pg_pool)[0]["gap"]  # fmt: skip
    text = answer.answer
    assert "두 가격이나 금리의 차이" in text and f"{float(gap):+.2f}%p" in text
    assert text.index("두 가격이나 금리의 차이") < text.index(f"{float(gap):+.2f}%p")
    assert any(c.doc_id == "glossary:spread" for c in answer.citations)


def test_the_dearest_deal_of_a_district(ctx: RunContext, pg_pool: Any) -> None:
    """'송파구 최고가 아파트': the district's highest deal over the year (SQL), not its price
    index's peak; 'cheap' words in a housing question are no ETF fee."""
    resp = real_estate_agent(_framed("송파구 최고가 아파트", ctx), ctx)
    row = fetch_all("SELECT price_krw FROM re_transactions WHERE region = '서울 송파구' AND "
                    "deal_date > %s::date - interval '1 year' AND deal_date <= %s ORDER BY "
                    "price_krw DESC LIMIT 1", (ctx.as_of_date, ctx.as_of_date), pool=pg_pool)[0]  # fmt: skip
    assert f"실거래 최고가: {fmt_krw(float(row['price_krw']), '만')}" in resp.key_points[0]
    assert not [m for m in _framed("강남구 제일 비싼 아파트 거래", ctx).frame.measures
                if m.name == "expense_ratio"]  # fmt: skip


def test_the_wons_value_moves_against_won_per_dollar(pg_pool: Any, graph_store: Any) -> None:
    """'원화 가치 왜 올랐어?' when won per dollar rose over the window: the won fell, said in the
    question's terms (it had been checked against won per dollar, the wrong way round)."""
    answer = answer_question("원화 가치 왜 올랐어?", pool=pg_pool, store=graph_store)
    said = re.search(r"질문과 달리 원화 가치는 (\S+) ~ (\S+) 동안 (하락|상승)", answer.answer)
    plain = answer_question("원달러 환율 왜 떨어졌어?", pool=pg_pool, store=graph_store)
    # both ask for a stronger won over the same default window: the premises fail together
    assert bool(said) == ("질문과 달리 원/달러 환율" in plain.answer)
    if said:
        sql = ("SELECT value FROM macro_observations WHERE series_code = 'KR_USDKRW' AND "
               "obs_date = %s ORDER BY as_of_date DESC LIMIT 1")  # fmt: skip
        first, last = (fetch_all(sql, (day,), pool=pg_pool)[0] for day in said.group(1, 2))
        assert (said.group(3) == "하락") == (last["value"] > first["value"])


def test_a_gap_is_also_said_in_words(pg_pool: Any, graph_store: Any) -> None:
    """'한국 미국 실업률 차이' is Korea − US (negative): the answer also says which is higher."""
    answer = answer_question("한국 미국 실업률 차이", pool=pg_pool, store=graph_store)
    us, kr = (fetch_all("SELECT value FROM macro_observations WHERE series_code = %s "
                        "ORDER BY obs_date DESC, as_of_date DESC LIMIT 1", (code,), pool=pg_pool)[0]["value"]
              for code in ("UNRATE", "KR_UNEMPLOYMENT"))  # fmt: skip
    higher = "미국 실업률이" if us > kr else "한국 실업률(계절조정)이"
    assert (
        f"{higher}" in answer.answer
        and f"{abs(float(us) - float(kr)):,.2f}%p 높습니다" in answer.answer
    )


@pytest.mark.parametrize(("question", "first", "second"), [
    ("한국 대비 미국 실업률 차이", "UNRATE", "KR_UNEMPLOYMENT"),
    ("한국 실업률은 미국보다 몇 %p 낮아?", "KR_UNEMPLOYMENT", "UNRATE"),
    ("How far is the Fed funds rate above the BOK rate?", "FEDFUNDS", "KR_BASE_RATE"),
    ("한국 대비 미국 금리 차", "FEDFUNDS", "KR_BASE_RATE"),
])  # fmt: skip
def test_a_gap_is_measured_from_the_side_the_question_names(
    pg_pool: Any, graph_store: Any, question: str, first: str, second: str
) -> None:
    """'B 대비 A', 'A는 B보다', 'A above B': A − B (SQL), whatever order the names come in."""
    a, b = (float(fetch_all("SELECT value FROM macro_observations WHERE series_code = %s "
                            "ORDER BY obs_date DESC, as_of_date DESC LIMIT 1", (code,),
                            pool=pg_pool)[0]["value"]) for code in (first, second))  # fmt: skip
    answer = answer_question(question, pool=pg_pool, store=graph_store)
    gap = next(line for line in answer.answer.splitlines() if "격차" in line or "Gap" in line)
    assert f"{a - b:+,.2f}%p" in gap, gap


def test_a_month_over_month_change_of_a_level_gives_its_move_too(
    pg_pool: Any, graph_store: Any
) -> None:
    """'원달러 환율 전월 대비': the rate and the move in won (SQL), not the rate alone."""
    rows = fetch_all("SELECT obs_date, value FROM macro_observations WHERE series_code = "
                     "'KR_USDKRW' ORDER BY obs_date DESC, as_of_date DESC", pool=pg_pool)  # fmt: skip
    latest = rows[0]
    base = next(r for r in rows if r["obs_date"] <= latest["obs_date"] - relativedelta(months=1))
    answer = answer_question("원달러 환율 전월 대비", pool=pg_pool, store=graph_store)
    assert f"({float(latest['value']) - float(base['value']):+,.2f})" in answer.answer


def test_a_fall_from_the_high_is_the_distance_from_it(pg_pool: Any, graph_store: Any) -> None:
    """'삼성전자 고점 대비 얼마나 빠졌어?' asks the latest close against the window's highest
    close (SQL), not whether the stock fell over the year (which it had 'contradicted')."""
    rows = fetch_all("SELECT trade_date, close FROM stock_prices WHERE security_id = 'KR:005930' "
                     "ORDER BY trade_date", pool=pg_pool)  # fmt: skip
    last = rows[-1]
    start = last["trade_date"] - relativedelta(years=1)
    high = max(float(r["close"]) for r in rows if r["trade_date"] >= start)
    answer = answer_question("삼성전자 고점 대비 얼마나 빠졌어?", pool=pg_pool, store=graph_store)
    close = float(last["close"])  # the difference in won, then the ratio
    assert f"그 대비 {close - high:+,.0f}원 ({(close / high - 1) * 100:+.2f}%)" in answer.answer
    assert "질문과 달리" not in answer.answer


def test_an_english_answer_names_the_series_in_english(pg_pool: Any, graph_store: Any) -> None:
    """'US vs Korea unemployment gap' had read 'Gap (미국 실업률 − 한국 실업률(계절조정))'."""
    answer = answer_question("US vs Korea unemployment gap", pool=pg_pool, store=graph_store)
    lines = [x for x in answer.answer.splitlines() if x.startswith("- ")]
    assert lines and not any(re.search(r"[가-힣]", x) for x in lines), lines
    assert "US unemployment rate is" in answer.answer


def test_indices_are_the_ones_named(pg_pool: Any, graph_store: Any) -> None:
    """'코스피200', '나스닥100' are not the KOSPI or the Nasdaq Composite (their tracking ETFs stand
    in, said); '미국 증시' is the S&P 500; '닛케이' is an index we do not hold, routed to Equity."""
    k200 = answer_question("코스피200 지수 최근 한 달", pool=pg_pool, store=graph_store)
    assert "^KS11" not in k200.answer and "KODEX 200(069500)" in k200.answer
    ndx = answer_question("나스닥100 지수 추이", pool=pg_pool, store=graph_store)
    assert "^IXIC" not in ndx.answer and "(133690)" in ndx.answer
    us = answer_question("미국 증시 요즘 어때?", pool=pg_pool, store=graph_store)
    assert "S&P 500" in us.answer  # by its name; the citation holds the series read
    assert [c.filters.get("code") for c in us.structured_citations] == ["^GSPC"]
    nikkei = answer_question("닛케이 지수 어때?", pool=pg_pool, store=graph_store)
    assert nikkei.payload["declined"] and "'닛케이'" in nikkei.answer
    assert nikkei.payload["route"]["target_agents"] == ["equity"]


def test_an_index_volatility_is_computed(pg_pool: Any, graph_store: Any) -> None:
    """'S&P500 변동성': stdev of the year's daily returns × √252 (computed here from SQL)."""
    rows = fetch_all("SELECT trade_date, close FROM market_series_prices WHERE series_code = "
                     "'^GSPC' ORDER BY trade_date", pool=pg_pool)  # fmt: skip
    sigma = window_volatility_pct(rows, relativedelta(years=1))
    answer = answer_question("S&P500 변동성", pool=pg_pool, store=graph_store)
    assert f"연환산 변동성: {sigma:.2f}%" in answer.answer


def test_inversion_volatility_and_which_is_higher(pg_pool: Any, graph_store: Any) -> None:
    """'역전된 적 있어?' counts the days the 10y−2y gap was below zero (SQL), with the window's
    low when there were none; '3개월 변동성' of won per dollar is computed; 'which is higher'
    is a gap; 'Which Seoul district had the most deals' ranks districts."""
    rows = fetch_all(
        "SELECT a.obs_date, a.value - b.value AS gap FROM macro_observations a JOIN "
        "macro_observations b ON b.obs_date = a.obs_date AND b.series_code = 'DGS2' WHERE "
        "a.series_code = 'DGS10' ORDER BY a.obs_date", pool=pg_pool)  # fmt: skip
    last = rows[-1]["obs_date"]
    window = [r for r in rows if r["obs_date"] >= last - relativedelta(years=1)]
    below = [r for r in window if float(r["gap"]) < 0]
    text = answer_question("장단기 금리차 최근 1년 역전된 적 있어?", pool=pg_pool,
                           store=graph_store).answer  # fmt: skip
    if below:
        assert f"+0.00%p 미만: {len(below)}일" in text  # a gap of two rates, in %p
    else:
        low = min(window, key=lambda r: float(r["gap"]))
        assert "+0.00%p 미만: 없음." in text and f"최저치: {float(low['gap']):+.2f}%p" in text
    vol = answer_question("원달러 환율 3개월 변동성", pool=pg_pool, store=graph_store).answer
    assert "연환산 변동성" in vol
    gap = answer_question("Which is higher, US or Korean unemployment?", pool=pg_pool,
                          store=graph_store).answer  # fmt: skip
    assert "Gap (" in gap and "%p above" in gap
    deals = answer_question("Which Seoul district had the most apartment deals last month?",
                            pool=pg_pool, store=graph_store).answer  # fmt: skip
    assert "Regions by apartment deal count" in deals and "): 서울 " in deals  # 서울's districts
    assert "high (" not in deals


def test_follow_ups_of_two_countries_and_a_gap_of_price_indices(
    pg_pool: Any, graph_store: Any
) -> None:
    """'미국 CPI 최근 추이' → '전년 대비로는?' → '한국은?' → '둘 차이는?' is the gap of the two
    YoY rates (SQL), not of index levels with different bases; "what's the gap?" after two
    unemployment rates is their gap, not a definition."""
    from agents.understanding.history import history_after

    history: list[Any] = []
    for q in ("미국 CPI 최근 추이", "전년 대비로는?", "한국은?", "둘 차이는?"):
        answer = answer_question(q, history=history, pool=pg_pool, store=graph_store)
        history = history_after(history, q, answer)

    def yoy(code: str) -> float:
        rows = fetch_all("SELECT DISTINCT ON (obs_date) obs_date, value FROM macro_observations "
                         "WHERE series_code = %s ORDER BY obs_date DESC, as_of_date DESC LIMIT 13",
                         (code,), pool=pg_pool)  # fmt: skip
        return (float(rows[0]["value"]) / float(rows[12]["value"]) - 1) * 100

    assert f"{yoy('CPIAUCSL') - yoy('KR_CPI'):+.2f}%p" in answer.answer
    history = []
    for q in ("US unemployment rate", "and Korea?", "what's the gap?"):
        answer = answer_question(q, history=history, pool=pg_pool, store=graph_store)
        history = history_after(history, q, answer)
    assert "Gap (" in answer.answer and not answer.payload["declined"]


def test_an_english_housing_answer_names_the_region_in_english(
    pg_pool: Any, graph_store: Any
) -> None:
    """'Seoul apartment prices year over year' had read '서울 주택가격지수 year over year'."""
    answer = answer_question("Seoul apartment prices year over year", pool=pg_pool,
                             store=graph_store)  # fmt: skip
    assert "Seoul house price index year over year" in answer.answer


def test_what_happened_then_reads_the_events_near_the_extremes_date(
    pg_pool: Any, graph_store: Any
) -> None:
    """'원달러 환율 최근 1년 최고치' → '그때 무슨 일 있었어?': the events (graph) affecting the
    won within two weeks of the day the high was reached (that day from SQL), each with its
    distance in days — not the latest events."""
    from agents.understanding.history import history_after

    first = "원달러 환율 최근 1년 최고치"
    before = answer_question(first, pool=pg_pool, store=graph_store)
    then = answer_question("그때 무슨 일 있었어?", pool=pg_pool, store=graph_store,
                           history=history_after([], first, before))  # fmt: skip
    high = fetch_all(
        "WITH last AS (SELECT max(obs_date) AS d FROM macro_observations WHERE series_code = "
        "'KR_USDKRW') SELECT obs_date FROM macro_observations, last WHERE series_code = "
        "'KR_USDKRW' AND obs_date >= (last.d - interval '12 months')::date "
        "ORDER BY value DESC, obs_date LIMIT 1", pool=pg_pool)[0]["obs_date"]  # fmt: skip
    near = fetch_all(
        "SELECT DISTINCT e.event_date, e.title FROM events e JOIN evidence v USING (event_id) "
        "WHERE v.indicator_code = 'KR_USDKRW' AND abs(e.event_date - %s::date) <= 14",
        (high,), pool=pg_pool)  # fmt: skip
    assert f"{high.isoformat()} 전후" in then.answer, then.answer
    listed = re.findall(r"근거 이벤트 (\d{4}-\d{2}-\d{2}) ", then.answer)
    assert listed and set(listed) <= {r["event_date"].isoformat() for r in near}, listed
    assert all(re.search(r"\((\d+일 [전후]|당일)\)", line)
               for line in then.answer.splitlines() if line.startswith("- 근거 이벤트"))  # fmt: skip


def test_a_gaps_low_is_in_percentage_points_with_its_date(pg_pool: Any, graph_store: Any) -> None:
    """'장단기 금리차 최근 1년 최저치': the lowest DGS10 − DGS2 of the days both were observed
    (SQL), written in %p with its date, and the latest gap's distance from it in %p."""
    row = fetch_all(
        "WITH a AS (SELECT obs_date, value FROM macro_observations WHERE series_code = 'DGS10'), "
        "b AS (SELECT obs_date, value FROM macro_observations WHERE series_code = 'DGS2'), "
        "g AS (SELECT a.obs_date, a.value - b.value AS gap FROM a JOIN b USING (obs_date)), "
        "l AS (SELECT max(obs_date) AS d FROM g) SELECT obs_date, gap FROM g, l "
        "WHERE obs_date >= (l.d - interval '12 months')::date ORDER BY gap, obs_date LIMIT 1",
        pool=pg_pool)[0]  # fmt: skip
    answer = answer_question("장단기 금리차 최근 1년 최저치", pool=pg_pool, store=graph_store)
    assert f"최저치: {float(row['gap']):+.2f}%p ({row['obs_date'].isoformat()})" in answer.answer, (
        answer.answer
    )
    assert re.search(r"그 대비 [+-]\d+\.\d{2}%p", answer.answer)


def test_a_months_average_is_that_months_days(pg_pool: Any, graph_store: Any) -> None:
    """'원달러 환율 10월 평균' is the mean of October's observations (SQL) — it was the mean of
    the twelve months up to the end of October."""
    row = fetch_all(
        "WITH m AS (SELECT date_trunc('month', max(obs_date)) AS latest FROM macro_observations "
        "WHERE series_code = 'KR_USDKRW' AND extract(month FROM obs_date) = 10) "
        "SELECT avg(value) AS v, count(*) AS n, to_char(min(m.latest), 'YYYY-MM') AS month "
        "FROM macro_observations, m WHERE series_code = 'KR_USDKRW' "
        "AND date_trunc('month', obs_date) = m.latest", pool=pg_pool)[0]  # fmt: skip
    answer = answer_question("원달러 환율 10월 평균", pool=pg_pool, store=graph_store).answer
    assert (
        f"{row['month']}(" in answer
        and f"관측치 {row['n']}개) 평균: {float(row['v']):,.2f}" in answer
    ), answer
