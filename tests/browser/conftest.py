"""Browser fixtures: the real app under `streamlit run` and a real Chromium page (Playwright).

The app runs as a subprocess against the test WORKBENCH_HOME (set by tests/conftest.py), so
it sees the same stores as the `pg_pool` / `graph_store` fixtures. Screenshots go to
WORKBENCH_HOME/screenshots/, never into the repository.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.qa.app_server import (
    CHROMIUM,
    CHROMIUM_ARGS,
    AppStartError,
    free_port,
    streamlit_app,
)


@pytest.fixture(scope="session")
def screenshot_dir(settings) -> Path:  # type: ignore[no-untyped-def]
    path = Path(settings.home) / "screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path


@contextmanager
def _streamlit(env: dict[str, str], log_path: Path) -> Iterator[str]:
    """`streamlit run app.py` on a free loopback port with `env`; yields its base URL."""
    try:
        with streamlit_app(env, log_path) as url:
            yield url
    except AppStartError as e:
        pytest.fail(str(e))


@pytest.fixture(scope="session")
def app_url(pg_pool, settings) -> Iterator[str]:  # type: ignore[no-untyped-def]
    """The app against the test stores (WORKBENCH_HOME from tests/conftest.py), demo data loaded.

    `seed_if_missing` is what `make run` does before Streamlit starts; it does nothing when the
    demo data is already there.
    """
    from data_access.seed import seed_if_missing

    seed_if_missing("demo", pool=pg_pool, settings=settings)
    env = {**os.environ, "WORKBENCH_HOME": str(settings.home)}
    with _streamlit(env, Path(settings.home) / "streamlit-browser-test.log") as url:
        yield url


@pytest.fixture(scope="session")
def stores_down_app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app pointed at external stores on ports where nothing listens (its own home)."""
    home = tmp_path_factory.mktemp("stores-down-home")
    port = free_port()  # bound and released: nothing listens there
    env = {
        **os.environ,
        "WORKBENCH_HOME": str(home),
        "DATABASE_URL": f"postgresql://atlas:secret@127.0.0.1:{port}/atlas",
        "NEO4J_URI": f"bolt://127.0.0.1:{port}",
        "NEO4J_PASSWORD": "secret",
    }
    with _streamlit(env, home / "streamlit.log") as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@contextmanager
def _tab(browser) -> Iterator[object]:  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": 1440, "height": 1600}, locale="ko-KR")
    tab = context.new_page()
    tab.set_default_timeout(30_000)
    yield tab
    context.close()


@pytest.fixture
def page(browser) -> Iterator[object]:  # type: ignore[no-untyped-def]
    with _tab(browser) as tab:
        yield tab


@pytest.fixture(scope="module")
def module_page(browser) -> Iterator[object]:  # type: ignore[no-untyped-def]
    """One page (one app session) for the tests of a module that look at the same screen: the
    screen is drawn once, and each test opens its own tab of it instead of a new session."""
    with _tab(browser) as tab:
        yield tab
