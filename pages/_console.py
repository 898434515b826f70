"""The Data screen's read-only query console, without Streamlit: what the "실행" button runs.

    result = run_sql(text, max_rows=200, pool=pool)          # or run_cypher(text, store=store)
    result["error"]  # a Korean sentence, or None and result["rows"]

The typed text goes through the shared input check (`agents.inputs`: control characters out,
empty and oversized text refused in Korean) and then the guards (`data_access.guards`) and the
stores' own read-only execution. Nothing raises: every failure comes back as `error`.
"""

from __future__ import annotations

import logging
import time
from typing import Any, Literal, TypedDict

from psycopg_pool import ConnectionPool

from agents.inputs import check_text
from data_access.errors import QueryFailed, QueryRejected
from data_access.graph.base import GraphStore
from data_access.guard_reasons import korean_reason
from data_access.guards import MAX_QUERY_CHARS
from data_access.postgres import run_read_only
from pages import _ui as ui

logger = logging.getLogger(__name__)

Language = Literal["SQL", "Cypher"]
MAX_ROWS = 1000


class ConsoleResult(TypedDict):
    """Kept in session_state as a plain dict: page scripts re-execute, their classes do not persist."""

    language: Language
    rows: list[dict[str, Any]]
    elapsed_ms: float
    error: str | None


def result(language: Language, rows: list[dict[str, Any]], elapsed_ms: float,
           error: str | None) -> ConsoleResult:  # fmt: skip
    return {"language": language, "rows": rows, "elapsed_ms": elapsed_ms, "error": error}


def run_sql(query: object, *, max_rows: int = 200, pool: ConnectionPool | None) -> ConsoleResult:
    if pool is None:
        return result("SQL", [], 0.0, "PostgreSQL에 연결할 수 없습니다.")
    return _run("SQL", query, lambda text, n: run_read_only(text, max_rows=n, pool=pool), max_rows)


def run_cypher(query: object, *, max_rows: int = 200, store: GraphStore | None) -> ConsoleResult:
    if store is None:
        return result("Cypher", [], 0.0, "그래프 저장소에 연결할 수 없습니다.")
    return _run("Cypher", query, lambda text, n: store.run_guarded(text, max_rows=n), max_rows)


def _run(language: Language, query: object, execute: Any, max_rows: int) -> ConsoleResult:
    checked = check_text(query, what="쿼리", max_chars=MAX_QUERY_CHARS)
    if checked.problem:
        return result(language, [], 0.0, checked.problem)
    started = time.perf_counter()
    try:
        rows = execute(checked.text, min(max(int(max_rows), 1), MAX_ROWS))
    except Exception as e:  # guard rejections and store errors are shown, never raised
        logger.info("console %s query failed: %s", language, e)
        return result(language, [], 0.0, console_message(e))
    return result(language, rows, (time.perf_counter() - started) * 1000, None)


def console_message(error: BaseException) -> str:
    """What the console says about a refused or failed query, in Korean; a reason no rule
    knows is kept verbatim in a code span after a Korean sentence."""
    if isinstance(error, QueryRejected | QueryFailed):
        reason = error.reason if isinstance(error, QueryRejected) else str(error)
        korean = korean_reason(reason)
        head = "쿼리가 거부되었습니다 (읽기 전용 검사)" if isinstance(error, QueryRejected) else (
            "쿼리 실행 중 오류가 발생했습니다")  # fmt: skip
        return f"{head}: {korean}" if korean else f"{head}. 원문: `{reason}`"
    return ui.error_message(error)
