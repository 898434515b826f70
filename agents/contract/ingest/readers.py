"""File bytes → contract text for PDF, DOCX, HWPX, HWP, TXT and Markdown, with clear Korean
refusals.

Every refusal is a ContractFileError raised before anything is stored, so a bad upload never
replaces or damages a contract already in the database.
"""

from __future__ import annotations

import io
import logging
import re
from pathlib import PurePath
from typing import Any

from agents.contract.errors import ContractFileError
from agents.contract.ingest.docx_stream import read_docx
from agents.contract.ingest.hangul import read_hwp, read_hwpx
from agents.contract.ingest.pdf_text import normalise_lines
from agents.contract.ingest.zip_stream import MAX_TEXT_CHARS
from agents.inputs import clean_text

logger = logging.getLogger(__name__)

MAX_FILE_BYTES = 5 * 1024 * 1024
# One PDF stream (a page's content, a font's ToUnicode map …) inflates to at most this much: a
# real contract page is tens of KB; pypdf's own default (75 MB) let a 1 GiB bomb reach +157 MB.
MAX_PDF_STREAM_BYTES = 8 * 1024 * 1024
MAX_PDF_PAGES = 1000
OLE_MAGIC = b"\xd0\xcf\x11\xe0"  # encrypted OOXML and legacy .doc are OLE compound files
FORMATS = {".pdf": "pdf", ".docx": "docx", ".hwpx": "hwpx", ".hwp": "hwp", ".txt": "txt",
           ".md": "md", ".markdown": "md"}  # fmt: skip


def file_format(name: str) -> str:
    suffix = PurePath(name).suffix.lower()
    fmt = FORMATS.get(suffix)
    if fmt is None:
        raise ContractFileError(
            f"지원하지 않는 파일 형식입니다 ({suffix or '확장자 없음'}). "
            "PDF, DOCX, HWPX, HWP, TXT, MD 파일을 올려 주세요."
        )
    return fmt


def read_contract_file(name: str, data: bytes) -> tuple[str, str]:
    """(text, format) of an uploaded file; raises ContractFileError with a Korean message."""
    fmt = file_format(name)
    if not data:
        raise ContractFileError(f"빈 파일입니다 ({name}). 내용이 있는 계약서 파일을 올려 주세요.")
    if len(data) > MAX_FILE_BYTES:
        size_mb = len(data) / 1024 / 1024
        raise ContractFileError(
            f"파일이 너무 큽니다 ({size_mb:.1f} MB). 최대 {MAX_FILE_BYTES // 1024 // 1024} MB까지 올릴 수 있습니다."
        )
    reader = {"pdf": _read_pdf, "docx": _read_docx, "hwpx": read_hwpx, "hwp": read_hwp}.get(
        fmt, _read_text
    )
    # NUL past the binary sniff, escapes, bidi overrides; a clean file keeps its content hash
    text = clean_text(reader(data), strip=False)
    if not text.strip():
        raise ContractFileError(f"파일에서 글자를 찾지 못했습니다 ({name}).")
    if len(text) > MAX_TEXT_CHARS:
        raise ContractFileError(
            f"계약서 본문이 너무 깁니다 ({len(text):,}자). 최대 {MAX_TEXT_CHARS:,}자까지 처리합니다."
        )
    return text, fmt


def _read_text(data: bytes) -> str:
    if b"\x00" in data[:4096]:
        raise ContractFileError(
            "텍스트 파일이 아닙니다 (바이너리 내용). TXT/MD는 UTF-8 텍스트여야 합니다."
        )
    for encoding in ("utf-8-sig", "cp949"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise ContractFileError("텍스트 인코딩을 알 수 없습니다. UTF-8로 저장해 다시 올려 주세요.")


def _read_pdf(data: bytes) -> str:
    from pypdf import PdfReader, apply_configuration
    from pypdf.errors import LimitReachedError, PyPdfError

    if not data.lstrip().startswith(b"%PDF"):
        raise ContractFileError("PDF 파일이 아니거나 손상되었습니다 (PDF 머리글 없음).")
    limit = MAX_PDF_STREAM_BYTES
    try:
        with apply_configuration(zlib_maximum_output_length=limit, lzw_maximum_output_length=limit,
                                 run_length_maximum_output_length=limit,
                                 brotli_maximum_output_length=limit,
                                 jbig2_maximum_output_length=limit,
                                 array_based_stream_maximum_output_length=limit):  # fmt: skip
            pages = _pdf_pages(PdfReader(io.BytesIO(data)))
    except ContractFileError:
        raise
    except LimitReachedError as e:
        logger.info("PDF stream over the limit: %s", e)
        raise ContractFileError(
            f"PDF 안의 압축된 내용이 너무 큽니다 (한 덩어리가 풀면 {limit // 1024 // 1024} MB를 "
            "넘습니다). 압축 폭탄일 수 있어 읽지 않았습니다."
        ) from e
    except (PyPdfError, ValueError, KeyError, TypeError, OSError) as e:
        logger.info("unreadable PDF: %s", e)
        raise ContractFileError(f"PDF를 읽을 수 없습니다 (손상된 파일): {e}") from e
    text = "\n".join(normalise_lines([_despace(line) for page in pages
                                       for line in page.splitlines()]))  # fmt: skip
    if not text.strip():
        raise ContractFileError("PDF에 텍스트가 없습니다 (스캔 이미지 PDF는 지원하지 않습니다).")
    return text


def _pdf_pages(reader: Any) -> list[str]:
    """Each page's text, stopping at the page and text limits (not after reading everything)."""
    if reader.is_encrypted and not reader.decrypt(""):
        raise ContractFileError("암호로 보호된 PDF입니다. 암호를 해제한 뒤 다시 올려 주세요.")
    if len(reader.pages) > MAX_PDF_PAGES:
        raise ContractFileError(
            f"PDF 쪽수가 너무 많습니다 ({len(reader.pages):,}쪽). 최대 {MAX_PDF_PAGES:,}쪽까지 처리합니다."
        )
    pages, chars = [], 0
    for page in reader.pages:
        _two_byte_codes(page)
        pages.append((page.extract_text() or "").replace("\x00", ""))
        chars += len(pages[-1])
        if chars > MAX_TEXT_CHARS:
            raise ContractFileError(
                f"계약서 본문이 너무 깁니다 ({chars:,}자 넘음). 최대 {MAX_TEXT_CHARS:,}자까지 처리합니다."
            )
    return pages


def _despace(line: str) -> str:
    """Undo per-glyph spacing some PDF writers leave ('제 1 조 ( 목 적 )   시 험' → '제1조(목적) 시험')."""
    parts = line.strip().split(" ")
    glyphs = [p for p in parts if p]
    if len(glyphs) < 4 or sum(len(p) == 1 for p in glyphs) / len(glyphs) < 0.8:
        return line
    words = re.split(r" {2,}", line.strip())
    return " ".join(w.replace(" ", "") for w in words)


def _read_docx(data: bytes) -> str:
    if data.startswith(OLE_MAGIC):
        raise ContractFileError(
            "암호로 보호된 문서이거나 이전 Word 형식(.doc)입니다. 암호를 해제해 .docx로 저장해 주세요."
        )
    return read_docx(data)


def _two_byte_codes(page: Any) -> None:
    """Read a composite font's text as two-byte codes when its embedded encoding CMap says so.

    fpdf2 (and other writers) give a Type0 font an embedded CMap stream (codespace <0000> <FFFF>,
    code → CID) instead of the name /Identity-H; pypdf then reads some codes as one byte each, so
    a document with more than 255 distinct glyphs came out garbled ('증감' as '증국내', glyph 0x0102
    read as 0x01 0x02). The font's ToUnicode map is keyed by the same two-byte codes, so naming
    the encoding /Identity-H (in memory, for extraction only) gives the right text."""
    from pypdf.generic import NameObject, StreamObject

    resources = page.get("/Resources")
    fonts = resources.get_object().get("/Font") if resources is not None else None
    if fonts is None:
        return
    for ref in fonts.get_object().values():
        font = ref.get_object()
        encoding = font.get("/Encoding")
        if font.get("/Subtype") != "/Type0" or "/ToUnicode" not in font or encoding is None:
            continue
        stream = encoding.get_object()
        if isinstance(stream, StreamObject) and re.search(
            rb"begincodespacerange\s*<0000>\s*<FFFF>\s*endcodespacerange", stream.get_data()
        ):
            font[NameObject("/Encoding")] = NameObject("/Identity-H")
