"""Sign-in for the app: the refusal screen, the sign-in screen, who is signed in (sidebar).

The rules live in `data_access.access` (testable without Streamlit); this module reads what only
Streamlit knows — the address it listens on (`server.address`), the `[auth]` section of its
secrets and the identity cookie (`st.user`) — and registers the resolver through which
`access.current_viewer()` (and so the run store) sees the session's user, in the script body and
in widget callbacks alike.
"""

from __future__ import annotations

import logging
from typing import Any

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from data_access import access
from data_access.access import ANONYMOUS_VIEWER, LOCAL_VIEWER, AccessDenied, Viewer
from data_access.config import get_settings

logger = logging.getLogger(__name__)

NOT_SHARED_NOTE = "로그인 없이 이 컴퓨터(127.0.0.1)에서만 열려 있습니다."


def auth_section() -> dict[str, Any] | None:
    """The `[auth]` table of Streamlit's secrets, or None (also when there is no secrets file)."""
    try:
        section = st.secrets.get("auth")
    except (FileNotFoundError, st.errors.StreamlitSecretNotFoundError):
        return None
    if section is None:
        return None
    return dict(section.to_dict()) if hasattr(section, "to_dict") else dict(section)


def startup_problem() -> str | None:
    """Why this app must not serve anything, in Korean: open beyond loopback without sign-in, or
    a sign-in configuration that cannot work (a half-filled `[auth]` never means "no sign-in")."""
    auth = auth_section()
    problem = access.bind_problem(st.get_option("server.address"), auth)
    if problem is None and auth is not None:
        missing = access.auth_problem(auth)
        if missing:
            problem = f"로그인 설정이 완전하지 않습니다 ({missing}). {access.AUTH_HELP}"
    return problem


def sign_in_on() -> bool:
    return auth_section() is not None


def _logged_in() -> bool:
    # `st.user.is_logged_in` exists only when Streamlit itself found an [auth] section.
    return bool(st.user.to_dict().get("is_logged_in", False))


def session_viewer() -> Viewer:
    """The viewer of the running session: the local user without sign-in, else from `st.user`."""
    if not sign_in_on():
        return LOCAL_VIEWER
    if not _logged_in():
        return ANONYMOUS_VIEWER
    try:
        return access.viewer_from_claims(st.user.to_dict(), get_settings())
    except AccessDenied:
        return ANONYMOUS_VIEWER


def _resolve() -> Viewer:
    """For `access.current_viewer()`: a thread with no session (a worker pool) owns nothing."""
    if get_script_run_ctx() is None:
        return ANONYMOUS_VIEWER if sign_in_on() else LOCAL_VIEWER
    return session_viewer()


def install() -> None:
    access.set_viewer_resolver(_resolve)


# ---------------------------------------------------------------- screens


def refusal_screen(problem: str) -> None:
    """Shown instead of every screen when the app is open beyond loopback without sign-in."""
    logger.error("refusing to serve: %s", problem)
    st.title("Atlas Workbench")
    st.error(f"워크벤치를 열 수 없습니다. {problem}", icon=":material/lock:")
    st.caption("관리자에게 문의하거나 `make run`(루프백 전용)으로 다시 시작하세요.")


def sign_in_screen() -> None:
    """The only screen before sign-in: what this is and one button per identity provider."""
    st.title("Atlas Workbench")
    st.markdown("팀과 공유된 워크벤치입니다. 회사 계정으로 로그인하세요.")
    if _logged_in():  # signed in, but the token names no user
        st.error("로그인 정보에 이메일도 사용자 식별자(sub)도 없어 사용자를 알 수 없습니다.")
        st.button("로그아웃", on_click=st.logout, key="sign-out-unknown")
        return
    for provider in access.auth_providers(auth_section()):
        label = "로그인" if provider is None else f"{provider} 계정으로 로그인"
        if st.button(label, type="primary", icon=":material/login:", key=f"sign-in-{provider}"):
            if provider is None:
                st.login()
            else:
                st.login(provider)
    st.caption("로그인하면 내 대화·실행 기록·올린 계약서는 나만 볼 수 있습니다 (관리자는 전체).")


def render_account() -> None:
    """Sidebar: who is signed in, their role, and how to sign out (or that nobody needs to)."""
    viewer = access.current_viewer()
    st.markdown("**사용자**")
    if not viewer.signed_in:
        st.caption(f"{viewer.name} · {NOT_SHARED_NOTE}")
        return
    st.markdown(f"{viewer.name}")
    st.badge(viewer.role_label, color="violet" if viewer.is_admin else "blue",
             icon=":material/admin_panel_settings:" if viewer.is_admin else ":material/person:")  # fmt: skip
    if viewer.email and viewer.email != viewer.name:
        st.caption(viewer.email)
    st.button("로그아웃", icon=":material/logout:", key="sign-out", on_click=st.logout)
