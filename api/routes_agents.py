"""The agent endpoints: for each screen a JSON answer and the same run as Server-Sent Events.

    POST /api/chat/message            → TurnAnswer (seed 000's ETF chat)
    POST /api/chat/message/stream     → event: step … event: answer
    POST /api/macro/message[/stream], /api/contract/message[/stream],
    POST /api/stock/report[/stream],  /api/opening/run[/stream]

(No `from __future__ import annotations` here: the route functions are made in a loop and
FastAPI reads their annotations as objects.)
"""

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel

from api import agent_turns
from api.deps import ConfigDep, StoresDep
from api.models import (
    ChatRequest,
    ContractRequest,
    ErrorBody,
    MacroRequest,
    OpeningRequest,
    StockRequest,
    TurnAnswer,
)
from api.stores import Stores
from api.streaming import SSE_MEDIA, stream_turn
from api.turns import Turn, run_to_answer

router = APIRouter(tags=["에이전트 (agents)"])

ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody, "description": text}
    for code, text in ((404, "대화나 계약서를 찾을 수 없음"), (413, "요청 본문이 너무 큼"),
                       (422, "입력 거부 (빈 질문, 너무 긴 질문, 형식 오류)"),
                       (429, "요청이 너무 많음"), (503, "저장소에 연결할 수 없음"))
}  # fmt: skip
STREAM_DOC = """Server-Sent Events. 단계가 끝날 때마다 `event: step`, 마지막에 `event: answer`
(실패 시 `event: error`), 15초마다 `: keep-alive` 주석. 각 `data`는 seed 000 형식의 JSON:

    event: step
    data: {"type": "step", "data": {"step_number": 1, "code": "...", "observations": "...", "tool_calls": [...], "error": null}}

    event: answer
    data: {"type": "answer", "data": {"answer": "...", "status": "ok", "conversation_id": "...", ...}}

연결을 끊으면 실행은 다음 단계 경계에서 멈추고 저장되지 않습니다."""
STREAM_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {"content": {SSE_MEDIA: {"schema": {"type": "string"}}}, "description": STREAM_DOC},
    **ERRORS,
}

Factory = Callable[[Any, Stores], Turn]


def _add(path: str, model: type[BaseModel], factory: Factory, summary: str, *,
         stream: bool = True) -> None:  # fmt: skip
    def answer(body: model, stores: StoresDep) -> TurnAnswer:  # type: ignore[valid-type]
        return run_to_answer(factory(body, stores))

    router.add_api_route(path, answer, methods=["POST"], response_model=TurnAnswer,
                         summary=summary, responses=ERRORS, name=f"{path}:answer")  # fmt: skip
    if not stream:
        return

    def streamed(body: model, request: Request, stores: StoresDep,  # type: ignore[valid-type]
                 config: ConfigDep) -> StreamingResponse:  # fmt: skip
        turn = factory(body, stores)  # input, conversation and store checks answer 4xx/503 here
        return StreamingResponse(
            stream_turn(turn, request, keepalive_s=config.keepalive_s), media_type=SSE_MEDIA,
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )  # fmt: skip

    router.add_api_route(f"{path}/stream", streamed, methods=["POST"], summary=summary + " (SSE)",
                         response_class=StreamingResponse, responses=STREAM_RESPONSES,
                         name=f"{path}:stream")  # fmt: skip


_add("/api/chat/message", ChatRequest, agent_turns.etf_turn, "ETF 챗 질문 (seed 000)")
_add("/api/macro/message", MacroRequest, agent_turns.macro_turn, "매크로 Q&A 질문 (seed 004)")
_add(
    "/api/contract/message", ContractRequest, agent_turns.contract_turn, "계약 조항 질문 (seed 002)"
)
_add("/api/stock/report", StockRequest, agent_turns.stock_turn, "종목 리포트 (seed 001)")
_add("/api/opening/run", OpeningRequest, agent_turns.opening_turn, "오프닝 스크립트 (seed 003)")
