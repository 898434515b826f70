"""FalkorDB implementation of `GraphStore`, over RESP with the official `falkordb` client.

Never the experimental Bolt endpoint (see NOTES.md). Reads go through `GRAPH.RO_QUERY`, which the
server refuses for any write, with a per-query timeout. The redis connection pool reconnects on
its own, so a restarted server is picked up by the next call; while it is down every call raises
`StoreUnavailable`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

import redis
from falkordb import FalkorDB
from falkordb.edge import Edge
from falkordb.node import Node
from falkordb.path import Path
from falkordb.query_result import QueryResult

from data_access.errors import QueryFailed, QueryRejected, StoreUnavailable
from data_access.graph.base import GraphStore, Row, split_version_prefix, to_plain
from data_access.graph.cypher import IndexSpec, NodeKeySpec, quote_name
from data_access.graph.falkordb_connection import CONNECT_TIMEOUT_S, no_retry

logger = logging.getLogger(__name__)

T = TypeVar("T")

_RO_REFUSAL = "RO_QUERY is to be executed only on read-only queries"
_MISSING_GRAPH = "empty key"  # "Invalid graph operation on empty key": graph not created yet
_ALREADY_INDEXED = "already indexed"
_TIMED_OUT = "timed out"
_CONSTRAINT_EXISTS = "already exists"


class FalkorDBStore(GraphStore):
    backend = "falkordb"

    def __init__(
        self,
        uri: str,
        name: str,
        *,
        default_timeout_ms: int = 3000,
        socket_timeout_s: float = 120.0,
    ) -> None:
        self.uri = uri
        self.name = name
        self.default_timeout_ms = default_timeout_ms
        self._timeout_cap: int | None = None
        # socket_timeout bounds our own big writes; reads are bounded by the server timeout.
        # The client asks the server what it is (sentinel? cluster?) right here, so a server
        # that is down fails already in the constructor. One attempt per call (see
        # falkordb_connection): a dead server raises StoreUnavailable at once.
        self._db = self._call(
            lambda: FalkorDB.from_url(
                uri,
                socket_timeout=socket_timeout_s,
                socket_connect_timeout=CONNECT_TIMEOUT_S,
                retry=no_retry(),
            )
        )

    # ------------------------------------------------------------ execution

    def _call(self, fn: Callable[[], T]) -> T:
        """Run one client call, translating redis errors into the workbench error tree."""
        try:
            return fn()
        except (redis.ConnectionError, redis.TimeoutError, OSError) as e:
            raise StoreUnavailable(
                f"FalkorDB at {self.uri} is not reachable ({e})", store="graph"
            ) from e

    def _execute(self, cypher: str, params: dict[str, Any], timeout_ms: int | None,
                 read_only: bool) -> QueryResult:  # fmt: skip
        # A fresh Graph handle per call: the client caches label/property ids of compact results
        # per handle, and another process may have deleted and rebuilt this graph since (ids
        # reused for other names). A fresh handle refetches them lazily, only when the result
        # holds nodes or relationships, and shares no mutable cache between threads.
        graph = self._db.select_graph(self.name)
        run = graph.ro_query if read_only else graph.query
        try:
            return self._call(lambda: run(cypher, params or None, timeout=timeout_ms))
        except redis.ResponseError as e:
            message = str(e)
            if _MISSING_GRAPH in message:
                self._call(lambda: graph.query("RETURN 1"))  # creates the empty graph
                return self._call(lambda: run(cypher, params or None, timeout=timeout_ms))
            raise

    def _write(self, cypher: str, params: dict[str, Any]) -> list[Row]:
        try:
            result = self._execute(cypher, params, None, read_only=False)
        except redis.ResponseError as e:
            raise QueryFailed(f"FalkorDB write failed: {e}") from e
        return _rows(result)

    def _read(self, cypher: str, params: dict[str, Any], timeout_ms: int) -> list[Row]:
        timeout_ms = min(timeout_ms, self._timeout_max())
        cypher = split_version_prefix(cypher)[1]  # FalkorDB has one Cypher version
        try:
            result = self._execute(cypher, params, timeout_ms, read_only=True)
        except redis.ResponseError as e:
            message = str(e)
            if _RO_REFUSAL in message:
                raise QueryRejected(
                    "the graph store refused the query: only read-only queries are allowed"
                ) from e
            if _TIMED_OUT in message.lower():
                raise QueryFailed(f"query timed out after {timeout_ms} ms ({message})") from e
            raise QueryFailed(message) from e
        return _rows(result)

    def _timeout_max(self) -> int:
        """The server's TIMEOUT_MAX: a larger per-query timeout is an error, so we clamp to it."""
        if self._timeout_cap is None:
            try:
                value = int(self._call(lambda: self._db.config_get("TIMEOUT_MAX")))
            except (redis.ResponseError, ValueError, TypeError):
                value = 0
            self._timeout_cap = value if value > 0 else 2**31 - 1  # 0 means no maximum
        return self._timeout_cap

    # ------------------------------------------------------------ indexes and search

    def _ensure_index(self, spec: IndexSpec) -> None:
        # A range index on the key is what makes MERGE fast; uniqueness comes from MERGE itself.
        if spec.range_compared:
            return  # FalkorDB would answer `n.d < x` wrongly through the index (see IndexSpec)
        self._create_tolerant(
            f"CREATE INDEX FOR (n:{quote_name(spec.label)}) ON (n.{quote_name(spec.prop)})"
        )

    def _ensure_node_key(self, spec: NodeKeySpec, timeout_s: float = 30.0) -> None:
        # A unique constraint needs an exact-match index on its properties; on the joined key
        # property, not the date itself (see NodeKeySpec).
        label, prop = quote_name(spec.label), quote_name(spec.key_prop)
        self._create_tolerant(f"CREATE INDEX FOR (n:{label}) ON (n.{prop})")
        create = ("GRAPH.CONSTRAINT", "CREATE", self.name, "UNIQUE", "NODE", spec.label,
                  "PROPERTIES", 1, spec.key_prop)  # fmt: skip
        try:
            self._call(lambda: self._db.connection.execute_command(*create))
        except redis.ResponseError as e:
            if _CONSTRAINT_EXISTS in str(e):
                return
            raise QueryFailed(f"FalkorDB constraint on {spec.label} failed: {e}") from e
        deadline = time.monotonic() + timeout_s  # built in the background: wait for its status
        while time.monotonic() < deadline:
            status = self._constraint_status(spec)
            if status == "OPERATIONAL":
                return
            if status == "FAILED":  # nodes already break it; the next projection run retries
                logger.warning("FalkorDB: %s has duplicate %s values", spec.label, spec.key_prop)
                return
            time.sleep(0.05)
        raise QueryFailed(f"FalkorDB constraint on {spec.label} still pending after {timeout_s} s")

    def _constraint_status(self, spec: NodeKeySpec) -> str | None:
        graph = self._db.select_graph(self.name)
        for c in self._call(graph.list_constraints):
            if c["label"] == spec.label and list(c["properties"]) == [spec.key_prop]:
                return str(c["status"])
        return None

    def _create_vector_index(self, label: str, prop: str, dimension: int) -> None:
        self._create_tolerant(
            f"CREATE VECTOR INDEX FOR (n:{quote_name(label)}) ON (n.{quote_name(prop)}) "
            f"OPTIONS {{dimension: {int(dimension)}, similarityFunction: 'cosine'}}"
        )
        self._await_index(label)

    def _drop_vector_index(self, label: str, prop: str) -> None:
        try:
            self._execute(
                f"DROP VECTOR INDEX FOR (n:{quote_name(label)}) ON (n.{quote_name(prop)})",
                {},
                None,
                read_only=False,
            )
        except redis.ResponseError as e:  # no such index: nothing to drop
            logger.debug("no vector index to drop on %s.%s: %s", label, prop, e)

    def _create_fulltext_index(self, label: str, prop: str) -> None:
        self._create_tolerant(f"CALL db.idx.fulltext.createNodeIndex('{label}', '{prop}')")
        self._await_index(label)

    def _await_index(self, label: str, timeout_s: float = 30.0) -> None:
        """FalkorDB fills a new index over existing nodes in the background, and the vector and
        full-text procedures refuse to run ("Invalid arguments") until it is OPERATIONAL."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            rows = self._read(
                "CALL db.indexes() YIELD label, status RETURN label, status", {}, 5000
            )
            if all(
                "UNDER CONSTRUCTION" not in str(r["status"]) for r in rows if r["label"] == label
            ):
                return
            time.sleep(0.05)
        raise QueryFailed(f"FalkorDB index on {label} still under construction after {timeout_s} s")

    def _create_tolerant(self, ddl: str) -> None:
        """Run index DDL; FalkorDB has no IF NOT EXISTS and errors when the index exists."""
        try:
            self._execute(ddl, {}, None, read_only=False)
        except redis.ResponseError as e:
            if _ALREADY_INDEXED not in str(e):
                raise QueryFailed(f"FalkorDB index creation failed: {e}") from e

    def _vector_value(self, expression: str) -> str:
        return f"vecf32({expression})"

    def _vector_search(self, label: str, prop: str, vector: list[float], k: int) -> list[Row]:
        rows = self.read(
            "CALL db.idx.vector.queryNodes($label, $prop, $k, vecf32($vector)) "
            "YIELD node, score RETURN node, score",
            {"label": label, "prop": prop, "k": k, "vector": vector},
        )
        # FalkorDB returns the cosine distance d = 1 - cos in [0, 2]; Neo4j's cosine score is
        # (1 + cos) / 2 in [0, 1]. Same number from both: score = 1 - d / 2.
        return [{"node": r["node"], "score": 1.0 - float(r["score"]) / 2.0} for r in rows]

    def _fulltext_search(self, label: str, prop: str, terms: list[str], k: int) -> list[Row]:
        # RediSearch syntax: '|' is OR; the terms are plain word characters (see fulltext_terms).
        rows = self.read(
            "CALL db.idx.fulltext.queryNodes($label, $query) YIELD node, score "
            "RETURN node, score ORDER BY score DESC LIMIT $k",
            {"label": label, "query": "|".join(terms), "k": k},
        )
        return [{"node": r["node"], "score": float(r["score"])} for r in rows]

    # ------------------------------------------------------------ lifecycle

    def health(self) -> bool:
        try:
            return bool(self._db.connection.ping())
        except (redis.RedisError, OSError):
            return False

    def version(self) -> str:
        modules = self._call(lambda: self._db.connection.module_list())
        for module in modules:
            if module.get("name") == "graph":
                ver = int(module.get("ver", 0))
                return f"FalkorDB {ver // 10000}.{ver // 100 % 100}.{ver % 100}"
        return "FalkorDB (unknown version)"

    def clear(self) -> None:
        try:
            self._call(self._db.select_graph(self.name).delete)
        except redis.ResponseError as e:
            if _MISSING_GRAPH not in str(e):
                raise QueryFailed(f"FalkorDB could not delete graph {self.name}: {e}") from e
        logger.info("cleared FalkorDB graph %s", self.name)

    def close(self) -> None:
        from data_access.graph import forget_store

        forget_store(self)
        self._db.close()


# ---------------------------------------------------------------- result conversion


def _rows(result: QueryResult) -> list[Row]:
    names = [str(column[1]) for column in result.header]
    return [{n: _plain(v) for n, v in zip(names, row, strict=True)} for row in result.result_set]


def _plain(value: Any) -> Any:
    if isinstance(value, Node):
        return _node(value)
    if isinstance(value, Edge):
        return _edge(value)
    if isinstance(value, Path):
        return {
            "nodes": [_node(n) for n in value.nodes()],
            "relationships": [_edge(e) for e in value.edges()],
        }
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, datetime):
        # FalkorDB only has localdatetime; the client pins it to UTC. Drop that so the text is
        # the same as Neo4j's LocalDateTime ('2026-11-20T10:11:12').
        return value.replace(tzinfo=None).isoformat()
    return to_plain(value)


def _node(node: Node) -> Row:
    props = {k: _plain(v) for k, v in node.properties.items()}
    return {"_id": node.id, "_labels": list(node.labels or []), **props}


def _edge(edge: Edge) -> Row:
    start = edge.src_node.id if isinstance(edge.src_node, Node) else edge.src_node
    end = edge.dest_node.id if isinstance(edge.dest_node, Node) else edge.dest_node
    props = {k: _plain(v) for k, v in edge.properties.items()}
    return {"_id": edge.id, "_type": edge.relation, "_start": start, "_end": end, **props}
