"""News import from feeds and exports made in Korean outlets' real formats (issue 35).

RSS 2.0 with `dc:date` (and a bare local time), RSS 2.0 with RFC 822 `pubDate`, Atom with
`updated`/`published`, a JSONL export and a CP949 CSV export with Korean column names. The
articles land in the tables the opening script and the Macro evidence read; the test reads
them back through those screens' own queries.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from psycopg_pool import ConnectionPool

from agents.macro.templates import get_template
from agents.opening.news_store import news_in_window
from data_access.config import Settings
from data_access.errors import ImportFailed
from data_access.graph import get_graph_store
from data_access.importers.loaders import StockInfo, upsert_stock
from data_access.importers.news import import_news_files, normalize_url, project_news_documents
from data_access.importers.news_feeds import parse_published
from data_access.postgres import fetch_all, fetch_one
from data_access.projection.runner import project_all
from tests.integration.test_importers import FIXTURES, _cli, db_uri, module_pool  # noqa: F401

TABLES = "import_runs, datasets, news_articles, evidence, events, documents, entity_aliases, stocks"
FEEDS = [
    FIXTURES / "news_rss2_dcdate_economy.xml",
    FIXTURES / "news_rss2_pubdate_securities.xml",
    FIXTURES / "news_atom_markets.xml",
]
EXPORTS = [FIXTURES / "news_export.jsonl", FIXTURES / "news_export_cp949.csv"]
STOCKS = (
    StockInfo("KR:005930", "삼성전자", "Samsung Electronics", "KOSPI", "반도체", "KRW"),
    StockInfo("KR:000660", "SK하이닉스", "SK hynix", "KOSPI", "반도체", "KRW"),
    StockInfo("US:AAPL", "Apple", "Apple", "NASDAQ", "IT하드웨어", "USD"),
    StockInfo("US:META", "Meta Platforms", "Meta Platforms", "NASDAQ", "인터넷", "USD"),
)
GRAPH = "news_import_test"
ALIASES = (("삼전", "KR:005930"), ("애플", "US:AAPL"), ("메타", "US:META"))


@pytest.fixture()
def db(module_pool: ConnectionPool) -> ConnectionPool:  # noqa: F811
    with module_pool.connection() as conn:
        conn.execute(f"TRUNCATE {TABLES} RESTART IDENTITY CASCADE")
        for stock in STOCKS:
            upsert_stock(conn, stock)  # type: ignore[arg-type]  # the pool yields dict rows
        for alias, target in ALIASES:
            conn.execute("INSERT INTO entity_aliases VALUES ('stock', %s, %s)", (alias, target))
    return module_pool


def _article(db: ConnectionPool, title_start: str) -> dict[str, object]:
    row = fetch_one(
        "SELECT title, tickers, themes, published_at, source, url, lang FROM news_articles"
        " WHERE title LIKE %s",
        (title_start + "%",),
        pool=db,
    )
    assert row is not None, title_start
    return row


def test_feeds_are_parsed_tagged_and_deduplicated(db: ConnectionPool) -> None:
    result = import_news_files(FEEDS, pool=db)
    # 11 items: 2 failures (no link; '어제 오후' is no date), 2 duplicates (the same URL with
    # utm_ parameters; the same title from another outlet), 7 new.
    assert (result.rows_read, result.rows_loaded, result.rows_failed, result.rows_skipped) == (
        11, 7, 2, 2,
    )  # fmt: skip
    assert {f.column for f in result.failures} == {"url", "published_at"}
    samsung = _article(db, "삼성전자, 3분기")
    assert samsung["tickers"] == ["KR:005930"]
    assert samsung["themes"] == ["반도체", "IT", "실적"]
    assert samsung["source"] == "아틀라스경제 - 경제"
    assert samsung["published_at"] == datetime(2024, 11, 27, 23, 10, tzinfo=UTC)
    assert samsung["url"] == "https://www.atlas-econ.example.kr/article/2024112800011"
    rate = _article(db, "한은 기준금리")
    assert rate["tickers"] == [] and rate["themes"] == ["금리", "한국은행"]
    # a time without a zone in a Korean feed is KST
    assert _article(db, "원·달러")["published_at"] == datetime(2024, 11, 28, 6, 40, tzinfo=UTC)
    assert _article(db, "원·달러")["themes"] == ["환율"]
    assert _article(db, "SK하이닉스")["tickers"] == ["KR:000660"]
    assert _article(db, "메타버스")["tickers"] == []  # '메타' alias only as a word of its own
    apple = _article(db, "Apple shares")
    assert (apple["tickers"], apple["themes"], apple["lang"]) == (
        ["US:AAPL"], ["IT", "해외주식"], "en",
    )  # fmt: skip
    pce = _article(db, "미국 10월 PCE")
    assert pce["published_at"] == datetime(2024, 11, 27, 22, 30, tzinfo=UTC)
    assert pce["themes"] == ["금리", "물가", "FOMC"]


def test_exports_and_reimport(db: ConnectionPool) -> None:
    result = import_news_files(EXPORTS, source="내보내기", pool=db)
    assert (result.rows_read, result.rows_loaded, result.rows_failed) == (4, 3, 1)  # broken line
    assert _article(db, "삼전, 자사주")["tickers"] == ["KR:005930"]
    assert _article(db, "서울 아파트")["themes"] == ["부동산"]
    kospi = _article(db, "코스피, 외국인")
    assert (kospi["source"], kospi["published_at"]) == (
        "한글신문", datetime(2024, 11, 28, 6, 35, tzinfo=UTC),
    )  # fmt: skip
    again = import_news_files(EXPORTS, pool=db)
    assert (again.status, again.rows_loaded, again.rows_skipped) == (
        "partial",
        0,
        3,
    )  # the broken line
    assert fetch_one("SELECT count(*) AS n FROM news_articles", pool=db) == {"n": 3}


def test_imported_news_reach_the_opening_window_and_macro_evidence(db: ConnectionPool) -> None:
    import_news_files(FEEDS + EXPORTS, pool=db)
    window = news_in_window(date(2024, 11, 28), db)  # 16:00 ET 11-27 .. 18:00 ET 11-28
    titles = {r["title"] for r in window.rows}
    assert "삼성전자, 3분기 영업이익 9조1천억원…반도체 부진" in titles
    assert "코스피, 외국인 매도에 2,500선 아래로" in titles
    assert len(window.rows) == 10
    evidence = get_template("documents_by_keyword")
    rows = fetch_all(
        evidence.text,
        {"themes": ["한국은행"], "codes": [], "ids": ["KR:005930"], "as_of": date(2024, 11, 28)},
        pool=db,
    )
    assert {r["title"] for r in rows} == {
        "삼성전자, 3분기 영업이익 9조1천억원…반도체 부진",
        "한은 기준금리 연 3.00%로 0.25%p 인하…두 달 연속",
        "삼전, 자사주 10조원 매입 결정",
    }
    dataset = fetch_one(
        "SELECT table_name, filter_sql, source FROM datasets WHERE dataset_code = 'NEWS_IMPORTED'",
        pool=db,
    )
    assert dataset == {"table_name": "news_articles", "filter_sql": "pk LIKE 'news-%'",
                       "source": "news"}  # fmt: skip


def test_imported_news_are_projected_for_the_graph_evidence(
    db: ConnectionPool, settings: Settings
) -> None:
    import_news_files(FEEDS, pool=db)
    store = get_graph_store(settings.model_copy(update={"neo4j_uri": None}), name=GRAPH)
    store.clear()
    try:
        assert project_all(store, db, steps=("stocks", "issuers")).status == "ok"  # companies
        assert project_news_documents(db, store)
        company = get_template("company_evidence")  # the Macro screen's graph evidence read
        rows = store.read(company.text, {"ids": ["KR:005930"], "as_of": "2024-11-28"})
        assert {(r["title"], r["theme"]) for r in rows} == {
            ("삼성전자, 3분기 영업이익 9조1천억원…반도체 부진", t) for t in ("반도체", "IT", "실적")
        }
    finally:
        store.clear()


def test_bad_news_files_are_named_in_korean(db: ConnectionPool, tmp_path: Path) -> None:
    html = tmp_path / "page.xml"
    html.write_text("<html><body>404 Not Found</body></html>", encoding="utf-8")
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    with pytest.raises(ImportFailed, match="RSS/Atom 피드에서 기사를 찾지 못했습니다"):
        import_news_files([html], pool=db)
    with pytest.raises(ImportFailed, match="빈 파일입니다"):
        import_news_files([empty], pool=db)
    pdf = tmp_path / "news.pdf"
    pdf.write_bytes(b"%PDF-1.7 ...")
    with pytest.raises(ImportFailed, match="형식을 알 수 없습니다"):
        import_news_files([pdf], pool=db)
    # an EUC-KR feed that declares UTF-8 is read as what it is; undecodable bytes are refused
    src = (FIXTURES / "news_rss2_pubdate_securities.xml").read_text(encoding="utf-8")
    mislabelled = tmp_path / "euckr.xml"
    mislabelled.write_bytes(src.encode("euc-kr"))
    assert import_news_files([mislabelled], pool=db).rows_loaded == 3
    assert _article(db, "SK하이닉스")["tickers"] == ["KR:000660"]
    garbage = tmp_path / "garbage.xml"
    garbage.write_bytes(b'<?xml version="1.0" encoding="UTF-8"?><rss>\xff\xfe\x81\xff</rss>')
    with pytest.raises(ImportFailed, match="인코딩을 읽을 수 없습니다"):
        import_news_files([garbage], pool=db)
    # one unreadable file does not stop the others
    mixed = import_news_files([html, FIXTURES / "news_export.jsonl"], pool=db)
    assert (mixed.rows_loaded, mixed.status) == (2, "partial")


def test_dates_and_urls() -> None:
    assert parse_published("Thu, 28 Nov 2024 09:30:00 +0900") == datetime(
        2024, 11, 28, 0, 30, tzinfo=UTC
    )
    assert parse_published("2024.11.28 15:35").utcoffset().total_seconds() == 9 * 3600  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="발행 일시를 읽을 수 없습니다"):
        parse_published("어제 오후")
    assert normalize_url("HTTPS://A.kr/x/?utm_source=rss&id=3#top") == "https://a.kr/x?id=3"


def test_cli_news(db: ConnectionPool, db_uri: str) -> None:  # noqa: F811
    done = _cli(db_uri, "news", "--file", str(FIXTURES / "news_atom_markets.xml"))
    assert done.returncode == 0, done.stderr
    assert "news news:news_atom_markets.xml -> news_articles" in done.stdout


def test_imported_news_are_the_evidence_of_the_next_macro_answer(db: ConnectionPool) -> None:
    """No other step: the offline Macro answer right after the import cites the imported
    articles as its documents (no graph here: the SQL evidence read answers)."""
    from agents.macro.service import answer_question, make_context
    from data_access.config import get_settings

    import_news_files(FEEDS + EXPORTS, pool=db)
    settings = get_settings()
    context = make_context(settings, db, None, as_of="2024-11-28")
    answer = answer_question("삼성전자 최근 뉴스와 이유", settings=settings, pool=db,
                             context=context)  # fmt: skip
    titles = {c.title: c for c in answer.citations}
    assert "삼성전자, 3분기 영업이익 9조1천억원…반도체 부진" in titles, answer.answer
    assert "삼전, 자사주 10조원 매입 결정" in titles  # tagged KR:005930 through its alias
    # each names its feed, as the article was stored (issue 35: a citation's source)
    cited = titles["삼성전자, 3분기 영업이익 9조1천억원…반도체 부진"]
    stored = fetch_one("SELECT source FROM news_articles WHERE title = %s", (cited.title,), pool=db)
    assert stored is not None and cited.source == stored["source"] == "아틀라스경제 - 경제"


def test_imported_news_are_read_by_the_next_opening_run(db: ConnectionPool) -> None:
    """The offline opening run of the imported day reads the imported articles (the window's
    ten) and its themes quote them by their ids."""
    from agents.opening.service import run_opening

    import_news_files(FEEDS + EXPORTS, pool=db)
    window = {r["title"] for r in news_in_window(date(2024, 11, 28), db).rows}
    answer = run_opening("2024-11-28", save=False, pool=db)
    assert answer.status == "ok", answer.error
    assert {c.title for c in answer.citations} == window and len(window) == 10
    quoted = {c.doc_id for c in answer.citations if f"`{c.doc_id}`" in answer.answer}
    assert quoted and all(doc.startswith("news-") for doc in quoted)
