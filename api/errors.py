"""Every failure as JSON `{status: "error", error, retry_hint}` with the right HTTP status.

Expected failures are `ApiError`s or the workbench's own errors (store down → 503, guard
rejection → 400, bad tool input → 422); anything else is logged with its traceback here and
answered as a plain 500, so a traceback never reaches a client.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from data_access.access import AccessDenied
from data_access.errors import (
    QueryFailed,
    QueryRejected,
    StoreUnavailable,
    ToolInputError,
    WorkbenchError,
)

logger = logging.getLogger(__name__)

STORE_HINT = "저장소가 다시 켜질 때까지 기다리거나 `python -m data_access.services start`로 켠 뒤 재시도하세요."
_HTTP_TEXT = {
    401: ("인증이 필요합니다.", "Authorization: Bearer <API_TOKEN> 헤더를 보내세요."),
    404: ("찾을 수 없는 주소입니다.", "/docs에서 엔드포인트 목록을 확인하세요."),
    405: ("허용되지 않는 메서드입니다.", "/docs에서 엔드포인트의 메서드를 확인하세요."),
}


class ApiError(Exception):
    """An expected failure with its HTTP status and a Korean message."""

    def __init__(self, status_code: int, error: str, retry_hint: str | None = None,
                 headers: dict[str, str] | None = None) -> None:  # fmt: skip
        super().__init__(error)
        self.status_code = status_code
        self.error = error
        self.retry_hint = retry_hint
        self.headers = headers


def error_body(error: str, retry_hint: str | None) -> dict[str, Any]:
    return {"status": "error", "error": error, "retry_hint": retry_hint}


def error_response(status_code: int, error: str, retry_hint: str | None = None,
                   headers: dict[str, str] | None = None) -> JSONResponse:  # fmt: skip
    return JSONResponse(error_body(error, retry_hint), status_code=status_code, headers=headers)


def classify(exc: BaseException) -> ApiError:
    """The HTTP status and message of any exception (also used inside streams)."""
    if isinstance(exc, ApiError):
        return exc
    if isinstance(exc, AccessDenied):  # someone else's conversation or run (issue 21's owner rule)
        return ApiError(404, str(exc), "conversation_id 없이 보내면 새 대화가 시작됩니다.")
    if isinstance(exc, StoreUnavailable):
        return ApiError(503, str(exc), STORE_HINT)
    if isinstance(exc, QueryRejected):
        return ApiError(
            400, f"쿼리가 거부되었습니다: {exc.reason}", "읽기 전용 단일 쿼리만 보낼 수 있습니다."
        )
    if isinstance(exc, ToolInputError):
        return ApiError(422, str(exc), "입력을 고쳐 다시 보내세요.")
    if isinstance(exc, QueryFailed):
        return ApiError(502, f"쿼리 실행 실패: {exc}", "쿼리를 단순하게 고쳐 다시 시도하세요.")
    if isinstance(exc, WorkbenchError):
        return ApiError(500, str(exc), "잠시 후 다시 시도하세요.")
    logger.error("unexpected API error", exc_info=exc)
    return ApiError(
        500, "내부 오류가 발생했습니다.", "잠시 후 다시 시도하고, 계속되면 서버 로그를 확인하세요."
    )


def _validation_text(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors()[:5]:
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "본문"
        parts.append(f"{where}: {err.get('msg', '')}")
    return "요청 형식이 올바르지 않습니다 — " + "; ".join(parts)


def install(app: FastAPI) -> None:
    async def on_api_error(_: Request, exc: Exception) -> JSONResponse:
        e = classify(exc)
        return error_response(e.status_code, e.error, e.retry_hint, e.headers)

    async def on_validation(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        return error_response(
            422, _validation_text(exc), "/docs의 요청 스키마와 예시를 확인하세요."
        )

    async def on_http(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        error, hint = _HTTP_TEXT.get(exc.status_code, (str(exc.detail), None))
        return error_response(exc.status_code, error, hint, dict(exc.headers or {}))

    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(StarletteHTTPException, on_http)
    app.add_exception_handler(Exception, on_api_error)
    for cls in (ApiError, WorkbenchError):
        app.add_exception_handler(cls, on_api_error)
