"""Shared fixtures: real embedded PostgreSQL and FalkorDB, started once per test session.

Tests run against their own WORKBENCH_HOME (default `.workbench/test`) so they never touch
the data a developer is looking at in the app. Set DATABASE_URL / NEO4J_URI to run the same
tests against external servers.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
TEST_HOME = Path(os.environ.get("WORKBENCH_TEST_HOME", ROOT / ".workbench" / "test"))

# Set before any data_access import reads settings.
os.environ["WORKBENCH_HOME"] = str(TEST_HOME)
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("WORKBENCH_SECRETS_FILE", str(TEST_HOME / "no-secrets.toml"))


@pytest.fixture(scope="session")
def settings():  # type: ignore[no-untyped-def]
    from data_access.config import get_settings

    get_settings.cache_clear()
    return get_settings()


@pytest.fixture(scope="session")
def offline(settings):  # type: ignore[no-untyped-def]
    """The settings with every model role unset: the offline planners answer."""
    roles = [name for name in type(settings).model_fields if name.startswith("llm_model")]
    return settings.model_copy(update=dict.fromkeys(roles))


@pytest.fixture(scope="session")
def services(settings):  # type: ignore[no-untyped-def]
    from data_access.services import ensure_running

    return ensure_running(settings)


@pytest.fixture(scope="session")
def pg_pool(services, settings):  # type: ignore[no-untyped-def]
    from data_access.postgres import get_pool, migrate

    pool = get_pool(services.postgres_uri, settings)
    migrate(pool)
    return pool


@pytest.fixture(scope="session")
def graph_store(services, settings) -> Iterator[object]:  # type: ignore[no-untyped-def]
    from data_access.graph import get_graph_store

    store = get_graph_store(settings)
    yield store
    store.close()


@pytest.fixture(scope="session")
def demo_data(pg_pool, settings, services):  # type: ignore[no-untyped-def]
    """The test database holds the demo dataset, seeded and projected once, then reused."""
    from data_access.seed import seed_if_missing

    return seed_if_missing("demo", pool=pg_pool, settings=settings, project=True)


@dataclass
class GoldenRun:
    """The whole golden set run once, offline, through `run_suites` (stored and reported like any
    run), with every case's answer kept by case id for the tests that read the answers' text."""

    run: Any  # agents.eval.models.SuiteRun
    answers: dict[str, Any] = field(default_factory=dict)  # case id → AgentAnswer | None


@pytest.fixture(scope="session")
def offline_golden_run(settings, pg_pool, graph_store, demo_data) -> GoldenRun:  # type: ignore[no-untyped-def]
    """One offline run of every golden case for the session: the regression gate
    (tests/integration/test_eval_golden_suite.py) and the scan of the answers for English
    (tests/browser/test_golden_answers_korean.py) read the same run instead of each running
    the 560 cases."""
    from agents.eval.runner import run_suites

    offline = settings.model_copy(update={"llm_model": None, "llm_model_macro": None,
                                          "llm_model_etf": None, "llm_model_router": None})  # fmt: skip
    answers: dict[str, Any] = {}
    run = run_suites(pool=pg_pool, store=graph_store, settings=offline,
                     on_answer=lambda case, answer: answers.__setitem__(case.id, answer))  # fmt: skip
    return GoldenRun(run=run, answers=answers)
