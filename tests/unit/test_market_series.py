"""Market context series (issue 25): names, the demo generation, and hourly freshness windows."""

from __future__ import annotations

from datetime import UTC, date, datetime

import numpy as np
import pandas as pd
import pytest

from data_access.catalog import (
    CORE_DATASETS,
    dataset_by_code,
    dataset_freshness,
    freshness_hours,
    hours_behind,
    stale_hours_by_domain,
)
from data_access.market_series import SERIES, alias_rows, series_code_for
from data_access.seed.build import _panels, build_market_series
from data_access.seed.params import SCALE_CONFIGS, Window

AS_OF = date(2026, 11, 20)
SEED = 20261120


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("^KS11", "^KS11"), ("코스피", "^KS11"), ("kospi", "^KS11"), ("코스피 지수", "^KS11"),
        ("^KQ11", "^KQ11"), ("코스닥", "^KQ11"), ("S&P 500", "^GSPC"), ("s&p500", "^GSPC"),
        ("^GSPC", "^GSPC"), ("나스닥", "^IXIC"), ("^IXIC", "^IXIC"), ("다우", "^DJI"),
        ("^DJI", "^DJI"), ("^VIX", "^VIX"), ("BTC-USD", "BTC-USD"), ("비트코인", "BTC-USD"),
        ("btc", "BTC-USD"), ("CL=F", "CL=F"), ("유가", "CL=F"), ("wti", "CL=F"),
    ],
)  # fmt: skip
def test_tickers_and_aliases_name_one_series(text: str, code: str) -> None:
    assert series_code_for(text) == code


@pytest.mark.parametrize(
    "text", ["", "   ", "KR:005930", "AAPL", "코스피200", "'; DROP TABLE x; --", "^" * 500, "\x00"]
)
def test_other_text_names_no_series(text: str) -> None:
    assert series_code_for(text) is None


def test_alias_rows_are_unique_and_point_at_known_series() -> None:
    rows = alias_rows()
    codes = {s.code for s in SERIES}
    assert len(rows) == len(set(rows)) and all(t in codes for _, _, t in rows)
    assert ("market", "비트코인 가격", "BTC-USD") in rows


@pytest.fixture(scope="module")
def generated() -> dict[str, pd.DataFrame]:
    return build_market_series("demo", SEED, AS_OF)


def test_generation_is_deterministic(generated: dict[str, pd.DataFrame]) -> None:
    again = build_market_series("demo", SEED, AS_OF)
    pd.testing.assert_frame_equal(generated["market_series_prices"], again["market_series_prices"])


def test_every_series_has_sane_bars(generated: dict[str, pd.DataFrame]) -> None:
    prices = generated["market_series_prices"]
    assert set(prices["series_code"]) == {s.code for s in SERIES}
    assert prices.duplicated(["series_code", "trade_date"]).sum() == 0
    assert (prices["low"] <= prices[["open", "close"]].min(axis=1)).all()
    assert (prices["high"] >= prices[["open", "close"]].max(axis=1)).all()
    last = prices.groupby("series_code")["trade_date"].max()
    assert (last == AS_OF).all()  # BTC trades every day; 2026-11-20 is a Friday for the others
    btc_days = prices[prices["series_code"] == "BTC-USD"]["trade_date"]
    assert any(d.weekday() >= 5 for d in btc_days)  # weekends too
    assert prices[prices["series_code"] == "^VIX"]["volume"].isna().all()


def test_kospi_moves_with_its_cap_weighted_stocks(generated: dict[str, pd.DataFrame]) -> None:
    """Each day's KOSPI change is the market-cap-weighted change of the demo KOSPI stocks."""
    stocks, _, _, _, panels = _panels(SCALE_CONFIGS["demo"], SEED, Window.for_as_of(AS_OF))
    kr = panels["KR"]
    info = stocks.set_index("security_id").loc[kr.security_ids]
    shares = info["shares_outstanding"].fillna(0).to_numpy(float) * (info["market"] == "KOSPI")
    caps = kr.close @ shares.to_numpy()
    expected = caps[1:] / caps[:-1] - 1
    kospi = generated["market_series_prices"].query("series_code == '^KS11'")["close"].to_numpy()
    assert np.allclose(kospi[1:] / kospi[:-1] - 1, expected, atol=1e-5)
    assert 3_000 < kospi[-1] < 5_000  # a plausible level on the as-of date


def test_news_window_is_in_hours_and_daily_series_in_days() -> None:
    news = dataset_by_code("ECONOMIC_NEWS_STREAM")
    assert (news.max_stale_hours, news.window_text) == (24, "24시간")
    assert dataset_by_code("KOSPI_INDEX").window_text == "4일"
    assert dataset_by_code("KOSPI_INDEX").max_stale_hours is None
    assert stale_hours_by_domain(CORE_DATASETS)["news"] == 24


def test_hourly_freshness_is_measured_to_the_as_of_close() -> None:
    # the as-of close is 18:00 New York = 23:00 UTC on 2026-11-20
    assert hours_behind(datetime(2026, 11, 20, 22, 39, tzinfo=UTC), AS_OF) == 0
    assert freshness_hours(datetime(2026, 11, 19, 23, 0, tzinfo=UTC), AS_OF, 24) == "healthy"
    assert freshness_hours(datetime(2026, 11, 19, 22, 59, tzinfo=UTC), AS_OF, 24) == "stale"
    assert freshness_hours(None, AS_OF, 24) == "missing"
    news = dataset_by_code("ECONOMIC_NEWS_STREAM")
    # two days old is stale under the hourly window (the old day rule said healthy up to 3 days)
    assert dataset_freshness(news, datetime(2026, 11, 18, 20, 0, tzinfo=UTC), AS_OF) == "stale"


@pytest.mark.parametrize(
    ("key", "name", "code"),
    [("KOSPI", "코스피", "^KS11"), ("NASDAQ", "나스닥", "^IXIC"), ("^GSPC", "S&P 500", "^GSPC"),
     ("BTC", "비트코인", "BTC-USD"), ("other", "유가", "CL=F"), ("NIKKEI", "니케이", None)],
)  # fmt: skip
def test_an_index_entity_finds_its_series(key: str, name: str, code: str | None) -> None:
    from agents.macro.indices import index_code

    assert index_code(key, name) == code
