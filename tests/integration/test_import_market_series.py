"""The Yahoo importer takes index, future and crypto tickers into market_series_prices (issue 25).

A local HTTP server replays Yahoo's v8 chart format (tests/fixtures/importers, hand-written
values); the database is the importer suite's own database on the real test server.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from psycopg_pool import ConnectionPool

from data_access.importers import import_yahoo_ohlcv
from data_access.importers.market import market_series_for
from data_access.postgres import fetch_all, fetch_one
from tests.integration import test_importers as importer_suite
from tests.integration.test_importers import FIXTURES, ReplayServer

# the importer suite's fixtures: its own database (truncated per test) and the replay server
db_uri, module_pool = importer_suite.db_uri, importer_suite.module_pool
db, replay = importer_suite.db, importer_suite.replay
CHART = FIXTURES / "yahoo_chart_GSPC.json"


@pytest.mark.parametrize(
    ("ticker", "code", "kind"),
    [("^GSPC", "^GSPC", "index"), ("S&P500", "^GSPC", "index"), ("코스피", "^KS11", "index"),
     ("BTC-USD", "BTC-USD", "crypto"), ("유가", "CL=F", "commodity"), ("^N225", "^N225", "index"),
     ("GC=F", "GC=F", "commodity"), ("ETH-USD", "ETH-USD", "crypto")],
)  # fmt: skip
def test_series_tickers(ticker: str, code: str, kind: str) -> None:
    spec = market_series_for(ticker)
    assert spec is not None and (spec.code, spec.kind) == (code, kind)


@pytest.mark.parametrize("ticker", ["AAPL", "005930.KS", "BRK-B", "^", "^'; DROP TABLE x", ""])
def test_stock_tickers_stay_stocks(ticker: str) -> None:
    assert market_series_for(ticker) is None


def _clean(pool: ConnectionPool, *codes: str) -> None:
    with pool.connection() as conn:
        conn.execute("DELETE FROM market_series WHERE series_code = ANY(%s)", (list(codes),))


def test_index_import_lands_in_market_series(db: ConnectionPool, replay: ReplayServer) -> None:
    _clean(db, "^GSPC")
    replay.routes["/v8/finance/chart/%5EGSPC"] = (200, CHART)
    result = import_yahoo_ohlcv(
        "^GSPC", start=date(2024, 3, 4), end=date(2024, 3, 15), base_url=replay.url, pool=db
    )
    assert (result.status, result.rows_loaded, result.rows_skipped) == ("ok", 9, 1)
    assert (result.dataset_code, result.table_name) == ("SP500_INDEX", "market_series_prices")
    assert fetch_one("SELECT count(*) AS n FROM stock_prices", pool=db) == {"n": 0}
    series = fetch_one("SELECT name, kind, country, unit, source FROM market_series"
                       " WHERE series_code = '^GSPC'", pool=db)  # fmt: skip
    assert series == {"name": "S&P 500", "kind": "index", "country": "US", "unit": "pt",
                      "source": "yfinance"}  # fmt: skip
    bars = {r["trade_date"]: r for r in fetch_all(
        "SELECT * FROM market_series_prices WHERE series_code = '^GSPC'", pool=db)}  # fmt: skip
    assert len(bars) == 9 and date(2024, 3, 8) not in bars
    assert bars[date(2024, 3, 15)]["close"] == Decimal("5161.3400")
    expected = round((5165.22 / 5053.1 - 1) * 100, 4)  # 3/11 vs 3/7 (3/8 had no bar)
    assert float(bars[date(2024, 3, 11)]["change_rate"]) == pytest.approx(expected, abs=1e-4)
    dataset = fetch_one("SELECT table_name, filter_sql, source FROM datasets"
                        " WHERE dataset_code = 'SP500_INDEX'", pool=db)  # fmt: skip
    assert dataset == {"table_name": "market_series_prices",
                       "filter_sql": "series_code = '^GSPC'", "source": "yfinance"}  # fmt: skip
    # the Korean name imports the same series again: same rows, no duplicates
    again = import_yahoo_ohlcv(
        "S&P500", start=date(2024, 3, 4), end=date(2024, 3, 15), base_url=replay.url, pool=db
    )
    assert again.status == "ok" and [p for p, _, _ in replay.requests] == [
        "/v8/finance/chart/%5EGSPC"] * 2  # fmt: skip
    count = fetch_one("SELECT count(*) AS n FROM market_series_prices WHERE series_code = '^GSPC'",
                      pool=db)  # fmt: skip
    assert count == {"n": 9}
    aliases = {r["alias"] for r in fetch_all(
        "SELECT alias FROM entity_aliases WHERE kind = 'market' AND target = '^GSPC'", pool=db)}  # fmt: skip
    assert {"S&P500", "SPX", "에스앤피500"} <= aliases


def test_unlisted_index_gets_its_own_series_and_dataset(db: ConnectionPool,
                                                        replay: ReplayServer) -> None:  # fmt: skip
    _clean(db, "^N225")
    replay.routes["/v8/finance/chart/%5EN225"] = (200, CHART)
    result = import_yahoo_ohlcv(
        "^n225", start=date(2024, 3, 4), end=date(2024, 3, 15), base_url=replay.url, pool=db
    )
    assert (result.status, result.dataset_code) == ("ok", "MARKET_N225")
    series = fetch_one("SELECT name_en, kind FROM market_series WHERE series_code = '^N225'",
                       pool=db)  # fmt: skip
    assert series == {"name_en": "S&P 500", "kind": "index"}  # the chart's own long name
