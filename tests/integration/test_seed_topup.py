"""`seed --if-missing` on a database seeded before the market series existed (issue 25): the
series are generated from the loaded run's own seed, scale and as-of date and added once; a
second call adds nothing. A private database on the real test server (nothing shared is touched)."""

from __future__ import annotations

from datetime import date
from typing import Any

import psycopg
import pytest
from psycopg.conninfo import make_conninfo
from psycopg_pool import ConnectionPool

from data_access.config import Settings
from data_access.postgres import fetch_all, fetch_one, get_pool, migrate
from data_access.seed.build import build_market_series
from data_access.seed.market_series import END_LEVELS
from data_access.seed.topup import add_missing_series
from data_access.services import ServiceInfo

DATABASE = "atlas_seed_topup_test"
SEED, AS_OF = 20261120, date(2026, 11, 20)


@pytest.fixture(scope="module")
def private_pool(services: ServiceInfo, settings: Settings) -> ConnectionPool:
    with psycopg.connect(services.postgres_uri, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{DATABASE}"')
    pool = get_pool(make_conninfo(services.postgres_uri, dbname=DATABASE), settings)
    migrate(pool)
    return pool


def test_series_are_added_once_from_the_loaded_run(private_pool: Any) -> None:
    with private_pool.connection() as conn:
        assert add_missing_series(conn) == 0  # no seed run: nothing to match
        conn.execute(
            "INSERT INTO seed_runs (scale, seed, as_of_date, checksums, row_counts, duration_ms)"
            " VALUES ('demo', %s, %s, '{}', '{}', 0)", (SEED, AS_OF),
        )  # fmt: skip
        conn.execute("INSERT INTO entity_aliases VALUES ('stock', '애플', 'US:AAPL')")
        conn.commit()
        expected = build_market_series("demo", SEED, AS_OF)["market_series_prices"]
        assert add_missing_series(conn) == len(expected)
        assert add_missing_series(conn) == 0  # already there
    counts = fetch_all("SELECT series_code, count(*) AS n FROM market_series_prices GROUP BY 1",
                       pool=private_pool)  # fmt: skip
    assert {r["series_code"]: r["n"] for r in counts} == expected.groupby(
        "series_code"
    ).size().to_dict()
    kospi = fetch_one("SELECT close FROM market_series_prices WHERE series_code = '^KS11'"
                      " AND trade_date = %s", (AS_OF,), pool=private_pool)  # fmt: skip
    assert kospi is not None and float(kospi["close"]) == END_LEVELS["^KS11"]
    aliases = fetch_all("SELECT kind, alias FROM entity_aliases", pool=private_pool)
    assert ("stock", "애플") in {(r["kind"], r["alias"]) for r in aliases}  # others kept
    assert {"코스피지수", "유가", "비트코인 가격"} <= {
        r["alias"] for r in aliases if r["kind"] == "market"
    }
