"""Who can reach the app: `make run` (the README's way) listens on loopback only; asked to listen
on 0.0.0.0 without sign-in configured it refuses to start and says what to configure; the app
itself, started some other way on a wide address without `[auth]`, serves only that refusal."""

from __future__ import annotations

import os
import signal
import subprocess
import time
import tomllib
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from streamlit import config as st_config
from streamlit.testing.v1 import AppTest

from agents.contract.ingest.readers import MAX_FILE_BYTES
from tests.qa.app_server import free_port, healthy

ROOT = Path(__file__).resolve().parents[2]
STARTUP_S = 240  # `make run` may first reinstall requirements.txt after a change


def _make_env(settings: object, tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LLM_", "OPENAI_"))}
    env["WORKBENCH_HOME"] = str(settings.home)  # type: ignore[attr-defined]
    env["WORKBENCH_SECRETS_FILE"] = str(tmp_path / "no-auth.toml")  # no [auth] anywhere
    return env


def _listeners(port: int) -> set[str]:
    return {
        c.laddr.ip
        for c in psutil.net_connections(kind="inet")
        if c.status == psutil.CONN_LISTEN and c.laddr.port == port
    }


@pytest.fixture(scope="module")
def make_run(
    settings: object, pg_pool: object, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[int]:
    """`make run PORT=…` as the README says, in its own process group; yields the port."""
    tmp_path = tmp_path_factory.mktemp("make-run")
    port = free_port()
    log = (tmp_path / "make-run.log").open("wb")
    process = subprocess.Popen(
        ["make", "run", f"PORT={port}"], cwd=ROOT, env=_make_env(settings, tmp_path),
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + STARTUP_S
        while not healthy(f"http://127.0.0.1:{port}"):
            text = (tmp_path / "make-run.log").read_text(errors="replace")
            assert process.poll() is None, text[-2000:]
            assert time.monotonic() < deadline, text[-2000:]
            time.sleep(0.5)
        yield port
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
        log.close()


def test_make_run_listens_on_loopback_only(make_run: int) -> None:
    addresses = _listeners(make_run)
    assert addresses == {"127.0.0.1"}, addresses
    wide = [
        a.address
        for addrs in psutil.net_if_addrs().values()
        for a in addrs
        if a.family.name == "AF_INET" and not a.address.startswith("127.")
    ]
    for address in wide:  # reachable from the network? it must not be
        assert not healthy(f"http://{address}:{make_run}"), address


def test_safe_server_defaults(make_run: int) -> None:
    """What .streamlit/config.toml promises, as the running server applies it."""
    conf = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    server, client = conf["server"], conf["client"]
    assert server["address"] == "127.0.0.1"
    assert server["enableCORS"] is True and server["enableXsrfProtection"] is True
    assert server["enableAgentApi"] is False and server["enableStaticServing"] is False
    assert client["toolbarMode"] == "minimal" and client["showErrorDetails"] in ("type", "none")
    # The uploader refuses what the contract reader would refuse anyway, give or take Streamlit's
    # whole megabytes (so a file just over 5 MB still gets the reader's Korean message).
    assert MAX_FILE_BYTES <= server["maxUploadSize"] * 2**20 < MAX_FILE_BYTES + 2**20 + 1
    request = urllib.request.Request(
        f"http://127.0.0.1:{make_run}/_stcore/health", headers={"Origin": "http://evil.example"}
    )
    with urllib.request.urlopen(request, timeout=5) as response:
        allowed = response.headers.get("Access-Control-Allow-Origin")
    assert allowed in (None, f"http://127.0.0.1:{make_run}"), allowed


def test_make_run_on_all_interfaces_without_auth_refuses(settings: object, tmp_path: Path) -> None:
    port = free_port()
    done = subprocess.run(
        ["make", "run", "HOST=0.0.0.0", f"PORT={port}"], cwd=ROOT,
        env=_make_env(settings, tmp_path), capture_output=True, text=True, timeout=STARTUP_S,
    )  # fmt: skip
    assert done.returncode != 0
    assert "0.0.0.0에서 열려면 로그인 설정이 필요합니다" in done.stderr, done.stderr[-2000:]
    assert "[auth]" in done.stderr and "secrets.toml" in done.stderr
    assert not _listeners(port)


@pytest.fixture
def wide_address() -> Iterator[None]:
    before = st_config.get_option("server.address")
    st_config.set_option("server.address", "0.0.0.0")
    yield
    st_config.set_option("server.address", before)


def test_app_on_a_wide_address_without_auth_serves_only_the_refusal(
    wide_address: None, pg_pool: object
) -> None:
    """`streamlit run app.py --server.address 0.0.0.0` (not through make): no screen at all."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    assert not at.exception
    assert any("로그인 설정이 필요합니다" in e.value for e in at.error), [e.value for e in at.error]
    assert not at.sidebar.markdown and not at.tabs and not at.chat_input


AUTH = {
    "redirect_uri": "http://127.0.0.1:8501/oauth2callback",
    "cookie_secret": "c" * 40,
    "client_id": "atlas",
    "client_secret": "s3cret",
    "server_metadata_url": "http://127.0.0.1:9/.well-known/openid-configuration",
}


@pytest.mark.parametrize(
    ("auth", "expected"),
    [
        (AUTH, "회사 계정으로 로그인하세요"),
        ({**AUTH, "cookie_secret": ""}, "[auth]에 cookie_secret 값이 없습니다"),
    ],
)
def test_with_auth_nothing_shows_before_sign_in(
    wide_address: None, pg_pool: object, auth: dict[str, str], expected: str
) -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.secrets["auth"] = auth
    at.run()
    assert not at.exception
    shown = [m.value for m in at.markdown] + [e.value for e in at.error]
    assert any(expected in text for text in shown), shown
    assert not at.sidebar.markdown and not at.tabs and not at.chat_input
