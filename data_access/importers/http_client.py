"""JSON over HTTP for the network importers: httpx with tenacity retries.

Transport failures, 429 and 5xx are retried with backoff; other statuses are returned with
their body so the caller can read the service's own error text. Messages never carry the
query string (it may hold an API key).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import httpx
from tenacity import Retrying, retry_if_exception_type, stop_after_attempt, wait_exponential

from data_access.errors import ImportFailed

logger = logging.getLogger(__name__)

USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) AtlasWorkbench/0.1"


@dataclass(frozen=True)
class JsonResponse:
    status_code: int
    body: Any  # parsed JSON, or None when the body is not JSON
    url: str  # without the query string


class _Retryable(Exception):
    """A response worth asking again for (rate limit, server error)."""

    def __init__(self, status_code: int) -> None:
        super().__init__(f"HTTP {status_code}")
        self.status_code = status_code


def public_url(url: str | httpx.URL) -> str:
    """scheme://host/path: safe to log and store (no api_key)."""
    parsed = httpx.URL(str(url))
    return str(parsed.copy_with(query=None, fragment=None))


def get_json(
    url: str,
    params: Mapping[str, str | int],
    *,
    what: str,
    timeout_s: float = 15.0,
    attempts: int = 3,
) -> JsonResponse:
    """GET a JSON document; ImportFailed when the host cannot be reached after `attempts`."""
    shown = public_url(url)
    retrying = Retrying(
        stop=stop_after_attempt(attempts),
        wait=wait_exponential(multiplier=0.25, max=4),
        retry=retry_if_exception_type((httpx.TransportError, _Retryable)),
        reraise=True,
    )
    try:
        response = retrying(_get_once, url, params, timeout_s)
    except httpx.TransportError as e:
        raise ImportFailed(
            f"cannot reach {what} at {shown} after {attempts} attempts "
            f"({type(e).__name__}: {_first_line(e)}); check the network or the base URL"
        ) from e
    except _Retryable as e:
        raise ImportFailed(f"{what} at {shown} kept answering HTTP {e.status_code}") from e
    try:
        body = response.json()
    except ValueError:
        body = None
    return JsonResponse(response.status_code, body, shown)


def _get_once(url: str, params: Mapping[str, str | int], timeout_s: float) -> httpx.Response:
    headers = {"User-Agent": USER_AGENT, "Accept": "application/json"}
    with httpx.Client(timeout=timeout_s, headers=headers, follow_redirects=True) as client:
        response = client.get(url, params=dict(params))
    if response.status_code == 429 or response.status_code >= 500:
        logger.info("HTTP %s from %s; retrying", response.status_code, public_url(url))
        raise _Retryable(response.status_code)
    return response


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    # httpx puts the full URL (with its query) into some messages: keep it out.
    return text.splitlines()[0].split("?")[0][:200] if text else "no detail"
