"""Reach, roles and the current viewer (data_access/access.py), with hostile inputs."""

from __future__ import annotations

from pathlib import Path

import pytest

from data_access import access
from data_access.access import (
    ANONYMOUS_VIEWER,
    LOCAL_VIEWER,
    AccessDenied,
    BindRefused,
    Viewer,
)
from data_access.config import Settings

AUTH = {
    "redirect_uri": "http://wb.example:8501/oauth2callback",
    "cookie_secret": "x" * 40,
    "client_id": "atlas",
    "client_secret": "s3cret",
    "server_metadata_url": "https://idp.example/.well-known/openid-configuration",
}


@pytest.mark.parametrize(
    "address", ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost", " LOCALHOST "]
)
def test_loopback_addresses_need_no_sign_in(address: str) -> None:
    assert access.is_loopback(address)
    access.check_bind(address, None)


@pytest.mark.parametrize(
    "address",
    [None, "", "0.0.0.0", "::", "192.168.0.10", "10.0.0.1", "wb.example", "127.0.0.1.evil.com",
     "localhost.evil.com", "0x7f000001", "2130706433"],
)  # fmt: skip
def test_anything_wider_without_auth_is_refused_with_what_to_configure(
    address: str | None,
) -> None:
    with pytest.raises(BindRefused) as refused:
        access.check_bind(address, None)
    message = str(refused.value)
    assert "[auth]" in message and "secrets.toml" in message and "127.0.0.1" in message


@pytest.mark.parametrize(
    ("auth", "missing"),
    [
        ({}, "[auth] 섹션이 없습니다"),
        ({k: v for k, v in AUTH.items() if k != "cookie_secret"}, "cookie_secret"),
        ({k: v for k, v in AUTH.items() if k != "client_secret"}, "client_id, client_secret"),
        ({**AUTH, "redirect_uri": ""}, "redirect_uri"),
        ({"redirect_uri": "r", "cookie_secret": "c", "google": {"client_id": "x"}}, "공급자"),
    ],
)
def test_incomplete_auth_is_refused_and_named(auth: dict[str, object], missing: str) -> None:
    problem = access.bind_problem("0.0.0.0", auth)
    assert problem is not None and missing in problem


def test_complete_auth_allows_any_address_and_names_its_providers() -> None:
    access.check_bind("0.0.0.0", AUTH)
    assert access.auth_providers(AUTH) == [None]
    named = {"redirect_uri": "r", "cookie_secret": "c",
             "google": {k: AUTH[k] for k in access.AUTH_PROVIDER_KEYS}, "broken": {"client_id": 1}}  # fmt: skip
    access.check_bind("0.0.0.0", named)
    assert access.auth_providers(named) == ["google"]


def test_auth_section_read_like_streamlit_later_file_wins(tmp_path: Path) -> None:
    first, second = tmp_path / "a.toml", tmp_path / "b.toml"
    first.write_text('[auth]\nredirect_uri = "first"\n')
    second.write_text('LLM_MODEL = "x"\n[auth]\nredirect_uri = "second"\n')
    assert access.read_auth_section([first, tmp_path / "missing.toml", second]) == {
        "redirect_uri": "second"
    }
    assert access.read_auth_section([tmp_path / "missing.toml"]) is None


def test_cli_exit_status_and_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "none.toml"
    assert access.main(["check-bind", "--address", "127.0.0.1", "--secrets", str(empty)]) == 0
    assert access.main(["check-bind", "--address", "0.0.0.0", "--secrets", str(empty)]) == 2
    assert "시작하지 않습니다" in capsys.readouterr().err
    broken = tmp_path / "broken.toml"
    broken.write_text("[auth\nredirect_uri = ")
    assert access.main(["check-bind", "--address", "0.0.0.0", "--secrets", str(broken)]) == 2
    assert "읽을 수 없습니다" in capsys.readouterr().err


SETTINGS = Settings(admin_emails=["Boss@Corp.kr"], admin_group="atlas-admins")


@pytest.mark.parametrize(
    ("claims", "user_id", "is_admin"),
    [
        ({"email": "boss@corp.kr", "sub": "1"}, "boss@corp.kr", True),
        ({"email": " BOSS@corp.KR ", "sub": "1"}, "boss@corp.kr", True),
        ({"email": "kim@corp.kr", "sub": "2"}, "kim@corp.kr", False),
        ({"email": "kim@corp.kr", "groups": ["atlas-admins"]}, "kim@corp.kr", True),
        ({"email": "kim@corp.kr", "groups": "atlas-admins"}, "kim@corp.kr", True),
        ({"email": "kim@corp.kr", "groups": ["atlas-admins-not"]}, "kim@corp.kr", False),
        ({"email": "kim@corp.kr", "groups": {"atlas-admins": True}}, "kim@corp.kr", False),
        ({"sub": "boss@corp.kr", "iss": "https://idp"}, "boss@corp.kr@https://idp", False),
        ({"email": "", "sub": "7", "iss": "https://idp"}, "7@https://idp", False),
    ],
)
def test_roles_from_claims(claims: dict[str, object], user_id: str, is_admin: bool) -> None:
    viewer = access.viewer_from_claims(claims, SETTINGS)
    assert (viewer.user_id, viewer.is_admin, viewer.signed_in) == (user_id, is_admin, True)


@pytest.mark.parametrize("claims", [{}, {"email": " ", "sub": ""}, {"name": "Mallory"}])
def test_claims_without_identity_are_refused(claims: dict[str, object]) -> None:
    with pytest.raises(AccessDenied, match="사용자를 알 수 없습니다"):
        access.viewer_from_claims(claims, SETTINGS)


def test_admin_emails_from_a_comma_list_in_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ADMIN_EMAILS", " a@x.kr, ,B@y.kr ")
    assert Settings().admin_emails == ["a@x.kr", "B@y.kr"]


def test_current_viewer_order_and_admin_check() -> None:
    plain = Viewer("kim@corp.kr", "Kim", "kim@corp.kr", is_admin=False, signed_in=True)
    assert access.current_viewer() == LOCAL_VIEWER  # no app, no sign-in: the one local user
    assert access.owner_scope() is None
    access.set_viewer_resolver(lambda: ANONYMOUS_VIEWER)
    try:
        assert access.current_viewer() == ANONYMOUS_VIEWER
        with access.acting_as(plain):
            assert access.current_viewer() == plain
            assert access.owner_scope() == "kim@corp.kr"
            with pytest.raises(AccessDenied, match="관리자만"):
                access.require_admin(action="쿼리 콘솔")
        assert access.current_viewer() == ANONYMOUS_VIEWER
    finally:
        access.set_viewer_resolver(None)
    assert access.require_admin() == LOCAL_VIEWER
