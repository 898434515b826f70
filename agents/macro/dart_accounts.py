"""A company's OpenDART 단일회사 주요계정 for the Equity agent (issue 35, seed 004 §12.2-3).

    accounts_answer(resp, ctx, route, "KR:005930")   # '삼성전자 실적', '삼성전자 매출액'

Reads the latest imported report's income lines (`dart_accounts` template over
`dart_financial_accounts`, cited as DART_SINGLE_ACCOUNTS, whose catalogue row names OpenDART)
and says them with their source, report and basis:
'KR:005930 OpenDART 단일회사 주요계정(2023 사업보고서, 연결, 2023-12-31): 매출액 258조 9,355억 원
(전기 302조 2,314억 원), …'. Nothing is said when none was imported (the demo has none).
"""

from __future__ import annotations

from agents.macro.router import Route
from agents.macro.state import AgentResponse, RunContext
from agents.macro.tools import lang_text, run_step
from data_access.figures import fmt_krw

ACCOUNT_WORDS = ("실적", "매출", "영업이익", "순이익", "earnings", "revenue", "operating profit",
                 "net income")  # fmt: skip
REPORTS = {"11011": ("사업보고서", "annual report"), "11012": ("반기보고서", "half-year report"),
           "11013": ("1분기보고서", "Q1 report"), "11014": ("3분기보고서", "Q3 report")}  # fmt: skip
BASIS = {"CFS": ("연결", "consolidated"), "OFS": ("별도", "separate")}
SHOWN = ("매출액", "영업이익", "당기순이익")


def asks_accounts(question: str) -> bool:
    low = question.lower()
    return any(w in low for w in ACCOUNT_WORDS)


def accounts_answer(resp: AgentResponse, ctx: RunContext, route: Route, sid: str) -> None:
    """The imported report's revenue, operating and net income, this period and the last."""
    cited = len(resp.structured_citations)
    result = run_step(resp, ctx, "dart_accounts", {"security_id": sid, "as_of": ctx.as_of_date},
                      allow_fallback=False)  # fmt: skip
    rows = [r for r in (result.rows if result else []) if r["account_nm"] in SHOWN]
    if not rows:
        del resp.structured_citations[cited:]  # nothing imported: nothing to cite
        return
    lang, first = route.language, rows[0]
    report = REPORTS.get(str(first["reprt_code"]), (str(first["reprt_code"]),) * 2)
    basis = BASIS.get(str(first["fs_div"]), (str(first["fs_div"]),) * 2)
    lines = []
    for r in rows:
        before = r["frmtrm_amount"]
        prior = "" if before is None else lang_text(lang, f" (전기 {fmt_krw(float(before), lang=lang)})",
                                                    f" (prior {fmt_krw(float(before), lang=lang)})")  # fmt: skip
        lines.append(f"{r['account_nm']} {fmt_krw(float(r['thstrm_amount']), lang=lang)}{prior}")
    resp.key_points.append(lang_text(
        lang,
        f"{sid} OpenDART 단일회사 주요계정({first['bsns_year']} {report[0]}, {basis[0]}, "
        f"{first['period_end']}): " + ", ".join(lines) + ".",
        f"{sid} OpenDART key accounts ({first['bsns_year']} {report[1]}, {basis[1]}, "
        f"{first['period_end']}): " + ", ".join(lines) + ".",
    ))  # fmt: skip
