"""Stock answers dated by the security's own last bar, with staleness and frequency notes
(issue 22), on a real shipped file: vega_datasets `stocks.csv` (five symbols, monthly closes,
ending 2010-03) imported into the importers' own test database. No LLM, no fake."""

from __future__ import annotations

from datetime import date
from importlib import resources
from pathlib import Path

import pytest
from psycopg_pool import ConnectionPool

from agents.stock.dating import date_security
from agents.stock.question import answer_stock_question
from agents.understanding import lexicon
from data_access.importers import import_ohlcv_csv_symbols
from data_access.postgres import fetch_one
from tests.integration.test_importers import db, db_uri, module_pool  # noqa: F401

VEGA_STOCKS = Path(str(resources.files("vega_datasets") / "_data" / "stocks.csv"))
AS_OF = "2026-11-20"


@pytest.fixture()
def own_lexicon(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lexicon cache is per database; an empty one here makes this test load its own names
    even when a pool's conninfo repeats, and the demo's cache is put back afterwards."""
    monkeypatch.setattr(lexicon, "_cached", {})


@pytest.mark.usefixtures("own_lexicon")
def test_a_stale_monthly_series_is_dated_by_its_own_last_bar(db: ConnectionPool) -> None:  # noqa: F811
    import_ohlcv_csv_symbols(VEGA_STOCKS, country="US", pool=db)
    last = fetch_one("SELECT max(trade_date) AS d FROM stock_prices WHERE security_id = 'US:IBM'",
                     pool=db)["d"]  # type: ignore[index]  # fmt: skip
    dating = date_security("US:IBM", date.fromisoformat(AS_OF), db)
    assert (dating.last_bar, dating.frequency, dating.stale) == (last, "monthly", True)
    assert dating.window_days < dating.lag_days  # type: ignore[operator]

    answer = answer_stock_question("IBM 1년 수익률", pool=db, as_of=AS_OF)
    assert answer is not None and answer.as_of_date == last.isoformat()
    assert f"기준일 {last}" in answer.answer and "오래된 데이터입니다" in answer.answer
    assert "월별 데이터입니다" in answer.answer
    # the 1-year return from the monthly closes, by the written definition, in SQL
    truth = fetch_one(
        "WITH p AS (SELECT trade_date, close FROM stock_prices WHERE security_id = 'US:IBM'),"
        " l AS (SELECT max(trade_date) AS d FROM p)"
        " SELECT round((100 * ((SELECT close FROM p, l WHERE trade_date = l.d) / (SELECT close"
        " FROM p, l WHERE trade_date <= l.d - interval '1 year' ORDER BY trade_date DESC LIMIT 1)"
        " - 1))::numeric, 2) AS pct", pool=db,
    )  # fmt: skip
    assert truth is not None and f"1년 수익률 {float(truth['pct']):+.2f}%" in answer.answer

    rsi = answer_stock_question("IBM RSI", pool=db, as_of=AS_OF)
    assert rsi is not None and "RSI(14)" not in rsi.answer  # not read off monthly bars
