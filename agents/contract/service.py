"""The contract screen's functions, shared by the page, the CLI, tests and the benchmark.

info = ingest_file("계약서.pdf", data)           # or ensure_samples()
answer = ask(info.contract_id, "손해배상 한도는?")  # AgentAnswer with clause citations
hits = search(info.contract_id, "damages cap", mode="hybrid")
conversation_id = start_conversation("손해배상 한도는?")  # then ask(..., conversation_id=...)
contract_id, turns = load_conversation(conversation_id)  # reopen a past conversation
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from functools import partial
from typing import Any

from psycopg_pool import ConnectionPool

from agents.answer_stream import AnswerSink, TextPiece, settled, with_text
from agents.cancel import cancelled, requested
from agents.contract import store
from agents.contract.clause_judge import retrieved
from agents.contract.graph import GraphDeps, build_graph
from agents.contract.index import ContractIndex, SearchMode, get_index
from agents.contract.ingest.pipeline import detect_type, ensure_samples, ingest_bytes, upload_name
from agents.contract.llm import LlmSession
from agents.contract.models import ContractInfo, ParsedContract
from agents.contract.planner import PlanContext
from agents.contract.registry import BACKOFF_S, ToolRegistry
from agents.contract.spoken import digits
from agents.contract.synthesis import FoundClause, citations, counterpart, similarity
from agents.contract.tools import ToolContext, make_tools
from agents.contract.types import OTHER, Detection, label_of, standard_type, type_labels
from agents.evidence import EvidenceCollector
from agents.inputs import check_text, clean_text, last_answer, rejected_answer, require_text
from agents.llm import TurnBudget
from data_access import catalog, runs
from data_access.config import Settings, get_settings
from data_access.contracts import AgentAnswer
from data_access.errors import ToolInputError, WorkbenchError
from data_access.postgres import get_pool

logger = logging.getLogger(__name__)

SCREEN = "contract"
__all__ = [
    "SCREEN",
    "Turn",
    "ask",
    "clause_comparison",
    "contract_type",
    "set_contract_type",
    "ensure_samples",
    "ingest_file",
    "list_conversations",
    "load_conversation",
    "search",
    "start_conversation",
    "warm",
    "warm_start",
]


Turn = runs.Turn  # one question of a saved conversation with the answer stored for it


@dataclass(frozen=True)
class TypeView:
    """A contract's type as the screen shows it."""

    type_id: str
    label: str
    detected: Detection
    standard_title: str | None  # the bundled standard it is compared with; None: none bundled
    is_standard: bool


def ingest_file(name: str, data: bytes, *, pool: ConnectionPool | None = None,
                settings: Settings | None = None) -> ContractInfo:  # fmt: skip
    """Store an uploaded contract (user side, its type detected); a bad file raises
    ContractFileError with a Korean reason before anything is stored."""
    return ingest_bytes(upload_name(name), data, pool=pool, settings=settings)


def contract_type(contract_id: str, *, pool: ConnectionPool | None = None) -> TypeView:
    """The contract's stored type, what detection says and why, and its bundled standard."""
    info = store.require_contract(contract_id, pool)
    articles = [s.article for s in store.load_articles(contract_id, pool)]
    detected = detect_type(ParsedContract(info.title, articles, ""))
    standard_kind = standard_type(info.contract_type)
    standard = store.standard_for(standard_kind, pool) if standard_kind else None
    return TypeView(info.contract_type or OTHER, label_of(info.contract_type), detected,
                    standard.title if standard else None, info.is_standard)  # fmt: skip


def set_contract_type(contract_id: str, type_id: str, *,
                      pool: ConnectionPool | None = None) -> None:  # fmt: skip
    """Override an uploaded contract's type (the screen's picker); unknown types are refused."""
    if type_id not in type_labels():
        raise ToolInputError(f"알 수 없는 계약서 유형입니다: {type_id!r}")
    if not store.set_contract_type(contract_id, type_id, pool):
        raise ToolInputError(
            "유형을 바꿀 수 있는 계약서가 아닙니다 (표준계약서이거나 내 계약서가 아님)."
        )


def search(contract_id: str, query: str, *, top: int = 5, mode: SearchMode = "hybrid",
           pool: ConnectionPool | None = None,
           settings: Settings | None = None) -> list[dict[str, Any]]:  # fmt: skip
    """Ranked articles (article_no, title, score, retrievers, matched_terms); an empty or
    oversized query raises ToolInputError with a Korean reason."""
    text = require_text(query, what="검색어")
    index = get_index(contract_id, pool, settings)
    return [h.to_dict() for h in index.search(text, mode=mode, top=top)]


@dataclass
class ContractStep:
    """One finished node of the contract graph (plan, tools, synthesis …) as it streams."""

    node: str
    summary: str
    duration_ms: int = 0
    tool_calls: list[dict[str, Any]] = field(default_factory=list)


_warmed: set[str] = set()
_warm_lock = threading.Lock()
_start: list[threading.Thread] = []  # warm_start's thread, once it was started in this process
START_WAIT_S = 60.0  # a turn waits at most this long for warm_start's work (then does its own)


def _warm_words() -> None:
    """What every contract's first question needs before its own contract: the shared Kiwi
    (~1.7 s of CPU to load), the thesaurus's word lists analysed once (~0.4 s of Kiwi calls)
    and its meaning groups' words."""
    from agents.contract.thesaurus import meanings, rewrite
    from agents.understanding.morphemes import kiwi

    kiwi()
    rewrite("워밍업")
    meanings()


def warm_start() -> threading.Thread | None:
    """Start loading, in the background, what any contract question needs (`_warm_words`);
    returns at once, None when it was started already in this process. The screen calls it as
    it opens, and a turn calls it first thing: the turn's database reads, index load and graph
    build then run beside Kiwi's model load instead of after it (a question asked right after a
    restart: bench/contract_ingest.py)."""

    def run() -> None:
        try:
            _warm_words()
        except Exception:  # a warm-up only: the question reports its own error
            logger.warning("warming the contract analyser failed", exc_info=True)

    with _warm_lock:
        if _start:
            return None
        thread = threading.Thread(target=run, name="atlas-contract-warm-start", daemon=True)
        thread.start()  # under the lock: a turn never joins a thread not started yet
        _start.append(thread)
    return thread


def _ready_words(index: ContractIndex) -> None:
    """A turn's wait for `warm_start`, spent analysing its contract's clauses (each one's words,
    as the relevance cut reads them; cached, so nothing to do once warmed) on this thread while
    the start thread analyses the thesaurus's words: both would otherwise be done one after the
    other inside the turn, or twice at once."""
    from agents.contract.coverage import article_words

    for article in index.articles.values():
        article_words(article)
    for thread in _start:
        thread.join(START_WAIT_S)


def warm(contract_id: str, pool: ConnectionPool | None = None) -> threading.Thread | None:
    """Prepare one contract's first question in the background (returns at once; None when it
    was prepared already in this process): `warm_start`'s work, the contract's index (articles
    and vectors from PostgreSQL, the LSA fit) and each clause's words as the relevance cut
    reads them. The screen calls it when a contract is picked, while the user types; without it the
    first question after a restart paid ~0.3 s of CPU for Kiwi analyses of the contract's
    titles and clauses on top of the Kiwi load, and ~0.4 s for the thesaurus's everyday words
    (bench/contract_ingest.py)."""
    with _warm_lock:
        if contract_id in _warmed:
            return None
        _warmed.add(contract_id)

    def run() -> None:
        try:
            warm_start()
            _ready_words(get_index(contract_id, pool))
        except Exception:  # a warm-up only: the question reports its own error
            logger.warning("warming contract %s failed", contract_id, exc_info=True)
            with _warm_lock:
                _warmed.discard(contract_id)

    thread = threading.Thread(target=run, name=f"atlas-contract-warm-{contract_id}", daemon=True)
    thread.start()
    return thread


def ask(contract_id: str, question: str, **kwargs: Any) -> AgentAnswer:
    """One question about one contract: plan → parallel tools → synthesis, saved to the run store
    (and appended to `conversation_id`'s messages when given). `stream_ask` yields its steps."""
    kwargs.setdefault("stream_text", False)  # nobody reads the text as it is written
    return last_answer(stream_ask(contract_id, question, **kwargs))


def stream_ask(
    contract_id: str,
    question: str,
    *,
    pool: ConnectionPool | None = None,
    settings: Settings | None = None,
    backoff_s: Sequence[float] = BACKOFF_S,
    save: bool = True,
    conversation_id: str | None = None,
    cancel: threading.Event | None = None,
    stream_text: bool = True,
) -> Iterator[ContractStep | TextPiece | AgentAnswer]:
    """`ask` step by step: a ContractStep per finished graph node, then the AgentAnswer
    (`cancelled`, saved as such, when `cancel` was set, even in the middle of a node).
    With a model and `stream_text`, the answer's text also comes as TextPieces while the model
    writes it, each sentence once checked (agents.answer_stream); the answer's text is
    everything they showed.

    `as_of_date` is the workbench's data date (`catalog.current_as_of_date`), not the wall clock;
    the payload's `contract_stored_on` says when this version of the contract was stored.
    """
    settings = settings or get_settings()
    started = time.perf_counter()
    checked = check_text(question)
    if checked.problem:
        yield rejected_answer(checked.problem, started)
        return
    question = checked.text
    warm_start()  # Kiwi loads beside this turn's database reads (nothing to do once loaded)
    # one pool for the turn: each store call given None looked it up again, and every lookup
    # asks the embedded servers whether they run (~45 ms; 8 lookups in a turn)
    pool = pool or get_pool()
    info = store.require_contract(contract_id, pool)
    index = get_index(contract_id, pool, settings)
    _ready_words(index)
    model_id = settings.model_for("contract")
    deps = GraphDeps(registry=None, contract_id=contract_id,  # type: ignore[arg-type]
                     plan_context=PlanContext(info.contract_type,
                                              {n: a.title for n, a in index.articles.items()},
                                              {a.part: a.part_title for a in index.articles.values()
                                               if a.part}))  # fmt: skip
    llm = None
    if model_id:
        llm = LlmSession(model_id, settings, TurnBudget.from_settings(settings), deps.record)
        deps.llm = llm
        deps.retrieve = partial(retrieved, index, contract_id)
    context = ToolContext(contract_id, pool, settings, judge=llm.judge if llm else None)
    deps.registry = ToolRegistry(make_tools(context), EvidenceCollector(), backoff_s,
                                 scope={"contract_id": contract_id})  # fmt: skip
    state: dict[str, Any] = {}
    last, shown = time.perf_counter(), 0
    sink = AnswerSink(cancel) if llm is not None and stream_text else None
    # the turn reads the question's spoken numbers as the contract writes them ('보름' → '15일');
    # the question is saved as asked
    chunks = build_graph(deps).stream({"question": digits(question)},
                                      stream_mode=["updates", "values"])  # fmt: skip
    for item in with_text(chunks, cancel, sink):
        if isinstance(item, TextPiece):
            yield item
            continue
        mode, chunk = item
        if mode == "values":
            state = dict(chunk)
            continue
        for node in chunk:
            now = time.perf_counter()
            steps, shown = deps.trace[shown:], len(deps.trace)
            yield ContractStep(node=node, summary=f"{node} 완료 · 단계 {len(steps)}개",
                               duration_ms=int((now - last) * 1000),
                               tool_calls=[{"tool": t.name, "arguments": t.arguments,
                                            "status": t.status} for t in steps])  # fmt: skip
            last = now
    answer = _answer(state, deps, info, model_id, pool, started)
    if requested(cancel):
        answer = cancelled(answer)
    answer = settled(answer, sink)  # what was shown is what is stored
    if save:
        _save(answer, question, conversation_id, pool)
    if sink is not None:
        yield from sink.tail(answer)
    yield answer


def _answer(state: dict[str, Any], deps: GraphDeps, info: ContractInfo, model_id: str | None,
            pool: ConnectionPool | None, started: float) -> AgentAnswer:  # fmt: skip
    """The turn's answer from the graph's state (a stopped turn: whatever the state holds)."""
    evidence, plan = state.get("evidence"), state.get("plan")
    answer = AgentAnswer(
        answer=state.get("answer", ""), mode="llm" if deps.llm else "offline", model=model_id,
        status=state.get("status", "ok"), error=state.get("error"),
        as_of_date=catalog.current_as_of_date(pool).isoformat(),
        citations=citations(evidence) if evidence is not None else [],
        structured_citations=deps.registry.collector.unique_citations(), trace=deps.trace,
        payload={"contract_id": info.contract_id, "contract_title": info.title,
                 "contract_type": info.contract_type,
                 "contract_stored_on": store.stored_on(info.contract_id, pool)},
        tokens=sum(t.tokens for t in deps.trace),
        cost_usd=round(sum(t.cost_usd for t in deps.trace), 6),
        duration_ms=int((time.perf_counter() - started) * 1000),
    )  # fmt: skip
    if plan is not None:
        answer.payload.update({"intent": plan.intent, "language": plan.language})
    if evidence is not None:
        answer.payload.update(evidence.to_payload())
    return answer


def _save(answer: AgentAnswer, question: str, conversation_id: str | None,
          pool: ConnectionPool | None) -> None:  # fmt: skip
    try:
        run_id = runs.save_run(answer, screen=SCREEN, question=question,
                               conversation_id=conversation_id, pool=pool)  # fmt: skip
        answer.payload["run_id"] = run_id
        if conversation_id:
            runs.add_message(conversation_id, "user", question, pool=pool)
            runs.add_message(conversation_id, "assistant", answer.answer, run_id=run_id, pool=pool)
    except WorkbenchError as e:
        logger.warning("contract run not saved: %s", e)
        answer.payload["run_save_error"] = str(e)


def start_conversation(first_question: str, pool: ConnectionPool | None = None) -> str:
    """A new conversation on this screen, titled by its first question."""
    return runs.create_conversation(SCREEN, clean_text(first_question)[:60] or "대화", pool=pool)


def list_conversations(
    limit: int = 30, pool: ConnectionPool | None = None
) -> list[runs.Conversation]:
    return runs.list_conversations(SCREEN, limit=limit, pool=pool)


def load_conversation(conversation_id: str,
                      pool: ConnectionPool | None = None) -> tuple[str | None, list[Turn]]:  # fmt: skip
    """The contract a saved conversation was about and its turns, oldest first."""
    turns = runs.load_turns(conversation_id, pool=pool)
    for turn in turns:
        turn.answer.payload.setdefault("run_id", turn.run_id)
    contract_id = next((str(t.answer.payload["contract_id"]) for t in reversed(turns)
                        if t.answer.payload.get("contract_id")), None)  # fmt: skip
    return contract_id, turns


def clause_comparison(contract_id: str, key: int, *, pool: ConnectionPool | None = None,
                      settings: Settings | None = None) -> dict[str, Any] | None:  # fmt: skip
    """The article with this key (models.article_key: 3 for 제3조, 3002 for 제3조의2) and its
    counterpart in the bundled standard of the contract's type (same title, else best hybrid
    match); None when no standard of that type is bundled."""
    info = store.require_contract(contract_id, pool)
    article = get_index(contract_id, pool, settings).articles.get(key)
    kind = standard_type(info.contract_type)
    standard = store.standard_for(kind, pool) if kind else None
    if article is None or standard is None or info.is_standard:
        return None
    std_index = get_index(standard.contract_id, pool, settings)
    candidates = [a for a in std_index.articles.values() if a.title == article.title]
    if not candidates:
        candidates = [h.article for h in std_index.search(f"{article.title} {article.body}", top=3)]
    clause = FoundClause(contract_id, article.article_no, article.label, article.title,
                         article.content, "comparison", branch=article.branch, part=article.part,
                         part_title=article.part_title, branch_label=article.branch_label,
                         numbering=article.numbering)  # fmt: skip
    pool_clauses = [FoundClause(standard.contract_id, a.article_no, a.label, a.title, a.content,
                                "comparison", branch=a.branch) for a in candidates]  # fmt: skip
    match = counterpart(clause, pool_clauses)
    if match is None:
        return None
    return {"clause": asdict(clause), "standard": asdict(match), "standard_title": standard.title,
            "similarity": round(similarity(clause.content, match.content), 3)}  # fmt: skip
