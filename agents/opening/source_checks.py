"""Sources checked against the numbers they back (issue 19).

A script turn (or a theme) that states a security's close move and cites an article about that
security must cite one of the same trading day and the same direction: an article from the
previous session reporting '3.4% 강세' cannot back a -1.77% close. An article that reports no
move (an earnings release, a contract) backs a move of its own session, or the move of the first
session after it (published after the previous session's close and before the move's close). A disagreeing citation is
replaced by a read article of the right day and direction when there is one, else dropped; each
change is a repair with its reason (shown in the validation trace).

The numbers beside a citation are the percent figures of its text that match a day-over-day
close change of a `get_ohlcv` row; the article's day is the last session of the security's
market closed by its publication (Seoul for KR:, New York for US:), its direction read from its
title (single-security articles only: a market round-up has none).

    check_sources(themes, scripts, calls)  # -> ["대본 4번째 턴: 기사 n-12(…) …"]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time
from typing import Any
from zoneinfo import ZoneInfo

from agents.evidence import ToolCallRecord
from data_access.trading_calendar import exchange_of, previous_trading_day

_CLOCKS = {"KR": ZoneInfo("Asia/Seoul"), "US": ZoneInfo("America/New_York")}
_UP = re.compile(
    r"강세|상승|급등|반등|올랐|오름|신고가|치솟|뛰었|"
    r"\b(?:surges?|surged|rall(?:y|ies|ied)|gains?|gained|jumps?|jumped|climbs?|climbed|"
    r"rises?|rose|soars?|soared|advances?|advanced)\b",
    re.IGNORECASE,
)
_DOWN = re.compile(
    r"약세|하락|급락|내렸|내림|떨어|밀렸|폭락|추락|"
    r"\b(?:slides?|slid|plunges?|plunged|falls?|fell|drops?|dropped|sinks?|sank|tumbles?|"
    r"tumbled|declines?|declined|slumps?|slumped|sheds?)\b",
    re.IGNORECASE,
)
_PERCENT = re.compile(r"(?<![\w.])[+-]?(\d+)\.(\d+)\s*(?:%|퍼센트)")
_ANY_PERCENT = re.compile(r"\d\s*%")
_CLOSES = {"KR": time(15, 30), "US": time(16, 0)}  # regular sessions' closing times


@dataclass(frozen=True)
class Move:
    """A close's day-over-day change from a get_ohlcv row."""

    ticker: str  # security id (KR:005930, US:NVDA)
    day: date
    change: float  # percent


@dataclass(frozen=True)
class Article:
    pk: str
    title: str
    tickers: tuple[str, ...]
    published: datetime | None

    def session_for(self, ticker: str) -> date | None:
        """The session a report is about: the last one of the ticker's market closed by its
        publication (a Sunday briefing reports Friday; an evening report that day's session)."""
        if self.published is None:
            return None
        market = ticker.split(":", 1)[0]
        local = self.published.astimezone(_CLOCKS.get(market, _CLOCKS["US"]))
        closed = local.time() >= _CLOSES.get(market, _CLOSES["US"])
        return previous_trading_day(local.date(), exchange_of(ticker), inclusive=closed)

    @property
    def direction(self) -> int | None:
        return direction(self.title) if len(self.tickers) == 1 else None

    @property
    def reports_move(self) -> bool:
        """A title that reports a move (a direction word or a percent), not an event."""
        return direction(self.title) is not None or bool(_ANY_PERCENT.search(self.title))

    def precedes(self, ticker: str, day: date) -> bool:
        """Published after the close of the session before `day` and before `day`'s close."""
        if self.published is None:
            return False
        market = ticker.split(":", 1)[0]
        clock, close = _CLOCKS.get(market, _CLOCKS["US"]), _CLOSES.get(market, _CLOSES["US"])
        before = previous_trading_day(day, exchange_of(ticker), inclusive=False)
        local = self.published.astimezone(clock)
        return datetime.combine(before, close, clock) < local < datetime.combine(day, close, clock)


def direction(title: str) -> int | None:
    """+1 for a title reporting a rise, -1 for a fall, None when it says neither or both."""
    up, down = bool(_UP.search(title)), bool(_DOWN.search(title))
    return None if up == down else (1 if up else -1)


def security_id(ticker: str) -> str:
    """A get_ohlcv ticker as the security id news articles carry ('005930' → 'KR:005930')."""
    t = ticker.strip().upper()
    if ":" in t:
        return t
    return f"KR:{t}" if t.isdigit() else f"US:{t}"


def moves_from(calls: Iterable[ToolCallRecord]) -> list[Move]:
    out: list[Move] = []
    for call in calls:
        if call.tool != "get_ohlcv" or call.status != "ok" or not isinstance(call.result, dict):
            continue
        sid = security_id(str(call.result.get("ticker", "")))
        rows = [r for r in call.result.get("rows", []) if r.get("close") is not None]
        for prev, cur in zip(rows, rows[1:], strict=False):
            if float(prev["close"]):
                change = (float(cur["close"]) / float(prev["close"]) - 1) * 100
                out.append(Move(sid, date.fromisoformat(str(cur["ts"])[:10]), change))
    return out


def articles_from(calls: Iterable[ToolCallRecord]) -> dict[str, Article]:
    """Every listed article's tickers and publication time (get_news_list answers)."""
    out: dict[str, Article] = {}
    for call in calls:
        if call.tool != "get_news_list" or call.status != "ok" or not isinstance(call.result, dict):
            continue
        for a in call.result.get("articles", []):
            when = a.get("publish_et_iso")
            out[str(a["pk"])] = Article(
                pk=str(a["pk"]), title=str(a.get("title", "")),
                tickers=tuple(str(t).upper() for t in a.get("tickers") or []),
                published=datetime.fromisoformat(when) if when else None,
            )  # fmt: skip
    return out


def claims_in(text: str, moves: Sequence[Move]) -> list[Move]:
    """The moves whose change a percent figure of the text states (to its decimals)."""
    found: list[Move] = []
    for m in _PERCENT.finditer(text):
        decimals = len(m.group(2))
        value = float(f"{m.group(1)}.{m.group(2)}")
        found += [mv for mv in moves if round(abs(mv.change), decimals) == value]
    return list(dict.fromkeys(found))


def agrees(article: Article, move: Move) -> bool:
    """A move reported on the same trading day (on the move's market) and not the opposite
    direction; an event reported after the previous close (see the module's docstring)."""
    if not article.reports_move:  # an event: of the move's session, or the release it followed
        return article.session_for(move.ticker) == move.day or article.precedes(
            move.ticker, move.day
        )
    if article.session_for(move.ticker) != move.day:
        return False
    sign = (move.change > 0) - (move.change < 0)
    return article.direction is None or article.direction == sign


def _replacement(move: Move, articles: dict[str, Article], read: set[str],
                 taken: set[str]) -> Article | None:  # fmt: skip
    """A read article about the same security, of the move's day and direction."""
    for pk in sorted(read - taken):
        a = articles.get(pk)
        if a and move.ticker in a.tickers and agrees(a, move) and a.direction is not None:
            return a
    return None


def _checked(sources: list[dict[str, Any]], text: str, where: str, moves: Sequence[Move],
             articles: dict[str, Article], read: dict[str, str]) -> tuple[list[Any], list[str]]:  # fmt: skip
    claims = claims_in(text, moves)
    out: list[dict[str, Any]] = []
    repairs: list[str] = []
    taken = {s["pk"] for s in sources}
    for source in sources:
        a = articles.get(source["pk"])
        about = [c for c in claims if a is not None and c.ticker in a.tickers]
        if a is None or not about or any(agrees(a, c) for c in about):
            out.append(source)
            continue
        claim = about[0]
        why = (f"{where}: 기사 '{a.title}'({a.session_for(claim.ticker)} 장)는 옆 수치 "
               f"{claim.ticker} {claim.day} {claim.change:+.2f}%와 날짜·방향이 맞지 않아")  # fmt: skip
        better = _replacement(claim, articles, set(read), taken)
        if better is not None:
            taken.add(better.pk)
            out.append({"pk": better.pk, "title": read[better.pk]})
            repairs.append(f"{why} 같은 날 기사 '{better.title}'로 바꿨습니다.")
        else:
            repairs.append(f"{why} 근거에서 뺐습니다.")
    return out, repairs


def check_sources(themes: list[dict[str, Any]], scripts: list[dict[str, Any]],
                  calls: Sequence[ToolCallRecord], read: dict[str, str]) -> list[str]:  # fmt: skip
    """Fix the themes' and turns' citations in place; the repairs say what changed and why."""
    moves, articles = moves_from(calls), articles_from(calls)
    if not moves or not articles:
        return []
    repairs: list[str] = []
    for i, t in enumerate(themes, 1):
        text = f"{t['headline']} {t['description']}"
        t["related_news"], fixed = _checked(t["related_news"], text, f"테마 {i}", moves,
                                            articles, read)  # fmt: skip
        repairs += fixed
    for turn in scripts:
        turn["sources"], fixed = _checked(turn["sources"], turn["text"],
                                          f"대본 {turn['id']}번째 턴", moves, articles, read)  # fmt: skip
        if fixed:
            turn["text"] = recount(turn["text"], len(turn["sources"]))
        repairs += fixed
    return repairs


_COUNTED = re.compile(r"\s*관련 기사 \d+건을 근거로 말씀드렸습니다\.")


def recount(text: str, sources: int) -> str:
    """A turn that says how many articles it rests on says the count left after the check."""
    if sources == 0:
        return _COUNTED.sub("", text)
    return _COUNTED.sub(f" 관련 기사 {sources}건을 근거로 말씀드렸습니다.", text)
