"""The agent endpoints: for each screen a JSON answer and the same run as Server-Sent Events.

    POST /api/chat/message            → TurnAnswer (seed 000's ETF chat)
    POST /api/chat/message/stream     → event: step … event: answer
    POST /api/macro/message[/stream], /api/contract/message[/stream],
    POST /api/stock/report[/stream],  /api/opening/run[/stream]
    POST /api/turns/{turn_id}/cancel  → stops a streamed turn (its id: the X-Turn-Id header)

(No `from __future__ import annotations` here: the route functions are made in a loop and
FastAPI reads their annotations as objects.)
"""

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel

from api import agent_turns, running
from api.deps import ConfigDep, StoresDep
from api.errors import ApiError
from api.models import (
    CancelOut,
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
from api.turns import Turn, parse_uuid, run_to_answer

router = APIRouter(tags=["에이전트 (agents)"])
TURN_HEADER = "X-Turn-Id"

ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody, "description": text}
    for code, text in ((404, "대화나 계약서를 찾을 수 없음"), (413, "요청 본문이 너무 큼"),
                       (422, "입력 거부 (빈 질문, 너무 긴 질문, 형식 오류)"),
                       (429, "요청이 너무 많음"), (503, "저장소에 연결할 수 없음"))
}  # fmt: skip
STREAM_DOC = """Server-Sent Events. 먼저 요청을 받았다는 1단계(`kind: "received"`, 받은 질문이나
종목·기준일; 저장소를 거치지 않아 바로 옴), 그다음 에이전트 단계가 끝날 때마다 `event: step`
(2단계부터), 마지막에 `event: answer` (실패 시 `event: error`), 15초마다 `: keep-alive` 주석.
각 `data`는 seed 000 형식의 JSON:

    event: step
    data: {"type": "step", "data": {"step_number": 1, "kind": "received", "name": "접수", "observations": "질문을 받았습니다 (새 대화, 22자): '...'", "code": null, "tool_calls": [], "error": null}}

    event: step
    data: {"type": "step", "data": {"step_number": 2, "code": "...", "observations": "...", "tool_calls": [...], "error": null}}

    event: answer
    data: {"type": "answer", "data": {"answer": "...", "status": "ok", "conversation_id": "...", ...}}

모델이 설정되어 있으면 답변 문장이 근거 확인을 거친 뒤 쓰이는 대로 `event: text`
(`{"type": "text", "data": {"text": "..."}}`)로 옵니다. 응답 헤더 `X-Turn-Id`의 id로
`POST /api/turns/{turn_id}/cancel`을 부르거나 연결을 끊으면 실행이 멈추고 (진행 중인 단계를
기다리지 않음) 그때까지의 단계와 문장을 담은 답변이 `cancelled` 상태로 저장됩니다."""
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
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no",
                     TURN_HEADER: turn.turn_id},
        )  # fmt: skip

    router.add_api_route(f"{path}/stream", streamed, methods=["POST"], summary=summary + " (SSE)",
                         response_class=StreamingResponse, responses=STREAM_RESPONSES,
                         name=f"{path}:stream")  # fmt: skip


@router.post("/api/turns/{turn_id}/cancel", response_model=CancelOut, summary="실행 중지",
             responses={404: {"model": ErrorBody, "description": "실행 중인 턴이 아님"}})  # fmt: skip
def cancel_turn(turn_id: str) -> CancelOut:
    """스트리밍 중인 턴을 멈춥니다 (화면의 중지 버튼과 같음). `turn_id`는 스트림 응답의
    `X-Turn-Id` 헤더. 스트림은 `cancelled` 답변으로 끝나고 실행은 중지됨으로 저장됩니다."""
    if not running.cancel(parse_uuid(turn_id, "턴")):
        raise ApiError(404, f"실행 중인 턴이 아닙니다: {turn_id[:60]!r}",
                       "이미 끝났거나 없는 턴입니다. 스트림 응답의 X-Turn-Id를 쓰세요.")  # fmt: skip
    return CancelOut(turn_id=turn_id, cancelled=True)


_add("/api/chat/message", ChatRequest, agent_turns.etf_turn, "ETF 챗 질문 (seed 000)")
_add("/api/macro/message", MacroRequest, agent_turns.macro_turn, "매크로 Q&A 질문 (seed 004)")
_add(
    "/api/contract/message", ContractRequest, agent_turns.contract_turn, "계약 조항 질문 (seed 002)"
)
_add("/api/stock/report", StockRequest, agent_turns.stock_turn, "종목 리포트 (seed 001)")
_add("/api/opening/run", OpeningRequest, agent_turns.opening_turn, "오프닝 스크립트 (seed 003)")
