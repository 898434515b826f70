"""Korean public sources' files in their published formats, into a real PostgreSQL (issue 35).

MOLIT 아파트 매매 실거래가 CSV (CP949, notice lines above the header, 만원), OpenDART list.json and
fnlttSinglAcnt.json, 한국은행 ECOS StatisticSearch JSON and CSV download, KOSIS CSV (CP949).
The fixtures are described in tests/fixtures/importers/README.md.
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from psycopg_pool import ConnectionPool

from agents.macro.templates import get_template
from data_access.catalog import catalogued_datasets, dataset_statuses
from data_access.errors import ImportFailed
from data_access.importers.dart import import_dart_accounts, import_dart_disclosures
from data_access.importers.ecos import import_ecos_file
from data_access.importers.kosis import import_kosis_csv
from data_access.importers.loaders import StockInfo, upsert_stock
from data_access.importers.molit import import_molit_apt_trades, region_of
from data_access.importers.periods import parse_period
from data_access.postgres import fetch_all, fetch_one
from tests.integration.test_importers import FIXTURES, _cli, db_uri, module_pool  # noqa: F401

TABLES = (
    "import_runs, datasets, macro_observations, macro_series, re_transactions, molit_apt_trades, "
    "dart_disclosures, dart_financial_accounts, evidence, events, documents, stocks"
)
MOLIT = FIXTURES / "molit_apt_trade_seoul_202410_cp949.csv"


@pytest.fixture()
def db(module_pool: ConnectionPool) -> ConnectionPool:  # noqa: F811
    with module_pool.connection() as conn:
        conn.execute(f"TRUNCATE {TABLES} RESTART IDENTITY CASCADE")
    return module_pool


# ---------------------------------------------------------------- MOLIT


def test_molit_export_loads_deals_in_won_and_skips_cancelled(db: ConnectionPool) -> None:
    result = import_molit_apt_trades(MOLIT, pool=db)
    # 10 deals: 1 cancelled (해제사유발생일), 1 without an area, 1 with a price '약 23억'.
    assert (result.rows_read, result.rows_loaded, result.rows_skipped, result.rows_failed) == (
        10, 7, 1, 2,
    )  # fmt: skip
    assert result.status == "partial"
    assert {f.column for f in result.failures} == {"전용면적(㎡)", "거래금액(만원)"}
    eunma = fetch_all(
        "SELECT region, area_m2, floor, price_krw, deal_date FROM re_transactions"
        " WHERE complex_name = '은마' ORDER BY deal_date",
        pool=db,
    )
    assert eunma == [
        {"region": "서울 강남구", "area_m2": Decimal("84.43"), "floor": 9,
         "price_krw": 2_600_000_000, "deal_date": date(2024, 10, 7)},
        {"region": "서울 강남구", "area_m2": Decimal("76.79"), "floor": 4,
         "price_krw": 2_385_000_000, "deal_date": date(2024, 10, 12)},
    ]  # fmt: skip
    avg = fetch_one(
        "SELECT count(*) AS n, avg(price_krw)::bigint AS avg FROM re_transactions"
        " WHERE region = '서울 강남구'",
        pool=db,
    )
    assert avg == {
        "n": 4,
        "avg": (3_250_000_000 + 2_600_000_000 + 2_385_000_000 + 4_650_000_000) // 4,
    }
    raw = fetch_one(
        "SELECT price_manwon, registered_on, deal_type FROM molit_apt_trades WHERE floor = 9",
        pool=db,
    )
    assert raw == {"price_manwon": 260_000, "registered_on": "24.10.30", "deal_type": "중개거래"}


def test_molit_reimport_updates_without_duplicates(db: ConnectionPool) -> None:
    import_molit_apt_trades(MOLIT, pool=db)
    again = import_molit_apt_trades(MOLIT, pool=db)
    assert again.rows_loaded == 7
    counts = fetch_one(
        "SELECT (SELECT count(*) FROM re_transactions) AS tx,"
        " (SELECT count(*) FROM molit_apt_trades) AS raw",
        pool=db,
    )
    assert counts == {"tx": 7, "raw": 7}


def test_molit_dataset_is_catalogued_with_its_source(db: ConnectionPool) -> None:
    import_molit_apt_trades(MOLIT, pool=db)
    molit = next(d for d in catalogued_datasets(db) if d.dataset_code == "KR_APT_TRADES_MOLIT")
    assert (molit.table_name, molit.source, molit.domain) == (
        "molit_apt_trades", "molit", "real_estate",
    )  # fmt: skip
    status = next(
        s
        for s in dataset_statuses(date(2024, 11, 1), db, datasets=(molit,))
        if s.dataset_code == "KR_APT_TRADES_MOLIT"
    )
    assert (status.rows, status.min_date, status.max_date) == (
        7,
        date(2024, 10, 3),
        date(2024, 10, 25),
    )


def test_region_names_follow_the_real_estate_tables() -> None:
    assert region_of("서울특별시 강남구 개포동") == "서울 강남구"
    assert region_of("경기도 성남시 분당구 정자동") == "경기 성남시 분당구"
    assert region_of("세종특별자치시 어진동") == "세종"


def test_bad_molit_files_get_korean_messages_and_load_nothing(
    db: ConnectionPool, tmp_path: Path
) -> None:
    empty = tmp_path / "empty.csv"
    empty.write_bytes(b"")
    with pytest.raises(ImportFailed, match="빈 파일입니다"):
        import_molit_apt_trades(empty, pool=db)
    latin = tmp_path / "latin.csv"
    latin.write_bytes(b"\xff\xfe\x00\x81\xfe" * 20)
    with pytest.raises(ImportFailed, match="인코딩을 읽을 수 없습니다"):
        import_molit_apt_trades(latin, pool=db)
    other = tmp_path / "prices.csv"
    other.write_text("날짜,종가\n2024-01-02,100\n", encoding="utf-8")
    with pytest.raises(ImportFailed, match="실거래가 CSV가 아닙니다"):
        import_molit_apt_trades(other, pool=db)
    assert fetch_one("SELECT count(*) AS n FROM re_transactions", pool=db) == {"n": 0}
    runs = fetch_all("SELECT status FROM import_runs", pool=db)
    assert [r["status"] for r in runs] == ["error", "error", "error"]


# ---------------------------------------------------------------- OpenDART


def test_dart_disclosures_list(db: ConnectionPool) -> None:
    result = import_dart_disclosures(FIXTURES / "dart_list_005930.json", pool=db)
    assert (result.rows_read, result.rows_loaded, result.rows_failed) == (5, 4, 1)
    assert result.failures[0].column == "rcept_no"  # a 13-digit 접수번호
    rows = fetch_all(
        "SELECT rcept_no, security_id, report_nm, rcept_dt, url FROM dart_disclosures"
        " ORDER BY rcept_dt DESC LIMIT 2",
        pool=db,
    )
    assert rows[0]["report_nm"] == "임원ㆍ주요주주특정증권등소유상황보고서"
    assert rows[1] == {
        "rcept_no": "20241118000123", "security_id": "KR:005930",
        "report_nm": "[기재정정]주요사항보고서(자기주식취득결정)", "rcept_dt": date(2024, 11, 18),
        "url": "https://dart.fss.or.kr/dsaf001/main.do?rcpNo=20241118000123",
    }  # fmt: skip
    dataset = fetch_one(
        "SELECT source, domain FROM datasets WHERE dataset_code = 'DART_DISCLOSURES'", pool=db
    )
    assert dataset == {"source": "opendart", "domain": "documents"}


def test_dart_filings_become_macro_evidence(db: ConnectionPool) -> None:
    with db.connection() as conn:
        upsert_stock(conn, StockInfo("KR:005930", "삼성전자", sector="반도체"))  # type: ignore[arg-type]
    import_dart_disclosures(FIXTURES / "dart_list_005930.json", pool=db)
    evidence = get_template("documents_by_keyword")  # the Macro screen's SQL evidence read
    rows = fetch_all(
        evidence.text,
        {"themes": [], "codes": [], "ids": ["KR:005930"], "as_of": date(2024, 11, 30)},
        pool=db,
    )
    assert [(r["title"], r["theme"]) for r in rows] == [
        ("삼성전자 임원ㆍ주요주주특정증권등소유상황보고서", "지배구조"),
        ("삼성전자 [기재정정]주요사항보고서(자기주식취득결정)", "자사주"),
        ("삼성전자 분기보고서 (2024.09)", "실적"),
        ("삼성전자 연결재무제표기준영업(잠정)실적(공정공시)", "실적"),
    ]
    assert rows[0]["url"] == "https://dart.fss.or.kr/dsaf001/main.do?rcpNo=20241120000456"


def test_dart_single_company_accounts(db: ConnectionPool) -> None:
    result = import_dart_accounts(FIXTURES / "dart_fnlttSinglAcnt_005930_2023.json", pool=db)
    assert (result.rows_loaded, result.rows_failed) == (9, 1)  # '이익잉여금' amount 'N/A'
    rows = {
        r["account_nm"]: r
        for r in fetch_all(
            "SELECT account_nm, period_end, thstrm_amount, frmtrm_amount FROM"
            " dart_financial_accounts WHERE security_id = 'KR:005930' AND fs_div = 'CFS'",
            pool=db,
        )
    }
    assert rows["매출액"]["thstrm_amount"] == Decimal("258935494000000")
    assert rows["영업이익"]["frmtrm_amount"] == Decimal("43376630000000")
    assert {r["period_end"] for r in rows.values()} == {date(2023, 12, 31)}


def test_dart_error_status_is_reported(db: ConnectionPool) -> None:
    with pytest.raises(ImportFailed, match="OpenDART 오류 013: 조회된 데이타가 없습니다"):
        import_dart_disclosures(FIXTURES / "dart_error_013.json", pool=db)
    assert fetch_one("SELECT status FROM import_runs", pool=db) == {"status": "error"}


# ---------------------------------------------------------------- ECOS and KOSIS


def test_ecos_statistic_search_json_is_the_base_rate_series(db: ConnectionPool) -> None:
    [result] = import_ecos_file(FIXTURES / "ecos_StatisticSearch_722Y001_M.json", pool=db)
    assert (result.dataset_code, result.rows_loaded) == ("KR_BASE_RATE", 12)
    series = fetch_one(
        "SELECT name_ko, unit, frequency, source FROM macro_series WHERE series_code = 'KR_BASE_RATE'",
        pool=db,
    )
    assert series == {"name_ko": "한국은행 기준금리", "unit": "percent", "frequency": "monthly",
                      "source": "ecos:ecos_StatisticSearch_722Y001_M.json"}  # fmt: skip
    last = fetch_all(
        "SELECT obs_date, value FROM macro_observations WHERE series_code = 'KR_BASE_RATE'"
        " ORDER BY obs_date DESC LIMIT 3",
        pool=db,
    )
    assert [(r["obs_date"], r["value"]) for r in last] == [
        (date(2024, 12, 1), 3.0), (date(2024, 11, 1), 3.0), (date(2024, 10, 1), 3.25),
    ]  # fmt: skip


def test_ecos_csv_download_and_error_answer(db: ConnectionPool) -> None:
    [result] = import_ecos_file(
        FIXTURES / "ecos_usdkrw_daily.csv", series_code="KR_USDKRW", pool=db
    )
    assert (result.rows_loaded, result.first_date, result.last_date) == (
        5, date(2024, 11, 25), date(2024, 11, 29),
    )  # fmt: skip
    value = fetch_one(
        "SELECT value FROM macro_observations WHERE series_code = 'KR_USDKRW'"
        " AND obs_date = '2024-11-26'",
        pool=db,
    )
    assert value == {"value": 1400.9}
    with pytest.raises(ImportFailed, match="ECOS 오류 INFO-200: 해당하는 데이터가 없습니다"):
        import_ecos_file(FIXTURES / "ecos_error_INFO-200.json", pool=db)


def test_kosis_cp949_download_one_row(db: ConnectionPool) -> None:
    with pytest.raises(ImportFailed, match="행이 3개입니다"):
        import_kosis_csv(FIXTURES / "kosis_cpi_sido_cp949.csv", series_code="KR_CPI", pool=db)
    result = import_kosis_csv(
        FIXTURES / "kosis_cpi_sido_cp949.csv", series_code="KR_CPI_BUSAN",
        name_ko="부산 소비자물가지수", unit="index 2020=100", where={"시도별": "부산광역시"}, pool=db,
    )  # fmt: skip
    # '2024.11 p)' is a provisional November; 'X' (비밀보호) is skipped, not failed.
    assert (result.rows_loaded, result.rows_skipped, result.rows_failed) == (4, 1, 0)
    rows = fetch_all(
        "SELECT obs_date, value FROM macro_observations WHERE series_code = 'KR_CPI_BUSAN'"
        " ORDER BY obs_date",
        pool=db,
    )
    assert rows[-1] == {"obs_date": date(2024, 11, 1), "value": 114.01}


def test_periods() -> None:
    assert parse_period("2024.03 p)") == (date(2024, 3, 1), "monthly")
    assert parse_period("2024.2/4") == (date(2024, 4, 1), "quarterly")
    assert parse_period("2024Q3") == (date(2024, 7, 1), "quarterly")
    assert parse_period("20240102") == (date(2024, 1, 2), "daily")
    with pytest.raises(ValueError, match="시점 형식"):
        parse_period("지난달")


def test_cli_runs_the_new_sources(db: ConnectionPool, db_uri: str) -> None:  # noqa: F811
    done = _cli(db_uri, "kosis", "--file", str(FIXTURES / "kosis_cpi_sido_cp949.csv"),
                "--series-code", "KR_CPI", "--row", "시도별=전국")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "kosis kosis:kosis_cpi_sido_cp949.csv -> macro_observations" in done.stdout
    failed = _cli(db_uri, "dart", "--kind", "list", "--file", str(FIXTURES / "dart_error_013.json"))
    assert failed.returncode == 1
    assert "OpenDART 오류 013" in failed.stderr


# ---------------------------------------------------------------- into the answers


def test_imported_deals_and_series_reach_the_macro_answer(db: ConnectionPool) -> None:
    """The MOLIT deals (만원 → 원), the ECOS base rate and a KOSIS series under a code of its own,
    imported into an empty database, are what the offline Macro answer states and cites (no
    graph: SQL answers). The KOSIS series is asked by its name or its code; its name holds a
    rules' alias ('소비자물가지수'), which is not read as the national CPI."""
    from agents.macro.service import answer_question, make_context
    from data_access.config import get_settings

    import_molit_apt_trades(MOLIT, pool=db)
    import_ecos_file(FIXTURES / "ecos_StatisticSearch_722Y001_M.json", pool=db)
    import_kosis_csv(
        FIXTURES / "kosis_cpi_sido_cp949.csv", series_code="KR_CPI_BUSAN",
        name_ko="부산 소비자물가지수", unit="index 2020=100", where={"시도별": "부산광역시"}, pool=db,
    )  # fmt: skip
    settings = get_settings()
    busan = "부산 소비자물가지수 최신값 114.01 (2024-11-01)"
    kosis, ecos, molit = (
        "KOSIS (통계청 국가통계포털)",
        "한국은행 ECOS",
        "국토교통부 실거래가 공개시스템",
    )
    asked = {
        "부산 소비자물가지수 최근": (busan, "macro_observations", {"code": "KR_CPI_BUSAN"}, kosis),
        "KR_CPI_BUSAN 추이": (busan, "macro_observations", {"code": "KR_CPI_BUSAN"}, kosis),
        "서울 강남구 아파트 실거래가 최근 3개월": (
            "서울 강남구 실거래 중위가격 2024-10 29억 2,500만 원",  # (26억 + 32억 5천만) / 2
            "re_transactions", {"region": "서울 강남구"}, molit,
        ),
        "한국 기준금리 최근 1년": (
            "한국은행 기준금리 최신값 3.00% (2024-11-01)",
            "macro_observations", {"code": "KR_BASE_RATE"}, ecos,
        ),
    }  # fmt: skip
    for question, (said, table, filters, source) in asked.items():
        context = make_context(settings, db, None, as_of="2024-11-20")
        answer = answer_question(question, settings=settings, pool=db, context=context)
        assert said in answer.answer, answer.answer
        [one] = [c for c in answer.structured_citations if c.table == table]
        assert filters.items() <= one.filters.items() and one.row_count > 0
        assert one.as_of_date == "2024-11-20"
        assert one.source == source  # the citation names its publisher (issue 35)
        # ... and so does what the API and the downloads send
        assert answer.model_dump(mode="json")["structured_citations"][0]["source"] == source
    both = answer_question("부산 소비자물가지수와 한국 기준금리", settings=settings, pool=db,
                           context=make_context(settings, db, None, as_of="2024-11-20"))  # fmt: skip
    assert busan in both.answer and "한국은행 기준금리 최신값 3.00%" in both.answer
    assert [c.dataset_code for c in both.structured_citations] == ["KR_CPI_BUSAN", "KR_BASE_RATE"]
    cited = ["KR_CPI_BUSAN", "KR_BASE_RATE", "KR_REAL_ESTATE_TRANSACTIONS"]
    sources = fetch_all(  # each cited dataset's catalogue row names the file it came from
        "SELECT dataset_code, source FROM datasets WHERE dataset_code = ANY(%s) ORDER BY 1",
        (cited,), pool=db,
    )  # fmt: skip
    assert [(r["dataset_code"], r["source"]) for r in sources] == [
        ("KR_BASE_RATE", "ecos:ecos_StatisticSearch_722Y001_M.json"),
        ("KR_CPI_BUSAN", "kosis:kosis_cpi_sido_cp949.csv"),
        ("KR_REAL_ESTATE_TRANSACTIONS", f"molit:{MOLIT.name}"),
    ]


def test_imported_dart_accounts_reach_the_macro_equity_answer(db: ConnectionPool) -> None:
    """OpenDART 단일회사 주요계정 imported (fnlttSinglAcnt.json): the offline Macro answer about
    the company's results states the report's income lines with OpenDART named, cited as the
    imported dataset, whose catalogue row names OpenDART."""
    from agents.macro.service import answer_question, make_context
    from data_access.config import get_settings

    with db.connection() as conn:
        upsert_stock(conn, StockInfo("KR:005930", "삼성전자", sector="반도체"))  # type: ignore[arg-type]
    import_dart_accounts(FIXTURES / "dart_fnlttSinglAcnt_005930_2023.json", pool=db)
    settings = get_settings()
    context = make_context(settings, db, None, as_of="2024-11-20")
    answer = answer_question("삼성전자 실적", settings=settings, pool=db, context=context)
    line = next(p for p in answer.answer.splitlines() if "OpenDART 단일회사 주요계정" in p)
    # its subject is the company, by code or by name (the screen writes names for codes)
    assert line.split(" OpenDART", 1)[0] in ("- KR:005930", "- 삼성전자")
    assert "OpenDART 단일회사 주요계정(2023 사업보고서, 연결, 2023-12-31): " in line
    assert "매출액 258조 9,355억 원" in line and "(전기 43조 3,766억 원)" in line
    [cited] = [c for c in answer.structured_citations if c.table == "dart_financial_accounts"]
    assert cited.dataset_code == "DART_SINGLE_ACCOUNTS" and cited.row_count > 0
    assert cited.source == "OpenDART (금융감독원 전자공시)"
    source = fetch_one("SELECT source FROM datasets WHERE dataset_code = %s",
                       (cited.dataset_code,), pool=db)  # fmt: skip
    assert source == {"source": "opendart"}


def test_imported_prices_are_cited_as_their_file(db: ConnectionPool) -> None:
    """A stock's prices imported on their own are cited with the file they came from, not as
    the demo's whole-market dataset (issue 35: every citation names its source)."""
    from agents.evidence import EvidenceCollector
    from agents.stock.data import StockData
    from data_access.importers.csv_importer import import_ohlcv_csv
    from data_access.publishers import with_sources

    import_ohlcv_csv(FIXTURES / "ohlcv_kr_005930_cp949.csv", "KR:005930", pool=db)
    data = StockData(db, EvidenceCollector(), date(2024, 1, 8))
    assert len(data.history("KR:005930", 30)) == 5
    [cited] = with_sources(data.collector.citations, pool=db)[0]
    assert (cited.dataset_code, cited.table) == ("KR_STOCK_DAILY_OHLCV", "stock_prices")
    assert cited.source == "CSV 파일 (ohlcv_kr_005930_cp949.csv)"


def _ohlcv_export(path: Path, sessions: int) -> Path:
    """A daily OHLCV download in the fixture's format (cp949, Korean headers, '2024.12.31'
    dates, quoted thousands), newest first, `sessions` weekdays up to 2024-12-31."""
    days: list[date] = []
    day = date(2024, 12, 31)
    while len(days) < sessions:
        if day.weekday() < 5:
            days.append(day)
        day -= timedelta(days=1)
    lines = ["날짜,시가,고가,저가,종가,거래량"]
    for i, d in enumerate(days):
        close = 70_000 + 100 * (i % 37) - 50 * (i % 11)
        lines.append(f'{d:%Y.%m.%d},"{close - 300:,}","{close + 500:,}","{close - 700:,}",'
                     f'"{close:,}","{1_000_000 + 977 * i:,}"')  # fmt: skip
    path.write_bytes(("\n".join(lines) + "\n").encode("cp949"))
    return path


def test_a_report_on_imported_prices_names_the_file(db: ConnectionPool, tmp_path: Path) -> None:
    """The stock report over prices imported from a CSV download (nothing else in the
    database): a real LangGraph run whose sources line and price citations name the file."""
    from agents.stock.service import generate_report
    from data_access.importers.csv_importer import import_ohlcv_csv

    export = _ohlcv_export(tmp_path / "kr_005930_daily.csv", 300)
    meta = StockInfo("", name="삼성전자", market="KOSPI", sector="반도체")
    assert import_ohlcv_csv(export, code="5930", country="KR", stock=meta, pool=db).status == "ok"
    answer = generate_report("KR:005930", pool=db, save=False)
    assert answer.status == "ok", answer.error
    sources = answer.answer.split("## 데이터 출처", 1)[1]
    assert (
        "- 시세: PostgreSQL `stock_prices` — CSV 파일 (kr_005930_daily.csv) "
        "(최근 거래일 2024-12-31, 기준일 2024-12-31)"
    ) in sources
    prices = [c for c in answer.structured_citations if c.table == "stock_prices"]
    assert prices and {c.source for c in prices} == {"CSV 파일 (kr_005930_daily.csv)"}
