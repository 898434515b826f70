"""Korean housing: monthly price index, apartment transactions, unsold homes, permits and jeonse
ratios for 36 months to the as-of month.

Trends follow the 2024-2025 market (Seoul's Gangnam belt rising fastest, Daegu falling under
an unsold overhang) with the June 27 and October 15, 2025 policy measures cooling Seoul
turnover; 2026 continues plausibly. Complex names are real; prices are generated.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

import numpy as np
import pandas as pd

from data_access.seed import reference
from data_access.seed.params import Window, add_months, month_end


@dataclass(frozen=True)
class Region:
    name: str
    index0: float  # house price index at the first month (2021-06 = 100)
    drift: tuple[float, float, float, float]  # monthly % in 2024, 2025H1, 2025H2, 2026
    jeonse0: float  # jeonse-to-price ratio, percent
    seoul: bool = False


REGIONS: tuple[Region, ...] = (
    Region("전국", 94.0, (0.00, 0.05, 0.08, 0.05), 66.0),
    Region("서울", 97.0, (0.30, 0.55, 0.45, 0.30), 53.0, True),
    Region("서울 강남구", 102.0, (0.60, 1.00, 0.80, 0.40), 42.0, True),
    Region("서울 서초구", 103.0, (0.60, 0.95, 0.80, 0.40), 43.0, True),
    Region("서울 송파구", 97.0, (0.55, 1.05, 0.75, 0.40), 46.0, True),
    Region("서울 노원구", 88.0, (0.05, 0.15, 0.20, 0.15), 58.0, True),
    Region("서울 마포구", 95.0, (0.40, 0.70, 0.60, 0.30), 55.0, True),
    Region("서울 성동구", 97.0, (0.50, 0.90, 0.75, 0.35), 50.0, True),
    Region("경기", 91.0, (0.05, 0.10, 0.12, 0.10), 66.0),
    Region("경기 성남시 분당구", 96.0, (0.30, 0.60, 0.55, 0.25), 55.0),
    Region("인천", 88.0, (0.00, 0.00, 0.05, 0.05), 68.0),
    Region("부산", 90.0, (-0.15, -0.10, -0.05, 0.00), 69.0),
    Region("대구", 84.0, (-0.40, -0.30, -0.20, -0.10), 72.0),
    Region("대전", 88.0, (-0.10, -0.05, 0.00, 0.02), 70.0),
    Region("광주", 95.0, (-0.10, -0.10, -0.05, 0.00), 75.0),
    Region("울산", 93.0, (0.00, 0.05, 0.05, 0.03), 73.0),
    Region("세종", 80.0, (-0.05, 0.20, 0.10, 0.05), 55.0),
)

# Province-level series: (region, unsold homes at the first month, monthly permits).
PROVINCES: tuple[tuple[str, int, int], ...] = (
    ("서울", 1000, 2600), ("경기", 7500, 9500), ("인천", 3200, 2200), ("부산", 3400, 1900),
    ("대구", 10000, 900), ("대전", 2400, 900), ("광주", 1200, 800), ("울산", 3500, 700),
    ("세종", 150, 300),
)  # fmt: skip
REST_OF_COUNTRY = 1.45  # 전국 = listed provinces x this (provinces not listed)
JUNE_27, OCT_15 = date(2025, 6, 27), date(2025, 10, 15)


@dataclass(frozen=True)
class RealEstateData:
    house_price_index: pd.DataFrame
    transactions: pd.DataFrame
    unsold: pd.DataFrame
    permits: pd.DataFrame
    jeonse: pd.DataFrame


def generate_realestate(
    window: Window, volume_scale: float, rng: np.random.Generator
) -> RealEstateData:
    months = _months(window)
    index = _price_index(months, rng)
    return RealEstateData(
        house_price_index=_long(index, "index_value", 2),
        transactions=_transactions(months, index, window.as_of, volume_scale, rng),
        unsold=_long(_unsold(months, rng), "units", 0, integer=True),
        permits=_long(_permits(months, rng), "units", 0, integer=True),
        jeonse=_long(_jeonse(months, rng), "ratio", 1),
    )


def _months(window: Window) -> list[date]:
    last = date(window.as_of.year, window.as_of.month, 1)
    out, month = [], window.re_first_month
    while month <= last:
        out.append(month)
        month = add_months(month, 1)
    return out


def _phase(month: date) -> int:
    if month.year <= 2024:
        return 0
    if month.year == 2025:
        return 1 if month.month <= 6 else 2
    return 3


def _policy_factor(region: Region, month: date) -> float:
    """Seoul's monthly gains: hot into June 2025, halved after 6.27, nearly stalled after 10.15."""
    if not region.seoul:
        return 1.0
    if month == date(2025, 6, 1):
        return 1.6
    if date(2025, 7, 1) <= month <= date(2025, 9, 1):
        return 0.5
    if date(2025, 11, 1) <= month <= date(2026, 1, 1):
        return 0.3
    return 1.0


def _price_index(months: list[date], rng: np.random.Generator) -> pd.DataFrame:
    out = {}
    for region in REGIONS:
        level, values = region.index0, []
        for month in months:
            drift = region.drift[_phase(month)] * _policy_factor(region, month)
            level *= 1 + (drift + rng.normal(0.0, 0.12)) / 100.0
            values.append(level)
        out[region.name] = values
    return pd.DataFrame(out, index=months)


def _heat(region: str, month: date) -> float:
    """Transaction activity relative to normal."""
    if not region.startswith("서울"):
        return 0.9
    if date(2025, 3, 1) <= month <= date(2025, 6, 1):
        return 1.3 + 0.2 * (month.month - 3)
    if date(2025, 7, 1) <= month <= date(2025, 9, 1):
        return 0.8
    if month == date(2025, 10, 1):
        return 1.6
    if date(2025, 11, 1) <= month <= date(2026, 2, 1):
        return 0.5
    return 1.0


def _transactions(
    months: list[date],
    index: pd.DataFrame,
    as_of: date,
    volume_scale: float,
    rng: np.random.Generator,
) -> pd.DataFrame:
    complexes = reference.re_complexes()
    rows = []
    for c in complexes.itertuples(index=False):
        areas = [float(a) for a in str(c.areas).split("|")]
        base = float(index[c.region].iloc[0])
        for month in months:
            count = int(rng.poisson(4.0 * c.weight * _heat(c.region, month) * volume_scale))
            last_day = min(month_end(month), as_of)
            span = (last_day - month).days + 1
            for _ in range(count):
                area = areas[int(rng.integers(len(areas)))]
                floor = int(rng.integers(1, c.max_floor + 1))
                level = float(index.at[month, c.region]) / base
                floor_premium = 1.0 + 0.05 * (floor / c.max_floor - 0.5)
                price = c.price_per_m2 * area * level * floor_premium * rng.lognormal(0.0, 0.035)
                deal = month + timedelta(days=int(rng.integers(span)))
                rows.append((c.region, c.complex_name, area, floor, int(round(price, -6)), deal))
    frame = pd.DataFrame(
        rows, columns=["region", "complex_name", "area_m2", "floor", "price_krw", "deal_date"]
    )
    frame = frame.sort_values(["deal_date", "region", "complex_name", "area_m2", "floor", "price_krw"],
                              kind="stable").reset_index(drop=True)  # fmt: skip
    frame.insert(0, "id", np.arange(1, len(frame) + 1, dtype=np.int64))
    return frame


def _unsold(months: list[date], rng: np.random.Generator) -> pd.DataFrame:
    out = {}
    for name, units0, _ in PROVINCES:
        trend = -0.012 if name == "대구" else 0.004 if name in ("경기", "부산", "울산") else 0.0
        steps = trend + rng.normal(0.0, 0.05, len(months))
        out[name] = units0 * np.exp(np.cumsum(steps))
    frame = pd.DataFrame(out, index=months)
    frame.insert(0, "전국", frame.sum(axis=1) * REST_OF_COUNTRY)
    return frame


def _permits(months: list[date], rng: np.random.Generator) -> pd.DataFrame:
    season = np.array([1.8 if m.month == 12 else 0.8 if m.month in (1, 2) else 1.0 for m in months])
    out = {
        name: monthly * season * rng.lognormal(0.0, 0.25, len(months))
        for name, _, monthly in PROVINCES
    }
    frame = pd.DataFrame(out, index=months)
    frame.insert(0, "전국", frame.sum(axis=1) * REST_OF_COUNTRY)
    return frame


def _jeonse(months: list[date], rng: np.random.Generator) -> pd.DataFrame:
    out = {}
    for region in REGIONS:
        slope = -0.08 if region.seoul else -0.01
        out[region.name] = (
            region.jeonse0 + slope * np.arange(len(months)) + rng.normal(0.0, 0.15, len(months))
        )
    return pd.DataFrame(out, index=months)


def _long(wide: pd.DataFrame, value: str, decimals: int, integer: bool = False) -> pd.DataFrame:
    """(month x region) -> rows (region, month, value) in primary-key order."""
    frame = (
        wide.round(decimals)
        .rename_axis("month")
        .reset_index()
        .melt(id_vars="month", var_name="region", value_name=value)
    )
    if integer:
        frame[value] = frame[value].astype(np.int64)
    return (
        frame[["region", "month", value]]
        .sort_values(["region", "month"], kind="stable")
        .reset_index(drop=True)
    )
