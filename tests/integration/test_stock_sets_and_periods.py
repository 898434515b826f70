"""Fresh rounds r110–r115 (issue 31), through the real screens offline on the embedded stores:
a ranking or a bar over stocks with no stock named, several bars at once, the sector of the stock
talked about, a quarter said with '지난', a price index's rate over a span and on another series'
extreme month, a start of a period that fell on a holiday, and an English name said short. Each
of these answered another question with status ok (or declined) before. Truth is SQL here."""

from __future__ import annotations

from typing import Any

import pytest

from agents.macro.service import answer_question as macro_answer
from agents.stock.question import answer_stock_question
from agents.understanding.history import history_after
from data_access.config import Settings
from data_access.contracts import AgentAnswer
from data_access.postgres import fetch_all
from tests.conversations import chain

pytestmark = pytest.mark.usefixtures("demo_data")

# each KR stock's last snapshot and close on or before the data's last session
_LATEST = """SELECT s.code, s.name, s.sector, f.pe, f.pb, f.dividend_yield FROM stocks s
JOIN LATERAL (SELECT pe, pb, dividend_yield FROM stock_fundamentals WHERE security_id =
  s.security_id AND as_of_date <= %(day)s ORDER BY as_of_date DESC LIMIT 1) f ON true
WHERE s.country = 'KR' AND NOT s.is_etf"""


def _day(pool: Any) -> str:
    return str(fetch_all("SELECT max(trade_date) AS d FROM stock_prices", None, pool)[0]["d"])


def _stock(question: str, pool: Any, history: list[Any] | None = None) -> AgentAnswer:
    answer = answer_stock_question(question, pool=pool, history=history or [])
    assert answer is not None, question
    return answer


def test_a_bar_over_every_stock_and_several_bars_at_once(pg_pool: Any) -> None:
    """'배당수익률 5% 넘는 종목 몇 개' was 'unknown stock'; '… PER 10배 미만이면서 배당수익률 5%
    넘는 종목' listed the PER bar alone; 'ROE 15% 넘는 은행주' said no stock was named."""
    rows = fetch_all(_LATEST, {"day": _day(pg_pool)}, pg_pool)
    over = [r for r in rows if r["dividend_yield"] is not None and float(r["dividend_yield"]) > 5]
    both = [r for r in over if r["pe"] is not None and 0 < float(r["pe"]) < 10]
    assert 0 < len(both) < len(over)  # the second bar keeps fewer
    counted = _stock("배당수익률 5% 넘는 종목 몇 개", pg_pool)
    assert counted.status == "ok" and f"종목 중 {len(over)}종목" in counted.answer
    kept = _stock("PER 10배 미만이면서 배당수익률 5% 넘는 종목", pg_pool)
    line = next(x for x in kept.answer.splitlines() if x.startswith("- 국내"))
    assert "PER 10.00배 미만 · 배당수익률 5.00% 초과" in line and f"중 {len(both)}종목" in line
    dropped = next(r for r in over if r not in both)
    assert str(dropped["name"]) not in line
    roe = _stock("ROE 15% 넘는 은행주", pg_pool)
    assert roe.status != "ok" and "'ROE'" in roe.answer


def test_the_sector_of_the_stock_talked_about_is_ranked(pg_pool: Any) -> None:
    """'현대차 PER' → '업종 평균은?' → '그 업종에서 제일 낮은 종목은?' repeated the yes/no of
    현대차 against the mean (the question's own '제일 낮은' was overwritten by the last turn's)."""
    rows = fetch_all(_LATEST, {"day": _day(pg_pool)}, pg_pool)
    sector = next(r["sector"] for r in rows if r["code"] == "005380")
    lowest = min((r for r in rows if r["sector"] == sector and r["pe"] and float(r["pe"]) > 0),
                 key=lambda r: float(r["pe"]))  # fmt: skip
    history: list[Any] = []
    for turn in ("현대차 PER", "업종 평균은?"):
        history = history_after(history, turn, _stock(turn, pg_pool, history))
    ranked = _stock("그 업종에서 제일 낮은 종목은?", pg_pool, history)
    assert ranked.status == "ok" and f"{sector} 업종 PER 낮은 순" in ranked.answer
    assert f"1. {lowest['name']} {float(lowest['pe']):,.2f}배" in ranked.answer


def test_quarters_and_a_price_indexs_rate(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'지난 2분기 평균' was the last six months; '작년 12월 소비자물가 상승률' said '소비자' unread
    and gave the month's change; '실업률이 가장 높았던 달의 기준금리는?' gave the latest rate."""
    q2 = fetch_all("SELECT avg(value) AS a FROM macro_observations WHERE series_code = 'DGS10' "
                   "AND obs_date BETWEEN '2026-04-01' AND '2026-06-30'", None, pg_pool)[0]["a"]  # fmt: skip
    quarter = macro_answer("미국 10년물 금리 지난 2분기 평균", settings=offline, store=graph_store,
                           pool=pg_pool)  # fmt: skip
    assert "2026년 2분기(2026-04-01 ~ 2026-06-30" in quarter.answer
    assert f"평균: {float(q2):,.2f}%" in quarter.answer
    cpi = {str(r["obs_date"]): float(r["value"]) for r in fetch_all(
        "SELECT obs_date, value FROM macro_observations WHERE series_code = 'KR_CPI' AND obs_date "
        "IN ('2024-12-01', '2025-12-01')", None, pg_pool)}  # fmt: skip
    rate = (cpi["2025-12-01"] / cpi["2024-12-01"] - 1) * 100
    december = macro_answer("작년 12월 소비자물가 상승률", settings=offline, store=graph_store,
                            pool=pg_pool)  # fmt: skip
    assert december.status == "ok" and "소비자" not in december.answer.split("\n")[0]
    assert f"한국 소비자물가지수 상승률(전년 동월 대비) 2025-12: {rate:,.2f}%" in december.answer
    peak = fetch_all(
        "SELECT obs_date FROM macro_observations WHERE series_code = 'KR_UNEMPLOYMENT' AND "
        "obs_date > (SELECT max(obs_date) FROM macro_observations WHERE series_code = "
        "'KR_UNEMPLOYMENT') - interval '12 months' ORDER BY value DESC, obs_date LIMIT 1",
        None, pg_pool)[0]["obs_date"]  # fmt: skip
    base = fetch_all("SELECT value FROM macro_observations WHERE series_code = 'KR_BASE_RATE' AND "
                     "obs_date <= %(d)s ORDER BY obs_date DESC LIMIT 1", {"d": peak}, pg_pool)  # fmt: skip
    then = macro_answer("실업률이 가장 높았던 달의 기준금리는?", settings=offline,
                        store=graph_store, pool=pg_pool)  # fmt: skip
    assert then.status == "ok"
    assert f"({peak}) 시점의 한국은행 기준금리: {float(base[0]['value']):,.2f}%" in then.answer


def test_a_closed_year_start_and_a_short_english_name(pg_pool: Any) -> None:
    """'LG화학 연초 종가' gave the last close of the year before (1 January is closed: the start
    of a year is its first session); 'KB Financial dividend yield' was an unknown stock."""
    year = _day(pg_pool)[:4]
    first = fetch_all("SELECT trade_date, close FROM stock_prices WHERE security_id = 'KR:051910' "
                      "AND trade_date >= %(y)s ORDER BY trade_date LIMIT 1", {"y": f"{year}-01-01"},
                      pg_pool)[0]  # fmt: skip
    start = _stock("LG화학 연초 종가", pg_pool)
    assert f"종가 {float(first['close']):,.0f}원 ({first['trade_date']})" in start.answer
    dividend = fetch_all(_LATEST + " AND s.code = '105560'", {"day": _day(pg_pool)}, pg_pool)[0]
    short = _stock("KB Financial dividend yield", pg_pool)
    assert short.status == "ok" and "KB금융 (105560)" in short.answer
    assert f"{float(dividend['dividend_yield']):.2f}%" in short.answer


def test_a_drawdown_over_a_year_named_and_an_extreme_said_as_a_noun(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'SK하이닉스 올해 최대 낙폭' and '코스피 올해 최대 낙폭' were over the last twelve months;
    'VIX 최근 1년 최고치였던 날 코스피 수익률' gave the VIX's high alone (partial)."""
    year = _day(pg_pool)[:4]

    def deepest(rows: list[dict[str, Any]]) -> float:
        high, worst = 0.0, 0.0
        for r in rows:
            high = max(high, float(r["v"]))
            worst = min(worst, float(r["v"]) / high - 1)
        return worst * 100

    stock = fetch_all("SELECT close AS v FROM stock_prices WHERE security_id = 'KR:000660' AND "
                      "trade_date >= %(y)s ORDER BY trade_date", {"y": f"{year}-01-01"}, pg_pool)  # fmt: skip
    own = _stock("SK하이닉스 올해 최대 낙폭", pg_pool)
    assert f"SK하이닉스 종가 {year}년(" in own.answer  # the span's own closes (lead's decision)
    assert f"최대 낙폭: {deepest(stock):.2f}%" in own.answer
    kospi = fetch_all("SELECT close AS v FROM market_series_prices WHERE series_code = '^KS11' "
                      "AND trade_date >= %(y)s ORDER BY trade_date", {"y": f"{year}-01-01"},
                      pg_pool)  # fmt: skip
    index = macro_answer("코스피 올해 최대 낙폭", settings=offline, store=graph_store, pool=pg_pool)
    assert (
        f"코스피 {year}년(" in index.answer and f"최대 낙폭: {deepest(kospi):.2f}%" in index.answer
    )
    peak = fetch_all(
        "SELECT obs_date FROM macro_observations WHERE series_code = 'VIXCLS' AND obs_date > "
        "(SELECT max(obs_date) FROM macro_observations WHERE series_code = 'VIXCLS') - interval "
        "'12 months' ORDER BY value DESC, obs_date LIMIT 1", None, pg_pool)[0]["obs_date"]  # fmt: skip
    then = macro_answer("VIX 최근 1년 최고치였던 날 코스피 수익률", settings=offline,
                        store=graph_store, pool=pg_pool)  # fmt: skip
    assert then.status == "ok" and f"({peak}) 시점의 코스피 일간 수익률" in then.answer


def test_a_fund_name_we_do_not_hold_and_a_top_n_of_every_stock(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'TIGER 차이나전기차 순자산' listed every TIGER fund (partial, '차이나' unread); '시가총액
    상위 5개 종목 평균 PBR' was an unknown stock."""
    from agents.etf.service import answer_question as etf_answer

    fund = etf_answer(
        "TIGER 차이나전기차 순자산", settings=offline, store=graph_store, pool=pg_pool
    )
    assert fund.status != "ok" and "'TIGER 차이나전기차'" in fund.answer
    assert "TIGER 200" not in fund.answer  # not the house's funds
    rows = fetch_all(
        "SELECT f.pb FROM stocks s JOIN LATERAL (SELECT pb, market_cap FROM stock_fundamentals WHERE "
        "security_id = s.security_id AND as_of_date <= %(day)s ORDER BY as_of_date DESC LIMIT 1) f "
        "ON true WHERE s.country = 'KR' AND NOT s.is_etf AND f.market_cap IS NOT NULL "
        "ORDER BY f.market_cap DESC LIMIT 5", {"day": _day(pg_pool)}, pg_pool)  # fmt: skip
    mean = sum(float(r["pb"]) for r in rows) / len(rows)
    top = _stock("시가총액 상위 5개 종목 평균 PBR", pg_pool)
    assert top.status == "ok" and "국내 전체 종목 시가총액 상위 5개 종목의 PBR" in top.answer
    assert f"평균 {mean:,.2f}배" in top.answer


def test_several_periods_of_one_return(pg_pool: Any) -> None:
    """'삼성전자 1개월 3개월 1년 수익률' gave the 1-month return with '3개월', '1년' unread."""
    answer = _stock("삼성전자 1개월 3개월 1년 수익률", pg_pool)
    assert answer.status == "ok" and "읽지 못해" not in answer.answer
    for label, back in (("1개월", "1 month"), ("3개월", "3 months"), ("1년", "1 year")):
        ratio = fetch_all(
            "SELECT (SELECT close FROM stock_prices WHERE security_id = 'KR:005930' ORDER BY "
            "trade_date DESC LIMIT 1) / (SELECT close FROM stock_prices WHERE security_id = "
            "'KR:005930' AND trade_date <= (SELECT max(trade_date) FROM stock_prices WHERE "
            "security_id = 'KR:005930') - %(b)s::interval ORDER BY trade_date DESC LIMIT 1) AS r",
            {"b": back}, pg_pool)[0]["r"]  # fmt: skip
        assert f"{label} 수익률 {(float(ratio) - 1) * 100:+.2f}%" in answer.answer


def test_follow_ups_that_pick_or_set_then_against_now(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'한국 CPI' → '미국은?' → '둘 중 높은 건?' showed both levels and picked none; '… 그날
    코스피는?' → '지금 코스피는 그때보다 높아?' said '그때' unread; '미분양 전월보다 늘어난 지역'
    ranked the year's change ('전월보다' was no basis)."""

    def yoy(code: str) -> float:
        rows = fetch_all("SELECT value FROM macro_observations WHERE series_code = %(c)s ORDER BY "
                         "obs_date DESC LIMIT 13", {"c": code}, pg_pool)  # fmt: skip
        return (float(rows[0]["value"]) / float(rows[12]["value"]) - 1) * 100

    picked = chain(macro_answer, ["한국 CPI", "미국은?", "둘 중 높은 건?"], settings=offline,
                   store=graph_store, pool=pg_pool)  # fmt: skip
    higher = (  # the pick, said of the rates (a gap of two price indices is of their rates)
        "한국 소비자물가지수 상승률(전년 동월 대비)가"
        if yoy("KR_CPI") > yoy("CPIAUCSL")
        else "미국 소비자물가지수(CPI-U) 상승률(전년 동월 대비)가"
    )
    assert picked.status == "ok" and higher in picked.answer.split("\n- ")[1]
    now = chain(macro_answer, ["VIX 최근 1년 최고치", "그날 코스피는?", "지금 코스피는 그때보다 높아?"],
                settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    last = fetch_all("SELECT close FROM market_series_prices WHERE series_code = '^KS11' ORDER BY "
                     "trade_date DESC LIMIT 1", None, pg_pool)[0]["close"]  # fmt: skip
    assert now.status == "ok" and f"지금 {float(last):,.2f}" in now.answer
    months = fetch_all("SELECT DISTINCT month AS obs_date FROM re_unsold_housing ORDER BY month DESC "
                       "LIMIT 2", None, pg_pool)  # fmt: skip
    regions = macro_answer("미분양 전월보다 늘어난 지역", settings=offline, store=graph_store,
                           pool=pg_pool)  # fmt: skip
    assert (
        f"({str(months[1]['obs_date'])[:7]} → {str(months[0]['obs_date'])[:7]})" in regions.answer
    )
