"""The fact a question asks for and where a clause states it; what a question is about
(topic units), so a clause sharing only a generic word never answers it (issue 32)."""

from __future__ import annotations

import pytest

from agents.contract.answer import operative
from agents.contract.coverage import covers, topic_units
from agents.contract.facts import asked_kind, asked_numbers, find_fact, stated_numbers
from agents.contract.models import Article, Clause
from agents.contract.tokenize import tokens


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
    # '얼마 전에' asks how long before, a period, not an amount
    assert asked_quantity("약관 변경은 시행 얼마 전에 공지해요?") == "period"
    assert asked_kind("약관 변경은 시행 얼마 전에 공지해요?") == "period"
    # '얼마나' before a verb that moves a sum asks how much, not how long
    assert asked_kind("재계약할 때 월세를 얼마나 올릴 수 있어요?") == "amount"
    assert asked_kind("환불은 얼마나 걸려요?") == "period"
    assert states(["변경약관 시행일 1개월 전에 한달간 게시한다."], "period")
    # a bound asked about needs a clause that names an amount or a bound; a bare '그 금액을' or
    # '금액' in a list names none, '이체된 금액 이내' does
    assert asked_quantity("계좌 만들 때 최소 입금액이 있어요?") == "amount"
    assert asked_quantity("한 번에 주문할 수 있는 금액 한도가 있어요?") == "amount"
    assert asked_quantity("한 계정으로 기기 몇 대까지 로그인할 수 있어요?") == "count"
    assert asked_quantity("이상한 냄새 나는 물건은 따로 보관해요?") is None  # not 상한
    assert not states(
        ["은행은 그 금액을 예금원장에서 뺀다.", "주문내역, 금액, 수령 주소"], "amount"
    )
    assert states(["지급정지 금액은 금융사고로 인해 이체된 금액 이내로 한다."], "amount")
    assert states(["결제수단별 한도가 정책에 따라 조정될 수 있다."], "amount")
    capped = "그 손해배상액은 권리금 중 낮은 금액을 넘지 못한다."  # a bound stated as a relation
    assert states([capped], "amount")
    assert find_fact(capped, asked_kind("배상액의 한도는?")) == "낮은 금액을 넘지"
    assert not states(["은행은 온라인수수료나 추심수수료 등을 받을 수 있다."], "amount")
    assert all(states([line], "amount") for line in (
        "누설한 당사자는 위약금으로 금 일억원을 지급한다.", "계약금의 배액을 상환하고 해제할 수 있다.",
        "직전 3개월 동안 지급된 대가를 한도로 한다."))  # fmt: skip
    assert states(["공급받은 날부터 3월 이내에 청약철회를 할 수 있다."], "period")
    assert not states(["은행이 정한 이율로 셈한다."], "percent")
    assert states(["임차인이 3기의 차임액에 달하도록 차임을 연체하면 해지할 수 있다."], "count")


# 제11조 of the real deposit terms (tests/fixtures/contracts/deposit_terms.md): every 항 says
# 지급정지, so that word tells none apart; the 항 holding the question's rarer words answers
STOP_PAYMENT = [
    "① 은행은 금융사고로 인한 사고자금이 이체된 거래처의 계좌에 대하여 금융사고가 발생한 금융기관의 요청이 있는 경우 지체 없이 지급정지를 취한다.",
    "② 제1항의 지급정지 금액은 금융사고로 인해 이체된 금액 이내로 한다.",
    "③ 제1항의 지급정지기간은 지급정지한 날로부터 10영업일 이내로 한다. 다만, 지급정지를 요청한 금융기관이 서면으로 지급정지기간의 연장을 요청하는 경우 은행은 10영업일 이내에서 연장할 수 있다.",
    "⑥ 은행은 금융사고와 관련한 사항이 해소된 경우 지체 없이 지급정지를 해지하여야 한다.",
    "⑦ 은행은 거래처의 계좌에서 금융사고로 인한 사고자금이 다른 금융기관에 이체된 경우 사고발생을 인지한 날로부터 10일 이내에 그 다른 금융기관에 대하여 지급정지를 요청할 수 있다.",
]  # fmt: skip


@pytest.mark.parametrize(("question", "marker", "fact"), [
    ("지급정지되면 얼마까지 묶여요?", "②", "이체된 금액 이내"),  # an amount stated as a relation
    ("사기 자금이 다른 은행으로 넘어갔으면 은행은 언제까지 그 은행에 지급정지를 요청해요?", "⑦", "10일 이내"),
    ("사기 문제가 해결되면 지급정지는 풀리나요?", "⑥", None),  # everyday words: 해결 → 해소, 풀리 → 해지
])  # fmt: skip
def test_the_paragraph_with_the_rarer_question_words_answers(question: str, marker: str,
                                                              fact: str | None) -> None:  # fmt: skip
    from agents.contract.thesaurus import rewrite
    from agents.contract.tokenize import tokens

    terms = [t for c in rewrite(question).concepts for t in c.register]  # its concepts' words
    quote = operative(
        "제11조(금융사고자금 지급정지)", STOP_PAYMENT, terms, tokens(question), question
    )
    assert (quote.marker, quote.fact) == (marker, fact)


def test_the_answer_quotes_the_whole_paragraph_and_states_the_fact_first() -> None:
    """The fact may sit in a 항's '다만' sentence: the first line quotes the 항 whole, politely."""
    from agents.contract.answer import one_line
    from agents.contract.tokenize import tokens

    question = "지급정지 기간을 연장하면 최대 며칠 더 늘어나요?"
    quote = operative("제11조(금융사고자금 지급정지)", STOP_PAYMENT, [], tokens(question), question)
    line = one_line(quote, "ko")
    assert (
        line.startswith("**10영업일 이내")
        and "연장할 수 있습니다 (제11조 금융사고자금 지급정지 ③)." in line
    )
    assert "10영업일 이내로 합니다. 다만," in line


def test_an_exhibit_heading_names_the_block_under_it() -> None:
    """별지1 of the housing lease: '대항력' is only in the heading over its ① line."""
    from agents.contract.tokenize import tokens

    lines = ["【대항력 및 우선변제권 확보】",
             "① 임차인이 주택의 인도와 주민등록을 마친 때에는 그 다음날부터 제3자에게 임차권을 주장할 수 있다.",
             "【임대차 신고의무 및 확정일자 부여 의제】",
             "① 임대인과 임차인은 계약체결일로부터 30일 이내에 시군구청에 해당 계약을 신고하여야 합니다."]  # fmt: skip
    question = "전입신고하면 언제부터 대항력이 생겨요?"
    quote = operative("별지1", lines, [], tokens(question), question)
    assert quote.line.startswith("임차인이 주택의 인도와") and quote.fact == "그 다음날부터"


def test_party_particles_and_deadlines() -> None:
    assert (
        find_fact("인영(또는 서명)을 신고한 인감과 대조한다.", "party") is None
    )  # ')을' is a particle
    assert (
        find_fact("변경약관 시행일 전영업일까지 해지할 수 있다.", "period") == "시행일 전영업일까지"
    )
    assert find_fact("변동금리 예금은 바꾼 날로부터 바꾼 이율을 적용한다.", "when") is not None


def test_a_line_that_continues_a_paragraph_is_weighed_with_it_and_cited_by_it() -> None:
    """An unmarked line after ① (a '다만' sentence a reader split off) belongs to ①: ① with it
    answers, and the line is cited as ①; a table row stands on its own."""
    from agents.contract.answer import _continued, operative

    lines = ["① 은행은 인감을 대조하여 지급하였을 때에는 위조로 손해가 생겨도 책임을 지지 않는다.",
             "다만, 은행이 위조 사실을 알았거나 알 수 있었을 때는 그러하지 아니하다.",
             "② 은행이 책임질 수 없는 사유로 금융정보가 새어나가 손해가 생겨도 은행은 그 책임을 지지 않는다."]  # fmt: skip
    quote = operative("제18조(면책)", lines, [], ["도장", "위조", "은행", "알", "책임지"],
                      "도장이 위조된 걸 은행이 알면서 돈을 내줬으면 책임져요?")  # fmt: skip
    assert quote.citation == "제18조(면책) ①"
    assert "위조" in quote.line
    assert _continued(lines) == [[0, 1], [2]]
    assert _continued(["① 대금은 1억원으로 한다.", "선급금 | 착수 후 15일 | 30%"]) == [[0], [1]]


def test_a_definition_question_quotes_the_item_that_defines_the_term() -> None:
    from agents.contract.answer import operative

    lines = ["① 이 약관에서 사용하는 용어의 정의는 다음과 같습니다.",
             "1. “몰”은 회사가 이용자에게 재화를 제공하는 가상의 영업장을 말합니다.",
             "2. “이용자”라 함은 회사가 제공하는 서비스를 이용하는 자를 말합니다.",
             "3. “해외사업자”라 함은 대한민국 이외의 국가에 사업자 등록을 가진 사업자를 의미합니다."]  # fmt: skip
    ask = "여기서 이용자는 누구를 말해요?"
    assert (
        operative("제2조(정의)", lines, ["이용자"], ["이용자", "말"], ask).citation
        == "제2조(정의) ① 2."
    )
    ask = "해외사업자가 뭐예요?"
    assert (
        operative("제2조(정의)", lines, [], ["해외", "사업자"], ask).citation == "제2조(정의) ① 3."
    )


def test_where_is_asked_and_stated_as_a_body_or_a_place() -> None:
    from agents.contract.facts import asked_kind, find_fact

    assert asked_kind("휴면예금은 어디로 넘어가요?") == "place"
    assert asked_kind("수수료표는 어디서 볼 수 있어요?") == "place"  # not an amount: where
    assert asked_kind("어디까지 보상돼요?") != "place"  # how far, not where
    stated = '휴면예금은 「서민의 금융생활 지원에 관한 법률」에 따라 "서민금융진흥원"으로 출연될 수 있다.'
    assert find_fact(stated, "place") == "서민금융진흥원"
    assert find_fact("은행은 수수료표를 영업점에 놓아두거나 게시한다.", "place") == "영업점"
    assert find_fact("거래처가 신고한 연락처로 그 사실을 알린다.", "place") == "연락처"
    assert find_fact("은행은 이자를 셈하여 지급한다.", "place") is None


def test_the_place_is_where_a_thing_is_put_not_a_noun_of_a_list() -> None:
    """'어디서 볼 수 있어요?' is answered by where the clause puts it (a locative particle), not
    by a place noun that is one item of the list of what is shown ('전자우편주소,')."""
    shown = ("몰은 상호, 영업소 소재지 주소, 전화번호·전자우편주소, 사업자등록번호 등을 "
             "초기 서비스화면(전면)에 게시합니다.")  # fmt: skip
    assert find_fact(shown, "place", ["사업자등록번호"]) == "서비스화면(전면)"
    # with no place the sentence puts anything at, a place noun still answers
    assert find_fact("회사는 피해보상처리기구를 설치·운영합니다.", "place") == "피해보상처리기구"


def test_a_fraction_is_no_period_of_minutes() -> None:
    # '100분의 10' led an answer as '**100분**'
    assert find_fact("지연이자는 100분의 10을 곱한 금액으로 한다.", "period") is None
    assert find_fact("30분 이내에 연락한다.", "period") == "30분 이내"


def test_a_yes_no_on_a_power_is_answered_by_the_line_that_grants_or_denies_it() -> None:
    from agents.contract.answer import operative
    from agents.contract.facts import asked_kind, fact_rank, find_fact

    assert asked_kind("회사가 제 주문을 거절할 수도 있나요?") == "may"
    assert asked_kind("다른 사람한테 가게를 빌려줘도 돼요?") == "may"
    assert asked_kind("게임 안에서 도박하면 안 되죠?") == "may"
    assert asked_kind("수수료를 받을 수 있나요?") == "amount"  # a number asked comes first
    assert asked_kind("환불돼요?") is None
    # the predicate grants it; a modifier ('알 수 있는 곳') does not
    assert fact_rank("회사는 서비스 제공을 거절할 수 있습니다.", "may") > 0
    assert fact_rank("회사는 이용자가 쉽게 알 수 있는 곳에 표시합니다.", "may") == 0
    assert fact_rank("회사는 수리(A/S) 업무를 수행하지 않습니다.", "may") > 0
    assert find_fact("회사는 서비스 제공을 거절할 수 있습니다.", "may") is None  # quoted whole
    # deposit terms '약관이 불리하게 바뀌면 해지할 수 있나요?' quoted ② (the notice), not ③
    lines = ["② 약관변경의 내용이 거래처에 불리한 경우에는 변경약관 시행일 1개월 전에 알린다.",
             "③ 거래처는 제1항 및 제2항의 고지 후 변경약관 시행일 전영업일까지 서면에 의한 통지로 계약을 해지할 수 있다."]  # fmt: skip
    ask = "약관이 불리하게 바뀌면 해지할 수 있나요?"
    quote = operative("제22조(약관의 변경)", lines, [], ["약관", "불리", "해지"], ask)
    assert quote.citation == "제22조(약관의 변경) ③"
    # a 호 under a lead that grants the power is not outweighed by its lead
    lines = ["① 회원은 다음 각 호의 행위를 해서는 안 됩니다.", "1. 허위사실을 기재하는 행위",
             "6. 도박 등 사행행위를 하거나 유도하는 행위"]  # fmt: skip
    quote = operative(
        "제10조(회원의 의무)", lines, [], ["게임", "도박"], "게임 안에서 도박하면 안 되죠?"
    )
    assert quote.citation == "제10조(회원의 의무) ① 6."


def test_a_list_marker_or_a_word_is_no_quantity() -> None:
    from agents.contract.facts import states

    # '2. 회사가 …' (a 호's marker before 회사) and '사회통념' were counts; '1. 일부 …' a period;
    # '이 회원' led an answer as '**이 회**'
    assert find_fact("2. 회사가 제공하지 않는 서비스를 이용하는 행위", "count") is None
    assert find_fact("13. 그 밖에 사회통념에 반하는 행위", "count") is None
    assert find_fact("1. 일부 권한 제한 : 채팅 등 일정 권한을 제한", "period") is None
    assert not states(["2. 회사가 제공하지 않는 서비스", "3. 회원의 명칭"], "count")
    text = "“몰”이 회원 자격을 정지시킨 후, 동일한 행위가 2회 이상 반복되거나 이 회원이 …"
    assert find_fact(text, "count") == "2회 이상"
    assert find_fact("5번까지 입력할 수 있다.", "count") == "5번까지"
    assert find_fact("이자는 연 1.5%로 한다.", "amount") == "1.5%"


def test_the_fact_led_with_is_the_span_that_states_it() -> None:
    # '매월 5일까지 전월의 …' led with '5일까지 전'; '언제부터 시작' with '및 일정을 변경할 때'
    assert (
        find_fact("수급사업자는 매월 5일까지 전월의 진척 상황을 보고한다.", "period") == "5일까지"
    )
    assert find_fact("계속근로기간이 1년 이상인 근로자", "period") == "1년 이상"
    assert find_fact("여행개시 7일 전부터 통지한다.", "period") == "7일 전부터"
    stated = ("여행의 시작은 출발하는 시점부터 시작하며 최종목적지에 도착함과 동시에 종료합니다. "
              "다만, 계약 및 일정을 변경할 때에는 예외로 합니다.")  # fmt: skip
    assert find_fact(stated, "when", ["여행", "시작"]).endswith("출발하는 시점부터")
    assert (
        find_fact("다만, 계약 및 일정을 변경할 때에는 예외로 합니다.", "when") == "일정을 변경할 때"
    )


SCHEDULE = ("여행 개시 30일전(~30)까지 통보시 계약금환급, 여행 개시 20일전까지(29~20) 통보시 상품가격의 "
            "10%배상, 여행 개시 10일전까지(19~10) 통보시 상품가격의 15% 배상, 여행 개시 1일 전까지(7~1) "
            "통보시 상품가격의 30% 배상")  # fmt: skip


@pytest.mark.parametrize(("question", "fact"), [
    ("출발 15일 전에 취소하면 몇 퍼센트 물어내요?", "상품가격의 15%"),
    ("출발 2주 전에 취소하면 몇 퍼센트 물어내요?", "상품가격의 15%"),  # 14 days
    ("출발 5일 전에 취소하면 몇 퍼센트 물어내요?", "상품가격의 30%"),
    ("출발 25일 전에 취소하면 몇 퍼센트 물어내요?", "상품가격의 10%"),
])  # fmt: skip
def test_a_schedule_states_the_fact_of_the_range_holding_the_days_asked(question: str,
                                                                        fact: str) -> None:  # fmt: skip
    assert find_fact(SCHEDULE, "amount", tokens(question)) == fact


def test_a_rate_per_day_is_no_period() -> None:
    # '지체일수 1일당 0.5%' counts a charge per day late; the deadline is the other line's
    late = "화주가 기한 내에 요금을 지급하지 않으면 지체일수 1일당 0.5%에 해당하는 지체상금을 부과한다."
    assert find_fact(late, asked_kind("운송비는 언제까지 내야 해요?")) is None
    due = "화주는 청구 후 청구월 말일까지 이를 사업자에게 현금으로 지급하여야 한다."
    assert find_fact(due, asked_kind("운송비는 언제까지 내야 해요?")) == "청구월 말일까지"


def test_a_measure_asked_outright_needs_a_clause_stating_a_number() -> None:
    from agents.contract.facts import asked_quantity, states

    question = "한 번에 보낼 수 있는 짐 무게는 몇 킬로까지예요?"
    assert asked_quantity(question) == "measure"
    assert not states(["① 화물의 종류, 무게, 부피 등이 신고한 내용과 상이한 사고"], "measure")
    assert states(["1회 운송 화물의 무게는 20킬로그램 이하로 한다."], "measure")
    assert asked_quantity("하루에 몇 시간 쉬어요?") == "hours"  # hours keep their own kind


@pytest.mark.parametrize(("question", "numbers"), [
    ("4시간 일하면 쉬는 시간은 얼마나 줘요?", {4}),
    ("대금을 두 번 넘게 안 주면 직접 받을 수 있어요?", {2}),
    ("월세를 세 번 못 내면 쫓겨나요?", {3}),
    ("1년 다 채우면 휴가를 며칠 받아요?", set()),  # one is everywhere
    ("세입자가 나가면 어떻게 돼요?", set()),  # '세' of 세입자 is no numeral
])  # fmt: skip
def test_the_numbers_a_question_states(question: str, numbers: set[int]) -> None:
    assert asked_numbers(question) == numbers


def test_a_line_states_its_numbers_not_its_marker_or_citations() -> None:
    assert stated_numbers("3. 원사업자가 지급하여야 하는 하도급대금의 2회분 이상을") == {2}
    assert stated_numbers("⑥ 「민사집행법」 제248조 제1항 등의 공탁사유가") == set()


def test_the_line_stating_the_number_the_question_states_is_quoted() -> None:
    lines = ["② 근로자의 소정 근로시간은 1일 ( )시간, 1주 ( )시간으로 한다. 단, 1주 12시간의 범위 내에서 연장근로를 할 수 있다.",
             "③ 사용자는 근로자에게 4시간 근로에 30분, 8시간 근로에 1시간 이상의 휴게시간을 부여한다."]  # fmt: skip
    quote = operative("제6조(근로시간 및 휴게시간)", lines, [], ["시간", "쉬", "주"],
                      "4시간 일하면 쉬는 시간은 얼마나 줘요?")  # fmt: skip
    assert quote.marker == "③"


def test_a_cost_named_by_its_suffix_finds_the_line_that_says_the_cost() -> None:
    lines = ["① 수급사업자는 상용소프트웨어 또는 설비등의 노후 등으로 인해 수리 또는 교체 등이 필요한 경우에 지체 없이 이를 원사업자에게 통지한다.",
             "② 제1항에 따른 통지를 받은 원사업자는 지체 없이 수급사업자에게 수리 등을 지시한다.",
             "③ 상용소프트웨어 등의 수리 등에 소요되는 비용은 원사업자가 부담한다."]  # fmt: skip
    quote = operative("제12조(노후시설 등의 수리 등)", lines, ["비용", "수리"],
                      ["장비", "낡", "고치", "수리", "비", "내"],
                      "장비가 낡아서 고치면 수리비는 누가 내요?")  # fmt: skip
    assert quote.marker == "③"


def test_how_much_asked_of_a_span_of_time_is_a_period() -> None:
    """'얼마 안에' (within how long) and '기간은 … 얼마까지' ask a period: a clause stating '3월
    이내' or '2년 이내' answers, not only one stating a sum of money."""
    from agents.contract.facts import asked_quantity

    within = "받은 물건이 광고랑 다르면 받은 날부터 얼마 안에 물러야 해요?"
    assert asked_quantity(within) == "period" and asked_kind(within) == "period"
    assert asked_quantity("계약 기간은 최대 얼마까지 정할 수 있어요?") == "period"
    assert asked_quantity("수수료는 얼마예요?") == "amount"
    assert asked_kind("보증 기간은 얼마나 돼요?") == "period"
