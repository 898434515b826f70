"""An agreement numbered by paragraphs (the FTC 직접지급합의서: '1.' … '5.', no 제N조) end to end on
the real embedded PostgreSQL: uploaded as HWP (and DOCX) through the bounded reader, stored with
its numbering (migration 0019), and cited '제4항' — never '제4조' — by the search JSON and the CLI, the MCP
contract tools, the answer's first sentence and its quoted clause; a question naming '제3항' finds it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agents.contract import store
from agents.contract.__main__ import main as cli
from agents.contract.service import ask, ingest_file, search
from tests.fixtures.contracts.files import contract_file

LABELS = ["제1항", "제2항(하도급대금 직접지급 방법과 절차)", "제3항", "제4항", "제5항"]


@pytest.fixture(scope="module")
def agreement(pg_pool: Any, settings: Any) -> str:
    data = contract_file("ftc_direct_payment", "hwp")
    return ingest_file("직접지급합의서.hwp", data, pool=pg_pool, settings=settings).contract_id


def test_the_paragraphs_are_stored_with_their_numbering(agreement: str, pg_pool: Any) -> None:
    assert store.require_contract(agreement, pg_pool).article_count == 5
    with pg_pool.connection() as conn:
        rows = conn.execute("SELECT article_no, numbering FROM contract_articles "
                            "WHERE contract_id = %s ORDER BY article_no", (agreement,)).fetchall()  # fmt: skip
    assert [(r["article_no"], r["numbering"]) for r in rows] == [(n, "number") for n in range(1, 6)]
    loaded = [s.article for s in store.load_articles(agreement, pg_pool)]
    assert [a.label for a in loaded] == LABELS


def test_a_docx_upload_reads_the_same_paragraphs(pg_pool: Any, settings: Any) -> None:
    data = contract_file("ftc_direct_payment", "docx")
    contract_id = ingest_file("합의서.docx", data, pool=pg_pool, settings=settings).contract_id
    # (the same text as the HWP's, so possibly the same contract: not deleted here)
    assert [s.article.label for s in store.load_articles(contract_id, pg_pool)] == LABELS


def test_search_and_the_cli_json_name_the_paragraph(agreement: str, pg_pool: Any,
                                                    capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    [first, *_] = search(agreement, "압류가 들어오면 알려줘요?", pool=pg_pool)
    assert (first["label"], first["branch_label"], first["numbering"]) == ("제4항", "4항", "number")
    assert cli(["search", "--contract", agreement, "압류가 들어오면 알려줘요?", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert (rows[0]["article_no"], rows[0]["branch"], rows[0]["branch_label"]) == (4, 0, "4항")
    assert (rows[0]["label"], rows[0]["numbering"]) == ("제4항", "number")
    assert not any("조" in r["label"] for r in rows)


def test_the_answer_cites_the_paragraph(agreement: str, pg_pool: Any) -> None:
    answer = ask(agreement, "압류가 들어오면 발주자가 알려줘요?", pool=pg_pool)
    first = answer.answer.splitlines()[0]
    assert first.endswith("(제4항).") and "즉시 수급사업자에게 통보합니다" in first
    [clause] = answer.payload["clauses"][:1]
    assert (clause["label"], clause["branch_label"], clause["numbering"]) == ("제4항", "4항",
                                                                              "number")  # fmt: skip
    assert "- **제4항** — 발주자는 수급사업자의 채권자의" in answer.answer  # the quoted clause
    assert [c.title for c in answer.citations][:1] == ["제4항"]
    assert "제4조" not in answer.answer


def test_a_question_naming_the_paragraph_is_answered_by_it(agreement: str, pg_pool: Any) -> None:
    """The answers say '제3항', so a user asks about '제3항': its label is in the index's text."""
    answer = ask(agreement, "제3항은 무슨 내용이에요?", pool=pg_pool)
    assert [c["label"] for c in answer.payload["clauses"]][:1] == ["제3항"]
    assert answer.answer.splitlines()[0].endswith("(제3항).")


def test_the_mcp_contract_tools_name_the_paragraph(agreement: str, settings: Any,
                                                   services: Any) -> None:  # fmt: skip
    from api.mcp.registry import contract_tools
    from api.stores import Stores

    tools = {t.name: t for t in contract_tools(Stores(settings, info=services))}
    topic = {"topic_name": "압류 통보", "queries": ["압류가 들어오면 발주자가 알려줘요?"]}
    found = tools["hybrid_search"].call({"contract_id": agreement, "topics": [topic]})
    first = found["results"]["압류 통보"][0]
    assert (first["label"], first["branch_label"], first["numbering"]) == ("제4항", "4항", "number")
    named = tools["article_index"].call({"contract_id": agreement, "article_numbers": [3]})
    assert [a["label"] for a in named["matched_articles"]] == ["제3항"]
