"""제N조의M (branch) articles end to end on the real embedded PostgreSQL: stored as their own row
(migration 0014's key), loaded back in order, found by hybrid search, named ('제3조의2 ②') in a
question and answered by a real offline LangGraph run with the branch article cited."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from pydantic import SecretStr

from agents.contract import store
from agents.contract.index import get_index, prepare
from agents.contract.service import ask, ingest_file, search
from agents.contract.tools import ArticleIndexTool, ToolContext
from data_access.errors import ToolInputError
from tests.fixtures.openai_replay import ReplayServer, tool_call, tool_message

CONTRACT = """가지 조문 시험 계약서

제1조(목적) 이 계약은 데이터 제공 조건을 정한다.
제3조(정의) 이 계약에서 데이터란 갑이 제공하는 자료를 말한다.
제3조의2(재위탁) ① 을은 갑의 서면 동의 없이 데이터 처리를 제3자에게 재위탁할 수 없다.
② 을이 재위탁하는 경우 수탁자에게 이 계약과 같은 보안 의무를 지워야 한다.
1. 재위탁 현황은 매 분기 보고한다.
제3조의3(보고) 을은 매월 처리 현황을 갑에게 보고한다.
제4조(기간) 이 계약의 기간은 1년으로 한다.
"""


@pytest.fixture(scope="module")
def contract_id(pg_pool: Any, settings: Any) -> str:
    return ingest_file("branch.txt", CONTRACT.encode(), pool=pg_pool, settings=settings).contract_id


def test_branch_articles_round_trip_through_the_store(contract_id: str, pg_pool: Any) -> None:
    info = store.require_contract(contract_id, pg_pool)
    assert info.article_count == 5
    loaded = [s.article for s in store.load_articles(contract_id, pg_pool)]
    assert [(a.article_no, a.branch) for a in loaded] == [(1, 0), (3, 0), (3, 2), (3, 3), (4, 0)]
    branch = loaded[2]
    assert branch.label == "제3조의2(재위탁)"
    assert [(c.kind, c.number) for c in branch.clauses] == [("항", 1), ("항", 2), ("호", 1)]
    with pg_pool.connection() as conn:
        rows = conn.execute(
            "SELECT article_no, branch_no FROM contract_articles WHERE contract_id = %s "
            "ORDER BY article_no, branch_no", (contract_id,),
        ).fetchall()  # fmt: skip
    assert [(r["article_no"], r["branch_no"]) for r in rows] == [(1, 0), (3, 0), (3, 2), (3, 3),
                                                                 (4, 0)]  # fmt: skip


def test_a_row_written_without_a_branch_is_a_plain_article(pg_pool: Any) -> None:
    """Rows from before 0014 (no branch_no) stay valid: branch 0, a plain 제N조."""
    with pg_pool.connection() as conn:
        conn.execute("DELETE FROM contracts WHERE contract_id = 'test-branch-legacy'")
        conn.execute(
            "INSERT INTO contracts (contract_id, title, source_name, source_format, content_hash,"
            " original_text, article_count) VALUES ('test-branch-legacy', 't', 't.txt', 'txt',"
            " 'h', '제7조(기간) 1년', 1)"
        )
        conn.execute(
            "INSERT INTO contract_articles (contract_id, article_no, title, content, clauses, body,"
            " tokens) VALUES ('test-branch-legacy', 7, '기간', '[\"1년\"]',"
            ' \'[{"kind": "text", "number": null, "text": "1년"}]\', \'1년\', \'1년\')'
        )
    try:
        [stored] = store.load_articles("test-branch-legacy", pg_pool)
        assert (stored.article.key, stored.article.label) == (7, "제7조(기간)")
    finally:
        store.delete_contract("test-branch-legacy", pg_pool)


def test_search_finds_the_branch_article(contract_id: str, pg_pool: Any) -> None:
    hits = search(contract_id, "재위탁하려면 동의가 필요한가요?", pool=pg_pool)
    assert hits[0]["key"] == 3002 and hits[0]["label"] == "제3조의2(재위탁)"
    assert (hits[0]["article_no"], hits[0]["branch"]) == (3, 2)
    index = get_index(contract_id, pg_pool)
    assert set(index.articles) == {1, 3, 3002, 3003, 4}
    assert index.rankings(prepare("제3조의2 ②는 무슨 뜻?"))["reference"] == [3002]


def test_a_question_naming_the_branch_article_gets_it(contract_id: str, pg_pool: Any) -> None:
    answer = ask(contract_id, "제3조의2 ②는 무슨 내용인가요?", pool=pg_pool, save=False)
    assert answer.status == "ok", answer.error
    calls = [t for t in answer.trace if t.kind == "tool"]
    assert [(t.name, t.arguments.get("article_refs")) for t in calls] == [
        ("article_index", ["제3조의2"])]  # fmt: skip
    clauses = answer.payload["clauses"]
    assert [(c["label"], c["article_no"], c["branch"]) for c in clauses] == [
        ("제3조의2(재위탁)", 3, 2)]  # fmt: skip
    assert "제3조의2(재위탁)" in answer.answer and "제3조(정의)" not in answer.answer
    # the 항 named is the one quoted (with the 호 under it), not the whole article
    assert "**제3조의2(재위탁) ②** — ② 을이 재위탁하는 경우" in answer.answer
    assert (
        "1. 재위탁 현황은 매 분기 보고한다." in answer.answer and "서면 동의" not in answer.answer
    )
    assert [c.doc_id for c in answer.citations] == [f"{contract_id}#3-2"]
    both = ask(contract_id, "제3조와 제3조의2를 비교해줘", pool=pg_pool, save=False)
    assert [c["label"] for c in both.payload["clauses"]] == ["제3조(정의)", "제3조의2(재위탁)"]
    json.dumps(both.payload, ensure_ascii=False)  # the payload stays JSON-serializable


def test_the_model_path_names_branch_articles(contract_id: str, pg_pool: Any,
                                              settings: Any) -> None:  # fmt: skip
    """Model path against a local OpenAI-compatible replay server (the only fake: recorded
    replies): the model plans article_index with article_refs and hybrid_search, the relevance
    judge is shown '제3조의2' and keeps it by that name, and the 항/호 judge is shown its lines
    as '제3조의2(재위탁) ①' … and names the first: the answer quotes it, cited by that name."""
    os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
    replies = [
        tool_message(tool_call("article_index", {"article_refs": ["제3조의2"]}),
                     tool_call("hybrid_search", {"topics": [{"topic_name": "재위탁",
                                                             "queries": ["재위탁 동의"]}]})),
        '{"keep": ["제3조의2", "제99조의9"]}',
        '{"answer": 1}',
    ]  # fmt: skip
    with ReplayServer(replies) as server:
        model = settings.model_copy(update={
            "llm_model_contract": "openai/gpt-4.1-mini", "llm_api_base": server.api_base,
            "openai_api_key": SecretStr("replay-key")})  # fmt: skip
        answer = ask(contract_id, "재위탁하려면 동의가 필요한가요?", pool=pg_pool,
                     settings=model, save=False)  # fmt: skip
    assert answer.mode == "llm" and answer.status == "ok", answer.error
    assert answer.answer.splitlines()[0] == (
        "을은 갑의 서면 동의 없이 데이터 처리를 제3자에게 재위탁할 수 없습니다 (제3조의2 재위탁 ①)."
    )
    clauses = [(c["label"], c["tool"]) for c in answer.payload["clauses"]]
    assert clauses == [("제3조의2(재위탁)", "article_index")]  # the judge's pick: the same one
    judged = json.loads(server.requests[1]["messages"][-1]["content"].split("<contract_data>")[1]
                        .split("</contract_data>")[0])  # fmt: skip
    assert "제3조의2" in [row["article_no"] for row in judged]
    shown = json.loads(server.requests[2]["messages"][-1]["content"].split("<contract_data>")[1]
                       .split("</contract_data>")[0])  # fmt: skip
    assert shown[0]["clause"] == "제3조의2(재위탁) ①"
    hybrid = next(t for t in answer.trace if t.name == "hybrid_search")
    assert '"key": 3002' in (hybrid.observation or "")


@pytest.mark.parametrize(
    "refs",
    [[{"no": 3}], "제3조의2", ["'; DROP TABLE contracts; --"], ["제3조의0"], ["제3조", "x" * 10_000],
     [True]],
)  # fmt: skip
def test_article_refs_that_name_no_article_are_refused(
    refs: Any, contract_id: str, pg_pool: Any, settings: Any
) -> None:
    tool = ArticleIndexTool(ToolContext(contract_id, pg_pool, settings))
    with pytest.raises(ToolInputError, match="article_refs"):
        tool.execute(article_refs=refs)
    found = tool.execute(article_refs=["3의2", "제3조의3"], article_numbers=[3])
    assert [a["label"] for a in found["matched_articles"]] == [
        "제3조(정의)", "제3조의2(재위탁)", "제3조의3(보고)"]  # fmt: skip
    assert tool.execute(article_refs=["제3조의9"])["missing"] == ["제3조의9"]
