"""The API's walls, as one ASGI middleware: per-client rate limit, bearer token, body size.

    app = GuardMiddleware(app, config)        # also wraps the MCP server's HTTP transport

Order matters: the rate limit runs first (an unauthenticated flood is limited too), then the
token (when `API_TOKEN` is set), then the request size — refused at once from Content-Length,
or, for a body sent without one, while reading it (before the app sees it).
"""

from __future__ import annotations

import hmac
import json
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.config import ApiConfig
from api.errors import error_body

UPLOAD_PATHS = ("/api/contract/contracts",)
MAX_TRACKED_CLIENTS = 10_000


@dataclass
class RateLimiter:
    """A token bucket per client address: `per_min` requests a minute, `burst` at once."""

    per_min: int
    burst: int
    clock: Callable[[], float] = time.monotonic
    _buckets: dict[str, tuple[float, float]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def wait_s(self, client: str) -> float:
        """0 when the request may go ahead (and is counted), else seconds until it may."""
        if self.per_min <= 0:
            return 0.0
        rate = self.per_min / 60.0
        now = self.clock()
        with self._lock:
            if len(self._buckets) > MAX_TRACKED_CLIENTS:
                self._buckets.clear()  # bounded memory; a reset only forgives
            tokens, last = self._buckets.get(client, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - last) * rate)
            if tokens >= 1.0:
                self._buckets[client] = (tokens - 1.0, now)
                return 0.0
            self._buckets[client] = (tokens, now)
            return (1.0 - tokens) / rate


def bearer_ok(header: str | None, token: str) -> bool:
    scheme, _, value = (header or "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(
        value.strip().encode(), token.encode()
    )


class GuardMiddleware:
    def __init__(self, app: ASGIApp, config: ApiConfig) -> None:
        self.app = app
        self.config = config
        self.limiter = RateLimiter(config.rate_limit_per_min, config.rate_limit_burst)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        client = (scope.get("client") or ("unknown", 0))[0]
        wait = self.limiter.wait_s(client)
        if wait > 0:
            await _reply(send, 429, "요청이 너무 많습니다.", f"{math.ceil(wait)}초 뒤에 다시 시도하세요.",
                         {"retry-after": str(math.ceil(wait))})  # fmt: skip
            return
        token = self.config.token_value
        if token is not None and not bearer_ok(headers.get("authorization"), token):
            await _reply(send, 401, "인증이 필요합니다 (토큰이 없거나 틀렸습니다).",
                         "Authorization: Bearer <API_TOKEN> 헤더를 보내세요.",
                         {"www-authenticate": "Bearer"})  # fmt: skip
            return
        limit = self._limit(scope["path"])
        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            await _reply(send, 413, _too_large(limit), "본문을 줄여 다시 보내세요.")
            return
        if declared.isdigit():
            await self.app(scope, receive, send)
            return
        body = await _read_bounded(receive, limit)  # sent without Content-Length (chunked)
        if body is None:
            await _reply(send, 413, _too_large(limit), "본문을 줄여 다시 보내세요.")
            return
        await self.app(scope, _replay(body, receive), send)

    def _limit(self, path: str) -> int:
        if path.startswith(UPLOAD_PATHS):
            return self.config.max_upload_bytes
        return self.config.max_body_bytes


def _too_large(limit: int) -> str:
    return f"요청 본문이 너무 큽니다 (최대 {limit:,} 바이트)."


async def _read_bounded(receive: Receive, limit: int) -> bytes | None:
    """The whole body, or None as soon as it passes `limit` (memory stays bounded)."""
    chunks: list[bytes] = []
    seen = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks)  # the client left; the app will see the disconnect
        chunk = message.get("body", b"")
        seen += len(chunk)
        if seen > limit:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A receive that hands the app the body read already, then the real channel."""
    sent = False

    async def wrapped() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return wrapped


async def _reply(send: Send, status: int, error: str, hint: str,
                 headers: dict[str, str] | None = None) -> None:  # fmt: skip
    body = json.dumps(error_body(error, hint), ensure_ascii=False).encode()
    raw = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    raw += [(k.encode(), v.encode()) for k, v in (headers or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})
