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

pytestmark = pytest.mark.usefixtures("demo_data")


@pytest.fixture(scope="module")
def offline(settings: Settings) -> Settings:
    return settings.model_copy(update={"llm_model": None, "llm_model_macro": None})


def _last_session(pg_pool: Any) -> date:
    rows = fetch_all("SELECT max(trade_date) AS d FROM stock_prices", None, pg_pool)
    return rows[0]["d"]  # type: ignore[no-any-return]


def test_a_count_and_an_average_price_of_deals_are_both_answered(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'서울 서초구 아파트 지난 3개월 거래 건수와 평균가' averaged the monthly counts, status ok."""
    as_of = _last_session(pg_pool)
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
    today = _last_session(pg_pool)
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
    today = _last_session(pg_pool)
    first = (today.replace(day=1) - timedelta(days=1)).replace(day=1)
    monday = first - timedelta(days=first.weekday())
    if (monday + timedelta(days=3)).month != first.month:  # a month's week holds its Thursday
        monday += timedelta(days=7)
    week = (monday + timedelta(days=14), monday + timedelta(days=20))
    mean = fetch_all(
        "SELECT avg(close) AS c FROM stock_prices WHERE security_id = 'KR:005930' AND trade_date "
        "BETWEEN %(a)s AND %(b)s", {"a": week[0], "b": week[1]}, pg_pool)[0]["c"]  # fmt: skip
    answer = answer_stock_question("삼성전자 지난달 셋째 주 평균 종가", pool=pg_pool, history=[])
    assert answer is not None and answer.status == "ok"
    assert f"{first.month}월 셋째 주({week[0]}" in answer.answer
    assert f"평균: {float(mean):,.0f}원" in answer.answer
