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
    assert layout.title.text == "ETF별 비중(%)"  # the title names the bars: no y-axis title
    assert not layout.yaxis.title.text
    assert layout.xaxis.range[1] > 29.47  # the value written after the longest bar fits
    assert list(chart.figure.data[0].y) == ["KODEX 200", "TIGER 200 IT"]  # ascending bars


def test_a_holdings_count_is_named_in_korean() -> None:
    rows = [{"code": "069500", "name": "KODEX 200", "holdings": 136, "date": "2026-11-20"},
            {"code": "102110", "name": "TIGER 200", "holdings": 130, "date": "2026-11-20"}]  # fmt: skip
    table, chart = graph_query_items(rows)
    assert list(table.table.columns) == ["코드", "이름", "보유종목 수", "기준일"]
    assert chart.figure is not None and chart.figure.layout.title.text == "보유종목 수 순위"
    assert not chart.figure.layout.yaxis.title.text  # not '이름': the names are the labels


def test_rows_without_a_name_column_stay_a_table() -> None:
    items = graph_query_items([{"code": "069500", "count": 3}, {"code": "102110", "count": 2}])
    assert [i.figure for i in items] == [None]


def _listed_payload(measure: str, results: list[dict]) -> dict:
    return {"understanding": {"frame": {"measures": [{"name": measure}], "period": {"label": "6m"}}},
            "tool_results": results}  # fmt: skip


def test_a_ranking_is_charted_from_the_answer_rows_not_the_universe() -> None:
    from agents.etf.charts import charts_for

    results = [
        {"tool": "list_tags", "arguments": {}, "result": [{"name": "2차전지", "count": 3}]},
        {"tool": "graph_query", "arguments": {}, "result": [
            {"code": "364980", "name": "TIGER 2차전지TOP10"}, {"code": "305720", "name": "KODEX 2차전지산업"},
            {"code": "305540", "name": "TIGER 2차전지테마"}]},
        {"tool": "get_etf_prices", "arguments": {}, "result": {"summaries": {
            "364980": {"change_rate": 1.5}, "305720": {"change_rate": -1.2}, "305540": {"change_rate": -3.88}}}},
    ]  # fmt: skip
    text = ("'2차전지' 태그 ETF (6개월 수익률 높은 순, 2개):\n1. TIGER 2차전지TOP10 (364980): 6개월 수익률 "
            "+1.50%\n2. KODEX 2차전지산업 (305720): 6개월 수익률 -1.20%")  # fmt: skip
    items = charts_for(_listed_payload("return", results), text)
    assert len(items) == 1  # neither the tag counts nor the graph rows it was read from
    fig = items[0].figure
    assert fig is not None  # the answer's own first line, on two lines (420 px)
    assert fig.layout.title.text == "'2차전지' 태그 ETF (6개월 수익률 높은 순,<br>2개)"
    assert items[0].title == "'2차전지' 태그 ETF (6개월 수익률 높은 순, 2개)"
    bars = fig.data[0]
    assert list(bars.customdata) == ["KODEX 2차전지산업", "TIGER 2차전지TOP10"]  # first on top
    assert list(bars.y) == ["KODEX 2차전지산업", "TIGER 2차전지T…"]  # fits beside bars at 420 px
    assert list(bars.x) == [-1.2, 1.5] and list(bars.text) == ["-1.20%", "+1.50%"]
    assert list(bars.marker.color) == ["#2563eb", "#dc2626"]  # fall blue, rise red
    assert fig.layout.xaxis.title.text == "6개월 수익률 (%)"


def test_top_n_holdings_chart_only_the_n_listed() -> None:
    from agents.etf.charts import charts_for

    rows = [{"code": f"00{i:04d}", "name": f"종목{i}", "weight": 30.0 - i} for i in range(30)]
    text = "KODEX 200 보유종목 30개 중 비중 상위 2개:\n1. 종목0 (000000): 30.00%\n2. 종목1 (000001): 29.00%"
    items = charts_for(
        _listed_payload("holdings", [{"tool": "graph_query", "arguments": {}, "result": rows}]),
        text,
    )
    assert [i.title for i in items] == ["KODEX 200 보유종목 30개 중 비중 상위 2개"]
    assert items[0].figure is not None and list(items[0].figure.data[0].y) == ["종목1", "종목0"]


def test_a_note_before_the_list_does_not_title_its_chart() -> None:
    """Seen in Chromium: 'KODEX 레버리지 보유종목 상위 3개 비중' drew its bars under the answer's
    first line, the unread-word note ('⚠ 질문의 …은 읽지 못해 …')."""
    from agents.etf.charts import charts_for

    rows = [{"code": f"00{i:04d}", "name": f"종목{i}", "weight": 30.0 - i} for i in range(30)]
    text = ("⚠ 질문의 '비중'은 읽지 못해 이 답에 반영하지 않았습니다.\n\n"
            "KODEX 레버리지 보유종목 30개 중 비중 상위 2개:\n1. 종목0 (000000): 30.00%\n"
            "2. 종목1 (000001): 29.00%")  # fmt: skip
    items = charts_for(
        _listed_payload("holdings", [{"tool": "graph_query", "arguments": {}, "result": rows}]),
        text,
    )
    assert [i.title for i in items] == ["KODEX 레버리지 보유종목 30개 중 비중 상위 2개"]


def test_a_composed_answer_charts_the_measure_it_states_over_the_chosen_set() -> None:
    """'거래대금 상위 5개 ETF의 평균 순자산은?': the set is ordered by 거래대금 but the answer is
    순자산 (seen in Chromium: the chart showed 거래대금), with the average marked."""
    from agents.etf.charts import charts_for

    frame = {"measures": [{"name": "trading_value"}, {"name": "net_assets"}],
             "operation": {"kind": "aggregate", "aggregate": "avg", "top_n": 2}}  # fmt: skip
    rows = [{"code": "122630", "name": "KODEX 레버리지", "net_assets": 4.0e12, "trading_value": 9.0e12},
            {"code": "069500", "name": "KODEX 200", "net_assets": 16.0e12, "trading_value": 8.0e12}]  # fmt: skip
    results = [{"tool": "get_etf_prices", "arguments": {
        "rows": "122630,069500", "period": "1m", "order_by": "trading_value", "top": 2,
        "columns": "net_assets=latest_net_assets,trading_value=trading_value"},
        "result": {"rows": rows, "summaries": {r["code"]: {"trading_value": r["trading_value"]}
                                               for r in rows}}}]  # fmt: skip
    text = ("전체 ETF 중 1개월 거래대금 높은 순 상위 2개 ETF의 순자산총액 평균: 10조 원\n"
            "1. KODEX 레버리지 (122630): 1개월 거래대금 9조 원, 순자산총액 4조 원\n"
            "2. KODEX 200 (069500): 1개월 거래대금 8조 원, 순자산총액 16조 원")  # fmt: skip
    (item,) = charts_for({"understanding": {"frame": frame}, "tool_results": results}, text)
    fig = item.figure
    assert fig is not None and list(fig.data[0].x) == [160000.0, 40000.0]  # 억 원, first on top
    assert fig.layout.xaxis.title.text == "순자산 (억 원)"
    assert not fig.layout.yaxis.title.text  # the bars name the ETFs: no rotated axis title
    assert [a.text for a in fig.layout.annotations] == ["평균 10조 원"]
    assert fig.layout.shapes[0].x0 == 100000.0


def test_a_pick_then_its_holdings_charts_the_holdings() -> None:
    """'반도체 ETF 중 순자산이 가장 큰 ETF의 상위 5개 보유종목': the pick is by 순자산, the answer
    lists holdings (foreign tickers) by weight."""
    from agents.etf.charts import charts_for

    frame = {"measures": [{"name": "net_assets"}, {"name": "holdings"}]}
    results = [
        {"tool": "get_etf_prices", "arguments": {"columns": "net_assets=latest_net_assets",
                                                 "order_by": "net_assets", "top": 1},
         "result": {"rows": [{"code": "381180", "name": "TIGER 미국필라델피아반도체나스닥",
                              "net_assets": 6.7e12}], "summaries": {}}},
        {"tool": "graph_query", "arguments": {}, "result": [
            {"code": "AMAT", "name": "Applied Materials", "weight": 13.44},
            {"code": "AMD", "name": "Advanced Micro Devices", "weight": 13.14}]},
    ]  # fmt: skip
    text = ("TIGER 미국필라델피아반도체나스닥 (순자산총액 가장 높은 ETF) 보유종목 8개 중 비중 상위 2개 "
            "(합계 26.58%, 스냅샷 2026-11-20 기준):\n1. Applied Materials (AMAT): 13.44%\n"
            "2. Advanced Micro Devices (AMD): 13.14%")  # fmt: skip
    (item,) = charts_for({"understanding": {"frame": frame}, "tool_results": results}, text)
    assert item.title == ("TIGER 미국필라델피아반도체나스닥 (순자산총액 가장 높은 ETF) 보유종목 8개 중 "
                          "비중 상위 2개")  # fmt: skip
    assert item.figure is not None
    assert list(item.figure.data[0].customdata) == ["Advanced Micro Devices", "Applied Materials"]
    assert item.figure.layout.xaxis.title.text == "비중 (%)"


def test_no_answer_chart_when_a_listed_figure_is_missing() -> None:
    from agents.etf.charts import answer_item

    text = "목록:\n1. A (000001): -\n2. B (000002): -"
    payload = _listed_payload("return", [{"tool": "get_etf_prices", "arguments": {},
                                          "result": {"summaries": {"000001": {"change_rate": 1.0}}}}])  # fmt: skip
    assert answer_item(payload, text) is None  # absent rather than a chart of half the answer


def test_price_chart_is_titled_with_the_name_not_the_code() -> None:
    from agents.etf.charts import charts_for

    daily = [
        {"date": "2026-11-19", "close": 100, "volume": 1},
        {"date": "2026-11-20", "close": 101, "volume": 2},
    ]
    results = [{"tool": "etf_search", "arguments": {}, "result": [{"code": "069500", "name": "KODEX 200"}]},
               {"tool": "get_etf_prices", "arguments": {"etf_code": "069500", "period": "3m"},
                "result": {"daily": daily, "summary": {"period": "3m"}}}]  # fmt: skip
    (item,) = charts_for({"tool_results": results})
    assert (
        item.figure is not None
        and item.figure.layout.title.text == "KODEX 200 가격·거래대금 (3개월)"
    )


def test_many_graph_rows_chart_the_top_ones_titled_in_words() -> None:
    rows = [{"stock_name": f"종목{i}", "weight": float(i)} for i in range(40)]
    _, chart = graph_query_items(rows, frozenset({"weight"}))
    assert chart.figure is not None and len(chart.figure.data[0].y) == 15
    assert chart.figure.layout.title.text == "종목별 비중(%) (상위 15개)"


def test_the_top_of_a_column_nobody_asked_for_is_not_charted() -> None:
    """'삼성자산운용 ETF 몇 개야?' (a count) charted the top 15 of its 40 ETFs by fee."""
    from agents.etf.charts import charts_for

    rows = [
        {"code": f"{i:06d}", "name": f"KODEX {i}", "expense_ratio": 0.01 * i} for i in range(40)
    ]
    payload = {"understanding": {"frame": {"measures": []}},
               "tool_results": [{"tool": "graph_query", "arguments": {}, "result": rows}]}  # fmt: skip
    assert [(i.title, i.figure) for i in charts_for(payload)] == [("조회 결과", None)]
    asked = {"understanding": {"frame": {"measures": [{"name": "expense_ratio"}]}},
             "tool_results": payload["tool_results"]}  # fmt: skip
    assert charts_for(asked)[-1].figure is not None  # the fees asked: their top 15


def test_short_names_stay_apart() -> None:
    from agents.etf.charts import short_names

    shown = short_names(["KODEX 미국나스닥100레버리지", "KODEX 미국나스닥100TR", "TIGER 200"])
    assert shown[2] == "TIGER 200" and all(len(n.rstrip("\u200b")) <= 12 for n in shown)
    assert len(set(shown)) == 3  # alike in their first characters: two bars, not one
