"""One stock report, shared by the screen, the CLI, tests and the benchmark.

    for event in stream_report("삼성전자"):
        ...  # ProgressEvent per node start/end, tool attempt, LLM call; then the AgentAnswer

The answer's `payload` carries the report, the stock snapshot, the figures and chart series,
the recommendation, the news used and the structured tool log. Every run is saved to the run
store with the report as Markdown and JSON artifacts.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from psycopg_pool import ConnectionPool

from agents.answer_stream import AnswerSink, TextPiece, settled, with_text
from agents.cancel import cancelled, requested
from agents.evidence import EvidenceCollector
from agents.inputs import check_text, last_answer, preview
from agents.stock.context import StockContext
from agents.stock.data import StockData
from agents.stock.deps import WorkflowDeps, emit
from agents.stock.index_quote import index_answer
from agents.stock.payload import build_answer, unknown_symbol_answer
from agents.stock.quotes import QuoteSource
from agents.stock.report import WORKFLOW_ERROR_REPORT
from agents.stock.state import Language, initial_state
from agents.stock.tools import StockToolkit, ToolLog
from agents.stock.workflow import shared_graph
from agents.stock.writer import ReportWriter, build_writer
from data_access import runs
from data_access.config import Settings, get_settings
from data_access.contracts import AgentAnswer, answer_to_markdown
from data_access.errors import WorkbenchError
from data_access.seed.news_text import has_batchim

logger = logging.getLogger(__name__)

SCREEN = "stock"
MAX_SYMBOL_LENGTH = 60


@dataclass
class ProgressEvent:
    """A node started or finished, a tool attempt was logged, or a model call began."""

    event: str
    data: dict[str, Any] = field(default_factory=dict)


def question_for(symbol: str, language: Language) -> str:
    return f"{symbol} 주식 분석 요청" if language == "ko" else f"{symbol} stock analysis"


def stream_report(
    symbol: str,
    *,
    language: Language = "ko",
    settings: Settings | None = None,
    pool: ConnectionPool | None = None,
    context: StockContext | None = None,
    writer: ReportWriter | None = None,
    quote_source: QuoteSource | None = None,
    save: bool = True,
    cancel: threading.Event | None = None,
    stream_text: bool = True,
) -> Iterator[ProgressEvent | TextPiece | AgentAnswer]:
    """Run the workflow for one symbol; yields progress events, then the AgentAnswer
    (`cancelled`, saved as such, when `cancel` was set, even in the middle of a node). With a
    model and `stream_text`, each section also comes as TextPieces while the model writes it
    (agents.answer_stream); the report holds every streamed section as shown."""
    from data_access.catalog import current_as_of_date

    settings = settings or get_settings()
    started = time.perf_counter()
    checked = check_text(symbol, what="종목 심볼", max_chars=MAX_SYMBOL_LENGTH)
    text = " ".join(checked.text.split())
    question = question_for(preview(text, MAX_SYMBOL_LENGTH) or "-", language)
    collector = EvidenceCollector()
    data = StockData(pool, collector, current_as_of_date(pool))
    early = _early_error(text, checked.problem, data, started)
    if early is not None:
        yield _saved(early, question, pool, save)
        return
    context = context or StockContext.from_settings(settings)
    log = ToolLog(listener=lambda record: emit({"event": "tool_attempt", **record}))
    tools = StockToolkit.build(data, context, log=log, quote_source=quote_source)
    deps = WorkflowDeps(tools=tools, data=data, writer=writer or build_writer(settings),
                        context=context)  # fmt: skip
    state = initial_state(text, question, language=language, max_iterations=context.max_iterations)
    state["notes"] = _interpretation_notes(text, data)
    final: dict[str, Any] = dict(state)
    sink = AnswerSink(cancel) if deps.writer.mode == "llm" and stream_text else None
    try:
        run = shared_graph().stream(state, {"configurable": {"deps": deps}},
                                    stream_mode=["custom", "values"])  # fmt: skip
        for item in with_text(run, cancel, sink):
            if isinstance(item, TextPiece):  # a section as the model writes it
                yield item
                continue
            mode, chunk = item
            if mode == "custom":
                yield ProgressEvent(event=str(chunk.pop("event", "")), data=dict(chunk))
            else:
                final = dict(chunk)
    except Exception as e:  # the seed's workflow-level error result
        logger.error("%s", {"workflow": "error", "message": str(e)})
        error = {"node": "workflow", "tool": None, "message": f"{type(e).__name__}: {e}"[:500],
                 "critical": True, "retryable": False}  # fmt: skip
        final = {**final, "status": "error", "errors": [error],
                 "final_report": WORKFLOW_ERROR_REPORT, "end_reason": str(e)}  # fmt: skip
    answer = build_answer(final, deps, log, started, pool)
    answer = settled(cancelled(answer) if requested(cancel) else answer, sink)
    yield _saved(answer, question, pool, save)


def generate_report(symbol: str, **kwargs: Any) -> AgentAnswer:
    """The whole report without streaming (CLI, tests, benchmark)."""
    kwargs.setdefault("stream_text", False)
    return last_answer(stream_report(symbol, **kwargs))


def _early_error(text: str, problem: str | None, data: StockData,
                 started: float) -> AgentAnswer | None:  # fmt: skip
    """Empty, oversized (`problem`, from agents.inputs) or unknown symbols are answered before
    the workflow starts."""
    if problem:
        return unknown_symbol_answer(preview(text, MAX_SYMBOL_LENGTH), problem, [], data, started)
    series = data.market_series(text)
    if series is not None:  # an index, VIX, BTC or WTI: its level, not a stock report (issue 25)
        return index_answer(text, series, data, started)
    if data.resolve(text) is not None:
        return None
    suggestions = [dict(s) for s in data.suggest(text)]
    names = ", ".join(f"{s['name']}({_ticker(str(s['id']))})" for s in suggestions)
    message = f"주식 데이터 조회 실패: 알 수 없는 종목입니다: '{text}'." + (
        f" 비슷한 종목: {names}" if names else " 비슷한 종목도 찾지 못했습니다.")  # fmt: skip
    return unknown_symbol_answer(text, message, suggestions, data, started)


def _ticker(security_id: str) -> str:
    """The code an analyst reads: '005930' for 'KR:005930', 'AAPL' for 'US:AAPL'."""
    return security_id.partition(":")[2] or security_id


def _interpretation_notes(text: str, data: StockData) -> list[str]:
    """Say so when a name only resembled the stock the report is about, with other candidates."""
    security_id = data.resolve(text)
    stock = data.stock(security_id) if security_id else None
    if stock is None or data.is_exact(text, stock):
        return []
    others = [
        f"{s['name']}({_ticker(str(s['id']))})"
        for s in data.suggest(text, 4)
        if s["id"] != security_id
    ]
    particle = "을" if has_batchim(text) else "를"
    note = f"입력 '{text}'{particle} {stock['name']}({_ticker(str(security_id))}) 종목으로 해석했습니다."
    return [note + (f" 다른 후보: {', '.join(others[:3])}" if others else "")]


def _saved(answer: AgentAnswer, question: str, pool: ConnectionPool | None,
           save: bool) -> AgentAnswer:  # fmt: skip
    """Store the run and its report artifacts; the answer says where (or why not)."""
    if not save:
        return answer
    try:
        run_id = runs.save_run(answer, screen=SCREEN, question=question, pool=pool)
        name = answer.payload.get("security_id") or "unknown"
        md = runs.save_artifact(run_id, "stock_report", f"{name}.md",
                                answer_to_markdown(answer, question), "text/markdown", pool)  # fmt: skip
        js = runs.save_artifact(run_id, "stock_report", f"{name}.json", report_json(answer, question),
                                "application/json", pool)  # fmt: skip
        answer.payload.update({"run_id": run_id, "artifacts": [md, js]})
    except WorkbenchError as e:
        logger.warning("stock report not saved: %s", e)
        answer.payload["save_error"] = str(e)
    return answer


def report_json(answer: AgentAnswer, question: str | None = None) -> str:
    """The report with its evidence as JSON (download and artifact); chart series left out."""
    document = answer.model_dump(mode="json")
    document["payload"] = {k: v for k, v in document["payload"].items() if k != "series"}
    return json.dumps({"question": question, **document}, ensure_ascii=False, indent=2)
