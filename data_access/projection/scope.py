"""What a write changed, so the projection after it touches only that (issue 25).

    scope = ProjectionScope(etf_codes=("069500",), since=date(2026, 11, 23))
    scope.steps()              # ('holds', 'holding_changes')
    scope.merge(ProjectionScope(series_codes=("FEDFUNDS",)))
    # ProjectionScope(etf_codes=('069500',), series_codes=('FEDFUNDS',), since=None, ...)

A `full` scope (the demo seed, a restore) projects every step. A scope of `step_names` runs
those steps over all their rows: what a failed top-up left behind (the seed's filings, the
universe history), not the whole graph:

    ProjectionScope(step_names=("documents", "events")).steps()   # ('documents', 'events')

Only steps the entity filters do not narrow can be named (a named 'holds' in a scope of one
ETF would project that ETF only). The scope travels through `projection_backlog.scope` as
JSON; each step's SQL filters on it (`scope_params`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

# Steps each kind of change needs, in runner order (entities before what links to them).
_ETF_STEPS = ("holds", "holding_changes")
_STOCK_STEPS = ("stocks", "issuers", "daily_bars")
_SERIES_STEPS = ("indicators", "indicator_observations")
# Steps whose SQL reads the scope's ETF / stock / series filters (SCOPE_* in projection.steps).
FILTERED_STEPS = frozenset(("stocks", *_ETF_STEPS, *_STOCK_STEPS, *_SERIES_STEPS))


@dataclass(frozen=True)
class ProjectionScope:
    """The ETFs, stocks and series a write changed, from `since` on (None: every date)."""

    etf_codes: tuple[str, ...] = ()
    security_ids: tuple[str, ...] = ()
    series_codes: tuple[str, ...] = ()
    since: date | None = None
    full: bool = False  # everything: the demo seed, a restore
    holdings_days: int | None = field(default=None, compare=False)  # full only: HOLDS window
    step_names: tuple[str, ...] = ()  # these steps over all their rows (a failed top-up's)

    def __post_init__(self) -> None:
        filtered = FILTERED_STEPS.intersection(self.step_names)
        if filtered:
            raise ValueError(
                f"steps narrowed by the scope's filters: {', '.join(sorted(filtered))}"
            )

    def is_empty(self) -> bool:
        return not (
            self.full or self.etf_codes or self.security_ids or self.series_codes or self.step_names
        )

    def steps(self) -> tuple[str, ...] | None:
        """The step names to run (None: all of them)."""
        if self.full:
            return None
        names: list[str] = list(self.step_names)
        if self.security_ids:
            names += _STOCK_STEPS
        if self.etf_codes:
            names += _ETF_STEPS
        if self.series_codes:
            names += _SERIES_STEPS
        return tuple(names)

    def merge(self, other: ProjectionScope) -> ProjectionScope:
        """One scope covering both (the earlier `since`; full wins with its holdings window)."""
        return combine([self, other]) or self

    def to_json(self) -> dict[str, Any]:
        return {
            "etf_codes": list(self.etf_codes),
            "security_ids": list(self.security_ids),
            "series_codes": list(self.series_codes),
            "since": self.since.isoformat() if self.since else None,
            "full": self.full,
            "holdings_days": self.holdings_days,
            "steps": list(self.step_names),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ProjectionScope:
        since = data.get("since")
        return cls(
            etf_codes=tuple(data.get("etf_codes") or ()),
            security_ids=tuple(data.get("security_ids") or ()),
            series_codes=tuple(data.get("series_codes") or ()),
            since=date.fromisoformat(since) if since else None,
            full=bool(data.get("full")),
            holdings_days=data.get("holdings_days"),
            step_names=tuple(data.get("steps") or ()),
        )

    def describe(self) -> str:
        """A short Korean summary for the Data screen ('ETF 069500 · 시리즈 FEDFUNDS · 2026-11-23~')."""
        if self.full:
            return "전체"
        parts = []
        if self.etf_codes:
            parts.append("ETF " + ", ".join(self.etf_codes[:5]) + _more(self.etf_codes))
        if self.security_ids:
            parts.append("종목 " + ", ".join(self.security_ids[:5]) + _more(self.security_ids))
        if self.series_codes:
            parts.append("시리즈 " + ", ".join(self.series_codes[:5]) + _more(self.series_codes))
        if self.step_names:
            parts.append("단계 " + ", ".join(self.step_names[:5]) + _more(self.step_names))
        if self.since:
            parts.append(f"{self.since.isoformat()}~")
        return " · ".join(parts) or "없음"


def combine(scopes: Iterable[ProjectionScope]) -> ProjectionScope | None:
    """One scope covering all of them (None for none), in one pass: a day of market-scale
    prices is thousands of one-stock scopes."""
    etfs: set[str] = set()
    sids: set[str] = set()
    series: set[str] = set()
    named: dict[str, None] = {}
    sinces: list[date | None] = []
    for scope in scopes:
        if scope.full:
            return ProjectionScope(full=True, holdings_days=scope.holdings_days)
        etfs.update(scope.etf_codes)
        sids.update(scope.security_ids)
        series.update(scope.series_codes)
        named.update(dict.fromkeys(scope.step_names))
        if scope.etf_codes or scope.security_ids or scope.series_codes:
            sinces.append(scope.since)  # named steps alone read every date anyway
    if not (sinces or named):
        return None
    dated = [d for d in sinces if d is not None]
    since = min(dated) if dated and len(dated) == len(sinces) else None
    return ProjectionScope(tuple(sorted(etfs)), tuple(sorted(sids)), tuple(sorted(series)), since,
                           step_names=tuple(named))  # fmt: skip


def scope_params(scope: ProjectionScope | None) -> dict[str, Any]:
    """SQL parameters every step's query filters on; NULL arrays/dates mean 'no filter'."""
    if scope is None or scope.full:
        return {"scope_etfs": None, "scope_sids": None, "scope_series": None, "scope_since": None}
    return {
        "scope_etfs": list(scope.etf_codes),
        "scope_sids": list(scope.security_ids),
        "scope_series": list(scope.series_codes),
        "scope_since": scope.since,
    }


def _more(items: tuple[str, ...]) -> str:
    return f" 외 {len(items) - 5}" if len(items) > 5 else ""
