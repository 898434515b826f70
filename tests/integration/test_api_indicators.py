"""Issue 35 (seed 004 §13.2-18, §9.3-3) on the real test stores and real uvicorn servers:

- the weekly KPI report runs on its schedule inside the API (`ApiConfig(scheduler=True)`, what
  `python -m api` sets): a report due two seconds after start is computed and stored as a row of
  eval_weekly_reports, and /admin/indicators shows the schedule and the run; an app built without
  the scheduler (every other test's) runs none;
- the document vector index's readiness is an indicator on /admin/indicators and on the Data
  screen (AppTest): ready once built, stale (a warning) when a Document lost its vector, and
  ready again after the next build.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from agents.macro.graphrag import VECTOR_PROP, ensure_document_index
from agents.macro.service import make_context
from agents.macro.state import RunContext
from api.app import create_app
from api.background import BackgroundServer
from api.config import ApiConfig
from api.schedule import DAYS, KST
from api.stores import Stores
from data_access.postgres import fetch_one

APP = str(Path(__file__).resolve().parents[2] / "app.py")
pytestmark = pytest.mark.usefixtures("demo_data")


def serve(settings: Any, services: Any, **config: Any) -> tuple[Any, BackgroundServer]:
    app = create_app(ApiConfig(rate_limit_per_min=0, **config), Stores(settings, info=services))
    return app, BackgroundServer(app)


def weekly_rows_since(moment: datetime, pg_pool: Any) -> int:
    row = fetch_one("SELECT count(*) AS n FROM eval_weekly_reports WHERE created_at >= %s",
                    (moment,), pg_pool)  # fmt: skip
    return int(row["n"]) if row else 0


# ---------------------------------------------------------------- the weekly report's schedule


def test_the_weekly_report_runs_on_its_schedule(settings: Any, services: Any,
                                                 pg_pool: Any) -> None:  # fmt: skip
    started = datetime.now(KST)
    due = started + timedelta(seconds=3)
    at = f"{DAYS[due.weekday()]} {due:%H:%M:%S}"
    app, background = serve(settings, services, scheduler=True, weekly_report_at=at)
    with background as server:
        scheduler = app.state.scheduler
        assert scheduler is not None and scheduler.state()["at"].startswith(at)
        deadline = time.monotonic() + 60
        while scheduler.last_run_at is None and time.monotonic() < deadline:
            time.sleep(0.2)
        state = scheduler.state()
        assert state["last_status"] in ("healthy", "warning"), state
        assert weekly_rows_since(started, pg_pool) >= 1
        shown = httpx.get(f"{server.url}/admin/indicators", timeout=60).json()
    schedule = shown["weekly_report_schedule"]
    assert schedule["last_run_at"] and schedule["last_status"] == state["last_status"]
    next_run = datetime.fromisoformat(schedule["next_run_at"])
    assert timedelta(days=6) < next_run - due <= timedelta(days=7)  # the same time next week
    assert any(n.startswith("주간 리포트 스케줄:") and "마지막 실행" in n for n in shown["notes"])


def test_an_app_without_the_scheduler_runs_no_report(settings: Any, services: Any) -> None:
    app, background = serve(settings, services)
    with background as server:
        assert app.state.scheduler is None
        shown = httpx.get(f"{server.url}/admin/indicators", timeout=60).json()
    assert shown["weekly_report_schedule"] is None
    assert any("꺼져 있음" in n for n in shown["notes"])


def test_a_malformed_schedule_is_refused_at_start() -> None:
    with pytest.raises(ValueError, match="mon 08:20"):
        ApiConfig(weekly_report_at="every monday")


# ---------------------------------------------------------------- the vector index's readiness


@pytest.fixture(scope="module")
def ctx(settings: Any, pg_pool: Any, graph_store: Any) -> RunContext:
    return make_context(settings.model_copy(update={"llm_model": None, "llm_model_macro": None,
                                                    "llm_embedding_model": None}),
                        pg_pool, graph_store)  # fmt: skip


@pytest.fixture(scope="module")
def indicators(settings: Any, services: Any) -> Iterator[httpx.Client]:
    _, background = serve(settings, services)
    with background as server, httpx.Client(base_url=server.url, timeout=60) as client:
        yield client


def data_screen_text() -> str:
    """The Data screen's graph tab, where the index line is drawn (that tab opens the store)."""
    st.cache_data.clear()  # the page caches the indicator for 30 s (its 새로 고침 button clears it)
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.session_state["data_tab"] = "그래프 스키마"  # pages/data.py TAB_KEY: only the open tab runs
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return "\n".join([c.value for c in at.caption] + [w.value for w in at.warning])


def test_vector_index_readiness_on_the_api_and_the_data_screen(
    ctx: RunContext, indicators: httpx.Client, graph_store: Any
) -> None:
    ensure_document_index(ctx)
    shown = indicators.get("/admin/indicators").json()
    index = shown["vector_index"]
    assert index["status"] == "ready" and index["ready"] is True, index
    assert index["documents"] == index["graph_documents"] == index["with_vector"] > 0
    assert any(n.startswith("VECTOR_INDEX_READY: ready") for n in shown["notes"])
    assert "문서 벡터 인덱스: **준비됨**" in data_screen_text()

    # A newly projected document without a vector: stale until the next GraphRAG question.
    graph_store.write(f"MATCH (d:Document) WITH d LIMIT 1 REMOVE d.{VECTOR_PROP}")
    try:
        stale = indicators.get("/admin/indicators").json()
        assert stale["vector_index"]["status"] == "stale" and not stale["vector_index"]["ready"]
        assert stale["status"] == "warning"
        assert "다시 만듭니다" in stale["vector_index"]["detail"]
        assert "문서 벡터 인덱스: **다시 만들어야 함**" in data_screen_text()
    finally:
        ensure_document_index(ctx)  # what the next question does
    assert indicators.get("/admin/indicators").json()["vector_index"]["status"] == "ready"


def test_vector_index_without_the_graph_is_unavailable(pg_pool: Any) -> None:
    from data_access.health import vector_index_health

    health = vector_index_health(pg_pool, None)  # what the API passes while the graph is down
    assert health.status == "unavailable" and not health.ready and health.documents
    assert "그래프 저장소" in health.detail
