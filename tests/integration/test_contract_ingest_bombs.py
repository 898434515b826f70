"""A DOCX or HWPX bomb uploaded through the contract service is refused before anything is stored (real
embedded PostgreSQL): no contract or article row appears."""

from __future__ import annotations

from typing import Any

import pytest

from agents.contract.errors import ContractFileError
from agents.contract.service import ingest_file
from tests.fixtures.docx_bombs import BOMBS


def _counts(pool: Any) -> tuple[int, int]:
    with pool.connection() as conn:
        row = conn.execute(
            "SELECT (SELECT count(*) FROM contracts) AS c, "
            "(SELECT count(*) FROM contract_articles) AS a"
        ).fetchone()
    return int(row["c"]), int(row["a"])


def test_bombs_store_nothing(pg_pool: Any, settings: Any) -> None:
    before = _counts(pg_pool)
    for file_name, build in BOMBS.values():
        with pytest.raises(ContractFileError):
            ingest_file(file_name, build(), pool=pg_pool, settings=settings)
    assert _counts(pg_pool) == before
