"""The stock box's price sections: closes, volumes, returns (against an index too), windows,
ranges, drawdowns, the days of the largest moves or volumes, RSI, and the news of a move.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import date, timedelta
from functools import partial
from typing import Any

from dateutil.relativedelta import relativedelta
from psycopg_pool import ConnectionPool

from agents.macro.derived import contradicted, streak
from agents.macro.state import Series
from agents.stock.analysis import rsi_series
from agents.stock.box import (
    BASE_SLACK_DAYS,
    Turn,
    after_base,
    amount,
    fetch_bars,
    fetch_period_bars,
    fetch_prices,
    figure_text,
    in_won,
    money,
    period_words,
)
from agents.stock.valuations import FUNDAMENTAL_FIELDS, fundamental_window, note_short_history
from agents.understanding import QuestionFrame
from agents.understanding.coverage import mark_read
from agents.understanding.frame import DAY_OF_MOVE, SPAN_AND_NOW, measure_name
from agents.understanding.morphemes import analyse
from agents.understanding.parse import asked_move
from agents.understanding.vocabulary import find_phrases, vocabulary
from agents.understanding.windows import DAYS_ASKED, EVER
from agents.window_answer import (
    PER_READ,
    WindowAsk,
    bar_days_ask,
    describe,
    mark_used,
    per_period_count,
    per_period_months,
    per_period_stat,
    per_period_text,
    period_pick,
    window_ask,
    window_labels,
)
from data_access import figures as fig
from data_access.market_series import dataset_code_of, series_code_for

_STOCK_NEWS = """SELECT published_at, title, source FROM news_articles
WHERE tickers @> ARRAY[%(sid)s::text] AND published_at >= %(start)s::date
  AND published_at < (%(as_of)s::date + 1)
ORDER BY published_at DESC, pk LIMIT 50"""


def _return(turn: Turn, pool: ConnectionPool | None) -> None:
    """The period return by the figures module's definition (calendar period, base close the
    last bar on or before the as-of bar minus the period), with both closes and dates; a
    why-question's premise ('왜 올랐어?' when it fell) is checked first."""
    p, rows = fetch_period_bars(turn, pool, ("1m", 1.0))
    label = p.ko if turn.ko() else p.en
    r = fig.period_return(fig.bars_of(rows), p)
    if r is None:
        turn.notes.append(f"{label} 수익률을 계산할 기준일 시세가 없습니다." if turn.ko()
                          else f"No close on or before the {label} base date.")  # fmt: skip
        return
    cited, step = turn.citations[-1], turn.trace[-1]  # name the closes compared, the definition
    cited.date_range.start, cited.date_range.end = str(r.start_date), str(r.end_date)
    step.observation = f"{step.observation}; {label} {r.window_ko()} ({fig.RETURN_DEFINITION_KO})"
    turn.figures["return"] = r.pct
    turn.lines.append(_return_line(turn, label, r))
    for index in turn.frame.of("index")[:1]:  # 'NAVER 코스피 대비 3개월 (초과) 수익률'
        _against_index(turn, pool, index.name, p, r)
    # '왜 올랐어?', '1년 전보다 얼마나 떨어졌어?': a move the question takes as given is checked
    moved = asks_why(turn.frame) or turn.frame.operation.kind in ("change", "difference")
    move = asked_move(turn.frame.question) if moved else None
    premise = contradicted(turn.stock["name"], r.pct, label, move, turn.lang) if move else None
    if premise:
        turn.lines.insert(0, premise)  # said before the figures it rests on
    for more in turn.frame.more_periods:  # '1년 수익률이랑 3개월 수익률': each period asked
        p = fig.period_named(more.label, more.months)
        start = fig.base_date(date.fromisoformat(turn.as_of), p) - timedelta(days=10)
        r = fig.period_return(fig.bars_of(fetch_bars(turn, pool, start)), p)
        if r is None:
            continue
        turn.lines.append(_return_line(turn, p.ko if turn.ko() else p.en, r))
        mark_read(turn.frame, *(t.form for t in analyse(more.surface)))


def _return_line(turn: Turn, label: str, r: fig.PeriodReturn) -> str:
    cur = turn.stock["currency"]
    first, last = money(r.start_close, cur), money(r.end_close, cur)
    return (f"{label} 수익률 {r.pct:+.2f}% (종가 {first} {r.start_date} → {last} {r.end_date})"
            if turn.ko() else f"{label} return {r.pct:+.2f}% (close {first} on {r.start_date} → "
            f"{last} on {r.end_date})")  # fmt: skip


_INDEX_BARS = """SELECT trade_date, close FROM market_series_prices WHERE series_code = %(series)s
AND trade_date >= %(start)s AND trade_date <= %(as_of)s ORDER BY trade_date"""


def _against_index(turn: Turn, pool: ConnectionPool | None, name: str, p: fig.Period,
                   own: fig.PeriodReturn) -> None:  # fmt: skip
    """The stock's return less the named index's over the same period: a simple excess return
    (a difference of returns, not an alpha net of beta), said first."""
    code = series_code_for(name)
    if code is None:
        return
    start = (own.start_date - timedelta(days=BASE_SLACK_DAYS)).isoformat()
    rows = turn.query("market_series_prices", _INDEX_BARS, {"series": code, "start": start,
                      "as_of": turn.as_of}, dataset_code_of(code), "market_series_prices", pool)  # fmt: skip
    r = fig.period_return(fig.bars_of(rows), p)
    if r is None:
        return
    gap = own.pct - r.pct
    mark_read(turn.frame, "초과", "초과수익", "초과수익률", "대비")
    turn.lines.insert(0, (
        f"{name} 대비 초과수익 {gap:+.2f}%p ({turn.stock['name']} {own.pct:+.2f}%, {name} "
        f"{r.pct:+.2f}%; {r.start_date} → {r.end_date}). 두 수익률의 단순 차이이며 베타를 뺀 알파는 "
        "아닙니다." if turn.ko() else f"Excess return over {name} {gap:+.2f}pp "
        f"({turn.stock['name']} {own.pct:+.2f}%, {name} {r.pct:+.2f}%; {r.start_date} → "
        f"{r.end_date}): a simple difference of returns, not an alpha net of beta."))  # fmt: skip


def day_of_move(frame: QuestionFrame) -> bool:
    """The day of the largest one-day rise or fall asked ('… 가장 많이 떨어진 날은?')."""
    op = frame.operation  # '가장 많이 떨어진 날 거래량': the day of the move, its volume read
    return (op.kind == "aggregate" and op.aggregate in ("max", "min") and bool(op.words)
            and (frame.measure() in (None, "return") or DAY_OF_MOVE in frame.notes))  # fmt: skip


def _falls(frame: QuestionFrame) -> bool:
    """The move asked is a fall: the frame reads '떨어진 날' as the lowest move, and a day's move
    read for another figure says its direction in its words."""
    if frame.measure() in (None, "return"):
        return frame.operation.aggregate == "min"
    return asked_move(" ".join(frame.operation.words)) == "down"


def against_close(found: fig.WindowFigure | None, rows: list[dict[str, Any]],
                  field: str) -> fig.WindowFigure | None:  # fmt: skip
    """'52주 최고가 대비 몇 % 아래', '올해 최고가': the highest high (lowest low) is read against
    the latest close, not the latest day's high."""
    if found is None or field not in ("high", "low"):
        return found
    close = next((r["close"] for r in rows if r["trade_date"] == found.last and r["close"]), None)
    return replace(found, latest=float(close)) if close else found  # the window's own last day


def span_aggregate(frame: QuestionFrame) -> str | None:
    """The statistic asked over a span, said as an operation ('작년 평균 종가') or as the figure
    beside another ('지금 주가랑 작년 최고가')."""
    stat = frame.operation.aggregate or frame.statistic
    return stat if stat in ("avg", "sum", "max", "min") else None


def _span_stat(turn: Turn, pool: ConnectionPool | None, asked: str | None = None) -> None:
    """The asked statistic of the closes (or volumes) over the sessions of a span named whole
    ('작년 11월 평균 종가', '3분기 수익률', '3월부터 6월까지'); a return from the close before it."""
    span, frame = turn.frame.span, turn.frame
    assert span is not None
    stat: str = span_aggregate(frame) or ("return" if frame.measure() == "return" else "avg")
    if frame.statistic in ("up_days", "down_days", "volatility"):  # '올해 들어 하락한 날 며칠?'
        stat = frame.statistic
    stat = asked or stat  # '올해 최대 낙폭', '올해 가장 많이 떨어진 날 (거래량)': of the closes
    field = "volume" if frame.measure() == "volume" and not asked else "close"
    if frame.stat_field in ("high", "low") and stat in ("max", "min"):
        field = frame.stat_field  # '올해 최고가': the highest of the day's highs
    if frame.stat_field == "high_low":  # '지난달 최고가 최저가': the highest high, lowest low
        field, stat = "high_low", "range" if frame.statistic == "range" else "extremes"
    first, last = date.fromisoformat(span.first), date.fromisoformat(span.last)
    bars = fetch_bars(turn, pool, first - timedelta(days=10))
    rows = [r for r in bars if r["trade_date"] <= last]
    sessions = fig.Window(sum(1 for r in rows if r["trade_date"] >= first), "session")
    label = span.label(turn.lang)  # no session in the span: no rows, and the note says so
    now = (
        (bars[-1]["trade_date"], float(bars[-1]["close"]))
        if SPAN_AND_NOW in frame.notes and bars
        else None
    )
    ask = WindowAsk(sessions, stat, field, label, label, now=now)  # '지금 주가랑': the latest close
    span.used = _stat_line(turn, rows if sessions.n else [], ask) is not None


def _streak(turn: Turn, pool: ConnectionPool | None) -> None:
    """'5일 연속 올랐어?': the run of rising (falling) closes that ends at the last close, as
    the Macro screen counts a series' run (derived.streak)."""
    rows = fetch_bars(turn, pool, date.fromisoformat(turn.as_of) - timedelta(days=45))
    points = [(str(r["trade_date"]), float(r["close"])) for r in rows if r["close"]]
    name = f"{turn.stock['name']} {_FIELD_WORDS['close'][0 if turn.ko() else 1]}"
    line = streak(Series(key=turn.stock["security_id"], title=name, points=points), turn.lang)
    if line:
        mark_used(turn.frame)
        turn.lines.append(line)


def _per_period(turn: Turn, pool: ConnectionPool | None) -> None:
    """'분기별 수익률', '월별 평균 종가': one figure per calendar period, the newest ones."""
    unit = turn.frame.per_period
    assert unit is not None
    stat = per_period_stat(turn.frame)
    field = "volume" if turn.frame.measure() == "volume" else "close"
    count = per_period_count(turn.frame, unit)  # '월별 평균 종가 최근 3개월': three months
    start = date.fromisoformat(turn.as_of) - relativedelta(months=per_period_months(unit, count))
    rows = fetch_bars(turn, pool, start)
    points = [(r["trade_date"], float(r[field])) for r in rows if r[field] is not None]
    found = fig.per_period(points, unit, stat)[-count:]
    fmt = partial(figure_text, "return" if stat == "return" else field, turn=turn)
    name = f"{turn.stock['name']} {_FIELD_WORDS[field][0 if turn.ko() else 1]}"
    turn.lines.append(per_period_text(name, unit, stat, found, [fmt(r[1]) for r in found],
                                      turn.lang, period_pick(turn.frame)))  # fmt: skip
    mark_read(turn.frame, *PER_READ)


def day_of_volume(frame: QuestionFrame) -> bool:
    op = frame.operation
    return (op.kind == "aggregate" and op.aggregate in ("max", "min")
            and frame.measure() in ("volume", "trading_value"))  # fmt: skip


def _volume_day(turn: Turn, pool: ConnectionPool | None) -> None:
    """The session of the largest (smallest) volume or trading value (close × volume) over the
    period (a month unless asked)."""
    p, rows = fetch_period_bars(turn, pool, ("1m", 1.0))
    field = "trading_value" if turn.frame.measure() == "trading_value" else "volume"
    value, said = field == "trading_value", partial(figure_text, field, turn=turn)
    bars = [{**r, "amount": float(r["volume"]) * (float(r["close"]) if value else 1.0)}
            for r in after_base(rows, p) if r["volume"] is not None and r["close"]]  # fmt: skip
    if not bars:
        turn.notes.append("거래량이 없어 계산하지 못했습니다." if turn.ko() else "No volume.")
        return
    least = turn.frame.operation.aggregate == "min"
    day = min(bars, key=lambda r: r["amount"]) if least else max(bars, key=lambda r: r["amount"])
    mark_used(turn.frame)
    label = p.ko if turn.ko() else p.en
    what = _FIELD_WORDS[field]
    word = f"{what[0]} 가장 {'적은' if least else '많은'} 날" if turn.ko() else (
        f"{'lowest' if least else 'highest'}-{what[1]} session")  # fmt: skip
    mean = sum(r["amount"] for r in bars) / len(bars)
    turn.lines.append(
        f"{label}({bars[0]['trade_date']} ~ {bars[-1]['trade_date']}) {word}: {day['trade_date']} "
        f"{said(day['amount'])} (기간 평균 {said(mean)}의 {day['amount'] / mean:.1f}배)"
        if turn.ko() else f"{word} over {label} ({bars[0]['trade_date']} to "
        f"{bars[-1]['trade_date']}): {day['trade_date']}, {said(day['amount'])} "
        f"({day['amount'] / mean:.1f}x the period's mean of {said(mean)})")  # fmt: skip


def _over_period(turn: Turn, pool: ConnectionPool | None, stat: str) -> None:
    """A statistic of the closes ('drawdown', 'volatility', the day of the largest 'move':
    data_access.figures) over the span named whole ('작년 변동성', '올해 최대 낙폭': its own
    sessions), the sessions asked ('최근 10거래일 중') or the period asked (a year unless said):
    the sessions after its base bar, a move's or volatility's first return from it."""
    frame, w = turn.frame, turn.frame.window
    stat = ("min_move" if _falls(frame) else "max_move") if stat == "move" else stat
    if frame.span is not None:
        _span_stat(turn, pool, stat)
        return
    if w is not None and w.unit == "session":  # N sessions, the close before them
        days = fig.Window(w.n, "session").calendar_days()
        rows = [r for r in fetch_prices(turn, pool, days / 30) if r["close"]]
        inside, label = w.n, w.label(turn.lang)
    else:
        p, rows = fetch_period_bars(turn, pool, ("1y", 12.0))
        rows = [r for r in fig.window_rows(rows, "trade_date", p) if r["close"] is not None]
        inside = len(after_base(rows, p)) if stat == "drawdown" else len(rows) - 1
        label = p.ko if turn.ko() else p.en  # a drawdown's peak and trough both inside it
    ask = WindowAsk(fig.Window(inside, "session"), stat, "close", label, label)
    if _stat_line(turn, rows if inside > 0 else [], ask):
        mark_used(turn.frame)


def asks_why(frame: QuestionFrame) -> bool:
    return bool(find_phrases(frame.question.lower(), {"why": vocabulary()["why"]}))


def _range(turn: Turn, pool: ConnectionPool | None) -> None:
    """The highest high and the lowest low of the period asked (a year unless said; either alone
    when only it was asked), the one against the latest close: the window statistic that
    '52주 최고가' is, over the period's months."""
    names = {m.name for m in turn.frame.measures} & {"high", "low"}
    field = names.pop() if len(names) == 1 else "high_low"
    months = turn.frame.period.months if turn.frame.period else 12
    window = fig.Window(max(1, round(months)), "month")
    labels = ("최근 1년", "last year") if window.n == 12 else window_labels(window)
    start = date.fromisoformat(turn.as_of) - timedelta(days=window.calendar_days())
    stat = {"high": "max", "low": "min", "high_low": "extremes"}[field]
    _stat_line(turn, fetch_bars(turn, pool, start), WindowAsk(window, stat, field, *labels))


def _trading_value(turn: Turn, pool: ConnectionPool | None) -> None:
    """Σ close × volume over the window (the bars after the base bar), and its daily mean."""
    months, label = period_words(turn, 1.0)
    p, bars = fetch_period_bars(turn, pool, ("1m", 1.0))
    rows = after_base(bars, p)
    if not rows:
        return
    values = [float(r["close"]) * float(r["volume"]) for r in rows if r["volume"]]
    cur = turn.stock["currency"]
    total = amount(sum(values), cur)
    mean = amount(sum(values) / max(1, len(values)), cur)
    turn.lines.append(f"{label} 거래대금 {total}, 하루 평균 {mean} ({rows[0]['trade_date']} ~ "
                      f"{rows[-1]['trade_date']}, {len(values)}거래일; 종가 × 거래량)" if turn.ko()
                      else f"{label} trading value {total}, {mean} a session "
                      f"({rows[0]['trade_date']} to {rows[-1]['trade_date']}; close × volume)")  # fmt: skip


def _news(turn: Turn, pool: ConnectionPool | None) -> None:
    """The articles tagged with the stock inside the move's window, newest first: the evidence
    a why-question can be read against (the report and Macro Q&A go further)."""
    months, label = period_words(turn, 1.0)
    rows = turn.query("news_articles", _STOCK_NEWS, {"sid": turn.stock["security_id"],
                      "as_of": turn.as_of, "start": (date.fromisoformat(turn.as_of)
                      - relativedelta(days=round(months * 30))).isoformat()},
                      "ECONOMIC_NEWS_STREAM", "news_articles", pool)  # fmt: skip
    if not rows:
        turn.notes.append(f"{label} 동안 이 종목으로 태그된 뉴스가 없어 원인은 수치로만 보였습니다."
                          if turn.ko() else f"No news tagged with the stock in the last {label}.")  # fmt: skip
        return
    heads = "; ".join(f"{str(r['published_at'])[:10]} {r['title']}" for r in rows[:3])
    shown = min(3, len(rows))
    turn.lines.append(f"같은 기간 이 종목 뉴스 {len(rows)}건 (최근 {shown}건): {heads}" if turn.ko()
                      else f"{len(rows)} articles on the stock in the window (latest {shown}): {heads}")  # fmt: skip


_FIELD_WORDS = {"high_low": ("고가·저가", "high and low")} | {k: (measure_name(k, "ko"), measure_name(
    k, "en")) for k in ("close", "open", "high", "low", "volume", "trading_value")}  # fmt: skip


def _window(turn: Turn, pool: ConnectionPool | None) -> None:
    """A statistic over a window of the stock's daily bars (window_answer, figures)."""
    ask = window_ask(turn.frame)
    assert ask is not None
    measure = turn.frame.measure()
    if ask.field is None and measure in FUNDAMENTAL_FIELDS:  # 'PER 5년 평균': its snapshots
        fundamental_window(turn, pool, ask, measure)
        return
    start = date.fromisoformat(turn.as_of) - timedelta(days=ask.window.calendar_days())
    rows = fetch_bars(turn, pool, start)
    found = _stat_line(turn, rows, ask)
    if found is not None:
        mark_used(turn.frame)
        turn.citations[-1].date_range.start = str(found.first)
        note_short_history(turn, found.first, rows[0]["trade_date"], start)


def _stat_line(turn: Turn, rows: list[dict[str, Any]], ask: WindowAsk) -> fig.WindowFigure | None:
    """The asked statistic of the bars over the window (data_access.figures), said as every
    screen says it (window_answer.describe); a note when the bars do not reach it."""
    field = ask.field if ask.field in _FIELD_WORDS else "close"

    def points(of: str) -> list[tuple[date, float]]:
        return [(r["trade_date"], float(r["close"]) * float(r["volume"] or 0)
                 if of == "trading_value" else float(r[of])) for r in rows
                if r["volume"] is not None or of in ("close", "high", "low")]  # fmt: skip

    if field == "high_low":  # '최고가와 최저가 (차이)': the highest high, the lowest low
        both = fig.window_extremes(points("high"), points("low"), ask.window)
        found = both and replace(both, stat="range" if ask.stat == "range" else "extremes")
    else:
        found = fig.window_statistic(points(field), ask.window, ask.stat, threshold=ask.threshold)
    found = against_close(found, rows, field)
    if found is None:
        turn.notes.append(f"{ask.label(turn.lang)} 구간의 시세가 부족해 계산하지 못했습니다."
                          if turn.ko() else f"Not enough bars for the {ask.label('en')}.")  # fmt: skip
        return None
    name = f"{turn.stock['name']} {_FIELD_WORDS[field][0 if turn.ko() else 1]}"
    line = describe(name, ask, found, partial(figure_text, field, turn=turn), turn.lang)
    volume = next((r["volume"] for r in rows if r["trade_date"] == found.at), None)
    if ask.stat.endswith("_move") and turn.frame.measure() == "volume" and volume is not None:
        line = line.removesuffix(".") + (f", 그날 거래량 {float(volume):,.0f}주." if turn.ko()
                                         else f", volume that day {float(volume):,.0f}.")  # fmt: skip
    turn.lines.append(line)  # '… 떨어진 날 거래량': the volume of the day of the move too
    return found


def _close(turn: Turn, pool: ConnectionPool | None, field: str = "close") -> None:
    """The last session's close (or open, '시가'), dated, in won beside a dollar price."""
    if turn.frame.operation.threshold_unit == "억" and _sessions_over_bar(turn, pool, field):
        return  # '10만원 넘은 적 있어?': the window's sessions, not today's close
    rows = [r for r in fetch_prices(turn, pool, 0.25) if r[field] is not None]
    if rows:
        last = rows[-1]
        turn.figures[field] = float(last[field])
        price = money(float(last[field]), turn.stock["currency"])
        price += in_won(turn, float(last[field]), pool)
        said = _FIELD_WORDS[field][0 if turn.ko() else 1]
        turn.lines.append(f"{said} {price} ({last['trade_date']})" if turn.ko()
                          else f"{said.capitalize()} {price} on {last['trade_date']}")  # fmt: skip


def _sessions_over_bar(turn: Turn, pool: ConnectionPool | None, field: str) -> bool:
    """'넘은 적 있어?', '1000만주 넘은 날 며칠?': the sessions of the window asked (a year unless
    said; a span running to today, its sessions) whose close (volume) met the bar, counted by
    data_access.figures (BAR_DAYS: '이상' inclusive, '넘는' strict) and said as every screen says
    it; asked 'ever', the yes or no leads. False when no days over a bar were asked."""
    frame, said = turn.frame, turn.frame.question
    ask = bar_days_ask(frame, bool(DAYS_ASKED.search(said)), bool(EVER.search(said)))
    if ask is None:
        return False
    rows = fetch_bars(turn, pool, date.fromisoformat(turn.as_of) - timedelta(
        days=ask.window.calendar_days()))  # fmt: skip
    points = [(r["trade_date"], float(r[field])) for r in rows if r[field] is not None]
    found = fig.window_statistic(points, ask.window, ask.stat, threshold=ask.threshold)
    if found is None:
        return False
    mark_used(frame)
    if frame.span is not None:
        frame.span.used = True
    name = f"{turn.stock['name']} {_FIELD_WORDS[field][0 if turn.ko() else 1]}"
    line = describe(name, ask, found, partial(figure_text, field, turn=turn), turn.lang)
    (turn.leads if ask.ever else turn.lines).append(line)
    return True


def sessions_asked(frame: QuestionFrame) -> bool:
    """'기아 최근 5일 종가': the last N sessions' closes (or volumes) themselves."""
    w = frame.window
    return (w is not None and frame.statistic is None and w.unit in ("day", "session")
            and frame.measure() in (None, "close", "volume")
            and frame.operation.kind in ("lookup", "list"))  # fmt: skip


def _sessions(turn: Turn, pool: ConnectionPool | None) -> None:
    """Each of the last N sessions' close (or volume), dated, oldest first."""
    w = turn.frame.window
    assert w is not None
    field = "volume" if turn.frame.measure() == "volume" else "close"
    rows = [r for r in fetch_prices(turn, pool, w.n / 15 + 1) if r[field] is not None][-w.n :]
    if not rows:
        return
    mark_used(turn.frame)
    ko = turn.ko()
    said = [f"{r['trade_date']} {figure_text(field, float(r[field]), turn)}" for r in rows]
    what = ("종가", "closes") if field == "close" else ("거래량", "volumes")
    turn.lines.append(f"최근 {len(rows)}거래일 {what[0]}: " + ", ".join(said) if ko
                      else f"Last {len(rows)} sessions' {what[1]}: " + ", ".join(said))  # fmt: skip


def _volume(turn: Turn, pool: ConnectionPool | None) -> None:
    """The last session's volume; asked how it moved ('어제보다 늘었어?'), against the bar the
    period reaches back to (the figures module's base date)."""
    if turn.frame.operation.threshold_unit is None and _sessions_over_bar(turn, pool, "volume"):
        return  # '1000만주 넘은 날 최근 1개월에 며칠?'
    p, rows = fetch_period_bars(turn, pool, ("1d", 1 / 30))
    if rows and rows[-1]["volume"] is None:  # an imported series without volume: NULL, not 0
        turn.notes.append("이 종목의 시세에는 거래량이 없습니다." if turn.ko()
                          else "This series has no volume.")  # fmt: skip
        return
    if not rows:
        return
    last, v1 = rows[-1], int(rows[-1]["volume"])
    turn.figures["volume"] = v1
    line = (f"거래량 {v1:,}주 ({last['trade_date']})" if turn.ko()
            else f"Volume {v1:,} shares on {last['trade_date']}")  # fmt: skip
    day = fig.base_date(last["trade_date"], p)
    base = next((r for r in reversed(rows) if r["trade_date"] <= day and r["volume"]), None)
    if asks_move(turn.frame) and base is not None:
        v0 = int(base["volume"])
        line += (f", {base['trade_date']} {v0:,}주 대비 {v1 - v0:+,}주 ({(v1 / v0 - 1) * 100:+.2f}%)"
                 if turn.ko() else f", {v1 - v0:+,} ({(v1 / v0 - 1) * 100:+.2f}%) vs "
                 f"{v0:,} on {base['trade_date']}")  # fmt: skip
    turn.lines.append(line)


def asks_move(frame: QuestionFrame) -> bool:
    """A change over the period; a difference of the one stock's figure with itself over a
    period ('어제 종가랑 그제 종가 차이') is that change too."""
    one_dated = frame.operation.kind == "difference" and len(frame.of("stock")) <= 1 and (
        frame.period is not None or frame.operation.change_basis is not None)  # '1년 전보다'  # fmt: skip
    return (frame.operation.kind in ("change", "trend") or one_dated
            or frame.statistic in ("change", "return"))  # fmt: skip


def _rsi(turn: Turn, pool: ConnectionPool | None) -> None:
    if not turn.daily:  # RSI(14) is fourteen sessions: not read off weekly or monthly bars
        return
    rows = fetch_prices(turn, pool, 3.0)
    values = [v for v in rsi_series([float(r["close"]) for r in rows]) if v is not None]
    if not values:
        turn.notes.append(
            "RSI를 계산할 시세가 부족합니다." if turn.ko() else "Too few prices for RSI."
        )
        return
    rsi, last = values[-1], rows[-1]
    zone = (
        ("과매수(70 이상)" if rsi >= 70 else "과매도(30 이하)" if rsi <= 30 else "중립 구간")
        if turn.ko()
        else ("overbought (≥70)" if rsi >= 70 else "oversold (≤30)" if rsi <= 30 else "neutral")
    )
    price = money(float(last["close"]), turn.stock["currency"])
    turn.lines.append(f"RSI(14) {rsi:.1f} — {zone} (종가 {price}, {last['trade_date']})" if turn.ko()
                      else f"RSI(14) {rsi:.1f} — {zone} (close {price} on {last['trade_date']})")  # fmt: skip


PRICE_SECTIONS: dict[str, Callable[[Turn, ConnectionPool | None], None]] = {"range": _range, "close": _close, "open": partial(_close, field="open"), "volume": _volume, "return": _return, "rsi": _rsi, "biggest_move": partial(_over_period, stat="move"), "drawdown": partial(_over_period, stat="drawdown"), "volume_day": _volume_day, "span_stat": _span_stat, "per_period": _per_period, "streak": _streak, "trading_value": _trading_value, "news": _news, "volatility": partial(_over_period, stat="volatility"), "window": _window, "sessions": _sessions}  # fmt: skip
