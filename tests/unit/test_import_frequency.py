"""Bar frequency from dates, and the split of a long table by its symbol column."""

from __future__ import annotations

from datetime import date, timedelta

import pandas as pd
import pytest

from data_access.errors import ImportFailed
from data_access.importers.frequency import detect_frequency
from data_access.importers.series import one_series, split_by_symbol, symbol_security_id


def _business_days(start: date, n: int) -> list[date]:
    days, day = [], start
    while len(days) < n:
        if day.weekday() < 5 and day != date(2024, 1, 15):  # a holiday in the middle too
            days.append(day)
        day += timedelta(days=1)
    return days


@pytest.mark.parametrize(
    ("days", "expected"),
    [
        (_business_days(date(2024, 1, 2), 40), "daily"),
        ([date(2018, 1, 1) + timedelta(weeks=i) for i in range(30)], "weekly"),
        ([date(2000 + i // 12, i % 12 + 1, 1) for i in range(36)], "monthly"),
        ([date(2000 + i // 4, 3 * (i % 4) + 1, 1) for i in range(12)], "quarterly"),
        ([date(1990 + i, 12, 31) for i in range(10)], "annual"),
        ([date(2024, 1, 2)], None),
        ([date(2024, 1, 2), date(2024, 1, 2)], None),
    ],
)
def test_detect_frequency(days: list[date], expected: str | None) -> None:
    assert detect_frequency(days) == expected


def test_monthly_with_a_missing_month_is_still_monthly() -> None:
    days = [date(2005, m, 1) for m in (1, 2, 3, 5, 6, 7, 8, 9, 10)]
    assert detect_frequency(days) == "monthly"


def test_split_by_symbol_keeps_order_and_locations() -> None:
    frame = pd.DataFrame(
        {"Symbol": ["msft", "IBM", "MSFT", "IBM"], "date": ["a", "b", "c", "d"], "price": [1] * 4}
    )
    series = split_by_symbol(frame, ["line 2", "line 3", "line 4", "line 5"], source="f.csv")
    assert [(s.symbol, s.locations) for s in series] == [
        ("MSFT", ["line 2", "line 4"]),
        ("IBM", ["line 3", "line 5"]),
    ]
    assert list(series[1].frame["date"]) == ["b", "d"]
    picked, where = one_series(frame, None, "US:IBM", "f.csv")
    assert list(picked["date"]) == ["b", "d"] and list(where or []) == ["row 2", "row 4"]
    with pytest.raises(ImportFailed, match=r"2 symbols \(MSFT, IBM\) and none is US:XYZ"):
        one_series(frame, None, "US:XYZ", "f.csv")


def test_hostile_symbol_cells_are_refused_by_line() -> None:
    frame = pd.DataFrame({"ticker": ["AAPL", " ", None], "date": ["a", "b", "c"], "close": [1] * 3})
    with pytest.raises(ImportFailed, match=r"2 rows have an empty 'ticker' \(row 2, row 3\)"):
        split_by_symbol(frame, None, source="f.csv")
    with pytest.raises(ImportFailed, match="pass country"):
        symbol_security_id("AAPL", None, "f.csv")
    with pytest.raises(ImportFailed, match="is not a security_id"):
        symbol_security_id("AAPL'; DROP TABLE stocks;--", "US", "f.csv")
    assert symbol_security_id("KR:005930", None, "f.csv") == "KR:005930"
    assert symbol_security_id("5930", "KR", "f.csv") == "KR:005930"
