"""Cost of the check after the model (agents.model_checks), p50/p95 per case.

    python bench/model_checks.py [--n 200]

Evidence and text come from a real offline stock report of the demo data (its figures,
fundamentals and events as the pool; the report's Markdown, ~5-6 k characters, as the text to
check), plus the same report with three invented sentences (the removal path), a 100 k-character
answer, and the opening script's policy. Prints claims found and milliseconds per check.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

INVENTED = " 1개월간 48.3% 상승, RSI 91.2, 목표주가 250,000원입니다."


def percentiles(samples_ms: list[float]) -> tuple[float, float]:
    ordered = sorted(samples_ms)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return statistics.median(ordered), p95


def timed(n: int, fn: Callable[[], object]) -> list[float]:
    out = []
    for _ in range(n):
        started = time.perf_counter()
        fn()
        out.append((time.perf_counter() - started) * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200, help="checks per case")
    args = parser.parse_args()

    from agents.model_checks import OPENING, check_model_text, claims_in, pool_from
    from agents.stock.service import generate_report
    from data_access.postgres import get_pool

    answer = generate_report("삼성전자", pool=get_pool(), save=False)
    p = answer.payload
    facts = {"figures": p["figures"], "fundamentals": p["fundamentals"], "events": p["events"],
             "stock": p["stock"], "recommendation": p["recommendation"], "news": p["news"]}  # fmt: skip
    report = answer.answer
    pool = pool_from(facts)
    cases = {
        "report (clean)": (report, None),
        "report + 3 invented": (report + INVENTED * 3, None),
        "100k chars": ((report + INVENTED) * (100_000 // len(report) + 1), None),
        "report, opening policy": (report, OPENING),
    }
    print(f"evidence: {len(pool.values)} numbers, {len(pool.dates)} dates "
          f"(pool_from p50/p95 {'/'.join(f'{v:.2f}' for v in percentiles(timed(args.n, lambda: pool_from(facts))))} ms)")  # fmt: skip
    for name, (text, policy) in cases.items():
        kwargs = {"policy": policy} if policy else {}
        result = check_model_text(text, pool, **kwargs)
        p50, p95 = percentiles(
            timed(args.n, lambda t=text, k=kwargs: check_model_text(t, pool, **k))
        )
        claims = len(claims_in(text, policy)) if policy else len(claims_in(text))
        print(f"{name:24s} chars={len(text):7d} claims={claims:5d} removed={len(result.removed):4d} "
              f"p50={p50:8.2f} ms p95={p95:8.2f} ms (n={args.n})")  # fmt: skip


if __name__ == "__main__":
    main()
