"""The 항/호 judge's candidates and the check of its reply (agents.contract.clause_judge)."""

from __future__ import annotations

import pytest

from agents.contract.clause_judge import candidates, read_verdict
from agents.contract.synthesis import Evidence, FoundClause, offline_answer

TERMINATION = FoundClause(
    "c", 7, "제7조(계약의 해지)", "계약의 해지",
    ["① 임차인은 일부가 멸실된 때 차임의 감액을 청구할 수 있다.",
     "② 임대인은 다음 각 호의 경우 계약을 해지할 수 있다.",
     "1. 3기의 차임액에 달하도록 차임을 연체한 경우",
     "2. 제4조 제1항을 위반한 경우"],
    "hybrid_search",
)  # fmt: skip
DEPOSIT = FoundClause("c", 1, "제1조(보증금)", "보증금", ["보증금은 계약시에 지급한다."],
                      "hybrid_search")  # fmt: skip


def test_each_paragraph_and_item_is_a_candidate_with_the_line_it_completes() -> None:
    shown = candidates(Evidence(clauses=[TERMINATION]), [DEPOSIT, TERMINATION])
    assert [c.citation for c in shown] == [
        "제7조(계약의 해지) ①", "제7조(계약의 해지) ②", "제7조(계약의 해지) ② 1.",
        "제7조(계약의 해지) ② 2.", "제1조(보증금)"]  # fmt: skip
    assert [c.id for c in shown] == [1, 2, 3, 4, 5]
    assert (
        shown[2].text == "3기의 차임액에 달하도록 차임을 연체한 경우"
    )  # its marker is in `citation`
    assert shown[2].lead.startswith("② 임대인은 다음 각 호의 경우")
    assert shown[2].line == 2 and not shown[0].lead


@pytest.mark.parametrize(("reply", "chosen"), [
    ('{"answer": 3}', "제7조(계약의 해지) ② 1."),
    ('답: {"answer": "5"}', "제1조(보증금)"),
])  # fmt: skip
def test_a_reply_naming_a_candidate_is_used(reply: str, chosen: str) -> None:
    shown = candidates(Evidence(), [TERMINATION, DEPOSIT])
    verdict = read_verdict(reply, shown)
    assert verdict.usable and verdict.citation == chosen


def test_null_means_none_answers_and_leaves_the_nearest_as_related() -> None:
    shown = candidates(Evidence(), [TERMINATION, DEPOSIT])
    verdict = read_verdict('{"answer": null}', shown)
    assert verdict.usable and verdict.none and verdict.citation == "없음"
    evidence = verdict.evidence(Evidence(clauses=[DEPOSIT]), shown)
    assert evidence.no_clause and [c.label for c in evidence.related] == [
        "제7조(계약의 해지)", "제1조(보증금)"]  # fmt: skip


@pytest.mark.parametrize("reply", ['{"answer": 9}', '{"answer": 0}', '{"answer": true}',
                                   '{"answer": "제7조"}', '{"keep": [7]}', "3번입니다", ""])  # fmt: skip
def test_a_reply_naming_no_candidate_is_a_problem(reply: str) -> None:
    verdict = read_verdict(reply, candidates(Evidence(), [TERMINATION, DEPOSIT]))
    assert not verdict.usable and verdict.chosen is None and verdict.problem


def test_the_chosen_line_is_what_the_answer_quotes() -> None:
    shown = candidates(Evidence(), [TERMINATION])
    evidence = read_verdict('{"answer": 4}', shown).evidence(Evidence(), shown)
    assert [(c.label, c.answer_line) for c in evidence.clauses] == [("제7조(계약의 해지)", 3)]
    first = offline_answer(evidence, "ko", "search", "집주인이 계약을 끝낼 수 있는 경우는?")
    assert first.splitlines()[0] == ("임대인은 다음 각 호의 경우 계약을 해지할 수 있습니다: 2. 제4조 "
                                     "제1항을 위반한 경우 (제7조 계약의 해지 ② 2.).")  # fmt: skip
