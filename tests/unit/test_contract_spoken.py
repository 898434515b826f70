"""Spoken Korean numbers in a contract question are read as the contract writes them."""

from __future__ import annotations

import pytest

from agents.contract.spoken import digits


@pytest.mark.parametrize(("question", "read"), [
    ("출발 보름 전에 제가 취소하면 몇 퍼센트 물어내요?", "출발 15일 전에 제가 취소하면 몇 퍼센트 물어내요?"),
    ("반품하면 사흘 안에 환불해 줘요?", "반품하면 3일 안에 환불해 줘요?"),
    ("약관 바뀌는 건 일주일 전에는 알려줘요?", "약관 바뀌는 건 7일 전에는 알려줘요?"),
    ("석 달치 월세를 못 내면 계약이 끝나요?", "3개월치 월세를 못 내면 계약이 끝나요?"),
    ("월세를 두 번 밀리면", "월세를 2번 밀리면"),
    ("계약 끝나기 반년 전부터는", "계약 끝나기 6개월 전부터는"),
    ("월세 올리고 나서 일 년 안에 또 올릴 수 있어요?", "월세 올리고 나서 1년 안에 또 올릴 수 있어요?"),
    ("한 해 동안 네 시간씩", "1년 동안 4시간씩"),
])  # fmt: skip
def test_spoken_numbers_are_written_in_digits(question: str, read: str) -> None:
    assert digits(question) == read


@pytest.mark.parametrize("question", [
    "게임 서비스는 하루 종일 돌아가요?",  # all day, not one day
    "세금은 누가 내요?", "두부 한 모", "한국 법을 따라요?", "이 일은 누가 해요?",
    "두 사람이 같이 가도 돼요?", "하루살이", "사실인가요?",
])  # fmt: skip
def test_other_words_are_left_as_they_are(question: str) -> None:
    assert digits(question) == question
