"""Contract ingestion without a database: file readers refuse bad files with clear Korean
messages, and the parser numbers 조/항/호/별지 as the seed does (별지N → -N)."""

from __future__ import annotations

import io

import pytest

from agents.contract.errors import ContractFileError
from agents.contract.ingest.parse import parse_contract_text
from agents.contract.ingest.pipeline import samples
from agents.contract.ingest.readers import MAX_FILE_BYTES, read_contract_file

SAMPLE = """# 테스트 계약서

**제1조(목적)** 이 계약은 시험을 위한 것이다.

제2조(정의) 용어의 뜻은 다음과 같다.
1. "데이터"란 별지1의 것을 말한다.
2. "이용자"란 을을 말한다.

## 제3조(대가)
① 을은 대가를 지급한다.
② 지급은 30일 이내에 한다.
가. 현금
나. 계좌이체

제12조의2(추가 조항) 부칙 성격의 조항이다.

[별지1] 데이터 목록
1. 소비 데이터

별지 제2호 대가표
1. 월 100원
"""


def test_articles_paragraphs_items_and_exhibits_are_numbered() -> None:
    parsed = parse_contract_text(SAMPLE)
    assert parsed.title == "테스트 계약서"
    numbers = [a.article_no for a in parsed.articles]
    assert numbers == [1, 2, 3, 12, -1, -2]
    by_no = {a.article_no: a for a in parsed.articles}
    assert by_no[1].title == "목적" and by_no[1].content == ["이 계약은 시험을 위한 것이다."]
    assert [(c.kind, c.number) for c in by_no[2].clauses] == [("text", None), ("호", 1), ("호", 2)]
    assert [(c.kind, c.number) for c in by_no[3].clauses] == [
        ("항", 1), ("항", 2), ("호", 1), ("호", 2)]  # fmt: skip
    assert by_no[3].content[0] == "① 을은 대가를 지급한다."  # the marker stays in the text
    assert by_no[-1].title == "별지1 데이터 목록" and by_no[-1].label == "별지1 데이터 목록"
    assert by_no[-2].title == "별지2 대가표"
    assert by_no[3].label == "제3조(대가)"


def test_reference_inside_a_clause_does_not_start_an_article() -> None:
    parsed = parse_contract_text(
        "제1조(목적) 목적이다.\n제9조를 위반하면 배상한다.\n제2조(기타) 끝."
    )
    assert [a.article_no for a in parsed.articles] == [1, 2]
    assert parsed.articles[0].content[1] == "제9조를 위반하면 배상한다."


def test_bundled_samples_parse() -> None:
    for sample in samples():
        parsed = parse_contract_text(sample.path.read_text(encoding="utf-8"))
        assert any(a.article_no == 10 for a in parsed.articles), sample.file
        assert any(a.article_no < 0 for a in parsed.articles), sample.file


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("a.txt", b"", "빈 파일"),
        ("a.md", b"   \n\n  ", "글자를 찾지 못했습니다"),
        ("a.doc", b"x", "지원하지 않는 파일 형식"),
        ("a.hwp", b"x", "HWP 파일이 아니거나 손상"),
        ("a.hwpx", b"PK\x03\x04 broken zip", "HWPX 파일을 읽을 수 없습니다"),
        ("a.txt", b"\x00\x01binary", "텍스트 파일이 아닙니다"),
        ("a.pdf", b"not a pdf at all", "PDF 파일이 아니거나 손상"),
        ("a.pdf", b"%PDF-1.7\n garbage garbage", "PDF"),
        ("a.docx", b"PK\x03\x04 broken zip", "DOCX 파일을 읽을 수 없습니다"),
        ("a.docx", b"\xd0\xcf\x11\xe0" + b"\x00" * 64, "암호로 보호된 문서"),
        ("a.txt", b"x" * (MAX_FILE_BYTES + 1), "파일이 너무 큽니다"),
    ],
)
def test_bad_files_get_a_clear_message(name: str, data: bytes, message: str) -> None:
    with pytest.raises(ContractFileError, match=message):
        read_contract_file(name, data)


def test_text_without_articles_is_refused() -> None:
    with pytest.raises(ContractFileError, match="조항\\(제N조\\)이나 번호 붙은 문단"):
        parse_contract_text("그냥 메모입니다.\n계약 조항이 없습니다.")


def test_duplicate_article_numbers_are_refused() -> None:
    with pytest.raises(ContractFileError, match="같은 번호의 조항"):
        parse_contract_text("제1조(목적) 가.\n제1조(목적) 나.")


def test_cp949_text_is_read() -> None:
    text, fmt = read_contract_file("a.txt", "제1조(목적) 테스트".encode("cp949"))
    assert fmt == "txt" and text.startswith("제1조")


def _pdf(font: str, text_lines: list[str], password: str | None = None) -> bytes:
    from fpdf import FPDF
    from pypdf import PdfReader, PdfWriter

    pdf = FPDF()
    pdf.add_page()
    pdf.add_font("noto", fname=font, collection_font_number=1 if font.endswith(".ttc") else 0)
    pdf.set_font("noto", size=11)
    for line in text_lines:
        pdf.cell(text=line, new_x="LMARGIN", new_y="NEXT")
    data = bytes(pdf.output())
    if password is None:
        return data
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    writer.encrypt(password, algorithm="AES-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


@pytest.fixture(scope="module")
def korean_font() -> str:
    import glob

    candidates = glob.glob("/usr/share/fonts/**/*Nanum*.ttf", recursive=True) + glob.glob(
        "/usr/share/fonts/**/NotoSansCJK-Regular.ttc", recursive=True)  # fmt: skip
    if not candidates:
        pytest.skip("no Korean TTF font installed (apt-get install fonts-nanum)")
    return candidates[0]


def test_pdf_and_encrypted_pdf(korean_font: str) -> None:
    lines = ["제1조(목적) 이 계약은 시험용이다.", "제2조(손해배상) ① 손해를 배상한다."]
    text, fmt = read_contract_file("c.pdf", _pdf(korean_font, lines))
    parsed = parse_contract_text(text)
    assert fmt == "pdf" and [a.article_no for a in parsed.articles] == [1, 2]
    assert parsed.articles[1].clauses[0].kind == "항"
    with pytest.raises(ContractFileError, match="암호로 보호된 PDF"):
        read_contract_file("c.pdf", _pdf(korean_font, lines, password="secret"))


def test_docx_is_read() -> None:
    from docx import Document

    document = Document()
    for line in ["계약서", "제1조(목적) 시험.", "제2조(해지) ① 해지할 수 있다.", "[별지1] 목록"]:
        document.add_paragraph(line)
    buffer = io.BytesIO()
    document.save(buffer)
    text, fmt = read_contract_file("c.docx", buffer.getvalue())
    assert fmt == "docx"
    assert [a.article_no for a in parse_contract_text(text).articles] == [1, 2, -1]


def test_branch_articles_are_articles_of_their_own() -> None:
    """제N조의M (with its 항 and 호) is its own article beside 제N조 (key N*1000+M), in order; a
    reference inside a clause ('제3조의2에 따라', '제15조의 청약철회') stays text; the same
    branch twice is a numbering error."""
    text = ("제3조(정의) 용어를 정한다.\n제3조의2(적용범위) 이 계약은 국내에 적용한다.\n"
            "① 을은 제3조의2에 따라 보고한다.\n1. 월별 보고\n"
            "제 3 조의 3\n본문\n제4조(기간) 제15조의 청약철회에 따른다.\n[별지1] 목록")  # fmt: skip
    parsed = parse_contract_text(text)
    assert [(a.article_no, a.branch) for a in parsed.articles] == [
        (3, 0), (3, 2), (3, 3), (4, 0), (-1, 0)]  # fmt: skip
    assert [a.key for a in parsed.articles] == [3, 3002, 3003, 4, -1]
    branch = parsed.articles[1]
    assert branch.label == "제3조의2(적용범위)" and branch.ref == "제3조의2"
    assert [(c.kind, c.number) for c in branch.clauses] == [("text", None), ("항", 1), ("호", 1)]
    assert branch.content[1] == "① 을은 제3조의2에 따라 보고한다."
    assert parsed.articles[2].label == "제3조의3(제3조의3)"
    assert parsed.articles[3].content == ["제15조의 청약철회에 따른다."]
    with pytest.raises(ContractFileError, match=r"두 번 나옵니다 \(제3조의2\(나\)\)"):
        parse_contract_text("제3조의2(가) 하나.\n제3조의2(나) 둘.")
    with pytest.raises(ContractFileError, match="같은 번호의 조항이 두 번"):
        parse_contract_text("제3조(정의) 가.\n제3조(정의) 나.")
    parsed = parse_contract_text("제1조(목적) 가.\n제3조의2에 따라 해지한다.")
    assert [a.key for a in parsed.articles] == [1]
    assert parsed.articles[0].content[-1] == "제3조의2에 따라 해지한다."


def test_branch_references_in_questions() -> None:
    from agents.contract.references import (
        article_keys,
        article_refs,
        branch_refs,
        paragraph_refs,
        parse_ref,
    )

    assert article_refs("제3조의2 ②와 제3조") == [3] and branch_refs("제3조의2 ②") == [(3, 2)]
    assert article_keys("제3조의2 ②와 제3조, 별지1") == [3002, 3, -1]
    assert article_keys("제3조의 2항") == [3] and article_keys("3조의 2호") == [3]  # 제3조's 항 2
    assert article_keys("Article 3-2 and Article 4") == [3002, 4]
    assert article_keys("제15조의 청약철회") == [15]
    assert article_keys("제0조의2, 제3조의0") == []
    assert paragraph_refs("제3조의2 ②와 제5조 제3항, 제3조의 2항") == {3002: 2, 5: 3, 3: 2}
    assert paragraph_refs("제3조의2를 보여줘") == {}
    assert [parse_ref(v) for v in ("제3조의2", "3의2", "3-2", "7", "별지2", "x", "0")] == [
        3002, 3002, 3002, 7, -2, None, None]  # fmt: skip
