"""Trading calendars (KRX, NYSE) as data, and the one rule for a date that is not a session.

The calendar is the known exchange holidays (the fixed lists and day rules of
`data_access.seed.calendar`, 2024-2026, re-exported here: no calendar package version decides a
session) plus the sessions the loaded prices actually have; outside the covered years weekends
are the only closures known.

A request for a non-trading day moves to the previous trading day and says so:

    >>> resolve_day(date(2026, 11, 1), "KRX").note_ko()
    '11월 1일(일)은 휴장일이라 10월 30일 종가 기준입니다.'
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Literal

from psycopg_pool import ConnectionPool

from data_access.postgres import fetch_one
from data_access.seed.calendar import (
    KRX_HOLIDAYS,
    NYSE_HOLIDAYS,
    is_trading_day,
    previous_trading_day,
)

Exchange = Literal["KRX", "NYSE"]
_HOLIDAYS: dict[Exchange, frozenset[date]] = {"KRX": KRX_HOLIDAYS, "NYSE": NYSE_HOLIDAYS}
__all__ = ["TradingDay", "any_market_session", "exchange_of", "is_trading_day",
           "previous_trading_day", "resolve_day"]  # fmt: skip
_WEEKDAYS_KO = "월화수목금토일"
_MAX_BACK = 15  # no exchange closes longer than this; a longer search means no data

LAST_SESSION_SQL = """
SELECT max(p.trade_date) AS d FROM stock_prices p JOIN stocks s USING (security_id)
WHERE s.country = %(country)s AND p.trade_date <= %(day)s AND p.trade_date >= %(floor)s
"""


def exchange_of(security_id: str) -> Exchange:
    """KR:… trades on KRX, US:… on NYSE (the workbench's two markets)."""
    return "NYSE" if security_id.upper().startswith("US:") else "KRX"


def is_holiday(day: date, exchange: Exchange) -> bool:
    return day in _HOLIDAYS[exchange]


def date_ko(day: date) -> str:
    return f"{day.month}월 {day.day}일"


@dataclass(frozen=True)
class TradingDay:
    """A requested date and the session it is read as (the same day when it traded)."""

    requested: date
    session: date
    exchange: Exchange
    reason: str = ""  # '주말', '휴장일', '시세 없음' when moved

    @property
    def moved(self) -> bool:
        return self.session != self.requested

    def note_ko(self) -> str:
        """'11월 1일(일)은 휴장일이라 10월 30일 종가 기준입니다.' ('' when not moved)."""
        if not self.moved:
            return ""
        weekday = _WEEKDAYS_KO[self.requested.weekday()]
        why = "시세가 없어" if self.reason == "시세 없음" else "휴장일이라"
        return (f"{date_ko(self.requested)}({weekday})은 {why} {date_ko(self.session)} "
                "종가 기준입니다.")  # fmt: skip

    def as_dict(self) -> dict[str, str]:
        return {"requested": self.requested.isoformat(), "session": self.session.isoformat(),
                "exchange": self.exchange, "reason": self.reason, "note": self.note_ko()}  # fmt: skip


def _reason(day: date, exchange: Exchange) -> str:
    if day.weekday() >= 5:
        return "주말"
    return "휴장일" if is_holiday(day, exchange) else "시세 없음"


def resolve_day(day: date, exchange: Exchange, pool: ConnectionPool | None = None,
                *, use_data: bool = False) -> TradingDay:  # fmt: skip
    """The session a date is read as: the day itself when the exchange traded, else the previous
    trading day. With `use_data`, the session must also have loaded prices (a trading day the
    data does not have yet moves back to the data's last session on or before it)."""
    session = previous_trading_day(day, exchange)
    if use_data:
        country = "US" if exchange == "NYSE" else "KR"
        row = fetch_one(LAST_SESSION_SQL, {"country": country, "day": session,
                                           "floor": session - timedelta(days=_MAX_BACK)}, pool)  # fmt: skip
        if row and row["d"] is not None:
            session = row["d"]
    reason = _reason(day, exchange) if session != day else ""
    return TradingDay(requested=day, session=session, exchange=exchange, reason=reason)


def any_market_session(day: date, pool: ConnectionPool | None = None) -> TradingDay:
    """The session of a screen that covers both markets (the opening): the later of the KRX and
    NYSE sessions on or before `day` that have prices, so a day either market traded stays."""
    return max((resolve_day(day, ex, pool, use_data=True) for ex in ("KRX", "NYSE")),
               key=lambda t: t.session)  # fmt: skip
