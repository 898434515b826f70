"""Quote snapshots for StockDataTool: from PostgreSQL, or from yfinance when it is enabled.

The seed's output fields: current_price, change, change_percent (a fraction, 0.0145 = 1.45 %),
volume, market_cap, pe_ratio, 52w_high, 52w_low — plus who we are talking about (security_id,
name, currency) and where the numbers came from (source, as_of_date).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from agents.stock.data import StockData
from data_access.errors import ToolInputError

logger = logging.getLogger(__name__)

QuoteSource = Callable[[str], dict[str, Any]]
WEEKS_52_SESSIONS = 252


def database_quote(data: StockData, security_id: str) -> dict[str, Any]:
    """The latest session's snapshot from stock_prices, stocks and stock_fundamentals."""
    stock = data.stock(security_id)
    if stock is None:
        raise ToolInputError(f"종목 정보가 없습니다: {security_id}")
    history = data.history(security_id, WEEKS_52_SESSIONS)
    if len(history) < 2:
        raise ToolInputError(f"{stock['name']}의 가격 데이터가 부족합니다 (기준일 {data.as_of}).")
    fundamentals = data.fundamentals(security_id) or {}
    last, previous = history[-1], history[-2]
    change = last["close"] - previous["close"]
    shares = stock.get("shares_outstanding")
    market_cap = last["close"] * int(shares) if shares else fundamentals.get("market_cap")
    return {
        "security_id": security_id,
        "name": stock["name"],
        "name_en": stock.get("name_en"),
        "market": stock["market"],
        "sector": stock["sector"],
        "currency": stock["currency"],
        "current_price": last["close"],
        "change": round(change, 4),
        "change_percent": round(change / previous["close"], 6) if previous["close"] else 0.0,
        "volume": last["volume"],
        "market_cap": round(market_cap) if market_cap else None,
        "pe_ratio": fundamentals.get("pe"),
        "eps": fundamentals.get("eps"),
        "52w_high": max(r["high"] for r in history),
        "52w_low": min(r["low"] for r in history),
        "trade_date": last["date"],
        "fundamentals_date": fundamentals.get("as_of_date"),
        "source": "database",
    }


def yfinance_symbol(security_id: str, market: str | None = None) -> str:
    country, code = security_id.split(":", 1)
    if country == "KR":
        return f"{code}.KQ" if market == "KOSDAQ" else f"{code}.KS"
    return code.replace(".", "-")


def yfinance_quote(security_id: str) -> tuple[dict[str, Any] | None, str]:
    """(quote, note): the quote from yfinance, or None and why the database answers instead."""
    try:
        import yfinance  # type: ignore[import-not-found]  # optional, not in requirements
    except ImportError:
        return None, "yfinance가 설치되어 있지 않아 데이터베이스 값을 사용했습니다."
    try:
        info = yfinance.Ticker(yfinance_symbol(security_id)).fast_info
        price, previous = float(info["last_price"]), float(info["previous_close"])
        quote = {
            "security_id": security_id,
            "current_price": price,
            "change": round(price - previous, 4),
            "change_percent": round((price - previous) / previous, 6) if previous else 0.0,
            "volume": int(info.get("last_volume") or 0),
            "market_cap": info.get("market_cap"),
            "pe_ratio": None,
            "52w_high": float(info["year_high"]),
            "52w_low": float(info["year_low"]),
            "source": "yfinance",
        }
    except Exception as e:  # network, rate limit, missing field: the database still answers
        logger.warning("yfinance quote for %s failed: %s", security_id, e)
        return None, f"yfinance 조회 실패({type(e).__name__})로 데이터베이스 값을 사용했습니다."
    return quote, ""
