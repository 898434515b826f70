"""window_answer.describe: the shared sentences for a drawdown, a day's largest move, and an
extreme of a span that has ended (its last close, not the latest)."""

from __future__ import annotations

from datetime import date

from agents.window_answer import WindowAsk, describe
from data_access import figures as fig


def won(v: float) -> str:
    return f"{v:,.0f}원"


def test_a_drawdown_and_a_move_are_worded_by_describe() -> None:
    d = date.fromisoformat
    drawdown = fig.WindowFigure("drawdown", -20.94, d("2025-11-21"), d("2026-11-20"), 245, 55730,
                                high=(d("2025-12-01"), 61950), low=(d("2026-03-18"), 48995))  # fmt: skip
    ask = WindowAsk(fig.Window(1, "year"), "drawdown", "close", "최근 1년", "last 1 year")
    assert describe("KODEX 200 종가", ask, drawdown, won, "ko") == (
        "KODEX 200 종가 최근 1년(2025-11-21 ~ 2026-11-20, 관측치 245개) 최대 낙폭: -20.94% "
        "(고점 2025-12-01 → 저점 2026-03-18).")  # fmt: skip
    move = fig.WindowFigure("min_move", -3.1484, d("2026-08-21"), d("2026-11-20"), 62, 55730,
                            at=d("2026-10-07"), base=(d("2026-10-06"), 57330))  # fmt: skip
    ask = WindowAsk(fig.Window(3, "month"), "min_move", "close", "최근 3개월", "last 3 months")
    assert describe("KODEX 200 종가", ask, move, won, "ko").endswith(
        "가장 크게 내린 날: 2026-10-07 -3.15% (종가 57,330원 (2026-10-06) → 55,525원)."
    )
    assert "largest one-day fall, last 3 months" in describe(
        "KODEX 200 close", ask, move, won, "en"
    )


def test_a_past_spans_extreme_is_read_against_its_last_close() -> None:
    d = date.fromisoformat
    high = fig.WindowFigure("max", 61950, d("2025-01-02"), d("2025-12-30"), 242, 57410,
                            at=d("2025-12-01"))  # fmt: skip
    ask = WindowAsk(fig.Window(1, "session"), "max", "close", "2025년", "2025", past=True)
    assert "; 기간 마지막 종가 57,410원(2025-12-30)은 그 대비 -4,540원" in describe(
        "KODEX 200 종가", ask, high, won, "ko"
    )
    running = WindowAsk(fig.Window(1, "this_year"), "max", "close", "연초 이후", "year to date")
    assert "; 최근 값 57,410원" in describe("KODEX 200 종가", running, high, won, "ko")


def test_a_monthly_series_largest_move_is_its_month_and_a_rate_has_no_close() -> None:
    """A move a month apart (a house price index, CPI) is said by its month ('가장 크게 오른 달:
    2026-05'); a series that is no stock's or fund's close has no '종가' before its values."""
    d = date.fromisoformat
    move = fig.WindowFigure("max_move", 0.25, d("2026-01-01"), d("2026-11-01"), 11, 95.27,
                            at=d("2026-05-01"), base=(d("2026-04-01"), 94.74))  # fmt: skip
    ask = WindowAsk(fig.Window(11, "session"), "max_move", None, "2026년", "2026")
    assert describe("전국 주택가격지수", ask, move, "{:,.2f}".format, "ko").endswith(
        "가장 크게 오른 달: 2026-05 +0.25% (94.74 (2026-04-01) → 94.98)."
    )
    assert "largest one-month rise, 2026" in describe(
        "전국 주택가격지수", ask, move, "{:,.2f}".format, "en"
    )
