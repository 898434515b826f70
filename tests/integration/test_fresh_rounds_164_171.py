"""Fresh rounds of session 56 (issue 31), through the real screens offline on the embedded
stores: each question here answered another question with status ok, or was not read, before.
Truth is SQL here."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
from dateutil.relativedelta import relativedelta

from agents.macro.service import answer_question as macro_answer
from agents.stock.question import answer_stock_question
from data_access.config import Settings
from data_access.postgres import fetch_all
from tests.conversations import chain
from tests.truth import last_session

pytestmark = pytest.mark.usefixtures("demo_data")


def test_a_count_and_an_average_price_of_deals_are_both_answered(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'서울 서초구 아파트 지난 3개월 거래 건수와 평균가' averaged the monthly counts, status ok."""
    as_of = last_session(pg_pool)
    start = as_of - relativedelta(months=3)
    row = fetch_all(
        "SELECT count(*) AS n, avg(price_krw) AS mean FROM re_transactions WHERE region = "
        "'서울 서초구' AND deal_date > %(s)s AND deal_date <= %(e)s", {"s": start, "e": as_of},
        pg_pool)[0]  # fmt: skip
    answer = macro_answer("서울 서초구 아파트 지난 3개월 거래 건수와 평균가", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    assert answer.status == "ok" and f"실거래 {row['n']}건의 평균 거래가격" in answer.answer
    man = round(float(row["mean"]) / 10_000)
    assert f"{man // 10_000}억 {man % 10_000:,}만 원" in answer.answer
    assert "실거래 건수 최근 3개월" not in answer.answer  # no mean of the monthly counts


def test_now_beside_a_past_span_reads_the_span_against_the_latest(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'경기 주택가격지수 지금과 작년 최고치' answered as of last year's end, its last month as
    '최근 값'; '삼성전자 지금 주가랑 작년 최고가' read the last 1 year."""
    today = last_session(pg_pool)
    rows = fetch_all(
        "SELECT month, index_value FROM re_house_price_index WHERE region = '경기' ORDER BY month",
        None, pg_pool)  # fmt: skip
    last_year = [r for r in rows if r["month"].year == today.year - 1]
    peak, latest = max(last_year, key=lambda r: r["index_value"]), rows[-1]
    answer = macro_answer("경기 주택가격지수 지금과 작년 최고치", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    assert answer.status == "ok" and f"최고치: {float(peak['index_value']):,.2f}" in answer.answer
    assert f"최근 값 {float(latest['index_value']):,.2f}({latest['month']})" in answer.answer
    high = fetch_all(
        "SELECT max(high) AS h FROM stock_prices WHERE security_id = 'KR:005930' AND "
        "extract(year FROM trade_date) = %(y)s", {"y": today.year - 1}, pg_pool)[0]["h"]  # fmt: skip
    close = fetch_all(
        "SELECT close FROM stock_prices WHERE security_id = 'KR:005930' AND trade_date = %(d)s",
        {"d": today}, pg_pool)[0]["close"]  # fmt: skip
    answer = answer_stock_question(
        "삼성전자 지금 주가랑 작년 최고가 비교", pool=pg_pool, history=[]
    )
    assert answer is not None and f"{today.year - 1}년(" in answer.answer
    assert f"최고치: {float(high):,.0f}원" in answer.answer
    assert f"최근 값 {float(close):,.0f}원({today})" in answer.answer


def test_a_week_of_a_month_said_by_its_place(pg_pool: Any) -> None:
    """'삼성전자 지난달 셋째 주 평균 종가' read the whole of last month, '셋째' unread."""
    today = last_session(pg_pool)
    first = (today.replace(day=1) - timedelta(days=1)).replace(day=1)
    weekday = first + timedelta(days=7 - first.weekday()) if first.weekday() > 4 else first
    monday = weekday - timedelta(days=weekday.weekday())  # week 1 holds the first weekday
    week = (monday + timedelta(days=14), monday + timedelta(days=20))
    mean = fetch_all(
        "SELECT avg(close) AS c FROM stock_prices WHERE security_id = 'KR:005930' AND trade_date "
        "BETWEEN %(a)s AND %(b)s", {"a": week[0], "b": week[1]}, pg_pool)[0]["c"]  # fmt: skip
    answer = answer_stock_question("삼성전자 지난달 셋째 주 평균 종가", pool=pg_pool, history=[])
    assert answer is not None and answer.status == "ok"
    assert f"{first.month}월 셋째 주({week[0]}" in answer.answer
    assert f"평균: {float(mean):,.0f}원" in answer.answer


def _etf_answer(question: str, history: list[str], pg_pool: Any, graph_store: Any,
                offline: Settings) -> Any:  # fmt: skip
    from agents.etf.service import answer_question as etf_answer

    return chain(etf_answer, [*history, question], settings=offline, store=graph_store,
                 pool=pg_pool)  # fmt: skip


def _top_holdings(pg_pool: Any, fund: str, n: int) -> list[dict[str, Any]]:
    return fetch_all(
        "SELECT s.name, s.code, h.weight, f.pb, f.dividend_yield, f.market_cap FROM etf_holdings h "
        "JOIN etfs e ON e.code = h.etf_code JOIN stocks s ON s.security_id = h.security_id "
        "JOIN LATERAL (SELECT * FROM stock_fundamentals x WHERE x.security_id = h.security_id "
        "ORDER BY x.as_of_date DESC LIMIT 1) f ON true WHERE e.name = %(f)s AND h.as_of_date = "
        "(SELECT max(as_of_date) FROM etf_holdings WHERE etf_code = e.code) "
        "ORDER BY h.weight DESC LIMIT %(n)s", {"f": fund, "n": n}, pg_pool)  # fmt: skip


def test_a_pick_among_the_holdings_listed_is_by_their_own_figure(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'KODEX 은행 보유종목 상위 5개' → '그중 PBR 가장 낮은 종목은?' → '그 종목 배당수익률은?'
    answered the heaviest holding's yield; 'TIGER 화장품 보유종목' → '그중 시가총액 가장 큰 건?'
    the heaviest one; 'KODEX 200 비중 1위 종목의 1년 수익률' read every ETF's weights."""
    top = _top_holdings(pg_pool, "KODEX 은행", 5)
    cheapest = min(top, key=lambda r: float(r["pb"]))
    answer = _etf_answer("그 종목 배당수익률은?", ["KODEX 은행 보유종목 상위 5개",
                         "그중 PBR 가장 낮은 종목은?"], pg_pool, graph_store, offline)  # fmt: skip
    assert answer.status == "ok" and answer.answer.startswith(f"{cheapest['name']}의 배당수익률")
    assert f"{float(cheapest['dividend_yield']):.2f}%" in answer.answer
    held = _top_holdings(pg_pool, "TIGER 화장품", 100)
    largest = max(held, key=lambda r: float(r["market_cap"]))
    answer = _etf_answer("그중 시가총액 가장 큰 건?", ["TIGER 화장품 보유종목"], pg_pool,
                         graph_store, offline)  # fmt: skip
    assert answer.status == "ok" and f"가장 높은 종목: {largest['name']}" in answer.answer
    first = _top_holdings(pg_pool, "KODEX 200", 1)[0]
    answer = _etf_answer("KODEX 200 비중 1위 종목의 1년 수익률", [], pg_pool, graph_store, offline)
    assert answer.status == "ok" and f"{first['name']}의 1년 수익률" in answer.answer


def test_the_smallest_holdings_listed_are_the_ones_priced(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'KODEX 삼성그룹에서 비중이 가장 작은 종목의 1년 수익률' priced the heaviest holding and
    said the smallest had no prices."""
    smallest = _top_holdings(pg_pool, "KODEX 삼성그룹", 100)[-1]
    answer = _etf_answer("KODEX 삼성그룹에서 비중이 가장 작은 종목의 1년 수익률", [], pg_pool,
                         graph_store, offline)  # fmt: skip
    assert f"1. {smallest['name']}" in answer.answer and "시세 없음" not in answer.answer


def test_the_nav_and_the_close_asked_together_are_their_gap(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'KODEX 미국반도체MV 최근 NAV랑 close 차이' gave the NAV alone."""
    row = fetch_all("SELECT p.close, p.nav FROM etf_prices p JOIN etfs e ON e.code = p.etf_code WHERE "
                    "e.name = 'KODEX 200' ORDER BY trade_date DESC LIMIT 1", None, pg_pool)[0]  # fmt: skip
    answer = _etf_answer("KODEX 200 NAV랑 종가 차이", [], pg_pool, graph_store, offline)
    gap = float(row["close"]) - float(row["nav"])
    assert answer.status == "ok" and f"차이 {gap:+,.2f}원" in answer.answer


def test_talk_subjects_joined_for_a_mean_and_two_moves_compared_or_each(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'KB금융 PER' → '신한지주는?' → '하나금융지주까지 셋 평균은?' gave one stock's mean close;
    '미국 2년물 금리' → '10년물은?' → '둘 중 1년 전보다 더 많이 내린 건?' and '대전 전세가율' →
    '대구는?' → '둘 다 1년 전보다 올랐어?' gave the spread of the two."""
    pers = fetch_all(
        "SELECT DISTINCT ON (s.name) f.pe FROM stock_fundamentals f JOIN stocks s USING "
        "(security_id) WHERE s.name IN ('KB금융', '신한지주', '하나금융지주') ORDER BY s.name, "
        "f.as_of_date DESC", None, pg_pool)  # fmt: skip
    mean = sum(float(r["pe"]) for r in pers) / 3
    answer = chain(answer_stock_question, ["KB금융 PER", "신한지주는?", "하나금융지주까지 셋 평균은?"],
                   pool=pg_pool)  # fmt: skip
    assert answer.status == "ok" and f"PER 평균: {mean:.2f}배" in answer.answer
    moves = {}
    for code in ("DGS2", "DGS10"):
        rows = fetch_all("SELECT obs_date, value FROM macro_observations WHERE series_code = %(c)s "
                         "ORDER BY obs_date DESC", {"c": code}, pg_pool)  # fmt: skip
        last = rows[0]
        base = next(r for r in rows if r["obs_date"] <= last["obs_date"].replace(
            year=last["obs_date"].year - 1))  # fmt: skip
        moves[code] = float(last["value"]) - float(base["value"])
    fell = "미국 2년 국채 금리" if moves["DGS2"] < moves["DGS10"] else "미국 10년 국채 금리"
    answer = chain(macro_answer, ["미국 2년물 금리", "10년물은?", "둘 중 1년 전보다 더 많이 내린 건?"],
                   settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert f"{fell}가" in answer.answer and "더 많이 내렸습니다" in answer.answer
    answer = chain(macro_answer, ["대전 전세가율", "대구는?", "둘 다 1년 전보다 올랐어?"],
                   settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert "격차" not in answer.answer and answer.answer.count("전년 동월 대비") == 2


def test_dates_said_against_now_and_the_same_day_back(pg_pool: Any, graph_store: Any,
                                                     offline: Settings) -> None:  # fmt: skip
    """'Amazon 반년 전 오늘 종가' gave today's close; '부산 전세가율 올해 1월과 최근 달 차이'
    January against the January before; '원달러 환율 최근값 → 한 달 전은? → 몇 % 변한 거야?'
    the change over a year."""
    today = last_session(pg_pool)
    back = today - relativedelta(months=6)
    row = fetch_all("SELECT trade_date, close FROM stock_prices WHERE security_id = 'US:AMZN' AND "
                    "trade_date <= %(d)s ORDER BY trade_date DESC LIMIT 1", {"d": back}, pg_pool)[0]  # fmt: skip
    for asked in ("Amazon 반년 전 오늘 종가", "Amazon 6개월 전 오늘 종가"):
        answer = answer_stock_question(asked, pool=pg_pool, history=[])
        assert answer is not None and f"({row['trade_date']})" in answer.answer, asked
    rows = fetch_all("SELECT month, ratio FROM re_jeonse_ratio WHERE region = '부산' ORDER BY month",
                     None, pg_pool)  # fmt: skip
    january = next(r for r in rows if r["month"] == date(today.year, 1, 1))
    answer = macro_answer("부산 전세가율 올해 1월과 최근 달 차이", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    assert f"{today.year}-01의 {float(january['ratio']):.2f}% 대비" in answer.answer
    assert f"{str(rows[-1]['month'])[:7]} {float(rows[-1]['ratio']):.2f}%" in answer.answer
    answer = chain(macro_answer, ["원달러 환율 최근값", "한 달 전은?", "몇 % 변한 거야?"],
                   settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    month_back = (today - relativedelta(months=1)).isoformat()
    assert f"{month_back}의" in answer.answer


def test_sets_of_every_stock_of_a_market_and_a_bar_in_dollars(pg_pool: Any) -> None:
    """'PBR 1배 미만이면서 배당수익률 3% 이상인 국내 종목 몇 개' and '미국 소프트웨어주' were
    "알 수 없는 종목"; '1조 달러 이상' was read as 1조 원."""
    count = fetch_all(
        "SELECT count(*) AS n FROM (SELECT DISTINCT ON (security_id) pb, dividend_yield FROM "
        "stock_fundamentals JOIN stocks USING (security_id) WHERE country = 'KR' ORDER BY "
        "security_id, as_of_date DESC) f WHERE pb < 1 AND dividend_yield >= 3", None, pg_pool)[0]["n"]  # fmt: skip
    answer = answer_stock_question("PBR 1배 미만이면서 배당수익률 3% 이상인 국내 종목 몇 개",
                                   pool=pg_pool, history=[])  # fmt: skip
    assert answer is not None and f"중 {count}종목" in answer.answer
    big = fetch_all(
        "SELECT name, pe FROM (SELECT DISTINCT ON (security_id) s.name, f.pe, f.market_cap FROM "
        "stock_fundamentals f JOIN stocks s USING (security_id) WHERE s.country = 'US' ORDER BY "
        "security_id, f.as_of_date DESC) x WHERE market_cap >= 1e12 AND pe > 0 ORDER BY pe LIMIT 1",
        None, pg_pool)[0]  # fmt: skip
    answer = answer_stock_question("시가총액 1조 달러 이상인 미국 종목 중 PER 가장 낮은 것",
                                   pool=pg_pool, history=[])  # fmt: skip
    assert answer is not None and f"1. {big['name']} {float(big['pe']):.2f}배" in answer.answer
    answer = answer_stock_question("PER가 가장 높은 미국 소프트웨어주의 시가총액", pool=pg_pool,
                                   history=[])  # fmt: skip
    assert answer is not None and "미국 소프트웨어 업종" in answer.answer


def test_a_months_largest_move_and_a_cumulative_rate(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'전국 주택가격지수 올해 전월 대비 상승률이 가장 컸던 달' gave the highest level; '울산
    주택가격지수 최근 6개월 누적 변화율' summed six levels."""
    today = last_session(pg_pool)
    rows = fetch_all("SELECT month, index_value AS v FROM re_house_price_index WHERE region = "
                     "'전국' ORDER BY month", None, pg_pool)  # fmt: skip
    moves = [(b["month"], float(b["v"]) / float(a["v"]) - 1) for a, b in zip(rows, rows[1:], strict=False)
             if b["month"].year == today.year]  # fmt: skip
    month = max(moves, key=lambda m: m[1])[0]
    answer = macro_answer("전국 주택가격지수 올해 전월 대비 상승률이 가장 컸던 달",
                          settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert f"가장 크게 오른 달: {str(month)[:7]}" in answer.answer
    answer = macro_answer("울산 주택가격지수 최근 6개월 누적 변화율", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    assert "합계" not in answer.answer and "대비" in answer.answer


def test_deals_banded_by_a_side_of_the_area_and_by_floor(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'… 전용 84㎡ 이상 거래 최근 3개월 평균가' read the 84㎡ band (and 84 as a bar); '… 최근
    6개월 거래 중 30층 이상 건수' left '층' unread and held the monthly counts to 30."""
    as_of = last_session(pg_pool)
    row = fetch_all(
        "SELECT count(*) AS n, avg(price_krw) AS mean FROM re_transactions WHERE region = "
        "'서울 마포구' AND area_m2 >= 84 AND deal_date > %(s)s AND deal_date <= %(e)s",
        {"s": as_of - relativedelta(months=3), "e": as_of}, pg_pool)[0]  # fmt: skip
    answer = macro_answer("서울 마포구 아파트 전용 84㎡ 이상 거래 최근 3개월 평균가",
                          settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert answer.status == "ok"
    assert f"전용 84㎡ 이상 아파트 실거래 {row['n']}건의 평균 거래가격" in answer.answer
    high = fetch_all(
        "SELECT count(*) AS n FROM re_transactions WHERE region = '서울 강남구' AND floor >= 30 "
        "AND deal_date > %(s)s AND deal_date <= %(e)s",
        {"s": as_of - relativedelta(months=6), "e": as_of}, pg_pool)[0]["n"]  # fmt: skip
    answer = macro_answer("서울 강남구 아파트 최근 6개월 거래 중 30층 이상 건수",
                          settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert answer.status == "ok" and f"30층 이상 아파트 실거래 {high}건" in answer.answer


def test_regions_a_bar_kept_read_by_another_series(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'서울 자치구 중 전세가율 55% 넘는 곳의 주택가격지수' held the index to 55 too."""
    kept = fetch_all(
        "SELECT j.region, h.index_value FROM re_jeonse_ratio j JOIN re_house_price_index h ON "
        "h.region = j.region AND h.month = j.month WHERE j.region LIKE '서울 %%' AND j.month = "
        "(SELECT max(month) FROM re_jeonse_ratio) AND j.ratio > 55", None, pg_pool)  # fmt: skip
    answer = macro_answer("서울 자치구 중 전세가율 55% 넘는 곳의 주택가격지수", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    assert answer.status == "ok" and f"초과 지역 {len(kept)}곳의 주택가격지수" in answer.answer
    assert all(f"{r['region']} {float(r['index_value']):.2f}" in answer.answer for r in kept)


def test_a_years_first_month_and_a_fair_price_asked(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'KODEX 레버리지 올해 첫 달 수익률' answered the last month; '한국콜마 적정 매수가 알려줘'
    the whole report with its rating."""
    today = last_session(pg_pool)
    answer = _etf_answer("KODEX 레버리지 올해 첫 달 수익률", [], pg_pool, graph_store, offline)
    assert answer.status == "ok" and f"{today.year}-01({today.year}-01-" in answer.answer
    answer = answer_stock_question("한국콜마 적정 매수가 알려줘", pool=pg_pool, history=[])
    assert answer is not None and "종목 리포트" not in answer.answer and "예측" in answer.answer


def test_rounds_168_to_171(pg_pool: Any, graph_store: Any, offline: Settings) -> None:
    """r168–r171, status ok on another question before: '지난달 전년 동월 대비' read the latest
    month; '이번 해 들어' the year's change; '두 종목 중' every stock; '… 미만 지역 중 1년 상승률
    가장 큰 곳' ordered by the level; '올해 월별 최대치' listed every month; '전국 미분양 중 경기
    비중' no share; '거래량이 가장 많은 조선주의 PBR' ordered by PBR."""
    permits = {str(r["month"])[:7]: float(r["units"]) for r in fetch_all(
        "SELECT month, units FROM re_permits WHERE region = '경기'", None, pg_pool)}  # fmt: skip
    today = last_session(pg_pool)
    last_month = (today.replace(day=1) - timedelta(days=1)).isoformat()[:7]
    year_before = f"{int(last_month[:4]) - 1}{last_month[4:]}"
    growth = (permits[last_month] / permits[year_before] - 1) * 100
    answer = macro_answer("경기 주택 인허가 지난달 전년 동월 대비", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    assert f"전년 동월 대비 {growth:+.2f}%" in answer.answer
    answer = chain(answer_stock_question, ["셀트리온 PER", "유한양행은?", "두 종목 중 PBR 낮은 건?"],
                   pool=pg_pool)  # fmt: skip
    assert "PBR이 더 낮은 쪽" in answer.answer and "전체 종목" not in answer.answer
    unsold = {r["region"]: float(r["units"]) for r in fetch_all(
        "SELECT region, units FROM re_unsold_housing WHERE month = (SELECT max(month) FROM re_unsold_housing) "
        "AND region IN ('전국', '경기')", None, pg_pool)}  # fmt: skip
    answer = macro_answer("전국 미분양 중 경기 비중 몇 %", settings=offline, store=graph_store,
                          pool=pg_pool)  # fmt: skip
    assert f"({unsold['경기'] / unsold['전국'] * 100:,.2f}%)" in answer.answer
    top = max(float(r["units"]) for r in fetch_all(
        "SELECT units FROM re_permits WHERE region = '인천' AND extract(year FROM month) = %(y)s",
        {"y": today.year}, pg_pool))  # fmt: skip
    answer = macro_answer("인천 주택 인허가 올해 월별 최대치", settings=offline, store=graph_store,
                          pool=pg_pool)  # fmt: skip
    assert f"최고치: {top:,.0f}호" in answer.answer and "월별 최고치" not in answer.answer
    ship = fetch_all(
        "SELECT s.name FROM stocks s JOIN LATERAL (SELECT volume FROM stock_prices p WHERE "
        "p.security_id = s.security_id ORDER BY trade_date DESC LIMIT 1) v ON true WHERE "
        "s.sector = '조선' AND s.country = 'KR' ORDER BY v.volume DESC LIMIT 1", None, pg_pool)[0]  # fmt: skip
    answer = answer_stock_question("거래량이 가장 많은 조선주의 PBR", pool=pg_pool, history=[])
    assert answer is not None and f"PBR (7종목 중): {ship['name']}" in answer.answer


def test_a_pick_among_kept_regions_by_growth_and_a_funds_heaviest_holding(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'전세가율 55% 미만 지역 중 최근 1년 주택가격지수 상승률 가장 큰 곳' ordered by the level;
    '… → 보수 싼 쪽의 비중 1위 종목은?' gave '비중 -'."""
    rows = fetch_all(
        "SELECT h.region, h.index_value / b.index_value - 1 AS g FROM re_house_price_index h "
        "JOIN re_house_price_index b ON b.region = h.region AND b.month = h.month - interval "
        "'1 year' JOIN re_jeonse_ratio j ON j.region = h.region AND j.month = h.month WHERE "
        "h.month = (SELECT max(month) FROM re_house_price_index) AND j.ratio < 55 AND h.region "
        "<> '전국' ORDER BY g DESC LIMIT 1", None, pg_pool)  # fmt: skip
    answer = macro_answer("전세가율 55% 미만 지역 중 최근 1년 주택가격지수 상승률 가장 큰 곳",
                          settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert f"상승률 높은 순: {rows[0]['region']} {float(rows[0]['g']) * 100:+.2f}%" in answer.answer
    first = _top_holdings(pg_pool, "TIGER 헬스케어", 1)[0]
    answer = _etf_answer("보수 싼 쪽의 비중 1위 종목은?", ["KODEX 헬스케어 보수", "TIGER 헬스케어는?"],
                         pg_pool, graph_store, offline)  # fmt: skip
    assert f"비중 1위 종목: {first['name']}" in answer.answer


def test_a_drawdown_over_a_window_said_in_sessions_or_weeks(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'비트코인 최근 3주 최대 낙폭' was labelled and fetched as a month; '코스피 최근 20거래일
    최대 낙폭' read the 16 sessions a month held."""
    closes = [float(r["close"]) for r in reversed(fetch_all(
        "SELECT close FROM market_series_prices WHERE series_code = '^KS11' ORDER BY trade_date "
        "DESC LIMIT 20", None, pg_pool))]  # fmt: skip
    peak, deepest = closes[0], 0.0
    for c in closes:  # the window's own closes: peak and trough both inside it
        peak = max(peak, c)
        deepest = min(deepest, (c / peak - 1) * 100)
    answer = macro_answer("코스피 최근 20거래일 최대 낙폭", settings=offline, store=graph_store,
                          pool=pg_pool)  # fmt: skip
    assert "최근 20거래일(" in answer.answer and "관측치 20개" in answer.answer
    assert f"최대 낙폭: {deepest:.2f}%" in answer.answer
    answer = macro_answer("비트코인 최근 3주 최대 낙폭", settings=offline, store=graph_store,
                          pool=pg_pool)  # fmt: skip
    assert "최근 3주(" in answer.answer


def test_the_lightest_holdings_figure_names_read_aloud_and_the_days_own_high(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'KODEX 200 비중 가장 작은 종목의 PER' gave the heaviest holding; '케이티앤지 시가총액' was
    "알 수 없는 종목"; '삼성전기 오늘 장중 최고가' refused '장중'; 'HD현대일렉트릭 열흘 전 종가'
    left '열흘' unread; '삼성전자 올해 낙폭' read the last year."""
    lightest = _top_holdings(pg_pool, "KODEX 200", 500)[-1]
    answer = _etf_answer("KODEX 200 비중 가장 작은 종목의 PER", [], pg_pool, graph_store, offline)
    assert answer.status == "ok" and f"{lightest['name']}의 PER" in answer.answer
    answer = answer_stock_question("케이티앤지 시가총액", pool=pg_pool, history=[])
    assert answer is not None and answer.answer.startswith("**KT&G")
    today = last_session(pg_pool)
    high = fetch_all(
        "SELECT p.high FROM stock_prices p JOIN stocks s USING (security_id) WHERE s.name = "
        "'삼성전기' AND trade_date = %(d)s", {"d": today}, pg_pool)[0]["high"]  # fmt: skip
    answer = answer_stock_question("삼성전기 오늘 장중 최고가는 얼마였어", pool=pg_pool, history=[])
    assert answer is not None and f"최고치: {float(high):,.0f}원 ({today})" in answer.answer
    back = fetch_all(
        "SELECT p.trade_date FROM stock_prices p JOIN stocks s USING (security_id) WHERE s.name "
        "= 'HD현대일렉트릭' AND trade_date <= %(d)s ORDER BY trade_date DESC LIMIT 1",
        {"d": today - timedelta(days=10)}, pg_pool)[0]["trade_date"]  # fmt: skip
    answer = answer_stock_question("HD현대일렉트릭 열흘 전 종가", pool=pg_pool, history=[])
    assert answer is not None and answer.status == "ok" and f"({back})" in answer.answer
    answer = answer_stock_question("삼성전자 올해 낙폭", pool=pg_pool, history=[])
    assert (
        answer is not None and f"{today.year}년(" in answer.answer and "최대 낙폭" in answer.answer
    )


def test_rounds_172_to_175(pg_pool: Any, graph_store: Any, offline: Settings) -> None:
    """r172–r175, status ok on another question before: '덴티움 어제 거래량이랑 종가' gave the
    기준일's own; '한미반도체 오늘 고가와 저가 차이' the day's return; '인천 전세가율 가장 최근 값과
    2년 전 값' moved the answer back two years; '서울 강남구 아파트 호가' answered the index;
    'TIGER 반도체 9월 마지막 주' took the week before (the week of 9/28 is September's)."""
    today = last_session(pg_pool)
    before = fetch_all(
        "SELECT p.trade_date, p.close, p.volume, p.high, p.low, s.name FROM stock_prices p JOIN "
        "stocks s USING (security_id) WHERE s.name IN ('덴티움', '한미반도체') AND trade_date <= "
        "%(d)s ORDER BY trade_date DESC", {"d": today}, pg_pool)  # fmt: skip
    dentium = [r for r in before if r["name"] == "덴티움"][1]  # the session before 기준일
    answer = answer_stock_question("덴티움 어제 거래량이랑 종가", pool=pg_pool, history=[])
    assert (
        answer is not None
        and f"종가 {float(dentium['close']):,.0f}원 ({dentium['trade_date']})" in answer.answer
    )
    assert f"거래량 {int(dentium['volume']):,}주" in answer.answer
    day = next(r for r in before if r["name"] == "한미반도체")
    answer = answer_stock_question("한미반도체 오늘 고가와 저가 차이", pool=pg_pool, history=[])
    assert (
        answer is not None
        and f"차이: {float(day['high']) - float(day['low']):,.0f}원" in answer.answer
    )
    ratios = fetch_all("SELECT month, ratio FROM re_jeonse_ratio WHERE region = '인천' ORDER BY "
                       "month DESC", None, pg_pool)  # fmt: skip
    two_back = next(r for r in ratios if r["month"] <= ratios[0]["month"].replace(
        year=ratios[0]["month"].year - 2))  # fmt: skip
    answer = macro_answer("인천 전세가율 가장 최근 값과 2년 전 값", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    assert f"{str(ratios[0]['month'])[:7]} {float(ratios[0]['ratio']):.2f}%" in answer.answer
    assert f"{str(two_back['month'])[:7]}의 {float(two_back['ratio']):.2f}%" in answer.answer
    answer = macro_answer("서울 강남구 아파트 호가", settings=offline, store=graph_store,
                          pool=pg_pool)  # fmt: skip
    assert answer.status == "partial" and "'호가'" in answer.answer
    answer = _etf_answer("TIGER 반도체 9월 마지막 주 수익률", [], pg_pool, graph_store, offline)
    assert f"{today.year}-09-28 ~ {today.year}-09-30" in answer.answer


def test_the_opening_price_is_a_figure_held(pg_pool: Any, graph_store: Any,
                                            offline: Settings) -> None:  # fmt: skip
    """'롯데쇼핑 오늘 시가와 종가' left '시가' unread; '코스피 오늘 시가' gave the close; an ETF's
    '시가' is said not held (its prices are closes and NAVs)."""
    today = last_session(pg_pool)
    row = fetch_all(
        "SELECT p.open, p.close FROM stock_prices p JOIN stocks s USING (security_id) WHERE "
        "s.name = '롯데쇼핑' AND trade_date = %(d)s", {"d": today}, pg_pool)[0]  # fmt: skip
    answer = answer_stock_question("롯데쇼핑 오늘 시가와 종가", pool=pg_pool, history=[])
    assert answer is not None and answer.status == "ok"
    assert f"시가 {float(row['open']):,.0f}원 ({today})" in answer.answer
    assert f"종가 {float(row['close']):,.0f}원" in answer.answer
    kospi = fetch_all("SELECT open FROM market_series_prices WHERE series_code = '^KS11' AND "
                      "trade_date = %(d)s", {"d": today}, pg_pool)[0]["open"]  # fmt: skip
    answer = macro_answer("코스피 오늘 시가", settings=offline, store=graph_store, pool=pg_pool)
    assert f"코스피 시가 {float(kospi):,.2f} ({today})" in answer.answer
    answer = _etf_answer("KODEX 200 시가", [], pg_pool, graph_store, offline)
    assert answer.status == "partial" and "시가가 없어" in answer.answer


def test_regions_held_to_a_bar_on_their_deals_and_a_term_not_held(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'최근 3개월 아파트 평균 거래가 10억 이상인 지역' and '… 5억 미만인 지역' filtered the
    nation's deals by price; '… 거래가 100건 넘는 지역 중 평균가 가장 낮은 곳' answered the nation;
    '서울 오피스텔 평균 월세' answered the price index beside "'월세'는 … 없습니다"."""
    as_of = last_session(pg_pool)
    means = fetch_all(
        "SELECT region, count(*) AS n, avg(price_krw) AS mean FROM re_transactions WHERE "
        "deal_date > %(s)s AND deal_date <= %(e)s GROUP BY region",
        {"s": as_of - relativedelta(months=3), "e": as_of}, pg_pool)  # fmt: skip
    above = [r for r in means if float(r["mean"]) >= 1e9 and r["region"] != "전국"]
    answer = macro_answer("최근 3개월 아파트 평균 거래가 10억 이상인 지역", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    window = f"({as_of - relativedelta(months=3) + timedelta(days=1)} ~ {as_of})"
    assert answer.status == "ok" and window in answer.answer
    assert f": {len(above)}곳 / {len(means)}곳" in answer.answer
    busy = [r for r in means if r["n"] > 50]
    cheapest = min(busy, key=lambda r: float(r["mean"]))
    answer = macro_answer("최근 3개월 아파트 거래가 50건 넘는 지역 중 평균가 가장 낮은 곳",
                          settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert (
        answer.status == "ok"
        and f"지역 {len(busy)}곳 중 실거래 평균가 낮은 순: {cheapest['region']}" in answer.answer
    )
    answer = macro_answer("서울 오피스텔 평균 월세", settings=offline, store=graph_store,
                          pool=pg_pool)  # fmt: skip
    assert answer.status == "partial" and "'월세'" in answer.answer
    assert "주택가격지수 최근" not in answer.answer  # no figure of another question


def test_bars_met_by_any_one_and_words_of_r176_to_r179(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'전세가율 70% 이상이거나 미분양 3000호 이상인 지역' listed the regions past both bars;
    '… book value 대비 주가 배수' gave the close; '… 다음 달 주가 몇 원까지 갈까' was no forecast;
    '안랩 지난 거래일보다 몇 원 올랐어' gave the month's return."""
    latest = "(SELECT max(month) FROM {})"
    jeonse = {r["region"] for r in fetch_all(
        f"SELECT region FROM re_jeonse_ratio WHERE month = {latest.format('re_jeonse_ratio')} "
        "AND ratio >= 70 AND region <> '전국'", None, pg_pool)}  # fmt: skip
    unsold = {r["region"] for r in fetch_all(
        f"SELECT region FROM re_unsold_housing WHERE month = {latest.format('re_unsold_housing')} "
        "AND units >= 3000 AND region <> '전국'", None, pg_pool)}  # fmt: skip
    answer = macro_answer("전세가율 70% 이상이거나 미분양 3000호 이상인 지역", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    assert f"): {len(jeonse | unsold)}곳 /" in answer.answer and " 또는 " in answer.answer
    answer = answer_stock_question("Berkshire Hathaway의 book value 대비 주가 배수", pool=pg_pool,
                                   history=[])  # fmt: skip
    assert answer is not None and "PBR " in answer.answer
    answer = answer_stock_question("강원랜드 다음 달 주가 몇 원까지 갈까", pool=pg_pool, history=[])
    assert answer is not None and answer.status == "partial" and "예측" in answer.answer
    answer = answer_stock_question("안랩 지난 거래일보다 몇 원 올랐어", pool=pg_pool, history=[])
    assert answer is not None and "1일 수익률" in answer.answer and "1개월" not in answer.answer
