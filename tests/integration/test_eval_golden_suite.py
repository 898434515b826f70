"""The whole golden set, offline, as a regression gate: every case of every suite passes and
every quality KPI of seed 004 §6 meets its target.

Real stores (embedded PostgreSQL + FalkorDB, demo data) and the offline planner: no model is
configured, so no LLM provider is involved. The latency KPIs are computed and recorded but not
asserted (a shared CI machine's timing is noise, see bench/ for speed).
"""

from __future__ import annotations

from typing import Any

import pytest

from agents.eval.models import SuiteRun

pytestmark = pytest.mark.usefixtures("demo_data")
TIMING_KPIS = {"p95_latency_single", "p95_latency_multi"}


@pytest.fixture(scope="module")
def full_run(offline_golden_run: Any) -> SuiteRun:
    """The session's one offline run of every case (tests/conftest.py), no model configured."""
    run: SuiteRun = offline_golden_run.run
    return run


def test_every_regression_case_passes(full_run: SuiteRun) -> None:
    regression = [r for r in full_run.results if r.split is None]
    failed = [f"{r.suite}/{r.case_id}: {r.failure_category} "
              f"{[p.model_dump() for p in r.problems]}" for r in regression if not r.passed]  # fmt: skip
    assert full_run.status == "finished"
    assert len(regression) >= 30
    assert not failed, "\n".join(failed)


# The analyst question sets (issue 14) are a yardstick, not a list every case of which must
# pass: the gate holds each screen's held-out correctness and routing a little under what was
# last measured (ETF 99.1, Macro 100, Stock 100, routing 100 on 2026-11-26, run
# 20261126T031852-59fb2b; the target is 95%), two to three cases under it.
# A change that answers fewer held-out questions right fails here.
ANALYST_FLOORS = {"correctness_etf_heldout": 97.0, "correctness_macro_heldout": 97.0,
                  "correctness_stock_heldout": 95.0, "routing_accuracy_heldout": 98.0}  # fmt: skip
ANALYST_KPIS = ("correctness_", "routing_accuracy_heldout")


def test_analyst_sets_hold_their_floor(full_run: SuiteRun) -> None:
    assert full_run.kpis is not None
    values = {k.name: k.value for k in full_run.kpis.kpis}
    low = {name: values.get(name) for name, floor in ANALYST_FLOORS.items()
           if values.get(name) is None or values[name] < floor}  # type: ignore[operator]  # fmt: skip
    assert not low, f"below the floor {ANALYST_FLOORS}: {low}"


def test_every_quality_kpi_meets_its_target(full_run: SuiteRun) -> None:
    assert full_run.kpis is not None
    missed = [f"{k.name}: {k.value} {k.unit} (target {k.comparator} {k.target})"
              for k in full_run.kpis.kpis if k.name not in TIMING_KPIS and k.met is False
              and not k.name.startswith(ANALYST_KPIS)]  # fmt: skip
    assert not missed, "\n".join(missed)
    no_data = {k.name for k in full_run.kpis.kpis if k.value is None}
    assert not no_data - TIMING_KPIS, f"KPIs without data in a full run: {no_data}"
