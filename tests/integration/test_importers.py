"""Importers against a real PostgreSQL (own database) and a real HTTP server on 127.0.0.1.

Network importers run their real HTTP code against a local replay server serving responses
recorded in the services' formats (tests/fixtures/importers). The last tests load real public
data shipped inside the `vega_datasets` PyPI package.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from datetime import UTC, date, datetime
from decimal import Decimal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pandas as pd
import psycopg
import pytest
from psycopg.conninfo import make_conninfo
from psycopg_pool import ConnectionPool
from pydantic import SecretStr

from data_access.config import Settings
from data_access.errors import ImportFailed
from data_access.importers import (
    SeriesInfo,
    StockInfo,
    import_etf_holdings_csv,
    import_fred_series,
    import_macro_csv,
    import_ohlcv_csv,
    import_ohlcv_frame,
    import_yahoo_ohlcv,
)
from data_access.importers.yahoo import parse_chart, security_for_ticker
from data_access.postgres import fetch_all, fetch_one, get_pool, migrate
from data_access.services import ServiceInfo

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "importers"
TEST_DATABASE = "atlas_importers_test"
DATA_TABLES = (
    "import_runs, datasets, stock_prices, etf_holdings, etf_tags, etfs, managers, "
    "stocks, macro_observations, macro_series"
)


# ---------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def db_uri(services: ServiceInfo) -> str:
    """Our own database on the test server, so other suites' TRUNCATEs cannot race us."""
    with psycopg.connect(services.postgres_uri, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (TEST_DATABASE,))
        if exists.fetchone() is None:
            conn.execute(f'CREATE DATABASE "{TEST_DATABASE}"')
    return make_conninfo(services.postgres_uri, dbname=TEST_DATABASE)


@pytest.fixture(scope="module")
def module_pool(db_uri: str, settings: Settings) -> ConnectionPool:
    pool = get_pool(db_uri, settings)
    migrate(pool)
    return pool


@pytest.fixture()
def db(module_pool: ConnectionPool) -> ConnectionPool:
    with module_pool.connection() as conn:
        conn.execute(f"TRUNCATE {DATA_TABLES} RESTART IDENTITY CASCADE")
    return module_pool


class ReplayServer:
    """Serves recorded JSON by path (and `series_id`), recording every request it gets."""

    def __init__(self) -> None:
        self.routes: dict[str, tuple[int, Path]] = {}
        self.requests: list[tuple[str, dict[str, str], dict[str, str]]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                parts = urlsplit(self.path)
                query = {k: v[0] for k, v in parse_qs(parts.query).items()}
                server.requests.append((parts.path, query, dict(self.headers)))
                key = parts.path + (
                    f"?series_id={query['series_id']}" if "series_id" in query else ""
                )
                status, body = 404, b'{"error": "no such route"}'
                if key in server.routes:
                    status, file = server.routes[key]
                    body = file.read_bytes()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:  # keep pytest output clean
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture()
def replay() -> Iterator[ReplayServer]:
    server = ReplayServer()
    yield server
    server.close()


@pytest.fixture()
def fred_settings(settings: Settings) -> Settings:
    return settings.model_copy(update={"fred_api_key": SecretStr("test-key-123")})


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def runs(pool: ConnectionPool) -> list[dict[str, Any]]:
    return fetch_all("SELECT * FROM import_runs ORDER BY run_id", pool=pool)


# ---------------------------------------------------------------- CSV: OHLCV


def test_korean_cp949_ohlcv_creates_stock_and_is_idempotent(db: ConnectionPool) -> None:
    file = FIXTURES / "ohlcv_kr_005930_cp949.csv"
    meta = StockInfo("", name="삼성전자", market="KOSPI", sector="반도체")
    first = import_ohlcv_csv(file, code="5930", country="KR", stock=meta, pool=db)

    assert (first.status, first.rows_read, first.rows_loaded, first.rows_failed) == ("ok", 5, 5, 0)
    assert (first.first_date, first.last_date) == (date(2024, 1, 2), date(2024, 1, 8))
    stock = fetch_one("SELECT * FROM stocks WHERE security_id = 'KR:005930'", pool=db)
    assert stock is not None
    assert (stock["name"], stock["market"], stock["sector"], stock["currency"]) == (
        "삼성전자",
        "KOSPI",
        "반도체",
        "KRW",
    )
    prices = fetch_all(
        "SELECT * FROM stock_prices WHERE security_id = 'KR:005930' ORDER BY trade_date", pool=db
    )
    assert [p["close"] for p in prices] == [79600, 77000, 77000, 76600, 76500]
    assert prices[0]["volume"] == 17_142_847
    assert prices[0]["change_rate"] is None  # no earlier close stored
    assert prices[1]["change_rate"] == Decimal("-3.2663")  # 77000 / 79600 - 1

    again = import_ohlcv_csv(file, "KR:005930", pool=db)
    assert (again.status, again.rows_loaded) == ("ok", 5)
    count = fetch_one("SELECT count(*) AS n FROM stock_prices", pool=db)
    assert count == {"n": 5}
    stock_after = fetch_one(
        "SELECT name, sector FROM stocks WHERE security_id = 'KR:005930'", pool=db
    )
    assert stock_after == {"name": "삼성전자", "sector": "반도체"}  # not reset to defaults
    assert [(r["status"], r["importer"], r["dataset_code"]) for r in runs(db)] == [
        ("ok", "csv", "OHLCV_KR_005930"),
        ("ok", "csv", "OHLCV_KR_005930"),
    ]
    dataset = fetch_one("SELECT * FROM datasets WHERE dataset_code = 'OHLCV_KR_005930'", pool=db)
    assert dataset is not None
    assert dataset["table_name"] == "stock_prices"
    assert dataset["filter_sql"] == "security_id = 'KR:005930'"
    assert dataset["title_ko"] == "삼성전자 일별 시세 (OHLCV)"
    rows = fetch_all(
        f"SELECT count(*) AS n FROM {dataset['table_name']} WHERE {dataset['filter_sql']}", pool=db
    )
    assert rows == [{"n": 5}]  # the registered filter selects exactly this dataset


def test_partially_bad_file_loads_good_rows_and_keeps_stored_ones(
    db: ConnectionPool, tmp_path: Path
) -> None:
    earlier = tmp_path / "earlier.csv"
    earlier.write_text(
        "date,open,high,low,close,volume\n"
        "2024-01-31,99.5,100.9,99.1,100.4,1200000\n"
        "2024-02-01,101.0,101.5,100.0,100.0,1000000\n"
    )
    import_ohlcv_csv(earlier, "US:XYZ", pool=db)

    result = import_ohlcv_csv(FIXTURES / "ohlcv_us_xyz_partial.csv", "US:XYZ", pool=db)

    assert (result.status, result.rows_read, result.rows_loaded, result.rows_failed) == (
        "partial",
        8,
        4,
        4,
    )
    described = [f.describe() for f in result.failures]
    assert described[0] == "line 6: 8 fields but the header has 7"
    assert "line 3, column 'Close': '17O.50' is not a number" in described
    assert any(
        d.startswith("line 5, column 'Date': '2024-02-30' is not a valid date") for d in described
    )
    assert "line 8: duplicate of line 4 (2024-02-05)" in described
    closes = {
        r["trade_date"].isoformat(): r["close"]
        for r in fetch_all("SELECT trade_date, close FROM stock_prices", pool=db)
    }
    assert closes == {
        "2024-01-31": Decimal("100.4000"),  # stored before, not in this file: kept
        "2024-02-01": Decimal("103.1000"),  # in both: updated (raw Close, not Adj Close)
        "2024-02-05": Decimal("102.2000"),
        "2024-02-07": Decimal("104.3000"),
        "2024-02-08": Decimal("103.8000"),
    }
    stock = fetch_one("SELECT name, market, sector, currency FROM stocks", pool=db)
    assert stock == {"name": "XYZ", "market": "US", "sector": "미분류", "currency": "USD"}
    last_run = runs(db)[-1]
    assert (last_run["status"], last_run["rows_read"], last_run["rows_loaded"]) == ("partial", 8, 4)
    assert last_run["rows_failed"] == 4
    assert "line 3, column 'Close'" in last_run["error"]


def test_missing_column_is_fatal_and_names_the_column(db: ConnectionPool, tmp_path: Path) -> None:
    file = tmp_path / "no_close.csv"
    file.write_text("Date,Open,High,Low,Volume\n2024-01-02,1,2,0.5,10\n")
    with pytest.raises(ImportFailed, match=r"column 'close' not found .*'종가'.*\['Date', 'Open'"):
        import_ohlcv_csv(file, "US:XYZ", pool=db)
    [run] = runs(db)
    assert run["status"] == "error" and "column 'close' not found" in run["error"]
    assert fetch_one("SELECT count(*) AS n FROM stocks", pool=db) == {"n": 0}


def test_all_rows_bad_is_fatal(db: ConnectionPool, tmp_path: Path) -> None:
    file = tmp_path / "bad.csv"
    file.write_text(
        "date,open,high,low,close,volume\n2024-01-02,x,2,1,1.5,10\n2024-01-03,1,2,3,1.5,10\n"
    )
    with pytest.raises(ImportFailed) as caught:
        import_ohlcv_csv(file, "US:XYZ", pool=db)
    message = str(caught.value)
    assert "no row of" in message and "could be loaded: 2 rows failed" in message
    assert "line 2, column 'open': 'x' is not a number" in message
    assert "line 3, column 'low': low 3.0 is above high 2.0" in message
    [run] = runs(db)
    assert (run["status"], run["rows_read"], run["rows_loaded"], run["rows_failed"]) == (
        "error",
        2,
        0,
        2,
    )


def test_database_error_rolls_back_the_whole_import(db: ConnectionPool, tmp_path: Path) -> None:
    import_ohlcv_csv(FIXTURES / "ohlcv_kr_005930_cp949.csv", "KR:005930", pool=db)
    file = tmp_path / "overflow.csv"
    # Parses fine, but 1e12 does not fit numeric(14,4): the insert fails after the stock upsert.
    file.write_text("날짜,시가,고가,저가,종가,거래량\n2024-01-09,1,1000000000000,1,1,5\n")
    meta = StockInfo("", name="새이름")
    with pytest.raises(ImportFailed, match="PostgreSQL rejected the import"):
        import_ohlcv_csv(file, "KR:005930", stock=meta, pool=db)
    assert fetch_one("SELECT name FROM stocks", pool=db) == {"name": "005930"}  # not 새이름
    assert fetch_one("SELECT count(*) AS n FROM stock_prices", pool=db) == {"n": 5}
    assert [r["status"] for r in runs(db)] == ["ok", "error"]


def test_frame_import_accepts_aliases_and_adjusted_close_only(db: ConnectionPool) -> None:
    frame = pd.DataFrame(
        {
            "Date": ["2024-03-01", "2024-03-04"],
            "OPEN": ["10", "11"],
            "High": ["12", "12.5"],
            "low": ["9.5", "10.5"],
            "Adj Close": ["11.2", "12.1"],
            "거래량": ["1,000", "2,000"],
        }
    )
    result = import_ohlcv_frame(frame, "US:ABC", source="test frame", pool=db)
    assert (result.status, result.rows_loaded) == ("ok", 2)
    rows = fetch_all("SELECT close, volume FROM stock_prices ORDER BY trade_date", pool=db)
    assert rows == [
        {"close": Decimal("11.2000"), "volume": 1000},
        {"close": Decimal("12.1000"), "volume": 2000},
    ]


def test_bad_security_id_is_refused_before_reading(db: ConnectionPool) -> None:
    with pytest.raises(ImportFailed, match="not a security_id"):
        import_ohlcv_csv(FIXTURES / "ohlcv_us_xyz_partial.csv", "KR:12", pool=db)


# ---------------------------------------------------------------- CSV: macro and holdings


def test_macro_csv_with_korean_headers(db: ConnectionPool) -> None:
    series = SeriesInfo(
        "KR_BASE_RATE", "Bank of Korea base rate", "한국은행 기준금리", "KR", "percent", "monthly",
        "csv:macro_kr_base_rate.csv",
    )  # fmt: skip
    result = import_macro_csv(FIXTURES / "macro_kr_base_rate.csv", series, pool=db)
    assert (result.status, result.rows_loaded, result.dataset_code) == ("ok", 12, "KR_BASE_RATE")
    values = {
        r["obs_date"]: r["value"]
        for r in fetch_all("SELECT obs_date, value FROM macro_observations", pool=db)
    }
    assert values[date(2024, 9, 1)] == 3.5 and values[date(2024, 10, 1)] == 3.25
    assert values[date(2024, 12, 1)] == 3.0
    dataset = fetch_one("SELECT * FROM datasets", pool=db)
    assert dataset is not None
    assert (dataset["domain"], dataset["title_ko"], dataset["max_stale_days"]) == (
        "macro",
        "한국은행 기준금리",
        70,
    )


def test_etf_holdings_load_known_stocks_and_fail_unknown_ones(db: ConnectionPool) -> None:
    with db.connection() as conn:
        conn.execute("INSERT INTO managers (name) VALUES ('삼성자산운용')")
        conn.execute(
            "INSERT INTO etfs (code, name, manager, expense_ratio) VALUES ('069500', 'KODEX 200', '삼성자산운용', 0.15)"
        )
        conn.execute(
            "INSERT INTO stocks (security_id, country, code, name, market, sector, currency) VALUES"
            " ('KR:005930', 'KR', '005930', '삼성전자', 'KOSPI', '반도체', 'KRW'),"
            " ('KR:000660', 'KR', '000660', 'SK하이닉스', 'KOSPI', '반도체', 'KRW')"
        )
    result = import_etf_holdings_csv(
        FIXTURES / "etf_holdings_069500.csv", etf_code="069500", pool=db
    )
    assert (result.status, result.rows_read, result.rows_loaded, result.rows_failed) == (
        "partial",
        3,
        2,
        1,
    )
    assert result.failures[0].describe() == (
        "line 4, column 'stock': stock KR:999999 is not in stocks (import its prices first)"
    )
    holdings = fetch_all(
        "SELECT security_id, weight, shares FROM etf_holdings ORDER BY weight DESC", pool=db
    )
    assert holdings == [
        {"security_id": "KR:005930", "weight": Decimal("30.1200"), "shares": 8190},
        {"security_id": "KR:000660", "weight": Decimal("9.8700"), "shares": 1021},
    ]
    dataset = fetch_one("SELECT dataset_code, title_ko FROM datasets", pool=db)
    assert dataset == {"dataset_code": "ETF_HOLDINGS_069500", "title_ko": "KODEX 200 구성종목"}


# ---------------------------------------------------------------- Yahoo


def test_parse_chart_reads_the_v8_format() -> None:
    chart = parse_chart(json.loads((FIXTURES / "yahoo_chart_AAPL.json").read_text()))
    assert (chart.symbol, chart.exchange_code, chart.long_name, chart.currency) == (
        "AAPL",
        "NMS",
        "Apple Inc.",
        "USD",
    )
    assert (chart.bars.read, len(chart.bars.rows), chart.bars.skipped, chart.bars.failures) == (
        10,
        9,
        1,
        [],
    )
    days = [b.trade_date for b in chart.bars.rows]
    assert days[0] == date(2024, 3, 4) and date(2024, 3, 8) not in days  # the null (halted) row
    assert days[-1] == date(2024, 3, 15)  # stamped 13:30 UTC after the DST switch
    assert round(chart.bars.rows[0].close, 2) == 175.10 and chart.bars.rows[0].volume == 81_510_100
    assert round(chart.adj_close[date(2024, 3, 4)], 2) == 174.14


def test_ticker_mapping() -> None:
    assert security_for_ticker("aapl") == ("US:AAPL", None)
    assert security_for_ticker("005930.KS") == ("KR:005930", "KOSPI")
    assert security_for_ticker("035720.KQ") == ("KR:035720", "KOSDAQ")
    with pytest.raises(ImportFailed, match="pass security_id"):
        security_for_ticker("7203.T")


def test_yahoo_import_over_http(db: ConnectionPool, replay: ReplayServer) -> None:
    replay.routes["/v8/finance/chart/AAPL"] = (200, FIXTURES / "yahoo_chart_AAPL.json")
    result = import_yahoo_ohlcv(
        "AAPL", start=date(2024, 3, 4), end=date(2024, 3, 15), base_url=replay.url, pool=db
    )
    assert (result.status, result.importer, result.rows_read, result.rows_loaded) == (
        "ok",
        "yfinance",
        10,
        9,
    )
    assert result.rows_skipped == 1
    assert result.source == f"{replay.url}/v8/finance/chart/AAPL"
    [(path, query, headers)] = replay.requests
    assert query["interval"] == "1d"
    assert int(query["period1"]) == int(datetime(2024, 3, 4, tzinfo=UTC).timestamp())
    assert int(query["period2"]) == int(datetime(2024, 3, 16, tzinfo=UTC).timestamp())
    assert "Mozilla" in headers["User-Agent"]
    stock = fetch_one("SELECT name, name_en, market, sector, currency FROM stocks", pool=db)
    assert stock == {
        "name": "Apple Inc.",
        "name_en": "Apple Inc.",
        "market": "NASDAQ",
        "sector": "미분류",
        "currency": "USD",
    }
    prices = {
        r["trade_date"]: r
        for r in fetch_all("SELECT * FROM stock_prices WHERE security_id = 'US:AAPL'", pool=db)
    }
    assert len(prices) == 9 and date(2024, 3, 8) not in prices
    assert prices[date(2024, 3, 15)]["close"] == Decimal("172.6200")
    assert prices[date(2024, 3, 11)]["change_rate"] == Decimal("2.2189")  # vs 3/7 (3/8 empty)
    [run] = runs(db)
    assert (run["importer"], run["dataset_code"], run["status"]) == (
        "yfinance",
        "OHLCV_US_AAPL",
        "ok",
    )


def test_yahoo_error_response_is_reported(db: ConnectionPool, replay: ReplayServer) -> None:
    replay.routes["/v8/finance/chart/NOPE"] = (404, FIXTURES / "yahoo_chart_not_found.json")
    with pytest.raises(ImportFailed, match="Not Found: No data found, symbol may be delisted"):
        import_yahoo_ohlcv("NOPE", start=date(2024, 1, 1), base_url=replay.url, pool=db)
    [run] = runs(db)
    assert run["status"] == "error" and "No data found" in run["error"]


def test_yahoo_unreachable_network_is_a_clear_error(db: ConnectionPool) -> None:
    base = f"http://127.0.0.1:{closed_port()}"
    with pytest.raises(
        ImportFailed, match=r"cannot reach Yahoo Finance at .* after 2 attempts \(ConnectError"
    ):
        import_yahoo_ohlcv("AAPL", start=date(2024, 1, 1), base_url=base, attempts=2, pool=db)
    [run] = runs(db)
    assert (run["status"], run["rows_read"]) == ("error", 0)


# ---------------------------------------------------------------- FRED


def _fred_routes(replay: ReplayServer, series: str, observations: str) -> None:
    replay.routes[f"/fred/series?series_id={series}"] = (
        200,
        FIXTURES / f"fred_series_{series}.json",
    )
    replay.routes[f"/fred/series/observations?series_id={series}"] = (200, FIXTURES / observations)


def test_fred_without_key_says_which_setting_to_set(
    db: ConnectionPool, settings: Settings, replay: ReplayServer
) -> None:
    no_key = settings.model_copy(update={"fred_api_key": None})
    with pytest.raises(
        ImportFailed, match="FRED_API_KEY .* fred_api_key in .streamlit/secrets.toml"
    ):
        import_fred_series("FEDFUNDS", settings=no_key, base_url=replay.url, pool=db)
    assert replay.requests == []
    [run] = runs(db)
    assert (run["importer"], run["status"], run["dataset_code"]) == ("fred", "error", "FEDFUNDS")


def test_fred_import_then_revision(
    db: ConnectionPool, fred_settings: Settings, replay: ReplayServer
) -> None:
    _fred_routes(replay, "FEDFUNDS", "fred_observations_FEDFUNDS.json")
    first = import_fred_series("FEDFUNDS", settings=fred_settings, base_url=replay.url, pool=db)
    assert (first.status, first.rows_read, first.rows_loaded, first.rows_revised) == (
        "ok",
        15,
        15,
        0,
    )
    assert "test-key-123" not in first.source
    assert {q["api_key"] for _, q, _ in replay.requests} == {"test-key-123"}
    series = fetch_one("SELECT * FROM macro_series", pool=db)
    assert series == {
        "series_code": "FEDFUNDS",
        "name": "Federal Funds Effective Rate (NSA)",
        "name_ko": "미국 연방기금 실효금리 (월평균)",
        "country": "US",
        "unit": "Percent",
        "frequency": "monthly",
        "source": "FRED",
    }
    august = fetch_one("SELECT * FROM macro_observations WHERE obs_date = '2023-08-01'", pool=db)
    assert august is not None
    assert (august["value"], august["as_of_date"], august["revision_flag"]) == (
        5.33,
        date(2024, 4, 10),
        False,
    )
    assert august["published_at"] == datetime(2024, 4, 10, tzinfo=UTC)

    _fred_routes(replay, "FEDFUNDS", "fred_observations_FEDFUNDS_revised.json")
    second = import_fred_series("FEDFUNDS", settings=fred_settings, base_url=replay.url, pool=db)
    assert (second.rows_loaded, second.rows_revised) == (16, 1)
    rows = {
        r["obs_date"]: r
        for r in fetch_all("SELECT * FROM macro_observations ORDER BY obs_date", pool=db)
    }
    assert len(rows) == 16
    march = rows[date(2024, 3, 1)]
    assert (march["value"], march["revision_flag"]) == (5.32, True)
    assert march["published_at"] == datetime(2024, 5, 2, tzinfo=UTC)
    february = rows[date(2024, 2, 1)]
    assert (february["revision_flag"], february["as_of_date"]) == (False, date(2024, 5, 2))
    assert february["published_at"] == datetime(2024, 4, 10, tzinfo=UTC)  # first seen, unchanged
    assert [r for r in rows.values() if r["revision_flag"]] == [march]
    dataset = fetch_one("SELECT * FROM datasets", pool=db)
    assert dataset is not None
    assert (dataset["dataset_code"], dataset["source"], dataset["filter_sql"]) == (
        "FEDFUNDS",
        "fred",
        "series_code = 'FEDFUNDS'",
    )


def test_fred_missing_values_are_skipped(
    db: ConnectionPool, fred_settings: Settings, replay: ReplayServer
) -> None:
    _fred_routes(replay, "DGS10", "fred_observations_DGS10.json")
    result = import_fred_series(
        "DGS10", start=date(2024, 1, 1), settings=fred_settings, base_url=replay.url, pool=db
    )
    assert (result.status, result.rows_read, result.rows_loaded, result.rows_skipped) == (
        "ok",
        15,
        13,
        2,
    )
    assert replay.requests[-1][1]["observation_start"] == "2024-01-01"
    dates = [r["obs_date"] for r in fetch_all("SELECT obs_date FROM macro_observations", pool=db)]
    assert date(2024, 1, 15) not in dates and date(2024, 1, 16) in dates
    assert fetch_one("SELECT frequency FROM macro_series", pool=db) == {"frequency": "daily"}


def test_fred_error_message_does_not_leak_the_key(
    db: ConnectionPool, fred_settings: Settings, replay: ReplayServer
) -> None:
    replay.routes["/fred/series?series_id=NOSUCH"] = (400, FIXTURES / "fred_error_bad_series.json")
    with pytest.raises(ImportFailed, match="HTTP 400 .*The series does not exist") as caught:
        import_fred_series("NOSUCH", settings=fred_settings, base_url=replay.url, pool=db)
    assert "test-key-123" not in str(caught.value)
    assert "test-key-123" not in runs(db)[0]["error"]


# ---------------------------------------------------------------- real data from a PyPI package


def test_real_us_payrolls_from_vega_datasets(db: ConnectionPool) -> None:
    """BLS Current Employment Statistics as shipped in vega_datasets 0.9.0 (2006-2015)."""
    file = Path(str(resources.files("vega_datasets") / "_data" / "us-employment.csv"))
    series = SeriesInfo(
        "PAYEMS", "All Employees, Total Nonfarm (SA)", "미국 비농업 부문 고용자 수", "US",
        "thousands of persons", "monthly", "csv:vega_datasets/us-employment.csv",
    )  # fmt: skip
    result = import_macro_csv(file, series, value_column="nonfarm", pool=db)

    expected_rows = len(file.read_text().splitlines()) - 1
    assert (result.status, result.rows_loaded, expected_rows) == ("ok", 120, 120)
    values = {
        r["obs_date"]: r["value"]
        for r in fetch_all("SELECT obs_date, value FROM macro_observations", pool=db)
    }
    assert values[date(2006, 1, 1)] == 135_450  # first row of the package's file
    trough = fetch_one(
        "SELECT obs_date FROM macro_observations WHERE series_code = 'PAYEMS' ORDER BY value LIMIT 1",
        pool=db,
    )
    peak = fetch_one(
        "SELECT obs_date FROM macro_observations WHERE obs_date < '2010-01-01' ORDER BY value DESC LIMIT 1",
        pool=db,
    )
    # The Great Recession's payroll trough (Feb 2010) and its pre-recession peak (Jan 2008).
    assert trough == {"obs_date": date(2010, 2, 1)} and peak == {"obs_date": date(2008, 1, 1)}


def test_real_vix_ohlc_from_vega_datasets(db: ConnectionPool) -> None:
    """CBOE VIX daily OHLC, June-July 2009, shipped in vega_datasets (an index: no volume)."""
    file = Path(str(resources.files("vega_datasets") / "_data" / "ohlc.json"))
    records = json.loads(file.read_text())
    stock = StockInfo("US:^VIX", name="CBOE Volatility Index", market="Cboe", sector="지수")
    result = import_ohlcv_frame(
        pd.DataFrame(records),
        stock=stock,
        source="vega_datasets/ohlc.json",
        default_volume=0,
        pool=db,
    )
    assert (result.status, result.rows_loaded, len(records)) == ("ok", 44, 44)
    first = fetch_one("SELECT * FROM stock_prices ORDER BY trade_date LIMIT 1", pool=db)
    assert first is not None
    assert (first["trade_date"], first["open"], first["high"], first["low"], first["close"]) == (
        date(2009, 6, 1),
        Decimal("28.7000"),
        Decimal("30.0500"),
        Decimal("28.4500"),
        Decimal("30.0400"),
    )
    assert first["volume"] == 0


# ---------------------------------------------------------------- CLI


def _cli(db_uri: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": db_uri}
    env.pop("FRED_API_KEY", None)
    return subprocess.run(
        # --no-project: this suite's own database is not what the shared test graph projects.
        [sys.executable, "-m", "data_access.importers", "--no-project", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_cli_prints_a_summary_line(db: ConnectionPool, db_uri: str, replay: ReplayServer) -> None:
    partial = _cli(
        db_uri,
        "csv",
        "--kind",
        "ohlcv",
        "--file",
        str(FIXTURES / "ohlcv_us_xyz_partial.csv"),
        "--security-id",
        "US:XYZ",
    )
    assert partial.returncode == 3, partial.stderr
    assert "partial: csv" in partial.stdout and "read 8, loaded 4, failed 4" in partial.stdout
    assert "failed: line 3, column 'Close'" in partial.stdout

    replay.routes["/v8/finance/chart/AAPL"] = (200, FIXTURES / "yahoo_chart_AAPL.json")
    yahoo = _cli(
        db_uri,
        "yahoo",
        "--ticker",
        "AAPL",
        "--start",
        "2024-03-04",
        "--end",
        "2024-03-15",
        "--base-url",
        replay.url,
    )
    assert yahoo.returncode == 0, yahoo.stderr
    assert (
        " ok: yfinance " in yahoo.stdout
        and "read 10, loaded 9, failed 0, skipped 1" in yahoo.stdout
    )

    fred = _cli(db_uri, "fred", "--series", "FEDFUNDS", "--base-url", replay.url)
    assert fred.returncode == 1
    assert "import failed: FRED API key is not set: set FRED_API_KEY" in fred.stderr
    assert [r["status"] for r in runs(db)] == ["partial", "ok", "error"]
