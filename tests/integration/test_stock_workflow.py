"""The stock workflow on the real demo database and real LangGraph runs (offline writer).

Failures are injected at the quote source only (a store outage the tool must retry through);
everything else — PostgreSQL, the graph, tools, retries, the run store — is the real thing.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Callable
from datetime import date
from typing import Any

import pytest

from agents.evidence import EvidenceCollector
from agents.stock.context import RetryPolicy, StockContext
from agents.stock.data import StockData
from agents.stock.deps import WorkflowDeps
from agents.stock.quotes import database_quote
from agents.stock.service import generate_report
from agents.stock.state import initial_state
from agents.stock.tools import StockToolkit
from agents.stock.workflow import build_graph, should_continue
from agents.stock.writer import TemplateWriter
from data_access import runs
from data_access.errors import StoreUnavailable
from data_access.postgres import fetch_all, fetch_one

pytestmark = pytest.mark.usefixtures("demo_data")

AS_OF = date(2026, 11, 20)


def _context(sleeps: list[float], **overrides: Any) -> StockContext:
    return StockContext(retry=RetryPolicy(sleep=sleeps.append), **overrides)


def _flaky(pool: Any, failures: int) -> tuple[Callable[[str], dict[str, Any]], list[int]]:
    """A quote source whose first `failures` calls fail like a store outage."""
    data = StockData(pool, EvidenceCollector(), AS_OF)
    calls = [0]

    def source(security_id: str) -> dict[str, Any]:
        calls[0] += 1
        if calls[0] <= failures:
            raise StoreUnavailable("PostgreSQL connection failed: injected outage")
        return database_quote(data, security_id)

    return source, calls


def _nodes(answer: Any) -> list[str]:
    return [t.name for t in answer.trace if t.kind == "node"]


@pytest.mark.parametrize("symbol", ["삼성전자", "005930", "KR:005930", "A005930"])
def test_every_symbol_form_reports_the_same_stock(symbol: str, pg_pool: Any) -> None:
    answer = generate_report(symbol, pool=pg_pool, save=False)
    assert answer.status == "ok" and answer.mode == "offline"
    assert answer.payload["security_id"] == "KR:005930"
    assert answer.payload["report"].startswith("# 삼성전자 (005930) 종목 리포트")


def test_report_figures_match_the_database(pg_pool: Any) -> None:
    answer = generate_report("AAPL", pool=pg_pool, save=False)
    assert answer.status == "ok", answer.error
    assert _nodes(answer) == ["research", "analyze", "recommend", "review"]
    closes = [float(r["close"]) for r in fetch_all(
        "SELECT close FROM stock_prices WHERE security_id = 'US:AAPL' AND trade_date <= %s"
        " ORDER BY trade_date DESC LIMIT 253", (AS_OF,), pool=pg_pool)][::-1]  # fmt: skip
    f = answer.payload["figures"]
    assert f["price"] == closes[-1]
    # calendar periods: the base close is the last one on or before (last bar - 1 month / 1 year)
    for period, interval in (("1m", "1 month"), ("1y", "1 year")):
        base = fetch_one(
            "SELECT close FROM stock_prices WHERE security_id = 'US:AAPL' AND trade_date <="
            f" (%s::date - interval '{interval}')::date ORDER BY trade_date DESC LIMIT 1",
            (AS_OF,), pool=pg_pool,
        )  # fmt: skip
        assert base and f["returns"][period] == pytest.approx(closes[-1] / float(base["close"]) - 1)
    assert "그 직전 거래일 종가" in answer.payload["report"]  # the definition, under the table
    assert f["ma"]["ma20"] == pytest.approx(sum(closes[-20:]) / 20)
    band = fetch_one(
        "SELECT max(high) AS hi, min(low) AS lo FROM (SELECT high, low FROM stock_prices"
        " WHERE security_id = 'US:AAPL' AND trade_date <= %s ORDER BY trade_date DESC LIMIT 252) x",
        (AS_OF,), pool=pg_pool,
    )  # fmt: skip
    assert band and f["high_52w"] == float(band["hi"]) and f["low_52w"] == float(band["lo"])
    peers = fetch_all(
        "SELECT DISTINCT ON (s.security_id) f.pe FROM stocks s JOIN stock_fundamentals f"
        " USING (security_id) WHERE s.sector = 'IT하드웨어' AND f.as_of_date <= %s"
        " ORDER BY s.security_id, f.as_of_date DESC", (AS_OF,), pool=pg_pool,
    )  # fmt: skip
    positive = [float(p["pe"]) for p in peers if p["pe"] is not None and p["pe"] > 0]
    assert f["sector_median_pe"] == pytest.approx(statistics.median(positive))
    rec = answer.payload["recommendation"]
    assert rec["stance"] in ("overweight", "neutral", "underweight") and rec["reason_texts"]
    assert [c["status"] for c in rec["calculations"]] == ["success"] * len(rec["calculations"])
    # News from the local store, cited as documents; every query cited as structured evidence.
    assert answer.citations and all(c.url for c in answer.citations)
    tables = {c.table for c in answer.structured_citations}
    assert {"stock_prices", "stock_fundamentals", "news_articles"} <= tables
    assert "Tavily가 설정되지 않아 로컬 뉴스 저장소" in answer.answer


def test_run_and_report_artifacts_are_saved(pg_pool: Any) -> None:
    answer = generate_report("SK하이닉스", pool=pg_pool)
    stored = runs.get_run(answer.payload["run_id"], pool=pg_pool)
    assert stored is not None and stored.screen == "stock"
    assert stored.answer.payload["figures"]["security_id"] == "KR:000660"
    artifacts = runs.list_artifacts(run_id=answer.payload["run_id"], pool=pg_pool)
    assert {a.content_type for a in artifacts} == {"text/markdown", "application/json"}
    document = json.loads(next(a.content for a in artifacts if a.name.endswith(".json")))
    assert document["payload"]["figures"]["security_id"] == "KR:000660"
    assert "series" not in document["payload"]


def test_a_failing_tool_recovers_on_retry_with_backoff_and_logs(pg_pool: Any) -> None:
    sleeps: list[float] = []
    source, calls = _flaky(pg_pool, failures=1)
    answer = generate_report("AAPL", pool=pg_pool, save=False, context=_context(sleeps),
                             quote_source=source)  # fmt: skip
    assert answer.status == "ok" and calls[0] == 2 and sleeps == [0.5]
    log = [r for r in answer.payload["tool_log"] if r["tool"] == "stock_data_tool"]
    assert [(r["attempt"], r["status"], r["level"]) for r in log] == [
        (1, "error", "ERROR"), (2, "success", "INFO")]  # fmt: skip
    assert "injected outage" in log[0]["error"] and log[0]["retry_hint"]
    assert log[1]["result_summary"].startswith("Price: ") and log[1]["symbol"] == "AAPL"
    for record in answer.payload["tool_log"]:
        assert {"timestamp", "level", "tool", "status", "attempt", "latency_ms"} <= record.keys()
        json.dumps(record)


def test_stock_data_failing_all_attempts_retries_the_research_node(pg_pool: Any) -> None:
    sleeps: list[float] = []
    source, _ = _flaky(pg_pool, failures=4)  # every attempt of the first research
    answer = generate_report("AAPL", pool=pg_pool, save=False, context=_context(sleeps),
                             quote_source=source)  # fmt: skip
    assert sleeps == [0.5, 1.0, 2.0]
    assert _nodes(answer) == ["research", "research", "analyze", "recommend", "review"]
    workflow = answer.payload["workflow"]
    assert workflow["status"] == "done" and workflow["iteration"] == 2
    assert [e["critical"] for e in workflow["errors"]] == [True]


def test_two_critical_errors_end_the_run(pg_pool: Any) -> None:
    source, _ = _flaky(pg_pool, failures=100)
    answer = generate_report("AAPL", pool=pg_pool, save=False, context=_context([]),
                             quote_source=source)  # fmt: skip
    assert answer.status == "error"
    assert _nodes(answer) == ["research", "research", "fail"]
    assert "치명적 오류가 2회" in answer.answer and "injected outage" in answer.answer
    assert answer.payload["workflow"]["iteration"] == 2


def test_the_iteration_cap_ends_the_run(pg_pool: Any) -> None:
    source, _ = _flaky(pg_pool, failures=100)
    answer = generate_report("AAPL", pool=pg_pool, save=False,
                             context=_context([], max_iterations=1), quote_source=source)  # fmt: skip
    assert answer.status == "error" and _nodes(answer) == ["research", "fail"]
    assert "최대 반복 횟수(1회)" in answer.answer


def test_workflow_level_errors_use_the_seed_result(pg_pool: Any) -> None:
    def broken(security_id: str) -> dict[str, Any]:  # a quote without the fields analysis needs
        return {"security_id": security_id, "name": "x", "current_price": 1.0, "change": 0.0}

    answer = generate_report("AAPL", pool=pg_pool, save=False, quote_source=broken)
    assert answer.status == "error" and answer.answer == "워크플로우 실행 중 오류가 발생했습니다."
    assert answer.payload["workflow"]["errors"][0]["node"] == "workflow"


def test_unknown_symbols_get_the_error_form_with_nearest_matches(pg_pool: Any) -> None:
    answer = generate_report("삼송전자", pool=pg_pool, save=False)
    assert answer.status == "error" and _nodes(answer) == []
    form = answer.payload["error_form"]
    assert form["status"] == "error" and form["error"].startswith("주식 데이터 조회 실패")
    assert form["retry_hint"] == "네트워크 연결을 확인하거나 심볼을 다시 확인해주세요."
    assert answer.payload["suggestions"][0]["id"] == "KR:005930" and "비슷한 종목" in form["error"]
    assert "혹시 이 종목을 찾으셨나요?" in answer.answer


@pytest.mark.parametrize(
    ("typed", "first", "never"),
    [("애픙", "US:AAPL", None), ("005390", "KR:005930", "KR:005380"), ("ZZZQ", None, None)],
)
def test_suggestions_are_names_that_look_alike_not_codes_sharing_digits(
    typed: str, first: str | None, never: str | None, pg_pool: Any
) -> None:
    answer = generate_report(typed, pool=pg_pool, save=False)
    ids = [s["id"] for s in answer.payload["suggestions"]]
    assert answer.status == "error" and (ids[:1] == [first] if first else ids == [])
    assert never not in ids
    if not ids:
        assert "비슷한 종목도 찾지 못했습니다" in answer.answer


def test_a_resembling_name_is_reported_with_the_interpretation(pg_pool: Any) -> None:
    answer = generate_report("삼성전쟈", pool=pg_pool, save=False)
    assert answer.status == "ok" and answer.payload["security_id"] == "KR:005930"
    assert "입력 '삼성전쟈'를 삼성전자(005930) 종목으로 해석했습니다. 다른 후보:" in answer.answer
    exact = generate_report("Samsung Electronics", pool=pg_pool, save=False)
    assert "해석했습니다" not in exact.answer


@pytest.mark.parametrize("symbol", ["", "   ", "X" * 100_000])
def test_empty_and_huge_inputs_get_a_clear_message(symbol: str, pg_pool: Any) -> None:
    answer = generate_report(symbol, pool=pg_pool, save=False)
    assert answer.status == "error" and ("입력해 주세요" in answer.answer)
    assert len(answer.answer) < 500


def test_configured_tavily_failure_falls_back_to_local_news(pg_pool: Any) -> None:
    context = _context([], tavily_api_key="test-key", tavily_url="http://127.0.0.1:9/search")
    answer = generate_report("AAPL", pool=pg_pool, save=False, context=context)
    assert answer.status == "partial" and answer.payload["news_provider"] == "local"
    failed = [r for r in answer.payload["tool_log"] if r["status"] == "error"]
    assert len(failed) == 4 and all(r["error"].startswith("Tavily 검색 실패") for r in failed)
    assert "Tavily 뉴스 검색이 실패해 로컬 뉴스 저장소를 사용했습니다." in answer.answer
    assert answer.citations


def test_yfinance_enabled_but_missing_falls_back_to_the_database(pg_pool: Any) -> None:
    answer = generate_report("AAPL", pool=pg_pool, save=False,
                             context=_context([], use_yfinance=True))  # fmt: skip
    assert answer.status == "ok" and answer.payload["stock"]["source"] == "database"
    assert "yfinance가 설치되어 있지 않아 데이터베이스 값을 사용했습니다." in answer.answer


def test_english_report(pg_pool: Any) -> None:
    answer = generate_report("AAPL", language="en", pool=pg_pool, save=False)
    assert answer.payload["report"].startswith("# Apple (AAPL) Stock report")
    assert "## Key figures" in answer.answer and "not investment advice" in answer.answer


def test_build_graph_compiles_with_a_checkpointer(pg_pool: Any) -> None:
    from langgraph.checkpoint.memory import InMemorySaver

    data = StockData(pg_pool, EvidenceCollector(), AS_OF)
    context = StockContext()
    deps = WorkflowDeps(tools=StockToolkit.build(data, context), data=data,
                        writer=TemplateWriter(), context=context)  # fmt: skip
    graph = build_graph(deps, checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "stock-test"}}
    final = graph.invoke(initial_state("NVDA", "NVDA 주식 분석 요청"), config=config)
    assert final["status"] == "done" and final["iteration"] == 1
    assert graph.get_state(config).values["final_report"].startswith("# NVIDIA")
    assert [m["role"] for m in final["messages"]] == ["user"] + ["assistant"] * 4


def test_should_continue_follows_the_seed() -> None:
    base: dict[str, Any] = {"iteration": 1, "max_iterations": 3, "status": "researching",
                            "errors": [], "stock_data": None}  # fmt: skip
    critical = {"node": "research", "tool": None, "message": "x", "critical": True,
                "retryable": True}  # fmt: skip
    assert should_continue({**base}) == "continue"  # type: ignore[typeddict-item]
    assert should_continue({**base, "iteration": 3}) == "end"  # type: ignore[typeddict-item]
    assert should_continue({**base, "errors": [critical, critical]}) == "end"  # type: ignore[typeddict-item]
    assert should_continue({**base, "status": "done"}) == "end"  # type: ignore[typeddict-item]
    ok = {**base, "stock_data": {"status": "success"}}
    assert should_continue(ok) == "end"  # type: ignore[arg-type]
    bad_input = {**base, "stock_data": {"status": "error", "retryable": False}}
    assert should_continue(bad_input) == "end"  # type: ignore[arg-type]
