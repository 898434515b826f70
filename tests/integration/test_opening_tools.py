"""The five opening tools against the real PostgreSQL demo data and a real run cache."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from agents.evidence import EvidenceCollector
from agents.opening.files import RunCache
from agents.opening.graph import prefetch_to_cache
from agents.opening.tools import ToolContext, make_tools
from data_access.postgres import fetch_all, fetch_one

pytestmark = pytest.mark.usefixtures("demo_data")

DAY = date(2026, 11, 20)


@pytest.fixture
def tools(pg_pool: Any, tmp_path: Path) -> tuple[dict[str, Any], EvidenceCollector]:
    cache = RunCache(tmp_path / "cache")
    collector = EvidenceCollector()
    meta = prefetch_to_cache(DAY, cache, pg_pool, collector)
    assert meta["count"] > 20
    ctx = ToolContext(cache=cache, day=DAY, pool=pg_pool, collector=collector)
    return {t.name: t for t in make_tools(ctx)}, collector


def call(tools: dict[str, Any], name: str, **args: Any) -> Any:
    return json.loads(tools[name].invoke(args))


def test_news_list_filters_by_ticker_and_keyword(tools: Any, pg_pool: Any) -> None:
    t, _ = tools
    everything = call(t, "get_news_list")
    window = fetch_one(
        "SELECT count(*) AS n FROM news_articles WHERE published_at >= %s AND published_at <= %s",
        ("2026-11-19 16:00-05", "2026-11-20 18:00-05"), pg_pool,
    )  # fmt: skip
    assert window is not None and everything["count"] == window["n"]
    assert set(everything["articles"][0]) == {"pk", "title", "tickers", "publish_et_iso"}
    nvda = call(t, "get_news_list", tickers=["NVDA"])
    assert nvda["count"] >= 1 and all("US:NVDA" in a["tickers"] for a in nvda["articles"])
    both = call(t, "get_news_list", tickers=["NVDA"], keywords=["plunges"])
    assert all("plunges" in a["title"].lower() for a in both["articles"])
    assert call(t, "get_news_list", keywords=["존재하지않는키워드"])["count"] == 0


def test_news_content_downloads_then_serves_from_cache(tools: Any, pg_pool: Any) -> None:
    t, collector = tools
    pks = [a["pk"] for a in call(t, "get_news_list")["articles"][:3]]
    first = call(t, "get_news_content", pks=pks)
    assert first["count"] == 3 and not any(a["cached"] for a in first["articles"])
    stored = fetch_all("SELECT pk, body FROM news_articles WHERE pk = ANY(%s)", (pks,), pg_pool)
    assert {a["pk"]: a["body"] for a in first["articles"]} == {r["pk"]: r["body"] for r in stored}
    again = call(t, "get_news_content", pks=pks[:1] + ["no-such-pk"])
    assert again["articles"][0]["cached"] and again["unknown_pks"] == ["no-such-pk"]
    listed = call(t, "list_downloaded_bodies")
    assert listed["count"] == 3 and {a["pk"] for a in listed["articles"]} == set(pks)
    assert any(c.table == "news_articles" for c in collector.citations)


def test_keyword_frequency_on_titles_and_bodies(tools: Any) -> None:
    t, _ = tools
    titles = [a["title"] for a in call(t, "get_news_list")["articles"]]
    counts = call(t, "count_keyword_frequency", keywords=["뉴욕증시", "NVIDIA"])
    assert counts["뉴욕증시"]["count"] == sum(x.count("뉴욕증시") for x in titles)
    assert counts["NVIDIA"]["article_pks"] == []
    nvda = [a["pk"] for a in call(t, "get_news_list", tickers=["NVDA"])["articles"]]
    call(t, "get_news_content", pks=nvda)
    bodies = call(t, "count_keyword_frequency", keywords=["NVIDIA"], source="bodies",
                  news_pks=nvda)  # fmt: skip
    assert bodies["NVIDIA"]["count"] >= len(nvda) and set(bodies["NVIDIA"]["article_pks"]) == set(
        nvda
    )


def test_ohlcv_for_stocks_etf_proxies_and_macro(tools: Any, pg_pool: Any) -> None:
    t, collector = tools
    nvda = call(t, "get_ohlcv", ticker="US:NVDA", start_date="2026-11-16", end_date="2026-11-20")
    row = fetch_one("SELECT close FROM stock_prices WHERE security_id='US:NVDA' AND "
                    "trade_date='2026-11-20'", None, pg_pool)  # fmt: skip
    assert row is not None and nvda["rows"][-1]["close"] == float(row["close"])
    assert nvda["rows"][-1]["ts"] == "2026-11-20T00:00:00-05:00" and nvda["interval"] == "1d"
    kodex = call(t, "get_ohlcv", ticker="069500", start_date="2026-11-01", end_date="2026-11-20")
    assert kodex["name"] == "KODEX 200" and kodex["rows"][-1]["open"] is None
    ten_year = call(t, "get_ohlcv", ticker="DGS10", start_date="2026-11-01", end_date="2026-11-20")
    assert ten_year["rows"] and 0 < ten_year["rows"][-1]["close"] < 20
    weekly = call(t, "get_ohlcv", ticker="005930", start_date="2026-10-01", end_date="2026-11-20",
                  interval="1wk")  # fmt: skip
    assert 6 <= len(weekly["rows"]) <= 9
    assert {c.dataset_code for c in collector.citations} >= {"US_TOP50_DAILY_OHLCV",
                                                             "KR_ETF_DAILY_PRICE", "DGS10"}  # fmt: skip


@pytest.mark.parametrize(
    ("ticker", "code", "offset"),
    [("^KS11", "^KS11", "+09:00"), ("코스피", "^KS11", "+09:00"), ("kosdaq", "^KQ11", "+09:00"),
     ("^GSPC", "^GSPC", "-05:00"), ("S&P500", "^GSPC", "-05:00"), ("나스닥", "^IXIC", "-05:00"),
     ("다우", "^DJI", "-05:00"), ("^VIX", "^VIX", "-05:00"), ("BTC-USD", "BTC-USD", "+00:00"),
     ("비트코인", "BTC-USD", "+00:00"), ("CL=F", "CL=F", "-05:00"), ("유가", "CL=F", "-05:00")],
)  # fmt: skip
def test_ohlcv_for_index_levels_crypto_and_oil(tools: Any, pg_pool: Any, ticker: str, code: str,
                                               offset: str) -> None:  # fmt: skip
    """Index tickers and their Korean names read the market series, not an ETF stand-in."""
    t, collector = tools
    result = call(t, "get_ohlcv", ticker=ticker, start_date="2026-11-10", end_date="2026-11-20")
    stored = fetch_all(
        "SELECT trade_date, close FROM market_series_prices WHERE series_code = %s"
        " AND trade_date BETWEEN '2026-11-10' AND '2026-11-20' ORDER BY trade_date", (code,), pg_pool,
    )  # fmt: skip
    assert result["series_code"] == code and len(result["rows"]) == len(stored) >= 7
    assert [r["close"] for r in result["rows"]] == [float(r["close"]) for r in stored]
    assert result["rows"][-1]["ts"] == f"2026-11-20T00:00:00{offset}"
    assert result["rows"][-1]["high"] >= result["rows"][-1]["close"]
    assert collector.citations[-1].table == "market_series_prices"


@pytest.mark.parametrize(
    ("name", "args", "fragment"),
    [
        ("get_ohlcv", {"ticker": "NOPE_XYZ", "start_date": "2026-11-01", "end_date": "2026-11-20"}, "알 수 없는 티커"),
        ("get_ohlcv", {"ticker": "US:NVDA", "start_date": "11/01", "end_date": "2026-11-20"}, "YYYY-MM-DD"),
        ("get_ohlcv", {"ticker": "^KS11' OR 1=1 --", "start_date": "2026-11-01", "end_date": "2026-11-20"}, "알 수 없는 티커"),
        ("get_ohlcv", {"ticker": "^" * 5000, "start_date": "2026-11-01", "end_date": "2026-11-20"}, "알 수 없는 티커"),
        ("get_ohlcv", {"ticker": "US:NVDA", "start_date": "2026-11-01", "end_date": "2026-11-20", "interval": "1h"}, "interval"),
        ("get_news_content", {"pks": []}, "비어"),
        ("get_news_content", {"pks": [f"p{i}" for i in range(30)]}, "최대 20건"),
        ("count_keyword_frequency", {"keywords": ["x"], "source": "s3"}, "source"),
        ("count_keyword_frequency", {"keywords": ["가" * 100_000]}, None),
    ],
)  # fmt: skip
def test_bad_input_answers_a_korean_error(tools: Any, name: str, args: dict[str, Any],
                                          fragment: str | None) -> None:  # fmt: skip
    t, _ = tools
    result = call(t, name, **args)
    if fragment is None:  # a huge keyword is just a keyword that occurs nowhere
        assert result[args["keywords"][0]]["count"] == 0
        return
    assert result["status"] == "error" and fragment in result["error"] and result["retry_hint"]
