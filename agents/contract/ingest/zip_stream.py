"""Zip-packaged documents (DOCX, HWPX) read as a stream, bounded while they inflate.

    archive = open_zip(data, "HWPX", ZipLimits())
    root = stream_xml(archive, archive.getinfo("Contents/section0.xml"), limits, take, prefix)

An XML part is inflated chunk by chunk into an lxml pull parser; the bytes actually inflated (not
the sizes the zip header declares), their ratio to the part's compressed size, the paragraph count
and the text length are checked as they grow (a `LineBudget`), and `take` drops each finished
paragraph from the tree, so a decompression bomb stops early with bounded memory and a reason.
"""

from __future__ import annotations

import io
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass

from lxml import etree

from agents.contract.errors import ContractFileError

MAX_INFLATED_BYTES = 40 * 1024 * 1024
MAX_ZIP_ENTRIES = 2000
MAX_TEXT_CHARS = 300_000
MAX_PARAGRAPHS = 200_000
MAX_RATIO = 100  # inflated / compressed size of a part; real document parts stay near 5-20
RATIO_FLOOR = 1024 * 1024  # a small part may compress better: judged past the first MiB
CHUNK = 64 * 1024


@dataclass(frozen=True)
class ZipLimits:
    """How far one package may go before it is refused (the defaults are the upload limits)."""

    max_inflated: int = MAX_INFLATED_BYTES
    max_ratio: int = MAX_RATIO
    max_paragraphs: int = MAX_PARAGRAPHS
    max_chars: int = MAX_TEXT_CHARS


@dataclass
class LineBudget:
    """Counts paragraphs and text as they are taken; refuses past the limits."""

    kind: str  # 'DOCX' | 'HWPX', for the messages
    limits: ZipLimits
    chars: int = 0
    paragraphs: int = 0

    def paragraph(self) -> None:
        self.paragraphs += 1
        if self.paragraphs > self.limits.max_paragraphs:
            raise ContractFileError(
                f"{self.kind} 문단이 너무 많습니다 ({self.limits.max_paragraphs:,}개 초과). "
                "계약서 본문인지 확인해 주세요."
            )

    def add(self, lines: list[str], line: str) -> None:
        self.chars += len(line) + 1
        if self.chars > self.limits.max_chars:
            raise ContractFileError(
                f"계약서 본문이 너무 깁니다 ({self.limits.max_chars:,}자 초과). "
                f"최대 {self.limits.max_chars:,}자까지 처리합니다."
            )
        lines.append(line)


def unreadable(kind: str, reason: object) -> ContractFileError:
    return ContractFileError(
        f"{kind} 파일을 읽을 수 없습니다 (손상되었거나 {kind}가 아님): {reason}"
    )


def open_zip(data: bytes, kind: str, limits: ZipLimits) -> zipfile.ZipFile:
    """The package, refused when its entries are too many or declare too much inflated data."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError) as e:
        raise unreadable(kind, e) from e
    if len(infos) > MAX_ZIP_ENTRIES:
        raise ContractFileError(f"{kind} 파일 안의 항목이 너무 많습니다 ({len(infos):,}개).")
    declared = sum(i.file_size for i in infos)
    if declared > limits.max_inflated:
        raise too_big(kind, declared, limits)
    return archive


def too_big(kind: str, size: int, limits: ZipLimits) -> ContractFileError:
    return ContractFileError(
        f"{kind} 파일의 압축을 풀면 너무 큽니다 ({size / 1024 / 1024:.0f} MB 이상). "
        f"최대 {limits.max_inflated // 1024 // 1024} MB까지 처리합니다."
    )


def stream_xml(
    archive: zipfile.ZipFile,
    info: zipfile.ZipInfo,
    budget: LineBudget,
    take: Callable[[etree._Element], None],
    unreadable_prefix: str,
) -> etree._Element:
    """Feed one XML part to `take` element by element (end events); returns the root."""
    try:
        return _stream(archive, info, budget, take)
    except etree.XMLSyntaxError as e:
        if "huge" in str(e).lower():  # libxml2's own cap on one text node (10 MB)
            raise ContractFileError(
                f"{budget.kind} 본문에 한 덩어리로 된 글자가 너무 깁니다 (10 MB 초과). "
                "계약서 본문인지 확인해 주세요."
            ) from e
        raise ContractFileError(f"{unreadable_prefix}: {e}") from e
    except (zipfile.BadZipFile, zlib.error, OSError, EOFError) as e:
        raise ContractFileError(f"{unreadable_prefix}: {e}") from e


def _stream(
    archive: zipfile.ZipFile,
    info: zipfile.ZipInfo,
    budget: LineBudget,
    take: Callable[[etree._Element], None],
) -> etree._Element:
    parser = etree.XMLPullParser(
        events=("end",), resolve_entities=False, no_network=True, huge_tree=False
    )
    inflated = 0
    with archive.open(info) as part:
        while chunk := part.read(CHUNK):
            inflated += len(chunk)
            _check_growth(inflated, info.compress_size, budget)
            parser.feed(chunk)
            for _, element in parser.read_events():
                take(element)
    root = parser.close()
    for _, element in parser.read_events():
        take(element)
    return root


def _check_growth(inflated: int, compressed: int, budget: LineBudget) -> None:
    limits = budget.limits
    if inflated > limits.max_inflated:
        raise too_big(budget.kind, inflated, limits)
    if inflated > RATIO_FLOOR and inflated > limits.max_ratio * max(compressed, 1):
        raise ContractFileError(
            f"{budget.kind} 본문이 압축된 크기의 {limits.max_ratio}배 넘게 풀립니다 "
            "(압축 폭탄일 수 있음). 정상적인 계약서 파일인지 확인해 주세요."
        )


def drop(element: etree._Element) -> None:
    """Free a handled element and everything before it under the same parent."""
    element.clear()
    parent = element.getparent()
    if parent is None:
        return
    while element.getprevious() is not None:
        del parent[0]
