"""News import: RSS/Atom feeds and JSONL/CSV exports into the tables the screens read.

    result = import_news_files([Path("hankyung_economy.xml"), Path("export.jsonl")])
    # import run 12 partial: news ... -> news_articles: read 14, loaded 9, failed 1, skipped 4

Each article lands in `news_articles` (the opening script's news window, the stock report's
news) and as a `documents` row (doc_type 'news') with an `events` row per theme (up to 3) and `evidence` rows
(SUPPORTS, one per tagged stock) — what the Macro screen's evidence reads, in PostgreSQL and,
after the CLI's projection, in the graph. Nothing else has to run before the next opening
script or Macro answer uses them.

Dedup: an article whose URL (normalized: no fragment, no utm_* parameters, no trailing slash)
or title (letters and digits only, lower case) is already stored, or appears earlier in the
same import, is skipped. `published_at` keeps the feed's zone; a time without one is KST.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit
from zoneinfo import ZoneInfo

from psycopg_pool import ConnectionPool

from data_access.errors import ImportFailed, WorkbenchError
from data_access.graph.base import GraphStore
from data_access.importers.base import (
    Conn,
    DatasetSpec,
    ImportJob,
    ImportResult,
    LoadOutcome,
    ParsedRows,
    RowFailure,
    run_import,
)
from data_access.importers.news_feeds import RawArticle, read_news_file
from data_access.importers.news_tagging import NewsTagger
from data_access.importers.source_files import digest

logger = logging.getLogger(__name__)

KST = ZoneInfo("Asia/Seoul")
PK_PREFIX = "news-"
DATASET_CODE = "NEWS_IMPORTED"
MAX_EVIDENCE_STOCKS = 5
MAX_EVENT_THEMES = 3
EVIDENCE_CHARS = 300
DOCUMENT_STEPS = ("documents", "events", "evidence", "evidence_targets", "document_themes",
                  "facts_claims", "earnings_links")  # fmt: skip
_TITLE_KEY_SQL = r"regexp_replace(lower(title), '[^0-9a-z가-힣]', '', 'g')"


@dataclass(frozen=True)
class TaggedArticle:
    article: RawArticle
    pk: str
    url: str
    tickers: list[str]
    themes: list[str]


def normalize_url(url: str) -> str:
    parts = urlsplit(url.strip())
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
             if not k.lower().startswith("utm_")]  # fmt: skip
    path = parts.path.rstrip("/") or "/"
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), path, urlencode(query), ""))


def title_key(title: str) -> str:
    return re.sub(r"[^0-9a-z가-힣]", "", title.lower())


def read_news_files(paths: Sequence[Path], source: str | None) -> ParsedRows[RawArticle]:
    """Every file's articles; a file that cannot be read at all is one failure, not the end."""
    merged: ParsedRows[RawArticle] = ParsedRows()
    errors: list[str] = []
    for path in paths:
        try:
            parsed = read_news_file(path, source)
        except ImportFailed as e:
            errors.append(str(e))
            merged.failures.append(RowFailure(path.name, None, str(e)))
            merged.read += 1
            continue
        merged.rows += parsed.rows
        merged.row_locations += [f"{path.name} {w}" for w in parsed.row_locations]
        merged.failures += [RowFailure(f"{path.name} {f.location}", f.column, f.message)
                            for f in parsed.failures]  # fmt: skip
        merged.read += parsed.read
    if not merged.rows and errors:
        raise ImportFailed("; ".join(errors))
    return merged


# ---------------------------------------------------------------- load

_EXISTING = f"""SELECT url, {_TITLE_KEY_SQL} AS title_key FROM news_articles
WHERE url = ANY(%(urls)s) OR {_TITLE_KEY_SQL} = ANY(%(titles)s)"""
_INSERT_NEWS = """INSERT INTO news_articles (pk, title, body, tickers, themes, published_at,
    source, url, lang) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (pk) DO NOTHING"""
_INSERT_DOC = """INSERT INTO documents (doc_id, title, url, doc_type, published_at, body, lang)
    VALUES (%s, %s, %s, 'news', %s, %s, %s) ON CONFLICT (doc_id) DO NOTHING"""
_INSERT_EVENT = """INSERT INTO events (event_id, title, event_type, event_date, theme)
    VALUES (%s, %s, 'news', %s, %s) ON CONFLICT (event_id) DO NOTHING"""
_INSERT_EVIDENCE = """INSERT INTO evidence (evidence_id, doc_id, event_id, text, indicator_code,
    security_id, relation) VALUES (%s, %s, %s, %s, NULL, %s, 'SUPPORTS')
    ON CONFLICT (evidence_id) DO NOTHING"""


def _new_articles(
    conn: Conn, parsed: ParsedRows[RawArticle], tagger: NewsTagger
) -> tuple[list[TaggedArticle], int]:
    """Tagged articles not stored yet (by URL or title), and how many were duplicates."""
    urls = [normalize_url(a.url) for a in parsed.rows]
    titles = [title_key(a.title) for a in parsed.rows]
    stored = conn.execute(_EXISTING, {"urls": urls, "titles": titles}).fetchall()
    seen_urls = {r["url"] for r in stored}
    seen_titles = {r["title_key"] for r in stored}
    fresh: list[TaggedArticle] = []
    for article, url, key in zip(parsed.rows, urls, titles, strict=True):
        if url in seen_urls or key in seen_titles:
            continue
        seen_urls.add(url)
        seen_titles.add(key)
        tickers, themes = tagger.tag(article.title, article.body)
        fresh.append(TaggedArticle(article, PK_PREFIX + digest(url)[:20], url, tickers, themes))
    return fresh, len(parsed.rows) - len(fresh)


def _store(conn: Conn, item: TaggedArticle) -> None:
    a = item.article
    conn.execute(_INSERT_NEWS, (item.pk, a.title, a.body, item.tickers, item.themes,
                                a.published_at, a.source, item.url, a.lang))  # fmt: skip
    doc_id = f"doc-{item.pk}"
    conn.execute(_INSERT_DOC, (doc_id, a.title, item.url, a.published_at, a.body, a.lang))
    day = a.published_at.astimezone(KST).date()
    text = a.body[:EVIDENCE_CHARS]
    targets: list[str | None] = list(item.tickers[:MAX_EVIDENCE_STOCKS]) or [None]
    # An event has one theme: an article filed under several is one event per theme, so a
    # '한국은행' question finds the rate-cut article as a '금리' question does.
    for k, theme in enumerate(item.themes[:MAX_EVENT_THEMES] or ["뉴스"], start=1):
        event_id = f"evt-{item.pk}-{k}"
        conn.execute(_INSERT_EVENT, (event_id, a.title, day, theme))
        for n, sid in enumerate(targets, start=1):
            evidence_id = f"evd-{item.pk}-{k}-{n}"
            conn.execute(_INSERT_EVIDENCE, (evidence_id, doc_id, event_id, text, sid))


def dataset_spec() -> DatasetSpec:
    return DatasetSpec(DATASET_CODE, "news_articles", "news", "published_at",
                       f"pk LIKE '{PK_PREFIX}%'", "가져온 뉴스 (RSS/Atom·JSONL·CSV)", "news", 1)  # fmt: skip


def load_news(conn: Conn, parsed: ParsedRows[RawArticle]) -> LoadOutcome:
    outcome = LoadOutcome(parsed.read, 0, list(parsed.failures), parsed.skipped)
    fresh, duplicates = _new_articles(conn, parsed, NewsTagger.load(conn))
    for item in fresh:
        _store(conn, item)
    outcome.rows_loaded = len(fresh)
    outcome.rows_skipped += duplicates
    if fresh:
        outcome.datasets = [dataset_spec()]
        days = [i.article.published_at.astimezone(KST).date() for i in fresh]
        outcome.first_date, outcome.last_date = min(days), max(days)
    outcome.all_known_ok = duplicates > 0  # a feed read again: nothing new is not an error
    return outcome


def import_news_files(
    paths: Sequence[Path], *, source: str | None = None, pool: ConnectionPool | None = None
) -> ImportResult:
    """Import feeds and exports in one run; duplicates (URL or title) are skipped."""
    names = ", ".join(p.name for p in paths)
    job = ImportJob("news", f"news:{names}", DATASET_CODE, "news_articles")
    return run_import(job, lambda: read_news_files(paths, source), load_news, pool)


def project_news_documents(pool: ConnectionPool, store: GraphStore | None = None) -> bool:
    """Bring imported news documents, events and evidence into the graph; False if it failed."""
    from data_access.graph import get_graph_store
    from data_access.projection.runner import project_all

    try:
        report = project_all(store or get_graph_store(), pool, steps=DOCUMENT_STEPS)
    except WorkbenchError as e:
        logger.warning("news documents were not projected: %s", e)
        return False
    return report.status != "error"
