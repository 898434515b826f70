"""Contract clause retrieval: quality on contracts we did not tune on, answer precision, speed.

    python bench/contract_search.py [--repeat 3] [--splits tune held-out] [--failures] [--misses]
                                    [--no-latency | --latency-only] [--per-contract]

Runs against WORKBENCH_HOME (the bundled samples and the real public contracts of
tests/fixtures/contracts/ are ingested there once). Prints, in one run:
1. recall@1 / recall@5 / MRR per question set and per retriever, side by side with the seed's
   baseline (Whoosh keyword search + FAISS, RRF; agents/contract/baseline.py): bm25, dense and
   hybrid, each with the data-contract glossary and the general legal thesaurus switched on and off,
   and hybrid with the thesaurus's English → Korean word list off ('-bilingual') and with its
   everyday Korean → register word list off ('-everyday').
   Sets: the bundled samples (hash halves, as before), the real contracts used while tuning
   ('real tune') and the real contracts held out ('real held-out', never looked at while tuning);
   English questions separately. `--splits tune held-out fresh` adds the 'fresh' questions
   (written over the held-out contracts on 2026-11-28 before the change they measure).
2. per real contract: the seed baseline and hybrid with and without the glossary, and answer
   precision of the clauses an answer lists after the relevance cut (precision, answerable
   questions with a right clause listed, unanswerable questions answered with nothing, clauses
   listed per answer).
3. latency: index build per contract, hybrid search p50/p95 on a 200-article contract built from
   the real ones, and ingestion time of a generated 100-page PDF.
`--failures` lists the tune questions whose right clause is not first (never the held-out ones);
`--misses` lists those of the chosen splits with their top 5 and each retriever's weighted score
(why the wrong article came first: issue 32 looked at the held-out ones).
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agents.contract import store  # noqa: E402
from agents.contract.answer import select  # noqa: E402
from agents.contract.baseline import SeedBaseline  # noqa: E402
from agents.contract.evaluation import (  # noqa: E402
    LabelledQuery,
    Ranker,
    ingest_real,
    load_real_queries,
    load_sample_queries,
    precision,
    score,
)
from agents.contract.index import ContractIndex, Fusion, SearchMode, clear_cache  # noqa: E402
from agents.contract.index import get_index as _get_index  # noqa: E402
from agents.contract.ingest.pipeline import ensure_samples, ingest_bytes  # noqa: E402
from data_access.postgres import get_pool  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures"
REAL = FIXTURES / "contracts"
_baselines: dict[str, SeedBaseline] = {}
MODES: tuple[SearchMode, ...] = ("bm25", "dense", "hybrid")
POOL = None  # one pool for the run, as the app holds one (without it each query looks one up)


def get_index(contract_id: str) -> ContractIndex:
    return _get_index(contract_id, POOL)


def baseline(contract_id: str) -> SeedBaseline:
    if contract_id not in _baselines:
        _baselines[contract_id] = SeedBaseline(get_index(contract_id))
    return _baselines[contract_id]


def seed_ranker(glossary: bool) -> Ranker:
    return lambda q: baseline(q.contract_id).search(q.q, use_glossary=glossary)


def mode_ranker(mode: SearchMode, glossary: bool, thesaurus: bool, bilingual: bool = True,
                everyday: bool = True, fusion: Fusion = "score") -> Ranker:  # fmt: skip
    def rank(q: LabelledQuery) -> list[int]:
        hits = get_index(q.contract_id).search(q.q, mode=mode, top=20, use_glossary=glossary,
                                               use_thesaurus=thesaurus, use_bilingual=bilingual,
                                               use_everyday=everyday, fusion=fusion)  # fmt: skip
        return [h.article.article_no for h in hits]

    return rank


def answer_lister(glossary: bool) -> Ranker:
    def listed(q: LabelledQuery) -> list[int]:
        index = get_index(q.contract_id)
        hits = index.search(q.q, top=10, use_glossary=glossary)
        articles = list(index.articles.values())
        return [h.article.article_no for h in select(q.q, hits, articles=articles)]

    return listed


def rankers() -> list[tuple[str, Ranker]]:
    out: list[tuple[str, Ranker]] = [("seed baseline: Whoosh + FAISS", seed_ranker(False)),
                                     ("seed baseline + glossary", seed_ranker(True))]  # fmt: skip
    for glossary in (False, True):
        for thesaurus in (False, True):
            tag = f"{'+' if glossary else '-'}glossary {'+' if thesaurus else '-'}thesaurus"
            for mode in MODES:
                out.append((f"{mode} {tag}", mode_ranker(mode, glossary, thesaurus)))
            if thesaurus:  # the earlier RRF fusion; the thesaurus's word lists, measured apart
                out.append((f"hybrid {tag} RRF (before)", mode_ranker("hybrid", glossary, True,
                                                                     fusion="rrf")))  # fmt: skip
                out.append((f"hybrid {tag} -bilingual", mode_ranker("hybrid", glossary, True,
                                                                    bilingual=False)))  # fmt: skip
                out.append((f"hybrid {tag} -everyday", mode_ranker("hybrid", glossary, True,
                                                                   everyday=False)))  # fmt: skip
    return out


def print_quality(sets: dict[str, list[LabelledQuery]]) -> None:
    print("\nrecall@1 recall@5 MRR per question set (answerable questions):")
    names = list(sets)
    print(f"  {'':<44}" + " | ".join(f"{n:^17}" for n in names))
    print(f"  {'retriever':<44}" + " | ".join([f"{'R@1':>5} {'R@5':>5} {'MRR':>5}"] * len(names)))
    print(f"  {'(questions)':<44}" + " | ".join(f"{score(lambda q: [], s).n:^17}"
                                                for s in sets.values()))  # fmt: skip
    for name, ranker in rankers():
        print(f"  {name:<44}" + " | ".join(score(ranker, s).cells() for s in sets.values()))


def print_per_contract(queries: list[LabelledQuery]) -> None:
    print("\nper real contract — R@1 R@5 MRR; answer precision after the relevance cut "
          "(precision, answered, abstained, clauses listed per answer):")  # fmt: skip
    columns: list[tuple[str, Ranker]] = [
        ("seed", seed_ranker(False)),
        ("RRF (before) -gl.", mode_ranker("hybrid", False, True, fusion="rrf")),
        ("hybrid -glossary", mode_ranker("hybrid", False, True)),
        ("hybrid +glossary", mode_ranker("hybrid", True, True)),
    ]
    print(f"  {'contract':<18} {'split':<9} {'n':>3} " + " | ".join(f"{c:^17}" for c, _ in columns)
          + " | answers -glossary (P, ans, abst, n) | answers +glossary")  # fmt: skip
    # one row per contract and question split (a contract's 'fresh' questions apart from its
    # earlier ones), in the order the splits were asked for
    order = list(dict.fromkeys(q.split for q in queries))
    groups = sorted({(q.group, q.split) for q in queries}, key=lambda g: (order.index(g[1]), g[0]))
    for group, split in groups:
        rows = [q for q in queries if q.group == group and q.split == split]
        cells = [score(r, rows).cells() for _, r in columns]
        answers = [precision(answer_lister(g), rows).cells() for g in (False, True)]
        print(f"  {group:<18} {split:<9} {len(rows):>3} " + " | ".join(cells)
              + " | " + " | ".join(answers))  # fmt: skip


def print_failures(queries: list[LabelledQuery]) -> None:
    print("\ntune questions whose right clause is not first (hybrid, glossary off):")
    rank = mode_ranker("hybrid", False, True)
    for q in queries:
        if q.split != "tune" or not q.answerable:
            continue
        ranking = rank(q)
        if not ranking or ranking[0] not in q.expected:
            print(f"  {q.group:<18} {q.q} expected {list(q.expected)} got {ranking[:5]}")


def print_misses(queries: list[LabelledQuery]) -> None:
    """Each answerable question of the chosen splits whose right clause is not first (hybrid,
    glossary off): its top 5 with each retriever's weighted share of the fused score."""
    from agents.contract.index import FUSION_WEIGHTS, fuse, prepare

    print("\nquestions whose right clause is not first (hybrid, glossary off; * = right):")
    for q in queries:
        if not q.answerable:
            continue
        index = get_index(q.contract_id)
        scores = index.scores(prepare(q.q, use_glossary=False))
        fused = fuse(scores)
        if fused and fused[0][0] in q.expected:
            continue
        order = [key for key, _, _ in fused]
        rank = next((i for i, key in enumerate(order, 1) if key in q.expected), None)
        print(f"  [{q.split} {q.group}] {q.q} expected {list(q.expected)}, right one at {rank}")
        shown = order[:5] + [e for e in q.expected if e in order[5:]]
        for key, total, _ in (f for f in fused if f[0] in shown):
            parts = " ".join(f"{name} {FUSION_WEIGHTS.get(name, 1.0) * found[key]:+.2f}"
                             for name, found in scores.items() if found.get(key))  # fmt: skip
            mark = "*" if key in q.expected else " "
            print(f"    {mark} {index.articles[key].label[:32]:<32} {total:5.2f}  {parts}")


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def timed(run: Callable[[], object], repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        times.append((time.perf_counter() - started) * 1000)
    return times


def cpu_ms() -> float:
    """CPU time of this process and its finished children (an upload is read in a child), in ms:
    on a machine other work loads, wall time measures the queue for the cores, CPU time the work."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(
        resource.RUSAGE_CHILDREN)  # fmt: skip
    return (own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime) * 1000


def large_contract() -> str:
    """About 200 articles: the real contracts' articles renumbered one after another."""
    from agents.contract.ingest.parse import parse_contract_text

    lines, number = ["대용량 결합 계약서"], 0
    while number < 200:
        for source in sorted(REAL.glob("*.md")):
            parsed = parse_contract_text(source.read_text(encoding="utf-8"))
            for article in parsed.articles:
                if article.article_no > 0 and number < 200:
                    number += 1
                    lines += [f"제{number}조({article.title})", *article.content]
    return "\n".join(lines)


def hundred_page_pdf(text: str) -> bytes:
    """The 200-article contract as a PDF, two articles to a page: 100 pages of real clauses."""
    from fpdf import FPDF

    font = next(p for p in ("/usr/share/fonts/truetype/nanum/NanumGothic.ttf",
                            "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
                if Path(p).exists())  # fmt: skip
    pdf = FPDF()
    pdf.add_font("ko", fname=font)
    pdf.set_font("ko", size=9)
    articles = 0
    for line in text.splitlines():
        if line.startswith("제") and "조(" in line[:8]:
            if articles % 2 == 0:
                pdf.add_page()
            articles += 1
        elif pdf.page == 0:
            pdf.add_page()
        pdf.multi_cell(0, 4.5, line, new_x="LMARGIN", new_y="NEXT")
    out = io.BytesIO()
    pdf.output(out)
    return out.getvalue()


def print_latency(queries: list[LabelledQuery], repeat: int) -> None:
    print("\nindex build (kiwipiepy tokens from PostgreSQL, n-gram SVD fit, pgvector check) "
          "and the seed baseline's (Whoosh RamStorage + FAISS):")  # fmt: skip
    clear_cache()
    _baselines.clear()
    for contract_id in sorted({q.contract_id for q in queries}):
        ours = timed(lambda c=contract_id: get_index(c), 1)[0]  # type: ignore[misc]
        seed = timed(lambda c=contract_id: baseline(c), 1)[0]  # type: ignore[misc]
        count = len(get_index(contract_id).articles)
        print(f"  {contract_id:<24} {count:>3} articles  ours {ours:7.1f} ms  seed {seed:7.1f} ms")
    text = large_contract()
    info = ingest_bytes("large.txt", text.encode(), contract_id="bench-200-articles", pool=POOL)
    get_index(info.contract_id)
    times: list[float] = []
    cpu: list[float] = []
    for _ in range(repeat):
        for q in queries:
            before = cpu_ms()
            times += timed(lambda t=q.q: get_index(info.contract_id).search(t), 1)  # type: ignore[misc]
            cpu.append(cpu_ms() - before)
    print(f"\nhybrid search on a {info.article_count}-article contract: n={len(times)} "
          f"p50 {statistics.median(times):.2f} ms  p95 {percentile(times, 95):.2f} ms  "
          f"(CPU p50 {statistics.median(cpu):.2f} ms  p95 {percentile(cpu, 95):.2f} ms; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")  # fmt: skip
    from pypdf import PdfReader

    pdf = hundred_page_pdf(text)
    store.delete_contract("bench-100-pages", POOL)  # a full ingestion, not the unchanged no-op
    before = cpu_ms()
    ingest_ms = timed(lambda: ingest_bytes("hundred_pages.pdf", pdf, contract_id="bench-100-pages",
                                           pool=POOL), 1)[0]  # fmt: skip
    ingest_cpu = cpu_ms() - before
    pages = len(PdfReader(io.BytesIO(pdf)).pages)
    print(f"ingestion of a {pages}-page PDF ({len(pdf) / 1024:.0f} KiB, read + parse + tokens + "
          f"vectors + store): {ingest_ms / 1000:.2f} s (CPU {ingest_cpu / 1000:.2f} s; load "
          f"average {os.getloadavg()[0]:.1f})")  # fmt: skip


def split_sets(samples: Sequence[LabelledQuery], real: Sequence[LabelledQuery],
               splits: Sequence[str]) -> dict[str, list[LabelledQuery]]:  # fmt: skip
    sets: dict[str, list[LabelledQuery]] = {}
    for split in splits:
        sets[f"samples {split}"] = [q for q in samples if q.split == split]
    for split in splits:
        sets[f"real {split}"] = [q for q in real if q.split == split]
        sets[f"real {split} EN"] = [q for q in real if q.split == split and q.lang == "en"]
    return sets


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--splits", nargs="+", default=["tune", "held-out"])
    parser.add_argument("--failures", action="store_true")
    parser.add_argument("--misses", action="store_true",
                        help="each miss of the chosen splits with its top 5 and their scores")  # fmt: skip
    parser.add_argument("--no-latency", action="store_true")
    parser.add_argument("--latency-only", action="store_true")
    parser.add_argument(
        "--per-contract",
        action="store_true",
        help="only the per-contract table (no retriever grid)",
    )
    args = parser.parse_args()
    global POOL
    POOL = get_pool()
    ensure_samples(POOL)
    ingest_real(REAL, POOL)
    samples = load_sample_queries(FIXTURES / "contract_queries.json")
    real = [q for q in load_real_queries(REAL) if q.split in args.splits]
    if not args.latency_only:
        if not args.per_contract:
            print_quality(split_sets(samples, real, args.splits))
        print_per_contract(real)
    if args.failures:
        print_failures(real)
    if args.misses:
        print_misses(real)
    if not args.no_latency:
        print_latency(real, args.repeat)


if __name__ == "__main__":
    main()
