"""The stock box's valuation sections: PER/PBR/EPS/dividend/market cap now and against their
past, beside their sector, a sector's own figures, and the next earnings.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Callable
from datetime import date, timedelta
from functools import partial
from typing import Any

from dateutil.relativedelta import relativedelta
from psycopg_pool import ConnectionPool

from agents.opening.market_reads import FX_ON_OR_BEFORE
from agents.stock.box import (
    ADDITIVE,
    GAP_WORDS,
    IN_CURRENCY,
    Turn,
    figure_text,
    in_won,
)
from agents.stock.data import price_dataset
from agents.stock.fundamentals import result_of
from agents.stock.sections import RESULT
from agents.stock.templates import earnings_status
from agents.understanding import QuestionFrame
from agents.understanding.coverage import (
    COMPOSED,
    POSITION,
    cover,
    mark_read,
    nested_measure,
    pick_direction,
)
from agents.understanding.frame import COMPARATOR_WORDS, Entity, Operation
from agents.understanding.morphemes import analyse
from agents.understanding.parse import BAR_AT
from agents.understanding.vocabulary import find_phrases, sector_members, sector_within, vocabulary
from agents.verdict import asked_bar, meets, verdict
from agents.window_answer import WindowAsk, asked_period, describe, mark_used
from data_access import figures as fig
from data_access.postgres import fetch_all
from data_access.seed.news_text import particles

_NEXT_WORDS = ("다음", "언제", "예정", "next", "when", "upcoming")


_FUNDAMENTALS = """SELECT as_of_date, market_cap, eps, pe, pb, dividend_yield FROM stock_fundamentals
WHERE security_id = %(sid)s AND as_of_date <= %(as_of)s ORDER BY as_of_date DESC LIMIT 1"""


_EARNINGS = """SELECT period, event_date, status, eps_estimate, eps_actual FROM earnings_events
WHERE security_id = %(sid)s ORDER BY event_date"""


# the same sector's stocks of the same market, each on its last snapshot on or before the day
# a market's stocks, each on its last snapshot on or before the day (the rank of one of them)
_MARKET = """SELECT s.security_id, s.name, f.pe, f.pb, f.eps, f.dividend_yield, f.market_cap, c.close
FROM stocks s JOIN LATERAL (SELECT pe, pb, eps, dividend_yield, market_cap
  FROM stock_fundamentals WHERE security_id = s.security_id AND as_of_date <= %(as_of)s
  ORDER BY as_of_date DESC LIMIT 1) f ON true
LEFT JOIN LATERAL (SELECT close FROM stock_prices WHERE security_id = s.security_id
  AND trade_date <= %(as_of)s ORDER BY trade_date DESC LIMIT 1) c ON true
WHERE s.country = %(country)s AND NOT s.is_etf"""
# the same sector's stocks of it, with the close on or before the period's base day (a return)
_ONE_STOCK = _MARKET.replace("SELECT s.security_id,", "SELECT s.currency, s.security_id,").replace(
    "s.country = %(country)s", "s.code = %(code)s"
)  # one stock's snapshot and close
_PEERS = (
    _MARKET.replace(", c.close\n", ", c.close, b.close AS base_close\n").replace(
        "\nWHERE s.country",
        "\nLEFT JOIN LATERAL (SELECT close FROM stock_prices WHERE security_id = "
        "s.security_id\n  AND trade_date <= %(base)s ORDER BY trade_date DESC LIMIT 1) b ON true"
        "\nWHERE s.country",
    )
    + " AND (cardinality(%(sectors)s::text[]) = 0 OR s.sector = ANY(%(sectors)s))"
    + " AND (%(exchange)s::text IS NULL OR s.market = %(exchange)s)"
)
MARKET_WIDE = "전체"  # the set key of every stock of a market ('배당수익률 5% 넘는 종목 몇 개')
# an exchange's stocks as a set ('코스닥 종목 중 PER 가장 낮은 것'): its index's key, as listed
EXCHANGES = {"KOSPI": ("코스피", "KOSPI"), "KOSDAQ": ("코스닥", "KOSDAQ"),
             "NASDAQ": ("나스닥", "Nasdaq")}  # fmt: skip


def set_title(name: str, ko: bool) -> str:
    """'전체 종목', '코스닥 종목', '반도체 업종': the set a sector answer is about."""
    if name == MARKET_WIDE:
        return "전체 종목" if ko else "All stocks"
    if name in EXCHANGES:
        return f"{EXCHANGES[name][0]} 종목" if ko else f"{EXCHANGES[name][1]} stocks"
    return f"{name} 업종" if ko else f"{name} sector"


def _snapshots(turn: Turn, pool: ConnectionPool | None, sql: str,
               **params: Any) -> list[dict[str, Any]]:  # fmt: skip
    return turn.query("stock_fundamentals", sql, params, "STOCK_FUNDAMENTALS", "stock_fundamentals",
                      pool)  # fmt: skip


def _fundamentals(turn: Turn, pool: ConnectionPool | None,
                  day: str | None = None) -> dict[str, Any] | None:  # fmt: skip
    """The stock's last snapshot on or before the as-of day (or `day`, a change's base)."""
    on = {"day": day} if day else {"as_of": turn.as_of}
    rows = _snapshots(turn, pool, _PAST_FUNDAMENTALS if day else _FUNDAMENTALS,
                      sid=turn.stock["security_id"], **on)  # fmt: skip
    return rows[0] if rows else None


FUNDAMENTAL_SECTIONS = frozenset({"valuation", "eps", "dividend", "market_cap"})


_PAST_FUNDAMENTALS = _FUNDAMENTALS.replace("%(as_of)s", "%(day)s")  # a change's base snapshot


FUNDAMENTAL_FIELDS = {"per": "pe", "pbr": "pb", "eps": "eps", "dividend_yield": "dividend_yield",
                       "market_cap": "market_cap"}  # fmt: skip
# a sector's stocks are held to a bar or ordered by these; a mean of closes is not asked
SECTOR_FIELDS = {**FUNDAMENTAL_FIELDS, "close": "close", "return": "ret"}
_PEER_FIELDS = {**FUNDAMENTAL_FIELDS, "return": "ret"}  # a stock beside its sector's mean


def _fundamental_change(turn: Turn, pool: ConnectionPool | None) -> None:
    """'카카오 EPS 작년보다 늘었어?': each asked figure now and on the last snapshot on or before
    the base day (a year back unless the question names a month or a period)."""
    now = _fundamentals(turn, pool)
    if not now:
        return
    basis, period = turn.frame.operation.change_basis, turn.frame.period
    last = date.fromisoformat(str(now["as_of_date"]))
    # '지난달 대비': the snapshot of the month before (snapshots are taken at month ends);
    # a period said ('작년 말 대비', '6개월 전과') reaches back to its base day, else a year
    day = (last.replace(day=1) - timedelta(days=1) if basis == "mom" else
           fig.base_date(last, fig.period_named(period.label, period.months))
           if basis in ("period", None) and period else last - relativedelta(months=12))  # fmt: skip
    past = _fundamentals(turn, pool, day.isoformat())
    if not past:
        turn.notes.append(f"{day} 이전 재무 지표가 없어 비교하지 못했습니다." if turn.ko()
                          else f"No fundamentals on or before {day} to compare with.")  # fmt: skip
        return
    for m in turn.frame.measures:
        field = FUNDAMENTAL_FIELDS.get(m.name)
        if field is None or now[field] is None or past[field] is None:
            continue
        v1, v0 = float(now[field]), float(past[field])
        turn.figures[m.name] = v1
        a, b = figure_text(m.name, v1, turn), figure_text(m.name, v0, turn)
        rate = m.name == "dividend_yield"
        moved = f"{v1 - v0:+.2f}%p" if rate else f"{(v1 / v0 - 1) * 100:+.2f}%" if v0 else "—"
        ko, en = GAP_WORDS[m.name]
        turn.lines.append(
            f"{ko} {a} ({now['as_of_date']} 기준), {past['as_of_date']}의 {b} 대비 {moved}"
            if turn.ko() else f"{en} {a} (as of {now['as_of_date']}), {moved} vs "
            f"{b} on {past['as_of_date']}")  # fmt: skip


_FUNDAMENTAL_HISTORY = """SELECT as_of_date, market_cap, eps, pe, pb, dividend_yield
FROM stock_fundamentals WHERE security_id = %(sid)s AND as_of_date > %(start)s
AND as_of_date <= %(as_of)s ORDER BY as_of_date"""


def fundamental_window(
    turn: Turn, pool: ConnectionPool | None, ask: WindowAsk, measure: str
) -> None:
    """'삼성전자 PER 5년 평균', 'EPS 최근 1년 최고치': the statistic over the month-end
    snapshots inside the window (the same window reader and computation as prices); a window
    that starts before the snapshots is said, not passed off as covered."""
    start = date.fromisoformat(turn.as_of) - timedelta(days=ask.window.calendar_days())
    rows = _snapshots(turn, pool, _FUNDAMENTAL_HISTORY, sid=turn.stock["security_id"],
                      start=start.isoformat(), as_of=turn.as_of)  # fmt: skip
    field = FUNDAMENTAL_FIELDS[measure]
    points = [(r["as_of_date"], float(r[field])) for r in rows if r[field] is not None]
    found = fig.window_statistic(points, ask.window, ask.stat, rate=measure == "dividend_yield")
    if found is None or found.value is None:
        turn.notes.append(f"{ask.label(turn.lang)} 구간의 재무 지표가 없어 계산하지 못했습니다."
                          if turn.ko() else f"No fundamentals over the {ask.label('en')}.")  # fmt: skip
        return
    mark_used(turn.frame)
    name = f"{turn.stock['name']} {GAP_WORDS[measure][0 if turn.ko() else 1]}"
    turn.lines.append(describe(name, ask, found, lambda v: figure_text(measure, v, turn),
                               turn.lang, rate=measure == "dividend_yield"))  # fmt: skip
    note_short_history(turn, found.first, points[0][0], start)


def note_short_history(turn: Turn, first: date | str, earliest: date | str, start: date) -> None:
    """A window longer than the data (its first observation is the earliest there is, well
    after the window's start): where the data starts is said, and the turn is partial."""
    first_day = date.fromisoformat(str(first)[:10])
    if str(first)[:10] == str(earliest)[:10] and (first_day - start).days > 31:
        turn.notes.append(f"데이터가 {first_day}부터라 그 이후만 계산했습니다." if turn.ko()
                          else f"The data starts on {first_day}: only the days since were used.")  # fmt: skip


def asks_peers(frame: QuestionFrame) -> bool:
    """'업종 평균 대비', or a sector named beside the stock ('SK하이닉스 반도체 업종 PBR 비교')."""
    said = find_phrases(frame.question.lower(), {"p": vocabulary()["peer_words"]})
    return bool(said or (frame.of("sector") and frame.of("stock")) or frame.relation == "peers")


def _sector_rows(turn: Turn, pool: ConnectionPool | None, sectors: list[str],
                 country: str, exchange: str | None = None) -> list[dict[str, Any]]:  # fmt: skip
    """The sector's (or exchange's) stocks with their last snapshot, close and return over the
    period asked (a year unless said: '1년 수익률 가장 높은 조선주')."""
    base = fig.base_date(date.fromisoformat(turn.as_of), asked_period(turn.frame))
    rows = _snapshots(turn, pool, _PEERS, sectors=sectors, as_of=turn.as_of, country=country,
                      base=base.isoformat(), exchange=exchange)  # fmt: skip
    for r in rows:
        r["ret"] = ((float(r["close"]) / float(r["base_close"]) - 1) * 100
                    if r["close"] and r["base_close"] else None)  # fmt: skip
    return rows


def _members(sector: str) -> list[str]:
    """The data's sectors a sector word stands for ('은행주' → 금융); none: every stock."""
    return [] if sector == MARKET_WIDE or sector in EXCHANGES else sector_members(sector)


def _set_rows(turn: Turn, pool: ConnectionPool | None, key: str,
              country: str) -> list[dict[str, Any]]:  # fmt: skip
    """The stocks of a set key: a sector's, an exchange's or every stock of the country."""
    return _sector_rows(turn, pool, _members(key), country, key if key in EXCHANGES else None)


def _sector_kept(rows: list[dict[str, Any]], field: str) -> list[dict[str, Any]]:
    """A sector's stocks with the figure, a P/E only where earnings are positive."""
    return [r for r in rows if r[field] is not None and (field != "pe" or float(r[field]) > 0)]


def _valuations_asked(
    frame: QuestionFrame, fields: dict[str, str] = FUNDAMENTAL_FIELDS
) -> list[str]:
    asked = [m.name for m in frame.measures if m.name in fields] or ["per", "pbr"]
    return list(dict.fromkeys(asked))


def _peers(turn: Turn, pool: ConnectionPool | None) -> None:
    """Each asked valuation figure beside the mean and median of the stock's sector (same
    market, each peer on its last snapshot; a P/E only where earnings are positive)."""
    sector = turn.stock.get("sector")
    if not sector:
        turn.notes.append("이 종목의 업종 정보가 없어 업종과 비교하지 못했습니다." if turn.ko()
                          else "The stock has no sector to compare with.")  # fmt: skip
        return
    rows = _sector_rows(turn, pool, [sector], turn.stock["country"])
    own = next((r for r in rows if r["security_id"] == turn.stock["security_id"]), None)
    for name in _valuations_asked(turn.frame, _PEER_FIELDS):
        field = _PEER_FIELDS[name]
        values = [float(r[field]) for r in _sector_kept(rows, field)]
        if own is not None and own[field] is None and field == "pe":
            _no_pe(turn)
        if own is None or own[field] is None or len(values) < 2:
            continue
        mean, median = sum(values) / len(values), statistics.median(values)
        turn.figures[name] = float(own[field])
        ko, en = _words(turn, name)
        mine, avg, mid = (figure_text(name, v, turn) for v in (float(own[field]), mean, median))
        market = "국내" if turn.stock["country"] == "KR" else "미국"
        middle = bool(re.search(r"중앙값|중간값|median", turn.frame.question, re.IGNORECASE))
        bar, word = (median, ("중앙값", "median")) if middle else (mean, ("평균", "mean"))
        shown = mid if middle else avg
        if (side := pick_direction(turn.frame)) is not None:  # '업종 평균보다 낮아?', '더 싼 거야?'
            said = (f"{sector} 업종 {word[0]} {shown}" if turn.ko()
                    else f"the {sector} sector {word[1]} {shown}")  # fmt: skip
            turn.leads.append(verdict(f"{turn.stock['name']} {ko if turn.ko() else en}",
                                      float(own[field]), mine, "<" if side == "asc" else ">", said,
                                      bar, turn.lang))  # fmt: skip
        if _HOW_MUCH.search(turn.frame.question):  # '얼마나 높아?', a follow-up '얼마나?': the gap
            gap = float(own[field]) - bar  # '3.04배 낮다' would say a ratio: the gap bare
            size = (f"{abs(gap):.2f}%p" if name == "dividend_yield" else f"{abs(gap):.2f}"
                    if name in ("per", "pbr") else figure_text(name, abs(gap), turn))  # fmt: skip
            turn.leads.append(
                f"{ko} {mine}, {word[0]} {shown}보다 {size} {'높습니다' if gap > 0 else '낮습니다'}"
                if turn.ko() else f"{en} {mine}, {size} {'above' if gap > 0 else 'below'} the "
                f"{word[1]} {shown}")  # fmt: skip
        turn.lines.append(
            f"{ko} {mine} — {sector} 업종({market} {len(values)}종목) 평균 {avg}, 중앙값 {mid} "
            f"({turn.as_of} 기준)" if turn.ko() else f"{en} {mine} vs the {sector} sector "
            f"({len(values)} stocks): mean {avg}, median {mid} (as of {turn.as_of})")  # fmt: skip
    words = [t for p in vocabulary()["peer_words"] if p in turn.frame.question.lower()
             for t in p.split()]  # fmt: skip
    mark_read(turn.frame, *words)


def _rank(turn: Turn, pool: ConnectionPool | None) -> None:
    """'현대차 시가총액 순위': the stock's place, highest first, among the same market's stocks
    on their last snapshots."""
    rows = _snapshots(turn, pool, _MARKET, as_of=turn.as_of, country=turn.stock["country"])
    market = "국내" if turn.stock["country"] == "KR" else "미국"
    for name in _valuations_asked(turn.frame):
        field = FUNDAMENTAL_FIELDS[name]
        held = sorted((r for r in rows if r[field] is not None), key=lambda r: -float(r[field]))
        place = next((i for i, r in enumerate(held, 1)
                      if r["security_id"] == turn.stock["security_id"]), None)  # fmt: skip
        if place is None:
            continue
        value = figure_text(name, float(held[place - 1][field]), turn)
        ko, en = GAP_WORDS[name]
        turn.lines.append(
            f"{ko} {value}: {market} {len(held)}종목 중 높은 순 {place}위 ({turn.as_of} 기준)"
            if turn.ko() else f"{en} {value}: number {place} of {len(held)} {turn.stock['country']}"
            f" stocks, highest first (as of {turn.as_of})")  # fmt: skip
        mark_read(turn.frame, "순위", "rank")


_HOW_MUCH = re.compile(r"얼마나|몇\s*배|how much|by how")
_SECTOR_SAID = re.compile(r"업종|섹터|sector", re.IGNORECASE)


def stock_set(frame: QuestionFrame, pool: ConnectionPool | None) -> QuestionFrame:
    """A ranking or a bar over stocks names its set: a sector ('반도체주'), the sector of the
    stock talked about ('현대차 PER' → '그 업종에서 제일 낮은 종목은?'), or, with no stock or
    sector named, every stock of each market ('배당수익률 5% 넘는 종목 몇 개'). The frame with
    that set as its sector; unchanged when it asks of one stock."""
    op = frame.operation
    over_set = bool(op.top_n) or op.threshold is not None or op.threshold_of is not None
    indices = frame.of("index")
    if (not over_set or frame.of("sector") or frame.unknown_words
            or not any(m.name in SECTOR_FIELDS for m in frame.measures)):  # fmt: skip
        return frame
    if indices:  # '1년 수익률 50% 이상인 코스닥 종목': the exchange's stocks
        if len(indices) > 1 or indices[0].key not in EXCHANGES or frame.of("stock"):
            return frame
        kept = [e for e in frame.entities if e.kind != "index"]
        return frame.model_copy(update={"entities": [*kept, Entity(kind="sector", key=indices[0].key,
                                                                   name=indices[0].name)]})  # fmt: skip
    stocks = frame.of("stock")
    if stocks and all(e.inherited for e in stocks) and _SECTOR_SAID.search(frame.question):
        rows = fetch_all("SELECT sector FROM stocks WHERE code = %(code)s", {"code": stocks[0].key},
                         pool=pool)  # fmt: skip
        key = str(rows[0]["sector"]) if rows and rows[0]["sector"] else ""
    else:  # the market said ('국내 종목') is read by markets_said, not left unread
        key = (
            MARKET_WIDE if not stocks and (markets_said(frame) and not cover(frame).unread) else ""
        )
    if not key:
        return frame
    kept = [e for e in frame.entities if e.kind != "stock"]
    return frame.model_copy(update={"entities": [*kept, Entity(kind="sector", key=key, name=key)]})


_MARKETS = (("KR", "국내", "KRW"), ("US", "미국", "USD"))
_MARKET_WORDS = {"KR": re.compile(r"국내|한국|코스피|코스닥|\bkorea|\bkospi|\bkosdaq", re.IGNORECASE),
                 "US": re.compile(r"미국|뉴욕|나스닥|\bus\b|\bu\.s\.|\bnyse|\bnasdaq|american",
                                  re.IGNORECASE)}  # fmt: skip


def markets_said(frame: QuestionFrame) -> tuple[tuple[str, str, str], ...]:
    """The markets a set of stocks is read in: the one said ('미국 반도체주'), else both."""
    said = {c for c, pattern in _MARKET_WORDS.items() if pattern.search(frame.question)}
    if len(said) != 1:
        return _MARKETS
    for m in re.finditer(_MARKET_WORDS[next(iter(said))], frame.question):
        mark_read(frame, m.group(0))
    return tuple(m for m in _MARKETS if m[0] in said)


def sector_turn(frame: QuestionFrame, as_of: str, pool: ConnectionPool | None) -> Turn | None:
    """'반도체 업종 평균 PER': a sector's valuation (mean, median, count) in each market that has
    stocks of it, when a sector and a valuation figure, but no stock, were named."""
    sectors = frame.of("sector")
    if not sectors or not any(m.name in SECTOR_FIELDS for m in frame.measures):
        return None
    key = sectors[0].key  # '보험주' is answered, and named, as the whole 금융 sector
    name = sector_within(key) or key
    turn = Turn(frame=frame, stock={"name": name, "currency": "KRW"}, as_of=as_of,
                 lang=frame.language)  # fmt: skip
    pair = _picked_then_read(frame)
    named = _named_bar(turn, pool)  # '삼성전자보다 PER 낮은 …': that stock's figure, read once
    for country, market, currency in markets_said(frame):
        rows = _set_rows(turn, pool, key, country)
        turn.stock["currency"] = currency
        group = _group(turn, name, market, country)
        if line := _places_gap(turn, rows, group):  # '1위 반도체주와 2위 반도체주의 PER 차이'
            turn.lines.append(line)
            continue
        if (
            pair is not None
        ):  # '배당수익률 가장 높은 은행주의 PER': picked by one, read by the other
            if line := _sector_pick(turn, rows, *pair, group):
                turn.lines.append(line)
            continue
        if (held := _bars(frame, ("rank",))) and (
            by := [
                m for m in _valuations_asked(frame, SECTOR_FIELDS) if m not in {b[0] for b in held}
            ]
        ):  # 'PBR 0.5배 미만 종목 중 배당수익률 가장 높은 것': the bar, then the order
            if (priced := _priced(turn, held, pool)) is not None:
                _, met = _met(rows, priced)
                turn.lines.append(_sector_ranking(turn, met, by[0],
                                                  f"{group} {' · '.join(_bar_words(turn, priced))}"))  # fmt: skip
            continue
        if len(bars := _bars(frame)) >= 2:  # 'PER 10배 미만이면서 배당수익률 5% 넘는 종목'
            if (priced := _priced(turn, bars, pool)) is not None:
                turn.lines.append(_sector_bars(turn, rows, priced, group))
            continue
        for m in _valuations_asked(frame, SECTOR_FIELDS):
            field = SECTOR_FIELDS[m]
            values = [float(r[field]) for r in _sector_kept(rows, field)]
            if len(values) < 2:
                continue
            if (bar := asked_bar(frame, m)) is not None:  # 'PER 10배 이하인 은행주'
                if (priced := _priced(turn, [(m, *bar)], pool)) is not None:
                    turn.lines.append(_sector_bars(turn, rows, priced, group))
                continue
            if named is not None and frame.operation.filter_measure == m:
                if m not in IN_CURRENCY or currency == named[2]:
                    bars = [(m, str(frame.operation.comparator), named[0])]
                    kept = [r for r in rows if r["name"] != named[1]]  # not the bar itself
                    said = f"{named[1]} {figure_text(m, named[0], turn)}"
                    turn.lines.append(_sector_bars(turn, kept, bars, group)
                                      + (f" ({said} 기준)" if turn.ko() else f" (than {said})"))  # fmt: skip
                continue
            if (at := _bar_at(frame, m)) is not None:  # '업종 평균 PER보다 낮은 반도체주'
                centre = sum(values) / len(values) if at == "mean" else statistics.median(values)
                word = ("평균", "mean") if at == "mean" else ("중앙값", "median")
                basis = (f" ({group} {word[0]} {figure_text(m, centre, turn)} 기준)" if turn.ko()
                         else f" (the {word[1]}, {figure_text(m, centre, turn)})")  # fmt: skip
                bars = [(m, str(frame.operation.comparator), centre)]
                turn.lines.append(_sector_bars(turn, rows, bars, group) + basis)
                continue
            if frame.operation.kind == "rank":  # 'PER 가장 낮은 종목': the sector's stocks in order
                turn.lines.append(_sector_ranking(turn, rows, m, group))
                continue
            if m not in FUNDAMENTAL_FIELDS:
                continue
            ko, en = GAP_WORDS[m]
            avg, mid = (figure_text(m, v, turn) for v in (sum(values) / len(values),
                                                           statistics.median(values)))  # fmt: skip
            total = f", 합계 {figure_text(m, sum(values), turn)}" if m in ADDITIVE else ""
            turn.lines.append(
                f"{group} {ko} ({len(values)}종목): 평균 {avg}, 중앙값 {mid}{total}"
                if turn.ko()
                else f"{group}, {en} ({len(values)} stocks): mean {avg}, median {mid}"
            )
    if not turn.lines:
        return None
    mark_read(turn.frame, "업종", "섹터", "sector")
    if any(m.name in FUNDAMENTAL_FIELDS for m in frame.measures):
        pe = any(m.name == "per" for m in frame.measures)  # the P/E rule only where a P/E is read
        turn.info.append(f"각 종목의 {as_of} 이전 마지막 재무 스냅샷 기준" + (
            ", PER은 이익이 양수인 종목만." if pe else ".") if turn.ko() else
            f"Each stock's last snapshot on or before {as_of}" + (
            "; P/E over stocks with positive earnings only." if pe else "."))  # fmt: skip
    return turn


def sector_pick_read(frame: QuestionFrame, as_of: str,
                     pool: ConnectionPool | None) -> tuple[QuestionFrame, Turn] | None:  # fmt: skip
    """'PER 가장 높은 반도체주의 1년 수익률': the one stock a valuation figure picks in a sector
    (its home market), when what is read of it is a price figure — the stock's own answer reads
    that. The frame of that reading (the stock, the figure read) and the pick's turn."""
    sectors = frame.of("sector")
    pair = _picked_then_read(frame, read_any=True)
    if (
        not sectors
        or pair is None
        or pair[1] in FUNDAMENTAL_FIELDS
        or (frame.operation.top_n or 1) > 1
    ):
        return None
    order, read = pair
    key = sectors[0].key
    label = sector_within(key) or key  # '보험주' is answered over the whole 금융 sector
    turn = Turn(frame=frame, stock={"name": label, "currency": "KRW"}, as_of=as_of,
                lang=frame.language)  # fmt: skip
    field, low = SECTOR_FIELDS[order], frame.operation.direction == "asc"
    ko, en = GAP_WORDS[order]
    picks = []
    for country, market, _ in markets_said(frame):  # each market's own pick, labelled
        rows = _sector_kept(_set_rows(turn, pool, key, country), field)
        if not rows:
            continue
        top = (min if low else max)(rows, key=lambda r: float(r[field]))
        picks.append(top)
        turn.leads.append(
            f"{_group(turn, label, market, country)} {ko} 가장 {'낮은' if low else '높은'} "
            f"종목: {top['name']} ({figure_text(order, float(top[field]), turn)}, {len(rows)}종목 중)"
            if turn.ko() else f"{_group(turn, label, market, country)}: the "
            f"{'lowest' if low else 'highest'} {en} is {top['name']} "
            f"({figure_text(order, float(top[field]), turn)}, of {len(rows)})")  # fmt: skip
    if not picks:
        return None
    mark_read(frame, "업종", "섹터", "sector", "종목", "가장", "제일")
    read_frame = frame.model_copy(update={
        "entities": [Entity(kind="stock", key=str(top["security_id"]).split(":")[-1],
                            name=str(top["name"])) for top in picks],
        "measures": [m for m in frame.measures if m.name == read],
        "operation": Operation(), "notes": [*frame.notes, COMPOSED]})  # fmt: skip
    said = [
        w.group(0)
        for e in sectors
        for w in re.finditer(r"[^\s?]+", frame.question)
        if e.start >= 0 and w.start() < e.end and e.start < w.end()
    ]  # '통신주', '자동차주의'
    mark_read(read_frame, *said, *(t.form for w in said for t in analyse(w)))
    return read_frame, turn


def _picked_then_read(frame: QuestionFrame, read_any: bool = False) -> tuple[str, str] | None:
    """(ordering measure, measure read) of a sector's stocks picked by one figure and read by
    another ('PER 가장 낮은 반도체 종목의 배당수익률'), or None; `read_any`: the figure read need
    not be a valuation."""
    op = frame.operation
    if op.kind != "rank" and not (
        op.kind == "aggregate" and op.top_n
    ):  # '상위 3개 종목의 평균 PER'
        return None
    read = nested_measure(frame)
    for e in frame.of("sector"):  # '… 은행주의 PER' (Kiwi: 은행 + 주의): the sector's possessive
        if read is None and frame.question[e.end : e.end + 1] == "의":
            low = frame.question.lower()  # measure surfaces are lower case ('pbr')
            # the first said after it, the longer at one place ('배당수익률' holds '수익률')
            at = {m.surface: low.find(m.surface.lower(), e.end) for m in frame.measures}
            after = sorted((a, -len(s), s) for s, a in at.items() if a > 0)
            read = after[0][2] if after else None
    names = [m.name for m in frame.measures if m.name in SECTOR_FIELDS]
    said = next((m.name for m in frame.measures if m.surface == read), None)
    order = next((n for n in names if n != said), None)
    if said is None or (said not in SECTOR_FIELDS and not read_any) or order is None:
        return None
    frame.notes.append(COMPOSED)  # the pick, then its other figure: both read
    return order, said


_PLACE = re.compile(r"(\d+)\s*위")


def _places_gap(turn: Turn, rows: list[dict[str, Any]], group: str) -> str | None:
    """'시가총액 1위 반도체주와 2위 반도체주의 PER 차이': two places of one order, the figure read
    of each, and their gap. None unless two places and a difference were asked."""
    frame, low = turn.frame, turn.frame.question.lower()
    places = [int(m.group(1)) for m in _PLACE.finditer(low)]
    said = sorted((low.find(m.surface.lower()), m.name) for m in frame.measures
                  if m.name in SECTOR_FIELDS and m.surface)  # fmt: skip
    if frame.operation.kind != "difference" or len(places) != 2 or len(said) != 2:
        return None
    first = _PLACE.search(low)
    order, read = (
        (said[0][1], said[1][1])
        if first and said[0][0] < first.start()
        else (said[1][1], said[0][1])
    )
    kept = _sector_kept(rows, SECTOR_FIELDS[order])  # the places of the order, whatever is read
    kept.sort(key=lambda r: float(r[SECTOR_FIELDS[order]]), reverse=True)
    if max(places) > len(kept):
        return None
    (a, b), field = (kept[p - 1] for p in places), SECTOR_FIELDS[read]
    frame.notes += [*(f"{POSITION}{m.group(1)}:{m.group(0)}" for m in _PLACE.finditer(low)),
                    COMPOSED]  # fmt: skip
    none = "없음" if turn.ko() else "none"
    shown = [f"{p}위 {r['name']} {none if r[field] is None else figure_text(read, float(r[field]), turn)}"
             for p, r in zip(places, (a, b), strict=True)]  # fmt: skip
    gap = (f"{float(a[field]) - float(b[field]):+.2f}" if a[field] is not None
           and b[field] is not None else none)  # fmt: skip
    ko, en = _words(turn, order)[0], _words(turn, read)
    return (f"{group} {ko} {shown[0]} − {shown[1]} = {gap} ({en[0]} 차이)" if turn.ko()
            else f"{group}, by {GAP_WORDS[order][1]}: {shown[0]} − {shown[1]} = {gap} "
            f"({en[1]} gap)")  # fmt: skip


def _sector_pick(turn: Turn, rows: list[dict[str, Any]], order: str, read: str,
                 sector: str) -> str | None:  # fmt: skip
    """The sector's top N by `order`, each with its `read` figure (the pick's figure first)."""
    field, other, op = SECTOR_FIELDS[order], SECTOR_FIELDS[read], turn.frame.operation
    kept = _sector_kept(rows, field)
    if not kept:
        return None
    kept.sort(key=lambda r: float(r[field]), reverse=op.direction != "asc")
    picked = kept[: op.top_n or 1]
    low = op.direction == "asc"
    ko = (_words(turn, order)[0], _words(turn, read)[0])
    items = ", ".join(
        f"{r['name']} {figure_text(read, float(r[other]), turn) if r[other] is not None else '-'} "
        f"({ko[0] if turn.ko() else GAP_WORDS[order][1]} {figure_text(order, float(r[field]), turn)})"
        for r in picked
    )
    which = (f"{'하위' if low else '상위'} {len(picked)}개" if len(picked) > 1
             else f"가장 {'낮은' if low else '높은'}")  # fmt: skip
    values = [float(r[other]) for r in picked if r[other] is not None]
    total = ""
    if op.aggregate in ("avg", "sum") and values:  # '… 상위 3개 종목의 평균 PER'
        value = sum(values) / (len(values) if op.aggregate == "avg" else 1)
        word = ("평균", "mean") if op.aggregate == "avg" else ("합계", "total")
        total = f" — {word[0 if turn.ko() else 1]} {figure_text(read, value, turn)}"
    if turn.ko():
        return f"{sector} {ko[0]} {which} 종목의 {ko[1]} ({len(kept)}종목 중){total}: {items}"
    return (
        f"{sector}, {GAP_WORDS[read][1]} of the {'lowest' if low else 'highest'} "
        f"{len(picked)} by {GAP_WORDS[order][1]} (of {len(kept)}){total}: {items}"
    )


_LISTED = 20  # stocks named in a filter's line; the rest are counted


def _group(turn: Turn, name: str, market: str, country: str) -> str:
    """The set a sector line is about: '국내 반도체 업종', '국내 전체 종목', 'all US stocks'."""
    if name == MARKET_WIDE:
        return f"{market} 전체 종목".strip() if turn.ko() else f"all {country} stocks"
    if name in EXCHANGES:
        return set_title(name, turn.ko())
    return f"{market} {name} 업종".strip() if turn.ko() else f"{name} sector ({country})"


def _named_bar(turn: Turn, pool: ConnectionPool | None) -> tuple[float, str, str] | None:
    """(figure, name, currency) of the stock whose figure is the set's bar ('삼성전자보다 PER 낮은
    반도체주'), from its last snapshot, or None."""
    bar, op = turn.frame.operation.threshold_of, turn.frame.operation
    if bar is None or bar.kind != "stock" or op.filter_measure not in SECTOR_FIELDS:
        return None
    rows = _snapshots(turn, pool, _ONE_STOCK, as_of=turn.as_of, code=bar.key)
    field = SECTOR_FIELDS[op.filter_measure]
    if not rows or rows[0][field] is None:
        return None
    return float(rows[0][field]), bar.name, str(rows[0]["currency"])


def _bar_at(frame: QuestionFrame, measure: str) -> str | None:
    """'mean' or 'median' when the set's own centre of `measure` is the bar asked."""
    if frame.operation.filter_measure != measure:
        return None
    return next((n[len(BAR_AT) :] for n in frame.notes if n.startswith(BAR_AT)), None)


def _words(turn: Turn, measure: str) -> tuple[str, str]:
    """A figure's words; a return's with its period ('1년 수익률')."""
    ko, en = GAP_WORDS[measure]
    if measure != "return":
        return ko, en
    named = asked_period(turn.frame)
    return f"{named.ko} {ko}", f"{named.en} {en}"


def _bars(frame: QuestionFrame, kinds: tuple[str, ...] = ("filter",)
          ) -> list[tuple[str, str, float]]:  # fmt: skip
    """Every bar a filter (or a ranking, `kinds`) holds stocks to, (measure, comparator, bar in
    the figure's unit), when each is a sector figure; the parser keeps amounts in 억."""
    op = frame.operation
    said = [(op.filter_measure, op.comparator, op.threshold, op.threshold_unit)] + [
        (c.measure, c.comparator, c.threshold, c.unit) for c in op.conditions]  # fmt: skip
    bars = [(str(m), str(c), t * (1e8 if u == "억" else 1.0)) for m, c, t, u in said
            if m in SECTOR_FIELDS and c is not None and t is not None]  # fmt: skip
    return bars if op.kind in kinds and len(bars) == len(said) else []


def _priced(turn: Turn, bars: list[tuple[str, str, float]],
            pool: ConnectionPool | None) -> list[tuple[str, str, float]] | None:  # fmt: skip
    """The bars in the currency the stocks are priced in: a size said in won ('시가총액 10조
    이상') over dollar stocks, or in dollars ('1조 달러 이상') over won stocks, is converted at the
    KRW/USD rate of the day (said in the notes); a per-share bar in the other currency ('종가
    10만원 넘는') holds that currency's listings only: None, as when no rate is held."""
    op, won = turn.frame.operation, turn.stock["currency"] == "KRW"
    dollars = {m for m, u in [(op.filter_measure, op.threshold_unit),
                              *((c.measure, c.unit) for c in op.conditions)] if u == "$"}  # fmt: skip
    foreign = {m for m, _, _ in bars if m in IN_CURRENCY and (m in dollars) == won}
    if not foreign:
        return bars
    if foreign - {"market_cap"}:
        return None
    rows = turn.query("usd_krw", FX_ON_OR_BEFORE, {"day": turn.as_of}, "KR_USDKRW",
                      "macro_observations", pool)  # fmt: skip
    if not rows:
        return None
    rate, day = float(rows[0]["value"]), rows[0]["d"]
    said, listed = ("달러", "국내") if won else ("원화", "미국")
    turn.info.append(f"{said} 금액 기준은 {day} 원/달러 환율 {rate:,.2f}원으로 환산해 {listed} 종목에 적용."
                     if turn.ko() else f"{'Dollar' if won else 'Won'} bars applied to "
                     f"{'Korean' if won else 'US'} stocks at the {day} KRW/USD rate of {rate:,.2f}.")  # fmt: skip
    return [(m, c, (b * rate if won else b / rate) if m in foreign else b) for m, c, b in bars]


def _met(rows: list[dict[str, Any]], bars: list[tuple[str, str, float]]
         ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:  # fmt: skip
    """(the stocks holding every figure barred, those of them that meet every bar)."""
    kept = rows
    for m, _, _ in bars:
        kept = _sector_kept(kept, SECTOR_FIELDS[m])
    return kept, [r for r in kept
                  if all(meets(float(r[SECTOR_FIELDS[m]]), c, b) for m, c, b in bars)]  # fmt: skip


def _bar_words(turn: Turn, bars: list[tuple[str, str, float]]) -> list[str]:
    lang = "ko" if turn.ko() else "en"
    return [f"{_words(turn, m)[0 if turn.ko() else 1]} {figure_text(m, b, turn)} "
            f"{COMPARATOR_WORDS[lang][c]}" if turn.ko() else f"{_words(turn, m)[1]} "
            f"{COMPARATOR_WORDS[lang][c]} {figure_text(m, b, turn)}" for m, c, b in bars]  # fmt: skip


def _sector_bars(turn: Turn, rows: list[dict[str, Any]], bars: list[tuple[str, str, float]],
                 sector: str) -> str:  # fmt: skip
    """A sector's stocks that meet every bar ('PBR 1배 미만', '… 이면서 배당수익률 5% 넘는'),
    farthest past the first bar first."""
    kept, met = _met(rows, bars)
    first, comparator, _ = bars[0]
    met.sort(key=lambda r: float(r[SECTOR_FIELDS[first]]), reverse=not comparator.startswith("<"))
    said = _bar_words(turn, bars)
    measures = list(dict.fromkeys(m for m, _, _ in bars))  # '20배 이상 30배 이하': one figure
    shown = [", ".join(figure_text(m, float(r[SECTOR_FIELDS[m]]), turn) for m in measures)
             for r in met[:_LISTED]]  # fmt: skip
    listed = ", ".join(f"{r['name']} {v}" if len(measures) == 1 else f"{r['name']} ({v})"
                       for r, v in zip(met, shown, strict=False))  # fmt: skip
    if len(met) > _LISTED:
        listed += (
            f" 외 {len(met) - _LISTED}종목" if turn.ko() else f" and {len(met) - _LISTED} more"
        )
    if turn.ko():
        return (
            f"{sector} {' · '.join(said)}: {len(kept)}종목 중 {len(met)}종목 — {listed or '없음'}"
        )
    return f"{sector}, {' and '.join(said)}: {len(met)} of {len(kept)} — {listed or 'none'}"


def _sector_ranking(turn: Turn, rows: list[dict[str, Any]], measure: str, sector: str) -> str:
    """A sector's stocks ordered by one valuation figure, the top N (ties at the cut named)."""
    field, op = SECTOR_FIELDS[measure], turn.frame.operation
    kept = _sector_kept(rows, field)
    kept.sort(key=lambda r: float(r[field]), reverse=op.direction != "asc")
    n = op.top_n or 1
    while n < len(kept) and float(kept[n][field]) == float(kept[n - 1][field]):
        n += 1
    ko, en = _words(turn, measure)
    listed = ", ".join(f"{i}. {r['name']} {figure_text(measure, float(r[field]), turn)}"
                       for i, r in enumerate(kept[:n], 1)) or ("없음" if turn.ko() else "none")  # fmt: skip
    low = op.direction == "asc"
    return (f"{sector} {ko} {'낮은' if low else '높은'} 순 ({len(kept)}종목 중): {listed}"
            if turn.ko() else f"{sector} by {en}, {'lowest' if low else 'highest'} first "
            f"(of {len(kept)}): {listed}")  # fmt: skip


def _no_pe(turn: Turn) -> None:
    """A loss year has no P/E: said as what was not answered, so nothing is compared on it."""
    name = turn.stock["name"]
    turn.notes.append(particles(f"{name}은(는) 순이익이 적자라 PER이 없습니다.") if turn.ko()
                      else f"{name} has a net loss, so it has no P/E.")  # fmt: skip


def _valuation(turn: Turn, pool: ConnectionPool | None) -> None:
    """PER and PBR of the last snapshot; a loss year has no PER, which is said, not computed."""
    f = _fundamentals(turn, pool)
    if not f:
        return
    per, pbr = (None if f[k] is None else float(f[k]) for k in ("pe", "pb"))
    turn.figures.update({k: v for k, v in (("per", per), ("pbr", pbr)) if v is not None})
    if per is None and "per" in _valuations_asked(turn.frame):
        _no_pe(turn)
    if turn.ko():
        said = [f"PER {per:.2f}배" if per is not None else "PER 없음(순이익 적자)",
                f"PBR {pbr:.2f}배" if pbr is not None else "PBR 없음"]  # fmt: skip
        turn.lines.append(f"{', '.join(said)} ({f['as_of_date']} 기준)")
    else:
        said = [f"P/E {per:.2f}" if per is not None else "no P/E (net loss)",
                f"P/B {pbr:.2f}" if pbr is not None else "no P/B"]  # fmt: skip
        turn.lines.append(f"{', '.join(said)} (as of {f['as_of_date']})")


def _snapshot(turn: Turn, pool: ConnectionPool | None, name: str) -> None:
    """One figure of the last snapshot ('삼성전자 EPS', '배당수익률', '시가총액'); a dollar market
    cap asked in won also in won."""
    f = _fundamentals(turn, pool)
    field = FUNDAMENTAL_FIELDS[name]
    if not f or f[field] is None:
        return
    x = turn.figures[name] = float(f[field])
    written = figure_text(name, x, turn) + (in_won(turn, x, pool) if name == "market_cap" else "")
    ko, en = GAP_WORDS[name]
    turn.lines.append(f"{'EPS(주당순이익)' if name == 'eps' else ko} {written} ({f['as_of_date']} 기준)"
                      if turn.ko() else f"{en[0].upper()}{en[1:]} {written} (as of {f['as_of_date']})")  # fmt: skip


_SHARES = "SELECT shares_outstanding FROM stocks WHERE security_id = %(sid)s"


def _shares(turn: Turn, pool: ConnectionPool | None) -> None:
    """'Intel 상장주식수': the shares listed, the one current value the data holds."""
    sid = turn.stock["security_id"]
    rows = turn.query("stocks", _SHARES, {"sid": sid}, price_dataset(sid), "stocks", pool)
    shares = rows[0]["shares_outstanding"] if rows else None
    if not shares:
        turn.notes.append("상장주식수 정보가 없습니다." if turn.ko() else "No share count is held.")
        return
    turn.figures["shares_outstanding"] = float(shares)
    turn.lines.append(f"상장주식수 {int(shares):,}주 (현재 값)" if turn.ko()
                      else f"Shares outstanding {int(shares):,} (current)")  # fmt: skip


def _earnings(turn: Turn, pool: ConnectionPool | None) -> None:
    rows = turn.query("earnings_events", _EARNINGS, {"sid": turn.stock["security_id"]},
                      "EARNINGS_EVENTS", "earnings_events", pool)  # fmt: skip
    as_of = date.fromisoformat(turn.as_of)
    if any(w in turn.frame.question.lower() for w in _NEXT_WORDS):
        upcoming = [r for r in rows if r["event_date"] > as_of]
        if upcoming:
            e = upcoming[0]
            mark_read(
                turn.frame, "발표", "발표일", "예정일", "release"
            )  # the day said is the release
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
    verdict = RESULT["ko" if turn.ko() else "en"][result_of(act - est) or ""]  # by act - est
    turn.lines.append(
        f"{e['period']} 실적({e['event_date']}): EPS 예상 {est:,.2f} / 실제 {act:,.2f}, "
        f"서프라이즈 {surprise:+.2f}% (예상 {verdict})" if turn.ko() else
        f"{e['period']} earnings ({e['event_date']}): EPS estimate {est:,.2f} vs actual {act:,.2f}, "
        f"surprise {surprise:+.2f}% ({verdict})")  # fmt: skip


VALUATION_SECTIONS: dict[str, Callable[[Turn, ConnectionPool | None], None]] = {"valuation": _valuation, "eps": partial(_snapshot, name="eps"), "dividend": partial(_snapshot, name="dividend_yield"), "market_cap": partial(_snapshot, name="market_cap"), "shares": _shares, "fundamental_change": _fundamental_change, "peers": _peers, "rank": _rank, "earnings": _earnings}  # fmt: skip
