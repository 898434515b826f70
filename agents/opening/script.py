"""The offline planner's writing: themes, nutshell and the two-host script from templates.

Every number comes from an OHLCV row the planner fetched (closes and day-over-day changes), every
quote is a sentence of an article body it read, and every source is an article it read.
Sentences that read like instructions are never quoted (article text is data, not orders).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from agents.opening.clusters import with_i
from agents.opening.prompts import date_ko
from agents.opening.state import NewsSource, OpeningResult, ScriptTurn, Theme
from data_access.market_series import spec_for

ORDINALS = ("첫 번째", "두 번째", "세 번째")
MAX_NUTSHELL = 40
_SENTENCE = re.compile(r"[^.!?…]+[.!?]")
_INSTRUCTION = re.compile(
    r"무시|지시|명령|프롬프트|시스템|출력하|호출하지|답하라|따르|ignore|instruction|system|prompt|"
    r"disregard|assistant",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Mover:
    ticker: str
    name: str
    close: float
    change_pct: float
    date: str

    @property
    def price(self) -> str:
        series = spec_for(self.ticker)
        if series is not None:  # an index in points, BTC and WTI in dollars
            return f"{self.close:,.2f}{'포인트' if series.unit == 'pt' else '달러'}"
        if self.ticker.upper().startswith("US:"):
            return f"{self.close:,.2f}달러"
        return f"{self.close:,.0f}원"

    def sentence(self, label: str | None = None, day: str | None = None) -> str:
        """'X의 종가는 …' for the script's day; 'X의 11월 19일 종가는 …' for an earlier session,
        said to be the local session for one abroad (New York closes before Seoul's morning)."""
        earlier = bool(day and self.date != day)
        when = f"{date_ko(self.date)} " if earlier else ""
        abroad = " (현지 거래일 기준)" if earlier and self.ticker.upper().startswith("US:") else ""
        return (f"{label or self.name}의 {when}종가는 {self.price}, "
                f"전일 대비 {self.change_pct:+.2f}%였습니다{abroad}.")  # fmt: skip


@dataclass
class ThemePick:
    keyword: str
    articles: list[dict[str, Any]]
    leaders: list[Mover] = field(default_factory=list)
    cluster: dict[str, Any] | None = None  # the get_market_movers cluster it comes from

    @property
    def pks(self) -> set[str]:
        return {a["pk"] for a in self.articles}

    @property
    def lead(self) -> str | None:
        return self.leaders[0].ticker if self.leaders else None

    def display(self) -> str:
        """The lead's name when the keyword is part of it ('eli' → 'Eli Lilly'), else the keyword
        as the titles spell it ('nvidia' → 'NVIDIA')."""
        if self.keyword and self.leaders and self.keyword.lower() in self.leaders[0].name.lower():
            return self.leaders[0].name
        for a in self.articles:
            at = a["title"].lower().find(self.keyword.lower())
            if self.keyword and at >= 0:
                return str(a["title"][at : at + len(self.keyword)])
        return self.keyword or "오늘의 큰 움직임"


def quote(body: str, about: tuple[str, ...] = (), taken: set[str] | None = None) -> str | None:
    """A plain Korean declarative sentence without figures (never one that reads like an order):
    an English sentence is not read out in a Korean script. With `about`, only a sentence that
    names one of those words (the theme's subject, its leading stock), so a quote is about its
    theme; one in `taken` (quoted for another theme) is skipped."""
    words = [w.lower() for w in about if w and len(w) >= 2]
    for raw in _SENTENCE.findall(body):
        s = raw.strip()
        if any(c.isdigit() for c in s) or _INSTRUCTION.search(s) or not 10 <= len(s) <= 140:
            continue
        if not s.endswith("다.") or s.isascii() or s in (taken or set()):
            continue
        if words and not any(w in s.lower() for w in words):
            continue
        return s
    return None


def _about(pick: ThemePick) -> tuple[str, ...]:
    """The words a quote for this theme must name: its subject, keyword and leading stocks."""
    subject = str(pick.cluster.get("subject", "")) if pick.cluster is not None else ""
    return (subject, pick.keyword or "", *(m.name for m in pick.leaders[:2]))


def _headline(pick: ThemePick) -> str:
    if pick.cluster is not None:
        return str(pick.cluster["headline"])
    if not pick.leaders:
        return f"{pick.display()} 관련 뉴스 집중"
    lead = pick.leaders[0]
    mood = "강세" if lead.change_pct > 0 else "약세" if lead.change_pct < 0 else "보합"
    return f"{lead.name} {mood}"  # the company, never 'keyword — company


def _read_sources(pick: ThemePick, read: dict[str, dict[str, str]]) -> list[NewsSource]:
    return [NewsSource(pk=a["pk"], title=read[a["pk"]]["title"])
            for a in pick.articles if a["pk"] in read]  # fmt: skip


def _theme(pick: ThemePick, read: dict[str, dict[str, str]], day: str) -> Theme:
    related = _read_sources(pick, read)[:5]
    if pick.cluster is not None:
        sources = len(pick.cluster.get("sources", []))
        parts = [str(pick.cluster["why"]),
                 f"기사 {pick.cluster['article_count']}건, 매체 {sources}곳이 다뤘습니다."]  # fmt: skip
    else:
        parts = [f"제목 {len(pick.articles)}건에 '{pick.display()}' 키워드가 나왔습니다."]
    parts += [m.sentence(day=day) for m in pick.leaders]
    return {"headline": _headline(pick), "description": " ".join(parts), "related_news": related}


def _cluster_nutshell(cluster: dict[str, Any]) -> str:
    """The top theme in a few words: '엔비디아 실적 실망에 급락', '애플 강세가 이끈 장'."""
    subject, headline = str(cluster["subject"]), str(cluster["headline"])
    move = headline.rsplit(" ", 1)[-1]
    if cluster["kind"] == "earnings":
        mood = "실망" if cluster["earnings"]["surprise_pct"] < 0 else "호조"
        return f"{subject} 실적 {mood}에 {move}"
    if cluster["kind"] in ("policy", "macro"):
        return f"{subject}에 쏠린 눈"
    if cluster["kind"] == "sector":
        return headline.split("…")[0]
    return f"{subject} {with_i(move)} 이끈 장"


def _nutshell(picks: list[ThemePick], market: Mover | None) -> str:
    if picks and picks[0].cluster is not None:
        return _cluster_nutshell(picks[0].cluster)[:MAX_NUTSHELL]
    names = [p.display() for p in picks]
    ups = [p for p in picks if p.leaders and p.leaders[0].change_pct > 0]
    downs = [p for p in picks if p.leaders and p.leaders[0].change_pct < 0]
    if ups and downs:
        text = f"{downs[0].display()} 약세 속 {ups[0].display()} 선방"
    elif market is not None and abs(market.change_pct) >= 1:
        text = f"{'하락' if market.change_pct < 0 else '상승'}장 속 {names[0]} 주목"
    elif len(names) > 1:
        text = f"{names[0]}·{names[1]}에 쏠린 눈"
    else:
        text = f"{names[0]}에 쏠린 눈" if names else "숨 고르기 장세"
    return text[:MAX_NUTSHELL]


def _last(movers: dict[str, list[Mover]], ticker: str) -> Mover | None:
    found = movers.get(ticker) or []
    return found[-1] if found else None


def _market_turn(movers: dict[str, list[Mover]], context: dict[str, Any]) -> str:
    indices = {i["ticker"]: i for i in context.get("indices", [])}
    lines = [m.sentence(_index_label(indices[t])) for t in indices if (m := _last(movers, t))]
    return " ".join(lines) or "지수 시세가 없어 지수 흐름은 생략합니다."


def _index_label(item: dict[str, Any]) -> str:
    """'코스피', or 'KODEX 200(코스피200 대용)' where an ETF stands in for the index."""
    proxy = item.get("proxy_for")
    return f"{item['label']}({proxy} 대용)" if proxy else str(item["label"])


def _theme_turn(pick: ThemePick, read: dict[str, dict[str, str]], day: str,
                taken: set[str]) -> tuple[str, list[NewsSource]]:  # fmt: skip
    """The commentator's turn on one theme; a quote said here is added to `taken`."""
    sources = _read_sources(pick, read)[:3]
    parts = [str(pick.cluster["why"])] if pick.cluster is not None else []
    parts += [m.sentence(day=day) for m in pick.leaders]
    about = _about(pick)
    said = next((q for s in sources if (q := quote(read[s["pk"]]["body"], about, taken))), None)
    if said:
        taken.add(said)
        parts.append(f"기사에서는 '{said}'라고 전했습니다.")
    parts.append(f"관련 기사 {len(sources)}건을 근거로 말씀드렸습니다.")
    return " ".join(parts), sources


def compose(day: date, picks: list[ThemePick], movers: dict[str, list[Mover]],
            read: dict[str, dict[str, str]], context: dict[str, Any]) -> OpeningResult:  # fmt: skip
    picks = [p for p in picks if any(a["pk"] in read for a in p.articles)] or picks[:1]
    nutshell = _nutshell(picks, _last(movers, "^KS11") or _last(movers, "069500"))
    turns: list[tuple[str, str, list[NewsSource]]] = [
        ("진행자", f"{date_ko(day.isoformat())} 오프닝입니다. 오늘의 한마디는 '{nutshell}'입니다. "
                   "먼저 시장 분위기부터 볼까요?", []),
        ("해설자", _market_turn(movers, context), []),
    ]  # fmt: skip
    taken: set[str] = set()  # one quote, one theme
    for ordinal, pick in zip(ORDINALS, picks, strict=False):
        turns.append(
            ("진행자", f"{ordinal} 테마는 '{_headline(pick)}'입니다. 어떤 흐름이었나요?", [])
        )
        text, sources = _theme_turn(pick, read, day.isoformat(), taken)
        turns.append(("해설자", text, sources))
    # What the day's data lacks is for the editor (the screen's notes), not for the air.
    names = "·".join(p.display() for p in picks)
    turns.append(
        ("진행자", f"오늘은 {names} 흐름을 중심으로 보시면 되겠습니다. 오프닝이었습니다.", [])
    )
    scripts: list[ScriptTurn] = [
        {"id": i, "speaker": s, "text": t, "sources": src}  # type: ignore[typeddict-item]
        for i, (s, t, src) in enumerate(turns, 1)
    ]
    themes = [_theme(p, read, day.isoformat()) for p in picks]
    return {"theme": themes, "nutshell": nutshell, "scripts": scripts}
