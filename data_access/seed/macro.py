"""Macro indicators: FRED-style US series and Korean series, 2024-01 to the as-of date.

Levels follow the 2024-2025 path of the real series (policy-rate steps, CPI drift, the April 2025
volatility spike, USD/KRW 1,300-1,480) with random noise, continued plausibly into 2026. Each
observation carries when it was published (a realistic release lag) and the vintage date; only
what was published by the as-of date is included, and a few points are revisions.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

import numpy as np
import pandas as pd

from data_access.seed import policy
from data_access.seed.calendar import at, next_trading_day, nth_weekday, trading_days
from data_access.seed.factors import Waypoint, bridged_log_path
from data_access.seed.params import SOURCE, Window, add_months

ET, KST = "America/New_York", "Asia/Seoul"


@dataclass(frozen=True)
class SeriesDef:
    code: str
    name: str
    name_ko: str
    country: str
    unit: str
    frequency: str


SERIES: tuple[SeriesDef, ...] = (
    SeriesDef("FEDFUNDS", "Federal Funds Effective Rate", "미국 연방기금 실효금리", "US", "percent", "monthly"),
    SeriesDef("CPIAUCSL", "Consumer Price Index for All Urban Consumers: All Items", "미국 소비자물가지수(CPI-U)", "US", "index 1982-1984=100", "monthly"),
    SeriesDef("UNRATE", "Unemployment Rate", "미국 실업률", "US", "percent", "monthly"),
    SeriesDef("DGS10", "Market Yield on U.S. Treasury Securities at 10-Year Constant Maturity", "미국 10년 국채 금리", "US", "percent", "daily"),
    SeriesDef("DGS2", "Market Yield on U.S. Treasury Securities at 2-Year Constant Maturity", "미국 2년 국채 금리", "US", "percent", "daily"),
    SeriesDef("VIXCLS", "CBOE Volatility Index: VIX", "VIX 변동성 지수", "US", "index", "daily"),
    SeriesDef("DEXKOUS", "South Korean Won to U.S. Dollar Spot Exchange Rate", "원/달러 환율(FRED)", "US", "KRW per USD", "daily"),
    SeriesDef("KR_BASE_RATE", "Bank of Korea Base Rate", "한국은행 기준금리", "KR", "percent", "monthly"),
    SeriesDef("KR_CPI", "Consumer Price Index (2020=100)", "한국 소비자물가지수", "KR", "index 2020=100", "monthly"),
    SeriesDef("KR_UNEMPLOYMENT", "Unemployment Rate (seasonally adjusted)", "한국 실업률(계절조정)", "KR", "percent", "monthly"),
    SeriesDef("KR_USDKRW", "KRW/USD Closing Rate", "원/달러 환율(종가)", "KR", "KRW per USD", "daily"),
)  # fmt: skip


def _w(day: str, level: float, vol: float) -> Waypoint:
    return Waypoint(date.fromisoformat(day), level, vol)


_DGS10 = (
    _w("2024-01-02", 3.95, 0.0084), _w("2024-04-25", 4.70, 0.0077), _w("2024-09-16", 3.62, 0.0077),
    _w("2025-01-13", 4.79, 0.0077), _w("2025-04-04", 4.00, 0.0084), _w("2025-05-21", 4.60, 0.0091),
    _w("2025-09-16", 4.03, 0.007), _w("2025-12-31", 4.15, 0.0063), _w("2026-03-31", 4.05, 0.0077),
    _w("2026-06-30", 4.25, 0.007), _w("2026-09-30", 3.95, 0.007), _w("2026-11-20", 4.08, 0.007),
)  # fmt: skip
_DGS2 = (
    _w("2024-01-02", 4.33, 0.0098), _w("2024-04-30", 5.04, 0.0084), _w("2024-09-24", 3.55, 0.0098),
    _w("2025-01-10", 4.38, 0.0084), _w("2025-04-04", 3.66, 0.0112), _w("2025-05-21", 4.00, 0.0091),
    _w("2025-09-16", 3.51, 0.0077), _w("2025-12-31", 3.48, 0.007), _w("2026-03-31", 3.30, 0.0084),
    _w("2026-06-30", 3.35, 0.0077), _w("2026-09-30", 3.12, 0.0077), _w("2026-11-20", 3.18, 0.0077),
)  # fmt: skip
_USDKRW = (
    _w("2024-01-02", 1300, 0.003), _w("2024-04-16", 1394, 0.003), _w("2024-07-31", 1370, 0.0026),
    _w("2024-09-30", 1307, 0.0026), _w("2024-12-27", 1472, 0.0034), _w("2025-04-09", 1484, 0.003),
    _w("2025-06-30", 1350, 0.003), _w("2025-09-30", 1400, 0.0026), _w("2025-11-20", 1468, 0.0026),
    _w("2026-03-31", 1430, 0.003), _w("2026-06-30", 1385, 0.0026), _w("2026-09-30", 1420, 0.0026),
    _w("2026-11-20", 1445, 0.0026),
)  # fmt: skip
_VIX_SPIKES = {date(2024, 8, 5): 38.6, date(2024, 12, 18): 27.6, date(2025, 4, 4): 45.3,
               date(2025, 4, 8): 52.3, date(2025, 10, 10): 21.7, date(2026, 3, 9): 33.0}  # fmt: skip
_UNRATE_BASE = (3.7, 3.9, 3.9, 3.9, 4.0, 4.1, 4.2, 4.2, 4.1, 4.1, 4.2, 4.1,
                4.0, 4.1, 4.2, 4.2, 4.2, 4.1, 4.2, 4.3, 4.4, 4.4, 4.5, 4.4,
                4.4, 4.5, 4.5, 4.6, 4.5, 4.6, 4.6, 4.7, 4.6, 4.6, 4.6, 4.6)  # fmt: skip


@dataclass(frozen=True)
class MacroData:
    series: pd.DataFrame  # macro_series rows
    observations: pd.DataFrame  # macro_observations rows (published by the as-of date)
    daily: dict[str, pd.Series]  # full daily paths by date (also after publication cutoff)


def generate_macro(window: Window, rng: np.random.Generator) -> MacroData:
    end = window.as_of
    kr_days = trading_days(window.macro_start, end, "KRX")
    frb_days = trading_days(window.macro_start, end, "FRB")
    nyse_days = trading_days(window.macro_start, end, "NYSE")
    usdkrw = _round(pd.Series(np.exp(bridged_log_path(kr_days, _USDKRW, rng)), index=kr_days), 1)
    daily = {
        "DGS10": _round(
            pd.Series(np.exp(bridged_log_path(frb_days, _DGS10, rng)), index=frb_days), 2
        ),
        "DGS2": _round(
            pd.Series(np.exp(bridged_log_path(frb_days, _DGS2, rng)), index=frb_days), 2
        ),
        "VIXCLS": _vix(nyse_days, rng),
        "KR_USDKRW": usdkrw,
        "DEXKOUS": _dexkous(frb_days, usdkrw, rng),
    }
    months = [
        add_months(window.macro_start, i) for i in range(_month_count(window.macro_start, end))
    ]
    monthly = _monthly(months, rng)
    rows = [*_daily_rows(daily), *_monthly_rows(monthly)]
    cutoff = at(end, 23, 59, ET)
    frame = pd.DataFrame(rows)
    frame = frame[frame["published_at"] <= cutoff]
    frame = _apply_revisions(frame, rng, cutoff)
    frame = frame.sort_values(["series_code", "obs_date"], kind="stable").reset_index(drop=True)
    series = (
        pd.DataFrame(
            [
                {
                    "series_code": s.code,
                    "name": s.name,
                    "name_ko": s.name_ko,
                    "country": s.country,
                    "unit": s.unit,
                    "frequency": s.frequency,
                    "source": SOURCE,
                }
                for s in SERIES
            ]  # fmt: skip
        )
        .sort_values("series_code")
        .reset_index(drop=True)
    )
    return MacroData(series, frame, daily)


def _round(series: pd.Series, decimals: int) -> pd.Series:
    return series.round(decimals)


def _month_count(first: date, end: date) -> int:
    return (end.year - first.year) * 12 + end.month - first.month + 1


def _vix(days: list[date], rng: np.random.Generator) -> pd.Series:
    """A mean-reverting log VIX around 16 with the spikes of the period."""
    x, out = np.log(16.0), []
    for day in days:
        x += 0.09 * (np.log(16.0) - x) + rng.normal(0.0, 0.065)
        if day in _VIX_SPIKES:
            x = np.log(_VIX_SPIKES[day])
        out.append(np.exp(x))
    return _round(pd.Series(out, index=days), 2)


def _dexkous(days: list[date], usdkrw: pd.Series, rng: np.random.Generator) -> pd.Series:
    """The noon New York rate: the latest Seoul close plus a little intraday drift."""
    seoul = usdkrw.reindex(pd.Index(days).union(usdkrw.index)).ffill().bfill()
    base = seoul.reindex(days).to_numpy()
    return _round(pd.Series(base * (1 + rng.normal(0.0, 0.0015, len(days))), index=days), 2)


def _monthly(months: list[date], rng: np.random.Generator) -> dict[str, pd.Series]:
    n = len(months)
    cpi_mom = 0.0020 + rng.normal(0.0, 0.0008, n)
    cpi_mom[[i for i, m in enumerate(months) if date(2025, 6, 1) <= m <= date(2025, 9, 1)]] += (
        0.0005
    )
    kr_season = np.array([0.004 if m.month in (1, 7) else 0.0 for m in months])
    kr_mom = 0.0015 + kr_season - kr_season.mean() + rng.normal(0.0, 0.0012, n)
    unrate = np.array([_UNRATE_BASE[min(i, len(_UNRATE_BASE) - 1)] for i in range(n)])
    unrate = np.round(unrate + np.round(rng.normal(0.0, 0.06, n), 1), 1)
    return {
        "FEDFUNDS": pd.Series([_avg_effr(m) for m in months], index=months),
        "CPIAUCSL": pd.Series(np.round(309.7 * np.cumprod(1 + cpi_mom), 3), index=months),
        "UNRATE": pd.Series(unrate, index=months),
        "KR_BASE_RATE": pd.Series(
            [policy.rate_on("BOK", _month_end(m) + timedelta(days=1)) for m in months], index=months
        ),
        "KR_CPI": pd.Series(np.round(113.15 * np.cumprod(1 + kr_mom), 2), index=months),
        "KR_UNEMPLOYMENT": pd.Series(np.round(2.8 + rng.normal(0.0, 0.12, n), 1), index=months),
    }


def _month_end(month: date) -> date:
    return add_months(month, 1) - timedelta(days=1)


def _avg_effr(month: date) -> float:
    days = pd.date_range(month, _month_end(month)).date
    return round(
        float(np.mean([policy.rate_on("FOMC", d) - policy.EFFR_BELOW_UPPER for d in days])), 2
    )


# ---------------------------------------------------------------- release timing


def _daily_published(code: str, day: date) -> datetime:
    if code == "KR_USDKRW":
        return at(day, 15, 30, KST)
    if code == "DEXKOUS":  # H.10 is released weekly, on the Monday after the week
        monday = day + timedelta(days=7 - day.weekday())
        return at(next_trading_day(monday, "FRB"), 16, 15, ET)
    if code == "VIXCLS":
        return at(next_trading_day(day, "NYSE", inclusive=False), 8, 0, ET)
    return at(next_trading_day(day, "FRB", inclusive=False), 16, 15, ET)  # H.15 rates


def _monthly_published(code: str, month: date) -> datetime:
    following = add_months(month, 1)
    if code == "CPIAUCSL":
        return at(nth_weekday(following.year, following.month, 2, 2), 8, 30, ET)  # 2nd Wednesday
    if code == "UNRATE":
        return at(nth_weekday(following.year, following.month, 4, 1), 8, 30, ET)  # 1st Friday
    if code == "FEDFUNDS":
        return at(next_trading_day(following, "FRB"), 15, 30, ET)
    if code == "KR_CPI":
        return at(next_trading_day(following + timedelta(days=1), "KRX"), 8, 0, KST)
    if code == "KR_UNEMPLOYMENT":
        return at(nth_weekday(following.year, following.month, 2, 2), 8, 0, KST)
    return at(next_trading_day(following, "KRX"), 9, 0, KST)  # KR_BASE_RATE month-end value


def _row(code: str, obs: date, value: float, published: datetime) -> dict[str, object]:
    return {"series_code": code, "obs_date": obs, "value": float(value), "published_at": published,
            "as_of_date": published.date(), "revision_flag": False}  # fmt: skip


def _daily_rows(daily: dict[str, pd.Series]) -> list[dict[str, object]]:
    return [_row(code, d, v, _daily_published(code, d))
            for code, series in daily.items() for d, v in series.items()]  # fmt: skip


def _monthly_rows(monthly: dict[str, pd.Series]) -> list[dict[str, object]]:
    return [_row(code, m, v, _monthly_published(code, m))
            for code, series in monthly.items() for m, v in series.items()]  # fmt: skip


# Annual seasonal-factor revisions: (series, revision day, local hour, tz, months back revised).
_REVISIONS = (
    ("UNRATE", (1, 9), 8, 30, ET, 2),
    ("CPIAUCSL", (2, 11), 8, 30, ET, 2),
    ("KR_UNEMPLOYMENT", (2, 11), 8, 0, KST, 1),
)


def _apply_revisions(
    frame: pd.DataFrame, rng: np.random.Generator, cutoff: datetime
) -> pd.DataFrame:
    """Re-publish the last months of the previous year with small changes (revision_flag)."""
    frame = frame.copy()
    years = sorted({d.year for d in frame["obs_date"]})
    for code, (month, day), hour, minute, tz, count in _REVISIONS:
        for year in years[1:]:
            published = at(date(year, month, day), hour, minute, tz)
            if published > cutoff:
                continue
            targets = [date(year - 1, 12 - k, 1) for k in range(count)]
            mask = (frame["series_code"] == code) & frame["obs_date"].isin(targets)
            step = 0.1 if code != "CPIAUCSL" else 0.05
            delta = np.where(rng.random(int(mask.sum())) < 0.5, -step, step)
            frame.loc[mask, "value"] = np.round(frame.loc[mask, "value"].to_numpy() + delta, 3)
            frame.loc[mask, "published_at"] = published
            frame.loc[mask, "as_of_date"] = published.date()
            frame.loc[mask, "revision_flag"] = True
    return frame
