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
UNIVERSE_WORDS = ("top50", "top 50", "탑50", "상위50", "상위 50", "유니버스", "universe")
CHANGE_WORDS = ("편입", "편출", "added to", "removed from", "entered", "dropped out")


def ranking_measure(frame: QuestionFrame | None) -> str | None:
    """The measure of a market-wide ranking question ('오늘 거래대금 상위 10개'), else None: a
    ranking of named stocks, ETFs or series is not a market ranking."""
    if frame is None or frame.operation.kind != "rank":
        return None
    if frame.of("stock") or frame.of("etf") or frame.of("series") or frame.of("sector"):
        return None  # a sector's stocks are ranked by the sector path ('반도체주 중 1위')
    return next((m.name for m in frame.measures if m.name in RANKED_MEASURES), None)


def asks_universe_changes(question: str) -> bool:
    low = question.lower()
    return any(w in low for w in CHANGE_WORDS)
