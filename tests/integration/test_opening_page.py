"""The opening-script page through AppTest against the real test stores (offline planner: no
model is configured, so no LLM provider is involved)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from agents.opening.service import past_runs

APP = str(Path(__file__).resolve().parents[2] / "app.py")
PAGE = "pages/opening_script.py"


@pytest.fixture
def page(pg_pool: Any, demo_data: Any) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.switch_page(PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _past_picker(at: AppTest) -> Any:
    return next(s for s in at.selectbox if s.label == "지난 스크립트")


def test_a_new_script_heads_the_past_scripts_picker_at_once(page: AppTest, pg_pool: Any) -> None:
    page.button(key="opening_run").click().run()
    assert not page.exception, [e.value for e in page.exception]
    newest = past_runs(pg_pool, limit=1)[0]
    # Same rerun as the run: the list already has the new script, and it is the one picked.
    assert _past_picker(page).value == newest.run_id
