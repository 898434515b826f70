"""PDF stream bombs and the upload worker's budget (issue 22).

A 4.2 MB PDF whose one FlateDecode content stream inflates to 4 GiB, and a 40 KB one behind two
Flate filters inflating to 16 GiB, go through the whole upload path (`parse_upload`: a worker
process) in a fresh Python process whose peak RSS is measured: refused with the reason, the app
side's memory unchanged. The worker's own walls are tested with files under the per-stream limit:
a PDF of 900 pages sharing one 4 MB stream (time), a dense 6 MB stream with a small memory budget
(memory), both slots taken (concurrency). Through the service, nothing is stored (real embedded
PostgreSQL). Wall times are printed, not asserted (bench/pdf_bombs.py reports them).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from agents.contract.errors import ContractFileError
from agents.contract.ingest import worker
from agents.contract.ingest.worker import Budget, UploadRefused, parse_upload
from agents.contract.service import ingest_file
from tests.fixtures.pdf_bombs import (
    PDF_BOMBS,
    TEXT_OPS,
    flate_bomb,
    refuse_in_child,
    shared_stream_pages,
)

MAX_FILE_BYTES = 5 * 1024 * 1024
MAX_APP_RSS_MB = 30  # the app side reads the file and waits: pypdf alone took +157 MB at 1 GiB
MAX_WORKER_EXTRA_MB = 60  # the worker inflates one stream to the 8 MB limit and stops
SMALL_MEMORY_MB = 48
ADDRESS_SLACK_MB = 40


@pytest.mark.parametrize("name", list(PDF_BOMBS))
def test_pdf_stream_bomb_is_refused_with_bounded_memory(name: str, tmp_path: Path) -> None:
    data = PDF_BOMBS[name]()
    assert len(data) < MAX_FILE_BYTES  # passes the upload size limit
    result = refuse_in_child(data, tmp_path)
    print(f"{name}: {len(data) / 1024:.0f} KB, {result['seconds']:.2f} s, "
          f"app +{result['peak_mb'] - result['base_mb']:.0f} MB, worker {result['worker_mb']} MB")  # fmt: skip
    assert result["refusal"] is not None and "압축된 내용이 너무 큽니다" in result["refusal"]
    assert result["peak_mb"] - result["base_mb"] < MAX_APP_RSS_MB
    assert result["worker_mb"] is not None  # refused by the reader, not killed
    assert result["worker_mb"] - worker_start_mb() < MAX_WORKER_EXTRA_MB


def test_a_file_that_takes_too_long_is_stopped() -> None:
    data = shared_stream_pages()
    with pytest.raises(UploadRefused, match="2초가 넘게 걸려 중단했습니다") as refused:
        parse_upload("pages.pdf", data, Budget(seconds=2, memory_mb=512))
    assert refused.value.worker_peak_mb is None  # killed, not asked


def test_a_file_that_needs_too_much_memory_is_stopped() -> None:
    data = flate_bomb(6 << 20, TEXT_OPS)  # 6 MB of text operators: under the per-stream limit
    with pytest.raises(UploadRefused, match=f"메모리가 {SMALL_MEMORY_MB} MB 넘게") as refused:
        parse_upload("dense.pdf", data, Budget(seconds=60, memory_mb=SMALL_MEMORY_MB))
    peak = refused.value.worker_peak_mb
    print(f"worker peak {peak} MB")
    # the limit counts from the worker's address space (libraries mapped, not all resident)
    assert peak is not None and peak < worker_start_mb() + SMALL_MEMORY_MB + ADDRESS_SLACK_MB


def worker_start_mb() -> float:
    """A worker's peak RSS reading a tiny file: its size before any real work."""
    return parse_upload("tiny.txt", "제1조(목적) 시험.".encode()).peak_mb


def test_uploads_wait_for_a_free_worker_and_say_so() -> None:
    taken = [worker._slots.acquire(timeout=5) for _ in range(worker.MAX_WORKERS)]
    try:
        assert all(taken)
        with pytest.raises(UploadRefused, match="다른 계약서 파일을 읽는 중"):
            parse_upload("c.txt", "제1조(목적) 시험.".encode(), Budget(seconds=0.2))
    finally:
        for _ in taken:
            worker._slots.release()
    results: list[Any] = []
    threads = [threading.Thread(target=lambda: results.append(
        parse_upload("c.txt", "제1조(목적) 시험.".encode()))) for _ in range(3)]  # fmt: skip
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [len(r.parsed.articles) for r in results] == [1, 1, 1]


def test_pdf_bombs_store_nothing(pg_pool: Any, settings: Any) -> None:
    def counts() -> tuple[int, int]:
        with pg_pool.connection() as conn:
            row = conn.execute("SELECT (SELECT count(*) FROM contracts) AS c, "
                               "(SELECT count(*) FROM contract_articles) AS a").fetchone()  # fmt: skip
        return int(row["c"]), int(row["a"])

    before = counts()
    for name, build in PDF_BOMBS.items():
        with pytest.raises(ContractFileError, match="압축된 내용이 너무 큽니다"):
            ingest_file(f"{name}.pdf", build(), pool=pg_pool, settings=settings)
    assert counts() == before


def test_a_worker_that_cannot_start_is_a_refusal(monkeypatch: pytest.MonkeyPatch) -> None:
    """No process can be started (here: no interpreter at that path): a Korean refusal, and the
    screen's warm-up does not fail either."""
    monkeypatch.setattr(worker, "COMMAND", ["/nonexistent/python3"])
    monkeypatch.setattr(worker, "_standby", [])
    worker.warm()
    with pytest.raises(UploadRefused, match="작업을 시작하지 못했습니다"):
        parse_upload("c.txt", "제1조(목적) 시험.".encode())
