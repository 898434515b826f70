"""The offline contract planner: which tools a question leads to (seed 002 examples)."""

from __future__ import annotations

from agents.contract.diffview import diff_segments, highlight_segments
from agents.contract.planner import PlanContext, plan

CONTEXT = PlanContext("provide", {5: "데이터의 제공", 10: "손해배상"})


def _calls(question: str) -> list[tuple[str, dict[str, object]]]:
    return [(c.name, c.arguments) for c in plan(question, CONTEXT).calls]


def test_seed_chained_example() -> None:
    assert _calls("제5조와 손해배상 조항을 비교해줘") == [
        ("article_index", {"article_numbers": [5], "exhibit_numbers": []}),
        ("article_title", {"title_queries": ["손해배상"]}),
    ]
    assert plan("제5조와 손해배상 조항을 비교해줘", CONTEXT).intent == "compare"
    assert plan("제5조와 제10조는 어떻게 달라요?", CONTEXT).intent == "compare"
    # 'X와 다른' describing a thing is no comparison: the question is a search
    assert plan("받은 지 석 달 안인데 광고와 다른 제품이면 반품돼요?", CONTEXT).intent == "search"


def test_numbers_exhibits_and_english_references() -> None:
    assert _calls("2조랑 별지 1 보여줘")[0][1] == {"article_numbers": [2], "exhibit_numbers": [1]}
    assert _calls("Show me Article 10 and Exhibit 2")[0][1] == {
        "article_numbers": [10], "exhibit_numbers": [2]}  # fmt: skip
    assert _calls("What does the damages clause say?") == [
        ("article_title", {"title_queries": ["손해배상"]})]  # fmt: skip
    assert [name for name, _ in _calls("매출 3조원 이상이면?")] == ["hybrid_search"]


def test_standard_questions_use_the_named_article_titles() -> None:
    calls = _calls("제10조를 표준계약서와 비교해줘")
    assert calls[1] == ("standard_contract", {"contract_type": "provide", "queries": ["손해배상"]})
    assert plan("제10조를 표준계약서와 비교해줘", CONTEXT).intent == "standard"


def test_free_text_becomes_glossary_topics() -> None:
    name, args = _calls("Can we resell the data?")[0]
    assert name == "hybrid_search"
    assert args["topics"][0]["topic_name"] == "제3자 제공 금지"  # type: ignore[index]
    assert plan("Can we resell the data?", CONTEXT).language == "en"


def test_diff_and_highlight_segments() -> None:
    ours, theirs = diff_segments(
        "책임은 3개월 대가를 한도로 한다.", "책임은 대가의 총액을 한도로 한다."
    )
    assert ("3개월 대가를 ", True) in ours and any(
        t.startswith("대가의 총액") and c for t, c in theirs
    )
    assert highlight_segments("손해를 배상한다", ["배상"]) == [
        ("손해를 ", False),
        ("배상한다", True),
    ]
    # the whole word with its particle: a highlight ending inside a word left a gap ('의무 는')
    assert highlight_segments("비밀유지 의무는 3년간 존속한다.", ["의무", "비밀"]) == [
        ("비밀유지", True), (" ", False), ("의무는", True), (" 3년간 존속한다.", False)]  # fmt: skip


def test_things_asked_about_together_are_one_topic() -> None:
    from agents.contract.planner import split_topics

    assert split_topics("도장이랑 서명을 둘 다 등록할 수 있어요?") == [
        "도장이랑 서명을 둘 다 등록할 수 있어요?"
    ]
    assert split_topics("광고 사진이랑 색이 달라요. 환불돼요?") == [
        "광고 사진이랑 색이 달라요. 환불돼요?"
    ]


def test_joined_nouns_are_searched_with_the_predicate_they_share() -> None:
    from agents.contract.planner import search_topics

    # '카드' alone found the clause on lost cards; '카드로만 거래해도' asks what the question asks
    assert [t["queries"][0] for t in search_topics("통장 없이 카드나 전화로만 거래해도 되나요?")] == [
        "통장 없이 카드로만 거래해도 되나요?", "전화로만 거래해도 되나요?"]  # fmt: skip
    assert search_topics("관세랑 부가세는 누가 내요?")[0]["topic_name"] == "관세"
    assert search_topics("관세랑 부가세는 누가 내요?")[0]["queries"][0] == "관세는 누가 내요?"  # type: ignore[index]
    # English pieces are searched as written
    assert [t["queries"][0] for t in search_topics("When does the trip start and end?")] == [
        "When does the trip start", "end?"]  # fmt: skip
