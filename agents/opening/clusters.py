"""The window's stories as events and clusters, ranked by market impact (pure functions).

    moves = company_moves(articles, sessions, infos, usdkrw=1445.0, earnings=events)
    ranked = rank_clusters(moves, breadth, articles)
    ranked[0].headline  # '엔비디아, 분기 EPS 예상치 밑돌아 급락'

A company move is one stock's price move in a session that the window's news reports on
(an article naming at most `MAX_TICKERS_ABOUT` tickers, published after that session's close).
Its impact is |change| × market cap before the move, in won (US caps × USD/KRW). Clusters:

- `earnings` / `company`: one company's move (earnings when a confirmed report came out in the
  days before the move; the surprise is EPS actual vs estimate);
- `sector`: at least `MIN_SECTOR_MEMBERS` news-backed names of one sector and market moving the
  same way in one session; impact is the sum of the members', weighted by breadth (the share of
  the whole sector moving that way). A member whose own story dominates (an earnings move, or at
  least half the sector's impact) keeps its own cluster instead;
- `policy` / `macro`: articles without tickers on rates, prices, jobs or central banks. They have
  no won figure: a policy decision takes the third theme at most, a data release only fills a
  slot that company and sector stories leave empty.

Score = impact × (1 + EARNINGS_BONUS if earnings) × (1 + SOURCE_BONUS × (distinct sources − 1));
article count only breaks ties.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any, Literal
from zoneinfo import ZoneInfo

MAX_TICKERS_ABOUT = 3  # articles naming more tickers are market wraps, not a story about each
MIN_SECTOR_MEMBERS = 3
MIN_SECTOR_MOVE_PCT = 1.0  # a member of a sector move moved at least this much
EARNINGS_LOOKBACK_DAYS = 4  # a report this many calendar days before a move explains it
EARNINGS_BONUS = 0.25
SOURCE_BONUS = 0.1
DOMINANT_SHARE = 0.5
MACRO_THEMES = {"FOMC": "policy", "한국은행": "policy", "금리": "macro", "물가": "macro",
                "고용": "macro"}  # fmt: skip
MACRO_HEADLINES = {"FOMC": "미 연준 기준금리 결정", "한국은행": "한국은행 기준금리 결정",
                   "물가": "물가 지표 발표", "고용": "고용 지표 발표", "금리": "금리 관련 발표"}  # fmt: skip
MARKETS_KO = {"NASDAQ": "나스닥", "NYSE": "뉴욕증시", "KOSPI": "코스피", "KOSDAQ": "코스닥"}
CLOSE_TIMES = {"KR": (time(15, 30), ZoneInfo("Asia/Seoul")),
               "US": (time(16, 0), ZoneInfo("America/New_York"))}  # fmt: skip
_REASON = re.compile(r"…\s*(?P<reason>[^…]+?)\s*$")
_DESPITE = re.compile(r",\s*(?P<reason>.+?)에도\s")

Kind = Literal["earnings", "company", "sector", "policy", "macro"]


@dataclass(frozen=True)
class Session:
    security_id: str
    d: date
    close: float
    prev_close: float

    @property
    def change_pct(self) -> float:
        return (self.close / self.prev_close - 1) * 100 if self.prev_close else 0.0


@dataclass(frozen=True)
class StockInfo:
    security_id: str
    name: str
    name_en: str
    country: str
    market: str
    currency: str
    sector: str
    shares: int
    aliases_ko: tuple[str, ...] = ()

    def name_ko(self, titles: list[str]) -> str:
        """The Korean name a Korean script uses: KR names as they are; for US stocks the Korean
        alias the window's Korean titles use, else the longest Korean alias, else the name."""
        if self.country == "KR" or not self.aliases_ko:
            return self.name
        used = [a for a in self.aliases_ko if any(a in t for t in titles)]
        return max(used or list(self.aliases_ko), key=len)


@dataclass(frozen=True)
class Earnings:
    security_id: str
    period: str
    event_date: date
    eps_estimate: float
    eps_actual: float

    @property
    def surprise_pct(self) -> float:
        base = abs(self.eps_estimate)
        return (self.eps_actual - self.eps_estimate) / base * 100 if base else 0.0


@dataclass
class CompanyMove:
    info: StockInfo
    name_ko: str
    session: Session
    impact_krw: float
    pks: list[str]
    sources: set[str]
    reason: str | None = None
    earnings: Earnings | None = None

    @property
    def change_pct(self) -> float:
        return self.session.change_pct

    def as_member(self) -> dict[str, Any]:
        return {"security_id": self.info.security_id, "name": self.name_ko,
                "session": self.session.d.isoformat(), "close": round(self.session.close, 4),
                "change_pct": round(self.change_pct, 2), "impact_krw": round(self.impact_krw)}  # fmt: skip


@dataclass
class Cluster:
    kind: Kind
    key: str
    subject: str  # the company, sector or event, in Korean
    headline: str
    why: str
    members: list[CompanyMove] = field(default_factory=list)
    pks: list[str] = field(default_factory=list)
    sources: set[str] = field(default_factory=set)
    impact_krw: float = 0.0
    score: float = 0.0
    earnings: Earnings | None = None
    breadth: dict[str, int] | None = None

    @property
    def lead(self) -> CompanyMove | None:
        return self.members[0] if self.members else None

    def as_dict(self, rank: int) -> dict[str, Any]:
        out: dict[str, Any] = {
            "rank": rank, "kind": self.kind, "key": self.key, "subject": self.subject,
            "headline": self.headline, "why": self.why,
            "impact_krw": round(self.impact_krw), "score": round(self.score),
            "sources": sorted(self.sources), "article_count": len(self.pks),
            "article_pks": self.pks[:8], "members": [m.as_member() for m in self.members[:5]],
        }  # fmt: skip
        if self.earnings is not None:
            e = self.earnings
            out["earnings"] = {"security_id": e.security_id, "period": e.period,
                               "event_date": e.event_date.isoformat(),
                               "eps_estimate": e.eps_estimate, "eps_actual": e.eps_actual,
                               "surprise_pct": round(e.surprise_pct, 2)}  # fmt: skip
        if self.breadth is not None:
            out["breadth"] = self.breadth
        return out


# ---------------------------------------------------------------- company moves


def close_at(country: str, d: date) -> datetime:
    at, tz = CLOSE_TIMES.get(country, CLOSE_TIMES["US"])
    return datetime.combine(d, at, tz)


def reported_session(published: datetime, sessions: list[Session], country: str) -> Session | None:
    """The latest session whose close came at or before the article (what it reports on)."""
    done = [s for s in sessions if close_at(country, s.d) <= published]
    return done[-1] if done else None


def reason_of(title: str) -> str | None:
    """The cause a Korean title gives ('…대규모 공급계약 체결 공시', ', X에도 …'), if any."""
    for pattern in (_DESPITE, _REASON):
        m = pattern.search(title)
        if m and not any(c.isdigit() for c in m.group("reason")):
            return m.group("reason").strip()
    return None


def company_moves(articles: list[dict[str, Any]], sessions: dict[str, list[Session]],
                  infos: dict[str, StockInfo], usdkrw: float,
                  earnings: list[Earnings]) -> list[CompanyMove]:  # fmt: skip
    """One move per company: its news-backed session with the largest impact."""
    titles = [a["title"] for a in articles]
    found: dict[tuple[str, date], CompanyMove] = {}
    for a in articles:
        tickers = a.get("tickers") or []
        if not 0 < len(tickers) <= MAX_TICKERS_ABOUT:
            continue
        published = datetime.fromisoformat(a["publish_et_iso"])
        for sid in tickers:
            info = infos.get(sid)
            s = reported_session(published, sessions.get(sid, []), info.country) if info else None
            if info is None or s is None:
                continue
            move = found.get((sid, s.d))
            if move is None:
                fx = usdkrw if info.currency == "USD" else 1.0
                impact = abs(s.change_pct) / 100 * s.prev_close * info.shares * fx
                move = CompanyMove(info, info.name_ko(titles), s, impact, [], set())
                found[(sid, s.d)] = move
            move.pks.append(a["pk"])
            move.sources.add(str(a.get("source") or ""))
            if len(tickers) == 1 and move.reason is None and a.get("lang") == "ko":
                move.reason = reason_of(a["title"])
    best: dict[str, CompanyMove] = {}
    for move in found.values():
        sid = move.info.security_id
        if sid not in best or move.impact_krw > best[sid].impact_krw:
            best[sid] = move
    width = {a["pk"]: len(a.get("tickers") or []) for a in articles}
    for (sid, _), move in found.items():  # a company's story is all its articles in the window
        kept = best[sid]
        kept.pks = list(dict.fromkeys([*kept.pks, *move.pks]))
        kept.sources |= move.sources
    for move in best.values():  # articles about the company alone first, then shared ones
        move.pks.sort(key=lambda pk: width[pk] > 1)
    for move in best.values():
        move.earnings = _earnings_for(move, earnings)
    return sorted(best.values(), key=lambda m: -m.impact_krw)


def _earnings_for(move: CompanyMove, earnings: list[Earnings]) -> Earnings | None:
    start = move.session.d - timedelta(days=EARNINGS_LOOKBACK_DAYS)
    hits = [e for e in earnings
            if e.security_id == move.info.security_id and start <= e.event_date <= move.session.d]  # fmt: skip
    return hits[-1] if hits else None


# ---------------------------------------------------------------- wording


def verb(change_pct: float) -> str:
    size = abs(change_pct)
    up = change_pct > 0
    if size >= 5:
        return "급등" if up else "급락"
    if size >= 2:
        return "강세" if up else "약세"
    return "상승" if up else "하락" if change_pct < 0 else "보합"


def with_i(word: str) -> str:
    """word + 이/가."""
    ch = word[-1:]
    has = "가" <= ch <= "힣" and (ord(ch) - 0xAC00) % 28 != 0
    return word + ("이" if has else "가")


def company_headline(move: CompanyMove) -> str:
    name, v = move.name_ko, verb(move.change_pct)
    if move.earnings is not None:
        beat = move.earnings.surprise_pct > 0
        if beat == (move.change_pct > 0):
            return f"{name}, 분기 EPS 예상치 {'웃돌아' if beat else '밑돌아'} {v}"
        return f"{name}, 분기 EPS 예상치 {'웃돌았지만' if beat else '밑돌았지만'} {v}"
    if move.reason:
        against = (move.change_pct > 0) != _good_news(move.reason)
        return f"{name}, {move.reason}{'에도' if against else '에'} {v}"
    return f"{name}, {MARKETS_KO.get(move.info.market, move.info.market)}서 {v}"


def _good_news(reason: str) -> bool:
    return not any(w in reason for w in ("우려", "지연", "블록딜", "하향", "부진", "소송", "리콜"))


def company_why(move: CompanyMove, rank_in_caps: int) -> str:
    e = move.earnings
    unit = "달러" if move.info.currency == "USD" else "원"
    parts = []
    if e is not None:
        side = "밑돈" if e.surprise_pct < 0 else "웃돈"
        parts.append(f"{with_i(move.name_ko)} {e.period} EPS {_num(e.eps_actual)}{unit}로 "
                     f"예상치 {_num(e.eps_estimate)}{unit}를 {side} 뒤")  # fmt: skip
    elif move.reason:
        parts.append(f"{move.reason} 소식에 {move.name_ko}")
    else:
        parts.append(move.name_ko)
    when = f"{move.session.d.month}월 {move.session.d.day}일"
    if move.info.country != "KR":  # a session abroad closes on the day before Seoul's opening
        when += " 현지 거래에서"
    went = "올랐습니다" if move.change_pct > 0 else "내렸습니다"
    parts.append(f"주가가 {when} {abs(move.change_pct):.2f}% {went}.")
    parts.append(f"오늘 뉴스가 다룬 종목 중 시가총액 변동 규모 {rank_in_caps}위입니다.")
    return " ".join(parts)


def _num(value: float) -> str:
    return f"{value:,.2f}" if abs(value) < 1000 else f"{value:,.0f}"


# ---------------------------------------------------------------- clusters


def sector_groups(moves: list[CompanyMove]) -> dict[tuple[str, str, date, bool], list[CompanyMove]]:
    """News-backed moves grouped by (country, sector, session, direction)."""
    groups: dict[tuple[str, str, date, bool], list[CompanyMove]] = {}
    for m in moves:
        if abs(m.change_pct) < MIN_SECTOR_MOVE_PCT:
            continue
        key = (m.info.country, m.info.sector, m.session.d, m.change_pct > 0)
        groups.setdefault(key, []).append(m)
    return {k: v for k, v in groups.items() if len(v) >= MIN_SECTOR_MEMBERS}


def _score(impact: float, earnings: bool, sources: int) -> float:
    bonus = 1 + (EARNINGS_BONUS if earnings else 0.0)
    return impact * bonus * (1 + SOURCE_BONUS * max(0, sources - 1))


def _company_cluster(move: CompanyMove, rank_in_caps: int) -> Cluster:
    kind: Kind = "earnings" if move.earnings is not None else "company"
    return Cluster(kind=kind, key=move.info.security_id, subject=move.name_ko,
                   headline=company_headline(move), why=company_why(move, rank_in_caps),
                   members=[move], pks=list(move.pks), sources=set(move.sources),
                   impact_krw=move.impact_krw, earnings=move.earnings,
                   score=_score(move.impact_krw, move.earnings is not None, len(move.sources)))  # fmt: skip


def _sector_cluster(key: tuple[str, str, date, bool], members: list[CompanyMove],
                    breadth: dict[str, int] | None) -> Cluster:  # fmt: skip
    country, sector, d, up = key
    members = sorted(members, key=lambda m: -m.impact_krw)
    impact = sum(m.impact_krw for m in members)
    share = 0.0
    if breadth and breadth.get("total"):
        share = breadth["up" if up else "down"] / breadth["total"]
    names = "·".join(m.name_ko for m in members[:2])
    market = "미국" if country == "US" else "국내"
    headline = f"{market} {sector}주 동반 {'강세' if up else '약세'}…{names} 등 {len(members)}종목"
    why = (f"{market} {sector} 업종에서 뉴스가 나온 {len(members)}종목이 함께 "
           f"{'올랐고' if up else '내렸고'}, 업종 전체 {breadth['total'] if breadth else '?'}종목 중 "
           f"{breadth['up' if up else 'down'] if breadth else '?'}종목이 같은 방향이었습니다.")  # fmt: skip
    sources = set().union(*(m.sources for m in members))
    pks = list(dict.fromkeys(p for m in members for p in m.pks))
    return Cluster(kind="sector", key=f"sector:{country}:{sector}:{d.isoformat()}:{'up' if up else 'down'}",
                   subject=f"{sector}주", headline=headline, why=why, members=members, pks=pks,
                   sources=sources, impact_krw=impact, breadth=breadth,
                   score=_score(impact * (1 + share), False, len(sources)))  # fmt: skip


def macro_clusters(articles: list[dict[str, Any]]) -> list[Cluster]:
    """Ticker-less articles on rates, prices, jobs and central banks, one cluster per topic."""
    out: dict[str, Cluster] = {}
    for a in articles:
        if a.get("tickers"):
            continue
        topic = next((t for t in ("FOMC", "한국은행", "물가", "고용", "금리")
                      if t in (a.get("themes") or [])), None)  # fmt: skip
        if topic is None:
            continue
        cluster = out.get(topic)
        if cluster is None:
            kind: Kind = "policy" if MACRO_THEMES[topic] == "policy" else "macro"
            cluster = Cluster(kind=kind, key=f"macro:{topic}", subject=MACRO_HEADLINES[topic],
                              headline=MACRO_HEADLINES[topic], why="")  # fmt: skip
            out[topic] = cluster
        cluster.pks.append(a["pk"])
        cluster.sources.add(str(a.get("source") or ""))
    for c in out.values():
        c.why = f"종목이 아닌 시장 전체에 걸린 이벤트로, 기사 {len(c.pks)}건이 다뤘습니다."
    return list(out.values())


def rank_clusters(moves: list[CompanyMove], breadth: dict[tuple[str, str, date], dict[str, int]],
                  articles: list[dict[str, Any]]) -> list[Cluster]:  # fmt: skip
    """Company, sector and macro clusters in the order a script should take them."""
    absorbed: set[str] = set()
    sectors: list[Cluster] = []
    for key, members in sector_groups(moves).items():
        total = sum(m.impact_krw for m in members)
        kept = [m for m in members
                if m.earnings is None and m.impact_krw < DOMINANT_SHARE * total]  # fmt: skip
        if len(kept) < MIN_SECTOR_MEMBERS:
            continue
        sectors.append(_sector_cluster(key, kept, breadth.get(key[:3])))
        absorbed |= {m.info.security_id for m in kept}
    companies = [_company_cluster(m, i) for i, m in enumerate(moves, 1)
                 if m.info.security_id not in absorbed]  # fmt: skip
    ranked = sorted(companies + sectors, key=lambda c: (-c.score, -len(c.pks), c.key))
    return _place_macro(ranked, macro_clusters(articles))


def _place_macro(ranked: list[Cluster], macro: list[Cluster]) -> list[Cluster]:
    policy = [c for c in macro if c.kind == "policy"]
    releases = [c for c in macro if c.kind == "macro"]
    out = list(ranked)
    for i, c in enumerate(policy):  # a decision takes the third theme at most
        out.insert(min(2 + i, len(out)), c)
    if len(ranked) < 3:  # releases only fill slots the stories leave empty
        at = len(ranked) + len(policy)
        return out[:at] + releases + out[at:]
    return out + releases
