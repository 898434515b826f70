"""How long a FalkorDB status check takes when the server is down (a closed loopback port).

    python bench/store_probe.py [--repeat 5]

Prints, for each check, the median and worst time over `--repeat` calls and how many connects
it made: the workbench's own checks (`services.falkordb_healthy`, the sidebar's `graph_health`,
a `FalkorDBStore` being built) beside a default `redis.Redis` client, which retries a refused
connection ten times with backoff. Prints the machine's 1-minute load average with the figures.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import redis

from data_access.config import Settings
from data_access.errors import StoreUnavailable
from data_access.graph.falkordb_store import FalkorDBStore
from data_access.health import graph_health
from data_access.services import falkordb_healthy

_connects = 0
_real_connect = socket.socket.connect


def _counting(self: socket.socket, address: object) -> None:
    global _connects
    _connects += 1
    _real_connect(self, address)


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _default_client(port: int) -> None:
    with contextlib.suppress(redis.RedisError):
        redis.Redis(host="127.0.0.1", port=port, socket_timeout=2.0).module_list()


def _store(port: int) -> None:
    with contextlib.suppress(StoreUnavailable):
        FalkorDBStore(f"redis://127.0.0.1:{port}", "bench")


def _measure(check: Callable[[int], object], port: int, repeat: int) -> tuple[float, float, int]:
    global _connects
    times, connects = [], 0
    for _ in range(repeat):
        _connects = 0
        started = time.perf_counter()
        check(port)
        times.append(time.perf_counter() - started)
        connects = max(connects, _connects)
    return statistics.median(times), max(times), connects


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    socket.socket.connect = _counting  # type: ignore[method-assign]
    settings = Settings(workbench_home=Path("/nonexistent"), database_url=None, neo4j_uri=None)
    port = _closed_port()
    checks: dict[str, Callable[[int], object]] = {
        "services.falkordb_healthy": falkordb_healthy,
        "health.graph_health (sidebar)": lambda p: graph_health(
            "falkordb", f"redis://127.0.0.1:{p}", "bench", True, settings
        ),
        "FalkorDBStore(...)": _store,
        "redis.Redis default client": _default_client,
    }
    print(f"dead FalkorDB port {port}, load {os.getloadavg()[0]:.1f}, {args.repeat} calls each")
    for name, check in checks.items():
        median, worst, connects = _measure(check, port, args.repeat)
        print(f"  {name:32s} median {median * 1000:8.1f} ms  max {worst * 1000:8.1f} ms  "
              f"connects {connects}")  # fmt: skip
    print(f"load after {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
