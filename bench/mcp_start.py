"""How long an MCP client waits for the workbench's MCP server over stdio: from starting
`python -m api.mcp` to the `initialize` answer, then to `tools/list` and to a first tool call.

    python bench/mcp_start.py [--runs 5] [--root DIR] [--raw-only]

Each run starts a fresh server process the way an MCP client does (the `mcp` SDK's stdio
client, with WORKBENCH_HOME passed on), so imports and store start-up are counted. Prints
p50/p95 per stage, then the CPU time the server process used until it answered `initialize`
(a raw JSON-RPC line on its stdin; user + system, read from /proc): on a machine shared with
other work the wall time mostly measures the wait for a core, the CPU time what start-up costs.
`--root` starts the server of another checkout (a `git worktree` of an older commit: run both
one after the other for a before / after at the same load); `--raw-only` skips the client runs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters

ROOT = Path(__file__).resolve().parent.parent


def params(root: Path = ROOT) -> StdioServerParameters:
    keep = ("WORKBENCH_HOME", "WORKBENCH_SECRETS_FILE", "PATH")
    env = {k: os.environ[k] for k in keep if k in os.environ}
    env["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
    return StdioServerParameters(command=sys.executable, args=["-m", "api.mcp"], cwd=str(root),
                                 env=env)  # fmt: skip


async def one(root: Path) -> tuple[float, float, float]:
    started = time.perf_counter()
    async with Client(params(root), read_timeout_seconds=120) as client:
        initialized = time.perf_counter() - started
        await client.list_tools()
        listed = time.perf_counter() - started
        await client.call_tool("calculator_tool", {"expression": "1 + 1"})
        called = time.perf_counter() - started
    return initialized, listed, called


def initialize_cpu_s(root: Path) -> tuple[float, float]:
    """(wall s, CPU s of the server process) from its start to the `initialize` answer."""
    request = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "bench", "version": "1"}}}  # fmt: skip
    started = time.perf_counter()
    server = subprocess.Popen([sys.executable, "-m", "api.mcp"], cwd=root, env=params().env,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)  # fmt: skip
    assert server.stdin is not None and server.stdout is not None
    server.stdin.write(json.dumps(request) + "\n")
    server.stdin.flush()
    server.stdout.readline()
    wall = time.perf_counter() - started
    fields = Path(f"/proc/{server.pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime
    server.stdin.close()
    server.wait(timeout=30)
    return wall, cpu


def p50_p95(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return f"{statistics.median(ordered) * 1000:>7.0f} / {p95 * 1000:<7.0f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--root", default=str(ROOT), help="the checkout whose server starts")
    parser.add_argument("--raw-only", action="store_true", help="only the raw initialize runs")
    args = parser.parse_args()
    root = Path(args.root).resolve()
    load = os.getloadavg()[0]
    print(f"{'stage':>22} {'p50 / p95 ms':>16}")
    if not args.raw_only:
        samples = [anyio.run(one, root) for _ in range(args.runs)]
        for index, stage in enumerate(("initialize", "tools/list", "first tool call")):
            print(f"{stage:>22} {p50_p95([s[index] for s in samples])}")
    raw = [initialize_cpu_s(root) for _ in range(args.runs)]
    print(f"{'initialize (raw)':>22} {p50_p95([w for w, _ in raw])}  wall")
    print(f"{'':>22} {p50_p95([c for _, c in raw])}  CPU of the server process")
    print(f"{'load':>22} {load:.1f}–{os.getloadavg()[0]:.1f}  ({root})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
