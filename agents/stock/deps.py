"""The dependencies every node of the stock workflow shares, and its progress events."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from agents.stock.context import StockContext
from agents.stock.data import StockData
from agents.stock.state import FinancialAgentState
from agents.stock.tools import StockToolkit
from agents.stock.writer import ReportWriter
from data_access.contracts import TraceStep

NodeFn = Callable[["WorkflowDeps", FinancialAgentState], dict[str, Any]]


@dataclass
class WorkflowDeps:
    """What the nodes use: tools, data, the writer, settings and the run's trace."""

    tools: StockToolkit
    data: StockData
    writer: ReportWriter
    context: StockContext
    trace: list[TraceStep] = field(default_factory=list)
    current_step: int = 0  # the node running now; its tool and LLM steps share the number
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add_step(self, step: TraceStep) -> None:
        with self._lock:
            self.trace.append(step)

    def begin_step(self) -> int:
        with self._lock:
            self.current_step += 1
            return self.current_step


def emit(event: dict[str, Any]) -> None:
    """Send a progress event to a `stream_mode="custom"` consumer (no-op outside a graph run)."""
    try:
        from langgraph.config import get_stream_writer

        get_stream_writer()(event)
    except RuntimeError:  # called outside a graph run (a tool used on its own)
        pass
