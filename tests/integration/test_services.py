"""Embedded servers: started once, shared across processes, clear failures, external mode."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from data_access.config import Settings
from data_access.errors import ServiceStartError
from data_access.services import (
    ServiceInfo,
    ensure_running,
    falkordb_healthy,
    postgres_healthy,
    stop,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def fresh_home() -> Iterator[Path]:
    # Under the project (short path) rather than /tmp: the PostgreSQL socket lives in it.
    home = ROOT / ".workbench" / f"t{os.getpid()}"
    shutil.rmtree(home, ignore_errors=True)
    home.mkdir(parents=True)
    yield home
    stop(Settings(workbench_home=home))
    shutil.rmtree(home, ignore_errors=True)


def _start_in_subprocess(home: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "WORKBENCH_HOME": str(home)}
    env.pop("DATABASE_URL", None)
    env.pop("NEO4J_URI", None)
    return subprocess.Popen(
        [sys.executable, "-m", "data_access.services", "start", "--json"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_two_processes_starting_together_share_one_server_of_each_kind(fresh_home: Path) -> None:
    procs = [_start_in_subprocess(fresh_home) for _ in range(2)]
    outputs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), outputs
    infos = [json.loads(out) for out, _ in outputs]
    assert infos[0]["postgres_pid"] == infos[1]["postgres_pid"]
    assert infos[0]["falkordb_pid"] == infos[1]["falkordb_pid"]
    assert infos[0]["graph_uri"] == infos[1]["graph_uri"]
    assert infos[0]["graph_uri"].startswith("redis://127.0.0.1:")
    assert postgres_healthy(infos[0]["postgres_uri"])

    # A third process (this one) reuses them instead of starting new ones.
    again = ensure_running(Settings(workbench_home=fresh_home))
    assert again.postgres_pid == infos[0]["postgres_pid"]
    assert again.falkordb_pid == infos[0]["falkordb_pid"]
    _status_json_reports_addresses(fresh_home)  # on these servers: no second fresh home


def _status_json_reports_addresses(fresh_home: Path) -> None:
    env = {**os.environ, "WORKBENCH_HOME": str(fresh_home)}
    out = subprocess.run(
        [sys.executable, "-m", "data_access.services", "status", "--json"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    status = json.loads(out.stdout)
    for key in ("postgres_uri", "graph_backend", "graph_uri", "graph_name"):
        assert status[key], key
    assert status["graph_backend"] == "falkordb"
    assert status["postgres_healthy"] and status["graph_healthy"]


def test_stop_then_start_brings_back_graph_data(fresh_home: Path) -> None:
    settings = Settings(workbench_home=fresh_home)
    info = ensure_running(settings)
    from falkordb import FalkorDB

    port = int(info.graph_uri.rsplit(":", 1)[1])
    FalkorDB(host="127.0.0.1", port=port).select_graph("g").query("CREATE (:Keep {v: 7})")
    assert set(stop(settings)) == {"falkordb", "postgres"}
    assert not falkordb_healthy(port)
    info2 = ensure_running(settings)
    port2 = int(info2.graph_uri.rsplit(":", 1)[1])
    rows = (
        FalkorDB(host="127.0.0.1", port=port2)
        .select_graph("g")
        .ro_query("MATCH (k:Keep) RETURN k.v")
    )
    assert rows.result_set == [[7]]


def test_taken_port_gives_a_clear_message(fresh_home: Path, services: ServiceInfo) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        settings = Settings(
            workbench_home=fresh_home, database_url=services.postgres_uri, falkordb_port=port
        )
        with pytest.raises(ServiceStartError, match=f"FALKORDB_PORT {port} is taken"):
            ensure_running(settings)


def test_external_database_url_starts_no_embedded_postgres(
    fresh_home: Path, services: ServiceInfo
) -> None:
    settings = Settings(workbench_home=fresh_home, database_url=services.postgres_uri)
    info = ensure_running(settings)
    assert info.postgres_embedded is False
    assert info.postgres_uri == services.postgres_uri
    assert not (fresh_home / "postgres").exists()
