"""The guards' reasons in Korean, for every screen and client that shows them.

    korean_reason("DELETE is not allowed: only a single SELECT (read-only) may run")
    # → 'DELETE 문은 실행할 수 없습니다. 읽기 전용 SELECT 한 문장만 실행됩니다.'

The guards word their reasons in English for the agents' models (data_access/guards.py,
cypher_guard.py); the Data screen's console (pages/_console.py), the API and the MCP server
say them in Korean. A reason no rule knows gives None: the caller keeps it verbatim after a
Korean sentence.
"""

from __future__ import annotations

import re
from typing import Any

from data_access.seed.news_text import josa

# Each rule: a pattern over the reason → its Korean text.
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
    (r"^write clause (\w+(?: DELETE)?) is not allowed", "쓰기 절 {0|은/는} 실행할 수 없습니다 (읽기 전용 쿼리만 실행됩니다)."),
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
