"""Demo OpenDART filings (issue 35, seed 004 §12.2-3): what `list.json` would list for the largest
Korean reporters, built from the loaded earnings so every figure agrees with `earnings_events`.

    add_demo_disclosures(conn, as_of)   # after the seed's load, in its transaction
    add_missing_disclosures(conn)       # `seed --if-missing` on a database seeded before this

Per confirmed quarter of the DEMO_NAMES largest KR reporters: the 잠정실적 공정공시 on the release
day and the 분기/반기/사업보고서 after it; per company, a 장래사업ㆍ경영계획 (guidance) filing with
its latest release, stating the next quarter's EPS estimate and date. Each filing is a
`dart_disclosures` row (as the importer writes it) and a disclosure document, event (themed by
the importer's rules: 실적, 가이던스) and SUPPORTS evidence naming the company, so the Macro
answers and the graph read demo filings and imported ones the same way. Demo URLs point at the
demo document host, never at dart.fss.or.kr (their 접수번호 are not real).
"""

from __future__ import annotations

import logging
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import psycopg

from data_access.importers.dart_documents import disclosure_theme
from data_access.seed.documents import DOC_URL

logger = logging.getLogger(__name__)

DEMO_NAMES = 10
KST = ZoneInfo("Asia/Seoul")
PRELIMINARY = "연결재무제표기준영업(잠정)실적(공정공시)"
GUIDANCE = "장래사업ㆍ경영계획(공정공시)"
_REPORT_DAYS = {"Q1": ("분기보고서", 3, 45), "Q2": ("반기보고서", 6, 45),
                "Q3": ("분기보고서", 9, 45), "Q4": ("사업보고서", 12, 80)}  # fmt: skip

# The largest KR reporters (latest market cap) and their earnings, oldest first.
_EARNINGS = """
WITH names AS (
    SELECT s.security_id, s.code, s.name FROM stocks s
    JOIN LATERAL (SELECT market_cap FROM stock_fundamentals f
                  WHERE f.security_id = s.security_id AND f.market_cap IS NOT NULL
                  ORDER BY f.as_of_date DESC LIMIT 1) f ON true
    WHERE s.country = 'KR' AND NOT s.is_etf
      AND EXISTS (SELECT 1 FROM earnings_events e WHERE e.security_id = s.security_id)
    ORDER BY f.market_cap DESC, s.security_id LIMIT %(n)s)
SELECT n.security_id, n.code, n.name, e.period, e.event_date, e.status, e.eps_estimate,
       e.eps_actual
FROM names n JOIN earnings_events e USING (security_id)
ORDER BY n.security_id, e.event_date"""

_DISCLOSURE = """INSERT INTO dart_disclosures (rcept_no, corp_code, corp_name, stock_code,
    security_id, corp_cls, report_nm, flr_nm, rcept_dt, rm, url)
VALUES (%s, %s, %s, %s, %s, 'Y', %s, %s, %s, %s, %s) ON CONFLICT (rcept_no) DO NOTHING"""
_DOC = """INSERT INTO documents (doc_id, title, url, doc_type, published_at, body, lang)
VALUES (%s, %s, %s, 'disclosure', %s, %s, 'ko') ON CONFLICT (doc_id) DO NOTHING"""
_EVENT = """INSERT INTO events (event_id, title, event_type, event_date, theme)
VALUES (%s, %s, 'disclosure', %s, %s) ON CONFLICT (event_id) DO NOTHING"""
_EVIDENCE = """INSERT INTO evidence (evidence_id, doc_id, event_id, text, indicator_code,
    security_id, relation) VALUES (%s, %s, %s, %s, NULL, %s, 'SUPPORTS')
ON CONFLICT (evidence_id) DO NOTHING"""


def _won(value: Any) -> str:
    return f"{float(value):,.0f}원"


def _filings(rows: list[dict[str, Any]], as_of: date) -> list[dict[str, Any]]:
    """(date, report name, evidence text) per filing, for each company's earnings rows."""
    out: list[dict[str, Any]] = []
    by_company: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by_company.setdefault(r["security_id"], []).append(r)
    for events in by_company.values():
        confirmed = [e for e in events if e["status"] == "confirmed" and e["event_date"] <= as_of]
        for e in confirmed:
            name, period = e["name"], e["period"]
            text = (f"{name} {period} 잠정실적: 주당순이익 {_won(e['eps_actual'])}"
                    f" (시장 예상 {_won(e['eps_estimate'])}).")  # fmt: skip
            out.append({"row": e, "day": e["event_date"], "report": PRELIMINARY, "text": text})
            kind, month, days = _REPORT_DAYS[period[-2:]]
            year = int(period[:4])
            quarter_end = date(year, month, 28) + timedelta(days=4)
            quarter_end -= timedelta(days=quarter_end.day)
            filed = quarter_end + timedelta(days=days)
            if filed <= as_of:
                report = f"{kind} ({year}.{month:02d})"
                out.append({"row": e, "day": filed, "report": report,
                            "text": f"{name} {report} 제출: {period} 주당순이익 {_won(e['eps_actual'])}."})  # fmt: skip
        upcoming = [e for e in events if e["status"] == "expected" and e["event_date"] > as_of]
        if confirmed and upcoming:
            last, nxt = confirmed[-1], upcoming[0]
            text = (f"{last['name']} {nxt['period']} 실적 전망(가이던스): 주당순이익 "
                    f"{_won(nxt['eps_estimate'])}, 발표 예정일 {nxt['event_date']}.")  # fmt: skip
            out.append({"row": last, "day": last["event_date"], "report": GUIDANCE, "text": text})
    out.sort(key=lambda f: (f["day"], f["row"]["security_id"], f["report"]))
    return out


def add_demo_disclosures(conn: psycopg.Connection[Any], as_of: date) -> int:
    """Write the demo filings (replacing earlier demo ones); returns how many."""
    conn.execute("DELETE FROM dart_disclosures WHERE url LIKE %s", (DOC_URL + "%",))
    cur = conn.execute(_EARNINGS, {"n": DEMO_NAMES})
    names = [c.name for c in cur.description or ()]
    rows = [r if isinstance(r, dict) else dict(zip(names, r, strict=True)) for r in cur.fetchall()]
    filings = _filings(rows, as_of)
    seq: dict[date, int] = {}
    for f in filings:
        e, day = f["row"], f["day"]
        seq[day] = seq.get(day, 0) + 1
        rcept_no = f"{day:%Y%m%d}80{seq[day]:04d}"
        doc_id, event_id = f"doc-dart-{rcept_no}", f"evt-dart-{rcept_no}"
        title = f"{e['name']} {f['report']}"
        url = DOC_URL + doc_id
        corp_code = f"9{e['code']}0"  # 8 digits like a DART 고유번호; not a real one
        conn.execute(_DISCLOSURE, (rcept_no, corp_code, e["name"], e["code"], e["security_id"],
                                   f["report"], e["name"], day, "유" if "공정공시" in f["report"]
                                   else "", url))  # fmt: skip
        published = datetime.combine(day, time(16, 0), KST)
        body = f"{title} (접수 {day}, 제출인 {e['name']}). {f['text']}"
        conn.execute(_DOC, (doc_id, title, url, published, body))
        conn.execute(_EVENT, (event_id, title, day, disclosure_theme(f["report"])))
        conn.execute(_EVIDENCE, (f"evd-dart-{rcept_no}-1", doc_id, event_id, f["text"],
                                 e["security_id"]))  # fmt: skip
    _register(conn)
    logger.info("demo OpenDART filings: %s", len(filings))
    return len(filings)


def _register(conn: psycopg.Connection[Any]) -> None:
    from data_access.importers.base import register_dataset
    from data_access.importers.dart import _disclosures_spec

    register_dataset(conn, _disclosures_spec())


def add_missing_disclosures(conn: psycopg.Connection[Any]) -> int:
    """Add the demo filings to a loaded demo database that has none (issue 35 top-up)."""
    with conn.transaction():
        row = conn.execute(
            "SELECT (SELECT as_of_date FROM seed_runs ORDER BY run_id DESC LIMIT 1) AS as_of,"
            " EXISTS (SELECT 1 FROM dart_disclosures WHERE url LIKE %s) AS has_demo",
            (DOC_URL + "%",),
        ).fetchone()
        values = (
            row
            if isinstance(row, dict)
            else dict(zip(("as_of", "has_demo"), row or (), strict=False))
        )
        if not values or values["as_of"] is None or values["has_demo"]:
            return 0
        return add_demo_disclosures(conn, values["as_of"])
