"""How long an MCP client waits for the workbench's MCP server over stdio: from starting
`python -m api.mcp` to the `initialize` answer, then to `tools/list` and to a first tool call.

    python bench/mcp_start.py [--runs 5]

Each run starts a fresh server process the way an MCP client does (the `mcp` SDK's stdio
client, with WORKBENCH_HOME passed on), so imports and store start-up are counted. Prints
p50/p95 per stage.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters

ROOT = Path(__file__).resolve().parent.parent


def params() -> StdioServerParameters:
    keep = ("WORKBENCH_HOME", "WORKBENCH_SECRETS_FILE", "PATH")
    env = {k: os.environ[k] for k in keep if k in os.environ}
    env["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
    return StdioServerParameters(command=sys.executable, args=["-m", "api.mcp"], cwd=str(ROOT),
                                 env=env)  # fmt: skip


async def one() -> tuple[float, float, float]:
    started = time.perf_counter()
    async with Client(params(), read_timeout_seconds=120) as client:
        initialized = time.perf_counter() - started
        await client.list_tools()
        listed = time.perf_counter() - started
        await client.call_tool("calculator_tool", {"expression": "1 + 1"})
        called = time.perf_counter() - started
    return initialized, listed, called


def p50_p95(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return f"{statistics.median(ordered) * 1000:>7.0f} / {p95 * 1000:<7.0f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    samples = [anyio.run(one) for _ in range(args.runs)]
    print(f"{'stage':>22} {'p50 / p95 ms':>16}")
    for index, stage in enumerate(("initialize", "tools/list", "first tool call")):
        print(f"{stage:>22} {p50_p95([s[index] for s in samples])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
