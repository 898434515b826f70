"""The API's walls, as one ASGI middleware: per-client rate limit, bearer token, body size.

    app = GuardMiddleware(app, config)        # also wraps the MCP server's HTTP transport

Order matters: the rate limit runs first (an unauthenticated flood is limited too), then
requests a web page made a browser send (DNS rebinding, cross-site forms), then the
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

from api.config import ApiConfig, is_loopback
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


def _hostname(value: str) -> str:
    """The host part of a Host header or an Origin URL (port and scheme dropped)."""
    host = value.split("://", 1)[-1].split("/", 1)[0]
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def foreign_request(headers: dict[str, str], *, loopback_only: bool) -> str | None:
    """Why a request that a web page made the browser send is refused, or None.

    A page on another site can make a browser POST a form (multipart is a "simple" request) to
    127.0.0.1, or reach a loopback server under its own name by DNS rebinding; neither may run
    an agent. On loopback the Host must be a loopback name; a browser's Origin must be loopback
    or the Host itself."""
    host = _hostname(headers.get("host", ""))
    if loopback_only and host and not is_loopback(host):
        return f"루프백 주소로만 받는 API입니다 (Host: {host[:80]})."
    origin = headers.get("origin")
    if origin and origin != "null":
        origin_host = _hostname(origin)
        if not is_loopback(origin_host) and origin_host != host:
            return f"다른 사이트({origin_host[:80]})의 브라우저 요청은 받지 않습니다."
    elif origin == "null":
        return "출처를 알 수 없는 브라우저 요청(Origin: null)은 받지 않습니다."
    return None


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
        problem = foreign_request(headers, loopback_only=is_loopback(self.config.host))
        if problem is not None:
            await _reply(
                send, 403, problem, "이 API는 같은 컴퓨터의 프로그램(curl, 노트북 등)에서 부르세요."
            )
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
