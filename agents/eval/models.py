"""Contracts of the evaluation backend (seed 004 §5 Step 4, §6, §13.2-16..21, §13.7).

Golden cases come from JSON files; a run produces one `CaseResult` per case, a `KpiReport`
and, for each failing case, a `FailureReport` that reproduces it. Everything is pydantic so it
validates when read from files or PostgreSQL and dumps to JSON for the run reports and the UI.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field, model_validator

from agents.eval.opening_editor import EditorCoverage

Suite = Literal["macro", "etf", "contract", "opening", "stock", "guard"]
SUITES: tuple[Suite, ...] = ("macro", "etf", "contract", "opening", "stock", "guard")
FactKind = Literal[
    "contains", "any_of", "not_contains", "sql_value", "cites_document", "cites_dataset"
]
FreshnessStatus = Literal["healthy", "stale", "missing", "none"]
RunKind = Literal["run", "rerun"]
RunStatus = Literal["running", "finished", "error"]

# Failure categories, most decisive first: a case gets the first one found as its primary
# category and keeps the whole list of problems.
CATEGORY_ORDER: tuple[str, ...] = (
    "error",
    "budget_exceeded",
    "guard_bypass",
    "routing_mismatch",
    "not_declined",
    "wrongly_declined",
    "freshness_stale",
    "wrong_fact",
    "missing_structured_citation",
    "missing_citation",
    "unexpected_status",
    "fact_error",
)
CATEGORY_LABELS_KO: dict[str, str] = {
    "error": "실행 오류",
    "budget_exceeded": "예산 초과",
    "guard_bypass": "금지 쿼리 통과",
    "routing_mismatch": "라우팅 불일치",
    "not_declined": "답할 수 없는 질문에 다른 답",
    "wrongly_declined": "답할 수 있는 질문을 거절",
    "freshness_stale": "최신성 경고 누락",
    "wrong_fact": "사실 불일치",
    "missing_structured_citation": "정형 근거 누락",
    "missing_citation": "문서 근거 누락",
    "unexpected_status": "예상과 다른 상태",
    "fact_error": "검증 쿼리 오류",
}


class Fact(BaseModel):
    """Something the answer must (or must not) contain, checked at eval time.

    - `contains` / `not_contains`: literal `text` (case-insensitive, whitespace-normalized).
    - `any_of`: at least one of `texts`.
    - `sql_value`: `sql` runs read-only (`%(as_of)s` is the data as-of date); the first column
      of the first row (of every row with `all_rows`) formatted with `format` must appear.
    - `cites_document` / `cites_dataset`: a document citation `doc_id` / a structured citation
      with `dataset_code` is attached to the answer.
    `mode` restricts a fact to offline or LLM answers (offline text differs from a model's).
    """

    kind: FactKind
    text: str | None = None
    texts: list[str] = Field(default_factory=list)
    sql: str | None = None
    format: str | None = None  # e.g. "{:,.2f}"; numbers default to "{:,.2f}"
    formats: list[str] = Field(default_factory=list)  # any one of these renderings suffices
    all_rows: bool = False
    doc_id: str | None = None
    dataset_code: str | None = None
    mode: Literal["offline", "llm"] | None = None
    note: str | None = None

    @model_validator(mode="after")
    def _complete(self) -> Fact:
        need = {
            "contains": self.text,
            "not_contains": self.text,
            "any_of": self.texts,
            "sql_value": self.sql,
            "cites_document": self.doc_id,
            "cites_dataset": self.dataset_code,
        }[self.kind]
        if not need:
            raise ValueError(f"fact of kind {self.kind} is missing its value")
        return self


class GoldenCase(BaseModel):
    """One golden case. `question` is the input a user types (for the stock suite the symbol,
    for the opening suite the day); `inputs` holds suite-specific arguments (contract_id,
    language, corpus, path ...)."""

    id: str
    suite: Suite
    question: str
    inputs: dict[str, Any] = Field(default_factory=dict)
    expected_tool_mode: Literal["single", "parallel", "llm_direct"] | None = None
    expected_target_agents: list[str] | None = None
    expected_intent: str | None = None
    expected_status: list[str] = Field(default_factory=lambda: ["ok", "partial"])
    facts: list[Fact] = Field(default_factory=list)
    require_structured_citation: bool = False
    require_citation: bool = False
    expect_freshness_warning: bool = False
    description: str | None = None
    # Analyst question sets (issue 14): `split` keeps a held-out half nobody tunes on; `history`
    # holds the earlier questions of the same conversation (asked first, in order); a case with
    # `expect_declined` passes only when the answer says plainly what it cannot answer
    # (`payload["declined"]`) instead of answering another question.
    split: Literal["tune", "heldout"] | None = None
    history: list[str] = Field(default_factory=list)
    expect_declined: bool = False


class FactResult(BaseModel):
    kind: FactKind
    passed: bool
    expected: list[str] = Field(default_factory=list)  # what was looked for
    message: str = ""
    error: str | None = None  # the check itself failed (bad SQL, no row)


class Problem(BaseModel):
    category: str
    message: str


class CypherStats(BaseModel):
    """Cypher runs recorded in one answer's trace and evidence (see `agents.eval.traces`)."""

    runs: int = 0
    schema_mismatch: int = 0
    empty: int = 0
    direction_empty: int = 0
    rejected: int = 0


class GuardStats(BaseModel):
    """Hostile queries sent through one guarded path and how many were blocked."""

    language: Literal["cypher", "sql"]
    path: str
    attempted: int = 0
    blocked: int = 0
    blocked_by: dict[str, int] = Field(default_factory=dict)  # guard | store
    bypassed: list[str] = Field(default_factory=list)
    store_unchanged: bool | None = None


class CaseResult(BaseModel):
    """What one golden case did in one run (seed §13.2-16 fields plus pass/fail)."""

    run_id: str | None = None
    suite: Suite
    case_id: str
    question: str
    passed: bool
    split: Literal["tune", "heldout"] | None = None  # analyst sets (issue 14); None: regression
    declined: bool = False  # the answer said the question is outside the data
    failure_category: str | None = None
    problems: list[Problem] = Field(default_factory=list)
    status: str | None = None  # the answer's status (ok, partial, error, budget_exceeded)
    mode: str | None = None  # offline | llm
    intent: str | None = None
    tool_mode: str | None = None
    expected_tool_mode: str | None = None
    target_agents: list[str] = Field(default_factory=list)
    expected_target_agents: list[str] | None = None
    structured_citation_count: int = 0
    citation_count: int = 0
    freshness_status: FreshnessStatus = "none"
    freshness_warning: bool = False
    latency_ms: int = 0
    fallback_calls: int = 0
    fallback_events: list[str] = Field(default_factory=list)
    cypher: CypherStats = Field(default_factory=CypherStats)
    guard: GuardStats | None = None
    facts: list[FactResult] = Field(default_factory=list)
    answer_excerpt: str = ""
    error: str | None = None
    tokens: int = 0
    cost_usd: float = 0.0
    coverage: EditorCoverage | None = None  # opening suite: the editor's top-3 and what is covered
    created_at: datetime | None = None


class KpiValue(BaseModel):
    """One §6 KPI: `value` is None when the run has no data for it (never reported as 100%)."""

    name: str
    label_ko: str
    value: float | None
    target: float
    unit: Literal["%", "ms", "calls"]
    comparator: Literal[">=", "<="]
    met: bool | None
    numerator: float | None = None
    denominator: float | None = None
    note: str = ""


class SuiteStats(BaseModel):
    suite: str
    cases: int
    passed: int
    pass_rate: float | None
    p95_latency_ms: float | None


class KpiReport(BaseModel):
    run_id: str | None = None
    computed_at: datetime
    case_count: int
    passed_count: int
    pass_rate: float | None
    kpis: list[KpiValue]
    suites: list[SuiteStats] = Field(default_factory=list)
    failure_categories: dict[str, int] = Field(default_factory=dict)
    tool_mode_counts: dict[str, int] = Field(default_factory=dict)
    target_agent_counts: dict[str, int] = Field(default_factory=dict)
    freshness_status_counts: dict[str, int] = Field(default_factory=dict)
    structured_citation_stats: dict[str, float] = Field(default_factory=dict)

    def kpi(self, name: str) -> KpiValue:
        return next(k for k in self.kpis if k.name == name)


class SuiteRun(BaseModel):
    run_id: str
    kind: RunKind = "run"
    suites: list[str]
    status: RunStatus = "running"
    mode: str = "offline"
    model: str | None = None
    started_at: datetime
    finished_at: datetime | None = None
    case_count: int = 0
    passed_count: int = 0
    pass_rate: float | None = None
    error: str | None = None
    report_dir: str | None = None
    kpis: KpiReport | None = None
    results: list[CaseResult] = Field(default_factory=list)


class FailureReport(BaseModel):
    """Everything needed to reproduce a failing case (seed §7-4): input, route, queries,
    evidence, answer, and the command that reruns it."""

    run_id: str
    suite: str
    case_id: str
    category: str
    problems: list[Problem]
    input: dict[str, Any]
    route: dict[str, Any] = Field(default_factory=dict)
    queries: list[dict[str, Any]] = Field(default_factory=list)
    evidence: dict[str, Any] = Field(default_factory=dict)
    answer: str = ""
    error: str | None = None
    reproduce: str = ""
    file_path: str | None = None
    created_at: datetime | None = None


class KpiPoint(BaseModel):
    """One run's KPI values, for trend charts."""

    run_id: str
    started_at: datetime
    pass_rate: float | None
    case_count: int
    kpis: dict[str, float | None]


class WeeklySummary(BaseModel):
    """§13.2-18/21: the last `days` of runs summarized (stored as a row too)."""

    created_at: datetime
    days: int
    window_start: datetime
    window_end: datetime
    run_count: int
    case_count: int
    avg_pass_rate: float | None
    routing_mismatch_count: int
    avg_structured_citations: float | None
    top_failure_categories: list[tuple[str, int]] = Field(default_factory=list)
    top_failed_cases: list[tuple[str, int]] = Field(default_factory=list)
    status: Literal["healthy", "warning"]
    reasons: list[str] = Field(default_factory=list)
