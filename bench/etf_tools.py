"""Latency of the ten ETF tools and of whole offline turns (p50/p95 over random ETFs/stocks).

    python bench/etf_tools.py [--n 50] [--turns 20] [--home PATH] [--scales demo market]

Runs against WORKBENCH_HOME (default: the environment's); with `--scales`, seeds one home per
scale under `--home` (`python -m data_access.seed --scale S --if-missing`) and prints the same
lookups for each, so the cost of growth (demo → market) is visible. Prints one line per tool.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TURNS = (
    "삼성전자를 가장 많이 보유한 ETF는?",
    "KODEX 200과 TIGER 200 비교해줘",
    "반도체 관련 ETF 보수율 낮은 순으로",
    "KODEX 200 3개월 가격 추이",
    "KODEX 200과 비슷한 ETF는?",
)


def percentiles(samples_ms: list[float]) -> tuple[float, float]:
    ordered = sorted(samples_ms)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return statistics.median(ordered), p95


def timed(fn: Callable[[], object], n: int) -> list[float]:
    out = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return out


def run_bench(n: int, turns: int) -> dict[str, tuple[float, float]]:
    from agents.etf.service import answer_question
    from agents.etf.tools import ToolContext, make_tools
    from agents.evidence import EvidenceCollector
    from data_access.graph import get_graph_store
    from data_access.postgres import fetch_all, get_pool

    pool, store = get_pool(), get_graph_store()
    rng = random.Random(7)
    etfs = [r["code"] for r in fetch_all("SELECT code FROM etfs ORDER BY code", pool=pool)]
    held = [r["etf_code"] for r in fetch_all(
        "SELECT DISTINCT etf_code FROM etf_holdings ORDER BY 1", pool=pool)]  # fmt: skip
    names = [r["name"] for r in fetch_all("SELECT name FROM etfs ORDER BY code", pool=pool)]
    stocks = [r["code"] for r in fetch_all(
        "SELECT DISTINCT s.code FROM stocks s JOIN etf_holdings h USING (security_id)"
        " WHERE s.country = 'KR' ORDER BY 1", pool=pool)]  # fmt: skip
    tools = {t.name: t for t in make_tools(ToolContext(store, pool, EvidenceCollector()))}

    def call(name: str, **kwargs: str) -> None:
        result = json.loads(tools[name](**kwargs))
        if isinstance(result, dict) and result.get("status") == "error":
            raise RuntimeError(f"{name}{kwargs}: {result['error']}")

    cases: dict[str, Callable[[], None]] = {
        "etf_search": lambda: call("etf_search", query=rng.choice(names)),
        "stock_search": lambda: call("stock_search", query=rng.choice(stocks)),
        "list_tags": lambda: call("list_tags"),
        "get_etf_info": lambda: call("get_etf_info", etf_code=rng.choice(etfs)),
        "find_similar_etfs": lambda: call("find_similar_etfs", etf_code=rng.choice(held)),
        "get_holdings_changes(1d)": lambda: call("get_holdings_changes", etf_code=rng.choice(held)),
        "get_holdings_changes(1m)": lambda: call("get_holdings_changes", etf_code=rng.choice(held),
                                                 period="1m"),  # fmt: skip
        "get_etf_prices(1y)": lambda: call("get_etf_prices", etf_code=rng.choice(etfs), period="1y"),
        "get_stock_prices(1m)": lambda: call("get_stock_prices", stock_code=rng.choice(stocks)),
        "compare_etfs(3)": lambda: call("compare_etfs", etf_codes=",".join(rng.sample(etfs, 3))),
        "graph_query(top holders)": lambda: call("graph_query", cypher=(
            f"MATCH (e:ETF)-[h:HOLDS]->(s:Stock {{code: '{rng.choice(stocks)}'}}) "
            "WITH e, h ORDER BY h.date DESC WITH e, head(collect(h)) AS latest "
            "RETURN {etf_code: e.code, weight: latest.weight} ORDER BY latest.weight DESC LIMIT 5")),
    }  # fmt: skip
    results = {name: percentiles(timed(fn, n)) for name, fn in cases.items()}
    answer_question(TURNS[0], pool=pool, store=store)  # warm the lexicon and freshness caches
    turn_ms = timed(lambda: answer_question(rng.choice(TURNS), pool=pool, store=store), turns)
    results["offline turn (5 question kinds)"] = percentiles(turn_ms)
    return results


def seed_home(home: Path, scale: str) -> None:
    env = {**os.environ, "WORKBENCH_HOME": str(home)}
    subprocess.run([sys.executable, "-m", "data_access.seed", "--scale", scale, "--if-missing"],
                   cwd=ROOT, env=env, check=True)  # fmt: skip


def print_results(label: str, results: dict[str, tuple[float, float]]) -> None:
    from data_access.postgres import fetch_one

    sizes = fetch_one("SELECT (SELECT count(*) FROM etfs) AS etfs,"
                      " (SELECT count(*) FROM etf_holdings) AS holdings")  # fmt: skip
    print(f"\n== {label}: {sizes['etfs'] if sizes else '?'} ETFs, "
          f"{sizes['holdings'] if sizes else '?'} holding rows")  # fmt: skip
    print(f"{'tool':34} {'p50 ms':>9} {'p95 ms':>9}")
    for name, (p50, p95) in results.items():
        print(f"{name:34} {p50:9.1f} {p95:9.1f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=50, help="calls per tool")
    parser.add_argument("--turns", type=int, default=20, help="whole offline turns")
    parser.add_argument("--home", type=Path, default=None, help="parent of per-scale homes")
    parser.add_argument("--scales", nargs="*", default=None, help="e.g. demo market")
    args = parser.parse_args()
    if not args.scales:
        print_results(os.environ.get("WORKBENCH_HOME", "default home"),
                      run_bench(args.n, args.turns))  # fmt: skip
        return 0
    for scale in args.scales:
        home = (args.home or ROOT / ".workbench" / "bench") / scale
        seed_home(home, scale)
        # One process per scale: settings, pools and stores are process-wide.
        env = {**os.environ, "WORKBENCH_HOME": str(home)}
        cmd = [sys.executable, __file__, "--n", str(args.n), "--turns", str(args.turns)]
        subprocess.run(cmd, cwd=ROOT, env=env, check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
