"""Checks of a Macro answer before it is shown (seed 004 §13.9-3, §13.11): every figure in the
text has a citation behind it, and a general-knowledge answer carries none.

    check = check_citations(text, state)
    check.text          # the text, an uncited figure marked '3.2% _(⚠️ 출처 없음)_'
    check.uncited       # ['3.2%']
    check.trace_step()  # guard step `citation_check`: error when something was marked or dropped

A figure (or date) is cited when the evidence of an agent that carries a citation holds it: a
structured citation for what it read from the stores (key points, series, paths), or a
document citation for what it quotes from documents and events. The question, the as-of date,
the agents' notes and warnings, and the document list back their own figures. What no cited
evidence holds is marked in place (the offline text is built from the evidence, so marking
keeps every line readable; a model's text has already lost such sentences through the writer's
gate, which checks against the same `cited_pool`). A general-knowledge turn (`llm_direct`)
uses no data: its store citations are dropped, and a figure in it has nothing to back it.
The citation rules themselves are `agents.model_checks.citation_gaps`, which the eval judge
applies too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from agents.macro.state import AgentResponse
from agents.model_checks import (
    MACRO,
    EvidencePool,
    citation_gaps,
    claims_in,
    is_bundled_reference,
    pool_from,
    unverified,
)
from data_access.contracts import Citation, StructuredCitation, TraceStep

CHECK_STEP = "citation_check"
MARK_KO = " _(⚠️ 출처 없음)_"
MARK_EN = " _(⚠️ no source)_"


@dataclass
class CitationCheck:
    text: str
    citations: list[Citation]
    structured: list[StructuredCitation]
    uncited: list[str] = field(default_factory=list)  # figures as written, without repeats
    dropped: list[str] = field(default_factory=list)  # citations a general answer cannot carry
    problems: list[str] = field(default_factory=list)  # citation_gaps messages (Korean)

    @property
    def failed(self) -> bool:
        return bool(self.uncited or self.dropped or self.problems)

    def notice(self) -> str:
        """One Korean sentence for the top of the answer and the turn's `error`."""
        parts = []
        if self.uncited:
            parts.append(f"인용 근거(정형·문서 인용)가 없는 수치 {len(self.uncited)}개를 "
                         f"'출처 없음'으로 표시했습니다 (미인용: {', '.join(self.uncited)})")  # fmt: skip
        if self.dropped:
            parts.append("일반 지식 답변은 데이터를 쓰지 않으므로 붙어 있던 인용 "
                         f"{len(self.dropped)}개를 뺐습니다 ({', '.join(self.dropped)})")  # fmt: skip
        parts += [p for p in self.problems if not self.uncited]
        return "; ".join(parts) + "." if parts else ""

    def trace_step(self) -> TraceStep:
        return TraceStep(
            step=0, kind="guard", name=CHECK_STEP,
            arguments={"uncited": self.uncited, "dropped": self.dropped,
                       "structured_citations": len(self.structured),
                       "citations": len(self.citations)},
            observation=self.notice() or "모든 수치에 인용 근거가 있습니다.",
            status="error" if self.failed else "ok", error=self.notice() or None,
        )  # fmt: skip


def cited_pool(state: dict[str, Any], citations: list[Citation]) -> EvidencePool:
    """What cited evidence establishes: the agents that carry a citation, the question, dates
    and notes of the turn, the document list (as `[n]` markers and titles)."""
    r = state.get("route")
    responses: dict[str, AgentResponse] = state.get("agent_responses", {})
    backed = [
        {"key_points": resp.key_points, "series": [s.points for s in resp.series],
         "paths": resp.paths}
        for resp in responses.values()
        if resp.structured_citations or resp.citations
    ]  # fmt: skip
    notes = [resp.uncertainty for resp in responses.values()]
    pool = pool_from(backed, notes, list(state.get("as_of_notes", [])),
                     [c.title for c in citations], r.question if r is not None else "",
                     (state.get("web_fallback") or {}).get("reason") or "",
                     as_of=state.get("final_as_of_date"), doc_count=len(citations))  # fmt: skip
    for d in (state.get("requested_as_of_date"), getattr(r, "requested_as_of_date", None)):
        if d:
            pool.dates.add(str(d)[:10])
    return pool


def check_citations(text: str, state: dict[str, Any], citations: list[Citation],
                    structured: list[StructuredCitation], lang: str = "ko") -> CitationCheck:  # fmt: skip
    """The answer's text and citation lists after the rules (see the module docstring)."""
    r = state.get("route")
    general = r is not None and r.tool_mode == "llm_direct"
    dropped: list[str] = []
    if general:  # no data was used: store citations do not belong here
        dropped = [s.dataset_code for s in structured]
        dropped += [c.doc_id for c in citations if not is_bundled_reference(c)]
        citations = [c for c in citations if is_bundled_reference(c)]
        structured = []
    pool = cited_pool(state, citations)
    # figures and dates no cited evidence holds (document markers are the writer check's
    # business: an offline text has none)
    bad = [c for c in unverified(text, pool, MACRO) if c.kind in ("number", "date")]
    figures = [c for c in claims_in(text, MACRO) if c.kind == "number"]
    problems = [message for _, message in citation_gaps(
        citations, structured, general=general, need_structured=bool(figures) and not general
        and not citations)]  # fmt: skip
    mark, pieces, last = MARK_EN if lang == "en" else MARK_KO, [], 0
    for c in sorted(bad, key=lambda c: c.start):  # each uncited claim marked where it ends
        pieces += [text[last : c.end], mark]
        last = c.end
    marked = "".join(pieces) + text[last:]
    uncited = list(dict.fromkeys(c.text for c in bad))
    return CitationCheck(marked, citations, structured, uncited, dropped, problems)
