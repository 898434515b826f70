"""An agreement numbered by paragraphs ('1.' … '5.', no 제N조) is read paragraph by paragraph and
cited '제3항' (paragraphs.py); a document with any 제N조 is still read by its 조, and a list inside
prose or numbering that jumps or restarts is not taken for paragraphs (the document is refused)."""

from __future__ import annotations

import pytest

from agents.contract.errors import ContractFileError
from agents.contract.ingest.parse import parse_contract_text
from agents.contract.ingest.readers import read_contract_file
from agents.contract.models import Article, article_ref
from tests.fixtures.contracts.files import contract_file


def _labels(text: str) -> list[str]:
    return [a.label for a in parse_contract_text(text).articles]


@pytest.mark.parametrize("fmt", ["hwp", "hwpx", "docx"])
def test_the_direct_payment_agreement_is_read_by_its_paragraphs(fmt: str) -> None:
    text, _ = read_contract_file(f"합의서.{fmt}", contract_file("ftc_direct_payment", fmt))
    articles = parse_contract_text(text).articles
    assert [a.label for a in articles] == ["제1항", "제2항(하도급대금 직접지급 방법과 절차)",
                                           "제3항", "제4항", "제5항"]  # fmt: skip
    assert {a.numbering for a in articles} == {"number"}
    assert [a.key for a in articles] == [1, 2, 3, 4, 5]
    assert [a.branch_label for a in articles] == ["1항", "2항", "3항", "4항", "5항"]
    second = articles[1]
    # the heading line is its title, the sentence its first line
    assert second.content[0].startswith("수급사업자가 하도급계약에 따라")
    assert articles[3].clauses[0].kind == "text"  # the paragraph's marker is its number, not a 호
    assert articles[3].content[0].startswith("발주자는 수급사업자의 채권자의")


def test_a_pdf_of_it_keeps_every_paragraph() -> None:
    """A PDF joins the heading of paragraph 2 to its sentence: the paragraph is untitled."""
    text, _ = read_contract_file("합의서.pdf", contract_file("ftc_direct_payment", "pdf"))
    articles = [a for a in parse_contract_text(text).articles if a.article_no > 0]
    assert [a.label for a in articles] == ["제1항", "제2항", "제3항", "제4항", "제5항"]


def test_circled_and_lettered_paragraphs_and_a_preamble() -> None:
    circled = (
        "확약서\n갑과 을은 다음과 같이 확약한다.\n① 을은 기밀을 지킨다.\n② 갑은 대금을 지급한다."
    )
    parsed = parse_contract_text(circled)
    assert [a.label for a in parsed.articles] == ["전문", "제1항", "제2항"]
    assert parsed.articles[0].content == ["갑과 을은 다음과 같이 확약한다."]
    lettered = "각서\n가. 을은 기한을 지킨다.\n나. 을은 손해를 배상한다.\n다. 분쟁은 협의로 정한다."
    assert _labels(lettered) == ["가항", "나항", "다항"]
    assert article_ref(3, numbering="letter") == "다항" and article_ref(3) == "제3조"


def test_items_under_a_paragraph_stay_its_lines() -> None:
    text = ("합의서\n1. 을은 다음 각 호의 자료를 제출한다.\n가) 사업자등록증\n나) 통장 사본\n"
            "2. 갑은 자료를 받은 날부터 7일 이내에 대금을 지급한다.")  # fmt: skip
    first, second = parse_contract_text(text).articles
    assert first.label == "제1항" and len(first.clauses) == 3 and second.label == "제2항"


def test_a_document_with_any_article_is_read_by_its_articles() -> None:
    mixed = ("용역 계약서\n1. 총칙\n제1조(목적) 이 계약은 용역의 조건을 정한다.\n"
             "제2조(대금) 갑은 다음과 같이 지급한다.\n1. 선급금은 30%로 한다.\n"
             "2. 잔금은 검수 후 지급한다.\n제3조(기간) 기간은 1년으로 한다.")  # fmt: skip
    articles = parse_contract_text(mixed).articles
    assert [a.label for a in articles] == ["전문", "제1조(목적)", "제2조(대금)", "제3조(기간)"]
    assert {a.numbering for a in articles} == {"article"}
    assert [c.kind for c in articles[2].clauses] == ["text", "호", "호"]


HOSTILE = {
    "a list inside prose": (
        "방문 안내\n계약 체결을 위해 사무실을 방문하실 때에는 미리 연락해 주시기 바랍니다.\n"
        "상담은 평일 오전 9시부터 오후 6시까지 가능합니다.\n준비물은 다음과 같습니다:\n"
        "1. 신분증을 가져옵니다.\n2. 도장을 가져옵니다.\n이상의 서류를 지참하여 방문하시기 바랍니다."
    ),
    "list items that state nothing": "견적 내역\n1. 설계비 100만원\n2. 시공비 900만원\n3. 부가세 별도",
    "numbering that jumps": "합의서\n1. 갑은 대금을 지급한다.\n2. 을은 납품한다.\n4. 분쟁은 협의한다.",
    "numbering that restarts": (
        "메모\n1. 갑은 대금을 지급한다.\n2. 을은 납품한다.\n1. 회의는 매주 한다.\n2. 기록은 남긴다."
    ),
    "a long text before the list": "\n".join(
        ["회의록"]
        + [f"{i}번째 안건을 논의하였다." for i in range(10)]
        + ["1. 다음 회의는 월요일에 한다.", "2. 자료는 미리 공유한다."]
    ),
    "a single numbered line": "통지서\n1. 귀사의 계약을 해지합니다.",
    "decimals and dates": "정산서\n1.5배를 적용한다.\n2025. 12. 21. 작성한다.",
}


@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_numbering_is_not_read_as_paragraphs(text: str) -> None:
    with pytest.raises(ContractFileError, match="번호 붙은 문단"):
        parse_contract_text(text)


def test_an_untitled_paragraph_is_not_named_twice() -> None:
    assert Article(3, "제3항", numbering="number").label == "제3항"
    assert Article(3, "제3조").label == "제3조(제3조)"  # 제N조 labels unchanged (stored answers)
    assert Article(2, "기간", numbering="number", part=1, part_title="합의서").label == (
        "[합의서] 제2항(기간)"
    )
