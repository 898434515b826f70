"""The guard suite: the hostile corpora through the real guarded paths (seed 004 §3.D, §6).

Paths (`inputs.path` of a guard case):
- `guard_cypher`: the Cypher text guard alone (`data_access.guards.guard_cypher`).
- `etf_graph_query`: the ETF chat's `graph_query` tool, as the CodeAgent calls it.
- `graph_store`: `GraphStore.run_guarded` — the guard, then the store's read-only execution.
- `sql_read_only`: `data_access.postgres.run_read_only` — the SQL guard, then a READ ONLY
  transaction.
A query counts as blocked when the path refuses it (guard or store) or fails without running;
it is a bypass when the path returns rows. The graph's node/relationship counts (or the
database's table list and key row counts) are compared before and after.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from agents.eval.cases import corpus_path
from agents.eval.models import CaseResult, GoldenCase, GuardStats, Problem
from data_access.errors import QueryFailed, QueryRejected, ToolInputError

STORE_REFUSAL = "the graph store refused"
GRAPH_COUNTS = "MATCH (n) OPTIONAL MATCH (n)-[r]->() RETURN count(DISTINCT n) AS n, count(r) AS r"
SQL_COUNTS = (
    "SELECT (SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema())"
    " AS tables, (SELECT count(*) FROM etfs) AS etfs, (SELECT count(*) FROM stocks) AS stocks"
)
PATHS = ("guard_cypher", "etf_graph_query", "graph_store", "sql_read_only")


def load_corpus(name: str) -> list[str]:
    rows = json.loads(corpus_path(name).read_text(encoding="utf-8"))
    return [str(r["query"]) for r in rows]


def run_guard_case(case: GoldenCase, env: Any) -> GuardStats:
    """Send every corpus query through the case's path; `env` is the runner's EvalEnv."""
    path = str(case.inputs.get("path", ""))
    if path not in PATHS:
        raise ToolInputError(f"알 수 없는 가드 경로: {path} (가능: {', '.join(PATHS)})")
    corpus = load_corpus(str(case.inputs.get("corpus", "hostile_cypher.json")))
    language = "sql" if path == "sql_read_only" else "cypher"
    stats = GuardStats(language=language, path=path)
    attempt, snapshot = _path(path, env)
    before = snapshot() if snapshot else None
    for query in corpus:
        stats.attempted += 1
        layer = attempt(query)
        if layer is None:
            stats.bypassed.append(query[:200])
        else:
            stats.blocked += 1
            stats.blocked_by[layer] = stats.blocked_by.get(layer, 0) + 1
    if snapshot is not None:
        stats.store_unchanged = snapshot() == before
    return stats


Attempt = Callable[[str], str | None]  # query → blocking layer, or None when it ran


def _path(path: str, env: Any) -> tuple[Attempt, Callable[[], Any] | None]:
    if path == "guard_cypher":
        return _text_guard, None
    if path == "etf_graph_query":
        return _etf_tool(env), lambda: env.store.read(GRAPH_COUNTS)
    if path == "graph_store":
        return (lambda q: _store_attempt(env, q)), lambda: env.store.read(GRAPH_COUNTS)
    return (lambda q: _sql_attempt(env, q)), lambda: _sql_counts(env)


def _text_guard(query: str) -> str | None:
    from data_access.guards import guard_cypher

    try:
        guard_cypher(query)
    except QueryRejected:
        return "guard"
    return None


def _etf_tool(env: Any) -> Attempt:
    from agents.etf.tools import GraphQueryTool, ToolContext
    from agents.evidence import EvidenceCollector

    tool = GraphQueryTool(ToolContext(store=env.store, pool=env.pool,
                                      collector=EvidenceCollector()))  # fmt: skip

    def attempt(query: str) -> str | None:
        result = json.loads(tool(cypher=query))
        if not (isinstance(result, dict) and result.get("status") == "error"):
            return None
        error = str(result.get("error"))
        if STORE_REFUSAL in error:
            return "store"
        return "guard" if "거부" in error else "tool_error"

    return attempt


def _store_attempt(env: Any, query: str) -> str | None:
    try:
        env.store.run_guarded(query)
    except QueryRejected as e:
        return "store" if STORE_REFUSAL in e.reason else "guard"
    except (QueryFailed, ToolInputError):
        return "store_error"
    return None


def _sql_attempt(env: Any, query: str) -> str | None:
    from data_access.postgres import run_read_only

    try:
        run_read_only(query, pool=env.pool)
    except QueryRejected:
        return "guard"
    except QueryFailed:
        return "store_error"  # e.g. "cannot execute ... in a read-only transaction"
    return None


def _sql_counts(env: Any) -> Any:
    from data_access.postgres import fetch_one

    return fetch_one(SQL_COUNTS, pool=env.pool)


def guard_result(case: GoldenCase, stats: GuardStats, latency_ms: int) -> CaseResult:
    problems: list[Problem] = []
    if stats.bypassed:
        shown = "; ".join(stats.bypassed[:3])
        problems.append(Problem(category="guard_bypass",
                                message=f"금지 쿼리 {len(stats.bypassed)}건이 실행됨: {shown}"))  # fmt: skip
    if stats.store_unchanged is False:
        problems.append(Problem(category="guard_bypass", message="저장소 내용이 바뀌었습니다"))
    if stats.attempted == 0:
        problems.append(Problem(category="error", message="코퍼스가 비어 있습니다"))
    return CaseResult(
        suite=case.suite, case_id=case.id, question=case.question, passed=not problems,
        failure_category=problems[0].category if problems else None, problems=problems,
        status="ok", latency_ms=latency_ms, guard=stats,
        answer_excerpt=f"{stats.blocked}/{stats.attempted} blocked ({stats.blocked_by})",
    )  # fmt: skip


__all__ = ["PATHS", "guard_result", "load_corpus", "run_guard_case"]
