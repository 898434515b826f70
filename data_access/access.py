"""Who may reach the workbench and what each person may do, without Streamlit.

Three rules, checked here so the app, the API and the tests use one implementation:

- Reach: listening beyond loopback needs sign-in (an `[auth]` section for Streamlit's OpenID
  Connect `st.login`); `check_bind` refuses otherwise, with what to configure.
- Roles: an admin is a signed-in user whose email is in `ADMIN_EMAILS` or whose group claim
  (`ADMIN_GROUP_CLAIM`, default `groups`) holds `ADMIN_GROUP`. Admin-only actions call
  `require_admin()` on the server before they run.
- Own work: the run store keeps a user id on its rows; `owner_scope(viewer)` is the filter a
  query applies (None for an admin, who sees everything).

    >>> check_bind("127.0.0.1", auth=None)          # loopback: fine without sign-in
    >>> check_bind("0.0.0.0", auth=None)
    Traceback (most recent call last):
    BindRefused: 0.0.0.0에서 열려면 로그인 설정이 필요합니다 ...
    >>> viewer_from_claims({"email": "Kim@Corp.kr", "sub": "42"}, settings)
    Viewer(user_id='kim@corp.kr', name='Kim@Corp.kr', email='kim@corp.kr', is_admin=False, ...)

Without sign-in (the app on loopback, the CLIs, the tests) the viewer is `LOCAL_VIEWER`: the one
local user, who sees all work and may use every screen, as before sign-in existed. Inside the app
the viewer of the running session comes from a resolver the Streamlit layer registers
(`set_viewer_resolver`); `acting_as` sets it explicitly (API requests, tests).
"""

from __future__ import annotations

import argparse
import ipaddress
import sys
import tomllib
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from data_access.config import Settings, get_settings, secrets_file
from data_access.errors import WorkbenchError

LOCAL_USER_ID = "local"
ANONYMOUS_USER_ID = "anonymous"
SHARED_USER_ID = "shared"  # rows everyone sees: bundled sample and standard contracts
LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})
AUTH_SHARED_KEYS = ("redirect_uri", "cookie_secret")
AUTH_PROVIDER_KEYS = ("client_id", "client_secret", "server_metadata_url")
AUTH_HELP = (
    "`.streamlit/secrets.toml`에 OpenID Connect `[auth]` 설정(redirect_uri, cookie_secret, "
    "client_id, client_secret, server_metadata_url)을 넣거나, 루프백(127.0.0.1)에서만 여세요. "
    "README의 '워크벤치 공유하기(Sharing the workbench)'에 Google·Microsoft·Keycloak 예시가 있습니다."
)


class AccessDenied(WorkbenchError):
    """The signed-in user may not do this (an admin-only action, someone else's work)."""


class BindRefused(WorkbenchError):
    """The app was asked to listen beyond loopback without sign-in configured."""


@dataclass(frozen=True)
class Viewer:
    """The person a request acts for. `user_id` is what the run store keeps on their rows."""

    user_id: str
    name: str
    email: str | None
    is_admin: bool
    signed_in: bool

    @property
    def role_label(self) -> str:
        return "관리자" if self.is_admin else "사용자"


LOCAL_VIEWER = Viewer(LOCAL_USER_ID, "로컬 사용자", None, is_admin=True, signed_in=False)
# Sign-in is on but nobody is signed in (or the session cannot be told): sees and owns nothing.
ANONYMOUS_VIEWER = Viewer(ANONYMOUS_USER_ID, "로그인 전", None, is_admin=False, signed_in=False)


# ---------------------------------------------------------------- reach


def is_loopback(address: str | None) -> bool:
    """True for 127.0.0.0/8, ::1 and localhost. Unset or empty means every interface."""
    if not address:
        return False
    host = address.strip().strip("[]").lower()
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a host name: it may resolve anywhere


def auth_problem(auth: Mapping[str, Any] | None) -> str | None:
    """What is missing from an `[auth]` section for `st.login` to work, or None if complete.

    Mirrors Streamlit's own validation: the shared keys, then the provider keys either at the
    top (the default provider) or in at least one named `[auth.NAME]` provider.
    """
    if not auth:
        return "[auth] 섹션이 없습니다"
    missing = [k for k in AUTH_SHARED_KEYS if not auth.get(k)]
    if missing:
        return f"[auth]에 {', '.join(missing)} 값이 없습니다"
    providers = [auth] + [v for v in auth.values() if isinstance(v, Mapping)]
    if not any(all(p.get(k) for k in AUTH_PROVIDER_KEYS) for p in providers):
        return f"[auth]에 공급자 설정({', '.join(AUTH_PROVIDER_KEYS)})이 없습니다"
    return None


def auth_providers(auth: Mapping[str, Any] | None) -> list[str | None]:
    """Provider names for `st.login(provider)`: named `[auth.NAME]` sections, or [None]."""
    if not auth:
        return []
    named = [
        name
        for name, value in auth.items()
        if isinstance(value, Mapping) and all(value.get(k) for k in AUTH_PROVIDER_KEYS)
    ]
    return list(named) or [None]


def bind_problem(address: str | None, auth: Mapping[str, Any] | None) -> str | None:
    """The Korean refusal for listening on `address` with this `[auth]`, or None if allowed."""
    if is_loopback(address):
        return None
    missing = auth_problem(auth)
    if missing is None:
        return None
    where = address or "모든 네트워크 인터페이스(주소 미지정)"
    return f"{where}에서 열려면 로그인 설정이 필요합니다 ({missing}). {AUTH_HELP}"


def check_bind(address: str | None, auth: Mapping[str, Any] | None) -> None:
    problem = bind_problem(address, auth)
    if problem:
        raise BindRefused(problem)


def default_secret_files() -> list[Path]:
    """The files Streamlit reads secrets from (user-wide, then the project's), in that order."""
    return [Path.home() / ".streamlit" / "secrets.toml", secrets_file()]


def read_auth_section(files: Sequence[Path] | None = None) -> dict[str, Any] | None:
    """The `[auth]` table as Streamlit would see it: later files override earlier ones."""
    auth: dict[str, Any] | None = None
    for path in files if files is not None else default_secret_files():
        if not path.is_file():
            continue
        with path.open("rb") as f:
            section = tomllib.load(f).get("auth")
        if isinstance(section, dict):
            auth = section
    return auth


# ---------------------------------------------------------------- roles


def _claim_values(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, list | tuple | set):
        return {str(v) for v in value}
    return set()


def viewer_from_claims(claims: Mapping[str, Any], settings: Settings | None = None) -> Viewer:
    """The viewer for an identity token's claims (`st.user`): id, display name, role.

    The user id is the lower-cased email when the provider sends one (stable across providers
    and readable for the admin list), else `sub@iss`. A token with neither is refused.
    """
    settings = settings or get_settings()
    email = str(claims.get("email") or "").strip().lower() or None
    subject = str(claims.get("sub") or "").strip()
    if email is None and not subject:
        raise AccessDenied(
            "로그인 정보에 이메일도 사용자 식별자(sub)도 없어 사용자를 알 수 없습니다"
        )
    user_id = email or f"{subject}@{claims.get('iss') or 'oidc'}"
    admins = {a.strip().lower() for a in settings.admin_emails if a.strip()}
    in_group = bool(settings.admin_group) and settings.admin_group in _claim_values(
        claims.get(settings.admin_group_claim)
    )
    is_admin = (email is not None and email in admins) or in_group
    name = str(claims.get("name") or claims.get("preferred_username") or email or subject)
    return Viewer(user_id, name, email, is_admin=is_admin, signed_in=True)


# ---------------------------------------------------------------- the current viewer

_acting: ContextVar[Viewer | None] = ContextVar("workbench_viewer", default=None)
_resolver: list[Callable[[], Viewer]] = []


def set_viewer_resolver(resolver: Callable[[], Viewer] | None) -> None:
    """Register how the app tells the viewer of the running session (None: unregister)."""
    _resolver.clear()
    if resolver is not None:
        _resolver.append(resolver)


def current_viewer() -> Viewer:
    """`acting_as` if set, else the app's resolver, else the one local user."""
    explicit = _acting.get()
    if explicit is not None:
        return explicit
    if _resolver:
        return _resolver[0]()
    return LOCAL_VIEWER


@contextmanager
def acting_as(viewer: Viewer) -> Iterator[Viewer]:
    token = _acting.set(viewer)
    try:
        yield viewer
    finally:
        _acting.reset(token)


def require_admin(viewer: Viewer | None = None, action: str = "이 기능") -> Viewer:
    """Raise `AccessDenied` unless the viewer is an admin; call it before the action runs."""
    viewer = viewer or current_viewer()
    if not viewer.is_admin:
        from data_access.seed.news_text import particles  # the seed package is heavy to import

        raise AccessDenied(particles(f"{action}은(는) 관리자만 사용할 수 있습니다 ({viewer.name})"))
    return viewer


def owner_scope(viewer: Viewer | None = None) -> str | None:
    """The user id a run-store read is limited to, or None for an admin (everyone's rows)."""
    viewer = viewer or current_viewer()
    return None if viewer.is_admin else viewer.user_id


# ---------------------------------------------------------------- CLI


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m data_access.access check-bind --address HOST`: `make run`'s preflight."""
    parser = argparse.ArgumentParser(prog="python -m data_access.access")
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check-bind", help="refuse a non-loopback address without [auth]")
    check.add_argument("--address", default=None)
    check.add_argument("--secrets", type=Path, action="append", default=None)
    args = parser.parse_args(argv)
    try:
        check_bind(args.address, read_auth_section(args.secrets))
    except BindRefused as e:
        print(f"Atlas Workbench를 시작하지 않습니다: {e}", file=sys.stderr)
        return 2
    except (OSError, tomllib.TOMLDecodeError) as e:
        print(f"secrets.toml을 읽을 수 없습니다: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
