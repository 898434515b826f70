"""Apartment deals of a region over the window (issue 14): how many, and — when the question asks
for the highest or lowest ('서초구 최근 3개월 최고 거래가') — the deals themselves, each from a
cited template. Prices are written in 억 원 as an analyst reads them."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from dateutil.relativedelta import relativedelta

from agents.macro.router import Route
from agents.macro.state import AgentResponse, RunContext, Series
from agents.macro.templates import DEAL_BANDS
from agents.macro.tools import lang_text, run_step
from agents.understanding import QuestionFrame
from agents.understanding.coverage import mark_read
from agents.understanding.dates import read_calendar_span
from agents.understanding.frame import COMPARATOR_WORDS, Period
from data_access import figures as fig

_HIGH_WORDS = ("최고", "비싸", "비싼", "최대", "highest", "most expensive", "top")
_LOW_WORDS = ("최저", "싸게", "가장 싼", "저렴", "최소", "lowest", "cheapest")


def level(value: float, unit: str) -> str:
    """A housing or macro level in its unit: 억 원 for prices, % for ratios, homes and deals
    counted; other units (index points) as plain numbers."""
    unit_l = unit.lower()
    if unit_l in ("원", "krw"):  # a share price in 원, an apartment (or its move) in 억·만 원
        return fig.fmt_krw(value, "만") if abs(value) >= 1e7 else f"{value:,.0f}원"
    if unit_l in ("호", "건"):
        return f"{value:,.0f}{unit}"
    if unit_l in ("%", "percent"):
        return f"{value:,.2f}%"
    if unit_l == "%p":  # a gap between two rates ('장단기 금리차')
        return f"{value:+,.2f}%p"
    return f"{value:,.2f}"


def price_band(frame: QuestionFrame | None) -> tuple[str, int] | None:
    """'10억 이상', '5억 미만', '1조': a threshold in an amount of money (the parser keeps every
    amount in 억) bands the apartment deals — its comparator and the amount in 원; None when the
    threshold is not an amount."""
    op = frame.operation if frame else None
    if op is None or op.threshold_unit != "억" or op.comparator is None or op.threshold is None:
        return None
    return op.comparator, int(op.threshold * 1e8)


def deal_filter(frame: QuestionFrame | None) -> dict[str, Any]:
    """The deal templates' band parameters: '전용 84㎡' (84 ≤ area < 85) and '10억 이상',
    '5억 미만', '30억 넘는' (the frame's threshold, when it is an amount)."""
    bands: dict[str, Any] = dict.fromkeys(DEAL_BANDS)
    if frame is not None and frame.area_m2:
        bands["area_min"], bands["area_max"] = frame.area_m2
    if frame is not None and frame.floors:
        bands["floor_min"], bands["floor_max"] = frame.floors
    if (band := price_band(frame)) is not None:
        comparator, krw = band
        side = "price_min" if comparator in (">=", ">") else "price_max"
        bands[side] = krw + (1 if comparator == ">" else -1 if comparator == "<" else 0)
    return bands


def filter_words(frame: QuestionFrame | None, lang: str) -> str:
    """'전용 84㎡대 · 10억 원 이상 ' — what the deals were cut to, said before the figure."""
    if frame is None:
        return ""
    ko, parts = lang == "ko", []
    if frame.area_m2:
        low, high = frame.area_m2  # a band of one ㎡ ('84㎡대'), or one side of it
        said = (f"{low:g}㎡ 이상", f"{low:g} m² or more") if high >= 1e4 else (
            (f"{high - 1:g}㎡ 이하", f"{high - 1:g} m² or less") if not low else (f"{low:g}㎡대", f"{low:g} m²"))  # fmt: skip
        parts.append(f"전용 {said[0]}" if ko else f"{said[1]} units")
    if frame.floors:
        low, high = frame.floors
        said = (f"{low}층 이상", f"floor {low}+") if high == 999 else (f"{high}층 이하", f"floor ≤ {high}") if not low else (f"{low}층", f"floor {low}")  # fmt: skip
        parts.append(said[0] if ko else said[1])
    if (band := price_band(frame)) is not None:
        word, amount = COMPARATOR_WORDS[lang][band[0]], fig.fmt_krw(band[1], "만")
        parts.append(f"{amount} {word}" if ko else f"{word} {amount}")
    return (" · ".join(parts) + " ") if parts else ""


def deal_points(resp: AgentResponse, ctx: RunContext, route: Route, region: str,
                months: int) -> None:  # fmt: skip
    """The window's deal count, and its highest or lowest deals when asked."""
    series = next((s for s in resp.series if s.key == f"re_transactions_monthly:{region}"), None)
    start, end = deal_window(route.frame, ctx.as_of_date, None, months)  # unsaid: the last year
    low = route.question.lower()
    side = ("highest" if any(w in low for w in _HIGH_WORDS) else
            "lowest" if any(w in low for w in _LOW_WORDS) else None)  # fmt: skip
    if side is None:
        return
    bands = deal_filter(route.frame)
    result = run_step(resp, ctx, f"re_transactions_{side}",
                      {"region": region, "start": start, "as_of": end, **bands})  # fmt: skip
    rows = result.rows if result else []
    if not rows:
        resp.uncertainty.append(f"{region}: {start}~{end} 거래가 없습니다.")
        return
    listed = ", ".join(
        f"{fig.fmt_krw(float(r['price_krw']), '만')} ({r['deal_date']}, {r['complex_name']} {float(r['area_m2']):g}㎡)"
        for r in rows
    )
    word = ("최고가", "highest") if side == "highest" else ("최저가", "lowest")
    shown = f" (월별 중위가격 {len(series.points)}개월 기준 추이는 위)" if series else ""
    resp.key_points.insert(0, lang_text(
        route.language,
        f"{region} {start} ~ {end} {filter_words(route.frame, 'ko')}아파트 실거래 {word[0]}: "
        f"{listed}{shown}.",
        f"{region} {word[1]} apartment deals {start} to {end}: {listed}.",
    ))  # fmt: skip


def counts_asked(frame: QuestionFrame | None) -> bool:
    """'실거래 건수', '몇 건', '거래량', 'Gangnam transactions last month': the number of deals (the
    frame's deal count, or the volume of a housing question), not their median price."""
    if frame is None:
        return False
    low = frame.question.lower()  # English bare nouns count: 'deals', but not beside a price
    bare = re.search(r"\b(transactions|deals|sales)\b", low) and not re.search(
        r"price|가격|금액", low
    )
    return bool({"deal_count", "volume"} & {m.name for m in frame.measures}) or bool(bare)


_PRICE_MEAN = re.compile(
    r"평균\s*(?:거래|매매)?\s*가(?:격)?(?![율치능입])|(?:average|mean) (?:deal |sale )?price"
)


def price_mean_asked(frame: QuestionFrame | None) -> bool:
    """'거래 건수와 평균가': the mean asked is the deals' price, even beside a count."""
    return frame is not None and bool(_PRICE_MEAN.search(frame.question.lower()))


def summed_deals(frame: QuestionFrame | None) -> bool:
    """'경기 아파트 거래 작년 합계': a sum or a count of deals is of the deals, not of a price."""
    return frame is not None and frame.operation.aggregate in ("sum", "count")


_CALENDAR_MONTH = ("지난달", "지난 달", "전월", "last month", "previous month")


def deal_count_window(resp: AgentResponse, ctx: RunContext, route: Route,
                      region: str) -> tuple[str, int] | None:  # fmt: skip
    """'강남구 최근 1개월 거래 건수': the deals of the trailing window the question names (after
    as-of minus the period, up to as-of), leading the monthly counts; '지난달' keeps the last
    calendar month the monthly line already leads with. The window's words and its count."""
    frame, low, end = route.frame, route.question.lower(), ctx.as_of_date
    if frame is None or not counts_asked(frame) or any(w in low for w in _CALENDAR_MONTH):
        return None
    # a calendar span said ('지난 분기' is Q3, not 3 months; '작년 하반기'), else the trailing
    # window ('최근 3개월'); '올해' is the year to date either way; a span read with a statistic
    # ('올해 월평균') is the window statistic's
    whole = read_calendar_span(route.question, date.fromisoformat(end), over_days=True)
    period = frame.period
    if whole is not None and frame.span is None and not (period and period.label in ("ytd", "mtd")):
        start, end, said = whole.first.isoformat(), min(whole.last.isoformat(), end), whole.label_ko
        mark_read(frame, *route.question[whole.start : whole.end].split())
    elif period is not None:
        start, said = _trailing(end, period), period.surface or period.label
        if not (period.label in ("ytd", "mtd") or period.label.startswith(fig.SINCE)):
            said = f"최근 {said}"  # '최근 3개월', but '올해', '작년 말 대비' as said
    else:
        return None
    bands = deal_filter(frame)
    result = run_step(resp, ctx, "re_transactions_stats",
                      {"region": region, "start": start, "as_of": end, **bands})  # fmt: skip
    row = result.rows[0] if result and result.rows else None
    n = int(row["deals"]) if row and row["deals"] else 0
    span = f"{start} ~ {end}"
    resp.key_points.insert(0, lang_text(
        route.language, f"{region} {said}({span}) "
        f"{filter_words(route.frame, 'ko')}아파트 실거래 {n:,}건.",
        f"{region}: {n:,} {filter_words(route.frame, 'en')}apartment deals from {span}."))  # fmt: skip
    return f"{said}({span})", n


def count_gap(route: Route, counts: list[tuple[str, str, int]]) -> str | None:
    """'서울과 인천의 최근 1년 거래 건수 차이': the gap of the two regions' window counts (not of
    their latest months)."""
    if route.frame is None or route.frame.operation.kind != "difference" or len(counts) != 2:
        return None
    (a, said, n), (b, _, m) = counts
    return lang_text(route.language, f"{a} − {b} {said} 아파트 실거래 건수 차이: {n:,}건 − {m:,}건 "
                     f"= {n - m:+,}건.", f"{a} − {b} apartment deals, {said}: {n:,} − {m:,} = "
                     f"{n - m:+,}.")  # fmt: skip


def _trailing(as_of: str, period: Period) -> str:
    """The first day of the window that ends on `as_of`: the day after the period's base (whole
    months by the calendar, like SQL's interval; '올해' from January 1)."""
    day = date.fromisoformat(as_of)
    if period.months < 1 and period.label not in ("ytd", "mtd"):  # '최근 10일'
        return (day - relativedelta(days=round(period.months * 30.44) - 1)).isoformat()
    base = fig.base_date(day, fig.period_named(period.label, period.months))
    return (base + relativedelta(days=1)).isoformat()


def deal_window(frame: QuestionFrame | None, as_of: str, series: Series | None,
                months: int) -> tuple[str, str]:  # fmt: skip
    """The days whose deals answer: a span said ('올해', '작년 3분기'), a trailing window
    ('최근 3개월': as-of minus three months, up to as-of), else the monthly series' own months
    when given (so the counts agree), else the last `months`."""
    if frame is not None and frame.span is not None:
        frame.span.used = True
        return frame.span.first, min(frame.span.last, as_of)
    if frame is not None and frame.period is not None:
        return _trailing(as_of, frame.period), as_of
    if series and series.points:
        last = date.fromisoformat(series.points[-1][0][:10])
        end = min(date.fromisoformat(as_of), last + relativedelta(months=1) - relativedelta(days=1))
        return series.points[0][0][:10], end.isoformat()
    return (date.fromisoformat(as_of) - relativedelta(months=months)).isoformat(), as_of


def deal_stats(resp: AgentResponse, ctx: RunContext, route: Route, region: str,
               months: int) -> None:  # fmt: skip
    """'강남구 평균 거래가격': the mean of the window's deals (with their count and median), not
    the mean of monthly medians."""
    frame = route.frame
    if frame is None or "avg" not in (frame.operation.aggregate, frame.statistic):  # '평균', 'mean'
        return
    if counts_asked(frame) and not price_mean_asked(frame):  # '거래량 올해 월평균': the
        return  # counts' mean, not the prices'
    series = next((s for s in resp.series if s.key == f"re_transactions_monthly:{region}"), None)
    start, end = deal_window(frame, ctx.as_of_date, series, months)
    bands = deal_filter(frame)
    result = run_step(resp, ctx, "re_transactions_stats",
                      {"region": region, "start": start, "as_of": end, **bands})  # fmt: skip
    row = result.rows[0] if result and result.rows else None
    if not row or not row["deals"]:
        resp.uncertainty.append(f"{region}: {start}~{ctx.as_of_date} 거래가 없습니다.")
        return
    mean, median, n = float(row["avg_price"]), float(row["median_price"]), int(row["deals"])
    resp.key_points.insert(0, lang_text(
        route.language,
        f"{region} {row['first_day']} ~ {row['last_day']} {filter_words(route.frame, 'ko')}아파트 실거래 "
        f"{n:,}건의 평균 거래가격 "
        f"{fig.fmt_krw(mean, '만')} (중위 {fig.fmt_krw(median, '만')}).",
        f"{region}: mean {filter_words(route.frame, 'en')}apartment deal price {fig.fmt_krw(mean, '만')} over {n:,} "
        f"deals from "
        f"{row['first_day']} to {row['last_day']} (median {fig.fmt_krw(median, '만')}).",
    ))  # fmt: skip
