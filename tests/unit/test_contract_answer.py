"""Precise answers and the pieces under them, without a database: the relevance cut, the operative
sentence, the one-line answer, the legal thesaurus and contract-type detection."""

from __future__ import annotations

import pytest

from agents.contract.answer import Quote, emphasize, is_filler, one_line, operative, polite, select
from agents.contract.index import Hit
from agents.contract.models import Article
from agents.contract.thesaurus import clause_concepts, rewrite
from agents.contract.types import detect, standard_type


def _hit(no: int, title: str, score: float, ranks: dict[str, int], matched: list[str]) -> Hit:
    return Hit(Article(no, title), score, ranks, matched)


def test_cut_keeps_the_best_and_its_tier_only() -> None:
    best = _hit(7, "계약의 해지", 0.0492, {"bm25": 1, "dense": 1, "title": 1}, ["해지", "차임"])
    tier = _hit(8, "계약의 종료", 0.0480, {"bm25": 2, "dense": 2, "title": 2}, ["해지", "반환"])
    weaker = _hit(5, "계약의 해제", 0.0470, {"bm25": 3, "dense": 3}, ["해지", "해제"])
    few_words = _hit(4, "사용·관리·수선", 0.0475, {"bm25": 2, "dense": 4, "title": 3}, ["차임"])
    assert [h.article.article_no for h in select("해지", [best, tier, weaker, few_words])] == [7, 8]


def test_cut_drops_filler_and_unsupported_hits() -> None:
    purpose = _hit(1, "목적", 0.05, {"bm25": 1, "dense": 1}, ["계약"])
    preamble = _hit(0, "전문", 0.04, {"bm25": 2}, ["계약"])
    dense_only = _hit(9, "기타", 0.03, {"dense": 1}, [])
    assert select("주차는 몇 대까지 돼?", [purpose, preamble, dense_only]) == []
    assert select("이 계약의 목적은?", [purpose])[0].article.article_no == 1  # asked for
    assert is_filler(Article(2, "용어의 정의"), "보증금은?")
    assert not is_filler(Article(2, "용어의 정의"), "'기획여행'의 정의는?")


def test_operative_line_and_sentence() -> None:
    lines = ["① 당사자는 이 계약을 위반하여 상대방에게 손해를 입힌 경우 그 손해를 배상하여야 한다.",
             "② 갑의 손해배상 책임은 어떠한 경우에도 직전 3개월 동안 지급된 대가를 한도로 한다."]  # fmt: skip
    quote = operative("제10조(손해배상)", lines, ["손해", "배상", "한도"], asked=["손해", "한도"])
    assert quote.marker == "②" and quote.sentence.startswith("갑의 손해배상 책임은")
    assert quote.citation == "제10조(손해배상) ②"
    assert operative("제1조(목적)", [], ["x"]).sentence == ""


@pytest.mark.parametrize(
    ("plain", "formal"),
    [("계약을 해지할 수 있다.", "계약을 해지할 수 있습니다."),
     ("지체 없이 반환하여야 한다.", "지체 없이 반환하여야 합니다."),
     ("원상복구의무에 포함되지 아니한다.", "원상복구의무에 포함되지 아니합니다."),
     ("민법에 따른다.", "민법에 따릅니다."), ("이미 존댓말입니다.", "이미 존댓말입니다."),
     ("알 수 있었을 때는 그러하지 아니하다.", "알 수 있었을 때는 그러하지 아니합니다."),
     ("용어의 뜻은 다음과 같다.", "용어의 뜻은 다음과 같습니다."),
     # a verb's '-ㄴ다' ended the first sentence in 한다체 ('… 승인한 것으로 본다')
     ("이를 승인한 것으로 본다.", "이를 승인한 것으로 봅니다."), ("이자를 준다.", "이자를 줍니다."),
     ("효력이 생긴다", "효력이 생깁니다"), ("주소로 보낸다.", "주소로 보냅니다."),
     ("계약은 성립된다.", "계약은 성립됩니다."), ("잔금을 받는다.", "잔금을 받습니다."),
     ("기간은 1년간", "기간은 1년간")],
)  # fmt: skip
def test_polite_endings(plain: str, formal: str) -> None:
    assert polite(plain) == formal


def test_one_line_answers_cite_the_clause() -> None:
    quote = Quote("제7조(계약의 해지)", "②", "임대인은 계약을 해지할 수 있다.", ["해지"])
    assert one_line(quote, "ko") == "임대인은 계약을 해지할 수 있습니다 (제7조 계약의 해지 ②)."
    assert one_line(quote, "en").startswith("제7조(계약의 해지) ② says: “임대인은")
    assert (
        emphasize("지연이자를 지급한다", ["지연", "이자", "지급"]) == "**지연이자**를 **지급**한다"
    )


def test_thesaurus_bridges_everyday_korean_and_english() -> None:
    assert "refund" in rewrite("돈은 언제 돌려받나요?").concept_ids
    assert {"compensation", "delay"} <= set(
        rewrite("Who pays damages for late delivery?").concept_ids
    )
    assert "@compensation" in clause_concepts(["손해", "배상"])
    assert "termination" not in rewrite("a determinate amount").concept_ids


def test_contract_types_are_detected_and_mapped_to_standards() -> None:
    lease = detect("주택임대차표준계약서", ["보증금과 차임 및 관리비", "임대차기간", "임차인은 …"])
    assert (lease.id, standard_type(lease.id)) == ("lease", None)
    data = detect("데이터 제공 계약서", ["데이터의 제공", "대상 데이터", "파생 데이터"])
    assert (data.id, standard_type(data.id)) == ("provide", "provide")
    assert detect("메모", ["안녕하세요"]).id == "other"


def test_an_exhibit_of_notes_is_nudged_below_the_articles() -> None:
    """별지1 of the housing lease restates the law for the reader; a 별지 of terms (대가) is
    not notes, and a question naming an exhibit is not nudged."""
    from agents.contract.index import FUSION_WEIGHTS, notes

    articles = {8: Article(8, "갱신요구와 거절"),
                -1: Article(-1, "법의 보호를 받기 위한 중요사항! 반드시 확인하세요"),
                -2: Article(-2, "대가")}  # fmt: skip
    assert notes("계약 연장은 언제까지 요구해요?", articles) == {-1: 1.0}
    assert notes("별지1에는 뭐가 있어요?", articles) == {}
    assert FUSION_WEIGHTS["notes"] < 0


def test_item_lines_are_no_markdown_list_that_swallows_the_next_paragraph() -> None:
    from agents.contract.diffview import clause_lines

    text = clause_lines(
        ["② 다음 각 호의 방법으로 알린다.", "6. 초기화면에 게시", "③ 거래처는 해지할 수 있다."]
    )
    assert (
        text
        == "② 다음 각 호의 방법으로 알린다.  \n6\\. 초기화면에 게시  \n③ 거래처는 해지할 수 있다."
    )


def test_an_item_is_quoted_with_the_line_it_completes() -> None:
    lines = ["① 회사는 이용 요청이 다음 각 호의 어느 하나에 해당하는 경우 서비스 제공을 거절할 수 있다.",
             "1. 이용자가 불법 또는 부당한 목적을 위해 서비스를 이용하는 경우",
             "2. 이용자가 청구한 대금을 지급하지 않은 경우",
             "② 전항에 따라 거절하는 경우 회사는 그 사유를 통지하여야 한다."]  # fmt: skip
    question = "불법적인 목적으로 구매를 맡기면 어떻게 돼요?"
    quote = operative("제4조(서비스이용 제한)", lines, [], ["불법", "목적"], question)
    assert quote.marker == "① 1." and quote.lead_citation == "제4조(서비스이용 제한) ①"
    answer = one_line(quote, "ko")
    # what follows from the item ('거절할 수 있습니다') is said with it; alone, '1. 이용자가 불법 …
    # 경우' answered nothing
    assert answer.startswith("회사는 이용 요청이 다음 각 호의 어느 하나에 해당하는 경우 서비스 "
                             "제공을 거절할 수 있습니다: 1. 이용자가 불법")  # fmt: skip
    assert answer.endswith("(제4조 서비스이용 제한 ① 1.).")
    # a 목 completes its 호, a 항 completes nothing
    items = ["2. 기일 내 통지를 하지 아니하고 해제하는 경우 다음 금액을 배상한다.",
             "가. 여행개시 1일전까지 통지시 : 상품가격의 30%"]  # fmt: skip
    assert operative("제9조", items, [], ["1일전"], "전날 통지하면?").lead.startswith("기일 내")
    assert operative("제4조", lines, [], ["통지"], "사유를 알려줘요?").lead == ""


def _clause_hit(no: int, title: str, text: str, score: float, matched: list[str]) -> Hit:
    from agents.contract.models import Clause

    ranks = {"bm25": 1, "dense": 1}
    return Hit(Article(no, title, [Clause("text", None, text)]), score, ranks, matched)


def test_a_number_asked_outright_is_answered_by_the_runner_up_that_states_it() -> None:
    """'반품하면 환불은 며칠 안에 돼요?': the best clause (교환) states no period; the runner-up,
    covering the question as fully, states '3영업일 이내' and answers. With no clause stating
    one, there is no answer; a third one is too far down to stand in."""
    exchange = _clause_hit(16, "교환과 수리", "반품 대신 교환을 요청하면 환불 없이 교환한다.", 2.2,
                           ["반품", "환불", "교환"])  # fmt: skip
    refund = _clause_hit(14, "청약철회의 효과", "반품을 받으면 3영업일 이내에 환불한다.", 1.4,
                         ["반품", "환불"])  # fmt: skip
    other = _clause_hit(10, "긴급조치", "반품 물품은 7일 이내에 환불 여부를 알린다.", 1.3,
                        ["반품", "환불"])  # fmt: skip
    question = "반품하면 환불은 며칠 안에 돼요?"
    assert [h.article.article_no for h in select(question, [exchange, refund])] == [14]
    assert select(question, [exchange]) == []
    assert select(question, [exchange, _clause_hit(3, "x", "반품 환불은 없다.", 1.4, ["반품", "환불"]),
                             other]) == []  # fmt: skip


def test_a_period_asked_in_years_is_quoted_from_the_line_counting_years() -> None:
    lines = ["① 임차인이 임대차기간이 만료되기 6개월 전부터 1개월 전까지 사이에 계약갱신을 요구할 "
             "경우 임대인은 정당한 사유 없이 거절하지 못합니다.",
             "② 임차인의 계약갱신요구권은 최초의 임대차기간을 포함한 전체 임대차기간이 10년을 "
             "초과하지 아니하는 범위에서만 행사할 수 있습니다.",
             "③ 갱신되는 임대차는 전 임대차와 동일한 조건으로 다시 계약된 것으로 봅니다. 다만, 차임과 "
             "보증금은 청구 당시의 차임 또는 보증금의 100분의 5의 금액을 초과하지 아니하는 범위에서 "
             "증액할 수 있습니다."]  # fmt: skip
    terms = ["갱신", "기간", "년", "만료", "요구"]
    quote = operative("별지1", lines, terms, asked=["갱신", "요구", "최대", "년"],
                      question="갱신 요구는 최대 몇 년까지 할 수 있어요?")  # fmt: skip
    assert quote.marker == "②" and quote.fact == "10년"


def test_a_tie_goes_to_the_line_of_the_main_clause() -> None:
    """'서버 점검으로 사이트가 멈춰서 손해를 보면 물어줘요?': ① (점검, 중단) and ② (손해, 배상,
    중단) weigh the same; the question asks whether it is compensated, which ② says."""
    lines = ["① “몰”은 정보통신설비의 보수점검·교체 및 고장, 통신의 두절 등의 사유가 발생한 경우에는 "
             "서비스의 제공을 일시적으로 중단할 수 있습니다.",
             "② “몰”은 제1항의 사유로 서비스의 제공이 일시적으로 중단됨으로 인하여 이용자 또는 제3자가 "
             "입은 손해에 대하여 배상합니다."]  # fmt: skip
    question = "서버 점검으로 사이트가 멈춰서 손해를 보면 물어줘요?"
    terms = ["두절", "배상", "보상", "손해", "점검", "중단"]
    asked = ["서버", "점검", "사이트", "멈추", "손해", "보", "물"]
    assert operative("제5조(서비스의 중단)", lines, terms, asked, question).marker == "②"


def test_a_covering_clause_far_below_the_first_one_does_not_answer() -> None:
    """'전기 용량을 늘리는 공사는 누가 해요?' (a lease has no such clause): 제9조(재건축), first,
    covers 공사 only; 제4조(수선) covers 전기·용량 by nothing, 공사 by nothing — a clause that
    passes the cover test far below the first one shares a side word, not the topic."""
    first = _clause_hit(9, "재건축 등 계획과 갱신거절", "철거 또는 재건축 공사 계획을 고지한다.", 2.2,
                        ["공사"])  # fmt: skip
    far = _clause_hit(4, "사용·관리·수선", "임차인은 전기 공사 용량 등 수선비용의 상환을 청구한다.",
                      0.8, ["수선", "전기", "공사", "용량"])  # fmt: skip
    near = _clause_hit(4, "사용·관리·수선", "임차인은 전기 공사 용량 등 수선비용의 상환을 청구한다.",
                       1.6, ["수선", "전기", "공사", "용량"])  # fmt: skip
    question = "전기 용량을 늘리는 공사는 누가 해요?"
    assert select(question, [first, far]) == []
    assert [h.article.article_no for h in select(question, [first, near])] == [4]


def test_a_said_absent_miss_knows_whether_the_right_clause_was_listed_as_related() -> None:
    from agents.contract.answer_eval import AnswerCheck, AnswerQuestion

    question = AnswerQuestion("ecommerce_terms", "소송하면 어느 나라 법을 따라요?", "한국법",
                              "제24조(재판권 및 준거법)", False, "fresh-11", "②")  # fmt: skip
    shown = AnswerCheck(question, False, False, True, "", related=("제24조(재판권 및 준거법)",))
    hidden = AnswerCheck(question, False, False, True, "", related=("제23조(분쟁해결)",))
    assert shown.miss == hidden.miss == "said absent"
    assert shown.right_related and not hidden.right_related


def test_a_refused_document_is_reported_and_its_questions_miss() -> None:
    """A document the reader refuses (numbered paragraphs, no 제N조: the FTC 직접지급합의서) does
    not stop the answer bench: it is named, and its questions count as misses."""
    from agents.contract.answer_eval import AnswerQuestion, check, ingest, refused_answer

    text = "1. 발주자가 수급사업자에게 직접 지급합니다.\n2. 발주자는 즉시 통보합니다.\n"
    refused = ingest({"numbered": "txt"}, lambda name, fmt: text.encode())
    assert list(refused) == ["numbered"] and "제N조" in refused["numbered"]
    present = AnswerQuestion("numbered", "언제 알려줘요?", "즉시", "2.", False, "fresh-28", "")
    absent = AnswerQuestion("numbered", "관할법원은?", None, None, True, "fresh-28")
    assert check(present, refused_answer(refused["numbered"])).miss == "said absent"
    assert check(absent, refused_answer(refused["numbered"])).miss == "answered absent"


def test_the_item_under_a_lead_that_adds_a_word_of_the_question_is_quoted_with_its_lead() -> None:
    from agents.contract.tokenize import tokens

    lines = ["① 여행계약서의 여행요금에는 다음 각 호가 포함됩니다.", "1. 항공기, 선박, 철도 등 운임",
             "2. 숙박요금 및 식사요금", "3. 안내자경비"]  # fmt: skip
    ask = "가이드 비용도 여행비에 포함돼 있어요?"  # 가이드 → 안내 (everyday word)
    quote = operative("제11조(여행요금)", lines, [], tokens(ask), ask)
    assert quote.citation == "제11조(여행요금) ① 3." and quote.lead.startswith("여행계약서의")
    ask = "여행요금에 뭐가 포함돼요?"  # no item adds a word: the lead answers
    assert (
        operative("제11조(여행요금)", lines, [], tokens(ask), ask).citation == "제11조(여행요금) ①"
    )


def test_topics_one_line_states_together_are_answered_once_from_it() -> None:
    from agents.contract.synthesis import Evidence, FoundClause, offline_answer

    content = ["① 임차인은 계약이 종료된 경우 공과금과 관리비를 정산하여야 한다.",
               "② 임차인은 이미 납부한 관리비 중 장기수선충당금을 소유자에게 반환 청구할 수 있다."]  # fmt: skip
    clause = FoundClause("c", 10, "제10조(비용의 정산)", "비용의 정산", content, "hybrid_search")
    question = "나갈 때 관리비랑 공과금 정산은 누가 해요?"
    together = Evidence(
        [clause], topics={"나갈 때 관리비": [clause], "공과금 정산은 누가 해": [clause]}
    )
    first = offline_answer(together, "ko", "search", question).splitlines()[0]
    assert first.startswith("**임차인** — 임차인은 계약이 종료된 경우 공과금과 관리비를 정산")
    apart = Evidence([clause], topics={"관리비": [clause], "보험료": [clause]})  # not in one line
    assert offline_answer(apart, "ko", "search", "관리비랑 보험료는?").startswith("관리비: ")


def test_the_clause_line_that_says_the_question_word_in_the_contract_words() -> None:
    """'멈춰 달라고' is ①'s 중지 (a meaning group, thesaurus.json 'meanings'); without it the
    line with more of the question's other words (②: 청구, 받는 사람) was quoted."""
    from agents.contract.tokenize import tokens

    lines = ["① 화주는 사업자에게 운송의 중지를 청구할 수 있다.",
             "② 사업자는 보낸 청구를 받은 경우에는 이에 응하여야 한다."]  # fmt: skip
    question = "제가 보낸 짐을 가는 도중에 멈춰 달라고 할 수 있어요?"
    quote = operative("제13조(화물 반환 청구 등)", lines, [], tokens(question), question)
    assert quote.marker == "①"


def test_topics_asked_apart_open_with_what_the_contract_says() -> None:
    from agents.contract.synthesis import Evidence, FoundClause, offline_answer

    content = ["① 사업자는 법령에 따라 수급인에게 건강보험 가입을 지원한다."]
    clause = FoundClause(
        "c", 8, "제8조(사회보험의 가입 등)", "사회보험의 가입 등", content, "hybrid_search"
    )
    evidence = Evidence([clause], topics={"국민연금": [], "건강보험": [clause]})
    lines = offline_answer(
        evidence, "ko", "search", "국민연금이나 건강보험은 제가 들어야 돼요?"
    ).splitlines()
    assert lines[0].startswith("건강보험: ") and lines[1].startswith("국민연금: ")


def test_a_clause_is_cited_without_nested_brackets() -> None:
    """The first line closes on a clause as one plain parenthesis ('(별첨 1 비밀유지계약서 제5조
    비밀유지기간 ②)', '(제7조 계약의 해지 ②)'), not '([별첨 1 …] 제5조(비밀유지기간) ②)'."""
    quote = Quote("[별첨 1 비밀유지계약서] 제5조(비밀유지기간)", "②", "의무는 3년간 존속한다.", [],
                  "3년간")  # fmt: skip
    assert one_line(quote, "ko") == (
        "**3년간** — 의무는 3년간 존속합니다 (별첨 1 비밀유지계약서 제5조 비밀유지기간 ②)."
    )
    branch = Quote("[별첨 2 변경 합의서] 제3조의2", "", "효력이 있다.", [])
    assert one_line(branch, "ko") == "효력이 있습니다 (별첨 2 변경 합의서 제3조의2)."
    main = Quote("제7조(계약의 해지)", "②", "해지할 수 있다.", [])
    assert one_line(main, "ko") == "해지할 수 있습니다 (제7조 계약의 해지 ②)."
