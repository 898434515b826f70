"""Period labels of Korean statistics (ECOS `TIME`, KOSIS 시점) as first-day dates.

    parse_period("202401")      # (date(2024, 1, 1), "monthly")      ECOS monthly
    parse_period("2024Q3")      # (date(2024, 7, 1), "quarterly")    ECOS quarterly
    parse_period("2024.03 p)")  # (date(2024, 3, 1), "monthly")      KOSIS, provisional mark
    parse_period("2024.2/4")    # (date(2024, 4, 1), "quarterly")    KOSIS quarter
    parse_period("20240102")    # (date(2024, 1, 2), "daily")

A period is stored by its first day, as the demo series and FRED date theirs.
"""

from __future__ import annotations

import re
from datetime import date

_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^(\d{4})[\s.]*([1-4])/4(?:분기)?$"), "quarterly"),  # before daily: 2024.2/4
    (re.compile(r"^(\d{4})(\d{2})(\d{2})$"), "daily"),
    (re.compile(r"^(\d{4})[-./](\d{1,2})[-./](\d{1,2})\.?$"), "daily"),
    (re.compile(r"^(\d{4})(\d{2})$"), "monthly"),
    (re.compile(r"^(\d{4})\s*[-./]\s*(\d{1,2})\s*월?$"), "monthly"),
    (re.compile(r"^(\d{4})년\s*(\d{1,2})월$"), "monthly"),
    (re.compile(r"^(\d{4})\s*Q([1-4])$"), "quarterly"),
    (re.compile(r"^(\d{4})\s*S([12])$"), "semiannual"),
    (re.compile(r"^(\d{4})(?:년)?$"), "annual"),
)
# KOSIS marks provisional / estimated figures after the period: '2024.03 p)', '2024 e)'.
_MARKS = re.compile(r"\s*(?:[pPeE]\)|\([pPeE]\))\s*$")


def parse_period(label: str) -> tuple[date, str]:
    """The period's first day and its frequency; ValueError (Korean message) if unreadable."""
    text = _MARKS.sub("", str(label).strip())
    for pattern, frequency in _PATTERNS:
        match = pattern.match(text)
        if not match:
            continue
        year = int(match.group(1))
        try:
            return _first_day(year, match, frequency), frequency
        except ValueError as e:
            raise ValueError(f"없는 시점입니다: '{label}'") from e
    raise ValueError(f"시점 형식을 읽을 수 없습니다: '{label}'")


def _first_day(year: int, match: re.Match[str], frequency: str) -> date:
    if frequency == "daily":
        return date(year, int(match.group(2)), int(match.group(3)))
    if frequency == "monthly":
        return date(year, int(match.group(2)), 1)
    if frequency == "quarterly":
        return date(year, 3 * int(match.group(2)) - 2, 1)
    if frequency == "semiannual":
        return date(year, 1 if match.group(2) == "1" else 7, 1)
    return date(year, 1, 1)


def is_period(label: str) -> bool:
    try:
        parse_period(label)
    except ValueError:
        return False
    return True
