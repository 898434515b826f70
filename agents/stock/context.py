"""Run settings of the stock workflow: iteration cap, retry policy and optional providers.

Optional providers are off unless configured: yfinance with `STOCK_YFINANCE=1` (the package is
not a requirement; without it the database answers and the trace says so), Tavily whenever
`TAVILY_API_KEY` is set in the workbench settings.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field

from data_access.config import Settings

TAVILY_URL = "https://api.tavily.com/search"


@dataclass(frozen=True)
class RetryPolicy:
    """The seed's tool-level retry: `max_retries` more attempts, waiting base·2^n seconds."""

    max_retries: int = 3
    base_delay_s: float = 0.5
    sleep: Callable[[float], None] | None = None  # tests record the waits instead of sleeping

    @property
    def max_attempts(self) -> int:
        return self.max_retries + 1


@dataclass(frozen=True)
class StockContext:
    max_iterations: int = 3
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    use_yfinance: bool = False
    tavily_api_key: str | None = None
    tavily_url: str = TAVILY_URL
    news_max_results: int = 5
    history_days: int = 290  # sessions loaded: a calendar year back to the 1Y base bar, and more

    @classmethod
    def from_settings(cls, settings: Settings, **overrides: object) -> StockContext:
        key = settings.tavily_api_key.get_secret_value() if settings.tavily_api_key else None
        values: dict[str, object] = {
            "use_yfinance": os.environ.get("STOCK_YFINANCE", "").strip().lower()
            in ("1", "true", "yes", "on"),
            "tavily_api_key": key or None,
            "tavily_url": os.environ.get("TAVILY_URL", TAVILY_URL),
        }
        values.update(overrides)
        return cls(**values)  # type: ignore[arg-type]
