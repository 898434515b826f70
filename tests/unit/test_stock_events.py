"""News events, the review's explanation check and the symbol suggestions on hand-made inputs."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

import pytest

from agents.stock import events as ev
from agents.stock import review as rv
from agents.stock import suggest as sg
from agents.stock.fundamentals import percentile_rank, streak, surprise

AS_OF = date(2026, 11, 20)
START = date(2026, 10, 21)
# Sessions 2026-11-02 … 2026-11-06 and 11-09 … 11-13: +1 % a day, then the 11-10 jump.
SESSIONS = [
    ("2026-11-02", 100.0), ("2026-11-03", 101.0), ("2026-11-04", 102.0), ("2026-11-05", 103.0),
    ("2026-11-06", 104.0), ("2026-11-09", 105.0), ("2026-11-10", 94.5), ("2026-11-11", 95.0),
    ("2026-11-12", 96.0), ("2026-11-13", 97.0),
]  # fmt: skip


def _article(pk: str, title: str, when: str, tickers: int = 1) -> dict[str, Any]:
    return {"pk": pk, "title": title, "url": f"https://x/{pk}", "source": "s",
            "published_at": datetime.fromisoformat(when).replace(tzinfo=UTC),
            "ticker_count": tickers}  # fmt: skip


@pytest.mark.parametrize(
    ("title", "category", "polarity"),
    [
        ("삼성전자, 2026Q3 주당순이익 1,658원…시장 예상 하회", "earnings", -1),
        ("Accenture 2026Q3 EPS $1.99 misses $2.14 estimate", "earnings", -1),
        ("Intel surges 9.9% after quarterly results", "earnings", 0),
        ("삼성전자, 7.7% 급락…실적 전망 하향", "guidance", -1),
        ("Acme jumps 6% on raised earnings guidance", "guidance", 1),
        ("HD현대에너지솔루션, 20.3% 급등…대규모 공급계약 체결 공시", "contract", 1),
        ("X, 공급계약 해지 공시에 12% 급락", "contract", -1),
        ("Y, 8.1% 급락…대주주 지분 블록딜", "block_deal", -1),
        ("Z slides 5% on regulatory concerns", "regulation", -1),
        ("펄어비스, 16.8% 급등…신제품 출시 기대감", "product", 1),
        ("W, 대규모 유상증자 결정에 9% 급락", "capital", -1),
        ("[특징주] 한미반도체 7.1% 급등", "move", 0),
        ("코스피 마감 시황", None, 0),
    ],
)
def test_titles_are_classified_with_their_direction(
    title: str, category: str | None, polarity: int
) -> None:
    assert ev.classify(title) == category
    assert ev.polarity(title) == polarity


def test_reaction_takes_the_event_session_the_next_and_the_drift() -> None:
    r = ev.reaction(SESSIONS, date(2026, 11, 7))  # a Saturday: the next session is 11-09
    assert r["session"] == "2026-11-09" and r["move_day"] == pytest.approx(105 / 104 - 1)
    assert r["next_session"] == "2026-11-10" and r["move_next"] == pytest.approx(94.5 / 105 - 1)
    assert r["move"] == r["move_next"] and r["move_date"] == "2026-11-10"  # the bigger one
    assert r["drift"] == pytest.approx(96 / 105 - 1) and r["drift_sessions"] == 3
    assert ev.reaction(SESSIONS, date(2026, 11, 2))["session"] is None  # no close before it
    assert ev.reaction(SESSIONS, date(2026, 12, 1))["session"] is None


def test_articles_group_into_events_and_unexplained_moves_are_flagged() -> None:
    articles = [
        _article("a1", "Acme 2026Q3 EPS $1.00 misses $1.10 estimate", "2026-11-09T21:10"),
        _article("a2", "Acme slides 10.0% after quarterly results", "2026-11-10T21:30"),
        _article("a3", "Acme plunges 10.0%", "2026-11-10T21:40"),
        _article("a4", "Earnings to watch: Acme and 3 more", "2026-11-01T13:00", tickers=4),
        _article("a5", "Wall Street wrap; Other (+3%) leads", "2026-11-04T21:00", tickers=5),
    ]
    earnings = [{"period": "2026Q3", "event_date": date(2026, 11, 9), "reported": True,
                 "eps_estimate": 1.10, "eps_actual": 1.00}]  # fmt: skip
    out = ev.build_events(articles, earnings, SESSIONS, name_keys=("Acme",), country="US",
                          start=START, as_of=AS_OF)  # fmt: skip
    assert len(out) == 1  # the preview and the wrap about another stock are not events
    e = out[0]
    assert e["category"] == "earnings" and e["date"] == "2026-11-09" and e["polarity"] == -1
    assert [a["doc_id"] for a in e["articles"]] == ["a1", "a2", "a3"]
    assert e["earnings"] is not None and e["earnings"]["surprise"] == pytest.approx(-0.1 / 1.1)
    assert e["move"] == pytest.approx(94.5 / 105 - 1) and ev.needs_explaining(e)
    # Without the articles and the earnings row the -10 % session is still an event, unexplained.
    bare = ev.build_events([], [], SESSIONS, name_keys=("Acme",), country="US", start=START,
                           as_of=AS_OF)  # fmt: skip
    assert [(b["date"], b["category"], b["explained"]) for b in bare] == [
        ("2026-11-10", "move", False)]  # fmt: skip


def test_fundamental_helpers() -> None:
    assert surprise(1.0, 1.1) == pytest.approx(-0.0909, abs=1e-4)
    assert surprise(1.0, -2.0) == pytest.approx(1.5)  # against |estimate|
    assert surprise(1.0, 0.0) is None
    assert streak(["beat", "beat", "miss"]) == 2 and streak(["miss", "miss", "miss"]) == -3
    assert streak(["inline", "beat"]) == 0 and streak([]) == 0
    assert percentile_rank(10.0, [5.0, 10.0, 20.0, 30.0]) == 0.5


def _item(percent: float = -6.74) -> rv.ReviewItem:
    return rv.ReviewItem(key="move:2026-10-29", kind="move", percent=percent,
                         anchors=rv.date_forms("2026-10-29"), sentence="s")  # fmt: skip


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("10월 29일 주가는 6.74% 급락했다.", True),
        ("On Oct 29 the stock fell 6.7%.", True),  # one decimal still matches
        ("2026-10-29: -6.74%", True),
        ("주가가 6.74% 급락했다.", False),  # no date
        ("2026-10-29에 실적을 발표했다.", False),  # no number
        ("2026-10-29 주가는 7% 빠졌다.", False),  # a different number
        ("2026-10-29 거래량 674만 주, 주가 -0.674%", False),  # digits alike, not the figure
        ("", False),
    ],
)
def test_the_explanation_check_needs_the_number_and_the_date(text: str, ok: bool) -> None:
    assert rv.explained(text, _item()) is ok


def test_hostile_text_does_not_break_the_check() -> None:
    hostile = "2026-10-29 " + "9" * 5000 + " ,,,.. −6.74 %% \x00 " + "1." * 1000
    assert rv.explained(hostile, _item()) is True
    assert rv.unexplained("☃" * 10_000, [_item()]) == [_item()]


def _candidates() -> list[sg.Candidate]:
    rows = [("KR:005930", "005930", "삼성전자", "Samsung Electronics", ("삼전",), 500.0),
            ("KR:005935", "005935", "삼성전자우", "Samsung Electronics Pref", (), 50.0),
            ("KR:005940", "005940", "NH투자증권", "NH Investment", (), 5.0),
            ("KR:005380", "005380", "현대차", "Hyundai Motor", (), 60.0),
            ("US:AAPL", "AAPL", "Apple", "Apple", ("애플", "Apple Inc."), 4000.0),
            ("US:AMAT", "AMAT", "Applied Materials", "Applied Materials", (), 150.0)]  # fmt: skip
    return [sg.Candidate(security_id=i, code=c, name=n, names=(n, e, *a), size=s)
            for i, c, n, e, a, s in rows]  # fmt: skip


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("삼송전자", ["KR:005930", "KR:005935"]),
        ("APPL", ["US:AAPL", "US:AMAT"]),
        ("애픙", ["US:AAPL"]),
        ("00593", ["KR:005930", "KR:005935"]),  # a digit missing: not NH투자증권's 005940
        ("005390", ["KR:005930"]),  # two digits swapped: not 현대차's 005380
        ("ZZZQ", []),
        ("   ", []),
        ("'; DROP TABLE stocks; --", []),
    ],
)
def test_suggestions_look_like_what_was_typed(typed: str, expected: list[str]) -> None:
    assert [s["id"] for s in sg.rank(typed, _candidates())] == expected


def test_jamo_and_edit_distance() -> None:
    assert sg.jamo("삼성") == "ㅅㅏㅁㅅㅓㅇ" and sg.jamo("A1") == "A1"
    assert sg.edit_distance("APPL", "AAPL") == 1 and sg.edit_distance("005390", "005930") == 1
    assert sg.edit_distance("", "abc") == 3
