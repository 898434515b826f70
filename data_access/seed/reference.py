"""The real reference lists shipped in `seed/data/*.csv` (the demo-scale universe).

Codes and names of Korean stocks and ETFs are real; share counts and starting prices are
rounded approximations of early-2025 levels, used only to give the demo data a realistic scale.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

import pandas as pd

_TEXT_COLUMNS = {"code": str, "aliases": str, "themes": str, "group": str, "former_brands": str}


@cache
def load(name: str) -> pd.DataFrame:
    """One reference CSV as a DataFrame (codes kept as text, empty cells as '')."""
    path = resources.files("data_access.seed") / "data" / f"{name}.csv"
    with path.open("r", encoding="utf-8") as handle:
        frame = pd.read_csv(handle, dtype=_TEXT_COLUMNS, keep_default_na=False)
    return frame


def kr_stocks() -> pd.DataFrame:
    return load("kr_stocks").copy()


def us_stocks() -> pd.DataFrame:
    return load("us_stocks").copy()


def etfs() -> pd.DataFrame:
    return load("etfs").copy()


def managers() -> pd.DataFrame:
    return load("managers").copy()


def tags() -> pd.DataFrame:
    return load("tags").copy()


def re_complexes() -> pd.DataFrame:
    return load("re_complexes").copy()


def split_list(value: str) -> list[str]:
    """'a|b' -> ['a', 'b']; '' -> []."""
    return [part for part in value.split("|") if part] if value else []
