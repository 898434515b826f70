"""Latency of full offline stock reports (p50/p95), per symbol form and overall.

    python bench/stock_report.py [--n 20] [--symbols 삼성전자 AAPL 005930 KR:000660 NVDA]

Runs the same `generate_report` the screen and the CLI use (LangGraph workflow, tools,
figures, fundamentals, news events, review check, templates) against WORKBENCH_HOME, without
saving runs (`--save` to include the run store writes). Prints one line per symbol, one for all
runs, one per tool (from the structured tool log) and one per workflow node (from the trace).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEFAULT_SYMBOLS = ("삼성전자", "AAPL", "005930", "KR:000660", "NVDA")


def percentiles(samples_ms: list[float]) -> tuple[float, float]:
    ordered = sorted(samples_ms)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return statistics.median(ordered), p95


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20, help="reports per symbol")
    parser.add_argument("--symbols", nargs="+", default=list(DEFAULT_SYMBOLS))
    parser.add_argument("--save", action="store_true", help="also write runs and artifacts")
    args = parser.parse_args()

    from agents.stock.service import generate_report
    from data_access.postgres import get_pool

    pool = get_pool()
    generate_report(args.symbols[0], pool=pool, save=False)  # warm-up: pool, caches
    overall: list[float] = []
    tools: dict[str, list[float]] = defaultdict(list)
    nodes: dict[str, list[float]] = defaultdict(list)
    print(f"offline stock report, {args.n} runs per symbol (save={args.save})")
    for symbol in args.symbols:
        samples = []
        for _ in range(args.n):
            start = time.perf_counter()
            answer = generate_report(symbol, pool=pool, save=args.save)
            samples.append((time.perf_counter() - start) * 1000)
            assert answer.status in ("ok", "partial"), answer.error
            for record in answer.payload["tool_log"]:
                tools[record["tool"]].append(float(record["latency_ms"]))
            for step in answer.trace:
                if step.kind == "node":
                    nodes[step.name].append(float(step.duration_ms))
        overall += samples
        p50, p95 = percentiles(samples)
        print(f"  {symbol:<12} p50 {p50:7.1f} ms   p95 {p95:7.1f} ms")
    p50, p95 = percentiles(overall)
    print(f"  {'all':<12} p50 {p50:7.1f} ms   p95 {p95:7.1f} ms   ({len(overall)} reports)")
    for tool, samples in sorted(tools.items()):
        p50, p95 = percentiles(samples)
        print(f"  tool {tool:<20} p50 {p50:6.1f} ms   p95 {p95:6.1f} ms")
    for node, samples in nodes.items():
        p50, p95 = percentiles(samples)
        print(f"  node {node:<20} p50 {p50:6.1f} ms   p95 {p95:6.1f} ms")


if __name__ == "__main__":
    main()
