"""A question about one stock, answered with the figures it asks for (issue 14: the frame selects
the report's sections and figures), each from a cited read-only query.

    answer_stock_question("삼성전자 PER이랑 PBR")   # PER 14.81배, PBR 1.94배 (2026-11-20 기준)
    answer_stock_question("NVDA 최근 실적 서프라이즈")  # EPS estimate vs actual, surprise %

A bare symbol ('005930', 'NVDA') is the full report (`generate_report`); a question outside the
data (a company we do not hold, a forecast, a broker target price) is declined with the reason.
"""

from __future__ import annotations

import re
import statistics
import time
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from typing import Any

from dateutil.relativedelta import relativedelta
from psycopg_pool import ConnectionPool

from agents.etf.set_answers import fmt_krw
from agents.evidence import Stopwatch, make_citation
from agents.macro.derived import contradicted
from agents.stock.analysis import rsi_series
from agents.stock.dating import date_security
from agents.stock.templates import earnings_status
from agents.understanding import QuestionFrame, understand
from agents.understanding.coverage import account, cover, mark_read, pick_direction
from agents.understanding.history import FOLLOWUP_KEY, followup_payload
from agents.understanding.lexicon import cached_lexicon
from agents.understanding.model_plan import attach_plan, fill_plan
from agents.understanding.parse import CALENDAR_MONTH, RATIO, asked_move
from agents.understanding.vocabulary import find_phrases, vocabulary
from agents.window_answer import WindowAsk, describe, mark_used, window_ask
from data_access import figures as fig
from data_access.config import Settings
from data_access.contracts import AgentAnswer, StructuredCitation, TraceStep
from data_access.market_series import dataset_code_of, series_code_for
from data_access.postgres import fetch_all
from data_access.seed.news_text import josa, particles

STOCK_KINDS = frozenset({"stock", "sector", "index"})
_NEXT_WORDS = ("다음", "언제", "예정", "next", "when", "upcoming")
_PRICES = """SELECT trade_date, high, low, close, volume FROM stock_prices
WHERE security_id = %(sid)s AND trade_date <= %(as_of)s AND trade_date >= %(start)s
ORDER BY trade_date"""
_FUNDAMENTALS = """SELECT as_of_date, market_cap, eps, pe, pb, dividend_yield FROM stock_fundamentals
WHERE security_id = %(sid)s AND as_of_date <= %(as_of)s ORDER BY as_of_date DESC LIMIT 1"""
_EARNINGS = """SELECT period, event_date, status, eps_estimate, eps_actual FROM earnings_events
WHERE security_id = %(sid)s ORDER BY event_date"""
_BASE_SLACK_DAYS = 14  # fetched before a return's base date: the last bar on or before it
_STOCK = """SELECT security_id, code, name, currency, sector, country FROM stocks
WHERE code = %(code)s ORDER BY security_id"""
# the same sector's stocks of the same market, each on its last snapshot on or before the day
_PEERS = """SELECT s.security_id, f.pe, f.pb, f.eps, f.dividend_yield, f.market_cap
FROM stocks s JOIN LATERAL (SELECT pe, pb, eps, dividend_yield, market_cap
  FROM stock_fundamentals WHERE security_id = s.security_id AND as_of_date <= %(as_of)s
  ORDER BY as_of_date DESC LIMIT 1) f ON true
WHERE s.sector = ANY(%(sectors)s) AND s.country = %(country)s AND NOT s.is_etf"""
_STOCK_NEWS = """SELECT published_at, title, source FROM news_articles
WHERE tickers @> ARRAY[%(sid)s::text] AND published_at >= %(start)s::date
  AND published_at < (%(as_of)s::date + 1)
ORDER BY published_at DESC, pk LIMIT 50"""


@dataclass
class _Turn:
    frame: QuestionFrame
    stock: dict[str, Any]
    as_of: str
    lang: str
    daily: bool = True  # the series' bars are daily (an imported weekly/monthly file is not)
    lines: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # something asked was not answered
    info: list[str] = field(default_factory=list)  # said beside a whole answer ('휴장일이라 …')
    citations: list[StructuredCitation] = field(default_factory=list)
    trace: list[TraceStep] = field(default_factory=list)
    # the figures the lines state, by measure ('close', 'return', 'per' …): two stocks' gap
    figures: dict[str, float] = field(default_factory=dict)

    def ko(self) -> bool:
        return self.lang == "ko"

    def query(self, name: str, sql: str, params: dict[str, Any], dataset: str, table: str,
              pool: ConnectionPool | None) -> list[dict[str, Any]]:  # fmt: skip
        watch = Stopwatch()
        rows = [dict(r) for r in fetch_all(sql, params, pool=pool)]
        self.citations.append(make_citation(
            dataset_code=dataset, table=table, query=sql, params=params, row_count=len(rows),
            filters={"security_id": params["sid"]} if "sid" in params else {
                k: params[k] for k in ("sectors", "country", "series") if k in params},
            start=params.get("start"),
            end=params.get("as_of"), as_of_date=params.get("as_of")))  # fmt: skip
        self.trace.append(TraceStep(step=len(self.trace) + 1, kind="tool", name=name,
                                    arguments={k: str(v) for k, v in params.items()},
                                    observation=f"{len(rows)}행", duration_ms=watch.ms))  # fmt: skip
        return rows


def is_question(text: str) -> bool:
    """More than a symbol: '삼성전자 PER' is a question, '005930' or 'NVDA' a report request."""
    return len(text.split()) > 1


def answer_stock_question(question: str, *, pool: ConnectionPool | None = None,
                          as_of: str | None = None,
                          settings: Settings | None = None) -> AgentAnswer | None:  # fmt: skip
    """The figures a question asks for, a decline, or None when the text asks for the report
    itself ('삼성전자 정보', an unknown symbol: the report path answers, with suggestions). With a
    model configured for the Stock screen, the model fills the plan (model_plan.py) and the same
    sections compute it; the offline reading is compared beside it in the trace."""
    from data_access.catalog import current_as_of_date
    from data_access.config import get_settings

    started = time.perf_counter()
    lexicon = cached_lexicon(pool)
    frame = understand(question, lexicon, kinds=STOCK_KINDS)
    settings = settings or get_settings()
    filled = fill_plan(question, frame, lexicon, settings, settings.model_for("stock"), STOCK_KINDS)
    frame = filled.frame or frame
    lang = frame.language
    stocks = frame.of("stock")
    refusal = _scope_refusal(frame, lang)
    if refusal is None and not stocks:
        day = frame.as_of_date or as_of or current_as_of_date(pool).isoformat()
        if (sector := _sector_turn(frame, day, pool)) is not None:
            head = f"**{sector.stock['name']} 업종** · 기준일 {day}" if sector.ko() else (
                f"**{sector.stock['name']} sector** · as of {day}")  # fmt: skip
            text = head + "\n" + "\n".join(f"- {line}" for line in sector.lines)
            text += "\n\n" + "\n".join(f"> ℹ️ {n}" for n in sector.info)
            return attach_plan(_finish(sector, text, started, declined=False), filled)
        refusal = _unknown_stock(question, lang, pool)  # a company or phrase we do not hold
    refusal = refusal or _unheld_refusal(frame, lang)
    if refusal is None and not _asks_figures(frame):
        covered = cover(frame)  # '삼성전자 신용등급' is not a request for the report
        if covered.unheld:
            refusal = " ".join(covered.unheld)
        elif unread := _not_a_report_request(covered.unread):
            refusal = _unread_refusal(unread, question, stocks[0].name, lang)  # '카카오 대표이사'
        else:
            return None
    # '삼성전자 10월 말 종가': the figures of that day (each stock's last bar on or before it)
    as_of = frame.as_of_date or as_of or current_as_of_date(pool).isoformat()
    if refusal is not None:
        return attach_plan(_finish(_declined_turn(frame, as_of), refusal, started, declined=True),
                          filled)  # fmt: skip
    # '삼성전자랑 SK하이닉스 PER 비교': the same figures for each stock named (up to three)
    turns = [_stock_turn(frame, code.key, as_of, lang, pool) for code in stocks[:3]]
    turn = turns[0]
    for other in turns[1:]:
        turn.citations += other.citations
        turn.trace += other.trace
        turn.notes += [n for n in other.notes if n not in turn.notes]
        turn.info += [n for n in other.info if n not in turn.info]
    for word in frame.unknown_words:
        turn.notes.append(particles(f"'{word}'은(는) 이 워크벤치 데이터에 없어 답하지 못했습니다.") if turn.ko()
                          else f"'{word}' is not in this workbench's data.")  # fmt: skip
    # '차이', '… 삼성전자보다 높아?': the two stocks' gap first; 'A와 B 중 PER 낮은 곳': the pick
    compared = frame.operation.kind in ("difference", "compare")
    pick = None if compared or len(turns) < 2 else pick_direction(frame)
    gap = (_gap(frame, turns) if compared else _pick(frame, turns, pick) if pick
           else _total(frame, turns))  # fmt: skip
    blocks = [gap] if gap else []
    for t in turns:
        head = f"**{t.stock['name']} ({t.stock['security_id']})** · " + (
            f"기준일 {t.as_of}" if t.ko() else f"as of {t.as_of}"
        )
        blocks.append(head + "\n" + "\n".join(f"- {line}" for line in t.lines))
    said = turn.info + turn.notes
    tail = "\n\n" + "\n".join(f"> ℹ️ {n}" for n in said) if said else ""
    more = ("\n\n전체 리포트는 종목 리포트 화면에 종목만 입력하면 만들어집니다." if turn.ko()
            else "\n\nFor the full report, enter just the symbol on the stock report screen.")  # fmt: skip
    return attach_plan(_finish(turn, "\n\n".join(blocks) + tail + more, started, declined=False),
                      filled)  # fmt: skip


# a figure's words and how its gap is written: a price in its currency, a rate in %p
_GAP_WORDS = {"close": ("종가", "close"), "return": ("수익률", "return"), "per": ("PER", "P/E"),
              "pbr": ("PBR", "P/B"), "volume": ("거래량", "volume"),
              "dividend_yield": ("배당수익률", "dividend yield"),
              "market_cap": ("시가총액", "market cap"), "eps": ("EPS", "EPS")}  # fmt: skip
_IN_CURRENCY = frozenset({"close", "market_cap", "eps"})  # never added across currencies
_ADDITIVE = frozenset({"market_cap", "volume"})  # a sum of two stocks' means something


def _shared_figure(frame: QuestionFrame, turns: list[_Turn]) -> str | None:
    """The first asked figure every stock stated (prices only in one currency)."""
    asked = [m.name for m in frame.measures] + list(_GAP_WORDS)
    key = next((k for k in asked if all(k in t.figures for t in turns)), None)
    if key in _IN_CURRENCY and len({t.stock["currency"] for t in turns}) > 1:
        return None
    return key


def _pick(frame: QuestionFrame, turns: list[_Turn], direction: str) -> str:
    """'NAVER와 카카오 중 PER 낮은 곳은?': the stock the asked figure picks, said first."""
    key = _shared_figure(frame, turns)
    if key is None:
        return ""
    ranked = sorted(turns, key=lambda t: t.figures[key], reverse=direction == "desc")
    ko, en = _GAP_WORDS[key]
    values = ", ".join(f"{t.stock['name']} {_figure_text(key, t.figures[key], t)}" for t in ranked)
    if turns[0].ko():
        word = "높은" if direction == "desc" else "낮은"
        return f"**{josa(ko, '이/가')} 더 {word} 쪽: {ranked[0].stock['name']}** ({values})"
    word = "higher" if direction == "desc" else "lower"
    return f"**{word.capitalize()} {en}: {ranked[0].stock['name']}** ({values})"


def _total(frame: QuestionFrame, turns: list[_Turn]) -> str:
    """'카카오와 NAVER 시가총액 합계', '… 평균 PER': the named stocks' figure added or averaged
    (a window statistic is each stock's own, answered in its block)."""
    agg = frame.operation.aggregate
    if len(turns) < 2 or agg not in ("sum", "avg") or window_ask(frame) is not None:
        return ""
    key = _shared_figure(frame, turns)
    if key is None or (agg == "sum" and key not in _ADDITIVE):
        return ""
    values = [t.figures[key] for t in turns]
    value = sum(values) if agg == "sum" else sum(values) / len(values)
    names = " + ".join(t.stock["name"] for t in turns)
    ko, en = _GAP_WORDS[key]
    text = _figure_text(key, value, turns[0])
    if turns[0].ko():
        return f"**{names} {ko} {'합계' if agg == 'sum' else '평균'}: {text}**"
    return f"**{names} {en} {'total' if agg == 'sum' else 'average'}: {text}**"


def _figure_text(key: str, value: float, turn: _Turn) -> str:
    times, shares = ("배", "주") if turn.ko() else ("x", " shares")
    unit = {"return": "%", "dividend_yield": "%", "per": times, "pbr": times}
    if key in ("close", "eps"):
        return _money(value, turn.stock["currency"])
    if key == "market_cap":
        return _amount(value, turn.stock["currency"])
    return f"{value:,.2f}{unit[key]}" if key != "volume" else f"{value:,.0f}{shares}"


def _gap(frame: QuestionFrame, turns: list[_Turn]) -> str:
    """'기아 현대차 종가 차이': the first asked figure both stocks stated, first minus second."""
    if len(turns) < 2:
        return ""
    a, b = turns[0], turns[1]
    key = _shared_figure(frame, turns[:2])
    if key is None:
        return ""
    ko, en = _GAP_WORDS[key]
    if RATIO in frame.notes and b.figures[key]:  # 'LG에너지솔루션 시총이 LG화학의 몇 배야?'
        ratio = a.figures[key] / b.figures[key]
        return (f"**{a.stock['name']} {josa(ko, '은/는')} {b.stock['name']}의 {ratio:,.2f}배**" if a.ko()
                else f"**{a.stock['name']}'s {en} is {ratio:,.2f}x {b.stock['name']}'s**")  # fmt: skip
    gap = a.figures[key] - b.figures[key]
    times = "배" if a.ko() else "x"
    text = (f"{gap:+.2f}%p" if key in ("return", "dividend_yield") else f"{gap:+,.2f}{times}" if key in ("per", "pbr")
            else f"{gap:+,.0f}주" if key == "volume"
            else ("+" if gap >= 0 else "-") + _figure_text(key, abs(gap), a))  # fmt: skip
    names = f"{a.stock['name']} − {b.stock['name']}"
    return f"**{names} {ko} 차이: {text}**" if a.ko() else f"**{names} {en} gap: {text}**"


def _stock_turn(frame: QuestionFrame, code: str, as_of: str, lang: str,
                pool: ConnectionPool | None) -> _Turn:  # fmt: skip
    """One stock's figures the frame asks for, dated by its own last bar."""
    stock = dict(fetch_all(_STOCK, {"code": code}, pool=pool)[0])
    dating = date_security(stock["security_id"], date.fromisoformat(as_of), pool)
    turn = _Turn(frame=frame, stock=stock, as_of=dating.as_of.isoformat(), lang=lang,
                 daily=dating.daily, notes=dating.notes(lang))  # fmt: skip
    session = dating.session_note_ko() if lang == "ko" else ""
    if session:  # the closed day's session is the asked day's answer, not a miss
        turn.notes.remove(session)
        turn.info.append(session)
    for section in _sections(frame):
        SECTIONS[section](turn, pool)
    return turn


def _unknown_stock(question: str, lang: str, pool: ConnectionPool | None) -> str:
    """The unknown-symbol answer of the report ('알 수 없는 종목입니다') with look-alike names."""
    from agents.evidence import EvidenceCollector
    from agents.stock.data import StockData
    from data_access.catalog import current_as_of_date

    data = StockData(pool, EvidenceCollector(), current_as_of_date(pool))
    names = ", ".join(f"{s['name']}({s['id']})" for s in data.suggest(question))
    if lang == "ko":
        return "알 수 없는 종목입니다: 질문에서 데이터에 있는 종목을 찾지 못했습니다." + (
            f" 비슷한 종목: {names}"
            if names
            else " 종목명이나 코드(예: 005930, NVDA)로 물어보세요."
        )
    # the screen is Korean: its unknown-symbol wording leads, as the report's does
    return "알 수 없는 종목입니다 (unknown stock): no stock in the data was named." + (
        f" Look-alikes: {names}" if names else " Ask by name or code (e.g. 005930, NVDA)."
    )


def _not_a_report_request(unread: list[str]) -> list[str]:
    """The unread words beside a stock that ask for something other than its report ('대표이사',
    '공장 위치'); '정보', '분석', '리포트' ask for the report itself."""
    report = {w.lower() for w in vocabulary()["report_words"]}
    return [w for w in unread if w.lower() not in report]


def _unread_refusal(unread: list[str], question: str, name: str, lang: str) -> str:
    glued = "".join(unread)  # Kiwi's parts of one written word ('대표' + '이사'), as written
    words = glued if glued in question else " ".join(unread)
    if lang == "ko":
        return (particles(f"'{words}'은(는) 이 워크벤치 데이터에서 읽지 못해 답하지 않았습니다. ")
                + f"{name}의 종목 리포트는 종목 이름만 입력하면 만들어집니다.")  # fmt: skip
    return f"'{words}' is not something this workbench's data answers. Enter just {name} for its report."


def _asks_figures(frame: QuestionFrame) -> bool:
    """A named stock and something asked of it (a measure, a change, a period)."""
    op = frame.operation
    return bool(frame.of("stock")) and bool(
        frame.measures or op.kind not in ("lookup", "list") or frame.period or frame.unknown_words
    )


def _scope_refusal(frame: QuestionFrame, lang: str) -> str | None:
    """Forecasts and assets outside the data."""
    scope = [n.split(":") for n in frame.notes if n.startswith("out_of_scope:")]
    if scope:
        if scope[0][1] == "forecast":
            return (
                "주가를 예측하거나 맞히는 답은 드리지 않습니다 (데이터로 뒷받침할 수 없습니다)."
                if lang == "ko"
                else "I do not forecast prices (the data cannot back it)."
            )
        what = ", ".join(frame.unknown_words) or scope[0][2]  # '삼성전자 CEO 누구야?': the CEO
        return (particles(f"'{what}'은(는) 이 워크벤치 데이터에 없습니다.") if lang == "ko"
                else f"'{what}' is not in this workbench's data.")  # fmt: skip
    return None


def _unheld_refusal(frame: QuestionFrame, lang: str) -> str | None:
    """Only measures we do not hold were asked ('테슬라 공매도 잔고')."""
    known = [m for m in frame.measures if m.name in _MEASURE_SECTIONS]
    if frame.unknown_words and not known:
        names = ", ".join(frame.unknown_words)
        return (particles(f"'{names}'은(는) 이 워크벤치 데이터에 없어 답할 수 없습니다.") if lang == "ko"
                else f"'{names}' is not in this workbench's data.")  # fmt: skip
    return None


_MEASURE_SECTIONS = {
    "per": "valuation", "pbr": "valuation", "eps": "eps", "dividend_yield": "dividend",
    "market_cap": "market_cap", "high": "range", "low": "range", "close": "close",
    "volume": "volume", "return": "return", "rsi": "rsi", "earnings": "earnings",
    "trading_value": "trading_value", "volatility": "volatility",
}  # fmt: skip


def _sections(frame: QuestionFrame) -> list[str]:
    if frame.measure() == "drawdown":  # '최대 낙폭' holds '최대', which is no window statistic
        return ["drawdown"]
    if window_ask(frame) is not None:  # '10거래일 평균 종가': that figure, nothing else
        return ["window"]
    if _month_asked(frame) and frame.operation.aggregate in ("avg", "sum", "max", "min"):
        return ["month_stat"]  # '작년 11월 평균 종가': over that calendar month's sessions
    if _day_of_volume(frame):  # '거래량 가장 많았던 날': one session's volume, the largest
        return ["volume_day"]
    if _day_of_move(frame):  # '가장 많이 오른 날', '언제 제일 많이 올랐어?': one day's move
        return ["biggest_move"]
    wanted = [_MEASURE_SECTIONS[m.name] for m in frame.measures if m.name in _MEASURE_SECTIONS]
    why = _asks_why(frame)
    if _asks_peers(frame):  # '삼성전자 PER 업종 평균 대비': the figure beside its sector's
        return ["peers"]
    changed = _asks_move(frame) or frame.operation.kind == "change" or (
        frame.operation.kind == "compare" and len(frame.of("stock")) == 1 and frame.period)  # fmt: skip
    if changed and wanted and set(wanted) <= _FUNDAMENTAL_SECTIONS:
        return ["fundamental_change"]  # 'EPS 작년보다 늘었어?': the figure against its past
    # '지난주 대비 얼마나 변했어?' is the price's move; '거래량 어제보다 늘었어?' the volume's
    volume_only = bool(wanted) and set(wanted) <= {"volume", "trading_value"}
    if (_asks_move(frame) or why) and "return" not in wanted and not volume_only:
        wanted.append("return")
        if frame.period is not None and frame.period.label == "1d":  # '어제 … 그제 … 차이'
            mark_read(frame, *(w for w in ("그제", "그저께", "엊그제") if w in frame.question))
    if why:  # '현대차 왜 떨어졌어?': the move, then the news tagged with the stock in its window
        wanted.append("news")
    return list(dict.fromkeys(wanted)) or ["close", "return", "valuation"]


def _money(value: float, currency: str) -> str:
    return f"{value:,.0f}원" if currency == "KRW" else f"${value:,.2f}"


_FX = """SELECT obs_date, value FROM macro_observations WHERE series_code = %(series)s
AND obs_date <= %(as_of)s ORDER BY obs_date DESC LIMIT 1"""
_ASKS_WON = re.compile(r"(?:조|억|만|천)?\s*원(?:화)?(?:으로|로|는|은|\?|$|\s)")


def _in_won(turn: _Turn, value: float, pool: ConnectionPool | None) -> str:
    """'NVIDIA 시총 몇 조 원?': a dollar figure also in won, at the USD/KRW close of the day."""
    if (
        turn.stock["currency"] != "USD"
        or not turn.ko()
        or not _ASKS_WON.search(turn.frame.question)
    ):
        return ""
    rows = turn.query("macro_observations", _FX, {"series": "KR_USDKRW", "as_of": turn.as_of},
                      "KR_USDKRW", "macro_observations", pool)  # fmt: skip
    if not rows:
        return ""
    fx, won = float(rows[0]["value"]), value * float(rows[0]["value"])
    return f" (≈ {fmt_krw(won) if won >= 1e8 else f'{won:,.0f}원'} · 원/달러 {fx:,.2f})"


def _window_start(turn: _Turn, months: float) -> str:
    return (date.fromisoformat(turn.as_of) - relativedelta(months=int(months) + 1)).isoformat()


def _prices(turn: _Turn, pool: ConnectionPool | None, months: float) -> list[dict[str, Any]]:
    sid = turn.stock["security_id"]
    dataset = "KR_STOCK_DAILY_OHLCV" if sid.startswith("KR:") else "US_TOP50_DAILY_OHLCV"
    rows = turn.query("stock_prices", _PRICES, {"sid": sid, "as_of": turn.as_of,
                      "start": _window_start(turn, months)}, dataset, "stock_prices", pool)  # fmt: skip
    if not rows:
        return rows
    last = rows[-1]["trade_date"]
    base = last - (relativedelta(weeks=1) if months < 1 else relativedelta(months=int(months)))
    return [r for r in rows if r["trade_date"] >= base]


def _period(turn: _Turn, default: float) -> tuple[float, str]:
    period = turn.frame.period
    months = period.months if period else default
    words = {0.25: ("1주", "1 week"), 1.0: ("1개월", "1 month"), 3.0: ("3개월", "3 months"),
             6.0: ("6개월", "6 months"), 12.0: ("1년", "1 year")}  # fmt: skip
    if months not in words and period is not None and period.surface:
        return months, period.surface  # '올해', '연초 이후': as asked, not '10.9667개월'
    ko, en = words.get(months, (f"{months:g}개월", f"{months:g} months"))
    return months, ko if turn.ko() else en


def _period_bars(turn: _Turn, pool: ConnectionPool | None,
                 default: tuple[str, float]) -> tuple[fig.Period, list[dict[str, Any]]]:  # fmt: skip
    """The asked calendar period (else `default`) and the bars from a little before its base
    date to the as-of date: the figures module reads its windows off them."""
    period = turn.frame.period
    p = fig.period_named(*((period.label, period.months) if period else default))
    sid = turn.stock["security_id"]
    dataset = "KR_STOCK_DAILY_OHLCV" if sid.startswith("KR:") else "US_TOP50_DAILY_OHLCV"
    start = fig.base_date(date.fromisoformat(turn.as_of), p) - timedelta(days=_BASE_SLACK_DAYS)
    rows = turn.query("stock_prices", _PRICES, {"sid": sid, "as_of": turn.as_of,
                      "start": start.isoformat()}, dataset, "stock_prices", pool)  # fmt: skip
    return p, rows


def _return(turn: _Turn, pool: ConnectionPool | None) -> None:
    """The period return by the figures module's definition (calendar period, base close the
    last bar on or before the as-of bar minus the period), with both closes and dates; a
    why-question's premise ('왜 올랐어?' when it fell) is checked first."""
    p, rows = _period_bars(turn, pool, ("1m", 1.0))
    label = p.ko if turn.ko() else p.en
    r = fig.period_return(fig.bars_of(rows), p)
    if r is None:
        turn.notes.append(f"{label} 수익률을 계산할 기준일 시세가 없습니다." if turn.ko()
                          else f"No close on or before the {label} base date.")  # fmt: skip
        return
    fig_window(turn.citations[-1], turn.trace[-1], r, label)
    turn.figures["return"] = r.pct
    cur = turn.stock["currency"]
    first, last = _money(r.start_close, cur), _money(r.end_close, cur)
    turn.lines.append(
        f"{label} 수익률 {r.pct:+.2f}% (종가 {first} {r.start_date} → {last} {r.end_date})"
        if turn.ko() else f"{label} return {r.pct:+.2f}% (close {first} on {r.start_date} → "
        f"{last} on {r.end_date})")  # fmt: skip
    for index in turn.frame.of("index")[:1]:  # 'NAVER 코스피 대비 3개월 (초과) 수익률'
        _against_index(turn, pool, index.name, p, r)
    move = asked_move(turn.frame.question) if _asks_why(turn.frame) else None
    premise = contradicted(turn.stock["name"], r.pct, label, move, turn.lang) if move else None
    if premise:
        turn.lines.insert(0, premise)  # said before the figures it rests on


_INDEX_BARS = """SELECT trade_date, close FROM market_series_prices WHERE series_code = %(series)s
AND trade_date >= %(start)s AND trade_date <= %(as_of)s ORDER BY trade_date"""


def _against_index(turn: _Turn, pool: ConnectionPool | None, name: str, p: fig.Period,
                   own: fig.PeriodReturn) -> None:  # fmt: skip
    """The stock's return less the named index's over the same period: a simple excess return
    (a difference of returns, not an alpha net of beta), said first."""
    code = series_code_for(name)
    if code is None:
        return
    start = (own.start_date - timedelta(days=_BASE_SLACK_DAYS)).isoformat()
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


def _day_of_move(frame: QuestionFrame) -> bool:
    """The day of the largest one-day rise or fall asked ('… 가장 많이 떨어진 날은?')."""
    op = frame.operation
    return (op.kind == "aggregate" and op.aggregate in ("max", "min") and bool(op.words)
            and frame.measure() in (None, "return"))  # fmt: skip


def _month_asked(frame: QuestionFrame) -> str | None:
    """'2025-11' when a calendar month was named without an edge ('작년 11월')."""
    return next((n.removeprefix(CALENDAR_MONTH) for n in frame.notes
                 if n.startswith(CALENDAR_MONTH)), None)  # fmt: skip


def _month_stat(turn: _Turn, pool: ConnectionPool | None) -> None:
    """The asked statistic of the closes (or volumes) over one calendar month's sessions."""
    month = _month_asked(turn.frame)
    assert month is not None
    field = "volume" if turn.frame.measure() == "volume" else "close"
    first = date.fromisoformat(f"{month}-01")
    rows = turn.query("stock_prices", _PRICES, {"sid": turn.stock["security_id"],
                      "as_of": turn.as_of, "start": first.isoformat()},
                      "KR_STOCK_DAILY_OHLCV" if turn.stock["security_id"].startswith("KR:")
                      else "US_TOP50_DAILY_OHLCV", "stock_prices", pool)  # fmt: skip
    points = [(r["trade_date"], float(r[field])) for r in rows
              if r[field] is not None and str(r["trade_date"])[:7] == month]  # fmt: skip
    stat = turn.frame.operation.aggregate or "avg"
    found = (
        fig.window_statistic(points, fig.Window(len(points), "session"), stat) if points else None
    )
    if found is None:
        turn.notes.append(f"{month}의 시세가 없습니다." if turn.ko() else f"No bars in {month}.")
        return
    ask = WindowAsk(fig.Window(len(points), "session"), stat, field, month, month)
    fmt = (lambda v: f"{v:,.0f}주") if field == "volume" else (
        lambda v: _money(v, turn.stock["currency"]))  # fmt: skip
    name = f"{turn.stock['name']} {_FIELD_WORDS[field][0 if turn.ko() else 1]}"
    turn.lines.append(describe(name, ask, found, fmt, turn.lang))


def _day_of_volume(frame: QuestionFrame) -> bool:
    op = frame.operation
    return (op.kind == "aggregate" and op.aggregate in ("max", "min")
            and frame.measure() == "volume")  # fmt: skip


def _volume_day(turn: _Turn, pool: ConnectionPool | None) -> None:
    """The session of the largest (smallest) volume over the period (a month unless asked)."""
    p, rows = _period_bars(turn, pool, ("1m", 1.0))
    base = fig.base_date(rows[-1]["trade_date"], p) if rows else None
    bars = [
        r for r in rows if r["volume"] is not None and base is not None and r["trade_date"] > base
    ]
    if not bars:
        turn.notes.append("거래량이 없어 계산하지 못했습니다." if turn.ko() else "No volume.")
        return
    least = turn.frame.operation.aggregate == "min"
    day = (min if least else max)(bars, key=lambda r: r["volume"])
    mark_used(turn.frame)
    label = p.ko if turn.ko() else p.en
    word = ("거래량 가장 적은 날" if least else "거래량 가장 많은 날") if turn.ko() else (
        "lowest-volume session" if least else "highest-volume session")  # fmt: skip
    mean = sum(float(r["volume"]) for r in bars) / len(bars)
    turn.lines.append(
        f"{label}({bars[0]['trade_date']} ~ {bars[-1]['trade_date']}) {word}: {day['trade_date']} "
        f"{int(day['volume']):,}주 (기간 평균 {mean:,.0f}주의 {float(day['volume']) / mean:.1f}배)"
        if turn.ko() else f"{word} over {label} ({bars[0]['trade_date']} to "
        f"{bars[-1]['trade_date']}): {day['trade_date']}, {int(day['volume']):,} shares "
        f"({float(day['volume']) / mean:.1f}x the period's mean of {mean:,.0f})")  # fmt: skip


def _drawdown(turn: _Turn, pool: ConnectionPool | None) -> None:
    """The deepest fall from a running high of the closes over the period (a year unless
    asked), with the days of its peak and trough."""
    p, rows = _period_bars(turn, pool, ("1y", 12.0))
    base = fig.base_date(rows[-1]["trade_date"], p) if rows else None
    points = [(r["trade_date"], float(r["close"])) for r in rows
              if base is not None and r["trade_date"] >= base and r["close"]]  # fmt: skip
    found = fig.deepest_drawdown(points)
    if found is None:
        turn.notes.append("시세가 부족해 계산하지 못했습니다." if turn.ko() else "Too few closes.")
        return
    mark_used(turn.frame)
    depth, peak, trough = found
    label = p.ko if turn.ko() else p.en
    turn.lines.append(
        f"{label} 최대 낙폭(종가 기준) {depth * 100:.2f}% (고점 {peak} → 저점 {trough}; "
        f"{points[0][0]} ~ {points[-1][0]})" if turn.ko() else f"Maximum drawdown over {label} "
        f"(closes) {depth * 100:.2f}% (peak {peak} → trough {trough}; {points[0][0]} to "
        f"{points[-1][0]})")  # fmt: skip


def _biggest_move(turn: _Turn, pool: ConnectionPool | None) -> None:
    """The largest one-day rise (or fall) of the closes over the period (a year unless asked),
    its date and both closes."""
    w = turn.frame.window
    sessions = w is not None and w.unit == "session"  # '최근 10거래일 중': the last 10 moves
    if sessions:  # enough calendar days for N sessions and the close before them
        days = fig.Window(w.n, "session").calendar_days()  # type: ignore[union-attr]
        p, rows = fig.period_named(None, days / 30), _prices(turn, pool, days / 30)
    else:
        p, rows = _period_bars(turn, pool, ("1y", 12.0))
    closes = [(r["trade_date"], float(r["close"])) for r in rows if r["close"]]
    if sessions:
        closes = closes[-w.n - 1 :]  # type: ignore[union-attr]
        mark_used(turn.frame)
    else:
        base = fig.base_date(closes[-1][0], p) if closes else None  # the move into a day of it
        closes = [c for c in closes if base is None or c[0] >= base]
    fall = turn.frame.operation.aggregate == "min"  # the frame reads '떨어진 날' as the lowest move
    found = fig.biggest_one_day_move(closes, "min" if fall else "max")
    if found is None:
        turn.notes.append(
            "일간 등락을 계산할 시세가 부족합니다." if turn.ko() else "Too few closes."
        )
        return
    day, move, prev, close = found
    cur, label = turn.stock["currency"], p.ko if turn.ko() else p.en
    if sessions:
        label = w.label(turn.lang)  # type: ignore[union-attr]
    word = ("가장 크게 내린 날" if fall else "가장 크게 오른 날") if turn.ko() else (
        "largest one-day fall" if fall else "largest one-day rise")  # fmt: skip
    turn.lines.append(f"{label}({closes[0][0]} ~ {closes[-1][0]}) {word}: {day} {move:+.2f}% "
                      f"(종가 {_money(prev, cur)} → {_money(close, cur)})" if turn.ko() else
                      f"{word} over {label} ({closes[0][0]} to {closes[-1][0]}): {day} "
                      f"{move:+.2f}% (close {_money(prev, cur)} → {_money(close, cur)})")  # fmt: skip


def _asks_why(frame: QuestionFrame) -> bool:
    return bool(find_phrases(frame.question.lower(), {"why": vocabulary()["why"]}))


def _volatility(turn: _Turn, pool: ConnectionPool | None) -> None:
    """Annualized volatility of the window's daily returns (data_access.figures: sample stdev
    × √252), a year unless asked: a month of sessions is few, but it is what was asked."""
    p, rows = _period_bars(turn, pool, ("1y", 12.0))
    bars = fig.window_rows(rows, "trade_date", p)
    closes = [float(r["close"]) for r in bars if r["close"] is not None]
    sigma = fig.annualized_volatility(closes, len(closes) - 1) if len(closes) > 2 else None
    label = p.ko if turn.ko() else p.en
    if sigma is None:
        turn.notes.append(f"{label} 변동성을 계산할 시세가 부족합니다." if turn.ko()
                          else f"Too few closes for a {label} volatility.")  # fmt: skip
        return
    first, last = bars[0]["trade_date"], bars[-1]["trade_date"]
    turn.lines.append(
        f"{label} 연환산 변동성 {sigma * 100:.2f}% (일간 수익률 표준편차 × √252, {first} ~ {last}, "
        f"{len(closes)}거래일)" if turn.ko() else f"{label} annualized volatility "
        f"{sigma * 100:.2f}% (stdev of daily returns × √252, {first} to {last}, "
        f"{len(closes)} sessions)")  # fmt: skip


def fig_window(citation: StructuredCitation, step: TraceStep, r: fig.PeriodReturn,
               label: str) -> None:  # fmt: skip
    """The citation and the trace step name the closes a return compares and its definition."""
    citation.date_range.start, citation.date_range.end = str(r.start_date), str(r.end_date)
    step.observation = f"{step.observation}; {label} {r.window_ko()} ({fig.RETURN_DEFINITION_KO})"


def _range(turn: _Turn, pool: ConnectionPool | None) -> None:
    months, label = _period(turn, 12.0)
    rows = _prices(turn, pool, months)
    if not rows:
        return
    label = "52주" if months >= 12 and turn.ko() else ("52-week" if months >= 12 else label)
    cur = turn.stock["currency"]
    high = max(rows, key=lambda r: r["high"])
    low = min(rows, key=lambda r: r["low"])
    names = [m.name for m in turn.frame.measures]
    if "high" in names or "low" not in names:
        turn.lines.append(f"{label} 최고가 {_money(float(high['high']), cur)} ({high['trade_date']})"
                          if turn.ko() else f"{label} high {_money(float(high['high']), cur)} "
                          f"on {high['trade_date']}")  # fmt: skip
    if "low" in names or "high" not in names:
        turn.lines.append(f"{label} 최저가 {_money(float(low['low']), cur)} ({low['trade_date']})"
                          if turn.ko() else f"{label} low {_money(float(low['low']), cur)} "
                          f"on {low['trade_date']}")  # fmt: skip
    last = rows[-1]  # '고점 대비 얼마나 빠졌어?': the latest close against the range
    close = float(last["close"])
    gaps = [(w, float(r[k])) for w, r, k, asked in (("high", high, "high", "high" in names or "low" not in names),
            ("low", low, "low", "low" in names or "high" not in names)) if asked and float(r[k])]  # fmt: skip
    parts = [f"{'최고가' if w == 'high' else '최저가'} 대비 {(close / v - 1) * 100:+.2f}%" if turn.ko()
             else f"{(close / v - 1) * 100:+.2f}% from the {w}" for w, v in gaps]  # fmt: skip
    if parts:
        turn.lines.append(f"최근 종가 {_money(close, cur)} ({last['trade_date']}): " + ", ".join(parts)
                          if turn.ko() else f"Last close {_money(close, cur)} on "
                          f"{last['trade_date']}: " + ", ".join(parts))  # fmt: skip


def _trading_value(turn: _Turn, pool: ConnectionPool | None) -> None:
    """Σ close × volume over the window (the bars after the base bar), and its daily mean."""
    months, label = _period(turn, 1.0)
    p, bars = _period_bars(turn, pool, ("1m", 1.0))
    base = fig.base_date(bars[-1]["trade_date"], p) if bars else None
    rows = [r for r in bars if base is not None and r["trade_date"] > base]  # after the base bar
    if not rows:
        return
    values = [float(r["close"]) * float(r["volume"]) for r in rows if r["volume"]]
    cur = turn.stock["currency"]
    total = _amount(sum(values), cur)
    mean = _amount(sum(values) / max(1, len(values)), cur)
    turn.lines.append(f"{label} 거래대금 {total}, 하루 평균 {mean} ({rows[0]['trade_date']} ~ "
                      f"{rows[-1]['trade_date']}, {len(values)}거래일; 종가 × 거래량)" if turn.ko()
                      else f"{label} trading value {total}, {mean} a session "
                      f"({rows[0]['trade_date']} to {rows[-1]['trade_date']}; close × volume)")  # fmt: skip


def _amount(value: float, currency: str) -> str:
    """A large amount as an analyst writes it: 조/억 원, or $…B / $…M."""
    if currency == "KRW":
        return fmt_krw(value)
    return f"${value / 1e9:,.2f}B" if value >= 1e9 else f"${value / 1e6:,.1f}M"


def _news(turn: _Turn, pool: ConnectionPool | None) -> None:
    """The articles tagged with the stock inside the move's window, newest first: the evidence
    a why-question can be read against (the report and Macro Q&A go further)."""
    months, label = _period(turn, 1.0)
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


_FIELD_WORDS = {"close": ("종가", "close"), "high": ("고가", "high"), "low": ("저가", "low"),
                "high_low": ("고가·저가", "high and low"), "volume": ("거래량", "volume"),
                "trading_value": ("거래대금", "trading value")}  # fmt: skip


def _window(turn: _Turn, pool: ConnectionPool | None) -> None:
    """A statistic over a window of the stock's daily bars (window_answer, figures)."""
    ask = window_ask(turn.frame)
    assert ask is not None
    sid = turn.stock["security_id"]
    dataset = "KR_STOCK_DAILY_OHLCV" if sid.startswith("KR:") else "US_TOP50_DAILY_OHLCV"
    start = date.fromisoformat(turn.as_of) - timedelta(days=ask.window.calendar_days())
    rows = turn.query("stock_prices", _PRICES, {"sid": sid, "as_of": turn.as_of,
                      "start": start.isoformat()}, dataset, "stock_prices", pool)  # fmt: skip
    field = ask.field if ask.field in _FIELD_WORDS else "close"

    def points(of: str) -> list[tuple[date, float]]:
        return [(r["trade_date"], _bar_value(r, of)) for r in rows
                if r["volume"] is not None or of in ("close", "high", "low")]  # fmt: skip

    if field == "high_low":  # '최고가와 최저가 (차이)': the highest high, the lowest low
        both = fig.window_extremes(points("high"), points("low"), ask.window)
        found = both and replace(both, stat="range" if ask.stat == "range" else "extremes")
    else:
        found = fig.window_statistic(points(field), ask.window, ask.stat)
    if found is None:
        turn.notes.append(f"{ask.label(turn.lang)} 구간의 시세가 부족해 계산하지 못했습니다."
                          if turn.ko() else f"Not enough bars for the {ask.label('en')}.")  # fmt: skip
        return
    mark_used(turn.frame)
    cur = turn.stock["currency"]
    fmt = ((lambda v: f"{v:,.0f}주") if field == "volume" else
           (lambda v: _amount(v, cur)) if field == "trading_value" else (lambda v: _money(v, cur)))  # fmt: skip
    turn.citations[-1].date_range.start = str(found.first)
    name = f"{turn.stock['name']} {_FIELD_WORDS[field][0 if turn.ko() else 1]}"
    turn.lines.append(describe(name, ask, found, fmt, turn.lang))


def _bar_value(row: dict[str, Any], field: str) -> float:
    if field == "trading_value":
        return float(row["close"]) * float(row["volume"] or 0)
    return float(row[field])


def _close(turn: _Turn, pool: ConnectionPool | None) -> None:
    rows = _prices(turn, pool, 0.25)
    if rows:
        last = rows[-1]
        turn.figures["close"] = float(last["close"])
        price = _money(float(last["close"]), turn.stock["currency"])
        price += _in_won(turn, float(last["close"]), pool)
        turn.lines.append(f"종가 {price} ({last['trade_date']})" if turn.ko()
                          else f"Close {price} on {last['trade_date']}")  # fmt: skip


def _volume(turn: _Turn, pool: ConnectionPool | None) -> None:
    """The last session's volume; asked how it moved ('어제보다 늘었어?'), against the bar the
    period reaches back to (the figures module's base date)."""
    p, rows = _period_bars(turn, pool, ("1d", 1 / 30))
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
    if _asks_move(turn.frame) and base is not None:
        v0 = int(base["volume"])
        line += (f", {base['trade_date']} {v0:,}주 대비 {v1 - v0:+,}주 ({(v1 / v0 - 1) * 100:+.2f}%)"
                 if turn.ko() else f", {v1 - v0:+,} ({(v1 / v0 - 1) * 100:+.2f}%) vs "
                 f"{v0:,} on {base['trade_date']}")  # fmt: skip
    turn.lines.append(line)


def _asks_move(frame: QuestionFrame) -> bool:
    """A change over the period; a difference of the one stock's figure with itself over a
    period ('어제 종가랑 그제 종가 차이') is that change too."""
    one_dated = frame.operation.kind == "difference" and frame.period is not None
    return (frame.operation.kind in ("change", "trend") or one_dated
            or frame.statistic in ("change", "return"))  # fmt: skip


def _rsi(turn: _Turn, pool: ConnectionPool | None) -> None:
    if not turn.daily:  # RSI(14) is fourteen sessions: not read off weekly or monthly bars
        return
    rows = _prices(turn, pool, 3.0)
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
    price = _money(float(last["close"]), turn.stock["currency"])
    turn.lines.append(f"RSI(14) {rsi:.1f} — {zone} (종가 {price}, {last['trade_date']})" if turn.ko()
                      else f"RSI(14) {rsi:.1f} — {zone} (close {price} on {last['trade_date']})")  # fmt: skip


def _fundamentals(turn: _Turn, pool: ConnectionPool | None) -> dict[str, Any] | None:
    rows = turn.query("stock_fundamentals", _FUNDAMENTALS,
                      {"sid": turn.stock["security_id"], "as_of": turn.as_of},
                      "STOCK_FUNDAMENTALS", "stock_fundamentals", pool)  # fmt: skip
    return rows[0] if rows else None


_FUNDAMENTAL_SECTIONS = frozenset({"valuation", "eps", "dividend", "market_cap"})
_PAST_FUNDAMENTALS = """SELECT as_of_date, market_cap, eps, pe, pb, dividend_yield
FROM stock_fundamentals WHERE security_id = %(sid)s AND as_of_date <= %(day)s
ORDER BY as_of_date DESC LIMIT 1"""
_FUNDAMENTAL_FIELDS = {"per": "pe", "pbr": "pb", "eps": "eps", "dividend_yield": "dividend_yield",
                       "market_cap": "market_cap"}  # fmt: skip


def _fundamental_change(turn: _Turn, pool: ConnectionPool | None) -> None:
    """'카카오 EPS 작년보다 늘었어?': each asked figure now and on the last snapshot on or before
    the base day (a year back unless the question names a month or a period)."""
    now = _fundamentals(turn, pool)
    if not now:
        return
    basis = turn.frame.operation.change_basis
    months = 1.0 if basis == "mom" else turn.frame.period.months if (
        basis in ("period", None) and turn.frame.period) else 12.0  # fmt: skip
    last = date.fromisoformat(str(now["as_of_date"]))
    # '지난달 대비': the snapshot of the month before (snapshots are taken at month ends)
    day = last.replace(day=1) - timedelta(days=1) if basis == "mom" else (
        last - relativedelta(months=round(months)))  # fmt: skip
    rows = turn.query("stock_fundamentals", _PAST_FUNDAMENTALS,
                      {"sid": turn.stock["security_id"], "day": day.isoformat()},
                      "STOCK_FUNDAMENTALS", "stock_fundamentals", pool)  # fmt: skip
    if not rows:
        turn.notes.append(f"{day} 이전 재무 지표가 없어 비교하지 못했습니다." if turn.ko()
                          else f"No fundamentals on or before {day} to compare with.")  # fmt: skip
        return
    past = rows[0]
    for m in turn.frame.measures:
        field = _FUNDAMENTAL_FIELDS.get(m.name)
        if field is None or now[field] is None or past[field] is None:
            continue
        v1, v0 = float(now[field]), float(past[field])
        turn.figures[m.name] = v1
        a, b = _figure_text(m.name, v1, turn), _figure_text(m.name, v0, turn)
        rate = m.name == "dividend_yield"
        moved = f"{v1 - v0:+.2f}%p" if rate else f"{(v1 / v0 - 1) * 100:+.2f}%" if v0 else "—"
        ko, en = _GAP_WORDS[m.name]
        turn.lines.append(
            f"{ko} {a} ({now['as_of_date']} 기준), {past['as_of_date']}의 {b} 대비 {moved}"
            if turn.ko() else f"{en} {a} (as of {now['as_of_date']}), {moved} vs "
            f"{b} on {past['as_of_date']}")  # fmt: skip


def _asks_peers(frame: QuestionFrame) -> bool:
    """'업종 평균 대비', or a sector named beside the stock ('SK하이닉스 반도체 업종 PBR 비교')."""
    said = find_phrases(frame.question.lower(), {"p": vocabulary()["peer_words"]})
    return bool(said or (frame.of("sector") and frame.of("stock")))


def _sector_rows(turn: _Turn, pool: ConnectionPool | None, sectors: list[str],
                 country: str) -> list[dict[str, Any]]:  # fmt: skip
    return turn.query("stock_fundamentals", _PEERS, {"sectors": sectors, "as_of": turn.as_of,
                      "country": country}, "STOCK_FUNDAMENTALS", "stock_fundamentals", pool)  # fmt: skip


def _sector_values(rows: list[dict[str, Any]], field: str) -> list[float]:
    """A sector's figures: each stock's last snapshot, a P/E only where earnings are positive."""
    return [float(r[field]) for r in rows
            if r[field] is not None and (field != "pe" or float(r[field]) > 0)]  # fmt: skip


def _valuations_asked(frame: QuestionFrame) -> list[str]:
    asked = [m.name for m in frame.measures if m.name in _FUNDAMENTAL_FIELDS] or ["per", "pbr"]
    return list(dict.fromkeys(asked))


def _peers(turn: _Turn, pool: ConnectionPool | None) -> None:
    """Each asked valuation figure beside the mean and median of the stock's sector (same
    market, each peer on its last snapshot; a P/E only where earnings are positive)."""
    sector = turn.stock.get("sector")
    if not sector:
        turn.notes.append("이 종목의 업종 정보가 없어 업종과 비교하지 못했습니다." if turn.ko()
                          else "The stock has no sector to compare with.")  # fmt: skip
        return
    rows = _sector_rows(turn, pool, [sector], turn.stock["country"])
    own = next((r for r in rows if r["security_id"] == turn.stock["security_id"]), None)
    for name in _valuations_asked(turn.frame):
        field = _FUNDAMENTAL_FIELDS[name]
        values = _sector_values(rows, field)
        if own is None or own[field] is None or len(values) < 2:
            continue
        mean, median = sum(values) / len(values), statistics.median(values)
        turn.figures[name] = float(own[field])
        ko, en = _GAP_WORDS[name]
        mine, avg, mid = (_figure_text(name, v, turn) for v in (float(own[field]), mean, median))
        market = "국내" if turn.stock["country"] == "KR" else "미국"
        turn.lines.append(
            f"{ko} {mine} — {sector} 업종({market} {len(values)}종목) 평균 {avg}, 중앙값 {mid} "
            f"({turn.as_of} 기준)" if turn.ko() else f"{en} {mine} vs the {sector} sector "
            f"({len(values)} stocks): mean {avg}, median {mid} (as of {turn.as_of})")  # fmt: skip
    words = [t for p in vocabulary()["peer_words"] if p in turn.frame.question.lower()
             for t in p.split()]  # fmt: skip
    mark_read(turn.frame, *words)


def _sector_turn(frame: QuestionFrame, as_of: str, pool: ConnectionPool | None) -> _Turn | None:
    """'반도체 업종 평균 PER': a sector's valuation (mean, median, count) in each market that has
    stocks of it, when a sector and a valuation figure, but no stock, were named."""
    sectors = frame.of("sector")
    if not sectors or not any(m.name in _FUNDAMENTAL_FIELDS for m in frame.measures):
        return None
    spec = next((x for x in vocabulary()["sectors"] if x["key"] == sectors[0].key), None)
    members = list(spec.get("data_sectors") or [sectors[0].key]) if spec else [sectors[0].key]
    name = sectors[0].key
    turn = _Turn(frame=frame, stock={"name": name, "currency": "KRW"}, as_of=as_of,
                 lang=frame.language)  # fmt: skip
    for country, market, currency in (("KR", "국내", "KRW"), ("US", "미국", "USD")):
        rows = _sector_rows(turn, pool, members, country)
        turn.stock["currency"] = currency
        for m in _valuations_asked(frame):
            field = _FUNDAMENTAL_FIELDS[m]
            values = _sector_values(rows, field)
            if len(values) < 2:
                continue
            ko, en = _GAP_WORDS[m]
            avg, mid = (_figure_text(m, v, turn) for v in (sum(values) / len(values),
                                                           statistics.median(values)))  # fmt: skip
            total = f", 합계 {_figure_text(m, sum(values), turn)}" if m in _ADDITIVE else ""
            turn.lines.append(
                f"{market} {name} 업종 {ko} ({len(values)}종목): 평균 {avg}, 중앙값 {mid}{total}"
                if turn.ko() else f"{name} sector {en}, {country} ({len(values)} stocks): mean "
                f"{avg}, median {mid}")  # fmt: skip
    if not turn.lines:
        return None
    mark_read(turn.frame, "업종", "섹터", "sector")
    turn.info.append(f"각 종목의 {as_of} 이전 마지막 재무 스냅샷 기준, PER은 이익이 양수인 종목만."
                     if turn.ko() else f"Each stock's last snapshot on or before {as_of}; P/E "
                     "over stocks with positive earnings only.")  # fmt: skip
    return turn


def _valuation(turn: _Turn, pool: ConnectionPool | None) -> None:
    f = _fundamentals(turn, pool)
    if f:
        turn.figures.update(per=float(f["pe"]), pbr=float(f["pb"]))
        turn.lines.append(f"PER {float(f['pe']):.2f}배, PBR {float(f['pb']):.2f}배 ({f['as_of_date']} 기준)"
                          if turn.ko() else f"P/E {float(f['pe']):.2f}, P/B {float(f['pb']):.2f} "
                          f"(as of {f['as_of_date']})")  # fmt: skip


def _eps(turn: _Turn, pool: ConnectionPool | None) -> None:
    f = _fundamentals(turn, pool)
    if f and f["eps"] is not None:
        turn.figures["eps"] = float(f["eps"])
        eps = _money(float(f["eps"]), turn.stock["currency"])
        turn.lines.append(f"EPS(주당순이익) {eps} ({f['as_of_date']} 기준)" if turn.ko()
                          else f"EPS {eps} (as of {f['as_of_date']})")  # fmt: skip


def _dividend(turn: _Turn, pool: ConnectionPool | None) -> None:
    f = _fundamentals(turn, pool)
    if f and f["dividend_yield"] is not None:
        y = float(f["dividend_yield"])
        turn.figures["dividend_yield"] = y
        turn.lines.append(f"배당수익률 {y:.2f}% ({f['as_of_date']} 기준)" if turn.ko()
                          else f"Dividend yield {y:.2f}% (as of {f['as_of_date']})")  # fmt: skip


def _market_cap(turn: _Turn, pool: ConnectionPool | None) -> None:
    f = _fundamentals(turn, pool)
    if not f or f["market_cap"] is None:
        return
    x = turn.figures["market_cap"] = float(f["market_cap"])
    amount = _amount(x, turn.stock["currency"]) + _in_won(turn, x, pool)
    turn.lines.append(f"시가총액 {amount} ({f['as_of_date']} 기준)" if turn.ko()
                      else f"Market cap {amount} (as of {f['as_of_date']})")  # fmt: skip


def _earnings(turn: _Turn, pool: ConnectionPool | None) -> None:
    rows = turn.query("earnings_events", _EARNINGS, {"sid": turn.stock["security_id"]},
                      "EARNINGS_EVENTS", "earnings_events", pool)  # fmt: skip
    as_of = date.fromisoformat(turn.as_of)
    if any(w in turn.frame.question.lower() for w in _NEXT_WORDS):
        upcoming = [r for r in rows if r["event_date"] > as_of]
        if upcoming:
            e = upcoming[0]
            est = e["eps_estimate"]  # '실적 예상': the consensus EPS the data holds, if any
            turn.lines.append(f"다음 실적 발표 예정일 {e['event_date']} ({e['period']}, {earnings_status(e['status'], 'ko')})"
                              + (f", EPS 예상 {float(est):,.2f}" if est is not None else "")
                              if turn.ko() else f"Next earnings {e['event_date']} ({e['period']})"
                              + (f", EPS estimate {float(est):,.2f}" if est is not None else ""))  # fmt: skip
        else:
            turn.notes.append("예정된 실적 발표 일정이 데이터에 없습니다." if turn.ko()
                              else "No upcoming earnings date in the data.")  # fmt: skip
        return
    reported = [r for r in rows if r["event_date"] <= as_of and r["eps_actual"] is not None]
    if not reported:
        turn.notes.append(
            "발표된 실적이 데이터에 없습니다." if turn.ko() else "No reported earnings."
        )
        return
    e = reported[-1]
    est, act = float(e["eps_estimate"]), float(e["eps_actual"])
    surprise = (act - est) / abs(est) * 100 if est else 0.0
    verdict = (
        ("상회" if act > est else "하회" if act < est else "부합")
        if turn.ko()
        else ("beat" if act > est else "miss" if act < est else "in line")
    )
    turn.lines.append(
        f"{e['period']} 실적({e['event_date']}): EPS 예상 {est:,.2f} / 실제 {act:,.2f}, "
        f"서프라이즈 {surprise:+.2f}% (예상 {verdict})" if turn.ko() else
        f"{e['period']} earnings ({e['event_date']}): EPS estimate {est:,.2f} vs actual {act:,.2f}, "
        f"surprise {surprise:+.2f}% ({verdict})")  # fmt: skip


SECTIONS = {
    "valuation": _valuation, "eps": _eps, "dividend": _dividend, "market_cap": _market_cap,
    "range": _range, "close": _close, "volume": _volume, "return": _return, "rsi": _rsi,
    "biggest_move": _biggest_move, "fundamental_change": _fundamental_change, "peers": _peers,
    "drawdown": _drawdown, "volume_day": _volume_day, "month_stat": _month_stat,
    "earnings": _earnings, "trading_value": _trading_value, "news": _news,
    "volatility": _volatility,
    "window": _window,
}  # fmt: skip


def _declined_turn(frame: QuestionFrame, as_of: str) -> _Turn:
    return _Turn(frame=frame, stock={}, as_of=as_of, lang=frame.language)


def _finish(turn: _Turn, text: str, started: float, *, declined: bool) -> AgentAnswer:
    frame = turn.frame
    status = "partial" if declined or turn.notes else "ok"
    error = ("데이터 범위 밖의 질문입니다" if declined else "; ".join(turn.notes)) or None
    answer = AgentAnswer(
        answer=text, mode="offline", status=status, error=error, as_of_date=turn.as_of,
        structured_citations=turn.citations, trace=list(turn.trace),
        payload={"declined": declined, "understanding": {"frame": frame.model_dump(mode="json")},
                 FOLLOWUP_KEY: followup_payload(frame, [turn.stock.get("code", "")] if turn.stock
                                                else [])},
        duration_ms=int((time.perf_counter() - started) * 1000),
    )  # fmt: skip
    account(answer, frame)  # the first trace step; an unread decisive word is not 'ok'
    return answer
