"""Stored work: conversations (list, read, delete), past runs by id, contracts (list, upload).

The same run store the screens read (`data_access.runs`): a conversation started over the API
is listed on its screen's "지난 대화" picker, and one from the screen can be continued here.
"""

from __future__ import annotations

from typing import Annotated, Literal, TypeVar

from fastapi import APIRouter, File, Query, Response, UploadFile

from agents.contract import service as contract_service
from agents.contract.models import ContractInfo
from api.deps import StoresDep
from api.errors import ApiError
from api.models import ConversationDetail
from api.routes_agents import ERRORS
from api.stores import Stores
from api.turns import parse_uuid
from data_access import runs

router = APIRouter(tags=["저장된 작업 (stored work)"])

ChatScreen = Literal["etf", "macro", "contract"]
RunScreen = Literal["etf", "macro", "contract", "stock", "opening"]
T = TypeVar("T")


def _or_404(found: T | None, what: str, key: str, listing: str) -> T:
    if found is None:
        raise ApiError(
            404, f"찾을 수 없는 {what}입니다: {key}", f"GET {listing} 로 목록을 확인하세요."
        )
    return found


def _conversation_or_404(conversation_id: str, stores: Stores) -> runs.Conversation:
    found = runs.get_conversation(parse_uuid(conversation_id, "대화"), pool=stores.pool())
    return _or_404(found, "대화", conversation_id, "/api/conversations?screen=etf")


@router.get("/api/conversations", response_model=list[runs.Conversation], responses=ERRORS,
            summary="화면별 대화 목록 (최근 것부터)")  # fmt: skip
def list_conversations(stores: StoresDep, screen: ChatScreen = "etf",
                       limit: Annotated[int, Query(ge=1, le=200)] = 20) -> list[runs.Conversation]:  # fmt: skip
    return runs.list_conversations(screen, limit=limit, pool=stores.pool())


@router.get("/api/conversations/{conversation_id}", response_model=ConversationDetail,
            responses=ERRORS, summary="대화와 메시지")  # fmt: skip
def read_conversation(conversation_id: str,
                      stores: StoresDep) -> ConversationDetail:  # fmt: skip
    found = _conversation_or_404(conversation_id, stores)
    messages = runs.get_messages(found.conversation_id, pool=stores.pool())
    return ConversationDetail(conversation=found, messages=messages)


@router.delete("/api/conversations/{conversation_id}", status_code=204, responses=ERRORS,
               summary="대화 삭제 (메시지와 실행 기록 포함)")  # fmt: skip
def delete_conversation(conversation_id: str, stores: StoresDep) -> Response:
    found = _conversation_or_404(conversation_id, stores)
    runs.delete_conversation(found.conversation_id, pool=stores.pool())
    return Response(status_code=204)


@router.get(
    "/api/runs", response_model=list[runs.StoredRun], responses=ERRORS, summary="지난 실행 목록"
)
def list_runs(stores: StoresDep, screen: RunScreen,
              limit: Annotated[int, Query(ge=1, le=200)] = 20) -> list[runs.StoredRun]:  # fmt: skip
    return runs.list_runs(screen, limit=limit, pool=stores.pool())


@router.get("/api/runs/{run_id}", response_model=runs.StoredRun, responses=ERRORS,
            summary="실행 하나 (답변, 단계, 인용)")  # fmt: skip
def read_run(run_id: str, stores: StoresDep) -> runs.StoredRun:
    found = runs.get_run(parse_uuid(run_id, "실행"), pool=stores.pool())
    return _or_404(found, "실행 기록", run_id, "/api/runs?screen=etf")


@router.get("/api/contract/contracts", response_model=list[ContractInfo], responses=ERRORS,
            summary="저장된 계약서 (표준·예시 포함)")  # fmt: skip
def list_contracts(stores: StoresDep) -> list[ContractInfo]:
    from agents.contract import store as contract_store

    pool = stores.pool()
    contract_service.ensure_samples(pool, stores.settings)
    return contract_store.list_contracts(pool)


@router.post("/api/contract/contracts", response_model=ContractInfo, status_code=201,
             responses=ERRORS, summary="계약서 업로드 (PDF, DOCX, TXT, Markdown; 5 MB 이하)")  # fmt: skip
def upload_contract(file: Annotated[UploadFile, File()],
                    stores: StoresDep) -> ContractInfo:  # fmt: skip
    data = file.file.read()
    info = contract_service.ingest_file(file.filename or "계약서", data, pool=stores.pool(),
                                        settings=stores.settings)  # fmt: skip
    return info
