"""The golden sets as data: they load and validate, cover what issue #7 asks for (every domain
agent in single and parallel mode, general knowledge, stale/as-of, English; ETF, contract,
opening and stock cases with facts; the guard corpora), and bad files are refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agents.eval.cases import GOLDEN_DIR, corpus_path, find_case, load_cases, load_file
from agents.eval.guard_suite import PATHS, load_corpus
from data_access.errors import ToolInputError

DOMAIN_AGENTS = ("macro", "equity", "real_estate", "ontology")


def test_every_suite_loads_and_the_set_stays_modest() -> None:
    cases = load_cases()
    assert {c.suite for c in cases} == {"macro", "etf", "contract", "opening", "stock", "guard"}
    # The analyst question sets (split tune/heldout, issue 14) are checked in
    # test_golden_analyst_sets.py; the regression set without a split stays modest.
    assert 25 <= len([c for c in cases if c.split is None]) <= 80  # opening days: 40 (issue 17)
    assert len({c.id for c in cases}) == len(cases)


@pytest.mark.parametrize("agent", DOMAIN_AGENTS)
def test_each_domain_agent_has_single_and_parallel_cases(agent: str) -> None:
    modes = {c.expected_tool_mode for c in load_cases(["macro"])
             if agent in (c.expected_target_agents or [])}  # fmt: skip
    assert {"single", "parallel"} <= modes


def test_macro_set_has_general_stale_asof_and_english_cases() -> None:
    cases = load_cases(["macro"])
    assert all(c.expected_tool_mode and c.expected_target_agents for c in cases)
    assert any(c.expected_target_agents == ["general_knowledge"] for c in cases)
    assert any(c.expect_freshness_warning for c in cases)
    assert any("기준" in c.question and c.question[:4].isdigit() for c in cases)
    assert any(c.question.isascii() for c in cases)


@pytest.mark.parametrize("suite", ["etf", "contract", "opening", "stock"])
def test_screen_cases_carry_checkable_facts(suite: str) -> None:
    cases = [c for c in load_cases([suite]) if not c.expect_declined]  # a decline has no value
    assert cases and all(c.facts for c in cases)
    # At least one value per suite is computed from the database at eval time, not written in.
    assert any(f.kind == "sql_value" for c in cases for f in c.facts)
    for c in cases:
        for f in c.facts:
            if f.kind == "sql_value":
                assert (f.sql or "").lstrip().upper().startswith(("SELECT", "WITH"))


def test_guard_cases_use_the_shipped_corpora() -> None:
    cases = load_cases(["guard"])
    assert {c.inputs["path"] for c in cases} == set(PATHS)
    assert len(load_corpus("hostile_cypher.json")) >= 60
    assert len(load_corpus("hostile_sql.json")) >= 50
    with pytest.raises(ToolInputError):
        corpus_path("../../data_access/config.py")


def test_find_case_and_unknown_names() -> None:
    assert find_case("contract-damages-cap").suite == "contract"
    with pytest.raises(ToolInputError):
        find_case("no-such-case")
    with pytest.raises(ToolInputError):
        load_cases(["macro", "weather"])


def test_bad_files_are_refused(tmp_path: Path) -> None:
    broken = tmp_path / "macro.json"
    broken.write_text("{not json", encoding="utf-8")
    with pytest.raises(ToolInputError):
        load_file(broken)
    twice = {
        "suite": "macro",
        "cases": [{"id": "a", "question": "q"}, {"id": "a", "question": "r"}],
    }
    broken.write_text(json.dumps(twice), encoding="utf-8")
    with pytest.raises(ToolInputError):
        load_cases(["macro"], directory=tmp_path)


def test_golden_dir_is_inside_the_package() -> None:
    assert GOLDEN_DIR.parent.name == "eval" and (GOLDEN_DIR / "macro.json").is_file()
