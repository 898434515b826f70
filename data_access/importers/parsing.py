"""Reading loose tabular input: header aliases, dates and numbers as people write them.

Values arrive as text (CSV cells, JSON strings); each parser raises `CellError` naming what is
wrong so the caller can turn it into a `RowFailure` for that row and column.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from data_access.errors import ImportFailed

_HEADER_NOISE = re.compile(r"[\s_\-().%/]+")
_ISO_PREFIX = re.compile(r"^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:$|[ T])")
_YEAR_MONTH = re.compile(r"^(\d{4})[-/.](\d{1,2})$")
_COMPACT = re.compile(r"^(\d{4})(\d{2})(\d{2})$")
_TEXT_FORMATS = ("%b %d %Y", "%d %b %Y", "%m/%d/%Y")
MISSING_MARKERS = frozenset({"", ".", "-", "nan", "none", "null", "n/a", "na", "#n/a"})


class CellError(ValueError):
    """One cell cannot be read; `column` is the canonical column name."""

    def __init__(self, column: str, message: str) -> None:
        super().__init__(message)
        self.column = column
        self.message = message


@dataclass(frozen=True)
class ColumnSpec:
    """A canonical column and the header spellings accepted for it, in order of preference."""

    canonical: str
    aliases: tuple[str, ...]
    required: bool = True


def normalize_header(name: object) -> str:
    """'Adj Close' / 'adj_close' → 'adjclose'; '비중(%)' → '비중'; BOM and spaces dropped."""
    return _HEADER_NOISE.sub("", str(name).replace("\ufeff", "")).lower()


def resolve_columns(
    columns: Sequence[object],
    specs: Sequence[ColumnSpec],
    *,
    source: str,
    overrides: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """Map each canonical name to the actual header; a missing required column is fatal."""
    by_normal: dict[str, str] = {}
    for col in columns:
        by_normal.setdefault(normalize_header(col), str(col))
    resolved: dict[str, str] = {}
    for spec in specs:
        wanted = (overrides or {}).get(spec.canonical)
        candidates = (wanted,) if wanted else spec.aliases
        found = next(
            (
                by_normal[normalize_header(a)]
                for a in candidates
                if normalize_header(a) in by_normal
            ),
            None,
        )
        if found is not None:
            resolved[spec.canonical] = found
        elif spec.required or wanted:
            raise ImportFailed(
                f"column '{spec.canonical}' not found in {source}: accepted headers "
                f"{list(candidates)}, file has {[str(c) for c in columns]}"
            )
    return resolved


def is_missing(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, float) and math.isnan(value):
        return True
    return isinstance(value, str) and value.strip().lower() in MISSING_MARKERS


def parse_date(value: Any, column: str) -> date:
    """ISO-like dates (2024-03-04, 2024/3/4, 2024.03.04, 20240304, '2024-03-04 00:00:00-05:00'),
    months (2024-03 → 2024-03-01) and English text dates ('Jan 1 2000')."""
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    text = "" if is_missing(value) else str(value).strip()
    if not text:
        raise CellError(column, "date is empty")
    try:
        if m := _ISO_PREFIX.match(text):
            return date(int(m[1]), int(m[2]), int(m[3]))
        if m := _COMPACT.match(text):
            return date(int(m[1]), int(m[2]), int(m[3]))
        if m := _YEAR_MONTH.match(text):
            return date(int(m[1]), int(m[2]), 1)
    except ValueError as e:
        raise CellError(column, f"'{text}' is not a valid date ({e})") from e
    for fmt in _TEXT_FORMATS:
        try:
            return datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    raise CellError(column, f"'{text}' is not a date (expected YYYY-MM-DD)")


def parse_number(value: Any, column: str, *, allow_percent: bool = False) -> float:
    """A finite number; thousands separators ('1,234.5') and, if allowed, a trailing '%'."""
    if isinstance(value, bool):
        raise CellError(column, f"'{value}' is not a number")
    if isinstance(value, int | float):
        number = float(value)
    else:
        if is_missing(value):
            raise CellError(column, "value is empty")
        text = str(value).strip().replace(",", "").replace(" ", "")
        if allow_percent:
            text = text.removesuffix("%")
        try:
            number = float(text)
        except ValueError:
            raise CellError(column, f"'{str(value).strip()}' is not a number") from None
    if not math.isfinite(number):
        raise CellError(column, f"'{value}' is not a finite number")
    return number


def parse_whole(value: Any, column: str) -> int:
    """A non-negative whole number ('1,234' and '1234.0' are fine, '12.5' is not)."""
    number = parse_number(value, column)
    if number != int(number):
        raise CellError(column, f"'{value}' is not a whole number")
    if number < 0:
        raise CellError(column, f"'{value}' is negative")
    return int(number)


def cell_text(value: Any) -> str:
    """A code-like cell as clean text (pandas may have read '069500' as 69500.0)."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return "" if is_missing(value) else str(value).strip()
