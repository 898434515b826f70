"""Read-only guards for agent-written Cypher and SQL (DESIGN.md, "Shared contracts").

``guard_cypher`` and ``guard_sql`` return the text to run, with a forced LIMIT, or raise
``QueryRejected`` with a short reason the agent and the analyst can act on. They are one layer of
several: the stores still run these queries read-only (``GRAPH.RO_QUERY`` on FalkorDB, a read-only
transaction on PostgreSQL) under a server-side timeout, which also covers what text cannot show
(a user-defined SQL function that writes, a slow ``pg_sleep``).

Cypher is read by the openCypher ANTLR lexer (see ``cypher_parse``); SQL by ``pglast``, which is
PostgreSQL's own parser, so neither guard has to guess where a string, name or comment ends.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from pglast import ast, enums, parse_sql
from pglast.parser import ParseError
from pglast.stream import RawStream

from data_access.cypher_guard import READ_PROCEDURES, guard_cypher
from data_access.guard_text import MAX_QUERY_CHARS, check_common, reject
from data_access.sql_policy import READER_TABLES, check_names, walk_scoped

__all__ = [
    "MAX_PLAN_COST",
    "MAX_QUERY_CHARS",
    "READER_TABLES",
    "READ_PROCEDURES",
    "PlanEstimate",
    "check_plan_cost",
    "guard_cypher",
    "guard_sql",
    "reject",
]

logger = logging.getLogger(__name__)


# ------------------------------------------------------------------------------------------ SQL

_STATEMENT_WORDS = {
    "CreateStmt": "CREATE TABLE",
    "CreateTableAsStmt": "CREATE TABLE AS",
    "IndexStmt": "CREATE INDEX",
    "ViewStmt": "CREATE VIEW",
    "DoStmt": "DO",
    "SecLabelStmt": "SECURITY LABEL",
    "RefreshMatViewStmt": "REFRESH MATERIALIZED VIEW",
    "VariableShowStmt": "SHOW",
    "CheckPointStmt": "CHECKPOINT",
}


def _statement_word(node: ast.Node) -> str:
    """The SQL command a parse node stands for, as the user would write it."""
    cls = type(node).__name__
    if isinstance(node, (ast.GrantStmt, ast.GrantRoleStmt)):
        return "GRANT" if node.is_grant else "REVOKE"
    if isinstance(node, ast.VacuumStmt):
        return "VACUUM" if node.is_vacuumcmd else "ANALYZE"
    if isinstance(node, ast.VariableSetStmt) and node.kind is not None:
        return "RESET" if "RESET" in node.kind.name else "SET"
    if isinstance(node, ast.TransactionStmt) and node.kind is not None:
        return node.kind.name.removeprefix("TRANS_STMT_").replace("_", " ")
    if cls in _STATEMENT_WORDS:
        return _STATEMENT_WORDS[cls]
    # InsertStmt -> INSERT, AlterTableStmt -> ALTER TABLE
    words = "".join(f" {c}" if c.isupper() else c for c in cls.removesuffix("Stmt"))
    return words.strip().upper()


def _check_select(stmt: ast.SelectStmt, query: str) -> None:
    for node, _scope in walk_scoped(stmt):
        if isinstance(node, ast.SelectStmt):
            if node.intoClause is not None:
                raise reject("SELECT … INTO is not allowed (it creates a table)", query)
            if node.lockingClause:
                raise reject("SELECT … FOR UPDATE/SHARE is not allowed (it locks rows)", query)
        elif type(node).__name__.endswith("Stmt") and not isinstance(node, ast.RawStmt):
            raise reject(
                f"data-modifying {_statement_word(node)} inside the query is not allowed", query
            )
    check_names(stmt, query)


def _parse_one_select(sql: str, query: str) -> ast.SelectStmt:
    try:
        statements = parse_sql(sql)
    except ParseError as e:
        raise reject(f"SQL syntax error: {e.args[0] if e.args else e}", query) from e
    except RecursionError as e:
        raise reject("SQL query is nested too deeply", query) from e
    if not statements:
        raise reject("empty SQL query (only comments)", query)
    if len(statements) > 1:
        raise reject(f"only one statement is allowed (found {len(statements)})", query)
    stmt = statements[0].stmt
    if not isinstance(stmt, ast.SelectStmt):
        word = _statement_word(stmt) if isinstance(stmt, ast.Node) else "this statement"
        raise reject(f"{word} is not allowed: only a single SELECT (read-only) may run", query)
    _check_select(stmt, query)
    return stmt


def _number(value: int) -> ast.A_Const:
    return ast.A_Const(isnull=False, val=ast.Integer(ival=value))


def _is_capped(count: ast.Node, max_rows: int) -> bool:
    """``LEAST(…, n)`` with n <= max_rows, as this guard writes it (so guarding twice is a no-op)."""
    return (
        isinstance(count, ast.MinMaxExpr)
        and count.op == enums.MinMaxOp.IS_LEAST
        and any(
            isinstance(arg, ast.A_Const)
            and isinstance(arg.val, ast.Integer)
            and 0 <= (arg.val.ival or 0) <= max_rows
            for arg in count.args or ()
        )
    )


def _cap_limit(stmt: ast.SelectStmt, max_rows: int) -> ast.SelectStmt:
    """Put the cap on the outermost statement, so its own ORDER BY still decides which rows."""
    if stmt.limitOption == enums.LimitOption.LIMIT_OPTION_WITH_TIES:
        # Ties may run past any count: keep the query whole and cap its output from outside.
        star = ast.ResTarget(val=ast.ColumnRef(fields=(ast.A_Star(),)))
        sub = ast.RangeSubselect(lateral=False, subquery=stmt, alias=ast.Alias(aliasname="guarded"))
        return ast.SelectStmt(
            targetList=(star,),
            fromClause=(sub,),
            limitCount=_number(max_rows),
            limitOption=enums.LimitOption.LIMIT_OPTION_COUNT,
            op=enums.SetOperation.SETOP_NONE,
        )
    count = stmt.limitCount
    if count is None or (isinstance(count, ast.A_Const) and count.isnull):  # none, ALL, NULL
        stmt.limitCount = _number(max_rows)
    elif isinstance(count, ast.A_Const) and isinstance(count.val, ast.Integer):
        stmt.limitCount = _number(min(count.val.ival or 0, max_rows))
    elif not _is_capped(count, max_rows):  # $1, 1e3, an expression: the server takes the smaller
        stmt.limitCount = ast.MinMaxExpr(
            op=enums.MinMaxOp.IS_LEAST, args=(count, _number(max_rows))
        )
    stmt.limitOption = enums.LimitOption.LIMIT_OPTION_COUNT
    return stmt


def guard_sql(query: str, max_rows: int = 200) -> str:
    """Return one PostgreSQL SELECT (or WITH … SELECT, VALUES, TABLE) capped at ``max_rows`` rows,
    or raise ``QueryRejected``.

    The result is printed back from the checked parse tree, so comments are dropped and what runs
    is exactly what was checked. The cap goes on the outermost statement (after its ORDER BY, over
    a whole UNION); ``LIMIT $1`` becomes ``LIMIT LEAST($1, n)``. The text must be plain SQL as
    PostgreSQL reads it with standard_conforming_strings on (the default): client-side
    placeholders such as psycopg's ``%s`` do not parse.
    """
    check_common(query, max_rows, "SQL")
    stmt = _parse_one_select(query, query)
    try:
        guarded = RawStream()(_cap_limit(stmt, max_rows))
    except Exception as e:  # the printer covers PostgreSQL's grammar; never run unprinted text
        logger.exception("could not print guarded SQL")
        raise reject("the query could not be rewritten with a LIMIT", query) from e
    # Belt and braces: what will run must pass the same checks and carry the cap.
    again = _parse_one_select(guarded, query)
    if again.limitCount is None:
        raise reject("the query could not be rewritten with a LIMIT", query)
    return str(guarded)


# The planner's estimate, checked before a guarded SELECT runs: a cross join of two price tables
# or a huge series passes every name check but would hold a pooled connection until the timeout.
# Units are the planner's (about one sequential page read each); the demo data's heaviest
# analytic queries plan well under 1e6.
MAX_PLAN_COST = 5e7


@dataclass(frozen=True)
class PlanEstimate:
    total_cost: float
    rows: float


def check_plan_cost(estimate: PlanEstimate, query: str, max_cost: float = MAX_PLAN_COST) -> None:
    if estimate.total_cost > max_cost:
        raise reject(
            f"the query is too expensive to run (planner estimate {estimate.total_cost:,.0f} > "
            f"{max_cost:,.0f}; {estimate.rows:,.0f} rows): add a filter, a join condition or an "
            "aggregate over fewer rows",
            query,
        )
