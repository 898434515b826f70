"""The data-access layer through real outages, on private servers (never the shared test ones).

PostgreSQL: a pool whose server is stopped raises `StoreUnavailable` (then fails at once, not
after the pool's timeout), and the very pool object its caller holds answers again once the
server is back — also right after a quick restart, when every pooled connection is dead.
FalkorDB: a store whose server is SIGKILLed raises `StoreUnavailable`; in a process that no
longer starts servers (the app after its start-up) nothing restarts it behind the operator's
back, and once `python -m data_access.services start` brings it back the same store answers.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from data_access.config import Settings
from data_access.errors import StoreUnavailable
from data_access.graph import get_graph_store
from data_access.postgres import close_pool, fetch_one, get_pool
from data_access.services import (
    ServiceInfo,
    ensure_running,
    falkordb_healthy,
    forbid_starting,
    postgres_healthy,
    recorded_info,
    start_on_request,
    stop,
    stop_postgres,
)
from tests.browser.fault_stack import private_home, private_settings, process_alive

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def private_stack() -> Iterator[Settings]:
    """Embedded PostgreSQL and FalkorDB of this module's own (one initdb for both tests), stopped
    and deleted afterwards."""
    with private_home("atlas-recovery-") as home:
        settings = private_settings(home)
        info = ensure_running(settings)
        try:
            yield settings
        finally:
            close_pool(info.postgres_uri)
            stop(settings)


@pytest.fixture
def own(private_stack: Settings) -> tuple[Settings, ServiceInfo]:
    """Both servers up, whatever an earlier test left down, as the user's start button would
    bring them (this process may have been told to attach only)."""
    return private_stack, start_on_request(private_stack)


def _operator_start(settings: Settings) -> ServiceInfo:
    """What an operator runs: the CLI in its own process (this one may not start servers)."""
    env = {**os.environ, "WORKBENCH_HOME": str(settings.home)}
    for key in ("DATABASE_URL", "NEO4J_URI", "FALKORDB_PORT"):
        env.pop(key, None)
    subprocess.run([sys.executable, "-m", "data_access.services", "start"], cwd=ROOT, env=env,
                   check=True, capture_output=True, timeout=120)  # fmt: skip
    info = recorded_info(settings)
    assert info is not None
    return info


def test_pool_recovers_after_a_real_postgres_restart(own: tuple[Settings, ServiceInfo]) -> None:
    settings, info = own
    pool = get_pool(info.postgres_uri, settings)
    assert fetch_one("SELECT 1 AS one", pool=pool) == {"one": 1}

    # A quick restart: every pooled connection is dead, none of it may reach the caller.
    assert stop_postgres(settings)
    ensure_running(settings)
    for _ in range(3):
        assert fetch_one("SELECT 2 AS two", pool=pool) == {"two": 2}

    # A real outage: the held pool says so, in the workbench's own error.
    assert stop_postgres(settings)
    with pytest.raises(StoreUnavailable) as first:
        fetch_one("SELECT 1", pool=pool)
    assert first.value.store == "postgres"
    with pytest.raises(StoreUnavailable):  # the pool was retired: no second wait for its timeout
        fetch_one("SELECT 1", pool=pool)

    # Attach-only (the app after its start-up): the default path does not restart the server.
    forbid_starting(settings)
    with pytest.raises(StoreUnavailable):
        fetch_one("SELECT 1", pool=get_pool(None, settings))
    assert not postgres_healthy(info.postgres_uri)

    back = _operator_start(settings)
    assert back.postgres_uri == info.postgres_uri
    assert fetch_one("SELECT 3 AS three", pool=pool) == {"three": 3}  # the same pool object
    assert fetch_one("SELECT 4 AS four", pool=get_pool(info.postgres_uri, settings)) == {"four": 4}


def test_graph_store_recovers_after_sigkill_and_restart(own: tuple[Settings, ServiceInfo]) -> None:
    settings, info = own
    store = get_graph_store(settings)
    store.write("CREATE (:Probe {n: 1})")
    port = int(info.graph_uri.rsplit(":", 1)[1])
    redis.Redis(host="127.0.0.1", port=port).save()  # on disk, as a graph up for a while is

    assert info.falkordb_pid is not None
    os.kill(info.falkordb_pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while process_alive(info.falkordb_pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not store.health()
    with pytest.raises(StoreUnavailable) as down:
        store.read("MATCH (p:Probe) RETURN p.n AS n")
    assert down.value.store == "graph"

    # Attach-only: the factory hands back the same store, still down, and starts nothing.
    forbid_starting(settings)
    assert get_graph_store(settings) is store
    with pytest.raises(StoreUnavailable):
        store.read("MATCH (p:Probe) RETURN p.n AS n")
    assert not falkordb_healthy(port)

    back = _operator_start(settings)
    assert back.graph_uri == info.graph_uri and back.falkordb_pid != info.falkordb_pid
    assert store.read("MATCH (p:Probe) RETURN p.n AS n") == [{"n": 1}]  # the same client
    assert get_graph_store(settings) is store
