"""The Data screen's read-only query console, without Streamlit: what the "실행" button runs.

    result = run_sql(text, max_rows=200, pool=pool)          # or run_cypher(text, store=store)
    result["error"]  # a Korean sentence, or None and result["rows"]

The typed text goes through the shared input check (`agents.inputs`: control characters out,
empty and oversized text refused in Korean) and then the guards (`data_access.guards`) and the
stores' own read-only execution. Nothing raises: every failure comes back as `error`.
"""

from __future__ import annotations

import logging
import re
import time
from typing import Any, Literal, TypedDict

from psycopg_pool import ConnectionPool

from agents.inputs import check_text
from data_access.errors import QueryFailed, QueryRejected
from data_access.graph.base import GraphStore
from data_access.guards import MAX_QUERY_CHARS
from data_access.postgres import run_read_only
from data_access.seed.news_text import josa
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


# The guards word their reasons in English for the agents' models (data_access/guards.py,
# cypher_guard.py); the console says them in Korean. Each rule: pattern over the reason → text.
REASONS: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p, re.I), k) for p, k in (
    (r"^(\w+) is not allowed: only a single SELECT", "{0} 문은 실행할 수 없습니다. 읽기 전용 SELECT 한 문장만 실행됩니다."),
    (r"^SELECT … INTO is not allowed", "SELECT … INTO는 새 테이블을 만들므로 실행할 수 없습니다."),
    (r"^SELECT … FOR UPDATE/SHARE is not allowed", "SELECT … FOR UPDATE/SHARE는 행을 잠그므로 실행할 수 없습니다."),
    (r"^data-modifying (\w+) inside the query", "쿼리 안의 데이터 변경({0})은 실행할 수 없습니다."),
    (r'^SQL syntax error: syntax error at or near "([^"]+)"', "'{0}' 근처에 SQL 문법 오류가 있습니다."),
    (r"^SQL syntax error: syntax error at end of input", "SQL 문장이 끝나지 않았습니다."),
    (r"^SQL syntax error: (.*)", "SQL 문법 오류입니다. 원문: {0}"),
    (r"^relation (\S+) is not allowed", "{0|은/는} 조회할 수 없는 테이블입니다. 워크벤치 데이터 테이블(etfs, stock_prices, macro_observations 등)과 information_schema.tables/columns만 읽을 수 있습니다."),
    (r"^only one statement is allowed", "한 번에 한 문장만 실행할 수 있습니다."),
    (r"^empty (SQL|Cypher) query", "실행할 {0} 쿼리가 비어 있습니다 (주석만 있음)."),
    (r"^(SQL|Cypher) query is too long \(([\d,]+) characters; limit ([\d,]+)\)", "{0} 쿼리가 너무 깁니다 ({1}자, 한도 {2}자)."),
    (r"^SQL query is nested too deeply", "SQL 쿼리의 중첩이 너무 깊습니다."),
    (r"^the query is too expensive to run", "예상 비용이 너무 커서 실행하지 않았습니다. 필터나 조인 조건, LIMIT을 더하세요."),
    (r"^the query could not be rewritten with a LIMIT", "행 수 제한(LIMIT)을 붙일 수 없는 쿼리입니다."),
    (r"^control character (U\+\w+) is not allowed", "제어 문자 {0|은/는} 쿼리에 쓸 수 없습니다."),
    (r"^invisible character (U\+\w+)", "보이지 않는 문자 {0|은/는} 따옴표 안의 값에만 쓸 수 있습니다."),
    (r"^write clause (\w+) is not allowed", "쓰기 절 {0|은/는} 실행할 수 없습니다 (읽기 전용 쿼리만 실행됩니다)."),
    (r"^(\w[\w ]*?) is not allowed \(read-only queries only\)", "{0|은/는} 실행할 수 없습니다 (읽기 전용 쿼리만 실행됩니다)."),
    (r"^administration (?:procedure|command) (.+?) is not allowed", "관리 명령 {0|은/는} 실행할 수 없습니다."),
    (r"^procedure (\S+) is not allowed", "프로시저 {0|은/는} 호출할 수 없습니다. db.labels 같은 읽기 프로시저만 호출됩니다."),
    (r"^function (\S+) is not allowed", "함수 {0|은/는} 호출할 수 없습니다. 값 계산 함수만 쓸 수 있습니다."),
    (r"^CALL must name a read procedure", "CALL 뒤에는 읽기 프로시저 이름이 와야 합니다."),
    (r"^CALL \{ … \} IN TRANSACTIONS", "CALL { … } IN TRANSACTIONS(일괄 쓰기)는 실행할 수 없습니다."),
    (r"^unbalanced bracket", "괄호의 짝이 맞지 않습니다."),
    (r"^the query must end with RETURN", "쿼리는 RETURN으로 끝나야 합니다 (행 수 제한을 붙이기 위해)."),
    (r"^LIMIT", "LIMIT에는 정수나 정수 매개변수만 쓸 수 있습니다."),
    (r"^a query must start with", "쿼리는 MATCH, OPTIONAL MATCH, WITH, UNWIND, CALL, RETURN 중 하나로 시작해야 합니다."),
    (r"^GRAPH\.\* commands are not allowed", "GRAPH.* 명령은 쓸 수 없습니다. Cypher 문장만 보내세요."),
    (r"^unterminated or malformed quoted text near line (\d+)", "{0}번째 줄 근처의 따옴표가 닫히지 않았습니다."),
    (r"^unexpected character (.+) near line (\d+)", "{1}번째 줄 근처에 예상하지 못한 문자 {0|이/가} 있습니다."),
    (r"^malformed number", "숫자 형식이 잘못되었습니다."),
    (r"^only a CYPHER version prefix", "CYPHER 버전 접두사 외의 쿼리 옵션은 쓸 수 없습니다."),
    (r"^(?:.*\n)?ERROR: +(.*)", "저장소 오류: {0}"),
    (r'relation "([^"]+)" does not exist', "테이블 {0|이/가} 없습니다."),
    (r'column "([^"]+)" does not exist', "열 {0|이/가} 없습니다."),
    (r"permission denied for (?:table|relation) (\S+)", "테이블 {0|은/는} 읽을 수 없습니다 (데이터 테이블만 조회됩니다)."),
    (r"canceling statement due to statement timeout", "쿼리가 시간 제한을 넘어 중단되었습니다."),
))  # fmt: skip


def korean_reason(reason: str) -> str | None:
    """A guard's or store's English reason in Korean, or None when no rule knows it."""
    for pattern, korean in REASONS:
        match = pattern.search(reason)
        if match:
            return _fill(korean, match.groups())
    return None


def _fill(template: str, groups: tuple[str | Any, ...]) -> str:
    """'{0}' → the group; '{0|은/는}' → the group and the particle its last sound takes."""

    def one(m: re.Match[str]) -> str:
        word = str(groups[int(m.group(1))])
        if m.group(2) is None:
            return word
        return josa(word, m.group(2))

    return re.sub(r"\{(\d)(?:\|([^}]+))?\}", one, template)


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
