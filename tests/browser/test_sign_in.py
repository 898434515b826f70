"""Sign-in and roles in real Chromium, through a real local OpenID Connect provider.

The provider is `oidc-provider-mock` (a real OIDC server: discovery, authorization form, code
flow, signed ID tokens) started by the test; the app is `streamlit run app.py` with an `[auth]`
section pointing at it and `ADMIN_EMAILS` naming the admin. Three people sign in through the
provider's form: Alice and Bob (plain users) and the admin.

- Alice uploads a contract and asks about it; Bob sees neither her contract nor her
  conversation, the admin sees both.
- Bob's Data screen has no query console or operations tab. Crafting the request does not help:
  the widget states the admin's browser sent to run the console (tab, query, 실행 button) are
  injected into Bob's websocket messages, and nothing runs.
"""

from __future__ import annotations

import os
import re
import secrets
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.waits import ANSWER_TIMEOUT_MS, only_one, wait_idle
from tests.qa.app_server import AppStartError, streamlit_app

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("demo_data")]

ADMIN, ALICE, BOB = "admin@atlas.test", "alice@atlas.test", "bob@atlas.test"
NAMES = {ADMIN: "Admin Kim", ALICE: "Alice Lee", BOB: "Bob Park"}
MARKER = uuid.uuid4().hex[:8]
CONTRACT = (
    f"제1조(목적) 이 계약은 앨리스 전용 {MARKER} 용역의 조건을 정한다.\n제2조(기간) 1년으로 한다.\n"
)
CRAFTED_SQL = f"SELECT 'crafted-{MARKER}' AS probe"


@pytest.fixture(scope="module")
def issuer() -> Iterator[str]:
    from oidc_provider_mock import User, run_server_in_thread

    users = [User(sub=e, claims={"email": e, "name": n}) for e, n in NAMES.items()]
    with run_server_in_thread(user_claims=users) as server:
        yield f"http://localhost:{server.server_port}"


@pytest.fixture(scope="module")
def shared_url(
    issuer: str, settings: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """The app with sign-in on: one secrets file for Streamlit ([auth]) and the settings."""
    home = tmp_path_factory.mktemp("sign-in")
    secrets_file = home / "secrets.toml"
    secrets_file.write_text(
        f'ADMIN_EMAILS = ["{ADMIN}"]\n\n[auth]\n'
        'redirect_uri = "http://127.0.0.1:{port}/oauth2callback"\n'
        f'cookie_secret = "{secrets.token_hex(32)}"\n'
        'client_id = "atlas-workbench"\nclient_secret = "test-only-secret"\n'
        f'server_metadata_url = "{issuer}/.well-known/openid-configuration"\n'
    )
    env = {**os.environ, "WORKBENCH_HOME": str(settings.home),
           "WORKBENCH_SECRETS_FILE": str(secrets_file), "STREAMLIT_SECRETS_FILES": str(secrets_file)}  # fmt: skip
    try:
        with streamlit_app(env, home / "streamlit.log") as url:
            yield url
    except AppStartError as e:
        pytest.fail(str(e))


class SocketTap:
    """Routes a page's Streamlit websocket: records the widget states the browser sends and can
    add foreign ones to every rerun request (a crafted request, sent by a real browser)."""

    def __init__(self) -> None:
        self.sent: dict[str, Any] = {}
        self.inject: list[Any] = []

    def route(self, ws: Any) -> None:
        server = ws.connect_to_server()
        ws.on_message(lambda message: server.send(self._outgoing(message)))
        server.on_message(lambda message: ws.send(message))

    def _outgoing(self, message: str | bytes) -> str | bytes:
        from streamlit.proto.BackMsg_pb2 import BackMsg

        if isinstance(message, str):
            return message
        msg = BackMsg()
        msg.ParseFromString(message)
        if msg.WhichOneof("type") != "rerun_script":
            return message
        widgets = msg.rerun_script.widget_states.widgets
        for widget in widgets:
            self.sent[widget.id] = type(widget).FromString(widget.SerializeToString())
        present = {w.id for w in widgets}
        for widget in self.inject:
            if widget.id not in present:
                widgets.add().CopyFrom(widget)
        return msg.SerializeToString() if self.inject else message


def _sign_in(browser: Any, url: str, email: str, tap: SocketTap | None = None) -> Any:
    page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    if tap is not None:
        page.route_web_socket(re.compile(r"/_stcore/stream"), tap.route)
    page.goto(url)
    page.get_by_text("회사 계정으로 로그인하세요").wait_for(timeout=ANSWER_TIMEOUT_MS)
    assert page.get_by_role("link", name="계약 조항").count() == 0  # nothing before sign-in
    page.get_by_role("button", name="로그인").click()
    page.get_by_placeholder("sub").fill(email)  # the provider's own authorization form
    page.get_by_role("button", name="Authorize").click()
    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.get_by_text(NAMES[email]).wait_for(timeout=ANSWER_TIMEOUT_MS)
    sidebar.get_by_role("button", name="로그아웃").wait_for()
    return page


def _matches(page: Any, label: str, text: str) -> list[str]:
    """The options of a select box that match `text` typed into it (the list is virtualized:
    only a few of a long list are in the page at once, so filter rather than scroll)."""
    wait_idle(page)  # an upload's rerun redraws the box with the new option (CI saw the stale one)
    box = page.get_by_role("combobox", name=label, exact=True)
    box.click()
    box.fill(text)
    page.wait_for_timeout(300)  # the filter runs in the browser as the text changes
    texts = [t.strip() for t in page.get_by_role("option").all_inner_texts()]
    page.keyboard.press("Escape")
    return [t for t in texts if text in t]


def _contract_screen(page: Any) -> None:
    page.get_by_role("link", name="계약 조항").click()
    page.get_by_text("조항 목록").wait_for(timeout=ANSWER_TIMEOUT_MS)


def _data_tabs(page: Any) -> list[str]:
    page.get_by_role("link", name="데이터").click()
    page.get_by_role("tab", name="데이터셋").wait_for(timeout=ANSWER_TIMEOUT_MS)
    return [t.strip() for t in page.get_by_role("tab").all_inner_texts()]


def _shot(page: Any, directory: Path, name: str) -> None:
    page.screenshot(path=str(directory / name), full_page=True)


def test_roles_and_private_work_through_a_real_oidc_provider(
    browser: Any, shared_url: str, screenshot_dir: Path
) -> None:
    # Alice: a contract of her own and a conversation about it.
    alice = _sign_in(browser, shared_url, ALICE)
    assert alice.locator('[data-testid="stSidebar"]').get_by_text("사용자", exact=True).count()
    _contract_screen(alice)
    alice.locator('input[type="file"]').set_input_files(
        files=[
            {"name": f"alice-{MARKER}.txt", "buffer": CONTRACT.encode(), "mimeType": "text/plain"}
        ]
    )
    saved = alice.get_by_text("저장했습니다")
    saved.wait_for(timeout=ANSWER_TIMEOUT_MS)
    title = re.search(r"'(.+)'[을를] 저장했습니다", saved.inner_text())
    assert title, saved.inner_text()
    assert _matches(alice, "계약서", title[1])
    only_one(alice.get_by_label("질문")).fill(f"계약 기간은? {MARKER}")
    alice.get_by_role("button", name="질문하기").click()
    alice.get_by_text("답변 모드: 오프라인 플래너").wait_for(timeout=ANSWER_TIMEOUT_MS)
    assert "쿼리 콘솔" not in _data_tabs(alice)
    _shot(alice, screenshot_dir, "sign_in_alice_data.png")

    # The admin: every tab, the console runs, and Alice's work is visible.
    admin_tap = SocketTap()
    admin = _sign_in(browser, shared_url, ADMIN, admin_tap)
    assert {"쿼리 콘솔", "운영"} <= set(_data_tabs(admin))
    admin.get_by_role("tab", name="쿼리 콘솔").click()
    query = admin.get_by_label("쿼리", exact=True)
    query.wait_for(timeout=ANSWER_TIMEOUT_MS)
    query.fill(CRAFTED_SQL)
    query.press("Control+Enter")
    admin.get_by_role("button", name="실행").click()
    admin.get_by_text("읽기 전용으로 실행됨").wait_for(timeout=ANSWER_TIMEOUT_MS)
    _shot(admin, screenshot_dir, "sign_in_admin_console.png")
    _contract_screen(admin)
    assert _matches(admin, "지난 대화", MARKER)
    assert _matches(admin, "계약서", title[1])

    # Bob: none of Alice's work, no console, and a crafted console request runs nothing.
    console_states = [w for i, w in admin_tap.sent.items() if "console" in i or "data_tab" in i]
    assert any("console_run" in w.id for w in console_states), list(admin_tap.sent)
    bob_tap = SocketTap()
    bob = _sign_in(browser, shared_url, BOB, bob_tap)
    _contract_screen(bob)
    assert not _matches(bob, "지난 대화", MARKER)  # Alice's question carries MARKER
    assert not _matches(bob, "계약서", title[1])
    assert _matches(bob, "계약서", "[표준]")  # the shared standard contracts are there
    tabs = _data_tabs(bob)
    assert "쿼리 콘솔" not in tabs and "운영" not in tabs
    bob.get_by_text("관리자만 볼 수 있습니다").wait_for()
    bob_tap.inject = console_states
    bob.get_by_role("button", name="새로 고침").click()  # a rerun carrying the admin's states
    wait_idle(bob)  # the crafted run has finished (it would have drawn its result by then)
    assert f"crafted-{MARKER}" not in bob.content()
    assert bob.get_by_text("읽기 전용으로 실행됨").count() == 0
    _shot(bob, screenshot_dir, "sign_in_bob_data.png")

    # Signing out ends the session at the provider too (its end_session form), then the app
    # shows the sign-in screen again.
    bob.locator('[data-testid="stSidebar"]').get_by_role("button", name="로그아웃").click()
    bob.get_by_role("button", name="End session").click(timeout=ANSWER_TIMEOUT_MS)
    bob.get_by_text("회사 계정으로 로그인하세요").wait_for(timeout=ANSWER_TIMEOUT_MS)
    assert bob.get_by_text(NAMES[BOB]).count() == 0
