"""The demo dataset: determinism (checksums), the load contract (what is replaced, what is kept)
and the content rules (real codes, consistent prices, holdings, news and macro timing).

Seeds its own databases (`atlas_seed_a`, `atlas_seed_b`) on the test server, without the graph
projection, so it never disturbs the main test database or graph.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import uuid
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
import pytest
from psycopg_pool import ConnectionPool

from data_access.postgres import fetch_all, fetch_one, get_pool, migrate
from data_access.seed import SeedReport, seed_database, seed_if_missing
from data_access.seed.calendar import trading_days
from data_access.seed.checksums import compute_checksums
from data_access.seed.loader import SEED_TABLES, pg_array, truncate_seed_tables
from data_access.seed.news import MIN_PER_WINDOW, window_bounds
from data_access.seed.news_text import has_batchim, josa
from data_access.seed.params import SCALE_CONFIGS, rng_for
from data_access.seed.prices import kr_tick
from data_access.services import _with_database

ROOT = Path(__file__).resolve().parents[2]
AS_OF = date(2026, 11, 20)
REFERENCE_TABLES = (
    "managers",
    "tags",
    "etfs",
    "etf_tags",
    "stocks",
    "entity_aliases",
    "macro_series",
)


def database_pool(services: Any, settings: Any, name: str) -> ConnectionPool:
    """A migrated database of this name on the test server (created on first use)."""
    with psycopg.connect(services.postgres_uri, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')  # our constant name
    pool = get_pool(_with_database(services.postgres_uri, name), settings)
    migrate(pool)
    return pool


@pytest.fixture(scope="module")
def pool_a(services: Any, settings: Any) -> ConnectionPool:
    return database_pool(services, settings, "atlas_seed_a")


@pytest.fixture(scope="module")
def pool_b(services: Any, settings: Any) -> ConnectionPool:
    return database_pool(services, settings, "atlas_seed_b")


@pytest.fixture(scope="module")
def marker(pool_a: ConnectionPool) -> str:
    """A conversation and an import run written before seeding; seeding must keep them."""
    conversation = str(uuid.uuid4())
    with pool_a.connection() as conn:
        conn.execute("INSERT INTO conversations (conversation_id, screen, title) VALUES (%s, 'etf', 'keep me')",
                     (conversation,))  # fmt: skip
        conn.execute("INSERT INTO import_runs (importer, source, rows_read, rows_loaded, rows_failed, status)"
                     " VALUES ('csv', %s, 1, 1, 0, 'ok')", (conversation,))  # fmt: skip
    return conversation


@pytest.fixture(scope="module")
def report_a(pool_a: ConnectionPool, settings: Any, marker: str) -> SeedReport:
    return seed_database("demo", pool=pool_a, settings=settings, project=False)


def sql(pool: ConnectionPool, query: str, *params: Any) -> list[dict[str, Any]]:
    return fetch_all(query, params or None, pool)


def one(pool: ConnectionPool, query: str, *params: Any) -> Any:
    row = fetch_one(query, params or None, pool)
    assert row is not None
    return next(iter(row.values()))


# ---------------------------------------------------------------- determinism and load contract


def test_same_seed_gives_identical_checksums(
    report_a: SeedReport, pool_b: ConnectionPool, services: Any
) -> None:
    """The CLI in another process (other hash seed) reproduces the in-process dataset exactly."""
    uri_b = _with_database(services.postgres_uri, "atlas_seed_b")
    env = {**os.environ, "DATABASE_URL": uri_b, "PYTHONHASHSEED": "12345"}
    done = subprocess.run(
        [sys.executable, "-m", "data_access.seed", "--scale", "demo", "--no-project"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "seeded demo scale" in done.stdout
    run = sql(pool_b, "SELECT checksums, row_counts FROM seed_runs ORDER BY run_id DESC LIMIT 1")[0]
    assert run["checksums"] == report_a.checksums
    assert run["row_counts"] == report_a.row_counts
    assert set(report_a.checksums) == set(SEED_TABLES)


def test_checksums_describe_the_stored_rows(report_a: SeedReport, pool_a: ConnectionPool) -> None:
    with pool_a.connection() as conn:
        checksums, counts = compute_checksums(conn, SEED_TABLES)
    assert checksums == report_a.checksums and counts == report_a.row_counts
    run = sql(pool_a, "SELECT scale, seed, as_of_date, checksums, row_counts, duration_ms FROM seed_runs"
                      " ORDER BY run_id DESC LIMIT 1")[0]  # fmt: skip
    assert (run["scale"], run["seed"], run["as_of_date"]) == ("demo", report_a.seed, AS_OF)
    assert run["checksums"] == report_a.checksums and run["row_counts"] == report_a.row_counts
    assert run["duration_ms"] == report_a.duration_ms > 0


def test_another_seed_changes_generated_tables_only(
    report_a: SeedReport, pool_b: ConnectionPool, settings: Any
) -> None:
    with pool_b.connection() as conn, conn.transaction():
        truncate_seed_tables(conn)  # a fresh database: no data, no seed run
        conn.execute("DELETE FROM seed_runs")
    other = settings.model_copy(update={"demo_seed": settings.demo_seed + 1})
    report = seed_if_missing("demo", pool=pool_b, settings=other, project=False)
    assert report is not None and report.seed == settings.demo_seed + 1
    assert one(pool_b, "SELECT seed FROM seed_runs") == report.seed  # committed, visible elsewhere
    assert one(pool_b, "SELECT count(*) FROM stock_prices") == report.row_counts["stock_prices"]
    for table in ("stock_prices", "etf_prices", "etf_holdings", "news_articles", "macro_observations",
                  "re_transactions"):  # fmt: skip
        assert report.checksums[table] != report_a.checksums[table], table
    for table in REFERENCE_TABLES:  # the real reference lists do not depend on the seed
        assert report.checksums[table] == report_a.checksums[table], table


def test_if_missing_skips_a_loaded_scale(
    report_a: SeedReport, pool_a: ConnectionPool, settings: Any
) -> None:
    assert seed_if_missing("demo", pool=pool_a, settings=settings, project=False) is None
    assert one(pool_a, "SELECT count(*) FROM seed_runs") >= 1


def test_seeding_keeps_run_store_and_bookkeeping(
    report_a: SeedReport, pool_a: ConnectionPool, marker: str
) -> None:
    assert one(pool_a, "SELECT count(*) FROM conversations WHERE conversation_id = %s", marker) == 1
    assert one(pool_a, "SELECT count(*) FROM import_runs WHERE source = %s", marker) == 1


def test_unknown_scale_is_rejected(pool_a: ConnectionPool) -> None:
    from data_access.errors import ToolInputError

    with pytest.raises(ToolInputError):
        seed_database("huge", pool=pool_a, project=False)


# ---------------------------------------------------------------- reference data


def test_real_etfs_managers_and_tags(report_a: SeedReport, pool_a: ConnectionPool) -> None:
    assert report_a.row_counts["etfs"] >= 60 and report_a.row_counts["tags"] >= 15
    etfs = {
        r["code"]: r for r in sql(pool_a, "SELECT code, name, manager, expense_ratio FROM etfs")
    }
    assert (etfs["069500"]["name"], etfs["069500"]["manager"], float(etfs["069500"]["expense_ratio"])) == (
        "KODEX 200", "삼성자산운용", 0.15)  # fmt: skip
    assert (etfs["102110"]["name"], float(etfs["102110"]["expense_ratio"])) == ("TIGER 200", 0.05)
    for code, name in (("122630", "KODEX 레버리지"), ("252670", "KODEX 200선물인버스2X"), ("091160", "KODEX 반도체"),
                       ("360750", "TIGER 미국S&P500"), ("132030", "KODEX 골드선물(H)"), ("114260", "KODEX 국고채3년")):  # fmt: skip
        assert etfs[code]["name"] == name
    assert not any(c >= "980000" for c in etfs), "no synthetic ETFs at demo scale"
    tags = {r["tag"] for r in sql(pool_a, "SELECT tag FROM etf_tags WHERE etf_code = '091160'")}
    assert "반도체" in tags


def test_real_stocks_and_universe(pool_a: ConnectionPool) -> None:
    counts = {
        r["country"]: r["n"]
        for r in sql(pool_a, "SELECT country, count(*) AS n FROM stocks GROUP BY 1")
    }
    assert counts["KR"] >= 150 and counts["US"] >= 50
    names = {
        r["security_id"]: r
        for r in sql(pool_a, "SELECT security_id, name, market, sector, currency FROM stocks")
    }
    assert names["KR:005930"]["name"] == "삼성전자" and names["KR:005930"]["market"] == "KOSPI"
    assert names["KR:095610"]["name"] == "테스" and names["KR:095610"]["market"] == "KOSDAQ"
    assert names["US:AAPL"]["market"] == "NASDAQ" and names["US:AAPL"]["currency"] == "USD"
    assert not any(s.startswith("KR:99") for s in names), "no synthetic stocks at demo scale"


def test_market_scale_universe_is_real_plus_clearly_synthetic() -> None:
    from data_access.seed.etf_universe import build_etfs
    from data_access.seed.universe import build_stocks

    config = SCALE_CONFIGS["market"]
    stocks = build_stocks(config, rng_for(1, "universe"))
    etfs = build_etfs(config, rng_for(1, "etf-universe"))
    kr = stocks[stocks["country"] == "KR"]
    assert len(kr) == 2500 and len(etfs) == 900
    synthetic = kr[kr["synthetic"]]
    assert synthetic["code"].min() >= "990001" and synthetic["name"].str.startswith("가상").all()
    assert etfs[etfs["synthetic"]]["name"].str.endswith("(가상)").all()
    assert stocks["security_id"].is_unique and etfs["code"].is_unique and etfs["name"].is_unique


# ---------------------------------------------------------------- prices


def test_calendars_follow_krx_and_nyse_holidays(pool_a: ConnectionPool) -> None:
    kr_days = one(
        pool_a,
        "SELECT count(DISTINCT trade_date) FROM stock_prices WHERE security_id = 'KR:005930'",
    )
    assert kr_days >= 400
    assert one(pool_a, "SELECT max(trade_date) FROM stock_prices") == AS_OF
    dates = {(r["country"], r["d"]) for r in sql(pool_a,
             "SELECT DISTINCT left(security_id, 2) AS country, trade_date AS d FROM stock_prices"
             " WHERE trade_date IN ('2025-10-06', '2025-11-27', '2026-02-17', '2026-04-03')")}  # fmt: skip
    assert ("KR", date(2025, 11, 27)) in dates and ("US", date(2025, 10, 6)) in dates
    assert ("KR", date(2025, 10, 6)) not in dates  # 추석
    assert ("US", date(2025, 11, 27)) not in dates  # Thanksgiving
    assert ("KR", date(2026, 2, 17)) not in dates and ("US", date(2026, 4, 3)) not in dates
    assert len(trading_days(date(2025, 1, 1), date(2025, 12, 31), "KRX")) in range(240, 250)


def test_ohlcv_is_consistent(pool_a: ConnectionPool) -> None:
    bad = one(pool_a, "SELECT count(*) FROM stock_prices WHERE NOT (low <= least(open, close)"
                      " AND high >= greatest(open, close) AND low > 0 AND volume > 0)")  # fmt: skip
    assert bad == 0
    rows = sql(pool_a, "SELECT close, change_rate, lag(close) OVER (PARTITION BY security_id ORDER BY trade_date) AS prev"
                       " FROM stock_prices WHERE security_id IN ('KR:000660', 'US:NVDA')")  # fmt: skip
    for r in rows[1:]:
        if r["prev"] is not None:
            expected = (float(r["close"]) / float(r["prev"]) - 1) * 100
            assert abs(float(r["change_rate"]) - expected) < 1e-3
    closes = np.array([float(r["close"]) for r in sql(pool_a, "SELECT close FROM stock_prices WHERE security_id LIKE 'KR:%%'"
                                                             " AND trade_date > '2026-10-01'")])  # fmt: skip
    assert np.all(np.mod(closes, kr_tick(closes)) == 0), "KR prices sit on the KRX tick grid"
    kr_moves = one(
        pool_a, "SELECT max(abs(change_rate)) FROM stock_prices WHERE security_id LIKE 'KR:%%'"
    )
    assert float(kr_moves) <= 30.0


def test_famous_prices_stay_in_realistic_ranges(pool_a: ConnectionPool) -> None:
    low, high = (float(v) for v in sql(pool_a, "SELECT min(close) AS lo, max(close) AS hi FROM stock_prices"
                                               " WHERE security_id = 'KR:005930'")[0].values())  # fmt: skip
    assert low >= 40_000 and high <= 115_000
    aapl = float(
        one(
            pool_a,
            "SELECT close FROM stock_prices WHERE security_id = 'US:AAPL' ORDER BY trade_date DESC LIMIT 1",
        )
    )
    assert 150 < aapl < 400


def test_fundamentals_and_earnings(pool_a: ConnectionPool) -> None:
    assert one(pool_a, "SELECT count(DISTINCT as_of_date) FROM stock_fundamentals") >= 20
    pe = [float(r["pe"]) for r in sql(pool_a, "SELECT pe FROM stock_fundamentals WHERE as_of_date = %s"
                                              " AND pe IS NOT NULL", AS_OF)]  # fmt: skip
    assert 5 < float(np.median(pe)) < 40
    us_reporters = one(
        pool_a,
        "SELECT count(DISTINCT security_id) FROM earnings_events WHERE security_id LIKE 'US:%%'",
    )
    assert us_reporters == one(pool_a, "SELECT count(*) FROM stocks WHERE country = 'US'")
    assert one(pool_a, "SELECT count(*) FROM earnings_events WHERE status = 'confirmed'"
                       " AND (eps_actual IS NULL OR event_date > %s)", AS_OF) == 0  # fmt: skip
    assert (
        one(
            pool_a,
            "SELECT count(*) FROM earnings_events WHERE status = 'expected' AND event_date > %s",
            AS_OF,
        )
        > 0
    )
    assert one(pool_a, "SELECT count(*) FROM earnings_events WHERE source <> 'demo'") == 0


# ---------------------------------------------------------------- ETFs


def test_kospi200_trackers_hold_the_same_basket(pool_a: ConnectionPool) -> None:
    overlap = {r["code"]: float(r["overlap"]) for r in sql(pool_a,
        "SELECT b.etf_code AS code, sum(least(a.weight, b.weight)) AS overlap FROM etf_holdings a"
        " JOIN etf_holdings b ON a.security_id = b.security_id AND a.as_of_date = b.as_of_date"
        " WHERE a.etf_code = '069500' AND a.as_of_date = %s GROUP BY b.etf_code", AS_OF)}  # fmt: skip
    for code in ("102110", "148020", "152100", "293180"):
        assert overlap[code] > 95.0, code
    weights = {r["security_id"]: float(r["weight"]) for r in sql(pool_a,
               "SELECT security_id, weight FROM etf_holdings WHERE etf_code = '069500' AND as_of_date = %s", AS_OF)}  # fmt: skip
    assert 20 <= weights["KR:005930"] <= 32 and 7 <= weights["KR:000660"] <= 18
    assert max(weights, key=weights.__getitem__) == "KR:005930"


def test_holdings_weights_window_and_themes(pool_a: ConnectionPool) -> None:
    sums = sql(pool_a, "SELECT h.etf_code, h.as_of_date, sum(h.weight) AS total FROM etf_holdings h"
                       " WHERE h.etf_code NOT IN ('122630', '123320', '233740', '233160')"
                       " GROUP BY 1, 2")  # fmt: skip
    assert all(97.5 <= float(r["total"]) <= 100.0 for r in sums)
    days = {r["etf_code"]: r["n"] for r in sql(pool_a, "SELECT etf_code, count(DISTINCT as_of_date) AS n"
                                                       " FROM etf_holdings GROUP BY 1")}  # fmt: skip
    assert min(days.values()) >= 60
    semis = {r["etf_code"] for r in sql(pool_a,
             "SELECT a.etf_code FROM etf_holdings a JOIN etf_holdings b USING (etf_code, as_of_date)"
             " WHERE a.security_id = 'KR:005930' AND b.security_id = 'KR:095610' AND a.as_of_date = %s", AS_OF)}  # fmt: skip
    assert {"091160", "091230"} <= semis  # seed 000: ETFs holding both 삼성전자 and 테스
    us_only = one(
        pool_a,
        "SELECT bool_and(security_id LIKE 'US:%%') FROM etf_holdings WHERE etf_code = '360750'",
    )
    assert us_only is True
    assert (
        one(
            pool_a,
            "SELECT count(*) FROM etf_holdings WHERE etf_code IN ('114800', '252670', '132030')",
        )
        == 0
    )


def test_holdings_change_at_reviews(pool_a: ConnectionPool) -> None:
    rows = sql(
        pool_a,
        """
        WITH d AS (SELECT etf_code, as_of_date, array_agg(security_id ORDER BY security_id) AS ids
                   FROM etf_holdings GROUP BY 1, 2),
             x AS (SELECT etf_code, as_of_date, ids, lag(ids) OVER (PARTITION BY etf_code ORDER BY as_of_date) AS prev FROM d)
        SELECT etf_code, as_of_date FROM x WHERE prev IS NOT NULL AND ids <> prev""",
    )
    changed = {(r["etf_code"], r["as_of_date"]) for r in rows}
    assert ("069500", date(2026, 6, 12)) in changed  # June KOSPI 200 review
    assert any(d >= AS_OF - timedelta(days=90) for _, d in changed), (
        "changes inside the last 60 trading days"
    )


def test_nav_follows_holdings_and_leverage(pool_a: ConnectionPool) -> None:
    rows = sql(
        pool_a,
        """
        WITH h AS (SELECT as_of_date AS d, security_id, weight,
                          lead(as_of_date) OVER (PARTITION BY security_id ORDER BY as_of_date) AS nd
                   FROM etf_holdings WHERE etf_code = '069500')
        SELECT h.nd AS day, sum(h.weight / 100 * (p2.close / p1.close - 1)) AS basket
        FROM h JOIN stock_prices p1 ON p1.security_id = h.security_id AND p1.trade_date = h.d
               JOIN stock_prices p2 ON p2.security_id = h.security_id AND p2.trade_date = h.nd
        GROUP BY h.nd""",
    )
    navs = {code: {r["trade_date"]: float(r["nav"]) for r in sql(pool_a,
            "SELECT trade_date, nav FROM etf_prices WHERE etf_code = %s", code)}
            for code in ("069500", "122630", "114800", "252670")}  # fmt: skip
    days = sorted(navs["069500"])
    ret = {
        c: {d: v[d] / v[p] - 1 for p, d in zip(days[:-1], days[1:], strict=True)}
        for c, v in navs.items()
    }
    checked = 0
    for r in rows:
        if r["day"] in ret["069500"]:
            assert (
                abs(ret["069500"][r["day"]] - float(r["basket"])) < 0.0008
            )  # cash, fees, tracking noise
            checked += 1
    assert checked >= 60
    for day in days[-60:]:
        base = ret["069500"][day]
        assert abs(ret["122630"][day] - 2 * base) < 0.0025
        assert abs(ret["114800"][day] + base) < 0.0015
        assert abs(ret["252670"][day] + 2 * base) < 0.0025


def test_etf_prices_are_complete(pool_a: ConnectionPool) -> None:
    per_etf = {
        r["n"] for r in sql(pool_a, "SELECT etf_code, count(*) AS n FROM etf_prices GROUP BY 1")
    }
    assert len(per_etf) == 1 and per_etf.pop() >= 400
    bad = one(pool_a, "SELECT count(*) FROM etf_prices WHERE close <= 0 OR nav <= 0 OR net_assets <= 0"
                      " OR market_cap <= 0 OR abs(close / nav - 1) > 0.03")  # fmt: skip
    assert bad == 0


# ---------------------------------------------------------------- macro, real estate, documents


def test_macro_series_levels_and_release_timing(pool_a: ConnectionPool) -> None:
    stats = {r["series_code"]: r for r in sql(pool_a,
             "SELECT series_code, min(value) AS lo, max(value) AS hi, min(obs_date) AS first, count(*) AS n,"
             " bool_and(published_at::date >= obs_date) AS lagged, max(published_at) AS last_pub,"
             " sum(revision_flag::int) AS revised FROM macro_observations GROUP BY 1")}  # fmt: skip
    assert set(stats) == {"FEDFUNDS", "CPIAUCSL", "UNRATE", "DGS10", "DGS2", "VIXCLS", "DEXKOUS", "KR_BASE_RATE",
                          "KR_CPI", "KR_UNEMPLOYMENT", "KR_USDKRW"}  # fmt: skip
    ranges = {"FEDFUNDS": (3.0, 5.4), "CPIAUCSL": (305, 340), "UNRATE": (3.4, 5.0), "KR_BASE_RATE": (2.0, 3.5),
              "KR_USDKRW": (1250, 1550), "DEXKOUS": (1250, 1550), "VIXCLS": (9, 60), "DGS10": (3.2, 5.3)}  # fmt: skip
    for code, (lo, hi) in ranges.items():
        assert lo <= stats[code]["lo"] and stats[code]["hi"] <= hi, code
    assert all(s["lagged"] and s["first"] <= date(2024, 11, 20) for s in stats.values())
    assert sum(int(s["revised"]) for s in stats.values()) >= 3
    cutoff = one(pool_a, "SELECT %s::date + time '23:59' AT TIME ZONE 'America/New_York'", AS_OF)
    assert all(s["last_pub"] <= cutoff for s in stats.values())
    monthly_lag = one(
        pool_a,
        "SELECT min(published_at::date - obs_date) FROM macro_observations WHERE series_code = 'CPIAUCSL'",
    )
    assert monthly_lag >= 35  # CPI for a month comes out mid next month
    assert one(pool_a, "SELECT count(*) FROM macro_series WHERE source = 'demo'") == 11


def test_real_estate_tables(pool_a: ConnectionPool) -> None:
    assert one(pool_a, "SELECT count(DISTINCT region) FROM re_house_price_index") >= 15
    assert one(pool_a, "SELECT count(DISTINCT month) FROM re_house_price_index") == 36
    assert one(pool_a, "SELECT count(*) FROM re_transactions") >= 3000
    gangnam, daegu = (float(v) for v in sql(pool_a,
        "SELECT max(index_value) FILTER (WHERE region = '서울 강남구' AND month = '2026-11-01') AS g,"
        " max(index_value) FILTER (WHERE region = '대구' AND month = '2026-11-01') AS d FROM re_house_price_index")[0].values())  # fmt: skip
    assert gangnam > daegu
    eunma = float(one(pool_a, "SELECT avg(price_krw) FROM re_transactions WHERE complex_name = '은마아파트'"
                              " AND deal_date >= '2026-01-01'"))  # fmt: skip
    assert 1.5e9 < eunma < 4.5e9


def test_documents_events_evidence(pool_a: ConnectionPool) -> None:
    types = {r["event_type"] for r in sql(pool_a, "SELECT DISTINCT event_type FROM events")}
    assert {"policy", "data_release", "earnings", "geopolitical"} <= types
    assert (
        one(
            pool_a,
            "SELECT count(*) FROM events e WHERE NOT EXISTS (SELECT 1 FROM evidence v WHERE v.event_id = e.event_id)",
        )
        == 0
    )
    cut = one(pool_a, "SELECT title FROM events WHERE event_id = 'evt-fomc-2025-09-17'")
    assert "25bp 인하" in cut and "4.00~4.25%" in cut
    linked = {
        r["indicator_code"]
        for r in sql(
            pool_a, "SELECT DISTINCT indicator_code FROM evidence WHERE indicator_code IS NOT NULL"
        )
    }
    assert {"FEDFUNDS", "KR_BASE_RATE", "CPIAUCSL", "KR_USDKRW"} <= linked
    assert one(pool_a, "SELECT count(*) FROM evidence WHERE security_id IS NOT NULL") > 20


# ---------------------------------------------------------------- news


def test_news_windows_are_dense(pool_a: ConnectionPool) -> None:
    stamps = [r["published_at"] for r in sql(pool_a, "SELECT published_at FROM news_articles")]
    for day in trading_days(AS_OF - timedelta(days=60), AS_OF, "NYSE")[-30:]:
        start, end = window_bounds(day)
        assert sum(start <= s <= end for s in stamps) >= MIN_PER_WINDOW - 1, day
    assert max(stamps) <= window_bounds(AS_OF)[1]
    langs = {
        r["lang"]: r["n"]
        for r in sql(pool_a, "SELECT lang, count(*) AS n FROM news_articles GROUP BY 1")
    }
    assert langs["ko"] > 1000 and langs["en"] > 1000
    assert (
        one(
            pool_a,
            "SELECT count(*) FROM news_articles WHERE url <> 'https://demo.atlas.local/news/' || pk",
        )
        == 0
    )


_KO_MOVE = re.compile(r"([\d.]+)% (급등|급락|강세|약세|상승|하락)")
_EN_MOVE = re.compile(r" (surges|rallies|edges up|plunges|slides|edges down) ([\d.]+)%")
_UP = {"급등", "강세", "상승", "surges", "rallies", "edges up"}


def test_mover_articles_match_the_prices(pool_a: ConnectionPool) -> None:
    articles = sql(pool_a, "SELECT title, tickers, lang, published_at AT TIME ZONE 'Asia/Seoul' AS kst,"
                           " published_at AT TIME ZONE 'America/New_York' AS et FROM news_articles"
                           " WHERE cardinality(tickers) = 1")  # fmt: skip
    changes = {(r["security_id"], r["trade_date"]): float(r["change_rate"]) for r in sql(pool_a,
               "SELECT security_id, trade_date, change_rate FROM stock_prices")}  # fmt: skip
    checked = 0
    for a in articles:
        sid = a["tickers"][0]
        ko, en = _KO_MOVE.search(a["title"]), _EN_MOVE.search(a["title"])
        if ko and sid.startswith("KR:") and "주당순이익" not in a["title"]:
            value, word, day = float(ko.group(1)), ko.group(2), a["kst"].date()
        elif ko and sid.startswith("US:"):  # Korean morning story about last night's US session
            value, word, day = (
                float(ko.group(1)),
                ko.group(2),
                (a["kst"] - timedelta(days=1)).date(),
            )
        elif en and a["lang"] == "en":
            value, word, day = float(en.group(2)), en.group(1), a["et"].date()
        else:
            continue
        change = changes[(sid, day)]
        assert abs(abs(change) - value) <= 0.051, (a["title"], change)
        assert (change > 0) == (word in _UP), (a["title"], change)
        checked += 1
    assert checked > 500


# ---------------------------------------------------------------- pure helpers


def test_korean_particles_and_array_literals() -> None:
    assert josa("삼성전자", "은/는") == "삼성전자는" and josa("테스", "이/가") == "테스가"
    assert josa("셀트리온", "은/는") == "셀트리온은" and has_batchim("KODEX 200")
    assert pg_array(["KR:005930", 'a"b']) == '{"KR:005930","a\\"b"}'
