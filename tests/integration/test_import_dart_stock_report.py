"""Imported OpenDART 단일회사 주요계정 reach the stock report (issue 35): a real fnlttSinglAcnt.json
answer is imported into the demo database, and a real LangGraph report run (offline writer) reads
the company's revenue, operating and net income in research, shows them with their report, basis
and period, and cites them with OpenDART named as the source. The rows are removed afterwards.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import Any

import pytest

from agents.evidence import EvidenceCollector
from agents.stock.data import StockData
from agents.stock.research_filings import filed_accounts
from agents.stock.service import generate_report
from data_access.importers.dart import import_dart_accounts
from data_access.postgres import execute, fetch_one
from data_access.publishers import DEMO, OPENDART
from tests.integration.test_importers import FIXTURES

pytestmark = pytest.mark.usefixtures("demo_data")

ACCOUNTS = FIXTURES / "dart_fnlttSinglAcnt_005930_2023.json"
RCEPT_NO = "20240312000736"  # the fixture's receipt number: filed 2024-03-12


@pytest.fixture()
def imported(pg_pool: Any) -> Iterator[Any]:
    had_dataset = fetch_one(
        "SELECT 1 AS one FROM datasets WHERE dataset_code = 'DART_SINGLE_ACCOUNTS'", pool=pg_pool
    )
    result = import_dart_accounts(ACCOUNTS, pool=pg_pool)
    assert (result.rows_loaded, result.rows_failed) == (9, 1)
    yield pg_pool
    execute("DELETE FROM dart_financial_accounts WHERE rcept_no = %s", (RCEPT_NO,), pg_pool)
    execute("DELETE FROM import_runs WHERE importer = 'opendart' AND source = %s",
            (f"opendart:{ACCOUNTS.name}",), pg_pool)  # fmt: skip
    if had_dataset is None:
        execute("DELETE FROM datasets WHERE dataset_code = 'DART_SINGLE_ACCOUNTS'", pool=pg_pool)


def test_the_report_reads_and_cites_the_imported_accounts(imported: Any) -> None:
    answer = generate_report("삼성전자", pool=imported, save=False)
    assert answer.status in ("ok", "partial"), answer.error
    report = answer.answer
    assert "\n## 공시 재무 (OpenDART 단일회사 주요계정)\n" in report
    assert "| 매출액 | 258조 9,355억 원 | 302조 2,314억 원 | -14.3% |" in report
    assert "| 영업이익 | 6조 5,670억 원 | 43조 3,766억 원 | -84.9% |" in report
    assert "| 당기순이익 | 15조 4,871억 원 | 55조 6,541억 원 | -72.2% |" in report
    assert "법인세차감전" not in report  # the income lines asked for, not every IS line
    assert (
        f"_출처: {OPENDART} 단일회사 주요계정 — 2023 사업보고서 (연결, 2023-12-31 기준, "
        f"2024-03-12 접수, 접수번호 {RCEPT_NO})_"
    ) in report
    sources = report.split("## 데이터 출처", 1)[1]
    assert f"- 공시 재무: {OPENDART} 단일회사 주요계정 `dart_financial_accounts`" in sources
    [cited] = [c for c in answer.structured_citations if c.table == "dart_financial_accounts"]
    assert (cited.dataset_code, cited.row_count, cited.source) == (
        "DART_SINGLE_ACCOUNTS", 3, OPENDART,
    )  # fmt: skip
    prices = next(c for c in answer.structured_citations if c.table == "stock_prices")
    assert prices.source == DEMO  # every citation names who published its rows
    [step] = [t for t in answer.trace if t.name == "filed_accounts"]
    assert "2023 사업보고서 연결 (2024-03-12 접수)" in (step.observation or "")
    assert answer.payload["filed_accounts"]["basis"] == "연결"
    # a section of its own (the screen shows the fundamentals section as tables, not as text)
    section = report.split("\n## 공시 재무 (OpenDART 단일회사 주요계정)\n", 1)[1].split("\n## ")[0]
    assert "| 매출액 | 258조 9,355억 원 |" in section and f"_출처: {OPENDART}" in section
    english = generate_report("KR:005930", pool=imported, save=False, language="en")
    assert "| Revenue | KRW 258.94 trillion | KRW 302.23 trillion | -14.3% |" in english.answer


def test_a_report_filed_after_the_as_of_date_is_not_read(imported: Any) -> None:
    def read(day: date) -> Any:
        return filed_accounts(StockData(imported, EvidenceCollector(), day), "KR:005930")

    assert read(date(2024, 3, 11)) is None  # the 2023 annual report was filed on 2024-03-12
    filed = read(date(2024, 3, 12))
    assert filed is not None and filed["report"] == "2023 사업보고서"
    assert [line["account"] for line in filed["lines"]] == ["매출액", "영업이익", "당기순이익"]
    revenue = filed["lines"][0]  # the writer's facts hold the change, not only the table's text
    assert revenue["change"] == pytest.approx(258_935_494 / 302_231_360 - 1)


def test_without_an_import_the_report_says_nothing_of_filings(pg_pool: Any) -> None:
    answer = generate_report("삼성전자", pool=pg_pool, save=False)
    assert "OpenDART 단일회사 주요계정" not in answer.answer
    [cited] = [c for c in answer.structured_citations if c.table == "dart_financial_accounts"]
    assert cited.row_count == 0  # the query ran and is cited; it found nothing


def test_an_index_quote_names_its_source(pg_pool: Any) -> None:
    """The stock screen's answer for an index cites its rows with their publisher too."""
    index = generate_report("코스피", pool=pg_pool, save=False)
    assert [(c.table, c.source) for c in index.structured_citations] == [
        ("market_series_prices", DEMO)
    ]
