"""Fundamentals and events in words and tables (Korean and English), filled only with computed
figures: the analysis paragraphs, the report's tables, the screen's tables, and the pillar
weights line of the recommendation.
"""

from __future__ import annotations

from typing import Any

from agents.stock import templates as t
from agents.stock.analysis import StockFigures
from agents.stock.events import WINDOW_DAYS, NewsEvent
from agents.stock.fundamentals import EarningsQuarter, Fundamentals
from agents.stock.state import Language

RESULT = {"ko": {"beat": "상회", "miss": "하회", "inline": "부합"},
          "en": {"beat": "beat", "miss": "miss", "inline": "in line"}}  # fmt: skip


def _rank(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.0f}%"


# ---------------------------------------------------------------- earnings


def quarter_sentence(q: EarningsQuarter, currency: str, lang: Language) -> str:
    """One reported quarter with its surprise: the sentence the review looks for."""
    actual, estimate = t.price(q["eps_actual"], currency), t.price(q["eps_estimate"], currency)
    result = RESULT[lang].get(q["result"] or "", "-")
    if lang == "en":
        return (f"{q['period']} (reported {q['event_date']}): EPS {actual} vs the {estimate} "
                f"estimate, a {t.pct(q['surprise'])} surprise ({result})")  # fmt: skip
    return (f"{q['period']}({q['event_date']} 발표) EPS {actual}, 예상 {estimate} 대비 "
            f"서프라이즈 {t.pct(q['surprise'])}({result})")  # fmt: skip


def earnings_rows(fu: Fundamentals, lang: Language) -> list[dict[str, str]]:
    cur = fu["currency"]
    return [
        {"period": q["period"], "date": q["event_date"], "estimate": t.price(q["eps_estimate"], cur),
         "actual": t.price(q["eps_actual"], cur), "surprise": t.pct(q["surprise"]),
         "result": RESULT[lang].get(q["result"] or "", "-"), "yoy": t.pct(q["eps_yoy"])}
        for q in fu["quarters"]
    ]  # fmt: skip


EARNINGS_HEADERS = {
    "ko": {"period": "분기", "date": "발표일", "estimate": "EPS 예상", "actual": "EPS 실적",
           "surprise": "서프라이즈", "result": "결과", "yoy": "전년 대비"},
    "en": {"period": "Quarter", "date": "Reported", "estimate": "EPS est.", "actual": "EPS",
           "surprise": "Surprise", "result": "Result", "yoy": "YoY"},
}  # fmt: skip


# ---------------------------------------------------------------- fundamentals


def fundamental_rows(fu: Fundamentals, f: StockFigures, lang: Language) -> list[dict[str, str]]:
    """The fundamentals table: figure, the stock's value, the sector's, its own history."""
    ko, cur = lang == "ko", fu["currency"]
    nxt = fu["next_earnings"]
    rows = [
        ("시가총액" if ko else "Market cap", t.big_money(fu["market_cap"], cur, lang), "-", "-"),
        ("PER" if ko else "P/E", t.number(f["pe"]), t.number(f["sector_median_pe"]),
         f"{t.number(fu['pe_history_median'])} ({'백분위' if ko else 'pct.'} {_rank(fu['pe_history_percentile'])})"),
        ("PBR" if ko else "P/B", t.number(fu["pb"]), t.number(fu["pb_sector_median"]),
         f"{t.number(fu['pb_history_median'])} ({'백분위' if ko else 'pct.'} {_rank(fu['pb_history_percentile'])})"),
        ("배당수익률" if ko else "Dividend yield", t.pct(fu["dividend_yield"], False),
         t.pct(fu["dy_sector_median"], False), "-"),
        ("EPS (최근 4분기 합산)" if ko else "EPS (trailing 4Q)", t.price(fu["eps_ttm"], cur), "-",
         f"{t.price(fu['eps_ttm_year_ago'], cur)} ({'1년 전' if ko else 'a year ago'})"),
        ("EPS 증가율 (1년)" if ko else "EPS growth (1Y)", t.pct(fu["eps_growth"]), "-", "-"),
        ("실적 상회/하회 (최근 4분기)" if ko else "Beats / misses (last 4Q)",
         f"{fu['beats']} / {fu['misses']}", "-", _streak(fu["streak"], lang)),
        (("다음 실적 발표" if ko else "Next earnings") + (f" ({nxt['period']})" if nxt else ""),
         nxt["event_date"] if nxt else ("미정" if ko else "not scheduled"), "-", "-"),
    ]  # fmt: skip
    if nxt:
        rows.append(("다음 실적 EPS 예상" if ko else "Next EPS estimate",
                     t.price(nxt["eps_estimate"], cur), "-", "-"))  # fmt: skip
    return [{"figure": a, "value": b, "sector": c, "history": d} for a, b, c, d in rows]


FUNDAMENTAL_HEADERS = {
    "ko": {"figure": "지표", "value": "종목", "sector": "섹터 중앙값", "history": "자기 과거 중앙값"},
    "en": {"figure": "Figure", "value": "Stock", "sector": "Sector median", "history": "Own history median"},
}  # fmt: skip


def _streak(streak: int, lang: Language) -> str:
    if streak == 0:
        return "-"
    if abs(streak) == 1:
        beat = streak > 0
        return ("latest quarter " + ("beat" if beat else "missed")) if lang == "en" else (
            "최근 분기 " + ("상회" if beat else "하회"))  # fmt: skip
    if lang == "en":
        return f"{abs(streak)} {'beats' if streak > 0 else 'misses'} in a row"
    return f"{abs(streak)}분기 연속 {'상회' if streak > 0 else '하회'}"


def fundamentals_text(fu: Fundamentals, f: StockFigures, lang: Language) -> str:
    """The fundamentals paragraph of the analysis."""
    cur, ko = fu["currency"], lang == "ko"
    parts: list[str] = []
    if fu["quarters"]:
        latest = quarter_sentence(fu["quarters"][0], cur, lang)
        n = len(fu["quarters"])
        parts.append(
            f"실적: 최근 {n}개 분기 중 {fu['beats']}번 상회, {fu['misses']}번 하회했고, 최근 {latest}입니다."
            if ko else f"Earnings: {fu['beats']} beats and {fu['misses']} misses in the last {n} "
            f"quarters; latest {latest}."
        )  # fmt: skip
    else:
        parts.append("실적: 데이터에 실적 발표 기록이 없습니다." if ko
                     else "Earnings: no reported quarters in the data.")  # fmt: skip
    if fu["eps_growth"] is not None:
        parts.append(
            f"주당순이익(최근 4분기 합산) {t.price(fu['eps_ttm'], cur)}, 1년 전 대비 {t.pct(fu['eps_growth'])}입니다."
            if ko else f"Trailing EPS of {t.price(fu['eps_ttm'], cur)} is {t.pct(fu['eps_growth'])} vs a year earlier."
        )  # fmt: skip
    parts.append(
        f"밸류에이션: PER {t.number(f['pe'])}배(자기 과거 중앙값 {t.number(fu['pe_history_median'])}배), "
        f"PBR {t.number(fu['pb'])}배(섹터 중앙값 {t.number(fu['pb_sector_median'])}배, {t.pct(fu['pb_vs_sector'])}), "
        f"배당수익률 {t.pct(fu['dividend_yield'], False)}(섹터 중앙값 {t.pct(fu['dy_sector_median'], False)}), "
        f"시가총액 {t.big_money(fu['market_cap'], cur, lang)}입니다."
        if ko else
        f"Valuation: P/E {t.number(f['pe'])}x (own history median {t.number(fu['pe_history_median'])}x), "
        f"P/B {t.number(fu['pb'])}x (sector median {t.number(fu['pb_sector_median'])}x, {t.pct(fu['pb_vs_sector'])}), "
        f"dividend yield {t.pct(fu['dividend_yield'], False)} (sector median "
        f"{t.pct(fu['dy_sector_median'], False)}), market cap {t.big_money(fu['market_cap'], cur, lang)}."
    )  # fmt: skip
    if fu["universe_moves"]:
        parts.append(universe_sentence(fu, lang))
    if fu["filings"] or fu["guidance"]:
        parts.append(filings_sentence(fu, lang))
    nxt = fu["next_earnings"]
    if nxt:
        parts.append(
            f"다음 실적 발표는 {nxt['event_date']}({nxt['period']}, EPS 예상 {t.price(nxt['eps_estimate'], cur)})입니다."
            if ko else f"Next earnings: {nxt['event_date']} ({nxt['period']}, EPS estimate "
            f"{t.price(nxt['eps_estimate'], cur)})."
        )  # fmt: skip
    return " ".join(parts)


def universe_sentence(fu: Fundamentals, lang: Language) -> str:
    """편입/편출 of the Top50 in the last year (seed 004 §4-3): a line of its own."""
    name = fu["universe"].replace("_TOP", " Top")
    if lang == "en":
        moves = "; ".join(
            f"{'added' if m['change'] == 'in' else 'removed'} in the {m['snapshot_date']} snapshot "
            f"({'rank' if m['change'] == 'in' else 'was rank'} {m['rank']})"
            for m in fu["universe_moves"]
        )
        return f"Universe: in the last year the stock was {moves} of the {name}."
    moves = ", ".join(
        f"{'편입' if m['change'] == 'in' else '편출'} {m['snapshot_date']} 스냅샷"
        f"({'' if m['change'] == 'in' else '직전 '}{m['rank']}위)"
        for m in fu["universe_moves"]
    )
    return f"유니버스: 최근 1년 {name} {moves}이 있었습니다(기간 비교 시 당시 유니버스 기준이 다릅니다)."


def filings_sentence(fu: Fundamentals, lang: Language) -> str:
    """Recent OpenDART filings and the latest guidance, with the source named (issue 35)."""
    shown, g, ko = fu["filings"][:5], fu["guidance"], lang == "ko"
    listed = "; ".join(f"{f['date']} {f['report']}" for f in shown)
    more = len(fu["filings"]) - len(shown)
    text = (f"공시(OpenDART 전자공시, 최근 3개월): {listed or '없음'}" if ko
            else f"Filings (OpenDART, last 3 months): {listed or 'none'}")  # fmt: skip
    text += (f" 외 {more}건." if ko else f" and {more} more.") if more > 0 else "."
    if g:
        text += (f" 가이던스({g['date']} {g['report']}): " if ko
                 else f" Guidance ({g['date']} {g['report']}): ") + (g["text"] or g["report"])  # fmt: skip
    return text


# ---------------------------------------------------------------- events


def event_sentence(e: NewsEvent, lang: Language, currency: str) -> str:
    """One event with its reaction (and surprise): what the review requires to be said."""
    category = t.EVENT_CATEGORIES[lang][e["category"]]
    headline = e["headline"] or ("뉴스 없음" if lang == "ko" else "no article")
    next_part = (f", {'다음 거래일' if lang == 'ko' else 'next session'} {t.pct(e['move_next'])}"
                 if e["move_next"] is not None else "")  # fmt: skip
    drift = (f", {'이후' if lang == 'ko' else 'then'} {e['drift_sessions']}"
             f"{'거래일' if lang == 'ko' else ' sessions'} {t.pct(e['drift'])}"
             if e["drift"] is not None else "")  # fmt: skip
    earnings = ""
    if e["earnings"] is not None:
        er = e["earnings"]
        earnings = (f" EPS {t.price(er['eps_actual'], currency)} vs {t.price(er['eps_estimate'], currency)}, "
                    f"{'서프라이즈' if lang == 'ko' else 'surprise'} {t.pct(er['surprise'])};")  # fmt: skip
    if lang == "en":
        cause = "" if e["explained"] else " (no cause found in the news)"
        return (f"{e['date']} {category}{cause} — {headline}:{earnings} event day "
                f"{t.pct(e['move_day'])}{next_part}{drift}")  # fmt: skip
    cause = "" if e["explained"] else " (뉴스에서 원인 미확인)"
    return (f"{e['date']} {category}{cause} — {headline}:{earnings} 당일 "
            f"{t.pct(e['move_day'])}{next_part}{drift}")  # fmt: skip


def events_text(events: list[NewsEvent], lang: Language, currency: str) -> str:
    """The events paragraph of the analysis (every event of the window, oldest first)."""
    if not events:
        return (f"이벤트: 최근 {WINDOW_DAYS}일 동안 이 종목의 이벤트 뉴스와 5%를 넘는 급변이 없었습니다."
                if lang == "ko" else
                f"Events: no company news and no move above 5% in the last {WINDOW_DAYS} days.")  # fmt: skip
    head = (f"이벤트(최근 {WINDOW_DAYS}일, {len(events)}건): " if lang == "ko"
            else f"Events (last {WINDOW_DAYS} days, {len(events)}): ")  # fmt: skip
    return head + " / ".join(event_sentence(e, lang, currency) for e in events) + "."


def event_rows(events: list[NewsEvent], lang: Language) -> list[dict[str, Any]]:
    return [
        {"date": e["date"], "category": t.EVENT_CATEGORIES[lang][e["category"]],
         "headline": e["headline"] or ("(뉴스 없음)" if lang == "ko" else "(no article)"),
         "move_day": t.pct(e["move_day"]), "move_next": t.pct(e["move_next"]),
         "drift": t.pct(e["drift"]), "articles": len(e["articles"]),
         "explained": ("예" if e["explained"] else "아니오") if lang == "ko"
         else ("yes" if e["explained"] else "no")}
        for e in events
    ]  # fmt: skip


EVENT_HEADERS = {
    "ko": {"date": "날짜", "category": "유형", "headline": "내용", "move_day": "당일",
           "move_next": "다음 거래일", "drift": "이후 3거래일", "articles": "기사 수",
           "explained": "원인 확인"},
    "en": {"date": "Date", "category": "Type", "headline": "Headline", "move_day": "Event day",
           "move_next": "Next session", "drift": "Next 3 sessions", "articles": "Articles",
           "explained": "Cause found"},
}  # fmt: skip


def markdown_table(rows: list[dict[str, Any]], headers: dict[str, str]) -> list[str]:
    if not rows:
        return []
    lines = ["| " + " | ".join(headers.values()) + " |", "|" + " --- |" * len(headers)]
    lines += ["| " + " | ".join(str(r.get(k, "")).replace("|", "\\|") for k in headers) + " |"
              for r in rows]  # fmt: skip
    return lines
