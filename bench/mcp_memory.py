"""Resident memory of the MCP stdio server: after `initialize`, after `tools/list` and after each
round of calls of every tool (the calls tests/integration/test_mcp.py makes), raw JSON-RPC lines
on the stdin of a fresh `python -m api.mcp` (WORKBENCH_HOME passed on).

    python bench/mcp_memory.py [--rounds 3]

Prints RSS (MB) per stage and any tool call that came back as an error.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from tests.integration.test_mcp import CALLS  # noqa: E402


class Server:
    def __init__(self) -> None:
        env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
        self.process = subprocess.Popen([sys.executable, "-m", "api.mcp"], cwd=ROOT, env=env,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True)  # fmt: skip
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.next_id = 0

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()

    def call(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params or {}})
        return dict(json.loads(self.lines.get(timeout=600)))

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=60)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    server = Server()
    try:
        server.call("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                   "clientInfo": {"name": "bench", "version": "1"}})  # fmt: skip
        server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        print(f"RSS after initialize: {server.rss_mb():.0f} MB")
        server.call("tools/list")
        print(f"RSS after tools/list: {server.rss_mb():.0f} MB")
        for round_number in range(1, args.rounds + 1):
            for name, arguments, _ in CALLS:
                reply = server.call("tools/call", {"name": name, "arguments": arguments})
                if reply.get("error") or reply.get("result", {}).get("isError"):
                    print(f"  error: {name}: {json.dumps(reply, ensure_ascii=False)[:200]}")
            print(f"RSS after round {round_number} ({len(CALLS)} tool calls): "
                  f"{server.rss_mb():.0f} MB")  # fmt: skip
    finally:
        server.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
