"""Typed results of a projection: one `ProjectionStep` per step, one `ProjectionReport` per run."""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from pydantic import BaseModel, Field, computed_field

Domain = Literal["etf", "equity", "macro", "real_estate", "documents"]
StepStatus = Literal["ok", "partial", "error"]


class ProjectionStep(BaseModel):
    """One `projection_runs` row (seed 004 §9.5): what one step fetched, wrote and how fresh."""

    run_id: int | None = None  # set when read back from PostgreSQL
    batch_id: str
    domain: str
    step: str
    graph_backend: str
    rows_fetched: int
    upserted: int
    failed: int
    latest_as_of: date | None = None
    lag_minutes: float | None = None  # projection finish minus the source's latest load
    status: StepStatus
    error: str | None = None
    started_at: datetime
    finished_at: datetime

    @computed_field  # type: ignore[prop-decorator]
    @property
    def duration_ms(self) -> int:
        return int((self.finished_at - self.started_at).total_seconds() * 1000)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def rows_per_s(self) -> float:
        seconds = max((self.finished_at - self.started_at).total_seconds(), 1e-6)
        return self.upserted / seconds


class ProjectionReport(BaseModel):
    batch_id: str
    graph_backend: str
    graph_name: str
    started_at: datetime
    finished_at: datetime
    index_ms: int = 0  # time spent in ensure_indexes before the steps
    steps: list[ProjectionStep] = Field(default_factory=list)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def duration_ms(self) -> int:
        return int((self.finished_at - self.started_at).total_seconds() * 1000)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def rows_fetched(self) -> int:
        return sum(s.rows_fetched for s in self.steps)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def upserted(self) -> int:
        return sum(s.upserted for s in self.steps)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def failed(self) -> int:
        return sum(s.failed for s in self.steps)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def status(self) -> StepStatus:
        statuses = {s.status for s in self.steps}
        if "error" in statuses:
            return "error"
        return "partial" if "partial" in statuses else "ok"

    def step(self, name: str) -> ProjectionStep:
        for step in self.steps:
            if step.step == name:
                return step
        raise KeyError(f"no step {name!r} in projection batch {self.batch_id}")

    def to_text(self) -> str:
        """A fixed-width table for the CLI and logs."""
        head = f"{'domain':<12}{'step':<24}{'fetched':>9}{'upserted':>10}{'failed':>8}"
        head += f"{'ms':>8}{'rows/s':>10}  {'status':<8}{'latest':<12}{'lag_min':>8}"
        lines = [head]
        for s in self.steps:
            lag = f"{s.lag_minutes:.1f}" if s.lag_minutes is not None else "-"
            lines.append(
                f"{s.domain:<12}{s.step:<24}{s.rows_fetched:>9}{s.upserted:>10}{s.failed:>8}"
                f"{s.duration_ms:>8}{s.rows_per_s:>10.0f}  {s.status:<8}"
                f"{str(s.latest_as_of or '-'):<12}{lag:>8}"
                + (f"\n    error: {s.error}" if s.error else "")
            )
        lines.append(
            f"batch {self.batch_id} on {self.graph_backend}:{self.graph_name}: "
            f"{self.rows_fetched} fetched, {self.upserted} upserted, {self.failed} failed, "
            f"{self.duration_ms} ms (indexes {self.index_ms} ms), status {self.status}"
        )
        return "\n".join(lines)
