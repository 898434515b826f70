"""A FalkorDB that is down is told at once: every client the workbench opens asks once.

redis-py's default client retries a refused connection ten times with backoff (3-5 s per call);
the sidebar's status, `services status` and the store itself must not. The attempts are counted
at the socket, against a loopback port nothing listens on.
"""

from __future__ import annotations

import socket
from collections.abc import Callable

import pytest

from data_access.errors import StoreUnavailable
from data_access.graph.falkordb_store import FalkorDBStore
from data_access.health import graph_health
from data_access.services import falkordb_healthy


@pytest.fixture
def dead_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])  # closed again: nothing listens there


@pytest.fixture
def connects(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every address a socket connects to from here on (the real connect still runs)."""
    seen: list[object] = []
    real: Callable[[socket.socket, object], None] = socket.socket.connect

    def counting(self: socket.socket, address: object) -> None:
        seen.append(address)
        real(self, address)

    monkeypatch.setattr(socket.socket, "connect", counting)
    return seen


def test_the_status_probe_asks_a_dead_server_once(dead_port: int, connects: list[object]) -> None:
    assert falkordb_healthy(dead_port) is False
    assert connects == [("127.0.0.1", dead_port)]


def test_the_sidebar_health_asks_a_dead_server_once(
    dead_port: int, connects: list[object], settings
) -> None:  # type: ignore[no-untyped-def]
    health = graph_health("falkordb", f"redis://127.0.0.1:{dead_port}", "g", True, settings)
    assert not health.ok and health.error and "refused" in health.error
    assert connects == [("127.0.0.1", dead_port)]


def test_the_store_asks_a_dead_server_once(dead_port: int, connects: list[object]) -> None:
    with pytest.raises(StoreUnavailable) as raised:
        FalkorDBStore(f"redis://127.0.0.1:{dead_port}", "g")
    assert raised.value.store == "graph"
    assert connects == [("127.0.0.1", dead_port)]
