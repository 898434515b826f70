"""Fact checks of a golden case against one answer.

    results = check_facts(case.facts, answer, pool=pool, as_of="2026-11-20")

A `sql_value` fact runs its SQL at eval time through `run_read_only` (guard, READ ONLY
transaction, timeout), so the expected number is computed independently of the agent, then
formats it the way the screens do (`format`, e.g. "{:,.2f}") and looks for it in the answer.
Text matching is case-insensitive with whitespace collapsed, so Markdown line breaks and
"KODEX  200" vs "KODEX 200" do not matter; nothing else is forgiven.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from psycopg_pool import ConnectionPool

from agents.eval.models import Fact, FactResult
from data_access.contracts import AgentAnswer
from data_access.errors import WorkbenchError
from data_access.postgres import run_read_only
from data_access.seed.news_text import particles

DEFAULT_NUMBER_FORMAT = "{:,.2f}"
_SPACE = re.compile(r"\s+")


def normalize(text: str) -> str:
    return _SPACE.sub(" ", text or "").strip().casefold()


def format_value(value: Any, fmt: str | None = None) -> str:
    """A query value as the screens print it: Decimal → float, dates ISO, numbers by `fmt`."""
    if value is None:
        raise ValueError("the query returned NULL")
    if isinstance(value, Decimal):
        value = float(value)
    if isinstance(value, datetime | date):
        value = value.isoformat()[:10]
    if fmt:
        return fmt.format(value)
    if isinstance(value, float):
        return DEFAULT_NUMBER_FORMAT.format(value)
    return str(value)


def contains(haystack: str, needle: str) -> bool:
    return normalize(needle) in normalize(haystack)


def check_facts(facts: list[Fact], answer: AgentAnswer, *, pool: ConnectionPool | None,
                as_of: str | None) -> list[FactResult]:  # fmt: skip
    """Every fact that applies to the answer's mode, checked in order."""
    return [check_fact(f, answer, pool=pool, as_of=as_of) for f in facts
            if f.mode is None or f.mode == answer.mode]  # fmt: skip


def check_fact(fact: Fact, answer: AgentAnswer, *, pool: ConnectionPool | None,
               as_of: str | None) -> FactResult:  # fmt: skip
    text = answer.answer or ""
    if fact.kind == "contains":
        return _result(fact, [fact.text or ""], contains(text, fact.text or ""))
    if fact.kind == "not_contains":
        return _result(fact, [fact.text or ""], not contains(text, fact.text or ""),
                       absent=True)  # fmt: skip
    if fact.kind == "any_of":
        return _result(fact, fact.texts, any(contains(text, t) for t in fact.texts), any_of=True)
    if fact.kind == "cites_document":
        cited = [c.doc_id for c in answer.citations]
        return _result(fact, [fact.doc_id or ""], fact.doc_id in cited,
                       where=f"문서 근거 {cited[:8]}")  # fmt: skip
    if fact.kind == "cites_dataset":
        cited = sorted({s.dataset_code for s in answer.structured_citations})
        return _result(fact, [fact.dataset_code or ""], fact.dataset_code in cited,
                       where=f"정형 근거 {cited[:8]}")  # fmt: skip
    return _sql_value(fact, text, pool, as_of)


def expected_renderings(fact: Fact, pool: ConnectionPool | None,
                        as_of: str | None) -> list[list[str]]:  # fmt: skip
    """Per expected row, the renderings any one of which must appear (`format` and `formats`);
    raises on a bad query or no row."""
    from agents.macro.templates import bind_literals  # psycopg quoting, shared with templates

    sql = fact.sql or ""
    if "%(" in sql:
        sql = bind_literals(sql, {"as_of": as_of}, pool)
    rows = run_read_only(sql, max_rows=200, pool=pool)
    if not rows:
        raise ValueError("the query returned no row")
    picked = rows if fact.all_rows else rows[:1]
    fmts: list[str | None] = [f for f in (fact.format, *fact.formats) if f] or [None]
    return [[format_value(next(iter(r.values())), f) for f in fmts] for r in picked]


def _sql_value(fact: Fact, text: str, pool: ConnectionPool | None,
               as_of: str | None) -> FactResult:  # fmt: skip
    try:
        renderings = expected_renderings(fact, pool, as_of)
    except (WorkbenchError, ValueError, KeyError, IndexError) as e:
        return FactResult(kind=fact.kind, passed=False, error=str(e)[:300],
                          message=f"검증 쿼리 실패: {e}")  # fmt: skip
    missing = [" | ".join(alts) for alts in renderings
               if not any(contains(text, v) for v in alts)]  # fmt: skip
    return _result(fact, [alts[0] for alts in renderings], not missing, missing=missing)


def _result(fact: Fact, expected: list[str], passed: bool, *, absent: bool = False,
            any_of: bool = False, where: str = "답변",
            missing: list[str] | None = None) -> FactResult:  # fmt: skip
    if passed:
        message = ""
    elif absent:
        message = particles(f"답변에 없어야 할 '{expected[0]}'이(가) 있습니다")
    elif any_of:
        message = f"답변에 {expected} 중 어느 것도 없습니다"
    else:
        shown = missing if missing is not None else expected
        message = particles(f"{where}에 '{', '.join(shown)}'이(가) 없습니다")
    if fact.note and message:
        message += f" ({fact.note})"
    return FactResult(kind=fact.kind, passed=passed, expected=expected, message=message)
