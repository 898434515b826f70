"""The sidebar's check of the agent SQL's read-only role: one miss is checked again, not shown;
two running are shown; a finding clears the miss (pages/_ui.reader_findings)."""

from __future__ import annotations

import pytest

from data_access.errors import StoreUnavailable
from pages import _ui


@pytest.fixture(autouse=True)
def _fresh() -> None:
    _ui._UNCHECKED.clear()


def _down() -> tuple[str, ...]:
    raise StoreUnavailable("PostgreSQL 서버가 연결을 받지 않습니다", store="postgres")


def test_one_miss_is_checked_again_two_are_said() -> None:
    assert _ui.reader_findings(_down) == ()
    assert _ui._UNCHECKED.is_set()
    said = _ui.reader_findings(_down)
    assert len(said) == 1 and "읽기 전용 역할을 확인하지 못했습니다" in said[0]


def test_a_check_that_reaches_the_reader_says_its_findings_and_clears_the_miss() -> None:
    assert _ui.reader_findings(_down) == ()
    assert _ui.reader_findings(lambda: ("슈퍼유저",)) == ("슈퍼유저",)
    assert not _ui._UNCHECKED.is_set()
    assert _ui.reader_findings(_down) == ()  # a miss after a good check is a first miss again
