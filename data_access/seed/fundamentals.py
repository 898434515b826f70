"""Quarterly earnings, monthly valuation snapshots and the earnings-event calendar.

Earnings follow prices (a stock's trailing P/E mean-reverts around its sector's level), so
snapshots stay plausible however the price path went; each reported quarter's surprise is the
one that moved the price on its reaction day (see events.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

import numpy as np
import pandas as pd

from data_access.seed.events import EarningsSchedule, period_label, quarter_ends
from data_access.seed.params import SOURCE
from data_access.seed.prices import PricePanel
from data_access.seed.sectors import profile

# Net margin by sector, to turn earnings into revenue.
_MARGINS = {"반도체": 0.16, "소프트웨어": 0.18, "인터넷": 0.14, "바이오": 0.15, "금융": 0.22,
            "유통": 0.03, "자동차": 0.07, "음식료": 0.06, "통신": 0.08, "게임": 0.12}  # fmt: skip
_DEFAULT_MARGIN = 0.08
# US large caps trade on higher multiples and margins than the Korean market.
_US_PE = {"반도체": 32.0, "소프트웨어": 38.0, "인터넷": 28.0, "IT하드웨어": 30.0, "자동차": 80.0, "금융": 15.0,
          "바이오": 25.0, "의료기기": 28.0, "에너지": 13.0, "음식료": 22.0, "유통": 30.0, "미디어": 35.0,
          "통신": 9.0, "방산": 35.0, "기계": 20.0, "화학": 30.0}  # fmt: skip
_US_MARGINS = {"반도체": 0.35, "소프트웨어": 0.28, "인터넷": 0.22, "IT하드웨어": 0.24, "자동차": 0.07,
               "금융": 0.25, "바이오": 0.20, "의료기기": 0.12, "에너지": 0.10, "음식료": 0.14, "유통": 0.04,
               "미디어": 0.12, "통신": 0.13, "방산": 0.12, "기계": 0.15, "화학": 0.18}  # fmt: skip


def _typical_pe(sector: str, country: str) -> float:
    return _US_PE.get(sector, 25.0) if country == "US" else profile(sector).pe


def _margin(sector: str, country: str) -> float:
    table = _US_MARGINS if country == "US" else _MARGINS
    return table.get(sector, _DEFAULT_MARGIN)


_NON_REPORTER_LAG = 45  # statutory deadline for quarterly reports (days)


@dataclass(frozen=True)
class QuarterlyEarnings:
    """Per-stock quarterly EPS arrays aligned to `quarters`."""

    quarters: list[date]
    actual: np.ndarray  # (stocks, quarters)
    estimate: np.ndarray
    revenue_actual: np.ndarray
    revenue_estimate: np.ndarray
    report_date: np.ndarray  # (stocks, quarters) date ordinals


def quarterly_earnings(
    stocks: pd.DataFrame,
    panels: dict[str, PricePanel],
    schedule: list[EarningsSchedule],
    window_start: date,
    as_of: date,
    rng: np.random.Generator,
) -> QuarterlyEarnings:
    quarters = quarter_ends(window_start - timedelta(days=400), as_of + timedelta(days=60))
    n, q = len(stocks), len(quarters)
    sectors, countries = stocks["sector"].tolist(), stocks["country"].tolist()
    pe0 = np.array(
        [_typical_pe(s, c) for s, c in zip(sectors, countries, strict=True)]
    ) * rng.lognormal(0.0, 0.15, n)
    loss_share = np.array([profile(s).loss_share for s in stocks["sector"]])
    losing = (
        (stocks["size_rank"].to_numpy() > 80)
        & (rng.random(n) < loss_share)
        & (stocks["country"] == "KR").to_numpy()
    )
    quarter_price = _prices_at_quarter_ends(stocks, panels, quarters)
    pe_path = pe0[:, None] * np.exp(np.cumsum(rng.normal(0.0, 0.04, (n, q)), axis=1))
    ttm = quarter_price / pe_path
    ttm[losing] = -quarter_price[losing] * rng.uniform(0.02, 0.08, (int(losing.sum()), 1))
    actual = ttm / 4.0 * (1.0 + rng.normal(0.0, 0.12, (n, q)))
    surprise = rng.normal(0.0, 0.08, (n, q))
    report = np.array(
        [[(qe + timedelta(days=_NON_REPORTER_LAG)).toordinal() for qe in quarters]] * n
    )
    row_of = {sid: i for i, sid in enumerate(stocks["security_id"])}
    col_of = {period_label(qe): k for k, qe in enumerate(quarters)}
    for event in schedule:
        i, k = row_of[event.security_id], col_of.get(event.period)
        if k is not None:
            surprise[i, k], report[i, k] = event.surprise, event.event_date.toordinal()
    estimate = actual - surprise * np.abs(actual)
    margin = np.array([_margin(s, c) for s, c in zip(sectors, countries, strict=True)])
    shares = stocks["shares_outstanding"].to_numpy(dtype=float)
    revenue_base = np.abs(ttm) / 4.0 * shares[:, None] / margin[:, None]
    revenue_actual = revenue_base * (1.0 + rng.normal(0.0, 0.05, (n, q)))
    revenue_estimate = revenue_actual * (1.0 - rng.normal(0.01, 0.03, (n, q)))
    return QuarterlyEarnings(quarters, actual, estimate, revenue_actual, revenue_estimate, report)


def _prices_at_quarter_ends(
    stocks: pd.DataFrame, panels: dict[str, PricePanel], quarters: list[date]
) -> np.ndarray:
    """Close on (or before) each quarter end; the first close stands in before the window."""
    out = np.empty((len(stocks), len(quarters)))
    for i, (country, sid, price0) in enumerate(
        zip(stocks["country"], stocks["security_id"], stocks["price0"], strict=True)
    ):
        panel = panels[country]
        ordinals = np.array([d.toordinal() for d in panel.days])
        column = panel.close[:, panel.column(sid)]
        for k, qe in enumerate(quarters):
            pos = np.searchsorted(ordinals, qe.toordinal(), side="right") - 1
            out[i, k] = column[pos] if pos >= 0 else price0
    return out


def earnings_rows(
    stocks: pd.DataFrame, earnings: QuarterlyEarnings, schedule: list[EarningsSchedule], as_of: date
) -> pd.DataFrame:
    """`earnings_events` rows for the scheduled reporters, ordered by event_key."""
    row_of = {sid: i for i, sid in enumerate(stocks["security_id"])}
    col_of = {period_label(qe): k for k, qe in enumerate(earnings.quarters)}
    decimals = {
        sid: (2 if c == "US" else 0)
        for sid, c in zip(stocks["security_id"], stocks["country"], strict=True)
    }
    rows = []
    for event in schedule:
        i, k = row_of[event.security_id], col_of.get(event.period)
        if k is None:
            continue
        confirmed = event.event_date <= as_of
        d = decimals[event.security_id]
        rows.append(
            {
                "event_key": f"{event.security_id}:{event.period}",
                "security_id": event.security_id,
                "period": event.period,
                "event_date": event.event_date,
                "status": "confirmed" if confirmed else "expected",
                "eps_estimate": round(float(earnings.estimate[i, k]), d),
                "eps_actual": round(float(earnings.actual[i, k]), d) if confirmed else None,
                "revenue_estimate": round(float(earnings.revenue_estimate[i, k])),
                "revenue_actual": round(float(earnings.revenue_actual[i, k]))
                if confirmed
                else None,
                "source": SOURCE,
            }
        )
    frame = pd.DataFrame(rows)
    return frame.sort_values("event_key", kind="stable").reset_index(drop=True)


def snapshot_dates(days: list[date], as_of: date) -> list[date]:
    """Last trading day of each month, plus the as-of date."""
    frame = pd.Series(days, index=pd.to_datetime(days))
    month_ends = frame.groupby([frame.index.year, frame.index.month]).max().tolist()
    return sorted(set(month_ends) | {max(d for d in days if d <= as_of)})


def fundamentals_rows(
    stocks: pd.DataFrame,
    panels: dict[str, PricePanel],
    earnings: QuarterlyEarnings,
    as_of: date,
    rng: np.random.Generator,
) -> pd.DataFrame:
    """Monthly `stock_fundamentals` rows (market cap, trailing EPS, P/E, P/B, dividend yield)."""
    frames = []
    pb0 = np.array([profile(s).pb for s in stocks["sector"]]) * rng.lognormal(0.0, 0.3, len(stocks))
    payout = np.clip(
        np.array([profile(s).dividend_yield * profile(s).pe / 100 for s in stocks["sector"]])
        * rng.uniform(0.6, 1.4, len(stocks)), 0.0, 0.9,
    )  # fmt: skip
    for country, panel in panels.items():
        mask = (stocks["country"] == country).to_numpy()
        idx = np.flatnonzero(mask)
        dates = snapshot_dates(panel.days, as_of)
        day_pos = [panel.day_index(d) for d in dates]
        cols = [panel.column(sid) for sid in stocks["security_id"].iloc[idx]]
        close = panel.close[np.ix_(day_pos, cols)]  # (dates, stocks)
        ttm = _trailing_eps(earnings, idx, dates)  # (dates, stocks)
        shares = stocks["shares_outstanding"].to_numpy(dtype=float)[idx]
        # Book value per share from the first snapshot's P/B, growing with retained earnings.
        bps = close[0] / pb0[idx] * np.linspace(1.0, 1.06, len(dates))[:, None]
        dps = np.maximum(ttm, 0.0) * payout[idx]
        frames.append(
            pd.DataFrame(
                {
                    "security_id": np.repeat(stocks["security_id"].to_numpy()[idx], len(dates)),
                    "as_of_date": np.tile(np.array(dates, dtype="datetime64[D]"), len(idx)),
                    "market_cap": np.round(close * shares).T.ravel(),
                    "eps": np.round(ttm, 4).T.ravel(),
                    "pe": np.where(
                        ttm > 0, np.round(close / np.where(ttm > 0, ttm, 1), 2), np.nan
                    ).T.ravel(),
                    "pb": np.round(close / bps, 2).T.ravel(),
                    "dividend_yield": np.round(dps / close * 100, 3).T.ravel(),
                }
            )
        )
    out = pd.concat(frames, ignore_index=True)
    return out.sort_values(["security_id", "as_of_date"], kind="stable").reset_index(drop=True)


def _trailing_eps(earnings: QuarterlyEarnings, idx: np.ndarray, dates: list[date]) -> np.ndarray:
    """Sum of the last four quarterly EPS reported on or before each date."""
    out = np.zeros((len(dates), len(idx)))
    actual, reported = earnings.actual[idx], earnings.report_date[idx]
    for t, day in enumerate(dates):
        known = reported <= day.toordinal()  # (stocks, quarters)
        for j in range(len(idx)):
            cols = np.flatnonzero(known[j])[-4:]
            if len(cols) == 0:
                cols = np.arange(4)
            out[t, j] = actual[j, cols].sum() * 4.0 / len(cols)
    return out
