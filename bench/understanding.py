"""Question understanding and whole offline turns, per screen (issue 14).

    python bench/understanding.py [--scale market|demo] [--turns 40] [--home .workbench/bench]
                                  [--warm] [--sets-only] [--steps]

Prints: the cost of `understand()` per question (p50/p95/max over every analyst golden question,
repeated) with the lexicon's size; then, per screen, the first offline turn of this process
(cold: lexicon, glossary and vocabulary load) and p50/p95 of the next `--turns` questions; then
the ETF questions over a whole set of ETFs (every ETF, or a theme: a ranking by a windowed price
figure reads all of them), each asked `--repeat` times — the heaviest offline turns.
`--steps` then counts each whole-set turn's interpreted steps (the sandbox's AST nodes).
Uses its own WORKBENCH_HOME (seeded at the requested scale if empty), like bench/lookups.py.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[max(0, min(len(ordered) - 1, round(q / 100 * len(ordered)) - 1))]


def line(label: str, samples: list[float], unit: str = "ms") -> str:
    return (f"{label:<34} n={len(samples):<4} p50={percentile(samples, 50):8.2f} {unit}  "
            f"p95={percentile(samples, 95):8.2f} {unit}  max={max(samples):8.2f} {unit}")  # fmt: skip


def bench_understanding(questions: dict[str, list[str]], pool: Any, repeat: int) -> None:
    from agents.understanding import understand
    from agents.understanding.lexicon import ETF_KINDS, MACRO_KINDS, load_lexicon

    started = time.perf_counter()
    lexicon = load_lexicon(pool)
    load_ms = (time.perf_counter() - started) * 1000
    names = len(lexicon.etfs) + len(lexicon.stocks) + len(lexicon.tags) + len(lexicon.aliases)
    print(f"lexicon: {len(lexicon.etfs)} ETFs, {len(lexicon.stocks)} stocks, "
          f"{len(lexicon.tags)} tags, {len(lexicon.aliases)} aliases ({names} names), "
          f"loaded in {load_ms:.0f} ms")  # fmt: skip
    kinds = {"etf": ETF_KINDS, "macro": MACRO_KINDS, "stock": frozenset({"stock"})}
    understand("워밍업 KODEX 200", lexicon)  # builds the sorted surfaces once
    for suite, qs in questions.items():
        wall, cpu = [], []  # CPU time too: on a shared machine wall-clock p95 is mostly waiting
        for _ in range(repeat):
            for q in qs:
                t, c = time.perf_counter(), time.thread_time()
                understand(q, lexicon, kinds=kinds[suite])
                wall.append((time.perf_counter() - t) * 1000)
                cpu.append((time.thread_time() - c) * 1000)
        print(line(f"understand() {suite} wall", wall))
        print(line(f"understand() {suite} cpu", cpu))


def bench_turns(name: str, ask: Callable[[str], Any], questions: list[str], turns: int) -> None:
    cold_started = time.perf_counter()
    ask(questions[0])
    cold = (time.perf_counter() - cold_started) * 1000
    samples = []
    for q in questions[1 : turns + 1]:
        t = time.perf_counter()
        ask(q)
        samples.append((time.perf_counter() - t) * 1000)
    print(f"{name:<12} first turn of the process {cold:8.0f} ms")
    print(line(f"{name} offline turn", samples))


# ETF questions over a whole set: each reads a price summary of every ETF in it (one query)
SET_QUESTIONS = (
    "1년 수익률 상위 5개 ETF", "올해 가장 많이 오른 ETF 5개", "어제 가장 많이 오른 ETF 3개",
    "52주 신고가 ETF", "52주 최고가에 가장 가까운 ETF 3개", "거래량 급증한 ETF",
    "거래대금 많은 ETF 5개", "순자산 상위 5개 ETF", "반도체 ETF 중 3개월 수익률 1위",
    "Top 5 ETFs by 1-year return",
)  # fmt: skip


def bench_sets(ask: Callable[[str], Any], repeat: int) -> None:
    """Wall time of every turn; the process's CPU time too (the sandbox's interpretation and
    the parsing of 900-row results, which a shared machine's load stretches less); and the
    first round apart (the first ask of a window reads its price summaries from PostgreSQL, the
    next are served per process for the same price data: agents.etf.data)."""
    samples, cpu, first = [], [], []
    by_question: dict[str, list[tuple[float, float]]] = {q: [] for q in SET_QUESTIONS}
    for round_ in range(repeat):
        for q in SET_QUESTIONS:
            t, c = time.perf_counter(), time.process_time()
            ask(q)
            samples.append((time.perf_counter() - t) * 1000)
            cpu.append((time.process_time() - c) * 1000)
            if round_ == 0:
                first.append(samples[-1])
            else:
                by_question[q].append((samples[-1], cpu[-1]))
    print(line("ETF set turn (whole sets)", samples))
    print(line("ETF set turn, process CPU", cpu))
    print(line("ETF set turn, first round", first))
    if repeat > 1:  # every window's summaries read once: what the next asks of a process wait
        later = [w for timed in by_question.values() for w, _ in timed]
        print(line("ETF set turn, after the first round", later))
        print(
            line("  the same, process CPU", [c for timed in by_question.values() for _, c in timed])
        )
    if repeat > 1:  # which questions make the p95: each one's median after the first round
        for (q, timed), once in zip(by_question.items(), first, strict=True):
            wall, spent = (
                percentile([w for w, _ in timed], 50),
                percentile([c for _, c in timed], 50),
            )
            print(f"  {q:<32} p50 {wall:7.1f} ms  CPU {spent:7.1f} ms  first {once:7.1f} ms")
    print(f"load average {os.getloadavg()[0]:.1f}")


def count_steps(ask: Callable[[str], Any]) -> None:
    """Interpreted steps (smolagents AST nodes evaluated) of each whole-set turn, asked once
    more after the timed rounds with a counter on the interpreter (its cost is not timed)."""
    import smolagents.local_python_executor as interpreter

    evaluate, count = interpreter.evaluate_ast, [0]

    def counted(*args: Any, **kwargs: Any) -> Any:
        count[0] += 1
        return evaluate(*args, **kwargs)

    interpreter.evaluate_ast = counted  # the interpreter's recursion looks the name up here
    try:
        for q in SET_QUESTIONS:
            count[0] = 0
            ask(q)
            print(f"  {q:<32} {count[0]:7,} interpreted steps")
    finally:
        interpreter.evaluate_ast = evaluate


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scale", default="market", choices=["demo", "market"])
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--home", default=str(ROOT / ".workbench" / "bench"))
    parser.add_argument(
        "--sets-only",
        action="store_true",
        help="only the ETF whole-set turns (skips understand() and the per-screen turns)",
    )
    parser.add_argument(
        "--steps",
        action="store_true",
        help="then count each whole-set turn's interpreted steps (smolagents AST nodes)",
    )
    parser.add_argument(
        "--warm",
        action="store_true",
        help="run the app's and API's start-up warm-up first (agents.warmup)",
    )
    args = parser.parse_args()
    os.environ["WORKBENCH_HOME"] = args.home
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

    from agents.eval.cases import load_cases
    from data_access.bootstrap import bootstrap
    from data_access.config import get_settings
    from data_access.graph import get_graph_store
    from data_access.postgres import get_pool
    from data_access.seed import seed_if_missing

    settings = get_settings().model_copy(update={"llm_model": None, "llm_model_etf": None,
                                                 "llm_model_macro": None})  # fmt: skip
    info = bootstrap(settings)
    pool = get_pool(info.postgres_uri, settings)
    report = seed_if_missing(args.scale, pool=pool, settings=settings, project=True)
    if report is not None:
        print(f"seeded {args.scale} in {report.duration_ms / 1000:.1f} s")
    store = get_graph_store(settings)
    questions = {s: [c.question for c in load_cases([s]) if c.split and not c.history]
                 for s in ("etf", "macro", "stock")}  # fmt: skip
    if not args.sets_only:
        bench_understanding(questions, pool, args.repeat)

    if args.warm:  # what the app and the API do when their pool is first handed out
        import threading

        from agents.warmup import warm_up

        started = time.perf_counter()
        warm_up(pool)
        for thread in threading.enumerate():
            if thread.name == "atlas-warmup":
                thread.join()
        print(f"warm-up (background at start-up)  {(time.perf_counter() - started) * 1000:8.0f} ms")
    from agents.etf.service import answer_question as etf_ask
    from agents.macro.service import answer_question as macro_ask
    from agents.stock.question import answer_stock_question

    if not args.sets_only:
        bench_turns("ETF", lambda q: etf_ask(q, settings=settings, store=store, pool=pool),
                    questions["etf"], args.turns)  # fmt: skip
        bench_turns("Macro", lambda q: macro_ask(q, settings=settings, store=store, pool=pool),
                    questions["macro"], args.turns)  # fmt: skip
        bench_turns("Stock", lambda q: answer_stock_question(q, pool=pool), questions["stock"],
                    args.turns)  # fmt: skip
    bench_sets(lambda q: etf_ask(q, settings=settings, store=store, pool=pool), args.repeat)
    if args.steps:
        count_steps(lambda q: etf_ask(q, settings=settings, store=store, pool=pool))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
