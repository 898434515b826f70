"""The stock screen given an index, VIX, BTC or WTI symbol (issue 25): the series' level with its
change, 52-week range and period returns, each equal to SQL over market_series_prices; a stock
symbol still gets the report workflow."""

from __future__ import annotations

from typing import Any

import pytest

from agents.stock.service import generate_report
from data_access.postgres import fetch_all

pytestmark = pytest.mark.usefixtures("demo_data")


@pytest.mark.parametrize(
    ("symbol", "code", "unit"),
    [("코스피", "^KS11", "포인트"), ("^GSPC", "^GSPC", "포인트"), ("비트코인", "BTC-USD", "달러"),
     ("CL=F", "CL=F", "달러/배럴")],
)  # fmt: skip
def test_index_symbol_gets_its_level(symbol: str, code: str, unit: str, pg_pool: Any) -> None:
    answer = generate_report(symbol, pool=pg_pool, save=False)
    rows = fetch_all("SELECT trade_date, close FROM market_series_prices WHERE series_code = %s"
                     " ORDER BY trade_date DESC LIMIT 2", (code,), pool=pg_pool)  # fmt: skip
    close, prev = float(rows[0]["close"]), float(rows[1]["close"])
    assert answer.status == "ok" and f"({code})는 종목이 아니라" in answer.answer
    assert f"종가 {close:,.2f}{unit} ({rows[0]['trade_date']})" in answer.answer
    assert f"({(close / prev - 1) * 100:+.2f}%)" in answer.answer
    quote = answer.payload["index_quote"]
    assert quote["series_code"] == code and quote["returns"]["1y"] is not None
    assert [c.table for c in answer.structured_citations] == ["market_series_prices"]
    assert answer.payload["series"][0]["points"][-1] == (str(rows[0]["trade_date"]), close)


def test_stock_symbol_still_gets_a_report(pg_pool: Any) -> None:
    answer = generate_report("005930", pool=pg_pool, save=False)
    assert "index_quote" not in answer.payload and answer.payload.get("security_id") == "KR:005930"
