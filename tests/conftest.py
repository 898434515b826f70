"""Shared fixtures: real embedded PostgreSQL and FalkorDB, started once per test session.

Tests run against their own WORKBENCH_HOME (default `.workbench/test`) so they never touch
the data a developer is looking at in the app. Set DATABASE_URL / NEO4J_URI to run the same
tests against external servers.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

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
