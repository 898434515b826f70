"""Secret values of the settings, and their removal from text that leaves the process.

    redact("Incorrect API key provided: sk-abc…", secret_values(settings))
    # 'Incorrect API key provided: [비공개]'

Provider errors echo keys, driver errors echo connection strings: text from outside passes
through `redact` before it reaches a trace, a log line, an answer or the run store (see
agents/llm.py). tests/integration/test_secrets_hygiene.py runs every screen with fake secrets and
searches everything written.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

from pydantic import SecretStr

from data_access.config import Settings

MASK = "[비공개]"
MIN_SECRET_CHARS = 6  # shorter values would mask ordinary words
_URL_FIELDS = ("database_url", "database_reader_url", "neo4j_uri", "llm_api_base", "fred_base_url")


def secret_values(settings: Settings, *extra: object) -> list[str]:
    """Every secret in ``settings`` (SecretStr fields, passwords inside URLs) and in ``extra``."""
    values: list[str] = []
    for name in type(settings).model_fields:
        value = getattr(settings, name)
        if isinstance(value, SecretStr):
            values.append(value.get_secret_value())
    for name in _URL_FIELDS:
        value = getattr(settings, name, None)
        url = value.get_secret_value() if isinstance(value, SecretStr) else value
        if isinstance(url, str):
            values.append(_url_password(url))
    for value in extra:
        if isinstance(value, SecretStr):
            values.append(value.get_secret_value())
        elif isinstance(value, str):
            values.append(value)
    return sorted({v for v in values if len(v) >= MIN_SECRET_CHARS}, key=len, reverse=True)


def _url_password(url: str) -> str:
    try:
        return urlsplit(url).password or ""
    except ValueError:
        return ""


def redact(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every secret value replaced by a mask (longest first)."""
    for secret in secrets:
        if secret and secret in text:
            text = text.replace(secret, MASK)
    return text
