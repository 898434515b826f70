"""What the report's research reads from imported filings: the company's OpenDART 단일회사
주요계정 (issue 35, seed 004 §12.2-3): revenue, operating and net income with the report, basis
(연결/별도), period and receipt they come from; and who published the stock's prices when
they were imported (`price_source`).

    filed = filed_accounts(data, "KR:005930")
    # {'source': 'OpenDART (금융감독원 전자공시)', 'report': '2023 사업보고서', 'basis': '연결',
    #  'period_end': '2023-12-31', 'filed_on': '2024-03-12', 'rcept_no': '20240312000736',
    #  'lines': [{'account': '매출액', 'amount': 258935494000000.0, 'prior': 302231360000000.0,
    #             'change': -0.1433}, ...]}
    filed_lines(filed, "ko")   # the report's section, each figure with its report and basis

Only a report filed on or before the run's as-of date counts (the receipt number starts with the
filing date): a report published after the as-of date was not known then. Of that report, the
consolidated statements (CFS) before the separate ones (OFS). Nothing is read or said when no
report was imported (the demo has none); the query is cited either way.
"""

from __future__ import annotations

from typing import Any, TypedDict

from agents.stock.data import StockData
from data_access.figures import fmt_krw
from data_access.postgres import fetch_all
from data_access.publishers import OPENDART, dataset_publishers

DATASET = "DART_SINGLE_ACCOUNTS"
REPORTS = {"11011": ("사업보고서", "annual report"), "11012": ("반기보고서", "half-year report"),
           "11013": ("1분기보고서", "Q1 report"), "11014": ("3분기보고서", "Q3 report")}  # fmt: skip
BASIS = {"CFS": ("연결", "consolidated"), "OFS": ("별도", "separate")}
# OpenDART's names of the income lines (net income is '당기순이익(손실)' in some filings).
REVENUE, OPERATING, NET = "매출액", "영업이익", "당기순이익"
ENGLISH = {REVENUE: "Revenue", OPERATING: "Operating income", NET: "Net income"}

# The latest report filed by the as-of date, and its income lines in the filing's order.
FILED_ACCOUNTS = """
WITH latest AS (
    SELECT rcept_no, fs_div FROM dart_financial_accounts
    WHERE security_id = %(sid)s AND sj_div = 'IS' AND left(rcept_no, 8) <= %(as_of_digits)s
    ORDER BY left(rcept_no, 8) DESC, period_end DESC, fs_div = 'CFS' DESC LIMIT 1
)
SELECT a.rcept_no, a.bsns_year, a.reprt_code, a.fs_div, a.account_nm, a.period_end,
       a.thstrm_amount, a.frmtrm_amount, a.currency
FROM dart_financial_accounts a JOIN latest USING (rcept_no, fs_div)
WHERE a.security_id = %(sid)s AND a.sj_div = 'IS'
  AND (a.account_nm IN ('매출액', '영업이익') OR a.account_nm LIKE '당기순이익%%')
ORDER BY a.ord NULLS LAST, a.account_nm
"""


class FiledLine(TypedDict):
    account: str  # 매출액 | 영업이익 | 당기순이익
    amount: float | None
    prior: float | None  # the same line of the previous period (전기)
    change: float | None  # amount / prior - 1 (the writer's evidence for '-14.3%')


class FiledAccounts(TypedDict):
    source: str
    report: str  # '2023 사업보고서'
    report_en: str
    basis: str  # 연결 | 별도
    basis_en: str
    period_end: str
    filed_on: str
    rcept_no: str
    currency: str
    lines: list[FiledLine]


def _amount(value: Any) -> float | None:
    return None if value is None else float(value)


def filed_accounts(data: StockData, security_id: str) -> FiledAccounts | None:
    """The latest imported report's revenue, operating and net income (cited), or None."""
    params = {"sid": security_id, "as_of_digits": data.as_of.strftime("%Y%m%d")}
    rows = fetch_all(FILED_ACCOUNTS, params, data.pool)
    data._cite(DATASET, "dart_financial_accounts", FILED_ACCOUNTS, params, len(rows),
              filters={"security_id": security_id},
              end=rows[0]["period_end"].isoformat() if rows else None)  # fmt: skip
    if not rows:
        return None
    first = rows[0]
    report = REPORTS.get(str(first["reprt_code"]), (str(first["reprt_code"]),) * 2)
    basis = BASIS.get(str(first["fs_div"]), (str(first["fs_div"]),) * 2)
    digits = str(first["rcept_no"])[:8]
    return FiledAccounts(
        source=OPENDART, report=f"{first['bsns_year']} {report[0]}",
        report_en=f"{first['bsns_year']} {report[1]}", basis=basis[0], basis_en=basis[1],
        period_end=first["period_end"].isoformat(),
        filed_on=f"{digits[:4]}-{digits[4:6]}-{digits[6:]}", rcept_no=str(first["rcept_no"]),
        currency=str(first["currency"] or "KRW"),
        lines=[_line(r) for r in rows],
    )  # fmt: skip


def price_source(data: StockData, security_id: str) -> str | None:
    """Who published the stock's prices when they were imported on their own (a CSV file,
    Yahoo Finance: the `OHLCV_<country>_<code>` dataset an import registers), else None."""
    code = "OHLCV_" + security_id.replace(":", "_")
    return dataset_publishers({code}, data.pool).get(code)


def _line(row: dict[str, Any]) -> FiledLine:
    amount, prior = _amount(row["thstrm_amount"]), _amount(row["frmtrm_amount"])
    return FiledLine(
        account=NET if row["account_nm"].startswith(NET) else row["account_nm"],
        amount=amount, prior=prior,
        change=None if amount is None or not prior else amount / prior - 1,
    )  # fmt: skip


def _won(value: float | None, lang: str) -> str:
    """258조 9,355억 원 / KRW 258.94 trillion."""
    return "-" if value is None else fmt_krw(value, lang=lang)


def _change(line: FiledLine) -> str:
    return "-" if line["change"] is None else f"{line['change'] * 100:+.1f}%"


def filed_lines(filed: FiledAccounts | None, lang: str) -> list[str]:
    """The report's section on the filing: a table of the income lines, then its source."""
    if filed is None:
        return []
    ko = lang == "ko"
    head = "| 계정 | 당기 | 전기 | 증감 |" if ko else "| Account | This period | Prior | Change |"
    rows = [f"| {line['account'] if ko else ENGLISH.get(line['account'], line['account'])} "
            f"| {_won(line['amount'], lang)} | {_won(line['prior'], lang)} | {_change(line)} |"
            for line in filed["lines"]]  # fmt: skip
    if ko:
        cite = (f"_출처: {filed['source']} 단일회사 주요계정 — {filed['report']} "
                f"({filed['basis']}, {filed['period_end']} 기준, {filed['filed_on']} 접수, "
                f"접수번호 {filed['rcept_no']})_")  # fmt: skip
    else:
        cite = (f"_Source: {filed['source']} key accounts — {filed['report_en']} "
                f"({filed['basis_en']}, period ended {filed['period_end']}, filed "
                f"{filed['filed_on']}, receipt {filed['rcept_no']})_")  # fmt: skip
    return [head, "| --- | --- | --- | --- |", *rows, "", cite]


def filed_source_line(filed: FiledAccounts | None, lang: str) -> list[str]:
    """The line of the report's sources that names the filing."""
    if filed is None:
        return []
    if lang == "ko":
        return [f"- 공시 재무: {filed['source']} 단일회사 주요계정 `dart_financial_accounts` "
                f"({filed['report']}, {filed['basis']}, {filed['filed_on']} 접수)"]  # fmt: skip
    return [f"- Filed accounts: {filed['source']} key accounts dart_financial_accounts "
            f"({filed['report_en']}, {filed['basis_en']}, filed {filed['filed_on']})"]  # fmt: skip
