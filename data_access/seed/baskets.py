"""Which stocks an equity ETF holds and with what target weights, at each rebalancing.

A basket spec is a short string in etfs.csv, e.g. `index:kospi200`, `sector:반도체;cap=25;n=30`,
`k200:금융;cap=25`, `us:nasdaq;cap=14`, `codes:KO+PEP+VZ`. Index baskets (KOSPI 200, KOSDAQ 150)
are shared by every ETF that tracks them and change at the June/December reviews with a rank
buffer, as the real indices do; themed baskets are reviewed quarterly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

import numpy as np
import pandas as pd

from data_access.seed.calendar import Market, next_trading_day, nth_weekday

EQUITY_KINDS = {"index", "sector", "industry", "theme", "k200", "group", "dividend", "divgrowth",
                "us", "codes"}  # fmt: skip
_US_TECH_SECTORS = {"반도체", "소프트웨어", "인터넷", "IT하드웨어", "자동차"}


@dataclass(frozen=True)
class BasketSpec:
    kind: str
    arg: str
    n: int | None = None
    cap: float | None = None  # max weight, percent
    equal: bool = False
    active: bool = False  # ad-hoc changes between reviews

    @property
    def is_equity(self) -> bool:
        return self.kind in EQUITY_KINDS

    @property
    def is_us(self) -> bool:
        return self.kind in ("us", "codes")

    @property
    def semiannual(self) -> bool:
        return self.kind in ("index", "k200")


def parse_spec(text: str) -> BasketSpec:
    head, *options = text.split(";")
    kind, _, arg = head.partition(":")
    values = dict(o.split("=", 1) for o in options if "=" in o)
    return BasketSpec(
        kind=kind,
        arg=arg,
        n=int(values["n"]) if "n" in values else None,
        cap=float(values["cap"]) if "cap" in values else None,
        equal="eq" in options,
        active="active" in options,
    )


def review_days(days: list[date], months: tuple[int, ...], market: Market = "KRX") -> list[int]:
    """Indices of review effective days: the trading day after the 2nd Thursday of each month
    in `months` (after the 3rd Friday for US indices), plus day 0."""
    out = {0}
    position = {d: i for i, d in enumerate(days)}
    for year in sorted({d.year for d in days}):
        for month in months:
            anchor = (
                nth_weekday(year, month, 3, 2)
                if market == "KRX"
                else nth_weekday(year, month, 4, 3)
            )
            effective = next_trading_day(anchor, "KRX", inclusive=False)
            if effective in position:
                out.add(position[effective])
    return sorted(out)


class BasketContext:
    """Market caps and index memberships at any trading day of the window."""

    def __init__(
        self,
        stocks: pd.DataFrame,
        caps: np.ndarray,
        days: list[date],
        dividend_yield: Callable[[date], pd.Series],
    ) -> None:
        self.stocks = stocks.set_index("security_id", drop=False)
        self.caps = caps  # (days, stocks) in each stock's own currency, stocks in frame order
        self.days = days
        self.dividend_yield = dividend_yield
        self._members: dict[tuple[str, int], list[str]] = {}
        ordinary = ~self.stocks["preferred"]
        self._kr = self.stocks[(self.stocks["country"] == "KR") & ordinary]
        self._us = self.stocks[self.stocks["country"] == "US"]
        self._kospi = self._kr[self._kr["market"] == "KOSPI"]
        self._kosdaq = self._kr[self._kr["market"] == "KOSDAQ"]
        self.column = {sid: i for i, sid in enumerate(stocks["security_id"])}
        self._static: dict[tuple[str, str], list[str]] = {}

    def cap_on(self, t: int, ids: pd.Index | list[str]) -> pd.Series:
        """Market caps a week before day t (reviews use data from before the effective day)."""
        labels = list(ids)
        columns = np.fromiter((self.column[s] for s in labels), dtype=np.int64, count=len(labels))
        return pd.Series(self.caps[max(t - 5, 0), columns], index=labels, dtype=float)

    def index_members(self, name: str, t: int) -> list[str]:
        """KOSPI 200 / KOSDAQ 150 members effective on day t (semiannual reviews with buffer)."""
        reviews = review_days(self.days, (6, 12))
        current = max(r for r in reviews if r <= t)
        key = (name, current)
        if key not in self._members:
            earlier = [r for r in reviews if r < current]
            previous = set(self.index_members(name, earlier[-1])) if earlier else set()
            self._members[key] = self._review(name, current, previous)
        return self._members[key]

    def _review(self, name: str, t: int, previous: set[str]) -> list[str]:
        universe = self._kospi if name == "kospi200" else self._kosdaq
        size = min(200 if name == "kospi200" else 150, round(0.8 * len(universe)))
        ranked = self.cap_on(t, universe.index).sort_values(ascending=False, kind="stable")
        rank = {s: i for i, s in enumerate(ranked.index)}
        # Members stay while ranked within 110% of the size; newcomers need the top 90%.
        keep = [s for s in ranked.index if s in previous and rank[s] < 1.1 * size]
        enter = [s for s in ranked.index if s not in previous and rank[s] < 0.9 * size]
        chosen = (keep + enter)[:size] if previous else list(ranked.index[:size])
        fill = [s for s in ranked.index if s not in chosen]
        chosen += fill[: size - len(chosen)]
        return sorted(chosen, key=lambda s: rank[s])

    def select(self, spec: BasketSpec, t: int) -> list[str]:
        """Members of a basket on review day t, largest first."""
        candidates = self._candidates(spec, t)
        ranked = self.cap_on(t, candidates).sort_values(ascending=False, kind="stable")
        limit = spec.n or (
            10
            if spec.arg == "top10"
            else 30
            if spec.kind in ("sector", "industry", "theme")
            else None
        )
        return list(ranked.index[:limit] if limit else ranked.index)

    def _candidates(self, spec: BasketSpec, t: int) -> list[str]:
        if spec.kind == "index":
            return self._index_candidates(spec.arg, t)
        if spec.kind in ("dividend", "divgrowth"):
            return self._dividend_candidates(spec, t)
        if spec.kind == "k200":
            members = self.stocks.loc[self.index_members("kospi200", t)]
            return list(members.index[members["sector"].isin(set(spec.arg.split("+")))])
        key = (spec.kind, spec.arg)
        if key not in self._static:  # membership by attribute does not change over time
            self._static[key] = self._static_candidates(spec)
        return self._static[key]

    def _static_candidates(self, spec: BasketSpec) -> list[str]:
        kr, us = self._kr, self._us
        values = set(spec.arg.split("+"))
        if spec.kind == "sector":
            return list(kr.index[kr["sector"].isin(values)])
        if spec.kind == "industry":
            return list(kr.index[kr["industry"].isin(values)])
        if spec.kind == "theme":
            listed = kr["themes"].str.split("|").apply(lambda items: bool(values & set(items)))
            return list(kr.index[kr["sector"].isin(values) | listed])
        if spec.kind == "group":
            return list(kr.index[kr["group"] == spec.arg])
        if spec.kind == "codes":
            return [f"US:{c}" for c in spec.arg.split("+")]
        return self._us_candidates(spec.arg, us)

    def _index_candidates(self, arg: str, t: int) -> list[str]:
        if arg in ("kospi200", "kosdaq150"):
            return self.index_members(arg, t)
        if arg == "midsmall":
            members = self.index_members("kospi200", t)
            return members[min(50, len(members) // 4) :]
        if arg == "kospi":
            return list(self._kospi.index)
        if arg == "top10":
            return list(self._kospi.index)
        top = self.cap_on(t, self._kr.index).nlargest(min(80, int(0.4 * len(self._kr))))
        return list(top.index)  # kr_large: MSCI-Korea-like large and mid caps

    def _dividend_candidates(self, spec: BasketSpec, t: int) -> list[str]:
        large = self.cap_on(t, self._kr.index).nlargest(min(200, len(self._kr))).index
        yields = self.dividend_yield(self.days[t]).reindex(large).fillna(0.0)
        if spec.kind == "dividend":
            return list(yields.nlargest(spec.n or 30).index)
        return list(yields[yields >= 1.5].index)

    def _us_candidates(self, arg: str, us: pd.DataFrame) -> list[str]:
        if arg == "nasdaq":
            return list(us.index[us["market"] == "NASDAQ"])
        if arg == "tech":
            return list(us.index[us["sector"].isin(_US_TECH_SECTORS)])
        if arg.startswith("sector:"):
            return list(us.index[us["sector"] == arg.split(":", 1)[1]])
        return list(us.index)


def target_weights(caps: pd.Series, spec: BasketSpec, jitter: np.ndarray) -> np.ndarray:
    """Weights (fractions summing to 1): cap-weighted with an iterative cap, or equal."""
    raw = np.ones(len(caps)) if spec.equal else caps.to_numpy(dtype=float)
    raw = raw * jitter
    weights = raw / raw.sum()
    limit = (spec.cap or 100.0) / 100.0
    if limit * len(weights) < 1.0:
        limit = 1.0 / len(weights)
    for _ in range(50):  # redistribute the excess over the uncapped names until none exceeds
        over = weights > limit + 1e-12
        if not over.any():
            break
        excess = (weights[over] - limit).sum()
        weights[over] = limit
        under = ~over & (weights < limit)
        weights[under] += excess * weights[under] / weights[under].sum()
    return weights
