"""Statistical care for transaction-price trends (issue 19).

A monthly median of deals compares only complete months (the month still running and a month the
query cut into are left out and said so), states the count behind every month, says when a
month rests on few deals, and a question about the trend (추세/추이/흐름) reads the region's price
index first: a median of whichever flats traded moves with the mix, an index does not.

    complete_months(rows, "2026-03-22", "2026-11-20")  # drops 2026-03 (cut) and 2026-11 (running)
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from agents.macro.derived import DEALS
from agents.macro.housing_asked import PRICE_INDEX, Spec
from agents.macro.router import Route
from data_access.figures import median_with_count

SMALL_N = 30  # deals in a month below which its median is a small sample
TREND_WORDS = ("추세", "추이", "흐름", "trend")


def _month_end(first: date) -> date:
    return (first.replace(day=28) + timedelta(days=4)).replace(day=1) - timedelta(days=1)


def complete_months(rows: list[dict[str, Any]], start: str,
                    as_of: str) -> tuple[list[dict[str, Any]], list[str]]:  # fmt: skip
    """The months the query covered whole (first day on or after `start`, last day on or before
    `as_of`), and the months left out."""
    first, last = date.fromisoformat(start[:10]), date.fromisoformat(as_of[:10])
    kept: list[dict[str, Any]] = []
    dropped: list[dict[str, Any]] = []
    for r in rows:
        text = str(r["month"])[:10]  # a date, or 'YYYY-MM'
        month = date.fromisoformat(text if len(text) == 10 else f"{text[:7]}-01")
        whole = first <= month and _month_end(month) <= last
        (kept if whole else dropped).append(r)
    return kept, [str(r["month"])[:7] for r in dropped]


def with_price_index(specs: list[Spec], route: Route) -> list[Spec]:
    """A deal-price trend question (추세/추이/흐름) reads the price index first (when it was not
    asked already)."""
    names = [s[1] for s in specs]
    trend = (route.frame is not None and route.frame.operation.kind == "trend") or any(
        w in route.question.lower() for w in TREND_WORDS
    )
    return (
        [PRICE_INDEX, *specs] if DEALS in names and PRICE_INDEX[1] not in names and trend else specs
    )


def counts_note(rows: list[dict[str, Any]], dropped: list[str], lang: str,
                medians: bool = True, total: bool = False) -> str:  # fmt: skip
    """' 월별 거래 건수: 2026-05 21건 · 2026-06 25건 …' (after their `total`, when asked) plus the
    window's months left out and, for medians, a small-n warning; '' for rows without counts."""
    if not rows or "deals" not in rows[0]:
        return ""
    counts = [(str(r["month"])[:7], int(r["deals"])) for r in rows]
    left_out = [m for m in dropped if m > counts[0][0]]  # the running month, not the fetch's lead
    fewest = median_with_count(c for _, c in counts)
    small = [m for m, c in counts if c < SMALL_N] if medians else []
    n = sum(c for _, c in counts)
    lead = (
        ""
        if not total
        else f" 거래 {n:,}건(기간 합계)."
        if lang == "ko"
        else f" {n:,} deals in the window."
    )
    if lang != "ko":
        text = lead + " Deals per month: " + " · ".join(f"{m} {c:,}" for m, c in counts) + "."
        if left_out:
            text += f" Incomplete months left out: {', '.join(left_out)}."
        if small:
            text += f" Fewer than {SMALL_N} deals in {', '.join(small)}: a small sample."
        return text
    text = lead + " 월별 거래 건수: " + " · ".join(f"{m} {c:,}건" for m, c in counts)
    text += f" (월 중위 {fewest.value:,.0f}건, {fewest.count}개월)." if fewest.value else ""
    if left_out:
        text += f" 다 차지 않은 달({', '.join(left_out)})은 비교에서 뺐습니다."
    if small:
        which = "모든 달이" if len(small) == len(counts) else f"{', '.join(small)}은"
        text += (f" {which} 거래 {SMALL_N}건 미만이라 중위가격이 소수 거래에 좌우됩니다"
                 "(표본 작음).")  # fmt: skip
    return text
