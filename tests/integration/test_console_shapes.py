"""Console result recognition on what the real stores return (a scratch graph, plain SQL)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from psycopg_pool import ConnectionPool

from data_access.postgres import run_read_only
from pages._result_shapes import detect_time_series, extract_graph

SCRATCH_GRAPH = "shell_console_probe"  # not the app's graph: created and deleted here


@pytest.fixture
def scratch_graph(services, settings) -> Iterator[object]:  # type: ignore[no-untyped-def]
    from data_access.graph import get_graph_store

    store = get_graph_store(settings, name=SCRATCH_GRAPH)
    store.clear()
    store.write(
        "CREATE (e:ETF {code: '069500', name: 'KODEX 200'}),"
        " (s:Stock {code: '005930', name: '삼성전자'}), (t:Tag {name: '시장대표'}),"
        " (e)-[:HOLDS {date: '2026-11-20', weight: 30.5}]->(s), (e)-[:TAGGED]->(t)"
    )
    yield store
    store.clear()


def test_nodes_relationships_and_paths_from_the_graph_become_a_picture(scratch_graph) -> None:  # type: ignore[no-untyped-def]
    rows = scratch_graph.run_guarded("MATCH (e:ETF)-[h:HOLDS]->(s:Stock) RETURN e, h, s")
    picture = extract_graph(rows)
    assert picture is not None
    assert sorted(n.caption for n in picture.nodes) == ["KODEX 200", "삼성전자"]
    assert [e.rel_type for e in picture.edges] == ["HOLDS"]
    ids = {n.node_id for n in picture.nodes}
    assert {picture.edges[0].source, picture.edges[0].target} == ids

    paths = scratch_graph.run_guarded("MATCH p = (:ETF)-[]->() RETURN p")
    picture = extract_graph(paths)
    assert picture is not None
    assert {n.label for n in picture.nodes} == {"ETF", "Stock", "Tag"}
    assert sorted(e.rel_type for e in picture.edges) == ["HOLDS", "TAGGED"]


def test_graph_dates_and_numbers_are_a_time_series(scratch_graph) -> None:  # type: ignore[no-untyped-def]
    rows = scratch_graph.run_guarded(
        "UNWIND ['2026-11-18', '2026-11-19', '2026-11-20'] AS d RETURN d AS date, 1.5 AS close"
    )
    shape = detect_time_series(rows)
    assert shape is not None and (shape.x, shape.y_columns) == ("date", ["close"])


def test_sql_rows_with_dates_and_decimals_are_a_time_series(pg_pool: ConnectionPool) -> None:
    rows = run_read_only(
        "SELECT d::date AS trade_date, (extract(day FROM d) / 3)::numeric(8,2) AS close"
        " FROM generate_series('2026-11-01'::date, '2026-11-05', '1 day') AS d",
        pool=pg_pool,
    )
    shape = detect_time_series(rows)
    assert shape is not None and shape.y_columns == ["close"]
    assert extract_graph(rows) is None
