"""The Data screen's 운영 tab through AppTest against the real test stores (offline planner:
no model is configured, so no LLM provider is involved)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "app.py")


@pytest.fixture
def app(pg_pool: Any, demo_data: Any) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.session_state["data_tab"] = "운영"  # pages/data.py: only the open tab runs
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _text(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [s.value for s in at.subheader] + [i.value for i in at.info]
    return "\n".join(str(p) for p in parts)


def test_the_tab_has_every_section(app: AppTest) -> None:
    assert app.tabs[-1].label == "운영"
    headings = [s.value for s in app.subheader]
    for heading in ("KPI (목표 대비)", "평가 실행", "실행별 추이", "주간 요약 (최근 7일)",
                    "최근 실패", "프로젝션 지연 (PostgreSQL → 그래프)", "최근 가져오기 실행 보고"):  # fmt: skip
        assert heading in headings
    assert app.multiselect(key="ops_suites").value == ["guard"]


def test_running_no_suite_is_refused_in_korean(app: AppTest) -> None:
    app.multiselect(key="ops_suites").set_value([]).run()
    app.button(key="ops_run").click().run()
    assert not app.exception
    assert [w.value for w in app.warning if "스위트" in str(w.value)] == [
        "실행할 스위트를 하나 이상 고르세요."
    ]
    assert "ops_last_run" not in app.session_state
