"""Every failure as JSON `{status: "error", error, retry_hint}` with the right HTTP status.

Expected failures are `ApiError`s or the workbench's own errors (store down → 503, guard
rejection → 400, bad tool input → 422); anything else is logged with its traceback here and
answered as a plain 500, so a traceback never reaches a client.
"""

from __future__ import annotations

import logging
import re
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
from data_access.guard_reasons import korean_reason

logger = logging.getLogger(__name__)

STORE_HINT = "저장소가 다시 켜질 때까지 기다리거나 `python -m data_access.services start`로 켠 뒤 재시도하세요."
SCHEMA_HINT = "/docs의 요청 스키마와 예시를 확인하세요."
_HTTP_TEXT = {
    400: (
        "요청 본문을 읽을 수 없습니다 (UTF-8 JSON이 아닙니다).",
        "본문을 UTF-8로 인코딩한 JSON으로 보내세요.",
    ),
    401: ("인증이 필요합니다.", "Authorization: Bearer <API_TOKEN> 헤더를 보내세요."),
    403: (
        "허용되지 않는 요청입니다.",
        "같은 컴퓨터의 프로그램에서, 필요하면 토큰과 함께 보내세요.",
    ),
    404: ("찾을 수 없는 주소입니다.", "/docs에서 엔드포인트 목록을 확인하세요."),
    405: ("허용되지 않는 메서드입니다.", "/docs에서 엔드포인트의 메서드를 확인하세요."),
    406: ("받을 수 없는 응답 형식을 요청했습니다.", "Accept 헤더를 application/json으로 보내세요."),
    413: ("요청 본문이 너무 큽니다.", "본문을 줄여 다시 보내세요."),
    415: ("지원하지 않는 본문 형식입니다.", "Content-Type: application/json으로 보내세요."),
    429: ("요청이 너무 많습니다.", "잠시 뒤에 다시 시도하세요."),
}
_STORE_NAMES = {"postgres": "PostgreSQL", "graph": "그래프 저장소"}
_HANGUL = re.compile(r"[가-힣]")
_FOREIGN_PARENS = re.compile(r"\s*\([^()가-힣]*\)")  # a parenthesis without Korean in it
_STORE_WORDS = re.compile(r"PostgreSQL|FalkorDB|Neo4j")
_LATIN_WORD = re.compile(r"[A-Za-z]{3,}")
MAX_DETAIL_CHARS = 200


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


def korean(error: str, fallback: str) -> str:
    """`error` when it is Korean already, else the Korean `fallback` with the driver's words
    (shortened) in parentheses: every message a client gets is Korean (the house rule)."""
    text = " ".join(error.split())[:MAX_DETAIL_CHARS]
    if _HANGUL.search(text):
        return text
    return f"{fallback} ({text})" if text else fallback


def store_down_text(exc: StoreUnavailable) -> str:
    """The Korean message of a store outage without the driver's words (English, socket paths,
    addresses): those are logged here, never sent to a client."""
    text = " ".join(str(exc).split())
    kept = text
    while (shorter := _FOREIGN_PARENS.sub("", kept)) != kept:  # innermost first
        kept = shorter
    kept = kept.strip().rstrip(".:;,").strip()
    if kept != text:
        logger.info("store unavailable: %s", text[:MAX_DETAIL_CHARS])
    foreign = _STORE_WORDS.sub("", kept)
    if _HANGUL.search(kept) and not _LATIN_WORD.search(foreign):
        return kept
    return f"{_STORE_NAMES.get(exc.store or '', '저장소')}에 연결할 수 없습니다"


def _store_down(exc: StoreUnavailable) -> ApiError:
    return ApiError(503, store_down_text(exc), STORE_HINT)


def classify(exc: BaseException) -> ApiError:
    """The HTTP status and message of any exception (also used inside streams)."""
    if isinstance(exc, ApiError):
        return exc
    if isinstance(exc, AccessDenied):  # someone else's conversation or run (issue 21's owner rule)
        return ApiError(404, str(exc), "conversation_id 없이 보내면 새 대화가 시작됩니다.")
    if isinstance(exc, StoreUnavailable):
        return _store_down(exc)
    if isinstance(exc, QueryRejected):
        reason = korean_reason(exc.reason) or f"`{exc.reason}`"  # the guards word it in English
        return ApiError(
            400, f"쿼리가 거부되었습니다: {reason}", "읽기 전용 단일 쿼리만 보낼 수 있습니다."
        )
    if isinstance(exc, ToolInputError):
        return ApiError(
            422, korean(str(exc), "입력을 쓸 수 없습니다"), "입력을 고쳐 다시 보내세요."
        )
    if isinstance(exc, QueryFailed):
        return ApiError(502, korean(f"쿼리 실행 실패: {exc}", "쿼리 실행 실패"),
                        "쿼리를 단순하게 고쳐 다시 시도하세요.")  # fmt: skip
    if isinstance(exc, WorkbenchError):
        return ApiError(
            500, korean(str(exc), "처리 중 오류가 발생했습니다"), "잠시 후 다시 시도하세요."
        )
    logger.error("unexpected API error", exc_info=exc)
    return ApiError(
        500, "내부 오류가 발생했습니다.", "잠시 후 다시 시도하고, 계속되면 서버 로그를 확인하세요."
    )


# Pydantic's error types in Korean; the value sent is never repeated back (it may be huge, or an
# attack), only the field it was sent in and what that field accepts.
_VALIDATION_TEXT = {
    "missing": "필수 항목이 없습니다",
    "extra_forbidden": "모르는 항목입니다",
    "string_type": "문자열이어야 합니다",
    "string_too_short": "비어 있습니다",
    "int_type": "정수여야 합니다",
    "int_parsing": "정수여야 합니다",
    "int_from_float": "정수여야 합니다",
    "bool_type": "true 또는 false여야 합니다",
    "bool_parsing": "true 또는 false여야 합니다",
    "model_type": "JSON 객체여야 합니다",
    "model_attributes_type": "JSON 객체여야 합니다",
    "dict_type": "JSON 객체여야 합니다",
    "list_type": "배열이어야 합니다",
    "json_invalid": "JSON 형식이 올바르지 않습니다",
    "json_type": "JSON 형식이 올바르지 않습니다",
    "date_type": "YYYY-MM-DD 날짜여야 합니다",
    "date_parsing": "YYYY-MM-DD 날짜여야 합니다",
    "date_from_datetime_parsing": "YYYY-MM-DD 날짜여야 합니다",
    "uuid_parsing": "UUID 형식이어야 합니다",
}


def _one_problem(err: dict[str, Any]) -> str:
    kind, ctx = str(err.get("type", "")), err.get("ctx") or {}
    if kind == "value_error":  # our validators' own Korean words (api.models)
        text = str(ctx.get("error") or err.get("msg", "")).removeprefix("Value error, ")
    elif kind == "string_too_long":
        text = f"너무 깁니다 (최대 {ctx.get('max_length')}자)"
    elif kind in ("greater_than_equal", "greater_than"):
        text = f"{ctx.get('ge', ctx.get('gt'))} 이상이어야 합니다"
    elif kind in ("less_than_equal", "less_than"):
        text = f"{ctx.get('le', ctx.get('lt'))} 이하여야 합니다"
    elif kind in ("literal_error", "enum"):
        text = f"허용된 값이 아닙니다 (허용: {str(ctx.get('expected', ''))[:120]})"
    else:
        text = _VALIDATION_TEXT.get(kind, "형식이 올바르지 않습니다")
    return text if _HANGUL.search(text) else "형식이 올바르지 않습니다"


def _validation_text(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors()[:5]:
        loc = [str(p) for p in err.get("loc", ()) if p not in ("body", "query", "path", "header")]
        where = ".".join(loc)[:80] or "본문"
        parts.append(f"{where}: {_one_problem(err)}")
    return "요청 형식이 올바르지 않습니다 — " + "; ".join(parts)


def install(app: FastAPI) -> None:
    async def on_api_error(_: Request, exc: Exception) -> JSONResponse:
        e = classify(exc)
        return error_response(e.status_code, e.error, e.retry_hint, e.headers)

    async def on_validation(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        return error_response(422, _validation_text(exc), SCHEMA_HINT)

    async def on_http(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        error, hint = _HTTP_TEXT.get(exc.status_code, (
            korean(str(exc.detail), f"요청을 처리할 수 없습니다 (HTTP {exc.status_code})"),
            "잠시 후 다시 시도하세요."))  # fmt: skip
        return error_response(exc.status_code, error, hint, dict(exc.headers or {}))

    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(StarletteHTTPException, on_http)
    app.add_exception_handler(Exception, on_api_error)
    for cls in (ApiError, WorkbenchError):
        app.add_exception_handler(cls, on_api_error)
