"""OpenDART filings and guidance answered offline (issue 35, seed 004 §12.2-3, §9.2-4).

The demo seed lists OpenDART filings for the largest KR reporters (잠정실적 공정공시, periodic
reports, a 장래사업ㆍ경영계획 guidance filing) built from `earnings_events`; '삼성전자 최근 공시'
and '삼성전자 가이던스' are answered from `dart_disclosures` with OpenDART named in the text and
in each citation; imported filings (list.json in its real format) are read by the same template;
the graph links each EarningsEvent to its disclosure Event and SUPPORTED_BY evidence.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

import pytest

from agents.macro.service import answer_question
from agents.macro.templates import get_template
from data_access.importers.dart import import_dart_disclosures
from data_access.postgres import connection, fetch_all, fetch_one
from tests.integration.test_importers import FIXTURES

pytestmark = pytest.mark.usefixtures("demo_data")

AS_OF = date(2026, 11, 20)
SID = "KR:005930"


def test_demo_filings_agree_with_the_earnings(pg_pool: Any) -> None:
    rows = fetch_all(
        "SELECT d.report_nm, d.rcept_dt, v.text, e.theme FROM dart_disclosures d"
        " JOIN evidence v ON v.doc_id = 'doc-dart-' || d.rcept_no JOIN events e USING (event_id)"
        " WHERE d.security_id = %s ORDER BY d.rcept_dt",
        (SID,),
        pool=pg_pool,
    )
    assert {r["theme"] for r in rows} >= {"실적", "가이던스"}
    earnings = {
        r["period"]: r
        for r in fetch_all(
            "SELECT period, event_date, eps_actual, eps_estimate, status FROM earnings_events"
            " WHERE security_id = %s",
            (SID,),
            pool=pg_pool,
        )
    }
    preliminary = [r for r in rows if "잠정" in r["report_nm"]]
    assert preliminary
    for r in preliminary:  # each 잠정실적 filing states that quarter's EPS, on its release day
        period = re.search(r"(\d{4}Q\d)", r["text"]).group(1)  # type: ignore[union-attr]
        e = earnings[period]
        assert r["rcept_dt"] == e["event_date"] and e["status"] == "confirmed"
        assert f"주당순이익 {float(e['eps_actual']):,.0f}원" in r["text"]


def test_recent_filings_answer_names_opendart(pg_pool: Any, graph_store: Any) -> None:
    answer = answer_question("삼성전자 최근 공시", pool=pg_pool, store=graph_store)
    start = AS_OF - timedelta(days=round(3 * 30.44))
    truth = fetch_all(
        "SELECT rcept_dt, report_nm FROM dart_disclosures WHERE security_id = %s"
        " AND rcept_dt BETWEEN %s AND %s ORDER BY rcept_dt DESC, rcept_no DESC",
        (SID, start, AS_OF),
        pool=pg_pool,
    )
    assert truth
    line = next(k for k in answer.answer.splitlines() if "최근 공시" in k)
    assert "OpenDART 전자공시" in line and f"최근 공시 {len(truth)}건" in line
    listed = "; ".join(f"{r['rcept_dt']} {r['report_nm']}" for r in truth[:6])
    assert listed in line
    dart = [c for c in answer.citations if c.doc_id.startswith("doc-dart-")]
    assert len(dart) == len(truth) and all(c.title.startswith("[OpenDART") for c in dart)
    assert all(c.evidence_id and c.url for c in dart)
    assert "DART_DISCLOSURES" in {c.dataset_code for c in answer.structured_citations}


def test_guidance_answer_quotes_the_guidance_filing(pg_pool: Any, graph_store: Any) -> None:
    answer = answer_question("삼성전자 가이던스", pool=pg_pool, store=graph_store)
    expected = fetch_one(
        "SELECT period, event_date, eps_estimate FROM earnings_events WHERE security_id = %s"
        " AND status = 'expected' AND event_date > %s ORDER BY event_date LIMIT 1",
        (SID, AS_OF),
        pool=pg_pool,
    )
    assert expected is not None
    line = next(k for k in answer.answer.splitlines() if "가이던스 (OpenDART" in k)
    assert f"{expected['period']} 실적 전망" in line
    assert f"주당순이익 {float(expected['eps_estimate']):,.0f}원" in line
    assert f"발표 예정일 {expected['event_date']}" in line
    cited = [c for c in answer.citations if c.doc_id.startswith("doc-dart-")]
    assert cited and all("장래사업" in c.title and "OpenDART" in c.title for c in cited)


def test_imported_list_json_is_read_by_the_same_template(pg_pool: Any) -> None:
    import_dart_disclosures(FIXTURES / "dart_list_005930.json", pool=pg_pool)
    try:
        template = get_template("company_disclosures")
        rows = fetch_all(
            template.text,
            {"security_id": SID, "start": date(2024, 10, 1), "as_of": date(2024, 11, 30),
             "theme": "*", "n": 20},
            pool=pg_pool,
        )  # fmt: skip
        assert [r["report_nm"] for r in rows][:2] == [
            "임원ㆍ주요주주특정증권등소유상황보고서",
            "[기재정정]주요사항보고서(자기주식취득결정)",
        ]
        imported = [r for r in rows if r["url"].startswith("https://dart.fss.or.kr/")]
        assert {r["rcept_no"] for r in imported} == {
            "20241114002642", "20241031800081", "20241118000123", "20241120000456",
        }  # fmt: skip
        assert [r["rcept_no"] for r in rows if not (r["evidence_id"] and r["doc_id"])] == []
    finally:  # only the fixture's filings leave (the demo's stay)
        ids = ["20241114002642", "20241031800081", "20241118000123", "20241120000456"]
        with connection(pg_pool) as conn:
            conn.execute(
                "DELETE FROM documents WHERE doc_id = ANY(%s)", ([f"doc-dart-{i}" for i in ids],)
            )
            conn.execute(
                "DELETE FROM events WHERE event_id = ANY(%s)", ([f"evt-dart-{i}" for i in ids],)
            )
            conn.execute("DELETE FROM dart_disclosures WHERE rcept_no = ANY(%s)", (ids,))


def test_graph_links_earnings_event_to_its_disclosure(pg_pool: Any, graph_store: Any) -> None:
    from data_access.projection import project_all

    steps = ["documents", "events", "evidence", "evidence_targets", "earnings", "earnings_links"]
    report = project_all(graph_store, pg_pool, steps=steps)
    assert {s.status for s in report.steps} == {"ok"}
    latest = fetch_one(
        "SELECT event_key, event_date FROM earnings_events WHERE security_id = %s"
        " AND status = 'confirmed' ORDER BY event_date DESC LIMIT 1",
        (SID,),
        pool=pg_pool,
    )
    assert latest is not None
    rows = graph_store.read(
        "MATCH (ee:EarningsEvent {event_key: $k})-[:REPORTED_AS]->(e:Event) "
        "WHERE e.event_type = 'disclosure' "
        "MATCH (ee)-[:SUPPORTED_BY]->(v:Evidence)-[:SUPPORTS]->(e), "
        "(v)-[:FROM_DOCUMENT]->(d:Document) "
        "RETURN e.theme AS theme, d.doc_type AS doc_type, d.title AS title ORDER BY title",
        {"k": latest["event_key"]},
    )
    assert {(r["theme"], r["doc_type"]) for r in rows} == {
        ("실적", "disclosure"),
        ("가이던스", "disclosure"),
    }


def test_stock_report_names_opendart_filings_and_guidance(pg_pool: Any) -> None:
    from agents.stock.service import generate_report

    answer = generate_report(SID, pool=pg_pool, save=False)
    start = AS_OF - timedelta(days=92)
    recent = fetch_all(
        "SELECT rcept_dt, report_nm FROM dart_disclosures WHERE security_id = %s"
        " AND rcept_dt BETWEEN %s AND %s ORDER BY rcept_dt DESC, rcept_no DESC LIMIT 5",
        (SID, start, AS_OF),
        pool=pg_pool,
    )
    listed = "; ".join(f"{r['rcept_dt']} {r['report_nm']}" for r in recent)
    assert f"공시(OpenDART 전자공시, 최근 3개월): {listed}" in answer.answer
    expected = fetch_one(
        "SELECT period, eps_estimate FROM earnings_events WHERE security_id = %s"
        " AND status = 'expected' AND event_date > %s ORDER BY event_date LIMIT 1",
        (SID, AS_OF),
        pool=pg_pool,
    )
    assert expected is not None
    assert (
        f"{expected['period']} 실적 전망(가이던스): 주당순이익 {float(expected['eps_estimate']):,.0f}원"
        in answer.answer
    )
    assert "DART_DISCLOSURES" in {c.dataset_code for c in answer.structured_citations}
    us = generate_report("US:AAPL", pool=pg_pool, save=False)
    assert "OpenDART" not in us.answer
