"""Incremental graph projection after an import (issue 25): what the command that imports waits
for before the screens see the new data.

    python bench/projection.py [--home .workbench/bench-projection] [--scale market]
                               [--etf-runs 7] [--price-days 3]

Uses its own WORKBENCH_HOME (seeded at `--scale` with its full projection on first use; the
seed's projection time is printed for comparison). Each run adds data after the newest stored
day, through the real importers, then times `catch_up` (the same call the importer CLI makes):

  1. one ETF's new holdings snapshot (KODEX 200, every holding's weight nudged): `--etf-runs`
     new days, p50/p95 of the projection and of the import;
  2. one day of prices for every stock of the scale (one symbol-column table through
     `import_ohlcv_frame_symbols`, one import run per stock): `--price-days` new days.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ETF = "069500"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--home", default=str(ROOT / ".workbench" / "bench-projection"))
    parser.add_argument("--scale", default="market", choices=["demo", "market"])
    parser.add_argument("--etf-runs", type=int, default=7)
    parser.add_argument("--price-days", type=int, default=3)
    args = parser.parse_args()
    os.environ["WORKBENCH_HOME"] = args.home

    from data_access.bootstrap import bootstrap
    from data_access.config import get_settings
    from data_access.postgres import get_pool
    from data_access.seed import seed_if_missing

    settings = get_settings()
    info = bootstrap(settings)
    pool = get_pool(info.postgres_uri, settings)
    start = time.perf_counter()
    seeded = seed_if_missing(args.scale, pool=pool, settings=settings, project=True)
    if seeded is not None:
        print(f"seeded {args.scale} scale in {time.perf_counter() - start:.0f} s")
    print(f"home={args.home} graph={info.graph_backend}; {_sizes(pool)}")
    print(_full_projection_line(pool))
    _bench_etf_snapshots(pool, args.etf_runs)
    _bench_price_days(pool, args.price_days)
    return 0


def _bench_etf_snapshots(pool: object, runs: int) -> None:
    import tempfile

    from data_access.importers import import_etf_holdings_csv

    imports, projections, rows = [], [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(runs):
            day = _next_weekday(_latest(pool, "SELECT max(as_of_date) AS d FROM etf_holdings"))
            path = Path(tmp) / f"{ETF}-{day}.csv"
            rows = _write_snapshot(pool, path, day)
            t0 = time.perf_counter()
            import_etf_holdings_csv(path, etf_code=ETF, pool=pool)  # type: ignore[arg-type]
            imports.append(time.perf_counter() - t0)
            projections.append(_timed_catch_up(pool))
    print(f"\n== one ETF's new snapshot ({ETF}, {rows} holdings), {runs} runs")
    print(f"import      {_stats(imports)}")
    print(f"projection  {_stats(projections)}   (holds + holding_changes for {ETF}, that day)")


def _bench_price_days(pool: object, days: int) -> None:
    import pandas as pd

    from data_access.importers import import_ohlcv_frame_symbols
    from data_access.postgres import fetch_all

    imports, projections = [], []
    stocks = fetch_all(
        "SELECT DISTINCT ON (security_id) security_id, close FROM stock_prices"
        " ORDER BY security_id, trade_date DESC",
        pool=pool,  # type: ignore[arg-type]
    )
    rng = random.Random(25)
    for _ in range(days):
        day = _next_weekday(_latest(pool, "SELECT max(trade_date) AS d FROM stock_prices"))
        frame = pd.DataFrame(
            [{"symbol": s["security_id"], "date": day.isoformat(),
              "close": round(float(s["close"]) * (1 + rng.gauss(0, 0.015)), 2),
              "volume": rng.randint(10_000, 5_000_000)} for s in stocks]
        )  # fmt: skip
        t0 = time.perf_counter()
        done = import_ohlcv_frame_symbols(frame, source=f"bench:{day}", pool=pool)  # type: ignore[arg-type]
        imports.append(time.perf_counter() - t0)
        assert not done.failed, list(done.failed.items())[:3]
        projections.append(_timed_catch_up(pool))
    print(f"\n== one day of prices for every stock ({len(stocks):,} securities), {days} days")
    print(f"import      {_stats(imports)}   (one import run per stock)")
    print(f"projection  {_stats(projections)}   (stocks + issuers + daily_bars, 60-bar window)")


def _timed_catch_up(pool: object) -> float:
    from data_access.projection.backlog import catch_up

    t0 = time.perf_counter()
    result = catch_up(pool)  # type: ignore[arg-type]
    elapsed = time.perf_counter() - t0
    assert result.status == "ok", result.summary_line()
    return elapsed


def _write_snapshot(pool: object, path: Path, day: date) -> int:
    from data_access.postgres import fetch_all

    rows = fetch_all(
        "SELECT security_id, weight, shares FROM etf_holdings WHERE etf_code = %(c)s AND"
        " as_of_date = (SELECT max(as_of_date) FROM etf_holdings WHERE etf_code = %(c)s)",
        {"c": ETF},
        pool,  # type: ignore[arg-type]
    )
    rng = random.Random(day.toordinal())
    lines = ["etf_code,date,security_id,weight,shares"] + [
        f"{ETF},{day},{r['security_id']},{float(r['weight']) * (1 + rng.gauss(0, 0.02)):.4f},"
        f"{r['shares']}"
        for r in rows
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(rows)


def _latest(pool: object, sql: str) -> date:
    from data_access.postgres import fetch_one

    row = fetch_one(sql, pool=pool)  # type: ignore[arg-type]
    assert row is not None and row["d"] is not None
    return date.fromisoformat(str(row["d"]))


def _next_weekday(day: date) -> date:
    day += timedelta(days=1)
    while day.weekday() >= 5:
        day += timedelta(days=1)
    return day


def _sizes(pool: object) -> str:
    from data_access.postgres import fetch_one

    row = fetch_one(
        "SELECT (SELECT count(*) FROM etfs) AS etfs, (SELECT count(*) FROM stocks) AS stocks,"
        " (SELECT count(*) FROM stock_prices) AS bars, (SELECT count(*) FROM etf_holdings) AS h",
        pool=pool,  # type: ignore[arg-type]
    )
    assert row is not None
    return (f"{row['etfs']:,} ETFs, {row['stocks']:,} stocks, {row['bars']:,} price rows, "
            f"{row['h']:,} holdings rows")  # fmt: skip


def _full_projection_line(pool: object) -> str:
    from data_access.postgres import fetch_one

    row = fetch_one(
        "SELECT batch_id, count(*) AS steps, sum(upserted) AS upserted,"
        " extract(epoch FROM max(finished_at) - min(started_at)) AS s FROM projection_runs"
        " GROUP BY batch_id HAVING count(*) >= 19 ORDER BY min(run_id) DESC LIMIT 1",
        pool=pool,  # type: ignore[arg-type]
    )
    if row is None:
        return "no full projection recorded in this home"
    return (f"for comparison, the latest full projection: {row['steps']} steps, "
            f"{int(row['upserted']):,} upserted, {float(row['s']):.1f} s (batch {row['batch_id']})")  # fmt: skip


def _stats(values: list[float]) -> str:
    ms = sorted(v * 1000 for v in values)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    return (f"p50 {statistics.median(ms):,.0f} ms  p95 {p95:,.0f} ms  "
            f"min {ms[0]:,.0f}  max {ms[-1]:,.0f}  (n={len(ms)})")  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
