"""Per-run evidence: the tool calls an agent made and the structured citations behind them.

Every agent screen needs the same bookkeeping: which tool ran with which arguments, how long it
took, whether it failed, and which query (dataset, table, filters, dates, row count) stands
behind each number. Tools report here; the agent runner turns the records into the answer's
`trace` and `structured_citations`.

Tools find the collector either through an explicit reference (set when the tools are built
for one run — needed because smolagents runs generated code in a worker thread, where context
variables of the caller are not visible) or through the context variable `collecting()` sets.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from data_access.contracts import DateRange, StructuredCitation, query_fingerprint

MAX_RESULT_PREVIEW = 2000


@dataclass
class ToolCallRecord:
    """One tool invocation as it happened."""

    seq: int
    tool: str
    arguments: dict[str, Any]
    duration_ms: int
    status: str  # ok | error | rejected
    error: str | None = None
    result: Any = None  # parsed JSON result (kept for charts)
    preview: str = ""  # the result text, cut to MAX_RESULT_PREVIEW


@dataclass
class EvidenceCollector:
    """Thread-safe accumulator of tool calls and citations for one agent run."""

    calls: list[ToolCallRecord] = field(default_factory=list)
    citations: list[StructuredCitation] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add_call(
        self,
        tool: str,
        arguments: dict[str, Any],
        duration_ms: int,
        status: str,
        *,
        error: str | None = None,
        result: Any = None,
        preview: str = "",
    ) -> ToolCallRecord:
        with self._lock:
            record = ToolCallRecord(
                seq=len(self.calls) + 1,
                tool=tool,
                arguments=dict(arguments),
                duration_ms=duration_ms,
                status=status,
                error=error,
                result=result,
                preview=preview[:MAX_RESULT_PREVIEW],
            )
            self.calls.append(record)
            return record

    def add_citation(self, citation: StructuredCitation) -> None:
        with self._lock:
            self.citations.append(citation)

    def calls_since(self, seq: int) -> list[ToolCallRecord]:
        """Calls recorded after the call numbered `seq` (0 = all)."""
        with self._lock:
            return [c for c in self.calls if c.seq > seq]

    @property
    def last_seq(self) -> int:
        with self._lock:
            return self.calls[-1].seq if self.calls else 0

    def unique_citations(self) -> list[StructuredCitation]:
        """Citations without repeats (the same query run twice is cited once)."""
        seen: set[tuple[str, str]] = set()
        out: list[StructuredCitation] = []
        for c in list(self.citations):
            key = (c.query_fingerprint, c.table)
            if key not in seen:
                seen.add(key)
                out.append(c)
        return out


_current: ContextVar[EvidenceCollector | None] = ContextVar("evidence_collector", default=None)


def current_collector() -> EvidenceCollector | None:
    return _current.get()


@contextmanager
def collecting(collector: EvidenceCollector | None = None) -> Iterator[EvidenceCollector]:
    """Make `collector` (or a new one) the current collector for the block."""
    collector = collector or EvidenceCollector()
    token = _current.set(collector)
    try:
        yield collector
    finally:
        _current.reset(token)


def make_citation(
    *,
    dataset_code: str,
    table: str,
    query: str,
    params: dict[str, Any] | None,
    row_count: int,
    filters: dict[str, Any] | None = None,
    start: str | None = None,
    end: str | None = None,
    as_of_date: str | None = None,
) -> StructuredCitation:
    """A structured citation for one query; the fingerprint covers query text and parameters."""
    return StructuredCitation(
        dataset_code=dataset_code,
        table=table,
        filters=dict(filters if filters is not None else (params or {})),
        date_range=DateRange(start=start, end=end),
        as_of_date=as_of_date,
        query_fingerprint=query_fingerprint(query, params),
        row_count=row_count,
    )


class Stopwatch:
    """Milliseconds since creation (for tool and step durations)."""

    def __init__(self) -> None:
        self._start = time.perf_counter()

    @property
    def ms(self) -> int:
        return int((time.perf_counter() - self._start) * 1000)
