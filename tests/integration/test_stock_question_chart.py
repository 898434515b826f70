"""A stock question's answer is charted from its own figures (issue 33): the sessions of the window
it asked about, checked against independent SQL on the demo data, and the extreme it named.

The expected sessions come from the tables here (the last N sessions, a calendar year), not
from the screen's own functions, so a window cut to the wrong days fails the test.
"""

from __future__ import annotations

from typing import Any

import pytest

from agents.stock.charts import window_figure
from agents.stock.question import answer_stock_question
from agents.stock.report_window import question_window
from data_access.postgres import fetch_all

pytestmark = pytest.mark.usefixtures("demo_data")

LAST_SESSIONS = """
SELECT trade_date, close FROM (
    SELECT trade_date, close FROM stock_prices WHERE security_id = %(sid)s
      AND trade_date <= (SELECT max(trade_date) FROM stock_prices WHERE security_id = %(sid)s)
    ORDER BY trade_date DESC LIMIT %(n)s) t ORDER BY trade_date
"""
MONTH_BACK = """
WITH last AS (SELECT max(trade_date) AS d FROM stock_prices WHERE security_id = %(sid)s),
     base AS (SELECT max(trade_date) AS d FROM stock_prices, last
              WHERE security_id = %(sid)s AND trade_date <= last.d - interval '1 month')
SELECT trade_date, volume FROM stock_prices, base, last WHERE security_id = %(sid)s
  AND trade_date BETWEEN base.d AND last.d ORDER BY trade_date
"""
YEAR_HIGH = """
SELECT trade_date, high FROM stock_prices WHERE security_id = %(sid)s
  AND trade_date >= make_date(%(year)s, 1, 1) AND trade_date < make_date(%(year)s + 1, 1, 1)
ORDER BY high DESC, trade_date LIMIT 1
"""


def test_last_n_sessions_are_the_window_charted(pg_pool: Any) -> None:
    answer = answer_stock_question("SK하이닉스 최근 5일 종가", pool=pg_pool)
    rows, label = question_window(answer, pg_pool)
    truth = fetch_all(LAST_SESSIONS, {"sid": "KR:000660", "n": 5}, pg_pool)
    assert [r["date"] for r in rows] == [t["trade_date"].isoformat() for t in truth]
    assert [r["close"] for r in rows] == [float(t["close"]) for t in truth]
    assert label == "최근 5거래일"
    figure = window_figure(rows, "SK하이닉스", label)
    assert figure.layout.title.text == "SK하이닉스 종가 (최근 5거래일)"
    written = [a.text for a in figure.layout.annotations]
    assert written == [f"{rows[0]['close']:,.0f}", f"{rows[-1]['close']:,.0f}"]


def test_a_month_window_starts_at_the_close_on_or_before_its_first_day(pg_pool: Any) -> None:
    answer = answer_stock_question("SK하이닉스 최근 1개월 거래량", pool=pg_pool)
    rows, label = question_window(answer, pg_pool)
    truth = fetch_all(MONTH_BACK, {"sid": "KR:000660"}, pg_pool)
    assert [r["date"] for r in rows] == [t["trade_date"].isoformat() for t in truth]
    assert [r["volume"] for r in rows] == [int(t["volume"]) for t in truth]
    assert label == "1개월"
    assert window_figure(rows, "SK하이닉스", label, volume=True).layout.title.text == (
        "SK하이닉스 거래량 (1개월)"
    )


def test_a_year_high_is_marked_on_its_session(pg_pool: Any) -> None:
    answer = answer_stock_question("현대차 올해 최고가", pool=pg_pool)
    rows, label = question_window(answer, pg_pool)
    year = int(answer.as_of_date[:4]) if answer.as_of_date else 2026
    assert rows and all(r["date"].startswith(str(year)) for r in rows)
    truth = fetch_all(YEAR_HIGH, {"sid": "KR:005380", "year": year}, pg_pool)[0]
    figure = window_figure(rows, "현대차", label, extreme=("max", "high"))
    note = figure.layout.annotations[-1].text
    assert note == f"최고 {float(truth['high']):,.0f} ({truth['trade_date'].isoformat()[5:]})"
    assert f"{float(truth['high']):,.0f}" in answer.answer


def test_an_answer_that_read_no_prices_has_no_chart(pg_pool: Any) -> None:
    answer = answer_stock_question("삼성전자 PER이랑 PBR", pool=pg_pool)
    assert answer.status == "ok"
    assert question_window(answer, pg_pool) == ([], "")
