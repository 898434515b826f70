"""Fresh rounds r121–r123 (issue 31), through the real screens offline on the embedded stores:
a loss year's missing P/E, a bar at zero on a change, one of two regions picked, a sector's pick
in each market, a return over N sessions said '등락률', and '그동안' after a day named back. Each
crashed, declined or answered another question before. Truth is SQL here."""

from __future__ import annotations

from typing import Any

import pytest

from agents.macro.service import answer_question as macro_answer
from agents.stock.question import answer_stock_question
from data_access.config import Settings
from data_access.contracts import AgentAnswer
from data_access.postgres import fetch_all
from tests.conversations import chain

pytestmark = pytest.mark.usefixtures("demo_data")

_SNAPSHOT = """SELECT s.code, s.name, s.country, s.sector, f.pe FROM stocks s
JOIN LATERAL (SELECT pe FROM stock_fundamentals WHERE security_id = s.security_id
  ORDER BY as_of_date DESC LIMIT 1) f ON true WHERE NOT s.is_etf"""


def _stock(question: str, pool: Any, history: list[Any] | None = None) -> AgentAnswer:
    answer = answer_stock_question(question, pool=pool, history=history or [])
    assert answer is not None, question
    return answer


def test_a_loss_year_has_no_pe_and_no_pick_on_another_figure(pg_pool: Any) -> None:
    """'OCI홀딩스 PER 수준' crashed on the NULL P/E; after '… → LG화학은? → 둘 중 낮은 쪽은?' the
    pick fell back to the PBR, status ok."""
    loss = next(r for r in fetch_all(_SNAPSHOT, None, pg_pool) if r["pe"] is None)
    asked = _stock(f"{loss['name']} PER 수준", pg_pool)
    assert asked.status == "partial" and "PER 없음(순이익 적자)" in asked.answer
    other = next(r for r in fetch_all(_SNAPSHOT, None, pg_pool)
                 if r["pe"] is not None and r["country"] == "KR")  # fmt: skip
    turns = [f"{loss['name']} PER", f"{other['name']}은?", "둘 중 낮은 쪽은?"]
    picked = chain(lambda q, history: _stock(q, pg_pool, history), turns)
    assert picked.status == "partial" and "더 낮은 쪽" not in picked.answer


def test_a_bar_at_zero_on_a_change_and_one_of_two_regions(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'주택가격지수 1년 변화율이 마이너스인 지역' listed the regions that rose (partial); '서울과
    부산 중 전세가율 높은 곳' showed both levels and picked none, status ok."""
    fell = {r["region"] for r in fetch_all(
        "SELECT region FROM re_house_price_index a WHERE month = (SELECT max(month) FROM "
        "re_house_price_index) AND index_value < (SELECT index_value FROM re_house_price_index b "
        "WHERE b.region = a.region AND b.month = a.month - interval '12 months')", None, pg_pool)}  # fmt: skip
    answer = macro_answer("주택가격지수 1년 변화율이 마이너스인 지역", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    line = next(x for x in answer.answer.splitlines() if "상승률 0% 미만 지역" in x)
    assert answer.status == "ok" and f": {len(fell)}곳 /" in line
    assert all(f"{region} " in line for region in fell)
    ratio = {r["region"]: float(r["ratio"]) for r in fetch_all(
        "SELECT region, ratio FROM re_jeonse_ratio WHERE region IN ('서울', '부산') AND month = "
        "(SELECT max(month) FROM re_jeonse_ratio)", None, pg_pool)}  # fmt: skip
    high, low = sorted(ratio, key=ratio.get, reverse=True)  # type: ignore[arg-type]
    pick = macro_answer("서울과 부산 중 전세가율 높은 곳", settings=offline, store=graph_store,
                        pool=pg_pool)  # fmt: skip
    assert f"{high} 전세가율이 {low} 전세가율보다" in pick.answer and "높습니다" in pick.answer


def test_a_sectors_pick_in_each_market_then_its_close(pg_pool: Any) -> None:
    """'PER 제일 높은 반도체주 종가' picked in the Korean market alone and said no market."""
    rows = [r for r in fetch_all(_SNAPSHOT, None, pg_pool)
            if r["sector"] == "반도체" and r["pe"] is not None and float(r["pe"]) > 0]  # fmt: skip
    answer = _stock("PER 제일 높은 반도체주 종가", pg_pool)
    for country, market in (("KR", "국내"), ("US", "미국")):
        top = max((r for r in rows if r["country"] == country), key=lambda r: float(r["pe"]))
        assert (
            f"{market} 반도체 업종 PER 가장 높은 종목: {top['name']} ({float(top['pe']):.2f}배"
            in (answer.answer)
        )
    assert answer.status == "ok" and "더 높은 쪽" not in answer.answer  # no pick between them


def test_a_return_over_sessions_said_otherwise_and_since_then(pg_pool: Any) -> None:
    """'HLB 최근 10거래일 등락률' was the return over 10 calendar days with '10거래일' unread;
    '안랩 종가' → '한 달 전엔?' → '그동안 수익률은?' said '그동안' unread."""
    closes = [float(r["close"]) for r in fetch_all(
        "SELECT close FROM stock_prices WHERE security_id = 'KR:028300' ORDER BY trade_date DESC "
        "LIMIT 11", None, pg_pool)]  # fmt: skip
    answer = _stock("HLB 최근 10거래일 등락률", pg_pool)
    assert answer.status == "ok" and "최근 10거래일" in answer.answer
    assert f"수익률: {(closes[0] / closes[10] - 1) * 100:+.2f}%" in answer.answer
    turns = ["안랩 종가", "한 달 전엔?", "그동안 수익률은?"]
    since = chain(lambda q, history: _stock(q, pg_pool, history), turns)
    assert since.status == "ok" and "1개월 수익률" in since.answer


def test_deals_summed_over_a_year_and_regions_named_ranked(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Round 124–125: '전국 아파트 거래량 올해 합계' found no '전국' deals ('올해' unread); '경기
    아파트 거래 작년 합계' added up monthly median prices; '서울 부산 대구 중 미분양 가장 많은 곳'
    ranked the districts of 서울 and found none."""
    day = fetch_all("SELECT max(deal_date) AS d FROM re_transactions", None, pg_pool)[0]["d"]
    year = fetch_all("SELECT count(*) AS n FROM re_transactions WHERE deal_date >= %(y)s",
                     {"y": f"{day.year}-01-01"}, pg_pool)[0]["n"]  # fmt: skip
    nation = macro_answer("전국 아파트 거래량 올해 합계", settings=offline, store=graph_store,
                          pool=pg_pool)  # fmt: skip
    assert nation.status == "ok" and f"합계: {int(year):,}건" in nation.answer
    last = fetch_all(
        "SELECT count(*) AS n FROM re_transactions WHERE (region = '경기' OR region LIKE '경기 %%') "
        "AND deal_date BETWEEN %(a)s AND %(b)s",
        {"a": f"{day.year - 1}-01-01", "b": f"{day.year - 1}-12-31"}, pg_pool)[0]["n"]  # fmt: skip
    summed = macro_answer("경기 아파트 거래 작년 합계", settings=offline, store=graph_store,
                          pool=pg_pool)  # fmt: skip
    assert f"경기 실거래 건수 {day.year - 1}년" in summed.answer
    first = next(x for x in summed.answer.splitlines() if x.startswith("- "))
    assert f"합계: {int(last):,}건" in first and "중위가격" not in first
    unsold = fetch_all(
        "SELECT region, units FROM re_unsold_housing WHERE region IN ('서울', '부산', '대구') AND "
        "month = (SELECT max(month) FROM re_unsold_housing) ORDER BY units DESC", None, pg_pool)  # fmt: skip
    ranked = macro_answer("서울 부산 대구 중 미분양 가장 많은 곳", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    assert (
        f"미분양 높은 지역 순 (지역별 최신월): {unsold[0]['region']} {int(unsold[0]['units']):,}호"
        in (ranked.answer)
    )


def test_a_what_if_is_declined_and_follow_ups_since_a_day_pick(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Round 124–126: '금리 내리면 집값 오르나요' showed rate trends with status ok; '한국
    기준금리' → '6개월 전엔?' → '그동안 몇 bp 변했어?' gave the change over a year, '그동안'
    unread; '둘 중 배당 많이 주는 곳은?' showed both yields and picked none."""
    what_if = macro_answer("금리 내리면 집값 오르나요", settings=offline, store=graph_store,
                           pool=pg_pool)  # fmt: skip
    assert what_if.status != "ok" and "예측" in what_if.answer
    rows = fetch_all("SELECT obs_date, value FROM macro_observations WHERE series_code = "
                     "'KR_BASE_RATE' ORDER BY obs_date DESC LIMIT 7", None, pg_pool)  # fmt: skip
    since = chain(lambda q, history: macro_answer(q, settings=offline, store=graph_store,
                                                  pool=pg_pool, history=history),
                  ["한국 기준금리", "6개월 전엔?", "그동안 몇 bp 변했어?"])  # fmt: skip
    assert since.status == "ok" and f"{rows[6]['obs_date']}의 {float(rows[6]['value']):.2f}%" in (
        since.answer
    )
    yields = {r["code"]: float(r["dividend_yield"]) for r in fetch_all(
        "SELECT s.code, f.dividend_yield FROM stocks s JOIN LATERAL (SELECT dividend_yield FROM "
        "stock_fundamentals WHERE security_id = s.security_id ORDER BY as_of_date DESC LIMIT 1) f "
        "ON true WHERE s.code IN ('030200', '017670')", None, pg_pool)}  # fmt: skip
    higher = "KT" if yields["030200"] > yields["017670"] else "SK텔레콤"
    picked = chain(lambda q, history: _stock(q, pg_pool, history),
                   ["KT PER", "SK텔레콤은?", "둘 중 배당 많이 주는 곳은?"])  # fmt: skip
    assert picked.status == "ok" and f"배당수익률이 더 높은 쪽: {higher}" in picked.answer


def test_bars_at_a_sets_mean_on_a_regions_growth_and_at_a_value(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Round 128: '반도체 업종 평균 PER보다 낮은 반도체주 몇 개' gave the sector's means and no
    count; '주택가격지수 1년 상승률 3% 넘는 지역' listed every region that rose (partial);
    '배당수익률 0%인 종목 몇 개' was an unknown stock."""
    pes = [float(r["pe"]) for r in fetch_all(_SNAPSHOT, None, pg_pool) if r["sector"] == "반도체"
           and r["country"] == "KR" and r["pe"] is not None and float(r["pe"]) > 0]  # fmt: skip
    mean = sum(pes) / len(pes)
    below = _stock("반도체 업종 평균 PER보다 낮은 반도체주 몇 개", pg_pool)
    line = next(x for x in below.answer.splitlines() if x.startswith("- 국내"))
    assert f"PER {mean:.2f}배 미만: {len(pes)}종목 중 {sum(p < mean for p in pes)}종목" in line
    grown = fetch_all(
        "SELECT a.region, a.index_value / b.index_value - 1 AS g FROM re_house_price_index a "
        "JOIN re_house_price_index b ON b.region = a.region AND b.month = a.month - interval "
        "'12 months' WHERE a.month = (SELECT max(month) FROM re_house_price_index) AND a.region "
        "<> '전국'", None, pg_pool)  # fmt: skip
    over = [r["region"] for r in grown if float(r["g"]) > 0.03]
    barred = macro_answer("주택가격지수 1년 상승률 3% 넘는 지역", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    assert barred.status == "ok" and "상승률 3% 초과 지역" in barred.answer
    assert f": {len(over)}곳 / {len(grown)}곳" in barred.answer
    zero = fetch_all(
        "SELECT count(*) AS n FROM stocks s JOIN LATERAL (SELECT dividend_yield FROM "
        "stock_fundamentals WHERE security_id = s.security_id ORDER BY as_of_date DESC LIMIT 1) f "
        "ON true WHERE s.country = 'KR' AND NOT s.is_etf AND f.dividend_yield = 0", None, pg_pool)  # fmt: skip
    counted = _stock("배당수익률 0%인 종목 몇 개", pg_pool)
    assert counted.status == "ok" and f"종목 중 {int(zero[0]['n'])}종목" in counted.answer


def test_two_regions_averaged_and_two_rises_compared(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Round 128–129: '서울 전세가율' → '경기는?' → '두 곳 평균은?' gave each region's own
    12-month mean; '한국 CPI와 미국 CPI 중 최근 상승률 낮은 쪽' said the lower of two rises
    'fell more'."""
    ratio = {r["region"]: float(r["ratio"]) for r in fetch_all(
        "SELECT region, ratio FROM re_jeonse_ratio WHERE region IN ('서울', '경기') AND month = "
        "(SELECT max(month) FROM re_jeonse_ratio)", None, pg_pool)}  # fmt: skip
    mean = chain(lambda q, history: macro_answer(q, settings=offline, store=graph_store,
                                                 pool=pg_pool, history=history),
                 ["서울 전세가율", "경기는?", "두 곳 평균은?"])  # fmt: skip
    assert f"평균 {(ratio['서울'] + ratio['경기']) / 2:.2f}%" in mean.answer
    lower = macro_answer("한국 CPI와 미국 CPI 중 최근 상승률 낮은 쪽", settings=offline,
                         store=graph_store, pool=pg_pool)  # fmt: skip
    assert "더 많이 줄었습니다" not in lower.answer and "덜 늘었습니다" in lower.answer


def test_districts_ranked_a_larger_fall_picked_and_a_record_date_not_held(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Round 131: '전세가율 가장 높은 구' ranked the provinces (광주); '부산이랑 대구 중 주택가격지수
    1년 하락폭 큰 곳' set their rates side by side and named neither fall; '삼성전자 배당 기준일'
    gave the dividend yield, status ok."""
    top = fetch_all(
        "SELECT region, ratio FROM re_jeonse_ratio WHERE region LIKE '%% %%' AND month = (SELECT "
        "max(month) FROM re_jeonse_ratio) ORDER BY ratio DESC LIMIT 1", None, pg_pool)[0]  # fmt: skip
    district = macro_answer("전세가율 가장 높은 구", settings=offline, store=graph_store,
                            pool=pg_pool)  # fmt: skip
    assert f"(지역별 최신월): {top['region']} {float(top['ratio']):.2f}%" in district.answer
    falls = {r["region"]: float(r["d"]) for r in fetch_all(
        "SELECT a.region, a.index_value - b.index_value AS d FROM re_house_price_index a JOIN "
        "re_house_price_index b ON b.region = a.region AND b.month = a.month - interval '12 months'"
        " WHERE a.region IN ('부산', '대구') AND a.month = (SELECT max(month) FROM "
        "re_house_price_index)", None, pg_pool)}  # fmt: skip
    deeper, other = sorted(falls, key=falls.get)  # type: ignore[arg-type]
    fall = macro_answer("부산이랑 대구 중 주택가격지수 1년 하락폭 큰 곳", settings=offline,
                        store=graph_store, pool=pg_pool)  # fmt: skip
    assert f"{deeper} 주택가격지수가 {other} 주택가격지수보다" in fall.answer
    assert "더 많이 줄었습니다" in fall.answer
    record = _stock("삼성전자 배당 기준일", pg_pool)
    assert record.status == "partial" and "'배당 기준일'은 이 워크벤치 데이터에는 없습니다" in (
        record.answer
    )


def test_a_named_stock_as_a_sets_bar_and_a_pick_said_with_its_place_noun(pg_pool: Any) -> None:
    """Round 133: '삼성전자보다 PER 낮은 반도체주' gave 삼성전자 against the sector mean (yes/no);
    '반도체주 중에 PBR 제일 낮은 데 종가' ranked the closes instead of reading the pick's."""
    rows = [r for r in fetch_all(_SNAPSHOT, None, pg_pool) if r["sector"] == "반도체"
            and r["country"] == "KR" and r["pe"] is not None and float(r["pe"]) > 0]  # fmt: skip
    own = next(float(r["pe"]) for r in rows if r["code"] == "005930")
    others = [r for r in rows if r["code"] != "005930"]
    below = _stock("삼성전자보다 PER 낮은 반도체주", pg_pool)
    line = next(x for x in below.answer.splitlines() if x.startswith("- 국내"))
    assert f"PER {own:.2f}배 미만: {len(others)}종목 중 " in line
    assert f"{sum(float(r['pe']) < own for r in others)}종목" in line
    pbr = fetch_all(
        "SELECT s.name, c.close FROM stocks s JOIN LATERAL (SELECT pb FROM stock_fundamentals "
        "WHERE security_id = s.security_id ORDER BY as_of_date DESC LIMIT 1) f ON true JOIN "
        "LATERAL (SELECT close FROM stock_prices WHERE security_id = s.security_id ORDER BY "
        "trade_date DESC LIMIT 1) c ON true WHERE s.sector = '반도체' AND s.country = 'KR' AND "
        "f.pb IS NOT NULL ORDER BY f.pb LIMIT 1", None, pg_pool)[0]  # fmt: skip
    picked = _stock("반도체주 중에 PBR 제일 낮은 데 종가 알려줘", pg_pool)
    assert f"PBR 가장 낮은 종목: {pbr['name']}" in picked.answer
    assert f"종가 {float(pbr['close']):,.0f}원" in picked.answer


def test_a_years_volatility_and_a_year_to_date_extreme(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'삼성전자 작년 변동성' (and the ETF's, and 코스피's) was over the last twelve months, status
    ok; '카카오 연초 이후 최고가' was over the last eleven months, from December."""
    import statistics

    def sigma(rows: list[dict[str, Any]]) -> float:
        closes = [float(r["close"]) for r in rows]
        moves = [b / a - 1 for a, b in zip(closes, closes[1:], strict=False)]
        return statistics.stdev(moves) * 252**0.5 * 100

    day = fetch_all("SELECT max(trade_date) AS d FROM stock_prices", None, pg_pool)[0]["d"]
    last_year = fetch_all(  # the year's daily moves, its first from the close before it
        "SELECT close FROM stock_prices WHERE security_id = 'KR:005930' AND trade_date BETWEEN "
        "(SELECT max(trade_date) FROM stock_prices WHERE security_id = 'KR:005930' AND "
        "trade_date < %(a)s) AND %(b)s ORDER BY trade_date",
        {"a": f"{day.year - 1}-01-01", "b": f"{day.year - 1}-12-31"}, pg_pool)  # fmt: skip
    answer = _stock("삼성전자 작년 변동성", pg_pool)
    assert answer.status == "ok" and f"{day.year - 1}년(" in answer.answer
    assert f"연환산 변동성: {sigma(last_year):.2f}%" in answer.answer
    index = macro_answer("코스피 작년 변동성", settings=offline, store=graph_store, pool=pg_pool)
    assert index.status == "ok" and f"코스피 {day.year - 1}년(" in index.answer
    high = fetch_all(
        "SELECT max(high) AS h FROM stock_prices WHERE security_id = 'KR:035720' AND trade_date "
        ">= %(a)s", {"a": f"{day.year}-01-01"}, pg_pool)[0]["h"]  # fmt: skip
    ytd = _stock("카카오 연초 이후 최고가", pg_pool)
    assert (
        f"연초 이후({day.year}-01-" in ytd.answer and f"최고치: {float(high):,.0f}원" in ytd.answer
    )


def test_two_housing_series_composed_and_a_years_deal_mean(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Round 135: '주택가격지수 1년 하락한 지역 중 미분양 가장 많은 곳' gave two rankings of falls;
    '미분양 가장 많은 지역의 전세가율' ranked both series (partial); '부산 아파트 거래 올해 평균
    가격' averaged fifteen months of deals."""
    fell = {r["region"] for r in fetch_all(
        "SELECT a.region FROM re_house_price_index a JOIN re_house_price_index b ON b.region = "
        "a.region AND b.month = a.month - interval '12 months' WHERE a.month = (SELECT max(month) "
        "FROM re_house_price_index) AND a.index_value < b.index_value AND a.region <> '전국'",
        None, pg_pool)}  # fmt: skip
    unsold = fetch_all("SELECT region, units FROM re_unsold_housing WHERE month = (SELECT "
                       "max(month) FROM re_unsold_housing) ORDER BY units DESC", None, pg_pool)  # fmt: skip
    top = next(r for r in unsold if r["region"] in fell)
    among = macro_answer("주택가격지수 1년 하락한 지역 중 미분양 가장 많은 곳", settings=offline,
                         store=graph_store, pool=pg_pool)  # fmt: skip
    assert (
        f"줄어든 지역 {len(fell)}곳 중 미분양 높은 순: {top['region']} {int(top['units']):,}호"
        in (among.answer)
    )
    most = next(r for r in unsold if r["region"] != "전국")
    ratio = fetch_all("SELECT ratio FROM re_jeonse_ratio WHERE region = %(r)s ORDER BY month DESC "
                      "LIMIT 1", {"r": most["region"]}, pg_pool)[0]["ratio"]  # fmt: skip
    read = macro_answer("미분양 가장 많은 지역의 전세가율", settings=offline, store=graph_store,
                        pool=pg_pool)  # fmt: skip
    assert read.status == "ok" and f"{most['region']} {int(most['units']):,}호" in read.answer
    assert f"→ 전세가율 {float(ratio):.2f}%" in read.answer
    # r137: the pick is among the regions that hold the series read (unsold is per province)
    low = fetch_all(
        "SELECT j.region, u.units FROM re_jeonse_ratio j JOIN re_unsold_housing u ON u.region = "
        "j.region AND u.month = (SELECT max(month) FROM re_unsold_housing) WHERE j.month = (SELECT "
        "max(month) FROM re_jeonse_ratio) AND j.region <> '전국' ORDER BY j.ratio LIMIT 1", None,
        pg_pool)[0]  # fmt: skip
    lowest = macro_answer("전세가율 가장 낮은 지역의 미분양", settings=offline, store=graph_store,
                          pool=pg_pool)  # fmt: skip
    assert (
        f"{low['region']} " in lowest.answer
        and f"→ 미분양 {int(low['units']):,}호" in lowest.answer
    )
    year = fetch_all(
        "SELECT avg(price_krw) AS a, count(*) AS n FROM re_transactions WHERE (region = '부산' OR "
        "region LIKE '부산 %%') AND deal_date >= date_trunc('year', (SELECT max(deal_date) FROM "
        "re_transactions))", None, pg_pool)[0]  # fmt: skip
    mean = macro_answer("부산 아파트 거래 올해 평균 가격", settings=offline, store=graph_store,
                        pool=pg_pool)  # fmt: skip
    assert f"아파트 실거래 {int(year['n']):,}건의 평균 거래가격" in mean.answer


def test_a_range_of_two_bars_and_monthly_figures_over_the_window_asked(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Round 136: 'PER 20배 이상 30배 이하 종목 몇 개' and '미분양 2000호 이상 5000호 미만 지역'
    swapped the bars (none met both, status ok); '인천 전세가율 월별 추이 최근 6개월' listed twelve
    months."""
    pes = [float(r["pe"]) for r in fetch_all(_SNAPSHOT, None, pg_pool)
           if r["country"] == "KR" and r["pe"] is not None and float(r["pe"]) > 0]  # fmt: skip
    ranged = _stock("PER 20배 이상 30배 이하 종목 몇 개", pg_pool)
    line = next(x for x in ranged.answer.splitlines() if x.startswith("- 국내"))
    assert f"{len(pes)}종목 중 {sum(20 <= p <= 30 for p in pes)}종목" in line
    units = fetch_all("SELECT count(*) AS n FROM re_unsold_housing WHERE month = (SELECT max(month) "
                      "FROM re_unsold_housing) AND region <> '전국' AND units >= 2000 AND units < "
                      "5000", None, pg_pool)[0]["n"]  # fmt: skip
    regions = macro_answer("미분양 2000호 이상 5000호 미만 지역", settings=offline,
                           store=graph_store, pool=pg_pool)  # fmt: skip
    assert f"(지역별 최신월): {int(units)}곳 /" in regions.answer
    months = macro_answer("인천 전세가율 월별 추이 최근 6개월", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    monthly = next(x for x in months.answer.splitlines() if "월별 평균" in x)
    assert monthly.count(" ~ ") == 6


def test_a_days_move_then_its_volume_a_months_mean_picked_and_a_gap_asked(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Round 136: '삼성전자 최근 1년 중 가장 많이 떨어진 날 거래량' gave the day of the largest
    volume; '원달러 환율 최근 1년 중 가장 높았던 달 평균' gave the year's mean; '셀트리온 PBR' →
    '업종 평균보다 높아?' → '얼마나 높아?' repeated the no without the gap."""
    rows = fetch_all(
        "SELECT trade_date, close, volume FROM stock_prices WHERE security_id = 'KR:005930' AND "
        "trade_date >= (SELECT max(trade_date) FROM stock_prices WHERE security_id = 'KR:005930') "
        "- interval '1 year' - interval '7 days' ORDER BY trade_date", None, pg_pool)  # fmt: skip
    day = fetch_all("SELECT max(trade_date) AS d FROM stock_prices WHERE security_id = 'KR:005930'",
                    None, pg_pool)[0]["d"]  # fmt: skip
    start = day.replace(year=day.year - 1)
    base = max(i for i, r in enumerate(rows) if r["trade_date"] <= start)
    moves = [(float(b["close"]) / float(a["close"]) - 1, b) for a, b in zip(rows[base:], rows[base + 1 :], strict=False)]  # fmt: skip
    fall = min(moves, key=lambda m: m[0])[1]
    answer = _stock("삼성전자 최근 1년 중 가장 많이 떨어진 날 거래량", pg_pool)
    assert f"가장 크게 내린 날: {fall['trade_date']}" in answer.answer
    assert f"그날 거래량 {int(fall['volume']):,}주" in answer.answer
    months = fetch_all(
        "SELECT to_char(obs_date, 'YYYY-MM') AS m, avg(value) AS a FROM macro_observations WHERE "
        "series_code = 'KR_USDKRW' AND obs_date >= date_trunc('month', (SELECT max(obs_date) FROM "
        "macro_observations WHERE series_code = 'KR_USDKRW')) - interval '11 months' GROUP BY 1 "
        "ORDER BY 2 DESC LIMIT 1", None, pg_pool)[0]  # the twelve newest months  # fmt: skip
    mean = macro_answer("원달러 환율 최근 1년 중 가장 높았던 달 평균", settings=offline,
                        store=graph_store, pool=pg_pool)  # fmt: skip
    assert f"평균이 가장 높은 달: {months['m']} {float(months['a']):,.2f}" in mean.answer
    gap = chain(lambda q, history: _stock(q, pg_pool, history),
                ["셀트리온 PBR", "업종 평균보다 높아?", "얼마나 높아?"])  # fmt: skip
    assert "평균" in gap.answer and ("낮습니다" in gap.answer or "높습니다" in gap.answer)


def test_one_statistic_over_two_windows_and_their_gap(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Round 127: '미국 2년물 금리 최근 3개월 평균과 1년 평균 차이' gave the 3-month mean with
    '1년' unread (issue 31 item 3: a window statistic, then a difference)."""
    means = fetch_all(
        "SELECT avg(value) FILTER (WHERE obs_date > m - interval '1 year') AS y, avg(value) FILTER "
        "(WHERE obs_date > m - interval '3 months') AS q FROM macro_observations, (SELECT "
        "max(obs_date) AS m FROM macro_observations WHERE series_code = 'DGS2') l WHERE "
        "series_code = 'DGS2'", None, pg_pool)[0]  # fmt: skip
    answer = macro_answer("미국 2년물 금리 최근 3개월 평균과 1년 평균 차이", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    assert answer.status == "ok"
    assert f"최근 3개월 평균 {float(means['q']):.2f}%" in answer.answer
    assert f"1년 평균 {float(means['y']):.2f}%" in answer.answer
    assert f"차이 {float(means['q']) - float(means['y']):+.2f}%p" in answer.answer


def test_a_levels_year_to_date_rate_and_the_lesser_of_two_regions_carried(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Round 139: '서울 강남구 주택가격지수 올해 상승률' gave the latest level alone, status ok;
    '세종 미분양' → '광주는?' → '둘 중 적은 곳은?' compared their yearly rates, not their levels."""
    idx = {str(r["month"])[:7]: float(r["index_value"]) for r in fetch_all(
        "SELECT month, index_value FROM re_house_price_index WHERE region = '서울 강남구' ORDER BY "
        "month", None, pg_pool)}  # fmt: skip
    last = max(idx)
    base = f"{int(last[:4]) - 1}-12"
    rate = macro_answer("서울 강남구 주택가격지수 올해 상승률", settings=offline,
                        store=graph_store, pool=pg_pool)  # fmt: skip
    assert f"{(idx[last] / idx[base] - 1) * 100:+.2f}%" in rate.answer
    units = {r["region"]: int(r["units"]) for r in fetch_all(
        "SELECT region, units FROM re_unsold_housing WHERE region IN ('세종', '광주') AND month = "
        "(SELECT max(month) FROM re_unsold_housing)", None, pg_pool)}  # fmt: skip
    more, fewer = sorted(units, key=units.get, reverse=True)  # type: ignore[arg-type]
    lesser = chain(lambda q, history: macro_answer(q, settings=offline, store=graph_store,
                                                   pool=pg_pool, history=history),
                   ["세종 미분양", "광주는?", "둘 중 적은 곳은?"])  # fmt: skip
    gap = units[more] - units[fewer]
    assert f"{more} 미분양이 {fewer} 미분양보다 {gap:,}호 많습니다" in lesser.answer
