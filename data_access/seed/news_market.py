"""News about prices: single-stock movers, market wraps, sector themes and ETFs.

Every number in an article is read from the generated prices of that day, so an article that
says 'SK하이닉스 5.2% 급등' matches the stock_prices row of that date.
"""

from __future__ import annotations

from datetime import date, datetime

import numpy as np

from data_access.seed.calendar import at
from data_access.seed.news_text import (
    SECTOR_THEMES,
    SOURCES_EN,
    SOURCES_KO,
    Article,
    date_ko,
    josa,
    krw_amount,
    pct,
    pick,
    signed,
    usd,
    verb_en,
    verb_ko,
    won,
)  # fmt: skip
from data_access.seed.news_view import MarketView
from data_access.seed.reasons import reason_text

KST, ET = "Asia/Seoul", "America/New_York"
_CLOSINGS_KO = (
    "시장에서는 단기 변동성 확대 가능성에 유의해야 한다는 의견이 나온다.",
    "증권가는 향후 실적 발표와 수급 흐름을 주시하고 있다.",
    "투자자들은 다음 주 발표될 주요 지표에 관심을 보이고 있다.",
    "업계에서는 업황 회복 속도가 주가 방향을 가를 것으로 보고 있다.",
)
_CLOSINGS_EN = (
    "Traders will watch upcoming data and earnings for direction.",
    "Analysts said positioning remains a key driver in the near term.",
    "The move comes amid shifting expectations for interest rates.",
)


def _minute(rng: np.random.Generator, start: int, end: int) -> tuple[int, int]:
    """A random (hour, minute) between start and end minutes after midnight."""
    m = int(rng.integers(start, end))
    return m // 60, m % 60


def kr_mover(view: MarketView, t: int, j: int, rng: np.random.Generator) -> Article:
    panel = view.panels["KR"]
    sid, day = panel.security_ids[j], panel.days[t]
    info, change = view.info(sid), float(view.change("KR")[t, j])
    name, verb, close = str(info["name"]), verb_ko(change), float(panel.close[t, j])
    jump = view.jumps.get((sid, day))
    reason = reason_text(jump.reason_key, "ko") if jump and jump.kind == "news" else None
    # Good news on a down day (or the reverse) is reported as such, not as the cause of the move.
    against = bool(jump and reason and (jump.log_return > 0) != (change > 0))
    did = f"{verb}를 기록했다" if verb in ("상한가", "하한가") else f"{verb}했다"
    if reason and against:
        title = f"{name}, {reason}에도 {pct(change)} {verb}"
    elif reason:
        title = f"{name}, {pct(change)} {verb}…{reason}"
    else:
        title = pick(rng, (f"[특징주] {name} {pct(change)} {verb}", f"{name} {pct(change)} {verb} 마감",
                           f"{josa(name, '이/가')} {pct(change)} {did}"))  # fmt: skip
    sentences = [
        f"{date_ko(day)} {info['market']} 시장에서 {name}({info['code']})의 주가는 전 거래일 대비 "
        f"{signed(change)} {'오른' if change > 0 else '내린'} {won(close)}에 거래를 마쳤다.",
        f"장중 고가는 {won(panel.high[t, j])}, 저가는 {won(panel.low[t, j])}였다.",
        f"거래량은 {int(panel.volume[t, j]):,}주로 최근 20거래일 평균의 {view.volume_ratio('KR', t, j):.1f}배였다.",
    ]
    if reason and against:
        sentences.insert(1, f"이날 {reason} 소식이 전해졌지만 시장 전반의 흐름에 밀렸다.")
    elif reason:
        flow = "매수세가 몰렸다" if change > 0 else "매도세가 쏟아졌다"
        sentences.insert(1, f"이날 {reason} 소식이 전해지며 {flow}.")
    if jump and jump.kind == "earnings":
        sentences.insert(1, "분기 실적 발표 이후 시장의 평가가 주가에 반영됐다.")
    if view.is_52w_high("KR", t, j):
        sentences.append("종가 기준 52주 신고가다.")
    sentences.append(pick(rng, _CLOSINGS_KO))
    hour, minute = _minute(rng, 15 * 60 + 35, 18 * 60)
    return Article(title, " ".join(sentences), at(day, hour, minute, KST), "ko", [sid],
                   list(SECTOR_THEMES.get(str(info["sector"]), ())), pick(rng, SOURCES_KO), "kr_mover")  # fmt: skip


def us_mover(view: MarketView, t: int, j: int, rng: np.random.Generator, lang: str) -> Article:
    panel = view.panels["US"]
    sid, day = panel.security_ids[j], panel.days[t]
    info, change = view.info(sid), float(view.change("US")[t, j])
    close, jump = float(panel.close[t, j]), view.jumps.get((sid, day))
    themes = list(SECTOR_THEMES.get(str(info["sector"]), ())) + ["해외주식"]
    if lang == "ko":
        name = str(info["name_ko"])
        title = f"{name}, 뉴욕증시서 {pct(change)} {verb_ko(change)}"
        body = [f"{date_ko(day)}(현지시간) 뉴욕증시에서 {name}({info['code']}) 주가는 {signed(change)} 움직인 "
                f"{usd(close)}에 마감했다.",
                f"거래량은 {int(panel.volume[t, j]):,}주였다."]  # fmt: skip
        if jump and jump.kind == "earnings":
            body.append("실적 발표에 대한 시장 반응이 반영됐다.")
        elif jump:
            news = reason_text(jump.reason_key, "ko")
            against = (jump.log_return > 0) != (change > 0)
            body.append(
                f"{news} 소식에도 시장 흐름을 거스르지 못했다."
                if against
                else f"{news} 소식이 영향을 미쳤다."
            )
        body.append(pick(rng, _CLOSINGS_KO))
        hour, minute = _minute(rng, 6 * 60 + 20, 7 * 60 + 50)
        published = at(_next_calendar_day(day), hour, minute, KST)
        return Article(
            title,
            " ".join(body),
            published,
            "ko",
            [sid],
            themes,
            pick(rng, SOURCES_KO),
            "us_mover_ko",
        )
    name = str(info["name"])
    why = ""
    if jump and jump.kind == "earnings":
        why = " after quarterly results"
    elif jump:
        against = (jump.log_return > 0) != (change > 0)
        why = f" {'despite' if against else 'on'} {reason_text(jump.reason_key, 'en')}"
    title = f"{name} {verb_en(change)} {pct(change)}{why}"
    body = [f"Shares of {name} ({info['code']}) closed at {usd(close)} on {day:%B} {day.day}, "
            f"a change of {signed(change)} from the previous session.",
            f"Volume was {int(panel.volume[t, j]):,} shares, {view.volume_ratio('US', t, j):.1f} times "
            "the 20-day average.",
            f"The stock traded between {usd(panel.low[t, j])} and {usd(panel.high[t, j])} during the day."]  # fmt: skip
    body.append(pick(rng, _CLOSINGS_EN))
    hour, minute = _minute(rng, 16 * 60 + 5, 17 * 60 + 55)
    return Article(
        title,
        " ".join(body),
        at(day, hour, minute, ET),
        "en",
        [sid],
        themes,
        pick(rng, SOURCES_EN),
        "us_mover",
    )


def _next_calendar_day(day: date) -> date:
    return date.fromordinal(day.toordinal() + 1)


def _top(changes: np.ndarray, k: int, ascending: bool) -> list[int]:
    order = np.argsort(changes, kind="stable")
    return [int(i) for i in (order[:k] if ascending else order[::-1][:k])]


def kr_wrap(view: MarketView, t: int, rng: np.random.Generator) -> Article:
    panel = view.panels["KR"]
    day, change = panel.days[t], view.change("KR")[t]
    k200, kq = view.etf_change("069500", t), view.etf_change("229200", t)
    large = np.array(view.stocks.loc[panel.security_ids, "size_rank"].to_numpy() <= 50)
    large_idx = np.flatnonzero(large)
    gainers = [large_idx[i] for i in _top(change[large_idx], 3, ascending=False)]
    losers = [large_idx[i] for i in _top(change[large_idx], 2, ascending=True)]
    fx = view.macro_on("KR_USDKRW", day)
    up, down = int((change > 0).sum()), int((change < 0).sum())
    title = f"코스피 대형주 {verb_ko(k200)}…KODEX 200 {signed(k200)}, 코스닥150 {signed(kq)}"
    body = [
        f"{date_ko(day)} 국내 증시에서 KODEX 200은 {signed(k200)} 움직인 "
        f"{won(view.etf_data.close['069500'][t])}에, KODEX 코스닥150은 {signed(kq)} 변동한 "
        f"{won(view.etf_data.close['229200'][t])}에 마감했다.",
        "대형주 가운데 "
        + ", ".join(f"{view.name(panel.security_ids[j])}({signed(change[j])})" for j in gainers)
        + "가 상대적으로 강했다.",
        "반면 "
        + ", ".join(f"{view.name(panel.security_ids[j])}({signed(change[j])})" for j in losers)
        + "는 약세를 보였다.",
        f"데모 유니버스 {len(change)}개 종목 중 {up}개가 오르고 {down}개가 내렸다.",
    ]
    if fx is not None:
        body.append(f"원/달러 환율은 {fx:,.1f}원에 마감했다.")
    tickers = [panel.security_ids[j] for j in gainers + losers]
    return Article(
        title,
        " ".join(body),
        at(day, 15, 45, KST),
        "ko",
        tickers,
        ["시장대표"],
        pick(rng, SOURCES_KO),
        "kr_wrap",
    )


def us_wrap(view: MarketView, t: int, rng: np.random.Generator) -> Article:
    panel = view.panels["US"]
    day, change = panel.days[t], view.change("US")[t]
    avg = float(change.mean())
    gainers, losers = _top(change, 3, ascending=False), _top(change, 2, ascending=True)
    vix, ten = view.macro_on("VIXCLS", day), view.macro_on("DGS10", day)

    def names(idx: list[int]) -> str:
        return ", ".join(
            f"{view.name(panel.security_ids[j], 'en')} ({signed(change[j])})" for j in idx
        )

    title = f"Wall Street large caps {'gain' if avg > 0 else 'fall'}; {names(gainers[:1])} leads"
    body = [f"The demo US large-cap universe moved {signed(avg)} on average on {day:%B} {day.day}.",
            f"Top gainers were {names(gainers)}, while {names(losers)} lagged."]  # fmt: skip
    if vix is not None:
        body.append(f"The VIX volatility index closed at {vix:.2f}.")
    if ten is not None:
        body.append(f"The 10-year Treasury yield ended at {ten:.2f}%.")
    body.append(pick(rng, _CLOSINGS_EN))
    tickers = [panel.security_ids[j] for j in gainers + losers]
    return Article(
        title,
        " ".join(body),
        at(day, 16, 20, ET),
        "en",
        tickers,
        ["해외주식"],
        pick(rng, SOURCES_EN),
        "us_wrap",
    )


def kr_morning_brief(
    view: MarketView, us_t: int, kr_day: date, rng: np.random.Generator
) -> Article:
    """07:20 KST summary of the US session that closed overnight."""
    panel = view.panels["US"]
    change = view.change("US")[us_t]
    avg = float(change.mean())
    movers = _top(np.abs(change), 3, ascending=False)
    vix = view.macro_on("VIXCLS", panel.days[us_t])
    title = f"[마켓브리핑] 뉴욕증시 대형주 평균 {signed(avg)}…{view.name(panel.security_ids[movers[0]])} {pct(change[movers[0]])} {verb_ko(change[movers[0]])}"
    body = [f"간밤 뉴욕증시에서 데모 유니버스 미국 대형주는 평균 {signed(avg)} 움직였다.",
            "종목별로는 " + ", ".join(f"{view.name(panel.security_ids[j])} {signed(change[j])}" for j in movers) + "였다."]  # fmt: skip
    if vix is not None:
        body.append(f"변동성지수(VIX)는 {vix:.2f}를 기록했다.")
    body.append("국내 증시는 미국 기술주 흐름과 환율 움직임에 영향을 받을 전망이다.")
    tickers = [panel.security_ids[j] for j in movers]
    return Article(
        title,
        " ".join(body),
        at(kr_day, 7, 20, KST),
        "ko",
        tickers,
        ["해외주식"],
        pick(rng, SOURCES_KO),
        "kr_brief",
    )


def theme_article(view: MarketView, t: int, rng: np.random.Generator) -> Article | None:
    """The sector that moved most today (equal-weighted), with its leaders."""
    panel = view.panels["KR"]
    change = view.change("KR")[t]
    sectors = view.stocks.loc[panel.security_ids, "sector"].to_numpy()
    best, best_move = None, 0.0
    for sector in sorted(set(sectors)):
        mask = sectors == sector
        if mask.sum() >= 4 and abs(change[mask].mean()) > abs(best_move):
            best, best_move = sector, float(change[mask].mean())
    if best is None or abs(best_move) < 1.0:
        return None
    idx = np.flatnonzero(sectors == best)
    leaders = [idx[i] for i in _top(change[idx] * np.sign(best_move), 3, ascending=False)]
    names = [f"{view.name(panel.security_ids[j])} {signed(change[j])}" for j in leaders]
    title = f"{best}주 일제히 {verb_ko(best_move)}…{names[0]}"
    body = [f"{date_ko(panel.days[t])} {best} 업종 {len(idx)}개 종목의 평균 등락률은 {signed(best_move)}였다.",
            "종목별로는 " + ", ".join(names) + "를 기록했다.",
            pick(rng, _CLOSINGS_KO)]  # fmt: skip
    tickers = [panel.security_ids[j] for j in leaders]
    return Article(title, " ".join(body), at(panel.days[t], 16, 5, KST), "ko", tickers,
                   list(SECTOR_THEMES.get(best, (best,))), pick(rng, SOURCES_KO), "theme")  # fmt: skip


def etf_change_articles(view: MarketView, rng: np.random.Generator) -> list[Article]:
    """One article per distinct holdings change (index reviews touch several ETFs at once)."""
    grouped: dict[tuple[date, tuple[str, ...], tuple[str, ...]], list[str]] = {}
    for change in view.etf_data.changes:
        grouped.setdefault((change.day, tuple(change.added), tuple(change.removed)), []).append(
            change.etf_code
        )
    out = []
    for (day, added, removed), codes in sorted(grouped.items()):
        names = [str(view.etfs.loc[c, "name"]) for c in sorted(codes)]
        lead = names[0] if len(names) == 1 else f"{names[0]} 등 ETF {len(names)}종"
        add_names = [view.name(s) for s in added[:3]]
        rem_names = [view.name(s) for s in removed[:3]]
        parts = []
        if add_names:
            parts.append(f"{', '.join(add_names)} 신규 편입")
        if rem_names:
            parts.append(f"{', '.join(rem_names)} 편출")
        title = f"{lead}, 구성종목 변경…{' · '.join(parts)}"
        body = [f"{date_ko(day)}부터 {', '.join(names[:4])}의 구성종목이 바뀐다.",
                f"신규 편입 종목은 {len(added)}개, 편출 종목은 {len(removed)}개다." ,
                "정기 변경에 따라 편입 종목에는 패시브 자금 유입이 예상된다."]  # fmt: skip
        out.append(Article(title, " ".join(body), at(day, 8, 10, KST), "ko", list(added + removed)[:8],
                           ["ETF", "리밸런싱"], pick(rng, SOURCES_KO), "etf_change"))  # fmt: skip
    return out


def etf_weekly_ranking(view: MarketView, t: int, rng: np.random.Generator) -> Article:
    days = view.etf_data.days
    returns = {code: view.etf_change(code, t, lag=5) for code in view.etf_data.close}
    best = sorted(returns, key=lambda c: (-returns[c], c))[:5]
    lines = [f"{view.etfs.loc[c, 'name']}({c}) {signed(returns[c])}" for c in best]
    title = f"이번 주 수익률 1위 ETF는 {view.etfs.loc[best[0], 'name']}…{signed(returns[best[0]])}"
    body = [f"{date_ko(days[t])} 종가 기준 최근 5거래일 수익률 상위 ETF는 " + ", ".join(lines) + "였다.",
            f"상장 ETF {len(returns)}종 가운데 {sum(r > 0 for r in returns.values())}종이 올랐다.",
            pick(rng, _CLOSINGS_KO)]  # fmt: skip
    return Article(
        title,
        " ".join(body),
        at(days[t], 16, 40, KST),
        "ko",
        [],
        ["ETF"],
        pick(rng, SOURCES_KO),
        "etf_weekly",
    )


_MILESTONES = (1e12, 2e12, 3e12, 5e12, 10e12, 15e12, 20e12)


def etf_milestones(view: MarketView, rng: np.random.Generator) -> list[Article]:
    """Net assets crossing a round number for the first time in the window."""
    out, days = [], view.etf_data.days
    for code in sorted(view.etf_data.net_assets):
        assets = view.etf_data.net_assets[code]
        for level in _MILESTONES:
            above = np.flatnonzero(assets >= level)
            if len(above) == 0 or above[0] == 0:
                continue
            t = int(above[0])
            name = str(view.etfs.loc[code, "name"])
            title = f"{name} 순자산 {krw_amount(level)} 돌파"
            body = [f"{josa(name, '은/는')} {date_ko(days[t])} 순자산총액이 {krw_amount(assets[t])}으로 집계됐다.",
                    f"이날 종가는 {won(view.etf_data.close[code][t])}였다.",
                    "개인과 기관 자금이 꾸준히 유입되고 있다."]  # fmt: skip
            out.append(Article(title, " ".join(body), at(days[t], 17, 0, KST), "ko", [], ["ETF"],
                               pick(rng, SOURCES_KO), "etf_milestone"))  # fmt: skip
    return out


def stamp(day: date, hour: int, minute: int, tz: str) -> datetime:
    return at(day, hour, minute, tz)
