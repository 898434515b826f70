"""OpenDART (금융감독원 전자공시) JSON: 공시검색 `list.json` and 단일회사 주요계정 `fnlttSinglAcnt.json`.

    import_dart_disclosures(Path("list.json"))          # -> dart_disclosures (DART_DISCLOSURES)
    import_dart_accounts(Path("fnlttSinglAcnt.json"))   # -> dart_financial_accounts

Both answer `{"status": "000", "message": "정상", "list": [...]}`; any other status is OpenDART's
own error ("013" 조회된 데이타가 없습니다, "020" 요청 제한 초과, ...) and is reported with its
message. Amounts are strings with thousands separators in 원 ('258,935,494,000,000').
A company's `stock_code` (6 digits) becomes `security_id` KR:xxxxxx so answers can join stocks.
Filings are also written as Macro evidence (dart_documents.py: document, event, SUPPORTS).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from psycopg_pool import ConnectionPool

from data_access.errors import ImportFailed
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
from data_access.importers.dart_documents import store_disclosure_documents
from data_access.importers.source_files import compact_date, parse_amount, read_source_text

DISCLOSURES_DATASET = "DART_DISCLOSURES"
ACCOUNTS_DATASET = "DART_SINGLE_ACCOUNTS"
VIEWER_URL = "https://dart.fss.or.kr/dsaf001/main.do?rcpNo="
REPORT_CODES = {"11013": "1분기보고서", "11012": "반기보고서", "11014": "3분기보고서",
                "11011": "사업보고서"}  # fmt: skip
_RCEPT_NO = re.compile(r"^[0-9]{14}$")
_PERIOD_END = re.compile(r"([0-9]{4})\.([0-9]{2})\.([0-9]{2})\s*(현재)?\s*$")


def read_dart_json(path: Path) -> list[dict[str, Any]]:
    """The `list` of an OpenDART answer; ImportFailed with OpenDART's message otherwise."""
    try:
        body = json.loads(read_source_text(path))
    except json.JSONDecodeError as e:
        raise ImportFailed(f"{path.name}: JSON 형식이 아닙니다 ({e.msg}, {e.lineno}행)") from e
    if not isinstance(body, dict) or "status" not in body:
        raise ImportFailed(f"{path.name}: OpenDART 응답이 아닙니다 ('status' 필드가 없습니다)")
    if body["status"] != "000":
        raise ImportFailed(
            f"{path.name}: OpenDART 오류 {body['status']}: {body.get('message', '(메시지 없음)')}"
        )
    items = body.get("list")
    if not isinstance(items, list):
        raise ImportFailed(f"{path.name}: OpenDART 응답에 'list' 배열이 없습니다")
    return [i for i in items if isinstance(i, dict)]


def security_of(stock_code: str | None) -> str | None:
    code = (stock_code or "").strip()
    return f"KR:{code}" if re.fullmatch(r"[0-9A-Z]{6}", code) else None


# ---------------------------------------------------------------- list.json


@dataclass(frozen=True)
class Disclosure:
    rcept_no: str
    corp_code: str
    corp_name: str
    stock_code: str | None
    corp_cls: str | None
    report_nm: str
    flr_nm: str
    rcept_dt: date
    rm: str | None

    @property
    def url(self) -> str:
        return VIEWER_URL + self.rcept_no


def parse_disclosures(items: list[dict[str, Any]]) -> ParsedRows[Disclosure]:
    parsed: ParsedRows[Disclosure] = ParsedRows()
    for n, item in enumerate(items, start=1):
        parsed.read += 1
        where = f"list[{n - 1}]"
        rcept_no = str(item.get("rcept_no", "")).strip()
        if not _RCEPT_NO.match(rcept_no):
            parsed.failures.append(
                RowFailure(where, "rcept_no", f"접수번호가 14자리가 아닙니다: '{rcept_no}'")
            )
            continue
        try:
            day = compact_date(str(item.get("rcept_dt", "")))
        except ValueError as e:
            parsed.failures.append(RowFailure(where, "rcept_dt", str(e)))
            continue
        name, report = (
            str(item.get("corp_name", "")).strip(),
            str(item.get("report_nm", "")).strip(),
        )
        if not name or not report:
            parsed.failures.append(
                RowFailure(where, "corp_name" if not name else "report_nm", "값이 비어 있습니다")
            )
            continue
        parsed.rows.append(Disclosure(
            rcept_no, str(item.get("corp_code", "")).strip(), name,
            str(item.get("stock_code") or "").strip() or None, item.get("corp_cls") or None,
            " ".join(report.split()), str(item.get("flr_nm", "")).strip() or name, day,
            str(item.get("rm") or "").strip() or None,
        ))  # fmt: skip
        parsed.row_locations.append(where)
    return parsed


_UPSERT_DISCLOSURE = """
INSERT INTO dart_disclosures (rcept_no, corp_code, corp_name, stock_code, security_id, corp_cls,
    report_nm, flr_nm, rcept_dt, rm, url)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)
ON CONFLICT (rcept_no) DO UPDATE SET corp_name = EXCLUDED.corp_name,
    report_nm = EXCLUDED.report_nm, rm = EXCLUDED.rm, imported_at = now()"""


def _disclosures_spec() -> DatasetSpec:
    return DatasetSpec(DISCLOSURES_DATASET, "dart_disclosures", "documents", "rcept_dt", None,
                       "전자공시 목록 (OpenDART)", "opendart", 7)  # fmt: skip


def load_disclosures(conn: Conn, parsed: ParsedRows[Disclosure]) -> LoadOutcome:
    outcome = LoadOutcome(parsed.read, 0, list(parsed.failures), parsed.skipped)
    rows = {d.rcept_no: d for d in parsed.rows}.values()
    with conn.cursor() as cur:
        cur.executemany(_UPSERT_DISCLOSURE, [
            (d.rcept_no, d.corp_code, d.corp_name, d.stock_code, security_of(d.stock_code),
             d.corp_cls, d.report_nm, d.flr_nm, d.rcept_dt, d.rm, d.url) for d in rows
        ])  # fmt: skip
    store_disclosure_documents(conn, rows, {d.rcept_no: security_of(d.stock_code) for d in rows})
    outcome.rows_loaded = len(rows)
    if rows:
        outcome.datasets = [_disclosures_spec()]
        outcome.first_date = min(d.rcept_dt for d in rows)
        outcome.last_date = max(d.rcept_dt for d in rows)
    return outcome


def import_dart_disclosures(path: Path, pool: ConnectionPool | None = None) -> ImportResult:
    """Load an OpenDART 공시검색 (list.json) answer into dart_disclosures."""
    job = ImportJob("opendart", f"opendart:{path.name}", DISCLOSURES_DATASET, "dart_disclosures")
    return run_import(job, lambda: parse_disclosures(read_dart_json(path)), load_disclosures, pool)


# ---------------------------------------------------------------- fnlttSinglAcnt.json


@dataclass(frozen=True)
class Account:
    rcept_no: str
    corp_code: str
    stock_code: str | None
    bsns_year: int
    reprt_code: str
    fs_div: str
    sj_div: str
    account_nm: str
    period_end: date
    thstrm: float | None
    frmtrm: float | None
    bfefrmtrm: float | None
    thstrm_add: float | None
    currency: str
    ord: int | None


def period_end(text: str) -> date:
    """'2023.12.31 현재' or '2023.01.01 ~ 2023.12.31' -> date(2023, 12, 31)."""
    match = _PERIOD_END.search(text.strip())
    if not match:
        raise ValueError(f"기간 형식이 아닙니다: '{text}'")
    return date(int(match.group(1)), int(match.group(2)), int(match.group(3)))


def _account(item: dict[str, Any]) -> Account:
    def amount(key: str) -> float | None:
        try:
            return parse_amount(str(item.get(key) or ""))
        except ValueError as e:
            raise _FieldError(key, str(e)) from e

    rcept_no = str(item.get("rcept_no", "")).strip()
    if not _RCEPT_NO.match(rcept_no):
        raise _FieldError("rcept_no", f"접수번호가 14자리가 아닙니다: '{rcept_no}'")
    reprt_code = str(item.get("reprt_code", "")).strip()
    if reprt_code not in REPORT_CODES:
        raise _FieldError("reprt_code", f"알 수 없는 보고서 코드입니다: '{reprt_code}'")
    try:
        end = period_end(str(item.get("thstrm_dt", "")))
        year = int(str(item.get("bsns_year", "")))
    except ValueError as e:
        raise _FieldError("thstrm_dt", str(e)) from e
    name = " ".join(str(item.get("account_nm", "")).split())
    if not name:
        raise _FieldError("account_nm", "값이 비어 있습니다")
    ord_text = str(item.get("ord") or "").strip()
    return Account(
        rcept_no, str(item.get("corp_code", "")).strip(),
        str(item.get("stock_code") or "").strip() or None, year, reprt_code,
        str(item.get("fs_div", "")).strip(), str(item.get("sj_div", "")).strip(), name, end,
        amount("thstrm_amount"), amount("frmtrm_amount"), amount("bfefrmtrm_amount"),
        amount("thstrm_add_amount"), str(item.get("currency") or "KRW"),
        int(ord_text) if ord_text.isdigit() else None,
    )  # fmt: skip


class _FieldError(Exception):
    def __init__(self, column: str, message: str) -> None:
        super().__init__(message)
        self.column, self.message = column, message


def parse_accounts(items: list[dict[str, Any]]) -> ParsedRows[Account]:
    parsed: ParsedRows[Account] = ParsedRows()
    for n, item in enumerate(items):
        parsed.read += 1
        try:
            parsed.rows.append(_account(item))
            parsed.row_locations.append(f"list[{n}]")
        except _FieldError as e:
            parsed.failures.append(RowFailure(f"list[{n}]", e.column, e.message))
    return parsed


_UPSERT_ACCOUNT = """
INSERT INTO dart_financial_accounts (rcept_no, corp_code, stock_code, security_id, bsns_year,
    reprt_code, fs_div, sj_div, account_nm, period_end, thstrm_amount, frmtrm_amount,
    bfefrmtrm_amount, thstrm_add_amount, currency, ord)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)
ON CONFLICT (rcept_no, fs_div, sj_div, account_nm) DO UPDATE SET
    thstrm_amount = EXCLUDED.thstrm_amount, frmtrm_amount = EXCLUDED.frmtrm_amount,
    bfefrmtrm_amount = EXCLUDED.bfefrmtrm_amount, thstrm_add_amount = EXCLUDED.thstrm_add_amount,
    period_end = EXCLUDED.period_end, imported_at = now()"""


def _accounts_spec() -> DatasetSpec:
    return DatasetSpec(ACCOUNTS_DATASET, "dart_financial_accounts", "equity", "period_end", None,
                       "단일회사 주요계정 (OpenDART)", "opendart", 130)  # fmt: skip


def load_accounts(conn: Conn, parsed: ParsedRows[Account]) -> LoadOutcome:
    outcome = LoadOutcome(parsed.read, 0, list(parsed.failures), parsed.skipped)
    rows = {(a.rcept_no, a.fs_div, a.sj_div, a.account_nm): a for a in parsed.rows}.values()
    with conn.cursor() as cur:
        cur.executemany(_UPSERT_ACCOUNT, [
            (a.rcept_no, a.corp_code, a.stock_code, security_of(a.stock_code), a.bsns_year,
             a.reprt_code, a.fs_div, a.sj_div, a.account_nm, a.period_end, a.thstrm, a.frmtrm,
             a.bfefrmtrm, a.thstrm_add, a.currency, a.ord) for a in rows
        ])  # fmt: skip
    outcome.rows_loaded = len(rows)
    if rows:
        outcome.datasets = [_accounts_spec()]
        outcome.first_date = min(a.period_end for a in rows)
        outcome.last_date = max(a.period_end for a in rows)
    return outcome


def import_dart_accounts(path: Path, pool: ConnectionPool | None = None) -> ImportResult:
    """Load an OpenDART 단일회사 주요계정 (fnlttSinglAcnt.json) answer."""
    job = ImportJob(
        "opendart", f"opendart:{path.name}", ACCOUNTS_DATASET, "dart_financial_accounts"
    )
    return run_import(job, lambda: parse_accounts(read_dart_json(path)), load_accounts, pool)
