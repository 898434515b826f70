"""A Macro offline answer says what happened (issue 33): a value that did not move is said to be
unchanged, not to have 'moved from 3.14% to 3.14%'."""

from __future__ import annotations

from agents.macro.answer import said_plainly


def test_an_unchanged_value_is_said_to_be_unchanged() -> None:
    point = "FOMC 인하: 미국 2년물 국채 금리는 결정 전 3.14%에서 이후 3.14%로 움직였다."
    assert (
        said_plainly(point) == "FOMC 인하: 미국 2년물 국채 금리는 결정 전후 3.14%로 변하지 않았다."
    )
    assert (
        said_plainly("환율은 1,445.0원에서 1,445.0원으로 움직였다.")
        == "환율은 1,445.0원으로 변하지 않았다."
    )
    assert (
        said_plainly("X는 1,417.10에서 1,417.10로 움직였다.") == "X는 1,417.10으로 변하지 않았다."
    )


def test_a_real_move_is_left_as_written() -> None:
    point = "발표 전후 원/달러 환율은 1,417.1에서 1,415.8로 움직였다."
    assert said_plainly(point) == point
