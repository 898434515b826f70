"""Market series, rankings and the universe (issue 25): generation time and read latency.

    python bench/market_series.py [--n 50]

Reads the data of WORKBENCH_HOME (default .workbench; read-only queries, nothing written) and
prints one line per measurement, p50/p95 in milliseconds:
- generate: the demo market series (build_market_series, what `seed --if-missing` adds)
- resolve+read: a ticker or name resolved to its series and 30 days of bars read (get_ohlcv's path)
- the Macro templates: market_ranking_day (all KR stocks; Top50 universe), universe_changes,
  index_price_window (through the SQL guard and the read-only role, as agents run them)
- dataset_statuses: the whole catalogue with its freshness windows (the Data screen's query)
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from etf_tools import percentiles, timed  # noqa: E402  (the bench scripts' shared timing)


def warm_timed(fn: Callable[[], Any], n: int) -> list[float]:
    fn()  # warm: pool connections, plans
    return timed(fn, n)


def report(name: str, samples: list[float]) -> None:
    p50, p95 = percentiles(samples)
    print(f"{name:<42} n={len(samples):<4} p50={p50:8.1f} ms  p95={p95:8.1f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=50)
    args = parser.parse_args()

    from agents.macro.templates import run_template
    from agents.opening import market_reads
    from data_access.bootstrap import bootstrap
    from data_access.catalog import current_as_of_date, dataset_statuses
    from data_access.config import get_settings
    from data_access.postgres import get_pool
    from data_access.seed.build import build_market_series

    settings = get_settings()
    pool = get_pool(bootstrap(settings).postgres_uri, settings)
    as_of = current_as_of_date(pool)
    report("generate (demo market series)",
           warm_timed(lambda: build_market_series("demo", settings.demo_seed, as_of), 3))  # fmt: skip
    for ticker in ("^KS11", "코스피", "BTC-USD"):
        report(f"resolve+read 30 days: {ticker}", warm_timed(lambda t=ticker: market_reads.price_read(
            market_reads.instrument(t, pool), as_of - timedelta(days=30), as_of, pool), args.n))  # type: ignore[arg-type,misc]  # fmt: skip
    day = as_of.isoformat()
    ranking = {"country": "KR", "as_of": day, "market": "ALL", "sectors": [], "universe_size": 0,
               "measure": "trading_value", "direction": "desc", "n": 10,
               "dataset": "KR_STOCK_DAILY_OHLCV"}  # fmt: skip
    templates: dict[str, tuple[str, dict[str, Any]]] = {
        "market_ranking_day (KR, all)": ("market_ranking_day", ranking),
        "market_ranking_day (KR Top50)": ("market_ranking_day", {**ranking, "universe_size": 50}),
        "universe_changes (KR, two snapshots)": ("universe_changes", {
            "country": "KR", "from_date": "2026-10-30", "to_date": day, "size": 50}),
        "index_price_window (^KS11, 1 year)": ("index_price_window", {
            "code": "^KS11", "start": (as_of - timedelta(days=365)).isoformat(), "as_of": day,
            "dataset": "KOSPI_INDEX"}),
    }  # fmt: skip
    for label, (name, params) in templates.items():
        report(label, warm_timed(lambda n=name, p=params: run_template(n, p, pool=pool, store=None),
                            args.n))  # type: ignore[misc]  # fmt: skip
    report("dataset_statuses (catalogue)", warm_timed(lambda: dataset_statuses(as_of, pool), 10))
    print(f"as of {as_of}; {date.today()} wall date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
