"""Figures the tests recompute on their own from SQL rows, to check the answers against."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

from dateutil.relativedelta import relativedelta


def window_volatility_pct(rows: Sequence[dict[str, Any]], window: relativedelta) -> float:
    """Annualized volatility in % of the closes from the window's base bar (the last on or
    before the last bar minus `window`) to the last: sample stdev of daily returns × √252.
    `rows` hold trade_date and close, oldest first."""
    last = rows[-1]["trade_date"]
    base = max(r["trade_date"] for r in rows if r["trade_date"] <= last - window)
    closes = [float(r["close"]) for r in rows if r["trade_date"] >= base]
    returns = [b / a - 1 for a, b in zip(closes, closes[1:], strict=False)]
    return statistics.stdev(returns) * math.sqrt(252) * 100


def last_session(pool: Any) -> Any:
    """The data's last stock session: the day the screens call today (their 기준일)."""
    from data_access.postgres import fetch_all

    return fetch_all("SELECT max(trade_date) AS d FROM stock_prices", None, pool)[0]["d"]
