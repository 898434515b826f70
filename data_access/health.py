"""Store health for the sidebar: is each database up, which version, where (password removed),
and whether the document vector index is ready (`vector_index_health`).

Nothing here starts a server or raises: a store that is down comes back with `ok=False` and a
short error message. Probes use their own short-timeout connections (not the shared pool,
whose waits are long), so a check takes milliseconds when the stores are up and about two
seconds at worst when one hangs.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any, Literal
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
    from data_access.graph.falkordb_connection import probe_client

    parts = urlsplit(uri)
    # one attempt: redis-py's default retries kept a dead server's check 3-5 s long
    client = probe_client(parts.hostname or "127.0.0.1", parts.port or 6379, PROBE_TIMEOUT_S)
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


# ---------------------------------------------------------------- document vector index

# The macro GraphRAG's vectors on the graph's Document nodes (agents.macro.graphrag builds them on
# the first question that needs them; the names are the graph schema's, kept here so the data
# layer can report on them without importing an agent).
DOCUMENT_LABEL, DOCUMENT_VECTOR, DOCUMENT_FINGERPRINT = (
    "Document",
    "text_embedding",
    "text_embedding_fp",
)
VECTOR_PROBE_K = 20
VectorIndexStatus = Literal["ready", "missing", "stale", "degraded", "empty", "unavailable"]
VECTOR_STATUS_KO: dict[str, str] = {
    "ready": "준비됨", "missing": "아직 없음", "stale": "다시 만들어야 함", "degraded": "손상됨",
    "empty": "문서 없음", "unavailable": "확인 불가",
}  # fmt: skip
_VECTOR_COUNTS = (
    f"MATCH (d:{DOCUMENT_LABEL}) RETURN count(d) AS n, count(d.{DOCUMENT_VECTOR}) AS with_vector, "
    f"count(DISTINCT d.{DOCUMENT_FINGERPRINT}) AS fingerprints"
)
_VECTOR_SAMPLE = (
    f"MATCH (d:{DOCUMENT_LABEL}) WHERE d.{DOCUMENT_VECTOR} IS NOT NULL "
    f"RETURN d.{DOCUMENT_VECTOR} AS v LIMIT 1"
)
_REBUILT = "다음 매크로 GraphRAG 질문 때 자동으로 다시 만듭니다."


@dataclass(frozen=True)
class VectorIndexHealth:
    """Is the document vector index ready to answer (seed 004 §9.3-3)?"""

    status: VectorIndexStatus
    detail: str  # Korean, one sentence or two
    documents: int | None = None  # rows in PostgreSQL's documents table
    graph_documents: int | None = None  # Document nodes
    with_vector: int | None = None  # Document nodes carrying a vector
    latency_ms: float = 0.0

    @property
    def ready(self) -> bool:
        return self.status == "ready"

    @property
    def label_ko(self) -> str:
        return VECTOR_STATUS_KO[self.status]


def vector_index_health(pool: Any, store: Any) -> VectorIndexHealth:
    """Counts on both stores and one probe query through the index (never raises, never builds:
    a problem is reported with what happens next). `store` is a GraphStore or None (down)."""
    from data_access.errors import WorkbenchError
    from data_access.postgres import fetch_one

    started = time.perf_counter()

    def done(status: VectorIndexStatus, detail: str, **counts: int | None) -> VectorIndexHealth:
        elapsed = (time.perf_counter() - started) * 1000
        return VectorIndexHealth(status, detail, latency_ms=elapsed, **counts)

    try:
        row = fetch_one("SELECT count(*) AS n FROM documents", pool=pool)
    except WorkbenchError as e:
        return done("unavailable", f"PostgreSQL의 문서 수를 읽지 못했습니다: {_short(e)}")
    documents = int(row["n"]) if row else 0
    if store is None:
        return done("unavailable", "그래프 저장소에 연결할 수 없어 확인하지 못했습니다.",
                    documents=documents)  # fmt: skip
    try:
        counts = store.read(_VECTOR_COUNTS, {})[0]
        n, with_vector, fps = (int(counts[k] or 0) for k in ("n", "with_vector", "fingerprints"))
        sample = store.read(_VECTOR_SAMPLE, {}) if with_vector else []
    except WorkbenchError as e:
        return done("unavailable", f"그래프를 읽지 못했습니다: {_short(e)}", documents=documents)
    numbers = {"documents": documents, "graph_documents": n, "with_vector": with_vector}
    if documents == 0:
        return done("empty", "문서가 없어 벡터 인덱스를 만들 수 없습니다.", **numbers)
    if with_vector == 0:
        return done("missing", "문서 벡터가 아직 없습니다. 첫 매크로 GraphRAG 질문 때 만듭니다.",
                    **numbers)  # fmt: skip
    if with_vector < n or fps != 1 or n != documents:
        return done("stale", f"문서 {documents}건 중 그래프에 {n}건, 벡터는 {with_vector}건"
                    f"(버전 {fps}가지)입니다. {_REBUILT}", **numbers)  # fmt: skip
    vector = sample[0]["v"] if sample else None
    if not isinstance(vector, list | tuple) or not vector:
        return done("stale", f"저장된 벡터를 읽을 수 없습니다. {_REBUILT}", **numbers)
    wanted = min(VECTOR_PROBE_K, n)
    try:
        found = store.vector_search(DOCUMENT_LABEL, DOCUMENT_VECTOR, [float(x) for x in vector],
                                    wanted)  # fmt: skip
    except WorkbenchError as e:
        return done("missing", f"벡터 인덱스가 없거나 아직 채워지는 중입니다 ({_short(e)}). "
                    f"{_REBUILT}", **numbers)  # fmt: skip
    if len(found) < wanted:
        return done("degraded", f"시험 검색이 상위 {wanted}건 중 {len(found)}건만 찾았습니다 "
                    f"(인덱스가 이웃을 잃음). {_REBUILT}", **numbers)  # fmt: skip
    return done("ready", f"문서 {n}건의 벡터와 인덱스가 준비되었습니다 "
                f"(시험 검색 상위 {wanted}건).", **numbers)  # fmt: skip
