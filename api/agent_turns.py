"""One `Turn` per screen, over the same service functions the screens call.

    etf_turn(ChatRequest(message="KODEX 200 정보"), stores)     # agents.etf.service.stream_answer
    macro_turn(...)      # agents.macro.service.stream_answer
    contract_turn(...)   # agents.contract.service.stream_ask
    stock_turn(...)      # agents.stock.service.stream_report
    opening_turn(...)    # agents.opening.service.stream_opening

Each checks its input, opens the conversation it continues, starts the service's generator with
a cancel flag (agents.cancel; the API sets it when a stream's client goes away or asks to
cancel) and says how its events become steps and where its answer is stored — what the page
does around the same call, nothing more.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

from agents.contract import service as contract_service
from agents.contract import store as contract_store
from agents.etf import service as etf_service
from agents.macro import service as macro_service
from agents.opening import service as opening_service
from agents.stock import service as stock_service
from agents.understanding.history import HistoryMessage, conversation_history
from api.errors import ApiError
from api.models import (
    ChatRequest,
    ContractRequest,
    OpeningRequest,
    StepData,
    StockRequest,
    TurnAnswer,
)
from api.stores import Stores
from api.turns import (
    Turn,
    checked,
    open_conversation,
    quoted,
    received_question,
    record,
    with_ids,
)
from data_access import runs
from data_access.contracts import AgentAnswer

STOCK_SYMBOL_CHARS = stock_service.MAX_SYMBOL_LENGTH


def _rejected(answer: AgentAnswer) -> bool:
    return bool(answer.payload.get("input_rejected"))


# ---------------------------------------------------------------- ETF chat (seed 000)


def _history(conversation: runs.Conversation | None, stores: Stores) -> list[HistoryMessage]:
    """The conversation so far, as the chat screens and the CLIs pass it (each answer's frame and
    listed codes included, refused input left out)."""
    if conversation is None:
        return []
    return conversation_history(conversation.conversation_id, stores.pool())


def _etf_step(event: Any, number: int) -> StepData | None:
    """An agent step, numbered by the steps sent (the agent's own count restarts when the
    offline planner takes over a model's run; a client's numbers never skip or repeat)."""
    if not isinstance(event, etf_service.StepEvent):
        return None
    return StepData(step_number=number, code=event.code, observations=event.observation,
                    tool_calls=event.tool_calls, error=event.error, kind="code",
                    name=f"step {number}", thought=event.thought,
                    duration_ms=event.duration_ms)  # fmt: skip


def etf_turn(request: ChatRequest, stores: Stores) -> Turn:
    question = checked(request.message, field="message")  # before the stores: a bad input is a 422
    pool = stores.pool()
    conversation = open_conversation(request.conversation_id, etf_service.SCREEN, pool)
    cancel = threading.Event()
    events = etf_service.stream_answer(question, _history(conversation, stores),
                                       settings=stores.settings, store=stores.graph(), pool=pool,
                                       cancel=cancel)  # fmt: skip
    return Turn(events, _etf_step, lambda answer: record(
        etf_service.SCREEN, question, answer, conversation, pool, save=not _rejected(answer)),
        cancel, received=received_question(question, conversation))  # fmt: skip


# ---------------------------------------------------------------- Macro Q&A (seed 004)


def _node_step(event: Any, number: int) -> StepData | None:
    """A finished graph node (Macro and Opening NodeEvents)."""
    summary = getattr(event, "summary", None)
    if summary is None:
        return None
    return StepData(step_number=number, observations=summary, kind="node",
                    name=getattr(event, "node", None), duration_ms=getattr(event, "duration_ms", 0),
                    tool_calls=list(getattr(event, "tool_calls", []) or []))  # fmt: skip


def macro_turn(request: ChatRequest, stores: Stores) -> Turn:
    question = checked(request.message, field="message")  # before the stores: a bad input is a 422
    pool = stores.pool()
    conversation = open_conversation(request.conversation_id, macro_service.SCREEN, pool)
    cancel = threading.Event()
    events = macro_service.stream_answer(question, history=_history(conversation, stores),
                                         settings=stores.settings, store=stores.graph(), pool=pool,
                                         cancel=cancel)  # fmt: skip

    def finish(answer: AgentAnswer) -> TurnAnswer:
        save = not _rejected(answer) and (answer.status != "error" or bool(answer.trace))
        return record(macro_service.SCREEN, question, answer, conversation, pool, save=save)

    return Turn(events, _node_step, finish, cancel,
                received=received_question(question, conversation))  # fmt: skip


# ---------------------------------------------------------------- Contract clauses (seed 002)


def contract_turn(request: ContractRequest, stores: Stores) -> Turn:
    question = checked(request.message, field="message")  # before the stores: a bad input is a 422
    pool = stores.pool()
    contract_id = request.contract_id  # checked form (api.models.ContractId)
    if contract_store.get_contract(contract_id, pool) is None:
        raise ApiError(404, f"계약서를 찾을 수 없습니다: {contract_id[:60]!r}",
                       "GET /api/contract/contracts로 id를 확인하거나 파일을 올리세요.")  # fmt: skip
    conversation = open_conversation(request.conversation_id, contract_service.SCREEN, pool)
    cancel = threading.Event()

    def events() -> Iterator[Any]:  # a ContractStep per graph node, then the answer
        conversation_id = (conversation.conversation_id if conversation
                           else contract_service.start_conversation(question, pool))  # fmt: skip
        for event in contract_service.stream_ask(contract_id, question, pool=pool,
                                                 settings=stores.settings,
                                                 conversation_id=conversation_id,
                                                 cancel=cancel):  # fmt: skip
            if isinstance(event, AgentAnswer):
                event.payload["conversation_id"] = conversation_id
            yield event

    def finish(answer: AgentAnswer) -> TurnAnswer:
        return with_ids(answer, answer.payload.get("conversation_id"), answer.payload.get("run_id"))

    received = f"계약서 {contract_id}: {received_question(question, conversation)}"
    return Turn(events(), _node_step, finish, cancel, received=received)


# ---------------------------------------------------------------- Stock report (seed 001)


def _stock_step(event: Any, number: int) -> StepData | None:
    if not isinstance(event, stock_service.ProgressEvent) or event.event == "node_start":
        return None  # a step is sent when it finishes
    data = event.data
    observation = data.get("result_summary") or data.get("status") or data.get("section")
    error = data.get("error") or "; ".join(str(e) for e in data.get("errors") or []) or None
    return StepData(step_number=number, kind=event.event,
                    name=data.get("node") or data.get("tool"), error=error,
                    observations=None if observation is None else str(observation),
                    duration_ms=int(data.get("latency_ms") or data.get("duration_ms") or 0))  # fmt: skip


def stock_turn(request: StockRequest, stores: Stores) -> Turn:
    symbol = checked(request.symbol, what="종목 심볼", max_chars=STOCK_SYMBOL_CHARS, field="symbol")
    pool = stores.pool()
    cancel = threading.Event()
    events = stock_service.stream_report(symbol, language=request.language,
                                         settings=stores.settings, pool=pool, cancel=cancel)  # fmt: skip
    received = f"종목 리포트 요청을 받았습니다: {quoted(symbol)} (언어 {request.language})"
    return Turn(events, _stock_step,
                lambda answer: with_ids(answer, None, answer.payload.get("run_id")), cancel,
                received=received)  # fmt: skip


# ---------------------------------------------------------------- Opening script (seed 003)


def opening_turn(request: OpeningRequest, stores: Stores) -> Turn:
    pool = stores.pool()
    day = request.date  # None or a checked YYYY-MM-DD (api.models.Day)
    cancel = threading.Event()
    events = opening_service.stream_opening(day, settings=stores.settings, pool=pool,
                                            cancel=cancel)  # fmt: skip

    def finish(answer: AgentAnswer) -> TurnAnswer:
        context = answer.payload.get("context") or {}
        return with_ids(answer, None, context.get("run_id"))

    received = f"오프닝 스크립트 요청을 받았습니다 (기준일 {day or '데이터의 최신 거래일'})"
    return Turn(events, _node_step, finish, cancel, received=received)
