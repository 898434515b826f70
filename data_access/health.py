"""Store health for the sidebar: is each database up, which version, where (password removed).

Nothing here starts a server or raises: a store that is down comes back with `ok=False` and a
short error message. Probes use their own short-timeout connections (not the shared pool,
whose waits are long), so a check takes milliseconds when the stores are up and about two
seconds at worst when one hangs.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import psycopg

from data_access.config import Settings, get_settings
from data_access.services import ServiceInfo, recorded_info

logger = logging.getLogger(__name__)

PROBE_TIMEOUT_S = 2


@dataclass(frozen=True)
class PostgresHealth:
    ok: bool
    embedded: bool
    uri: str  # password removed
    version: str | None
    error: str | None
    latency_ms: float


@dataclass(frozen=True)
class GraphHealth:
    ok: bool
    backend: str  # falkordb | neo4j
    embedded: bool
    uri: str  # password removed
    graph_name: str
    version: str | None
    error: str | None
    latency_ms: float


@dataclass(frozen=True)
class StoreHealth:
    postgres: PostgresHealth
    graph: GraphHealth

    @property
    def ok(self) -> bool:
        return self.postgres.ok and self.graph.ok


def redact_uri(uri: str) -> str:
    """The URI without a password, in the user-info part or in a `password=` query argument."""
    parts = urlsplit(uri)
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, _, host = netloc.rpartition("@")
        netloc = f"{userinfo.split(':', 1)[0]}@{host}"
    query = urlencode(
        [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "password"],
        safe="/",
    )
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def _short(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0][:200] if text else type(e).__name__


def postgres_health(uri: str | None, embedded: bool) -> PostgresHealth:
    if not uri:
        return PostgresHealth(False, embedded, "", None, "서버가 시작되지 않았습니다", 0.0)
    started = time.perf_counter()
    try:
        with psycopg.connect(uri, connect_timeout=PROBE_TIMEOUT_S, autocommit=True) as conn:
            row = conn.execute("SHOW server_version").fetchone()
        version = str(row[0]) if row else None
        error = None
    except psycopg.Error as e:
        version, error = None, _short(e)
    elapsed = (time.perf_counter() - started) * 1000
    return PostgresHealth(error is None, embedded, redact_uri(uri), version, error, elapsed)


def _falkordb_version(uri: str) -> str:
    import redis

    parts = urlsplit(uri)
    client = redis.Redis(
        host=parts.hostname or "127.0.0.1",
        port=parts.port or 6379,
        socket_timeout=PROBE_TIMEOUT_S,
        socket_connect_timeout=PROBE_TIMEOUT_S,
        decode_responses=True,
    )
    try:
        modules = client.module_list()
    finally:
        client.close()
    graph = next((m for m in modules if m.get("name") == "graph"), None)
    if graph is None:
        raise RuntimeError("FalkorDB 모듈이 로드되지 않았습니다")
    ver = int(graph["ver"])  # e.g. 41603 → 4.16.3
    return f"FalkorDB {ver // 10000}.{ver // 100 % 100}.{ver % 100}"


def _neo4j_version(uri: str, settings: Settings) -> str:
    import neo4j

    password = settings.neo4j_password.get_secret_value() if settings.neo4j_password else ""
    driver = neo4j.GraphDatabase.driver(
        uri,
        auth=(settings.neo4j_user, password),
        connection_timeout=PROBE_TIMEOUT_S,
        connection_acquisition_timeout=PROBE_TIMEOUT_S,
    )
    try:
        info = driver.get_server_info()
    finally:
        driver.close()
    return str(info.agent)


def graph_health(
    backend: str, uri: str | None, graph_name: str, embedded: bool, settings: Settings
) -> GraphHealth:
    if not uri:
        return GraphHealth(
            False, backend, embedded, "", graph_name, None, "서버가 시작되지 않았습니다", 0.0
        )
    started = time.perf_counter()
    try:
        if backend == "neo4j":
            version: str | None = _neo4j_version(uri, settings)
        else:
            version = _falkordb_version(uri)
        error = None
    except Exception as e:  # any driver failure means "down"; the message is shown, not raised
        version, error = None, _short(e)
    elapsed = (time.perf_counter() - started) * 1000
    return GraphHealth(
        error is None, backend, embedded, redact_uri(uri), graph_name, version, error, elapsed
    )


def store_health(settings: Settings | None = None, info: ServiceInfo | None = None) -> StoreHealth:
    """Probe both stores. `info` (from `ensure_running`) is used when given, else the state file."""
    settings = settings or get_settings()
    info = info or recorded_info(settings)
    pg_uri = settings.database_url or (info.postgres_uri if info else None)
    pg = postgres_health(pg_uri, embedded=not settings.database_url)
    if settings.neo4j_uri:
        graph_uri: str | None = settings.neo4j_uri
        graph_name, embedded = settings.neo4j_database, False
    else:
        graph_uri = info.graph_uri if info and info.graph_backend == "falkordb" else None
        graph_name, embedded = settings.graph_name, True
    graph = graph_health(settings.graph_backend, graph_uri, graph_name, embedded, settings)
    return StoreHealth(pg, graph)
