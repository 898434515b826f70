"""One written definition for every figure the screens show (issue 19).

Every screen, tool and report computes these figures through this module; the golden sets
follow the same written definitions but compute their truths independently in SQL.

Definitions
-----------
- **As-of bar**: a security's figures are dated by its OWN last bar on or before the requested
  as-of date (never by the newest date of any security).
- **Period return** over a calendar period (1W, 1M, 3M, 6M, 1Y): the base date is the as-of bar's
  date minus the period (7 days; N calendar months or years, clamped to the month's last day as
  PostgreSQL's ``date - interval`` does: 03-31 minus 1 month is 02-28/29). The base close is the
  close of the last bar ON OR BEFORE the base date. Return = close(as-of bar) / base close - 1.
  Without a bar on or before the base date there is no return (not a shorter window).
- **YTD**: the base date is 12-31 of the previous year; the base close is the last bar on or
  before it (the previous year's last close).
- **YoY / MoM** on a monthly series: the value of the month against the same month one year
  (one month) earlier; no value when that month is missing.
- **Annualized volatility**: sample standard deviation of the last N daily simple returns
  times sqrt(252). Daily bars only.
- **Drawdown**: each close against the highest close so far in the window (0 at a new high);
  the maximum drawdown is the lowest of those. Over a window or span only the closes inside it
  count (its peak and trough are both in it), not the base close before it.
- **Differences of rates** are in percentage points (%p): ``a - b``, not a ratio.
- **Median with count**: a median is always reported with the number of values behind it.

    >>> base_date(date(2026, 3, 31), "1m")
    datetime.date(2026, 2, 28)
    >>> round(period_return([(date(2026, 2, 27), 100.0), (date(2026, 3, 31), 110.0)], "1m").pct, 2)
    10.0
"""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, replace
from datetime import date, timedelta
from typing import Any

from dateutil.relativedelta import relativedelta

TRADING_DAYS_PER_YEAR = 252  # the annualization factor for volatility (a convention, not a count)


@dataclass(frozen=True)
class Period:
    key: str
    ko: str
    en: str
    days: int = 0
    months: int = 0
    since: date | None = None  # '1월 2일 대비', '올해 첫 거래일 대비': a base day named

    @property
    def sql_interval(self) -> str | None:
        """The PostgreSQL interval of the period (None for YTD, MTD and a named base day)."""
        if self.since:
            return None
        if self.days:
            return f"{self.days} days"
        return f"{self.months} months" if self.months else None


PERIODS: dict[str, Period] = {
    "1w": Period("1w", "1주", "1 week", days=7),
    "1m": Period("1m", "1개월", "1 month", months=1),
    "3m": Period("3m", "3개월", "3 months", months=3),
    "6m": Period("6m", "6개월", "6 months", months=6),
    "1y": Period("1y", "1년", "1 year", months=12),
    "ytd": Period("ytd", "연초 대비", "year to date"),
}
# Month to date: from the last bar of the previous month. Kept out of PERIODS, so the screens'
# default return sets stay as they are; a question that asks for it names it.
MTD = Period("mtd", "전월 말 대비", "month to date")
RETURN_DEFINITION_KO = "기준일 종가 ÷ (기준일−기간 당일 또는 그 직전 거래일 종가) − 1, 달력 기간"
RETURN_DEFINITION_EN = (
    "close on the as-of bar / close of the last bar on or before (as-of − period) − 1"
)


def period_for_months(months: float) -> Period | None:
    """The named period of a month count (0.25 → 1W, 12 → 1Y); None when it has no name."""
    key = {0.25: "1w", 1.0: "1m", 3.0: "3m", 6.0: "6m", 12.0: "1y"}.get(float(months))
    return PERIODS[key] if key else None


_LABEL = re.compile(r"^(\d+)([dwmy])$")


SINCE = "since:"  # a period label from a named base day: 'since:2026-01-02'


def since_period(day: date) -> Period:
    """The period from a named base day to the as-of bar ('1월 2일 대비')."""
    return Period(f"{SINCE}{day.isoformat()}", f"{day.isoformat()} 대비", f"since {day.isoformat()}",
                  since=day)  # fmt: skip


def period_named(label: str | None, months: float) -> Period:
    """The period of a question's period label ('3m', '2y', '2w', 'ytd', 'since:2026-01-02'),
    else of its months."""
    key = (label or "").lower()
    if key.startswith(SINCE):
        return since_period(date.fromisoformat(key.removeprefix(SINCE)))
    if key in PERIODS:
        return PERIODS[key]
    if key == MTD.key:
        return MTD
    m = _LABEL.match(key)
    if m:
        n, unit = int(m.group(1)), m.group(2)
        if unit in "dw":
            days = n * (7 if unit == "w" else 1)
            return Period(key, f"{n}{'주' if unit == 'w' else '일'}", f"{n}{unit}", days=days)
        total = n * (12 if unit == "y" else 1)
        return period_for_months(total) or Period(key, f"{n}{'년' if unit == 'y' else '개월'}",
                                                  f"{n}{unit}", months=total)  # fmt: skip
    named = period_for_months(months)
    if named:
        return named
    if months >= 1:
        return Period(f"{round(months)}m", f"{round(months)}개월", f"{round(months)} months",
                      months=round(months))  # fmt: skip
    days = max(1, round(months * 30))
    return Period(f"{days}d", f"{days}일", f"{days} days", days=days)


def period_of(key: str | Period) -> Period:
    if isinstance(key, Period):
        return key
    if key.lower().startswith(SINCE) or _LABEL.match(key.lower()):  # '45d', '5m'
        return period_named(key, 0)
    if key.lower() == MTD.key:
        return MTD
    try:
        return PERIODS[key.lower()]
    except KeyError as e:
        raise ValueError(f"unknown period {key!r}: one of {', '.join(PERIODS)}") from e


def base_date(as_of: date, period: str | Period) -> date:
    """The date the period reaches back to from the as-of bar's date (see the definitions)."""
    p = period_of(period)
    if p.since:
        return p.since
    if p.key == "ytd":
        return date(as_of.year - 1, 12, 31)
    if p.key == MTD.key:
        return as_of.replace(day=1) - timedelta(days=1)  # the previous month's last day
    if p.days:
        return as_of - timedelta(days=p.days)
    return as_of - relativedelta(months=p.months)


def base_date_sql(last: str, period: str | Period) -> str:
    """The same base date as a PostgreSQL expression over the as-of bar's date column `last`."""
    p = period_of(period)
    if p.since:
        return f"DATE '{p.since.isoformat()}'"
    if p.key == "ytd":
        return f"make_date(extract(year FROM {last})::int - 1, 12, 31)"
    if p.key == MTD.key:
        return f"(date_trunc('month', {last}) - interval '1 day')::date"
    return f"({last} - interval '{p.sql_interval}')::date"


@dataclass(frozen=True)
class PeriodReturn:
    """A period return with the bars it rests on (pct in percent, e.g. 4.68 for +4.68%)."""

    period: str
    pct: float
    start_date: date
    start_close: float
    end_date: date
    end_close: float
    base_target: date

    def as_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out.update({k: out[k].isoformat() for k in ("start_date", "end_date", "base_target")})
        return out

    def window_ko(self) -> str:
        """'2025-11-24 종가 → 2026-11-24 종가' for traces and footnotes."""
        return f"{self.start_date} 종가 → {self.end_date} 종가"


Bar = tuple[date, float]


def _as_date(value: Any) -> date:
    return value if isinstance(value, date) else date.fromisoformat(str(value)[:10])


def bars_of(rows: Iterable[dict[str, Any]], date_key: str = "trade_date",
            close_key: str = "close") -> list[Bar]:  # fmt: skip
    """(date, close) bars, oldest first, from query rows of any order; rows without a close skipped."""
    bars = [
        (_as_date(r[date_key]), float(r[close_key])) for r in rows if r.get(close_key) is not None
    ]
    return sorted(bars)


def as_of_bar(bars: Sequence[Bar], as_of: date | None = None) -> int | None:
    """Index of the last bar on or before `as_of` (the last bar when None); None if none."""
    if not bars:
        return None
    if as_of is None:
        return len(bars) - 1
    found = None
    for i, (day, _) in enumerate(bars):
        if day > as_of:
            break
        found = i
    return found


def period_return(bars: Sequence[Bar], period: str | Period,
                  as_of: date | None = None) -> PeriodReturn | None:  # fmt: skip
    """The period return of oldest-first (date, close) bars (see the module's definitions)."""
    p = period_of(period)
    end = as_of_bar(bars, as_of)
    if end is None:
        return None
    end_day, end_close = bars[end]
    target = base_date(end_day, p)
    start = as_of_bar(bars[:end], target)
    if start is None or bars[start][1] == 0:
        return None
    start_day, start_close = bars[start]
    return PeriodReturn(
        period=p.key, pct=(end_close / start_close - 1) * 100, start_date=start_day,
        start_close=start_close, end_date=end_day, end_close=end_close, base_target=target,
    )  # fmt: skip


def period_returns(bars: Sequence[Bar], periods: Iterable[str] = tuple(PERIODS),
                   as_of: date | None = None) -> dict[str, PeriodReturn | None]:  # fmt: skip
    return {k: period_return(bars, k, as_of) for k in periods}


def window_rows(
    rows: Sequence[dict[str, Any]], key: str, period: str | Period
) -> list[dict[str, Any]]:
    """The rows (oldest first) from the period's base bar to the last row: the base bar is the
    last row on or before the base date, so the first and last rows give the period return.
    Rows that do not reach back to the base date are returned whole (the caller says so)."""
    if not rows:
        return []
    days = [_as_date(r[key]) for r in rows]
    target = base_date(days[-1], period)
    before = [i for i, d in enumerate(days) if d <= target]
    return list(rows[before[-1] :]) if before else list(rows)


def covers(rows: Sequence[dict[str, Any]], key: str, period: str | Period) -> bool:
    """Whether the rows reach back to the period's base date (so a return over them is defined)."""
    return bool(rows) and _as_date(rows[0][key]) <= base_date(_as_date(rows[-1][key]), period)


# ---------------------------------------------------------------- monthly series


def month_shift(month: date, months: int) -> date:
    return date(month.year, month.month, 1) - relativedelta(months=months)


def change_over(points: Sequence[tuple[date, float]], months: int) -> tuple[float, date] | None:
    """Latest value against the value of the month `months` earlier (YoY: 12, MoM: 1), in
    percent, with the base month; None when that month is missing."""
    if not points:
        return None
    by_month = {date(d.year, d.month, 1): v for d, v in points}
    last_day, last = points[-1]
    base_month = month_shift(last_day, months)
    base = by_month.get(base_month)
    if base in (None, 0):
        return None
    return (last / base - 1) * 100, base_month


def yoy(points: Sequence[tuple[date, float]]) -> tuple[float, date] | None:
    return change_over(points, 12)


def mom(points: Sequence[tuple[date, float]]) -> tuple[float, date] | None:
    return change_over(points, 1)


# ---------------------------------------------------------------- risk


def daily_returns(closes: Sequence[float]) -> list[float]:
    return [b / a - 1 for a, b in zip(closes, closes[1:], strict=False) if a]


def annualized_volatility(closes: Sequence[float], window: int) -> float | None:
    """Sample standard deviation of the last `window` daily returns, times √252 (a ratio)."""
    returns = daily_returns(closes[-(window + 1) :])
    if len(returns) < max(2, window):
        return None
    return statistics.stdev(returns) * math.sqrt(TRADING_DAYS_PER_YEAR)


def drawdown_series(closes: Sequence[float]) -> list[float]:
    """Each close against the highest close so far (0 at a new high, negative below it)."""
    out: list[float] = []
    peak = -math.inf
    for close in closes:
        peak = max(peak, close)
        out.append(close / peak - 1 if peak > 0 else 0.0)
    return out


def max_drawdown(closes: Sequence[float]) -> float | None:
    return min(drawdown_series(closes)) if closes else None


# ---------------------------------------------------------------- medians


@dataclass(frozen=True)
class Median:
    value: float | None
    count: int

    def ko(self, fmt: str = "{:,.2f}") -> str:
        if self.value is None:
            return "값 없음 (n=0)"
        return f"{fmt.format(self.value)} (n={self.count})"


def median_with_count(values: Iterable[float | None]) -> Median:
    present = [float(v) for v in values if v is not None]
    return Median(statistics.median(present) if present else None, len(present))


# ---------------------------------------------------------------- windows (issue 31)
#
# - **Window** of N units ending at a series' own last observation: N sessions are its last N
#   observations; N days/weeks are the observations after last − N days (7N); N months,
#   quarters (3N) or years (12N) those after last − N months. So a monthly series' 6-month window
#   holds 6 observations, not 7. '지난주', '지난달' are the calendar week (Monday to Sunday) or
#   month before the one holding the last observation; '이번 주', '이번 달', '올해' (this_week,
#   this_month, this_year; n=1) run from the first day of the one holding it, so a year to date
#   has the previous year's last close as its base.
# - **Base** of a window (for a return or a change): the observation N sessions before the last,
#   or the last one on or before the window's start.
# - A **moving average** of N sessions is the mean of the last N closes.

WINDOW_UNITS = ("session", "day", "week", "month", "quarter", "year", "prev_week", "prev_month",
                "this_week", "this_month", "this_year")  # fmt: skip


@dataclass(frozen=True)
class Window:
    n: int
    unit: str  # one of WINDOW_UNITS

    def start(self, last: date) -> date | None:
        """The day before the window's first day (None for sessions: a count, not dates)."""
        if self.unit == "session":
            return None
        if self.unit in ("prev_week", "prev_month"):
            end = self.end(last)
            assert end is not None
            return (
                end - timedelta(days=7)
                if self.unit == "prev_week"
                else end.replace(day=1) - timedelta(days=1)
            )
        if self.unit == "this_week":  # '이번 주': from Monday of the last observation's week
            return last - timedelta(days=last.weekday() + 1)
        if self.unit == "this_month":  # '이번 달': from the 1st of its month
            return last.replace(day=1) - timedelta(days=1)
        if self.unit == "this_year":  # '올해', '연초 이후': from January 1st (base: 12-31)
            return date(last.year - 1, 12, 31)
        if self.unit in ("day", "week"):
            return last - timedelta(days=self.n * (7 if self.unit == "week" else 1))
        months = self.n * {"month": 1, "quarter": 3, "year": 12}[self.unit]
        return last - relativedelta(months=months)

    def end(self, last: date) -> date | None:
        """The window's last day: the series' last observation, or for the calendar week or
        month before the one holding it ('지난주', '지난달'), that period's last day."""
        if self.unit == "prev_week":
            return last - timedelta(days=last.weekday() + 1)  # the Sunday before last's week
        if self.unit == "prev_month":
            return last.replace(day=1) - timedelta(days=1)
        return None

    def calendar_days(self) -> int:
        """Days to fetch so the window and its base are inside (sessions: ≈1.6 days each)."""
        per = {"session": 1.6, "day": 1, "week": 7, "month": 31, "quarter": 92, "year": 366,
               "prev_week": 14, "prev_month": 62, "this_week": 7, "this_month": 31, "this_year": 366}  # fmt: skip
        return int(self.n * per[self.unit]) + 15


@dataclass(frozen=True)
class WindowFigure:
    stat: str
    value: float | None
    first: date
    last: date
    count: int  # observations in the window
    latest: float
    at: date | None = None  # where a max or min was reached
    base: tuple[date, float] | None = None  # a return's or change's base observation
    high: tuple[date, float] | None = None  # a range's two ends
    low: tuple[date, float] | None = None
    hits: tuple[tuple[date, float], ...] = ()  # the days that met a bar (BAR_DAYS)


def window_points(points: Sequence[tuple[date, float]], window: Window) -> list[tuple[date, float]]:
    """The observations inside the window (points sorted by date)."""
    if not points:
        return []
    if window.unit == "session":
        return list(points[-window.n :])
    start, end = window.start(points[-1][0]), window.end(points[-1][0])
    return [p for p in points if (start is None or p[0] > start) and (end is None or p[0] <= end)]


def window_base(points: Sequence[tuple[date, float]], window: Window) -> tuple[date, float] | None:
    if window.unit == "session":
        return points[-window.n - 1] if len(points) > window.n else None
    start = window.start(points[-1][0]) if points else None
    before = [p for p in points if start is not None and p[0] <= start]
    return before[-1] if before else None


# the days whose value met a bar ('6만원 넘은 날 며칠?'), by the comparison they make
BAR_DAYS = {"days_above": ">", "days_at_least": ">=", "days_below": "<", "days_at_most": "<="}
COMPARE = {">": float.__gt__, ">=": float.__ge__, "<": float.__lt__, "<=": float.__le__,
           "=": float.__eq__}  # fmt: skip
# every statistic `window_statistic` computes
WINDOW_STATISTICS = ("avg", "moving_average", "sum", "max", "min", "range", "extremes", "std",
                     "return", "change", "volatility", "drawdown", "up_days", "down_days",
                     "max_move", "min_move", *BAR_DAYS)  # fmt: skip


def window_extremes(highs: Sequence[tuple[date, float]], lows: Sequence[tuple[date, float]],
                    window: Window) -> WindowFigure | None:  # fmt: skip
    """The window's highest value of `highs` and lowest of `lows`, each with its day; the value
    is the width between them ('최고가와 최저가': the highest high and the lowest low; one series
    passed twice: its two ends). None when the window holds nothing."""
    top, bottom = window_points(highs, window), window_points(lows, window)
    if not top or not bottom:
        return None
    high, low = max(top, key=lambda p: p[1]), min(bottom, key=lambda p: p[1])
    return WindowFigure("extremes", high[1] - low[1], top[0][0], top[-1][0], len(top),
                        top[-1][1], high=high, low=low)  # fmt: skip


def span_statistic(points: Sequence[tuple[date, float]], first: date, last: date, stat: str, *,
                   rate: bool = False) -> WindowFigure | None:  # fmt: skip
    """One statistic over the days first..last of a series (a month, quarter, half or year named,
    '3월부터 6월까지'); a return or change is from the last observation before `first`."""
    upto = [p for p in points if p[0] <= last]
    n = sum(1 for p in upto if p[0] >= first)
    return window_statistic(upto, Window(n, "session"), stat, rate=rate) if n else None


def window_statistic(points: Sequence[tuple[date, float]], window: Window, stat: str, *,
                     rate: bool = False, threshold: float | None = None) -> WindowFigure | None:  # fmt: skip
    """One statistic over one window of a series; None when the window holds nothing (or, for
    a return, change or volatility, when its base is missing). `rate`: changes in %p."""
    inside = window_points(points, window)
    if not inside:
        return None
    values = [v for _, v in inside]
    head = WindowFigure(stat, None, inside[0][0], inside[-1][0], len(inside), values[-1])
    if stat in ("avg", "moving_average"):
        return replace(head, value=statistics.fmean(values))
    if stat == "sum":
        return replace(head, value=math.fsum(values))
    if stat in ("max", "min"):
        at, value = (max if stat == "max" else min)(inside, key=lambda p: p[1])
        return replace(head, value=value, at=at)
    if stat == "std":  # the sample standard deviation of the values themselves, in their unit
        return replace(head, value=statistics.stdev(values)) if len(values) > 1 else None
    if stat in ("range", "extremes"):
        return replace(window_extremes(points, points, window) or head, stat=stat)
    if stat in BAR_DAYS:  # the days of the window whose value met the bar (`threshold`)
        met = tuple(
            p for p in inside if COMPARE[BAR_DAYS[stat]](float(p[1]), float(threshold or 0))
        )
        return replace(head, value=float(len(met)), hits=met)
    if stat == "drawdown":  # the window's own closes: its peak and trough both inside it (%)
        depths = drawdown_series(values)
        trough = min(range(len(depths)), key=depths.__getitem__)
        peak = max(range(trough + 1), key=values.__getitem__)
        return replace(head, value=depths[trough] * 100, at=inside[trough][0], high=inside[peak],
                       low=inside[trough])  # fmt: skip
    base = window_base(points, window)
    if base is None:
        return None
    if stat == "return":
        return replace(head, value=(values[-1] / base[1] - 1) * 100 if base[1] else None, base=base)
    if stat == "change":
        return replace(head, value=values[-1] - base[1], base=base)
    if stat in ("up_days", "down_days"):  # sessions that closed above (below) the one before,
        series = [base[1], *values]  # by at least `threshold` % when one is given
        moves = [(b / a - 1) * 100 if a else 0.0 for a, b in zip(series, series[1:], strict=False)]
        bar = threshold or 0.0
        up = stat == "up_days"
        hits = [m for m in moves if (m > 0 and m >= bar) if up] + [
            m for m in moves if (m < 0 and m <= -bar) if not up
        ]
        return replace(head, value=float(len(hits)), base=base)
    if stat in ("max_move", "min_move"):  # the day of the largest one-day rise (fall) in the
        days = [base, *inside]  # window, each against the one before (`base`: that one; %p if rate)
        steps = [(b[1] - a[1] if rate else (b[1] / a[1] - 1) * 100, a, b)
                 for a, b in zip(days, days[1:], strict=False) if rate or a[1]]  # fmt: skip
        if not steps:
            return None
        move, before, after = (max if stat == "max_move" else min)(steps, key=lambda m: m[0])
        return replace(head, value=move, at=after[0], base=before)
    if stat == "volatility":
        series = [base[1], *values]
        moves = ([b - a for a, b in zip(series, series[1:], strict=False)] if rate
                 else daily_returns(series))  # fmt: skip
        if len(moves) < 2:
            return None
        sigma = statistics.stdev(moves) * math.sqrt(TRADING_DAYS_PER_YEAR)
        return replace(head, value=sigma if rate else sigma * 100, base=base)
    raise ValueError(f"unknown window statistic: {stat}")


# ---------------------------------------------------------------- per calendar period (issue 31)
#
# '분기별 수익률', '월별 평균', '연도별 최고치': one figure per calendar month, quarter or year,
# oldest first. A period's return is from the last observation of the period before it; its
# mean, total, high or low are of its own observations. The oldest period fetched is only that
# base (it is usually cut by the fetch window); the newest may still be running (its last day
# is said).
# Pure Python over ('YYYY-MM-DD', value) pairs, so the ETF sandbox runs the same function.

PER_PERIOD_UNITS = ("month", "quarter", "year")


def per_period(points: list, unit: str, stat: str) -> list:
    """[(label, value, first day, last day, count)] per calendar period, oldest first; labels
    are '2026-10', '2026Q3' or '2026'."""
    groups = {}  # type: dict[str, list[tuple[str, float]]]  # (the sandbox runs this source)
    order = []  # type: list[str]
    for day, value in points:
        text = str(day)[:10]
        month = int(text[5:7])
        label = text[:7] if unit == "month" else text[:4]
        if unit == "quarter":
            label = text[:4] + "Q" + str((month - 1) // 3 + 1)
        if label not in groups:
            groups[label] = []
            order.append(label)
        groups[label].append((text, float(value)))
    out = []
    for i, label in enumerate(order[1:], 1):
        rows = groups[label]
        values = [v for _, v in rows]
        figure = None
        base = groups[order[i - 1]][-1][1]
        if stat == "return":
            figure = (values[-1] / base - 1) * 100 if base else None
        elif stat == "avg":
            figure = sum(values) / len(values)
        elif stat == "sum":
            figure = sum(values)
        elif stat == "max":
            figure = max(values)
        elif stat == "min":
            figure = min(values)
        if figure is not None:
            out.append((label, figure, rows[0][0], rows[-1][0], len(rows)))
    return out


# ---------------------------------------------------------------- amounts in won, as written


def fmt_krw(x: float, to: str = "억", lang: str = "ko") -> str:
    """A KRW amount as an analyst writes it, signed: 'N조 M억 원', or to 만 won (`to="만"`: an
    apartment's '32억 100만 원', '5,000만 원'); 'KRW 258.94 trillion' in English. Builtins only
    (the ETF sandbox inlines it with its renderers)."""
    sign, x = ("-" if x < 0 else ""), abs(x)
    if lang != "ko":
        return f"{sign}KRW {x / 1e12:,.2f} trillion"
    big, small = ("조", "억") if to == "억" or x >= 1e12 else ("억", "만")
    step = 1e8 if small == "억" else 1e4  # the smallest unit written, and 10,000 of it the next
    high, low = divmod(round(x / step), 10_000)
    text = (f"{high:,}{big} " if high else "") + (f"{low:,}{small} " if low or not high else "")
    return f"{sign}{text}원"
