"""Reading the files Korean public sources publish: encodings, empty files, clear messages.

    text = read_source_text(Path("아파트(매매)_실거래가.csv"))  # CP949 or UTF-8 (with or without BOM)

Korean government exports (MOLIT, KOSIS, ECOS downloads) are CP949/EUC-KR; APIs answer UTF-8.
Every problem becomes `ImportFailed` with a Korean message that names the file, so a user knows
what to fix; nothing is half-loaded because parsing happens before the import transaction.
"""

from __future__ import annotations

import hashlib
import re
from datetime import date
from pathlib import Path

from data_access.errors import ImportFailed

# UTF-8 first: a CP949 file almost never decodes as UTF-8, the other way round often does.
ENCODINGS = ("utf-8-sig", "cp949")
MAX_FILE_BYTES = 200 * 1024 * 1024


def read_source_bytes(path: Path) -> bytes:
    """The file's bytes; ImportFailed (Korean message) if it is missing, empty or too large."""
    try:
        size = path.stat().st_size
    except OSError as e:
        raise ImportFailed(f"파일을 열 수 없습니다: {path} ({e.strerror or e})") from e
    if size == 0:
        raise ImportFailed(f"빈 파일입니다: {path.name}")
    if size > MAX_FILE_BYTES:
        raise ImportFailed(
            f"파일이 너무 큽니다: {path.name} ({size:,} bytes, 최대 {MAX_FILE_BYTES:,})"
        )
    return path.read_bytes()


def decode_source(data: bytes, name: str) -> str:
    """UTF-8 (BOM or not) or CP949 text; ImportFailed if it is neither."""
    for encoding in ENCODINGS:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        if not text.strip():
            raise ImportFailed(f"빈 파일입니다: {name}")
        return text
    raise ImportFailed(
        f"{name}: 문자 인코딩을 읽을 수 없습니다 (UTF-8 또는 CP949/EUC-KR 파일이어야 합니다)"
    )


def read_source_text(path: Path) -> str:
    return decode_source(read_source_bytes(path), path.name)


def digest(*parts: object) -> str:
    """A stable key for a record that has no identifier of its own."""
    text = "|".join("" if p is None else str(p) for p in parts)
    return hashlib.md5(text.encode("utf-8")).hexdigest()  # a key, not security


_AMOUNT = re.compile(r"^-?[0-9][0-9,]*(\.[0-9]+)?$")


def parse_amount(text: str | None) -> float | None:
    """'325,000' -> 325000.0; '' / '-' -> None; ValueError for anything else."""
    cleaned = (text or "").strip()
    if cleaned in ("", "-"):
        return None
    if not _AMOUNT.match(cleaned):
        raise ValueError(f"숫자가 아닙니다: '{cleaned}'")
    return float(cleaned.replace(",", ""))


def compact_date(text: str) -> date:
    """'20241114' -> date(2024, 11, 14); ValueError with a Korean message otherwise."""
    cleaned = text.strip()
    if not re.fullmatch(r"[0-9]{8}", cleaned):
        raise ValueError(f"날짜 형식(YYYYMMDD)이 아닙니다: '{cleaned}'")
    try:
        return date(int(cleaned[:4]), int(cleaned[4:6]), int(cleaned[6:]))
    except ValueError as e:
        raise ValueError(f"없는 날짜입니다: '{cleaned}'") from e
