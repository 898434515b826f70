"""A question about one stock, answered with the figures it asks for (issue 14: the frame selects
the report's sections and figures), each from a cited read-only query.

    answer_stock_question("삼성전자 PER이랑 PBR")   # PER 14.81배, PBR 1.94배 (2026-11-20 기준)
    answer_stock_question("NVDA 최근 실적 서프라이즈")  # EPS estimate vs actual, surprise %

A bare symbol ('005930', 'NVDA') is the full report (`generate_report`); a question outside the
data (a company we do not hold, a forecast, a broker target price) is declined with the reason.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from datetime import date

from psycopg_pool import ConnectionPool

from agents.stock.box import (
    ADDITIVE,
    GAP_WORDS,
    IN_CURRENCY,
    Turn,
    figure_text,
)
from agents.stock.dating import date_security
from agents.stock.price_figures import (
    PRICE_SECTIONS,
    asks_move,
    asks_why,
    day_of_move,
    day_of_volume,
    sessions_asked,
    span_aggregate,
)
from agents.stock.valuations import (
    FUNDAMENTAL_SECTIONS,
    VALUATION_SECTIONS,
    asks_peers,
    sector_pick_read,
    sector_turn,
    set_title,
    stock_set,
)
from agents.understanding import QuestionFrame, understand
from agents.understanding.coverage import (
    COMPOSED,
    account,
    cover,
    mark_read,
    nested_measure,
    pick_direction,
)
from agents.understanding.history import (
    FOLLOWUP_KEY,
    HistoryMessage,
    followup_payload,
    previous_context,
)
from agents.understanding.lexicon import cached_lexicon
from agents.understanding.model_plan import attach_plan, fill_plan
from agents.understanding.morphemes import analyse
from agents.understanding.parse import RATIO, asked_move
from agents.understanding.vocabulary import find_phrases, vocabulary
from agents.understanding.windows import WindowRead
from agents.verdict import asked_bar, verdict
from agents.window_answer import window_ask
from data_access import figures as fig
from data_access.config import Settings
from data_access.contracts import AgentAnswer
from data_access.postgres import fetch_all
from data_access.seed.news_text import josa, particles

STOCK_KINDS = frozenset({"stock", "sector", "index"})


_STOCK = """SELECT security_id, code, name, currency, sector, country FROM stocks
WHERE code = %(code)s ORDER BY security_id"""


def is_question(text: str, *, follows: bool = False) -> bool:
    """More than a symbol: '삼성전자 PER' is a question, '005930' or 'NVDA' a report request.
    After a figures answer (`follows`), 'SK하이닉스는?' asks the same figures of another stock."""
    if len(text.split()) > 1:
        return True
    last = [t for t in analyse(text) if t.tag != "SF"][-1:]
    return follows and (text.rstrip().endswith("?") or (bool(last) and last[0].tag == "JX"))


def answer_stock_question(question: str, *, pool: ConnectionPool | None = None,
                          as_of: str | None = None, settings: Settings | None = None,
                          history: Sequence[HistoryMessage] = ()) -> AgentAnswer | None:  # fmt: skip
    """The figures a question asks for, a decline, or None when the text asks for the report
    itself ('삼성전자 정보', an unknown symbol: the report path answers, with suggestions). With a
    model configured for the Stock screen, the model fills the plan (model_plan.py) and the same
    sections compute it; the offline reading is compared beside it in the trace."""
    from data_access.catalog import current_as_of_date
    from data_access.config import get_settings

    started = time.perf_counter()
    lexicon = cached_lexicon(pool)
    previous, listed = previous_context(history)  # 'SK하이닉스는?' after '삼성전자 PER'
    frame = understand(question, lexicon, kinds=STOCK_KINDS, previous=previous,
                       previous_result=listed)  # fmt: skip
    settings = settings or get_settings()
    filled = fill_plan(question, frame, lexicon, settings, settings.model_for("stock"), STOCK_KINDS)
    frame = filled.frame or frame
    lang = frame.language
    frame = stock_set(frame, pool)  # '그 업종에서 제일 낮은 종목', '… 넘는 종목 몇 개'
    stocks = frame.of("stock")
    refusal = _scope_refusal(frame, lang)
    picked: Turn | None = None
    if refusal is None and not stocks:
        day = frame.as_of_date or as_of or current_as_of_date(pool).isoformat()
        if (sector_pick := sector_pick_read(frame, day, pool)) is not None:
            frame, picked = sector_pick  # the sector's pick, then its own figure read
            stocks = frame.of("stock")
        elif (sector := sector_turn(frame, day, pool)) is not None:
            name = sector.stock["name"]
            title = set_title(name, sector.ko())
            head = f"**{title}** · 기준일 {day}" if sector.ko() else f"**{title}** · as of {day}"
            text = head + "\n" + "\n".join(f"- {line}" for line in sector.lines)
            if sector.info:
                text += "\n\n" + "\n".join(f"> ℹ️ {n}" for n in sector.info)
            return attach_plan(_finish(sector, text, started, declined=False), filled)
        else:  # 'ROE 15% 넘는 은행주': a set held to a figure we do not hold; else a company
            op = frame.operation  # we do not hold ('MATCH (n) …' names no set: unknown stock)
            over_set = frame.of("sector") or op.threshold is not None or op.top_n
            refusal = (_unheld_refusal(frame, lang) if over_set else None) or _unknown_stock(
                question, lang, pool)  # fmt: skip
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
    unsaid = _window_unsaid(frame)
    if refusal is not None:
        empty = Turn(frame=frame, stock={}, as_of=as_of, lang=lang)  # no stock's figures
        return attach_plan(_finish(empty, refusal, started, declined=True), filled)
    # '삼성전자랑 SK하이닉스 PER 비교': the same figures for each stock named (up to three)
    turns = [_stock_turn(frame, code.key, as_of, lang, pool) for code in stocks[:3]]
    turn = turns[0]
    for other in [*turns[1:], *([picked] if picked else [])]:
        turn.citations += other.citations
        turn.trace += other.trace
        turn.notes += [n for n in other.notes if n not in turn.notes]
        turn.info += [n for n in other.info if n not in turn.info]
    if unsaid:
        turn.info.append(unsaid)
    for word in frame.unknown_words:
        turn.notes.append(particles(f"'{word}'은(는) 이 워크벤치 데이터에 없어 답하지 못했습니다.") if turn.ko()
                          else f"'{word}' is not in this workbench's data.")  # fmt: skip
    # '차이', '… 삼성전자보다 높아?': the two stocks' gap first; 'A와 B 중 PER 낮은 곳': the pick
    # '둘 중 더 많이 오른 건?': the pick, then the gap; 'PER 비교': the gap; '… 낮은 곳은?' the pick
    compared = frame.operation.kind in ("difference", "compare")
    # a sector's pick in each market is no pick between those two
    pick = _picked_direction(frame) if len(turns) >= 2 and picked is None else None
    blocks = [f"**{lead}**" for lead in picked.leads] if picked else []  # the sector's pick
    blocks += [_pick(frame, turns, pick)] if pick else []
    blocks += [_gap(frame, turns) if compared else "" if pick else _total(frame, turns)]
    blocks = [b for b in blocks if b]
    blocks += _verdicts(frame, turns)  # 'PBR이 1배보다 낮아?': the yes or no first
    blocks += [f"**{lead}**" for t in turns for lead in t.leads]  # '업종 평균보다 낮아?'
    for t in turns:
        if not t.lines and blocks:  # the lead said it all ('10만원 넘은 적 있어?'): no empty block
            continue
        ticker = str(t.stock["security_id"]).split(":")[-1]  # '005930', 'AAPL': no internal id
        head = f"**{t.stock['name']} ({ticker})** · " + (
            f"기준일 {t.as_of}" if t.ko() else f"as of {t.as_of}"
        )
        blocks.append(head + "\n" + "\n".join(f"- {line}" for line in t.lines))
    said = turn.info + turn.notes
    tail = "\n\n" + "\n".join(f"> ℹ️ {n}" for n in said) if said else ""
    more = ("\n\n전체 리포트는 종목 리포트 화면에 종목만 입력하면 만들어집니다." if turn.ko()
            else "\n\nFor the full report, enter just the symbol on the stock report screen.")  # fmt: skip
    return attach_plan(_finish(turn, "\n\n".join(blocks) + tail + more, started, declined=False),
                      filled)  # fmt: skip


_DEGREE = re.compile(r"더|가장|제일|많이|크게|덜")


def _picked_direction(frame: QuestionFrame) -> str | None:
    """An ordering adjective ('PER 낮은 곳'), else a move said with how much ('더 많이 오른 건',
    '가장 크게 빠진 곳'): the larger rise, or the larger fall, leads."""
    said = pick_direction(frame)
    move = asked_move(frame.question) if said is None and _DEGREE.search(frame.question) else None
    less = re.search(r"덜\s*([가-힣]+)", frame.question)
    if move and less and asked_move(less.group(1)) == move:
        move = "down" if move == "up" else "up"  # '덜 빠진 쪽': the smaller fall, the higher return
    if said is None and move is None and (amount := _AMOUNT.search(frame.question)):
        return "desc" if amount.group(1) == "많이" else "asc"  # '배당 더 많이 주는 곳'
    if said is None and move is None and (more := _MORE.search(frame.question)):
        return "desc" if more.group(1) == "더" else "asc"  # '배당 더 주는 곳': more of the figure
    return said or {"up": "desc", "down": "asc"}.get(move or "")


_MORE = re.compile(r"(더|덜)\s*[가-힣]+\s*(?:곳|쪽|데|것|거|종목)")
_AMOUNT = re.compile(r"(?:(?:더|가장|제일)\s*|중\s.*)(많이|적게)")  # '둘 중 배당 많이 주는 곳' too


def _verdicts(frame: QuestionFrame, turns: list[Turn]) -> list[str]:
    """'현대차 PBR이 1배보다 낮아?': each named stock's figure against the bar asked."""
    key = frame.measure()
    asked = asked_bar(frame, key) if key else None
    if key is None or asked is None or key not in GAP_WORDS:
        return []
    comparator, bar = asked
    lines = []
    for t in turns:
        if key in t.figures:
            name = f"{t.stock['name']} {GAP_WORDS[key][0 if t.ko() else 1]}"
            unit = {"per": "배", "pbr": "배", "return": "%", "dividend_yield": "%"}.get(key)
            said = (
                f"{bar:g}{unit if t.ko() or unit == '%' else 'x'}"
                if unit
                else figure_text(key, bar, t)
            )
            lines.append("**" + verdict(name, t.figures[key], figure_text(key, t.figures[key], t),
                                        comparator, said, bar, "ko" if t.ko() else "en") + "**")  # fmt: skip
    return lines


def _shared_figure(frame: QuestionFrame, turns: list[Turn], leave: str | None = None) -> str | None:
    """The first asked figure every stock stated (prices only in one currency), but `leave`."""
    asked = [m.name for m in frame.measures if m.name != leave] + list(GAP_WORDS)
    # the first figure any stock stated; one stock without it (a loss year's P/E) is no pick
    key = next((k for k in asked if k != leave and any(k in t.figures for t in turns)), None)
    if key is None or not all(key in t.figures for t in turns):
        return None
    if key in IN_CURRENCY and len({t.stock["currency"] for t in turns}) > 1:
        return None
    return key


def _pick(frame: QuestionFrame, turns: list[Turn], direction: str) -> str:
    """'NAVER와 카카오 중 PER 낮은 곳은?': the stock the asked figure picks, said first; with
    another figure after the pick ('… 1년 수익률 높은 종목의 PER'), that figure of the picked."""
    read = nested_measure(frame)
    read_key = next((m.name for m in frame.measures if m.surface == read), None)
    key = _shared_figure(frame, turns, leave=read_key)
    if key is None or (read_key is not None and not all(read_key in t.figures for t in turns)):
        return ""
    ranked = sorted(turns, key=lambda t: t.figures[key], reverse=direction == "desc")
    ko, en = _said(frame, key)
    values = ", ".join(f"{t.stock['name']} {figure_text(key, t.figures[key], t)}" for t in ranked)
    first = ranked[0]
    then = ""
    if read_key is not None:
        frame.notes.append(COMPOSED)  # the pick, then the figure read of it
        figure = figure_text(read_key, first.figures[read_key], first)
        then = f" → {_said(frame, read_key)[0 if first.ko() else 1]} {figure}"
    if turns[0].ko():
        word = "높은" if direction == "desc" else "낮은"
        return f"**{josa(ko, '이/가')} 더 {word} 쪽: {first.stock['name']}{then}** ({values})"
    word = "higher" if direction == "desc" else "lower"
    return f"**{word.capitalize()} {en}: {first.stock['name']}{then}** ({values})"


def _said(frame: QuestionFrame, key: str) -> tuple[str, str]:
    """A figure's name as asked: a return with its period ('1년 수익률')."""
    ko, en = GAP_WORDS[key]
    period = frame.period.surface if key == "return" and frame.period else ""
    return (f"{period} {ko}", f"{period} {en}") if period else (ko, en)


def _total(frame: QuestionFrame, turns: list[Turn]) -> str:
    """'카카오와 NAVER 시가총액 합계', '… 평균 PER': the named stocks' figure added or averaged
    (a window statistic is each stock's own, answered in its block)."""
    agg, ask = frame.operation.aggregate, window_ask(frame)
    if len(turns) < 2 or agg not in ("sum", "avg") or (ask is not None and ask.stat == agg):
        return ""  # '20일 평균 종가' of two stocks: each one's window mean, in its block
    key = _shared_figure(frame, turns)
    if key is not None and agg == "sum" and key not in ADDITIVE:  # '배당수익률 합': said, not added
        ko, en = GAP_WORDS[key]
        why = ("한 주의 가격이라", "a price per share") if key in ("close", "high", "low") else (
            "비율이라", "a ratio")  # '종가 합치면?': prices per share add up to nothing  # fmt: skip
        turns[0].notes.append(f"{josa(ko, '은/는')} {why[0]} 더하지 않았습니다 (각 종목 값만 보였습니다)."
                              if turns[0].ko() else f"A {en} is {why[1]}: it is not added up.")  # fmt: skip
    if key is None or (agg == "sum" and key not in ADDITIVE):
        return ""
    values = [t.figures[key] for t in turns]
    value = sum(values) if agg == "sum" else sum(values) / len(values)
    names = " + ".join(t.stock["name"] for t in turns)
    ko, en = GAP_WORDS[key]
    text = figure_text(key, value, turns[0])
    if turns[0].ko():
        return f"**{names} {ko} {'합계' if agg == 'sum' else '평균'}: {text}**"
    return f"**{names} {en} {'total' if agg == 'sum' else 'average'}: {text}**"


def _gap(frame: QuestionFrame, turns: list[Turn]) -> str:
    """'기아 현대차 종가 차이': the first asked figure both stocks stated, first minus second."""
    if len(turns) < 2:
        return ""
    a, b = turns[0], turns[1]
    key = _shared_figure(frame, turns[:2])
    if key is None:
        return ""
    ko, en = GAP_WORDS[key]
    if RATIO in frame.notes and b.figures[key]:  # 'LG에너지솔루션 시총이 LG화학의 몇 배야?'
        if "의 몇" not in frame.question and a.figures[key] < b.figures[key] and a.figures[key]:
            a, b = b, a  # '두 배 이상 차이 나?': how many times the larger is the smaller
        ratio = a.figures[key] / b.figures[key]  # said as a multiple and as a percent
        return (f"**{a.stock['name']} {josa(ko, '은/는')} {b.stock['name']}의 {ratio:,.2f}배 ({ratio * 100:,.2f}%)**"
                if a.ko() else f"**{a.stock['name']}'s {en} is {ratio:,.2f}x ({ratio * 100:,.2f}%) "
                f"{b.stock['name']}'s**")  # fmt: skip
    gap = a.figures[key] - b.figures[key]  # a difference of rates in %p, else in its own unit
    text = (f"{gap:+.2f}%p" if key in ("return", "dividend_yield")
            else ("+" if gap >= 0 else "-") + figure_text(key, abs(gap), a))  # fmt: skip
    names = f"{a.stock['name']} − {b.stock['name']}"
    return f"**{names} {ko} 차이: {text}**" if a.ko() else f"**{names} {en} gap: {text}**"


def _window_unsaid(frame: QuestionFrame) -> str:
    """'거래량 최근 평균보다 많아?': a mean asked with no window or period is the last month's,
    said so; '' when the question gave one."""
    prices = (None, "close", "volume", "trading_value", "high", "low")
    if (
        frame.statistic != "avg"
        or frame.window
        or frame.period
        or frame.span
        or (frame.measure() not in prices)
    ):
        return ""
    frame.window = WindowRead(n=1, unit="month", surface="", start=-1, end=-1)
    return ("기간을 말하지 않아 최근 1개월로 계산했습니다." if frame.language == "ko"
            else "No window was said: the last month is used.")  # fmt: skip


def _stock_turn(frame: QuestionFrame, code: str, as_of: str, lang: str,
                pool: ConnectionPool | None) -> Turn:  # fmt: skip
    """One stock's figures the frame asks for, dated by its own last bar."""
    stock = dict(fetch_all(_STOCK, {"code": code}, pool=pool)[0])
    dating = date_security(stock["security_id"], date.fromisoformat(as_of), pool)
    turn = Turn(frame=frame, stock=stock, as_of=dating.as_of.isoformat(), lang=lang,
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
    "market_cap": "market_cap", "high": "range", "low": "range", "close": "close", "open": "open",
    "volume": "volume", "return": "return", "rsi": "rsi", "earnings": "earnings",
    "trading_value": "trading_value", "volatility": "volatility", "shares_outstanding": "shares",
}  # fmt: skip


def _sections(frame: QuestionFrame) -> list[str]:
    op = frame.operation
    if (op.kind == "rank" and op.direction and len(frame.of("stock")) == 1
            and frame.measure() in ("volume", "trading_value")):  # fmt: skip
        # 'highest volume day this year': one stock's sessions ranked — the day of the extreme
        op.kind, op.aggregate = "aggregate", "max" if op.direction == "desc" else "min"
    if frame.measure() == "drawdown":  # '최대 낙폭' holds '최대', which is no window statistic
        return ["drawdown"]
    if frame.per_period:  # '삼성전자 분기별 수익률': one figure per calendar period
        return ["per_period"]
    if find_phrases(frame.question.lower(), {"s": vocabulary()["streak_words"]}):
        return ["streak"]  # '5일 연속 올랐어?': the run of rises or falls up to the last close
    if _peers_of_a_return(frame):  # '셀트리온 1년 수익률' → '그 업종 평균은?'
        frame.relation = "peers"
        return ["peers"]
    if window_ask(frame) is not None:  # '10거래일 평균 종가': that figure, nothing else
        return ["window"]
    if sessions_asked(frame):  # '최근 5일 종가': each session's close
        return ["sessions"]
    if day_of_move(frame):  # '가장 많이 오른 날', '올해 언제 제일 많이 올랐어?': one day's move
        return ["biggest_move"]
    if frame.span is not None and (span_aggregate(frame) is not None
                                   or frame.measure() == "return"
                                   or frame.statistic in ("up_days", "down_days")):  # fmt: skip
        return ["span_stat"]  # '작년 11월 평균 종가', '3분기 수익률': over the span's sessions
    if day_of_volume(frame):  # '거래량 가장 많았던 날': one session's volume, the largest
        return ["volume_day"]
    wanted = [_MEASURE_SECTIONS[m.name] for m in frame.measures if m.name in _MEASURE_SECTIONS]
    why = asks_why(frame)
    if asks_peers(frame):  # '삼성전자 PER 업종 평균 대비': the figure beside its sector's
        frame.relation = "peers"  # kept for the next turn ('더 싼 거야?': than the sector)
        return ["peers"]
    if (frame.operation.kind == "rank" and len(frame.of("stock")) == 1 and wanted
            and set(wanted) <= FUNDAMENTAL_SECTIONS and not frame.operation.top_n):  # fmt: skip
        return ["rank"]  # '현대차 시가총액 순위': its place in its market
    based = frame.period is not None and (  # '작년 말 대비', '1월 2일 대비': since a base day
        frame.period.label in ("ytd", "mtd") or frame.period.label.startswith(fig.SINCE)
    )
    changed = asks_move(frame) or based or frame.operation.kind == "change" or (
        frame.operation.kind == "compare" and len(frame.of("stock")) == 1
        and (frame.period or frame.operation.change_basis))  # '시가총액 1년 전과 비교'  # fmt: skip
    if changed and wanted and set(wanted) <= FUNDAMENTAL_SECTIONS:
        return ["fundamental_change"]  # 'EPS 작년보다 늘었어?': the figure against its past
    # '지난주 대비 얼마나 변했어?' is the price's move; '거래량 어제보다 늘었어?' the volume's
    volume_only = bool(wanted) and set(wanted) <= {"volume", "trading_value"}
    if (asks_move(frame) or why or based or changed) and "return" not in wanted and not volume_only:
        wanted.append("return")
        if frame.period is not None and frame.period.label == "1d":  # '어제 … 그제 … 차이'
            mark_read(frame, *(w for w in ("그제", "그저께", "엊그제") if w in frame.question))
    if why:  # '현대차 왜 떨어졌어?': the move, then the news tagged with the stock in its window
        wanted.append("news")
    return list(dict.fromkeys(wanted)) or ["close", "return", "valuation"]


def _peers_of_a_return(frame: QuestionFrame) -> bool:
    """A return set beside its sector's ('업종 평균 대비', '그 업종 평균은?'), not a window's mean."""
    said = find_phrases(frame.question.lower(), {"p": vocabulary()["peer_words"]})
    return bool(said) and frame.measure() == "return"


def _finish(turn: Turn, text: str, started: float, *, declined: bool) -> AgentAnswer:
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


SECTIONS = {**VALUATION_SECTIONS, **PRICE_SECTIONS}
