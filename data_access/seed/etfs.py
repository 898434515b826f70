"""ETF daily prices, holdings snapshots and holdings changes for every ETF of the scale."""

from __future__ import annotations

import bisect
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

import numpy as np
import pandas as pd

from data_access.seed.baskets import BasketContext, BasketSpec, parse_spec, review_days
from data_access.seed.etf_sim import Segment, levered_nav, path_nav, simulate_basket
from data_access.seed.params import ScaleConfig, rng_for
from data_access.seed.paths import MarketPaths
from data_access.seed.prices import PricePanel

LEVERED_HOLDING_SCALE = 0.85  # a 2x fund holds ~85% of NAV in index stocks, the rest in futures
_INDEX_BASKETS = {
    "kospi200": "index:kospi200",
    "kosdaq150": "index:kosdaq150",
    "us_nasdaq": "us:nasdaq;cap=14",
}


@dataclass(frozen=True)
class Fund:
    """One ETF row as the simulation needs it."""

    code: str
    name: str
    region: str
    expense_ratio: float
    price0: float
    net_assets0: float
    spec: BasketSpec

    @property
    def hedged(self) -> bool:
        return "(H)" in self.name or "H)" in self.name


IndexPaths = dict[str, tuple[np.ndarray, list[Segment]]]


@dataclass(frozen=True)
class HoldingChange:
    etf_code: str
    day: date
    added: list[str]
    removed: list[str]


@dataclass(frozen=True)
class EtfData:
    prices: pd.DataFrame  # etf_prices rows
    holdings: pd.DataFrame  # etf_holdings rows
    changes: list[HoldingChange]  # membership changes inside the holdings window
    days: list[date]
    nav: dict[str, np.ndarray]
    close: dict[str, np.ndarray]
    net_assets: dict[str, np.ndarray]


def generate_etfs(
    etfs: pd.DataFrame,
    stocks: pd.DataFrame,
    panels: dict[str, PricePanel],
    paths: MarketPaths,
    fundamentals: pd.DataFrame,
    config: ScaleConfig,
    seed: int,
) -> EtfData:
    """Prices of every ETF over the window and holdings for the last `holdings_days` days.

    Each ETF draws from its own stream (`etf:<code>`), so adding ETFs never changes others."""
    kr_panel = panels["KR"]
    days = kr_panel.days
    krw, local = _price_matrices(stocks, panels, paths.usdkrw)
    # Index weights use float-adjusted market caps, in each stock's own currency.
    caps = local * (stocks["shares_outstanding"] * stocks["float_ratio"]).to_numpy(dtype=float)
    ctx = BasketContext(stocks, caps, days, _dividend_lookup(fundamentals))
    index_nav = {
        name: simulate_basket(parse_spec(spec), ctx, local if name == "us_nasdaq" else krw, 1000.0,
                              fee=0.0, cash=0.0, jitter=0.0, rng=rng_for(seed, f"index:{name}"))
        for name, spec in _INDEX_BASKETS.items()
    }  # fmt: skip
    first_holding_day = len(days) - config.holdings_days
    price_rows: list[pd.DataFrame] = []
    holding_rows: list[pd.DataFrame] = []
    changes: list[HoldingChange] = []
    out_nav: dict[str, np.ndarray] = {}
    out_close: dict[str, np.ndarray] = {}
    out_assets: dict[str, np.ndarray] = {}
    for etf in _funds(etfs):
        rng = rng_for(seed, f"etf:{etf.code}")
        spec = etf.spec
        prices = local if etf.hedged else krw
        nav, segments, base = _nav(etf, ctx, prices, index_nav, paths, first_holding_day, rng)
        units = _units(etf, len(days), rng)
        close = _market_price(nav, spec, etf.region, rng)
        price_rows.append(_price_frame(etf.code, days, nav, close, units, spec, rng))
        if segments:
            holding_rows.append(
                _holding_frame(etf.code, days, nav, units, segments, prices, first_holding_day)
            )
            changes += _changes(etf.code, days, segments, first_holding_day)
        elif base is not None:
            idx_nav, idx_segments = index_nav[base]
            holding_rows.append(_levered_holdings(etf.code, days, nav, units, idx_nav, idx_segments,
                                                  prices, first_holding_day))  # fmt: skip
        out_nav[etf.code], out_close[etf.code], out_assets[etf.code] = nav, close, nav * units
    return EtfData(
        prices=pd.concat(price_rows, ignore_index=True),
        holdings=pd.concat(holding_rows, ignore_index=True),
        changes=changes,
        days=days,
        nav=out_nav,
        close=out_close,
        net_assets=out_assets,
    )


def _price_matrices(
    stocks: pd.DataFrame, panels: dict[str, PricePanel], usdkrw: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(KR days x all stocks) prices: KRW for everything, and each stock's own currency.

    A Korean fund values US stocks at the last US close before the Korean session."""
    kr, us = panels["KR"], panels["US"]
    kr_ord = np.array([d.toordinal() for d in kr.days])
    us_ord = np.array([d.toordinal() for d in us.days])
    us_row = np.clip(np.searchsorted(us_ord, kr_ord, side="left") - 1, 0, len(us_ord) - 1)
    local = np.empty((len(kr.days), len(stocks)))
    for j, (sid, country) in enumerate(zip(stocks["security_id"], stocks["country"], strict=True)):
        panel = kr if country == "KR" else us
        column = panel.close[:, panel.column(sid)]
        local[:, j] = column if country == "KR" else column[us_row]
    is_us = (stocks["country"] == "US").to_numpy()
    krw = local * np.where(is_us[None, :], usdkrw[:, None], 1.0)
    return krw, local


def _funds(etfs: pd.DataFrame) -> list[Fund]:
    ordered = etfs.sort_values("code")
    return [
        Fund(str(code), str(name), str(region), float(fee), float(price0), float(assets), parse_spec(str(basket)))
        for code, name, region, fee, price0, assets, basket in zip(
            ordered["code"], ordered["name"], ordered["region"], ordered["expense_ratio"],
            ordered["price0"], ordered["net_assets0"], ordered["basket"], strict=True,
        )
    ]  # fmt: skip


def _dividend_lookup(fundamentals: pd.DataFrame) -> Callable[[date], pd.Series]:
    """Dividend yields (by security_id) of the latest monthly snapshot on or before a day."""
    table = fundamentals.pivot(index="as_of_date", columns="security_id", values="dividend_yield")
    dates = [pd.Timestamp(d).date() for d in table.index]

    def lookup(day: date) -> pd.Series:
        position = max(bisect.bisect_right(dates, day) - 1, 0)
        return table.iloc[position]

    return lookup


def _nav(
    etf: Fund,
    ctx: BasketContext,
    prices: np.ndarray,
    index_nav: IndexPaths,
    paths: MarketPaths,
    first_holding_day: int,
    rng: np.random.Generator,
) -> tuple[np.ndarray, list[Segment], str | None]:
    """NAV path, holdings segments (basket funds) and the index whose stocks a levered fund holds."""
    spec = etf.spec
    if spec.kind == "lev":
        base, multiple = spec.arg.split(":")
        nav = levered_nav(index_nav[base][0], float(multiple), etf.price0, etf.expense_ratio, rng)
        holds_stocks = float(multiple) > 0 and base != "us_nasdaq"
        return nav, [], base if holds_stocks else None
    if spec.is_equity:
        extra: list[int] = []
        if spec.active:  # active funds also trade between reviews
            extra = sorted(
                int(i)
                for i in rng.choice(
                    np.arange(first_holding_day, len(ctx.days) - 1), 3, replace=False
                )
            )
        # Bigger funds track tighter: less cash and smaller deviations from index weights. The
        # cash floor pays a quarter of fees and tracking noise.
        smallness = float(np.log10(max(1e13 / etf.net_assets0, 1.0)))
        cash = 0.004 + 0.002 * smallness + float(rng.uniform(0.0, 0.0005))
        jitter = float(np.clip(0.004 * np.sqrt(1e12 / etf.net_assets0), 0.0005, 0.008))
        nav, segments = simulate_basket(spec, ctx, prices, etf.price0, fee=etf.expense_ratio, cash=cash,
                                        jitter=jitter, rng=rng, extra_reviews=extra)  # fmt: skip
        return nav, segments, None
    return path_nav(spec, paths, etf.price0, etf.expense_ratio, rng), [], None


def _units(etf: Fund, n_days: int, rng: np.random.Generator) -> np.ndarray:
    """Units outstanding: creations and redemptions as a drifting random walk with bursts."""
    levered = etf.spec.kind == "lev"
    drift = rng.normal(0.0006 if etf.region == "US" else 0.0002, 0.0003)
    steps = rng.normal(drift, 0.015 if levered else 0.004, n_days)
    bursts = rng.random(n_days) < 0.02
    steps[bursts] += rng.normal(0.0, 0.03, int(bursts.sum()))
    steps[0] = 0.0
    units0 = etf.net_assets0 / etf.price0
    return np.maximum(np.round(units0 * np.exp(np.clip(np.cumsum(steps), -2.5, 2.0)), -3), 10_000)


def _etf_tick(price: np.ndarray) -> np.ndarray:
    return np.where(price < 2000, 1.0, 5.0)


def _market_price(
    nav: np.ndarray, spec: BasketSpec, region: str, rng: np.random.Generator
) -> np.ndarray:
    """Close = NAV x (1 + premium); the premium is a small AR(1), wider for foreign assets."""
    sd = 0.0003 if spec.kind in ("bond", "cd", "kofr") else 0.0025 if region != "KR" else 0.0008
    premium = np.zeros(len(nav))
    shocks = rng.normal(0.0, sd, len(nav))
    for t in range(1, len(nav)):
        premium[t] = 0.6 * premium[t - 1] + shocks[t]
    raw = nav * (1.0 + premium)
    tick = _etf_tick(raw)
    return np.round(raw / tick) * tick


_TURNOVER = {"lev": 0.10, "index": 0.025, "us": 0.012, "codes": 0.01, "bond": 0.004, "cd": 0.002,
             "kofr": 0.002, "gold": 0.02, "oil": 0.03, "usd": 0.02, "ust": 0.01}  # fmt: skip


def _price_frame(code: str, days: list[date], nav: np.ndarray, close: np.ndarray, units: np.ndarray,
                 spec: BasketSpec, rng: np.random.Generator) -> pd.DataFrame:  # fmt: skip
    r = np.abs(np.diff(np.log(nav), prepend=np.log(nav[0])))
    sigma = max(float(np.std(r)), 1e-5)
    turnover = _TURNOVER.get(spec.kind, 0.015)
    volume = (
        units
        * turnover
        * rng.lognormal(0.0, 0.4, len(nav))
        * (1 + 0.8 * np.minimum(r / sigma, 6) ** 1.3)
    )
    return pd.DataFrame(
        {
            "etf_code": code,
            "trade_date": np.array(days, dtype="datetime64[D]"),
            "close": np.round(close, 2),
            "nav": np.round(nav, 2),
            "volume": np.maximum(np.round(volume), 1).astype(np.int64),
            "market_cap": np.round(close * units).astype(np.int64),
            "net_assets": np.round(nav * units).astype(np.int64),
        }
    )


def _holding_frame(code: str, days: list[date], nav: np.ndarray, units: np.ndarray, segments: list[Segment],
                   prices: np.ndarray, first: int) -> pd.DataFrame:  # fmt: skip
    """Daily holdings of a basket fund: fixed shares per unit, weights drifting with prices."""
    parts = []
    for k, seg in enumerate(segments):
        end = segments[k + 1].start if k + 1 < len(segments) else len(days)
        lo = max(seg.start, first)
        if lo >= end:
            continue
        span = slice(lo, end)
        weight = seg.shares_per_unit * prices[span, seg.cols] / nav[span, None] * 100.0
        shares = seg.shares_per_unit[None, :] * units[span, None]
        parts.append(_rows(code, days[span], seg.ids, weight, shares))
    return pd.concat(parts, ignore_index=True)


def _levered_holdings(code: str, days: list[date], nav: np.ndarray, units: np.ndarray, idx_nav: np.ndarray,
                      idx_segments: list[Segment], prices: np.ndarray, first: int) -> pd.DataFrame:  # fmt: skip
    """A 2x fund holds its index's stocks at LEVERED_HOLDING_SCALE of NAV (the rest is futures)."""
    parts = []
    for k, seg in enumerate(idx_segments):
        end = idx_segments[k + 1].start if k + 1 < len(idx_segments) else len(days)
        lo = max(seg.start, first)
        if lo >= end:
            continue
        span = slice(lo, end)
        weight = (
            seg.shares_per_unit
            * prices[span, seg.cols]
            / idx_nav[span, None]
            * 100.0
            * LEVERED_HOLDING_SCALE
        )
        shares = weight / 100.0 * (nav[span] * units[span])[:, None] / prices[span, seg.cols]
        parts.append(_rows(code, days[span], seg.ids, weight, shares))
    return pd.concat(parts, ignore_index=True)


def _rows(
    code: str, days: list[date], ids: list[str], weight: np.ndarray, shares: np.ndarray
) -> pd.DataFrame:
    """(days x members) arrays -> rows ordered by (as_of_date, security_id)."""
    order = np.argsort(np.array(ids, dtype=object))
    n_days, n_ids = weight.shape
    return pd.DataFrame(
        {
            "etf_code": code,
            "as_of_date": np.repeat(np.array(days, dtype="datetime64[D]"), n_ids),
            "security_id": np.tile(np.array(ids, dtype=object)[order], n_days),
            "weight": np.round(weight[:, order], 4).ravel(),
            "shares": np.maximum(np.round(shares[:, order]), 1).astype(np.int64).ravel(),
        }
    )


def _changes(
    code: str, days: list[date], segments: list[Segment], first: int
) -> list[HoldingChange]:
    out = []
    for previous, current in zip(segments[:-1], segments[1:], strict=True):
        if current.start < first:
            continue
        added = sorted(set(current.ids) - set(previous.ids))
        removed = sorted(set(previous.ids) - set(current.ids))
        if added or removed:
            out.append(HoldingChange(code, days[current.start], added, removed))
    return out


__all__ = ["EtfData", "HoldingChange", "generate_etfs", "review_days"]
