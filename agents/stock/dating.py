"""The day a stock answer or report is dated by, and what the data behind it is (issue 22).

A security's figures are dated by its OWN last bar on or before the requested as-of date, never
by the newest date of any security; when that bar is older than the freshness window of the
security's catalogued dataset (`datasets.max_stale_days`), the answer says so. Bars that are not
daily (an imported weekly or monthly file) are named, so a figure that needs daily bars is
refused instead of read off them.

    d = date_security("US:IBM", date(2026, 11, 20), pool)
    d.last_bar, d.stale, d.notes("ko")  # 2010-03-01, True, ['… 오래된 데이터입니다 …', '월별 …']
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from psycopg_pool import ConnectionPool

from agents.stock.data import BAR_NAMES  # a frequency in words ('월별'): said only when not daily
from data_access.catalog import Dataset, catalogued_datasets
from data_access.postgres import fetch_one
from data_access.trading_calendar import exchange_of, resolve_day

DEFAULT_WINDOW_DAYS = 5

_LAST_BAR = """
SELECT s.bar_frequency,
       (SELECT max(p.trade_date) FROM stock_prices p
        WHERE p.security_id = s.security_id AND p.trade_date <= %(as_of)s) AS last_bar
FROM stocks s WHERE s.security_id = %(sid)s
"""


@dataclass(frozen=True)
class Dating:
    security_id: str
    requested: date
    last_bar: date | None
    frequency: str
    window_days: int

    @property
    def lag_days(self) -> int | None:
        return (self.requested - self.last_bar).days if self.last_bar else None

    @property
    def stale(self) -> bool:
        return self.lag_days is not None and self.lag_days > self.window_days

    @property
    def daily(self) -> bool:
        return self.frequency == "daily"

    @property
    def as_of(self) -> date:
        """The date the answer is dated by: the security's own last bar (the request without)."""
        return self.last_bar or self.requested

    def session_note_ko(self) -> str:
        """'11월 22일(일)은 휴장일이라 11월 20일 종가 기준입니다.' when a closed day was asked."""
        day = resolve_day(self.requested, exchange_of(self.security_id))
        return day.note_ko() if day.moved and self.last_bar == day.session else ""

    def notes(self, lang: str) -> list[str]:
        """What the answer says of its data: a closed day asked (Korean only), stale, not daily."""
        ko, sid = lang == "ko", self.security_id
        out = [note] if ko and (note := self.session_note_ko()) else []
        if self.stale:
            out.append(f"{sid}의 마지막 시세는 {self.last_bar}로, 기준일 {self.requested}보다 "
                       f"{self.lag_days:,}일 전입니다 (허용 {self.window_days}일): 오래된 데이터입니다."
                       if ko else f"{sid}'s last bar is {self.last_bar}, {self.lag_days:,} days "
                       f"before {self.requested} (window {self.window_days} days): stale data.")  # fmt: skip
        if not self.daily:
            out.append(f"{sid}의 시세는 {BAR_NAMES.get(self.frequency, self.frequency)} "
                       "데이터입니다: 수익률은 그 봉의 종가로 계산하고, 일별 시세가 필요한 지표"
                       "(RSI·이동평균·일간 변동성·거래량)는 계산하지 않습니다." if ko else
                       f"{sid} has {self.frequency} bars: returns use their closes; "
                       "indicators that need daily bars are not computed.")  # fmt: skip
        return out


def _covers(dataset: Dataset, security_id: str) -> int:
    """How closely a stock_prices dataset covers the security: 2 by id, 1 by prefix, 0 not."""
    if dataset.table_name != "stock_prices" or dataset.filter_column != "security_id":
        return 0
    value = dataset.filter_value or ""
    if dataset.filter_op == "=":
        return 2 if value == security_id else 0
    return 1 if security_id.startswith(value.rstrip("%")) else 0


def freshness_window(security_id: str, pool: ConnectionPool | None = None) -> int:
    """`max_stale_days` of the catalogued dataset that holds the security's prices."""
    ranked = sorted(((_covers(d, security_id), d.max_stale_days) for d in catalogued_datasets(pool)),
                    reverse=True)  # fmt: skip
    return ranked[0][1] if ranked and ranked[0][0] else DEFAULT_WINDOW_DAYS


def date_security(security_id: str, as_of: date, pool: ConnectionPool | None = None) -> Dating:
    row = fetch_one(_LAST_BAR, {"sid": security_id, "as_of": as_of}, pool)
    return Dating(
        security_id=security_id, requested=as_of,
        last_bar=row["last_bar"] if row else None,
        frequency=str(row["bar_frequency"]) if row else "daily",
        window_days=freshness_window(security_id, pool),
    )  # fmt: skip
