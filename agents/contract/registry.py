"""ToolRegistry: gives the tools' schemas to the model, runs calls in parallel, retries transient
failures (1 s / 2 s / 4 s), and returns every failure as a result, never as an exception.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from tenacity import Retrying, retry_if_exception_type, stop_after_attempt, wait_chain, wait_fixed

from agents.contract.tools import BaseTool
from agents.evidence import EvidenceCollector, Stopwatch, make_citation
from data_access.errors import QueryFailed, StoreUnavailable, ToolInputError, WorkbenchError

logger = logging.getLogger(__name__)

BACKOFF_S = (1.0, 2.0, 4.0)  # seed 002: up to 3 retries with exponential backoff
TRANSIENT = (StoreUnavailable, QueryFailed, TimeoutError, ConnectionError)
MAX_WORKERS = 4


@dataclass(frozen=True)
class ToolCall:
    """One call the planner (offline or LLM) asked for."""

    name: str
    arguments: dict[str, Any]
    call_id: str = ""


@dataclass
class ToolOutcome:
    call: ToolCall
    result: dict[str, Any]
    duration_ms: int
    attempts: int = 1
    tags: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.result.get("status") == "ok"


def error_result(error: str, retry_hint: str) -> dict[str, Any]:
    return {"status": "error", "error": error, "retry_hint": retry_hint}


class ToolRegistry:
    def __init__(self, tools: Sequence[BaseTool], collector: EvidenceCollector | None = None,
                 backoff_s: Sequence[float] = BACKOFF_S,
                 scope: dict[str, Any] | None = None) -> None:  # fmt: skip
        self.tools = {t.name: t for t in tools}
        self.scope = dict(scope or {})  # e.g. {"contract_id": ...}: cited with every call
        self.collector = collector or EvidenceCollector()
        self.backoff_s = tuple(backoff_s)

    def schemas(self) -> list[dict[str, Any]]:
        """OpenAI-style function schemas (what litellm's `tools=` takes)."""
        return [{"type": "function", "function": t.get_schema()} for t in self.tools.values()]

    def execute(self, call: ToolCall) -> ToolOutcome:
        watch = Stopwatch()
        tool = self.tools.get(call.name)
        attempts = 0
        if tool is None:
            result = error_result(f"알 수 없는 도구입니다: {call.name}",
                                  f"다음 도구 중에서 고르세요: {', '.join(self.tools)}")  # fmt: skip
        else:
            result, attempts = self._run(tool, call.arguments)
        outcome = ToolOutcome(call, result, watch.ms, max(attempts, 1))
        self._record(outcome)
        return outcome

    def execute_many(self, calls: Sequence[ToolCall]) -> list[ToolOutcome]:
        """All calls in parallel; outcomes in the order of `calls`."""
        if len(calls) <= 1:
            return [self.execute(c) for c in calls]
        with ThreadPoolExecutor(max_workers=min(MAX_WORKERS, len(calls))) as pool:
            return list(pool.map(self.execute, calls))

    def _run(self, tool: BaseTool, arguments: dict[str, Any]) -> tuple[dict[str, Any], int]:
        retrying = Retrying(
            stop=stop_after_attempt(len(self.backoff_s) + 1),
            wait=wait_chain(*[wait_fixed(s) for s in self.backoff_s]) if self.backoff_s else wait_fixed(0),
            retry=retry_if_exception_type(TRANSIENT),
            reraise=True,
        )  # fmt: skip
        attempts = 0
        try:
            for attempt in retrying:
                with attempt:
                    attempts += 1
                    result = tool.execute(**arguments)
        except ToolInputError as e:
            return error_result(str(e), "인자를 도구 스키마에 맞게 고쳐 다시 호출하세요."), attempts
        except TRANSIENT as e:
            return error_result(f"저장소 오류로 {attempts}번 시도했지만 실패했습니다: {e}",
                                "잠시 뒤 다시 시도하세요."), attempts  # fmt: skip
        except WorkbenchError as e:
            return error_result(str(e), "다른 도구나 다른 인자를 쓰세요."), attempts
        problem = tool.validate_result(result)
        if problem:
            return error_result(
                problem, "다른 표현이나 다른 도구(hybrid_search)로 찾아 보세요."
            ), attempts
        return {"status": "ok", **result}, attempts

    def _record(self, outcome: ToolOutcome) -> None:
        result = outcome.result
        status = "ok" if outcome.ok else "error"
        preview = json.dumps(result, ensure_ascii=False)
        self.collector.add_call(outcome.call.name, outcome.call.arguments, outcome.duration_ms,
                                status, error=result.get("error"), result=result,
                                preview=preview)  # fmt: skip
        if outcome.ok:
            self.collector.add_citation(make_citation(
                dataset_code="contract", table="contract_articles", query=outcome.call.name,
                params=outcome.call.arguments, row_count=count_articles(result),
                filters={**self.scope, "tool": outcome.call.name, **outcome.call.arguments},
            ))  # fmt: skip


def count_articles(result: dict[str, Any]) -> int:
    if "matched_articles" in result:
        return len(result["matched_articles"])
    return sum(len(v) for v in result.get("results", {}).values())
