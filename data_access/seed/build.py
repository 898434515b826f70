"""Generate the whole dataset in memory: one DataFrame per table, columns in table order.

Generation is pure (no database): same (seed, scale, as-of date) -> identical frames.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import TypeVar

import pandas as pd

from data_access.seed import events as stock_events
from data_access.seed import fundamentals, market_series, universe
from data_access.seed.aliases import alias_rows
from data_access.seed.calendar import trading_days
from data_access.seed.documents import generate_documents
from data_access.seed.etf_universe import (
    build_etfs,
    etf_tags_table,
    etfs_table,
    managers_table,
    tags_table,
)  # fmt: skip
from data_access.seed.etfs import EtfData, generate_etfs
from data_access.seed.macro import MacroData, generate_macro
from data_access.seed.news import generate_news
from data_access.seed.news_view import MarketView
from data_access.seed.params import SCALE_CONFIGS, Scale, ScaleConfig, Window, rng_for
from data_access.seed.paths import generate_paths
from data_access.seed.prices import PricePanel, generate_panel, panel_rows
from data_access.seed.realestate import RealEstateData, generate_realestate
from data_access.seed.reasons import SECTOR_REASONS

logger = logging.getLogger(__name__)
T = TypeVar("T")


@dataclass
class Dataset:
    """Generated rows per table plus the intermediate results later generators reuse."""

    scale: Scale
    seed: int
    window: Window
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    timings_ms: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class MarketData:
    stocks: pd.DataFrame
    panels: dict[str, PricePanel]
    jumps: list[stock_events.Jump]
    schedule: list[stock_events.EarningsSchedule]
    etfs: pd.DataFrame
    etf_data: EtfData
    macro: MacroData


# Real-estate transaction volume per scale (market scale: a denser transaction feed).
_RE_VOLUME = {"demo": 1.0, "market": 3.0}


def build_dataset(scale: Scale, seed: int, as_of: date) -> Dataset:
    """Every table of the demo dataset for (scale, seed, as-of date)."""
    window = Window.for_as_of(as_of)
    data = Dataset(scale, seed, window)
    market = _timed(data, "market", lambda: _market(data))
    data.tables.update(_market_tables(data, market))
    realestate = _timed(
        data,
        "realestate",
        lambda: generate_realestate(window, _RE_VOLUME[scale], rng_for(seed, "realestate")),
    )
    data.tables.update(_realestate_tables(realestate))
    view = MarketView.build(
        market.stocks, market.panels, market.jumps, market.etfs, market.etf_data, market.macro.daily
    )
    data.tables["news_articles"] = _timed(
        data,
        "news",
        lambda: generate_news(
            view,
            window,
            data.tables["earnings_events"],
            market.macro,
            realestate,
            rng_for(seed, "news"),
        ),
    )
    data.tables.update(
        _timed(
            data,
            "documents",
            lambda: generate_documents(
                market.macro.observations,
                market.macro.daily,
                data.tables["earnings_events"],
                market.stocks,
                window.as_of,
                window.macro_start,
            ),
        )
    )
    data.tables["entity_aliases"] = pd.concat(
        [alias_rows(market.stocks, market.etfs), market_series.alias_table()], ignore_index=True
    )
    return data


def build_market_series(scale: Scale, seed: int, as_of: date) -> dict[str, pd.DataFrame]:
    """Only the market context series (and their aliases) of a dataset: what `seed --if-missing`
    adds to a database seeded before they existed. Same numbers as `build_dataset`."""
    window = Window.for_as_of(as_of)
    stocks, _, _, _, panels = _panels(SCALE_CONFIGS[scale], seed, window)
    macro = generate_macro(window, rng_for(seed, "macro"))
    return _series_tables(stocks, panels, macro, seed)


def _series_tables(stocks: pd.DataFrame, panels: dict[str, PricePanel], macro: MacroData,
                   seed: int) -> dict[str, pd.DataFrame]:  # fmt: skip
    prices = market_series.generate_market_series(
        stocks, panels, macro.daily["VIXCLS"], rng_for(seed, "market-series")
    )
    return {
        "market_series": market_series.series_table(),
        "market_series_prices": prices,
        "entity_aliases": market_series.alias_table(),
    }


def _realestate_tables(re: RealEstateData) -> dict[str, pd.DataFrame]:
    return {
        "re_house_price_index": re.house_price_index,
        "re_transactions": re.transactions,
        "re_unsold_housing": re.unsold,
        "re_permits": re.permits,
        "re_jeonse_ratio": re.jeonse,
    }


def _timed(data: Dataset, name: str, fn: Callable[[], T]) -> T:
    """Run one generator step and record how long it took."""
    start = time.perf_counter()
    result = fn()
    data.timings_ms[name] = round((time.perf_counter() - start) * 1000)
    logger.info("generated %s in %d ms", name, data.timings_ms[name])
    return result


def _panels(
    config: ScaleConfig, seed: int, window: Window
) -> tuple[
    pd.DataFrame, dict[str, list[date]], list[stock_events.EarningsSchedule],
    list[stock_events.Jump], dict[str, PricePanel],
]:  # fmt: skip
    """The stock universe and its daily price panels (with the events that move them)."""
    stocks = universe.build_stocks(config, rng_for(seed, "universe"))
    days = {
        "KR": trading_days(window.price_start, window.as_of, "KRX"),
        "US": trading_days(window.price_start, window.as_of, "NYSE"),
    }
    schedule = stock_events.earnings_schedule(
        stocks, window.price_start, window.as_of, rng_for(seed, "earnings")
    )
    jumps = stock_events.earnings_jumps(schedule, window.as_of, rng_for(seed, "earnings-jumps"))
    jumps += stock_events.news_jumps(stocks, days, SECTOR_REASONS, rng_for(seed, "news-jumps"))
    panels = {
        country: generate_panel(
            stocks[stocks["country"] == country].reset_index(drop=True), days[country], jumps,
            rng_for(seed, f"prices:{country}"),
        )
        for country in ("KR", "US")
    }  # fmt: skip
    return stocks, days, schedule, jumps, panels


def _market(data: Dataset) -> MarketData:
    config, seed, window = SCALE_CONFIGS[data.scale], data.seed, data.window
    stocks, days, schedule, jumps, panels = _panels(config, seed, window)
    macro = generate_macro(window, rng_for(seed, "macro"))
    quarterly = fundamentals.quarterly_earnings(stocks, panels, schedule, window.price_start, window.as_of,
                                                rng_for(seed, "fundamentals"))  # fmt: skip
    fundamental_rows = fundamentals.fundamentals_rows(
        stocks, panels, quarterly, window.as_of, rng_for(seed, "valuation")
    )
    earnings_rows = fundamentals.earnings_rows(stocks, quarterly, schedule, window.as_of)
    etfs = build_etfs(config, rng_for(seed, "etf-universe"))
    paths = generate_paths(days["KR"], macro.daily, rng_for(seed, "paths"))
    etf_data = generate_etfs(etfs, stocks, panels, paths, fundamental_rows, config, seed)
    data.tables["stock_fundamentals"] = fundamental_rows
    data.tables["earnings_events"] = earnings_rows
    return MarketData(stocks, panels, jumps, schedule, etfs, etf_data, macro)


def _market_tables(data: Dataset, market: MarketData) -> dict[str, pd.DataFrame]:
    stock_prices = pd.concat(
        [panel_rows(market.panels["KR"]), panel_rows(market.panels["US"])], ignore_index=True
    )
    return {
        "managers": managers_table(market.etfs),
        "tags": tags_table(market.etfs),
        "etfs": etfs_table(market.etfs, data.window.as_of),
        "etf_tags": etf_tags_table(market.etfs),
        "stocks": universe.stocks_table(market.stocks),
        "stock_prices": stock_prices,
        "etf_prices": market.etf_data.prices,
        "etf_holdings": market.etf_data.holdings,
        "macro_series": market.macro.series,
        "macro_observations": market.macro.observations,
        **{k: v for k, v in _series_tables(market.stocks, market.panels, market.macro,
                                           data.seed).items() if k != "entity_aliases"},
    }  # fmt: skip
