"""Every citation names its publisher (issue 35): the catalogue's source tags and service
addresses as publishers, and the `source` field in the answer contract, its JSON schema (the
API's OpenAPI document), the Markdown download and the screens' citation tables.
(The lookups against real stores: tests/integration/test_import_korean_sources.py and
test_import_dart_stock_report.py.)
"""

from __future__ import annotations

import pytest

from data_access.contracts import AgentAnswer, Citation, StructuredCitation, answer_to_markdown
from data_access.publishers import DEMO, OPENDART, _candidates, _document_source, publisher
from pages._answer import CITATION_HEADERS, STRUCTURED_HEADERS, structured_rows


@pytest.mark.parametrize(
    ("tag", "named"),
    [
        ("demo", DEMO),
        ("opendart", OPENDART),
        ("ecos:ecos_StatisticSearch_722Y001_M.json", "한국은행 ECOS"),
        ("kosis:kosis_cpi_sido_cp949.csv", "KOSIS (통계청 국가통계포털)"),
        ("molit:molit_apt_trade_seoul_202410_cp949.csv", "국토교통부 실거래가 공개시스템"),
        ("https://api.stlouisfed.org/fred/series/observations?series_id=DGS10",
         "FRED (세인트루이스 연방준비은행)"),
        ("http://127.0.0.1:8123/fred/series/observations?series_id=DGS10",
         "FRED (세인트루이스 연방준비은행)"),
        ("http://127.0.0.1:8123/v8/finance/chart/AAPL", "Yahoo Finance"),
        ("yfinance:AAPL", "Yahoo Finance"),
        ("/data/imports/ohlcv_kr_005930.csv", "CSV 파일 (ohlcv_kr_005930.csv)"),
        ("news", "가져온 뉴스 피드"),
        ("한국거래소 정보데이터시스템", "한국거래소 정보데이터시스템"),
    ],
)  # fmt: skip
def test_catalogue_sources_are_named_as_their_publishers(tag: str, named: str) -> None:
    assert publisher(tag) == named


def _cite(**kw: object) -> StructuredCitation:
    base: dict[str, object] = {"dataset_code": "KR_STOCK_DAILY_OHLCV", "table": "stock_prices",
                               "query_fingerprint": "f", "row_count": 3}  # fmt: skip
    return StructuredCitation.model_validate(base | kw)


def test_a_stocks_own_import_is_looked_up_before_the_market_dataset() -> None:
    own = _cite(filters={"security_id": "KR:005930"})
    assert _candidates(own) == ["OHLCV_KR_005930", "KR_STOCK_DAILY_OHLCV"]
    assert _candidates(_cite(table="stocks")) == ["KR_STOCK_DAILY_OHLCV"]


def test_documents_are_named_by_their_feed_or_address() -> None:
    feed = {"news-abc": "한국경제 증권"}
    assert _document_source(Citation(doc_id="news-abc", title="t"), feed) == "한국경제 증권"
    filing = Citation(doc_id="doc-dart-20240312000736", title="t",
                      url="https://dart.fss.or.kr/dsaf001/main.do?rcpNo=20240312000736")  # fmt: skip
    assert _document_source(filing, feed) == OPENDART
    demo = Citation(doc_id="doc-1", title="t", url="https://demo.atlas.local/docs/doc-1")
    assert _document_source(demo, feed) == DEMO
    assert _document_source(Citation(doc_id="x", title="t", url="https://www.bok.or.kr/a"),
                            feed) == "www.bok.or.kr"  # fmt: skip


def test_the_source_is_in_the_contract_the_download_and_the_tables() -> None:
    schema = AgentAnswer.model_json_schema()["$defs"]
    assert "source" in schema["StructuredCitation"]["properties"]  # the API's OpenAPI models
    assert "source" in schema["Citation"]["properties"]
    answer = AgentAnswer(answer="a", mode="offline", structured_citations=[
        _cite(source="한국은행 ECOS"), _cite(dataset_code="X")])  # fmt: skip
    markdown = answer_to_markdown(answer)
    assert (
        "| dataset | 출처 | table |" in markdown
        and "| KR_STOCK_DAILY_OHLCV | 한국은행 ECOS |" in markdown
    )
    assert [r["source"] for r in structured_rows(answer)] == ["한국은행 ECOS", "-"]
    assert STRUCTURED_HEADERS["source"] == CITATION_HEADERS["source"] == "출처"
    unnamed = AgentAnswer(answer="a", mode="offline", structured_citations=[_cite()])
    assert "source" not in structured_rows(unnamed)[0]  # no column of dashes alone
