"""The graph's monthly real-estate summary cross-checked against SQL (issue 35, seed 004 §12.2-4):
a housing answer read from SQL is compared with `RealEstateMonthlySummary` for the same region
and months. Agreeing, both are cited; a deliberately altered graph value is shown as a conflict,
both sides named, and the turn is partial (real PostgreSQL and FalkorDB, offline service).
"""

from __future__ import annotations

from typing import Any

import pytest

from agents.macro.service import answer_question, make_context
from data_access.contracts import AgentAnswer
from data_access.graph.base import GraphStore
from data_access.postgres import fetch_all
from tests.fixtures.macro_conflict import SUMMARY, altered_summary

pytestmark = pytest.mark.usefixtures("demo_data")

# question, SQL table and column, summary property, region
CASES = [
    ("서울 주택가격지수 최근 6개월 추이", "re_house_price_index", "index_value",
     "house_price_index", "서울"),
    ("부산 전세가율 최근 1년", "re_jeonse_ratio", "ratio", "jeonse_ratio", "부산"),
]  # fmt: skip
IDS = ["price_index", "jeonse_ratio"]


def _sql_months(pool: Any, table: str, column: str, region: str) -> dict[str, float]:
    rows = fetch_all(
        f"SELECT to_char(month, 'YYYY-MM') AS m, {column} AS v FROM {table}"
        " WHERE region = %s ORDER BY month",
        (region,),
        pool=pool,
    )
    return {r["m"]: float(r["v"]) for r in rows}


def _check(answer: AgentAnswer) -> Any:
    return next(t for t in answer.trace if t.kind == "guard" and t.name == "conflict_check")


@pytest.mark.parametrize(("question", "table", "column", "prop", "region"), CASES, ids=IDS)
def test_agreeing_figures_cite_sql_and_the_graph_summary(
    settings: Any, pg_pool: Any, graph_store: GraphStore,
    question: str, table: str, column: str, prop: str, region: str,
) -> None:  # fmt: skip
    sql = _sql_months(pg_pool, table, column, region)
    graph = {r["m"]: float(r["v"]) for r in graph_store.read(
        f"MATCH (r:{SUMMARY} {{region: $region}}) RETURN r.month AS m, r.{prop} AS v",
        {"region": region})}  # fmt: skip
    assert sql and all(graph[m] == v for m, v in sql.items())  # the truth: the stores agree
    answer = answer_question(question, settings=settings, pool=pg_pool, store=graph_store)
    assert answer.status == "ok" and "충돌" not in answer.answer
    cited = {c.table: c for c in answer.structured_citations}
    assert {table, SUMMARY} <= set(cited)  # both sources cited
    assert cited[SUMMARY].date_range.start == cited[table].date_range.start
    step = _check(answer)
    assert step.status == "ok" and "SQL↔그래프 월간 요약 일치" in (step.observation or "")
    [agreed] = step.arguments["summary_agreed"]
    assert agreed.startswith(region) and agreed.endswith(f"{cited[table].row_count}개월")
    # no graph: SQL alone answers, nothing is claimed about the summary
    down = answer_question(question, settings=settings, pool=pg_pool,
                           context=make_context(settings, pg_pool, None))  # fmt: skip
    assert down.status == "ok" and SUMMARY not in {c.table for c in down.structured_citations}
    assert "summary_agreed" not in _check(down).arguments


@pytest.mark.parametrize(("question", "table", "column", "prop", "region"), CASES, ids=IDS)
def test_an_altered_graph_value_is_shown_as_a_conflict(
    settings: Any, pg_pool: Any, graph_store: GraphStore,
    question: str, table: str, column: str, prop: str, region: str,
) -> None:  # fmt: skip
    sql = _sql_months(pg_pool, table, column, region)
    month = sorted(sql)[-3]  # inside either window
    wrong = round(sql[month] + 4.0, 2)
    with altered_summary(graph_store, f"{region}|{month}", prop, wrong) as original:
        assert original == sql[month]
        answer = answer_question(question, settings=settings, pool=pg_pool, store=graph_store)
    assert answer.status == "partial" and "근거 간 수치 충돌" in (answer.error or "")
    head = answer.answer.split("\n\n")[0]
    assert head.startswith("> ⚠️ 근거 간 수치 충돌 1건: 어느 한쪽을 고르지 않고")
    assert (
        f"{month}: SQL({table}) {sql[month]:,.6g} ↔ 그래프 월간 요약({SUMMARY}) {wrong:,.6g}"
        in head
    )
    step = _check(answer)
    [conflict] = step.arguments["conflicts"]
    assert step.status == "error" and conflict["kind"] == "value"
    assert conflict["date"] == f"{month}-01" and conflict["series"].endswith(f":{region}")
    assert {table, SUMMARY} <= {c.table for c in answer.structured_citations}
    # put back: the next answer agrees again
    again = answer_question(question, settings=settings, pool=pg_pool, store=graph_store)
    assert again.status == "ok" and _check(again).status == "ok"


@pytest.mark.parametrize(
    ("question", "first", "second"),
    [
        ("서울 아파트 매매가격지수와 미분양 추이", "re_house_price_index", "re_unsold_housing"),
        ("서울 미분양과 집값", "re_unsold_housing", "re_house_price_index"),
    ],
    ids=["index_then_unsold", "unsold_then_prices"],
)
def test_two_housing_series_asked_together_are_both_answered(
    settings: Any, pg_pool: Any, graph_store: GraphStore, question: str, first: str, second: str
) -> None:
    """'매매가격지수' names the index (its '매매가' is not a deal) and '미분양' the unsold homes:
    both series are read from SQL in the question's order, both checked against the summary."""
    columns = {"re_house_price_index": "index_value", "re_unsold_housing": "units"}
    answer = answer_question(question, settings=settings, pool=pg_pool, store=graph_store)
    assert answer.status == "ok", answer.error
    lines = [line for line in answer.answer.splitlines() if line.startswith("- 서울 ")]
    labels = {"re_house_price_index": "- 서울 주택가격지수 ", "re_unsold_housing": "- 서울 미분양 "}
    assert [line.split(" 20")[0] + " " for line in lines] == [labels[first], labels[second]]
    for table, line in zip((first, second), lines, strict=True):
        latest = _sql_months(pg_pool, table, columns[table], "서울")
        value = latest[max(m for m in latest if m <= (answer.as_of_date or "")[:7])]
        assert f"{value:,.2f}" in line or f"{value:,.0f}호" in line  # the SQL value, as shown
    assert {first, second, SUMMARY} <= {c.table for c in answer.structured_citations}
    agreed = _check(answer).arguments["summary_agreed"]
    assert len(agreed) == 2 and all(a.startswith("서울") for a in agreed)


DEALS_Q = "서울 강남구 아파트 실거래가 최근 1년"  # one region, no sub-region: counts and medians
MONTHLY_DEALS = (
    "SELECT to_char(month, 'YYYY-MM') AS m, count(*) AS n, percentile_cont(0.5) WITHIN GROUP"
    " (ORDER BY price_krw)::bigint AS median FROM (SELECT date_trunc('month', deal_date) AS month,"
    " price_krw FROM re_transactions WHERE region = %s OR region LIKE %s || ' %%') d"
    " GROUP BY 1 ORDER BY 1"
)


def _deal_months(pool: Any, region: str) -> dict[str, tuple[int, int]]:
    rows = fetch_all(MONTHLY_DEALS, (region, region), pool=pool)
    return {r["m"]: (int(r["n"]), int(r["median"])) for r in rows}


def test_deal_counts_and_medians_are_cross_checked(
    settings: Any, pg_pool: Any, graph_store: GraphStore
) -> None:
    """A one-region deal answer: its monthly counts and medians agree with the summary's
    `transactions` and `median_price_krw`; an altered count, then an altered median, is shown
    as a conflict naming both sides."""
    answer = answer_question(DEALS_Q, settings=settings, pool=pg_pool, store=graph_store)
    assert answer.status == "ok" and "충돌" not in answer.answer
    agreed = _check(answer).arguments["summary_agreed"]
    assert [a.rsplit(" ", 1)[0] for a in agreed] == [
        "서울 강남구 실거래 건수", "서울 강남구 실거래 중위가격"]  # fmt: skip
    assert {"re_transactions", SUMMARY} <= {c.table for c in answer.structured_citations}
    sql = _deal_months(pg_pool, "서울 강남구")
    month = sorted(m for m in sql if m < (answer.as_of_date or "")[:7])[-3]  # a whole month
    count, median = sql[month]
    for prop, wrong, said in (
        ("transactions", count + 3, f"서울 강남구 실거래 건수 {month}: SQL(re_transactions) "
         f"{count:,} ↔ 그래프 월간 요약({SUMMARY}) {count + 3:,}"),
        ("median_price_krw", median + 10_000_000, f"서울 강남구 실거래 중위가격 {month}: "
         f"SQL(re_transactions) {median:,.6g} ↔ 그래프 월간 요약({SUMMARY}) "
         f"{median + 10_000_000:,.6g}"),
    ):  # fmt: skip
        with altered_summary(graph_store, f"서울 강남구|{month}", prop, wrong) as original:
            assert original == (count if prop == "transactions" else median)
            shown = answer_question(DEALS_Q, settings=settings, pool=pg_pool, store=graph_store)
        assert shown.status == "partial" and said in shown.answer.split("\n\n")[0], prop
        [conflict] = _check(shown).arguments["conflicts"]
        assert conflict["series"] == "re_transactions_monthly:서울 강남구"


@pytest.mark.parametrize(
    ("question", "agreed", "note"),
    [
        # '서울' is its districts' deals: the counts are the summary's sum over them, the
        # median of all of them is not a median the summary holds
        ("서울 아파트 실거래가 최근 1년", ["서울 실거래 건수"],
         "서울 실거래 중위가격: 그래프 월간 요약(RealEstateMonthlySummary)에는 지역별 중위가격만"
         " 있어 6개 지역(서울 강남구, 서울 노원구, 서울 마포구 외 3)을 합친 중위가격은 그래프와"
         " 대조하지 않았습니다 (월별 거래 건수는 대조)."),
        # a price band the summary does not have
        ("강남구 10억 이상 거래", [],
         "서울 강남구 10억 원 이상 실거래 중위가격: 그래프 월간 요약(RealEstateMonthlySummary)에는"
         " 가격대·면적·층 구분이 없어 그래프와 대조하지 않았습니다 (SQL 값만)."),
    ],
    ids=["parent_region", "price_band"],
)  # fmt: skip
def test_what_the_summary_cannot_check_is_said(
    settings: Any, pg_pool: Any, graph_store: GraphStore,
    question: str, agreed: list[str], note: str,
) -> None:  # fmt: skip
    answer = answer_question(question, settings=settings, pool=pg_pool, store=graph_store)
    assert answer.status == "ok" and f"- _{note}_" in answer.answer
    checked = _check(answer).arguments.get("summary_agreed", [])
    assert [a.rsplit(" ", 1)[0] for a in checked] == agreed
    if agreed:  # the sum over the districts is what SQL counted, month by month
        months = int(checked[0].rsplit(" ", 1)[1].removesuffix("개월"))
        assert months >= 12
