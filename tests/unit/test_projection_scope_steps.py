"""A failed top-up leaves the graph behind by the steps that failed, not the whole graph
(issue 35): the scope of named steps, how it merges with the writes' scopes, travels as JSON,
and which steps a partly failed run still owes. (The real top-up against a FalkorDB that refuses
writes: tests/integration/test_seed_topup.py.)
"""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from data_access.projection.models import ProjectionReport, ProjectionStep
from data_access.projection.scope import ProjectionScope, combine, scope_params
from data_access.seed.runner import TOPUP_STEPS, failed_steps

NOW = datetime(2026, 11, 29, tzinfo=UTC)


def test_named_steps_are_the_steps_to_run() -> None:
    scope = ProjectionScope(step_names=("universe",))
    assert not scope.is_empty() and not scope.full
    assert scope.steps() == ("universe",)
    assert ProjectionScope.from_json(scope.to_json()) == scope
    assert scope.describe() == "단계 universe"
    assert ProjectionScope.from_json({"full": True}).step_names == ()  # rows written before


def test_steps_the_filters_narrow_cannot_be_named() -> None:
    with pytest.raises(ValueError, match="holds"):
        ProjectionScope(step_names=("documents", "holds"))


def test_named_steps_merge_with_the_writes_scopes() -> None:
    day = date(2026, 11, 23)
    merged = combine([
        ProjectionScope(step_names=("documents", "events")),
        ProjectionScope(etf_codes=("069500",), since=day),
        ProjectionScope(step_names=("events", "universe")),
    ])  # fmt: skip
    assert merged is not None
    assert merged.step_names == ("documents", "events", "universe")
    assert merged.etf_codes == ("069500",) and merged.since == day  # named steps read every date
    assert merged.steps() == ("documents", "events", "universe", "holds", "holding_changes")
    assert scope_params(merged)["scope_etfs"] == ["069500"]
    alone = combine([ProjectionScope(step_names=("universe",))])
    assert alone is not None and alone.since is None and alone.steps() == ("universe",)
    full = combine([ProjectionScope(step_names=("universe",)), ProjectionScope(full=True)])
    assert full is not None and full.full and full.steps() is None


def _report(statuses: dict[str, str]) -> ProjectionReport:
    steps = [
        ProjectionStep(batch_id="b", domain="documents", step=name, graph_backend="falkordb",
                       rows_fetched=1, upserted=0, failed=0, status=status,  # type: ignore[arg-type]
                       started_at=NOW, finished_at=NOW)
        for name, status in statuses.items()
    ]  # fmt: skip
    return ProjectionReport(batch_id="b", graph_backend="falkordb", graph_name="g",
                            started_at=NOW, finished_at=NOW, steps=steps)  # fmt: skip


def test_a_run_owes_the_step_that_failed_and_the_ones_after_it() -> None:
    steps = TOPUP_STEPS["disclosures"]  # documents, events, evidence, …
    assert failed_steps(_report(dict.fromkeys(steps, "ok")), steps) == ()
    partly = dict.fromkeys(steps, "ok") | {"evidence": "error"}
    assert failed_steps(_report(partly), steps) == steps[steps.index("evidence") :]
    # the store went down at 'events': the run stopped there, later steps never ran
    stopped = {"documents": "ok", "events": "error"}
    assert failed_steps(_report(stopped), steps) == steps[1:]
