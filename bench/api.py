"""Streaming latency of the HTTP API: time to the first `step` event and to the `answer` event of
`POST /api/chat/message/stream`, p50/p95, with 1 and 20 concurrent streaming clients.

The first step is the stream's `received` step (api.streaming, sent before the agent runs); the
time to the agent's own first step (`agent step`) is printed beside it (they are the same on
code from before the received step).

    python bench/api.py [--clients 1 20] [--turns 5] [--url http://127.0.0.1:8600]

Without `--url` it serves the API itself on a free loopback port (a real uvicorn server in this
process, the stores of WORKBENCH_HOME, the offline planner, no rate limit); with `--url` it
measures a running `python -m api` (whose rate limit then applies). Each client asks `--turns`
questions one after another, all clients at once. The conversations the benchmark creates are
deleted through the API at the end. Prints one line per client count, with the machine's 1-minute
load average before and after it (on two shared cores the wait for a core is most of a p95).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent


def _code_root() -> Path:
    """`--root DIR`: serve the API code of another checkout (a `git worktree` of an older
    commit, for before/after runs side by side: bench/api_compare.py), else this tree's."""
    if "--root" in sys.argv[:-1]:
        return Path(sys.argv[sys.argv.index("--root") + 1]).resolve()
    return ROOT


sys.path[:0] = [str(_code_root()), str(ROOT / "bench")]

from etf_tools import TURNS  # noqa: E402

sys.path.insert(0, str(_code_root()))  # etf_tools puts this tree first; --root's code goes first

from api.streaming import parse_sse  # noqa: E402

QUESTIONS = TURNS  # the ETF chat questions bench/etf_tools.py times without the API


@dataclass
class Samples:
    first_step_ms: list[float] = field(default_factory=list)
    agent_step_ms: list[float] = field(default_factory=list)
    answer_ms: list[float] = field(default_factory=list)
    conversations: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def percentiles(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    if not ordered:
        return float("nan"), float("nan")
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return statistics.median(ordered), p95


def one_turn(client: httpx.Client, question: str, samples: Samples) -> None:
    started = time.perf_counter()
    first: float | None = None
    agent: float | None = None  # the first step of the agent itself
    with client.stream("POST", "/api/chat/message/stream", json={"message": question}) as response:
        if response.status_code != 200:
            with samples.lock:
                samples.errors.append(f"HTTP {response.status_code}")
            return
        for kind, data in parse_sse(response.iter_lines()):
            now = (time.perf_counter() - started) * 1000
            if kind == "step" and first is None:
                first = now
            if kind == "step" and agent is None and data["data"].get("kind") != "received":
                agent = now
            elif kind == "answer":
                with samples.lock:
                    samples.first_step_ms.append(first if first is not None else now)
                    samples.agent_step_ms.append(agent if agent is not None else now)
                    samples.answer_ms.append(now)
                    samples.conversations.append(data["data"]["conversation_id"])
                return
            elif kind == "error":
                with samples.lock:
                    samples.errors.append(str(data["data"]["error"]))
                return


def run_clients(url: str, clients: int, turns: int, headers: dict[str, str]) -> Samples:
    samples = Samples()

    def client_loop(index: int) -> None:
        with httpx.Client(base_url=url, timeout=300, headers=headers) as client:
            for turn in range(turns):
                one_turn(client, QUESTIONS[(index + turn) % len(QUESTIONS)], samples)

    threads = [threading.Thread(target=client_loop, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return samples


def clean_up(url: str, conversations: list[str], headers: dict[str, str]) -> None:
    with httpx.Client(base_url=url, timeout=60, headers=headers) as client:
        for cid in conversations:
            client.delete(f"/api/conversations/{cid}")


def local_server() -> object:
    from api.app import create_app
    from api.background import BackgroundServer
    from api.config import ApiConfig
    from api.stores import Stores
    from data_access.config import get_settings

    offline = {f: None for f in type(get_settings()).model_fields if f.startswith("llm_model")}
    settings = get_settings().model_copy(update=offline)
    return BackgroundServer(create_app(ApiConfig(rate_limit_per_min=0), Stores.open(settings)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 20])
    parser.add_argument("--turns", type=int, default=5, help="questions per client")
    parser.add_argument("--url", help="a running API (default: serve one in this process)")
    parser.add_argument("--token", help="bearer token for --url")
    parser.add_argument("--root", help="serve the API code of this checkout (default: this one)")
    parser.add_argument("--samples", help="append each client count's samples here (JSON lines)")
    parser.add_argument("--label", default="", help="a name for this run in --samples")
    args = parser.parse_args()
    headers = {"Authorization": f"Bearer {args.token}"} if args.token else {}
    server = None if args.url else local_server()
    url = args.url or ""
    if server is not None:
        url = server.__enter__().url  # type: ignore[attr-defined]
    try:
        warm = run_clients(url, 1, 1, headers)  # first-call costs are not a client's latency
        print(f"{'clients':>7} {'turns':>6} {'first step p50/p95 ms':>22} {'agent step p50/p95':>19}"
              f" {'answer p50/p95 ms':>20} {'errors':>6} {'wall s':>7} {'load':>10}")  # fmt: skip
        created = list(warm.conversations)
        for clients in args.clients:
            load_before = os.getloadavg()[0]
            started = time.perf_counter()
            samples = run_clients(url, clients, args.turns, headers)
            wall = time.perf_counter() - started
            created += samples.conversations
            f50, f95 = percentiles(samples.first_step_ms)
            s50, s95 = percentiles(samples.agent_step_ms)
            a50, a95 = percentiles(samples.answer_ms)
            print(f"{clients:>7} {len(samples.answer_ms):>6} {f50:>10.0f} / {f95:<9.0f}"
                  f" {s50:>8.0f} / {s95:<8.0f} {a50:>9.0f} / {a95:<8.0f} {len(samples.errors):>6}"
                  f" {wall:>7.1f}"
                  f" {load_before:>4.1f}–{os.getloadavg()[0]:<4.1f}")  # fmt: skip
            for error in samples.errors[:3]:
                print(f"        error: {error}")
            if args.samples:
                record = {"label": args.label, "clients": clients, "first": samples.first_step_ms,
                          "agent": samples.agent_step_ms, "answer": samples.answer_ms,
                          "errors": len(samples.errors),
                          "load": [load_before, os.getloadavg()[0]]}  # fmt: skip
                with open(args.samples, "a", encoding="utf-8") as out:
                    out.write(json.dumps(record) + "\n")
        clean_up(url, created, headers)
    finally:
        if server is not None:
            server.__exit__(None, None, None)  # type: ignore[attr-defined]
    return 0


if __name__ == "__main__":
    sys.exit(main())
