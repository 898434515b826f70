"""Daily market paths the non-equity ETFs track: gold, WTI, Korean yields, CD/KOFR, FX.

They live on the KRX calendar of the price window and are not stored as tables; the ETF prices
that follow them are. USD/KRW and the US 10-year yield come from the macro series, so bond,
dollar and foreign-equity ETFs agree with the indicators the macro screen shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import numpy as np
import pandas as pd

from data_access.seed import policy
from data_access.seed.factors import Waypoint, bridged_log_path


def _w(day: str, level: float, vol: float) -> Waypoint:
    return Waypoint(date.fromisoformat(day), level, vol)


_GOLD = (
    _w("2024-12-02", 2640, 0.009), _w("2025-01-31", 2800, 0.008), _w("2025-04-21", 3420, 0.012),
    _w("2025-06-30", 3300, 0.010), _w("2025-10-20", 4350, 0.010), _w("2025-12-31", 4200, 0.012),
    _w("2026-06-30", 4100, 0.010), _w("2026-11-20", 4300, 0.010),
)  # fmt: skip
_WTI = (
    _w("2024-12-02", 68.0, 0.018), _w("2025-01-15", 79.0, 0.018), _w("2025-05-05", 57.5, 0.022),
    _w("2025-06-20", 74.0, 0.024), _w("2025-10-20", 57.0, 0.018), _w("2026-03-31", 63.0, 0.019),
    _w("2026-11-20", 59.5, 0.018),
)  # fmt: skip
_KTB3 = (
    _w("2024-12-02", 2.62, 0.012), _w("2025-05-30", 2.30, 0.012), _w("2025-11-20", 2.85, 0.012),
    _w("2026-03-31", 2.55, 0.012), _w("2026-11-20", 2.60, 0.011),
)  # fmt: skip
_KTB10 = (
    _w("2024-12-02", 2.80, 0.011), _w("2025-05-30", 2.75, 0.011), _w("2025-11-20", 3.25, 0.011),
    _w("2026-03-31", 3.05, 0.011), _w("2026-11-20", 3.10, 0.010),
)  # fmt: skip
_KTB30 = (
    _w("2024-12-02", 2.72, 0.010), _w("2025-05-30", 2.78, 0.010), _w("2025-11-20", 3.15, 0.010),
    _w("2026-03-31", 3.00, 0.010), _w("2026-11-20", 3.05, 0.009),
)  # fmt: skip


@dataclass(frozen=True)
class MarketPaths:
    """Levels on `days` (KRX trading days of the price window)."""

    days: list[date]
    gold_usd: np.ndarray
    wti_usd: np.ndarray
    usdkrw: np.ndarray
    ktb: dict[float, np.ndarray]  # maturity (years) -> yield, percent
    cd91: np.ndarray
    kofr: np.ndarray
    ust10: np.ndarray
    ust30: np.ndarray

    def kr_yield(self, duration: float) -> np.ndarray:
        """Yield for a bond ETF's duration: CD for the short end, the KTB curve beyond."""
        if duration <= 1.0:
            return self.cd91 + 0.10 * duration
        knots = sorted(self.ktb)
        weights = np.interp(duration, knots, range(len(knots)))
        low = int(np.floor(weights))
        high = min(low + 1, len(knots) - 1)
        frac = weights - low
        return self.ktb[knots[low]] * (1 - frac) + self.ktb[knots[high]] * frac


def generate_paths(
    days: list[date], daily_macro: dict[str, pd.Series], rng: np.random.Generator
) -> MarketPaths:
    def level(points: tuple[Waypoint, ...]) -> np.ndarray:
        return np.exp(bridged_log_path(days, points, rng))

    usdkrw = _on_days(daily_macro["KR_USDKRW"], days)
    ust10 = _on_days(daily_macro["DGS10"], days)
    base = np.array([policy.rate_on("BOK", d) for d in days])
    cd91 = base + 0.20 + np.cumsum(rng.normal(0.0, 0.004, len(days))).clip(-0.1, 0.1)
    return MarketPaths(
        days=days,
        gold_usd=level(_GOLD),
        wti_usd=level(_WTI),
        usdkrw=usdkrw,
        ktb={3.0: level(_KTB3), 10.0: level(_KTB10), 30.0: level(_KTB30)},
        cd91=np.round(cd91, 2),
        kofr=np.round(base - 0.04 + rng.normal(0.0, 0.01, len(days)), 3),
        ust10=ust10,
        ust30=ust10 + 0.55 + np.cumsum(rng.normal(0.0, 0.005, len(days))).clip(-0.15, 0.15),
    )


def _on_days(series: pd.Series, days: list[date]) -> np.ndarray:
    """A series re-sampled onto `days`, carrying the last value over missing days."""
    index = pd.Index(days)
    return (
        series.reindex(series.index.union(index))
        .ffill()
        .bfill()
        .reindex(index)
        .to_numpy(dtype=float)
    )
