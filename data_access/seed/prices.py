"""Daily OHLCV for every stock: a factor model (market + sector + idiosyncratic + event jumps).

KR prices follow KRX tick sizes and the +/-30% daily limit; US prices are in dollars and cents.
Everything is vectorised over (days x stocks) arrays; a `PricePanel` keeps one market's arrays.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

import numpy as np
import pandas as pd

from data_access.seed import factors
from data_access.seed.events import Jump
from data_access.seed.sectors import profile
from data_access.seed.universe import PRICE_WAYPOINTS

KR_LIMIT = np.log(1.30)  # KRX daily price limit, in log terms (applied to both sides)


@dataclass
class PricePanel:
    """One market's prices: arrays shaped (days, stocks) in the order of `security_ids`."""

    country: str
    days: list[date]
    security_ids: list[str]
    open: np.ndarray
    high: np.ndarray
    low: np.ndarray
    close: np.ndarray
    volume: np.ndarray
    prev_close0: np.ndarray  # close before the first day, for the first change rate
    sigma: np.ndarray  # each stock's typical daily volatility (used to size volume and news)

    def column(self, security_id: str) -> int:
        return self._index()[security_id]

    def day_index(self, day: date) -> int:
        return self._day_index()[day]

    def _index(self) -> dict[str, int]:
        if not hasattr(self, "_ids"):
            self._ids = {s: i for i, s in enumerate(self.security_ids)}
        return self._ids

    def _day_index(self) -> dict[date, int]:
        if not hasattr(self, "_days"):
            self._days = {d: i for i, d in enumerate(self.days)}
        return self._days

    @property
    def change_rate(self) -> np.ndarray:
        """Percent change of close vs the previous close, per (day, stock)."""
        prev = np.vstack([self.prev_close0[None, :], self.close[:-1]])
        return (self.close / prev - 1.0) * 100.0


def kr_tick(price: np.ndarray) -> np.ndarray:
    """KRX stock tick sizes (KOSPI and KOSDAQ share one table since 2023)."""
    bounds = [price < 2_000, price < 5_000, price < 20_000, price < 50_000, price < 200_000,
              price < 500_000]  # fmt: skip
    return np.select(bounds, [1, 5, 10, 50, 100, 500], 1_000).astype(float)


def round_price(price: np.ndarray, country: str, mode: str = "round") -> np.ndarray:
    """Round to the market's price grid; mode 'up'/'down' keeps highs and lows outside the body."""
    step = kr_tick(price) if country == "KR" else np.full_like(price, 0.01)
    # A tiny nudge keeps exact grid values where they are under ceil/floor float error.
    nudge = {"round": 0.0, "up": -1e-9, "down": 1e-9}[mode]
    ops: dict[str, Callable[[np.ndarray], np.ndarray]] = {
        "round": np.round,
        "up": np.ceil,
        "down": np.floor,
    }
    op = ops[mode]
    return np.maximum(op(price / step + nudge) * step, step)


def generate_panel(
    stocks: pd.DataFrame,
    days: list[date],
    jumps: list[Jump],
    rng: np.random.Generator,
) -> PricePanel:
    """OHLCV for `stocks` (one country) on its trading `days`."""
    country = str(stocks["country"].iloc[0])
    kr = country == "KR"
    waypoints, shocks = (
        (factors.KR_MARKET, factors.KR_SHOCKS) if kr else (factors.US_MARKET, factors.US_SHOCKS)
    )
    n_days, n_stocks = len(days), len(stocks)
    market = factors.market_returns(days, waypoints, shocks, rng)
    sector_names = sorted(stocks["sector"].unique())
    sector_ret = factors.sector_returns(days, sector_names, rng)
    sector_ret -= 0.5 * sector_ret.var(axis=0)
    sector_col = stocks["sector"].map({s: i for i, s in enumerate(sector_names)}).to_numpy()

    beta = np.array([profile(s).beta for s in stocks["sector"]]) * rng.uniform(0.85, 1.15, n_stocks)
    idio_vol = _idio_vol(stocks)
    # Zero-mean log returns would make an average of many stocks drift up (convexity), so
    # idiosyncratic and sector parts carry the usual -sigma^2/2 log drift.
    idio = rng.standard_t(5, (n_days, n_stocks)) / np.sqrt(5.0 / 3.0) * idio_vol - 0.5 * idio_vol**2
    returns = market[:, None] * beta + sector_ret[:, sector_col] + idio
    returns += _jump_matrix(jumps, days, list(stocks["security_id"]))
    returns = _anchor(returns, stocks, days)
    if kr:
        returns = np.clip(returns, -KR_LIMIT + 1e-4, KR_LIMIT - 1e-4)

    price0 = stocks["price0"].to_numpy(dtype=float)
    raw_close = price0 * np.exp(np.cumsum(returns, axis=0))
    sigma = np.sqrt((beta * 0.011) ** 2 + idio_vol**2 + 0.009**2)
    close = round_price(raw_close, country)
    prev_close0 = round_price(price0, country)
    if kr:
        close = _within_limits(close, prev_close0)
    prev = np.vstack([prev_close0[None, :], close[:-1]])
    open_, high, low = _intraday(prev, close, sigma, rng, country)
    volume = _volume(stocks, returns, sigma, rng, country)
    return PricePanel(country, days, list(stocks["security_id"]), open_, high, low, close, volume,
                      prev_close0, sigma)  # fmt: skip


def _within_limits(close: np.ndarray, prev_close0: np.ndarray) -> np.ndarray:
    """KRX limits are +/-30% of the previous close, rounded inside to the tick grid."""
    out = close.copy()
    prev = prev_close0
    for t in range(len(out)):
        upper, lower = round_price(prev * 1.3, "KR", "down"), round_price(prev * 0.7, "KR", "up")
        out[t] = np.clip(out[t], lower, upper)
        prev = out[t]
    return out


def _idio_vol(stocks: pd.DataFrame) -> np.ndarray:
    base = np.array([profile(s).idio_vol for s in stocks["sector"]])
    cap = stocks["market_cap0"].to_numpy(dtype=float)
    size = np.clip((cap / np.median(cap)) ** -0.12, 0.5, 1.8)
    return base * size


def _jump_matrix(jumps: list[Jump], days: list[date], ids: list[str]) -> np.ndarray:
    out = np.zeros((len(days), len(ids)))
    day_index = {d: i for i, d in enumerate(days)}
    id_index = {s: i for i, s in enumerate(ids)}
    for jump in jumps:
        i, j = day_index.get(jump.day), id_index.get(jump.security_id)
        if i is not None and j is not None:
            out[i, j] += jump.log_return
    return out


def _anchor(returns: np.ndarray, stocks: pd.DataFrame, days: list[date]) -> np.ndarray:
    """Add piecewise-constant drift so anchored names pass their price waypoints, and keep the
    total move of the others within a plausible range."""
    out = returns.copy()
    total = out.sum(axis=0)
    # Large caps rarely lose or gain as much as small caps over two years.
    large = stocks["size_rank"].to_numpy() <= 60
    us = (stocks["country"] == "US").to_numpy()
    low = np.where(us, -0.6, np.where(large, -0.8, -1.2))
    high = np.where(us, 0.9, np.where(large, 1.0, 1.4))
    out += (np.clip(total, low, high) - total) / len(out)
    ordinals = np.array([d.toordinal() for d in days])
    price0 = stocks["price0"].to_numpy(dtype=float)
    for j, security_id in enumerate(stocks["security_id"]):
        waypoints = PRICE_WAYPOINTS.get(security_id)
        if not waypoints:
            continue
        start, level = 0, np.log(price0[j])
        for day, price in waypoints:
            end = min(int(np.searchsorted(ordinals, day.toordinal())), len(days) - 1) + 1
            if end <= start:
                continue
            segment = out[start:end, j]
            segment += (np.log(price) - level - segment.sum()) / (end - start)
            start, level = end, np.log(price)
    return out


def _intraday(
    prev: np.ndarray, close: np.ndarray, sigma: np.ndarray, rng: np.random.Generator, country: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Open, high and low consistent with the close: the open gaps part of the day's move."""
    shape = close.shape
    day_move = np.log(close / prev)
    gap = day_move * rng.uniform(0.0, 0.6, shape) + rng.normal(0.0, 0.25, shape) * sigma
    open_ = round_price(prev * np.exp(gap), country)
    body_hi, body_lo = np.maximum(open_, close), np.minimum(open_, close)
    high = body_hi * np.exp(np.abs(rng.normal(0.0, 0.45, shape)) * sigma)
    low = body_lo * np.exp(-np.abs(rng.normal(0.0, 0.45, shape)) * sigma)
    high = np.maximum(round_price(high, country, "up"), body_hi)
    low = np.minimum(round_price(low, country, "down"), body_lo)
    if country == "KR":  # intraday prices respect the daily limits too
        high = np.maximum(np.minimum(high, round_price(prev * 1.3, country, "down")), body_hi)
        low = np.minimum(np.maximum(low, round_price(prev * 0.7, country, "up")), body_lo)
    return open_, high, low


def _volume(
    stocks: pd.DataFrame,
    returns: np.ndarray,
    sigma: np.ndarray,
    rng: np.random.Generator,
    country: str,
) -> np.ndarray:
    """Shares traded: a size-dependent turnover, noise, and spikes on big moves."""
    cap = stocks["market_cap0"].to_numpy(dtype=float)
    shares = stocks["shares_outstanding"].to_numpy(dtype=float)
    base = 0.0018 if country == "KR" else 0.005
    turnover = np.clip(base * (np.median(cap) / cap) ** 0.25, base * 0.4, base * 8)
    surprise = np.minimum(np.abs(returns) / sigma, 8.0)
    spike = 1.0 + 0.9 * surprise**1.4
    noise = rng.lognormal(0.0, 0.35, returns.shape)
    return np.maximum(np.round(shares * turnover * noise * spike), 100).astype(np.int64)


def panel_rows(panel: PricePanel) -> pd.DataFrame:
    """The panel as `stock_prices` rows, in primary-key order (security_id, trade_date)."""
    n_days, n_stocks = panel.close.shape
    ids = np.repeat(np.array(panel.security_ids, dtype=object), n_days)
    days = np.tile(np.array(panel.days, dtype="datetime64[D]"), n_stocks)
    decimals = 0 if panel.country == "KR" else 2
    return pd.DataFrame(
        {
            "security_id": ids,
            "trade_date": days,
            "open": np.round(panel.open.T.ravel(), decimals),
            "high": np.round(panel.high.T.ravel(), decimals),
            "low": np.round(panel.low.T.ravel(), decimals),
            "close": np.round(panel.close.T.ravel(), decimals),
            "volume": panel.volume.T.ravel(),
            "change_rate": np.round(panel.change_rate.T.ravel(), 4),
        }
    )
