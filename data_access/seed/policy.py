"""Central-bank decisions behind FEDFUNDS and KR_BASE_RATE.

2024-2025 follow the actual FOMC and Bank of Korea decisions; 2026 decisions are a plausible
demo path (two Fed cuts and one BOK cut), labelled as demo data like everything generated here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta


@dataclass(frozen=True)
class RateDecision:
    bank: str  # FOMC | BOK
    day: date
    before: float  # policy rate (Fed: upper bound of the target range), percent
    after: float

    @property
    def change_bp(self) -> int:
        return round((self.after - self.before) * 100)


_FOMC: tuple[tuple[str, float], ...] = (
    ("2024-01-31", 5.50), ("2024-03-20", 5.50), ("2024-05-01", 5.50), ("2024-06-12", 5.50),
    ("2024-07-31", 5.50), ("2024-09-18", 5.00), ("2024-11-07", 4.75), ("2024-12-18", 4.50),
    ("2025-01-29", 4.50), ("2025-03-19", 4.50), ("2025-05-07", 4.50), ("2025-06-18", 4.50),
    ("2025-07-30", 4.50), ("2025-09-17", 4.25), ("2025-10-29", 4.00), ("2025-12-10", 3.75),
    ("2026-01-28", 3.75), ("2026-03-18", 3.50), ("2026-04-29", 3.50), ("2026-06-17", 3.25),
    ("2026-07-29", 3.25), ("2026-09-16", 3.25), ("2026-10-28", 3.00), ("2026-12-09", 3.00),
)  # fmt: skip
_BOK: tuple[tuple[str, float], ...] = (
    ("2024-01-11", 3.50), ("2024-02-22", 3.50), ("2024-04-12", 3.50), ("2024-05-23", 3.50),
    ("2024-07-11", 3.50), ("2024-08-22", 3.50), ("2024-10-11", 3.25), ("2024-11-28", 3.00),
    ("2025-01-16", 3.00), ("2025-02-25", 2.75), ("2025-04-17", 2.75), ("2025-05-29", 2.50),
    ("2025-07-10", 2.50), ("2025-08-28", 2.50), ("2025-10-23", 2.50), ("2025-11-27", 2.50),
    ("2026-01-15", 2.50), ("2026-02-26", 2.25), ("2026-04-16", 2.25), ("2026-05-28", 2.25),
    ("2026-07-16", 2.25), ("2026-08-27", 2.25), ("2026-10-22", 2.25), ("2026-11-26", 2.25),
)  # fmt: skip
_RATE_BEFORE = {"FOMC": 5.50, "BOK": 3.50}
EFFR_BELOW_UPPER = 0.17  # the effective rate trades ~17bp under the upper bound


def decisions(bank: str, until: date) -> list[RateDecision]:
    """Decisions of one bank up to and including `until`."""
    table = _FOMC if bank == "FOMC" else _BOK
    out, before = [], _RATE_BEFORE[bank]
    for day_text, after in table:
        day = date.fromisoformat(day_text)
        if day > until:
            break
        out.append(RateDecision(bank, day, before, after))
        before = after
    return out


def rate_on(bank: str, day: date) -> float:
    """Policy rate in force on `day` (decisions apply from the next day)."""
    rate = _RATE_BEFORE[bank]
    for decision in decisions(bank, day - timedelta(days=1)):
        rate = decision.after
    return rate
