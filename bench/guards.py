"""Guards and least privilege (issues 16, 22): what the corpora get, and what the walls cost.

    python bench/guards.py [--home .workbench/test] [--rounds 5]

Prints, on the demo data of WORKBENCH_HOME (seeded if empty):
- the hostile SQL corpus on each wall separately: refused by the guard (text checks, then the
  planner's cost estimate), and with the guard bypassed, what the reader's transaction did
  (server error/cancel, or rows);
- the analytic SQL corpus: accepted by both walls, and whether the rows equal the superuser's;
- the hostile Cypher corpus through the text guard;
- p50/p95 per query of `guard_sql`, `guard_cypher`, the plan-cost check, and `run_read_only`
  against the same SQL run unguarded on the superuser's pool (the whole price of both walls).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

HOSTILE_SQL = ROOT / "agents/eval/golden/hostile_sql.json"
HOSTILE_CYPHER = ROOT / "agents/eval/golden/hostile_cypher.json"
ANALYTIC_SQL = ROOT / "tests/fixtures/sql_analytic.json"
PLAN_REASON = "too expensive"

from bench.etf_tools import timed  # noqa: E402  (after sys.path has the project root)
from bench.lookups import percentile  # noqa: E402


def line(name: str, samples: list[float]) -> str:
    return (f"  {name:<34} p50 {percentile(samples, 0.5):7.3f} ms   "
            f"p95 {percentile(samples, 0.95):7.3f} ms   (n={len(samples)})")  # fmt: skip


def load(path: Path) -> list[dict[str, str]]:
    return list(json.loads(path.read_text(encoding="utf-8")))


def sql_walls(pool: Any) -> None:
    from data_access.errors import QueryFailed, QueryRejected
    from data_access.postgres import run_read_only
    from data_access.reader import fetch_reader, reader_transaction

    corpus = load(HOSTILE_SQL)
    text = plan = passed = 0
    role: dict[str, int] = {"error": 0, "rows": 0}
    for entry in corpus:
        try:
            run_read_only(entry["query"], timeout_ms=300, pool=pool)
            passed += 1
        except QueryRejected as e:
            plan, text = (plan + 1, text) if PLAN_REASON in e.reason else (plan, text + 1)
        except QueryFailed:
            passed += 1
        try:
            with reader_transaction(pool, timeout_ms=300) as conn:
                fetch_reader(conn, entry["query"])
            role["rows"] += 1
        except QueryFailed:
            role["error"] += 1
    print(f"hostile SQL ({len(corpus)} queries)")
    print(f"  guard wall: refused {text + plan}/{len(corpus)} (text {text}, plan cost {plan}); "
          f"not refused {passed}")  # fmt: skip
    print(
        f"  reader wall, guard bypassed: server refused or cancelled {role['error']}, "
        f"ran {role['rows']} (rows checked for planted secrets in tests/integration/"
        "test_reader_role.py)"
    )


def analytic(pool: Any, rounds: int) -> None:
    from data_access.guards import check_plan_cost, guard_sql
    from data_access.postgres import fetch_all, run_read_only
    from data_access.reader import explain_cost, reader_transaction

    corpus = load(ANALYTIC_SQL)
    accepted = 0
    guard_ms: list[float] = []
    plan_ms: list[float] = []
    guarded_ms: list[float] = []
    raw_ms: list[float] = []
    for entry in corpus:
        query = entry["query"]
        run_read_only(query, max_rows=1000, pool=pool)
        accepted += 1
        text = guard_sql(query, max_rows=1000)
        guard_ms += timed(lambda q=query: guard_sql(q, max_rows=1000), rounds)
        with reader_transaction(pool) as conn:
            plan_ms += timed(lambda c=conn, t=text: check_plan_cost(explain_cost(c, t), t), rounds)
        guarded_ms += timed(lambda q=query: run_read_only(q, max_rows=1000, pool=pool), rounds)
        raw_ms += timed(lambda t=text: fetch_all(t, pool=pool), rounds)
    print(f"analytic SQL ({len(corpus)} queries): accepted {accepted}/{len(corpus)}")
    print(line("guard_sql (text)", guard_ms))
    print(line("plan-cost check (EXPLAIN as reader)", plan_ms))
    print(line("run_read_only (both walls)", guarded_ms))
    print(line("same SQL as superuser, unguarded", raw_ms))


def cypher(rounds: int) -> None:
    from data_access.errors import QueryRejected
    from data_access.guards import guard_cypher

    corpus = load(HOSTILE_CYPHER)
    refused = 0
    for entry in corpus:
        try:
            guard_cypher(entry["query"])
        except QueryRejected:
            refused += 1
    samples: list[float] = []
    for entry in corpus:
        samples += timed(lambda q=entry["query"]: _quiet(guard_cypher, q), rounds)
    print(f"hostile Cypher ({len(corpus)} queries): text guard refused {refused}/{len(corpus)}")
    print(line("guard_cypher (hostile corpus)", samples))


def _quiet(fn: Callable[[str], Any], query: str) -> None:
    from data_access.errors import QueryRejected

    with contextlib.suppress(QueryRejected):
        fn(query)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", default=".workbench/test")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    os.environ["WORKBENCH_HOME"] = str((ROOT / args.home).resolve())
    import logging

    logging.disable(logging.INFO)  # every refusal is logged at INFO
    from data_access.bootstrap import bootstrap
    from data_access.config import get_settings
    from data_access.postgres import execute, get_pool
    from data_access.seed import seed_if_missing

    settings = get_settings()
    info = bootstrap(settings)
    pool = get_pool(info.postgres_uri, settings)
    seed_if_missing("demo", pool=pool, settings=settings, project=False)
    execute("ANALYZE", pool=pool)
    sql_walls(pool)
    analytic(pool, args.rounds)
    cypher(args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
