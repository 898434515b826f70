"""What agent and console SQL may name: relations and functions, as allow-lists (issue 16).

A deny-list is never complete; these lists say what may run, and everything else is refused
with the reason. `check_names(stmt, query)` walks a pglast tree of one SELECT:

    check_names(parse_sql("SELECT code FROM etfs")[0].stmt, text)         # passes
    check_names(parse_sql("SELECT * FROM pg_authid")[0].stmt, text)      # QueryRejected

Relations: the workbench's data tables (`READER_TABLES`, the same list migration 0007 grants
to the reader role), a CTE name where that CTE is in scope, and a small named set of
information_schema views. Functions: `FUNCTIONS`, unqualified or in pg_catalog / the workbench
schema (pg_trgm and pgvector live there); a few take arguments that must be bounded constants.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date

from pglast import ast, enums

from data_access.errors import QueryRejected
from data_access.guard_text import reject

WORKBENCH_SCHEMA = "public"

# SELECT for the reader role: market, macro, real estate, news, documents, contract clauses and
# the catalogue. Not the run store (conversations, messages, agent_runs, artifacts, eval_*), not
# seed/import bookkeeping, not schema_migrations.
READER_TABLES = frozenset(
    {
        "managers", "tags", "etfs", "etf_tags", "etf_prices", "etf_holdings",
        "stocks", "stock_prices", "stock_fundamentals", "earnings_events", "entity_aliases",
        "macro_series", "macro_observations", "market_series", "market_series_prices",
        "re_house_price_index", "re_transactions", "re_unsold_housing", "re_permits",
        "re_jeonse_ratio",
        "news_articles", "documents", "events", "evidence", "contract_articles",
        "datasets", "projection_runs",
        "molit_apt_trades", "dart_disclosures", "dart_financial_accounts",  # 0016 (issue 35)
        "universe_membership",  # 0017 (issue 35)
    }
)  # fmt: skip
# The schema views a console user needs to see what the tables hold. As the reader role they
# list only what that role may read.
CATALOG_VIEWS = frozenset({("information_schema", "tables"), ("information_schema", "columns")})

_AGGREGATES = """count sum avg min max array_agg string_agg json_agg jsonb_agg json_object_agg
jsonb_object_agg bool_and bool_or every bit_and bit_or stddev stddev_pop stddev_samp variance
var_pop var_samp corr covar_pop covar_samp regr_slope regr_intercept regr_r2 regr_count regr_avgx
regr_avgy regr_sxx regr_syy regr_sxy percentile_cont percentile_disc mode any_value"""
_WINDOW = """row_number rank dense_rank percent_rank cume_dist ntile lag lead first_value last_value
nth_value"""
_MATH = """abs ceil ceiling floor round trunc sign sqrt cbrt exp ln log log10 power pow mod div pi
degrees radians width_bucket random gcd lcm sin cos tan asin acos atan atan2 scale min_scale
trim_scale num_nulls num_nonnulls"""
_STRING = """length char_length character_length octet_length lower upper initcap substr substring
left right btrim ltrim rtrim replace split_part concat concat_ws position strpos reverse format
to_char to_number regexp_replace regexp_match regexp_matches regexp_split_to_array
regexp_split_to_table regexp_count regexp_instr regexp_like regexp_substr starts_with translate
ascii chr quote_ident quote_literal quote_nullable md5 string_to_array string_to_table
array_to_string unnest array_length array_lower array_upper cardinality array_position
array_positions array_append array_prepend array_cat array_remove array_replace overlay normalize
lpad rpad repeat"""
_DATETIME = """now date_trunc date_part extract age make_date make_time make_timestamp
make_timestamptz make_interval date_bin justify_days justify_hours justify_interval isfinite
to_date to_timestamp timezone clock_timestamp statement_timestamp transaction_timestamp
generate_series"""
_JSON = """to_json to_jsonb row_to_json array_to_json json_build_object jsonb_build_object
json_build_array jsonb_build_array json_object jsonb_object json_array_elements
jsonb_array_elements json_array_elements_text jsonb_array_elements_text json_each jsonb_each
json_each_text jsonb_each_text json_object_keys jsonb_object_keys json_array_length
jsonb_array_length json_typeof jsonb_typeof json_extract_path jsonb_extract_path
json_extract_path_text jsonb_extract_path_text jsonb_pretty jsonb_strip_nulls json_strip_nulls
jsonb_set jsonb_insert jsonb_path_query jsonb_path_query_array jsonb_path_query_first
jsonb_path_exists jsonb_path_match jsonb_to_record jsonb_to_recordset json_to_record
json_to_recordset"""
_SEARCH = """similarity word_similarity strict_word_similarity to_tsvector to_tsquery
plainto_tsquery websearch_to_tsquery phraseto_tsquery ts_rank ts_rank_cd ts_headline
cosine_distance l2_distance inner_product l1_distance vector_dims vector_norm l2_normalize"""
FUNCTIONS = frozenset(
    " ".join([_AGGREGATES, _WINDOW, _MATH, _STRING, _DATETIME, _JSON, _SEARCH]).split()
)
_FUNCTION_SCHEMAS = frozenset({"pg_catalog", WORKBENCH_SCHEMA})

MAX_TEXT_LENGTH = 10_000  # repeat / lpad / rpad: the length argument
MAX_SERIES_ROWS = 100_000  # generate_series: rows one call may produce
_LENGTH_ARGUMENT = {"repeat": 1, "lpad": 1, "rpad": 1}


def _reject(reason: str, query: str) -> QueryRejected:
    return reject(reason, query)


# --------------------------------------------------------------------------- relations


def walk_scoped(root: ast.Node) -> Iterator[tuple[ast.Node, frozenset[str]]]:
    """Every node under ``root`` with the CTE names visible at it; iterative, so a deeply nested
    query cannot exhaust the stack. A non-recursive WITH makes each CTE visible
    to the CTEs after it and to the statement's body, never to itself or the ones before it, and
    never outside the statement (an inner `WITH pg_authid AS …` does not hide the real one)."""
    stack: list[tuple[object, frozenset[str]]] = [(root, frozenset())]
    while stack:
        item, scope = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend((x, scope) for x in item)
            continue
        if not isinstance(item, ast.Node):
            continue
        yield item, scope
        slots: dict[str, object] = getattr(item, "__slots__", {})
        inner = scope
        if isinstance(item, ast.SelectStmt) and item.withClause is not None:
            for cte in item.withClause.ctes or ():
                stack.append((cte, inner))
                inner = inner | {cte.ctename}
        for slot in slots:
            if slot == "withClause" and isinstance(item, ast.SelectStmt):
                continue
            stack.append((getattr(item, slot, None), inner))


def _relation_problem(rel: ast.RangeVar, scope: frozenset[str]) -> str | None:
    schema, name = rel.schemaname, rel.relname or ""
    shown = f"{schema}.{name}" if schema else name
    if rel.catalogname:
        return f"relation {rel.catalogname}.{shown} is not allowed (no database names)"
    if schema is None and (name in scope or name in READER_TABLES):
        return None
    if schema == WORKBENCH_SCHEMA and name in READER_TABLES:
        return None
    if (schema, name) in CATALOG_VIEWS:
        return None
    return (
        f"relation {shown} is not allowed: only the workbench's data tables "
        "(etfs, stock_prices, macro_observations, …) and information_schema.tables/columns "
        "may be read"
    )


# --------------------------------------------------------------------------- functions


def _const(node: object) -> object:
    """The Python value of a literal (numbers, strings, optionally cast or negated), else None."""
    if isinstance(node, ast.TypeCast):
        return _const(node.arg)
    if isinstance(node, ast.A_Const) and not node.isnull:
        val = node.val
        if isinstance(val, ast.Integer):
            return val.ival
        if isinstance(val, ast.Float):
            return float(val.fval or 0)
        if isinstance(val, ast.String):
            return val.sval
    if (
        isinstance(node, ast.A_Expr)
        and node.kind == enums.A_Expr_Kind.AEXPR_OP
        and node.lexpr is None
        and [n.sval for n in node.name or ()] == ["-"]
    ):
        value = _const(node.rexpr)
        return -value if isinstance(value, (int, float)) else None
    return None


_INTERVAL = re.compile(
    r"^\s*(\d+(?:\.\d+)?)?\s*(second|minute|hour|day|week|month|year)s?\s*$", re.IGNORECASE
)
_UNIT_DAYS = {"second": 1 / 86400, "minute": 1 / 1440, "hour": 1 / 24, "day": 1, "week": 7,
              "month": 28, "year": 365}  # fmt: skip


def _series_rows(args: list[object]) -> float | None:
    """Rows a generate_series call with these constant arguments makes, or None if unknown."""
    values = [_const(a) for a in args]
    if any(v is None for v in values) or len(values) not in (2, 3):
        return None
    start, stop = values[0], values[1]
    step = values[2] if len(values) == 3 else 1
    if isinstance(start, (int, float)) and isinstance(stop, (int, float)):
        if not isinstance(step, (int, float)) or step == 0:
            return None
        return max(0.0, (stop - start) / step + 1)
    try:
        first, last = date.fromisoformat(str(start)[:10]), date.fromisoformat(str(stop)[:10])
    except ValueError:
        return None
    match = _INTERVAL.match(str(step)) if isinstance(step, str) else None
    if match is None:
        return None
    days = float(match.group(1) or 1) * _UNIT_DAYS[match.group(2).lower()]
    return max(0.0, abs((last - first).days) / days + 1) if days > 0 else None


def _function_problem(call: ast.FuncCall) -> str | None:
    parts = [p.sval for p in call.funcname or ()]
    name = ".".join(parts)
    base = parts[-1].lower() if parts else ""
    schema = parts[-2].lower() if len(parts) >= 2 else None
    if base not in FUNCTIONS or len(parts) > 2 or (schema and schema not in _FUNCTION_SCHEMAS):
        return (
            f"function {name}() is not allowed: only aggregate, window, math, string, date/time, "
            "JSON and text-search functions may be called"
        )
    args = list(call.args or ())
    if base in _LENGTH_ARGUMENT:
        index = _LENGTH_ARGUMENT[base]
        length = _const(args[index]) if len(args) > index else None
        if not isinstance(length, int) or length > MAX_TEXT_LENGTH:
            return f"{name}() needs a constant length of at most {MAX_TEXT_LENGTH:,}"
    if base == "generate_series":
        rows = _series_rows(args)
        if rows is None or rows > MAX_SERIES_ROWS:
            return (
                "generate_series() needs constant bounds (numbers, or dates with a step such as "
                f"'1 day') that give at most {MAX_SERIES_ROWS:,} rows"
            )
    return None


# --------------------------------------------------------------------------- entry point


def check_names(stmt: ast.Node, query: str) -> None:
    """Refuse any relation or function off the allow-lists, WITH RECURSIVE and XML functions.

    The whole tree is checked first, so one query always gets the same reason: recursion, then
    XML, then the leftmost relation or function."""
    found: list[tuple[int, int, str]] = []
    for node, scope in walk_scoped(stmt):
        where = getattr(node, "location", None) or 0
        problem: str | None = None
        rank = 2
        if isinstance(node, ast.SelectStmt) and node.withClause and node.withClause.recursive:
            problem, rank = "WITH RECURSIVE is not allowed (it can run without end)", 0
        elif isinstance(node, (ast.XmlExpr, ast.XmlSerialize, ast.RangeTableFunc)):
            problem, rank = "XML functions are not allowed (they can read external entities)", 1
        elif isinstance(node, ast.RangeVar):
            problem = _relation_problem(node, scope)
        elif isinstance(node, ast.FuncCall):
            problem = _function_problem(node)
        if problem:
            found.append((rank, where, problem))
    if found:
        raise _reject(min(found)[2], query)
