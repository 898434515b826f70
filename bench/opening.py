"""Time of a full offline opening-script run: the demo day, and a day of 2,000 articles.

    python bench/opening.py [--n 5] [--big 2000] [--home PATH]
    python bench/opening.py --coverage [--home PATH]

Runs against WORKBENCH_HOME (default: .workbench/test, the seeded test home; pass
`--home .workbench` to leave the test database alone while tests run). The big day is
made by copying existing articles (new pks, times spread over the 2026-11-19 window) into
news_articles for the duration of the benchmark; they are deleted afterwards. Nothing is saved
to the run store. Prints p50/p95 per scenario, the per-node split of the last run, and
p50/p95 of the get_market_movers tool (the clustering and impact ranking).

`--coverage` instead runs every day the screen lists (`news_days`) once and prints how many of
the day's three biggest news-backed moves (agents.eval.opening_editor, independent SQL) its
themes cover: the days with at least two, the moves covered and the days below.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BIG_DAY = "2026-11-19"
BIG_PREFIX = "bench-opening-"


def percentiles(samples_ms: list[float]) -> tuple[float, float]:
    ordered = sorted(samples_ms)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return statistics.median(ordered), p95


def run(day: str, n: int) -> tuple[list[float], dict[str, int], int, list[float]]:
    from agents.opening.service import run_opening

    samples, nodes, count, movers = [], defaultdict(int), 0, []
    for _ in range(n):
        start = time.perf_counter()
        answer = run_opening(day, save=False)
        samples.append((time.perf_counter() - start) * 1000)
        if answer.status != "ok":
            raise SystemExit(f"run failed: {answer.error}")
        count = int(answer.payload["context"]["news_meta"]["count"])
        nodes = defaultdict(int)
        for step in answer.trace:
            if step.kind == "node":
                nodes[step.name] += step.duration_ms
            elif step.kind == "tool" and step.name == "get_market_movers":
                movers.append(float(step.duration_ms))
    return samples, dict(nodes), count, movers


def add_big_day(total: int) -> None:
    from data_access.postgres import execute, fetch_one

    have = fetch_one(
        "SELECT count(*) AS n FROM news_articles WHERE published_at >= %s AND published_at <= %s",
        ("2026-11-18 16:00-05", "2026-11-19 18:00-05"),
    )  # fmt: skip
    extra = max(0, total - int(have["n"] if have else 0))
    execute(
        "INSERT INTO news_articles (pk, title, body, tickers, themes, published_at, source, url,"
        " lang) SELECT %s || g, a.title, a.body, a.tickers, a.themes,"
        " timestamptz '2026-11-18 16:00-05' + (g * interval '1 minute') * 1560 / %s,"
        " a.source, a.url, a.lang FROM generate_series(1, %s) g"
        " JOIN LATERAL (SELECT * FROM news_articles WHERE pk NOT LIKE 'bench-%%'"
        " ORDER BY published_at DESC OFFSET (g %% 3000) LIMIT 1) a ON true",
        (BIG_PREFIX, extra, extra),
    )  # fmt: skip


def drop_big_day() -> None:
    from data_access.postgres import execute

    execute("DELETE FROM news_articles WHERE pk LIKE %s", (BIG_PREFIX + "%",))


def report(label: str, samples: list[float], nodes: dict[str, int], count: int,
           movers: list[float]) -> None:  # fmt: skip
    p50, p95 = percentiles(samples)
    print(
        f"{label:<28} articles={count:>5}  n={len(samples)}  p50={p50:8.0f} ms  p95={p95:8.0f} ms"
    )
    split = "  ".join(f"{k}={v}" for k, v in nodes.items())
    print(f"{'':<28} last run by node (ms): {split}")
    if movers:  # the clustering tool (issue #17), inside the tools node
        m50, m95 = percentiles(movers)
        print(f"{'':<28} get_market_movers: p50={m50:.0f} ms  p95={m95:.0f} ms")


def coverage() -> None:
    from agents.eval.opening_editor import MIN_COVERED, coverage_of
    from agents.opening.service import news_days, run_opening
    from data_access.postgres import get_pool

    pool = get_pool()
    days = [day for day, _ in news_days(pool)]
    below, covered, moves = [], 0, 0
    for day in days:
        cov = coverage_of(day, "tune", run_opening(day, pool=pool, save=False), pool)
        covered, moves = covered + cov.covered, moves + len(cov.top)
        if cov.covered < min(MIN_COVERED, len(cov.top)):
            below.append(f"{day}: {cov.covered}/{len(cov.top)}")
    print(
        f"{len(days) - len(below)}/{len(days)} days ({days[-1]} .. {days[0]}) cover >= "
        f"{MIN_COVERED} of the 3 biggest news-backed moves; {covered}/{moves} moves covered"
    )
    print("below: " + (", ".join(below) or "none"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=5)
    parser.add_argument("--big", type=int, default=2000)
    parser.add_argument("--home", default=str(ROOT / ".workbench" / "test"))
    parser.add_argument("--coverage", action="store_true", help="themes vs the biggest moves")
    args = parser.parse_args()
    os.environ.setdefault("WORKBENCH_HOME", args.home)
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    if args.coverage:
        coverage()
        return 0
    from agents.opening.service import run_opening

    run_opening("2026-11-20", save=False)  # warm up: Kiwi model load, pool, imports
    report("demo day 2026-11-20", *run("2026-11-20", args.n))
    add_big_day(args.big)
    try:
        report(f"big day {BIG_DAY}", *run(BIG_DAY, args.n))
    finally:
        drop_big_day()
    return 0


if __name__ == "__main__":
    sys.exit(main())
