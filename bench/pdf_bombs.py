"""PDF stream bombs and the upload worker (issue 22): how fast each bomb is refused, the memory
of the app's side and of the worker, and what the worker costs a real upload.

    python bench/pdf_bombs.py [--rounds 3]

Each bomb (tests/fixtures/pdf_bombs.py: one Flate stream inflating to 4 GiB, a double-Flate one
inflating to 16 GiB) goes through `parse_upload` in a fresh process per round; prints the file
size, p50/max wall seconds, the peak RSS of that process over its size before the file (the
app's side) and the worker's peak, and the refusal (a fresh process also starts its first
worker: this is the cold case). Then, in one process as in the app, a 200-article text contract,
a 100-page PDF and the bombs, uploads 3 s apart (the worker kept ahead is ready): p50/p95 ms in
the worker against read in process, and the worker's peak RSS.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agents.contract.errors import ContractFileError  # noqa: E402
from agents.contract.ingest.parse import parse_contract_text  # noqa: E402
from agents.contract.ingest.readers import read_contract_file  # noqa: E402
from agents.contract.ingest.worker import parse_upload  # noqa: E402
from bench.contract_search import percentile, timed  # noqa: E402
from tests.fixtures.pdf_bombs import PDF_BOMBS, refuse_in_child  # noqa: E402


def bombs(rounds: int) -> None:
    print(f"{'bomb':<26} {'file KB':>8} {'p50 s':>6} {'max s':>6} {'app +MB':>8} "
          f"{'worker MB':>9}  refusal")  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        for name, build in PDF_BOMBS.items():
            data = build()
            runs = [refuse_in_child(data, Path(tmp)) for _ in range(rounds)]
            seconds = [r["seconds"] for r in runs]
            app = max(r["peak_mb"] - r["base_mb"] for r in runs)
            worker = max(r["worker_mb"] or 0 for r in runs)
            refusal = runs[0]["refusal"] or "(accepted)"
            print(f"{name:<26} {len(data) / 1024:>8.0f} {statistics.median(seconds):>6.2f} "
                  f"{max(seconds):>6.2f} {app:>8.1f} {worker:>9.1f}  {refusal[:60]}")  # fmt: skip


def _outcome(name: str, data: bytes, *, in_process: bool = False) -> float | None:
    """Read and parse one file (a refusal is an outcome too); the worker's peak MB."""
    try:
        if in_process:
            parse_contract_text(read_contract_file(name, data)[0])
            return None
        return parse_upload(name, data).peak_mb
    except ContractFileError as e:
        return getattr(e, "worker_peak_mb", None)


def spaced(run: Callable[[], object], rounds: int, pause_s: float = 3.0) -> list[float]:
    """ms per round, rounds `pause_s` apart (untimed), as uploads come: the worker kept ahead
    has imported its readers by then (back to back, each round also waits for those imports)."""
    times = []
    for _ in range(rounds):
        time.sleep(pause_s)
        times += timed(run, 1)
    return times


def uploads(rounds: int) -> None:
    from bench.contract_search import hundred_page_pdf, large_contract

    text = large_contract()
    files = {"200-article txt": ("large.txt", text.encode()),
             "100-page pdf": ("large.pdf", hundred_page_pdf(text)),
             **{name: ("bomb.pdf", build()) for name, build in PDF_BOMBS.items()}}  # fmt: skip
    parse_upload("warm.txt", "제1조(목적) 시험.".encode())  # the first worker of the process
    print(f"\n{'upload':<26} {'KB':>6} {'worker p50':>10} {'p95 ms':>7} "
          f"{'in-process p50':>14} {'p95 ms':>7} {'worker MB':>9}")  # fmt: skip
    for label, (name, data) in files.items():
        worker = spaced(lambda: _outcome(name, data), rounds)  # noqa: B023
        local = timed(lambda: _outcome(name, data, in_process=True), rounds)  # noqa: B023
        peak = _outcome(name, data)
        print(f"{label:<26} {len(data) / 1024:>6.0f} {statistics.median(worker):>10.0f} "
              f"{percentile(worker, 95):>7.0f} {statistics.median(local):>14.0f} "
              f"{percentile(local, 95):>7.0f} {peak or 0:>9.1f}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    bombs(args.rounds)
    uploads(max(args.rounds, 5))


if __name__ == "__main__":
    main()
