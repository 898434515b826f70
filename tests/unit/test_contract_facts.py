"""The fact a question asks for and where a clause states it; what a question is about
(topic units), so a clause sharing only a generic word never answers it (issue 32)."""

from __future__ import annotations

import pytest

from agents.contract.answer import operative
from agents.contract.coverage import covers, topic_units
from agents.contract.facts import asked_kind, find_fact
from agents.contract.models import Article, Clause


@pytest.mark.parametrize(("question", "sentence", "fact"), [
    ("휴게시간은 몇 시간 이상 줘야 하나요?",
     "사용자는 근로시간이 8시간인 경우 1시간 이상의 휴게시간을 근로시간 도중에 주어야 한다.", "1시간 이상"),
    ("지체상금 상한이 있나요?", "지체상금의 총액은 하도급대금의 100분의 10을 넘지 못한다.", "하도급대금의 100분의 10"),
    ("월세는 언제 내나요?", "차임은 매월 10일에 지급한다.", "매월 10일"),
    ("산출물 저작권은 누구에게 귀속되나요?", "산출물에 대한 지식재산권은 을에게 귀속된다.", "을"),
    # a day relative to another is a day; a deadline is its whole date, not its day
    ("월급날이 휴일이면 언제 주나요?", "지급일이 휴일이면 그 전날 지급한다.", "그 전날"),
    ("납품 기한은 언제인가요?", "을은 산출물을 2026년 12월 15일까지 갑에게 납품한다.", "2026년 12월 15일까지"),
])  # fmt: skip
def test_the_asked_fact_is_found_near_the_question_words(question: str, sentence: str,
                                                          fact: str) -> None:  # fmt: skip
    assert find_fact(sentence, asked_kind(question), ["휴게", "지체", "차임", "귀속"]) == fact


def test_the_line_stating_the_fact_is_quoted_whole_not_the_definition() -> None:
    lines = ["① 이 조에서 \"근무일 간 휴식\"이란 하루의 근무를 마친 때부터 다음 근무를 시작할 때까지의 시간을 말한다.",
             "② 사용자는 근로자에게 근무일 간 휴식으로 연속하여 10시간 이상을 보장하여야 한다."]  # fmt: skip
    quote = operative("제6조(근무일 간 휴식)", lines, ["휴식"], ["근무", "휴식", "시간"],
                      "근무 끝나고 다음 근무까지 몇 시간 쉬어야 하나요?")  # fmt: skip
    assert (quote.marker, quote.fact) == ("②", "10시간 이상")
    assert quote.sentence == lines[1][2:]


def test_a_compound_topic_is_not_covered_by_half_of_it() -> None:
    units = topic_units("하자보수 기간은?")
    assert [u.morphemes for u in units] == [("하자", "보수")]
    fee = Article(5, "보수", [Clause("text", None, "보수는 계약기간 중 매월 지급한다.")])
    repair = Article(9, "하자보수", [Clause("text", None, "하자보수 기간은 1년으로 한다.")])
    assert not covers(units[0], fee) and covers(units[0], repair)


def test_generic_words_alone_are_no_topic() -> None:
    assert topic_units("계약기간은 언제까지예요?") == [] or all(
        "기간" not in u.morphemes for u in topic_units("계약기간은 언제까지예요?")
    )


def test_the_sentence_with_the_asked_condition_is_quoted() -> None:
    line = "② 임금은 매월 25일에 지급한다. 지급일이 휴일이면 그 전날 지급한다."
    quote = operative("제9조(임금)", [line], ["임금"], ["월급날", "휴일", "지급"],
                      "월급날이 휴일이면 언제 지급되나요?")  # fmt: skip
    assert (quote.fact, quote.sentence) == ("그 전날", "지급일이 휴일이면 그 전날 지급한다.")


def test_a_number_asked_outright_needs_a_clause_that_states_one() -> None:
    """'몇 퍼센트예요?', '얼마예요?', '며칠', '몇 번' ask for a number: a clause on the topic that
    states none is no answer (answer.select keeps nothing, so the reply says so). An amount may be
    a relation or Korean numerals; a yes/no question about a fee asks no number."""
    from agents.contract.facts import asked_quantity, states

    assert asked_quantity("예금 금리는 몇 퍼센트예요?") == "percent"
    assert asked_quantity("비밀번호를 몇 번 틀리면 잠겨요?") == "count"
    assert asked_quantity("수수료는 얼마예요?") == "amount"
    assert asked_quantity("배송은 며칠 걸려요?") == "period"
    assert asked_quantity("통장 재발행도 수수료를 받아요?") is None
    assert asked_quantity("얼마나 걸려요?") is None
    assert not states(["은행은 온라인수수료나 추심수수료 등을 받을 수 있다."], "amount")
    assert all(states([line], "amount") for line in (
        "누설한 당사자는 위약금으로 금 일억원을 지급한다.", "계약금의 배액을 상환하고 해제할 수 있다.",
        "직전 3개월 동안 지급된 대가를 한도로 한다."))  # fmt: skip
    assert states(["공급받은 날부터 3월 이내에 청약철회를 할 수 있다."], "period")
    assert not states(["은행이 정한 이율로 셈한다."], "percent")
    assert states(["임차인이 3기의 차임액에 달하도록 차임을 연체하면 해지할 수 있다."], "count")
