"""What makes a question a market-wide ranking or a Top-N universe question (issue 25).

Pure predicates over the question frame and text, shared by the router (to send the question to
the Equity agent) and `agents.macro.universe` (to answer it).

    ranking_measure(frame_of("오늘 거래대금 상위 10개"))  # 'trading_value'
    asks_universe_changes("KR Top50 이번 달 편입 종목")   # True
"""

from __future__ import annotations

from agents.understanding.frame import QuestionFrame

# measure → (Korean, English) words of the answer
RANKED_MEASURES: dict[str, tuple[str, str]] = {
    "trading_value": ("거래대금", "trading value"),
    "market_cap": ("시가총액", "market cap"),
    "return": ("등락률", "change"),
    "volume": ("거래량", "volume"),
}
# what a stock ranking may also mention ('종가 기준 등락률 상위')
_STOCK_MEASURES = frozenset(RANKED_MEASURES) | {"close", "high", "low"}
_HOUSING_WORDS = ("아파트", "집값", "주택", "전세", "매매가", "지역", "부동산", "apartment",
                  "house", "housing", "home price", "district", "region")  # fmt: skip
UNIVERSE_WORDS = ("top50", "top 50", "탑50", "상위50", "상위 50", "유니버스", "universe")
CHANGE_WORDS = ("편입", "편출", "added to", "removed from", "entered", "dropped out")


def ranking_measure(frame: QuestionFrame | None) -> str | None:
    """The measure of a market-wide ranking question ('오늘 거래대금 상위 10개'), else None: a
    ranking of named stocks, ETFs or series is not a market ranking."""
    if frame is None or frame.operation.kind != "rank":
        return None
    if frame.of("stock") or frame.of("etf") or frame.of("series") or frame.of("sector"):
        return None  # a sector's stocks are ranked by the sector path ('반도체주 중 1위')
    housing = any(w in frame.question.lower() for w in _HOUSING_WORDS)
    if (
        housing
        or frame.of("re_region")
        or any(m.name not in _STOCK_MEASURES for m in frame.measures)
    ):
        return None  # '아파트 가격지수 상승률 1위 지역': a housing ranking, not a market one
    return next((m.name for m in frame.measures if m.name in RANKED_MEASURES), None)


def asks_universe_changes(question: str) -> bool:
    low = question.lower()
    return any(w in low for w in CHANGE_WORDS)
