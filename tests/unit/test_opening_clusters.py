"""Clustering and ranking of the window's stories (agents.opening.clusters), on hand-made rows."""

from __future__ import annotations

from datetime import date
from typing import Any

from agents.opening.clusters import (
    Earnings,
    Session,
    StockInfo,
    company_moves,
    rank_clusters,
    reason_of,
)

D19, D20 = date(2026, 11, 19), date(2026, 11, 20)
NVDA = StockInfo("US:NVDA", "NVIDIA", "NVIDIA", "US", "NASDAQ", "USD", "반도체", 1_000,
                 ("엔비디아",))  # fmt: skip
SMALL = StockInfo("KR:000001", "작은회사", "Small", "KR", "KOSDAQ", "KRW", "의료기기", 1_000)


def _article(pk: str, title: str, tickers: list[str], at: str, **kw: Any) -> dict[str, Any]:
    return {"pk": pk, "title": title, "tickers": tickers, "publish_et_iso": at,
            "source": kw.get("source", "A"), "lang": kw.get("lang", "ko"),
            "themes": kw.get("themes", [])}  # fmt: skip


def _sessions() -> dict[str, list[Session]]:
    return {"US:NVDA": [Session("US:NVDA", D19, 196.0, 200.0), Session("US:NVDA", D20, 186.0, 196.0)],
            "KR:000001": [Session("KR:000001", D20, 13_000.0, 10_000.0)]}  # fmt: skip


def test_an_article_reports_on_the_last_session_closed_before_it() -> None:
    before_close = _article("a", "NVIDIA 프리뷰", ["US:NVDA"], "2026-11-20T09:00:00-05:00")
    after_close = _article("b", "NVIDIA plunges", ["US:NVDA"], "2026-11-20T16:30:00-05:00")
    moves = company_moves([before_close], _sessions(), {"US:NVDA": NVDA}, 1400.0, [])
    assert moves[0].session.d == D19  # 09:00 ET: the 19th's close is the news
    moves = company_moves([before_close, after_close], _sessions(), {"US:NVDA": NVDA}, 1400.0, [])
    assert len(moves) == 1 and moves[0].session.d == D20  # the bigger move, one per company
    assert moves[0].pks == ["b", "a"]  # all of the company's articles stay with it
    # impact in won: |−5.10%| × previous close × shares × USD/KRW
    assert moves[0].impact_krw == abs(186 / 196 - 1) * 196.0 * 1_000 * 1400.0


def test_market_cap_in_won_beats_a_bigger_percentage_of_a_small_company() -> None:
    articles = [_article("a", "NVIDIA plunges", ["US:NVDA"], "2026-11-20T16:30:00-05:00"),
                _article("b", "작은회사, 30.0% 급등…기술이전 계약 체결", ["KR:000001"],
                         "2026-11-20T02:40:00-05:00")]  # fmt: skip
    infos = {"US:NVDA": NVDA, "KR:000001": SMALL}
    moves = company_moves(articles, _sessions(), infos, 1400.0, [])
    ranked = rank_clusters(moves, {}, articles)
    assert [c.subject for c in ranked] == ["엔비디아", "작은회사"]
    assert ranked[1].headline == "작은회사, 기술이전 계약 체결에 급등"
    # the same won impact with no FX row is not invented: US moves then weigh nothing
    assert company_moves(articles, _sessions(), infos, 0.0, [])[0].info.country == "KR"


def test_an_earnings_miss_names_the_event_and_the_surprise() -> None:
    articles = [_article("a", "NVIDIA plunges", ["US:NVDA"], "2026-11-20T16:30:00-05:00")]
    miss = Earnings("US:NVDA", "2026Q3", D19, eps_estimate=2.28, eps_actual=2.22)
    moves = company_moves(articles, _sessions(), {"US:NVDA": NVDA}, 1400.0, [miss])
    top = rank_clusters(moves, {}, articles)[0]
    assert top.kind == "earnings" and top.headline == "엔비디아, 분기 EPS 예상치 밑돌아 급락"
    assert "EPS 2.22달러로 예상치 2.28달러를 밑돈 뒤" in top.why and "5.10%" in top.why
    assert top.as_dict(1)["earnings"]["surprise_pct"] == round((2.22 - 2.28) / 2.28 * 100, 2)
    # a beat followed by a fall says so instead of implying cause
    beat = Earnings("US:NVDA", "2026Q3", D19, eps_estimate=2.0, eps_actual=2.2)
    moves = company_moves(articles, _sessions(), {"US:NVDA": NVDA}, 1400.0, [beat])
    assert (
        rank_clusters(moves, {}, articles)[0].headline
        == "엔비디아, 분기 EPS 예상치 웃돌았지만 급락"
    )
    # a report older than the lookback does not explain the move
    old = Earnings("US:NVDA", "2026Q2", date(2026, 8, 20), 1.0, 0.5)
    assert (
        company_moves(articles, _sessions(), {"US:NVDA": NVDA}, 1400.0, [old])[0].earnings is None
    )


def _sector_day(
    n: int,
) -> tuple[list[dict[str, Any]], dict[str, list[Session]], dict[str, StockInfo]]:
    articles, sessions, infos = [], {}, {}
    for i in range(n):
        sid = f"KR:00010{i}"
        infos[sid] = StockInfo(
            sid, f"의료{i}", f"Med{i}", "KR", "KOSDAQ", "KRW", "의료기기", 1_000 + i
        )
        sessions[sid] = [Session(sid, D20, 110.0 + i, 100.0)]
        articles.append(_article(f"p{i}", f"의료{i} 강세", [sid], "2026-11-20T03:00:00-05:00",
                                 source=f"S{i}"))  # fmt: skip
    return articles, sessions, infos


def test_names_of_one_sector_moving_together_become_one_sector_story() -> None:
    articles, sessions, infos = _sector_day(4)
    moves = company_moves(articles, sessions, infos, 1400.0, [])
    breadth = {("KR", "의료기기", D20): {"total": 10, "up": 8, "down": 2}}
    ranked = rank_clusters(moves, breadth, articles)
    assert [c.kind for c in ranked] == ["sector"]
    sector = ranked[0]
    assert sector.headline.startswith("국내 의료기기주 동반 강세…의료3·의료2 등 4종목")
    assert sector.breadth == breadth[("KR", "의료기기", D20)] and len(sector.sources) == 4
    # two names are not a sector move
    articles, sessions, infos = _sector_day(2)
    kinds = [
        c.kind
        for c in rank_clusters(company_moves(articles, sessions, infos, 1.0, []), {}, articles)
    ]
    assert kinds == ["company", "company"]


def test_a_policy_decision_takes_the_third_slot_and_releases_only_fill_gaps() -> None:
    articles, sessions, infos = _sector_day(2)
    articles += [_article("m1", "Fed cuts rates", [], "2026-11-20T14:00:00-05:00", themes=["금리", "FOMC"]),
                 _article("m2", "CPI rises", [], "2026-11-20T08:30:00-05:00", themes=["물가"])]  # fmt: skip
    ranked = rank_clusters(company_moves(articles, sessions, infos, 1.0, []), {}, articles)
    assert [c.kind for c in ranked] == ["company", "company", "policy", "macro"]
    assert ranked[2].headline == "미 연준 기준금리 결정"


def test_reasons_come_from_korean_titles_without_numbers() -> None:
    assert reason_of("SK텔레콤, 4.0% 강세…대규모 공급계약 체결 공시") == "대규모 공급계약 체결 공시"
    assert reason_of("두산테스나, 실적 호조에도 3.1% 하락") == "실적 호조"
    assert reason_of("[특징주] 천보 7.7% 급등") is None
    assert reason_of("코스피 대형주 하락…KODEX 200 -1.22%") is None
