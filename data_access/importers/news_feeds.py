"""Reading news files: RSS 2.0 / Atom feeds (feedparser) and JSONL / CSV exports.

    articles = read_news_file(Path("economy.xml"))   # ParsedRows[RawArticle]

Korean outlets' feeds date items with RFC 822 `pubDate` ('Thu, 28 Nov 2024 09:12:00 +0900'),
Dublin Core `dc:date` ('2024-11-28T09:12:00+09:00') or Atom `updated`; some write a bare local
'2024-11-28 09:12:00'. A time without a zone is Korean time (KST). Exports are one JSON object a
line or a CSV with a header (English or Korean column names: 제목, 링크, 일시, 본문, 언론사).
An item without a title, link or readable date is a failure of that item, not of the file.
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
from dataclasses import dataclass
from datetime import datetime
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import feedparser

from data_access.errors import ImportFailed
from data_access.importers.base import ParsedRows, RowFailure
from data_access.importers.source_files import decode_source, read_source_bytes

KST = ZoneInfo("Asia/Seoul")
MAX_BODY_CHARS = 20_000
_FIELDS = {
    "title": ("title", "제목", "headline"),
    "url": ("url", "link", "링크", "주소", "URL"),
    "published": ("published_at", "published", "pubDate", "date", "datetime", "일시", "발행일시",
                  "날짜", "updated"),
    "body": ("body", "content", "summary", "description", "본문", "내용", "요약"),
    "source": ("source", "press", "언론사", "매체"),
}  # fmt: skip
_LOCAL_FORMATS = ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y.%m.%d %H:%M:%S", "%Y.%m.%d %H:%M",
                  "%Y/%m/%d %H:%M:%S", "%Y/%m/%d %H:%M", "%Y%m%d%H%M%S")  # fmt: skip
_TAGS = re.compile(r"<[^>]+>")
_HANGUL = re.compile(r"[가-힣]")


@dataclass(frozen=True)
class RawArticle:
    """One article as read from a file, before tagging and dedup."""

    title: str
    url: str
    body: str
    published_at: datetime  # timezone-aware
    source: str
    lang: str  # ko | en


def parse_published(text: str) -> datetime:
    """An aware datetime from a feed or export date; naive times are KST. ValueError otherwise."""
    raw = text.strip()
    if not raw:
        raise ValueError("발행 일시가 비어 있습니다")
    try:
        parsed = parsedate_to_datetime(raw)  # RFC 822 (RSS pubDate)
    except (TypeError, ValueError, IndexError):
        parsed = _iso_or_local(raw)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=KST)


def _iso_or_local(raw: str) -> datetime:
    try:
        return datetime.fromisoformat(raw.replace("Z", "+00:00"))
    except ValueError:
        pass
    for fmt in _LOCAL_FORMATS:
        try:
            return datetime.strptime(raw, fmt)
        except ValueError:
            continue
    raise ValueError(f"발행 일시를 읽을 수 없습니다: '{raw}'")


def plain_text(fragment: str) -> str:
    """Feed HTML (summary, content) as plain text."""
    return " ".join(html.unescape(_TAGS.sub(" ", fragment or "")).split())[:MAX_BODY_CHARS]


def language_of(text: str) -> str:
    """ko when the article has Hangul (a Korean feed can carry English items), else en."""
    return "ko" if _HANGUL.search(text) else "en"


def _article(fields: dict[str, str], source: str) -> RawArticle:
    title = " ".join(plain_text(fields.get("title", "")).split())
    url = fields.get("url", "").strip()
    if not title:
        raise _ItemError("title", "제목이 비어 있습니다")
    if not url.startswith(("http://", "https://")):
        raise _ItemError("url", f"기사 주소(URL)가 없습니다: '{url}'")
    try:
        published = parse_published(fields.get("published", ""))
    except ValueError as e:
        raise _ItemError("published_at", str(e)) from e
    body = plain_text(fields.get("body", "")) or title
    outlet = fields.get("source", "").strip() or source
    return RawArticle(title, url, body, published, outlet, language_of(title + body))


class _ItemError(Exception):
    def __init__(self, column: str, message: str) -> None:
        super().__init__(message)
        self.column, self.message = column, message


def _collect(items: list[tuple[str, dict[str, str]]], source: str) -> ParsedRows[RawArticle]:
    parsed: ParsedRows[RawArticle] = ParsedRows()
    for where, fields in items:
        parsed.read += 1
        try:
            parsed.rows.append(_article(fields, source))
            parsed.row_locations.append(where)
        except _ItemError as e:
            parsed.failures.append(RowFailure(where, e.column, e.message))
    return parsed


# ---------------------------------------------------------------- formats


def _entry_fields(entry: Any) -> dict[str, str]:
    content = entry.get("content") or []
    body = content[0].get("value", "") if content else entry.get("summary", "")
    return {
        "title": entry.get("title", ""),
        "url": entry.get("link", ""),
        "published": entry.get("published") or entry.get("updated") or "",
        "body": body,
        "source": (entry.get("source") or {}).get("title", ""),
    }


_DECLARED = re.compile(rb"""<\?xml[^>]*encoding=["']([A-Za-z0-9_.\-]+)["']""")


def feed_bytes(data: bytes, name: str) -> bytes:
    """The feed as declared, or re-declared as UTF-8 when its declaration is wrong (an EUC-KR
    feed saying UTF-8 would otherwise load as mojibake); ImportFailed if it is neither."""
    match = _DECLARED.search(data[:300])
    declared = match.group(1).decode("ascii") if match else "utf-8"
    try:
        data.decode(declared)
        return data
    except (UnicodeDecodeError, LookupError):
        text = decode_source(data, name)  # UTF-8 or CP949/EUC-KR, else a Korean message
    fixed = re.sub(r"""encoding=["'][^"']+["']""", 'encoding="UTF-8"', text, count=1)
    return fixed.encode("utf-8")


def read_feed(data: bytes, name: str, source: str | None) -> ParsedRows[RawArticle]:
    feed = feedparser.parse(feed_bytes(data, name))
    if not feed.entries:
        problem = feed.get("bozo_exception")
        detail = f" ({type(problem).__name__}: {problem})" if problem else ""
        raise ImportFailed(f"{name}: RSS/Atom 피드에서 기사를 찾지 못했습니다{detail}")
    outlet = source or feed.feed.get("title", "") or name
    items = [(f"item {i + 1}", _entry_fields(e)) for i, e in enumerate(feed.entries)]
    return _collect(items, outlet)


def _pick(record: dict[str, Any]) -> dict[str, str]:
    lowered = {str(k).strip().lower(): v for k, v in record.items()}
    out: dict[str, str] = {}
    for field, names in _FIELDS.items():
        for n in names:
            value = lowered.get(n.lower())
            if value not in (None, ""):
                out[field] = str(value)
                break
    return out


def read_jsonl(text: str, name: str, source: str | None) -> ParsedRows[RawArticle]:
    items: list[tuple[str, dict[str, str]]] = []
    bad: list[RowFailure] = []
    for line_no, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as e:
            bad.append(RowFailure(f"{line_no}행", None, f"JSON 형식이 아닙니다 ({e.msg})"))
            continue
        if not isinstance(record, dict):
            bad.append(RowFailure(f"{line_no}행", None, "JSON 객체가 아닙니다"))
            continue
        items.append((f"{line_no}행", _pick(record)))
    parsed = _collect(items, source or name)
    parsed.failures[:0] = bad
    parsed.read += len(bad)
    return parsed


def read_csv_export(text: str, name: str, source: str | None) -> ParsedRows[RawArticle]:
    reader = csv.DictReader(io.StringIO(text))
    header = [h.strip() for h in reader.fieldnames or []]
    found = _pick({h: "x" for h in header})
    missing = [f for f in ("title", "url", "published") if f not in found]
    if missing:
        raise ImportFailed(
            f"{name}: 뉴스 CSV에 필요한 열이 없습니다: {', '.join(missing)} (열: {', '.join(header)})"
        )
    items = [(f"{i + 2}행", _pick(row)) for i, row in enumerate(reader)]
    return _collect(items, source or name)


def read_news_file(path: Path, source: str | None = None) -> ParsedRows[RawArticle]:
    """Articles of one file; the format comes from the suffix (.xml/.rss/.atom, .jsonl, .csv)."""
    data = read_source_bytes(path)
    suffix = path.suffix.lower()
    if suffix in (".jsonl", ".ndjson"):
        return read_jsonl(decode_source(data, path.name), path.name, source)
    if suffix == ".csv":
        return read_csv_export(decode_source(data, path.name), path.name, source)
    if suffix in (".xml", ".rss", ".atom", ".feed"):
        return read_feed(data, path.name, source)
    raise ImportFailed(
        f"{path.name}: 뉴스 파일 형식을 알 수 없습니다 (.xml/.rss/.atom 피드, .jsonl, .csv만 읽습니다)"
    )
