"""The sessions a stock question's answer read, cut to the window it asked about: what the stock
screen charts under a question's answer (the report draws its own charts from its payload).

    rows, label = question_window(answer, pool)
    # rows: [{"date": "2026-08-20", "close": 91700.0, "high": …, "low": …, "volume": …}, …]
    # label: "3개월", "2026년", "최근 5거래일" (the window as the question named it)

The rows come from the answer's own price citation (its security and date range); the window
then comes from the question's frame: a calendar span keeps its days, 'N일' its last N
sessions, 'N개월' and 'N년' their calendar months back from the last session (from the close on
or before that day, a return's base). An answer that read no prices (PER, PBR,
earnings) has nothing to chart: ([], "").
"""

from __future__ import annotations

from datetime import date
from typing import Any

from dateutil.relativedelta import relativedelta
from psycopg_pool import ConnectionPool

from data_access.contracts import AgentAnswer, StructuredCitation
from data_access.postgres import fetch_all

MONTHS = {"month": 1, "year": 12}
PRICES = """
SELECT trade_date, close, high, low, volume FROM stock_prices
WHERE security_id = %(sid)s AND trade_date BETWEEN %(start)s AND %(end)s
ORDER BY trade_date
"""


def _price_citation(answer: AgentAnswer) -> StructuredCitation | None:
    for c in answer.structured_citations:
        if c.table == "stock_prices" and c.filters.get("security_id") and c.date_range.end:
            return c
    return None


def question_window(
    answer: AgentAnswer, pool: ConnectionPool | None
) -> tuple[list[dict[str, Any]], str]:
    """The sessions of the window the question asked about and its label, or ([], "")."""
    cited = _price_citation(answer)
    if cited is None or not cited.date_range.start:
        return [], ""
    params = {"sid": cited.filters["security_id"], "start": cited.date_range.start,
              "end": cited.date_range.end}  # fmt: skip
    rows = [
        {"date": r["trade_date"].isoformat(), "close": float(r["close"]),
         "high": float(r["high"]), "low": float(r["low"]), "volume": int(r["volume"])}
        for r in fetch_all(PRICES, params, pool)
    ]  # fmt: skip
    frame = (answer.payload.get("understanding") or {}).get("frame") or {}
    span, window = frame.get("span") or {}, frame.get("window") or {}
    if span.get("first"):
        first, last = span["first"], span.get("last") or cited.date_range.end
        inside = [r for r in rows if first <= r["date"] <= last]
        before = [r for r in rows if r["date"] < first][-1:]  # a return's base: the close before
        shown = before + inside if frame.get("statistic") == "return" else inside
        return shown, str(span.get("label_ko") or "")
    if window.get("unit") == "day" and window.get("n"):
        n = int(window["n"])
        return rows[-n:], f"최근 {n}거래일"
    months = MONTHS.get(str(window.get("unit")), 0) * int(window.get("n") or 0)
    if months:  # the tool read a margin before the window: from the close on or before its start
        first = (
            date.fromisoformat(str(cited.date_range.end)) - relativedelta(months=months)
        ).isoformat()
        on_or_before = [i for i, r in enumerate(rows) if r["date"] <= first]
        rows = rows[on_or_before[-1] if on_or_before else 0 :]
    return rows, str(window.get("surface") or f"{params['start']}~{params['end']}")
