"""The seed's `FinancialAgentState`: what the research → analysis → recommendation → review
graph reads and writes. List fields are append-only (LangGraph reducers), so each node returns
only what it adds.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, Literal, TypedDict

from agents.stock.research_filings import FiledAccounts  # LangGraph reads the hints at runtime

Status = Literal["researching", "analyzing", "recommending", "reviewing", "done", "error"]
Language = Literal["ko", "en"]
MAX_ITERATIONS = 3


class Message(TypedDict):
    role: str
    content: str


class WorkflowError(TypedDict):
    node: str
    tool: str | None
    message: str
    critical: bool
    retryable: bool


class ToolHistoryEntry(TypedDict):
    node: str
    iteration: int
    tool: str
    inputs: dict[str, Any]
    status: str
    attempts: int
    error: str | None


class FinancialAgentState(TypedDict, total=False):
    messages: Annotated[list[Message], operator.add]
    stock_symbol: str
    user_query: str
    iteration: int
    max_iterations: int
    status: Status
    errors: Annotated[list[WorkflowError], operator.add]
    tool_history: Annotated[list[ToolHistoryEntry], operator.add]
    stock_data: dict[str, Any] | None
    news_data: dict[str, Any] | None
    analysis: dict[str, Any] | None  # figures, chart series, text
    recommendations: dict[str, Any] | None  # stance, score, reasons, risks, calculations, text
    final_report: str | None
    # Beyond the seed: the answer language, notes on data sources, why the run ended.
    language: Language
    notes: Annotated[list[str], operator.add]
    end_reason: str | None
    filed_accounts: FiledAccounts | None  # imported OpenDART 주요계정 (research_filings)


def initial_state(symbol: str, user_query: str, *, language: Language = "ko",
                  max_iterations: int = MAX_ITERATIONS) -> FinancialAgentState:  # fmt: skip
    """The seed's initialization step."""
    return FinancialAgentState(
        messages=[Message(role="user", content=user_query)],
        stock_symbol=symbol,
        user_query=user_query,
        iteration=0,
        max_iterations=max_iterations,
        status="researching",
        errors=[],
        tool_history=[],
        stock_data=None,
        news_data=None,
        analysis=None,
        recommendations=None,
        final_report=None,
        language=language,
        notes=[],
        end_reason=None,
    )


def critical_errors(state: FinancialAgentState) -> list[WorkflowError]:
    return [e for e in state.get("errors", []) if e["critical"]]
