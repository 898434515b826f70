"""Stock-specific events decided before prices are drawn: earnings dates with their surprise,
and corporate news (orders, trial results, offerings...) that move one stock on one day.

Prices add each event's jump on its reaction day; the news generator later describes the
event with the move that actually happened.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Literal

import numpy as np
import pandas as pd

from data_access.seed.calendar import Market, next_trading_day

EARNINGS_KR_TOP = 40  # KR names (by market cap) with quarterly earnings events

# Days from quarter end to the report for companies with shifted fiscal calendars.
US_REPORT_OFFSETS = {
    "NVDA": 50, "WMT": 49, "HD": 48, "COST": 68, "CRM": 64, "INTU": 52, "ADBE": 75,
    "ORCL": 74, "MU": 86, "CSCO": 45,
}  # fmt: skip
# US sectors that report before the open (the rest report after the close).
_BEFORE_OPEN_SECTORS = {
    "금융",
    "음식료",
    "에너지",
    "유통",
    "의료기기",
    "기계",
    "방산",
    "통신",
    "바이오",
}


@dataclass(frozen=True)
class EarningsSchedule:
    security_id: str
    period: str  # 2026Q3
    quarter_end: date
    event_date: date
    reaction_day: date  # first session that trades on the news
    surprise: float  # (actual - estimate) / |estimate|
    before_open: bool


@dataclass(frozen=True)
class Jump:
    """One stock-specific move added to the price path on a trading day."""

    security_id: str
    day: date
    log_return: float
    kind: Literal["earnings", "news"]
    reason_key: str  # key into news.reasons; '' for earnings


def quarter_ends(first: date, last: date) -> list[date]:
    """Calendar quarter ends in [first, last]."""
    out: list[date] = []
    year = first.year
    while True:
        for month, day in ((3, 31), (6, 30), (9, 30), (12, 31)):
            q = date(year, month, day)
            if q > last:
                return out
            if q >= first:
                out.append(q)
        year += 1


def period_label(quarter_end: date) -> str:
    return f"{quarter_end.year}Q{(quarter_end.month - 1) // 3 + 1}"


def earnings_schedule(
    stocks: pd.DataFrame, price_start: date, as_of: date, rng: np.random.Generator
) -> list[EarningsSchedule]:
    """Quarterly reports from the quarter before the window through the next expected one."""
    reporters = _reporters(stocks)
    quarters = quarter_ends(price_start - timedelta(days=70), as_of + timedelta(days=60))
    out: list[EarningsSchedule] = []
    for row in reporters.itertuples(index=False):
        us = row.country == "US"
        market: Market = "NYSE" if us else "KRX"
        base_offset = US_REPORT_OFFSETS.get(row.code) if us else None
        offset = base_offset or int(rng.integers(20, 34) if us else rng.integers(24, 38))
        before_open = reports_before_open(row.country, row.sector)
        for q in quarters:
            event_date = next_trading_day(q + timedelta(days=offset), market)
            reaction = (
                event_date if before_open else next_trading_day(event_date, market, inclusive=False)
            )
            surprise = float(rng.normal(0.03, 0.07) if us else rng.normal(0.0, 0.10))
            out.append(
                EarningsSchedule(
                    row.security_id, period_label(q), q, event_date, reaction, surprise, before_open
                )  # fmt: skip
            )
    return out


def reports_before_open(country: str, sector: str) -> bool:
    """Korean companies and US banks, staples, energy... report before the open; US tech after."""
    return country != "US" or sector in _BEFORE_OPEN_SECTORS


def _reporters(stocks: pd.DataFrame) -> pd.DataFrame:
    kr = stocks[(stocks["country"] == "KR") & ~stocks["preferred"] & ~stocks["synthetic"]]
    kr_top = kr.nsmallest(EARNINGS_KR_TOP, "size_rank")
    return pd.concat([kr_top, stocks[stocks["country"] == "US"]])


def earnings_jumps(
    schedule: list[EarningsSchedule], as_of: date, rng: np.random.Generator
) -> list[Jump]:
    """The price reaction to each reported surprise (reports after the as-of date move nothing)."""
    jumps = []
    for event in schedule:
        if event.reaction_day > as_of:
            continue
        move = float(np.clip(0.45 * event.surprise + rng.normal(0.0, 0.012), -0.16, 0.16))
        jumps.append(Jump(event.security_id, event.reaction_day, move, "earnings", ""))
    return jumps


def news_jumps(
    stocks: pd.DataFrame,
    days_by_country: dict[str, list[date]],
    reason_keys: dict[str, tuple[list[str], list[str]]],
    rng: np.random.Generator,
) -> list[Jump]:
    """Corporate news shocks: a few per stock and year, larger and more frequent for small caps."""
    jumps: list[Jump] = []
    for row in stocks.itertuples(index=False):
        days = days_by_country[row.country]
        small = row.size_rank > 60
        rate = (2.6 if small else 1.1) * len(days) / 250.0
        count = int(rng.poisson(rate))
        if count == 0:
            continue
        positive, negative = reason_keys.get(row.sector, reason_keys["default"])
        for index in rng.choice(len(days), size=min(count, len(days)), replace=False):
            up = rng.random() < 0.58
            size = rng.uniform(0.05, 0.22 if small else 0.11)
            pool = positive if up else negative
            key = pool[int(rng.integers(len(pool)))]
            jumps.append(
                Jump(row.security_id, days[int(index)], size if up else -size, "news", key)
            )
    return jumps
