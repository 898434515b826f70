"""SQLQA: the model-written SQL tool of the Macro Q&A domain agents (seed 004 §5 Step 2, §8.4).

    result = sql_qa("SELECT obs_date, value FROM macro_observations WHERE series_code = 'KR_CPI' "
                    "ORDER BY obs_date DESC LIMIT 6", "macro", ctx)
    result.rows, result.citation, result.rejected   # rows, a structured citation, or why not

The query runs through both walls of `run_read_only` (the guard: one SELECT over allow-listed
tables and functions with a forced LIMIT and a plan-cost check; then the reader role in a READ
ONLY transaction with a statement timeout). The model sees `schema_text(domain)`: only the
tables its agent may read, with their columns. A rejection or a failure is a result the loop
shows to the model and the agent falls back on (templates), never an exception.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from pglast import ast, parse_sql
from pglast.parser import ParseError
from pglast.visitors import Visitor
from psycopg_pool import ConnectionPool

from agents.evidence import Stopwatch, make_citation
from agents.macro.state import RunContext
from data_access.contracts import StructuredCitation
from data_access.errors import QueryRejected, WorkbenchError
from data_access.postgres import fetch_all, run_read_only
from data_access.sql_policy import READER_TABLES

MAX_ROWS = 200
# What each domain agent may read (a subset of the reader role's tables, data_access.sql_policy).
DOMAIN_TABLES: dict[str, tuple[str, ...]] = {
    "macro": ("macro_series", "macro_observations"),
    "equity": ("stocks", "stock_prices", "stock_fundamentals", "earnings_events"),
    "real_estate": ("re_house_price_index", "re_jeonse_ratio", "re_unsold_housing",
                    "re_permits", "re_transactions"),
}  # fmt: skip
COLUMNS_SQL = (
    "SELECT table_name, column_name, data_type FROM information_schema.columns "
    "WHERE table_schema = 'public' AND table_name = ANY(%(tables)s) "
    "ORDER BY table_name, ordinal_position"
)
SERIES_SQL = "SELECT series_code FROM macro_series ORDER BY series_code"
_TABLE = re.compile(r"\b(?:from|join)\s+([a-z_][a-z0-9_]*)", re.IGNORECASE)
_LITERAL = re.compile(r"'([^']{2,40})'")
_SCHEMAS: dict[tuple[int, str], str] = {}
_SERIES: dict[int, frozenset[str]] = {}


@dataclass
class SqlQaResult:
    query: str
    rows: list[dict[str, Any]] = field(default_factory=list)
    citation: StructuredCitation | None = None
    rejected: str | None = None  # the guard's reason
    error: str | None = None  # the store's error (timeout, bad column …)
    duration_ms: int = 0

    @property
    def status(self) -> str:
        if self.rejected:
            return "rejected"
        return "error" if self.error else "ok"


def schema_text(domain: str, pool: ConnectionPool | None) -> str:
    """The tables `domain`'s agent may query, one line each: `table(column type, …)`."""
    tables = DOMAIN_TABLES.get(domain, ())
    key = (id(pool), domain)
    if key not in _SCHEMAS:
        rows = fetch_all(COLUMNS_SQL, {"tables": list(tables)}, pool=pool)
        columns: dict[str, list[str]] = {t: [] for t in tables}
        for r in rows:
            columns[r["table_name"]].append(f"{r['column_name']} {r['data_type']}")
        _SCHEMAS[key] = "\n".join(f"{t}({', '.join(c)})" for t, c in columns.items() if c)
    return _SCHEMAS[key]


def series_codes(pool: ConnectionPool | None) -> frozenset[str]:
    if id(pool) not in _SERIES:
        _SERIES[id(pool)] = frozenset(r["series_code"] for r in fetch_all(SERIES_SQL, pool=pool))
    return _SERIES[id(pool)]


def sql_qa(query: str, domain: str, ctx: RunContext) -> SqlQaResult:
    """Run one model-written SELECT for `domain`'s agent through the guard and the reader role."""
    watch = Stopwatch()
    text = (query or "").strip().rstrip(";").strip()
    result = SqlQaResult(query=text)
    if not text:
        result.rejected = "빈 쿼리입니다"
        return result
    known = {t for tables in DOMAIN_TABLES.values() for t in tables}
    outside = [t for t in tables_of(text) if t in known and t not in DOMAIN_TABLES.get(domain, ())]
    if outside:  # another domain's table: that agent's job
        result.rejected = f"이 에이전트가 읽을 수 없는 테이블: {', '.join(outside)}"
        return result
    try:
        result.rows = [dict(r) for r in run_read_only(text, max_rows=MAX_ROWS, pool=ctx.pool)]
    except QueryRejected as e:
        result.rejected = str(e)
    except WorkbenchError as e:
        result.error = str(e)
    result.duration_ms = watch.ms
    if result.status == "ok":
        result.citation = _citation(text, result.rows, ctx)
    return result


def _citation(query: str, rows: list[dict[str, Any]], ctx: RunContext) -> StructuredCitation:
    """Dataset: the macro series the query names, else its first table."""
    tables = tables_of(query) or ["sql"]
    codes = [c for c in _LITERAL.findall(query) if c in series_codes(ctx.pool)]
    dates = sorted(str(v)[:10] for r in rows for k, v in r.items() if _is_date_column(k, v))
    return make_citation(dataset_code=codes[0] if codes else tables[0].upper(), table=tables[0],
                         query=query, params=None, row_count=len(rows),
                         filters={"model_sql": True, "tables": tables, "codes": codes},
                         start=dates[0] if dates else None, end=dates[-1] if dates else None,
                         as_of_date=ctx.as_of_date)  # fmt: skip


def tables_of(query: str) -> list[str]:
    """The data tables a query names, in the order they appear (PostgreSQL's parser; a query it
    cannot parse is the guard's to refuse, so a plain FROM/JOIN scan is enough there)."""
    try:
        names = _range_vars(query)
    except ParseError:
        names = [t.lower() for t in _TABLE.findall(query)]
    low = query.lower()
    found = {n for n in names if n in READER_TABLES}
    return sorted(found, key=low.find)


def _range_vars(query: str) -> list[str]:
    names: list[str] = []

    class Tables(Visitor):  # type: ignore[misc]
        def visit_RangeVar(self, ancestors: object, node: ast.RangeVar) -> None:
            names.append(str(node.relname).lower())

    for raw in parse_sql(query):
        if raw.stmt is not None:
            Tables()(raw.stmt)
    return names


def _is_date_column(name: str, value: Any) -> bool:
    return name.endswith(("date", "month", "_at", "day")) and value is not None
