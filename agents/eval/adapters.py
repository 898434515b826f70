"""One small adapter per suite: a golden case → the same service call the screen makes.

Runs are not saved to the screens' run store (`save=False` where the service saves): evaluation
traffic must not show up in an analyst's history. Everything else — stores, settings, model
mode — is what the page would use.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from psycopg_pool import ConnectionPool

from agents.eval.models import GoldenCase
from data_access.config import Settings
from data_access.contracts import AgentAnswer
from data_access.graph.base import GraphStore


@dataclass
class EvalEnv:
    """The stores and settings every case of one run shares."""

    settings: Settings
    pool: ConnectionPool
    store: GraphStore
    as_of: str
    _contracts_ready: bool = False
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def ensure_contracts(self) -> None:
        """The bundled sample contracts, ingested once per run (idempotent when unchanged)."""
        with self._lock:
            if self._contracts_ready:
                return
            from agents.contract.service import ensure_samples

            ensure_samples(pool=self.pool, settings=self.settings)
            self._contracts_ready = True


def _conversation(case: GoldenCase, ask: Callable[[str, list[Any]], AgentAnswer]) -> AgentAnswer:
    """The case's earlier questions first (same conversation), then the case's question."""
    from agents.understanding.history import history_after

    history: list[Any] = []
    for earlier in case.history:
        history = history_after(history, earlier, ask(earlier, history))
    return ask(case.question, history)


def run_macro(case: GoldenCase, env: EvalEnv) -> AgentAnswer:
    from agents.macro.service import answer_question

    return _conversation(case, lambda q, h: answer_question(
        q, history=h, settings=env.settings, store=env.store, pool=env.pool))  # fmt: skip


def run_etf(case: GoldenCase, env: EvalEnv) -> AgentAnswer:
    from agents.etf.service import answer_question

    return _conversation(case, lambda q, h: answer_question(
        q, h, settings=env.settings, store=env.store, pool=env.pool))  # fmt: skip


def run_contract(case: GoldenCase, env: EvalEnv) -> AgentAnswer:
    from agents.contract.service import ask

    env.ensure_contracts()
    contract_id = str(case.inputs.get("contract_id") or "sample-user-provide")
    return ask(contract_id, case.question, pool=env.pool, settings=env.settings, save=False)


def run_opening(case: GoldenCase, env: EvalEnv) -> AgentAnswer:
    from agents.opening.service import run_opening as opening

    return opening(case.question, settings=env.settings, pool=env.pool, save=False)


def run_stock(case: GoldenCase, env: EvalEnv) -> AgentAnswer:
    from agents.stock.question import answer_stock_question, is_question
    from agents.stock.service import generate_report

    language = "en" if case.inputs.get("language") == "en" else "ko"

    def ask(question: str, history: list[Any]) -> AgentAnswer:
        if is_question(question, follows=bool(history)):  # '삼성전자 PER이랑 PBR', 'SK하이닉스는?'
            figures = answer_stock_question(question, pool=env.pool, as_of=env.as_of,
                                            history=history)  # fmt: skip
            if figures is not None:
                return figures
        return generate_report(question, language=language, settings=env.settings,
                               pool=env.pool, save=False)  # fmt: skip

    return _conversation(case, ask)


ADAPTERS: dict[str, Callable[[GoldenCase, EvalEnv], AgentAnswer]] = {
    "macro": run_macro,
    "etf": run_etf,
    "contract": run_contract,
    "opening": run_opening,
    "stock": run_stock,
}
