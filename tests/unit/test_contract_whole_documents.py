"""Whole published documents: annexed agreements restarting at 제1조 are parts, '<신설>' headings
are articles, branch articles carry their label, PDF lines are joined and spaced, and the
contract embedder needs no scikit-learn (issue 32). Files are the ones written here
(tests/fixtures/contracts/made_here), built as real HWPX / HWP / PDF files."""

from __future__ import annotations

import numpy as np
import pytest

from agents.contract.errors import ContractFileError
from agents.contract.ingest.parse import parse_contract_text
from agents.contract.ingest.pdf_text import normalise_lines
from agents.contract.ingest.readers import read_contract_file
from agents.contract.lsa import CharLsaEmbedder
from agents.contract.models import article_key, split_key, split_part
from tests.fixtures.contracts.files import contract_file

ANNEXED = """소프트웨어 하도급 계약서
제1조(목적) 목적을 정한다.
제2조(대금) 대금은 30일 이내에 지급한다.
<신설 2025. 1. 1.>제2조의2(연동) ① 원재료 가격이 오르면 조정한다. <신설>
제3조(기타) 끝이다.
[별첨 1]
비밀유지계약서
갑과 을은 다음과 같이 비밀유지계약을 체결한다.
제1조(목적) 비밀을 지킨다.
제2조(비밀유지기간) 비밀유지 의무는 3년간 존속한다.
"""


def test_an_annex_restarting_at_article_1_is_a_part_with_its_title() -> None:
    parsed = parse_contract_text(ANNEXED)
    assert parsed.title == "소프트웨어 하도급 계약서"  # the document's, not the last annex's
    labels = [a.label for a in parsed.articles]
    assert labels == ["제1조(목적)", "제2조(대금)", "제2조의2(연동)", "제3조(기타)",
                      "[별첨 1 비밀유지계약서] 전문", "[별첨 1 비밀유지계약서] 제1조(목적)",
                      "[별첨 1 비밀유지계약서] 제2조(비밀유지기간)"]  # fmt: skip
    keys = [a.key for a in parsed.articles]
    assert len(set(keys)) == len(keys)
    branch = parsed.articles[2]
    assert (branch.branch_label, branch.content) == ("2의2", ["① 원재료 가격이 오르면 조정한다."])
    assert parsed.articles[3].content == ["끝이다."]  # the annex heading left the main body


def test_keys_split_back_into_part_article_and_branch() -> None:
    key = article_key(16, 2, part=3)
    assert split_part(key) == (3, 16002) and split_key(key) == (16, 2)
    assert split_part(article_key(-1, 0, part=2)) == (2, -1)


def test_a_repeated_article_in_a_short_body_is_still_refused() -> None:
    with pytest.raises(ContractFileError, match="같은 번호의 조항"):
        parse_contract_text("제1조(목적) 가.\n제2조(정의) 나.\n제2조(정의) 다.")


@pytest.mark.parametrize("fmt", ["hwpx", "hwp"])
def test_a_hangul_file_with_annexes_reads_whole(fmt: str) -> None:
    text, _ = read_contract_file(f"a.{fmt}", contract_file("software_subcontract", fmt))
    parsed = parse_contract_text(text)
    main = [a for a in parsed.articles if a.part == 0 and a.article_no > 0]
    assert len(main) == 31 and "16의2" in [a.branch_label for a in main]
    assert {a.part_title for a in parsed.articles if a.part} == {
        "별첨 1 비밀유지계약서", "별첨 2 변경 합의서", "별첨 3 연동 계약", "개인정보 수집·이용 동의서"}  # fmt: skip
    if fmt == "hwpx":  # the table inside 제4조 keeps its cells apart
        fourth = next(a for a in main if a.article_no == 4)
        assert "선급금 | 착수 후 15일 | 30%" in fourth.content


def test_a_pdf_with_wrapped_lines_reads_as_sentences() -> None:
    text, _ = read_contract_file("a.pdf", contract_file("employment", "pdf"))
    parsed = parse_contract_text(text)
    assert [a.article_no for a in parsed.articles if a.article_no > 0] == list(range(1, 16))
    sixth = next(a for a in parsed.articles if a.article_no == 6)
    assert (
        sixth.content[1]
        == "② 사용자는 근로자에게 근무일 간 휴식으로 연속하여 10시간 이상을 보장하여야 한다."
    )


@pytest.mark.parametrize("fmt", ["pdf", "hwpx", "docx"])
def test_headings_without_brackets_are_articles(fmt: str) -> None:
    """A bank's published deposit terms head articles '제 1 조 적용범위' (no brackets): every one
    of its 26 articles is found, in every format (before: none was, and the whole text was one
    preamble), and a clause that starts with a reference ('제15조에 따라 …') stays text."""
    text, _ = read_contract_file(f"a.{fmt}", contract_file("deposit_terms", fmt))
    articles = [a for a in parse_contract_text(text).articles if a.article_no > 0]
    labels = [a.branch_label for a in articles]
    assert labels == ["1", "2", "3", "4", "5", "6", "7", "8", "9", "9의2"] + [
        str(n) for n in range(10, 26)]  # fmt: skip
    by_label = {a.branch_label: a for a in articles}
    assert by_label["5"].label == "제5조(인감, 비밀번호 등의 신고)"
    assert by_label["16"].content == ["제15조에 따라 통장·도장·카드에 대한 사고신고가 있을 때에는 "
                                      "은행은 신고인이 거래처 본인임을 확인하는 등 필요한 조치를 "
                                      "마친 뒤에 재발급하거나 지급한다."]  # fmt: skip
    wrapped = "제1조 목적 이 약관은 은행과\n거래처 사이에 적용한다.\n제3조 갑은 을에게 지급한다."
    with pytest.raises(ContractFileError):  # a wrapped sentence is not a heading
        parse_contract_text(wrapped)
    bracketed = (
        "제1조(목적) 목적을 정한다.\n제2조(대금) 대금을 정한다.\n제2조 대금 지급\n제3조(기타) 끝."
    )
    assert [a.article_no for a in parse_contract_text(bracketed).articles] == [1, 2, 3]


def test_a_pdf_with_more_than_255_glyphs_reads_right() -> None:
    # fpdf2 embeds its two-byte encoding as a CMap stream; pypdf read codes ≥ 0x100 as two
    # one-byte codes ('증감' came out '증국내' in the travel terms as a PDF)
    text, _ = read_contract_file("t.pdf", contract_file("travel_domestic", "pdf"))
    assert "5% 이상 증감하거나 여행 요금에 적용된 외화환율이" in text
    assert "국내하" not in text and "환국여" not in text


def test_pdf_lines_are_joined_and_spaced() -> None:
    lines = normalise_lines(["제 4조(계약기간) 계약기간은 1년으로 한", "다 .", "- 2 -", "① 산출물의 지식재",
                             "산권은 을에게 있다.", "② 편 집권은 갑에게 있다.", "편집권과 지식재산권은 다르다."])  # fmt: skip
    assert lines == ["제4조(계약기간) 계약기간은 1년으로 한다.", "① 산출물의 지식재산권은 을에게 있다.",
                     "② 편집권은 갑에게 있다.", "편집권과 지식재산권은 다르다."]  # fmt: skip
    # a proviso or rider after a full stop is the same 항's second sentence, not a new paragraph
    lines = normalise_lines(["① 은행은 그 책임을 지지 않는다.", "다만, 은행이 알았을 때는",
                             "그러하지 아니하다.", "② 회사는 지급한다.", "이 경우 통지한다."])  # fmt: skip
    assert lines == ["① 은행은 그 책임을 지지 않는다. 다만, 은행이 알았을 때는 그러하지 아니하다.",
                     "② 회사는 지급한다. 이 경우 통지한다."]  # fmt: skip


def test_the_contract_embedder_is_tfidf_cosine_at_full_rank() -> None:
    texts = [
        "하자보수 기간은 1년으로 한다.",
        "대금은 60일 이내에 지급한다.",
        "비밀유지 의무는 3년간 존속한다.",
    ]
    embedder = CharLsaEmbedder()
    embedder.fit(texts)
    vectors = embedder.embed(texts)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    query = embedder.embed(["하자보수 기간"])[0]
    assert int(np.argmax(vectors @ query)) == 0
