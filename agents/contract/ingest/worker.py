"""Uploads are read and parsed in a child process with a time and a memory budget, so one file
cannot stall the app or take its memory (every user shares the Streamlit process).

    upload = parse_upload("계약서.pdf", data)        # ParsedUpload(text, fmt, parsed, peak_mb)
    parse_upload("bomb.pdf", data, Budget(seconds=5, memory_mb=256))  # ContractFileError: why

The child comes from a fork server (started once, with the readers imported; a fork from it
costs milliseconds and never copies the app's threads or locks). It limits its own address space
to what it started with plus `memory_mb` (RLIMIT_AS) and its CPU time to `seconds` (RLIMIT_CPU);
the parent stops waiting after `seconds` and kills it. At most `MAX_WORKERS` uploads are parsed at
once. Every refusal is a ContractFileError with the Korean reason; nothing is stored before it.
"""

from __future__ import annotations

import logging
import math
import multiprocessing
import resource
import threading
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import PurePath
from typing import Any

from agents.contract.errors import ContractFileError
from agents.contract.ingest.parse import parse_contract_text
from agents.contract.ingest.readers import read_contract_file
from agents.contract.models import ParsedContract

logger = logging.getLogger(__name__)

MAX_WORKERS = 2
EXIT_GRACE_S = 5.0


@dataclass(frozen=True)
class Budget:
    """What one upload may use: wall and CPU seconds, and memory over the worker's start."""

    seconds: float = 30.0
    memory_mb: int = 512


class UploadRefused(ContractFileError):
    """A refused upload, with the worker's peak memory when it reported one (None: killed)."""

    def __init__(self, message: str, worker_peak_mb: float | None = None) -> None:
        super().__init__(message)
        self.worker_peak_mb = worker_peak_mb


@dataclass
class ParsedUpload:
    text: str
    fmt: str
    parsed: ParsedContract
    peak_mb: float  # the worker's peak resident memory


_slots = threading.BoundedSemaphore(MAX_WORKERS)
_context_lock = threading.Lock()
_context: Any = None


def parse_upload(name: str, data: bytes, budget: Budget | None = None) -> ParsedUpload:
    """The file's text, format and articles, read in a bounded worker; raises ContractFileError
    (Korean) for a bad file or one that runs out of time or memory."""
    budget = budget or Budget()
    if not _slots.acquire(timeout=budget.seconds):
        raise UploadRefused(
            "다른 계약서 파일을 읽는 중이라 지금은 처리할 수 없습니다. 잠시 후 다시 올려 주세요."
        )
    try:
        return _run(name, data, budget)
    finally:
        _slots.release()


def _mp_context() -> Any:
    global _context
    with _context_lock:
        if _context is None:
            _context = multiprocessing.get_context("forkserver")
            # the main module too, once in the server rather than in every worker (callers
            # guard their script with `if __name__ == "__main__"`, as multiprocessing requires)
            _context.set_forkserver_preload(["__main__", __name__])
        return _context


def _run(name: str, data: bytes, budget: Budget) -> ParsedUpload:
    context = _mp_context()
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(send, name, data, budget), daemon=True)
    process.start()
    send.close()
    try:
        if not receive.poll(budget.seconds):
            logger.warning("upload %s: over %.0f s, worker killed", name, budget.seconds)
            raise UploadRefused(
                f"파일을 읽는 데 {budget.seconds:g}초가 넘게 걸려 중단했습니다. "
                "내용이 지나치게 크거나 복잡한 파일입니다 (압축 폭탄일 수 있습니다)."
            )
        try:
            kind, payload, peak_mb = receive.recv()
        except EOFError:
            process.join(EXIT_GRACE_S)
            raise UploadRefused(_died(process.exitcode, budget)) from None
    finally:
        receive.close()
        if process.is_alive():
            process.kill()
        process.join(EXIT_GRACE_S)
    logger.info("upload %s: %s, worker peak %.0f MB", name, kind, peak_mb)
    if kind == "ok":
        text, fmt, parsed = payload
        return ParsedUpload(text, fmt, parsed, peak_mb)
    if kind == "memory":
        raise UploadRefused(_memory_message(budget), peak_mb)
    if kind == "refused":
        raise UploadRefused(payload, peak_mb)
    raise UploadRefused(f"파일을 읽는 중 예상하지 못한 오류가 났습니다 ({payload}).", peak_mb)


def _memory_message(budget: Budget) -> str:
    return (
        f"파일을 읽는 데 메모리가 {budget.memory_mb} MB 넘게 필요해 중단했습니다. "
        "내용이 지나치게 큰 파일입니다 (압축 폭탄일 수 있습니다)."
    )


def _died(exitcode: int | None, budget: Budget) -> str:
    """Why a worker ended without an answer: its CPU limit (SIGXCPU), a kill (memory), a crash."""
    if exitcode == -24:  # SIGXCPU: RLIMIT_CPU reached inside a C loop
        return (f"파일을 읽는 데 CPU 시간이 {budget.seconds:g}초를 넘어 중단했습니다. "
                "내용이 지나치게 크거나 복잡한 파일입니다.")  # fmt: skip
    if exitcode == -9:
        return _memory_message(budget)
    return f"파일을 읽던 작업이 비정상 종료되었습니다 (종료 코드 {exitcode}). 다른 형식으로 저장해 올려 주세요."


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _address_space() -> int:
    """This process's current virtual size in bytes (/proc/self/statm, in pages)."""
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[0]) * resource.getpagesize()


def _limit(budget: Budget) -> None:
    memory = _address_space() + budget.memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    cpu = math.ceil(budget.seconds) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))


def _child(send: Connection, name: str, data: bytes, budget: Budget) -> None:
    """The worker: read and parse, then send (kind, payload, peak MB) once."""
    _limit(budget)
    reply: tuple[str, Any, float]
    try:
        text, fmt = read_contract_file(name, data)
        parsed = parse_contract_text(text, fallback_title=PurePath(name).stem)
        reply = ("ok", (text, fmt, parsed), 0.0)
    except ContractFileError as e:
        reply = ("refused", str(e), 0.0)
    except MemoryError:
        reply = ("memory", "", 0.0)
    except Exception as e:  # a reader bug must not look like a hang: say what it was
        reply = ("error", type(e).__name__, 0.0)
    send.send((reply[0], reply[1], _peak_mb()))
    send.close()
