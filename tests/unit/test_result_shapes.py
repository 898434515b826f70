"""Console result recognition: time series, graph values, the network layout."""

from __future__ import annotations

from datetime import date

from pages._result_shapes import (
    GraphEdge,
    detect_time_series,
    extract_graph,
    spring_layout,
    table_frame,
    time_series_frame,
)


def test_sql_dates_with_a_value_column_and_a_series_column_are_a_grouped_series() -> None:
    rows = [
        {"series_code": code, "obs_date": date(2026, m, 1), "value": v}
        for code in ("FEDFUNDS", "KR_BASE_RATE")
        for m, v in ((1, 4.0), (2, 3.75))
    ]
    shape = detect_time_series(rows)
    assert shape is not None
    assert (shape.x, shape.y_columns, shape.group) == ("obs_date", ["value"], "series_code")
    frame = time_series_frame(rows, shape)
    assert str(frame["obs_date"].dtype).startswith("datetime64")


def test_iso_date_strings_from_the_graph_count_as_dates() -> None:
    rows = [
        {"date": "2026-11-19", "close": 100.5, "volume": 10},
        {"date": "2026-11-20", "close": 101, "volume": 12},
    ]
    shape = detect_time_series(rows)
    assert shape is not None and shape.y_columns == ["close", "volume"] and shape.group is None


def test_rows_without_dates_or_numbers_are_not_a_series() -> None:
    assert detect_time_series([{"code": "069500", "name": "KODEX 200"}] * 3) is None
    assert (
        detect_time_series([{"d": "2026-11-20", "name": "x"}, {"d": "2026-11-21", "name": "y"}])
        is None
    )
    assert detect_time_series([{"d": "2026-11-20", "v": 1}]) is None  # one point is not a line
    assert (
        detect_time_series([{"d": "2026-11-20", "flag": True}, {"d": "2026-11-21", "flag": False}])
        is None
    )


def _node(node_id: int, label: str, name: str) -> dict[str, object]:
    return {"_id": node_id, "_labels": [label], "name": name}


def test_nodes_and_relationships_in_columns_become_a_picture() -> None:
    etf, stock = _node(1, "ETF", "KODEX 200"), _node(2, "Stock", "삼성전자")
    holds = {"_id": 7, "_type": "HOLDS", "_start": 1, "_end": 2, "weight": 30.5}
    picture = extract_graph(
        [{"e": etf, "h": holds, "s": stock}, {"e": etf, "h": holds, "s": stock}]
    )
    assert picture is not None
    assert sorted(n.caption for n in picture.nodes) == ["KODEX 200", "삼성전자"]
    assert picture.edges == [GraphEdge("1", "2", "HOLDS")]  # duplicates collapsed


def test_paths_are_opened_into_nodes_and_relationships() -> None:
    path = {
        "nodes": [_node(1, "ETF", "TIGER 반도체"), _node(3, "Tag", "반도체")],
        "relationships": [{"_id": 9, "_type": "TAGGED", "_start": 1, "_end": 3}],
    }
    picture = extract_graph([{"p": path}])
    assert picture is not None
    assert {n.label for n in picture.nodes} == {"ETF", "Tag"}
    assert [e.rel_type for e in picture.edges] == ["TAGGED"]


def test_relationships_alone_get_anonymous_endpoints() -> None:
    picture = extract_graph([{"r": {"_id": 1, "_type": "AFFECTS", "_start": "a", "_end": "b"}}])
    assert picture is not None and {n.node_id for n in picture.nodes} == {"a", "b"}


def test_plain_rows_are_not_a_graph() -> None:
    assert extract_graph([{"code": "069500", "tags": ["반도체"], "meta": {"a": 1}}]) is None


def test_layout_is_deterministic_and_fits_the_unit_box() -> None:
    ids = [str(i) for i in range(12)]
    edges = [GraphEdge("0", str(i), "R") for i in range(1, 12)]
    first, second = spring_layout(ids, edges), spring_layout(ids, edges)
    assert first == second
    assert all(-1.0 <= x <= 1.0 and -1.0 <= y <= 1.0 for x, y in first.values())
    # The hub of a star ends up nearer the centre than any leaf.
    radius = {k: (x * x + y * y) ** 0.5 for k, (x, y) in first.items()}
    assert radius["0"] < min(radius[k] for k in ids[1:])


def test_table_frame_flattens_nested_values_to_json_text() -> None:
    frame = table_frame([{"n": {"_id": 1, "name": "삼성전자"}, "tags": ["a", "b"], "x": 1}])
    assert frame.loc[0, "n"] == '{"_id": 1, "name": "삼성전자"}'
    assert frame.loc[0, "tags"] == '["a", "b"]'


def test_a_snapshot_or_repeated_dates_are_not_a_series() -> None:
    """Issue 20: such results drew an empty '쿼리 결과 시계열' chart above their table."""
    one_day = [{"security_id": f"KR:{i:06d}", "trade_date": "2026-11-20", "close": 100.0 + i}
               for i in range(20)]  # fmt: skip
    assert detect_time_series(one_day) is None
    many_each_day = [{"trade_date": f"2026-11-{d}", "close": float(i)} for d in (19, 20)
                     for i in range(12)]  # fmt: skip
    assert detect_time_series(many_each_day) is None  # no column splits them into lines
    both_days = [{"series_code": c, "obs_date": f"2026-11-{d}", "value": 1.0} for c in ("A", "B")
                 for d in (19, 20)]  # fmt: skip
    assert detect_time_series(both_days) is not None  # split by series_code: two real lines
