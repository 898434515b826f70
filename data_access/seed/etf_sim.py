"""ETF NAVs, market prices, flows and daily holdings.

An equity ETF holds a fixed number of shares per unit between reviews, so its NAV return is the
holdings-weighted return of its stocks (plus a small cash drag, fees and tracking noise) and its
weights drift with relative prices. Leveraged and inverse ETFs compound a multiple of their
index's daily return; bond, gold, oil, dollar and money-market ETFs follow `paths.MarketPaths`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from data_access.seed.baskets import (
    BasketContext,
    BasketSpec,
    review_days,
    target_weights,
)
from data_access.seed.paths import MarketPaths

TRADING_DAYS = 252.0


@dataclass(frozen=True)
class Segment:
    """Holdings fixed from day `start` (after its close) until the next segment starts."""

    start: int
    ids: list[str]
    cols: np.ndarray
    shares_per_unit: np.ndarray


def simulate_basket(
    spec: BasketSpec,
    ctx: BasketContext,
    prices: np.ndarray,
    nav0: float,
    *,
    fee: float,
    cash: float,
    jitter: float,
    rng: np.random.Generator,
    extra_reviews: list[int] | None = None,
) -> tuple[np.ndarray, list[Segment]]:
    """NAV per unit and holdings segments of one equity basket fund."""
    days = ctx.days
    months = (6, 12) if spec.semiannual else (3, 6, 9, 12)
    reviews = sorted(
        set(review_days(days, months, "NYSE" if spec.is_us else "KRX")) | set(extra_reviews or [])
    )
    column = ctx.column
    nav = np.empty(len(days))
    nav[0] = nav0
    segments: list[Segment] = []
    for k, start in enumerate(reviews):
        end = reviews[k + 1] if k + 1 < len(reviews) else len(days) - 1
        adhoc = start in (extra_reviews or [])
        n = spec.n + int(rng.integers(-2, 3)) if (adhoc and spec.n) else spec.n
        ids = ctx.select(BasketSpec(spec.kind, spec.arg, n, spec.cap, spec.equal), start)
        cols = np.array([column[s] for s in ids])
        noise = 1.0 + rng.normal(0.0, 0.2 if adhoc else jitter, len(ids))
        weights = target_weights(ctx.cap_on(start, ids), spec, np.clip(noise, 0.5, 1.5))
        spu = weights * (1.0 - cash) * nav[start] / prices[start, cols]
        segments.append(Segment(start, ids, cols, spu))
        if end <= start:
            continue
        value = prices[start : end + 1, cols] @ spu
        drag = (
            -fee / 100.0 / TRADING_DAYS * value[:-1]
            + rng.normal(0.0, 0.00012, end - start) * value[:-1]
        )
        cash_path = cash * nav[start] + np.concatenate([[0.0], np.cumsum(drag)])
        nav[start + 1 : end + 1] = value[1:] + cash_path[1:]
    return nav, segments


def levered_nav(
    index_nav: np.ndarray, multiple: float, nav0: float, fee: float, rng: np.random.Generator
) -> np.ndarray:
    """Daily-rebalanced multiple of the index return, with fees and swap/futures noise."""
    r = np.diff(index_nav) / index_nav[:-1]
    daily = multiple * r - fee / 100.0 / TRADING_DAYS + rng.normal(0.0, 0.0002, len(r))
    return nav0 * np.concatenate([[1.0], np.cumprod(1.0 + daily)])


def path_nav(
    spec: BasketSpec, paths: MarketPaths, nav0: float, fee: float, rng: np.random.Generator
) -> np.ndarray:
    """NAV of a non-equity fund from the market path it tracks."""
    r = _path_returns(spec, paths)
    daily = (
        r - fee / 100.0 / TRADING_DAYS + rng.normal(0.0, _PATH_NOISE.get(spec.kind, 0.0002), len(r))
    )
    return nav0 * np.concatenate([[1.0], np.cumprod(1.0 + daily)])


_PATH_NOISE = {"gold": 0.0012, "oil": 0.002, "usd": 0.0004, "bond": 0.00008, "cd": 0.00001,
               "kofr": 0.00001, "ust": 0.0006}  # fmt: skip


def _log_diff(values: np.ndarray) -> np.ndarray:
    return np.diff(np.log(values))


def _path_returns(spec: BasketSpec, paths: MarketPaths) -> np.ndarray:
    fx = _log_diff(paths.usdkrw)
    carry_days = np.diff([d.toordinal() for d in paths.days]) / 365.0
    if spec.kind == "gold":
        return _log_diff(paths.gold_usd) + (fx if spec.arg == "spot" else 0.0)
    if spec.kind == "oil":
        return _log_diff(paths.wti_usd) - 0.00015  # futures roll cost
    if spec.kind == "usd":
        return fx - 0.00004
    if spec.kind in ("cd", "kofr"):
        rate = paths.cd91 if spec.kind == "cd" else paths.kofr
        return rate[:-1] / 100.0 * carry_days
    if spec.kind == "bond":
        duration = float(spec.arg)
        y = paths.kr_yield(duration) / 100.0
        return y[:-1] * carry_days - duration * np.diff(y)
    if spec.kind == "ust":
        hedged = spec.arg.endswith("h")
        duration = 8.5 if spec.arg.startswith("10") else 17.0
        y = (paths.ust10 if duration < 10 else paths.ust30) / 100.0
        return y[:-1] * carry_days - duration * np.diff(y) + (0.0 if hedged else fx)
    raise ValueError(f"unknown basket kind {spec.kind!r}")
