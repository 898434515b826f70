"""The seed's three tools — StockDataTool, FinancialNewsTool, CalculatorTool — with retries and logs.

Every call goes through `StockTool.run`: expected input errors come back at once in the seed's
error form (`status`, `error`, `retry_hint`); other failures are retried with 0.5·2^n s waits
(tenacity), and each attempt writes one structured JSON log record (timestamp, level, tool,
inputs, status, attempt, latency_ms, result_summary or error and retry_hint).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, ClassVar

import httpx
from tenacity import Retrying, retry_if_result, stop_after_attempt, wait_exponential

from agents.evidence import EvidenceCollector, Stopwatch
from agents.stock.calculator import CalculationError, evaluate
from agents.stock.context import RetryPolicy, StockContext
from agents.stock.data import StockData
from agents.stock.quotes import QuoteSource, database_quote, yfinance_quote
from data_access.errors import ToolInputError, WorkbenchError

logger = logging.getLogger(__name__)

ToolResult = dict[str, Any]
MAX_LOGGED_INPUT = 200
MAX_QUERY_LENGTH = 500
STOCK_HINT = "네트워크 연결을 확인하거나 심볼을 다시 확인해주세요."
NEWS_HINT = "API 키를 확인해주세요."
CALC_HINT = "계산식을 확인해주세요."


class UnknownSymbol(ToolInputError):
    """No stock matches the symbol; `suggestions` holds the nearest names."""

    def __init__(self, symbol: str, suggestions: list[dict[str, Any]]) -> None:
        names = ", ".join(f"{s['name']}({s['id']})" for s in suggestions[:5])
        hint = f" 비슷한 종목: {names}" if names else ""
        super().__init__(f"알 수 없는 종목입니다: '{symbol[:60]}'.{hint}")
        self.suggestions = suggestions


class ProviderError(WorkbenchError):
    """A configured external provider failed (retried like a store outage)."""


@dataclass
class ToolLog:
    """The structured attempt records of one run, also sent to `listener` as they happen."""

    records: list[dict[str, Any]] = field(default_factory=list)
    listener: Callable[[dict[str, Any]], None] | None = None

    def emit(self, record: dict[str, Any]) -> None:
        self.records.append(record)
        level = logging.ERROR if record["level"] == "ERROR" else logging.INFO
        logger.log(level, "%s", json.dumps(record, ensure_ascii=False, default=str))
        if self.listener is not None:
            self.listener(record)


class StockTool:
    """A tool: name, description, inputs and one `forward()`; `run()` adds retries and logs."""

    name: ClassVar[str]
    description: ClassVar[str]
    inputs: ClassVar[dict[str, dict[str, str]]]
    output_type: ClassVar[str] = "object"
    retry_hint: ClassVar[str] = STOCK_HINT

    def __init__(self, log: ToolLog, retry: RetryPolicy,
                 collector: EvidenceCollector | None = None) -> None:  # fmt: skip
        self.log = log
        self.retry = retry
        self.collector = collector

    def forward(self, **inputs: Any) -> ToolResult:
        raise NotImplementedError

    def summarize(self, result: ToolResult) -> str:
        return "ok"

    def error_result(self, inputs: dict[str, Any], error: Exception) -> ToolResult:
        return {"status": "error", "error": str(error), "retry_hint": self.retry_hint}

    def run(self, **inputs: Any) -> ToolResult:
        watch = Stopwatch()
        attempt = 0

        def once() -> ToolResult:
            nonlocal attempt
            attempt += 1
            return self._attempt(inputs, attempt)

        retrying = Retrying(
            stop=stop_after_attempt(self.retry.max_attempts),
            wait=wait_exponential(multiplier=self.retry.base_delay_s, exp_base=2, min=0),
            retry=retry_if_result(lambda r: r["status"] == "error" and r.get("_retryable")),
            retry_error_callback=lambda state: state.outcome.result() if state.outcome else {},
            sleep=self.retry.sleep or time.sleep,
        )
        result: ToolResult = retrying(once)
        retryable = bool(result.pop("_retryable", False))
        if result["status"] != "success":
            result["retryable"] = retryable  # the workflow does not retry bad input
        result["attempts"] = attempt
        if self.collector is not None:
            self.collector.add_call(
                self.name, _short_inputs(inputs), watch.ms,
                "ok" if result["status"] == "success" else "error",
                error=result.get("error"), result=result,
                preview=json.dumps(result, ensure_ascii=False, default=str),
            )  # fmt: skip
        return result

    def _attempt(self, inputs: dict[str, Any], attempt: int) -> ToolResult:
        started = time.perf_counter()
        retryable = False
        try:
            result = self.forward(**inputs)
        except ToolInputError as e:
            result = self.error_result(inputs, e)
        except Exception as e:  # the seed retries every failure but bad input
            logger.debug("%s attempt %s failed", self.name, attempt, exc_info=True)
            result, retryable = self.error_result(inputs, e), True
        record: dict[str, Any] = {
            "timestamp": datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "level": "INFO" if result["status"] == "success" else "ERROR",
            "tool": self.name, **_short_inputs(inputs), "status": result["status"],
            "attempt": attempt, "latency_ms": round((time.perf_counter() - started) * 1000, 1),
        }  # fmt: skip
        if result["status"] == "success":
            record["result_summary"] = self.summarize(result)
        else:
            record["error"], record["retry_hint"] = result.get("error"), result.get("retry_hint")
        self.log.emit(record)
        return {**result, "_retryable": retryable}


def _short_inputs(inputs: dict[str, Any]) -> dict[str, Any]:
    return {k: (v[:MAX_LOGGED_INPUT] + "…" if isinstance(v, str) and len(v) > MAX_LOGGED_INPUT
                else v) for k, v in inputs.items()}  # fmt: skip


class StockDataTool(StockTool):
    name = "stock_data_tool"
    description = "현재가, 등락, 거래량, 시가총액, PER, 52주 고가/저가를 조회합니다."
    inputs = {"symbol": {"type": "string", "description": "AAPL, 005930, 삼성전자, KR:005930"}}

    def __init__(self, log: ToolLog, retry: RetryPolicy, data: StockData, *,
                 use_yfinance: bool = False, source: QuoteSource | None = None) -> None:  # fmt: skip
        super().__init__(log, retry, data.collector)
        self.data = data
        self.use_yfinance = use_yfinance
        self.source: QuoteSource = source or (lambda sid: database_quote(data, sid))

    def forward(self, symbol: str = "", **_: Any) -> ToolResult:
        text = " ".join(str(symbol or "").split())
        if not text:
            raise ToolInputError("종목 심볼이 비어 있습니다.")
        if len(text) > 60:
            raise ToolInputError("종목 심볼이 너무 깁니다 (60자 이내).")
        security_id = self.data.resolve(text)
        if security_id is None:
            raise UnknownSymbol(text, [dict(s) for s in self.data.suggest(text)])
        notes: list[str] = []
        quote = self.source(security_id)  # names, sector and currency always come from here
        if self.use_yfinance:
            live, note = yfinance_quote(security_id)
            if live is not None:
                quote.update({k: v for k, v in live.items() if v is not None})
            else:
                notes.append(note)
        return {"symbol": text, **quote, "status": "success", "notes": notes}

    def error_result(self, inputs: dict[str, Any], error: Exception) -> ToolResult:
        out: ToolResult = {"symbol": str(inputs.get("symbol", ""))[:60], "status": "error",
                           "error": f"주식 데이터 조회 실패: {error}", "retry_hint": STOCK_HINT}  # fmt: skip
        if isinstance(error, UnknownSymbol):
            out["suggestions"] = error.suggestions
        return out

    def summarize(self, result: ToolResult) -> str:
        return f"Price: {result['current_price']:,.2f}, Change: {result['change']:+,.2f}"


class FinancialNewsTool(StockTool):
    name = "financial_news_tool"
    description = "종목·주제 관련 뉴스를 검색합니다 (기본: 로컬 뉴스 저장소, 설정 시 Tavily)."
    inputs = {"query": {"type": "string", "description": "검색어 (예: AAPL earnings)"},
              "max_results": {"type": "integer", "description": "최대 결과 수 (1~20)"}}  # fmt: skip
    retry_hint = NEWS_HINT

    def __init__(self, log: ToolLog, retry: RetryPolicy, data: StockData, *,
                 tavily_api_key: str | None = None, tavily_url: str = "") -> None:  # fmt: skip
        super().__init__(log, retry, data.collector)
        self.data = data
        self.tavily_api_key = tavily_api_key
        self.tavily_url = tavily_url

    @property
    def provider(self) -> str:
        return "tavily" if self.tavily_api_key else "local"

    def forward(self, query: str = "", max_results: int = 5, **_: Any) -> ToolResult:
        text = " ".join(str(query or "").split())
        if not text:
            raise ToolInputError("검색어가 비어 있습니다.")
        if len(text) > MAX_QUERY_LENGTH:
            raise ToolInputError(f"검색어가 너무 깁니다 ({MAX_QUERY_LENGTH}자 이내).")
        limit = max(1, min(int(max_results), 20))
        results, total = (
            self._tavily(text, limit) if self.tavily_api_key else self._local(text, limit)
        )
        return {"status": "success", "query": text, "results": results, "total_results": total,
                "provider": self.provider}  # fmt: skip

    def _local(self, query: str, limit: int) -> tuple[list[dict[str, Any]], int]:
        rows, total = self.data.news(query, limit)
        results = [
            {"title": r["title"], "url": r["url"], "snippet": _snippet(r["body"]),
             "published_date": r["published_at"].date().isoformat(), "doc_id": r["pk"],
             "source": r["source"], "lang": r["lang"]}
            for r in rows
        ]  # fmt: skip
        return results, total

    def _tavily(self, query: str, limit: int) -> tuple[list[dict[str, Any]], int]:
        try:
            response = httpx.post(
                self.tavily_url, timeout=10.0,
                headers={"Authorization": f"Bearer {self.tavily_api_key}"},
                json={"query": query, "max_results": limit, "topic": "news"},
            )  # fmt: skip
            if response.status_code in (401, 403):
                raise ToolInputError("Tavily API 키가 유효하지 않습니다.")
            response.raise_for_status()
            items = response.json().get("results", [])
        except httpx.HTTPError as e:
            raise ProviderError(f"Tavily 검색 실패: {type(e).__name__}: {e}") from e
        results = [
            {"title": i.get("title", ""), "url": i.get("url", ""),
             "snippet": _snippet(i.get("content", "")),
             "published_date": i.get("published_date") or "N/A", "doc_id": i.get("url", "")}
            for i in items[:limit]
        ]  # fmt: skip
        return results, len(items)

    def summarize(self, result: ToolResult) -> str:
        return f"{len(result['results'])} articles ({result['provider']})"


def _snippet(text: str, size: int = 180) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= size else text[:size].rstrip() + "…"


class CalculatorTool(StockTool):
    name = "calculator_tool"
    description = "사칙연산, //, %, **, abs/round/min/max/sqrt/log/exp 계산 (eval 없이)."
    inputs = {"expression": {"type": "string", "description": "계산식 (예: 2 + 3 * 4)"}}
    retry_hint = CALC_HINT

    def forward(self, expression: str = "", **_: Any) -> ToolResult:
        try:
            value = evaluate(expression)
        except CalculationError as e:
            raise ToolInputError(str(e)) from e
        return {"status": "success", "result": value, "expression": expression}

    def error_result(self, inputs: dict[str, Any], error: Exception) -> ToolResult:
        expression = str(inputs.get("expression", ""))
        return {"status": "error", "error": str(error), "expression": _short_inputs(
            {"e": expression})["e"], "retry_hint": CALC_HINT}  # fmt: skip

    def summarize(self, result: ToolResult) -> str:
        return f"{result['expression']} = {result['result']}"


def calculate(expression: str) -> ToolResult:
    """CalculatorTool as a function: `calculate("2 + 3 * 4")["result"] == 14.0`."""
    return CalculatorTool(ToolLog(), RetryPolicy(max_retries=0)).run(expression=expression)


@dataclass
class StockToolkit:
    """The tools of one run, sharing its log, retry policy and evidence collector."""

    stock: StockDataTool
    news: FinancialNewsTool
    local_news: FinancialNewsTool  # the fallback when a configured provider fails
    calculator: CalculatorTool
    log: ToolLog

    @classmethod
    def build(cls, data: StockData, context: StockContext, *, log: ToolLog | None = None,
              quote_source: QuoteSource | None = None) -> StockToolkit:  # fmt: skip
        log = log or ToolLog()
        retry = context.retry
        return cls(
            stock=StockDataTool(log, retry, data, use_yfinance=context.use_yfinance,
                                source=quote_source),
            news=FinancialNewsTool(log, retry, data, tavily_api_key=context.tavily_api_key,
                                   tavily_url=context.tavily_url),
            local_news=FinancialNewsTool(log, retry, data),
            calculator=CalculatorTool(log, retry, data.collector),
            log=log,
        )  # fmt: skip
