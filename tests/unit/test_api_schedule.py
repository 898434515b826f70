"""api.schedule: the weekly report's time reads 'mon 08:20' (Korean time) or 'off', and the next
run is the first such moment after now, whatever time zone now is given in."""

from __future__ import annotations

from datetime import UTC, datetime, time

import pytest

from api.schedule import KST, WeeklyAt, parse_at


def test_parse_at_reads_day_and_time_or_off() -> None:
    assert parse_at("mon 08:20") == WeeklyAt(0, time(8, 20))
    assert parse_at(" Sun 23:59:30 ") == WeeklyAt(6, time(23, 59, 30))
    assert parse_at("off") is None and parse_at("") is None
    for bad in ("monday 08:20", "mon 8h20", "mon 25:00", "08:20"):
        with pytest.raises(ValueError):
            parse_at(bad)


@pytest.mark.parametrize(("now", "expected"), [
    (datetime(2026, 11, 28, 12, 0, tzinfo=KST), datetime(2026, 11, 30, 8, 20, tzinfo=KST)),  # Sat
    (datetime(2026, 11, 30, 8, 19, tzinfo=KST), datetime(2026, 11, 30, 8, 20, tzinfo=KST)),
    (datetime(2026, 11, 30, 8, 20, tzinfo=KST), datetime(2026, 12, 7, 8, 20, tzinfo=KST)),
    # Sunday 23:30 UTC is already Monday 08:30 in Seoul: next week's run
    (datetime(2026, 11, 29, 23, 30, tzinfo=UTC), datetime(2026, 12, 7, 8, 20, tzinfo=KST)),
])  # fmt: skip
def test_next_run_is_the_first_monday_0820_kst_after_now(now: datetime,
                                                         expected: datetime) -> None:  # fmt: skip
    assert WeeklyAt(0, time(8, 20)).next_after(now) == expected
