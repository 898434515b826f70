"""The analyst question sets of issue 14 (`agents/eval/golden/<suite>.analyst.json`) as data.

They were written from an analyst's side before the planners were rewritten, as groups of
paraphrases; the group name starts each case's `description` and each id is
`<prefix>-<group>-<n>`. These checks keep them a usable yardstick without a database:

- sizes (ETF >= 130, Macro >= 110, Stock >= 32), unique ids, loaded by `load_cases`;
- the split is by whole group (a paraphrase never sits in the other half) and each half holds
  40-60% of its suite;
- at least 10% of each suite must be declined, and a decline asks for no computed value;
- every `sql_value` fact is one plain SELECT/WITH that pglast parses once `%(as_of)s` is bound,
  that the read-only guard accepts, and whose format strings render;
- a numeric answer requires a structured citation; follow-ups carry their history;
- every Macro case has routing labels (agents from the five, a tool mode; definitions are
  general_knowledge + llm_direct with words a definition must contain).

`problems()` is also run on broken copies of the files, so each check is seen to fail.
"""

from __future__ import annotations

import copy
import json
import re
from collections import defaultdict
from functools import lru_cache
from pathlib import Path
from typing import Any

import pglast
import pytest
from pglast import ast

from agents.eval.cases import GOLDEN_DIR, load_cases
from agents.eval.models import GoldenCase
from data_access.errors import WorkbenchError
from data_access.guards import guard_sql

MIN_CASES = {"etf": 130, "macro": 110, "stock": 32}
PREFIX = {"etf": "etfq", "macro": "macq", "stock": "stkq"}
MACRO_AGENTS = {"macro", "equity", "real_estate", "ontology", "general_knowledge"}
FOLLOW_UP_GROUP = re.compile(r"^(followup|fu)-")
AS_OF_LITERAL = "'2026-11-20'"


def analyst_doc(suite: str) -> dict[str, Any]:
    path: Path = GOLDEN_DIR / f"{suite}.analyst.json"
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return doc


def group_of(case: dict[str, Any]) -> str:
    return str(case.get("description") or "").split(":", 1)[0].strip()


@lru_cache(maxsize=2048)  # the same SQL repeats across paraphrases and broken copies
def sql_problem(sql: str) -> str | None:
    """Why a fact's SQL could not run at eval time, or None."""
    bound = sql.replace("%(as_of)s", AS_OF_LITERAL)
    if "%" in bound:
        return "only the %(as_of)s placeholder may appear"
    try:
        statements = pglast.parse_sql(bound)
    except pglast.parser.ParseError as e:
        return f"does not parse: {e}"
    if len(statements) != 1 or not isinstance(statements[0].stmt, ast.SelectStmt):
        return "is not exactly one SELECT"
    try:
        guard_sql(bound)
    except WorkbenchError as e:
        return f"refused by the guard: {e}"
    return None


def format_problem(fmt: str) -> str | None:
    for sample in (1.5, 7, "2026-01-01"):
        try:
            fmt.format(sample)
            return None
        except (ValueError, TypeError, IndexError, KeyError):
            continue
    return f"format {fmt!r} renders nothing"


def case_problems(suite: str, case: dict[str, Any]) -> list[str]:
    cid = case.get("id", "?")
    out: list[str] = []
    try:
        GoldenCase.model_validate({"suite": suite, **case})
    except ValueError as e:
        out.append(f"{cid}: not a GoldenCase ({e})")
        return out
    group = group_of(case)
    if not re.fullmatch(rf"{PREFIX[suite]}-{re.escape(group)}-\d+", cid):
        out.append(f"{cid}: id is not {PREFIX[suite]}-<group>-<n> for group {group!r}")
    if case.get("split") not in ("tune", "heldout"):
        out.append(f"{cid}: no split")
    facts = case.get("facts", [])
    sql_facts = [f for f in facts if f.get("kind") == "sql_value"]
    declined = bool(case.get("expect_declined"))
    if declined and (sql_facts or case.get("require_structured_citation")):
        out.append(f"{cid}: a declined question expects a computed value")
    for fact in sql_facts:
        if problem := sql_problem(fact["sql"]):
            out.append(f"{cid}: SQL {problem}")
        for fmt in [fact.get("format"), *fact.get("formats", [])]:
            if fmt and (problem := format_problem(fmt)):
                out.append(f"{cid}: {problem}")
    numeric = any(f.get("format") or f.get("formats") for f in sql_facts)
    if numeric and not case.get("require_structured_citation"):
        out.append(f"{cid}: a numeric answer without require_structured_citation")
    history = case.get("history", [])
    if FOLLOW_UP_GROUP.match(group) and not history:
        out.append(f"{cid}: a follow-up without history")
    if any(not str(h).strip() or h == case.get("question") for h in history):
        out.append(f"{cid}: an empty or repeated history entry")
    if suite == "macro":
        out += macro_problems(cid, case, declined)
    return out


def macro_problems(cid: str, case: dict[str, Any], declined: bool) -> list[str]:
    agents = case.get("expected_target_agents") or []
    mode = case.get("expected_tool_mode")
    out: list[str] = []
    if not agents or not set(agents) <= MACRO_AGENTS or mode is None:
        out.append(f"{cid}: routing labels missing or unknown ({agents}, {mode})")
    if ("general_knowledge" in agents) != (mode == "llm_direct"):
        out.append(f"{cid}: general_knowledge and llm_direct go together")
    kinds = {f.get("kind") for f in case.get("facts", [])}
    if mode == "llm_direct" and not declined and "any_of" not in kinds:
        out.append(f"{cid}: a definition without the words it must contain")
    return out


def problems(suite: str, doc: dict[str, Any]) -> list[str]:
    """Everything wrong with one analyst file (empty when it is usable)."""
    cases: list[dict[str, Any]] = doc.get("cases", [])
    out = [p for case in cases for p in case_problems(suite, case)]
    if doc.get("suite") != suite:
        out.append(f"file suite is {doc.get('suite')!r}")
    if len(cases) < MIN_CASES[suite]:
        out.append(f"{len(cases)} cases, fewer than {MIN_CASES[suite]}")
    ids = [c.get("id") for c in cases]
    out += [f"{i}: duplicate id" for i in sorted({i for i in ids if ids.count(i) > 1})]
    splits: dict[str, set[str]] = defaultdict(set)
    for case in cases:
        splits[group_of(case)].add(str(case.get("split")))
    out += [f"group {g} spans splits {sorted(s)}" for g, s in splits.items() if len(s) > 1]
    for half in ("tune", "heldout"):
        share = sum(c.get("split") == half for c in cases) / max(len(cases), 1)
        if not 0.4 <= share <= 0.6:
            out.append(f"{half} holds {share:.0%} of the cases, not 40-60%")
    declined = [c for c in cases if c.get("expect_declined")]
    if len(declined) < 0.1 * len(cases):
        out.append(f"only {len(declined)} of {len(cases)} cases must be declined (< 10%)")
    if {c.get("split") for c in declined} != {"tune", "heldout"}:
        out.append("declined cases are not in both halves")
    return out


@pytest.mark.parametrize("suite", sorted(MIN_CASES))
def test_analyst_set_is_a_usable_yardstick(suite: str) -> None:
    assert problems(suite, analyst_doc(suite)) == []


@pytest.mark.parametrize("suite", sorted(MIN_CASES))
def test_analyst_cases_are_loaded_with_their_suite(suite: str) -> None:
    loaded = {c.id: c for c in load_cases([suite])}
    ids = [c["id"] for c in analyst_doc(suite)["cases"]]
    assert set(ids) <= set(loaded)
    assert {loaded[i].split for i in ids} == {"tune", "heldout"}


def test_sets_cover_paraphrases_in_english_and_follow_ups() -> None:
    for suite in MIN_CASES:
        cases = analyst_doc(suite)["cases"]
        assert any(c["question"].isascii() for c in cases), suite
        assert any(not c["question"].isascii() for c in cases), suite
        groups = defaultdict(int)
        for case in cases:
            groups[group_of(case)] += 1
        assert sum(n > 1 for n in groups.values()) >= 0.8 * len(groups), suite
        # a partly answerable question: the held part is checked, the rest must be said
        assert any(c.get("expected_status") == ["partial"] and c["facts"] for c in cases), suite
    for suite in ("etf", "macro"):
        assert sum(bool(c.get("history")) for c in analyst_doc(suite)["cases"]) >= 8, suite


def _first(doc: dict[str, Any], pred: Any) -> dict[str, Any]:
    return next(c for c in doc["cases"] if pred(c))


def _has_sql(case: dict[str, Any]) -> bool:
    return any(f.get("kind") == "sql_value" for f in case.get("facts", []))


def _set_sql(case: dict[str, Any], sql: str) -> None:
    next(f for f in case["facts"] if f["kind"] == "sql_value")["sql"] = sql


def _break_duplicate(doc: dict[str, Any]) -> None:
    doc["cases"].append(copy.deepcopy(doc["cases"][0]))


def _break_split(doc: dict[str, Any]) -> None:
    case = _first(doc, lambda c: c["id"].endswith("-2"))
    case["split"] = "heldout" if case["split"] == "tune" else "tune"


def _break_sql_syntax(doc: dict[str, Any]) -> None:
    _set_sql(_first(doc, _has_sql), "SELEC value FROM macro_observations")


def _break_sql_write(doc: dict[str, Any]) -> None:
    _set_sql(_first(doc, _has_sql), "DELETE FROM etfs")


def _break_sql_two(doc: dict[str, Any]) -> None:
    _set_sql(_first(doc, _has_sql), "SELECT 1; DROP TABLE etfs")


def _break_placeholder(doc: dict[str, Any]) -> None:
    _set_sql(_first(doc, _has_sql), "SELECT value FROM macro_observations WHERE obs_date <= %s")


def _break_format(doc: dict[str, Any]) -> None:
    fact = next(f for c in doc["cases"] for f in c["facts"] if f.get("format"))
    fact["format"] = "{:,.2f"


def _break_citation(doc: dict[str, Any]) -> None:
    case = _first(doc, lambda c: c.get("require_structured_citation"))
    case["require_structured_citation"] = False


def _break_follow_up(doc: dict[str, Any]) -> None:
    _first(doc, lambda c: c.get("history"))["history"] = []


def _break_declines(doc: dict[str, Any]) -> None:
    doc["cases"] = [c for c in doc["cases"] if not c.get("expect_declined")]


def _break_declined_value(doc: dict[str, Any]) -> None:
    case = _first(doc, lambda c: c.get("expect_declined"))
    case["facts"] = [{"kind": "sql_value", "sql": "SELECT 1", "format": "{}"}]


def _break_routing(doc: dict[str, Any]) -> None:
    _first(doc, lambda c: True)["expected_target_agents"] = ["weather"]


def _break_definition(doc: dict[str, Any]) -> None:
    case = _first(doc, lambda c: c.get("expected_tool_mode") == "llm_direct")
    case["facts"] = []


def _break_size(doc: dict[str, Any]) -> None:
    doc["cases"] = doc["cases"][:20]


BREAKS = {
    "duplicate id": ("etf", _break_duplicate),
    "spans splits": ("etf", _break_split),
    "does not parse": ("macro", _break_sql_syntax),
    "not exactly one SELECT": ("etf", _break_sql_write),
    "exactly one SELECT": ("stock", _break_sql_two),
    "placeholder": ("macro", _break_placeholder),
    "renders nothing": ("stock", _break_format),
    "without require_structured_citation": ("etf", _break_citation),
    "follow-up without history": ("macro", _break_follow_up),
    "must be declined": ("stock", _break_declines),
    "expects a computed value": ("etf", _break_declined_value),
    "routing labels": ("macro", _break_routing),
    "definition without": ("macro", _break_definition),
    "fewer than": ("macro", _break_size),
}


@pytest.mark.parametrize("expected", sorted(BREAKS))
def test_each_check_catches_a_broken_copy(expected: str) -> None:
    suite, breaker = BREAKS[expected]
    doc = copy.deepcopy(analyst_doc(suite))
    breaker(doc)
    found = problems(suite, doc)
    assert any(expected in p for p in found), found
