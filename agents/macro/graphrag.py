"""Hybrid GraphRAG over the macro documents (seed 004 §3.A, §3.F-2, §9.3-3).

    result = graphrag_search("주택담보대출 한도를 묶은 규제", ctx)
    # vector top-k on (:Document {text_embedding}) → guarded Cypher expansion
    # (Evidence)-[:FROM_DOCUMENT]->(Document), (Evidence)-[:SUPPORTS]->(Event)-[:AFFECTS]->(target)

The document vectors (title + body from PostgreSQL, embedded locally unless an embedding model is
configured) are written onto the graph's Document nodes the first time they are needed, with a
fingerprint of the corpus and the embedder on every node, so later turns (and other processes)
only check the fingerprint; a changed document set rebuilds them. Any failure raises: the
Ontology agent then degrades to Cypher + metadata search and says why.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from dataclasses import dataclass, field
from typing import Any

from agents.evidence import Stopwatch
from agents.macro.router import Route
from agents.macro.state import AgentResponse, RunContext
from agents.macro.tools import lang_text
from data_access.config import Settings
from data_access.contracts import TraceStep
from data_access.embeddings import Embedder, LiteLLMEmbedder, NgramSvdEmbedder
from data_access.errors import QueryFailed, StoreUnavailable, ToolInputError, WorkbenchError
from data_access.graph.base import GraphStore
from data_access.postgres import fetch_all, fetch_one

logger = logging.getLogger(__name__)

INDEX_NAME = "document_text_embedding_idx"
LABEL, KEY_PROP = "Document", "doc_id"
VECTOR_PROP, FINGERPRINT_PROP = "text_embedding", "text_embedding_fp"
DOC_COMPONENTS = 128  # LSA dimensions: 64 blurred the few policy documents among 343
TOP_K = 5
PROBE_K = 20
CORPUS_STAT_SQL = (
    "SELECT count(*) AS n, md5(coalesce(string_agg(doc_id || title || body, '|' "
    "ORDER BY doc_id), '')) AS h FROM documents"
)
CORPUS_SQL = "SELECT doc_id, title, body FROM documents ORDER BY doc_id"
READY_CYPHER = (
    "MATCH (d:Document) RETURN count(d) AS n, count(d.text_embedding) AS with_vector, "
    "sum(CASE WHEN d.text_embedding_fp = $fp THEN 1 ELSE 0 END) AS same_fp"
)
WRITE_FINGERPRINT = (
    "UNWIND $rows AS row MATCH (d:Document {doc_id: row.key}) "
    "SET d.text_embedding_fp = row.fp RETURN count(*) AS written"
)
EXPAND_CYPHER = (
    "MATCH (d:Document) WHERE d.doc_id IN $doc_ids AND substring(d.published_at, 0, 10) <= $as_of "
    "MATCH (v:Evidence)-[:FROM_DOCUMENT]->(d) MATCH (v)-[:SUPPORTS]->(e:Event) "
    "OPTIONAL MATCH (e)-[:AFFECTS]->(t) RETURN d.doc_id AS doc_id, d.title AS title, "
    "d.url AS url, substring(d.published_at, 0, 10) AS day, e.event_id AS event_id, "
    "e.title AS event_title, e.event_date AS event_date, e.theme AS theme, "
    "coalesce(t.indicator_code, t.security_id) AS target, v.evidence_id AS evidence_id, "
    "v.text AS text"
)


@dataclass
class DocumentIndex:
    """A fitted embedder whose vectors are on the graph's Document nodes."""

    embedder: Embedder
    fingerprint: str
    doc_count: int
    dimension: int
    probes: list[tuple[str, list[float]]] = field(default_factory=list)  # spread over the corpus
    built_now: bool = False


@dataclass
class DocumentHit:
    doc_id: str
    title: str
    url: str | None
    score: float


@dataclass
class GraphRagResult:
    hits: list[DocumentHit]
    rows: list[dict[str, Any]]  # evidence rows in the order of the document hits
    index: DocumentIndex
    query: str = EXPAND_CYPHER
    timings_ms: dict[str, int] = field(default_factory=dict)


_INDEXES: dict[int, DocumentIndex] = {}
_BROKEN: dict[int, str] = {}  # store → the fingerprint a rebuild could not make searchable
_LOCK = threading.Lock()


def make_document_embedder(settings: Settings) -> Embedder:
    """A litellm embedding model when configured, else the local n-gram LSA embedder."""
    model = settings.model_for("embedding")
    if model:
        from agents.llm import litellm_kwargs

        return LiteLLMEmbedder(model, litellm_kwargs(model, settings))
    return NgramSvdEmbedder(max_components=DOC_COMPONENTS)


def ensure_document_index(ctx: RunContext) -> DocumentIndex:
    """Vectors on the Document nodes and the vector index, built once per corpus + embedder."""
    store = _store(ctx)
    with _LOCK:
        embedder = make_document_embedder(ctx.settings)
        stat = fetch_one(CORPUS_STAT_SQL, pool=ctx.pool) or {"n": 0, "h": ""}
        if not stat["n"]:
            raise ToolInputError("문서가 없어 벡터 인덱스를 만들 수 없습니다")
        fp = hashlib.sha1(f"{embedder.name}|{DOC_COMPONENTS}|{stat['h']}".encode()).hexdigest()
        if (
            _BROKEN.get(id(store)) == fp
        ):  # a rebuild already failed in this process: no retry per turn
            raise QueryFailed(
                f"문서 벡터 인덱스({INDEX_NAME})를 쓸 수 없습니다: 다시 만들어도 검색이 맞지 않습니다"
            )
        cached = _INDEXES.get(id(store))
        index = cached if cached and cached.fingerprint == fp else None
        if index is None:
            index = _fit(embedder, fp, ctx)
        index.built_now = False
        if not _graph_ready(store, fp):
            _build(store, index, ctx)
        if _index_problem(store, index):
            _reindex(store, index)
        if _index_problem(store, index):  # the stored vectors themselves are not this index's
            store.drop_vector_index(LABEL, VECTOR_PROP)  # vectors written under no index
            _build(store, index, ctx)
            problem = _index_problem(store, index)
            if problem:
                _BROKEN[id(store)] = fp
                raise QueryFailed(f"문서 벡터 인덱스({INDEX_NAME})를 쓸 수 없습니다: {problem}")
        _INDEXES[id(store)] = index
        return index


def graphrag_search(question: str, ctx: RunContext, k: int = TOP_K) -> GraphRagResult:
    """Vector top-k documents (published by the as-of date) and their events and targets."""
    store = _store(ctx)
    watch = Stopwatch()
    index = ensure_document_index(ctx)
    timings = {"index": watch.ms}
    watch = Stopwatch()
    vector = index.embedder.embed([question])[0].tolist()
    found = store.vector_search(LABEL, VECTOR_PROP, vector, k * 4)
    hits = [
        DocumentHit(str(h["node"]["doc_id"]), str(h["node"].get("title") or ""),
                    h["node"].get("url"), round(float(h["score"]), 4))
        for h in found
        if str(h["node"].get("published_at") or "")[:10] <= ctx.as_of_date
    ][:k]  # fmt: skip
    timings["vector"] = watch.ms
    watch = Stopwatch()
    rows: list[dict[str, Any]] = []
    if hits:
        params = {"doc_ids": [h.doc_id for h in hits], "as_of": ctx.as_of_date}
        rows = store.run_guarded(EXPAND_CYPHER, params, max_rows=200)
        rank = {h.doc_id: i for i, h in enumerate(hits)}
        rows.sort(key=lambda r: (rank.get(str(r["doc_id"]), k), str(r.get("evidence_id"))))
    timings["expand"] = watch.ms
    return GraphRagResult(hits=hits, rows=rows, index=index, timings_ms=timings)


def _store(ctx: RunContext) -> GraphStore:
    if ctx.store is None:
        raise StoreUnavailable("그래프 저장소가 연결되어 있지 않습니다")
    return ctx.store


def _fit(embedder: Embedder, fp: str, ctx: RunContext) -> DocumentIndex:
    rows = fetch_all(CORPUS_SQL, pool=ctx.pool)
    texts = [f"{r['title']}\n{r['body']}" for r in rows]
    embedder.fit(texts)
    picked = sorted({0, len(rows) // 3, 2 * len(rows) // 3, len(rows) - 1})
    vectors = embedder.embed([texts[i] for i in picked])
    return DocumentIndex(embedder=embedder, fingerprint=fp, doc_count=len(rows),
                         dimension=int(vectors.shape[1]),
                         probes=[(rows[i]["doc_id"], v.tolist())
                                 for i, v in zip(picked, vectors, strict=True)])  # fmt: skip


def _graph_ready(store: GraphStore, fp: str) -> bool:
    """Every Document node has a vector of this corpus + embedder (new nodes → rebuild)."""
    row = store.read(READY_CYPHER, {"fp": fp})[0]
    n, with_vector, same = (int(row[c] or 0) for c in ("n", "with_vector", "same_fp"))
    return n > 0 and with_vector == n and same == n


def _index_problem(store: GraphStore, index: DocumentIndex) -> str | None:
    """A probe query must return a full top-k: a missing index raises, and a FalkorDB index
    whose nodes were updated after it was built (a projection re-run) returns too few."""
    try:
        found = store.vector_search(LABEL, VECTOR_PROP, index.probes[0][1], PROBE_K)
    except WorkbenchError as e:
        return str(e)
    wanted = min(PROBE_K, index.doc_count)
    if len(found) < wanted:
        return f"probe top-{wanted} returned {len(found)}"
    # an HNSW graph that lost its neighbours still returns k nodes, the wrong ones (measured on
    # a long-lived home: 3 of 4 documents did not find themselves): each probe finds its own
    for doc_id, vector in index.probes:
        top = store.vector_search(LABEL, VECTOR_PROP, vector, 1)
        if not top or top[0]["node"].get(KEY_PROP) != doc_id:
            return f"probe {doc_id} is not its own nearest document"
    return None


def _reindex(store: GraphStore, index: DocumentIndex) -> None:
    """Drop and recreate the index over the stored vectors. FalkorDB's HNSW index loses neighbours
    when indexed vectors are overwritten (measured: a top-20 query returned 5 nodes after one
    rewrite), so a rebuild starts from a fresh index on both backends."""
    store.drop_vector_index(LABEL, VECTOR_PROP)
    store.create_vector_index(LABEL, VECTOR_PROP, index.dimension)
    index.built_now = True


def _build(store: GraphStore, index: DocumentIndex, ctx: RunContext) -> None:
    watch = Stopwatch()
    rows = fetch_all(CORPUS_SQL, pool=ctx.pool)
    vectors = index.embedder.embed([f"{r['title']}\n{r['body']}" for r in rows])
    payload = [
        {"key": r["doc_id"], "vector": v.tolist()} for r, v in zip(rows, vectors, strict=True)
    ]
    store.write_vectors(LABEL, KEY_PROP, VECTOR_PROP, payload)
    store.create_vector_index(LABEL, VECTOR_PROP, index.dimension)
    # The fingerprint goes last: a half-written build is never mistaken for a finished one.
    store.write_batch(WRITE_FINGERPRINT, [{"key": r["doc_id"], "fp": index.fingerprint}
                                          for r in rows])  # fmt: skip
    index.built_now = True
    logger.info("document vectors built: %s docs, dim %s, %s ms", len(rows), index.dimension,
                watch.ms)  # fmt: skip


def graphrag_evidence(route: Route, ctx: RunContext, resp: AgentResponse
                      ) -> list[dict[str, Any]] | None:  # fmt: skip
    """GraphRAG as an agent step (trace + key point); None when the vector path is unavailable,
    with the reason recorded, so the caller degrades to Cypher + metadata search (§3.F-2)."""
    watch = Stopwatch()
    try:
        result = graphrag_search(route.question, ctx)
    except Exception as e:
        # Embedder backends (sklearn, litellm) raise their own types; whatever fails, the turn must degrade to the Cypher path, never crash.
        logger.warning("GraphRAG unavailable: %s", e)
        resp.trace.append(TraceStep(step=len(resp.trace) + 1, kind="tool",
                                    name=f"vector:{INDEX_NAME}", status="error", error=str(e),
                                    duration_ms=watch.ms))  # fmt: skip
        resp.uncertainty.append(lang_text(
            route.language, f"벡터 인덱스를 쓸 수 없어 Cypher+메타데이터 검색으로 대체했습니다: {e}",
            f"Vector index unavailable, fell back to Cypher + metadata search: {e}"))  # fmt: skip
        return None
    index = result.index
    resp.trace.append(TraceStep(
        step=len(resp.trace) + 1, kind="tool", name=f"vector:{INDEX_NAME}",
        arguments={"label": LABEL, "property": VECTOR_PROP, "k": TOP_K,
                   "embedder": index.embedder.name, "dimension": index.dimension,
                   "built_now": index.built_now, "as_of": ctx.as_of_date},
        observation=", ".join(f"{h.doc_id} ({h.score:.3f})" for h in result.hits) or "0 hits",
        duration_ms=result.timings_ms.get("index", 0) + result.timings_ms.get("vector", 0),
    ))  # fmt: skip
    if result.hits:
        resp.trace.append(TraceStep(
            step=len(resp.trace) + 1, kind="tool", name="cypher:graphrag_expand",
            code=result.query, arguments={"doc_ids": [h.doc_id for h in result.hits],
                                          "as_of": ctx.as_of_date},
            observation=f"{len(result.rows)} rows", duration_ms=result.timings_ms.get("expand", 0),
        ))  # fmt: skip
        titles = ", ".join(f"'{h.title}'({h.score:.2f})" for h in result.hits[:3])
        resp.key_points.append(lang_text(
            route.language, f"문서 벡터 검색 상위 문서: {titles}",
            f"Top documents by vector search: {titles}"))  # fmt: skip
    return result.rows
