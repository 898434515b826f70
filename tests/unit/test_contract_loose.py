"""The "no such clause" verdict rests on evidence that the contract lacks the topic, not on every
everyday word of the question being in a clause (issue 32): when no clause covers the question but
BM25 and the dense ranking agree on one, and what it misses is only how the question says it (a
verb, an adjunct such as '친구한테'), that clause answers and the answer says which words it read
loosely; a topic word the clause lacks ('경조사'), a condition in words foreign to the contract
('리뷰 쓰면') or retrievers that disagree keep the verdict "no such clause"."""

from __future__ import annotations

from agents.contract.answer import select
from agents.contract.coverage import covers, read_loosely, topic_units
from agents.contract.index import Hit
from agents.contract.ingest.parse import parse_contract_text
from agents.contract.models import Article, Clause
from agents.contract.synthesis import Evidence, FoundClause, offline_answer


def _article(no: int, title: str, text: str) -> Article:
    return Article(no, title, [Clause("text", None, text)])


MEMBERS = [
    _article(6, "회원가입", "이용자는 가입신청을 하고 회사는 이를 승낙한다."),
    _article(19, "회원의 ID 및 비밀번호에 대한 의무", "회원은 자신의 아이디 및 비밀번호를 제3자에게 이용하게 해서는 안된다."),
    _article(11, "지급방법", "이용자는 포인트 또는 카드로 대금을 지급할 수 있다."),
]  # fmt: skip
EMPLOYMENT = [
    _article(8, "연차유급휴가", "사용자는 80퍼센트 이상 출근한 근로자에게 15일의 유급휴가를 준다."),
    _article(9, "임금", "임금은 매월 25일에 지급한다."),
    _article(13, "해고의 예고", "사용자가 근로자를 해고하려면 적어도 30일 전에 예고하여야 한다."),
]  # fmt: skip


def _hits(articles: list[Article], first: Article, dense_rank: int = 1) -> list[Hit]:
    rest = [a for a in articles if a is not first]
    return [Hit(first, 1.0, {"bm25": 1, "dense": dense_rank}, ["아이디", "이용"])] + [
        Hit(a, 0.4 - i / 10, {"bm25": i + 2, "dense": i + 2}, ["이용"]) for i, a in enumerate(rest)
    ]


def test_an_adjunct_the_clause_lacks_is_read_loosely() -> None:
    question = "아이디를 친구한테 빌려줘도 돼요?"
    kept = select(question, _hits(MEMBERS, MEMBERS[1]), articles=MEMBERS)
    assert [h.article.article_no for h in kept] == [19]
    assert kept[0].loose == ["친구"]


def test_retrievers_that_disagree_keep_no_such_clause() -> None:
    question = "아이디를 친구한테 빌려줘도 돼요?"
    assert select(question, _hits(MEMBERS, MEMBERS[1], dense_rank=2), articles=MEMBERS) == []


def test_a_topic_word_the_clause_lacks_is_no_loose_reading() -> None:
    # 경조사 is what the question is about: the annual-leave clause does not answer it
    assert read_loosely("경조사 휴가는 며칠인가요?", EMPLOYMENT[0], EMPLOYMENT) == []
    hits = [Hit(EMPLOYMENT[0], 1.0, {"bm25": 1, "dense": 1}, ["휴가"])]
    assert select("경조사 휴가는 며칠인가요?", hits, articles=EMPLOYMENT) == []


def test_a_condition_foreign_to_the_contract_is_no_loose_reading() -> None:
    assert read_loosely("리뷰 쓰면 포인트 줘요?", MEMBERS[2], MEMBERS) == []


def test_a_verb_the_contract_lacks_is_read_loosely_when_the_asked_number_is_stated() -> None:
    question = "회사가 저를 내보내려면 최소 며칠 전에는 말해 줘야 해요?"
    hits = [Hit(EMPLOYMENT[2], 1.0, {"bm25": 1, "dense": 1}, ["전"]),
            Hit(EMPLOYMENT[1], 0.3, {"bm25": 2, "dense": 2}, [])]  # fmt: skip
    kept = select(question, hits, articles=EMPLOYMENT)
    assert [h.article.article_no for h in kept] == [13]
    assert kept[0].loose == ["내보내다"]


def test_the_answer_says_which_words_it_read_loosely() -> None:
    clause = FoundClause("c", 13, "제13조(해고의 예고)", "해고의 예고",
                         ["사용자가 근로자를 해고하려면 적어도 30일 전에 예고하여야 한다."],
                         "hybrid_search", loose=["내보내다"])  # fmt: skip
    text = offline_answer(Evidence(clauses=[clause]), "ko", "search",
                          "회사가 저를 내보내려면 최소 며칠 전에는 말해 줘야 해요?")  # fmt: skip
    lines = text.splitlines()
    assert "30일 전" in lines[0]
    assert lines[1] == ""
    assert lines[2] == ("(이 계약서에는 '내보내다'라는 말을 쓰지 않아, 가장 가까운 "
                        "제13조(해고의 예고)의 내용으로 읽었습니다.)")  # fmt: skip


def test_a_cost_word_kiwi_keeps_whole_is_covered_by_its_stem() -> None:
    fare = _article(
        20, "화물 운임", "화주는 화물운송요금을 현금으로 지급하여야 한다. 운송 요금은 표준요금이다."
    )
    unit = next(u for u in topic_units("운송비는 언제까지 내야 해요?") if "운송" in u.word)
    assert covers(unit, fare)


def test_chapter_headings_are_no_text_of_the_article_before() -> None:
    parsed = parse_contract_text("제1조(목적) 이 약관은 운송을 정한다.\n제 2 장 화물의 수탁과 인도\n"
                                 "제2조(화물의 수탁) 화주는 운송장을 교부하여야 한다.")  # fmt: skip
    assert [a.label for a in parsed.articles] == ["제1조(목적)", "제2조(화물의 수탁)"]
    assert all("장" not in c.text[:5] for a in parsed.articles for c in a.clauses)
