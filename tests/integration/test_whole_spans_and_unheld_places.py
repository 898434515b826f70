"""Fresh rounds r151–r155 (issue 31), through the real screens offline on the embedded stores:
a level asked over a whole calendar span, a year said in words before a month, places the
housing data does not hold, and a predicate not respelt as a noun. Each answered another
question with status ok before. Truth is SQL here."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest

from agents.macro.service import answer_question as macro_answer
from agents.stock.question import answer_stock_question
from data_access.config import Settings
from data_access.postgres import fetch_all
from tests.conversations import chain
from tests.truth import last_session

pytestmark = pytest.mark.usefixtures("demo_data")


def _close_on_or_before(pg_pool: Any, code: str, day: date) -> tuple[date, float]:
    row = fetch_all(
        "SELECT trade_date, close FROM stock_prices WHERE security_id = %(s)s AND trade_date "
        "<= %(d)s ORDER BY trade_date DESC LIMIT 1", {"s": f"KR:{code}", "d": day}, pg_pool)[0]  # fmt: skip
    return row["trade_date"], float(row["close"])


def test_a_level_over_a_whole_year_or_quarter_is_itslast_session(pg_pool: Any) -> None:
    """'삼성전자 작년 종가' and '… 지난 분기 종가' gave the latest close, status ok."""
    today = last_session(pg_pool)
    year_end = date(today.year - 1, 12, 31)
    quarter_first_month = ((today.month - 1) // 3) * 3 + 1
    quarter_end = date(today.year, quarter_first_month, 1) - timedelta(days=1)
    for asked, end in (("삼성전자 작년 종가", year_end), ("삼성전자 지난 분기 종가", quarter_end),
                       (f"삼성전자 {today.year - 2}년 종가", date(today.year - 2, 12, 31))):  # fmt: skip
        day, close = _close_on_or_before(pg_pool, "005930", end)
        answer = answer_stock_question(asked, pool=pg_pool, history=[])
        assert answer is not None and answer.status == "ok", asked
        assert f"종가 {close:,.0f}원 ({day})" in answer.answer, asked


def test_a_series_named_with_a_past_month_or_year_is_read_at_its_end(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'지난달 원달러 환율' gave the latest rate; '재작년 12월 기준금리' read '작년 12월'."""
    today = last_session(pg_pool)
    month_end = today.replace(day=1) - timedelta(days=1)
    fx = fetch_all(
        "SELECT obs_date, value FROM macro_observations WHERE series_code = 'KR_USDKRW' AND "
        "obs_date <= %(d)s ORDER BY obs_date DESC LIMIT 1", {"d": month_end}, pg_pool)[0]  # fmt: skip
    answer = macro_answer("지난달 원달러 환율", settings=offline, store=graph_store, pool=pg_pool)
    assert answer.status == "ok" and f"({fx['obs_date']})" in answer.answer
    assert f"{float(fx['value']):,.2f}" in answer.answer
    rate = fetch_all(
        "SELECT obs_date, value FROM macro_observations WHERE series_code = 'KR_BASE_RATE' AND "
        "obs_date <= %(d)s ORDER BY obs_date DESC LIMIT 1",
        {"d": date(today.year - 2, 12, 31)}, pg_pool)[0]  # fmt: skip
    answer = macro_answer("재작년 12월 기준금리", settings=offline, store=graph_store, pool=pg_pool)
    assert f"{float(rate['value']):.2f}% ({rate['obs_date']})" in answer.answer


def test_a_place_the_housing_data_does_not_hold_is_declined_with_the_regions_held(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'경남 전세가율' answered the nation's ratio and '서울 용산구 전세가율' Seoul's, status ok."""
    held = [r["region"] for r in fetch_all(
        "SELECT DISTINCT region FROM re_jeonse_ratio ORDER BY region", None, pg_pool)]  # fmt: skip
    assert "경남" not in held and not any("용산" in r for r in held)
    answer = macro_answer("경남 전세가율", settings=offline, store=graph_store, pool=pg_pool)
    assert answer.status == "partial" and "'경남'의 부동산 데이터는" in answer.answer
    assert all(region in answer.answer for region in held)
    answer = macro_answer("서울 용산구 전세가율", settings=offline, store=graph_store, pool=pg_pool)
    assert answer.status == "partial" and "용산구" in answer.answer


def test_a_predicate_is_not_respelt_as_a_noun(pg_pool: Any) -> None:
    """'얼마가 적당해?' was noted as "'적당해'를 적당하로 읽었습니다" (적당 + 하 + 어 is a verb)."""
    answer = answer_stock_question("삼성전자 목표주가 얼마가 적당해?", pool=pg_pool, history=[])
    assert answer is not None and "읽었습니다" not in answer.answer


def test_a_weekday_weeks_back_and_a_week_of_a_month_said_by_its_place(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'에스엠 2주 전 월요일 종가' gave this week's Monday; '3월 둘째 주 WTI 평균' the March
    average with '둘째' unread."""
    today = last_session(pg_pool)
    monday = today - timedelta(days=today.weekday() + 14)
    code = fetch_all("SELECT code FROM stocks WHERE name = '에스엠'", None, pg_pool)[0]["code"]
    day, close = _close_on_or_before(pg_pool, code, monday)
    answer = answer_stock_question("에스엠 2주 전 월요일 종가", pool=pg_pool, history=[])
    assert answer is not None and f"종가 {close:,.0f}원 ({day})" in answer.answer
    march = date(today.year, 3, 1)
    second_monday = march + timedelta(days=(7 - march.weekday()) % 7 + 7)
    mean = fetch_all(
        "SELECT avg(close) AS m, count(*) AS n FROM market_series_prices WHERE series_code = "
        "'CL=F' AND trade_date BETWEEN %(a)s AND %(b)s",
        {"a": second_monday, "b": second_monday + timedelta(days=6)}, pg_pool)[0]  # fmt: skip
    answer = macro_answer("3월 둘째 주 WTI 평균", settings=offline, store=graph_store, pool=pg_pool)
    assert answer.status == "ok"
    assert f"관측치 {mean['n']}개) 평균: {float(mean['m']):,.2f}" in answer.answer


def test_a_bar_in_won_holds_dollar_stocks_at_the_days_rate(pg_pool: Any) -> None:
    """'시가총액 10조 이상 반도체주 중 PBR 가장 높은 것' dropped the US stocks, unsaid."""
    today = last_session(pg_pool)
    rate = float(fetch_all(
        "SELECT value FROM macro_observations WHERE series_code = 'KR_USDKRW' AND obs_date <= "
        "%(d)s ORDER BY obs_date DESC LIMIT 1", {"d": today}, pg_pool)[0]["value"])  # fmt: skip
    top = fetch_all(
        "SELECT DISTINCT ON (s.security_id) s.name, f.pb, f.market_cap FROM stock_fundamentals f "
        "JOIN stocks s USING (security_id) WHERE s.country = 'US' AND s.sector = '반도체' AND "
        "f.as_of_date <= %(d)s ORDER BY s.security_id, f.as_of_date DESC", {"d": today}, pg_pool)  # fmt: skip
    held = [r for r in top if r["pb"] is not None and float(r["market_cap"]) * rate >= 10e12]
    best = max(held, key=lambda r: float(r["pb"]))
    answer = answer_stock_question("시가총액 10조 이상 반도체주 중 PBR 가장 높은 것", pool=pg_pool,
                                   history=[])  # fmt: skip
    assert answer is not None and answer.status == "ok"
    assert f"1. {best['name']} {float(best['pb']):.2f}배" in answer.answer
    assert f"환율 {rate:,.2f}원으로 환산" in answer.answer


def test_both_figures_of_the_talk_and_the_last_close_said_in_words(pg_pool: Any) -> None:
    """'POSCO홀딩스 PER' → 'PBR은?' → '둘 다 업종 평균이랑 비교해줘' compared the PBR only;
    '… 마지막 종가' said '마지막' unread."""
    answer = chain(answer_stock_question, ["POSCO홀딩스 PER", "PBR은?", "둘 다 업종 평균이랑 비교해줘"],
                   pool=pg_pool)  # fmt: skip
    assert answer.status == "ok" and "PER " in answer.answer and "PBR " in answer.answer
    assert answer.answer.count("업종(국내") == 2
    answer = answer_stock_question("삼성전자 마지막 종가", pool=pg_pool, history=[])
    assert answer is not None and answer.status == "ok" and "마지막" not in answer.answer


def test_an_exchange_named_is_the_set_of_its_stocks(pg_pool: Any) -> None:
    """'1년 수익률 50% 이상인 코스닥 종목 몇 개' said no stock was found (코스닥 read as the index)."""
    today = last_session(pg_pool)
    count = fetch_all(
        "SELECT count(*) AS n FROM stocks s JOIN LATERAL (SELECT close FROM stock_prices WHERE "
        "security_id = s.security_id AND trade_date <= %(d)s ORDER BY trade_date DESC LIMIT 1) c "
        "ON true JOIN LATERAL (SELECT close FROM stock_prices WHERE security_id = s.security_id "
        "AND trade_date <= %(b)s ORDER BY trade_date DESC LIMIT 1) b ON true WHERE s.market = "
        "'KOSDAQ' AND NOT s.is_etf AND c.close / b.close - 1 >= 0.5",
        {"d": today, "b": today.replace(year=today.year - 1)}, pg_pool)[0]["n"]  # fmt: skip
    answer = answer_stock_question(
        "1년 수익률 50% 이상인 코스닥 종목 몇 개", pool=pg_pool, history=[]
    )
    assert answer is not None and answer.status == "ok"
    assert answer.answer.startswith("**코스닥 종목**") and f"중 {count}종목" in answer.answer


def test_a_pick_reads_the_change_asked_and_is_made_among_every_region(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'미분양이 가장 많은 지역의 주택가격지수 1년 변화' gave the index level; '주택가격지수가 1년
    새 가장 많이 오른 지역의 미분양' picked among the regions holding unsold homes only (서울,
    not 서울 서초구), each with status ok."""
    last = "(SELECT max(month) FROM re_house_price_index)"
    top = fetch_all("SELECT region FROM re_unsold_housing WHERE month = (SELECT max(month) FROM "
                    "re_unsold_housing) AND region <> '전국' ORDER BY units DESC LIMIT 1", None,
                    pg_pool)[0]["region"]  # fmt: skip
    ends = fetch_all(
        f"SELECT index_value FROM re_house_price_index WHERE region = %(r)s AND month IN ({last}, "
        f"{last} - interval '1 year') ORDER BY month", {"r": top}, pg_pool)  # fmt: skip
    answer = macro_answer("미분양이 가장 많은 지역의 주택가격지수 1년 변화", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    rise = float(ends[1]["index_value"]) - float(ends[0]["index_value"])
    assert f": {top} " in answer.answer and f"주택가격지수 {rise:+.2f}" in answer.answer
    riser = fetch_all(
        f"SELECT a.region FROM re_house_price_index a JOIN re_house_price_index b ON a.region = "
        f"b.region AND b.month = {last} - interval '1 year' WHERE a.month = {last} AND a.region "
        "<> '전국' ORDER BY a.index_value - b.index_value DESC LIMIT 1", None, pg_pool)[0]["region"]  # fmt: skip
    answer = macro_answer("주택가격지수가 1년 새 가장 많이 오른 지역의 미분양", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    assert f": {riser} +" in answer.answer
    if " " in riser:  # a district: the province's unsold homes, said
        assert f"미분양은 {riser} 단위로 없어 {riser.split()[0]} 값으로" in answer.answer


def test_two_weeks_back_the_weeks_of_a_month_and_a_name_said_in_korean(pg_pool: Any) -> None:
    """r156–r159: 'HLB 지지난주 수요일 종가' read 지난주; '8월 마지막 주' took the week of
    8/31 (four September days): a month's last week holds most of its weekdays (its Wednesday
    in the month); 'JYP 엔터 종가'
    was read as 와이지엔터테인먼트 (YG엔터, two letters away)."""
    today = last_session(pg_pool)
    wednesday = today - timedelta(days=today.weekday() + 14 - 2)
    code = fetch_all("SELECT code FROM stocks WHERE name = 'HLB'", None, pg_pool)[0]["code"]
    day, close = _close_on_or_before(pg_pool, code, wednesday)
    answer = answer_stock_question("HLB 지지난주 수요일 종가", pool=pg_pool, history=[])
    assert answer is not None and f"종가 {close:,.0f}원 ({day})" in answer.answer
    august_31 = date(today.year, 8, 31)
    last_weekday = august_31 - timedelta(days=max(0, august_31.weekday() - 4))
    monday = last_weekday - timedelta(days=last_weekday.weekday())
    if (monday + timedelta(days=2)).month != 8:  # fewer than three of its weekdays in August
        monday -= timedelta(days=7)
    answer = answer_stock_question("삼성전자 8월 마지막 주 평균 종가", pool=pg_pool, history=[])
    assert answer is not None and f"({monday} ~ " in answer.answer
    jyp = fetch_all("SELECT code FROM stocks WHERE name LIKE 'JYP%%'", None, pg_pool)[0]["code"]
    answer = answer_stock_question("JYP 엔터 종가", pool=pg_pool, history=[])
    assert answer is not None and f"({jyp})" in answer.answer and "읽었습니다" not in answer.answer


def test_a_figure_said_by_its_parts_and_a_pick_read_by_the_longer_word(pg_pool: Any) -> None:
    """'주가가 이익의 몇 배', '장부가 대비 몇 배', '시장가치' were said unread or dropped; '1년
    수익률이 가장 나쁜 화학주의 배당수익률' picked by the dividend yield ('배당수익률' holds
    '수익률', found first after the possessive)."""
    for asked, said in (("현대모비스 주가가 이익의 몇 배 수준이야", "PER "),
                        ("코웨이 장부가 대비 몇 배에 거래돼", "PBR "),
                        ("Visa 시장가치 규모", "시가총액 "), ("농심 한 주당 벌어들인 이익", "EPS")):  # fmt: skip
        answer = answer_stock_question(asked, pool=pg_pool, history=[])
        assert answer is not None and answer.status == "ok" and said in answer.answer, asked
    answer = answer_stock_question("삼성전자 영업이익 대비 주가", pool=pg_pool, history=[])
    assert answer is not None and "PER" not in answer.answer  # 영업이익 is another word
    answer = answer_stock_question("1년 수익률이 가장 나쁜 화학주의 배당수익률", pool=pg_pool,
                                   history=[])  # fmt: skip
    assert answer is not None and "1년 수익률 가장 낮은 종목의 배당수익률" in answer.answer


def test_a_funds_holdings_ordered_by_a_figure_of_their_own(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'KODEX 은행 보유종목 중 배당수익률 가장 높은 종목' and '… 1년 수익률이 가장 높은 종목의
    PER' read the heaviest holding's figure, status ok (the order asked was dropped)."""
    from agents.etf.service import answer_question as etf_answer

    rows = fetch_all(
        "SELECT s.name, s.code, f.dividend_yield FROM etf_holdings h JOIN etfs e ON e.code = "
        "h.etf_code JOIN stocks s USING (security_id) JOIN LATERAL (SELECT dividend_yield FROM "
        "stock_fundamentals WHERE security_id = h.security_id ORDER BY as_of_date DESC LIMIT 1) "
        "f ON true WHERE e.name = 'KODEX 은행' AND h.as_of_date = (SELECT max(as_of_date) FROM "
        "etf_holdings WHERE etf_code = e.code) AND f.dividend_yield IS NOT NULL "
        "ORDER BY f.dividend_yield DESC LIMIT 1", None, pg_pool)  # fmt: skip
    answer = etf_answer("KODEX 은행 보유종목 중 배당수익률 가장 높은 종목", settings=offline,
                        store=graph_store, pool=pg_pool)  # fmt: skip
    best = rows[0]
    assert answer.status == "ok"
    assert f"가장 높은 종목: {best['name']} ({best['code']}) 배당수익률 " in answer.answer
    assert f"{float(best['dividend_yield']):.2f}%" in answer.answer
    answer = etf_answer("KODEX 은행 보유종목 중 1년 수익률이 가장 높은 종목의 PBR", settings=offline,
                        store=graph_store, pool=pg_pool)  # fmt: skip
    assert answer.status == "ok" and "1년 수익률 가장 높은 종목: " in answer.answer
    assert " → PBR " in answer.answer


def test_highs_a_ratio_asked_as_a_gap_and_a_level_bar_with_a_move(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'비트코인 최근 90일 최고가' took the closes (the bars hold highs); '두 배 이상 차이 나?'
    gave the difference; '주택가격지수 100 이상이면서 미분양이 1년 전보다 늘어난 지역' read the
    bar as +100% growth and the move as a 100-unit bar, each apart."""
    high = fetch_all(
        "SELECT max(high) AS h FROM market_series_prices WHERE series_code = 'BTC-USD' AND "
        "trade_date > (SELECT max(trade_date) FROM market_series_prices WHERE series_code = "
        "'BTC-USD') - 90", None, pg_pool)[0]["h"]  # fmt: skip
    answer = macro_answer("비트코인 최근 90일 최고가", settings=offline, store=graph_store,
                          pool=pg_pool)  # fmt: skip
    assert f"최고치: {float(high):,.2f}" in answer.answer
    caps = {r["name"]: float(r["market_cap"]) for r in fetch_all(
        "SELECT DISTINCT ON (s.name) s.name, f.market_cap FROM stocks s JOIN stock_fundamentals f "
        "USING (security_id) WHERE s.name IN ('Intel', 'Micron Technology') ORDER BY s.name, "
        "f.as_of_date DESC", None, pg_pool)}  # fmt: skip
    answer = chain(answer_stock_question, ["Micron Technology 시가총액", "Intel은?", "두 배 이상 차이 나?"],
                   pool=pg_pool)  # fmt: skip
    big, small = sorted(caps, key=caps.get, reverse=True)  # type: ignore[arg-type]
    assert f"**{big} 시가총액은 {small}의 {caps[big] / caps[small]:,.2f}배" in answer.answer
    last = "(SELECT max(month) FROM re_unsold_housing)"
    kept = [r["region"] for r in fetch_all(
        f"SELECT u.region FROM re_unsold_housing u JOIN re_unsold_housing b ON b.region = u.region "
        f"AND b.month = {last} - interval '1 year' JOIN re_house_price_index p ON p.region = "
        f"u.region AND p.month = (SELECT max(month) FROM re_house_price_index) WHERE u.month = "
        f"{last} AND u.units > b.units AND p.index_value >= 100 AND u.region <> '전국'", None,
        pg_pool)]  # fmt: skip
    answer = macro_answer("주택가격지수 100 이상이면서 미분양이 1년 전보다 늘어난 지역",
                          settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    line = next(x for x in answer.answer.splitlines() if "미분양이 늘어난 지역" in x)
    assert f": {len(kept)}곳 /" in line and all(region in line for region in kept)


def test_a_pick_among_the_districts_of_a_region_said_with_its_possessive(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'전세가율 가장 낮은 서울 구의 주택가격지수' answered 서울's own figures ('구의' was not read
    as the districts)."""
    low = fetch_all(
        "SELECT j.region, p.index_value FROM re_jeonse_ratio j JOIN re_house_price_index p ON "
        "p.region = j.region AND p.month = j.month WHERE j.month = (SELECT max(month) FROM "
        "re_jeonse_ratio) AND j.region LIKE '서울 %%' ORDER BY j.ratio LIMIT 1", None, pg_pool)[0]  # fmt: skip
    answer = macro_answer("전세가율 가장 낮은 서울 구의 주택가격지수", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    assert answer.status == "ok" and f": {low['region']} " in answer.answer
    assert f"주택가격지수 {float(low['index_value']):.2f}" in answer.answer


def test_the_fund_of_a_brand_with_the_same_theme(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'TIGER 2차전지테마 보수' → '같은 테마 KODEX는?' → '둘 중 순자산 큰 건?' answered one fund
    (the brand and '같은 테마' unread, status ok)."""
    from agents.etf.service import answer_question as etf_answer

    tigers = fetch_all("SELECT t.tag FROM etf_tags t JOIN etfs e ON e.code = t.etf_code WHERE "
                       "e.name = 'TIGER 2차전지테마'", None, pg_pool)  # fmt: skip
    themes = {r["tag"] for r in tigers}
    kodex = [r for r in fetch_all(
        "SELECT e.name, e.code, array_agg(t.tag) AS tags FROM etfs e JOIN etf_tags t ON "
        "t.etf_code = e.code WHERE e.name LIKE 'KODEX%%' GROUP BY e.name, e.code", None, pg_pool)
        if themes <= set(r["tags"])]  # fmt: skip
    assert len(kodex) == 1
    answer = chain(etf_answer, ["TIGER 2차전지테마 보수", "같은 테마 KODEX는?", "둘 중 순자산 큰 건?"],
                   settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert answer.status == "ok" and kodex[0]["name"] in answer.answer
    assert "순자산총액 차이" in answer.answer


def test_words_of_rounds_160_to_163(pg_pool: Any, graph_store: Any, offline: Settings) -> None:
    """r160–r163, each status ok on another question before: '누적 수익률' summed the closes;
    '한 주당 순이익' read a week; '재작년 이맘때' read 작년; '하락률이 가장 큰' picked the
    largest rise; '1년 변화율이 마이너스인 지역 중' barred the level; '전국은 같은 기간 …' lost
    the figure and the span; 'Intel까지 셋 중 가장 낮은 건?' showed Intel alone."""
    today = last_session(pg_pool)
    closes = [float(r["close"]) for r in fetch_all(
        "SELECT close FROM stock_prices WHERE security_id = 'KR:005930' ORDER BY trade_date DESC "
        "LIMIT 6", None, pg_pool)]  # fmt: skip
    answer = answer_stock_question("삼성전자 최근 5거래일 누적 수익률", pool=pg_pool, history=[])
    assert (
        answer is not None and f"수익률: {(closes[0] / closes[5] - 1) * 100:+.2f}%" in answer.answer
    )
    eps = fetch_all("SELECT f.eps FROM stock_fundamentals f JOIN stocks s USING (security_id) "
                    "WHERE s.name = '셀트리온' ORDER BY f.as_of_date DESC LIMIT 1", None, pg_pool)  # fmt: skip
    answer = answer_stock_question("셀트리온 한 주당 순이익", pool=pg_pool, history=[])
    assert answer is not None and f"EPS(주당순이익) {float(eps[0]['eps']):,.0f}원" in answer.answer
    rate = fetch_all(
        "SELECT obs_date, value FROM macro_observations WHERE series_code = 'KR_BASE_RATE' AND "
        "obs_date <= %(d)s ORDER BY obs_date DESC LIMIT 1",
        {"d": today.replace(year=today.year - 2)}, pg_pool)[0]  # fmt: skip
    answer = macro_answer("재작년 이맘때 한국 기준금리", settings=offline, store=graph_store,
                          pool=pg_pool)  # fmt: skip
    assert f"{float(rate['value']):.2f}% ({rate['obs_date']})" in answer.answer
    last = "(SELECT max(month) FROM re_house_price_index)"
    growth = fetch_all(
        f"SELECT a.region, a.index_value / b.index_value - 1 AS g FROM re_house_price_index a "
        f"JOIN re_house_price_index b ON b.region = a.region AND b.month = {last} - interval "
        f"'1 year' WHERE a.month = {last} AND a.region IN ('부산', '대구', '인천', '광주', '대전', "
        "'울산') ORDER BY g LIMIT 1", None, pg_pool)[0]  # fmt: skip
    answer = macro_answer("주택가격지수 1년 하락률이 가장 큰 광역시의 미분양", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    assert f": {growth['region']} " in answer.answer
    answer = chain(macro_answer, ["대구 미분양", "6개월 전과 비교하면?", "전국은 같은 기간 어떻게 바뀌었어?"],
                   settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert "전국 미분양" in answer.answer and "주택가격지수" not in answer.answer
    answer = chain(answer_stock_question, ["NVIDIA PER", "AMD는?", "Intel까지 셋 중 가장 낮은 건?"],
                   pool=pg_pool)  # fmt: skip
    assert answer.answer.count("**") >= 8 and "NVIDIA" in answer.answer and "AMD" in answer.answer
