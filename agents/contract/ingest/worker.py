"""Uploads are read and parsed in a child process with a time and a memory budget, so one file
cannot stall the app or take its memory (every user shares the Streamlit process).

    upload = parse_upload("계약서.pdf", data)        # ParsedUpload(text, fmt, parsed, peak_mb)
    parse_upload("bomb.pdf", data, Budget(seconds=5, memory_mb=256))  # UploadRefused: why

The worker is a fresh interpreter (`python -m agents.contract.ingest.worker`): it shares no
threads, locks or main module with the app (a multiprocessing child of a Streamlit process
re-imports the running page script). One is kept started ahead, with the readers imported, so an
upload does not wait for the imports. Given a file, the worker limits its address space to its
size then plus `memory_mb` (RLIMIT_AS) and its CPU time (RLIMIT_CPU); the app stops waiting after
`seconds` and kills it. The reply is JSON (never a pickle: a file that took over the worker must
not run code in the app). At most `MAX_WORKERS` uploads are read at once. Every refusal is an
UploadRefused (a ContractFileError) with the Korean reason; nothing is stored before it.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import resource
import subprocess
import sys
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path, PurePath
from typing import Any, BinaryIO

from agents.contract.errors import ContractFileError
from agents.contract.models import Article, Clause, ParsedContract

logger = logging.getLogger(__name__)

MAX_WORKERS = 2
EXIT_GRACE_S = 5.0
ROOT = Path(__file__).resolve().parents[3]
COMMAND = [sys.executable, "-m", "agents.contract.ingest.worker"]
# The worker gets no secrets (API keys, database URLs): only what Python needs to start.
ENV_KEEP = ("PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "PYTHONPATH", "VIRTUAL_ENV")


class UploadRefused(ContractFileError):
    """A refused upload, with the worker's peak memory when it reported one (None: killed)."""

    def __init__(self, message: str, worker_peak_mb: float | None = None) -> None:
        super().__init__(message)
        self.worker_peak_mb = worker_peak_mb


@dataclass(frozen=True)
class Budget:
    """What one upload may use: wall and CPU seconds, and memory over the worker's start."""

    seconds: float = 30.0
    memory_mb: int = 512


@dataclass
class ParsedUpload:
    text: str
    fmt: str
    parsed: ParsedContract
    peak_mb: float  # the worker's peak resident memory


_slots = threading.BoundedSemaphore(MAX_WORKERS)
_standby_lock = threading.Lock()
_standby: list[subprocess.Popen[bytes]] = []
_keep_ahead = True  # False in a process that reads one upload and ends (the CLI)


def parse_upload(name: str, data: bytes, budget: Budget | None = None) -> ParsedUpload:
    """The file's text, format and articles, read in a bounded worker; raises UploadRefused
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
        _refill()


def _start() -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if k in ENV_KEEP}
    try:
        return subprocess.Popen(COMMAND, cwd=ROOT, env=env, stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)  # fmt: skip
    except OSError as e:  # no memory or processes left for a worker: the upload waits for later
        logger.warning("upload worker not started: %s", e)
        raise UploadRefused(
            "파일을 읽을 작업을 시작하지 못했습니다 (서버 자원 부족). 잠시 후 다시 올려 주세요."
        ) from e


def _take() -> subprocess.Popen[bytes]:
    """The worker kept ahead when it is alive, else a new one."""
    with _standby_lock:
        ready = [p for p in _standby if p.poll() is None]
        for dead in (p for p in _standby if p not in ready):
            dead.communicate()  # closes its pipes
        process = ready.pop(0) if ready else _start()
        _standby[:] = ready
    return process


def warm() -> None:
    """Start the worker kept ahead now (the screen calls it once), so the first upload does not
    wait for a worker's imports either."""
    _refill()


def one_shot() -> None:
    """For a process that reads one upload and ends (the CLI): start its worker now, so the
    worker's imports run beside the caller's own (psycopg, NumPy) on the other core, and keep
    none ahead after it (one more interpreter's imports for nothing: ~1 s of CPU)."""
    global _keep_ahead
    _refill()
    _keep_ahead = False


def _refill() -> None:
    """One worker started ahead for the next upload (after this one: not competing with it);
    none when it cannot start (the next upload says why)."""
    with _standby_lock, contextlib.suppress(UploadRefused):
        if _keep_ahead and not any(p.poll() is None for p in _standby):
            _standby[:] = [_start()]


def _run(name: str, data: bytes, budget: Budget) -> ParsedUpload:
    started = time.perf_counter()
    process = _take()
    header = json.dumps({"name": name, "seconds": budget.seconds, "memory_mb": budget.memory_mb})
    try:
        out, _ = process.communicate(header.encode() + b"\n" + data, timeout=budget.seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate(timeout=EXIT_GRACE_S)
        logger.warning("upload %s: over %s s, worker killed", name, budget.seconds)
        raise UploadRefused(
            f"파일을 읽는 데 {budget.seconds:g}초가 넘게 걸려 중단했습니다. "
            "내용이 지나치게 크거나 복잡한 파일입니다 (압축 폭탄일 수 있습니다)."
        ) from None
    try:
        reply = json.loads(out)
    except ValueError:
        raise UploadRefused(_died(process.returncode, budget)) from None
    kind, peak_mb = reply["kind"], float(reply["peak_mb"])
    logger.info("upload %s: %s in %.2f s, worker peak %.0f MB", name, kind,
                time.perf_counter() - started, peak_mb)  # fmt: skip
    if kind == "ok":
        return ParsedUpload(reply["text"], reply["fmt"], _contract(reply["parsed"]), peak_mb)
    if kind == "memory":
        raise UploadRefused(_memory_message(budget), peak_mb)
    if kind == "refused":
        raise UploadRefused(str(reply["message"]), peak_mb)
    raise UploadRefused(
        f"파일을 읽는 중 예상하지 못한 오류가 났습니다 ({reply['message']}).", peak_mb
    )


def _contract(raw: dict[str, Any]) -> ParsedContract:
    articles = [Article(a["article_no"], a["title"], [Clause(**c) for c in a["clauses"]],
                        branch=a["branch"], part=a.get("part", 0),
                        part_title=a.get("part_title", ""),
                        numbering=a.get("numbering", "article")) for a in raw["articles"]]  # fmt: skip
    return ParsedContract(raw["title"], articles, raw["text"])


def _memory_message(budget: Budget) -> str:
    return (
        f"파일을 읽는 데 메모리가 {budget.memory_mb} MB 넘게 필요해 중단했습니다. "
        "내용이 지나치게 큰 파일입니다 (압축 폭탄일 수 있습니다)."
    )


def _died(returncode: int | None, budget: Budget) -> str:
    """Why a worker ended without an answer: its CPU limit (SIGXCPU), a kill (memory), a crash."""
    if returncode == -24:  # SIGXCPU: RLIMIT_CPU reached inside a C loop
        return (f"파일을 읽는 데 CPU 시간이 {budget.seconds:g}초를 넘어 중단했습니다. "
                "내용이 지나치게 크거나 복잡한 파일입니다.")  # fmt: skip
    if returncode == -9:
        return _memory_message(budget)
    return f"파일을 읽던 작업이 비정상 종료되었습니다 (종료 코드 {returncode}). 다른 형식으로 저장해 올려 주세요."


# ---------------------------------------------------------------- the worker process


def _peak_mb() -> float:
    """This process's peak RSS (VmHWM: ru_maxrss would include the app it was started from)."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _limit(seconds: float, memory_mb: int) -> None:
    """From now on: the address space this process has plus `memory_mb`, and `seconds` more CPU."""
    with open("/proc/self/statm", encoding="ascii") as statm:
        size = int(statm.read().split()[0]) * resource.getpagesize()
    memory = size + memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu = math.ceil(usage.ru_utime + usage.ru_stime + seconds) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))


def _work(stdin: BinaryIO) -> dict[str, Any] | None:
    """Read one job (a JSON header line, then the file's bytes) and do it; None at EOF (the app
    ended while this worker was kept ahead)."""
    header = stdin.readline()
    if not header:
        return None
    job = json.loads(header)
    data = stdin.read()
    _limit(float(job["seconds"]), int(job["memory_mb"]))
    from agents.contract.ingest.parse import parse_contract_text
    from agents.contract.ingest.readers import read_contract_file

    try:
        text, fmt = read_contract_file(job["name"], data)
        parsed = parse_contract_text(text, fallback_title=PurePath(job["name"]).stem)
        return {"kind": "ok", "text": text, "fmt": fmt, "parsed": asdict(parsed)}
    except ContractFileError as e:
        return {"kind": "refused", "message": str(e)}
    except MemoryError:
        return {"kind": "memory", "message": ""}
    except Exception as e:  # a reader bug must not look like a hang: say what it was
        return {"kind": "error", "message": type(e).__name__}


def main() -> None:
    # imported while the worker waits, not after the file arrives (the caller imports only this
    # module's light top to start a worker)
    import pypdf  # noqa: F401

    import agents.contract.ingest.parse
    import agents.contract.ingest.readers  # noqa: F401

    reply = _work(sys.stdin.buffer)
    if reply is not None:
        sys.stdout.buffer.write(json.dumps({**reply, "peak_mb": _peak_mb()}).encode())
        sys.stdout.buffer.flush()
    os._exit(0)  # nothing to tear down: the app is waiting for this process to end


if __name__ == "__main__":
    main()
