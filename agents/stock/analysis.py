"""The figures a stock report rests on, computed from PostgreSQL price and valuation data.

Pure functions over a list of daily closes (returns, volatility, drawdown, moving averages,
RSI, 52-week range position, median) plus `compute_figures`, which loads the data for one stock
(recording a structured citation per query) and returns the figures and the chart series.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any, TypedDict

from agents.stock.data import StockData
from data_access import figures as fig
from data_access.figures import annualized_volatility, drawdown_series, max_drawdown

# Calendar periods of data_access.figures (as-of bar minus the period, the last bar on or before)
RETURN_HORIZONS = ("1w", "1m", "3m", "6m", "1y", "ytd")
HISTORY_DAYS = 290  # sessions loaded: a calendar year back plus holidays and the base bar
MA_WINDOWS = (20, 60, 120)
RSI_PERIOD = 14
MIN_PEERS_SAME_COUNTRY = 3


class PeerPe(TypedDict):
    security_id: str
    name: str
    pe: float
    is_self: bool


class StockFigures(TypedDict):
    security_id: str
    trade_date: str
    currency: str
    price: float
    sessions: int
    returns: dict[str, float | None]
    return_windows: dict[str, dict[str, Any] | None]
    volatility_20d: float | None
    volatility_60d: float | None
    max_drawdown_1y: float | None
    drawdown_current: float | None
    ma: dict[str, float | None]
    price_vs_ma: dict[str, float | None]
    rsi14: float | None
    high_52w: float
    low_52w: float
    range_position: float | None
    pe: float | None
    sector: str
    sector_median_pe: float | None
    pe_premium: float | None
    peer_scope: str
    peer_count: int


class ChartSeries(TypedDict):
    dates: list[str]
    open: list[float]
    high: list[float]
    low: list[float]
    close: list[float]
    volume: list[int]
    ma: dict[str, list[float | None]]
    drawdown: list[float]
    rsi: list[float | None]
    peers: list[PeerPe]


# ---------------------------------------------------------------- pure figures


def calendar_returns(rows: Sequence[dict[str, Any]]) -> dict[str, fig.PeriodReturn | None]:
    """The figures module's calendar-period returns of oldest-first price rows."""
    return fig.period_returns(fig.bars_of(rows, "date"), RETURN_HORIZONS)


def moving_average(closes: Sequence[float], window: int) -> list[float | None]:
    """Trailing simple moving average; None until `window` closes exist."""
    out: list[float | None] = []
    running = 0.0
    for i, close in enumerate(closes):
        running += close
        if i >= window:
            running -= closes[i - window]
        out.append(running / window if i >= window - 1 else None)
    return out


def rsi_series(closes: Sequence[float], period: int = RSI_PERIOD) -> list[float | None]:
    """Wilder's RSI: average gain / loss seeded with a simple mean, then smoothed by 1/period."""
    out: list[float | None] = [None] * len(closes)
    if len(closes) <= period:
        return out
    changes = [b - a for a, b in zip(closes, closes[1:], strict=False)]
    gain = sum(max(c, 0.0) for c in changes[:period]) / period
    loss = sum(max(-c, 0.0) for c in changes[:period]) / period
    out[period] = _rsi(gain, loss)
    for i in range(period, len(changes)):
        gain = (gain * (period - 1) + max(changes[i], 0.0)) / period
        loss = (loss * (period - 1) + max(-changes[i], 0.0)) / period
        out[i + 1] = _rsi(gain, loss)
    return out


def _rsi(gain: float, loss: float) -> float:
    if loss == 0:
        return 100.0 if gain > 0 else 50.0
    return 100 - 100 / (1 + gain / loss)


def range_position(price: float, low: float, high: float) -> float | None:
    """Where the price sits in [low, high]: 0 at the low, 1 at the high."""
    if high <= low:
        return None
    return (price - low) / (high - low)


def relative(value: float | None, reference: float | None) -> float | None:
    if value is None or reference is None or reference == 0:
        return None
    return value / reference - 1


# ---------------------------------------------------------------- from the database


def compute_figures(
    data: StockData,
    quote: dict[str, Any],
    history_days: int = HISTORY_DAYS,
    sector_rows: list[dict[str, Any]] | None = None,
) -> tuple[StockFigures, ChartSeries]:
    """Figures and chart series for the stock of a successful StockDataTool result.

    `sector_rows` are `StockData.sector_valuation` rows when the caller already loaded them.
    """
    security_id = quote["security_id"]
    rows = data.history(security_id, history_days)
    closes = [r["close"] for r in rows]
    mas = {f"ma{w}": moving_average(closes, w) for w in MA_WINDOWS}
    rsi = rsi_series(closes)
    if sector_rows is None:
        sector_rows = data.sector_valuation(quote["sector"])
    peers, scope, median_pe = _peers(sector_rows, security_id, quote["sector"])
    price = float(quote["current_price"])
    returns = calendar_returns(rows)
    year = fig.window_rows(rows, "date", "1y") if rows else []
    ma_last = {k: v[-1] if v else None for k, v in mas.items()}
    figures = StockFigures(
        security_id=security_id,
        trade_date=rows[-1]["date"] if rows else str(quote.get("trade_date")),
        currency=quote["currency"],
        price=price,
        sessions=len(rows),
        returns={k: r.pct / 100 if r else None for k, r in returns.items()},
        return_windows={k: r.as_dict() if r else None for k, r in returns.items()},
        volatility_20d=annualized_volatility(closes, 20),
        volatility_60d=annualized_volatility(closes, 60),
        max_drawdown_1y=max_drawdown([float(r["close"]) for r in year]),
        drawdown_current=drawdown_series([float(r["close"]) for r in year])[-1] if year else None,
        ma=ma_last,
        price_vs_ma={k: relative(price, v) for k, v in ma_last.items()},
        rsi14=rsi[-1] if rsi else None,
        high_52w=float(quote["52w_high"]),
        low_52w=float(quote["52w_low"]),
        range_position=range_position(price, float(quote["52w_low"]), float(quote["52w_high"])),
        pe=quote.get("pe_ratio"),
        sector=quote["sector"],
        sector_median_pe=median_pe,
        pe_premium=relative(quote.get("pe_ratio"), median_pe),
        peer_scope=scope,
        peer_count=len(peers),
    )
    series = ChartSeries(
        dates=[r["date"] for r in rows], open=[r["open"] for r in rows],
        high=[r["high"] for r in rows], low=[r["low"] for r in rows], close=closes,
        volume=[r["volume"] for r in rows], ma=mas, drawdown=drawdown_series(closes),
        rsi=rsi, peers=peers,
    )  # fmt: skip
    return figures, series


def peer_scope(rows: list[dict[str, Any]], security_id: str,
               sector: str) -> tuple[list[dict[str, Any]], str]:  # fmt: skip
    """The sector rows to compare with: same country when there are enough, else all."""
    country = security_id.split(":", 1)[0]
    same = [r for r in rows if r["country"] == country]
    if len(same) >= MIN_PEERS_SAME_COUNTRY:
        return same, f"{country} {sector}"
    return rows, f"{sector} (전체 시장)"


def _peers(sector_rows: list[dict[str, Any]], security_id: str,
           sector: str) -> tuple[list[PeerPe], str, float | None]:  # fmt: skip
    """Positive P/Es of the sector, same country when there are enough, and their median."""
    rows = [r for r in sector_rows if r["pe"] is not None and r["pe"] > 0]
    chosen, scope = peer_scope(rows, security_id, sector)
    peers = [PeerPe(security_id=r["security_id"], name=r["name"], pe=float(r["pe"]),
                    is_self=r["security_id"] == security_id) for r in chosen]  # fmt: skip
    median = statistics.median(p["pe"] for p in peers) if peers else None
    return sorted(peers, key=lambda p: p["pe"]), scope, median
