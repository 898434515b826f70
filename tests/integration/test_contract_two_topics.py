"""Two topics in one question, offline (seed 002, issue 35): '데이터 제공 범위와 손해배상 조건은?'
is searched per topic and answered per topic, each with its own clause, instead of one pooled
search that drops the second; a topic the contract lacks is said to be absent while the other
is answered. Tools' `validate_result` checks every returned article's required fields. On the
real embedded PostgreSQL with real offline LangGraph runs."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from agents.contract.planner import search_topics, split_topics
from agents.contract.service import ask, ingest_file
from agents.contract.tools import ArticleIndexTool, HybridSearchTool, ToolContext
from tests.fixtures.contracts.files import contract_file


@pytest.fixture(scope="module")
def provide(pg_pool: Any, settings: Any) -> str:
    from agents.contract.ingest.pipeline import ensure_samples

    ensure_samples(pg_pool)
    return "sample-user-provide"


@pytest.fixture(scope="module")
def nda(pg_pool: Any, settings: Any) -> str:
    data = contract_file("nda_docx", "docx")
    return ingest_file("비밀유지.docx", data, pool=pg_pool, settings=settings).contract_id


@pytest.mark.parametrize(("question", "pieces"), [
    ("데이터 제공 범위와 손해배상 조건은?", ["데이터 제공 범위", "손해배상 조건은?"]),
    ("비밀유지 기간 및 위약금은 얼마인가요?", ["비밀유지 기간", "위약금은 얼마인가요?"]),
    ("갑과 을의 의무는?", ["갑과 을의 의무는?"]),  # the parties are one topic's aspect
    ("손해배상 한도는?", ["손해배상 한도는?"]),
])  # fmt: skip
def test_joined_topics_are_split(question: str, pieces: list[str]) -> None:
    assert split_topics(question) == pieces


def test_each_topic_is_its_own_search() -> None:
    topics = search_topics("데이터 제공 범위와 손해배상 조건은?")
    assert [t["topic_name"] for t in topics] == ["데이터 제공 범위", "손해배상 조건"]
    assert [t["queries"][0] for t in topics] == ["데이터 제공 범위", "손해배상 조건은?"]  # type: ignore[index]


def test_both_topics_are_answered_each_with_its_clause(provide: str, pg_pool: Any) -> None:
    answer = ask(provide, "데이터 제공 범위와 손해배상 조건은?", pool=pg_pool, save=False)
    assert answer.status == "ok", answer.answer
    topics = answer.payload["topics"]
    assert list(topics) == ["데이터 제공 범위", "손해배상 조건"]
    assert topics["손해배상 조건"] == ["제10조(손해배상)"]
    provision = topics["데이터 제공 범위"]
    assert provision and "제10조(손해배상)" not in provision
    clauses = {c["label"]: " ".join(c["content"]) for c in answer.payload["clauses"]}
    assert "제공" in clauses[provision[0]]
    first, second = answer.answer.splitlines()[:2]
    # the first line cites the clause without nested brackets ('(제9조 제3자 제공 금지)')
    assert first.startswith("데이터 제공 범위: ") and spoken(provision[0]) in first
    assert second.startswith("손해배상 조건: ") and "(제10조 손해배상" in second
    cited = {c.title for c in answer.citations}
    assert {provision[0], "제10조(손해배상)"} <= cited


def spoken(label: str) -> str:
    """A main-body label as the first line cites it: '제9조(제3자 제공 금지)' → '제9조 제3자 제공 금지'."""
    return re.sub(r"\((.*)\)$", r" \1", label)


def test_a_missing_topic_is_said_while_the_other_is_answered(nda: str, pg_pool: Any) -> None:
    answer = ask(nda, "위약금과 스톡옵션은?", pool=pg_pool, save=False)
    first, second = answer.answer.splitlines()[:2]
    assert first.startswith("위약금: ") and "일억원" in first and "(제9조 손해배상 ②)" in first
    assert second == "스톡옵션: 이 계약서에는 해당 조항이 없습니다."
    assert answer.payload["topics"] == {"위약금": ["제9조(손해배상)"], "스톡옵션": []}
    assert [c.title for c in answer.citations] == ["제9조(손해배상)"]


def test_validate_result_checks_each_articles_required_fields(provide: str, pg_pool: Any,
                                                             settings: Any) -> None:  # fmt: skip
    context = ToolContext(provide, pg_pool, settings)
    search = HybridSearchTool(context)
    result = search.execute(topics=search_topics("데이터 제공 범위와 손해배상 조건은?"))
    assert search.validate_result(result) is None
    broken = copy.deepcopy(result)
    del broken["results"]["손해배상 조건"][0]["content"]
    problem = search.validate_result(broken)
    assert problem is not None and "content" in problem and "제10조(손해배상)" in problem
    broken = copy.deepcopy(result)
    broken["results"]["데이터 제공 범위"][0]["article_no"] = "9"
    assert "article_no" in (search.validate_result(broken) or "")

    lookup = ArticleIndexTool(context)
    found = lookup.execute(article_numbers=[10])
    assert lookup.validate_result(found) is None
    found["matched_articles"][0]["content"] = [1, 2]
    assert "content" in (lookup.validate_result(found) or "")
