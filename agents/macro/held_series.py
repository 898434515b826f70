"""Series the workbench holds beyond the routing rules' list: a series imported from ECOS, KOSIS,
FRED or a CSV under its own code ('KR_CPI_BUSAN', '부산 소비자물가지수') is asked by its code or
its Korean or English name, as the rules' series are by their aliases.

    held_series("부산 소비자물가지수 최근", pool, known={"KR_CPI", ...})
    # → [HeldSeries(code='KR_CPI_BUSAN', start=0, end=10)]

The longest name wins where names overlap, and a rules' series whose alias lies inside the held
name ('소비자물가지수' in '부산 소비자물가지수') is not what was asked (`outside`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from psycopg_pool import ConnectionPool

from data_access.errors import WorkbenchError
from data_access.postgres import fetch_all

logger = logging.getLogger(__name__)

MIN_NAME = 3  # shorter names ('금리') are the rules' aliases' job


@dataclass(frozen=True)
class HeldSeries:
    code: str
    start: int  # where its name or code stands in the (lower-case) question
    end: int


def held_series(text: str, pool: ConnectionPool | None, known: set[str]) -> list[HeldSeries]:
    """The held series outside `known` that the question names, in the question's order."""
    if pool is None:
        return []
    try:  # a small table, read per question: an import shows up in the next answer
        rows = fetch_all("SELECT series_code, name, name_ko FROM macro_series", pool=pool)
    except WorkbenchError as e:
        logger.warning("held series unavailable: %s", e)
        return []
    low = " ".join(text.lower().split())
    names = sorted(((str(n).lower(), str(r["series_code"])) for r in rows
                    if r["series_code"] not in known
                    for n in (r["series_code"], r["name"], r["name_ko"])
                    if n and len(str(n)) >= MIN_NAME), key=lambda p: -len(p[0]))  # fmt: skip
    found: list[HeldSeries] = []
    for name, code in names:
        at = low.find(name)
        if at < 0 or any(h.code == code or h.start < at + len(name) and at < h.end for h in found):
            continue
        found.append(HeldSeries(code, at, at + len(name)))
    return sorted(found, key=lambda h: h.start)


def outside(low: str, held: list[HeldSeries]) -> str:
    """The question with the held series' names blanked out (same length, same offsets)."""
    chars = list(" ".join(low.split()))
    for h in held:
        chars[h.start : h.end] = " " * (h.end - h.start)
    return "".join(chars)
