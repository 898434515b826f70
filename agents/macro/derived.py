"""Values derived from the series an agent fetched, as the question frame asks: the difference
or spread of two series, the max/min over the window, year-over-year and month-over-month
changes. Pure functions over `Series` points, so every input is a cited series of the turn.

    difference(fed, bok, "ko")  # "격차(미국 연방기금 실효금리 − 한국은행 기준금리): +0.81%p …"
"""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Callable
from dataclasses import replace
from datetime import date

from dateutil.relativedelta import relativedelta

from agents.macro.conflicts import ORDER
from agents.macro.deals import level, price_band
from agents.macro.state import AgentResponse, Series
from agents.understanding import QuestionFrame
from agents.understanding.coverage import UNAPPLIED, mark_read, pick_direction
from agents.understanding.frame import (
    DAY_OF_MOVE,
    SPAN_AND_NOW,
    STAT_WORDS_KO,
    CalendarSpan,
    Period,
)
from agents.understanding.morphemes import analyse
from agents.understanding.parse import AT_EXTREME, RATIO, asked_move
from agents.understanding.vocabulary import find_phrases, vocabulary
from agents.understanding.windows import DAYS_ASKED, EVER, WindowRead, read_window
from agents.verdict import meets, verdict
from agents.window_answer import (
    BAR_STATS,
    PER_COUNT,
    PER_READ,
    WindowAsk,
    asked_period,
    describe,
    gap_text,
    mark_used,
    per_period_count,
    per_period_stat,
    per_period_text,
    period_pick,
    window_ask,
    window_labels,
)
from data_access import figures as fig
from data_access.market_series import VOCABULARY_KEYS, is_rate_unit
from data_access.seed.news_text import josa

DEALS = "re_transactions_monthly"  # monthly medians: averaging them is not the mean deal


def is_rate(series: Series) -> bool:
    return is_rate_unit(series.unit)


def signed(delta: float, unit: str) -> str:
    """A move in its series' unit: a rate's in %p, a level's signed in the level's unit."""
    if is_rate_unit(unit):
        return f"{delta:+.2f}%p"
    return ("+" if delta >= 0 else "-") + level(abs(delta), unit)


def _value(v: float, series: Series) -> str:
    """A value in its series' unit: rates in %, prices in 억 원, counts of homes and deals."""
    return level(v, series.unit)


def _name(series: Series) -> str:
    return series.title.split(" (")[0]


def difference(a: Series, b: Series, lang: str, since: bool = False,
               back: str | None = None) -> str | None:  # fmt: skip
    """Latest A − B (%p when both are rates), with each value's date; with `since`, also the
    gap on the window's first common date (a period `back` before the last one: '1년 전보다') and
    how it moved, its size included ('차이가 커졌어?')."""
    if not a.points or not b.points:
        return None
    (da, va), (db, vb) = a.points[-1], b.points[-1]
    d = va - vb
    unit = "%p" if is_rate(a) and is_rate(b) else ""
    counted = not unit and a.unit == b.unit  # '서울 미분양 − 경기 미분양': 호, not 7,857.00
    size = _value(abs(d), a) if counted else f"{abs(d):,.2f}{unit}"
    # '몇 bp야?': interest-rate gaps in bp too (a 19%p gap of two ratios is no bp figure)
    diff = (("+" if d >= 0 else "-") + size if counted else f"{d:+,.2f}{unit}") + (
        f" ({d * 100:+,.0f}bp)" if unit and abs(d) < 5 else ""
    )
    if since:
        start = _gap_at_start(a, b, back)
        if start is not None:
            day, d0 = start
            widened = "확대" if abs(d) > abs(d0) else "축소" if abs(d) < abs(d0) else "같음"
            if lang == "ko":
                diff += (f" ({day} {d0:+,.2f}{unit}에서 {d - d0:+,.2f}{unit} 변화, 격차의 크기 "
                         f"{abs(d0):,.2f} → {abs(d):,.2f}{unit} {widened})")  # fmt: skip
            else:
                word = {"확대": "wider", "축소": "narrower", "같음": "unchanged"}[widened]
                diff += (f" (from {d0:+,.2f}{unit} on {day}, a change of {d - d0:+,.2f}{unit}; "
                         f"the gap is {word})")  # fmt: skip
    head = "격차" if lang == "ko" else "Gap "  # the rest is written alike in both languages
    return (f"{head}({_name(a)} − {_name(b)}): {diff} — {_name(a)} {_value(va, a)} ({da}), "
            f"{_name(b)} {_value(vb, b)} ({db}). {_which_higher(a, b, d, size, lang)}")  # fmt: skip


def ratio_of(a: Series, b: Series, lang: str) -> str | None:
    """A's latest value as a multiple of B's, each on its own last date."""
    if not a.points or not b.points or not b.points[-1][1]:
        return None
    (da, va), (db, vb) = a.points[-1], b.points[-1]
    ratio = va / vb  # said as a multiple and as a percent ('몇 배', '몇 %')
    if lang == "ko":
        return (f"{josa(_name(a), '은/는')} {_name(b)}의 {ratio:,.2f}배({ratio * 100:,.2f}%) — "
                f"{_name(a)} {_value(va, a)} ({da}), {_name(b)} {_value(vb, b)} ({db}).")  # fmt: skip
    return (f"{_name(a)} is {ratio:,.2f}x ({ratio * 100:,.2f}%) {_name(b)} — {_value(va, a)} "
            f"({da}) vs {_value(vb, b)} ({db}).")  # fmt: skip


def _growth_series(series: Series) -> bool:
    """A price index read by its growth (CPI): a gap of two of them is a gap of their rates."""
    spec = next((x for x in vocabulary()["series"] if x["code"] == series.key), None)
    return bool(spec and spec.get("growth_basis") == "yoy")


_LEVELS_APART = ("The index levels have different bases and are not subtracted.",
                 "지수 수준은 기준연도가 달라 빼지 않았습니다.")  # fmt: skip


def _which_higher(a: Series, b: Series, d: float, shown: str, lang: str) -> str:
    """The gap in words, whichever way round it was asked ('미국 실업률이 한국 실업률보다 1.90%p
    높습니다'), so a negative A − B needs no second reading."""
    if round(d, 2) == 0:
        return "두 값이 같습니다." if lang == "ko" else "The two are equal."
    high, low = (a, b) if d > 0 else (b, a)
    if lang == "ko":
        more = "많습니다" if shown.endswith(("호", "건")) else "높습니다"  # counts
        return f"{josa(_name(high), '이/가')} {_name(low)}보다 {shown} {more}."
    return f"{_name(high)} is {shown} above {_name(low)}."


def _gap_at_start(a: Series, b: Series, back: str | None = None) -> tuple[str, float] | None:
    """A − B on the first date both series have in the window, or on the last common date a
    period `back` ('1y', '1m') before their last one (a window widened for a YoY base starts
    earlier)."""
    gaps = gap_series(a, b)
    return (_from_base(gaps, back) if back else gaps).points[0] if gaps.points else None


def gap_series(a: Series, b: Series) -> Series:
    """A − B on every date both series have ('장단기 금리차' as a series of its own); a monthly
    series beside a daily one ('미국 2년물 − 한국 기준금리') on the monthly dates, the daily
    series as of each (its last value on or before it), not on the few 1sts that are sessions."""
    unit = "%p" if is_rate(a) and is_rate(b) else a.unit
    sparse = a if len(a.points) <= len(b.points) else b
    if len(sparse.points) * 2 < len(a.points) + len(b.points) - len(sparse.points):
        days = [day for day, _ in sparse.points]
        pairs = [(day, x, y) for day in days
                 if (x := _as_of(a, day)) is not None and (y := _as_of(b, day)) is not None]  # fmt: skip
    else:
        values_b = dict(b.points)
        pairs = [(day, x, values_b[day]) for day, x in a.points if day in values_b]
    return Series(key=f"{a.key}-{b.key}", title=f"{_name(a)} − {_name(b)}", unit=unit,
                  points=[(day, x - y) for day, x, y in pairs])  # fmt: skip


def _as_of(series: Series, day: str) -> float | None:
    """The series' last value on or before `day` (ISO dates sort as text)."""
    held = [v for d, v in series.points if d[:10] <= day[:10]]
    return held[-1] if held else None


def correlation(a: Series, b: Series, lang: str) -> str | None:
    """Pearson correlation of the two series' changes between common dates over the window
    (levels trend together by construction; their moves say whether they move together)."""
    values_b = dict(b.points)
    common = [(day, v, values_b[day]) for day, v in a.points if day in values_b]
    da = [y - x for (_, x, _), (_, y, _) in zip(common, common[1:], strict=False)]
    db = [y - x for (_, _, x), (_, _, y) in zip(common, common[1:], strict=False)]
    if len(da) < 10 or not statistics.pstdev(da) or not statistics.pstdev(db):
        return None
    r = statistics.correlation(da, db)
    first, last = common[0][0], common[-1][0]
    if lang == "ko":
        return (f"{josa(_name(a), '과/와')} {_name(b)}의 변화 상관계수 {r:+.2f} ({first} ~ {last}, 공통 관측 "
                f"{len(common)}개의 전기 대비 변화 기준; 상관은 인과가 아닙니다).")  # fmt: skip
    return (f"Correlation of the changes of {_name(a)} and {_name(b)}: {r:+.2f} ({first} to "
            f"{last}, {len(common)} common observations; correlation is not causation).")  # fmt: skip


_EXTREME_WORDS = {"max": ("최고치", "high"), "min": ("최저치", "low"),
                  "up": ("최대 상승일", "biggest one-day rise"),
                  "down": ("최대 하락일", "biggest one-day fall")}  # fmt: skip


def months_stat(series: Series, stat: str, months: int, lang: str) -> str:
    """The max, min or mean of the last `months` months, worded as every screen words a window
    statistic (window_answer.describe)."""
    window = fig.Window(months, "month")
    return window_point(series, WindowAsk(window, stat, None, *window_labels(window)), lang)


def at_extreme(series: list[Series], key: str, side: str, moved: bool = False, now: bool = False,
               rate: bool = False, *, months: int, lang: str) -> list[str]:  # fmt: skip
    """The day series `key` was at its window's max (min), then each other series on that day
    (its last observation on or before it); `now`: that value against the other's latest."""
    code = VOCABULARY_KEYS.get(key, key)  # an index is fetched by its market series ('^KS11')
    anchor = next((s for s in series if s.key in (key, code)), None)
    if anchor is None:
        return []
    if rate and _growth_series(anchor):  # 'CPI 상승률이 가장 높았던 달': its YoY rate's extreme
        series = [yoy_series(anchor) if s is anchor else s for s in series]
        anchor = series[[s.key for s in series].index(f"{anchor.key}:yoy")]
    moves = side in ("up", "down")  # '가장 많이 떨어진 날': the largest one-day move (in %)
    points = [(date.fromisoformat(str(d)[:10]), float(v)) for d, v in anchor.points]
    window = fig.Window(len(points) - 1, "session") if moves else fig.Window(months, "month")
    stat = {"up": "max_move", "down": "min_move"}.get(side, side)
    got = fig.window_statistic(points, window, stat)
    if got is None or got.value is None or got.at is None:
        return []
    day, shown = got.at.isoformat(), f"{got.value:+.2f}%" if moves else _value(got.value, anchor)
    word = _EXTREME_WORDS[side]
    when = (f"{_name(anchor)} 최근 {months}개월 {word[0]} {shown} ({day})" if lang == "ko"
            else f"{_name(anchor)}'s {months}-month {word[1]} {shown} ({day})")  # fmt: skip
    lines = []
    for other in (s for s in series if s is not anchor):
        if moved and _growth_series(other):  # '… 달 물가 상승률': that month's YoY rate, not a move
            other, moved_here = yoy_series(other), False
        else:
            moved_here = moved
        seen = [p for p in other.points if str(p[0])[:10] <= day]
        if not seen or (moved_here and len(seen) < 2):
            continue
        at, value = str(seen[-1][0])[:10], float(seen[-1][1])
        shown_other = _value(value, other)
        if moved_here:  # its one-day move on that day (from the observation before)
            shown_other = f"{(value / float(seen[-2][1]) - 1) * 100:+.2f}% ({shown_other})"
        since = _since_then(other, value, lang) if now else ""
        lines.append(f"{when} 시점의 {_name(other)}{' 일간 수익률' if moved_here else ''}: {shown_other} "
                     f"({at} 관측){since}." if lang == "ko" else f"{_name(other)}"
                     f"{' one-day return' if moved_here else ''} at {when}: {shown_other} (observed {at}){since}.")  # fmt: skip
    return lines


def _since_then(series: Series, then: float, lang: str) -> str:
    """', 지금 1,445.00원 (2026-11-20)은 그 대비 +27.80원 (+1.96%)': the latest against a past value."""
    day, value = str(series.points[-1][0])[:10], float(series.points[-1][1])
    rate = is_rate(series)
    moved = gap_text(value, then, lambda v: _value(v, series), rate) if rate or then else ""
    if lang == "ko":
        return f"; 지금 {_value(value, series)} ({day}), 그날 대비 {moved}"
    return f"; now {_value(value, series)} ({day}), {moved} since"


def _over_window(series: Series, window: fig.Window, stat: str,
                 threshold: float | None = None) -> fig.WindowFigure | None:  # fmt: skip
    """One statistic of the fetched points over a window (data_access.figures: '최근 12개월'
    holds 12 monthly observations, not the 13 a fetch from a year back returns)."""
    points = [(date.fromisoformat(str(d)[:10]), float(v)) for d, v in series.points]
    return fig.window_statistic(points, window, stat, rate=is_rate(series), threshold=threshold)


_TWO_WINDOW_STATS = ("avg", "sum", "max", "min")


def two_windows(series: Series, ask: WindowAsk, other: Period, frame: QuestionFrame,
                lang: str) -> str:  # fmt: skip
    """'최근 3개월 평균과 1년 평균 차이': the same statistic over two windows and their gap."""
    second = fig.Window(int(other.months // 12), "year") if other.months % 12 == 0 else (
        fig.Window(max(1, round(other.months)), "month"))  # fmt: skip
    a, b = _over_window(series, ask.window, ask.stat), _over_window(series, second, ask.stat)
    if a is None or b is None or a.value is None or b.value is None:
        return f"{_name(series)}: 두 기간의 관측치가 부족합니다." if lang == "ko" else (
            f"{_name(series)}: too few observations for both windows.")  # fmt: skip
    mark_read(frame, *[t.form for t in analyse(other.surface)])
    word = STAT_WORDS_KO.get(ask.stat, ask.stat)
    said = [(ask.label_ko, ask.label_en, a), (other.surface, other.label, b)]
    parts = ", ".join(f"{ko} {word} {_value(f.value or 0.0, series)} ({f.first} ~ {f.last})"
                      if lang == "ko" else f"{en} {ask.stat} {_value(f.value or 0.0, series)}"
                      for ko, en, f in said)  # fmt: skip
    gap = signed((a.value or 0.0) - (b.value or 0.0), series.unit)
    return (f"{_name(series)} {parts}: 차이 {gap} ({ask.label_ko} − {other.surface})" if lang == "ko"
            else f"{_name(series)} {parts}: gap {gap}")  # fmt: skip


def larger_volatility(a: Series, b: Series, lang: str) -> str | None:
    """'코스피와 코스닥 중 변동성 더 큰 쪽': the annualized volatility of all the fetched points of
    each (the window statistic: of daily returns, of a rate's daily changes in %p), the larger
    named."""
    if is_rate(a) != is_rate(b) or not (_daily(a) and _daily(b)):
        return None
    got = [(s, _over_window(s, fig.Window(len(s.points) - 1, "session"), "volatility"))
           for s in (a, b) if len(s.points) >= 3]  # fmt: skip
    sigmas = sorted(((s, f.value) for s, f in got if f and f.value is not None),
                    key=lambda p: -p[1])  # fmt: skip
    if len(sigmas) < 2:
        return None
    (big, hi), (small, lo), unit = *sigmas, "%p" if is_rate(a) else "%"
    if lang == "ko":
        return (f"변동성 비교: {josa(_name(big), '이/가')} 연환산 {hi:.2f}{unit}로 "
                f"{_name(small)}({lo:.2f}{unit})보다 큽니다.")  # fmt: skip
    return (f"Volatility: {_name(big)} {hi:.2f}{unit} annualized, above {_name(small)} "
            f"({lo:.2f}{unit}).")  # fmt: skip


def volatility(series: Series, lang: str) -> str | None:
    """A daily series' annualized volatility over the window: of its daily returns for a level,
    of its daily changes in %p for a rate (data_access.figures' √252 convention)."""
    if not _daily(series) or len(series.points) < 3:
        return (f"{_name(series)}: 일별 관측치가 아니어서 변동성을 계산하지 않았습니다." if lang == "ko"
                else f"{_name(series)}: not a daily series, so no volatility.")  # fmt: skip
    window = fig.Window(len(series.points) - 1, "session")  # every move of the fetched points
    return window_point(series, WindowAsk(window, "volatility", None, *window_labels(window)), lang)


_BASIS_WORDS = {
    "yoy": ("전년 동월 대비", "year over year"),
    "mom": ("전월 대비", "month over month"),
}
# a daily series is compared with the same day a year (a month) earlier, not the same month
_DAILY_BASIS_WORDS = {"yoy": ("1년 전 대비", "vs a year earlier"),
                      "mom": ("1개월 전 대비", "vs a month earlier")}  # fmt: skip


def _growth(series: Series, base_value: float) -> tuple[float, str] | None:
    """The latest observation's move from a base: a rate's in %p, a level's growth in %."""
    latest = series.points[-1][1]
    if is_rate(series):
        return latest - base_value, "%p"
    return ((latest / base_value - 1) * 100, "%") if base_value else None


def change(series: Series, basis: str, lang: str) -> str | None:
    """Year-over-year (same month a year earlier) or month-over-month change of the latest
    observation: %p for rates, percent (and the move in the series' unit) for levels and
    indices."""
    if len(series.points) < 2:
        return None
    latest_day, latest = series.points[-1]
    base = _base_point(series, latest_day, basis)
    if base is None:
        what = "1년 전 같은 달" if basis == "yoy" else "전월"
        return (f"{_name(series)}: {what} 관측치가 조회 구간에 없어 계산하지 못했습니다." if lang == "ko"
                else f"{_name(series)}: no observation for the base period in the window.")  # fmt: skip
    base_day, base_value = base
    grown = _growth(series, base_value)
    if grown is None:
        return None
    moved = f"{grown[0]:+.2f}{grown[1]}"
    if not is_rate(series):  # the rate and the move in the series' own unit ('+2.30% (+32.50원)')
        moved += f" ({signed(latest - base_value, series.unit)})"
    word = (_DAILY_BASIS_WORDS if _daily(series) else _BASIS_WORDS)[basis][0 if lang == "ko" else 1]
    return (f"{_name(series)} {word} {moved}: {_value(latest, series)} ({latest_day}) vs "
            f"{_value(base_value, series)} ({base_day}).")  # fmt: skip


def _since_base(series: Series, basis: str | None) -> Series:
    """The series from the base the question compares with ('한 달 새 얼마나 올랐어?': a month
    back), so a premise is checked over the move asked about, not the whole window."""
    if basis not in ("yoy", "mom") or not series.points:
        return series
    base = _base_point(series, series.points[-1][0], basis)
    if base is None:
        return series
    return series.model_copy(update={"points": [p for p in series.points if p[0] >= base[0]]})


def _daily(series: Series) -> bool:
    return len({p[0][:7] for p in series.points}) < len(series.points)  # several a month


def _base_point(series: Series, latest_day: str, basis: str) -> tuple[str, float] | None:
    """The same month a year (or a month) earlier for a monthly series; for a daily one the last
    observation on or before the same day a year (a month) earlier, as every window is read."""
    day = date.fromisoformat(latest_day[:10])
    if _daily(series):  # figures' base day of a year (a month) back
        target_day = fig.base_date(day, "1y" if basis == "yoy" else "1m").isoformat()
        before = [p for p in series.points if p[0][:10] <= target_day]
        return before[-1] if before else None
    target = fig.month_shift(day, 12 if basis == "yoy" else 1).isoformat()[:7]
    same_month = [p for p in series.points if p[0][:7] == target]
    return same_month[-1] if same_month else None


def moves_of(series: Series, lang: str) -> str | None:
    """Each change between consecutive observations in the window: how many up and down, and
    the last one with its date (a policy rate's steps)."""
    moves = [(day, prev, value) for (_, prev), (day, value) in zip(series.points, series.points[1:],
                                                                   strict=False) if value != prev]  # fmt: skip
    first, last = series.points[0][0], series.points[-1][0]
    if not moves:
        return (f"{_name(series)}: {first} ~ {last} 동안 값이 바뀌지 않았습니다 "
                f"({_value(series.points[-1][1], series)})." if lang == "ko"
                else f"{_name(series)} did not change from {first} to {last}.")  # fmt: skip
    ups = sum(1 for _, a, b in moves if b > a)
    day, a, b = moves[-1]
    # an effective rate (a monthly average of the market rate) moves every month by a few bp:
    # its changes are not decisions, which is said
    averaged = "실효" in series.title or "effective" in series.title.lower()
    if lang == "ko":
        note = (" 실효금리(월평균)의 변화라 정책금리 결정 횟수와 다를 수 있습니다."
                if averaged else "")  # fmt: skip
        return (f"{_name(series)} {first} ~ {last} 관측치 기준 변경 {len(moves)}회 (상승 {ups}회, "
                f"하락 {len(moves) - ups}회); 마지막 변경 {day}: {_value(a, series)} → "
                f"{_value(b, series)}.{note}")  # fmt: skip
    note = (" These are moves of the effective rate (a monthly average), not a count of policy "
            "decisions." if averaged else "")  # fmt: skip
    return (f"{_name(series)} changed {len(moves)} times from {first} to {last} ({ups} up, "
            f"{len(moves) - ups} down); last on {day}: {_value(a, series)} → {_value(b, series)}."
            f"{note}")  # fmt: skip


SPAN_YOY = "computed:span_yoy"  # a frame note: a span's total set against the year before
FILTERED = "computed:bar"  # a frame note: a bar was held to each series (or each region)


def premise(series: Series, move: str, lang: str, low: str = "") -> str | None:
    """'최근 한 달 왜 이렇게 올랐어?' when it fell: the move over the window contradicts the
    question, which is said first instead of explaining a move that did not happen. When the
    question (`low`) is about what moves against the series ('원화 가치 왜 떨어졌어?': the won
    fell when won per dollar rose), the premise is checked against that inverse move, in its
    terms."""
    if len(series.points) < 2 or not series.points[0][1]:
        return None
    (d0, v0), (d1, v1) = series.points[0], series.points[-1]
    change = (v1 / v0 - 1) * 100
    spec = next((s.get("inverse") for s in vocabulary()["series"] if s["code"] == series.key), None)
    if not (spec and find_phrases(low, {"w": spec["words"]})):
        return contradicted(_name(series), change, f"{d0} ~ {d1}", move, lang)
    inverse = spec["name"]
    if (move == "up" and change <= 0) or (move == "down" and change >= 0):
        return None  # the won moved as asked
    went = ("상승", "rose") if change < 0 else ("하락", "fell")
    if lang == "ko":
        return (f"질문과 달리 {inverse[0]}는 {d0} ~ {d1} 동안 {went[0]}했습니다 ({_name(series)} "
                f"{change:+.2f}%, 원화 {'강세' if change < 0 else '약세'}).")  # fmt: skip
    return (f"Contrary to the question, {inverse[1]} {went[1]} from {d0} to {d1} ({_name(series)} "
            f"{change:+.2f}%).")  # fmt: skip


def contradicted(name: str, change: float, span: str, move: str, lang: str) -> str | None:
    """The premise sentence when a change of `change` % over `span` is not the move asked."""
    if (move == "up" and change >= 0) or (move == "down" and change <= 0):
        return None
    went = ("하락", "fell") if change < 0 else ("상승", "rose")
    asked = ("올랐다", "rose") if move == "up" else ("떨어졌다", "fell")
    if lang == "ko":
        return (f"질문과 달리 {josa(name, '은/는')} {span} 동안 {change:+.2f}% {went[0]}했습니다 "
                f"('{asked[0]}'는 전제가 이 기간 데이터와 맞지 않습니다).")  # fmt: skip
    return (f"Contrary to the question, {name} {went[1]} {change:+.2f}% over {span} "
            f"(it did not {'rise' if move == 'up' else 'fall'} over this window).")  # fmt: skip


def compare_returns(series: list[Series], lang: str, word: tuple[str, str] = ("수익률", "Returns"),
                    *, falls: bool = False) -> str | None:  # fmt: skip
    """'애플이랑 마이크로소프트 6개월 수익률 비교': each series' return over its window, the
    best first (the largest fall first when falls were asked: '둘 중 더 많이 빠진 건?'), and
    the gap between the first two in %p."""
    moves = [(s, ret * 100) for s, ret in _returns(series)]
    return _compared(moves, lang, word, falls, lambda d, s: f"{d:+.2f}%", returns=True)


def _returns(series: list[Series]) -> list[tuple[Series, float]]:
    """Each series' return over its fetched window (first to last point), as a fraction."""
    return [(s, s.points[-1][1] / s.points[0][1] - 1) for s in series
            if len(s.points) >= 2 and s.points[0][1]]  # fmt: skip


_PICKED_OF = re.compile(r"(?:쪽|것|곳)의\s*")


def picked_read_window(frame: QuestionFrame) -> WindowRead | None:
    """The window of the return read of a picked side ('… 높은 쪽의 1년 수익률'), if asked."""
    said = _PICKED_OF.search(frame.question)
    tail = frame.question[said.end() :] if said else ""
    window = read_window(analyse(tail), tail) if tail else None
    return window if window is not None and "수익" in tail else None


def _from_base(series: Series, period: str | fig.Period, *, base: bool = True) -> Series:
    """The points of a period back from the last one (data_access.figures' base day): from the
    last on or before the base day (a move's base), or, not `base`, those after it."""
    if not series.points:
        return series
    start = fig.base_date(date.fromisoformat(series.points[-1][0][:10]), period).isoformat()
    n = sum(1 for p in series.points if p[0][:10] <= start)  # the points are in date order
    return series.model_copy(update={"points": series.points[max(n - 1, 0) if base else n :]})


def _picked_then_read(frame: QuestionFrame, ordered: list[Series], lang: str,
                      within: list[Series]) -> str | None:  # fmt: skip
    """'코스피와 코스닥 중 1년 수익률 높은 쪽의 최근 1개월 수익률': the side the comparison picked
    (over its own window, `within`), then its return over the window said after '쪽의'."""
    window = picked_read_window(frame)
    if window is None:
        return None
    moves = _returns(within)
    if len(moves) < 2:
        return None
    picked = next(s for s in ordered if s.key == (min if _falls_first(frame) else max)(
        moves, key=lambda m: m[1])[0].key)  # fmt: skip
    ask = WindowAsk(fig.Window(window.n, window.unit), "return", None, window.label("ko"),
                    window.label("en"))  # fmt: skip
    got = _over_window(picked, ask.window, "return")
    if got is None or got.value is None:
        return None
    mark_read(frame, *[t.form for t in analyse(window.surface)])
    return describe(_name(picked), ask, got, lambda v: _value(v, picked), lang)


def compare_changes(series: list[Series], lang: str, *, falls: bool = False,
                    percent: bool = False) -> str | None:  # fmt: skip
    """'한국과 미국 실업률 중 1년 변화 큰 쪽', '서울과 부산 미분양 중 증가폭 큰 쪽': each series'
    change over its window (a rate's in %p, a count's in its unit; with `percent`, a level's
    growth rate in %: 'CPI 전년비 상승률 높은 쪽'), the larger rise first (the larger fall first
    when falls were asked), and the gap of the two."""
    moves = [(s, (s.points[-1][1] / s.points[0][1] - 1) * 100
              if percent and not is_rate(s) and s.points[0][1] else s.points[-1][1] - s.points[0][1])
             for s in series if len(s.points) >= 2]  # fmt: skip
    said = lambda d, s: f"{d:+.2f}%" if percent and not is_rate(s) else signed(d, s.unit)  # noqa: E731
    return _compared(moves, lang, ("변화", "Changes"), falls, said)


def _compared(moves: list[tuple[Series, float]], lang: str, word: tuple[str, str], falls: bool,
              said: Callable[[float, Series], str], *, returns: bool = False) -> str | None:  # fmt: skip
    """The moves side by side, the larger first (the larger fall when `falls`), and the gap."""
    if len(moves) < 2:
        return None
    moves.sort(key=lambda m: m[1] if falls else -m[1])
    listed = ", ".join(f"{_name(s)} {said(d, s)} ({s.points[0][0]} → {s.points[-1][0]})"
                       for s, d in moves)  # fmt: skip
    (first, a), (second, b) = moves[:2]
    gap = said(abs(a - b), first).lstrip("+")
    gap += "p" if gap.endswith("%") else ""
    both_fell = a < 0 and b < 0  # '낮은 쪽' of two rises is only lower
    if returns:
        ko = ("더 많이 내렸습니다" if both_fell else "낮습니다") if falls else "높습니다"
        en = ("fell more than" if both_fell else "trailed") if falls else "beat"
    else:  # the verb follows the signs: two rises, the lower 'rose less' (not 'fell more')
        up, down = ("올랐습니다", "내렸습니다") if is_rate(first) else ("늘었습니다", "줄었습니다")
        both_rose = a > 0 and b > 0
        if falls:  # one up and one down: the first moved more the asked way
            ko, en = (
                (f"덜 {up}", "rose less than")
                if both_rose
                else (f"더 많이 {down}", "fell more than")
            )
        else:
            ko, en = (
                (f"덜 {down}", "fell less than")
                if both_fell
                else (f"더 많이 {up}", "rose more than")
            )
    if lang == "ko":
        return f"{word[0]} 비교: {listed}. {josa(_name(first), '이/가')} {_name(second)}보다 {gap} {ko}."
    return f"{word[1]} compared: {listed}. {_name(first)} {en} {_name(second)} by {gap}."


def _falls_first(frame: QuestionFrame) -> bool:
    """'둘 중 더 많이 빠진 건?', '하락폭 큰 쪽', '수익률 낮은 쪽': the lower move leads;
    '하락폭 작은 쪽' asks the smaller fall, so the better move leads."""
    # '수익률 낮은 쪽' asks the lower too; '하락폭 작은 쪽' (a fall, the smaller) does not
    return (asked_move(frame.question) == "down") != (pick_direction(frame) == "asc")


def _changes_picked(frame: QuestionFrame, *, rates: bool = False) -> bool:
    """One of two series picked by how it moved ('… 중 최근 1년 변화 큰 쪽', '상승폭 큰 쪽'),
    not by its level."""
    op, low = frame.operation, frame.question.lower()
    change = vocabulary()["change"]  # the words every screen reads a move with
    moved = frame.measure() == "return" or asked_move(frame.question) is not None or bool(
        find_phrases(low, {"c": change["period"]}))  # fmt: skip
    return (
        moved
        # '2년물과 10년물 중 더 많이 오른 쪽': two rates' moves (levels' are compared in %)
        and op.kind in ("difference", "compare", "rank", *(("change",) if rates else ()))
        and bool(re.search(r"(?:쪽|것|거|곳|건|게)\s*(?:은|는|이|가)?\s*\??\s*$|which", low))
    )


def _bar_unit(series: Series) -> str:
    """The unit a bar on the series is written in (a rate's in %, a gap of rates in %p)."""
    return series.unit if series.unit == "%p" else "%" if is_rate(series) else series.unit


def latest_verdict(series: Series, comparator: str, threshold: float, lang: str) -> str | None:
    """'원달러 환율 1400원 넘어?': yes or no of the latest observation against the bar."""
    if not series.points:
        return None
    day, value = series.points[-1]
    unit = _bar_unit(series)
    shown = f"{level(value, unit)} ({day})"
    return verdict(_name(series), value, shown, comparator, level(threshold, unit), threshold, lang)


def _rate_verdict(series: Series, basis: str, comparator: str, threshold: float,
                  lang: str) -> str | None:  # fmt: skip
    """Yes or no of a year-over-year (month-over-month) rate against the bar: a rate's own move
    in %p, a level's growth in %."""
    base = _base_point(series, series.points[-1][0], basis) if series.points else None
    grown = _growth(series, base[1]) if base else None
    if grown is None:
        return None
    moved, unit = grown
    name = f"{_name(series)} {_BASIS_WORDS[basis][0 if lang == 'ko' else 1]}"
    return verdict(name, moved, f"{moved:+.2f}{unit}", comparator, f"{threshold:g}{unit}",
                   threshold, lang)  # fmt: skip


def threshold_days(series: Series, comparator: str, threshold: float, lang: str, *,
                   ever: bool = False) -> str | None:  # fmt: skip
    """'원달러 환율 1400원 넘은 적 있어?': the observations of the fetched window that met the bar
    (window_answer's bar days; asked `ever`, the yes or no first); when none did, the nearest the
    window came: its low for a 'below', its high otherwise."""
    if not series.points or comparator not in BAR_STATS:
        return None
    ask = WindowAsk(fig.Window(len(series.points), "session"), BAR_STATS[comparator], None,
                    "기간", "the period", threshold, ever)  # fmt: skip
    days = window_point(series, ask, lang)
    if any(meets(v, comparator, threshold) for _, v in series.points):
        return days
    return f"{days} {window_point(series, replace(ask, stat='min' if comparator[0] == '<' else 'max'), lang)}"


def streak(series: Series, lang: str, asked: tuple[int, int] | None = None) -> str | None:
    """'3개월 연속 올랐어?': the run of rises or falls that ends at the latest observation, and
    the last few moves with their dates; `asked` (N, direction) puts the yes or no first."""
    moves = [(day, value - prev) for (_, prev), (day, value) in
             zip(series.points, series.points[1:], strict=False)]  # fmt: skip
    if not moves:
        return None
    sign = (moves[-1][1] > 0) - (moves[-1][1] < 0)
    run = 0
    for _, delta in reversed(moves):
        if ((delta > 0) - (delta < 0)) != sign:
            break
        run += 1
    unit = "%p" if is_rate(series) else ""
    recent = ", ".join(f"{day} {delta:+,.2f}{unit}" for day, delta in moves[-4:])
    words = {1: ("상승", "rises"), -1: ("하락", "falls"), 0: ("보합", "unchanged readings")}
    word = words[sign]
    lead = ""
    if asked is not None:  # '3개월 연속 증가했어?': as many moves that way, up to the latest
        n, way = asked
        met = sign == way and run >= n
        said = words[way]
        lead = (f"{'예' if met else '아니요'} — {n}회 연속 {said[0]}{'입니다' if met else '이 아닙니다'}. "
                if lang == "ko" else f"{'Yes' if met else 'No'} — {'' if met else 'not '}{n} "
                f"{said[1]} in a row. ")  # fmt: skip
    if lang == "ko":
        return (f"{lead}{_name(series)}: 최근 {run}회 연속 {word[0]} (마지막 관측 {moves[-1][0]}). "
                f"최근 변화: {recent}.")  # fmt: skip
    return (f"{lead}{_name(series)}: {word[1]} in a row up to {moves[-1][0]}: {run}. Recent moves: "
            f"{recent}.")  # fmt: skip


_RUN_ASKED = re.compile(r"(\d+)\s*(?:개월|달|일|거래일|주|번|회|분기|년|차례)?\s*(?:연속|째)")


def _of_the_gap(frame: QuestionFrame, gaps: Series, months: int,
                lang: str) -> tuple[list[str | None], bool]:  # fmt: skip
    """A plan of two steps: the gap as a series of its own, then the statistic the question asks
    of it over the window ('10년물과 2년물 금리 차이의 최근 6개월 평균', '한미 금리차 1년 최대치');
    True when it was computed (it answers first)."""
    ask = window_ask(frame)
    if ask is None or ask.stat in ("return", "change", "moving_average"):
        barred = frame.operation.comparator is not None and frame.operation.threshold is not None
        return _gap_points(frame, gaps, months, lang), barred  # a yes or no answers first
    mark_used(frame)
    if {"high", "low"} <= {m.name for m in frame.measures}:  # '최고치와 최저치': each of them
        return [window_point(gaps, replace(ask, stat=s), lang) for s in ("max", "min")], True
    return [window_point(gaps, ask, lang)], True


def _gap_points(frame: QuestionFrame, gaps: Series, months: int, lang: str) -> list[str | None]:
    """What the question asks of the gap itself: its low or high over the window ('장단기
    금리차 최근 1년 최저치') and how often it crossed a threshold ('마이너스였던 적 있어?')."""
    op, out = frame.operation, list[str | None]()
    for side in sorted({m.name for m in frame.measures} & {"high", "low"}):
        out.append(months_stat(gaps, "max" if side == "high" else "min", months, lang))
    if op.comparator and op.threshold is not None:  # '1%p 넘어?' of the latest gap first
        low = frame.question.lower()
        days = threshold_days(gaps, op.comparator, op.threshold, lang, ever=bool(EVER.search(low)))
        # '넘은 적 있어?', '며칠' ask of the window's days: the latest's yes or no would mislead
        out += [days] if DAYS_ASKED.search(low) else [latest_verdict(gaps, op.comparator,
                                                                     op.threshold, lang), days]  # fmt: skip
        frame.notes.append(FILTERED)
    elif find_phrases(frame.question.lower(), {"i": vocabulary()["inversion_words"]}):
        out.append(threshold_days(gaps, "<", 0.0, lang))  # 'inverted in the past year?': below 0
    return out


def _reference_keys(frame: QuestionFrame) -> set[str]:
    """The subjects a gap is measured from: the name right before '대비'/'보다' ('한국 대비
    미국', '한국 실업률은 미국보다') or right after 'than'/'above' ('above the BOK rate')."""
    words = vocabulary()["reference_words"]
    after = "|".join(map(re.escape, words["after_name"]))
    before = "|".join(map(re.escape, words["before_name"]))
    q, keys = frame.question, set()
    for e in frame.entities:
        if e.start < 0:
            continue
        if re.match(rf"\s*(?:{after})", q[e.end :]) or re.search(
            rf"\b(?:{before})\s+(?:the\s+)?$", q[: e.start], re.IGNORECASE
        ):
            keys.add(e.key)
    return keys if len(keys) < len(frame.entities) else set()  # both sides named so: no order


def _priced(series: list[Series]) -> bool:
    """Stock or index closes (their returns compare), not macro levels or rates."""
    return all(s.key.startswith(("KR:", "US:", "^")) for s in series)


_SUBJECTS = frozenset({"series", "index", "stock", "sector", "re_region"})


def window_asked(frame: QuestionFrame, series: int | None = None) -> WindowAsk | None:
    """The window statistic this screen computes for the frame: not over a gap of two series
    ('일주일 전보다' with two series is their difference), except one series' range or its
    gap from its own statistic. `series`: how many were fetched (else those the frame names)."""
    ask = window_ask(frame)
    if ask is None and frame.measure() == "drawdown" and (w := frame.window) is not None:
        # '최근 20거래일 최대 낙폭': the window's sessions are fetched and read
        ask = WindowAsk(fig.Window(w.n, w.unit), "drawdown", None, w.label("ko"), w.label("en"))
    if ask is None:
        return None
    if series is None:
        series = max(1, len({e.key for e in frame.entities if e.kind in _SUBJECTS}))
    # '최고치와 최저치 차이': max − min of one; '최고치와 현재 값 차이', '1년 평균 대비 지금
    # 얼마나 높아?': the latest from its max or its average (the sentence says that gap)
    one_gap = ask.stat in ("range", "max", "min", "avg", "moving_average") and series == 1
    return ask if frame.operation.kind not in ("difference", "compare") or one_gap else None


def window_point(series: Series, ask: WindowAsk, lang: str) -> str:
    """A statistic over a window of one series (window_answer; figures' window definitions)."""
    found = _over_window(series, ask.window, ask.stat, ask.threshold)
    if found is None:
        return (f"{_name(series)}: {ask.label_ko} 구간의 관측치가 부족해 계산하지 못했습니다."
                if lang == "ko" else f"{_name(series)}: too few observations in the "
                f"{ask.label_en}.")  # fmt: skip
    return describe(_name(series), ask, found, lambda v: _value(v, series), lang,
                    rate=is_rate(series))  # fmt: skip


def span_point(series: Series, span: CalendarSpan, stat: str, lang: str, now: bool = False) -> str:
    """A statistic over the days of a span named whole; said when the data do not reach it
    (`now`: read against the latest value, '지금과 작년 최고치')."""
    points = [(date.fromisoformat(d[:10]), v) for d, v in series.points]
    first, last = date.fromisoformat(span.first), date.fromisoformat(span.last)
    found = fig.span_statistic(points, first, last, stat, rate=is_rate(series))
    if found is None or not reaches(series, span):
        return (f"{_name(series)}: {span.label_ko}({span.first} ~ {span.last}) 전체의 관측치가 "
                "없어 계산하지 못했습니다." if lang == "ko" else f"{_name(series)}: no "
                f"observations for the whole of {span.label_en}.")  # fmt: skip
    if found.count == 1 and stat in ("avg", "sum", "max", "min"):  # '작년 12월': its one value
        day, value = next(
            (d[:10], v) for d, v in series.points if span.first <= d[:10] <= span.last
        )
        return (
            f"{_name(series)} {span.label_ko}: {_value(value, series)} ({day})"
            if lang == "ko"
            else f"{_name(series)}, {span.label_en}: {_value(value, series)} ({day})"
        )
    latest = (date.fromisoformat(series.points[-1][0][:10]), series.points[-1][1]) if now else None
    ask = WindowAsk(fig.Window(found.count, "session"), stat, None, span.label_ko, span.label_en,
                    now=latest)  # fmt: skip
    return describe(_name(series), ask, found, lambda v: _value(v, series), lang,
                    rate=is_rate(series))  # fmt: skip


def span_vs_year_before(series: Series, span: CalendarSpan, stat: str, lang: str) -> str | None:
    """'작년 대비 올해 누적': the span's total (mean) so far against the same days a year before."""
    now = [(d[:10], v) for d, v in series.points if span.first <= d[:10] <= span.last]
    if not now:
        return None
    first, last = date.fromisoformat(now[0][0]), date.fromisoformat(now[-1][0])
    back = (first - relativedelta(years=1)).isoformat(), (last - relativedelta(years=1)).isoformat()
    then = [v for d, v in series.points if back[0] <= d[:10] <= back[1]]
    if len(then) != len(now):
        return None  # the year before is not held whole: no like-for-like comparison
    agg = math.fsum if stat == "sum" else statistics.fmean
    a, b = agg(v for _, v in now), agg(then)
    moved = (
        f"{signed(a - b, series.unit)} ({(a / b - 1) * 100:+.2f}%)"
        if b
        else signed(a - b, series.unit)
    )
    word = ("합계", "total") if stat == "sum" else ("평균", "mean")
    if lang == "ko":
        return (f"{_name(series)} {now[0][0][:7]} ~ {now[-1][0][:7]} {word[0]} {_value(a, series)}, "
                f"전년 동기({back[0][:7]} ~ {back[1][:7]}) {_value(b, series)} 대비 {moved}.")  # fmt: skip
    return (f"{_name(series)} {word[1]} {now[0][0][:7]} to {now[-1][0][:7]}: {_value(a, series)}, "
            f"{moved} vs {_value(b, series)} a year before ({back[0][:7]} to {back[1][:7]}).")  # fmt: skip


def reaches(series: Series, span: CalendarSpan) -> bool:
    """The series' data begin on or before the span's first day (the whole span is held)."""
    return bool(series.points) and series.points[0][0][:10] <= span.first


def _span_points(points: list[tuple[str, float]], span: CalendarSpan) -> list[tuple[str, float]]:
    """A span's observations with the one before it (the first move's or period's base)."""
    before = [p for p in points if p[0][:10] < span.first][-1:]
    return before + [p for p in points if span.first <= p[0][:10] <= span.last]


def per_period_point(series: Series, unit: str, stat: str, lang: str,
                     pick: str | None = None, count: int | None = None) -> str:  # fmt: skip
    """One figure per calendar period of a series (a rate's 'return' is its mean level), the
    newest `count`; with `pick` ('max'/'min'), the period of the largest one first ('가장 많이
    오른 달')."""
    stat = "avg" if stat == "return" and is_rate(series) else stat
    rows = fig.per_period(series.points, unit, stat)[-(count or PER_COUNT[unit]) :]
    shown = [f"{r[1]:+.2f}%" if stat == "return" else _value(r[1], series) for r in rows]
    return per_period_text(_name(series), unit, stat, rows, shown, lang, pick)


def growth_window(frame: QuestionFrame) -> bool:
    """'미국 CPI 상승률 최근 1년 최고치': a statistic of the year-over-year rate of a price index
    (its levels' maximum is not what is asked)."""
    ask = window_asked(frame)
    return (ask is not None and ask.stat not in ("return", "change", "volatility")
            and (any(m.name == "return" for m in frame.measures)
                 or frame.operation.change_basis == "yoy"))  # 'CPI YoY 6개월 평균'  # fmt: skip


def asked_part(frame: QuestionFrame, series: Series) -> Series:
    """The observations inside the span or period asked ('올해', '작년', '최근 6개월'; a year
    unless said)."""
    if (span := frame.span) is not None:  # its own days, not the base before them
        inside = [p for p in series.points if span.first <= p[0][:10] <= span.last]
        return series.model_copy(update={"points": inside})
    return _from_base(series, asked_period(frame), base=False)


def yoy_series(series: Series) -> Series:
    """Each observation's change against the one twelve months before, in % (monthly series)."""
    by_month = {d[:7]: v for d, v in series.points}
    points = []
    for d, v in series.points:
        then = (date.fromisoformat(d[:10]) - relativedelta(months=12)).isoformat()[:7]
        if by_month.get(then):
            points.append((d, (v / by_month[then] - 1) * 100))
    word = "상승률(전년 동월 대비)" if re.search("[가-힣]", series.title) else "YoY"
    return Series(key=f"{series.key}:yoy", title=f"{_name(series)} {word}", unit="%", points=points)


def derived_points(frame: QuestionFrame | None, series: list[Series], months: int,
                   lang: str) -> list[str]:  # fmt: skip
    """The derived key points a frame asks for over the turn's series (in question order)."""
    if frame is None or not series:
        return []
    op = frame.operation
    volume = next((m for m in frame.measures if m.name in ("volume", "trading_value")), None)
    levels_only = not (frame.of("stock") or frame.of("re_region"))  # indices, macro series
    if volume is not None and levels_only:  # '코스피 거래량': levels here, no session volumes
        frame.notes.append(f"{UNAPPLIED}{volume.surface}")
        return []
    if frame.measure() == "drawdown":  # '코스피 최근 3개월 최대 낙폭', '올해 최대 낙폭'
        if (span := frame.span) is None:  # '최근 3주 최대 낙폭': the window said, else the months
            drawn = window_asked(frame) or WindowAsk(fig.Window(months, "month"), "drawdown", None,
                                                     f"최근 {months}개월", f"the last {months} months")  # fmt: skip
            mark_used(frame)
            return [window_point(s, drawn, lang) for s in series]
        span.used = True  # its own days: a window of as many observations
        inside = [asked_part(frame, s) for s in series]
        return [window_point(s, WindowAsk(fig.Window(len(s.points), "session"), "drawdown", None,
                                          span.label_ko, span.label_en), lang) for s in inside]  # fmt: skip
    shared = (len(series) == 2 and series[0].unit == series[1].unit and all(s.points for s in series)
              and not any(s.key.startswith(DEALS) for s in series))  # a deal price is no part  # fmt: skip
    share = next((m for m in frame.measures if m.name == "weight"), None)
    if share and shared:  # '전국 미분양 중 경기 비중': a part of a whole
        part, whole = sorted(series, key=lambda s: abs(s.points[-1][1]))
        return [line for line in [ratio_of(part, whole, lang)] if line]
    if share:  # '거래 중 강남구 비중': no part and whole read, said unread
        frame.notes.append(f"{UNAPPLIED}{share.surface}")
    anchor = _at_extreme_asked(frame)
    if anchor is not None and len(series) >= 2:  # '실업률이 가장 높았던 달의 연방기금금리'
        return at_extreme(series, *anchor, months=_extreme_months(frame, months), lang=lang)
    monthly_extreme = (frame.per_period == "month" and per_period_stat(frame) in ("max", "min")
                       and not any(map(_daily, series)))  # fmt: skip
    if monthly_extreme:  # '인허가 올해 월별 최대치': the largest month of a monthly series
        mark_read(frame, *PER_READ)
    elif frame.per_period:  # '코스피 분기별 수익률', '환율 월별 평균': one figure per period
        mark_read(frame, *PER_READ)
        span = frame.span  # '올해 월별 평균': the periods inside the span (a base before it)
        if span is not None:
            span.used = True
            series = [s.model_copy(update={"points": _span_points(s.points, span)}) for s in series]
        pick = period_pick(frame)  # '가장 많이 오른 달': the month of the largest rise first
        count = PER_COUNT[frame.per_period] if span else per_period_count(frame, frame.per_period)
        return [per_period_point(s, frame.per_period, per_period_stat(frame), lang, pick, count)
                for s in series]  # fmt: skip
    ask = window_asked(frame, len(series))
    if ask is not None:
        mark_used(frame)  # '최근 20거래일 평균', '6개월 최고치와 최저치 차이': one figure each
        if any(is_rate(s) for s in series):
            mark_read(frame, "bp")  # a rate's width and change are written in %p and bp
        grown = growth_window(frame)  # of a price index's YoY rate, when its rate is asked
        if op.kind == "difference" and frame.more_periods and ask.stat in _TWO_WINDOW_STATS:
            return [two_windows(s, ask, frame.more_periods[0], frame, lang) for s in series]
        return [window_point(yoy_series(s) if grown and _growth_series(s) else s, ask, lang)
                for s in series]  # fmt: skip
    span_stat: str | None = op.aggregate if op.kind == "aggregate" else None
    if frame.statistic in ("range", "extremes", "up_days", "down_days"):  # '올해 최고치와
        span_stat = frame.statistic  # 최저치 차이': both ends; '올해 들어 오른 날 며칠'

    rated = any(m.name == "return" for m in frame.measures)  # '주택가격지수 올해 상승률'
    span_stat = span_stat or ("return" if rated else None)
    if span_stat is None and frame.statistic in ("max", "min", "avg", "sum") and len(series) == 1:
        span_stat = frame.statistic  # '인천 미분양 올해 최대치': one series, read as a rank
    if span_stat == "return" and frame.span is not None and all(map(_growth_series, series)):
        # '작년 12월 소비자물가 상승률': a price index's rate is its YoY rate, over the span
        series, span_stat = [yoy_series(s) for s in series], "avg"
    if frame.span is not None and span_stat in ("avg", "sum", "max", "min", "return", "range",
                                                "extremes", "up_days", "down_days"):  # fmt: skip
        frame.span.used = True  # '원달러 환율 10월 평균', '인천 인허가 작년 합계', '3분기 수익률'
        moved = {m.name for m in frame.measures} & {"return"} or op.change_basis == "mom"
        if span_stat in ("max", "min") and moved:  # '올해 최대 상승일', '전월 대비 … 가장 큰 달':
            span_stat = f"{span_stat}_move"  # the span's days, the first from the one before
        both = span_stat in ("max", "min") and {"high", "low"} <= {m.name for m in frame.measures}
        stats = ("max", "min") if both else (span_stat,)
        now = SPAN_AND_NOW in frame.notes  # '지금과 작년 최고치': against the latest
        lines = [span_point(s, frame.span, stat, lang, now) for s in series for stat in stats]
        if op.change_basis == "yoy" and span_stat in ("sum", "avg"):  # '작년 대비 올해 누적'
            against = [span_vs_year_before(s, frame.span, span_stat, lang) for s in series]
            lines = [x for x in against if x] + lines
            if any(against):
                frame.notes.append(SPAN_YOY)  # computed: said, not refused
        frame.span.used = any(reaches(s, frame.span) for s in series)  # else said, not 'ok'
        if span_stat == "return" and len(series) >= 2 and op.kind in ("compare", "difference",
                                                                       "rank"):  # fmt: skip
            # '코스피 올해 수익률' → '나스닥은?' → '둘 중 더 많이 오른 건?': the span's returns, ranked
            within = [s.model_copy(update={"points": _span_points(s.points, frame.span)})
                      for s in series]  # fmt: skip
            ranked = compare_returns(within, lang)
            lines = [ranked, *lines] if ranked else lines
        return lines
    order = {e.key: (e.start if e.start >= 0 else 10_000 + i) for i, e in enumerate(frame.entities)}
    reference = _reference_keys(frame)  # '한국 대비 미국 실업률': Korea's is subtracted
    ordered = sorted(series, key=lambda s: (s.key in reference, order.get(s.key, 20_000)))
    spread = next((sp["codes"] for sp in vocabulary()["spreads"] if sp.get("signed")
                   and set(sp["codes"]) == {s.key for s in series}), None)  # fmt: skip
    if spread and not reference:  # '2년물과 10년물 금리차' is the term spread, 10y − 2y
        ordered = sorted(series, key=lambda s: spread.index(s.key))
    out: list[str | None] = []
    low = frame.question.lower()
    rates_compared = op.kind == "compare" and all(is_rate(x) for x in ordered)
    # '미국 실업률이 한국보다 2%p 이상 높아?': a bar in %p over two rates is a bar on their gap
    # (a rate's own level is in %)
    gap_barred = (op.kind == "filter" and op.threshold_unit == "%p" and len(ordered) == 2
                  and all(is_rate(x) for x in ordered))  # fmt: skip
    # '코스피와 코스닥 1개월 수익률 차이' is a gap of returns (below), not of index levels
    returns_asked = frame.measure() == "return" and _priced(ordered)
    # '서울과 부산 주택가격지수 1년 변화율 차이': a gap of the levels' rates, not of the levels
    rated = frame.statistic == "return" or (
        any(m.name == "return" for m in frame.measures)
        and not all(_growth_series(x) for x in ordered)  # CPIs: the year-over-year gap below
    )
    rates_of_levels = (rated and op.kind == "difference"
                       and len(ordered) >= 2
                       and not _priced(ordered) and not any(is_rate(x) for x in ordered)
                       and not _changes_picked(frame))  # '하락폭 큰 곳' picks one (below)  # fmt: skip
    if (
        frame.measure() == "volatility"
        and len(ordered) == 2
        and op.kind in ("difference", "compare", "rank")
    ):
        out.append(larger_volatility(ordered[0], ordered[1], lang))  # '변동성 더 큰 쪽'
    elif rates_of_levels:
        out.append(compare_returns(ordered, lang, word=("변화율", "Changes")))
    elif (len(ordered) >= 2 and (all(is_rate(x) for x in ordered) or not _priced(ordered))
          and _changes_picked(frame, rates=all(is_rate(x) for x in ordered))):  # fmt: skip
        # '변화 큰 쪽'; '전년비 상승률 높은 쪽': each over the basis asked, a level's in %
        based = [_since_base(x, op.change_basis) for x in ordered]
        out.append(compare_changes(based, lang, falls=_falls_first(frame),
                                   percent=frame.measure() == "return"))  # fmt: skip
    elif (
        (op.kind == "difference" or rates_compared or gap_barred)
        and len(ordered) >= 2
        and not returns_asked
    ):
        trend = bool(find_phrases(low, {"t": vocabulary()["trend"]}))
        moved = frame.period is not None or op.change_basis is not None or trend
        if RATIO in frame.notes and not is_rate(ordered[0]):  # '코스피가 코스닥의 몇 배야?'
            out.append(ratio_of(ordered[0], ordered[1], lang))
        elif _growth_series(ordered[0]) and _growth_series(ordered[1]):  # their YoY rates
            gap = difference(yoy_series(ordered[0]), yoy_series(ordered[1]), lang)
            out.append(gap and f"{gap} {_LEVELS_APART[lang == 'ko']}")
        else:
            back = {"yoy": "1y", "mom": "1m"}.get(op.change_basis or "")
            # '한국 CPI 상승률과 기준금리 차이': a price index beside a rate is its YoY rate
            a, b = (yoy_series(x) if _growth_series(x) and any(is_rate(y) for y in ordered)
                    else x for x in ordered[:2])  # fmt: skip
            out.append(difference(a, b, lang, since=moved, back=back))
            asked, computed = _of_the_gap(frame, gap_series(ordered[0], ordered[1]), months, lang)
            out = [*asked, *out] if computed else [*out, *asked]
    elif (op.kind == "aggregate" and op.aggregate in ("max", "min")
          and (frame.measure() == "return" or DAY_OF_MOVE in frame.notes)):  # fmt: skip
        # '가장 많이 오른 날': the largest move from one fetched observation to the next
        out += [window_point(s, WindowAsk(fig.Window(len(s.points) - 1, "session"),
                                          f"{op.aggregate}_move", None, f"최근 {months}개월",
                                          f"{months} months"), lang)
                for s in ordered if len(s.points) > 1]  # fmt: skip
    elif op.kind == "aggregate" and op.aggregate in ("max", "min"):
        both = {"high", "low"} <= {m.name for m in frame.measures}  # '최고치와 최저치'
        sides = ("max", "min") if both else (op.aggregate,)
        out += [months_stat(s, side, months, lang) for s in ordered for side in sides]
    elif (
        len(ordered) >= 2
        and _priced(ordered)
        and (op.kind in ("compare", "difference", "change", "rank") or frame.measure() == "return")
    ):  # '삼성전자와 SK하이닉스 중 3개월 더 많이 오른 건?', '둘 중 더 많이 빠진 건?'
        # a longer window read after the pick was fetched too: the comparison keeps its own
        within = ([_from_base(s, asked_period(frame)) for s in ordered]
                  if frame.period and picked_read_window(frame) else ordered)  # fmt: skip
        out.append(compare_returns(within, lang, falls=_falls_first(frame)))
        out.append(
            _picked_then_read(frame, ordered, lang, within)
        )  # '… 높은 쪽의 최근 1개월 수익률'
    elif (
        len(ordered) >= 2
        and (
            op.kind == "compare" or (op.kind == "change" and op.change_basis not in ("yoy", "mom"))
        )
        and not any(is_rate(x) for x in ordered)
    ):  # '서울 부산 집값 비교', '마포구랑 성동구 중 어디가 더 올랐어?': the moves side by side
        # ('미국이랑 한국 CPI 전년비 비교': each over the basis asked, not the fetched window)
        based = [_since_base(x, op.change_basis) for x in ordered]
        out.append(compare_returns(based, lang, word=("변화율", "Changes")))
    elif op.kind == "aggregate" and op.aggregate == "avg":  # deals: their own mean (deals.py)
        out += [months_stat(s, "avg", months, lang) for s in ordered if not s.key.startswith(DEALS)]
    elif op.change_basis in ("yoy", "mom"):
        out += [change(s, op.change_basis, lang) for s in ordered]
        if op.kind == "filter" and op.comparator and op.threshold is not None:
            # '미국 CPI 전년비 3% 넘어?': the bar is on the rate, not on the index level; '3%
            # 넘은 달 올해 몇 번?' counts the months of the window whose rate met it
            if DAYS_ASKED.search(low) and op.change_basis == "yoy":
                ever = bool(EVER.search(low))
                out += [threshold_days(asked_part(frame, yoy_series(s)), op.comparator,
                                       op.threshold, lang, ever=ever) for s in ordered]  # fmt: skip
            else:
                out += [_rate_verdict(s, op.change_basis, op.comparator, op.threshold, lang)
                        for s in ordered]  # fmt: skip
            frame.notes.append(FILTERED)
    elif (
        op.kind == "filter"
        and op.comparator
        and op.threshold is not None
        and price_band(frame) is None
    ):
        ever = bool(EVER.search(low))
        # the days of the period asked ('올해 며칠'), not the base day fetched before it
        inside = [asked_part(frame, s) if frame.period or frame.span else s for s in ordered]
        days = [threshold_days(s, op.comparator, op.threshold, lang, ever=ever) for s in inside]
        # '1400원 넘어?' asks of the latest value; '넘은 적 있어?', '며칠' of the window's days
        out += (
            days
            if DAYS_ASKED.search(low)
            else [*(latest_verdict(s, op.comparator, op.threshold, lang) for s in ordered), *days]
        )
        mark_read(frame, "처음", "마지막", "first", "last")  # the days' line dates both ends
        frame.notes.append(FILTERED)
    if frame.measure() == "volatility" and frame.span is not None:  # '코스피 작년 변동성'
        out += [span_point(s, frame.span, "volatility", lang) for s in ordered]
        frame.span.used = any(reaches(s, frame.span) for s in ordered)
    elif frame.measure() == "volatility":  # 'How volatile has the won been?'
        out += [volatility(s, lang) for s in ordered]
    correlated = find_phrases(low, {"c": vocabulary()["correlation_words"]})
    if len(ordered) >= 2 and correlated:
        out.append(correlation(ordered[0], ordered[1], lang))
        mark_read(frame, *(h.phrase for h in correlated))  # computed: not a term the data lacks
    move = asked_move(frame.question)
    if (op.kind == "rank" or (op.kind == "aggregate" and op.aggregate in ("max", "min"))
            or DAY_OF_MOVE in frame.notes or op.threshold is not None
            or _at_extreme_asked(frame)):  # fmt: skip
        move = None  # '고점 대비 얼마나 빠졌어?', '가장 많이 떨어진 날', '15 아래로 내려간 날':
        # not a move over the window the question takes as given
    streaked = bool(find_phrases(frame.question.lower(), {"s": vocabulary()["streak_words"]}))
    if move and len(ordered) == 1 and not is_rate(ordered[0]) and not streaked:
        base = _since_base(ordered[0], op.change_basis)
        out.insert(0, premise(base, move, lang, low))
    if streaked:  # a run is asked of the latest moves, not a move over the window
        # (N, +1 or -1) of '3개월 연속 증가했어?', '5일 연속 하락?' puts the yes or no first;
        # with no count or no way ('몇 일 연속 올랐어?') the run's length is the answer
        said, way = _RUN_ASKED.search(frame.question), asked_move(frame.question)
        mark_read(frame, "몇")
        run_asked = (int(said.group(1)), 1 if way == "up" else -1) if said and way else None
        out += [streak(s, lang, run_asked) for s in ordered]
    # '언제 마지막으로 바뀌었어?', '몇 번 내렸어?' — not '20 이상인 날 며칠?', which the days
    # over the bar answer
    if op.comparator is None and find_phrases(frame.question.lower(), vocabulary()["event_words"]):
        out += [moves_of(s, lang) for s in ordered]
        mark_read(frame, "마지막", "last")  # each change is listed with the last one dated'
    return [p for p in out if p]


def compared_across_agents(frame: QuestionFrame | None, responses: dict[str, AgentResponse],
                           lang: str) -> dict[str, AgentResponse]:  # fmt: skip
    """'원달러 환율과 코스피 1년 변화 비교': two series that different agents fetched (an indicator
    and an index) have no agent that held both, so their changes are compared here, first in
    the first agent's points (its cited series back the figures). Levels of unlike series are
    not subtracted: their changes in % are what compares."""
    holders = {name: resp for name, resp in responses.items() if resp.series}
    anchor = _at_extreme_asked(frame)
    if (
        frame is None
        or len(holders) < 2
        or (frame.operation.kind not in ("difference", "compare") and anchor is None)
    ):
        return {}
    if any(len(resp.series) >= 2 for resp in holders.values()):
        return {}  # an agent with both series compared them itself
    series = [s for resp in holders.values() for s in resp.series]
    if anchor is not None:  # 'VIX가 가장 높았던 날 코스피': the index read on the VIX's day
        lines = at_extreme(series, *anchor, months=_extreme_months(frame, _months_held(series)),
                           lang=lang)  # fmt: skip
    elif any(is_rate(s) for s in series):
        return {}  # a rate beside a level: no common unit to compare in
    else:
        lines = (
            [line] if (line := compare_returns(series, lang, word=("변화율", "Changes"))) else []
        )
    if not lines:
        return {}
    # the lines lead the answer: they go to the holder the answer shows first
    name = min(holders, key=lambda n: ORDER.index(n) if n in ORDER else len(ORDER))
    first = holders[name]
    return {name: first.model_copy(update={"key_points": [*lines, *first.key_points]})}


def _at_extreme_asked(frame: QuestionFrame | None) -> tuple[str, str, bool, bool, bool] | None:
    """(key, side, the others' one-day move asked, their latest asked) of the series whose extreme names the day
    ('… 가장 높았던 달의 …', '… 가장 많이 떨어진 날 코스피 수익률'), if asked."""
    said = next((n for n in frame.notes if n.startswith(AT_EXTREME)), None) if frame else None
    if said is None:
        return None
    key, side, *read = said[len(AT_EXTREME) :].split(":")
    return key, side, "return" in read, "now" in read, "rate" in read


def _extreme_months(frame: QuestionFrame, held: int) -> int:
    """The months whose extreme names the day: the period said ('최근 1년 최고치였던 날'; the
    period reader reads the same window), else a year of what was fetched — not the whole fetch."""
    return round(frame.period.months) if frame.period else min(held, 12)


def _months_held(series: list[Series]) -> int:
    """The whole months the fetched points span (the window each agent read)."""
    days = [str(p[0])[:10] for s in series for p in s.points[:1]]
    last = max(str(s.points[-1][0])[:10] for s in series if s.points)
    first = min(days) if days else last
    months = (int(last[:4]) - int(first[:4])) * 12 + int(last[5:7]) - int(first[5:7])
    return max(1, months)
