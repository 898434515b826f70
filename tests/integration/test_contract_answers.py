"""Answers an analyst can quote (issue 32), end to end on the real embedded PostgreSQL with real
offline LangGraph runs over contracts written here as real files (HWPX with annexed agreements,
a wrapped-line PDF): the asked fact first and its clause line quoted whole; an annex's article
named with its part and stored under its own key; a clause the contract lacks answered "no such
clause" with the nearest only as related; the CLI's JSON telling 제16조의2 apart."""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

import pytest

from agents.contract import store
from agents.contract.__main__ import main as cli
from agents.contract.answer_eval import AnswerQuestion, check
from agents.contract.service import ask, ingest_file
from tests.fixtures.contracts.files import contract_file


@pytest.fixture(scope="module")
def subcontract(pg_pool: Any, settings: Any) -> str:
    data = contract_file("software_subcontract", "hwpx")
    return ingest_file("하도급.hwpx", data, pool=pg_pool, settings=settings).contract_id


@pytest.fixture(scope="module")
def employment(pg_pool: Any, settings: Any) -> str:
    data = contract_file("employment", "pdf")
    return ingest_file("근로.pdf", data, pool=pg_pool, settings=settings).contract_id


def test_annexes_are_stored_as_parts(subcontract: str, pg_pool: Any) -> None:
    info = store.require_contract(subcontract, pg_pool)
    assert info.title == "소프트웨어 개발 하도급 계약서" and info.contract_type == "service"
    with pg_pool.connection() as conn:
        rows = conn.execute("SELECT part_no, part_title, count(*) AS n FROM contract_articles "
                            "WHERE contract_id = %s GROUP BY 1, 2 ORDER BY 1",
                            (subcontract,)).fetchall()  # fmt: skip
    assert [(r["part_no"], r["part_title"], r["n"]) for r in rows] == [
        (0, "", 32), (1, "별첨 1 비밀유지계약서", 7), (2, "별첨 2 변경 합의서", 3),
        (3, "별첨 3 연동 계약", 3), (4, "개인정보 수집·이용 동의서", 1)]  # fmt: skip


@pytest.mark.parametrize(("question", "fact", "article"), [
    ("비밀유지 의무는 계약 끝나고 몇 년 동안 지켜야 하나요?", "3년간",
     "[별첨 1 비밀유지계약서] 제5조(비밀유지기간)"),
    ("원재료 가격이 오르면 대금이 조정되나요?", "10% 이상", "제16조의2(하도급대금의 연동)"),
])  # fmt: skip
def test_an_answer_states_the_fact_and_quotes_its_clause(subcontract: str, pg_pool: Any,
                                                         question: str, fact: str,
                                                         article: str) -> None:  # fmt: skip
    answer = ask(subcontract, question, pool=pg_pool, save=False)
    result = check(AnswerQuestion("software_subcontract", question, fact, article, False), answer)
    assert answer.status == "ok" and result.fact_first and result.quoted_whole, answer.answer
    # the part is named where the answer cites ('… (별첨 1 비밀유지계약서 제5조 비밀유지기간).')
    assert _plain(article) in _plain(answer.answer.splitlines()[0])


def _plain(text: str) -> str:
    """Text without brackets, parentheses or spaces: a label however the first line writes it."""
    return re.sub(r"[\s\[\]()]", "", text)


def test_a_pdf_answer_quotes_the_rule_not_the_definition(employment: str, pg_pool: Any) -> None:
    answer = ask(employment, "근무 끝나고 다음 근무까지 몇 시간 쉬어야 하나요?", pool=pg_pool,
                 save=False)  # fmt: skip
    assert answer.answer.startswith("**10시간 이상** — ")
    assert "(제6조 근무일 간 휴식 ②)." in answer.answer.splitlines()[0]


def test_a_missing_clause_is_said_with_related_clauses_not_cited(subcontract: str,
                                                                 pg_pool: Any) -> None:  # fmt: skip
    answer = ask(subcontract, "소스코드 에스크로는 어떻게 되나요?", pool=pg_pool, save=False)
    # the answer names what the contract lacks, as the question wrote it
    assert answer.answer.startswith("이 계약서에는 소스코드 에스크로에 관한 조항이 없습니다.")
    assert answer.payload["lacking"] == "소스코드 에스크로"
    assert answer.payload["no_clause"] is True and answer.citations == []
    assert answer.payload["clauses"] == []
    if answer.payload["related"]:
        assert "관련 조항(답이 아님):" in answer.answer


def test_search_json_names_branch_articles(subcontract: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    assert cli(["search", "--contract", subcontract, "하도급대금 연동", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    branch = next(r for r in rows if r["branch"] == 2)
    assert (branch["article_no"], branch["branch_label"], branch["part"]) == (16, "16의2", 0)


def test_a_contract_stored_without_morphemes_is_analysed_when_first_searched(
    pg_pool: Any, settings: Any
) -> None:
    """The CLI stores an upload without loading Kiwi; the first index built on it analyses and
    stores the morphemes, and search finds by them."""
    from agents.contract.index import clear_cache, get_index
    from agents.contract.ingest.pipeline import ingest_bytes

    marker = uuid.uuid4().hex[:8]  # new content each run: the same file again is a no-op
    data = contract_file("employment", "txt") + f"\n제16조(부칙) {marker} 효력.".encode()
    info = ingest_bytes("근로.txt", data, pool=pg_pool, settings=settings, analyse=False)
    assert all(not s.tokens for s in store.load_articles(info.contract_id, pg_pool)
               if s.article.clauses)  # fmt: skip
    clear_cache()
    hits = get_index(info.contract_id, pg_pool, settings).search("연차휴가는 며칠이에요?", top=3)
    assert hits[0].article.title == "연차유급휴가"
    stored = store.load_articles(info.contract_id, pg_pool)
    assert all(s.tokens and s.line_tokens is not None for s in stored if s.article.clauses)


def test_an_annex_article_is_named_by_its_part(subcontract: str, pg_pool: Any) -> None:
    answer = ask(subcontract, "비밀유지계약서 제5조 보여줘", pool=pg_pool, save=False)
    labels = [c["label"] for c in answer.payload["clauses"]]
    assert labels == ["[별첨 1 비밀유지계약서] 제5조(비밀유지기간)"], answer.answer
    main = ask(subcontract, "제5조 보여줘", pool=pg_pool, save=False)
    assert [c["label"] for c in main.payload["clauses"]] == ["제5조(선급금)"]
