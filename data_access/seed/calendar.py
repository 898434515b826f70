"""Trading and business-day calendars for 2024-2026 (fixed lists, so the data never depends on
a holidays package version).

- KRX: weekdays minus Korean public holidays, substitute holidays, election days, Labour Day and
  the year-end closing day (Dec 31).
- NYSE: the exchange's full-day closures, including the 2025-01-09 national day of mourning.
- FRB: Federal Reserve / bond-market business days (FRED daily rates and H.10 FX), which also
  close on Columbus Day and Veterans Day but trade on Good Friday.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Literal

Market = Literal["KRX", "NYSE", "FRB"]


def _dates(*items: str) -> frozenset[date]:
    return frozenset(date.fromisoformat(s) for s in items)


KRX_HOLIDAYS = _dates(
    # 2024
    "2024-01-01", "2024-02-09", "2024-02-12", "2024-03-01", "2024-04-10", "2024-05-01",
    "2024-05-06", "2024-05-15", "2024-06-06", "2024-08-15", "2024-09-16", "2024-09-17",
    "2024-09-18", "2024-10-01", "2024-10-03", "2024-10-09", "2024-12-25", "2024-12-31",
    # 2025
    "2025-01-01", "2025-01-27", "2025-01-28", "2025-01-29", "2025-01-30", "2025-03-03",
    "2025-05-01", "2025-05-05", "2025-05-06", "2025-06-03", "2025-06-06", "2025-08-15",
    "2025-10-03", "2025-10-06", "2025-10-07", "2025-10-08", "2025-10-09", "2025-12-25",
    "2025-12-31",
    # 2026
    "2026-01-01", "2026-02-16", "2026-02-17", "2026-02-18", "2026-03-02", "2026-05-01",
    "2026-05-05", "2026-05-25", "2026-06-03", "2026-08-17", "2026-09-24", "2026-09-25",
    "2026-10-05", "2026-10-09", "2026-12-25", "2026-12-31",
)  # fmt: skip

NYSE_HOLIDAYS = _dates(
    "2024-01-01", "2024-01-15", "2024-02-19", "2024-03-29", "2024-05-27", "2024-06-19",
    "2024-07-04", "2024-09-02", "2024-11-28", "2024-12-25",
    "2025-01-01", "2025-01-09", "2025-01-20", "2025-02-17", "2025-04-18", "2025-05-26",
    "2025-06-19", "2025-07-04", "2025-09-01", "2025-11-27", "2025-12-25",
    "2026-01-01", "2026-01-19", "2026-02-16", "2026-04-03", "2026-05-25", "2026-06-19",
    "2026-07-03", "2026-09-07", "2026-11-26", "2026-12-25",
)  # fmt: skip

FRB_HOLIDAYS = _dates(
    "2024-01-01", "2024-01-15", "2024-02-19", "2024-05-27", "2024-06-19", "2024-07-04",
    "2024-09-02", "2024-10-14", "2024-11-11", "2024-11-28", "2024-12-25",
    "2025-01-01", "2025-01-20", "2025-02-17", "2025-05-26", "2025-06-19", "2025-07-04",
    "2025-09-01", "2025-10-13", "2025-11-11", "2025-11-27", "2025-12-25",
    "2026-01-01", "2026-01-19", "2026-02-16", "2026-05-25", "2026-06-19", "2026-07-03",
    "2026-09-07", "2026-10-12", "2026-11-11", "2026-11-26", "2026-12-25",
)  # fmt: skip

_HOLIDAYS: dict[Market, frozenset[date]] = {
    "KRX": KRX_HOLIDAYS,
    "NYSE": NYSE_HOLIDAYS,
    "FRB": FRB_HOLIDAYS,
}
COVERED_YEARS = (2024, 2025, 2026)


def trading_days(start: date, end: date, market: Market) -> list[date]:
    """Business days of `market` in [start, end] (both inclusive)."""
    if start.year < COVERED_YEARS[0] or end.year > COVERED_YEARS[-1]:
        raise ValueError(f"calendar covers {COVERED_YEARS[0]}-{COVERED_YEARS[-1]} only")
    count = (end - start).days + 1
    days = (start + timedelta(days=i) for i in range(max(0, count)))
    return [d for d in days if is_trading_day(d, market)]


def is_trading_day(day: date, market: Market) -> bool:
    return day.weekday() < 5 and day not in _HOLIDAYS[market]


def next_trading_day(day: date, market: Market, *, inclusive: bool = True) -> date:
    current = day if inclusive else day + timedelta(days=1)
    while not is_trading_day(current, market):
        current += timedelta(days=1)
    return current


def previous_trading_day(day: date, market: Market, *, inclusive: bool = True) -> date:
    current = day if inclusive else day - timedelta(days=1)
    while not is_trading_day(current, market):
        current -= timedelta(days=1)
    return current


def nth_weekday(year: int, month: int, weekday: int, n: int) -> date:
    """The n-th (1-based) weekday (Mon=0) of a month, e.g. the 2nd Thursday."""
    first = date(year, month, 1)
    offset = (weekday - first.weekday()) % 7
    return first + timedelta(days=offset + 7 * (n - 1))


def at(day: date, hour: int, minute: int, tz: str) -> datetime:
    """A timezone-aware timestamp at a local wall-clock time (DST handled by zoneinfo)."""
    from zoneinfo import ZoneInfo

    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=ZoneInfo(tz))
