"""One statistic over one window of one series, the same on every screen (issue 31): what a
frame asks ('10거래일 평균 종가', '20일 이동평균', '최근 6개월 최고치와 최저치 차이') and the
sentence that answers it. The figure itself comes from `data_access.figures.window_statistic`.

    ask = window_ask(frame)            # WindowAsk(window=Window(10, 'session'), stat='avg', …)
    f = fig.window_statistic(points, ask.window, ask.stat)
    describe("SK하이닉스 종가", ask, f, won, "ko")
    # 'SK하이닉스 종가 최근 10거래일(2026-11-09 ~ 2026-11-20, 관측치 10개) 평균: 341,200원.'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date

from agents.understanding.frame import (
    DAY_OF_MOVE,
    HOUSING_MEASURES,
    MONTH_OF_MOVE,
    STAT_WORDS_KO,
    QuestionFrame,
)
from agents.understanding.windows import WindowRead
from agents.verdict import asked_bar
from data_access import figures as fig
from data_access.seed.news_text import josa

_PERIOD_WINDOWS = {"1w": (1, "week"), "1m": (1, "month"), "3m": (3, "month"),
                   "6m": (6, "month"), "1y": (1, "year")}  # fmt: skip
# over a calendar period these have their own definitions (figures.period_return, the
# screens' volatility lines): the window reader takes them only in sessions, days and weeks
_PERIOD_STATS = frozenset({"return", "change", "volatility"})
# the price tool's calendar windows (a model may ask for them), by their names
_NAMED = {"prev_week": ("지난주", "last week"), "prev_month": ("지난달", "last month"),
          "this_week": ("이번 주", "this week"), "this_month": ("이번 달", "this month"),
          "this_year": ("연초 이후", "year to date")}  # fmt: skip
_KO = {**STAT_WORDS_KO, "volatility": "연환산 변동성", "drawdown": "최대 낙폭",  # per year
       "max_move": "가장 크게 오른 날", "min_move": "가장 크게 내린 날"}  # fmt: skip
_EN = {"avg": "average", "moving_average": "moving average", "sum": "total", "max": "high",
       "min": "low", "range": "high-low range", "extremes": "high and low", "return": "return",
       "change": "change", "volatility": "annualized volatility",
       "std": "standard deviation", "up_days": "up sessions", "down_days": "down sessions",
       "days_above": "days above", "days_at_least": "days at or above",
       "days_below": "days below", "days_at_most": "days at or below",
       "drawdown": "maximum drawdown", "max_move": "largest one-day rise",
       "min_move": "largest one-day fall"}  # fmt: skip
_BAR_KO = {
    "days_above": "초과",
    "days_at_least": "이상",
    "days_below": "미만",
    "days_at_most": "이하",
}


@dataclass(frozen=True)
class WindowAsk:
    window: fig.Window
    stat: str
    field: str | None
    label_ko: str
    label_en: str
    threshold: float | None = None  # '3% 이상 오른 날': the daily move (%) a day must reach
    ever: bool = False  # '넘은 적 있어?': the days over a bar lead with a yes or no
    past: bool = False  # a span that has ended ('작년'): its last value is no latest one
    now: tuple[date, float] | None = None  # '지금과 작년 최고치': the latest value, read against it

    def label(self, lang: str) -> str:
        return self.label_ko if lang == "ko" else self.label_en


def window_ask(frame: QuestionFrame) -> WindowAsk | None:
    """The window statistic the frame asks of one series, or None (the screen's own paths)."""
    ask = _window_ask(frame)
    op = frame.operation
    if ask is not None and ask.stat in ("up_days", "down_days") and op.threshold_unit == "억":
        return None  # '25만원 밑으로 떨어진 날 며칠?': the days below a price, not the down days
    if (
        ask is not None
        and ask.stat in ("up_days", "down_days")
        and op.threshold is not None
        and (op.threshold_unit == "%")
    ):  # '3% 이상 오른 날 며칠?': the days that moved at least that much
        ask = replace(ask, threshold=abs(op.threshold))
    return ask


_SET_KINDS = frozenset({"tag", "manager", "sector"})


def _window_ask(frame: QuestionFrame) -> WindowAsk | None:
    stat, w, op, field = frame.statistic, frame.window, frame.operation, frame.stat_field
    subjects = [e for e in frame.entities if e.kind in ("stock", "etf", "index", "series")]
    if stat in ("avg", "sum") and frame.measure() == "return" and len(subjects) >= 2:
        return None  # '삼성전자 SK하이닉스 1년 수익률 평균': the returns averaged, not a window's
    if stat is None and w is not None and op.kind == "aggregate" and op.aggregate in ("max", "min"):
        # '최근 12개월 중 가장 높았던 달': the window's extreme of a named series, not of a set
        named = frame.entities and not any(e.kind in _SET_KINDS for e in frame.entities)
        # levels only: the day of a move or of a volume is the screens' own (its size beside)
        levels = frame.measure() in (None, "value", "close", "high", "low", *HOUSING_MEASURES)
        stat = op.aggregate if named and levels and frame.relation is None else None
        if stat is not None and field is None and frame.measure() in ("high", "low"):
            field = frame.measure()  # '52주 신고가': the highs' maximum
    if stat in ("max", "min") and DAY_OF_MOVE in frame.notes:
        return None  # '10거래일 중 최대 상승일': the day of the largest move (not '상승률 최고치')
    if stat is None:
        return None
    if w is not None:
        if stat in _PERIOD_STATS and (
            w.unit in ("month", "quarter", "year") or frame.window_is_period()
        ):
            return None  # '1주 수익률' is the 1w period return every screen shows
        return WindowAsk(fig.Window(w.n, w.unit), stat, field, w.label("ko"),
                         w.label("en"))  # fmt: skip
    period = frame.period
    # '서울 성동구 주택가격지수 고점 대비 하락률' with no window: over a year, as the series'
    # period (a stock's or fund's '고점' is its own screen's 52-week high)
    unsaid = (
        stat in ("max", "min") and not frame.span and not (frame.of("stock") or frame.of("etf"))
    )
    label = period.label if period else "1y" if unsaid else None
    if stat in _PERIOD_STATS or stat == "moving_average" or label is None:
        return None
    if (
        label == "1d" and period is not None and stat in ("max", "min", "range", "extremes")
    ):  # '오늘 (장중) 최고가':
        return WindowAsk(fig.Window(1, "session"), stat, frame.stat_field, period.surface,
                         "the day")  # the last session's own high or low  # fmt: skip
    if label == "ytd" and frame.span is None:  # '연초 이후 최고가': from the year's start
        return WindowAsk(fig.Window(1, "this_year"), stat, frame.stat_field, "연초 이후",
                         "year to date")  # fmt: skip
    if label not in _PERIOD_WINDOWS:
        return None
    n, unit = _PERIOD_WINDOWS[label]
    words = {"week": ("주", "week"), "month": ("개월", "month"), "year": ("년", "year")}[unit]
    return WindowAsk(fig.Window(n, unit), stat, frame.stat_field, f"최근 {n}{words[0]}",
                     f"last {n} {words[1]}{'s' if n > 1 else ''}")  # fmt: skip


def asked_period(frame: QuestionFrame | None) -> fig.Period:
    """The period a question asks ('2년', '올해', '6개월'), a year unless said."""
    period = frame.period if frame else None
    return fig.period_named(period.label, period.months) if period else fig.PERIODS["1y"]


def window_labels(window: fig.Window) -> tuple[str, str]:
    """'최근 10거래일' / 'last 10 sessions'; a calendar week, month or year to date by its name
    ('지난달', '연초 이후')."""
    if window.unit in _NAMED:
        return _NAMED[window.unit]
    read = WindowRead(n=window.n, unit=window.unit, surface="", start=0, end=0)  # type: ignore[arg-type]
    return read.label("ko"), read.label("en")


def mark_used(frame: QuestionFrame) -> None:
    """The screen computed over the window: coverage counts its words as read."""
    if frame.window is not None:
        frame.window.used = True


def describe(name: str, ask: WindowAsk, f: fig.WindowFigure, fmt: Callable[[float], str],
             lang: str, *, rate: bool = False) -> str:  # fmt: skip
    """One sentence: what, over which window (its dates and observation count), the figure."""
    ko = lang == "ko"
    span = (f"{ask.label_ko}({f.first} ~ {f.last}, 관측치 {f.count}개)" if ko
            else f"{ask.label_en} ({f.first} to {f.last}, {f.count} observations)")  # fmt: skip
    if f.stat in fig.BAR_DAYS:
        return _bar_days(name, span, ask, f, fmt, ko)
    word = _KO[f.stat] if ko else _EN[f.stat]
    if f.value is None:
        return f"{name} {span} {word}: 계산할 수 없습니다." if ko else f"{name} {span} {word}: n/a."
    if f.stat in ("max", "min"):
        body = f"{fmt(f.value)} ({f.at})" if ko else f"{fmt(f.value)} on {f.at}"
        body += _from_the_extreme(f, fmt, rate, ko, ask)
    elif f.stat == "range" and f.high and f.low:  # a width: never negative, so no sign
        width = f"{f.value:.2f}%p ({f.value * 100:,.0f}bp)" if rate else fmt(f.value)
        if not rate and f.low[1]:  # the width as a share of the low too ('몇 %야?')
            share = f.value / f.low[1] * 100
            width += f", 최저치 대비 {share:.2f}%" if ko else f", {share:.2f}% of the low"
        body = (f"{width} (최고 {fmt(f.high[1])} {f.high[0]}, 최저 "
                f"{fmt(f.low[1])} {f.low[0]})" if ko else f"{width} (high "
                f"{fmt(f.high[1])} on {f.high[0]}, low {fmt(f.low[1])} on {f.low[0]})")  # fmt: skip
    elif f.stat == "return" and f.base:
        body = f"{f.value:+.2f}% ({fmt(f.base[1])} {f.base[0]} → {fmt(f.latest)} {f.last})"
    elif f.stat == "change" and f.base:
        body = f"{_signed(f.value, fmt, rate)} ({fmt(f.base[1])} {f.base[0]} → {fmt(f.latest)} {f.last})"
    elif f.stat == "drawdown" and f.high and f.low:  # closes from a running high
        body = (f"{f.value:.2f}% (고점 {f.high[0]} → 저점 {f.low[0]})" if ko
                else f"{f.value:.2f}% (peak {f.high[0]} → trough {f.low[0]})")  # fmt: skip
    elif f.stat in ("max_move", "min_move") and f.base and f.at:  # the day against the one before
        (day, before), unit = f.base, "%p" if rate else "%"
        after = before + f.value if rate else before * (1 + f.value / 100)
        closes = ("종가 " if ko else "close ") if ask.field == "close" else ""  # a rate: none
        at = str(f.at)  # a monthly series (CPI) moves month to month: its month is said
        if (date.fromisoformat(at[:10]) - date.fromisoformat(str(day)[:10])).days >= 25:
            word, at = word.replace("날", "달").replace("one-day", "one-month"), at[:7]
        body = f"{at} {f.value:+.2f}{unit} ({closes}{fmt(before)} ({day}) → {fmt(after)})"
    elif f.stat == "extremes" and f.high and f.low:
        body = (f"최고 {fmt(f.high[1])} ({f.high[0]}), 최저 {fmt(f.low[1])} ({f.low[0]})" if ko
                else f"high {fmt(f.high[1])} on {f.high[0]}, low {fmt(f.low[1])} on {f.low[0]}")  # fmt: skip
    elif f.stat == "volatility":
        unit = "%p" if rate else "%"
        moves = ("일간 변화" if rate else "일간 수익률") if ko else ""  # a rate moves in %p
        body = f"{f.value:.2f}{unit} ({f'{moves} 표준편차 × √252' if ko else 'stdev × √252'})"
    elif f.stat in ("up_days", "down_days"):
        by = (f"{ask.threshold:g}% 이상, " if ko else f"by {ask.threshold:g}% or more, ") if (
            ask.threshold) else ""  # fmt: skip
        monthly = _monthly(f)  # a policy rate or CPI moves once a month: its months are counted
        if monthly:
            word = word.replace("날", "달") if ko else word.replace("sessions", "months")
        body = (f"{f.value:.0f}{'번' if monthly else '일'} ({by}{'전월' if monthly else '전 거래일'} "
                f"대비, {f.count}개 중)" if ko else f"{f.value:.0f} of {f.count} ({by}against "
                f"the {'month' if monthly else 'session'} before)")  # fmt: skip
    elif f.stat in ("moving_average", "avg"):  # read against the latest, as a chart shows it
        body = fmt(f.value) + _from_the_extreme(f, fmt, rate, ko, ask)
    else:
        body = fmt(f.value)
    if ko:
        return f"{name} {span} {word}: {body}."
    said = name if name.lower().endswith(" " + word.lower()) else f"{name} {word}"  # 'its high'
    return f"{said}, {span}: {body}."


def _bar_days(name: str, span: str, ask: WindowAsk, f: fig.WindowFigure,
              fmt: Callable[[float], str], ko: bool) -> str:  # fmt: skip
    """'KODEX 200 종가 최근 3개월(…) 중 60,000원 초과: 8일 — 처음 …, 마지막 …': the days that met
    the bar, counted, with the first and last of them (asked 'ever', the yes or no first)."""
    n, bar = int(f.value or 0), fmt(float(ask.threshold or 0))
    monthly = _monthly(f)  # a policy rate or CPI: its months are counted, not days
    lead = (
        (("예 — " if n else "아니요 — ") if ko else ("Yes — " if n else "No — "))
        if ask.ever
        else ""
    )
    if ko:
        found = (f"{n}{'번' if monthly else '일'} — 처음 {f.hits[0][0]} ({fmt(f.hits[0][1])}), 마지막 {f.hits[-1][0]} "
                 f"({fmt(f.hits[-1][1])})" if n else "없음")  # fmt: skip
        return f"{lead}{name} {span} 중 {bar} {_BAR_KO[f.stat]}: {found}."
    found = (f"{n}, first on {f.hits[0][0]} ({fmt(f.hits[0][1])}), last on {f.hits[-1][0]} "
             f"({fmt(f.hits[-1][1])})" if n else "none")  # fmt: skip
    word = _EN[f.stat].replace("days", "months") if monthly else _EN[f.stat]
    return f"{lead}{name}, {span}, {word} {bar}: {found}."


BAR_STATS = {v: k for k, v in fig.BAR_DAYS.items()}


def bar_days_ask(frame: QuestionFrame, days_asked: bool, ever: bool) -> WindowAsk | None:
    """'KODEX 200 6만원 넘은 날 최근 3개월 며칠?': the days of the window (or period said) that
    met the bar, when the days were asked (`days_asked`: '며칠', '적 있어?', '넘은 날')."""
    op, w = frame.operation, frame.window
    if (
        op.kind != "filter"
        or op.comparator not in BAR_STATS
        or op.threshold is None
        or not days_asked
    ):
        return None
    label, span = frame.period.label if frame.period else "1y", frame.span
    if w is not None:
        window, labels = fig.Window(w.n, w.unit), (w.label("ko"), w.label("en"))
    elif span is not None and frame.as_of_date and span.last >= frame.as_of_date:
        # '올해 있어?': the running span's days, up to the latest (a window of days back)
        days = (date.fromisoformat(frame.as_of_date) - date.fromisoformat(span.first)).days + 1
        window, labels = fig.Window(days, "day"), (span.label_ko, span.label_en)
    elif label in _PERIOD_WINDOWS and frame.span is None:  # a year unless a period was said
        n, unit = _PERIOD_WINDOWS[label]
        window = fig.Window(n * 12, "month") if unit == "year" else fig.Window(n, unit)  # type: ignore[arg-type]
        labels = ("최근 1년", "last year") if unit == "year" else window_labels(window)
    else:
        return None
    comparator, bar = asked_bar(frame, op.filter_measure or "close") or (
        op.comparator,
        op.threshold,
    )
    return WindowAsk(window, BAR_STATS[comparator], frame.stat_field, *labels, threshold=bar,
                     ever=ever)  # fmt: skip


def _monthly(f: fig.WindowFigure) -> bool:
    """Observations a month apart (a policy rate, CPI, housing counts), not daily sessions."""
    first, last = (date.fromisoformat(str(d)[:10]) for d in (f.first, f.last))
    return f.count > 1 and (last - first).days / (f.count - 1) >= 25


def _from_the_extreme(f: fig.WindowFigure, fmt: Callable[[float], str], rate: bool,
                      ko: bool, ask: WindowAsk) -> str:  # fmt: skip
    """'고점 대비', '이동평균 대비': the latest value's distance from the window's high, low or
    moving average (%p for a rate); after a span that has ended, the span's last close."""
    if f.value is None or (not rate and not f.value):
        return ""
    closes = ask.field in (None, "close", "high", "low")
    last = (("기간 마지막 종가", "the span's last close") if closes else
            ("기간 마지막 값", "the span's last value")) if ask.past and not ask.now else ("최근 값", "the latest")  # fmt: skip
    day, latest = ask.now or (f.last, f.latest)
    if f.at == day:  # '고점 대비 하락률' at the high itself: no way down from it
        return f"; {josa(last[0], '이/가')} 그 값입니다" if ko else f"; {last[1]} is that value"
    gap = gap_text(latest, f.value, fmt, rate)
    return (f"; {last[0]} {fmt(latest)}({day})은 그 대비 {gap}" if ko
            else f"; {last[1]}, {fmt(latest)} on {day}, is {gap} from it")  # fmt: skip


def gap_text(latest: float, base: float, fmt: Callable[[float], str], rate: bool) -> str:
    """The latest value against a base (a high, an average): %p for a rate, else the
    difference in the series' unit and the ratio ('-570.66 (-12.43%)')."""
    if rate:
        return f"{latest - base:+.2f}%p"
    return f"{_signed(latest - base, fmt, rate)} ({(latest / base - 1) * 100:+.2f}%)"


def _signed(value: float, fmt: Callable[[float], str], rate: bool) -> str:
    """A difference: %p for a rate, the series' own unit otherwise."""
    if rate:
        return f"{value:+.2f}%p"
    text = fmt(abs(value))
    return f"+{text}" if value >= 0 else f"-{text}"


PER_COUNT = {"month": 12, "quarter": 4, "year": 3}  # periods shown (the newest)


_UNIT_MONTHS = {"month": 1, "quarter": 3, "year": 12}


def per_period_count(frame: QuestionFrame | None, unit: str) -> int:
    """How many periods to show: as many as the window or period asked holds ('월별 추이 최근
    6개월' → 6, '분기별 최근 4분기' → 4), else the newest PER_COUNT."""
    w = frame.window if frame else None
    months = (w.n * _UNIT_MONTHS[w.unit] if w is not None and w.unit in _UNIT_MONTHS
              else frame.period.months if frame and frame.period else None)  # fmt: skip
    return max(1, round(months / _UNIT_MONTHS[unit])) if months else PER_COUNT[unit]


def per_period_months(unit: str, count: int | None = None) -> int:
    """Months of data a per-period answer needs: the periods shown, the one before them (the
    first one's base) and a month of slack."""
    return _UNIT_MONTHS[unit] * ((count or PER_COUNT[unit]) + 1) + 1


def period_pick(frame: QuestionFrame) -> str | None:
    """'max' or 'min' when the question asks the period of the largest rise or fall."""
    return next((n.removeprefix(MONTH_OF_MOVE) for n in frame.notes
                 if n.startswith(MONTH_OF_MOVE)), None)  # fmt: skip


def per_period_text(name: str, unit: str, stat: str, rows: list, shown: list, lang: str,
                    pick: str | None = None) -> str:  # fmt: skip
    """'KODEX 200 분기별 수익률: 2026년 1분기 +3.20% (01-02 ~ 03-31), …' — `rows` from
    figures.per_period, `shown` their values as written; with `pick` ('max'/'min'), the period
    of the largest figure first ('가장 많이 오른 달'); pure Python (the ETF sandbox runs it)."""
    ko = lang == "ko"
    words = {"return": ("수익률", "return"), "avg": ("평균", "average"), "sum": ("합계", "total"),
             "max": ("최고치", "high"), "min": ("최저치", "low")}[stat]  # fmt: skip
    per = {"month": ("월별", "monthly"), "quarter": ("분기별", "quarterly"),
           "year": ("연도별", "yearly")}[unit]  # fmt: skip
    parts = []
    for row, text in zip(rows, shown, strict=False):
        label = row[0]
        if ko and unit == "quarter":
            label = label[:4] + "년 " + label[5:] + "분기"
        elif ko and unit == "year":
            label = label + "년"
        parts.append(f"{label} {text} ({row[2][5:]} ~ {row[3][5:]})")
    if not parts:
        return (f"{name}: {per[0]} {words[0]} 계산에 필요한 관측치가 부족합니다." if ko
                else f"{name}: too few observations for {per[1]} figures.")  # fmt: skip
    head = f"{name} {per[0]} {words[0]}" if ko else f"{name} {per[1]} {words[1]}"
    lead = ""
    best = -1  # the sandbox's interpreter runs this: a plain scan, no key functions
    for i, row in enumerate(rows):
        if row[1] is not None and pick in ("max", "min") and (best < 0 or (
                row[1] > rows[best][1] if pick == "max" else row[1] < rows[best][1])):  # fmt: skip
            best = i
    if best >= 0:
        said = ("가장 크게 오른", "the best") if pick == "max" else ("가장 크게 내린", "the worst")
        if stat != "return":  # '평균이 가장 높은 달'
            said = (f"{words[0]}이 가장 {'높은' if pick == 'max' else '낮은'}",
                    f"the {'highest' if pick == 'max' else 'lowest'} {words[1]}")  # fmt: skip
        span = {"month": ("개월", "months"), "quarter": ("개 분기", "quarters"),
                "year": ("년", "years")}[unit]  # fmt: skip
        one = {"month": ("달", "month"), "quarter": ("분기", "quarter"), "year": ("해", "year")}[
            unit
        ]
        lead = (f"{name} 최근 {len(rows)}{span[0]} 중 {said[0]} {one[0]}: {parts[best]}. " if ko
                else f"{name}: {said[1]} {one[1]} of the last {len(rows)} {span[1]} was "
                f"{parts[best]}. ")  # fmt: skip
    return lead + head + ": " + ", ".join(parts) + "."


PER_READ = ("월", "분기", "연도", "년", "별", "monthly", "quarterly", "yearly", "annual")


def per_period_stat(frame: QuestionFrame) -> str:
    """The statistic asked per period: a mean, total, high or low, else the period's return."""
    asked = frame.statistic or frame.operation.aggregate
    return asked if asked in ("avg", "sum", "max", "min") else "return"
