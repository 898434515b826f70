"""A long run of the HTTP API: mixed turns over every screen, one after another, with the API
server's resident memory watched (issue 34: a server that runs for weeks must stay flat).

    python bench/soak.py [--turns 500] [--url http://127.0.0.1:8600 --pid PID]

Without `--url` it starts `python -m api` on a free loopback port as a subprocess (the stores of
WORKBENCH_HOME, the offline planner, no rate limit) and stops it at the end; with `--url` and
`--pid` it drives a running server and reads that process's memory. Prints the server's RSS
before the first turn, after the first turn of each screen, after turn 50 and at the end (with
the change since turn 50), the errors (HTTP failures and answers with status "error"), and
p50/p95 per screen. Every third turn goes to the screen's `…/stream` endpoint (Server-Sent Events,
read to the answer). Chat conversations it creates are deleted through the API at the end; stock
and opening runs stay in the run store like any client's.
"""

from __future__ import annotations

import argparse
import itertools
import os
import socket
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

CONTRACT = "sample-user-provide"
# (screen, path, body) per turn, in the proportions an analyst's day might have.
ETF = ["KODEX 200 정보 알려줘", "삼성전자를 가장 많이 보유한 ETF는?", "반도체 관련 ETF 보수율 낮은 순으로",
       "KODEX 200과 TIGER 200 비교해줘", "KODEX 200 3개월 가격 추이", "순자산 상위 3개 ETF의 평균 총보수"]  # fmt: skip
MACRO = ["한국 기준금리 추이", "미국 CPI 최근 추이", "원달러 환율 최근 한 달", "VIX 최근 추이"]
CONTRACT_QUESTIONS = ["손해배상 한도는?", "계약 해지 조건은?", "비밀유지 의무 기간은?", "제5조는?"]
STOCKS = ["삼성전자", "AAPL", "SK하이닉스", "NVDA"]
DAYS = ["2026-11-20", None]
MIX = ["etf", "macro", "etf", "contract", "etf", "macro", "stock", "contract", "etf", "opening"]
STREAM_EVERY = 3  # every third turn asks the screen's …/stream endpoint (SSE) instead


@dataclass
class Soak:
    timings: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: list[str] = field(default_factory=list)
    conversations: list[str] = field(default_factory=list)


def requests() -> Iterator[tuple[str, str, dict[str, Any]]]:
    counters: dict[str, Iterator[Any]] = {
        "etf": itertools.cycle(ETF), "macro": itertools.cycle(MACRO),
        "contract": itertools.cycle(CONTRACT_QUESTIONS), "stock": itertools.cycle(STOCKS),
        "opening": itertools.cycle(DAYS),
    }  # fmt: skip
    for screen in itertools.cycle(MIX):
        value = next(counters[screen])
        if screen == "etf":
            yield screen, "/api/chat/message", {"message": value}
        elif screen == "macro":
            yield screen, "/api/macro/message", {"message": value}
        elif screen == "contract":
            yield screen, "/api/contract/message", {"contract_id": CONTRACT, "message": value}
        elif screen == "stock":
            yield screen, "/api/stock/report", {"symbol": value}
        else:
            yield screen, "/api/opening/run", {"date": value}


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def percentiles(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return statistics.median(ordered), p95


@contextmanager
def api_server() -> Iterator[tuple[str, int]]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {**os.environ, "API_RATE_LIMIT_PER_MIN": "0", "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    for name in list(env):
        if name.startswith("LLM_MODEL"):
            env.pop(name)  # the offline planner: the figures are the server's, not a provider's
    process = subprocess.Popen([sys.executable, "-m", "api", "--port", str(port),
                                "--log-level", "warning"], cwd=ROOT, env=env)  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if httpx.get(f"{url}/healthz", timeout=5).status_code < 500:
                    break
            except httpx.HTTPError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("the API did not start")
            time.sleep(0.5)
        yield url, process.pid
    finally:
        process.terminate()
        process.wait(timeout=30)


def streamed(client: httpx.Client, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    """(HTTP status, the answer event's data or the error text) of a …/stream call."""
    from api.streaming import parse_sse

    with client.stream("POST", f"{path}/stream", json=body) as response:
        if response.status_code != 200:
            return response.status_code, response.read().decode()[:160]
        for kind, event in parse_sse(response.iter_lines()):
            if kind == "answer":
                return 200, event["data"]
            if kind == "error":
                return int(event["data"].get("http_status") or 500), str(event["data"])[:160]
    return 500, "stream ended without an answer"


def one(client: httpx.Client, screen: str, path: str, body: dict[str, Any], soak: Soak,
        stream: bool = False) -> None:  # fmt: skip
    started = time.perf_counter()
    try:
        if stream:
            status, data = streamed(client, path, body)
        else:
            response = client.post(path, json=body)
            status = response.status_code
            data = response.json() if status == 200 else response.text[:160]
    except httpx.HTTPError as e:
        soak.errors.append(f"{screen}: {type(e).__name__}")
        return
    soak.timings[screen].append((time.perf_counter() - started) * 1000)
    if status != 200:
        soak.errors.append(f"{screen}{' (stream)' if stream else ''}: HTTP {status} {data}")
        return
    if data.get("status") == "error":
        soak.errors.append(f"{screen}: answer status error: {str(data.get('answer'))[:160]}")
    if data.get("conversation_id") and screen in ("etf", "macro", "contract"):
        soak.conversations.append(data["conversation_id"])


def run(url: str, pid: int, turns: int) -> Soak:
    soak = Soak()
    print(f"RSS before the first turn: {rss_mb(pid):.0f} MB")
    seen: set[str] = set()
    after_50 = None
    with httpx.Client(base_url=url, timeout=300) as client:
        listed = client.get("/api/contract/contracts")  # a client's first call: ids (and samples)
        if listed.status_code != 200 or CONTRACT not in {c["contract_id"] for c in listed.json()}:
            soak.errors.append(f"contracts: HTTP {listed.status_code}, no {CONTRACT}")
        for number, (screen, path, body) in enumerate(itertools.islice(requests(), turns), 1):
            one(client, screen, path, body, soak, stream=number % STREAM_EVERY == 0)
            if screen not in seen:
                seen.add(screen)
                print(f"RSS after the first {screen} turn: {rss_mb(pid):.0f} MB")
                if len(seen) == len(set(MIX)):
                    print(f"steady RSS after one call of every screen: {rss_mb(pid):.0f} MB")
            if number == 50:
                after_50 = rss_mb(pid)
                print(f"RSS after 50 turns: {after_50:.0f} MB")
            elif number % 100 == 0:
                print(f"RSS after {number} turns: {rss_mb(pid):.0f} MB", flush=True)
        end = rss_mb(pid)
        change = f" ({(end / after_50 - 1) * 100:+.1f}% since turn 50)" if after_50 else ""
        print(f"RSS at the end ({turns} turns): {end:.0f} MB{change}")
        for cid in soak.conversations:
            client.delete(f"/api/conversations/{cid}")
    return soak


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=500)
    parser.add_argument("--url", help="a running API (with --pid: its process id)")
    parser.add_argument("--pid", type=int)
    args = parser.parse_args()
    started = time.perf_counter()
    if args.url:
        if not args.pid:
            parser.error("--url needs --pid (the server's process, for its memory)")
        soak = run(args.url, args.pid, args.turns)
    else:
        with api_server() as (url, pid):
            soak = run(url, pid, args.turns)
    print(f"errors: {len(soak.errors)}")
    for error in soak.errors[:5]:
        print(f"  {error}")
    print(f"{'screen':>9} {'turns':>6} {'p50 ms':>8} {'p95 ms':>8}")
    for screen in ("etf", "macro", "contract", "stock", "opening"):
        values = soak.timings.get(screen) or []
        if values:
            p50, p95 = percentiles(values)
            print(f"{screen:>9} {len(values):>6} {p50:>8.0f} {p95:>8.0f}")
    print(f"wall: {time.perf_counter() - started:.0f} s")
    return 1 if soak.errors else 0


if __name__ == "__main__":
    sys.exit(main())
