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
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

from pglast import ast, enums, parse_sql
from pglast.parser import ParseError
from pglast.stream import RawStream

from data_access.cypher_parse import (
    NUMBER_KINDS,
    QUOTED_KINDS,
    CypherToken,
    dotted_name,
    is_name,
    is_word,
    lex_cypher,
    resolve_unicode_escapes,
)
from data_access.errors import QueryRejected
from data_access.sql_policy import READER_TABLES, check_names, walk_scoped

logger = logging.getLogger(__name__)

__all__ = [
    "MAX_PLAN_COST",
    "MAX_QUERY_CHARS",
    "READER_TABLES",
    "READ_PROCEDURES",
    "PlanEstimate",
    "check_plan_cost",
    "guard_cypher",
    "guard_sql",
]

MAX_QUERY_CHARS = 20_000

# Allow-list, compared case-insensitively: a new write procedure must not pass by default.
READ_PROCEDURES = frozenset(
    name.lower()
    for name in [
        "db.labels",
        "db.relationshipTypes",
        "db.propertyKeys",
        "db.indexes",
        "db.constraints",
        "db.idx.vector.queryNodes",
        "db.idx.vector.queryRelationships",
        "db.idx.fulltext.queryNodes",
        "db.idx.fulltext.queryRelationships",
        "db.index.vector.queryNodes",
        "db.index.vector.queryRelationships",
        "db.index.fulltext.queryNodes",
        "db.index.fulltext.queryRelationships",
        "db.schema.visualization",
        "db.schema.nodeTypeProperties",
        "db.schema.relTypeProperties",
        # Read-only schema/metadata procedures Neo4j tooling calls (issue 22).
        "apoc.meta.data",
        "apoc.meta.schema",
        "apoc.meta.stats",
        "apoc.meta.nodeTypeProperties",
        "apoc.meta.relTypeProperties",
        "apoc.schema.nodes",
        "apoc.schema.relationships",
        # Read-only traversal procedures (they only MATCH).
        "apoc.path.expand",
        "apoc.path.expandConfig",
        "apoc.path.subgraphNodes",
        "apoc.path.subgraphAll",
        "apoc.path.spanningTree",
        "apoc.neighbors.tohop",
        "apoc.neighbors.athop",
    ]
)
# Namespaced functions, by prefix: APOC's value-only namespaces, vector similarity, temporal and
# spatial helpers, FalkorDB's string/list/vec helpers. Everything else namespaced is refused:
# dbms.*, apoc.cypher.run*, apoc.load.* / apoc.ml.* / genai.* (files, network, outside services).
_READ_FUNCTION_PREFIXES = tuple(
    [f"apoc.{ns}." for ns in ("text", "coll", "map", "convert", "date", "temporal", "math",
                              "number", "agg", "node", "label", "rel", "any", "meta.cypher",
                              "scoring", "bitwise", "hashing")]
    + ["apoc.nodes.connected(", "gds.similarity.", "gds.alpha.similarity.",
       "gds.util.asnode(", "gds.util.asnodes("]
    + ["vector.similarity.", "vec.", "point.", "date.", "datetime.", "localdatetime.",
       "localtime.", "time.", "duration.", "string.", "list."]
)  # fmt: skip

_WRITE_WORDS = {
    "CREATE": "write clause CREATE",
    "INSERT": "write clause INSERT",  # Neo4j's GQL spelling of CREATE
    "MERGE": "write clause MERGE",
    "SET": "write clause SET",
    "DELETE": "write clause DELETE",
    "DETACH": "write clause DETACH DELETE",
    "REMOVE": "write clause REMOVE",
    "FOREACH": "write clause FOREACH",
    "DROP": "schema command DROP",
    "LOAD": "LOAD CSV (reads files and URLs)",
}
_ADMIN_WORDS = frozenset({"SHOW", "USE", "GRANT", "DENY", "REVOKE", "TERMINATE", "ALTER", "RENAME"})
_FIRST_WORDS = ("MATCH", "OPTIONAL", "WITH", "UNWIND", "CALL", "RETURN")
_INT = "[0-9]+(?:_[0-9]+)*"
_NUMBER = re.compile(
    rf"-?(?:0x[0-9a-f]+|0o[0-7]+|{_INT}(?:\.{_INT})?(?:e[+-]?[0-9]+)?|\.{_INT}(?:e[+-]?[0-9]+)?)",
    re.IGNORECASE,
)
_VERSION = re.compile(r"[0-9]{1,2}(?:\.[0-9]{1,2})?")
_OPEN = {"LPAREN": "RPAREN", "LBRACK": "RBRACK", "LBRACE": "RBRACE"}
_CLOSE = frozenset(_OPEN.values())
# Operators FalkorDB or Neo4j accept that this grammar lacks (!=, =~, label & and !): the lexer
# skips them and resumes, and none of them can open a string or comment, so they are safe to skip.
_SKIPPABLE_CHARS = frozenset("!~&")


def reject(reason: str, query: str) -> QueryRejected:
    logger.info("query rejected: %s | %.200r", reason, query)
    return QueryRejected(reason)


def _check_common(query: str, max_rows: int, language: str) -> None:
    if isinstance(max_rows, bool) or not isinstance(max_rows, int) or max_rows < 1:
        raise ValueError(f"max_rows must be a positive int, got {max_rows!r}")
    if not isinstance(query, str):
        raise reject(f"{language} query must be text, got {type(query).__name__}", repr(query))
    if len(query) > MAX_QUERY_CHARS:
        raise reject(
            f"{language} query is too long ({len(query):,} characters; limit {MAX_QUERY_CHARS:,})",
            query,
        )
    if all(ch.isspace() or unicodedata.category(ch) == "Cf" for ch in query):
        raise reject(f"empty {language} query", query)
    for ch in query:
        if unicodedata.category(ch) == "Cc" and ch not in "\t\n\r\x0b\x0c\x85":
            raise reject(f"control character U+{ord(ch):04X} is not allowed", query)


# --------------------------------------------------------------------------------------- Cypher


def _is_keyword(sig: list[CypherToken], i: int, *words: str) -> bool:
    return is_word(sig[i]) and sig[i].upper in words and not is_name(sig, i)


def _check_procedure(name: str, query: str) -> None:
    if name.lower() in READ_PROCEDURES:
        return
    if name.lower().startswith("dbms."):
        raise reject(f"administration procedure {name} is not allowed", query)
    raise reject(
        f"procedure {name} is not allowed: only read procedures such as db.labels, "
        "db.idx.vector.queryNodes or db.idx.fulltext.queryNodes may be called",
        query,
    )


def _check_calls(sig: list[CypherToken], query: str) -> None:
    """Procedures after CALL must be on the allow-list, namespaced functions on theirs."""
    i, n = 0, len(sig)
    while i < n:
        if _is_keyword(sig, i, "CALL"):
            if i + 1 == n:
                raise reject("CALL must name a read procedure", query)
            if sig[i + 1].kind in ("LBRACE", "LPAREN"):  # subquery: its tokens are checked as usual
                i += 1
                continue
            name, j = dotted_name(sig, i + 1)
            if not name:
                raise reject(f"CALL must name a read procedure, not '{sig[i + 1].text}'", query)
            _check_procedure(name, query)
            i = j
            continue
        if (is_word(sig[i]) or sig[i].kind == "ESC_LITERAL") and not is_name(sig, i):
            name, j = dotted_name(sig, i)
            namespaced_call = "." in name and j < n and sig[j].kind == "LPAREN"
            if namespaced_call and not f"{name.lower()}(".startswith(_READ_FUNCTION_PREFIXES):
                raise reject(
                    f"function {name}() is not allowed: only value functions (apoc.text.*, "
                    "vector.similarity.*, date.*, …) may be called, nothing that reaches "
                    "files, the network or other services",
                    query,
                )
            i = max(j, i + 1)
            continue
        i += 1


def _depths(sig: list[CypherToken], query: str) -> list[int]:
    """Bracket depth before each token; the final RETURN and its LIMIT live at depth 0."""
    stack: list[str] = []
    depths: list[int] = []
    for tok in sig:
        if tok.kind in _CLOSE and (not stack or stack.pop() != tok.kind):
            raise reject(f"unbalanced bracket '{tok.text}'", query)
        depths.append(len(stack))
        if tok.kind in _OPEN:
            stack.append(_OPEN[tok.kind])
    if stack:
        raise reject("unbalanced brackets: a '(', '[' or '{' is never closed", query)
    return depths


def _limit_edits(
    sig: list[CypherToken], max_rows: int, query: str, params: Mapping[str, object]
) -> list[tuple[int, int, str]]:
    """Edits that give the final RETURN of every UNION branch a LIMIT of at most ``max_rows``.

    Each branch gets its own LIMIT (FalkorDB has no way to limit a whole UNION), so a UNION of k
    branches can return k * max_rows rows; callers still truncate what they show.
    """
    depths = _depths(sig, query)
    branches: list[tuple[int, int]] = []
    lo = 0
    for i in range(len(sig)):
        if depths[i] == 0 and _is_keyword(sig, i, "UNION"):
            branches.append((lo, i - 1))
            lo = i + 2 if i + 1 < len(sig) and sig[i + 1].upper == "ALL" else i + 1
    branches.append((lo, len(sig) - 1))

    edits: list[tuple[int, int, str]] = []
    for lo, hi in branches:
        returns = [k for k in range(lo, hi + 1) if depths[k] == 0 and _is_keyword(sig, k, "RETURN")]
        if not returns:
            raise reject(
                "the query must end with RETURN so a LIMIT can be applied "
                "(e.g. CALL db.labels() YIELD label RETURN label)",
                query,
            )
        limits = [
            k
            for k in range(returns[-1] + 1, hi + 1)
            if depths[k] == 0 and _is_keyword(sig, k, "LIMIT")
        ]
        if not limits:
            edits.append((sig[hi].end, sig[hi].end, f" LIMIT {max_rows}"))
            continue
        k = limits[-1]
        if k + 2 == hi and sig[k + 1].kind == "DOLLAR":  # LIMIT $limit: its value, capped
            edits.append(
                (
                    sig[k + 1].start,
                    sig[hi].end,
                    str(_limit_param(sig[hi].text, params, max_rows, query)),
                )
            )
            continue
        value = sig[k + 1] if k + 1 <= hi else None
        if value is None or k + 1 != hi or not (value.text.isascii() and value.text.isdigit()):
            found = " ".join(tok.text for tok in sig[k + 1 : hi + 1])[:40] or "nothing"
            raise reject(f"LIMIT must be a whole number or a parameter (found '{found}')", query)
        if int(value.text) > max_rows:
            edits.append((value.start, value.end, str(max_rows)))
    return edits


def _limit_param(name: str, params: Mapping[str, object], max_rows: int, query: str) -> int:
    """The value of ``LIMIT $name``, capped at ``max_rows``; it is written into the text, so the
    cap holds on both servers (neither accepts an expression such as a minimum there)."""
    key = name.strip("`")
    value = params.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise reject(f"LIMIT ${key} needs a whole-number parameter (got {value!r})", query)
    return min(value, max_rows)


def _without_version_prefix(sig: list[CypherToken], query: str) -> list[CypherToken]:
    """The tokens after a leading ``CYPHER <version>``; any other CYPHER prefix is refused."""
    if not sig or sig[0].upper != "CYPHER":
        return sig
    version = len(sig) > 2 and sig[1].kind in NUMBER_KINDS and _VERSION.fullmatch(sig[1].text)
    options = any(tok.text == "=" for tok in sig[2:4])  # CYPHER 25 runtime=parallel
    if version and not options:
        return sig[2:]
    raise reject(
        "only a CYPHER version prefix (e.g. CYPHER 25) is allowed; query options are not "
        "(on FalkorDB they set parameters)",
        query,
    )


def guard_cypher(
    query: str, max_rows: int = 200, params: Mapping[str, object] | None = None
) -> str:
    """Return ``query`` ready for a read-only run with a LIMIT of at most ``max_rows``, or raise
    ``QueryRejected``.

    Decisions, each on the safe side of a real ambiguity:

    - Keywords inside string literals, backtick names and comments are not clauses. A bare
      keyword right after ``.``, ``:`` or ``$`` is a name (``n.set``, ``(:Remove)``, ``$create``)
      and passes; anywhere else (``{set: 1}``, ``[:A|SET]``, a variable named ``use``) it is
      refused, even where the server might have read it as a name.
    - One trailing ``;`` is dropped; any other ``;`` is refused.
    - Every UNION branch's final RETURN gets its own LIMIT. ``LIMIT $n`` becomes the value of
      ``params["n"]`` capped at ``max_rows`` (no value: refused); an expression is refused, and
      so is a query without a final RETURN (``CALL db.labels()`` alone) because a LIMIT needs one.
    - ``\\uXXXX`` escapes are resolved first, as Neo4j does before parsing, and the resolved
      text is what is checked and run: an escaped quote cannot end a literal on one server only.
    - A ``CYPHER 25`` version prefix is accepted (the FalkorDB store drops it); query options
      (``CYPHER runtime=…``, which set parameters on FalkorDB) are refused.
    - Text this grammar cannot lex (a bad escape such as ``'\\q'``, which FalkorDB accepts, a
      line break inside quotes) is refused rather than guessed at; ``!=``, ``=~`` and label
      ``&``/``!`` are skipped because they cannot open a string or comment.
    """
    _check_common(query, max_rows, "Cypher")
    try:
        resolved = resolve_unicode_escapes(query)
    except ValueError as e:
        raise reject(str(e), query) from e
    if resolved != query:
        _check_common(resolved, max_rows, "Cypher")
    lexed = lex_cypher(resolved)
    text = lexed.text
    for fail in lexed.failures:
        if fail.text in _SKIPPABLE_CHARS:
            continue
        line = text.count("\n", 0, fail.start) + 1
        if fail.text[:1] in "'\"`":
            raise reject(f"unterminated or malformed quoted text near line {line}", query)
        raise reject(f"unexpected character {fail.text[:1]!r} near line {line}", query)

    quoted = [False] * len(text)
    for tok in lexed.tokens:
        if tok.kind in QUOTED_KINDS:
            quoted[tok.start : tok.end] = [True] * (tok.end - tok.start)
    for pos, ch in enumerate(text):
        if not quoted[pos] and unicodedata.category(ch) == "Cf":
            raise reject(
                f"invisible character U+{ord(ch):04X} is only allowed inside a quoted value", query
            )

    sig = [tok for tok in lexed.tokens if not tok.is_layout]
    if not sig:
        raise reject("empty Cypher query (only comments)", query)
    edits: list[tuple[int, int, str]] = []
    if sig[-1].kind == "SEMI":  # one trailing ';' is harmless and common
        edits.append((sig[-1].start, sig[-1].end, ""))
        sig = sig[:-1]
    if any(tok.kind == "SEMI" for tok in sig) or not sig:
        raise reject("only one statement is allowed (found ';' between statements)", query)

    for i, tok in enumerate(sig):
        starts_with_digit = tok.kind == "ID" and tok.text[:1].isdigit()
        if (tok.kind in NUMBER_KINDS or starts_with_digit) and not _NUMBER.fullmatch(tok.text):
            # This grammar lexes `1CREATE` as one name and `.1DELETE` as `.1D` + `ELETE`; a real
            # Cypher lexer reads a number, then the keyword.
            raise reject(f"malformed number '{tok.text[:30]}'", query)
        if not is_word(tok) or is_name(sig, i):
            continue
        word = tok.upper
        if word in _WRITE_WORDS:
            raise reject(f"{_WRITE_WORDS[word]} is not allowed (read-only queries only)", query)
        if word in _ADMIN_WORDS:
            raise reject(f"administration command {word} is not allowed", query)
        nxt = sig[i + 1].upper if i + 1 < len(sig) else ""
        if word in ("START", "STOP") and nxt.startswith("DATABASE"):
            raise reject(f"administration command {word} DATABASE is not allowed", query)
        if word == "IN" and nxt == "TRANSACTIONS":
            raise reject("CALL { … } IN TRANSACTIONS is not allowed (batched writes)", query)

    sig = _without_version_prefix(sig, query)
    first = sig[0].upper
    if first == "GRAPH" and len(sig) > 1 and sig[1].kind == "DOT":
        raise reject("GRAPH.* commands are not allowed; send only the Cypher text", query)
    if first not in _FIRST_WORDS:
        raise reject(
            "a query must start with MATCH, OPTIONAL MATCH, WITH, UNWIND, CALL or RETURN "
            f"(found '{sig[0].text}')",
            query,
        )
    _check_calls(sig, query)
    edits += _limit_edits(sig, max_rows, query, params or {})

    # Run what was checked: unicode spaces outside quoted values become plain spaces (the guard
    # read them as spaces, and a server might not), and quoted values stay exactly as written.
    out = [
        " " if not quoted[pos] and unicodedata.category(ch) == "Zs" else ch
        for pos, ch in enumerate(text)
    ]
    for start, end, new in sorted(edits, reverse=True):
        out[start:end] = list(new)
    return "".join(out).strip()


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
    _check_common(query, max_rows, "SQL")
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
