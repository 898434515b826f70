"""한글 (Hancom Office) files → text lines: HWPX (OWPML, a zip of XML) and HWP 5 (an OLE compound
file of zlib-compressed record streams).

Korean standard contracts and terms are published mostly as 한글 files. Paragraph text is kept in
document order, one line per paragraph; a table row with one cell keeps that cell's paragraphs as
lines (forms often put the whole contract body in a one-cell table), a row of short cells becomes
one line. Both readers are bounded before they inflate anything: entry count and inflated size
(HWPX), section count and inflated bytes (HWP); encrypted and distribution-only (배포용) documents
are refused with a Korean reason. HWP's automatic paragraph numbering is not text in the file, so
a clause numbered only by the word processor reads without its number.
"""

from __future__ import annotations

import io
import re
import zlib
from collections.abc import Iterator
from functools import partial

from lxml import etree

from agents.contract.errors import ContractFileError
from agents.contract.ingest.zip_stream import (
    MAX_INFLATED_BYTES,
    LineBudget,
    ZipLimits,
    drop,
    open_zip,
    stream_xml,
)

MAX_SECTIONS = 256
SECTION_RE = re.compile(r"^Contents/section(\d+)\.xml$")
HWP_SIGNATURE = b"HWP Document File"
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
HWPTAG_PARA_TEXT = 67  # HWPTAG_BEGIN (16) + 51
CHAR_CONTROLS = frozenset({0, 10, 13, *range(24, 32)})  # one code unit; the rest take eight
FLAG_COMPRESSED, FLAG_PASSWORD, FLAG_DISTRIBUTION = 0x1, 0x2, 0x4


# ---------------------------------------------------------------- HWPX


def read_hwpx(data: bytes, max_inflated: int = MAX_INFLATED_BYTES) -> str:
    """Text of an HWPX file; raises ContractFileError for anything unusable. Sections are
    streamed (zip_stream): each top-level paragraph becomes lines and leaves the tree."""
    limits = ZipLimits(max_inflated=max_inflated)
    archive = open_zip(data, "HWPX", limits)
    sections = sorted(
        (int(m.group(1)), n) for n in archive.namelist() if (m := SECTION_RE.match(n))
    )
    if not sections:
        raise ContractFileError(
            "HWPX 본문(Contents/section0.xml)이 없습니다. 한글 문서인지 확인해 주세요."
        )
    budget = LineBudget("HWPX", limits)
    lines: list[str] = []
    take = partial(_take_paragraph, budget=budget, lines=lines)
    for _, name in sections:
        prefix = f"HWPX 본문을 읽을 수 없습니다 ({name})"
        stream_xml(archive, archive.getinfo(name), budget, take, prefix)
    return "\n".join(lines)


def _take_paragraph(element: etree._Element, *, budget: LineBudget, lines: list[str]) -> None:
    """A finished top-level paragraph (a child of the section root) → lines, then dropped."""
    parent = element.getparent()
    if parent is None or parent.getparent() is not None:
        return
    if _local(element) == "p":
        budget.paragraph()
        for line in _paragraph_lines(element):
            budget.add(lines, line)
    drop(element)


def _local(element: etree._Element) -> str:
    tag = element.tag
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _children(element: etree._Element, name: str) -> Iterator[etree._Element]:
    return (child for child in element if _local(child) == name)


def _paragraph_lines(paragraph: etree._Element) -> list[str]:
    """A paragraph's own text (runs' <t>), then the rows of any table inside it."""
    text: list[str] = []
    tables: list[etree._Element] = []
    for run in _children(paragraph, "run"):
        for part in run:
            kind = _local(part)
            if kind == "t":
                text.append("".join(part.itertext()))
            elif kind == "tbl":
                tables.append(part)
    lines = ["".join(text)] if "".join(text).strip() else []
    for table in tables:
        lines += _table_lines(table)
    return lines


def _table_lines(table: etree._Element) -> list[str]:
    lines: list[str] = []
    for row in _children(table, "tr"):
        cells = [[line for p in cell.iter() if _local(p) == "p" and _is_cell_paragraph(p, cell)
                  for line in _paragraph_lines(p)] for cell in _children(row, "tc")]  # fmt: skip
        if len(cells) > 1 and all(len(c) <= 1 for c in cells):
            joined = " | ".join(c[0] if c else "" for c in cells)  # a table row stays a row
            lines += [joined] if any(c and c[0].strip() for c in cells) else []
        else:
            lines += [line for c in cells for line in c]
    return lines


def _is_cell_paragraph(paragraph: etree._Element, cell: etree._Element) -> bool:
    """A paragraph directly in this cell (not in a table nested inside it)."""
    parent = paragraph.getparent()
    while parent is not None and parent is not cell:
        if _local(parent) == "tc":
            return False
        parent = parent.getparent()
    return parent is cell


# ---------------------------------------------------------------- HWP 5


def read_hwp(data: bytes, max_inflated: int = MAX_INFLATED_BYTES) -> str:
    """Text of an HWP 5 file; raises ContractFileError for anything unusable."""
    import olefile

    # always a file object: olefile takes short bytes for a path on disk
    if not data.startswith(OLE_MAGIC) or not olefile.isOleFile(io.BytesIO(data)):
        raise ContractFileError("HWP 파일이 아니거나 손상되었습니다 (한글 5.0 형식이 아님).")
    try:
        with olefile.OleFileIO(io.BytesIO(data)) as ole:
            header = ole.openstream("FileHeader").read(256)
            flags = _hwp_flags(header)
            names = sorted((int(e[1][7:]), "/".join(e)) for e in ole.listdir()
                           if len(e) == 2 and e[0] == "BodyText" and e[1][7:].isdigit()
                           and e[1].startswith("Section"))  # fmt: skip
            if not names:
                raise ContractFileError("HWP 본문(BodyText)이 없습니다.")
            if len(names) > MAX_SECTIONS:
                raise ContractFileError(f"HWP 구역이 너무 많습니다 ({len(names)}개).")
            budget = max_inflated
            lines: list[str] = []
            for _, name in names:
                raw = ole.openstream(name).read(max_inflated + 1)
                body = _inflate(raw, budget, max_inflated) if flags & FLAG_COMPRESSED else raw
                budget -= len(body)
                lines += _hwp_paragraphs(body)
    except ContractFileError:
        raise
    except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
        raise ContractFileError(f"HWP 파일을 읽을 수 없습니다 (손상된 파일): {e}") from e
    return "\n".join(lines)


def _hwp_flags(header: bytes) -> int:
    if not header.startswith(HWP_SIGNATURE) or len(header) < 40:
        raise ContractFileError("HWP 파일 머리글이 없습니다 (한글 5.0 문서가 아님).")
    flags = int.from_bytes(header[36:40], "little")
    if flags & FLAG_PASSWORD:
        raise ContractFileError("암호가 걸린 한글 문서입니다. 암호를 해제한 뒤 다시 올려 주세요.")
    if flags & FLAG_DISTRIBUTION:
        raise ContractFileError(
            "배포용 한글 문서는 본문이 암호화되어 읽을 수 없습니다. 일반 문서로 저장해 올려 주세요."
        )
    return flags


def _inflate(raw: bytes, budget: int, limit: int) -> bytes:
    """Raw-deflate a section, refusing it once it would pass the inflated-size budget."""
    inflater = zlib.decompressobj(-15)
    try:
        body = inflater.decompress(raw, max(budget, 0) + 1)
    except zlib.error as e:
        raise ContractFileError(f"HWP 본문 압축을 풀 수 없습니다 (손상된 파일): {e}") from e
    if len(body) > budget or inflater.unconsumed_tail:
        raise ContractFileError(
            f"HWP 본문의 압축을 풀면 너무 큽니다. 최대 {limit / 1024 / 1024:.0f} MB까지 처리합니다."
        )
    return body


def _records(body: bytes) -> Iterator[tuple[int, bytes]]:
    pos = 0
    while pos + 4 <= len(body):
        header = int.from_bytes(body[pos : pos + 4], "little")
        tag, size = header & 0x3FF, header >> 20
        pos += 4
        if size == 0xFFF:
            size = int.from_bytes(body[pos : pos + 4], "little")
            pos += 4
        yield tag, body[pos : pos + size]
        pos += size


def _hwp_paragraphs(body: bytes) -> list[str]:
    return [line for tag, data in _records(body) if tag == HWPTAG_PARA_TEXT
            for line in _para_text(data).split("\n") if line.strip()]  # fmt: skip


def _para_text(data: bytes) -> str:
    """PARA_TEXT (UTF-16LE) without its control codes: a tab becomes a space, a line break a new
    line; inline and extended controls (tables, fields, pictures) take eight code units."""
    out = bytearray()
    i, units = 0, len(data) // 2
    while i < units:
        code = int.from_bytes(data[2 * i : 2 * i + 2], "little")
        if code >= 32:
            out += data[2 * i : 2 * i + 2]
            i += 1
        elif code in CHAR_CONTROLS:
            out += "\n".encode("utf-16-le") if code == 10 else b""
            i += 1
        else:
            out += " ".encode("utf-16-le") if code == 9 else b""
            i += 8
    return out.decode("utf-16-le", errors="replace")
