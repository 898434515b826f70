"""Weighted topic coverage (agents/contract/coverage.py): a clause answers only when it covers
most of what the question is about — words most of the contract's clauses hold weigh little,
what is done weighs half, a condition's words ('고장나면') weigh nothing — so a question about a
clause the contract lacks is answered "no such clause" (issue 32)."""

from __future__ import annotations

import pytest

from agents.contract.answer import select
from agents.contract.coverage import (
    MIN_COVERAGE,
    adverbial,
    coverage,
    main_clause_start,
    missing_topic,
    title_share,
    title_weights,
    topic_units,
)
from agents.contract.index import Hit
from agents.contract.models import Article, Clause


def _article(no: int, title: str, text: str) -> Article:
    return Article(no, title, [Clause("text", None, text)])


NDA = [
    _article(2, "비밀정보의 범위", "비밀정보란 일방이 상대방에게 제공하는 정보로서 비밀임을 표시한 것을 말한다."),
    _article(3, "비밀정보의 예외", "이미 공개된 정보는 비밀정보로 보지 아니한다."),
    _article(4, "비밀유지의무", "정보를 받은 당사자는 비밀정보를 제3자에게 공개하지 아니한다."),
    _article(5, "접근 제한", "비밀정보에 접근하는 임직원을 10명 이내로 제한한다."),
    _article(6, "복제의 제한", "공동 검토에 필요한 범위에서만 비밀정보를 복제할 수 있다."),
    _article(9, "손해배상", "비밀정보를 누설한 당사자는 위약금으로 금 일억원을 지급한다."),
]  # fmt: skip
EMPLOYMENT = [
    _article(4, "소정근로시간", "사용자는 1시간 이상의 휴게시간을 근로시간 도중에 주어야 한다."),
    _article(8, "연차유급휴가", "사용자는 80퍼센트 이상 출근한 근로자에게 15일의 유급휴가를 준다."),
    _article(9, "임금", "임금은 매월 25일에 지급한다."),
]  # fmt: skip


EMPLOYMENT_MORE = [
    *EMPLOYMENT,
    _article(1, "근로계약기간", "근로계약기간은 2026년 1월 1일부터 정함이 없는 것으로 한다."),
    _article(2, "근무장소", "근로자는 서울특별시 중구에 있는 본사에서 근무한다."),
    _article(6, "휴식", "하루의 근무를 마친 때부터 다음 근무일까지 10시간 이상 쉰다."),
]  # fmt: skip


@pytest.mark.parametrize(("question", "main"), [
    ("보일러가 낡아서 고장나면 수리비는 누가 내?", "수리비는 누가 내?"),
    ("태풍 때문에 일정이 바뀌면 차액은 돌려받아요?", "차액은 돌려받아요?"),
    ("이사 들어가기 전에 고장난 곳은 누가 고쳐줘요?", "에 고장난 곳은 누가 고쳐줘요?"),
    ("해고하려면 며칠 전에 알려줘야 하나요?", "해고하려면 며칠 전에 알려줘야 하나요?"),  # purpose
    ("집주인이 갱신을 거절하고 다른 사람한테 세를 주면?", "집주인이 갱신을 거절하고 다른 사람한테 세를 주면?"),
    # '-어도 되다' asks leave: the verb before it is the main predicate, not a concession
    ("월세를 카드로 내도 돼요?", "월세를 카드로 내도 돼요?"),
    ("가게에 강아지를 데려와도 괜찮아요?", "가게에 강아지를 데려와도 괜찮아요?"),
    ("비가 와도 출발해요?", "출발해요?"),
])  # fmt: skip
def test_the_main_clause_follows_the_last_condition(question: str, main: str) -> None:
    assert question[main_clause_start(question) :].strip() == main.strip()


def test_predicates_and_conditions_are_marked() -> None:
    units = {u.word: u for u in topic_units("보일러가 고장나면 수리비는 누가 부담하나요?")}
    assert units["보일러가"].context and not units["수리비는"].context
    assert units["부담하나요"].predicate and not units["수리비는"].predicate


@pytest.mark.parametrize(("question", "articles", "no", "answers"), [
    # the NDA's subject word alone does not answer a question about costs
    ("비밀정보 관리 비용은 누가 부담하나요?", NDA, 3, False),
    ("비밀정보를 복제할 수 있나요?", NDA, 6, True),
    ("비밀정보를 볼 수 있는 임직원은 몇 명까지인가요?", NDA, 5, True),
    # a kind of leave the contract does not have is not the annual leave
    ("경조사 휴가는 며칠인가요?", EMPLOYMENT, 8, False),
    ("연차휴가는 며칠이에요?", EMPLOYMENT, 8, True),
    # a condition's words do not count against the clause ('지각하면' is circumstance)
    ("회사에 늦게 출근하면 월급날은 언제예요?", EMPLOYMENT, 9, True),
    # a compound Kiwi keeps whole ('근무지') is covered by a heading sharing its start
    # (근무장소), not by a generic start ('계약' of 계약금) nor by the body alone (근무일)
    ("근무지는 어디인가요?", EMPLOYMENT_MORE, 2, True),
    ("근무지는 어디인가요?", EMPLOYMENT_MORE, 6, False),
    ("계약금은 언제 지급하나요?", EMPLOYMENT_MORE, 1, False),
])  # fmt: skip
def test_a_clause_answers_when_it_covers_most_of_the_topic(question: str, articles: list[Article],
                                                          no: int, answers: bool) -> None:  # fmt: skip
    article = next(a for a in articles if a.article_no == no)
    assert (coverage(question, article, articles) >= MIN_COVERAGE) is answers


def test_select_answers_nothing_when_only_the_subject_word_is_shared() -> None:
    hits = [Hit(a, 1.0 - i / 10, {"bm25": i + 1, "dense": i + 1}, ["비밀", "정보"])
            for i, a in enumerate(NDA)]  # fmt: skip
    assert select("비밀정보 관리 비용은 누가 부담하나요?", hits, articles=NDA) == []
    kept = select("비밀정보를 복제할 수 있나요?", hits, articles=NDA)
    assert [h.article.article_no for h in kept][:1] == [6]


def test_a_compound_written_as_in_the_contract_is_covered_however_kiwi_splits_it() -> None:
    """Kiwi reads '이의신청은' as 이 + 의 + 신청 and the contract's '이의신청절차' otherwise: the
    question's word as written, up to its last noun, still finds the clause that writes it."""
    deposit = [
        _article(11, "금융사고자금 지급정지", "은행은 거래처에 지급정지 사실과 이의신청절차를 통지한다."),
        _article(6, "입금", "거래처는 현금이나 증권으로 입금할 수 있다."),
        _article(19, "수수료", "은행은 신청에 따라 수수료를 받을 수 있다."),
    ]  # fmt: skip
    units = topic_units("이의신청은 어떻게 해요?")
    assert [u.surface for u in units] == ["이의신청"]
    assert coverage("이의신청은 어떻게 해요?", deposit[0], deposit) == 1.0
    assert coverage("이의신청은 어떻게 해요?", deposit[2], deposit) < 1.0  # '신청' alone is not it


DEPOSIT = [
    _article(3, "거래장소", "거래처는 예금계좌를 개설한 영업점에서 모든 예금거래를 한다."),
    _article(6, "입금", "제3자가 다른 금융기관에서 거래처 계좌에 입금할 수 있다."),
    _article(8, "증권의 부도", "입금한 증권이 지급거절 되었을 때는 그 금액을 예금원장에서 뺀다."),
    _article(15, "사고·변경사항의 신고", "거래처는 통장을 분실했을 때는 곧 서면으로 신고하여야 한다."),
    _article(19, "수수료", "거래처 잘못으로 통장재발행을 요청하는 경우 수수료를 받을 수 있다."),
    _article(21, "예금의 비밀보장", "은행은 거래처의 거래내용에 대한 정보를 남에게 제공하지 않는다."),
]  # fmt: skip


@pytest.mark.parametrize(("question", "no", "answers"), [
    # a condition the contract has no word for is what the question is about
    ("해외로 이민 가면 계좌는 어떻게 돼요?", 6, False),
    # a condition with the contract's own words stays a circumstance
    ("입금한 수표가 부도나면 통장은 어떻게 돼요?", 15, True),
    ("제 실수로 통장을 잃어버리면 재발행 수수료를 내요?", 19, True),
])  # fmt: skip
def test_a_condition_foreign_to_the_contract_is_the_topic(question: str, no: int,
                                                         answers: bool) -> None:  # fmt: skip
    article = next(a for a in DEPOSIT if a.article_no == no)
    assert (coverage(question, article, DEPOSIT) >= MIN_COVERAGE) is answers


def test_a_foreign_condition_weighs_as_the_main_clause() -> None:
    """'리뷰 쓰면 포인트 줘요?': the contract has a 포인트 clause and no word for 리뷰, so the
    question is about points for a review, which that clause does not answer (with the condition
    at half weight it covered 0.55 and answered)."""
    articles = [*DEPOSIT, _article(20, "포인트", "거래처는 적립된 포인트로 수수료를 낼 수 있다.")]
    points = articles[-1]
    assert coverage("리뷰 쓰면 포인트 줘요?", points, articles) < MIN_COVERAGE
    assert coverage("포인트 줘요?", points, articles) == 1.0  # no condition: the clause answers


def test_a_condition_is_foreign_when_it_shares_only_the_contracts_subject() -> None:
    """'정보가 유출되면 며칠 안에 알려야 돼요?' of an NDA: most clauses hold 정보 (the contract's
    subject, which tells no condition apart) and none holds 유출, so the condition is what the
    question is about and the 15일 이내 notice clause does not answer it (fresh-25)."""
    notice = _article(7, "비밀의 표시", "구두로 비밀정보를 제공하면 즉시 상대방에게 고지하고, 15일 이내에 서면을 발송하여야 한다.")  # fmt: skip
    articles = [*NDA, notice]
    assert (
        coverage("정보가 유출되면 며칠 안에 상대방한테 알려야 돼요?", notice, articles)
        < MIN_COVERAGE
    )
    asked = (
        "구두로 알려준 비밀은 며칠 안에 서면으로 알려야 돼요?"  # its condition is the contract's
    )
    assert coverage(asked, notice, articles) >= MIN_COVERAGE


def test_a_title_named_by_a_side_word_has_a_small_share() -> None:
    """제15조(반품) is named by '반품' in both; the first question is about 광고와 다른 제품."""
    terms = [
        _article(13, "상품상이, 하자, 파손 등", "재화 등의 내용이 표시·광고 내용과 다르거나 계약내용과 다르게 이행된 때에는 3월 이내에 청약철회를 할 수 있다."),
        _article(15, "반품", "청약철회 등을 한 경우 반품 비용은 이용자가 부담한다."),
        _article(16, "교환과 수리", "교환은 불가능하나 반품 및 환불은 가능하다."),
        _article(9, "통관", "관·부가세 등은 이용자가 부담한다."),
    ]  # fmt: skip
    side_q, asked_q = (
        "받은 지 석 달 안인데 광고와 다른 제품이면 반품돼요?",
        "반품 비용은 누가 내요?",
    )
    side = title_share(side_q, ["반품"], title_weights(side_q, terms))
    asked = title_share(asked_q, ["반품"], title_weights(asked_q, terms))
    assert side < 0.5 <= asked


def test_a_weak_hit_covering_a_side_word_more_does_not_jump_the_best_one() -> None:
    """Both clauses are about 반품 비용; 제7조 also holds 통보 (for '알려줘요') but the retrievers
    found it far below 제15조: the order weighs coverage by the fused score, not coverage first."""
    terms = [
        _article(15, "반품", "청약철회 등의 경우 반품 비용을 누가 부담하는지를 이용자가 알기 쉽도록 명확하게 표시한다."),
        _article(7, "검수 및 재포장", "회사는 하자를 발견한 경우 이용자에게 이를 통보하고 반품에 드는 비용을 부담한다."),
        _article(9, "통관", "관·부가세 등은 이용자가 부담한다."),
        _article(5, "상품가의 구성", "판매 가격에는 운송료가 포함된다."),
        _article(3, "서비스의 제공", "회사는 수입 업무를 수행한다."),
    ]  # fmt: skip
    question = "배송비를 제가 냈으면 반품 때 비용을 누가 내는지 알려줘요?"
    assert coverage(question, terms[1], terms) > coverage(question, terms[0], terms) >= MIN_COVERAGE
    hits = [Hit(terms[0], 2.7, {"bm25": 1, "dense": 1}, ["반품", "비용"]),
            Hit(terms[1], 0.9, {"bm25": 2, "dense": 2}, ["반품", "비용", "통보"])]  # fmt: skip
    assert [h.article.article_no for h in select(question, hits, articles=terms)][:1] == [15]


def test_everyday_words_reach_the_register_words_the_contract_uses() -> None:
    """'한국 법' is 대한민국법, '이름으로' 명의, '값어치' 가치 (thesaurus 'everyday')."""
    terms = [
        _article(18, "관할법원 및 준거법", "소송의 준거법은 대한민국법으로 합니다."),
        _article(2, "정의", "회사가 재화를 이용자의 명의로 수입하여 판매하는 것을 말합니다."),
        _article(12, "청약철회 등의 제한", "사용에 의하여 재화의 가치가 현저히 감소한 경우 철회할 수 없습니다."),
        _article(9, "통관", "관·부가세 등은 이용자가 부담합니다."),
    ]  # fmt: skip
    for question, no in (("소송하면 한국 법이 적용돼요?", 18), ("누구 이름으로 수입돼요?", 2),
                         ("값어치가 떨어진 물건도 철회돼요?", 12)):  # fmt: skip
        article = next(a for a in terms if a.article_no == no)
        assert coverage(question, article, terms) >= MIN_COVERAGE, question


def test_the_bound_noun_su_and_a_cost_suffix_name_no_topic() -> None:
    """'거절할 수도 있나요' holds no noun 수도; '반품비' is about 반품 (its 비 is the fact's kind)."""
    assert [u.morphemes for u in topic_units("회사가 제 주문을 거절할 수도 있나요?")] == [
        ("주문",),
        ("거절",),
    ]
    assert [u.morphemes for u in topic_units("수도 요금은 누가 내요?")] == [("수도",)]
    terms = [
        _article(15, "반품", "반품에 드는 비용을 누가 부담하는지 이용자가 확인할 수 있게 표시한다."),
        _article(9, "통관", "관·부가세 등은 이용자가 부담한다."),
        _article(5, "상품가의 구성", "판매 가격에는 운송료가 포함된다."),
    ]  # fmt: skip
    assert coverage("반품비를 누가 내는지 어디서 확인해요?", terms[0], terms) >= MIN_COVERAGE


def test_a_question_asking_what_a_condition_leads_to_is_about_the_condition() -> None:
    from agents.contract.coverage import asks_outcome, topic_units

    # '어떻게 돼요?' names nothing: the condition's words are what the clause must cover
    assert asks_outcome("예금이 압류되면 어떻게 돼요?")
    assert all(u.context for u in topic_units("예금이 압류되면 어떻게 돼요?"))
    # a main clause with a topic of its own, or one asking leave, is not that question
    assert not asks_outcome("보일러가 고장나면 수리비는 누가 내?")
    assert not asks_outcome("비밀정보를 제3자에게 알려줘도 되나요?")


def test_an_outcome_question_is_judged_on_its_condition() -> None:
    from agents.contract.coverage import coverage

    clauses = [_article(1, "증권의 부도", "입금한 수표가 부도나면 은행은 예금원장에서 뺀다."),
               _article(2, "입금", "거래처는 현금으로 입금할 수 있다."),
               _article(3, "이자", "이자는 원을 단위로 셈한다.")]  # fmt: skip
    # nothing in the contract speaks of 압류: no clause covers the question (it was not judged)
    assert max(coverage("예금이 압류되면 어떻게 돼요?", a, clauses) for a in clauses) < 0.5
    assert coverage("수표가 부도나면 어떻게 돼요?", clauses[0], clauses) >= 0.5


TERMS = [
    _article(5, "서비스의 중단", "몰은 마일리지 또는 적립금 등을 현물 또는 현금으로 지급합니다."),
    _article(13, "재화 등의 공급", "몰은 청약을 한 날부터 7일 이내에 재화 등을 배송합니다."),
]


@pytest.mark.parametrize(
    ("question", "lacking"),
    [
        ("적립금 유효기간은 얼마예요?", "적립금 유효기간"),  # a run of nouns written side by side
        ("숙소 방 배정은 선착순이에요?", "선착순"),  # the copula is not part of the name
        ("소스코드 에스크로는 어떻게 되나요?", "소스코드 에스크로"),  # nor is a particle
        (
            "간판 다는 것도 허락을 받아야 해요?",
            "허락",
        ),  # words apart are not one name ("간판 허락")
        ("월세가 밀리면 다크모드 지원돼요?", "다크모드"),  # the main clause's, not the condition's
        ("적립금은 언제 줘요?", ""),  # every noun is in the contract: nothing is named lacking
        ("배송은 며칠 걸려요?", ""),
    ],
)
def test_missing_topic_names_what_no_clause_holds(question: str, lacking: str) -> None:
    assert missing_topic(question, TERMS) == lacking


def test_a_thing_asked_leave_for_is_the_topic() -> None:
    """'월세를 카드로 내도 돼요?' asks about paying by card: the rent clause, which shares only
    월세, does not answer it (it was read as a concession, its words weighing nothing)."""
    from agents.contract.coverage import coverage

    clauses = [_article(1, "보증금과 차임", "차임(월세)은 매월 말일에 입금계좌로 지급한다."),
               _article(4, "사용·수선", "임차인은 임대인의 동의 없이 구조를 변경할 수 없다."),
               _article(7, "계약의 해지", "임차인이 3기의 차임을 연체하면 해지할 수 있다.")]  # fmt: skip
    assert coverage("월세를 카드로 내도 돼요?", clauses[0], clauses) < 0.5
    assert coverage("월세를 계좌로 내도 돼요?", clauses[0], clauses) >= 0.5


def test_words_are_read_in_the_whole_question() -> None:
    """Kiwi reads '이자는' alone as 이/MM 자/NNB: the topic 이자 was lost, and '월세가 밀리면 연체
    이자는 몇 퍼센트예요?' was answered by the termination clause that says 연체 only."""
    from agents.contract.coverage import coverage

    units = [u.morphemes for u in topic_units("월세가 밀리면 연체 이자는 몇 퍼센트예요?")]
    assert ("이자",) in units and ("연체",) in units
    clauses = [_article(7, "계약의 해지", "임차인이 3기의 차임을 연체하면 해지할 수 있다."),
               _article(1, "차임", "차임은 매월 말일에 지급한다."),
               _article(4, "사용", "임차인은 동의 없이 구조를 변경할 수 없다.")]  # fmt: skip
    assert coverage("월세가 밀리면 연체 이자는 몇 퍼센트예요?", clauses[0], clauses) < 0.5


def test_an_everyday_phrase_covers_the_words_it_holds() -> None:
    """'어느 나라 법' is an everyday phrase for 준거법 (thesaurus 'everyday'): its word 나라, which
    no clause writes, is covered by the governing-law clause (the phrase reached retrieval but
    never the cover test, which reads the question word by word)."""
    from agents.contract.coverage import coverage

    clauses = [_article(24, "재판권 및 준거법", "소송에는 대한민국법을 준거법으로 적용합니다."),
               _article(23, "분쟁해결", "분쟁조정기관의 조정에 따를 수 있습니다."),
               _article(5, "서비스의 중단", "서비스를 일시적으로 중단할 수 있습니다.")]  # fmt: skip
    question = "소송하면 어느 나라 법을 따라요?"
    assert [u.phrased for u in topic_units(question) if u.word == "나라"] == [("준거법",)]
    assert coverage(question, clauses[0], clauses) >= 0.5
    assert coverage("소송하면 나라마다 달라요?", clauses[0], clauses) < 0.5  # no phrase, no cover


FREIGHT = [
    _article(10, "인도 기간", "사업자는 계약된 기간 내에 화물을 받는 사람에게 인도하여야 한다."),
    _article(16, "사고증명서 발행", "사업자는 화주의 요청이 있으면 사고증명서를 발행하여야 한다."),
    _article(20, "화물 운임", "운임은 청구월 말일까지 현금으로 지불한다."),
]  # fmt: skip


def test_an_everyday_word_is_covered_by_its_meaning_group() -> None:
    """'배달' is the freight terms' 인도, '서류' their 증명서 (thesaurus.json 'meanings'): the
    clause that says so answers, where it used to be 'no such clause'."""
    question = "배달은 언제까지 해 줘야 돼요?"
    assert coverage(question, FREIGHT[0], FREIGHT) >= MIN_COVERAGE
    question = "사고 났다는 서류를 떼 달라고 할 수 있어요?"
    assert coverage(question, FREIGHT[1], FREIGHT) >= MIN_COVERAGE
    # a topic no group reaches stays uncovered
    assert coverage("포인트는 언제 쌓여요?", FREIGHT[2], FREIGHT) < MIN_COVERAGE


def test_a_meaning_group_word_is_a_morpheme_of_the_clause_not_a_run_of_letters() -> None:
    """'장비' (노트북's group) is not in '사업장 비용' although the squashed text holds it: an
    absent question about a laptop stays absent (fresh-23, '회사에서 노트북을 지급해 줘요?')."""
    wages = _article(9, "임금", "출장 시 사업장 비용은 사용자가 정한 바에 따른다.")
    assert coverage("회사에서 노트북을 지급해 줘요?", wages, [wages, *EMPLOYMENT]) < MIN_COVERAGE


def test_a_party_named_in_everyday_words_is_no_topic() -> None:
    # '원청' is how a subcontractor says 원사업자: who the question is about, not what
    assert [u.word for u in topic_units("원청이 돈을 계속 안 주면 일을 멈춰도 돼요?")] == ["멈추"]
    assert [u.word for u in topic_units("집주인이 보증금을 안 돌려주면요?")] == [
        "보증금을",
        "돌려주",
    ]


def test_a_bare_noun_read_as_an_adverb_is_no_topic() -> None:
    """'원래 알고 있던', '하루 종일 돌아가요', '도장 대신 서명으로': a noun Kiwi's dictionary also
    reads as an adverb, written bare, says how or when (fresh-25 '원래' asked of an NDA that
    never writes it); a noun with no adverb reading, or one with a particle, stays a topic."""
    words = lambda q: [u.word for u in topic_units(q)]  # noqa: E731
    assert "원래" not in words("원래 알고 있던 정보도 비밀로 지켜야 돼요?")
    assert "종일" not in words("게임 서비스는 하루 종일 돌아가요?")
    assert "대신" not in words("도장 대신 서명으로 거래해도 되나요?")
    assert "전체가" in words("계약서 조항 하나가 무효면 계약 전체가 무효예요?")
    assert "정보도" in words("원래 알고 있던 정보도 비밀로 지켜야 돼요?")
    assert adverbial("원래") and adverbial("혼자") and not adverbial("보증금")


def test_a_price_adjustment_is_no_dispute() -> None:
    """조정 is both mediation (分爭 調停) and a price adjustment (代金 調整); contracts write the
    first as 분쟁조정 or beside 분쟁, the second everywhere ('대금을 조정한다'). As a 'dispute'
    term it let the adjustment clause of a subcontract answer '어느 법원에서 재판해요?'."""
    clauses = [_article(3, "계약기간 및 대금의 조정", "원사업자는 협의하여 계약기간 및 대금을 조정한다."),
               _article(4, "변경된 내용이 무효인 경우", "수급사업자는 변경전 계약내용에 따라 이행한다."),
               _article(23, "분쟁해결", "분쟁조정기관의 조정에 따를 수 있습니다.")]  # fmt: skip
    question = "분쟁이 생기면 어느 법원에서 재판해요?"
    assert coverage(question, clauses[0], clauses) < MIN_COVERAGE
    assert coverage(question, clauses[2], clauses) >= MIN_COVERAGE  # mediation is still one
