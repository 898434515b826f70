"""The §9.5 lag rules: current lag from the last projection and the source's latest load."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from data_access.projection.models import ProjectionStep, StepStatus
from data_access.run_reports import LagThresholds, domain_lag, lag_status

T0 = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)
LIMITS = LagThresholds(warn_minutes=60, fail_minutes=24 * 60)


def step(
    name: str, finished: datetime, status: StepStatus = "ok", failed: int = 0
) -> ProjectionStep:
    return ProjectionStep(
        batch_id="b1", domain="macro", step=name, graph_backend="falkordb", rows_fetched=10,
        upserted=10 - failed, failed=failed, latest_as_of=date(2026, 11, 19), lag_minutes=2.5,
        status=status, started_at=finished - timedelta(seconds=3), finished_at=finished,
    )  # fmt: skip


def test_thresholds_and_step_status_decide_the_badge() -> None:
    assert lag_status(None, None, LIMITS) == "none"
    assert lag_status(0.0, "ok", LIMITS) == "ok"
    assert lag_status(59.9, "ok", LIMITS) == "ok"
    assert lag_status(60.0, "ok", LIMITS) == "warn"
    assert lag_status(1439.0, "ok", LIMITS) == "warn"
    assert lag_status(1440.0, "ok", LIMITS) == "fail"
    assert lag_status(0.0, "partial", LIMITS) == "warn"
    assert lag_status(0.0, "error", LIMITS) == "fail"


def test_a_projection_after_the_latest_load_is_up_to_date() -> None:
    steps = [step("indicators", T0), step("observations", T0 + timedelta(seconds=5))]
    lag = domain_lag("macro", steps, T0 - timedelta(minutes=3), T0 + timedelta(days=3), LIMITS)
    assert (lag.status, lag.lag_minutes, lag.pending) == ("ok", 0.0, False)
    assert lag.recorded_lag_minutes == 2.5
    assert lag.projected_at == T0 + timedelta(seconds=5)
    assert (lag.rows_fetched, lag.upserted, lag.failed) == (20, 20, 0)
    assert lag.latest_as_of == date(2026, 11, 19)


def test_a_load_the_graph_has_not_seen_counts_from_the_load() -> None:
    loaded = T0 + timedelta(hours=1)
    steps = [step("observations", T0)]
    warn = domain_lag("macro", steps, loaded, loaded + timedelta(minutes=90), LIMITS)
    assert (warn.status, warn.pending, warn.lag_minutes) == ("warn", True, 90.0)
    fail = domain_lag("macro", steps, loaded, loaded + timedelta(hours=25), LIMITS)
    assert (fail.status, fail.lag_minutes) == ("fail", 25 * 60.0)


def test_failed_steps_and_missing_projections() -> None:
    partial = domain_lag("macro", [step("obs", T0, "partial", failed=3)], T0, T0, LIMITS)
    assert (partial.status, partial.step_status, partial.failed) == ("warn", "partial", 3)
    error = domain_lag("macro", [step("a", T0), step("b", T0, "error")], T0, T0, LIMITS)
    assert (error.status, error.step_status) == ("fail", "error")
    never = domain_lag("macro", [], T0, T0, LIMITS)
    assert (never.status, never.lag_minutes, never.batch_id) == ("none", None, None)
