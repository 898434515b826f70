"""CLI: project PostgreSQL into the configured graph store and print the report.

python -m data_access.projection [--holdings-days N] [--bar-days N] [--graph NAME]
                                 [--step NAME ...] [--clear] [--json]
python -m data_access.projection --retry-lagging [--json]

--retry-lagging projects what imports, the seed or a restore wrote while the graph could not
follow (the `projection_backlog` rows still pending), incrementally, and marks them done.
"""

from __future__ import annotations

import argparse
import logging
import sys

from data_access.errors import WorkbenchError
from data_access.graph import get_graph_store
from data_access.projection.runner import ALL_STEPS, project_all


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m data_access.projection")
    parser.add_argument(
        "--holdings-days",
        type=int,
        default=None,
        help="project only the latest N holdings snapshot dates (default: all)",
    )
    parser.add_argument(
        "--bar-days", type=int, default=60, help="latest N daily bars per company (default: 60)"
    )
    parser.add_argument("--graph", default=None, help="graph/database name (default: settings)")
    parser.add_argument(
        "--step",
        action="append",
        choices=[s.step for s in ALL_STEPS],
        help="run only this step (repeatable)",
    )
    parser.add_argument("--clear", action="store_true", help="empty the graph first")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument(
        "--retry-lagging",
        action="store_true",
        help="project the writes the graph has not followed yet (pending backlog) and stop",
    )
    args = parser.parse_args(argv)  # fmt: skip
    logging.basicConfig(level=logging.WARNING)
    if args.retry_lagging:
        return _retry_lagging(args)
    try:
        store = get_graph_store(name=args.graph)
        if args.clear:
            store.clear()
        report = project_all(
            store, holdings_days=args.holdings_days, daily_bar_days=args.bar_days, steps=args.step
        )
    except WorkbenchError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(report.model_dump_json(indent=2) if args.json else report.to_text())
    return 1 if report.status == "error" else 0


def _retry_lagging(args: argparse.Namespace) -> int:
    from data_access.projection.backlog import catch_up

    try:
        store = get_graph_store(name=args.graph) if args.graph else None
        result = catch_up(store=store, daily_bar_days=args.bar_days)
    except WorkbenchError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.json and result.report is not None:
        print(result.report.model_dump_json(indent=2))
    elif result.report is not None:
        print(result.report.to_text())
    print(result.summary_line(), file=sys.stderr if result.status == "error" else sys.stdout)
    return 1 if result.status == "error" else 0


if __name__ == "__main__":
    sys.exit(main())
