"""The stores behind the API and the MCP server: bootstrapped once, then only reported on.

    stores = Stores.open(settings)      # servers up (embedded ones started), schema migrated
    pool = stores.pool()                # or StoreUnavailable with the reason (→ HTTP 503)
    graph = stores.graph()              # None while the graph is down (agents answer around it)

Like the Streamlit app (`pages/_runtime.py`), a process starts the embedded servers once, at
start-up; after that it never restarts one behind an operator's back: a store that goes down is
reported (`health()`, 503 answers naming it) until it is brought back, and then the same
clients reconnect.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field

from psycopg_pool import ConnectionPool

from data_access.config import Settings
from data_access.errors import StoreUnavailable, WorkbenchError
from data_access.graph.base import GraphStore
from data_access.health import StoreHealth, store_health
from data_access.services import ServiceInfo, forbid_starting

logger = logging.getLogger(__name__)

HEALTH_TTL_S = 5.0
RETRY_S = 30.0


@dataclass
class Stores:
    """Where the stores are, and a short-lived cache of whether they answer."""

    settings: Settings
    info: ServiceInfo | None = None
    error: str | None = None  # why the bootstrap failed, while it does
    _health: StoreHealth | None = field(default=None, repr=False)
    _health_at: float = float("-inf")
    _tried_at: float = float("-inf")
    _refreshing: bool = False
    _graph: tuple[StoreHealth, GraphStore] | None = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def open(cls, settings: Settings) -> Stores:
        """Start (or attach to) the stores and migrate; a failure is kept, not raised."""
        stores = cls(settings)
        stores._bootstrap()
        return stores

    def _bootstrap(self) -> None:
        from data_access.bootstrap import bootstrap

        self._tried_at = time.monotonic()
        try:
            self.info, self.error = bootstrap(self.settings), None
            forbid_starting(self.settings)  # see the module docstring
        except WorkbenchError as e:
            logger.warning("store bootstrap failed: %s", e)
            self.error = str(e)

    def _known_info(self) -> ServiceInfo | None:
        with self._lock:
            if self.info is None and time.monotonic() - self._tried_at > RETRY_S:
                self._bootstrap()
            return self.info

    def health(self, *, fresh: bool = False) -> StoreHealth | None:
        """Both stores probed (cached for a few seconds); None before a successful bootstrap."""
        info = self._known_info()
        if info is None:
            return None
        now = time.monotonic()
        cached = self._health
        if fresh or cached is None or not cached.postgres.ok:
            self._health, self._health_at = store_health(self.settings, info), now
        elif now - self._health_at > HEALTH_TTL_S:
            self._refresh_in_background(info)  # an "up" answer stays usable while it is asked
        return self._health

    def _refresh_in_background(self, info: ServiceInfo) -> None:
        """Probe again off the request path (a request never waits on a routine check; a store
        that went away is found by the pool itself within a quarter second)."""
        with self._lock:
            if self._refreshing:
                return
            self._refreshing = True

        def probe() -> None:
            try:
                self._health, self._health_at = store_health(self.settings, info), time.monotonic()
            finally:
                self._refreshing = False

        threading.Thread(target=probe, name="stores-health", daemon=True).start()

    def pool(self) -> ConnectionPool:
        """The shared pool, or StoreUnavailable naming PostgreSQL and the driver's reason.

        A cached "down" is never trusted (the probe takes milliseconds): the first request after
        PostgreSQL is back must not get a stale error. A cached "up" is, because the pool itself
        finds out within a quarter second when the server is gone (data_access.postgres)."""
        health = self.health()  # a cached "down" is probed again inside health()
        if health is None or self.info is None:
            raise StoreUnavailable(
                f"PostgreSQL에 연결할 수 없습니다 ({self.error or '저장소 시작 실패'})",
                store="postgres",
            )
        if not health.postgres.ok:
            raise StoreUnavailable(
                f"PostgreSQL에 연결할 수 없습니다 ({health.postgres.error})", store="postgres"
            )
        from agents.warmup import warm_up
        from data_access.postgres import get_pool

        try:
            pool = get_pool(self.info.postgres_uri, self.settings)
            warm_up(pool)  # as the app does: the first question does not load names and parsers
            return pool
        except StoreUnavailable:
            self._health = None  # probe again on the next request
            raise

    def graph(self) -> GraphStore | None:
        """The graph store when its last probe answered, else None (agents degrade, say why).

        The store is looked up once per probe (`get_graph_store` PINGs the server each time it
        is called: a round trip in every request before its first step, issue 34); a store
        that goes away between probes fails its queries with StoreUnavailable, as it would
        right after a PING."""
        health = self.health()
        if health is None or not health.graph.ok:
            return None
        known = self._graph
        if known is not None and known[0] is health:
            return known[1]
        from data_access.graph import get_graph_store

        try:
            store = get_graph_store(self.settings)
        except WorkbenchError as e:
            logger.warning("graph store unavailable: %s", e)
            return None
        self._graph = (health, store)
        return store

    def graph_down_reason(self) -> str | None:
        health = self.health()
        if health is None:
            return self.error
        return None if health.graph.ok else health.graph.error
