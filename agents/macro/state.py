"""Contracts of the Macro Q&A graph: each agent's response (seed 004 §8.3) and the shared state
(§2.4), plus the run context the nodes share (stores, settings, the evidence of the turn)."""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Annotated, Any, TypedDict

from psycopg_pool import ConnectionPool
from pydantic import BaseModel, Field

from agents.llm import TurnBudget
from agents.macro.router import Route
from data_access.config import Settings
from data_access.contracts import Citation, Freshness, StructuredCitation, TraceStep
from data_access.graph.base import GraphStore


class Series(BaseModel):
    """A time series an agent used (drawn as a chart under the answer)."""

    key: str
    title: str
    unit: str = ""
    points: list[tuple[str, float]] = Field(default_factory=list)


class AgentResponse(BaseModel):
    """What every agent returns to the supervisor (seed 004 §8.3)."""

    agent: str
    status: str = "ok"  # ok | empty | error | degraded | skipped
    as_of_date: str | None = None
    data_freshness: dict[str, Freshness] = Field(default_factory=dict)
    key_points: list[str] = Field(default_factory=list)
    citations: list[Citation] = Field(default_factory=list)
    structured_citations: list[StructuredCitation] = Field(default_factory=list)
    uncertainty: list[str] = Field(default_factory=list)
    needs_web_fallback: bool = False
    # the graph path fell back to SQL (a Cypher template's SQL fallback ran: graph empty or down)
    needs_rdb_fallback: bool = False
    needs_companion: bool = False  # single mode: ask the supervisor for one auxiliary call
    series: list[Series] = Field(default_factory=list)
    paths: list[dict[str, Any]] = Field(default_factory=list)  # event → target edges
    trace: list[TraceStep] = Field(default_factory=list)
    duration_ms: int = 0
    model: str | None = None  # the role's model that drove this agent (§2.5); None: rules only


class MacroState(TypedDict, total=False):
    question: str
    route: Route
    intent: str
    target_domains: list[str]
    requested_as_of_date: str | None
    max_stale_hours: dict[str, int]
    fallback_queries: Annotated[list[str], operator.add]
    agent_responses: Annotated[dict[str, AgentResponse], operator.or_]  # the later answer wins
    data_freshness: dict[str, Freshness]
    needs_web_fallback: bool
    needs_rdb_fallback: bool
    companion_used: bool
    web_fallback: dict[str, Any]
    final_as_of_date: str | None
    as_of_validation_passed: bool
    as_of_notes: list[str]
    conflicts: list[dict[str, Any]]  # agents.macro.conflicts.Conflict, dumped
    citations: list[Citation]
    structured_citations: list[StructuredCitation]
    key_points: list[str]
    answer: str
    answer_model: str | None
    llm_trace: Annotated[list[TraceStep], operator.add]


@dataclass
class RunContext:
    """Everything a node needs besides the state (not serialized into the graph state)."""

    settings: Settings
    pool: ConnectionPool | None
    store: GraphStore | None
    as_of_date: str
    freshness: dict[str, Freshness] = field(default_factory=dict)
    macro_model: str | None = None  # litellm model for answers / Text2Cypher, None = offline
    router_model: str | None = None
    budget: TurnBudget | None = None  # per-turn token/cost budget of the LLM calls
    llm_steps: list[TraceStep] = field(default_factory=list)  # every LLM call of the turn
