"""One opening-script run, shared by the screen, the CLI, tests and the benchmark.

    for event in stream_opening(date(2026, 11, 20)):
        ...  # a NodeEvent per graph node as it finishes, then the AgentAnswer

The answer's `payload` is the seed's result object (`theme`, `nutshell`, `scripts`) plus a
`context` entry with what the screen draws beside it (market context, title words, keyword
counts, validation, files written). Every run is saved to the run store; a valid script is
also saved as `opening_result.json` (+ dated history copy) and as a run-store artifact.
"""

from __future__ import annotations

import json
import logging
import threading
import time
import uuid
from collections.abc import Iterator
from datetime import date, timedelta
from typing import Any

from langgraph.errors import GraphRecursionError
from psycopg_pool import ConnectionPool

from agents.cancel import cancelled, requested, until_cancelled
from agents.evidence import EvidenceCollector
from agents.inputs import clean_text, last_answer, preview, rejected_answer
from agents.llm import TurnBudget
from agents.opening import news_store
from agents.opening.files import new_run_cache
from agents.opening.graph import NODE_LABELS, RunDeps, build_graph
from agents.opening.models import ChatModelChoice, build_chat_model
from agents.opening.prompts import date_ko
from agents.opening.tools import ToolContext, make_tools
from agents.opening.trace import NodeEvent, TraceBuilder, movers_table, tool_results
from data_access import runs
from data_access.config import Settings, get_settings
from data_access.contracts import AgentAnswer, Citation
from data_access.errors import ToolInputError, WorkbenchError
from data_access.trading_calendar import any_market_session

logger = logging.getLogger(__name__)

SCREEN = "opening"
ARTIFACT_KIND = "opening_script"
RECURSION_LIMIT = 80
DAYS_LISTED = 180
RESULT_KEYS = ("theme", "nutshell", "scripts")


def parse_day(value: date | str | None, pool: ConnectionPool | None) -> date:
    """A date, an ISO 'YYYY-MM-DD' string, or nothing (the latest trading day with news)."""
    if isinstance(value, date):
        return value
    text = clean_text(value)
    if not text:
        latest = news_store.latest_news_day(pool)
        if latest is None:
            raise ToolInputError("뉴스가 있는 거래일이 없습니다. 먼저 데이터를 적재하세요.")
        return latest
    try:
        return date.fromisoformat(text[:10])
    except ValueError as e:
        raise ToolInputError(
            f"날짜 형식이 올바르지 않습니다: {preview(text, 40)!r} (YYYY-MM-DD)"
        ) from e


def news_days(
    pool: ConnectionPool | None = None, days: int = DAYS_LISTED
) -> list[tuple[date, int]]:
    """Trading days with news in their window (newest first) and the article count of each."""
    latest = news_store.latest_news_day(pool)
    if latest is None:
        return []
    return news_store.trading_days_with_news(pool, latest - timedelta(days=days))


def stream_opening(
    day: date | str | None = None,
    *,
    settings: Settings | None = None,
    pool: ConnectionPool | None = None,
    save: bool = True,
    choice: ChatModelChoice | None = None,
    cancel: threading.Event | None = None,
) -> Iterator[NodeEvent | AgentAnswer]:
    """Run the graph for `day` (default: the latest trading day with news); `choice` overrides
    the chat model picked from settings (tests drive a scripted model through it). `cancel`
    stops the run, also in the middle of a node: answered and saved as `cancelled`."""
    settings = settings or get_settings()
    started = time.perf_counter()
    try:
        session = any_market_session(parse_day(day, pool), pool)
    except ToolInputError as e:  # a bad date is answered, not raised: nothing ran, nothing saved
        yield rejected_answer(str(e), started)
        return
    the_day = session.session  # a day no market traded reads as the previous session, said so
    collector = EvidenceCollector()
    cache = new_run_cache(settings.home, f"{the_day.isoformat()}-{uuid.uuid4().hex[:8]}")
    choice = choice or build_chat_model(settings)
    tools = make_tools(ToolContext(cache=cache, day=the_day, pool=pool, collector=collector))
    deps = RunDeps(day=the_day, choice=choice, tools=tools, cache=cache, home=settings.home,
                   collector=collector, budget=TurnBudget.from_settings(settings), pool=pool)  # fmt: skip
    trace = TraceBuilder(deps)
    state: dict[str, Any] = {}
    error: str | None = None
    try:
        clock = time.perf_counter()
        updates = build_graph(deps).stream({}, {"recursion_limit": RECURSION_LIMIT},
                                           stream_mode="updates")  # fmt: skip
        for update in until_cancelled(updates, cancel):
            for node, values in update.items():
                ms = int((time.perf_counter() - clock) * 1000)
                clock = time.perf_counter()
                state.update({k: v for k, v in (values or {}).items() if k != "messages"})
                yield trace.node(node, ms, values or {})
    except GraphRecursionError:
        error = f"에이전트가 {RECURSION_LIMIT}단계 안에 끝내지 못해 멈췄습니다."
    except WorkbenchError as e:
        logger.warning("opening run failed: %s", e)
        error = str(e)
    finally:
        cache.clean()
    answer = _answer(deps, trace, state, error, started, pool)
    if session.moved:
        answer.payload.setdefault("context", {})["date_note"] = session.note_ko()
        answer.answer = f"> {session.note_ko()}\n\n{answer.answer}"
    if requested(cancel):
        answer = cancelled(
            answer.model_copy(update={"payload": {"context": answer.payload["context"]}})
        )
    if save:
        _save(answer, the_day, pool)
    yield answer


def run_opening(day: date | str | None = None, **kwargs: Any) -> AgentAnswer:
    """The whole run without streaming (CLI, tests, benchmark)."""
    return last_answer(stream_opening(day, **kwargs))


def result_of(answer: AgentAnswer) -> dict[str, Any]:
    """The seed's result object (`opening_result.json`) of an answer."""
    return {k: answer.payload[k] for k in RESULT_KEYS if k in answer.payload}


def script_markdown(result: dict[str, Any], day: str) -> str:
    lines = [f"# {date_ko(day)} 오프닝 스크립트", "", f"**오늘의 한마디:** {result['nutshell']}",
             "", "## 핵심 테마"]  # fmt: skip
    for i, t in enumerate(result["theme"], 1):
        related = ", ".join(f"{n['title']} (`{n['pk']}`)" for n in t["related_news"])
        lines += [f"{i}. **{t['headline']}** — {t['description']}", f"   - 관련 기사: {related}"]
    lines += ["", "## 대본"]
    for turn in result["scripts"]:
        lines += [f"**{turn['speaker']}:** {turn['text']}", ""]
    return "\n".join(lines)


def _status_and_text(state: dict[str, Any], error: str | None,
                     deps: RunDeps) -> tuple[str, str, str | None]:  # fmt: skip
    day = deps.day.isoformat()
    reason = state.get("stop_reason")
    if error:
        return "error", f"대본을 만들지 못했습니다: {error}", error
    if reason == "no_news":
        msg = f"{day} 뉴스 창(전일 16:00 ET~당일 18:00 ET)에 기사가 없어 대본을 만들 수 없습니다. 다른 날짜를 고르세요."
        return "error", msg, msg
    if reason == "budget_exceeded":
        return "budget_exceeded", deps.budget.message(), deps.budget.message()
    validation = state.get("validation") or {}
    if not validation.get("ok") or "scripts" not in state:
        reasons = "; ".join(validation.get("errors", [])) or "최종 출력이 없습니다."
        msg = f"규칙을 어긴 출력이라 저장하지 않았습니다: {reasons}"
        return "error", msg, msg
    notice = deps.fallback_notice()  # the offline planner finished a model run: say so
    return ("partial" if notice else "ok"), script_markdown(state, day), notice


def _answer(deps: RunDeps, trace: TraceBuilder, state: dict[str, Any], error: str | None,
            started: float, pool: ConnectionPool | None) -> AgentAnswer:  # fmt: skip
    status, text, err = _status_and_text(state, error, deps)
    read = {c["pk"]: c for c in trace.read_articles()}
    valid = status in ("ok", "partial")  # partial: a valid script the offline planner finished
    payload: dict[str, Any] = {k: state[k] for k in RESULT_KEYS if k in state and valid}
    payload["context"] = {
        "date": deps.day.isoformat(),
        "market": state.get("context_json", {}),
        "news_meta": state.get("news_meta", {}),
        "keyword_counts": trace.keyword_counts(),
        "validation": state.get("validation", {}),
        "saved_files": list(deps.saved) if valid else [],
        "tool_results": tool_results(deps.collector),
        "market_movers": movers_table(deps.collector),
    }
    return AgentAnswer(
        answer=text, mode=deps.choice.mode, model=deps.choice.model_id,  # type: ignore[arg-type]
        status=status, error=err, as_of_date=deps.day.isoformat(),  # type: ignore[arg-type]
        data_freshness=_freshness(deps.day, pool),
        citations=[Citation(doc_id=pk, title=c["title"], url=c.get("url"), source=c.get("source"))
                   for pk, c in read.items()],  # fmt: skip
        structured_citations=deps.collector.unique_citations(), trace=trace.steps,
        payload=payload, tokens=sum(c.tokens for c in deps.llm_calls),
        cost_usd=round(sum(c.cost_usd for c in deps.llm_calls), 6),
        duration_ms=int((time.perf_counter() - started) * 1000),
    )  # fmt: skip


def _freshness(day: date, pool: ConnectionPool | None) -> dict[str, Any]:
    from data_access.catalog import domain_freshness

    try:
        fresh = domain_freshness(day, pool)
    except WorkbenchError as e:
        logger.warning("freshness unavailable: %s", e)
        return {}
    return {k: v for k, v in fresh.items() if k in ("news", "equity", "etf", "macro")}


def _save(answer: AgentAnswer, day: date, pool: ConnectionPool | None) -> None:
    """Run store: the run always, the script as an artifact when it is valid."""
    try:
        run_id = runs.save_run(answer, screen=SCREEN, question=f"{day.isoformat()} 오프닝 스크립트",
                               pool=pool)  # fmt: skip
        answer.payload["context"]["run_id"] = run_id
        if answer.status in ("ok", "partial"):
            content = json.dumps(result_of(answer), ensure_ascii=False, indent=2)
            runs.save_artifact(run_id, ARTIFACT_KIND, f"opening_result_{day.isoformat()}.json",
                               content, "application/json", pool=pool)  # fmt: skip
    except WorkbenchError as e:
        logger.warning("could not save the opening run: %s", e)
        answer.payload["context"]["save_error"] = str(e)


def past_runs(pool: ConnectionPool | None = None, limit: int = 20) -> list[runs.StoredRun]:
    return runs.list_runs(SCREEN, limit=limit, pool=pool)


__all__ = ["NODE_LABELS", "NodeEvent", "news_days", "past_runs", "result_of", "run_opening",
           "script_markdown", "stream_opening"]  # fmt: skip
