"""Who published the rows and documents a citation rests on (issue 35).

    publisher("ecos:ecos_StatisticSearch_722Y001_M.json")   # -> '한국은행 ECOS'
    publisher("/data/prices.csv")                           # -> 'CSV 파일 (prices.csv)'
    with_sources(citations, docs, pool)                     # -> both lists with `source` set

A structured citation's source is its dataset's catalogue row (`datasets.source`, which an import
replaces with the file or service it loaded: 'molit:<file>', 'opendart', a FRED URL, ...), named as
its publisher. A stock's prices imported on their own are catalogued as `OHLCV_<country>_<code>`:
a citation of that stock's prices names that import, not the demo's whole-market dataset. A news
article's source is the feed or outlet it came from (`news_articles.source`); another document's
is the publisher its address names (dart.fss.or.kr: OpenDART; the demo's own host: the demo).
Two small queries per call, whatever the number of citations.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import PurePath
from urllib.parse import urlparse

import psycopg
from psycopg_pool import ConnectionPool

from data_access.contracts import Citation, StructuredCitation
from data_access.errors import WorkbenchError
from data_access.postgres import fetch_all

logger = logging.getLogger(__name__)

DEMO = "데모 데이터 (합성)"
DEMO_HOST = "demo.atlas.local"  # the demo documents' addresses (data_access.seed.documents)
OPENDART = "OpenDART (금융감독원 전자공시)"
# The tag an importer writes (its prefix before ':'), or a word in a service URL -> publisher.
PUBLISHERS: tuple[tuple[str, str], ...] = (
    ("demo", DEMO),
    ("opendart", OPENDART),
    ("ecos", "한국은행 ECOS"),
    ("bok", "한국은행 ECOS"),
    ("kosis", "KOSIS (통계청 국가통계포털)"),
    ("molit", "국토교통부 실거래가 공개시스템"),
    ("fred", "FRED (세인트루이스 연방준비은행)"),
    ("yfinance", "Yahoo Finance"),
    ("yahoo", "Yahoo Finance"),
    ("pykrx", "한국거래소 (pykrx)"),
    ("news", "가져온 뉴스 피드"),
)
# What a service's address holds when it is not the publisher's own host (a mirror, a replay).
URL_PARTS = (
    ("/fred/series", "FRED (세인트루이스 연방준비은행)"),
    ("/v8/finance/chart", "Yahoo Finance"),
)

# A CSV import catalogues its dataset as 'csv': the file is its latest import run's source.
_DATASET_SOURCES = """
SELECT d.dataset_code, d.source, r.source AS run_source FROM datasets d
LEFT JOIN LATERAL (SELECT source FROM import_runs r WHERE d.source = 'csv'
                   AND r.dataset_code = d.dataset_code AND r.status <> 'error'
                   ORDER BY r.run_id DESC LIMIT 1) r ON true
WHERE d.dataset_code = ANY(%s)"""
_ARTICLE_SOURCES = "SELECT pk, source FROM news_articles WHERE pk = ANY(%s)"


def publisher(tag: str) -> str:
    """The publisher a catalogue source names; a CSV file by its name; else the tag itself."""
    text = tag.strip()
    low = text.lower()
    head = low.split(":", 1)[0]
    for key, name in PUBLISHERS:
        if head == key:
            return name
    if low.startswith("http"):  # a service URL ('https://api.stlouisfed.org/fred/...')
        for key, name in (*URL_PARTS, *PUBLISHERS):
            if key in low:
                return name
    if head == "csv" or low.endswith((".csv", ".tsv", ".xlsx")):
        return f"CSV 파일 ({PurePath(text.split(':', 1)[-1]).name})"
    return text or DEMO


def _candidates(c: StructuredCitation) -> list[str]:
    """Dataset codes to look up, most specific first (a stock's own import before the market)."""
    sid = c.filters.get("security_id")
    own = (
        [f"OHLCV_{sid.replace(':', '_')}"]
        if c.table == "stock_prices" and isinstance(sid, str)
        else []
    )
    return [*own, c.dataset_code]


def dataset_publishers(codes: set[str], pool: ConnectionPool | None) -> dict[str, str]:
    """The publisher of each catalogued dataset among `codes` (absent: not catalogued)."""
    if not codes:
        return {}
    rows = fetch_all(_DATASET_SOURCES, (sorted(codes),), pool=pool)
    return {
        r["dataset_code"]: publisher(f"csv:{r['run_source']}" if r["run_source"] else r["source"])
        for r in rows
    }


def _document_source(doc: Citation, articles: dict[str, str]) -> str | None:
    """A news article's feed or outlet; else the publisher its address names."""
    if doc.doc_id in articles:
        return articles[doc.doc_id]
    host = urlparse(doc.url or "").hostname or ""
    if host == DEMO_HOST:
        return DEMO
    if host == "dart.fss.or.kr":
        return OPENDART
    return host or None


def with_sources(
    structured: Sequence[StructuredCitation],
    documents: Sequence[Citation] = (),
    pool: ConnectionPool | None = None,
) -> tuple[list[StructuredCitation], list[Citation]]:
    """Both lists, each citation with its `source` (kept where one is already set). The store
    being down leaves them unnamed: the answer is not lost for its citations' publishers."""
    try:
        return _with_sources(structured, documents, pool)
    except (WorkbenchError, psycopg.Error) as e:
        logger.warning("citation sources not read: %s", e)
        return list(structured), list(documents)


def _with_sources(
    structured: Sequence[StructuredCitation],
    documents: Sequence[Citation],
    pool: ConnectionPool | None,
) -> tuple[list[StructuredCitation], list[Citation]]:
    wanted = {code for c in structured if c.source is None for code in _candidates(c)}
    by_code = dataset_publishers(wanted, pool)
    out = [
        c if c.source else c.model_copy(update={"source": next(
            (by_code[k] for k in _candidates(c) if k in by_code), None)})
        for c in structured
    ]  # fmt: skip
    ids = [d.doc_id for d in documents if d.source is None]
    articles: dict[str, str] = {}
    if ids:  # a document citation names the article (pk) or its document ('doc-' + pk)
        keys = sorted({*ids, *(i.removeprefix("doc-") for i in ids)})
        for r in fetch_all(_ARTICLE_SOURCES, (keys,), pool=pool):
            articles[r["pk"]] = articles["doc-" + r["pk"]] = r["source"]
    docs = [
        d if d.source else d.model_copy(update={"source": _document_source(d, articles)})
        for d in documents
    ]
    return out, docs
