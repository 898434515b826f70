"""Contract ingestion speed and memory, and the first question after a restart (issue 32).

    python bench/contract_ingest.py [--repeat 3] [--skip-cold] [--first-only] [--profile]

Documents: the 30-article software subcontract written here (tests/fixtures/contracts/made_here,
with its annexes and form: 46 articles in all) as HWPX, HWP 5 and PDF, and the 15-article
employment contract as a PDF. Each
run changes one word so the file is new (an unchanged file is a no-op by its content hash).
Prints, as medians over `--repeat` runs:
1. cold CLI: `python -m agents.contract ingest FILE` in a fresh process — wall time and peak RSS
   (the process's and its upload worker's, ru_maxrss of the children);
2. warm, in process (as the app ingests an upload once it has started: Kiwi and imports loaded):
   wall time per stage (worker read+parse, tokens, vectors, store) and the Python heap's peak
   (tracemalloc, in a separate untimed run) and RSS growth;
3. first question after a restart: a fresh process asks one question about a stored contract —
   the process's wall time and, from the question to the answer, wall and CPU time: asked at
   once (the turn loads Kiwi beside its database reads: service.warm_start), asked at once
   in a process whose PostgreSQL pool is open (as the app's is before it serves), after Kiwi loaded
   (as the app's start warm-up does), after the screen opened (service.warm_start: Kiwi and the
   thesaurus's words), and after the picked contract was warmed too (service.warm, as the
   screen does while the user types). `--profile` adds the cProfile top 20 (cumulative time)
   of the question asked at once with the pool open.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fixtures.contracts.files import contract_text, pdf_bytes  # noqa: E402
from tests.fixtures.hangul_files import hwp_bytes, hwpx_bytes  # noqa: E402

DOCS = (("software_subcontract", "hwpx"), ("software_subcontract", "hwp"),
        ("software_subcontract", "pdf"), ("employment", "pdf"))  # fmt: skip
BUILDERS: dict[str, Callable[[list[str]], bytes]] = {"hwpx": hwpx_bytes, "hwp": hwp_bytes,
                                                     "pdf": pdf_bytes}  # fmt: skip
QUESTION = "하자보수 기간은 얼마나 되나요?"


def variant(name: str, fmt: str, tag: str) -> bytes:
    """The document with its first article's text marked, so its content hash is new."""
    lines = contract_text(name).splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("제1조"))
    lines[at] = lines[at].replace("목적으로", f"목적({tag})으로", 1)
    return BUILDERS[fmt](lines)


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def cold(fmt: str, data: bytes) -> tuple[float, float, float]:
    """(seconds, peak MB, CPU seconds) of the CLI ingesting `data` in a fresh process. The CPU
    time (user + system, the CLI and its upload worker) is what the machine's load does not
    stretch: on a shared 2-core machine at load 10 the wall time was 3-6 times it."""
    with tempfile.NamedTemporaryFile(suffix=f".{fmt}") as handle:
        handle.write(data)
        handle.flush()
        script = ("import resource, subprocess, sys; "
                  "r = subprocess.run([sys.executable, '-m', 'agents.contract', 'ingest', sys.argv[1]],"
                  " capture_output=True); "
                  "u = resource.getrusage(resource.RUSAGE_CHILDREN); "
                  "print(u.ru_maxrss, r.returncode, u.ru_utime + u.ru_stime)")  # fmt: skip
        started = time.perf_counter()
        out = subprocess.run([sys.executable, "-c", script, handle.name], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.split()  # fmt: skip
        elapsed = time.perf_counter() - started
    if out[1] != "0":
        raise SystemExit(f"cold ingest failed for {fmt}")
    return elapsed, int(out[0]) / 1024, float(out[2])


def warm(fmt: str, data: bytes, pool: object, trace: bool = False) -> dict[str, float]:
    """Stage times (s) of one in-process ingestion and RSS growth (MB); with `trace`, the Python
    heap's peak (tracemalloc slows allocations several times: its run is not timed)."""
    from agents.contract import store
    from agents.contract.embeddings import make_embedder
    from agents.contract.index import article_tokens, embedding_signature, fit_vectors, line_tokens
    from agents.contract.ingest.pipeline import content_hash, detect_type, upload_id
    from agents.contract.ingest.worker import parse_upload
    from agents.contract.models import ContractInfo
    from agents.contract.tokenize import clear_cache
    from data_access.access import LOCAL_USER_ID
    from data_access.config import get_settings

    clear_cache()  # every document's clauses are tokenized as if new
    rss0 = rss_mb()
    if trace:
        tracemalloc.start()
    t0 = time.perf_counter()
    upload = parse_upload(f"bench.{fmt}", data)
    t1 = time.perf_counter()
    lines = [line_tokens(a) for a in upload.parsed.articles]
    token_lists = [
        article_tokens(a, line) for a, line in zip(upload.parsed.articles, lines, strict=True)
    ]
    t2 = time.perf_counter()
    embedder = make_embedder(get_settings())
    vectors = fit_vectors(embedder, upload.parsed.articles)
    t3 = time.perf_counter()
    digest = content_hash(upload.text)
    info = ContractInfo(upload_id(digest, LOCAL_USER_ID), upload.parsed.title,
                        detect_type(upload.parsed).id, False, f"bench.{fmt}", upload.fmt, digest,
                        len(upload.parsed.articles))  # fmt: skip
    store.save_contract(info, upload.parsed, token_lists, vectors,
                        embedding_signature(embedder, digest, vectors.shape[1]), pool,  # type: ignore[arg-type]
                        None, lines)  # fmt: skip
    t4 = time.perf_counter()
    heap_peak = tracemalloc.get_traced_memory()[1] if trace else 0
    tracemalloc.stop()
    store.delete_contract(info.contract_id, pool)  # type: ignore[arg-type]
    return {"read+parse": t1 - t0, "tokens": t2 - t1, "vectors": t3 - t2, "store": t4 - t3,
            "total": t4 - t0, "heap_mb": heap_peak / 2**20, "rss_growth_mb": rss_mb() - rss0,
            "worker_peak_mb": upload.peak_mb, "articles": len(upload.parsed.articles)}  # fmt: skip


def first_question(contract_id: str, mode: str) -> tuple[float, float, float]:
    """(wall seconds of a fresh process answering one question, wall and CPU seconds from the
    question to its answer). `mode`: 'cold' asks at once; 'kiwi' loads Kiwi first (what the
    screen started when it opened, before this session); 'screen' also warms the picked
    contract (service.warm: its index and its clauses' words) as the screen does while the
    user types, and the question is asked after it."""
    prepare = {"cold": "",
               "pool": "from data_access.postgres import get_pool; get_pool()\n",
               "kiwi": "from agents.understanding.morphemes import kiwi; kiwi()\n",
               "opened": "from agents.contract.service import warm_start\n"
                         "warm_start().join()\n",
               "screen": "from agents.contract.service import warm\n"
                         "thread = warm(sys.argv[1])\nthread.join()\n"}[mode]  # fmt: skip
    script = ("import sys, time; from agents.contract.service import ask\n" + prepare
              + "w, c = time.perf_counter(), time.process_time()\n"
              + "a = ask(sys.argv[1], sys.argv[2], save=False)\n"
              + "print(time.perf_counter() - w, time.process_time() - c)")  # fmt: skip
    started = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", script, contract_id, QUESTION], cwd=ROOT,
                         capture_output=True, text=True, check=True, env={**os.environ,
                         "PYTHONPATH": str(ROOT)}).stdout.split()  # fmt: skip
    return time.perf_counter() - started, float(out[-2]), float(out[-1])


FIRST_MODES = {"cold": "nothing loaded",
               "pool": "PostgreSQL pool opened, as the app does before it serves, nothing else",
               "kiwi": "Kiwi loaded by the app's start warm-up",
               "opened": "Kiwi and the thesaurus's words loaded as the screen opens",
               "screen": "Kiwi and the picked contract warmed as the screen does"}  # fmt: skip
PROFILE_TOP = 20


def profile_first(contract_id: str) -> str:
    """The cProfile top PROFILE_TOP (cumulative) of a fresh process's first question, asked at
    once once its PostgreSQL pool is open (the 'pool' mode; only this thread is profiled: the
    start warm-up's thread shows as waits)."""
    script = ("import cProfile, io, pstats, sys; from agents.contract.service import ask\n"
              "from data_access.postgres import get_pool; get_pool()\n"
              "profile = cProfile.Profile(); profile.enable()\n"
              "ask(sys.argv[1], sys.argv[2], save=False)\n"
              "profile.disable(); out = io.StringIO()\n"
              f"pstats.Stats(profile, stream=out).sort_stats('cumulative').print_stats({PROFILE_TOP})\n"
              "print(out.getvalue())")  # fmt: skip
    return subprocess.run([sys.executable, "-c", script, contract_id, QUESTION], cwd=ROOT,
                          capture_output=True, text=True, check=True, env={**os.environ,
                          "PYTHONPATH": str(ROOT)}).stdout  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-cold", action="store_true")
    parser.add_argument("--first-only", action="store_true", help="only the first question")
    parser.add_argument("--profile", action="store_true", help="profile the first question")
    args = parser.parse_args()
    from agents.contract.ingest.pipeline import ensure_samples, ingest_bytes
    from agents.understanding.morphemes import kiwi
    from data_access.postgres import get_pool

    pool = get_pool()
    ensure_samples(pool)
    kiwi()
    stamp = str(time.time_ns())[-8:]
    print(f"cpus {os.cpu_count()}, load {os.getloadavg()[0]:.1f}; medians of {args.repeat} runs")
    for name, fmt in () if args.first_only else DOCS:
        runs = [warm(fmt, variant(name, fmt, f"w{stamp}{i}"), pool) for i in range(args.repeat)]
        med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        med["heap_mb"] = warm(fmt, variant(name, fmt, f"t{stamp}"), pool, trace=True)["heap_mb"]
        stages = " ".join(
            f"{k} {med[k]:.2f}s" for k in ("read+parse", "tokens", "vectors", "store")
        )
        print(f"warm {fmt:<5} {int(med['articles'])} articles: total {med['total']:.2f} s ({stages}); "
              f"heap peak {med['heap_mb']:.1f} MB, RSS +{med['rss_growth_mb']:.1f} MB, "
              f"worker peak {med['worker_peak_mb']:.0f} MB")  # fmt: skip
        if not args.skip_cold:
            cold_runs = [cold(fmt, variant(name, fmt, f"c{stamp}{i}")) for i in range(args.repeat)]
            print(f"cold {fmt:<5} CLI ingest: {statistics.median(c[0] for c in cold_runs):.2f} s, "
                  f"peak RSS {statistics.median(c[1] for c in cold_runs):.0f} MB, "
                  f"CPU {statistics.median(c[2] for c in cold_runs):.2f} s")  # fmt: skip
    info = ingest_bytes("bench.hwpx", variant("software_subcontract", "hwpx", f"q{stamp}"),
                        pool=pool)  # fmt: skip
    for mode, label in FIRST_MODES.items():
        firsts = [first_question(info.contract_id, mode) for _ in range(args.repeat)]
        print(f"first question after a restart ('{QUESTION}', {label}): process "
              f"{statistics.median(f[0] for f in firsts):.2f} s wall; question to answer "
              f"{statistics.median(f[1] for f in firsts):.2f} s wall, "
              f"{statistics.median(f[2] for f in firsts):.2f} s CPU "
              f"(load {os.getloadavg()[0]:.1f})")  # fmt: skip
    if args.profile:
        print(profile_first(info.contract_id))
    print(
        f"this process's peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
