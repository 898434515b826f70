"""Fresh round r140 (issue 31), through the real screens offline on the embedded stores: a group
the data's sectors do not split out ('보험주'), the shares a stock has listed, the deals of a
trailing window and two regions' window counts compared. Each answered another question with
status ok before. Truth is SQL here."""

from __future__ import annotations

import re
from typing import Any

import pytest

from agents.etf.service import answer_question as etf_answer
from agents.macro.service import answer_question as macro_answer
from agents.stock.question import answer_stock_question
from data_access.config import Settings
from data_access.postgres import fetch_all
from tests.conversations import chain

pytestmark = pytest.mark.usefixtures("demo_data")


def test_a_group_inside_a_sector_is_answered_over_the_sector_and_says_so(pg_pool: Any) -> None:
    """'배당수익률 가장 높은 보험주의 PER' was headed '보험 업종' and picked a bank, status ok."""
    answer = answer_stock_question("배당수익률 가장 높은 보험주의 PER", pool=pg_pool, history=[])
    assert answer is not None and answer.status == "partial"
    assert "'보험주'는 데이터의 업종 분류에 따로 없어 금융 업종 전체로 답했습니다" in answer.answer
    assert "보험 업종" not in answer.answer and "금융 업종" in answer.answer
    same = answer_stock_question("반도체주 평균 PER", pool=pg_pool, history=[])
    assert same is not None and same.status == "ok"  # a word the sectors hold is no caveat


def test_the_shares_listed_are_a_figure_of_the_stock(pg_pool: Any) -> None:
    """'Intel 상장주식수' gave the whole report ('상장', '주식', '수' each a known word), status ok."""
    row = fetch_all("SELECT code, name, shares_outstanding FROM stocks WHERE NOT is_etf AND "
                    "shares_outstanding > 0 ORDER BY code LIMIT 1", None, pg_pool)[0]  # fmt: skip
    answer = answer_stock_question(f"{row['name']} 발행주식수 몇 주야", pool=pg_pool, history=[])
    assert answer is not None and answer.status == "ok"
    assert f"상장주식수 {int(row['shares_outstanding']):,}주" in answer.answer
    assert any(c.table == "stocks" for c in answer.structured_citations)


def test_deals_of_a_trailing_window_and_two_regions_counts_compared(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'세종 아파트 실거래 최근 3개월 최고가' listed deals of four months; '서울과 인천의 최근 1년
    아파트 거래 건수 차이' gave the gap of their latest months' counts, status ok."""
    as_of = fetch_all("SELECT max(deal_date) AS d FROM re_transactions", None, pg_pool)[0]["d"]
    top = fetch_all(
        "SELECT price_krw, deal_date FROM re_transactions WHERE region = '세종' AND deal_date > "
        "%(d)s::date - interval '3 months' AND deal_date <= %(d)s ORDER BY price_krw DESC, "
        "deal_date LIMIT 3", {"d": as_of}, pg_pool)  # fmt: skip
    answer = macro_answer("세종 아파트 실거래 최근 3개월 최고가", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    line = next(x for x in answer.answer.splitlines() if "실거래 최고가" in x)
    assert all(str(r["deal_date"]) in line for r in top)
    oldest = min(r["deal_date"] for r in top)
    assert line.count("(20") == 3 and str(oldest) in line
    counts = fetch_all(  # a province holds its districts' deals ('서울 강남구')
        "SELECT count(*) FILTER (WHERE region LIKE '서울%%') AS a, count(*) FILTER (WHERE region "
        "LIKE '인천%%') AS b FROM re_transactions WHERE deal_date > %(d)s::date - interval "
        "'1 year' AND deal_date <= %(d)s", {"d": as_of}, pg_pool)[0]  # fmt: skip
    gap = macro_answer("서울과 인천의 최근 1년 아파트 거래 건수 차이", settings=offline,
                       store=graph_store, pool=pg_pool)  # fmt: skip
    a, b = counts["a"], counts["b"]
    assert f"{a:,}건 − {b:,}건 = {a - b:+,}건" in gap.answer


def test_regions_past_a_bar_then_ranked_and_this_year_said_short(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """r141: '미분양 5천호 넘는 지역 중 전세가율 가장 높은 곳' ranked the regions whose unsold
    homes rose (status ok); '올 상반기' left '올' unread; '직전 거래일 대비 등락률' gave a month;
    '금리 올 것 같아?' (오 + ᆯ, said for 오를) was answered with the rates' levels."""
    month = "(SELECT max(month) FROM re_unsold_housing)"
    past = {r["region"] for r in fetch_all(
        f"SELECT region FROM re_unsold_housing WHERE month = {month} AND units > 5000", None,
        pg_pool)}  # fmt: skip
    top = fetch_all(
        "SELECT region, ratio FROM re_jeonse_ratio WHERE month = (SELECT max(month) FROM "
        "re_jeonse_ratio) AND region = ANY(%(r)s) ORDER BY ratio DESC LIMIT 1",
        {"r": list(past)}, pg_pool)[0]  # fmt: skip
    picked = macro_answer("미분양 5천호 넘는 지역 중 전세가율 가장 높은 곳", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    assert picked.status == "ok" and "미분양 5,000호 초과 지역" in picked.answer
    assert f"전세가율 높은 순: {top['region']} {float(top['ratio']):.2f}%" in picked.answer
    short = macro_answer("올 상반기 한국 CPI 평균", settings=offline, store=graph_store,
                         pool=pg_pool)  # fmt: skip
    assert short.status == "ok" and "상반기(" in short.answer and "관측치 6개) 평균" in short.answer
    bars = fetch_all("SELECT close FROM stock_prices WHERE security_id = 'KR:005930' ORDER BY "
                     "trade_date DESC LIMIT 2", None, pg_pool)  # fmt: skip
    moved = (float(bars[0]["close"]) / float(bars[1]["close"]) - 1) * 100
    day = answer_stock_question("삼성전자 직전 거래일 대비 등락률", pool=pg_pool, history=[])
    assert day is not None and day.status == "ok" and f"1일 수익률 {moved:+.2f}%" in day.answer
    guess = macro_answer("금리 올 것 같아?", settings=offline, store=graph_store, pool=pg_pool)
    assert guess.status == "partial" and "예측" in guess.answer


def test_a_regions_pick_then_the_total_of_another_series(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """r140: '미분양 가장 많은 지역의 주택 인허가 최근 1년 합계' lost the pick to the total (the
    nation's permits, '가장 많' said unread)."""
    top = fetch_all(
        "SELECT region FROM re_unsold_housing WHERE month = (SELECT max(month) FROM "
        "re_unsold_housing) AND region <> '전국' ORDER BY units DESC LIMIT 1",
        None,
        pg_pool,
    )[0]["region"]
    total = fetch_all(
        "SELECT sum(units) AS n FROM re_permits WHERE region = %(r)s AND month > (SELECT "
        "max(month) FROM re_permits) - interval '12 months'", {"r": top}, pg_pool)[0]["n"]  # fmt: skip
    answer = macro_answer("미분양 가장 많은 지역의 주택 인허가 최근 1년 합계", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    assert answer.status == "ok"
    assert f"지역: {top} " in answer.answer and f"12개월 합계 {int(total):,}호" in answer.answer


def test_a_bar_then_an_order_over_the_stocks_that_meet_it(pg_pool: Any) -> None:
    """r142: 'PBR 0.5배 미만 종목 중 배당수익률 가장 높은 것' ranked every stock by P/B and by
    yield and applied no bar, status ok."""
    top = fetch_all(
        "SELECT s.name, f.dividend_yield FROM stocks s JOIN LATERAL (SELECT pb, dividend_yield "
        "FROM stock_fundamentals x WHERE x.security_id = s.security_id ORDER BY as_of_date DESC "
        "LIMIT 1) f ON true WHERE s.country = 'KR' AND NOT s.is_etf AND f.pb < 0.5 AND "
        "f.dividend_yield IS NOT NULL ORDER BY f.dividend_yield DESC LIMIT 1", None, pg_pool)[0]  # fmt: skip
    answer = answer_stock_question("PBR 0.5배 미만 종목 중 배당수익률 가장 높은 것", pool=pg_pool,
                                   history=[])  # fmt: skip
    assert answer is not None and answer.status == "ok"
    line = next(x for x in answer.answer.splitlines() if x.startswith("- 국내"))
    assert "PBR 0.50배 미만 배당수익률 높은 순" in line
    assert f"1. {top['name']} {float(top['dividend_yield']):.2f}%" in line


def test_a_day_of_last_month_a_carried_gap_and_a_pick_of_two_carried_regions(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """r143: '넷마블 지난달 15일 종가' listed fifteen sessions; '… 업종 평균보다 높아?' → '얼마나?'
    restated the figures without the gap; '광주 전세가율' → '대구는?' → '둘 중 높은 곳의 미분양은?'
    gave the unsold gap with '미분양' said unread. All status ok or partial answering another
    question."""
    row = fetch_all(
        "SELECT p.close, p.trade_date FROM stock_prices p JOIN stocks s USING (security_id) WHERE "
        "s.code = '005930' AND p.trade_date <= (date_trunc('month', (SELECT max(trade_date) FROM "
        "stock_prices WHERE security_id = 'KR:005930')) - interval '1 month' + interval '14 days')"
        " ORDER BY p.trade_date DESC LIMIT 1", None, pg_pool)[0]  # fmt: skip
    day = answer_stock_question("삼성전자 지난달 15일 종가", pool=pg_pool, history=[])
    assert (
        day is not None and f"종가 {float(row['close']):,.0f}원 ({row['trade_date']})" in day.answer
    )
    turns = ["기업은행 배당수익률", "업종 평균보다 높아?", "얼마나?"]
    gap = chain(lambda q, history: answer_stock_question(q, pool=pg_pool, history=history), turns)
    assert "%p 낮습니다" in gap.answer or "%p 높습니다" in gap.answer
    ratios = {r["region"]: float(r["ratio"]) for r in fetch_all(
        "SELECT region, ratio FROM re_jeonse_ratio WHERE month = (SELECT max(month) FROM "
        "re_jeonse_ratio) AND region IN ('광주', '대구')", None, pg_pool)}  # fmt: skip
    high = max(ratios, key=lambda r: ratios[r])
    unsold = fetch_all(
        "SELECT units FROM re_unsold_housing WHERE region = %(r)s ORDER BY month DESC LIMIT 1",
        {"r": high}, pg_pool)[0]["units"]  # fmt: skip
    turns = ["광주 전세가율", "대구는?", "둘 중 높은 곳의 미분양은?"]
    picked = chain(macro_answer, turns, settings=offline, store=graph_store, pool=pg_pool)
    assert picked.status == "ok"
    assert f"전세가율 더 높은 곳: {high} {ratios[high]:.2f}%" in picked.answer
    assert f"→ 미분양 {int(unsold):,}호" in picked.answer


def test_both_ends_of_the_regions_and_their_gap(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """r142: '전세가율 가장 높은 지역과 가장 낮은 지역의 차이' answered the nation's level and said
    no two series were found (partial)."""
    rows = fetch_all(
        "SELECT region, ratio FROM re_jeonse_ratio WHERE month = (SELECT max(month) FROM "
        "re_jeonse_ratio) AND region <> '전국' ORDER BY ratio DESC", None, pg_pool)  # fmt: skip
    high, low = rows[0], rows[-1]
    answer = macro_answer("전세가율 가장 높은 지역과 가장 낮은 지역의 차이", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    assert answer.status == "ok"
    gap = float(high["ratio"]) - float(low["ratio"])
    assert f"가장 높은 지역 {high['region']} {float(high['ratio']):.2f}%" in answer.answer
    assert f"가장 낮은 지역 {low['region']} {float(low['ratio']):.2f}%" in answer.answer
    assert f"= {gap:+.2f}%p" in answer.answer


def test_a_region_picked_by_its_growth_then_another_series(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """r144: '주택가격지수 1년 상승률 가장 높은 지역의 전세가율' picked the highest index level."""
    top = fetch_all(
        "SELECT a.region FROM re_house_price_index a JOIN re_house_price_index b ON b.region = "
        "a.region AND b.month = a.month - interval '12 months' WHERE a.month = (SELECT max(month) "
        "FROM re_house_price_index) AND a.region IN (SELECT region FROM re_jeonse_ratio) AND "
        "a.region <> '전국' ORDER BY a.index_value / b.index_value DESC LIMIT 1", None, pg_pool
    )[0]["region"]  # fmt: skip
    answer = macro_answer("주택가격지수 1년 상승률 가장 높은 지역의 전세가율", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    assert answer.status == "ok" and f"주택가격지수 상승률 가장 높은 지역: {top} +" in answer.answer


def test_a_group_of_regions_is_a_set_and_a_pick_by_a_rise(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """r145: '전세가율 70% 미만인 광역시' left '광역시' unread; '수도권 중 전세가율 가장 높은 곳'
    said '수치 근거 없음' (status ok); four regions named showed three; '미분양 가장 많이 늘어난
    지역의 전세가율' picked the most unsold homes, not the largest rise."""
    cities = ["부산", "대구", "인천", "광주", "대전", "울산"]
    latest = "(SELECT max(month) FROM re_jeonse_ratio)"
    below = fetch_all(f"SELECT region FROM re_jeonse_ratio WHERE month = {latest} AND region = "
                      "ANY(%(c)s) AND ratio < 70", {"c": cities}, pg_pool)  # fmt: skip
    barred = macro_answer("전세가율 70% 미만인 광역시", settings=offline, store=graph_store,
                          pool=pg_pool)  # fmt: skip
    assert barred.status == "ok" and f"{len(below)}곳 / 6곳" in barred.answer
    assert all(r["region"] in barred.answer for r in below)
    top = fetch_all(f"SELECT region FROM re_jeonse_ratio WHERE month = {latest} AND region IN "
                    "('서울', '인천', '경기') ORDER BY ratio DESC LIMIT 1", None, pg_pool)[0]  # fmt: skip
    ranked = macro_answer("수도권 중 전세가율 가장 높은 곳", settings=offline, store=graph_store,
                          pool=pg_pool)  # fmt: skip
    assert f"): {top['region']} " in ranked.answer and "수치 근거 없음" not in ranked.answer
    four = macro_answer("서울 부산 대구 인천 미분양", settings=offline, store=graph_store,
                        pool=pg_pool)  # fmt: skip
    assert all(f"- {r} 미분양" in four.answer for r in ("서울", "부산", "대구", "인천"))
    rose = fetch_all(
        "SELECT a.region FROM re_unsold_housing a JOIN re_unsold_housing b ON b.region = a.region "
        "AND b.month = a.month - interval '12 months' WHERE a.month = (SELECT max(month) FROM "
        "re_unsold_housing) AND a.region <> '전국' ORDER BY a.units - b.units DESC LIMIT 1", None,
        pg_pool)[0]["region"]  # fmt: skip
    picked = macro_answer("미분양 가장 많이 늘어난 지역의 전세가율", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    assert f"미분양 증가폭 가장 큰 지역: {rose} +" in picked.answer


def test_a_fund_said_by_its_korean_brand_and_the_start_of_its_name(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """r145: '코덱스 골드 선물 보수' said '선물' is not held and listed the house's gold funds
    (the short-name linker knew the brand only in Latin letters)."""
    row = fetch_all("SELECT name, expense_ratio FROM etfs WHERE name = 'KODEX 골드선물(H)'", None,
                    pg_pool)[0]  # fmt: skip
    answer = etf_answer("코덱스 골드 선물 보수", settings=offline, store=graph_store, pool=pg_pool)
    assert (
        answer.status == "ok"
        and f"'코덱스 골드 선물'을 {row['name']}로 읽었습니다" in answer.answer
    )
    assert f"연 {float(row['expense_ratio']):g}%" in answer.answer


def test_a_picks_growth_read_and_a_state_judged_is_declined(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """r146: '전세가율 가장 낮은 구의 주택가격지수 1년 상승률' read the index level; '집값 거품
    맞아?' showed the nation's index, status ok (a judgement the data cannot make)."""
    low = fetch_all(
        "SELECT region FROM re_jeonse_ratio WHERE month = (SELECT max(month) FROM re_jeonse_ratio)"
        " AND region LIKE '%% %%' ORDER BY ratio LIMIT 1", None, pg_pool)[0]["region"]  # fmt: skip
    a, b = (float(r["index_value"]) for r in fetch_all(
        "SELECT index_value FROM re_house_price_index WHERE region = %(r)s AND month IN ((SELECT "
        "max(month) FROM re_house_price_index), (SELECT max(month) FROM re_house_price_index) - "
        "interval '12 months') ORDER BY month", {"r": low}, pg_pool))  # fmt: skip
    answer = macro_answer("전세가율 가장 낮은 구의 주택가격지수 1년 상승률", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    assert f"지역: {low} " in answer.answer and f"상승률 {(b / a - 1) * 100:+.2f}%" in answer.answer
    judged = macro_answer("집값 거품 맞아?", settings=offline, store=graph_store, pool=pg_pool)
    assert judged.status == "partial" and "예측" in judged.answer


def test_regions_past_a_bar_then_the_mean_of_another_series(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """r146: '미분양 3천호 이상인 지역의 평균 전세가율' answered the nation's yes/no on both bars."""
    mean = fetch_all(
        "SELECT avg(j.ratio) AS m, count(*) AS n FROM re_jeonse_ratio j JOIN re_unsold_housing u "
        "ON u.region = j.region AND u.month = j.month WHERE j.month = (SELECT max(month) FROM "
        "re_jeonse_ratio) AND u.units >= 3000 AND j.region <> '전국'", None, pg_pool)[0]  # fmt: skip
    answer = macro_answer("미분양 3천호 이상인 지역의 평균 전세가율", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    assert answer.status == "ok"
    assert f"지역 {mean['n']}곳의 전세가율 평균: {float(mean['m']):.2f}%" in answer.answer


def test_two_places_of_an_order_then_the_gap_of_another_figure(pg_pool: Any) -> None:
    """r142: '시가총액 1위 반도체주와 2위 반도체주의 PER 차이' gave the sector's means ('1위',
    '2위' said unread)."""
    top = fetch_all(
        "SELECT s.name, f.pe FROM stocks s JOIN LATERAL (SELECT pe, market_cap FROM "
        "stock_fundamentals x WHERE x.security_id = s.security_id ORDER BY as_of_date DESC LIMIT 1)"
        " f ON true WHERE s.sector = '반도체' AND s.country = 'KR' AND f.market_cap IS NOT NULL "
        "ORDER BY f.market_cap DESC LIMIT 2", None, pg_pool)  # fmt: skip
    answer = answer_stock_question("시가총액 1위 반도체주와 2위 반도체주의 PER 차이", pool=pg_pool,
                                   history=[])  # fmt: skip
    assert answer is not None and answer.status == "ok"
    a, b = (float(r["pe"]) for r in top)
    assert (f"1위 {top[0]['name']} {a:.2f}배 − 2위 {top[1]['name']} {b:.2f}배 = {a - b:+.2f}"
            in answer.answer)  # fmt: skip


def test_a_month_said_as_a_base_and_a_bar_on_a_periods_total(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """r149: '세종 주택가격지수 작년 12월 대비' compared with the month a year back (the base read
    as the day before December); '인허가 1년 합계 1만호 넘는 지역' listed the top three totals and
    applied no bar (partial)."""
    dec = fetch_all(
        "SELECT index_value FROM re_house_price_index WHERE region = '세종' AND month = "
        "date_trunc('year', (SELECT max(month) FROM re_house_price_index)) - interval '1 month'",
        None, pg_pool)[0]["index_value"]  # fmt: skip
    based = macro_answer("세종 주택가격지수 작년 12월 대비", settings=offline, store=graph_store,
                         pool=pg_pool)  # fmt: skip
    assert f"-12의 {float(dec):.2f} 대비" in based.answer
    over = fetch_all(
        "SELECT region FROM re_permits WHERE region <> '전국' AND month > (SELECT max(month) FROM "
        "re_permits) - interval '12 months' GROUP BY region HAVING sum(units) > 10000", None,
        pg_pool)  # fmt: skip
    barred = macro_answer("인허가 1년 합계 1만호 넘는 지역", settings=offline, store=graph_store,
                          pool=pg_pool)  # fmt: skip
    assert barred.status == "ok" and f": {len(over)}곳 /" in barred.answer
    assert all(r["region"] in barred.answer for r in over)


def test_a_daily_series_less_a_monthly_one_on_the_monthly_dates(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """r150: '미국 2년물 금리와 한국 기준금리 차이 최근 1년 평균' averaged the gap over the 7 of 11
    month-firsts that were US sessions; the daily yield is now read as of each monthly date (SQL
    over the months the answer names: every monthly date of them is counted)."""
    answer = macro_answer("미국 2년물 금리와 한국 기준금리 차이 최근 1년 평균", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    said = re.search(
        r"최근 1년\((\S+) ~ (\S+), 관측치 (\d+)개\) 평균: ([+-][\d.]+)%p", answer.answer
    )
    assert said is not None, answer.answer
    row = fetch_all(
        "SELECT avg((SELECT value FROM macro_observations u WHERE u.series_code = 'DGS2' AND "
        "u.obs_date <= k.obs_date ORDER BY u.obs_date DESC, u.as_of_date DESC LIMIT 1) - k.value) "
        "AS m, count(*) AS n FROM (SELECT DISTINCT ON (obs_date) obs_date, value FROM "
        "macro_observations WHERE series_code = 'KR_BASE_RATE' AND obs_date BETWEEN %(a)s AND %(b)s"
        " ORDER BY obs_date, as_of_date DESC) k", {"a": said[1], "b": said[2]}, pg_pool)[0]  # fmt: skip
    assert int(said[3]) == row["n"] >= 11 and said[4] == f"{float(row['m']):+.2f}"
