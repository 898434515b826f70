"""Price files as users bring them, from real data shipped in PyPI packages, into a real
PostgreSQL (the importers' own test database, tests/integration/test_importers.py):

- vega_datasets `stocks.csv`: five symbols in one file (symbol,date,price), monthly, close only;
- plotly `stocks.csv.gz`: six tickers' weekly closes (normalized), wide, made long for the import;
- vega_datasets `ohlc.json`: CBOE VIX daily OHLC without a volume column.
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from datetime import date
from decimal import Decimal
from importlib import resources
from pathlib import Path

import pandas as pd
import pytest
from psycopg_pool import ConnectionPool

from data_access.errors import ImportFailed
from data_access.importers import (
    StockInfo,
    import_ohlcv_csv,
    import_ohlcv_csv_symbols,
    import_ohlcv_frame,
    import_ohlcv_frame_symbols,
)
from data_access.postgres import fetch_all, fetch_one
from tests.integration.test_importers import _cli, db, db_uri, module_pool  # noqa: F401

VEGA_STOCKS = Path(str(resources.files("vega_datasets") / "_data" / "stocks.csv"))
VEGA_OHLC = Path(str(resources.files("vega_datasets") / "_data" / "ohlc.json"))
PLOTLY_STOCKS = Path(str(resources.files("plotly") / "package_data" / "datasets" / "stocks.csv.gz"))


def _symbol_counts() -> Counter[str]:
    with VEGA_STOCKS.open(encoding="utf-8") as f:
        return Counter(row["symbol"] for row in csv.DictReader(f))


def test_vega_multi_symbol_monthly_close_only(db: ConnectionPool) -> None:  # noqa: F811
    counts = _symbol_counts()
    done = import_ohlcv_csv_symbols(VEGA_STOCKS, country="US", pool=db)
    assert done.failed == {}
    loaded = {r.dataset_code: (r.rows_loaded, r.rows_failed, r.bar_frequency) for r in done.results}
    assert loaded == {f"OHLCV_US_{s}": (n, 0, "monthly") for s, n in counts.items()}
    runs = fetch_all("SELECT dataset_code, status, rows_loaded FROM import_runs", pool=db)
    assert sorted((r["dataset_code"], r["rows_loaded"]) for r in runs) == sorted(
        (f"OHLCV_US_{s}", n) for s, n in counts.items()
    )  # one run row per series, none reported as duplicates
    nulls = fetch_one(
        "SELECT count(*) FILTER (WHERE open IS NULL AND high IS NULL AND low IS NULL"
        " AND volume IS NULL) AS null_rows, count(*) AS n, count(*) FILTER (WHERE volume = 0"
        " OR open = 0) AS zeros FROM stock_prices",
        pool=db,
    )
    assert nulls == {"null_rows": sum(counts.values()), "n": sum(counts.values()), "zeros": 0}
    first = fetch_one(
        "SELECT trade_date, close FROM stock_prices WHERE security_id = 'US:MSFT'"
        " ORDER BY trade_date LIMIT 1",
        pool=db,
    )
    assert first == {"trade_date": date(2000, 1, 1), "close": Decimal("39.8100")}  # file's row 1
    stocks = fetch_all("SELECT DISTINCT bar_frequency FROM stocks", pool=db)
    assert stocks == [{"bar_frequency": "monthly"}]
    dataset = fetch_one(
        "SELECT title_ko, max_stale_days FROM datasets WHERE dataset_code = 'OHLCV_US_IBM'", pool=db
    )
    assert dataset == {"title_ko": "IBM 월별 시세 (OHLCV)", "max_stale_days": 70}


def test_one_security_from_a_multi_symbol_file(db: ConnectionPool) -> None:  # noqa: F811
    result = import_ohlcv_csv(VEGA_STOCKS, "US:IBM", pool=db)
    assert (result.rows_loaded, result.rows_failed) == (_symbol_counts()["IBM"], 0)
    with pytest.raises(ImportFailed, match=r"5 symbols \(MSFT, AMZN, IBM, GOOG, AAPL\)"):
        import_ohlcv_csv(VEGA_STOCKS, "US:XYZ", pool=db)
    assert fetch_one("SELECT count(DISTINCT security_id) AS n FROM stock_prices", pool=db) == {
        "n": 1
    }


def test_plotly_weekly_close_only(db: ConnectionPool) -> None:  # noqa: F811
    wide = pd.read_csv(PLOTLY_STOCKS)
    long = wide.melt(id_vars="date", var_name="symbol", value_name="close")
    done = import_ohlcv_frame_symbols(long, source="plotly/stocks.csv.gz", country="US", pool=db)
    assert done.failed == {}
    assert {r.dataset_code: (r.rows_loaded, r.bar_frequency) for r in done.results} == {
        f"OHLCV_US_{t}": (len(wide), "weekly") for t in wide.columns[1:]
    }
    first = fetch_all(
        "SELECT DISTINCT close, open, volume FROM stock_prices WHERE trade_date = '2018-01-01'",
        pool=db,
    )
    assert first == [{"close": Decimal("1.0000"), "open": None, "volume": None}]
    # the same series as a plain two-column frame: weekly, one run
    one = import_ohlcv_frame(wide[["date", "AAPL"]], "US:AAPL", source="plotly AAPL", pool=db)
    assert (one.rows_loaded, one.bar_frequency) == (len(wide), "weekly")


def test_vix_without_volume_is_null_and_daily(db: ConnectionPool) -> None:  # noqa: F811
    records = json.loads(VEGA_OHLC.read_text())
    stock = StockInfo("US:^VIX", name="CBOE Volatility Index", market="Cboe", sector="지수")
    result = import_ohlcv_frame(pd.DataFrame(records), stock=stock, source="ohlc.json", pool=db)
    assert (result.rows_loaded, result.bar_frequency) == (len(records), "daily")
    volumes = fetch_all("SELECT DISTINCT volume FROM stock_prices", pool=db)
    assert volumes == [{"volume": None}]


def test_stock_report_refuses_what_it_would_misread(db: ConnectionPool) -> None:  # noqa: F811
    """Monthly bars (vega stocks.csv) and a daily series without volume (VIX) are not turned into
    daily returns, volatility or volume figures: the report says why, once (no retries)."""
    from agents.stock.service import generate_report

    import_ohlcv_csv_symbols(VEGA_STOCKS, country="US", pool=db)
    records = json.loads(VEGA_OHLC.read_text())
    import_ohlcv_frame(pd.DataFrame(records), "US:VIX", source="ohlc.json", pool=db)
    monthly = generate_report("US:IBM", pool=db, save=False)
    assert monthly.status == "error"
    assert "US:IBM의 시세는 월별 데이터입니다" in monthly.answer
    no_volume = generate_report("US:VIX", pool=db, save=False)
    assert no_volume.status == "error" and "거래량이 없는 날이 있습니다" in no_volume.answer


def test_other_frequency_into_an_existing_series_is_refused(db: ConnectionPool) -> None:  # noqa: F811
    wide = pd.read_csv(PLOTLY_STOCKS)
    import_ohlcv_frame(wide[["date", "AAPL"]], "US:AAPL", source="plotly AAPL", pool=db)
    with pytest.raises(ImportFailed, match="US:AAPL already has weekly bars and these are monthly"):
        import_ohlcv_csv(VEGA_STOCKS, "US:AAPL", pool=db)
    stored = fetch_one("SELECT count(*) AS n, min(trade_date) AS first FROM stock_prices", pool=db)
    assert stored == {"n": len(wide), "first": date(2018, 1, 1)}  # nothing mixed in
    assert fetch_one("SELECT bar_frequency FROM stocks", pool=db) == {"bar_frequency": "weekly"}


def test_cli_imports_every_symbol(db: ConnectionPool, db_uri: str) -> None:  # noqa: F811
    done = _cli(db_uri, "csv", "--kind", "ohlcv", "--file", str(VEGA_STOCKS), "--country", "US")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 5 and all("ok" in line and "monthly bars" in line for line in lines)
    assert "OHLCV_US_GOOG" in done.stdout
    no_country = _cli(db_uri, "csv", "--kind", "ohlcv", "--file", str(VEGA_STOCKS))
    assert no_country.returncode == 1 and "pass country" in no_country.stderr
