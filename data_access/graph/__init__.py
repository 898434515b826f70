"""The graph store: one `GraphStore` interface, FalkorDB (embedded default) or Neo4j (NEO4J_URI).

    store = get_graph_store()            # process-wide, cached per (backend, server, graph)
    rows = store.run_guarded(agent_cypher, max_rows=50)

Backends are imported inside their branch, so a machine without one client still works with
the other.
"""

from __future__ import annotations

import logging
import threading

from data_access.config import Settings, get_settings
from data_access.graph.base import GraphSchema, GraphStore, LabelInfo, RelationshipInfo, Row

logger = logging.getLogger(__name__)

__all__ = [
    "GraphSchema",
    "GraphStore",
    "LabelInfo",
    "RelationshipInfo",
    "Row",
    "forget_store",
    "get_graph_store",
    "neo4j_healthy",
]

_stores: dict[tuple[str, str, str], GraphStore] = {}
_stores_lock = threading.Lock()


def get_graph_store(settings: Settings | None = None, *, name: str | None = None) -> GraphStore:
    """The process-wide store for the configured backend; `name` picks another graph/database.

    Neo4j when NEO4J_URI is set, else the embedded FalkorDB that `ensure_running` starts or reuses.
    """
    settings = settings or get_settings()
    if settings.neo4j_uri:
        return _neo4j_store(settings, name or settings.neo4j_database)
    return _falkordb_store(settings, name or settings.graph_name)


def _neo4j_store(settings: Settings, database: str) -> GraphStore:
    key = ("neo4j", settings.neo4j_uri or "", database)
    with _stores_lock:
        store = _stores.get(key)
        if store is None:
            from data_access.graph.neo4j_store import Neo4jStore

            password = (
                settings.neo4j_password.get_secret_value() if settings.neo4j_password else None
            )
            store = Neo4jStore(
                settings.neo4j_uri or "",
                settings.neo4j_user,
                password,
                database,
                default_timeout_ms=settings.graph_query_timeout_ms,
            )
            _stores[key] = store
        return store


def _falkordb_store(settings: Settings, graph_name: str) -> GraphStore:
    # Fast path: a cached store for this WORKBENCH_HOME that answers a PING. Otherwise ask
    # ensure_running, which (re)starts the server if needed and tells us its current port.
    home_key = ("falkordb", str(settings.home), graph_name)
    with _stores_lock:
        cached = _stores.get(home_key)
    if cached is not None and cached.health():
        return cached

    from data_access.graph.falkordb_store import FalkorDBStore
    from data_access.services import ensure_running

    uri = ensure_running(settings).graph_uri
    with _stores_lock:
        store = _stores.get(home_key)
        if store is None or getattr(store, "uri", None) != uri:
            store = FalkorDBStore(
                uri, graph_name, default_timeout_ms=settings.graph_query_timeout_ms
            )
            _stores[home_key] = store
        return store


def forget_store(store: GraphStore) -> None:
    """Drop a closed store from the cache so the next `get_graph_store` builds a fresh one."""
    with _stores_lock:
        for key in [k for k, v in _stores.items() if v is store]:
            del _stores[key]


def neo4j_healthy(settings: Settings | None = None) -> bool:
    """True when the Neo4j in NEO4J_URI answers (False when it is not configured)."""
    settings = settings or get_settings()
    if not settings.neo4j_uri:
        return False
    from data_access.graph.neo4j_store import neo4j_reachable

    password = settings.neo4j_password.get_secret_value() if settings.neo4j_password else None
    return neo4j_reachable(settings.neo4j_uri, settings.neo4j_user, password)
