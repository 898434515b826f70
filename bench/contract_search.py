"""Contract clause retrieval: quality and speed, offline, on the labelled question set.

    python bench/contract_search.py [--repeat 5]

Prints recall@1, recall@5 and MRR, side by side in one run, for
- the seed's baseline (agents/contract/baseline.py): Whoosh keyword search (BM25F, in-RAM index)
  + FAISS IndexFlatIP over the same normalized vectors our dense retriever uses, fused with RRF,
  as the seed had it (no glossary), and the same with our bilingual glossary;
- bm25, dense and hybrid, with and without the glossary, and the former two-signal hybrid;
over all questions and over the two halves of the set (a hash of the question text decides the
half: 'tune' was used while designing the fusion, 'held-out' was not). Then an RRF-k sweep, index
build time per contract and query latency p50/p95. Runs against WORKBENCH_HOME.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agents.contract.baseline import SeedBaseline  # noqa: E402
from agents.contract.glossary import expand  # noqa: E402
from agents.contract.index import (  # noqa: E402
    ContractIndex,
    clear_cache,
    get_index,
    reference_ranking,
    rrf,
    title_ranking,
)
from agents.contract.ingest.pipeline import ensure_samples  # noqa: E402

QUERIES = ROOT / "tests" / "fixtures" / "contract_queries.json"
Query = dict[str, Any]
Ranker = Callable[[Query], list[int]]
_baselines: dict[str, SeedBaseline] = {}


def split_of(query: Query) -> str:
    return "tune" if zlib.crc32(str(query["q"]).encode()) % 2 == 0 else "held-out"


def baseline(contract_id: str) -> SeedBaseline:
    if contract_id not in _baselines:
        _baselines[contract_id] = SeedBaseline(get_index(contract_id))
    return _baselines[contract_id]


def seed_ranker(glossary: bool) -> Ranker:
    return lambda q: baseline(q["contract_id"]).search(q["q"], use_glossary=glossary)


def mode_ranker(mode: str, glossary: bool) -> Ranker:
    def rank(q: Query) -> list[int]:
        index = get_index(q["contract_id"])
        hits = index.search(q["q"], mode=mode, top=20, use_glossary=glossary)  # type: ignore[arg-type]
        return [h.article.article_no for h in hits]

    return rank


def signals(index: ContractIndex, query: str) -> dict[str, list[int]]:
    expansion = expand(query)
    return {
        "bm25": [no for no, _ in index.bm25(expansion.text)],
        "dense": [no for no, _ in index.dense(expansion.text)],
        "title": title_ranking(expansion, index.articles),
        "reference": reference_ranking(query, index.articles),
    }


def fused_ranker(names: tuple[str, ...], k: int) -> Ranker:
    def rank(q: Query) -> list[int]:
        rankings = signals(get_index(q["contract_id"]), q["q"])
        return [no for no, _, _ in rrf({n: rankings[n] for n in names}, k)]

    return rank


def evaluate(ranker: Ranker, queries: list[Query]) -> tuple[float, float, float]:
    r1 = r5 = mrr = 0.0
    for q in queries:
        positions = [i for i, no in enumerate(ranker(q), 1) if no in set(q["expected"])]
        first = positions[0] if positions else None
        r1 += first == 1
        r5 += first is not None and first <= 5
        mrr += 1 / first if first else 0.0
    n = len(queries)
    return r1 / n, r5 / n, mrr / n


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def print_quality(queries: list[Query]) -> None:
    halves = {h: [q for q in queries if split_of(q) == h] for h in ("tune", "held-out")}
    english = sum(q["lang"] == "en" for q in queries)
    print(f"\nretrieval quality on {len(queries)} labelled questions ({english} English; "
          f"tune {len(halves['tune'])}, held-out {len(halves['held-out'])}):")  # fmt: skip
    head = f"{'R@1':>5} {'R@5':>5} {'MRR':>5}"
    print(f"  {'':<36}" + " | ".join(f"{h:^17}" for h in ("all", "tune", "held-out")))
    print(f"  {'retriever':<36}" + " | ".join([head] * 3))
    rankers: list[tuple[str, Ranker]] = [
        ("seed baseline: Whoosh + FAISS, RRF", seed_ranker(False)),
        ("seed baseline + glossary", seed_ranker(True)),
        *[(f"{m} (no glossary)", mode_ranker(m, False)) for m in ("bm25", "dense", "hybrid")],
        ("hybrid bm25+dense only + glossary", fused_ranker(("bm25", "dense"), 60)),
        *[(f"{m} + glossary", mode_ranker(m, True)) for m in ("bm25", "dense", "hybrid")],
    ]  # fmt: skip
    for name, ranker in rankers:
        cells = [evaluate(ranker, rows) for rows in (queries, *halves.values())]
        print(f"  {name:<36}" + " | ".join(" ".join(f"{v:5.3f}" for v in c) for c in cells))
    print("\nhybrid + glossary (4 signals) by RRF k, MRR all / tune / held-out:")
    for k in (1, 5, 20, 60):
        ranker = fused_ranker(("bm25", "dense", "title", "reference"), k)
        mrrs = [evaluate(ranker, rows)[2] for rows in (queries, *halves.values())]
        print(f"  k={k:<3} " + " / ".join(f"{v:.3f}" for v in mrrs))


def print_latency(queries: list[Query], repeat: int) -> None:
    print("\nquery latency (glossary on, warm index):")
    searches: list[tuple[str, Callable[[Query], object]]] = [
        (mode, lambda q, m=mode: get_index(q["contract_id"]).search(q["q"], mode=m))
        for mode in ("bm25", "dense", "hybrid")
    ]
    searches.append(("seed baseline", seed_ranker(False)))
    for name, run in searches:
        times = []
        for _ in range(repeat):
            for q in queries:
                started = time.perf_counter()
                run(q)
                times.append((time.perf_counter() - started) * 1000)
        print(f"  {name:<14} n={len(times):<4} p50 {statistics.median(times):6.2f} ms  "
              f"p95 {percentile(times, 95):6.2f} ms")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    queries = json.loads(QUERIES.read_text(encoding="utf-8"))["queries"]
    infos = ensure_samples()
    clear_cache()
    print("index build: ours (kiwipiepy tokens from PostgreSQL, n-gram SVD fit, pgvector check) "
          "and the seed baseline (Whoosh RamStorage + FAISS IndexFlatIP):")  # fmt: skip
    for info in infos:
        started = time.perf_counter()
        get_index(info.contract_id)
        ours = (time.perf_counter() - started) * 1000
        started = time.perf_counter()
        baseline(info.contract_id)
        seed = (time.perf_counter() - started) * 1000
        print(f"  {info.contract_id:<22} {info.article_count:>3} articles  ours {ours:7.1f} ms  "
              f"seed baseline {seed:7.1f} ms")  # fmt: skip
    print_quality(queries)
    print_latency(queries, args.repeat)


if __name__ == "__main__":
    main()
