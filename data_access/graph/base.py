"""The graph store interface: one `GraphStore`, two implementations (FalkorDB, Neo4j).

In the style of neo4j-graphrag-python: each public method validates its arguments and formats
the result; a private `_hook` does the backend work. Everything a caller gets back is plain
JSON-serializable Python (dicts keyed by column name, ISO date strings), identical in shape on
both backends, so pages, tools and tests never see driver records.

Error contract (all from `data_access.errors`):
- `QueryRejected`: a guard refused the query, or the store itself refused a write in a read.
- `QueryFailed`: the query reached the store and failed there (syntax, timeout, ...).
- `StoreUnavailable`: the store cannot be reached right now.
"""

from __future__ import annotations

import logging
import re
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from datetime import date, datetime, time
from decimal import Decimal
from typing import Any

from pydantic import BaseModel, Field

from data_access.errors import ToolInputError
from data_access.graph import cypher as q
from data_access.graph.cypher import INDEXES, NODE_KEYS, IndexSpec, NodeKeySpec, quote_name

logger = logging.getLogger(__name__)

Row = dict[str, Any]

# Labels, relationship types and property names we splice into DDL (index names, procedure
# arguments) must be plain identifiers: they cannot be passed as query parameters there.
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,62}$")
# Full-text terms: runs of letters/digits in any script (Hangul included), nothing else, so no
# query-syntax character of either engine (RediSearch, Lucene) ever reaches the index.
_TERM = re.compile(r"\w+", re.UNICODE)


# A Neo4j Cypher version prefix (`CYPHER 25 MATCH …`), which the guard accepts: FalkorDB has no
# versions (its `CYPHER name=value` sets parameters) and drops it; Neo4j wants it before EXPLAIN.
_VERSION_PREFIX = re.compile(r"^\s*(CYPHER\s+[0-9]{1,2}(?:\.[0-9]{1,2})?)\s+", re.IGNORECASE)


def split_version_prefix(cypher: str) -> tuple[str, str]:
    """``("CYPHER 25", "MATCH …")`` for a prefixed query, ``("", cypher)`` otherwise."""
    match = _VERSION_PREFIX.match(cypher)
    return (match.group(1), cypher[match.end() :]) if match else ("", cypher)


def check_identifier(value: str, what: str) -> str:
    """Return `value` if it is a safe label/property/type name, else raise ToolInputError."""
    if not isinstance(value, str) or not _IDENTIFIER.match(value):
        raise ToolInputError(f"{what} must be a plain identifier (letters, digits, _): {value!r}")
    return value


def fulltext_terms(text: str) -> list[str]:
    """Split free text into index terms; both backends match ANY of them, ranked by relevance."""
    return [t.lower() for t in _TERM.findall(text or "")]


def to_plain(value: Any) -> Any:
    """Scalars and containers shared by both drivers, made JSON-serializable.

    Backend graph types (nodes, relationships, paths, driver temporal types) are handled by each
    implementation before falling back here.
    """
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, (date, time)):
        return value.isoformat()
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, Mapping):
        return {str(k): to_plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_plain(v) for v in value]
    return str(value)


class LabelInfo(BaseModel):
    label: str
    count: int
    properties: list[str] = Field(default_factory=list)


class RelationshipInfo(BaseModel):
    """One direction-qualified relationship pattern: (from_label)-[:type]->(to_label)."""

    from_label: str
    type: str
    to_label: str
    count: int
    properties: list[str] = Field(default_factory=list)

    @property
    def pattern(self) -> str:
        return f"(:{self.from_label})-[:{self.type}]->(:{self.to_label})"


class GraphSchema(BaseModel):
    """What is in the graph: labels with counts and property keys, directed relationship types."""

    backend: str
    name: str
    labels: list[LabelInfo] = Field(default_factory=list)
    relationships: list[RelationshipInfo] = Field(default_factory=list)

    def node_count(self, label: str) -> int:
        return next((info.count for info in self.labels if info.label == label), 0)

    def relationship_count(self, rel_type: str) -> int:
        return sum(info.count for info in self.relationships if info.type == rel_type)

    def to_prompt(self) -> str:
        """A compact schema text for Text2Cypher prompts: nodes with properties, directed edges."""
        nodes = [f"(:{i.label} {{{', '.join(i.properties)}}})" for i in self.labels]
        edges = [
            i.pattern + (f" {{{', '.join(i.properties)}}}" if i.properties else "")
            for i in self.relationships
        ]
        return "Nodes:\n  " + "\n  ".join(nodes) + "\nRelationships:\n  " + "\n  ".join(edges)


class GraphStore(ABC):
    """One graph (FalkorDB graph key or Neo4j database) behind one interface."""

    backend: str
    name: str
    default_timeout_ms: int = 3000

    # ------------------------------------------------------------ queries

    def write(self, cypher: str, params: dict[str, Any] | None = None) -> list[Row]:
        """Our own trusted writes and DDL (never agent text)."""
        return self._write(_check_query(cypher), dict(params or {}))

    def write_batch(self, cypher: str, rows: Sequence[Row], batch_size: int = 5000) -> int:
        """Run `cypher` once per chunk of `rows`, bound as `$rows` (`UNWIND $rows AS row ...`).

        Returns the rows written: the sum of a returned `written` column when the statement
        returns one (so rows whose MATCH found nothing are not counted), else the rows sent.
        """
        _check_query(cypher)
        if "$rows" not in cypher:
            raise ToolInputError("write_batch needs a statement that reads $rows")
        if batch_size < 1:
            raise ToolInputError("batch_size must be at least 1")
        written = 0
        for start in range(0, len(rows), batch_size):
            chunk = list(rows[start : start + batch_size])
            result = self._write(cypher, {"rows": chunk})
            if result and "written" in result[0]:
                written += sum(int(r.get("written") or 0) for r in result)
            else:
                written += len(chunk)
        return written

    def read(
        self, cypher: str, params: dict[str, Any] | None = None, timeout_ms: int | None = None
    ) -> list[Row]:
        """Read-only execution enforced by the store itself (RO_QUERY / READ routing + EXPLAIN)."""
        timeout = self.default_timeout_ms if timeout_ms is None else int(timeout_ms)
        if timeout < 1:
            raise ToolInputError("timeout_ms must be positive")
        return self._read(_check_query(cypher), dict(params or {}), timeout)

    def run_guarded(
        self,
        cypher: str,
        params: dict[str, Any] | None = None,
        max_rows: int = 200,
        timeout_ms: int | None = None,
    ) -> list[Row]:
        """Agent/console Cypher: the text guard first (QueryRejected), then a read-only run."""
        from data_access.guards import guard_cypher  # parser-heavy: imported on first use

        guarded = guard_cypher(cypher, max_rows=max_rows, params=params)
        return self.read(guarded, params, timeout_ms)

    # ------------------------------------------------------------ indexes and search

    def ensure_indexes(self) -> None:
        """Create the lookup indexes/keys of seeds 000 and 004 §9.3; safe to call repeatedly."""
        for spec in INDEXES:
            self._ensure_index(spec)
        for key in NODE_KEYS:
            self._ensure_node_key(key)

    def create_vector_index(self, label: str, prop: str, dimension: int) -> None:
        """A cosine vector index on (label, prop); idempotent."""
        if dimension < 1:
            raise ToolInputError("dimension must be at least 1")
        self._create_vector_index(
            check_identifier(label, "label"), check_identifier(prop, "property"), dimension
        )

    def drop_vector_index(self, label: str, prop: str) -> None:
        """Remove the vector index on (label, prop) if there is one (a no-op otherwise)."""
        self._drop_vector_index(
            check_identifier(label, "label"), check_identifier(prop, "property")
        )

    def write_vectors(
        self, label: str, key_prop: str, vector_prop: str, rows: Sequence[Row]
    ) -> int:
        """Set `vector_prop` on nodes found by `key_prop`; rows are {"key": ..., "vector": [...]}.

        Vectors need a backend-specific type (FalkorDB `vecf32`): `_vector_value` wraps them.
        """
        for ident, what in ((label, "label"), (key_prop, "property"), (vector_prop, "property")):
            check_identifier(ident, what)
        cypher = (
            f"UNWIND $rows AS row "
            f"MATCH (n:{quote_name(label)} {{{quote_name(key_prop)}: row.key}}) "
            f"SET n.{quote_name(vector_prop)} = {self._vector_value('row.vector')} "
            "RETURN count(*) AS written"
        )
        return self.write_batch(cypher, list(rows), batch_size=500)

    def _vector_value(self, expression: str) -> str:
        """How a list of floats is stored as a vector (plain lists on Neo4j)."""
        return expression

    def vector_search(self, label: str, prop: str, vector: list[float], k: int) -> list[Row]:
        """Nearest nodes: [{"node": {...}, "score": s}], s in [0, 1], 1 = identical, best first."""
        if k < 1 or not vector:
            raise ToolInputError("vector_search needs a non-empty vector and k >= 1")
        hits = self._vector_search(
            check_identifier(label, "label"), check_identifier(prop, "property"),
            [float(x) for x in vector], int(k),
        )  # fmt: skip
        return sorted(hits, key=lambda h: h["score"], reverse=True)

    def create_fulltext_index(self, label: str, prop: str) -> None:
        """A full-text index on (label, prop); idempotent.

        Korean: index a pre-tokenized property (morphemes joined by spaces, e.g. from kiwipiepy),
        because both engines match whole whitespace-separated tokens ('삼성' does not match
        '삼성전자' unless the tokenizer split it).
        """
        self._create_fulltext_index(
            check_identifier(label, "label"), check_identifier(prop, "property")
        )

    def fulltext_search(self, label: str, prop: str, text: str, k: int) -> list[Row]:
        """Nodes matching ANY term of `text`: [{"node": {...}, "score": relevance}], best first.

        Scores are each engine's own relevance (higher is better), not comparable across backends.
        """
        terms = fulltext_terms(text)
        if k < 1:
            raise ToolInputError("k must be at least 1")
        if not terms:
            return []
        hits = self._fulltext_search(
            check_identifier(label, "label"), check_identifier(prop, "property"), terms, int(k)
        )
        return sorted(hits, key=lambda h: h["score"], reverse=True)[:k]

    # ------------------------------------------------------------ introspection

    def schema(self, timeout_ms: int = 30_000) -> GraphSchema:
        """Labels with counts and property keys, relationship types with direction and counts."""
        labels = [r["label"] for r in self.read(q.LIST_LABELS, timeout_ms=timeout_ms)]
        rel_types = [
            r["relationshipType"] for r in self.read(q.LIST_REL_TYPES, timeout_ms=timeout_ms)
        ]
        label_infos = [
            LabelInfo(
                label=label,
                count=int(self.read(q.count_label(label), timeout_ms=timeout_ms)[0]["n"]),
                properties=_keys(self.read(q.label_property_keys(label), timeout_ms=timeout_ms)),
            )
            for label in sorted(labels)
        ]
        rel_infos: list[RelationshipInfo] = []
        for rel_type in sorted(rel_types):
            props = _keys(self.read(q.rel_property_keys(rel_type), timeout_ms=timeout_ms))
            for r in self.read(q.rel_patterns(rel_type), timeout_ms=timeout_ms):
                rel_infos.append(
                    RelationshipInfo(
                        from_label=r["from_label"] or "",
                        type=rel_type,
                        to_label=r["to_label"] or "",
                        count=int(r["n"]),
                        properties=props,
                    )  # fmt: skip
                )
        return GraphSchema(
            backend=self.backend, name=self.name, labels=label_infos, relationships=rel_infos
        )

    @abstractmethod
    def health(self) -> bool:
        """True when the store answers right now (never raises)."""

    @abstractmethod
    def version(self) -> str:
        """Server product and version, e.g. 'FalkorDB 4.16.3' or 'Neo4j Kernel 5.26.0'."""

    @abstractmethod
    def clear(self) -> None:
        """Delete every node and relationship of this graph (missing graph: nothing to do)."""

    @abstractmethod
    def close(self) -> None:
        """Release connections; the factory forgets this store."""

    # ------------------------------------------------------------ backend hooks

    @abstractmethod
    def _write(self, cypher: str, params: dict[str, Any]) -> list[Row]: ...

    @abstractmethod
    def _read(self, cypher: str, params: dict[str, Any], timeout_ms: int) -> list[Row]: ...

    @abstractmethod
    def _ensure_index(self, spec: IndexSpec) -> None: ...

    @abstractmethod
    def _ensure_node_key(self, spec: NodeKeySpec) -> None:
        """Hold `spec` unique (composite key, seed 004 §9.3-1); idempotent."""

    @abstractmethod
    def _create_vector_index(self, label: str, prop: str, dimension: int) -> None: ...

    @abstractmethod
    def _drop_vector_index(self, label: str, prop: str) -> None: ...

    @abstractmethod
    def _vector_search(self, label: str, prop: str, vector: list[float], k: int) -> list[Row]: ...

    @abstractmethod
    def _create_fulltext_index(self, label: str, prop: str) -> None: ...

    @abstractmethod
    def _fulltext_search(self, label: str, prop: str, terms: list[str], k: int) -> list[Row]: ...

    def __repr__(self) -> str:
        return f"<{type(self).__name__} backend={self.backend} name={self.name}>"


def _check_query(cypher: str) -> str:
    if not isinstance(cypher, str) or not cypher.strip():
        raise ToolInputError("empty Cypher query")
    return cypher


def _keys(rows: list[Row]) -> list[str]:
    return sorted({str(r["key"]) for r in rows if r.get("key") is not None})
