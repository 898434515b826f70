"""The catalogue's pure parts: freshness rules, dataset definitions, safe SQL composition."""

from __future__ import annotations

from datetime import date

import pytest

from data_access.catalog import (
    CORE_DATASETS,
    DOMAINS,
    Dataset,
    _stats_query,
    dataset_by_code,
    dataset_from_row,
    freshness,
    worst_freshness,
)

AS_OF = date(2026, 11, 20)
MACRO_CODES = (
    "FEDFUNDS", "CPIAUCSL", "UNRATE", "DGS10", "DGS2", "VIXCLS", "DEXKOUS",
    "KR_BASE_RATE", "KR_CPI", "KR_UNEMPLOYMENT", "KR_USDKRW",
)  # fmt: skip
COLUMNS = {
    "macro_observations": {"series_code", "obs_date", "value"},
    "stock_prices": {"security_id", "trade_date", "close"},
}


@pytest.mark.parametrize(
    ("latest", "expected"),
    [
        (date(2026, 11, 20), "healthy"),
        (date(2026, 11, 16), "healthy"),  # exactly max_stale_days old
        (date(2026, 11, 15), "stale"),
        (date(2026, 11, 25), "healthy"),  # scheduled data beyond as-of is not stale
        (None, "missing"),
    ],
)
def test_freshness_against_a_four_day_window(latest: date | None, expected: str) -> None:
    assert freshness(latest, AS_OF, 4) == expected


def test_worst_freshness_ranks_missing_over_stale_over_healthy() -> None:
    assert worst_freshness(["healthy", "healthy"]) == "healthy"
    assert worst_freshness(["healthy", "stale"]) == "stale"
    assert worst_freshness(["stale", "missing", "healthy"]) == "missing"
    assert worst_freshness([]) == "missing"


def test_core_datasets_cover_every_domain_with_unique_codes() -> None:
    codes = [d.dataset_code for d in CORE_DATASETS]
    assert len(codes) == len(set(codes))
    assert {d.domain for d in CORE_DATASETS} == set(DOMAINS)
    assert set(MACRO_CODES) <= set(codes)


def test_macro_series_are_filtered_slices_with_frequency_windows() -> None:
    fed, dgs10 = dataset_by_code("FEDFUNDS"), dataset_by_code("DGS10")
    assert fed.table_name == dgs10.table_name == "macro_observations"
    assert fed.filter_sql == "series_code = 'FEDFUNDS'"
    assert 60 <= fed.max_stale_days <= 90  # monthly
    assert dgs10.max_stale_days <= 7  # daily
    # DEXKOUS is daily data released weekly: a 7-day-old value at release time is current.
    assert 7 < dataset_by_code("DEXKOUS").max_stale_days < 15


def test_kr_and_us_stocks_split_one_table_by_prefix() -> None:
    kr, us = dataset_by_code("KR_STOCK_DAILY_OHLCV"), dataset_by_code("US_TOP50_DAILY_OHLCV")
    assert kr.filter_sql == "security_id LIKE 'KR:%'"
    assert us.filter_sql == "security_id LIKE 'US:%'"
    assert dataset_by_code("KR_ETF_DAILY_PRICE").filter_sql is None


def test_unknown_dataset_code_raises_key_error() -> None:
    with pytest.raises(KeyError):
        dataset_by_code("NOPE")


def test_stats_query_quotes_identifiers_and_passes_values_as_parameters() -> None:
    query, params = _stats_query(dataset_by_code("KR_STOCK_DAILY_OHLCV"))
    text = query.as_string(None)
    assert '"stock_prices"' in text and '"trade_date"' in text and '"security_id" LIKE' in text
    assert "KR:" not in text  # the value travels as a parameter
    assert params == ["KR_STOCK_DAILY_OHLCV", "KR:%"]


def test_stats_query_of_an_unfiltered_table_has_no_where() -> None:
    query, params = _stats_query(dataset_by_code("KR_ETF_HOLDINGS"))
    assert "WHERE" not in query.as_string(None)
    assert params == ["KR_ETF_HOLDINGS"]


def _row(**overrides: object) -> dict[str, object]:
    row: dict[str, object] = {
        "dataset_code": "OHLCV_US_AAPL", "table_name": "stock_prices", "domain": "equity",
        "date_column": "trade_date", "filter_sql": "security_id = 'US:AAPL'",
        "title_ko": "Apple 일별 시세", "source": "yfinance", "max_stale_days": 5,
    }  # fmt: skip
    row.update(overrides)
    return row


def test_an_importer_row_becomes_a_parameterised_dataset() -> None:
    dataset = dataset_from_row(_row(), COLUMNS)
    assert dataset == Dataset(
        "OHLCV_US_AAPL", "stock_prices", "equity", "trade_date", "Apple 일별 시세", 5,
        source="yfinance", filter_column="security_id", filter_value="US:AAPL",
    )  # fmt: skip


def test_doubled_quotes_in_a_filter_value_are_unescaped() -> None:
    dataset = dataset_from_row(_row(filter_sql="security_id = 'US:O''NEIL'"), COLUMNS)
    assert dataset is not None and dataset.filter_value == "US:O'NEIL"


@pytest.mark.parametrize(
    "overrides",
    [
        {"table_name": "pg_authid"},  # not a catalogued table
        {"date_column": "no_such_column"},
        {"domain": "crypto"},
        {"filter_sql": "security_id = 'US:AAPL' OR 1=1"},
        {"filter_sql": "security_id = 'x'; DROP TABLE etfs; --'"},
        {"filter_sql": "password = 'x'"},  # column not in the table
    ],
)
def test_rows_that_are_not_safe_to_query_are_left_out(overrides: dict[str, object]) -> None:
    assert dataset_from_row(_row(**overrides), COLUMNS) is None
