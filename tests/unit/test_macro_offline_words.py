"""A Macro offline answer says what happened (issue 33): a value that did not move is said to be
unchanged, not to have 'moved from 3.14% to 3.14%'; a series or stock is written by its name,
not its code ('KR:005930 밸류에이션', '발표 전후 KR_USDKRW는')."""

from __future__ import annotations

from agents.macro.answer import code_names, named, said_plainly
from agents.macro.state import AgentResponse, Series


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
    # the particle after the figure as it is read: 3 (삼) takes 으로
    assert said_plainly("1,424.9에서 1,419.3로 움직였다.") == "1,424.9에서 1,419.3으로 움직였다."


def test_a_code_standing_for_its_name_is_written_as_the_name() -> None:
    stock = AgentResponse(agent="equity", series=[
        Series(key="KR:005930", title="삼성전자 (KR:005930) 종가", unit="KRW", points=[])])  # fmt: skip
    names = code_names({"equity": stock})
    assert names["KR:005930"] == "삼성전자"
    assert names["KR_USDKRW"] == "원/달러 환율"  # the vocabulary's series, asked or not
    assert named("KR:005930 밸류에이션(2026-11-20): PER 14.81", names) == (
        "삼성전자 밸류에이션(2026-11-20): PER 14.81"
    )
    assert named("KR:005930: KR Top50 유니버스 1위", names) == "삼성전자: KR Top50 유니버스 1위"
    # the particle follows the name: 환율은, not 환율는
    assert (
        named("발표 전후 KR_USDKRW는 1,417.1에서", names) == "발표 전후 원/달러 환율은 1,417.1에서"
    )
    assert named("경로: 이벤트 'CPI' → KR_USDKRW", names) == "경로: 이벤트 'CPI' → 원/달러 환율"
    assert (
        named("경로: 이벤트 '관세' → VIXCLS", names) == "경로: 이벤트 '관세' → " + names["VIXCLS"]
    )
    # a code in brackets after its name: a stock keeps its ticker, a series its name alone
    assert named("삼성전자(KR:005930) 종가 94,000원", names) == "삼성전자(005930) 종가 94,000원"
    assert names["KR_BASE_RATE"] == "한국은행 기준금리"
    assert (named("한국은행 기준금리(KR_BASE_RATE) 최신값 2.25%", names)
            == "한국은행 기준금리 최신값 2.25%")  # fmt: skip
    assert named("코스피(^KS11) 4,020.00포인트", {"^KS11": "코스피"}) == "코스피 4,020.00포인트"
    assert named("한국은행 기준금리 (KR_BASE_RATE) 2026-09-15: 문서", names) == (
        "한국은행 기준금리 2026-09-15: 문서"
    )
    # a code after another word, a code no one names and a code span stay
    kept = "삼성(KR:005930) · 원/달러 환율(종가)(KR_USDKRW) · KR:999999는 · PER `KR_CPI`"
    assert named(kept, names) == kept
