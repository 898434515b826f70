"""The API's own settings and the rule that keeps it off the network unless it has a token.

    config = ApiConfig()                 # API_HOST, API_PORT, API_TOKEN, ... or secrets.toml
    check_bind(config)                   # raises ApiConfigError for 0.0.0.0 without API_TOKEN

Loopback (127.0.0.0/8, ::1, localhost) is the default and needs nothing. Any other address
needs `API_TOKEN`: every request must then carry `Authorization: Bearer <token>`. A token set
on loopback is enforced too.
"""

from __future__ import annotations

import ipaddress
import tomllib
from typing import Any

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import (
    BaseSettings,
    InitSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from data_access.config import secrets_file
from data_access.errors import ConfigError

DEFAULT_PORT = 8600


class ApiConfigError(ConfigError):
    """The API was asked to start in a way that is not safe (or not possible)."""


def secrets_table() -> dict[str, Any]:
    """The `[api]` table of secrets.toml (`token = "…"`), or nothing."""
    path = secrets_file()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise ApiConfigError(f"cannot read {path}: {e}") from e
    table = data.get("api")
    return dict(table) if isinstance(table, dict) else {}


class ApiConfig(BaseSettings):
    """`API_*` environment variables, then the `[api]` table of secrets.toml, then defaults."""

    model_config = SettingsConfigDict(env_prefix="API_", extra="ignore", case_sensitive=False)

    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    token: SecretStr | None = None
    max_body_bytes: int = Field(default=64 * 1024, ge=1024)  # JSON requests
    max_upload_bytes: int = Field(default=6 * 1024 * 1024, ge=1024)  # contract uploads (5 MB files)
    rate_limit_per_min: int = Field(default=120, ge=0)  # per client address; 0 switches it off
    rate_limit_burst: int = Field(default=30, ge=1)
    keepalive_s: float = Field(default=15.0, gt=0)  # SSE comment while a step is running
    # The weekly KPI report (api.schedule): `python -m api` runs the scheduler; an app built
    # elsewhere (tests, benchmarks) only when asked. "off" switches the report off.
    scheduler: bool = False
    weekly_report_at: str = "mon 08:20"  # Korean time, seed 004 §13.2-18
    # The MCP server's streamable HTTP at /mcp in the API's own process (api.mcp.server.McpApp.
    # mount): one set of stores and one Kiwi for both. API_MCP=false leaves it out.
    mcp: bool = True
    # Freed heap handed back to the system this often (api.memory.HeapTrimmer); 0 switches it off.
    trim_every_s: float = Field(default=30.0, ge=0)

    @field_validator("weekly_report_at")
    @classmethod
    def _check_weekly_report_at(cls, value: str) -> str:
        from api.schedule import parse_at

        parse_at(value)  # raises ValueError with the expected form
        return value

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        secrets = InitSettingsSource(settings_cls, init_kwargs=secrets_table())
        return (init_settings, env_settings, secrets)

    @property
    def token_value(self) -> str | None:
        value = self.token.get_secret_value() if self.token else ""
        return value or None


def is_loopback(host: str) -> bool:
    if host.strip().lower() in ("localhost", "ip6-localhost"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a name other than localhost may resolve anywhere


def check_bind(config: ApiConfig) -> None:
    """Refuse to listen beyond loopback without a token (and refuse a token too short to matter)."""
    token = config.token_value
    if token is not None and len(token) < 16:
        raise ApiConfigError("API_TOKEN must be at least 16 characters long.")
    if not is_loopback(config.host) and token is None:
        raise ApiConfigError(
            f"Refusing to listen on {config.host}: binding beyond loopback needs API_TOKEN "
            "(clients then send 'Authorization: Bearer <token>'). Set API_TOKEN or use "
            "--host 127.0.0.1."
        )
