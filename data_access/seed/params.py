"""Fixed parameters of the demo dataset: scales, date windows and the random streams.

Every generator draws from its own stream (`rng_for(seed, "prices")`), so adding a draw in one
domain never shifts the numbers of another, and the whole dataset depends only on the seed,
the scale and the as-of date.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Literal

import numpy as np

Scale = Literal["demo", "market"]
SCALES: tuple[Scale, ...] = ("demo", "market")

SOURCE = "demo"  # every generated row is labelled as demo data where a table has a source


@dataclass(frozen=True)
class ScaleConfig:
    """How big one scale is. Only the demo-scale lists are real; the rest is synthetic."""

    name: Scale
    kr_stock_target: int  # real KR stocks plus synthetic ones up to this count
    etf_target: int  # real ETFs plus synthetic ones up to this count
    holdings_days: int  # trading days of daily holdings snapshots
    projection_holdings_days: int | None  # passed to the graph projection (None: its default)


SCALE_CONFIGS: dict[Scale, ScaleConfig] = {
    # 130 trading days reach back past the June KOSPI 200 / KOSDAQ 150 rebalancing.
    "demo": ScaleConfig("demo", kr_stock_target=0, etf_target=0, holdings_days=130,
                        projection_holdings_days=None),
    "market": ScaleConfig("market", kr_stock_target=2500, etf_target=900, holdings_days=60,
                          projection_holdings_days=25),
}  # fmt: skip


@dataclass(frozen=True)
class Window:
    """The date windows every generator shares, derived from the as-of date."""

    as_of: date
    price_start: date  # first generated trading day (stock and ETF prices)
    macro_start: date  # first macro observation
    re_first_month: date  # first real-estate month (36 months to the as-of month)
    news_dense_days: int = 40  # last N US trading days with >= 25 articles per ET window

    @classmethod
    def for_as_of(cls, as_of: date) -> Window:
        # ~23 months of prices (>= 470 trading days), macro from Jan two years before.
        price_start = date(as_of.year - 2, 12, 2)
        macro_start = date(as_of.year - 2, 1, 2)
        month = date(as_of.year, as_of.month, 1)
        first = _add_months(month, -35)
        return cls(
            as_of=as_of, price_start=price_start, macro_start=macro_start, re_first_month=first
        )


def _add_months(month: date, n: int) -> date:
    index = month.year * 12 + month.month - 1 + n
    return date(index // 12, index % 12 + 1, 1)


def add_months(month: date, n: int) -> date:
    """First day of the month `n` months after `month`'s month."""
    return _add_months(date(month.year, month.month, 1), n)


def month_end(month: date) -> date:
    return add_months(month, 1) - timedelta(days=1)


def rng_for(seed: int, stream: str) -> np.random.Generator:
    """An independent generator per (seed, stream name); crc32 keeps it stable across runs."""
    return np.random.default_rng([seed & 0xFFFFFFFF, seed >> 32, zlib.crc32(stream.encode())])
