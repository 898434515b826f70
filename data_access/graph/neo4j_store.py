"""Neo4j implementation of `GraphStore`, with the official `neo4j` driver (6.x).

Every query names its database. Reads are routed READ (a read-access transaction, refused by the
server for writes) and first pass an `EXPLAIN` gate: the plan's query type must be 'r'.
Timeouts are transaction timeouts set on the `Query`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

from neo4j import GraphDatabase, Query, Result, RoutingControl
from neo4j import exceptions as neo4j_errors
from neo4j import graph as neo4j_graph
from neo4j import time as neo4j_time
from neo4j import vector as neo4j_vector

from data_access.errors import QueryFailed, QueryRejected, StoreUnavailable
from data_access.graph.base import GraphStore, Row, split_version_prefix, to_plain
from data_access.graph.cypher import IndexSpec, NodeKeySpec, quote_name

logger = logging.getLogger(__name__)

T = TypeVar("T")

_CLEAR_BATCH = 10_000
_INDEX_WAIT_S = 300


class Neo4jStore(GraphStore):
    backend = "neo4j"

    def __init__(
        self,
        uri: str,
        user: str,
        password: str | None,
        database: str = "neo4j",
        *,
        default_timeout_ms: int = 3000,
        retry_time_s: float = 5.0,
    ) -> None:
        self.uri = uri
        self.name = database
        self.default_timeout_ms = default_timeout_ms
        auth = (user, password) if password is not None else None
        # The driver retries a failed managed transaction for 30 s by default; an analyst
        # waiting on an answer is better served by a StoreUnavailable after a few seconds.
        self._driver = GraphDatabase.driver(
            uri, auth=auth, connection_timeout=5.0, max_transaction_retry_time=retry_time_s
        )

    # ------------------------------------------------------------ execution

    def _run(
        self,
        query: str | Query,
        params: dict[str, Any],
        routing: RoutingControl,
        transform: Callable[[Result], T],
    ) -> T:
        """One managed transaction; driver errors become workbench errors."""
        read_only = routing == RoutingControl.READ
        try:
            return self._driver.execute_query(
                query, params, routing_=routing, database_=self.name, result_transformer_=transform
            )
        except (neo4j_errors.ServiceUnavailable, neo4j_errors.SessionExpired, OSError) as e:
            raise StoreUnavailable(
                f"Neo4j at {self.uri} is not reachable ({e})", store="graph"
            ) from e
        except neo4j_errors.AuthError as e:
            raise StoreUnavailable(
                f"Neo4j at {self.uri} refused the credentials ({e})", store="graph"
            ) from e
        except neo4j_errors.Neo4jError as e:
            code = e.code or ""
            if read_only and ("AccessMode" in code or "Forbidden" in code):
                raise QueryRejected(
                    "the graph store refused the query: only read-only queries are allowed"
                ) from e
            if "TimedOut" in code:
                raise QueryFailed(f"query timed out ({e.message})") from e
            raise QueryFailed(e.message or str(e)) from e
        except neo4j_errors.DriverError as e:
            raise QueryFailed(f"Neo4j driver error: {e}") from e

    def _write(self, cypher: str, params: dict[str, Any]) -> list[Row]:
        return self._run(cypher, params, RoutingControl.WRITE, _collect)

    def _read(self, cypher: str, params: dict[str, Any], timeout_ms: int) -> list[Row]:
        self._explain_gate(cypher, params)
        query = Query(cypher, timeout=timeout_ms / 1000.0)
        return self._run(query, params, RoutingControl.READ, _collect)

    def _explain_gate(self, cypher: str, params: dict[str, Any]) -> None:
        """Refuse anything the planner does not classify as read-only ('r')."""
        prefix, body = split_version_prefix(cypher)  # options come before EXPLAIN
        summary = self._run(f"{prefix} EXPLAIN {body}".strip(), params, RoutingControl.READ,
                            Result.consume)  # fmt: skip
        if summary.query_type != "r":
            raise QueryRejected(
                f"the graph store plans this query as '{summary.query_type}', not read-only"
            )

    # ------------------------------------------------------------ indexes and search

    def _ensure_index(self, spec: IndexSpec) -> None:
        label, prop = spec.label, spec.prop
        name = f"{label}_{prop}_{'key' if spec.unique else 'idx'}".lower()
        target = f"(n:{quote_name(label)})"
        if spec.unique:
            ddl = (
                f"CREATE CONSTRAINT {name} IF NOT EXISTS FOR {target} "
                f"REQUIRE n.{quote_name(prop)} IS UNIQUE"
            )
        else:
            ddl = f"CREATE INDEX {name} IF NOT EXISTS FOR {target} ON (n.{quote_name(prop)})"
        self._write(ddl, {})

    def _ensure_node_key(self, spec: NodeKeySpec) -> None:
        target = f"(n:{quote_name(spec.label)})"
        props = ", ".join(f"n.{quote_name(p)}" for p in spec.props)
        name = f"{spec.label}_{'_'.join(spec.props)}_key".lower()
        self._write(
            f"CREATE CONSTRAINT {name} IF NOT EXISTS FOR {target} REQUIRE ({props}) IS UNIQUE", {}
        )
        joined = f"{spec.label}_{spec.key_prop}_key".lower()
        self._write(
            f"CREATE CONSTRAINT {joined} IF NOT EXISTS FOR {target} "
            f"REQUIRE n.{quote_name(spec.key_prop)} IS UNIQUE",
            {},
        )

    def _create_vector_index(self, label: str, prop: str, dimension: int) -> None:
        self._write(
            f"CREATE VECTOR INDEX {_vector_index(label, prop)} IF NOT EXISTS "
            f"FOR (n:{quote_name(label)}) ON (n.{quote_name(prop)}) "
            f"OPTIONS {{indexConfig: {{`vector.dimensions`: {int(dimension)}, "
            "`vector.similarity_function`: 'cosine'}}",
            {},
        )
        self._await_indexes()

    def _drop_vector_index(self, label: str, prop: str) -> None:
        self._write(f"DROP INDEX {_vector_index(label, prop)} IF EXISTS", {})

    def _create_fulltext_index(self, label: str, prop: str) -> None:
        self._write(
            f"CREATE FULLTEXT INDEX {_fulltext_index(label, prop)} IF NOT EXISTS "
            f"FOR (n:{quote_name(label)}) ON EACH [n.{quote_name(prop)}]",
            {},
        )
        self._await_indexes()

    def _await_indexes(self) -> None:
        # New indexes populate in the background; searching before they are ONLINE fails.
        self._write(f"CALL db.awaitIndexes({_INDEX_WAIT_S})", {})

    def _vector_search(self, label: str, prop: str, vector: list[float], k: int) -> list[Row]:
        rows = self.read(
            "CALL db.index.vector.queryNodes($index, $k, $vector) YIELD node, score "
            "RETURN node, score",
            {"index": _vector_index(label, prop), "k": k, "vector": vector},
        )
        # Neo4j's cosine score is already (1 + cos) / 2 in [0, 1], 1 = identical.
        return [{"node": r["node"], "score": float(r["score"])} for r in rows]

    def _fulltext_search(self, label: str, prop: str, terms: list[str], k: int) -> list[Row]:
        # Lucene syntax: OR between plain lower-case terms (no operators, no special characters).
        rows = self.read(
            "CALL db.index.fulltext.queryNodes($index, $query) YIELD node, score "
            "RETURN node, score ORDER BY score DESC LIMIT $k",
            {"index": _fulltext_index(label, prop), "query": " OR ".join(terms), "k": k},
        )
        return [{"node": r["node"], "score": float(r["score"])} for r in rows]

    # ------------------------------------------------------------ lifecycle

    def health(self) -> bool:
        try:
            self._driver.verify_connectivity()
        except (neo4j_errors.Neo4jError, neo4j_errors.DriverError, OSError):
            return False
        return True

    def version(self) -> str:
        rows = self._run(
            "CALL dbms.components() YIELD name, versions, edition "
            "RETURN name, versions[0] AS version, edition",
            {}, RoutingControl.READ, _collect,
        )  # fmt: skip
        if not rows:
            return "Neo4j (unknown version)"
        return f"{rows[0]['name']} {rows[0]['version']} {rows[0]['edition']}"

    def clear(self) -> None:
        """Batched DETACH DELETE so one huge transaction does not exhaust server memory.

        Indexes and constraints stay (unlike FalkorDB's graph delete); ensure_indexes is idempotent.
        """
        while True:
            rows = self._write(
                "MATCH (n) WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS deleted",
                {"batch": _CLEAR_BATCH},
            )
            if not rows or int(rows[0]["deleted"]) == 0:
                break
        logger.info("cleared Neo4j database %s", self.name)

    def close(self) -> None:
        from data_access.graph import forget_store

        forget_store(self)
        self._driver.close()


def neo4j_reachable(uri: str, user: str, password: str | None) -> bool:
    """One connectivity check with a throw-away driver (for health displays)."""
    auth = (user, password) if password is not None else None
    try:
        with GraphDatabase.driver(uri, auth=auth, connection_timeout=3.0) as driver:
            driver.verify_connectivity()
    except (neo4j_errors.Neo4jError, neo4j_errors.DriverError, OSError, ValueError):
        return False
    return True


def _vector_index(label: str, prop: str) -> str:
    return f"{label}_{prop}_vector".lower()


def _fulltext_index(label: str, prop: str) -> str:
    return f"{label}_{prop}_fulltext".lower()


# ---------------------------------------------------------------- result conversion


def _collect(result: Result) -> list[Row]:
    keys = list(result.keys())
    return [{k: _plain(record[k]) for k in keys} for record in result]


def _plain(value: Any) -> Any:
    if isinstance(value, neo4j_graph.Node):
        return _node(value)
    if isinstance(value, neo4j_graph.Relationship):
        return _relationship(value)
    if isinstance(value, neo4j_graph.Path):
        return {
            "nodes": [_node(n) for n in value.nodes],
            "relationships": [_relationship(r) for r in value.relationships],
        }
    if isinstance(value, neo4j_time.Date):
        return value.iso_format()
    if isinstance(value, (neo4j_time.DateTime, neo4j_time.Time)):
        return value.to_native().isoformat()
    if isinstance(value, neo4j_time.Duration):
        return value.iso_format()
    if isinstance(value, neo4j_vector.Vector):
        return [_plain(v) for v in value.to_native()]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return to_plain(value)


def _node(node: neo4j_graph.Node) -> Row:
    props = {k: _plain(v) for k, v in node.items()}
    return {"_id": node.element_id, "_labels": sorted(node.labels), **props}


def _relationship(rel: neo4j_graph.Relationship) -> Row:
    start, end = rel.start_node, rel.end_node
    props = {k: _plain(v) for k, v in rel.items()}
    return {
        "_id": rel.element_id,
        "_type": rel.type,
        "_start": start.element_id if start is not None else None,
        "_end": end.element_id if end is not None else None,
        **props,
    }
