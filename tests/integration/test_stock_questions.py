"""Questions typed on the Stock screen (`answer_stock_question`) on the demo data: each figure
against independent SQL."""

from __future__ import annotations

from typing import Any

import pytest
from dateutil.relativedelta import relativedelta

from agents.stock.question import answer_stock_question
from data_access.postgres import fetch_all
from tests.truth import window_volatility_pct

pytestmark = pytest.mark.usefixtures("demo_data")


def _ask(question: str, pool: Any) -> str:
    answer = answer_stock_question(question, pool=pool)
    assert answer is not None
    return answer.answer


def test_every_stock_named_gets_the_figures_asked(pg_pool: Any) -> None:
    """'삼성전자랑 SK하이닉스 PER 비교' had answered 삼성전자 alone."""
    text = _ask("삼성전자랑 SK하이닉스 PER 비교", pg_pool)
    for sid in ("KR:005930", "KR:000660"):
        pe = fetch_all("SELECT pe FROM stock_fundamentals WHERE security_id = %s ORDER BY "
                       "as_of_date DESC LIMIT 1", (sid,), pool=pg_pool)[0]["pe"]  # fmt: skip
        assert f"({sid.split(':')[1]})" in text and f"PER {float(pe):,.2f}배" in text


def test_a_fall_from_the_high_and_the_trading_value(pg_pool: Any) -> None:
    """'고점 대비' is the latest close against the 52-week high; '거래대금' is Σ close × volume
    over the month after the base bar (SQL)."""
    rows = fetch_all("SELECT trade_date, high, close, volume FROM stock_prices WHERE security_id "
                     "= 'KR:005930' ORDER BY trade_date", pool=pg_pool)  # fmt: skip
    last = rows[-1]
    high = max(float(r["high"]) for r in rows  # the year's window: after its first day
               if r["trade_date"] > last["trade_date"] - relativedelta(months=12))  # fmt: skip
    text = _ask("삼성전자 고점 대비 얼마나 빠졌어?", pg_pool)
    assert f"최고치: {high:,.0f}원" in text
    assert f"({(float(last['close']) / high - 1) * 100:+.2f}%)" in text
    base = max(r["trade_date"] for r in rows
               if r["trade_date"] <= last["trade_date"] - relativedelta(months=1))  # fmt: skip
    value = sum(float(r["close"]) * float(r["volume"]) for r in rows if r["trade_date"] > base)
    eok = round(value / 1e8)
    assert f"거래대금 {eok // 10000:,}조 {eok % 10000:,}억 원" in _ask("삼성전자 거래대금", pg_pool)


def test_why_a_stock_moved_lists_its_news_of_the_window(pg_pool: Any) -> None:
    """'현대차 왜 떨어졌어?': the month's return and the articles tagged with it in the month."""
    text = _ask("현대차 왜 떨어졌어?", pg_pool)
    as_of = fetch_all("SELECT max(trade_date) AS d FROM stock_prices WHERE security_id = "
                      "'KR:005380'", pool=pg_pool)[0]["d"]  # fmt: skip
    n = fetch_all("SELECT count(*) AS n FROM news_articles WHERE tickers @> ARRAY['KR:005380'] "
                  "AND published_at >= %s AND published_at < %s", (as_of - relativedelta(days=30),
                  as_of + relativedelta(days=1)), pool=pg_pool)[0]["n"]  # fmt: skip
    assert "1개월 수익률" in text
    assert (f"뉴스 {n}건" in text) if n else ("태그된 뉴스가 없어" in text)


def test_a_stocks_volatility_is_the_windows_daily_returns(pg_pool: Any) -> None:
    """'삼성전자 최근 한 달 변동성': sample stdev of the daily returns from the month's base bar
    (the last on or before a month before the last bar) × √252 — it was answered with the
    close, the return and the P/E."""
    rows = fetch_all("SELECT trade_date, close FROM stock_prices WHERE security_id = "
                     "'KR:005930' ORDER BY trade_date", pool=pg_pool)  # fmt: skip
    sigma = window_volatility_pct(rows, relativedelta(months=1))
    text = _ask("삼성전자 최근 한 달 변동성", pg_pool)
    assert "1개월(" in text and f"연환산 변동성: {sigma:.2f}%" in text and "PER" not in text, text


def test_a_why_against_the_move_says_so_first(pg_pool: Any) -> None:
    """'왜 올랐어?' over a month the stock fell (SQL) opens with the premise being wrong."""
    rows = fetch_all("SELECT trade_date, close FROM stock_prices WHERE security_id = "
                     "'KR:000660' ORDER BY trade_date", pool=pg_pool)  # fmt: skip
    last = rows[-1]
    base = max((r for r in rows if r["trade_date"] <= last["trade_date"] - relativedelta(months=1)),
               key=lambda r: r["trade_date"])  # fmt: skip
    fell = float(last["close"]) < float(base["close"])
    lines = _ask("SK하이닉스 왜 올랐어?", pg_pool).splitlines()
    opened = next(line for line in lines if line.startswith("- "))
    assert opened.startswith("- 질문과 달리 SK하이닉스는") == fell, lines
