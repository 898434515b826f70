"""Run store: what a screen saves comes back unchanged after a 'restart' (a new pool)."""

from __future__ import annotations

from psycopg_pool import ConnectionPool

from data_access.contracts import (
    AgentAnswer,
    Citation,
    DateRange,
    StructuredCitation,
    TraceStep,
    answer_to_markdown,
    query_fingerprint,
)
from data_access.runs import (
    add_message,
    create_conversation,
    get_messages,
    get_run,
    list_artifacts,
    list_conversations,
    list_runs,
    save_artifact,
    save_run,
)


def _answer() -> AgentAnswer:
    sql = "SELECT close FROM etf_prices WHERE etf_code = %s"
    return AgentAnswer(
        answer="KODEX 200의 1개월 수익률은 3.45%입니다.",
        mode="offline",
        as_of_date="2026-11-20",
        data_freshness={"etf": "healthy", "macro": "stale"},
        citations=[
            Citation(doc_id="news-1", title="반도체 강세", url="https://demo.atlas.local/n/1")
        ],
        structured_citations=[
            StructuredCitation(
                dataset_code="KR_ETF_DAILY_PRICE",
                table="etf_prices",
                filters={"etf_code": "069500"},
                date_range=DateRange(start="2026-10-20", end="2026-11-20"),
                as_of_date="2026-11-20",
                query_fingerprint=query_fingerprint(sql, ["069500"]),
                row_count=22,
            )
        ],
        trace=[
            TraceStep(step=1, kind="tool", name="get_etf_prices", arguments={"etf_code": "069500"}),
            TraceStep(step=2, kind="tool", name="graph_query", status="rejected", error="MERGE"),
        ],
        payload={"chart": {"x": [1, 2], "y": [3, 4]}},
        duration_ms=42,
    )


def test_run_round_trip(pg_pool: ConnectionPool, services: object) -> None:
    conversation = create_conversation("etf", "KODEX 200 수익률", session_key="s1", pool=pg_pool)
    run_id = save_run(
        _answer(), screen="etf", question="KODEX 200 1개월 수익률?", conversation_id=conversation,
        pool=pg_pool,
    )  # fmt: skip
    add_message(conversation, "user", "KODEX 200 1개월 수익률?", pool=pg_pool)
    add_message(conversation, "assistant", _answer().answer, run_id=run_id, pool=pg_pool)

    # A new pool stands in for a restarted app or a second replica.
    fresh = ConnectionPool(pg_pool.conninfo, kwargs=pg_pool.kwargs, min_size=1, max_size=1)
    try:
        stored = get_run(run_id, pool=fresh)
        assert stored is not None and stored.answer == _answer()
        assert [m.role for m in get_messages(conversation, pool=fresh)] == ["user", "assistant"]
        assert conversation in [
            c.conversation_id for c in list_conversations("etf", "s1", pool=fresh)
        ]
        assert conversation not in [
            c.conversation_id for c in list_conversations("etf", "other-session", pool=fresh)
        ]
        assert run_id in [r.run_id for r in list_runs("etf", pool=fresh)]
    finally:
        fresh.close()


def test_artifacts_are_kept(pg_pool: ConnectionPool) -> None:
    run_id = save_run(_answer(), screen="stock", question="AAPL", pool=pg_pool)
    artifact = save_artifact(run_id, "stock_report", "AAPL.md", "# AAPL", pool=pg_pool)
    found = list_artifacts(kind="stock_report", run_id=run_id, pool=pg_pool)
    assert [a.artifact_id for a in found] == [artifact] and found[0].content == "# AAPL"


def test_fingerprint_ignores_whitespace_but_not_params() -> None:
    a = query_fingerprint("SELECT 1\n  FROM t", [1])
    assert a == query_fingerprint("SELECT 1 FROM t", [1])
    assert a != query_fingerprint("SELECT 1 FROM t", [2])


def test_markdown_export_carries_the_evidence() -> None:
    md = answer_to_markdown(_answer(), question="KODEX 200 1개월 수익률?")
    assert "KR_ETF_DAILY_PRICE" in md and "반도체 강세" in md and "graph_query" in md
    assert "오프라인 플래너" in md


def test_recorded_turns_load_back_in_order(pg_pool: ConnectionPool) -> None:
    from data_access.runs import load_turns, record_turn

    first = _answer()
    conversation, run_1 = record_turn("macro", "첫 질문", first, pool=pg_pool)
    second = first.model_copy(update={"answer": "두 번째 답"})
    same, run_2 = record_turn("macro", "두 번째 질문", second, conversation, pool=pg_pool)
    assert same == conversation and run_1 != run_2
    turns = load_turns(conversation, pool=pg_pool)
    assert [(t.question, t.answer.answer, t.run_id) for t in turns] == [
        ("첫 질문", first.answer, run_1),
        ("두 번째 질문", "두 번째 답", run_2),
    ]
