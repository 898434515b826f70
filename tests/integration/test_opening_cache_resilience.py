"""A whole offline opening run whose run cache cannot be written still answers (issue 35)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from agents.opening.service import result_of, run_opening

pytestmark = pytest.mark.usefixtures("demo_data")


def test_run_goes_on_when_the_cache_cannot_be_written(
    tmp_path: Path, settings: Any, pg_pool: Any, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "opening").mkdir()
    (tmp_path / "opening" / "cache").write_text("a file, not a folder", encoding="utf-8")
    local = settings.model_copy(update={"workbench_home": tmp_path})
    with caplog.at_level(logging.WARNING, logger="agents.opening.files"):
        answer = run_opening("2026-11-20", settings=local, pool=pg_pool)
    assert answer.status == "ok", answer.error
    warned = [r.getMessage() for r in caplog.records if r.name == "agents.opening.files"]
    assert warned and all("실행 캐시 쓰기 실패" in w for w in warned)
    result = result_of(answer)
    assert result["theme"] and result["scripts"]
    read = {c.doc_id for c in answer.citations}  # bodies were read from the memory copy
    assert len(read) >= 10
    assert (tmp_path / "opening" / "opening_result.json").exists()
