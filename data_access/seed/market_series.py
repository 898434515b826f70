"""Demo market context series, consistent with the generated stocks (issue 25).

- KOSPI / KOSDAQ: cap-weighted (close x shares outstanding) over the demo stocks of that market;
  S&P 500 and Nasdaq Composite the same over the demo US stocks (all of them, NASDAQ-listed ones);
  the Dow price-weighted over the demo US stocks, as the Dow is. A divisor puts each index at a
  plausible level on the as-of date, so its daily moves are exactly its constituents' moves.
- VIX: the generated VIXCLS close of each NYSE day, with an intraday range around it.
- BTC (every calendar day) and WTI (NYSE days): random walks from their own stream, BTC with a
  beta to the demo Nasdaq, ending at plausible levels.

Pure: same (seed, scale, as-of date) -> identical frames.
"""

from __future__ import annotations

from datetime import date, timedelta

import numpy as np
import pandas as pd

from data_access.market_series import SERIES, alias_rows
from data_access.seed.prices import PricePanel

# Levels on the as-of date (the divisor or the walk's anchor).
END_LEVELS: dict[str, float] = {
    "^KS11": 4_020.0, "^KQ11": 905.0, "^GSPC": 6_720.0, "^IXIC": 22_850.0, "^DJI": 46_400.0,
    "BTC-USD": 91_500.0, "CL=F": 59.4,
}  # fmt: skip
PRICE_COLUMNS = [
    "series_code",
    "trade_date",
    "open",
    "high",
    "low",
    "close",
    "volume",
    "change_rate",
]
SERIES_COLUMNS = ["series_code", "name", "name_en", "kind", "country", "currency", "unit", "source"]


def series_table() -> pd.DataFrame:
    """The `market_series` rows."""
    rows = [(s.code, s.name, s.name_en, s.kind, s.country, s.currency, s.unit, "demo")
            for s in SERIES]  # fmt: skip
    return pd.DataFrame(rows, columns=SERIES_COLUMNS)


def alias_table() -> pd.DataFrame:
    """The series' `entity_aliases` rows (kind 'market')."""
    return pd.DataFrame(alias_rows(), columns=["kind", "alias", "target"])


def generate_market_series(
    stocks: pd.DataFrame,
    panels: dict[str, PricePanel],
    vix: pd.Series,
    rng: np.random.Generator,
) -> pd.DataFrame:
    """Every series' daily bars as `market_series_prices` rows, sorted by (code, date)."""
    kr, us = panels["KR"], panels["US"]
    frames = [
        _cap_index("^KS11", kr, stocks, "KOSPI"),
        _cap_index("^KQ11", kr, stocks, "KOSDAQ"),
        _cap_index("^GSPC", us, stocks, None),
        _cap_index("^IXIC", us, stocks, "NASDAQ"),
        _price_index("^DJI", us),
        _vix_bars(vix, us.days, rng),
    ]
    nasdaq = frames[3].set_index("trade_date")["close"]
    frames.append(_btc(nasdaq, min(kr.days[0], us.days[0]), us.days[-1], rng))
    frames.append(_wti(us.days, rng))
    out = pd.concat(frames, ignore_index=True)
    return out.sort_values(["series_code", "trade_date"], kind="stable").reset_index(drop=True)


def _frame(code: str, days: list[date], o: np.ndarray, h: np.ndarray, low: np.ndarray,
           c: np.ndarray, volume: np.ndarray | None, prev0: float) -> pd.DataFrame:  # fmt: skip
    prev = np.concatenate([[prev0], c[:-1]])
    high = np.maximum.reduce([h, o, c])
    low = np.minimum.reduce([low, o, c])
    return pd.DataFrame({
        "series_code": code, "trade_date": days, "open": np.round(o, 2),
        "high": np.round(high, 2), "low": np.round(low, 2), "close": np.round(c, 2),
        "volume": pd.array(volume, dtype="Int64") if volume is not None else pd.NA,
        "change_rate": np.round((c / prev - 1.0) * 100.0, 4),
    })[PRICE_COLUMNS]  # fmt: skip


def _cap_index(
    code: str, panel: PricePanel, stocks: pd.DataFrame, market: str | None
) -> pd.DataFrame:
    """Sum of (price x shares) over the market's stocks, divided to END_LEVELS on the last day."""
    info = stocks.set_index("security_id").loc[panel.security_ids]
    mask = (
        np.ones(len(info), dtype=bool) if market is None else (info["market"] == market).to_numpy()
    )
    shares = info["shares_outstanding"].fillna(0).to_numpy(dtype=float) * mask
    caps = {k: getattr(panel, k) @ shares for k in ("open", "high", "low", "close")}
    divisor = caps["close"][-1] / END_LEVELS[code]
    volume = panel.volume[:, mask].sum(axis=1)
    prev0 = float(panel.prev_close0 @ shares) / divisor
    o, h, low, c = (caps[k] / divisor for k in ("open", "high", "low", "close"))
    return _frame(code, panel.days, o, h, low, c, volume, prev0)


def _price_index(code: str, panel: PricePanel) -> pd.DataFrame:
    """Sum of prices over the stocks (the Dow's method), divided to END_LEVELS on the last day."""
    sums = {k: getattr(panel, k).sum(axis=1) for k in ("open", "high", "low", "close")}
    divisor = sums["close"][-1] / END_LEVELS[code]
    prev0 = float(panel.prev_close0.sum()) / divisor
    o, h, low, c = (sums[k] / divisor for k in ("open", "high", "low", "close"))
    return _frame(code, panel.days, o, h, low, c, panel.volume.sum(axis=1), prev0)


def _intraday(close: np.ndarray, prev: np.ndarray, sigma: float,
              rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """Open near the previous close, high and low outside the open-close body."""
    n = len(close)
    o = prev * np.exp(rng.normal(0.0, sigma / 3, n))
    h = np.maximum(o, close) * np.exp(np.abs(rng.normal(0.0, sigma / 2, n)))
    low = np.minimum(o, close) * np.exp(-np.abs(rng.normal(0.0, sigma / 2, n)))
    return o, h, low


def _vix_bars(vix: pd.Series, days: list[date], rng: np.random.Generator) -> pd.DataFrame:
    close = vix.reindex(pd.Index(days)).ffill().bfill().to_numpy(dtype=float)
    before = vix[vix.index < days[0]]
    prev0 = float(before.iloc[-1]) if len(before) else float(close[0])
    prev = np.concatenate([[prev0], close[:-1]])
    o, h, low = _intraday(close, prev, 0.06, rng)
    return _frame("^VIX", days, o, h, low, close, None, prev0)


def _walk(n: int, returns: np.ndarray, end_level: float) -> np.ndarray:
    path = np.exp(np.cumsum(returns[:n]))
    return path / path[-1] * end_level


def _btc(nasdaq: pd.Series, start: date, end: date, rng: np.random.Generator) -> pd.DataFrame:
    """Every calendar day; a 1.5 beta to the demo Nasdaq on its trading days plus own noise."""
    days = [start + timedelta(days=i) for i in range((end - start).days + 1)]
    nq = np.log(nasdaq.reindex(pd.Index(days)).ffill().bfill().to_numpy(dtype=float))
    market = np.diff(nq, prepend=nq[0])
    returns = 1.5 * market + rng.normal(0.0005, 0.022, len(days))
    close = _walk(len(days), returns, END_LEVELS["BTC-USD"])
    prev0 = float(close[0] / np.exp(returns[0]))
    prev = np.concatenate([[prev0], close[:-1]])
    o, h, low = _intraday(close, prev, 0.025, rng)
    volume = np.round(np.exp(rng.normal(np.log(3.5e10), 0.3, len(days))))
    return _frame("BTC-USD", days, o, h, low, close, volume.astype(np.int64), prev0)


def _wti(days: list[date], rng: np.random.Generator) -> pd.DataFrame:
    """Mean-reverting log price (oil has no trend over two years) anchored on the last day."""
    x, out = 0.0, []
    for shock in rng.normal(0.0, 0.019, len(days)):
        x += -0.01 * x + shock
        out.append(x)
    log_path = np.array(out)
    close = np.exp(log_path - log_path[-1]) * END_LEVELS["CL=F"]
    prev0 = float(close[0] * np.exp(-rng.normal(0.0, 0.019)))
    prev = np.concatenate([[prev0], close[:-1]])
    o, h, low = _intraday(close, prev, 0.02, rng)
    volume = np.round(np.exp(rng.normal(np.log(2.6e5), 0.25, len(days))))
    return _frame("CL=F", days, o, h, low, close, volume.astype(np.int64), prev0)
