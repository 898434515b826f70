"""OpenDART filings as the Macro screen's evidence (documents, events, evidence).

    store_disclosure_documents(conn, disclosures)   # inside the list.json import transaction

Each filing becomes a `documents` row (doc_type 'disclosure', the DART viewer URL), an `events`
row (event_type 'disclosure', dated by 접수일자, its theme from the report name: 실적,
가이던스, 자사주, 지배구조, else 공시) and a SUPPORTS `evidence` row naming the company when it
is in `stocks` — the path the Macro evidence reads ('삼성전자 최근 공시'), in PostgreSQL and,
after the CLI's projection, in the graph (Evidence-SUPPORTS->Event-AFFECTS->Company).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, time
from typing import Protocol
from zoneinfo import ZoneInfo

from data_access.importers.base import Conn

KST = ZoneInfo("Asia/Seoul")
# Report-name words -> event theme, first match wins (정정 reports keep their kind's theme).
THEME_RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("가이던스", ("장래사업", "경영계획", "전망", "가이던스")),
    ("실적", ("실적", "사업보고서", "분기보고서", "반기보고서")),
    ("자사주", ("자기주식",)),
    ("지배구조", ("임원", "주요주주", "최대주주", "소유상황")),
)
DEFAULT_THEME = "공시"


class Filing(Protocol):
    @property
    def rcept_no(self) -> str: ...
    @property
    def corp_name(self) -> str: ...
    @property
    def report_nm(self) -> str: ...
    @property
    def flr_nm(self) -> str: ...
    @property
    def url(self) -> str: ...
    @property
    def rcept_dt(self) -> object: ...


def disclosure_theme(report_nm: str) -> str:
    for theme, words in THEME_RULES:
        if any(w in report_nm for w in words):
            return theme
    return DEFAULT_THEME


_DOC = """INSERT INTO documents (doc_id, title, url, doc_type, published_at, body, lang)
VALUES (%s, %s, %s, 'disclosure', %s, %s, 'ko')
ON CONFLICT (doc_id) DO UPDATE SET title = EXCLUDED.title, body = EXCLUDED.body"""
_EVENT = """INSERT INTO events (event_id, title, event_type, event_date, theme)
VALUES (%s, %s, 'disclosure', %s, %s)
ON CONFLICT (event_id) DO UPDATE SET title = EXCLUDED.title, theme = EXCLUDED.theme"""
_EVIDENCE = """INSERT INTO evidence (evidence_id, doc_id, event_id, text, indicator_code,
    security_id, relation) VALUES (%s, %s, %s, %s, NULL, %s, 'SUPPORTS')
ON CONFLICT (evidence_id) DO UPDATE SET text = EXCLUDED.text, security_id = EXCLUDED.security_id"""


def store_disclosure_documents(
    conn: Conn, filings: Iterable[Filing], security_ids: dict[str, str | None]
) -> int:
    """Write each filing's document, event and evidence; `security_ids` maps rcept_no to the
    company's security_id (None when it is not in `stocks`). Returns how many filings."""
    rows = list(filings)
    known = _known_stocks(conn, [s for s in security_ids.values() if s])
    for f in rows:
        title = f"{f.corp_name} {f.report_nm}"
        text = f"{title} (접수 {f.rcept_dt}, 제출인 {f.flr_nm})"
        doc_id, event_id = f"doc-dart-{f.rcept_no}", f"evt-dart-{f.rcept_no}"
        published = datetime.combine(f.rcept_dt, time(0), KST)  # type: ignore[arg-type]
        conn.execute(_DOC, (doc_id, title, f.url, published, text))
        conn.execute(_EVENT, (event_id, title, f.rcept_dt, disclosure_theme(f.report_nm)))
        sid = security_ids.get(f.rcept_no)
        conn.execute(_EVIDENCE, (f"evd-dart-{f.rcept_no}-1", doc_id, event_id, text,
                                 sid if sid in known else None))  # fmt: skip
    return len(rows)


def _known_stocks(conn: Conn, ids: list[str]) -> set[str]:
    if not ids:
        return set()
    found = conn.execute("SELECT security_id FROM stocks WHERE security_id = ANY(%s)", (ids,))
    return {r["security_id"] for r in found.fetchall()}
