"""The answer contract every agent screen returns and every page renders (DESIGN.md, seed 004 §8.3).

Pydantic models so they validate on the way in, dump to JSON for the run store and downloads,
and read back from PostgreSQL unchanged.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Literal

from pydantic import BaseModel, Field

Freshness = Literal["healthy", "stale", "missing"]
AnswerMode = Literal["offline", "llm"]
StepStatus = Literal["ok", "error", "rejected", "skipped"]
AnswerStatus = Literal["ok", "error", "partial", "budget_exceeded", "cancelled"]


class Citation(BaseModel):
    """A document behind a statement (news article, report, contract clause)."""

    doc_id: str
    title: str
    url: str | None = None
    evidence_id: str | None = None
    source: str | None = None  # who published it: the news feed's title, 'OpenDART', ...


class DateRange(BaseModel):
    start: str | None = None  # ISO dates
    end: str | None = None


class StructuredCitation(BaseModel):
    """A query result behind a number: which dataset, which filter, how many rows, as of when."""

    dataset_code: str
    table: str
    filters: dict[str, Any] = Field(default_factory=dict)
    date_range: DateRange = Field(default_factory=DateRange)
    as_of_date: str | None = None
    query_fingerprint: str
    row_count: int
    # who published the rows: '한국은행 ECOS', 'OpenDART', '데모 데이터' (data_access.publishers)
    source: str | None = None


class TraceStep(BaseModel):
    """One step of an agent run: a tool call, a code action, an LLM call or a graph node."""

    step: int
    kind: Literal["tool", "code", "llm", "node", "guard", "understanding"]
    name: str  # tool name, node name or model
    arguments: dict[str, Any] = Field(default_factory=dict)
    code: str | None = None
    observation: str | None = None
    duration_ms: int = 0
    status: StepStatus = "ok"
    error: str | None = None
    model: str | None = None
    tokens: int = 0
    cost_usd: float = 0.0


class AgentAnswer(BaseModel):
    """What a screen shows under each answer, and what the run store keeps."""

    answer: str
    mode: AnswerMode
    model: str | None = None  # litellm model string, or None offline
    # cancelled: the user stopped the turn (중지); the trace holds the steps that ran before it
    status: AnswerStatus = "ok"
    error: str | None = None
    as_of_date: str | None = None
    data_freshness: dict[str, Freshness] = Field(default_factory=dict)
    citations: list[Citation] = Field(default_factory=list)
    structured_citations: list[StructuredCitation] = Field(default_factory=list)
    trace: list[TraceStep] = Field(default_factory=list)
    payload: dict[str, Any] = Field(default_factory=dict)  # screen-specific (chart data, report...)
    tokens: int = 0
    cost_usd: float = 0.0
    duration_ms: int = 0


def query_fingerprint(query: str, params: Any = None) -> str:
    """Stable short id of a query and its parameters (whitespace-insensitive)."""
    normalized = " ".join(query.split())
    blob = json.dumps([normalized, params], sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


def answer_to_markdown(answer: AgentAnswer, question: str | None = None) -> str:
    """The answer with its evidence as a Markdown document (the screens' download)."""
    lines: list[str] = []
    if question:
        lines += [f"# 질문\n\n{question}\n"]
    mode = "오프라인 플래너" if answer.mode == "offline" else f"LLM ({answer.model})"
    lines += [
        f"# 답변\n\n{answer.answer}\n",
        f"- 답변 모드: {mode}",
        f"- 기준일: {answer.as_of_date}",
    ]
    if answer.data_freshness:
        fresh = ", ".join(f"{k}={v}" for k, v in sorted(answer.data_freshness.items()))
        lines.append(f"- 데이터 신선도: {fresh}")
    if answer.citations:
        lines.append("\n## 문서 근거\n")
        lines += [f"- [{c.title}]({c.url or ''}) `{c.doc_id}`" for c in answer.citations]
    if answer.structured_citations:
        lines.append("\n## 정형 데이터 근거\n")
        lines.append("| dataset | 출처 | table | filters | 기간 | 행 수 | fingerprint |")
        lines.append("| --- | --- | --- | --- | --- | --- | --- |")
        for s in answer.structured_citations:
            period = f"{s.date_range.start or ''}~{s.date_range.end or ''}"
            filters = json.dumps(s.filters, ensure_ascii=False)
            lines.append(
                f"| {s.dataset_code} | {s.source or '-'} | {s.table} | {filters} | {period} "
                f"| {s.row_count} "
                f"| {s.query_fingerprint} |"
            )
    if answer.trace:
        lines.append("\n## 실행 단계\n")
        for t in answer.trace:
            err = f" — 오류: {t.error}" if t.error else ""
            lines.append(f"{t.step}. `{t.kind}:{t.name}` {t.status} ({t.duration_ms} ms){err}")
    return "\n".join(lines) + "\n"
