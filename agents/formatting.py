"""Amounts of money as an analyst writes them, one writer for every screen (the macro market
rankings and valuation line, the stock box and its figures).

    amount(556_446_000_000_000, "KRW")  # '556조 4,460억 원'
    amount(4_046_800_000_000, "USD")    # '$4,046.80B'
"""

from __future__ import annotations

from data_access.figures import fmt_krw


def amount(value: float, currency: str) -> str:
    """A market cap, trading value or other large sum: 조/억 원 in won, $…B (or $…M) in dollars."""
    if currency == "KRW":
        return fmt_krw(value)
    return f"${value / 1e9:,.2f}B" if value >= 1e9 else f"${value / 1e6:,.1f}M"
