"""The bar frequency of a price series, read from its dates (monthly bars are not daily bars).

>>> detect_frequency([date(2000, 1, 1), date(2000, 2, 1), date(2000, 3, 1)])
'monthly'
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from datetime import date
from typing import Literal

BarFrequency = Literal["daily", "weekly", "monthly", "quarterly", "annual"]
# Median calendar days between consecutive bars → frequency (daily bars: 1, 3 over a weekend).
SPACING: tuple[tuple[float, BarFrequency], ...] = (
    (5, "daily"),
    (10, "weekly"),
    (45, "monthly"),
    (135, "quarterly"),
)
# How old a series' last bar may be before its dataset counts as stale, per frequency.
STALE_DAYS_BY_BAR = {"daily": 5, "weekly": 14, "monthly": 70, "quarterly": 130, "annual": 500}
TITLE_BY_BAR = {"daily": "일별", "weekly": "주별", "monthly": "월별", "quarterly": "분기별",
                "annual": "연도별"}  # fmt: skip


def detect_frequency(days: Sequence[date]) -> BarFrequency | None:
    """The bar frequency of a series from its dates; None with fewer than two distinct dates."""
    ordered = sorted(set(days))
    if len(ordered) < 2:
        return None
    spacing = statistics.median((b - a).days for a, b in zip(ordered, ordered[1:], strict=False))
    return next((name for limit, name in SPACING if spacing <= limit), "annual")
