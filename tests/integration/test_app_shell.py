"""The Streamlit shell and the Data screen, driven by AppTest against the real test stores."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from psycopg_pool import ConnectionPool
from streamlit.testing.v1 import AppTest

from data_access.postgres import fetch_one

APP = str(Path(__file__).resolve().parents[2] / "app.py")
TABS = ["데이터셋", "프로젝션 실행", "그래프 스키마", "쿼리 콘솔", "운영"]
TAB_KEY = "data_tab"  # pages/data.py: only the open tab runs


@pytest.fixture
def app(pg_pool: ConnectionPool) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _open_tab(at: AppTest, label: str) -> AppTest:
    at.session_state[TAB_KEY] = label
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _run_console(at: AppTest, language: str, query: str) -> AppTest:
    _open_tab(at, "쿼리 콘솔")
    at.radio(key="console_lang").set_value(language).run()
    at.text_area(key=f"console_query_{language}").input(query).run()
    at.button(key="console_run").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _sidebar_text(at: AppTest) -> str:
    return "\n".join([m.value for m in at.sidebar.markdown] + [c.value for c in at.sidebar.caption])


def test_shell_shows_sidebar_and_every_data_section(app: AppTest) -> None:
    sidebar = _sidebar_text(app)
    assert "답변 모드" in sidebar and "오프라인 플래너 (API 키 없음)" in sidebar
    assert "저장소 상태" in sidebar and "PostgreSQL" in sidebar and "그래프 (FalkorDB)" in sidebar
    assert sidebar.count("green-badge[정상]") == 2
    assert "기준일" in sidebar
    assert [t.value for t in app.title] == ["데이터"]
    assert [t.label for t in app.tabs] == TABS
    assert app.dataframe, "the dataset table is shown first"
    for label in TABS:  # each tab draws its section when opened, and only the open one runs
        _open_tab(app, label)
        assert [t.label for t in app.tabs if len(t.children)] == [label]


def test_dataset_table_lists_the_core_catalogue_in_korean(app: AppTest) -> None:
    table = app.dataframe[0].value
    assert {"상태", "데이터셋 코드", "이름", "행 수", "최종일"} <= set(table.columns)
    assert {"KR_ETF_DAILY_PRICE", "FEDFUNDS", "ECONOMIC_NEWS_STREAM"} <= set(table["데이터셋 코드"])


def test_console_runs_a_select_and_shows_its_rows(app: AppTest) -> None:
    _run_console(app, "SQL", "SELECT dataset_code, domain FROM datasets ORDER BY dataset_code")
    result = app.tabs[3].dataframe[-1].value  # the console tab
    assert list(result.columns) == ["dataset_code", "domain"]
    assert "KR_ETF_DAILY_PRICE" in set(result["dataset_code"])
    assert not app.error


def test_hostile_sql_is_rejected_in_korean_and_drops_nothing(
    app: AppTest, pg_pool: ConnectionPool
) -> None:
    _run_console(app, "SQL", "DROP TABLE etfs")
    assert len(app.error) == 1
    assert app.error[0].value.startswith("쿼리가 거부되었습니다")
    assert fetch_one("SELECT to_regclass('etfs') IS NOT NULL AS ok", pool=pg_pool) == {"ok": True}


def test_hostile_cypher_is_rejected_in_korean(app: AppTest) -> None:
    _run_console(app, "Cypher", "MATCH (n) DETACH DELETE n")
    assert [e.value for e in app.error][0].startswith("쿼리가 거부되었습니다")


def test_a_broken_query_shows_the_store_error_not_a_traceback(app: AppTest) -> None:
    _run_console(app, "SQL", "SELECT no_such_column FROM etfs")
    assert app.error[0].value.startswith("쿼리 실행 중 오류가 발생했습니다")
    assert "no_such_column" in app.error[0].value


def test_a_time_series_result_gets_a_line_chart(app: AppTest) -> None:
    _run_console(
        app, "SQL",
        "SELECT d::date AS day, extract(day FROM d)::int AS n"
        " FROM generate_series('2026-01-01'::date, '2026-01-10', '1 day') AS d",
    )  # fmt: skip
    charts = [c for c in app.get("plotly_chart") if c.key == "console_line"]
    assert len(charts) == 1
    assert "10행" in "".join(c.value for c in app.caption)


@pytest.fixture
def llm_configured(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    from data_access.config import get_settings

    monkeypatch.setenv("LLM_MODEL", "openai/gpt-4o-mini")
    monkeypatch.setenv("LLM_MODEL_MACRO", "gemini/gemini-2.5-flash")
    get_settings.cache_clear()
    yield
    monkeypatch.delenv("LLM_MODEL")
    monkeypatch.delenv("LLM_MODEL_MACRO")
    get_settings.cache_clear()


def test_sidebar_names_the_model_of_each_role(
    pg_pool: ConnectionPool, llm_configured: None
) -> None:
    at = AppTest.from_file(APP, default_timeout=60).run()
    sidebar = _sidebar_text(at)
    assert "LLM (litellm)" in sidebar
    assert "오프라인 플래너" not in sidebar  # LLM_MODEL covers every role
    assert "ETF 챗봇: `openai/gpt-4o-mini`" in sidebar
    assert "거시 Q&A: `gemini/gemini-2.5-flash`" in sidebar


def _down_store_sidebar() -> None:
    from data_access.health import PostgresHealth
    from pages._ui import _render_store

    down = PostgresHealth(False, False, "postgresql://u@db:5432/x", None, "connection refused", 1.0)
    _render_store("PostgreSQL", down, "버전 미확인 · 외부")


def test_a_store_that_is_down_is_said_plainly() -> None:
    at = AppTest.from_function(_down_store_sidebar).run()
    assert not at.exception
    assert ":red-badge[연결 안 됨]" in [m.value for m in at.markdown]
    assert at.caption[0].value == "버전 미확인 · 외부 · connection refused"
