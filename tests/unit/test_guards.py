"""Read-only guards: hostile corpora must be refused with a specific reason, ordinary analyst
queries must pass with a LIMIT of at most ``max_rows``.

The hostile corpora live in agents/eval/golden/hostile_{cypher,sql}.json (``query`` and a
fragment the ``reason`` must contain) so integration tests and the evaluation runner's guard suite
can replay them against the real stores.
"""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import pytest
from pglast import ast, parse_sql

from data_access.errors import QueryRejected
from data_access.guards import MAX_QUERY_CHARS, guard_cypher, guard_sql

CORPORA = Path(__file__).resolve().parents[2] / "agents" / "eval" / "golden"


def _corpus(name: str) -> list[tuple[str, str]]:
    rows = json.loads((CORPORA / name).read_text(encoding="utf-8"))
    return [(row["query"], row["reason"]) for row in rows]


HOSTILE_CYPHER = _corpus("hostile_cypher.json")
HOSTILE_SQL = _corpus("hostile_sql.json")
PLAN_COST_REASON = "too expensive"


def _rejected(guard: object, query: str) -> str:
    with pytest.raises(QueryRejected) as info:
        guard(query)  # type: ignore[operator]
    reason = info.value.reason
    assert reason and len(reason) < 200, reason
    return reason


# ---------------------------------------------------------------------------------- corpora


def test_corpora_are_big_enough() -> None:
    assert len(HOSTILE_CYPHER) >= 60
    assert len(HOSTILE_SQL) >= 50
    assert len(BENIGN_CYPHER) >= 25
    assert len(BENIGN_SQL) >= 20


@pytest.mark.parametrize(("query", "fragment"), HOSTILE_CYPHER, ids=range(len(HOSTILE_CYPHER)))
def test_hostile_cypher_is_rejected(query: str, fragment: str) -> None:
    reason = _rejected(guard_cypher, query)
    assert fragment.lower() in reason.lower(), reason


@pytest.mark.parametrize(("query", "fragment"), HOSTILE_SQL, ids=range(len(HOSTILE_SQL)))
def test_hostile_sql_is_rejected(query: str, fragment: str) -> None:
    if fragment == PLAN_COST_REASON:  # refused by the planner's estimate (needs the database):
        return  # tests/integration/test_reader_role.py
    reason = _rejected(guard_sql, query)
    assert fragment.lower() in reason.lower(), reason


def test_too_long_queries_are_rejected() -> None:
    long_cypher = "MATCH (n) RETURN n" + " " * MAX_QUERY_CHARS
    long_sql = "SELECT 1" + " " * MAX_QUERY_CHARS
    assert "too long" in _rejected(guard_cypher, long_cypher)
    assert "too long" in _rejected(guard_sql, long_sql)


def test_non_text_is_rejected() -> None:
    assert "text" in _rejected(guard_cypher, None)  # type: ignore[arg-type]
    assert "text" in _rejected(guard_sql, b"SELECT 1")  # type: ignore[arg-type]


@pytest.mark.parametrize("max_rows", [0, -1, True, 2.5])
def test_bad_max_rows_is_a_programming_error(max_rows: object) -> None:
    with pytest.raises(ValueError):
        guard_cypher("MATCH (n) RETURN n", max_rows=max_rows)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        guard_sql("SELECT 1", max_rows=max_rows)  # type: ignore[arg-type]


# ----------------------------------------------------------------------------------- Cypher

BENIGN_CYPHER = [
    "MATCH (e:ETF)-[h:HOLDS]->(s:Stock {code: '005930'}) WITH e, h ORDER BY h.date DESC "
    "WITH e, head(collect(h)) as latest RETURN {etf_code: e.code, etf_name: e.name, "
    "weight: latest.weight} ORDER BY latest.weight DESC LIMIT 5",
    "MATCH (e:ETF)-[:TAGGED]->(t:Tag {name: '반도체'}) RETURN {code: e.code, name: e.name, "
    "expense_ratio: e.expense_ratio} ORDER BY e.expense_ratio ASC",
    "MATCH p = (a:Company)-[*1..3]-(b:Company) RETURN p LIMIT 10",
    "CALL db.labels() YIELD label RETURN label",
    "CALL db.relationshipTypes() YIELD relationshipType RETURN relationshipType",
    "CALL db.idx.vector.queryNodes('Document', 'embedding', 5, vecf32($v)) YIELD node, score "
    "RETURN node.doc_id, score",
    "CALL db.idx.fulltext.queryNodes('Doc', '반도체*') YIELD node, score "
    "RETURN node.title, score ORDER BY score DESC LIMIT 20",
    "CALL { MATCH (n:ETF) RETURN n } RETURN n.code",
    "MATCH (e:ETF) CALL { WITH e MATCH (e)-[:HOLDS]->(s) RETURN count(s) AS n } RETURN e.code, n",
    "MATCH (n:ETF) RETURN n.code AS code UNION MATCH (n:Stock) RETURN n.code AS code",
    "MATCH (n) OPTIONAL MATCH (n)-[r]->(m) RETURN CASE WHEN m IS NULL THEN 0 ELSE 1 END AS x, "
    "reduce(s = 0, v IN [1, 2] | s + v) AS total",
    "MATCH (a:Company {code: 'A'}), (b:Company {code: 'B'}) "
    "WITH shortestPath((a)-[*]->(b)) AS p RETURN length(p)",
    "MATCH (a:Company) RETURN [(a)-[:SUPPLIES]->(b) | b.name] AS customers",
    "MATCH (c:Company) WHERE c.created_at >= date('2024-01-01') RETURN c.name, c.created_at",
    "MATCH (e:Event) WHERE e.merged = true AND e.set_id IS NOT NULL "
    "RETURN e.set_id, e.deleted_at, e.updated_by",
    "RETURN 'CREATE' AS kw, \"delete me\" AS note, 'MERGE (x); DROP INDEX y' AS s",
    "MATCH (n:`Remove`) RETURN n.`SET` AS s",
    "MATCH (n:Remove) RETURN n.set AS s, n.delete AS d",
    "MATCH (c:Company {name: '삼성전자'})-[:HOLDS]-(e) RETURN e.name AS `이름`",
    "MATCH (n) WHERE n.name STARTS WITH '삼성' AND toLower(n.en) CONTAINS 'semi' "
    "RETURN n.name // 삼성 계열\n",
    "MATCH (n) RETURN n /* CREATE (x) only in a comment */",
    "// DELETE everything? no, just count\nMATCH (n) RETURN count(n)",
    "MATCH (n) RETURN n;",
    "MATCH (n:ETF) WHERE n.code IN $codes RETURN n.code, n.name SKIP 10",
    "MATCH (n)\u00a0RETURN\u2003n.name",
    "UNWIND ['CREATE', 'SET'] AS word RETURN word",
    "MATCH (e:ETF) RETURN DISTINCT e.issuer AS issuer ORDER BY issuer",
    "MATCH (e:ETF) WITH e ORDER BY e.aum DESC LIMIT 1000 RETURN e.code",
    "MATCH (n) RETURN n {.name, .code} AS m",
    "RETURN 'line1\\nline2' AS s, 'tab\\there' AS t",
    "MATCH (n {note: 'USE this; SHOW that'}) RETURN n",
    "MATCH (n) WHERE n.label = '\u200b삼성' RETURN n",
    "MATCH (s:Stock) WHERE s.sector = 'Semiconductors' "
    "RETURN s.code, s.name, s.market_cap ORDER BY s.market_cap DESC",
]

# Valid on Neo4j but not on FalkorDB (kept apart so BENIGN_CYPHER can be replayed on FalkorDB):
# the grammar lacks `!=` and `=~`, which must not make the guard refuse them.
NEO4J_ONLY_CYPHER = [
    "MATCH (n) WHERE n.x <> 1 AND n.y != 2 RETURN n",
    "MATCH (n) WHERE n.name =~ '삼성.*' RETURN n.name",
    "RETURN apoc.text.join(['a', 'b'], ',') AS s",
    "MATCH (c:Company) RETURN c.name AS 이름",
]


@pytest.mark.parametrize("query", BENIGN_CYPHER + NEO4J_ONLY_CYPHER)
def test_benign_cypher_passes_with_a_limit(query: str) -> None:
    out = guard_cypher(query)
    assert out.upper().count("LIMIT") >= 1
    assert guard_cypher(out) == out  # what the guard returns passes it unchanged


def test_cypher_limit_is_appended_when_missing() -> None:
    assert guard_cypher("MATCH (n:ETF) RETURN n.code") == "MATCH (n:ETF) RETURN n.code LIMIT 200"
    assert guard_cypher("MATCH (n) RETURN n ORDER BY n.x", max_rows=7) == (
        "MATCH (n) RETURN n ORDER BY n.x LIMIT 7"
    )


def test_cypher_limit_is_kept_or_capped() -> None:
    assert guard_cypher("MATCH (n) RETURN n LIMIT 5") == "MATCH (n) RETURN n LIMIT 5"
    assert guard_cypher("MATCH (n) RETURN n LIMIT 200") == "MATCH (n) RETURN n LIMIT 200"
    assert guard_cypher("MATCH (n) RETURN n limit 1000") == "MATCH (n) RETURN n limit 200"
    assert guard_cypher("MATCH (n) RETURN n SKIP 3 LIMIT 90", max_rows=50) == (
        "MATCH (n) RETURN n SKIP 3 LIMIT 50"
    )


def test_cypher_limit_goes_on_every_union_branch() -> None:
    out = guard_cypher(
        "MATCH (a:ETF) RETURN a.code AS c UNION ALL MATCH (b:Stock) RETURN b.code AS c LIMIT 900"
    )
    assert out == (
        "MATCH (a:ETF) RETURN a.code AS c LIMIT 200 UNION ALL "
        "MATCH (b:Stock) RETURN b.code AS c LIMIT 200"
    )


def test_cypher_limit_goes_before_a_trailing_comment() -> None:
    # Appended after the comment, the LIMIT would be commented out.
    assert (
        guard_cypher("MATCH (n) RETURN n // top rows") == "MATCH (n) RETURN n LIMIT 200 // top rows"
    )


def test_cypher_trailing_semicolon_is_dropped() -> None:
    assert guard_cypher("MATCH (n) RETURN n ;") == "MATCH (n) RETURN n LIMIT 200"


def test_cypher_only_the_final_return_is_limited() -> None:
    out = guard_cypher("CALL { MATCH (n:ETF) RETURN n LIMIT 900 } WITH n LIMIT 5000 RETURN n.code")
    assert (
        out == "CALL { MATCH (n:ETF) RETURN n LIMIT 900 } WITH n LIMIT 5000 RETURN n.code LIMIT 200"
    )


def test_cypher_unicode_spaces_become_plain_outside_quotes() -> None:
    out = guard_cypher("MATCH (n)\u00a0RETURN n.name AS `삼성\u00a0전자`, 'a\u2003b'")
    assert out == "MATCH (n) RETURN n.name AS `삼성\u00a0전자`, 'a\u2003b' LIMIT 200"


def test_cypher_keywords_in_quotes_and_names_pass() -> None:
    out = guard_cypher("MATCH (n:`CREATE`) WHERE n.created_at > 0 RETURN 'DETACH DELETE' AS s")
    assert out.endswith("LIMIT 200")


# -------------------------------------------------------------------------------------- SQL

BENIGN_SQL = [
    "SELECT * FROM stock_prices WHERE security_id = 'KR:005930' ORDER BY trade_date DESC",
    "SELECT updated_at, deleted, created_by FROM documents WHERE deleted = false",
    "SELECT 'DELETE FROM stock_prices; DROP TABLE x' AS note",
    "SELECT name FROM stocks WHERE name = '삼성전자'",
    "WITH latest AS (SELECT security_id, max(trade_date) AS d FROM stock_prices GROUP BY 1) "
    "SELECT p.* FROM stock_prices p JOIN latest l ON l.security_id = p.security_id "
    "AND l.d = p.trade_date",
    "SELECT code FROM etfs UNION ALL SELECT security_id FROM stocks ORDER BY 1",
    "VALUES (1, 'a'), (2, 'b')",
    "TABLE etf_prices",
    "SELECT count(*) FROM stock_prices;",
    "select * from public.stock_prices -- newest first? no: any order\n",
    "SELECT $$it's CREATE TABLE$$ AS s",
    "SELECT E'\\'; DELETE FROM stock_prices; --' AS s",
    "SELECT date_trunc('month', trade_date) AS m, avg(close) FROM stock_prices GROUP BY 1 "
    "ORDER BY 1 DESC LIMIT 12",
    "SELECT * FROM stock_prices LIMIT 1000",
    "SELECT * FROM stock_prices ORDER BY trade_date OFFSET 10 LIMIT 5",
    "SELECT embedding <=> '[1,2,3]'::vector AS dist FROM contract_articles ORDER BY dist LIMIT 5",
    "SELECT similarity(name, '삼성 전자') AS s, name FROM stocks ORDER BY s DESC",
    'SELECT "update", "delete" FROM etfs',
    "SELECT * FROM (SELECT * FROM stock_prices ORDER BY close DESC LIMIT 10) t ORDER BY close",
    "SELECT EXISTS (SELECT 1 FROM etfs WHERE code = 'x')",
    "SELECT * FROM etfs WHERE code = $1 LIMIT $2",
    'SELECT lower(name), "lo_name", "set_config" FROM stocks',
    "SELECT row_number() OVER (PARTITION BY security_id ORDER BY trade_date) FROM stock_prices",
    "SELECT * FROM news_articles WHERE body ILIKE '%merge%' AND lang <> 'insert'",
    "SELECT code FROM etfs ORDER BY code FETCH FIRST 3 ROWS WITH TIES",
    "SELECT table_name, column_name FROM information_schema.columns",
    "WITH etfs AS (SELECT 1 AS code) SELECT code FROM etfs",
    "SELECT d::date FROM generate_series('2026-01-01'::date, '2026-12-31'::date, "
    "interval '1 day') d",
    "SELECT g FROM generate_series(1, 100000) g",
    "SELECT lpad(code, 10, '0'), pg_catalog.lower(name) FROM etfs",
]


def _top(sql: str) -> ast.SelectStmt:
    stmt = parse_sql(sql)[0].stmt
    assert isinstance(stmt, ast.SelectStmt)
    return stmt


@pytest.mark.parametrize("query", BENIGN_SQL)
def test_benign_sql_passes_with_a_limit(query: str) -> None:
    out = guard_sql(query)
    assert _top(out).limitCount is not None
    assert guard_sql(out) == out


def test_sql_limit_is_appended_after_order_by() -> None:
    out = guard_sql("SELECT name FROM stocks ORDER BY market_cap DESC -- biggest")
    assert out == "SELECT name FROM stocks ORDER BY market_cap DESC LIMIT 200"


def test_sql_limit_is_kept_or_capped() -> None:
    assert guard_sql("SELECT 1 LIMIT 5") == "SELECT 1 LIMIT 5"
    assert guard_sql("SELECT 1 LIMIT 1000") == "SELECT 1 LIMIT 200"
    assert guard_sql("SELECT 1 LIMIT ALL", max_rows=10) == "SELECT 1 LIMIT 10"
    assert guard_sql("SELECT 1 FETCH FIRST 900 ROWS ONLY") == "SELECT 1 LIMIT 200"
    assert guard_sql("SELECT 1 LIMIT $1") == "SELECT 1 LIMIT LEAST($1, 200)"


def test_sql_limit_applies_to_the_whole_union() -> None:
    out = guard_sql("SELECT code FROM etfs UNION SELECT name FROM tags ORDER BY 1")
    assert out == "SELECT code FROM etfs UNION SELECT name FROM tags ORDER BY 1 LIMIT 200"
    top = _top(out)
    assert top.larg is not None and top.larg.limitCount is None


def test_sql_with_ties_is_capped_from_outside() -> None:
    out = guard_sql("SELECT code FROM etfs ORDER BY code FETCH FIRST 3 ROWS WITH TIES")
    assert out.startswith(
        "SELECT * FROM (SELECT code FROM etfs ORDER BY code FETCH FIRST 3 ROWS WITH TIES"
    )
    assert out.endswith("AS guarded LIMIT 200")


def test_sql_strings_survive_the_rewrite() -> None:
    out = guard_sql("SELECT '삼성''s 전자' AS name, 'DROP TABLE x' AS note")
    assert out == "SELECT '삼성''s 전자' AS name, 'DROP TABLE x' AS note LIMIT 200"


# ------------------------------------------------------- issue 22: false refusals and a miss


def test_parameterized_paging_is_capped_with_the_parameter_value() -> None:
    query = "MATCH (e:ETF) RETURN e.code ORDER BY e.code SKIP $skip LIMIT $limit"
    assert guard_cypher(query, params={"skip": 20, "limit": 10}).endswith("SKIP $skip LIMIT 10")
    assert guard_cypher(query, params={"skip": 0, "limit": 5000}).endswith("SKIP $skip LIMIT 200")
    for bad in ({}, {"limit": "10"}, {"limit": -1}, {"limit": True}, {"limit": 2.5}):
        assert "whole-number parameter" in _rejected(partial(guard_cypher, params=bad), query)


@pytest.mark.parametrize(
    "query",
    [
        "CALL apoc.meta.data() YIELD label, property, type RETURN label, property, type",
        "CALL apoc.schema.nodes() YIELD label, properties RETURN label, properties",
        "CALL apoc.meta.schema() YIELD value RETURN value",
        "CYPHER 25 MATCH (e:ETF) RETURN e.code",
        "CYPHER 5 MATCH (e:ETF) RETURN e.code",
        "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX moviePlots FOR $embedding LIMIT 5) "
        "SCORE AS score RETURN m.title, score",
        "MATCH (a:Doc), (b:Doc) RETURN vector.similarity.cosine(a.emb, b.emb) AS s",
        "MATCH (e:ETF) RETURN date.truncate('month', date(e.listed)) AS m",
    ],
)
def test_read_only_tooling_queries_pass(query: str) -> None:
    assert guard_cypher(query).endswith("LIMIT 200")


def test_unicode_escapes_are_resolved_before_the_checks() -> None:
    # Neo4j reads \u0027 as a quote before parsing: the text that runs is the resolved one.
    assert guard_cypher("RETURN '\\uAC00\\uB098' AS s") == "RETURN '가나' AS s LIMIT 200"
    payload = (
        "MATCH (n) WHERE n.name = 'x\\u0027 RETURN 1 UNION LOAD CSV FROM 'http://e' AS r RETURN r"
    )
    assert "LOAD CSV" in _rejected(guard_cypher, payload)


LEGIT_CYPHER = json.loads(
    (CORPORA.parents[2] / "tests" / "fixtures" / "cypher_legit.json").read_text(encoding="utf-8")
)


@pytest.mark.parametrize("entry", LEGIT_CYPHER, ids=range(len(LEGIT_CYPHER)))
def test_legit_cypher_over_several_schemas_passes(entry: dict[str, object]) -> None:
    params = entry.get("params")
    out = guard_cypher(str(entry["query"]), params=params)  # type: ignore[arg-type]
    assert guard_cypher(out, params=params) == out  # type: ignore[arg-type]


def test_version_prefix_is_split_for_the_stores() -> None:
    from data_access.graph.base import split_version_prefix

    assert split_version_prefix("CYPHER 25 MATCH (n) RETURN n") == (
        "CYPHER 25",
        "MATCH (n) RETURN n",
    )
    assert split_version_prefix("MATCH (n) RETURN n") == ("", "MATCH (n) RETURN n")
    assert split_version_prefix("CYPHER limit=5 MATCH (n)") == ("", "CYPHER limit=5 MATCH (n)")
