"""한글 uploads: HWPX and HWP 5 files written by the tests (tests/fixtures/hangul_files.py) are read
into lines the article parser understands; broken, encrypted, distribution-only and oversized
(bomb) files are refused with a Korean reason before anything is stored."""

from __future__ import annotations

import io
import zipfile

import pytest

from agents.contract.errors import ContractFileError
from agents.contract.ingest.hangul import read_hwp, read_hwpx
from agents.contract.ingest.parse import parse_contract_text
from agents.contract.ingest.readers import read_contract_file
from tests.fixtures.hangul_files import hwp_bytes, hwpx_bytes

LEASE = [
    "주택임대차 계약서",
    "제1조(보증금과 차임) 보증금과 차임은 아래와 같이 지불하기로 한다.",
    ("", [["구분", "금액"], ["보증금", "금 일억원정"]]),
    ("", [["제2조(임대차기간) 임대차기간은 2년으로 한다.\n① 임차인은 갱신을 요구할 수 있다."]]),
    "제3조(계약의 해지) 임대인은 2기의 차임을 연체하면 계약을 해지할 수 있다.",
]


def test_hwpx_paragraphs_and_tables_become_articles() -> None:
    text, fmt = read_contract_file("임대차.hwpx", hwpx_bytes(LEASE))
    assert fmt == "hwpx"
    assert "구분 | 금액" in text.splitlines()  # a row of short cells is one line, cells apart
    parsed = parse_contract_text(text)
    assert [a.label for a in parsed.articles] == [
        "제1조(보증금과 차임)", "제2조(임대차기간)", "제3조(계약의 해지)"]  # fmt: skip
    second = parsed.articles[1]
    assert [c.kind for c in second.clauses] == ["text", "항"]  # a one-cell table keeps its lines


def test_hwp5_records_become_articles_compressed_or_not() -> None:
    paragraphs = ["주택임대차 계약서", "제1조(목적) 이 계약은\t임대차의 조건을 정한다.",
                  "제2조(기간) ① 2년으로 한다.\n② 갱신할 수 있다."]  # fmt: skip
    for compressed in (True, False):
        text, fmt = read_contract_file("임대차.hwp", hwp_bytes(paragraphs, compressed=compressed))
        assert fmt == "hwp"
        assert "제1조(목적) 이 계약은 임대차의 조건을 정한다." in text  # tab control → space
        parsed = parse_contract_text(text)
        assert [a.article_no for a in parsed.articles] == [1, 2]
        assert [c.number for c in parsed.articles[1].clauses] == [1, 2]


def _zip(entries: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries.items():
            z.writestr(name, data)
    return out.getvalue()


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("a.hwpx", _zip({"mimetype": b"application/hwp+zip"}), "HWPX 본문"),
        ("a.hwpx", _zip({"Contents/section0.xml": b"<not xml"}), "HWPX 본문을 읽을 수 없습니다"),
        ("a.hwpx", _zip({"Contents/section0.xml": b"\x00" * (41 * 1024 * 1024)}), "너무 큽니다"),
        ("a.hwpx", _zip({f"f{i}": b"" for i in range(2001)}), "항목이 너무 많습니다"),
        ("a.hwp", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 600, "HWP"),
        ("a.hwp", b"/etc/passwd", "HWP 파일이 아니거나"),  # olefile reads short bytes as a path
        ("a.hwp", hwp_bytes(["제1조(목적) 비밀"], flags=0x2), "암호가 걸린 한글 문서"),
        ("a.hwp", hwp_bytes(["제1조(목적) 배포"], flags=0x4), "배포용 한글 문서"),
        ("a.hwp", hwp_bytes([], raw_section=b"\xff" * 64), "압축을 풀 수 없습니다"),
        ("a.docx", _zip({"word/document.xml": b"\x00" * (41 * 1024 * 1024)}), "너무 큽니다"),
    ],
)
def test_broken_and_hostile_hangul_files_get_a_clear_message(name: str, data: bytes,
                                                            message: str) -> None:  # fmt: skip
    with pytest.raises(ContractFileError, match=message):
        read_contract_file(name, data)


def test_inflation_is_bounded_before_the_text_is_built() -> None:
    big = hwp_bytes(["제1조(목적) " + "가" * 5000])
    with pytest.raises(ContractFileError, match="압축을 풀면 너무 큽니다"):
        read_hwp(big, max_inflated=2000)
    assert "제1조(목적)" in read_hwp(big)
    with pytest.raises(ContractFileError, match="압축을 풀면 너무 큽니다"):
        read_hwpx(hwpx_bytes(["제1조(목적) " + "가" * 5000]), max_inflated=2000)


def test_entities_in_hwpx_xml_are_not_expanded() -> None:
    laughs = ('<?xml version="1.0"?><!DOCTYPE s [<!ENTITY a "aaaaaaaaaa">'
              '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
              '<hs:sec xmlns:hs="s" xmlns:hp="p"><hp:p><hp:run><hp:t>제1조(목적) &b;</hp:t>'
              "</hp:run></hp:p></hs:sec>").encode()  # fmt: skip
    text = read_hwpx(_zip({"Contents/section0.xml": laughs}))
    assert "aaaaaaaaaa" not in text
