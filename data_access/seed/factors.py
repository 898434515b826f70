"""Market and sector factor paths: noise bridged through hand-set waypoints.

The waypoints give the 2025-2026 market its shape (the April 2025 tariff shock, the 2025
semiconductor rally, a 2026 correction and recovery); the noise between them is random, so the
same seed always gives the same path and a different seed a different one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import numpy as np

from data_access.seed.sectors import SECTORS


@dataclass(frozen=True)
class Waypoint:
    day: date
    level: float
    vol: float  # daily volatility of the segment that ends here


def _w(day: str, level: float, vol: float) -> Waypoint:
    return Waypoint(date.fromisoformat(day), level, vol)


# A KOSPI-like level; only its returns are used (it drives every KR stock through beta).
KR_MARKET = (
    _w("2024-12-02", 2450, 0.010), _w("2024-12-30", 2400, 0.013), _w("2025-02-18", 2650, 0.010),
    _w("2025-03-31", 2480, 0.011), _w("2025-04-09", 2290, 0.018), _w("2025-05-30", 2700, 0.011),
    _w("2025-07-31", 3250, 0.011), _w("2025-09-30", 3420, 0.009), _w("2025-11-03", 4100, 0.013),
    _w("2025-12-30", 3950, 0.015), _w("2026-03-31", 3700, 0.014), _w("2026-06-30", 4050, 0.010),
    _w("2026-09-30", 4300, 0.010), _w("2026-11-20", 4150, 0.011),
)  # fmt: skip

# An S&P-500-like level for US stocks.
US_MARKET = (
    _w("2024-12-02", 6050, 0.008), _w("2024-12-31", 5880, 0.009), _w("2025-02-19", 6140, 0.008),
    _w("2025-04-08", 4980, 0.020), _w("2025-05-30", 5910, 0.012), _w("2025-07-31", 6340, 0.007),
    _w("2025-09-30", 6690, 0.007), _w("2025-10-28", 6890, 0.008), _w("2025-12-31", 6850, 0.010),
    _w("2026-03-31", 6600, 0.012), _w("2026-06-30", 7050, 0.008), _w("2026-09-30", 7300, 0.008),
    _w("2026-11-20", 7180, 0.009),
)  # fmt: skip

# Market-wide shock days (log returns added before bridging, so they survive it).
KR_SHOCKS: dict[date, float] = {
    date(2025, 4, 7): -0.058,
    date(2025, 4, 10): 0.064,
    date(2025, 11, 5): -0.026,
    date(2026, 3, 9): -0.041,
    date(2026, 3, 10): 0.019,
}
US_SHOCKS: dict[date, float] = {
    date(2025, 4, 3): -0.049,
    date(2025, 4, 4): -0.061,
    date(2025, 4, 9): 0.091,
    date(2026, 3, 6): -0.028,
    date(2026, 3, 9): -0.022,
}

# Half-year boundaries of the sector tilts in sectors.py (2025H1, 2025H2, 2026H1, 2026H2).
TILT_PERIOD_STARTS = (date(2025, 7, 1), date(2026, 1, 1), date(2026, 7, 1))


def bridged_log_path(
    days: list[date],
    waypoints: tuple[Waypoint, ...],
    rng: np.random.Generator,
    shocks: dict[date, float] | None = None,
) -> np.ndarray:
    """Log levels on `days` that pass exactly through each waypoint (snapped to a trading day)."""
    ordinal = np.array([d.toordinal() for d in days])
    anchors = [int(np.clip(np.searchsorted(ordinal, w.day.toordinal()), 0, len(days) - 1))
               for w in waypoints]  # fmt: skip
    logs = np.empty(len(days))
    logs[: anchors[0] + 1] = np.log(waypoints[0].level)
    shock_by_index = {days.index(d): r for d, r in (shocks or {}).items() if d in days}
    for (a, b), w in zip(zip(anchors[:-1], anchors[1:], strict=True), waypoints[1:], strict=True):
        n = b - a
        if n <= 0:
            continue
        steps = rng.normal(0.0, w.vol, n)
        for index, value in shock_by_index.items():
            if a < index <= b:
                steps[index - a - 1] = value
        target = np.log(w.level) - logs[a]
        path = np.cumsum(steps)
        logs[a + 1 : b + 1] = logs[a] + path - np.arange(1, n + 1) / n * (path[-1] - target)
    return logs


def market_returns(
    days: list[date],
    waypoints: tuple[Waypoint, ...],
    shocks: dict[date, float],
    rng: np.random.Generator,
) -> np.ndarray:
    """Daily log returns of the market factor; day 0 gets an ordinary random return."""
    logs = bridged_log_path(days, waypoints, rng, shocks)
    returns = np.diff(logs, prepend=logs[0])
    returns[0] = rng.normal(0.0, waypoints[0].vol)
    return returns


def sector_returns(days: list[date], sectors: list[str], rng: np.random.Generator) -> np.ndarray:
    """(days x sectors) daily log returns: sector noise plus the half-year tilt drift."""
    period = np.searchsorted(
        np.array([p.toordinal() for p in TILT_PERIOD_STARTS]),
        np.array([d.toordinal() for d in days]),
        side="right",
    )
    out = np.empty((len(days), len(sectors)))
    for k, sector in enumerate(sectors):
        profile = SECTORS.get(sector)
        # Sector noise is shared by every stock of the sector: keep it below the idiosyncratic part.
        vol = 0.75 * (profile.sector_vol if profile else 0.009)
        tilts = np.array(profile.tilts if profile else (0.0, 0.0, 0.0, 0.0))
        out[:, k] = rng.normal(0.0, vol, len(days)) + tilts[period] / 252.0
    return out
