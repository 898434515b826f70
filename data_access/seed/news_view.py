"""Read-only lookups over generated market data that the news generators share."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

import numpy as np
import pandas as pd

from data_access.seed.etfs import EtfData
from data_access.seed.events import Jump
from data_access.seed.prices import PricePanel


@dataclass
class MarketView:
    stocks: pd.DataFrame  # indexed by security_id
    panels: dict[str, PricePanel]
    jumps: dict[tuple[str, date], Jump]
    etfs: pd.DataFrame  # indexed by code
    etf_data: EtfData
    daily_macro: dict[str, pd.Series]
    _change: dict[str, np.ndarray] = field(default_factory=dict, init=False)
    _avg_volume: dict[str, np.ndarray] = field(default_factory=dict, init=False)
    _high_250: dict[str, np.ndarray] = field(default_factory=dict, init=False)

    @classmethod
    def build(cls, stocks: pd.DataFrame, panels: dict[str, PricePanel], jumps: list[Jump],
              etfs: pd.DataFrame, etf_data: EtfData, daily_macro: dict[str, pd.Series]) -> MarketView:  # fmt: skip
        view = cls(stocks.set_index("security_id", drop=False), panels,
                   {(j.security_id, j.day): j for j in jumps}, etfs.set_index("code", drop=False),
                   etf_data, daily_macro)  # fmt: skip
        view._change = {c: p.change_rate for c, p in panels.items()}
        view._avg_volume = {
            c: _trailing_mean(p.volume.astype(float), 20) for c, p in panels.items()
        }
        view._high_250 = {c: _trailing_max(p.close, 250) for c, p in panels.items()}
        return view

    def change(self, country: str) -> np.ndarray:
        return self._change[country]

    def volume_ratio(self, country: str, t: int, j: int) -> float:
        avg = self._avg_volume[country][t, j]
        return float(self.panels[country].volume[t, j] / avg) if avg > 0 else 1.0

    def is_52w_high(self, country: str, t: int, j: int) -> bool:
        return bool(self.panels[country].close[t, j] >= self._high_250[country][t, j] and t >= 20)

    def name(self, security_id: str, lang: str = "ko") -> str:
        row = self.stocks.loc[security_id]
        return str(row["name_ko"] if lang == "ko" else row["name"])

    def info(self, security_id: str) -> pd.Series:
        return self.stocks.loc[security_id]

    def macro_on(self, code: str, day: date) -> float | None:
        series = self.daily_macro.get(code)
        if series is None or day not in series.index:
            return None
        return float(series.loc[day])

    def etf_change(self, code: str, t: int, lag: int = 1) -> float:
        close = self.etf_data.close[code]
        return float((close[t] / close[max(t - lag, 0)] - 1.0) * 100.0)


def _trailing_mean(values: np.ndarray, window: int) -> np.ndarray:
    """Mean of the previous `window` rows (excluding the current one); row 0 uses itself."""
    csum = np.vstack([np.zeros((1, values.shape[1])), np.cumsum(values, axis=0)])
    idx = np.arange(values.shape[0])
    start = np.maximum(idx - window, 0)
    count = np.maximum(idx - start, 1)
    total = csum[idx] - csum[start]
    total[0] = values[0]
    return total / count[:, None]


def _trailing_max(values: np.ndarray, window: int) -> np.ndarray:
    """Max over the last `window` rows including the current one."""
    frame = pd.DataFrame(values)
    return frame.rolling(window, min_periods=1).max().to_numpy()
