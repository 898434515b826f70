"""DOCX → text lines, streamed and bounded while it inflates (a decompression bomb stops early).

    >>> read_docx(open("계약서.docx", "rb").read())
    '계약서\\n제1조(목적) …'

`word/document.xml` goes through `zip_stream.stream_xml` (actual inflated bytes, ratio,
paragraph count and text length checked as they grow); each finished body paragraph or top-level
table row becomes a line and leaves the tree. The lines are the body's paragraphs in order, then
each top-level table row as its cells' text joined by a space (what python-docx's `paragraphs`
and `tables` give). Nothing else in the package is inflated.
"""

from __future__ import annotations

from functools import partial

from lxml import etree

from agents.contract.ingest.zip_stream import (
    LineBudget,
    ZipLimits,
    drop,
    open_zip,
    stream_xml,
    too_big,
    unreadable,
)

BODY_PART = "word/document.xml"
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
TEXT_OF = {f"{W}t": None, f"{W}tab": "\t", f"{W}br": "\n", f"{W}cr": "\n"}
UNREADABLE = "DOCX 파일을 읽을 수 없습니다 (손상되었거나 DOCX가 아님)"


def read_docx(data: bytes, limits: ZipLimits | None = None) -> str:
    """Text of a DOCX; raises ContractFileError (with the reason) for anything unusable or too big."""
    limits = limits or ZipLimits()
    archive = open_zip(data, "DOCX", limits)
    try:
        info = archive.getinfo(BODY_PART)
    except KeyError as e:
        raise unreadable("DOCX", "본문(word/document.xml)이 없습니다.") from e
    if info.file_size > limits.max_inflated:
        raise too_big("DOCX", info.file_size, limits)
    budget = LineBudget("DOCX", limits)
    paragraphs: list[str] = []
    rows: list[str] = []
    take = partial(_take, budget=budget, paragraphs=paragraphs, rows=rows)
    root = stream_xml(archive, info, budget, take, UNREADABLE)
    if root.tag != f"{W}document":
        raise unreadable("DOCX", f"본문이 Word 문서가 아닙니다 ({root.tag}).")
    return "\n".join(paragraphs + rows)


def _take(
    element: etree._Element, *, budget: LineBudget, paragraphs: list[str], rows: list[str]
) -> None:
    """A finished body paragraph or top-level table row becomes a line and leaves the tree."""
    parent = element.getparent()
    if parent is None or parent.tag != f"{W}body":
        if element.tag == f"{W}tr" and _is_top_table(parent):
            budget.paragraph()
            cells = [_cell_text(cell) for cell in element.iterchildren(f"{W}tc")]
            budget.add(rows, " ".join(cells))
            drop(element)
        return
    if element.tag == f"{W}p":
        budget.paragraph()
        budget.add(paragraphs, _paragraph_text(element))
    if element.tag in (f"{W}p", f"{W}tbl", f"{W}sdt"):
        drop(element)


def _is_top_table(table: etree._Element | None) -> bool:
    if table is None or table.tag != f"{W}tbl":
        return False
    body = table.getparent()
    return body is not None and body.tag == f"{W}body"


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
