"""The editor's list for an opening-script day, from SQL alone, and how much of it the themes cover.

    top = editor_top(date(2026, 11, 20), pool)     # [EditorItem(security_id='US:NVDA', ...), ...]
    cov = coverage_of(case, answer, pool)           # EditorCoverage(covered=3, top=[...], ...)

The list is computed here, independently of the screen's ranking code (agents.opening.clusters):
one SQL statement over news_articles, stock_prices (its stored `change_rate`), stocks and the
won/dollar series. A news-backed move is a stock named by an article of the day's window
(16:00 ET the day before to 18:00 ET) that names at most three tickers, in the session that
article reports on (the stock's last close at or before the article). Its size is
|change_rate| × market cap before the move (previous close × shares outstanding, US caps × the
last USD/KRW close on or before the day); a stock counts once, with its largest move. The top
three are what an editor would lead with. A theme covers an item when its headline or
description names the company (its name, English name, code or any alias). A headline is vague
when it names no company, sector or macro event, or uses the 'keyword — company' pattern.

Golden cases carry `inputs.split` = `tune` or `holdout`; the held-out days were fixed before the
ranking was tuned and are only read by the KPI.
"""

from __future__ import annotations

from datetime import date
from typing import Any, Literal

from psycopg_pool import ConnectionPool
from pydantic import BaseModel, Field

from data_access.contracts import AgentAnswer
from data_access.postgres import fetch_all

TOP_N = 3
MIN_COVERED = 2  # of the top three, for a day to count as covered

EDITOR_SQL = """
WITH bounds AS (
  SELECT (((%(day)s::date - 1) + time '16:00') AT TIME ZONE 'America/New_York') AS s,
         ((%(day)s::date + time '18:00') AT TIME ZONE 'America/New_York') AS e
), stories AS (
  SELECT n.pk, n.published_at, t.sid
  FROM news_articles n CROSS JOIN bounds b CROSS JOIN LATERAL unnest(n.tickers) AS t(sid)
  WHERE n.published_at >= b.s AND n.published_at <= b.e
    AND cardinality(n.tickers) BETWEEN 1 AND 3
), reported AS (
  SELECT DISTINCT ON (st.pk, st.sid) st.sid, p.trade_date
  FROM stories st
  JOIN stocks k ON k.security_id = st.sid
  JOIN stock_prices p ON p.security_id = st.sid
   AND p.trade_date BETWEEN %(day)s::date - 14 AND %(day)s::date
   AND (CASE WHEN k.country = 'KR' THEN ((p.trade_date + time '15:30') AT TIME ZONE 'Asia/Seoul')
             ELSE ((p.trade_date + time '16:00') AT TIME ZONE 'America/New_York') END)
       <= st.published_at
  ORDER BY st.pk, st.sid, p.trade_date DESC
), valued AS (
  SELECT r.sid, r.trade_date, p.change_rate,
         abs(p.change_rate) / 100 * prev.close * k.shares_outstanding
           * CASE WHEN k.currency = 'USD' THEN fx.value ELSE 1 END AS impact_krw
  FROM (SELECT DISTINCT sid, trade_date FROM reported) r
  JOIN stocks k ON k.security_id = r.sid
  JOIN stock_prices p ON p.security_id = r.sid AND p.trade_date = r.trade_date
  JOIN LATERAL (SELECT q.close FROM stock_prices q WHERE q.security_id = r.sid
                AND q.trade_date < r.trade_date ORDER BY q.trade_date DESC LIMIT 1) prev ON true
  LEFT JOIN LATERAL (SELECT o.value FROM macro_observations o WHERE o.series_code = 'KR_USDKRW'
                     AND o.obs_date <= %(day)s::date ORDER BY o.obs_date DESC LIMIT 1) fx ON true
), best AS (
  SELECT DISTINCT ON (sid) sid, trade_date, change_rate, impact_krw FROM valued
  WHERE impact_krw IS NOT NULL ORDER BY sid, impact_krw DESC
)
SELECT b.sid AS security_id, b.trade_date, b.change_rate, b.impact_krw, k.name, k.name_en, k.code,
       coalesce((SELECT array_agg(a.alias) FROM entity_aliases a
                 WHERE a.kind = 'stock' AND a.target = b.sid), '{}') AS aliases
FROM best b JOIN stocks k ON k.security_id = b.sid
ORDER BY b.impact_krw DESC, b.sid LIMIT %(n)s
"""


# Every name a concrete theme can carry: a company (any of its names), a sector, or a macro event.
SUBJECTS_SQL = (
    "SELECT name AS s FROM stocks UNION SELECT name_en FROM stocks WHERE name_en IS NOT NULL"
    " UNION SELECT sector FROM stocks UNION SELECT alias FROM entity_aliases WHERE kind = 'stock'"
)
EVENT_WORDS = ("금리", "물가", "고용", "연준", "한국은행", "FOMC", "CPI", "실업률", "환율")
KEYWORD_PATTERN = " — "  # the old 'keyword — company move' headline


class EditorItem(BaseModel):
    security_id: str
    name: str
    session: str
    change_pct: float
    impact_krw: float
    names: list[str] = Field(default_factory=list)  # every way a theme may name it
    covered: bool = False


class EditorCoverage(BaseModel):
    """One day's editor's list and how many of its items the script's themes name."""

    day: str
    split: Literal["tune", "holdout"] = "tune"
    top: list[EditorItem] = Field(default_factory=list)
    covered: int = 0
    themes: list[str] = Field(default_factory=list)  # the headlines checked
    vague_themes: list[str] = Field(default_factory=list)  # headlines naming no concrete event

    @property
    def ok(self) -> bool:
        return self.covered >= min(MIN_COVERED, len(self.top)) and not self.vague_themes


def editor_top(day: date, pool: ConnectionPool | None, n: int = TOP_N) -> list[EditorItem]:
    rows = fetch_all(EDITOR_SQL, {"day": day, "n": n}, pool)
    return [_item(r) for r in rows]


def _item(r: dict[str, Any]) -> EditorItem:
    names = [r["name"], r["name_en"] or "", r["code"], *(r["aliases"] or [])]
    return EditorItem(security_id=r["security_id"], name=r["name"],
                      session=r["trade_date"].isoformat(), change_pct=float(r["change_rate"]),
                      impact_krw=float(r["impact_krw"]),
                      names=sorted({x for x in names if len(x) >= 2}))  # fmt: skip


def theme_texts(answer: AgentAnswer) -> list[tuple[str, str]]:
    """(headline, headline + description) of each theme of an answer (none when it failed)."""
    themes = answer.payload.get("theme") if answer.status == "ok" else None
    return [(str(t.get("headline", "")), f"{t.get('headline', '')}\n{t.get('description', '')}")
            for t in themes or []]  # fmt: skip


def names_in(text: str, names: list[str]) -> bool:
    folded = text.casefold()
    return any(n.casefold() in folded for n in names)


def vague(headlines: list[str], pool: ConnectionPool | None) -> list[str]:
    """Headlines that name no company, sector or macro event, or use the keyword pattern."""
    subjects = [str(r["s"]) for r in fetch_all(SUBJECTS_SQL, None, pool) if len(str(r["s"])) >= 2]
    subjects += list(EVENT_WORDS)
    return [h for h in headlines if KEYWORD_PATTERN in h or not names_in(h, subjects)]


def coverage_of(day: date, split: str, answer: AgentAnswer,
                pool: ConnectionPool | None) -> EditorCoverage:  # fmt: skip
    top = editor_top(day, pool)
    themes = theme_texts(answer)
    for item in top:
        item.covered = any(names_in(text, item.names) for _, text in themes)
    headlines = [h for h, _ in themes]
    return EditorCoverage(day=day.isoformat(), split="holdout" if split == "holdout" else "tune",
                          top=top, covered=sum(i.covered for i in top), themes=headlines,
                          vague_themes=vague(headlines, pool))  # fmt: skip


def coverage_problem(cov: EditorCoverage) -> str | None:
    """The failure message of a day whose themes miss the editor's list, else None."""
    if cov.ok:
        return None
    parts = []
    if cov.covered < min(MIN_COVERED, len(cov.top)):
        missed = ", ".join(f"{i.name}({i.change_pct:+.2f}%)" for i in cov.top if not i.covered)
        parts.append(f"편집자 상위 {len(cov.top)}개 중 {cov.covered}개만 테마에 있습니다 "
                     f"(빠진 것: {missed})")  # fmt: skip
    if cov.vague_themes:
        parts.append(f"구체적 사건이 없는 테마 제목: {', '.join(cov.vague_themes)}")
    return "; ".join(parts)
