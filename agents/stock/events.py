"""News as evidence: the last weeks' articles about a stock grouped into events, each with the
price reaction around it.

    events = build_events(articles, earnings, sessions, name_keys=("삼성전자", "Samsung Electronics"),
                          country="KR", start=date(2026, 10, 21), as_of=date(2026, 11, 20))
    events[0]  # {"category": "earnings", "date": "2026-10-29", "move": -0.067, ...}

An article's category comes from its title (earnings, guidance, contract/order, block deal,
regulation, product, capital policy, analyst view, or a bare price move); articles of one
category a few days apart are one event, and a price-move article joins the event it follows.
Reported earnings join as events even without an article. A session that moved more than
`BIG_MOVE` with no event near it becomes an event of its own, so no large move goes unexplained
without saying so. The reaction is measured on closes: the event day's move, the next
session's, and the drift over the following sessions.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any, Literal, TypedDict
from zoneinfo import ZoneInfo

Category = Literal[
    "earnings", "guidance", "contract", "block_deal", "regulation", "product", "capital",
    "analyst", "move",
]  # fmt: skip
WINDOW_DAYS = 30
JOIN_DAYS = 3  # articles of one category this many days apart are one event
BIG_MOVE = 0.05
DRIFT_SESSIONS = 3
MARKET_TZ = {"KR": ZoneInfo("Asia/Seoul"), "US": ZoneInfo("America/New_York")}

# Checked in order: the first category with a matching phrase wins ('실적 전망 상향' is guidance).
CATEGORY_RULES: tuple[tuple[Category, tuple[str, ...]], ...] = (
    ("guidance", ("실적 전망", "가이던스", "guidance")),
    ("earnings", ("주당순이익", "실적", "eps ", "earnings", "quarterly results")),
    ("block_deal", ("블록딜", "block sale", "block deal")),
    ("capital", ("자사주", "배당", "유상증자", "buyback", "dividend", "rights offering")),
    ("contract", ("계약", "수주", "기술이전", "협력", "contract", "order", "deal", "partnership")),
    ("regulation", ("규제", "소송", "regulat", "lawsuit")),
    ("product", ("신제품", "출시", "신작", "흥행", "임상", "product", "launch", "release", "trial")),
    ("analyst", ("투자의견", "목표주가", "downgrade", "upgrade")),
)  # fmt: skip
# Negative phrases are checked first: '공급계약 해지' is bad news although it names a contract.
NEGATIVE = ("하향", "하회", "해지", "지연", "블록딜", "규제", "소송", "패소", "유상증자", "미달", "우려",
            "miss", "cut", "cancel", "delay", "block sale", "regulat", "lawsuit", "rights offering",
            "downgrade", "concern")  # fmt: skip
POSITIVE = ("상향", "상회", "수주", "계약", "협력", "자사주", "배당", "긍정", "출시", "흥행", "체결",
            "확대", "기술이전", "beat", "raised", "order", "contract", "partnership", "buyback",
            "dividend", "positive", "launch", "strong", "expanding", "licensing", "deal", "upgrade")  # fmt: skip
PREVIEW = ("to watch", "앞두고", "preview")
_MOVE = re.compile(r"[+-]?\d+(?:\.\d+)?%")


class EventArticle(TypedDict):
    doc_id: str
    title: str
    url: str
    source: str
    published_at: str


class EarningsFacts(TypedDict):
    period: str
    eps_actual: float | None
    eps_estimate: float | None
    surprise: float | None


class NewsEvent(TypedDict):
    event_id: str
    category: Category
    date: str  # the day the news came out (market's local date)
    polarity: int  # +1 good news, -1 bad news, 0 neither (a bare price move)
    headline: str
    articles: list[EventArticle]
    earnings: EarningsFacts | None
    session: str | None  # first session on or after the event day
    move_day: float | None  # that session's close-to-close move
    next_session: str | None
    move_next: float | None
    drift: float | None  # from the event session's close over the next sessions
    drift_sessions: int
    move: float | None  # the larger of the event-day and next-session moves
    move_date: str | None
    explained: bool  # False: a price move no article gives a cause for


# ---------------------------------------------------------------- classification


def classify(title: str) -> Category | None:
    """The category a title reports, 'move' for a bare price move, None when neither."""
    text = f" {title.lower()} "
    for category, phrases in CATEGORY_RULES:
        if any(p in text for p in phrases):
            return category
    return "move" if _MOVE.search(title) else None


def polarity(title: str) -> int:
    text = title.lower()
    if any(p in text for p in NEGATIVE):
        return -1
    return 1 if any(p in text for p in POSITIVE) else 0


def local_day(published_at: datetime, country: str) -> date:
    return published_at.astimezone(MARKET_TZ.get(country, MARKET_TZ["US"])).date()


def about_stock(article: dict[str, Any], name_keys: tuple[str, ...]) -> bool:
    """Single-stock articles, or a wider one whose title names the stock (not a preview list)."""
    title = article["title"].lower()
    if any(p in title for p in PREVIEW):
        return False
    return article["ticker_count"] == 1 or any(k.lower() in title for k in name_keys if k)


# ---------------------------------------------------------------- price reaction


def reaction(sessions: list[tuple[str, float]], day: date) -> dict[str, Any]:
    """Moves around the first session on or after `day` (closes: [(iso date, close)])."""
    iso = day.isoformat()
    i = next((k for k, (d, _) in enumerate(sessions) if d >= iso), None)
    empty = {"session": None, "move_day": None, "next_session": None, "move_next": None,
             "drift": None, "drift_sessions": 0, "move": None, "move_date": None}  # fmt: skip
    if i is None or i == 0:
        return empty
    closes = [c for _, c in sessions]
    move_day = closes[i] / closes[i - 1] - 1
    has_next = i + 1 < len(sessions)
    move_next = closes[i + 1] / closes[i] - 1 if has_next else None
    last = min(i + DRIFT_SESSIONS, len(sessions) - 1)
    bigger_next = move_next is not None and abs(move_next) > abs(move_day)
    return {
        "session": sessions[i][0], "move_day": move_day,
        "next_session": sessions[i + 1][0] if has_next else None, "move_next": move_next,
        "drift": closes[last] / closes[i] - 1 if last > i else None, "drift_sessions": last - i,
        "move": move_next if bigger_next else move_day,
        "move_date": sessions[i + 1][0] if bigger_next else sessions[i][0],
    }  # fmt: skip


# ---------------------------------------------------------------- grouping


def _article(row: dict[str, Any]) -> EventArticle:
    return EventArticle(doc_id=str(row["pk"]), title=row["title"], url=row["url"],
                        source=row["source"], published_at=row["published_at"].isoformat())  # fmt: skip


def _new_event(category: Category, day: date, headline: str, pol: int) -> dict[str, Any]:
    return {"category": category, "day": day, "headline": headline, "polarity": pol,
            "articles": [], "earnings": None, "explained": category != "move"}  # fmt: skip


def _earnings_seeds(earnings: list[dict[str, Any]], start: date,
                    as_of: date) -> list[dict[str, Any]]:  # fmt: skip
    out = []
    for e in earnings:
        if not e["reported"] or not start <= e["event_date"] <= as_of:
            continue
        est, act = e["eps_estimate"], e["eps_actual"]
        value = (act - est) / abs(est) if est else None
        pol = 0 if value is None else (1 if value > 0 else -1 if value < 0 else 0)
        event = _new_event("earnings", e["event_date"], f"{e['period']} 실적 발표", pol)
        event["earnings"] = EarningsFacts(period=e["period"], eps_actual=act, eps_estimate=est,
                                          surprise=value)  # fmt: skip
        out.append(event)
    return out


def _reaction_end(sessions: list[tuple[str, float]], day: date) -> date:
    """The last day of an event's reaction window: the session after its first session."""
    after = [d for d, _ in sessions if d >= day.isoformat()][:2]
    return date.fromisoformat(after[-1]) if after else day


def _place(events: list[dict[str, Any]], category: Category, day: date, row: dict[str, Any],
           sessions: list[tuple[str, float]]) -> None:  # fmt: skip
    """Join the article to a near event of its category; a price-move article joins the event
    whose reaction window (event session and the next) it reports on."""
    if category == "move":
        near = [e for e in events if e["day"] <= day <= _reaction_end(sessions, e["day"])]
    else:
        near = [e for e in events if e["category"] == category
                and abs((day - e["day"]).days) <= JOIN_DAYS]  # fmt: skip
    if near:
        target = min(near, key=lambda e: abs((day - e["day"]).days))
    else:
        target = _new_event(
            category, day, row["title"], 0 if category == "move" else polarity(row["title"])
        )
        events.append(target)
    if category != "move" and target["category"] == category and not target["articles"]:
        target["headline"] = row["title"]  # the first article of the event names it
        if target["earnings"] is None:
            target["polarity"] = polarity(row["title"])
    target["articles"].append(_article(row))


def _unexplained_moves(events: list[NewsEvent], sessions: list[tuple[str, float]],
                       start: date) -> list[dict[str, Any]]:  # fmt: skip
    """Big sessions in the window that no event's reaction covers."""
    covered = {d for e in events for d in (e.get("session"), e.get("next_session")) if d}
    out = []
    for k in range(1, len(sessions)):
        day, close = sessions[k]
        move = close / sessions[k - 1][1] - 1
        if day >= start.isoformat() and day not in covered and abs(move) > BIG_MOVE:
            out.append(_new_event("move", date.fromisoformat(day), "", 0))
    return out


def _finish(event: dict[str, Any], sessions: list[tuple[str, float]]) -> NewsEvent:
    day: date = event["day"]
    react = reaction(sessions, day)
    return NewsEvent(
        event_id=f"{event['category']}:{day.isoformat()}", category=event["category"],
        date=day.isoformat(), polarity=event["polarity"], headline=event["headline"],
        articles=event["articles"], earnings=event["earnings"],
        explained=event["explained"], session=react["session"], move_day=react["move_day"],
        next_session=react["next_session"], move_next=react["move_next"], drift=react["drift"],
        drift_sessions=react["drift_sessions"], move=react["move"], move_date=react["move_date"],
    )  # fmt: skip


def build_events(
    articles: list[dict[str, Any]],
    earnings: list[dict[str, Any]],
    sessions: list[tuple[str, float]],
    *,
    name_keys: tuple[str, ...],
    country: str,
    start: date,
    as_of: date,
) -> list[NewsEvent]:
    """Events from `start` through `as_of`, oldest first (see the module docstring)."""
    events = _earnings_seeds(earnings, start, as_of)
    rows = [r for r in articles if about_stock(r, name_keys)]
    dated = sorted(((local_day(r["published_at"], country), r) for r in rows),
                   key=lambda x: (x[0], x[1]["published_at"]))  # fmt: skip
    for category_pass in (False, True):  # causes first, then the moves that follow them
        for day, row in dated:
            category = classify(row["title"])
            if category is None or (category == "move") != category_pass:
                continue
            if start <= day <= as_of:
                _place(events, category, day, row, sessions)
    finished = [_finish(e, sessions) for e in events]
    extra = _unexplained_moves(finished, sessions, start)
    finished += [_finish(e, sessions) for e in extra]
    return sorted(finished, key=lambda e: (e["date"], e["event_id"]))


def needs_explaining(event: NewsEvent) -> bool:
    """An earnings report, or any event whose reaction moved the price more than BIG_MOVE."""
    return event["earnings"] is not None or abs(event["move"] or 0.0) > BIG_MOVE
