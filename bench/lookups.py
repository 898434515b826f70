"""Core lookup latency in PostgreSQL and in the graph store (p50/p95 over many random keys).

    python bench/lookups.py [--scale market|demo] [--n 200] [--home .workbench/bench]

Uses its own WORKBENCH_HOME (default `.workbench/bench`) so the app's data is untouched; seeds
that home at the requested scale if it has no data yet. Prints one line per lookup and store.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# name -> (SQL, Cypher); both take the same parameters.
LOOKUPS: dict[str, tuple[str, str]] = {
    "etf_by_code": (
        "SELECT code, name, expense_ratio FROM etfs WHERE code = %(code)s",
        "MATCH (e:ETF {code: $code}) RETURN e.code AS code, e.name AS name,"
        " e.expense_ratio AS expense_ratio",
    ),
    "etf_by_name": (
        "SELECT code, name FROM etfs WHERE name ILIKE '%%' || %(name)s || '%%' ORDER BY name LIMIT 10",
        "MATCH (e:ETF) WHERE toLower(e.name) CONTAINS toLower($name)"
        " RETURN e.code AS code, e.name AS name ORDER BY e.name LIMIT 10",
    ),
    "top_holders_of_stock": (
        "SELECT etf_code, weight FROM etf_holdings WHERE security_id = %(security_id)s"
        " AND as_of_date = %(date)s ORDER BY weight DESC LIMIT 10",
        "MATCH (e:ETF)-[h:HOLDS {date: $date}]->(s:Stock {security_id: $security_id})"
        " RETURN e.code AS etf_code, h.weight AS weight ORDER BY h.weight DESC LIMIT 10",
    ),
    "holdings_on_date": (
        "SELECT security_id, weight FROM etf_holdings WHERE etf_code = %(code)s"
        " AND as_of_date = %(date)s ORDER BY weight DESC",
        "MATCH (e:ETF {code: $code})-[h:HOLDS {date: $date}]->(s:Stock)"
        " RETURN s.code AS code, h.weight AS weight ORDER BY h.weight DESC",
    ),
    "price_range": (
        "SELECT trade_date, close FROM etf_prices WHERE etf_code = %(code)s"
        " AND trade_date BETWEEN %(start)s AND %(date)s ORDER BY trade_date",
        "",  # prices live in PostgreSQL only (DESIGN.md: raw series stay relational)
    ),
}


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def measure(
    fn: Callable[[dict[str, object]], object], params: list[dict[str, object]]
) -> list[float]:
    fn(params[0])  # warm-up: plan caches, connections
    timings = []
    for p in params:
        start = time.perf_counter()
        fn(p)
        timings.append((time.perf_counter() - start) * 1000)
    return timings


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scale", default="market", choices=["demo", "market"])
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--home", default=str(ROOT / ".workbench" / "bench"))
    args = parser.parse_args()
    os.environ["WORKBENCH_HOME"] = args.home

    from data_access.bootstrap import bootstrap
    from data_access.config import get_settings
    from data_access.graph import get_graph_store
    from data_access.postgres import fetch_all, fetch_one, get_pool
    from data_access.seed import seed_if_missing

    settings = get_settings()
    info = bootstrap(settings)
    pool = get_pool(info.postgres_uri, settings)
    report = seed_if_missing(args.scale, pool=pool, settings=settings)
    if report is not None:
        print(f"seeded {args.scale} in {report.duration_ms / 1000:.1f} s")
    store = get_graph_store(settings)

    latest = fetch_one("SELECT max(as_of_date) AS d FROM etf_holdings", pool=pool)
    date = latest["d"] if latest else None
    held = fetch_all(
        "SELECT DISTINCT h.etf_code, h.security_id, e.name FROM etf_holdings h"
        " JOIN etfs e ON e.code = h.etf_code WHERE h.as_of_date = %s",
        (date,),
        pool,
    )
    rng = random.Random(7)
    params = []
    for _ in range(args.n):
        row = rng.choice(held)
        words = str(row["name"]).split()
        params.append(
            {
                "code": row["etf_code"],
                "name": words[-1] if len(words) > 1 else words[0],
                "security_id": row["security_id"],
                "date": date.isoformat(),
                "start": date.replace(year=date.year - 1).isoformat(),
            }
        )
    counts = fetch_one(
        "SELECT (SELECT count(*) FROM etfs) AS etfs, (SELECT count(*) FROM stocks) AS stocks,"
        " (SELECT count(*) FROM etf_holdings) AS holdings,"
        " (SELECT count(*) FROM stock_prices) AS stock_prices",
        pool=pool,
    )
    print(f"scale={args.scale} {counts} graph={store.backend} n={args.n}")
    print(f"{'lookup':<22} {'store':<10} {'p50 ms':>8} {'p95 ms':>8} {'rows':>6}")
    for name, (sql, cypher) in LOOKUPS.items():
        rows_pg = len(fetch_all(sql, params[0], pool))
        pg = measure(lambda p, q=sql: fetch_all(q, p, pool), params)
        print(
            f"{name:<22} {'postgres':<10} {percentile(pg, 0.5):8.2f} {percentile(pg, 0.95):8.2f} {rows_pg:6}"
        )
        if cypher:
            rows_g = len(store.read(cypher, params[0]))
            gr = measure(lambda p, q=cypher: store.read(q, p), params)
            print(
                f"{name:<22} {store.backend:<10} {percentile(gr, 0.5):8.2f}"
                f" {percentile(gr, 0.95):8.2f} {rows_g:6}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
