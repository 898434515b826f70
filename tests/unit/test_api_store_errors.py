"""A store outage as API and MCP clients read it (issue 34): Korean, with a retry hint, without the
driver's English words or socket paths, which go to the log. The failures are real: psycopg
connecting to a PostgreSQL socket directory where no server listens."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

from api.errors import classify, store_down_text
from data_access.errors import StoreUnavailable
from data_access.postgres import pool_for

LATIN_WORD = re.compile(r"[A-Za-z]{3,}")


def english_words(text: str) -> list[str]:
    return LATIN_WORD.findall(re.sub(r"PostgreSQL|FalkorDB|Neo4j", "", text))


def test_a_real_connection_failure_is_korean_and_the_detail_is_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    uri = f"postgresql://postgres:@/postgres?host={tmp_path}"  # no server listens there
    with caplog.at_level(logging.WARNING), pytest.raises(StoreUnavailable) as raised:
        pool_for(uri, 1, 2)
    failure = classify(raised.value)
    assert failure.status_code == 503 and failure.retry_hint
    assert failure.error.startswith("PostgreSQL") and not english_words(failure.error)
    assert str(tmp_path) not in failure.error and "connection" not in failure.error
    assert str(tmp_path) in caplog.text  # the driver's words are in the log


@pytest.mark.parametrize(
    ("message", "store", "expected"),
    [
        ("PostgreSQL에 연결할 수 없습니다 (connection failed: refused)", "postgres",
         "PostgreSQL에 연결할 수 없습니다"),
        ("PostgreSQL 연결이 끊겼습니다 (server closed (unexpectedly))", "postgres",
         "PostgreSQL 연결이 끊겼습니다"),
        ("FalkorDB at redis://127.0.0.1:1 is not reachable (Error 111)", "graph",
         "그래프 저장소에 연결할 수 없습니다"),
        ("the stores are not running (start them)", None, "저장소에 연결할 수 없습니다"),
        ("PostgreSQL에 연결할 수 없습니다 (저장소 시작 실패)", "postgres",
         "PostgreSQL에 연결할 수 없습니다 (저장소 시작 실패)"),
    ],
)  # fmt: skip
def test_the_message_keeps_the_korean_and_drops_the_driver_words(
    message: str, store: str | None, expected: str
) -> None:
    assert store_down_text(StoreUnavailable(message, store=store)) == expected
