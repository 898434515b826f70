"""Gain and loss colours: one convention for every candle, bar, sparkline, tile and delta.

Korean analysts read red as up and blue as down (the default); `PRICE_COLORS=international`
switches to green up, red down. Charts (agents/*/charts.py) take the hex colours, Streamlit tiles
the palette names (`st.metric(delta_color=...)` colours both the delta and its sparkline):

    >>> from agents.colors import price_colors
    >>> price_colors("korean").for_change(-0.4)
    '#2563eb'
    >>> price_colors("international").tile_color(2.0)
    'green'

The arrow always follows the number's sign (up for a rise), never whether the move is good.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from data_access.config import get_settings

Convention = Literal["korean", "international"]
TileColor = Literal["red", "blue", "green", "gray"]
Arrow = Literal["up", "down", "off"]
FLAT = "#6b7280"


@dataclass(frozen=True)
class PriceColors:
    up: str  # hex, for plotly
    down: str
    up_tile: TileColor  # Streamlit palette name, for st.metric
    down_tile: TileColor
    up_tints: tuple[str, str]  # table row backgrounds: (strong, light)
    down_tints: tuple[str, str]

    def for_change(self, change: float | None) -> str:
        if not change:
            return FLAT
        return self.up if change > 0 else self.down

    def tint(self, change: float, *, strong: bool = False) -> str:
        """A row background for a rise or a fall (strong: a holding added or removed)."""
        tints = self.up_tints if change > 0 else self.down_tints
        return tints[0] if strong else tints[1]

    def tile_color(self, change: float | None) -> TileColor:
        if not change:
            return "gray"
        return self.up_tile if change > 0 else self.down_tile


CONVENTIONS: dict[Convention, PriceColors] = {
    "korean": PriceColors(up="#dc2626", down="#2563eb", up_tile="red", down_tile="blue",
                          up_tints=("#fecaca", "#fee2e2"), down_tints=("#bfdbfe", "#dbeafe")),
    "international": PriceColors(up="#16a34a", down="#dc2626", up_tile="green", down_tile="red",
                                 up_tints=("#bbf7d0", "#dcfce7"), down_tints=("#fecaca", "#fee2e2")),
}  # fmt: skip


def price_colors(convention: Convention | None = None) -> PriceColors:
    """The configured convention (settings `price_colors`), or the one named."""
    return CONVENTIONS[convention or get_settings().price_colors]


def arrow(change: float | None) -> Arrow:
    """Arrow direction for a tile whose delta text does not start with the number's sign."""
    if not change:
        return "off"
    return "up" if change > 0 else "down"
