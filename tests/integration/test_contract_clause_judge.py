"""The model's 항/호 judgement on the contract screen (agents.contract.clause_judge), through the
suite's local OpenAI-compatible server (tests/fixtures/scripted_model.py): the model is shown
the 항/호 lines of the clauses retrieved for a content question and names the one that answers,
or none. Its choice is checked against the candidates it was shown before it is used; the
offline answer is computed beside it and the trace says whether they agree. Everything behind
the provider boundary is real: litellm, LangGraph, the registry, the tools, PostgreSQL.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"

from agents.contract import prompts
from agents.contract.service import ask, ingest_file
from data_access.config import Settings
from tests.fixtures.openai_replay import Reply, http_error, tool_call, tool_message
from tests.fixtures.scripted_model import (
    ScriptedServer,
    last_user_text,
    scripted_settings,
    system_text,
)

TERMS = Path(__file__).resolve().parents[1] / "fixtures" / "contracts" / "mobile_game_terms.md"
SPREAD = "다른 회원 개인정보를 여기저기 퍼뜨려도 돼요?"  # the clause says 유포 (제10조 ① 5.)
ABSENT = "게임 캐릭터를 다른 서버로 옮길 수 있어요?"  # no clause on moving servers
PROSE = "관련 조항은 제10조(회원의 의무)입니다."


def listing(request: dict[str, Any]) -> list[dict[str, Any]]:
    """The candidates the judge was shown (the JSON inside <contract_data>)."""
    fenced = last_user_text(request).split("<contract_data>", 1)[1]
    return json.loads(fenced.split("</contract_data>", 1)[0])


def model(judge: Any) -> Any:
    """A model that plans one search with the question, leaves the article judge unreadable
    (it falls back to the top five by score), answers the 항/호 judge with `judge(candidates)`
    and writes PROSE when asked to write."""

    def script(request: dict[str, Any]) -> Reply:
        if request.get("tools"):
            question = last_user_text(request)
            return tool_message(tool_call("hybrid_search", {
                "topics": [{"topic_name": question, "queries": [question]}]}))  # fmt: skip
        if system_text(request) == prompts.JUDGE_SYSTEM:
            return "판단 불가"
        if system_text(request) == prompts.CLAUSE_JUDGE_SYSTEM:
            return judge(listing(request))
        return PROSE

    return script


def naming(word: str) -> Any:
    """The judge's reply naming the first candidate whose text holds `word`."""
    return lambda shown: json.dumps({"answer": next(c["id"] for c in shown if word in c["text"])})


@pytest.fixture(scope="module")
def terms(pg_pool: Any, settings: Settings) -> str:
    return ingest_file("mobile_game_terms.md", TERMS.read_bytes(), pool=pg_pool,
                       settings=settings).contract_id  # fmt: skip


def check_step(answer: Any) -> Any:
    return next(t for t in answer.trace if t.name == "clause_check")


def test_the_judged_line_is_quoted_whole_and_a_disagreement_is_traced(
    terms: str, settings: Settings, pg_pool: Any
) -> None:
    offline = ask(terms, SPREAD, pool=pg_pool, settings=settings, save=False)
    with ScriptedServer(model(naming("유포하는 행위"))) as server:
        answer = ask(terms, SPREAD, pool=pg_pool, save=False,
                     settings=scripted_settings(settings, "contract", server))  # fmt: skip
        sent = list(server.requests)
    assert answer.mode == "llm" and answer.status == "ok" and not answer.error
    first = answer.answer.splitlines()[0]
    assert "다른 회원의 개인정보를 무단으로 수집·저장·게시 또는 유포하는 행위" in first
    assert first.rstrip(".").endswith("① 5.)")  # cited with its 항 and 호
    assert [c["title"] for c in answer.payload["clauses"]] == ["회원의 의무"]
    assert [t.name for t in answer.trace if t.kind == "llm"] == [
        "planning",
        "relevance_filter",
        "clause_judge",
    ]  # the quote is the answer: no prose call
    judge_request = sent[-1]
    assert (
        system_text(judge_request) == prompts.CLAUSE_JUDGE_SYSTEM and "tools" not in judge_request
    )
    # the offline answer, computed beside the model's, is what the trace compares with: here
    # it says the contract has no such clause
    step = check_step(answer)
    assert offline.payload["no_clause"] is True
    assert step.status == "ok" and step.arguments["model"].endswith("① 5.")
    assert step.arguments["offline"] == "없음" and step.arguments["agree"] is False
    assert "다릅니다" in (step.observation or "")


def test_a_judgement_the_offline_answer_shares_is_traced_as_agreeing(
    terms: str, settings: Settings, pg_pool: Any
) -> None:
    question = "이용제한 조치에 이의신청하려면 통지받고 며칠 안에 해야 하나요?"
    offline = ask(terms, question, pool=pg_pool, settings=settings, save=False)
    cited = next(line for line in offline.answer.splitlines() if line.startswith("- **"))
    assert cited.startswith("- **제20조(이용제한 조치에 대한 이의신청 절차) ①**")
    with ScriptedServer(model(naming("14일 이내에 불복 이유"))) as server:
        answer = ask(terms, question, pool=pg_pool, save=False,
                     settings=scripted_settings(settings, "contract", server))  # fmt: skip
    step = check_step(answer)
    assert step.arguments == {"model": "제20조(이용제한 조치에 대한 이의신청 절차) ①",
                              "offline": "제20조(이용제한 조치에 대한 이의신청 절차) ①",
                              "agree": True}  # fmt: skip
    assert answer.answer.splitlines()[0] == offline.answer.splitlines()[0]


def test_none_of_the_candidates_is_no_such_clause(
    terms: str, settings: Settings, pg_pool: Any
) -> None:
    with ScriptedServer(model(lambda shown: '{"answer": null}')) as server:
        answer = ask(terms, ABSENT, pool=pg_pool, save=False,
                     settings=scripted_settings(settings, "contract", server))  # fmt: skip
    assert answer.status == "ok" and answer.payload["no_clause"] is True
    assert not answer.citations and answer.payload["clauses"] == []
    assert answer.answer.startswith("이 계약서에는") and "관련 조항(답이 아님):" in answer.answer
    assert len(answer.payload["related"]) == 2
    assert check_step(answer).arguments["model"] == "없음"


@pytest.mark.parametrize("reply", ['{"answer": 999}', "5번 항이 답입니다", '{"answer": true}',
                                   '{"keep": [10]}'])  # fmt: skip
def test_a_reply_naming_no_candidate_is_not_used(
    reply: str, terms: str, settings: Settings, pg_pool: Any
) -> None:
    with ScriptedServer(model(lambda shown: reply)) as server:
        answer = ask(terms, SPREAD, pool=pg_pool, save=False,
                     settings=scripted_settings(settings, "contract", server))  # fmt: skip
    step = check_step(answer)
    assert step.status == "error" and "쓰지 않았습니다" in (step.error or "")
    assert "model" not in step.arguments and step.arguments["offline"]
    # the turn goes on as it would without the judge: the model writes, and the answer says
    # that the judgement was not used
    assert [t.name for t in answer.trace if t.kind == "llm"][-1] == "synthesis"
    assert answer.answer.startswith(PROSE)
    assert answer.status == "partial" and "모델의 조항 판단이 후보와 맞지 않아" in (
        answer.error or ""
    )


def test_a_provider_error_leaves_the_offline_answer(
    terms: str, settings: Settings, pg_pool: Any
) -> None:
    with ScriptedServer(model(lambda shown: http_error(500))) as server:
        answer = ask(terms, SPREAD, pool=pg_pool, save=False,
                     settings=scripted_settings(settings, "contract", server, llm_num_retries=1,
                                                llm_retry_backoff_s=0.0))  # fmt: skip
        sent = list(server.requests)
    judged = [r for r in sent if system_text(r) == prompts.CLAUSE_JUDGE_SYSTEM]
    assert len(judged) == 2 and sent[-1] is judged[-1]  # one retry, then no model call at all
    failed = [t for t in answer.trace if t.name == "clause_judge"]
    assert [t.status for t in failed] == ["error"]
    assert not [t for t in answer.trace if t.name == "clause_check"]
    assert answer.status == "partial" and "조항 판단은" in (answer.error or "")
    assert answer.citations and PROSE not in answer.answer  # the template answer, not prose
