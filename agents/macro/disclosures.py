"""A company's OpenDART filings and guidance for the Equity agent (issue 35, seed 004 §12.2-3).

    disclosure_answer(resp, ctx, route, "KR:005930")   # '삼성전자 최근 공시', '삼성전자 가이던스'

Reads `dart_disclosures` (OpenDART 공시검색 list.json, imported or the demo's) joined to the
disclosure document, event and evidence the importer writes, through the `company_disclosures`
template (guarded, read-only, cited as DART_DISCLOSURES). The answer names its source
(OpenDART 전자공시) in the text and in every document citation's title. A guidance question
reads the filings themed 가이던스 (장래사업ㆍ경영계획, 전망 공정공시) and quotes their evidence.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from agents.macro.router import Route
from agents.macro.state import AgentResponse, RunContext
from agents.macro.tools import lang_text, run_step
from data_access.contracts import Citation

SOURCE_KO, SOURCE_EN = "OpenDART 전자공시", "OpenDART (DART e-disclosure)"
DISCLOSURE_WORDS = ("공시", "disclosure", "filing", "dart")
GUIDANCE_WORDS = ("가이던스", "guidance", "실적 전망", "경영계획", "outlook")
RECENT_DAYS = 92  # '최근 공시' without a window: the last three months
GUIDANCE_DAYS = 366
MAX_LISTED = 6


def asks_guidance(question: str) -> bool:
    low = question.lower()
    return any(w in low for w in GUIDANCE_WORDS)


def asks_disclosures(question: str) -> bool:
    low = question.lower()
    return asks_guidance(question) or any(w in low for w in DISCLOSURE_WORDS)


def _start(ctx: RunContext, route: Route, days: int) -> str:
    frame = route.frame
    if frame is not None and frame.period is not None:
        days = max(1, round(frame.period.months * 30.44))
    return (date.fromisoformat(ctx.as_of_date) - timedelta(days=days)).isoformat()


def disclosure_answer(resp: AgentResponse, ctx: RunContext, route: Route, sid: str) -> None:
    """The company's recent filings, or its guidance filings, each dated and cited; nothing
    when the question asks neither."""
    if not sid.startswith("KR:") or not asks_disclosures(route.question):
        return
    guidance = asks_guidance(route.question)
    start = _start(ctx, route, GUIDANCE_DAYS if guidance else RECENT_DAYS)
    params = {"security_id": sid, "start": start, "as_of": ctx.as_of_date,
              "theme": "가이던스" if guidance else "*", "n": 20}  # fmt: skip
    result = run_step(resp, ctx, "company_disclosures", params, allow_fallback=False)
    rows = result.rows if result else []
    what = ("가이던스 공시", "guidance filings") if guidance else ("공시", "filings")
    if not rows:
        resp.uncertainty.append(lang_text(
            route.language,
            f"{sid}의 {start}~{ctx.as_of_date} {what[0]}가 {SOURCE_KO} 데이터에 없습니다.",
            f"No {what[1]} of {sid} from {start} to {ctx.as_of_date} in the {SOURCE_EN} data."))  # fmt: skip
        return
    for r in rows:
        _cite(resp, r)
    name = rows[0]["corp_name"]
    if guidance:
        latest = rows[0]
        resp.key_points.insert(0, lang_text(
            route.language,
            f"{name}({sid}) 가이던스 ({SOURCE_KO}, {latest['rcept_dt']} {latest['report_nm']}): "
            f"{_sentence(latest)}",
            f"{name} ({sid}) guidance ({SOURCE_EN}, {latest['rcept_dt']} {latest['report_nm']}): "
            f"{_sentence(latest)}",
        ))  # fmt: skip
        return
    listed = "; ".join(f"{r['rcept_dt']} {r['report_nm']}" for r in rows[:MAX_LISTED])
    more = len(rows) - MAX_LISTED
    resp.key_points.insert(0, lang_text(
        route.language,
        f"{name}({sid}) 최근 공시 {len(rows)}건 ({SOURCE_KO}, {start}~{ctx.as_of_date}): {listed}"
        + (f" 외 {more}건." if more > 0 else ".")
        + (f" 가장 최근 공시 내용: {_sentence(rows[0])}" if rows[0]["text"] else ""),
        f"{name} ({sid}): {len(rows)} filings ({SOURCE_EN}, {start} to {ctx.as_of_date}): "
        f"{listed}" + (f" and {more} more." if more > 0 else "."),
    ))  # fmt: skip


def _sentence(row: dict[str, Any]) -> str:
    text = str(row["text"] or row["report_nm"]).strip()
    return text if text.endswith(".") else text + "."


def _cite(resp: AgentResponse, row: dict[str, Any]) -> None:
    doc_id = row["doc_id"] or f"dart:{row['rcept_no']}"
    if any(c.doc_id == doc_id for c in resp.citations):
        return
    resp.citations.append(Citation(
        doc_id=doc_id, title=f"[{SOURCE_KO}] {row['corp_name']} {row['report_nm']} ({row['rcept_dt']})",
        url=row["url"], evidence_id=row["evidence_id"]))  # fmt: skip
