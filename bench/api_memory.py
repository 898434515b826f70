"""What stays resident in an API process: RSS (anonymous and file-backed) after start-up and
after the first call of each screen, with the packages each step imported and, with
`--tracemalloc`, the source lines holding the most Python memory at the end.

    python bench/api_memory.py [--tracemalloc] [--trim] [--mcp]

Serves the API in this process (a real uvicorn server on a free loopback port, the stores of
WORKBENCH_HOME, the offline planner, no rate limit) and calls each screen once through HTTP,
the way bench/soak.py does, then prints one line per step. `--trim` prints what
`malloc_trim(0)` gives back at the end (freed heap the allocator still held): what the API's
heap trimmer (api.memory) does every 30 s while it serves. `--mcp` then calls every MCP tool
once through the API's own /mcp (the `mcp` SDK's client, the calls of tests/integration/
test_mcp.py): what MCP adds to a process that already holds the stores and Kiwi.
"""

from __future__ import annotations

import argparse
import sys
import time
import tracemalloc
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from soak import CONTRACT  # noqa: E402

from api.memory import trim  # noqa: E402

CALLS = [
    ("etf", "/api/chat/message", {"message": "KODEX 200 정보 알려줘"}),
    ("macro", "/api/macro/message", {"message": "한국 기준금리 추이"}),
    ("contract", "/api/contract/message", {"contract_id": CONTRACT, "message": "손해배상 한도는?"}),
    ("stock", "/api/stock/report", {"symbol": "삼성전자"}),
    ("opening", "/api/opening/run", {"date": None}),
]


def memory() -> dict[str, float]:
    wanted = ("VmRSS", "RssAnon", "RssFile")
    out = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key = line.split(":")[0]
        if key in wanted:
            out[key] = int(line.split()[1]) / 1024
    return out


def packages() -> set[str]:
    return {name.split(".")[0] for name in list(sys.modules)}  # Kiwi loads on a thread


def report(step: str, before: set[str], started: float) -> set[str]:
    m = memory()
    now = packages()
    new = sorted(now - before)
    shown = ", ".join(new[:12]) + (f" (+{len(new) - 12})" if len(new) > 12 else "")
    print(f"{step:<22} RSS {m['VmRSS']:6.0f} MB  anon {m['RssAnon']:6.0f}  file "
          f"{m['RssFile']:5.0f}  {time.perf_counter() - started:6.1f} s  new: {shown}")  # fmt: skip
    return now


def call_every_tool(url: str) -> int:
    """Each MCP tool called once through the API's /mcp; returns how many came back errors."""
    import anyio
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    from tests.integration.test_mcp import CALLS

    async def run() -> int:
        async with Client(streamable_http_client(url)) as client:
            failed = 0
            for name, arguments, _ in CALLS:
                result = await client.call_tool(name, arguments)
                failed += bool(result.is_error)
            return failed

    return anyio.run(run)


def offline_server() -> object:
    """The API as `python -m api` builds it, offline (as bench/api.py's local server)."""
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
    parser.add_argument("--tracemalloc", action="store_true", help="top Python allocations")
    parser.add_argument("--trim", action="store_true", help="malloc_trim(0) at the end")
    parser.add_argument("--mcp", action="store_true", help="then every MCP tool through /mcp")
    args = parser.parse_args()
    started = time.perf_counter()
    seen = report("interpreter", set(), started)
    if args.tracemalloc:
        tracemalloc.start(1)
    server = offline_server()
    seen = report("api imported", seen, started)
    with server as running, httpx.Client(base_url=running.url, timeout=300) as client:  # type: ignore[attr-defined]
        client.get("/healthz")
        seen = report("started (/healthz)", seen, started)
        client.get("/api/contract/contracts")  # what a client does first: the sample contracts
        seen = report("contracts listed", seen, started)
        created = []
        for screen, path, body in CALLS:
            response = client.post(path, json=body)
            data = response.json() if response.status_code == 200 else {}
            if response.status_code != 200:
                print(f"  {screen}: HTTP {response.status_code} {response.text[:120]}")
            if data.get("conversation_id"):
                created.append(data["conversation_id"])
            seen = report(f"first {screen}", seen, started)
        for _, path, body in CALLS:  # a second round: what the first one left to load
            response = client.post(path, json=body)
            if response.status_code == 200 and response.json().get("conversation_id"):
                created.append(response.json()["conversation_id"])
        seen = report("second round", seen, started)
        if args.trim:  # what the API's HeapTrimmer does every ApiConfig.trim_every_s seconds
            trim()
            seen = report("after malloc_trim", seen, started)
        if args.mcp:
            errors = call_every_tool(f"{running.url}/mcp")  # type: ignore[attr-defined]
            seen = report(f"every MCP tool ({errors} err)", seen, started)
            if args.trim:
                trim()
                seen = report("after malloc_trim", seen, started)
        if args.tracemalloc:
            snapshot = tracemalloc.take_snapshot()
            print("top Python allocations (by file):")
            for stat in snapshot.statistics("filename")[:15]:
                print(f"  {stat.size / 2**20:7.1f} MB  {stat.traceback[0].filename}")
        for cid in created:
            client.delete(f"/api/conversations/{cid}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
