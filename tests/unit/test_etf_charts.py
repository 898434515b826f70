"""Charts under ETF answers: every figure titled and labelled; graph results get a bar chart."""

from __future__ import annotations

from agents.etf.charts import graph_query_items


def test_named_numbers_get_a_labelled_bar_chart() -> None:
    rows = [
        {"etf_code": "139260", "etf_name": "TIGER 200 IT", "weight": 29.46541},
        {"etf_code": "069500", "etf_name": "KODEX 200", "weight": 23.1},
    ]
    table, chart = graph_query_items(rows)
    assert table.table is not None and table.table["비중(%)"].tolist() == [29.47, 23.1]
    assert chart.figure is not None
    layout = chart.figure.layout
    assert layout.title.text and layout.xaxis.title.text == "비중(%)"  # analyst's words
    assert layout.yaxis.title.text == "ETF 이름"
    assert list(chart.figure.data[0].y) == ["KODEX 200", "TIGER 200 IT"]  # ascending bars


def test_rows_without_a_name_column_stay_a_table() -> None:
    items = graph_query_items([{"code": "069500", "count": 3}, {"code": "102110", "count": 2}])
    assert [i.figure for i in items] == [None]
