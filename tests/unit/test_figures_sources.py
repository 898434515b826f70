"""Sources against the figures beside them (agents.opening.source_checks) and the care taken
with thin transaction data (agents.macro.deal_trend), on hand-made tool results and rows,
including hostile ones (titles saying both directions, words hiding inside others, missing or
malformed fields)."""

from __future__ import annotations

from typing import Any

from agents.evidence import ToolCallRecord
from agents.macro import deal_trend
from agents.opening.source_checks import check_sources, direction


def _call(tool: str, result: Any, status: str = "ok") -> ToolCallRecord:
    return ToolCallRecord(seq=0, tool=tool, arguments={}, duration_ms=0, status=status,
                          result=result)  # fmt: skip


def _ohlcv(ticker: str, closes: list[tuple[str, float]]) -> ToolCallRecord:
    rows = [{"ts": f"{d}T00:00:00-05:00", "close": c} for d, c in closes]
    return _call("get_ohlcv", {"ticker": ticker, "rows": rows})


def _listed(*articles: tuple[str, str, list[str], str]) -> ToolCallRecord:
    return _call("get_news_list", {"articles": [
        {"pk": pk, "title": title, "tickers": tickers, "publish_et_iso": when}
        for pk, title, tickers, when in articles]})  # fmt: skip


MA = _ohlcv("MA", [("2026-10-05", 100.0), ("2026-10-06", 91.38)])  # -8.62% on 10-06
NEWS = _listed(
    ("old-up", "Mastercard surges 5.5%", ["US:MA"], "2026-10-05T16:30:00-04:00"),
    ("same-down", "Mastercard slides 8.6%", ["US:MA"], "2026-10-06T16:40:00-04:00"),
    ("eps", "Mastercard 2026Q3 EPS $4.10 beats $3.90 estimate", ["US:MA"],
     "2026-10-06T07:00:00-04:00"),
    ("sunday", "[마켓브리핑] 뉴욕증시 평균 -0.7%…마스터카드 8.6% 급락", ["US:MA", "US:V"],
     "2026-10-11T17:20:00-04:00"),
)  # fmt: skip


def _turn(pks: list[str]) -> dict[str, Any]:
    return {"id": 4, "speaker": "해설자", "text": "마스터카드 종가는 전일 대비 -8.62%였습니다.",
            "sources": [{"pk": p, "title": p} for p in pks]}  # fmt: skip


def test_a_previous_sessions_opposite_move_is_replaced_by_the_days_article() -> None:
    turn = _turn(["old-up"])
    read = {"old-up": "Mastercard surges 5.5%", "same-down": "Mastercard slides 8.6%"}
    repairs = check_sources([], [turn], [MA, NEWS], read)
    assert turn["sources"] == [{"pk": "same-down", "title": "Mastercard slides 8.6%"}]
    assert len(repairs) == 1 and "날짜·방향" in repairs[0] and "바꿨습니다" in repairs[0]


def test_without_a_matching_read_article_the_citation_is_dropped() -> None:
    turn = _turn(["old-up", "eps"])
    turn["text"] += " 관련 기사 2건을 근거로 말씀드렸습니다."
    repairs = check_sources([], [turn], [MA, NEWS], {"old-up": "x", "eps": "y"})
    assert [s["pk"] for s in turn["sources"]] == ["eps"]  # a pre-close event backs the move
    assert "근거에서 뺐습니다" in repairs[0]
    assert turn["text"].endswith("-8.62%였습니다. 관련 기사 1건을 근거로 말씀드렸습니다.")
    alone = _turn(["old-up"])
    alone["text"] += " 관련 기사 1건을 근거로 말씀드렸습니다."
    check_sources([], [alone], [MA, NEWS], {"old-up": "x"})
    assert alone["sources"] == [] and alone["text"].endswith("-8.62%였습니다.")


def test_a_weekend_round_up_reports_the_friday_session() -> None:
    week = _ohlcv("MA", [("2026-10-08", 100.0), ("2026-10-09", 91.38)])  # Friday's -8.62%
    turn = _turn(["sunday"])
    assert check_sources([], [turn], [week, NEWS], {"sunday": "x"}) == []
    assert turn["sources"][0]["pk"] == "sunday"


def test_hostile_titles_and_records_change_nothing_they_should_not() -> None:
    assert direction("Stocks gain while bonds fall") is None  # both: no direction claimed
    assert direction("Closing bell: Apple closes flat") is None  # 'close' is not 'lose'
    assert direction("enterprise risk review") is None  # 'rise' inside words is no rise
    assert direction("삼성전자 3.4% 강세 마감") == 1 and direction("Intel plunges 6%") == -1
    broken = [_call("get_ohlcv", "not a dict"), _call("get_news_list", None, status="error"),
              _ohlcv("MA", [("2026-10-05", 0.0), ("2026-10-06", 1.0)])]  # fmt: skip
    turn = _turn(["unknown-pk"])
    assert check_sources([], [turn], broken, {}) == [] and turn["sources"][0]["pk"] == "unknown-pk"
    theme = {"headline": "카드주", "description": "마스터카드 -8.62%",
             "related_news": [{"pk": "old-up", "title": "t"}]}  # fmt: skip
    repairs = check_sources([theme], [], [MA, NEWS], {"old-up": "t"})
    assert theme["related_news"] == [] and repairs[0].startswith("테마 1")


def test_deal_medians_use_whole_months_with_counts_and_say_when_thin() -> None:
    rows = [{"month": f"2026-{m:02d}-01", "deals": n, "value": 1e9}
            for m, n in ((3, 9), (4, 40), (5, 12), (11, 5))]  # fmt: skip
    kept, dropped = deal_trend.complete_months(rows, "2026-03-22", "2026-11-20")
    assert [r["month"] for r in kept] == ["2026-04-01", "2026-05-01"]
    assert dropped == ["2026-03", "2026-11"]
    note = deal_trend.counts_note(kept, dropped, "ko")
    assert "2026-04 40건 · 2026-05 12건" in note and "(2026-11)" in note and "2026-03" not in note
    assert "2026-05은 거래 30건 미만" in note and "(월 중위 26건, 2개월)" in note
    assert "30건 미만" not in deal_trend.counts_note(kept, [], "ko", medians=False)
    assert deal_trend.counts_note([{"month": "2026-04-01", "value": 1.0}], [], "ko") == ""
    assert deal_trend.complete_months(rows, "2026-03-01", "2026-03-31")[0] == [rows[0]]
