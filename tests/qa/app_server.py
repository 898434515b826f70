"""Start the real app under `streamlit run` on a free loopback port (browser tests, QA, bench).

Shared by tests/browser/conftest.py, `python -m tests.qa.screenshots` and bench/load.py so the
three start the app the same way.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("WORKBENCH_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
STARTUP_TIMEOUT_S = 60
# Settings read from these variables would switch a screen from the offline planner to a model.
LLM_ENV_PREFIXES = ("LLM_", "OPENAI_", "ANTHROPIC_", "GEMINI_")


class AppStartError(RuntimeError):
    """The app did not answer its health check in time (the message carries the log tail)."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def healthy(base_url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{base_url}/_stcore/health", timeout=2) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def offline_env(home: Path, base: Mapping[str, str] | None = None) -> dict[str, str]:
    """`base` (default os.environ) with WORKBENCH_HOME=home and no LLM configuration at all."""
    env = {k: v for k, v in (base or os.environ).items() if not k.startswith(LLM_ENV_PREFIXES)}
    env["WORKBENCH_HOME"] = str(home)
    env["WORKBENCH_SECRETS_FILE"] = str(home / "no-secrets.toml")  # never the real secrets
    env.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    return env


@contextmanager
def streamlit_app(
    env: Mapping[str, str], log_path: Path, timeout_s: float = STARTUP_TIMEOUT_S
) -> Iterator[str]:
    """`streamlit run app.py` on a free loopback port with `env`; yields its base URL."""
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    cmd = [  # app.py starts Streamlit itself, without its pages-folder mode (see app.py)
        sys.executable, "app.py",
        "--server.headless", "true", "--server.port", str(port),
        "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false",
    ]  # fmt: skip
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            cmd, cwd=ROOT, env=dict(env), stdout=log, stderr=subprocess.STDOUT
        )
        try:
            deadline = time.monotonic() + timeout_s
            while not healthy(base_url):
                if process.poll() is not None or time.monotonic() > deadline:
                    tail = log_path.read_text(errors="replace")[-2000:]
                    raise AppStartError(f"streamlit did not become healthy on {base_url}:\n{tail}")
                time.sleep(0.2)
            yield base_url
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@contextmanager
def seeded_offline_app(home: Path, log_name: str = "streamlit-qa.log") -> Iterator[str]:
    """The app on `home`'s embedded stores with the demo data (seeded if missing), offline."""
    os.environ["WORKBENCH_HOME"] = str(home)
    from data_access.config import get_settings
    from data_access.postgres import get_pool, migrate
    from data_access.seed import seed_if_missing
    from data_access.services import ensure_running

    get_settings.cache_clear()
    settings = get_settings()
    services = ensure_running(settings)
    pool = get_pool(services.postgres_uri, settings)
    migrate(pool)
    seed_if_missing("demo", pool=pool, settings=settings, project=True)
    with streamlit_app(offline_env(settings.home), settings.home / log_name) as url:
        yield url
