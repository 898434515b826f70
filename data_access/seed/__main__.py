"""python -m data_access.seed --scale demo|market [--if-missing] [--no-project] [--seed N]"""

from __future__ import annotations

import argparse
import logging
import sys

from data_access.errors import WorkbenchError
from data_access.seed.params import SCALES
from data_access.seed.runner import SeedReport, TopUpReport, seed_database, seed_or_top_up


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m data_access.seed", description="Load the demo dataset."
    )
    parser.add_argument("--scale", choices=SCALES, default="demo")
    parser.add_argument(
        "--if-missing", action="store_true", help="do nothing when this scale is loaded"
    )
    parser.add_argument("--no-project", action="store_true", help="skip the graph projection")
    parser.add_argument("--seed", type=int, default=None, help="override settings.demo_seed")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING, format="%(message)s"
    )
    try:
        if args.if_missing:
            report = seed_or_top_up(args.scale, project=not args.no_project)
        else:
            report = seed_database(args.scale, project=not args.no_project, seed=args.seed)
    except WorkbenchError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if report is None:
        print(f"demo data ({args.scale} scale) already loaded; nothing to do")
        return 0
    if isinstance(report, TopUpReport):  # a loaded seed got what a newer seed generates
        print(report.message())
        return 1 if report.failed else 0
    print(describe(report))
    return 1 if report.projection and report.projection.get("status") == "error" else 0


def describe(report: SeedReport) -> str:
    lines = [f"seeded {report.scale} scale (seed {report.seed}, as of {report.as_of_date}) "
             f"in {report.duration_ms / 1000:.1f} s: {report.total_rows:,} rows"]  # fmt: skip
    lines += [f"  {table:<22} {count:>10,}" for table, count in report.row_counts.items()]
    if report.projection:
        p = report.projection
        lines.append(f"graph projection: {p.get('status')} in {p.get('duration_ms', 0) / 1000:.1f} s"
                     + (f" ({p.get('upserted', 0):,} upserted)" if "upserted" in p else f": {p.get('error')}"))  # fmt: skip
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
