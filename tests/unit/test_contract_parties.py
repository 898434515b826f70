"""The asking party ('제가 취소하면', '여행사가 취소하면', '집주인이 …') matched to the 항/호 that
names it as subject, without a database (agents/contract/parties.py, answer.operative)."""

from __future__ import annotations

import pytest

from agents.contract.answer import operative
from agents.contract.parties import asked_party, line_subjects

# 국내여행 표준약관 제15조 ①: the two 호 state the same schedule, one per party
CANCEL = [
    "① 당사 또는 여행자는 여행출발전 이 여행계약을 해제할 수 있습니다. 이 경우 발생하는 손해액은 배상합니다.",
    "1. 여행자의 여행계약 해제 요청이 있는 경우(여행자의 취소요청시): 여행 개시 20일전까지 통보시 상품가격의 10%배상",
    "2. 당사의 귀책사유로 취소 통보하는 경우: 여행 개시 20일전까지 통보시 상품가격의 10%배상",
]
# 주택임대차표준계약서 제7조: one 항 per party
ENDING = [
    "① 임차인은 본인의 과실 없이 임차주택의 일부가 멸실 기타 사유로 인하여 임대차의 목적대로 사용할 수 없는 경우에는 계약을 해지할 수 있다.",
    "② 임대인은 임차인이 2기의 차임액에 달하도록 연체하거나, 제4조 제1항을 위반한 경우 계약을 해지할 수 있다.",
]


@pytest.mark.parametrize(("question", "lines", "party"), [
    ("출발 3주 전에 제가 취소하면 얼마 물어내요?", CANCEL, {"여행자"}),  # first person: the user's side
    ("여행사가 출발 이틀 전에 여행을 취소하면 얼마 받아요?", CANCEL, {"당사", "여행업자", "회사"}),
    ("집주인이 계약을 해지할 수 있는 건 언제예요?", ENDING, {"임대인"}),  # everyday name
    ("제 잘못 없이 집이 못 쓰게 되면 해지할 수 있어요?", ENDING, {"임차인"}),
    ("저희가 수급사업자인데 도구 권리는 누구 거예요?", ["수급사업자는 원사업자에게"], {"수급사업자"}),
    # the subject nearest the main verb: the picture is mine, the selling is the company's
    ("제가 올린 그림을 회사가 다른 데 팔아도 돼요?", ["회원은 회사에"], {"회사", "사용자", "당사"}),
    ("계약을 해지하면 보증금은 언제 돌려받아요?", ENDING, set()),  # no party asked
])  # fmt: skip
def test_asked_party(question: str, lines: list[str], party: set[str]) -> None:
    assert asked_party(question, lines) == party


@pytest.mark.parametrize(("line", "subjects"), [
    (ENDING[1], {"임대인"}),  # the topic, not the 임차인 of its condition
    (CANCEL[0], {"당사", "여행자"}),  # joined to the topic
    (CANCEL[1], {"여행자"}),  # a 호 without a verb: the party named first with '의'
    ("① 은행이 예금원장이나 통장거래내용을 사실과 다르게 처리하였을 때에는", {"은행"}),
    ("이 약관은 2018년 1월 1일부터 시행한다.", set()),
])  # fmt: skip
def test_line_subjects(line: str, subjects: set[str]) -> None:
    assert line_subjects(line) == subjects


@pytest.mark.parametrize(("question", "marker"), [
    ("출발 3주 전에 제가 취소하면 얼마 물어내요?", "① 1."),
    ("여행사가 출발 3주 전에 취소하면 얼마 물어줘요?", "① 2."),
])  # fmt: skip
def test_the_asking_partys_item_is_quoted(question: str, marker: str) -> None:
    quote = operative("제15조(여행출발 전 계약해제)", CANCEL, ["해제", "배상"], ["취소"], question)
    assert (quote.marker, quote.fact) == (marker, "상품가격의 10%")


@pytest.mark.parametrize(("question", "marker"), [
    ("집주인이 계약을 해지할 수 있어요?", "②"),
    ("제가 계약을 해지할 수 있어요?", "①"),
])  # fmt: skip
def test_the_asking_partys_paragraph_is_quoted(question: str, marker: str) -> None:
    assert (
        operative("제7조(계약의 해지)", ENDING, ["해지"], ["계약", "해지"], question).marker
        == marker
    )
