"""Contract clause retrieval: quality and speed, offline, on the labelled question set.

    python bench/contract_search.py [--repeat 5]

Prints recall@1, recall@5 and MRR for bm25, dense and hybrid (RRF), each with and without the
bilingual glossary, plus a keyword baseline standing in for the seed's Whoosh keyword search
(whitespace tokens, no morphology, no glossary) fused with the dense retriever without the
glossary (the seed's FAISS role). Then index build time per contract and query latency p50/p95.
Runs against WORKBENCH_HOME (default: the environment's).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agents.contract.index import ContractIndex, clear_cache, get_index, rrf  # noqa: E402
from agents.contract.ingest.pipeline import ensure_samples  # noqa: E402

QUERIES = ROOT / "tests" / "fixtures" / "contract_queries.json"
Ranker = Callable[[ContractIndex, str], list[int]]


def keyword_baseline(index: ContractIndex, query: str) -> list[int]:
    """Whoosh-like: whole whitespace words, scored by how many occur in the article."""
    words = {w.strip("?.,!").lower() for w in query.split() if len(w) > 1}
    scored = []
    for no, article in index.articles.items():
        text = f"{article.label} {article.body}".lower()
        hits = sum(1 for w in words if w in text.split() or w in text)
        if hits:
            scored.append((hits, no))
    return [no for _, no in sorted(scored, key=lambda p: (-p[0], p[1]))]


def seed_baseline(index: ContractIndex, query: str) -> list[int]:
    dense = [
        h.article.article_no for h in index.search(query, mode="dense", top=20, use_glossary=False)
    ]
    return [no for no, _, _ in rrf({"keyword": keyword_baseline(index, query), "dense": dense})]


def mode_ranker(mode: str, glossary: bool) -> Ranker:
    def rank(index: ContractIndex, query: str) -> list[int]:
        return [h.article.article_no for h in index.search(query, mode=mode, top=10,  # type: ignore[arg-type]
                                                             use_glossary=glossary)]  # fmt: skip

    return rank


def evaluate(ranker: Ranker, queries: list[dict[str, object]]) -> tuple[float, float, float]:
    r1 = r5 = mrr = 0.0
    for q in queries:
        ranked = ranker(get_index(str(q["contract_id"])), str(q["q"]))
        expected = set(q["expected"])  # type: ignore[call-overload]
        positions = [i for i, no in enumerate(ranked, 1) if no in expected]
        first = positions[0] if positions else None
        r1 += first == 1
        r5 += first is not None and first <= 5
        mrr += 1 / first if first else 0.0
    n = len(queries)
    return r1 / n, r5 / n, mrr / n


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    queries = json.loads(QUERIES.read_text(encoding="utf-8"))["queries"]
    infos = ensure_samples()
    clear_cache()
    print("index build (kiwipiepy tokens loaded from PostgreSQL, n-gram SVD fit, pgvector check):")
    for info in infos:
        started = time.perf_counter()
        get_index(info.contract_id)
        print(f"  {info.contract_id:<22} {info.article_count:>3} articles  "
              f"{(time.perf_counter() - started) * 1000:7.1f} ms")  # fmt: skip
    print(f"\nretrieval quality on {len(queries)} labelled questions "
          f"({sum(q['lang'] == 'en' for q in queries)} English):")  # fmt: skip
    print(f"  {'retriever':<34} {'recall@1':>8} {'recall@5':>8} {'MRR':>6}")
    rankers: list[tuple[str, Ranker]] = [
        ("seed baseline (keyword + dense)", seed_baseline),
        *[(f"{m} (no glossary)", mode_ranker(m, False)) for m in ("bm25", "dense", "hybrid")],
        *[(f"{m} + glossary", mode_ranker(m, True)) for m in ("bm25", "dense", "hybrid")],
    ]  # fmt: skip
    for name, ranker in rankers:
        r1, r5, mrr = evaluate(ranker, queries)
        print(f"  {name:<34} {r1:8.3f} {r5:8.3f} {mrr:6.3f}")
    print("\nquery latency per retriever (glossary on, warm index):")
    for mode in ("bm25", "dense", "hybrid"):
        times = []
        for _ in range(args.repeat):
            for q in queries:
                index = get_index(str(q["contract_id"]))
                started = time.perf_counter()
                index.search(str(q["q"]), mode=mode)  # type: ignore[arg-type]
                times.append((time.perf_counter() - started) * 1000)
        print(f"  {mode:<7} n={len(times):<4} p50 {statistics.median(times):6.2f} ms  "
              f"p95 {percentile(times, 95):6.2f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
