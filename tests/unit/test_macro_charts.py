"""Macro answer charts in an analyst's words and within a narrow screen (issue 33)."""

from __future__ import annotations

from agents.macro.charts import (
    LABEL_WIDTH,
    comparison_figure,
    path_figure,
    series_figures,
    wrap_label,
)


def test_a_path_label_without_spaces_is_broken_into_lines_that_fit() -> None:
    label = wrap_label("삼성전자 연결재무제표기준영업(잠정)실적(공정공시)")
    lines = label.split("<br>")
    assert all(len(line) <= LABEL_WIDTH for line in lines), lines
    assert "".join(lines) == "삼성전자연결재무제표기준영업(잠정)실적(공정공시)"
    assert wrap_label("삼성전자 분기보고서 (2026.09)").split("<br>") == [
        "삼성전자 분기보고서",
        "(2026.09)",
    ]


def test_path_nodes_carry_wrapped_names() -> None:
    payload = {"agent_responses": {"equity": {"paths": [
        {"event": "삼성전자 장래사업·경영계획(공정공시)", "target": "KR:005930"}],
        "series": [{"key": "KR:005930", "title": "삼성전자 (KR:005930) 종가"}]}}}  # fmt: skip
    fig = path_figure(payload)
    assert fig is not None
    events, targets = fig.data[1], fig.data[2]
    assert all(len(line) <= LABEL_WIDTH for t in events.text for line in t.split("<br>"))
    assert list(targets.text) == ["삼성전자"]  # the name, not the code


def test_a_price_series_axis_says_won_not_krw() -> None:
    payload = {"agent_responses": {"equity": {"series": [{
        "key": "KR:005930", "title": "삼성전자 (KR:005930) 종가", "unit": "KRW",
        "points": [["2026-11-19", 95000.0], ["2026-11-20", 94000.0]]}]}}}  # fmt: skip
    (fig,) = series_figures(payload, "2026-11-20")
    assert fig.layout.yaxis.title.text == "원"
    assert fig.layout.title.text == "삼성전자 종가"
    (mark,) = fig.layout.annotations  # the as-of date above the plot, not over the last points
    assert mark.text == "기준일 2026-11-20" and (mark.yref, mark.y, mark.yanchor) == (
        "paper",
        1,
        "bottom",
    )


def test_a_long_series_is_a_line_a_short_one_keeps_its_points() -> None:
    """250 daily markers cost the browser 0.1-0.2 s per chart (the event-path answer's USD/KRW
    line was its slowest part); a policy rate's few decisions keep a marker each."""
    days = [f"2026-{m:02d}-{d:02d}" for m in range(1, 13) for d in range(1, 22)]
    payload = {"agent_responses": {"macro": {"series": [
        {"key": "KR_USDKRW", "title": "원/달러 환율(종가)", "unit": "KRW",
         "points": [[day, 1400.0 + i] for i, day in enumerate(days)]},
        {"key": "KR_BASE_RATE", "title": "한국 기준금리", "unit": "%",
         "points": [["2026-01-15", 2.75], ["2026-04-17", 2.5], ["2026-10-22", 2.25]]}]}}}  # fmt: skip
    long, short = series_figures(payload, None)
    assert long.data[0].mode == "lines" and short.data[0].mode == "lines+markers"
    assert long.layout.yaxis.tickformat == ","  # 1,400, not plotly's 1.4k


def test_a_policy_rate_is_drawn_as_steps() -> None:
    """Seen in Chromium at 1440 px: the base rate's cut from 2.50% to 2.25% was drawn as a slope
    over the month before it; a rate holds until the next decision."""
    payload = {"agent_responses": {"macro": {"series": [
        {"key": "KR_BASE_RATE", "title": "한국은행 기준금리", "unit": "percent",
         "points": [["2026-01-01", 2.5], ["2026-02-01", 2.25], ["2026-03-01", 2.25]]},
        {"key": "DGS10", "title": "미국 10년 국채 금리", "unit": "percent",
         "points": [["2026-01-01", 4.1], ["2026-02-01", 4.0]]}]}}}  # fmt: skip
    policy, market = series_figures(payload, None)
    assert policy.data[0].line.shape == "hv" and market.data[0].line.shape is None


def test_a_named_span_is_the_window_drawn() -> None:
    """'코스피 지난달 수익률' drew the whole year under an October return (seen in Chromium)."""
    days = [f"2026-{m:02d}-15" for m in range(1, 12)] + ["2026-09-30", "2026-10-01", "2026-10-30"]
    points = sorted([day, 4000.0 + i] for i, day in enumerate(days))
    span = {"first": "2026-10-01", "last": "2026-10-31", "label_ko": "2026-10", "used": True}
    payload = {"understanding": {"frame": {"span": span}},
               "agent_responses": {"equity": {"series": [
                   {"key": "^KS11", "title": "코스피 (^KS11)", "unit": "pt", "points": points}]}}}  # fmt: skip
    (fig,) = series_figures(payload, "2026-10-31")
    assert list(fig.data[0].x) == ["2026-09-30", "2026-10-01", "2026-10-15", "2026-10-30"]
    assert fig.layout.title.text == "코스피 (2026-10)"  # the base day before, then October
    unused = {**payload, "understanding": {"frame": {"span": {**span, "used": False}}}}
    assert len(series_figures(unused, None)[0].data[0].x) == len(points)


def _compared(statistic: str | None, *series: dict[str, object]) -> dict[str, object]:
    frame = {"operation": {"kind": "compare"}, "statistic": statistic,
             "period": {"surface": "3개월"}}  # fmt: skip
    return {"understanding": {"frame": frame}, "agent_responses": {"equity": {"series": series}}}


def test_compared_returns_are_one_chart_from_the_first_day() -> None:
    kospi = {"key": "^KS11", "title": "코스피 (^KS11)", "unit": "pt",
             "points": [["2026-08-20", 4000.0], ["2026-11-20", 3740.0]]}  # fmt: skip
    nasdaq = {"key": "^IXIC", "title": "나스닥 종합 (^IXIC)", "unit": "pt",
              "points": [["2026-08-20", 22000.0], ["2026-11-20", 22286.0]]}  # fmt: skip
    fig = comparison_figure(_compared("return", kospi, nasdaq))
    assert fig is not None
    assert fig.layout.title.text == "코스피·나스닥 종합 수익률 (3개월)"
    assert [(t.name, list(t.y)) for t in fig.data] == [
        ("코스피", [0.0, -6.5]), ("나스닥 종합", [0.0, 1.3])]  # fmt: skip


def test_levels_are_compared_only_in_one_unit() -> None:
    rate = {"key": "DGS10", "title": "미국 10년 국채 금리 (DGS10)", "unit": "percent",
            "points": [["2026-11-19", 4.06]]}  # fmt: skip
    fx = {"key": "KR_USDKRW", "title": "원/달러 환율(종가) (KR_USDKRW)", "unit": "KRW per USD",
          "points": [["2026-11-19", 1445.0]]}  # fmt: skip
    two_rates = comparison_figure(_compared(None, rate, {**rate, "key": "DGS2"}))
    assert two_rates is not None and [t.y[0] for t in two_rates.data] == [4.06, 4.06]
    assert comparison_figure(_compared(None, rate, fx)) is None  # each keeps its own chart
    trend = _compared("return", rate, rate)
    trend["understanding"]["frame"]["operation"] = {"kind": "trend"}  # type: ignore[index]
    assert comparison_figure(trend) is None


def test_the_extreme_asked_is_marked_inside_the_window_drawn() -> None:
    # a lower close before the year asked: neither drawn as the answer nor marked
    points = [["2025-10-01", 900.0], ["2025-11-19", 1000.0], ["2026-03-18", 950.0],
              ["2026-11-20", 1100.0]]  # fmt: skip
    frame = {"statistic": "min", "window": {"n": 1, "unit": "year", "surface": "1년"}}
    payload = {"understanding": {"frame": frame}, "agent_responses": {"equity": {"series": [
        {"key": "^KS11", "title": "코스피 (^KS11)", "unit": "pt", "points": points}]}}}  # fmt: skip
    (fig,) = series_figures(payload, "2026-11-20")
    assert fig.layout.title.text == "코스피 (1년)"
    assert list(fig.data[0].x) == ["2025-11-19", "2026-03-18", "2026-11-20"]  # with its base
    assert [a.text for a in fig.layout.annotations][-1] == "최저 950.00 (03-18)"
    assert (fig.data[1].x[0], fig.data[1].y[0]) == ("2026-03-18", 950.0)
    frame["statistic"] = "trend"
    assert len(series_figures(payload, "2026-11-20")[0].data) == 1  # nothing asked: no mark
