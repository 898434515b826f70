"""Demo-data seeding speed: generation, COPY load, checksums and graph projection per scale.

    python bench/seed.py [--scales demo market] [--home .workbench/bench]

Uses its own WORKBENCH_HOME (default `.workbench/bench`, shared with bench/lookups.py) so the
app's data is untouched, and replaces the seed tables there. Prints one block per scale.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--scales", nargs="+", default=["demo", "market"], choices=["demo", "market"]
    )
    parser.add_argument("--home", default=str(ROOT / ".workbench" / "bench"))
    parser.add_argument("--no-project", action="store_true")
    args = parser.parse_args()
    os.environ["WORKBENCH_HOME"] = args.home

    from data_access.bootstrap import bootstrap
    from data_access.config import get_settings
    from data_access.postgres import get_pool
    from data_access.seed import seed_database

    settings = get_settings()
    info = bootstrap(settings)
    pool = get_pool(info.postgres_uri, settings)
    print(
        f"home={args.home} postgres={'embedded' if info.postgres_embedded else 'external'} graph={info.graph_backend}"
    )
    for scale in args.scales:
        start = time.perf_counter()
        report = seed_database(scale, pool=pool, settings=settings, project=not args.no_project)
        wall = time.perf_counter() - start
        t = report.timings_ms
        print(
            f"\n== {scale} scale: {report.total_rows:,} rows, seed {report.seed}, wall {wall:.1f} s"
        )
        print(f"generate {t['generate'] / 1000:.1f} s ("
              + ", ".join(f"{k.removeprefix('generate_')} {v / 1000:.1f}" for k, v in t.items()
                          if k.startswith("generate_")) + ")")  # fmt: skip
        load_s = t["load"] / 1000
        print(
            f"load (TRUNCATE + COPY + FK check + ANALYZE) {load_s:.1f} s = {report.total_rows / load_s:,.0f} rows/s;"
            f" checksums {t['checksums'] / 1000:.1f} s; seed total {report.duration_ms / 1000:.1f} s"
        )
        print(f"{'table':<22} {'rows':>10} {'copy ms':>8} {'rows/s':>10}")
        for table, rows in report.row_counts.items():
            ms = t.get(f"copy_{table}", 0)
            rate = f"{rows / (ms / 1000):,.0f}" if ms else "-"
            print(f"{table:<22} {rows:>10,} {ms:>8} {rate:>10}")
        if report.projection:
            p = report.projection
            print(f"projection: {p.get('status')} in {p.get('duration_ms', 0) / 1000:.1f} s,"
                  f" {p.get('rows_fetched', 0):,} rows fetched, {p.get('upserted', 0):,} upserted,"
                  f" {p.get('failed', 0)} failed" + (f" ({p['error']})" if 'error' in p else ""))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
