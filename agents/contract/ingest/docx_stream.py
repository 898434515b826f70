"""DOCX → text lines, streamed and bounded while it inflates (a decompression bomb stops early).

    >>> read_docx(open("계약서.docx", "rb").read())
    '계약서\\n제1조(목적) …'

`word/document.xml` is inflated chunk by chunk into an lxml pull parser; the bytes actually
inflated (never the sizes the zip header declares), the ratio to the entry's compressed size, the
paragraph count and the text length are checked as they grow, and each finished paragraph or table
row is dropped from the tree, so memory stays bounded whatever the file claims. The lines are the
body's paragraphs in order, then each top-level table row as its cells' text joined by a space
(what python-docx's `paragraphs` and `tables` give). Nothing else in the package is inflated.
"""

from __future__ import annotations

import io
import zipfile
import zlib
from dataclasses import dataclass

from lxml import etree

from agents.contract.errors import ContractFileError
from agents.contract.ingest.hangul import MAX_INFLATED_BYTES, MAX_ZIP_ENTRIES

BODY_PART = "word/document.xml"
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
CHUNK = 64 * 1024
MAX_RATIO = 100  # inflated / compressed size of the part; real document.xml parts stay near 5-20
RATIO_FLOOR = 1024 * 1024  # a small part may compress better: judged past the first MiB
MAX_PARAGRAPHS = 200_000
TEXT_OF = {f"{W}t": None, f"{W}tab": "\t", f"{W}br": "\n", f"{W}cr": "\n"}


@dataclass(frozen=True)
class DocxLimits:
    """How far one DOCX may go before it is refused (the defaults are the upload limits)."""

    max_inflated: int = MAX_INFLATED_BYTES
    max_ratio: int = MAX_RATIO
    max_paragraphs: int = MAX_PARAGRAPHS
    max_chars: int = 300_000


@dataclass
class _Collected:
    paragraphs: list[str]
    rows: list[str]
    chars: int = 0
    count: int = 0


def read_docx(data: bytes, limits: DocxLimits | None = None) -> str:
    """Text of a DOCX; raises ContractFileError (with the reason) for anything unusable or too big."""
    limits = limits or DocxLimits()
    archive = _open(data)
    try:
        info = archive.getinfo(BODY_PART)
    except KeyError as e:
        raise ContractFileError(
            "DOCX 파일을 읽을 수 없습니다 (손상되었거나 DOCX가 아님): 본문(word/document.xml)이 없습니다."
        ) from e
    if info.file_size > limits.max_inflated:
        raise _too_big(info.file_size, limits)
    collected = _Collected([], [])
    try:
        _stream(archive, info, collected, limits)
    except etree.XMLSyntaxError as e:
        if "huge" in str(e).lower():  # libxml2's own cap on one text node (10 MB)
            raise ContractFileError(
                "DOCX 본문에 한 덩어리로 된 글자가 너무 깁니다 (10 MB 초과). 계약서 본문인지 확인해 주세요."
            ) from e
        raise ContractFileError(
            f"DOCX 파일을 읽을 수 없습니다 (손상되었거나 DOCX가 아님): {e}"
        ) from e
    except (zipfile.BadZipFile, zlib.error, OSError, EOFError) as e:
        raise ContractFileError(
            f"DOCX 파일을 읽을 수 없습니다 (손상되었거나 DOCX가 아님): {e}"
        ) from e
    return "\n".join(collected.paragraphs + collected.rows)


def _open(data: bytes) -> zipfile.ZipFile:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError) as e:
        raise ContractFileError(
            f"DOCX 파일을 읽을 수 없습니다 (손상되었거나 DOCX가 아님): {e}"
        ) from e
    if len(infos) > MAX_ZIP_ENTRIES:
        raise ContractFileError(f"DOCX 파일 안의 항목이 너무 많습니다 ({len(infos):,}개).")
    declared = sum(i.file_size for i in infos)
    if declared > MAX_INFLATED_BYTES:
        raise _too_big(declared, DocxLimits())
    return archive


def _too_big(size: int, limits: DocxLimits) -> ContractFileError:
    return ContractFileError(
        f"DOCX 파일의 압축을 풀면 너무 큽니다 ({size / 1024 / 1024:.0f} MB 이상). "
        f"최대 {limits.max_inflated // 1024 // 1024} MB까지 처리합니다."
    )


def _stream(
    archive: zipfile.ZipFile, info: zipfile.ZipInfo, out: _Collected, limits: DocxLimits
) -> None:
    parser = etree.XMLPullParser(
        events=("end",), resolve_entities=False, no_network=True, huge_tree=False
    )
    inflated = 0
    with archive.open(info) as part:
        while chunk := part.read(CHUNK):
            inflated += len(chunk)
            _check_growth(inflated, info.compress_size, limits)
            parser.feed(chunk)
            for _, element in parser.read_events():
                _take(element, out, limits)
    root = parser.close()
    for _, element in parser.read_events():
        _take(element, out, limits)
    if root.tag != f"{W}document":
        raise ContractFileError(
            f"DOCX 파일을 읽을 수 없습니다 (손상되었거나 DOCX가 아님): 본문이 Word 문서가 아닙니다 ({root.tag})."
        )


def _check_growth(inflated: int, compressed: int, limits: DocxLimits) -> None:
    if inflated > limits.max_inflated:
        raise _too_big(inflated, limits)
    ratio = inflated / max(compressed, 1)
    if inflated > RATIO_FLOOR and ratio > limits.max_ratio:
        raise ContractFileError(
            f"DOCX 본문이 압축된 크기의 {limits.max_ratio}배 넘게 풀립니다 (압축 폭탄일 수 있음). "
            "정상적인 계약서 파일인지 확인해 주세요."
        )


def _take(element: etree._Element, out: _Collected, limits: DocxLimits) -> None:
    """A finished body paragraph or top-level table row becomes a line and leaves the tree."""
    parent = element.getparent()
    if parent is None or parent.tag != f"{W}body":
        if element.tag == f"{W}tr" and _is_top_table(parent):
            cells = [_cell_text(cell) for cell in element.iterchildren(f"{W}tc")]
            _add(out.rows, " ".join(cells), out, limits)
            _drop(element)
        return
    if element.tag == f"{W}p":
        _add(out.paragraphs, _paragraph_text(element), out, limits)
    if element.tag in (f"{W}p", f"{W}tbl", f"{W}sdt"):
        _drop(element)


def _is_top_table(table: etree._Element | None) -> bool:
    if table is None or table.tag != f"{W}tbl":
        return False
    body = table.getparent()
    return body is not None and body.tag == f"{W}body"


def _add(lines: list[str], line: str, out: _Collected, limits: DocxLimits) -> None:
    out.count += 1
    out.chars += len(line) + 1
    if out.count > limits.max_paragraphs:
        raise ContractFileError(
            f"DOCX 문단이 너무 많습니다 ({limits.max_paragraphs:,}개 초과). 계약서 본문인지 확인해 주세요."
        )
    if out.chars > limits.max_chars:
        raise ContractFileError(
            f"계약서 본문이 너무 깁니다 ({limits.max_chars:,}자 초과). "
            f"최대 {limits.max_chars:,}자까지 처리합니다."
        )
    lines.append(line)


def _paragraph_text(paragraph: etree._Element) -> str:
    parts: list[str] = []
    for node in paragraph.iter(*TEXT_OF):
        fixed = TEXT_OF[node.tag]
        if fixed == "\n" and node.get(f"{W}type") in ("page", "column"):
            continue  # python-docx leaves page and column breaks out of the text
        parts.append(fixed if fixed is not None else node.text or "")
    return "".join(parts)


def _cell_text(cell: etree._Element) -> str:
    return "\n".join(_paragraph_text(p) for p in cell.iterchildren(f"{W}p"))


def _drop(element: etree._Element) -> None:
    """Free a handled element and everything before it under the same parent."""
    element.clear()
    parent = element.getparent()
    if parent is None:
        return
    while element.getprevious() is not None:
        del parent[0]
