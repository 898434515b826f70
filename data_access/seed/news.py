"""The news stream: articles tied to the generated prices, earnings, macro data and housing.

Older days get a handful of articles; the last `Window.news_dense_days` US trading days get a
dense stream, topped up so that every window from 16:00 ET the previous day to 18:00 ET holds
at least `MIN_PER_WINDOW` articles (what the opening-script screen reads).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import numpy as np
import pandas as pd

from data_access.seed import news_macro as nm
from data_access.seed import news_market as nk
from data_access.seed.calendar import at
from data_access.seed.macro import MacroData
from data_access.seed.news_text import SOURCES_KO, URL_PREFIX, Article, pick
from data_access.seed.news_view import MarketView
from data_access.seed.params import Window
from data_access.seed.realestate import RealEstateData
from data_access.seed.scenario import SCENARIO_EVENTS

MIN_PER_WINDOW = 26
ET = "America/New_York"
NEWS_COLUMNS = ["pk", "title", "body", "tickers", "themes", "published_at", "source", "url", "lang"]


def window_bounds(day: date) -> tuple[datetime, datetime]:
    """The opening-script window of a US trading day: 16:00 ET the day before to 18:00 ET."""
    return at(day - timedelta(days=1), 16, 0, ET), at(day, 18, 0, ET)


def generate_news(
    view: MarketView,
    window: Window,
    earnings: pd.DataFrame,
    macro: MacroData,
    realestate: RealEstateData,
    rng: np.random.Generator,
) -> pd.DataFrame:
    kr, us = view.panels["KR"], view.panels["US"]
    dense_us = us.days[-window.news_dense_days :]
    dense_from = dense_us[0] - timedelta(days=3)
    articles: list[Article] = []
    for t, day in enumerate(kr.days):
        articles += _kr_day(view, t, day >= dense_from, rng)
    for t, day in enumerate(us.days):
        articles += _us_day(view, t, day >= dense_from, rng)
    articles += nm.earnings_articles(view, earnings, rng)
    articles += nm.earnings_preview(view, earnings, window.as_of, rng)
    articles += nm.release_articles(view, macro.observations, rng)
    articles += nm.decision_articles(window.as_of, window.price_start, rng)
    articles += nm.fx_rate_articles(view, kr.days, us.days, rng)
    articles += nm.housing_articles(realestate, window.as_of, rng)
    articles += nk.etf_change_articles(view, rng)
    articles += nk.etf_milestones(view, rng)
    articles += _scenario_articles(window, rng)
    cutoff = at(window.as_of, 18, 0, ET)
    articles = [a for a in articles if a.published_at <= cutoff]
    articles += _top_up(view, articles, dense_us, rng)
    return _frame(articles)


def _kr_day(view: MarketView, t: int, dense: bool, rng: np.random.Generator) -> list[Article]:
    panel, change = view.panels["KR"], view.change("KR")[t]
    out = [nk.kr_wrap(view, t, rng)]
    chosen = _movers(view, "KR", t, change, dense)
    out += [nk.kr_mover(view, t, j, rng) for j in chosen]
    theme = nk.theme_article(view, t, rng)
    if theme and (dense or "일제히 급" in theme.title):
        out.append(theme)
    us_days = [i for i, d in enumerate(view.panels["US"].days) if d < panel.days[t]]
    if us_days and dense:
        out.append(nk.kr_morning_brief(view, us_days[-1], panel.days[t], rng))
    last_of_week = (
        t + 1 == len(panel.days)
        or panel.days[t + 1].isocalendar()[1] != panel.days[t].isocalendar()[1]
    )
    if last_of_week and t >= 5:
        out.append(nk.etf_weekly_ranking(view, t, rng))
    return out


def _us_day(view: MarketView, t: int, dense: bool, rng: np.random.Generator) -> list[Article]:
    change = view.change("US")[t]
    out = [nk.us_wrap(view, t, rng)]
    chosen = _movers(view, "US", t, change, dense)
    out += [nk.us_mover(view, t, j, rng, "en") for j in chosen]
    out += [nk.us_mover(view, t, j, rng, "ko") for j in chosen[: 3 if dense else 1]]
    return out


def _movers(view: MarketView, country: str, t: int, change: np.ndarray, dense: bool) -> list[int]:
    """Biggest gainers and losers of the day, plus stocks with a corporate event."""
    panel = view.panels[country]
    gain_n, lose_n, floor = (6, 4, 2.5) if dense else (1, 1, 4.0)
    if country == "US":
        gain_n, lose_n, floor = (4, 3, 1.5) if dense else (1, 1, 3.0)
    order = np.argsort(change, kind="stable")
    picks = [int(j) for j in order[::-1][:gain_n] if change[j] >= floor]
    picks += [int(j) for j in order[:lose_n] if change[j] <= -floor]
    day = panel.days[t]
    events = [j for j, sid in enumerate(panel.security_ids)
              if (sid, day) in view.jumps and abs(change[j]) >= (3.0 if dense else 5.0)]  # fmt: skip
    events.sort(key=lambda j: -abs(change[j]))
    for j in events[: 8 if dense else 3]:
        if j not in picks:
            picks.append(j)
    return picks


def _scenario_articles(window: Window, rng: np.random.Generator) -> list[Article]:
    out = []
    for s in SCENARIO_EVENTS:
        if s.day > window.as_of or s.day < window.price_start:
            continue
        body = f"{s.summary_ko} 관련 업종과 금융시장의 반응이 이어질 전망이다."
        out.append(Article(s.title_ko, body, at(s.day, 17, 30, "Asia/Seoul"), "ko", list(s.stocks), [s.theme],
                           pick(rng, SOURCES_KO), "scenario"))  # fmt: skip
    return out


def _top_up(
    view: MarketView, articles: list[Article], dense_us: list[date], rng: np.random.Generator
) -> list[Article]:
    """Add mover stories for the next-biggest moves until each dense window is full enough."""
    extra: list[Article] = []
    covered = {(tuple(a.tickers), a.published_at.date()) for a in articles}
    for day in dense_us:
        start, end = window_bounds(day)
        count = sum(start <= a.published_at <= end for a in articles + extra)
        for country in ("KR", "US"):
            panel = view.panels[country]
            if count >= MIN_PER_WINDOW or day not in panel.days:
                continue
            t = panel.day_index(day)
            change = view.change(country)[t]
            for j in np.argsort(-np.abs(change), kind="stable"):
                if count >= MIN_PER_WINDOW:
                    break
                sid = panel.security_ids[int(j)]
                art = (
                    nk.kr_mover(view, t, int(j), rng)
                    if country == "KR"
                    else nk.us_mover(view, t, int(j), rng, "en")
                )
                if (
                    tuple(art.tickers),
                    art.published_at.date(),
                ) in covered or not start <= art.published_at <= end:
                    continue
                covered.add(((sid,), art.published_at.date()))
                extra.append(art)
                count += 1
    return extra


def _frame(articles: list[Article]) -> pd.DataFrame:
    articles = sorted(articles, key=lambda a: (a.published_at.astimezone(UTC), a.title))
    rows: list[dict[str, object]] = []
    per_day: dict[str, int] = {}
    for a in articles:
        utc = a.published_at.astimezone(UTC)
        key = utc.strftime("%Y%m%d")
        per_day[key] = per_day.get(key, 0) + 1
        pk = f"{key}-{per_day[key]:03d}"
        rows.append({"pk": pk, "title": a.title, "body": a.body, "tickers": list(dict.fromkeys(a.tickers)),
                     "themes": list(dict.fromkeys(a.themes)), "published_at": a.published_at,
                     "source": a.source, "url": URL_PREFIX + pk, "lang": a.lang})  # fmt: skip
    return pd.DataFrame(rows, columns=NEWS_COLUMNS)
