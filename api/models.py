"""Request and response models of the HTTP API (they are the OpenAPI schema at /docs).

Answers are the workbench's shared contract (`data_access.contracts.AgentAnswer`: answer,
status, mode, as_of_date, data_freshness, citations, structured_citations, trace, tokens,
cost) plus where the turn was stored. Streamed steps follow seed 000:
`{"type": "step", "data": {"step_number", "code", "observations", "tool_calls", "error"}}`.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field

from agents.inputs import clean_text
from api import fields
from data_access.contracts import AgentAnswer
from data_access.runs import Conversation, Message

MAX_MESSAGE_CHARS = 2000  # agents.inputs.MAX_QUESTION_CHARS: longer text is refused in Korean
MAX_SYMBOL_CHARS = 60  # agents.stock.service.MAX_SYMBOL_LENGTH
EXAMPLE_CONTRACT = "sample-user-provide"  # a sample every store holds (contract.ensure_samples)

# What each kind of field may hold (api.fields), checked before anything runs: anything else is
# a 422 that names the field (api.errors), so an injection attempt is refused, not trimmed.


def _text(value: object) -> object:
    """Strings arrive cleaned (agents.inputs.clean_text); other types fail the type check. A
    value of nothing but control or invisible characters is refused, not taken as empty."""
    if not isinstance(value, str):
        return value
    text = clean_text(value)
    if not text and value.strip():
        raise ValueError("보이지 않는 제어 문자만 있습니다.")
    return text


def _symbol(value: str) -> str:
    if not value:
        raise ValueError("종목 심볼이 비어 있습니다.")
    if len(value) > MAX_SYMBOL_CHARS:
        raise ValueError(f"종목 심볼이 너무 깁니다 ({MAX_SYMBOL_CHARS}자 이내).")
    if not fields.SYMBOL.fullmatch(value):
        raise ValueError(f"종목 심볼에는 {fields.PATTERN_TEXT[fields.SYMBOL_PATTERN]}.")
    return value


def _contract_id(value: str) -> str:
    if not fields.CONTRACT_ID.fullmatch(value):
        raise ValueError("계약서 id는 영문·숫자와 _ . : - 로 된 128자 이내의 id입니다.")
    return value


def _conversation_id(value: str | None) -> str | None:
    if value is None:
        return None
    if not fields.UUID.fullmatch(value):
        raise ValueError("대화 id는 UUID 형식입니다.")
    return value


def _day(value: str | None) -> str | None:
    if not value:  # empty or whitespace: the latest trading day with news
        return None
    if not fields.ISO_DATE.fullmatch(value):
        raise ValueError("날짜는 YYYY-MM-DD 형식입니다.")
    try:
        return date.fromisoformat(value).isoformat()
    except ValueError:
        raise ValueError("없는 날짜입니다 (YYYY-MM-DD).") from None


Symbol = Annotated[str, BeforeValidator(_text), AfterValidator(_symbol)]
ContractId = Annotated[str, BeforeValidator(_text), AfterValidator(_contract_id)]
ConversationId = Annotated[str | None, BeforeValidator(_text), AfterValidator(_conversation_id)]
Day = Annotated[str | None, BeforeValidator(_text), AfterValidator(_day)]


class ErrorBody(BaseModel):
    """Every error: what failed (Korean) and what to do about it."""

    status: Literal["error"] = "error"
    error: str
    retry_hint: str | None = None

    model_config = ConfigDict(json_schema_extra={"examples": [
        {"status": "error", "error": "질문이 비어 있습니다.", "retry_hint": "message에 질문을 넣어 다시 보내세요."},
        {"status": "error", "error": "PostgreSQL에 연결할 수 없습니다 (connection refused)",
         "retry_hint": "python -m data_access.services start 로 저장소를 다시 켠 뒤 재시도하세요."},
    ]})  # fmt: skip


class ChatRequest(BaseModel):
    """One question; `conversation_id` continues a stored conversation (the last 10 messages go
    into the prompt, as on the screen)."""

    message: str = Field(description=f"질문 (한국어 또는 영어, {MAX_MESSAGE_CHARS}자 이내)")
    conversation_id: ConversationId = Field(
        default=None, max_length=64, description="이어 갈 대화의 id (UUID, 없으면 새 대화)"
    )

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [
        {"message": "삼성전자를 가장 많이 보유한 ETF는?"},
        {"message": "Compare KODEX 200 and TIGER 200", "conversation_id": None},
    ]})  # fmt: skip


class MacroRequest(ChatRequest):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [
        {"message": "한국 기준금리 추이와 원인"},
        {"message": "What is the latest US CPI and how did it change over the year?"},
    ]})  # fmt: skip


class ContractRequest(ChatRequest):
    contract_id: ContractId = Field(
        max_length=200, description="저장된 계약서 id (GET /api/contract/contracts, 업로드 응답)"
    )

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [
        {"contract_id": EXAMPLE_CONTRACT, "message": "손해배상 한도는?"},
        {"contract_id": EXAMPLE_CONTRACT, "message": "What does the contract say about termination?"},
    ]})  # fmt: skip


class StockRequest(BaseModel):
    symbol: Symbol = Field(max_length=200, description="AAPL, 005930, 삼성전자, KR:005930")
    language: Literal["ko", "en"] = "ko"

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [
        {"symbol": "삼성전자", "language": "ko"}, {"symbol": "AAPL", "language": "en"},
    ]})  # fmt: skip


class OpeningRequest(BaseModel):
    date: Day = Field(default=None, max_length=40, json_schema_extra={"format": "date"},
                      description="YYYY-MM-DD (없으면 뉴스가 있는 최근 거래일)")  # fmt: skip

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [
        {"date": "2026-11-20"}, {"date": None},
    ]})  # fmt: skip


class TurnAnswer(AgentAnswer):
    """The shared answer contract plus where the turn was stored."""

    conversation_id: str | None = None
    run_id: str | None = None


class StepData(BaseModel):
    """One finished step as the stream sends it (seed 000 fields first)."""

    step_number: int
    code: str | None = None
    observations: str | None = None
    tool_calls: list[dict[str, Any]] = Field(default_factory=list)
    error: str | None = None
    kind: str = "code"  # code (ETF), node (graph agents), tool_attempt, llm_start, ...
    name: str | None = None
    thought: str | None = None
    duration_ms: int = 0


class CancelOut(BaseModel):
    """A running turn was asked to stop: its stream ends with the `cancelled` answer."""

    turn_id: str
    cancelled: bool


class ConversationDetail(BaseModel):
    conversation: Conversation
    messages: list[Message]


class StoreOut(BaseModel):
    ok: bool
    backend: str
    embedded: bool
    version: str | None
    error: str | None
    latency_ms: float


class HealthOut(BaseModel):
    status: Literal["ok", "degraded", "down"]
    postgres: StoreOut | None
    graph: StoreOut | None
    error: str | None = None
    versions: dict[str, str]


class VectorIndexOut(BaseModel):
    """The document vector index of the macro GraphRAG (seed 004 §9.3-3)."""

    status: Literal["ready", "missing", "stale", "degraded", "empty", "unavailable"]
    ready: bool
    label_ko: str
    detail: str
    documents: int | None
    graph_documents: int | None
    with_vector: int | None


class IndicatorsOut(BaseModel):
    """Seed 004's /admin/indicators: the latest evaluation run's KPIs, the weekly health, the
    projection lag per domain, the document vector index's readiness and the weekly report's
    schedule (None when this server does not run it)."""

    latest_run: dict[str, Any] | None
    weekly: dict[str, Any]
    projection_lag: list[dict[str, Any]]
    vector_index: VectorIndexOut
    weekly_report_schedule: dict[str, Any] | None
    status: Literal["healthy", "warning", "unknown"]
    notes: list[str]
