"""The MCP SDK's own JSON-RPC errors in Korean, in the project's one error shape.

    korean_error(ErrorData(code=-32601, message="Method not found", data="bogus/method"))
    # ErrorData(code=-32601, message="지원하지 않는 메서드입니다: bogus/method",
    #           data={"status": "error", "error": "지원하지 않는 메서드입니다: bogus/method",
    #                 "retry_hint": "initialize 뒤에 tools/list, tools/call을 쓰세요."})

Tool failures are already `{status: "error", error, retry_hint}` results (`isError`); what the
SDK answers by itself (an unknown method, bad params, malformed JSON, a lost HTTP session) is
rewritten where it leaves the server: `KoreanWriteStream` over stdio (and `ParseErrorReadStream`
answers a line that is not JSON, which the SDK would drop in silence), `KoreanJsonErrors` over
streamable HTTP. The JSON-RPC code stays (clients branch on it); `message` becomes the Korean
text and `data` the error shape. Structured `data` the protocol defines (e.g. the supported
versions of an unsupported-version error) is kept beside the shape's keys. The SDK's English
text is never passed on: it may quote the client's input whole.
"""

from __future__ import annotations

import json
import logging
from types import TracebackType
from typing import TYPE_CHECKING, Any

import mcp_types as types
from mcp.shared.message import SessionMessage
from mcp_types import (
    HEADER_MISMATCH,
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    PARSE_ERROR,
    REQUEST_TIMEOUT,
    UNSUPPORTED_PROTOCOL_VERSION,
)

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

logger = logging.getLogger(__name__)

MAX_ECHO_CHARS = 80
_BY_CODE: dict[int, tuple[str, str]] = {
    PARSE_ERROR: ("요청을 JSON으로 읽을 수 없습니다.",
                  "JSON-RPC 2.0 메시지(JSON 객체 하나)를 UTF-8로 보내세요."),
    INVALID_REQUEST: ("JSON-RPC 요청 형식이 아닙니다.",
                      'jsonrpc: "2.0", id, method가 있는 JSON 객체로 보내세요.'),
    METHOD_NOT_FOUND: ("지원하지 않는 메서드입니다",
                       "initialize 뒤에 tools/list, tools/call을 쓰세요."),
    INVALID_PARAMS: ("요청 매개변수가 올바르지 않습니다.",
                     "tools/call에는 name(문자열)과 arguments(객체)를 보내고, "
                     "인수는 tools/list의 inputSchema를 따르세요."),
    INTERNAL_ERROR: ("MCP 서버 내부 오류가 발생했습니다.",
                     "잠시 후 다시 시도하고, 계속되면 서버 로그를 확인하세요."),
    REQUEST_TIMEOUT: ("요청 시간이 초과되었습니다.", "잠시 후 다시 시도하세요."),
    HEADER_MISMATCH: ("HTTP 헤더가 요청 본문과 맞지 않습니다.",
                      "MCP-Protocol-Version과 Mcp-Method 헤더를 본문과 같게 보내세요."),
    UNSUPPORTED_PROTOCOL_VERSION: ("지원하지 않는 프로토콜 버전입니다.",
                                   "data.supported에 있는 버전으로 다시 initialize하세요."),
    MISSING_REQUIRED_CLIENT_CAPABILITY: ("필요한 클라이언트 기능이 선언되지 않았습니다.",
                                         "initialize의 capabilities에 그 기능을 넣어 보내세요."),
}  # fmt: skip
# What the streamable HTTP transport answers by itself, by HTTP status (its code is generic).
_BY_HTTP_STATUS: dict[int, tuple[str, str]] = {
    404: ("MCP 세션을 찾을 수 없습니다 (만료되었거나 서버가 다시 시작됨).",
          "Mcp-Session-Id 없이 initialize를 다시 보내 새 세션을 여세요."),
    405: ("허용되지 않는 메서드입니다.", "/mcp에는 POST(요청), GET(알림 스트림), DELETE를 쓰세요."),
    406: ("받을 수 없는 응답 형식을 요청했습니다.",
          "Accept 헤더에 application/json과 text/event-stream을 넣으세요."),
    409: ("이 세션의 알림 스트림이 이미 열려 있습니다.", "열린 GET 스트림을 닫고 다시 시도하세요."),
    415: ("지원하지 않는 본문 형식입니다.", "Content-Type: application/json으로 보내세요."),
    503: ("열린 MCP 세션이 너무 많습니다.", "쓰지 않는 세션을 닫고(DELETE) 잠시 후 다시 시도하세요."),
}  # fmt: skip
_SHAPE_KEYS = ("status", "error", "retry_hint")


def _texts(error: types.ErrorData, http_status: int | None) -> tuple[str, str]:
    if http_status == 400 and error.code == INVALID_PARAMS:  # the body, not a method's params
        return _BY_CODE[INVALID_REQUEST]
    if http_status in _BY_HTTP_STATUS and error.code in (INVALID_REQUEST, INTERNAL_ERROR):
        return _BY_HTTP_STATUS[http_status]
    if error.code == METHOD_NOT_FOUND:
        text, hint = _BY_CODE[METHOD_NOT_FOUND]
        name = error.data if isinstance(error.data, str) else ""
        return (f"{text}: {name[:MAX_ECHO_CHARS]}" if name else f"{text}."), hint
    default = (f"MCP 요청을 처리하지 못했습니다 (코드 {error.code}).",
               "요청 형식을 확인하고 다시 시도하세요.")  # fmt: skip
    return _BY_CODE.get(error.code, default)


def is_korean(error: types.ErrorData) -> bool:
    data = error.data
    return isinstance(data, dict) and data.get("status") == "error" and "retry_hint" in data


def korean_error(error: types.ErrorData, http_status: int | None = None) -> types.ErrorData:
    """The same error code with a Korean message and `data` in the project's error shape."""
    if is_korean(error):
        return error
    text, hint = _texts(error, http_status)
    data: dict[str, Any] = {"status": "error", "error": text, "retry_hint": hint}
    if isinstance(error.data, dict):  # protocol data (supported versions, …) stays usable
        data = {**{k: v for k, v in error.data.items() if k not in _SHAPE_KEYS}, **data}
    return types.ErrorData(code=error.code, message=text, data=data)


def korean_message(message: Any, http_status: int | None = None) -> Any:
    """A JSON-RPC error message rewritten; any other message unchanged."""
    if isinstance(message, types.JSONRPCError):
        return message.model_copy(update={"error": korean_error(message.error, http_status)})
    return message


# ---------------------------------------------------------------- stdio


class KoreanWriteStream:
    """The stdio write stream, with every outgoing JSON-RPC error in Korean."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    async def send(self, item: SessionMessage, /) -> None:
        if isinstance(item.message, types.JSONRPCError):
            item = SessionMessage(message=korean_message(item.message), metadata=item.metadata)
        await self._inner.send(item)

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> KoreanWriteStream:
        await self._inner.__aenter__()
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> bool | None:  # fmt: skip
        return await self._inner.__aexit__(exc_type, exc, tb)


def _unreadable_code(error: Exception) -> int:
    """Not JSON at all → parse error; JSON that is not a JSON-RPC message → invalid request."""
    from pydantic import ValidationError

    json_ok = isinstance(error, ValidationError) and all(
        e.get("type") != "json_invalid" for e in error.errors()
    )
    return INVALID_REQUEST if json_ok else PARSE_ERROR


class ParseErrorReadStream:
    """The stdio read stream; a line that is not a JSON-RPC message (the transport yields the
    exception, the SDK only logs it) is answered with a Korean parse error or invalid-request
    error (id null), as JSON-RPC 2.0 asks."""

    def __init__(self, inner: Any, write: Any) -> None:
        self._inner = inner
        self._write = write

    @property
    def last_context(self) -> Any:  # the sender's context, read by the SDK's dispatcher
        return getattr(self._inner, "last_context", None)

    async def _answer(self, error: Exception) -> None:
        logger.info("MCP stdio: unreadable message (%s)", type(error).__name__)
        reply = types.JSONRPCError(jsonrpc="2.0", id=None, error=types.ErrorData(
            code=_unreadable_code(error), message="Parse error"))  # fmt: skip
        await self._write.send(SessionMessage(message=reply))

    async def receive(self) -> SessionMessage | Exception:
        while True:
            item = await self._inner.receive()
            if not isinstance(item, Exception):
                return item
            await self._answer(item)

    def __aiter__(self) -> ParseErrorReadStream:
        return self

    async def __anext__(self) -> SessionMessage | Exception:
        while True:  # the inner stream's own end-of-stream (StopAsyncIteration) ends ours
            item = await self._inner.__anext__()
            if not isinstance(item, Exception):
                return item
            await self._answer(item)

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> ParseErrorReadStream:
        await self._inner.__aenter__()
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> bool | None:  # fmt: skip
        return await self._inner.__aexit__(exc_type, exc, tb)


# ---------------------------------------------------------------- streamable HTTP


def _rewrite_body(body: bytes, status: int) -> bytes | None:
    """The JSON body with its JSON-RPC errors in Korean, or None when there is none."""
    try:
        value = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return None
    items = value if isinstance(value, list) else [value]
    changed = False
    for item in items:
        if isinstance(item, dict) and isinstance(item.get("error"), dict) and "id" in item:
            try:
                error = types.ErrorData.model_validate(item["error"])
            except ValueError:
                continue
            if not is_korean(error):
                item["error"] = korean_error(error, status).model_dump(exclude_none=True)
                changed = True
    return json.dumps(value, ensure_ascii=False).encode() if changed else None


class KoreanJsonErrors:
    """ASGI middleware over the streamable HTTP app: JSON responses holding JSON-RPC errors are
    rewritten in Korean (SSE streams pass through; the server runs with JSON responses)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start: Message | None = None
        chunks: list[bytes] = []

        async def buffered(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                headers = dict(message.get("headers") or [])
                if b"application/json" in headers.get(b"content-type", b""):
                    start = message
                    return
                await send(message)
            elif message["type"] == "http.response.body" and start is not None:
                chunks.append(message.get("body", b""))
                if message.get("more_body"):
                    return
                await _send_rewritten(send, start, b"".join(chunks))
            else:
                await send(message)

        await self.app(scope, receive, buffered)


async def _send_rewritten(send: Send, start: Message, body: bytes) -> None:
    rewritten = _rewrite_body(body, start["status"])
    if rewritten is not None:
        body = rewritten
        headers = [(k, v) for k, v in start.get("headers") or [] if k.lower() != b"content-length"]
        start = {**start, "headers": [*headers, (b"content-length", str(len(body)).encode())]}
    await send(start)
    await send({"type": "http.response.body", "body": body})
