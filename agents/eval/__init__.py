"""Evaluation backend (seed 004 §5 Step 4, §6, §7-4, §13.2-16..21, §13.7; issue #7).

Golden sets run through the same service functions the screens call, graded per case, stored
in PostgreSQL and as files, and summarized as the §6 KPI report and a weekly summary.

Module map:
- `golden/*.json`       golden sets, one file per suite (macro, etf, contract, opening, stock,
                        guard) and the hostile Cypher/SQL corpora the guard suite replays
- `models.py`           pydantic contracts: GoldenCase, Fact, CaseResult, SuiteRun, KpiValue,
                        KpiReport, KpiPoint, WeeklySummary, FailureReport
- `cases.py`            load and validate golden files (`load_cases`, `find_case`, `load_file`)
- `adapters.py`         one adapter per suite → the screen's service call (EvalEnv: stores)
- `guard_suite.py`      hostile corpora through the guard, ETF `graph_query`, GraphStore, SQL
- `facts.py`            fact checks (contains, any_of, not_contains, sql_value, cites_*)
- `traces.py`           readings of an answer's trace: Cypher stats, fallback events,
                        freshness, route, queries, evidence
- `judge.py`            grade one answer: recorded fields, problems, primary failure category
- `runner.py`           `run_suites(...)`, `rerun_case(...)`: run, store, report, progress
- `store.py`            PostgreSQL (migration 0006_eval.sql): writers and the UI's readers
- `reports.py`          files under WORKBENCH_HOME/eval/<run_id>/, Markdown/JSON rendering
- `kpi.py`              §6 KPIs as pure functions over case results (definitions there)
- `weekly.py`           `weekly_summary(days)`: §13.2-18/21 over the stored runs
- `__main__.py`         `python -m agents.eval run|report|weekly|rerun|list`

Public API for a UI (importable from `agents.eval`, loaded on first use):
    run_suites(suites=None, *, pool=None, store=None, settings=None, progress=None) -> SuiteRun
    rerun_case(case_id, *, pool=None, store=None, settings=None) -> CaseResult
    list_runs(limit=20, pool=None, *, kind=None) -> list[SuiteRun]
    get_run(run_id, pool=None) -> SuiteRun | None
    case_results(run_id, pool=None) -> list[CaseResult]
    latest_failures(limit=20, pool=None) -> list[CaseResult]
    failure_report(run_id, case_id, pool=None) -> FailureReport | None
    kpi_history(limit=30, pool=None) -> list[KpiPoint]
    weekly_summary(days=7, pool=None, *, save=True) -> WeeklySummary
    load_cases(suites=None) -> list[GoldenCase]
"""

from __future__ import annotations

import importlib
from typing import Any

# `from agents.eval import run_suites` without importing every agent at package import.
_API = {
    "run_suites": "agents.eval.runner",
    "rerun_case": "agents.eval.runner",
    "list_runs": "agents.eval.store",
    "get_run": "agents.eval.store",
    "case_results": "agents.eval.store",
    "latest_failures": "agents.eval.store",
    "failure_report": "agents.eval.store",
    "kpi_history": "agents.eval.store",
    "weekly_summary": "agents.eval.weekly",
    "load_cases": "agents.eval.cases",
}
__all__ = sorted(_API)


def __getattr__(name: str) -> Any:
    module = _API.get(name)
    if module is None:
        raise AttributeError(f"module 'agents.eval' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
