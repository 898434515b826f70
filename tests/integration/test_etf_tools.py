"""The ten ETF tools against the real stores, each checked against independent SQL on the same
data (PostgreSQL is the source the graph is projected from), plus hostile `graph_query` input."""

from __future__ import annotations

import json
import math
import statistics
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from dateutil.relativedelta import relativedelta

from agents.etf.tools import ToolContext, make_tools
from agents.evidence import EvidenceCollector
from data_access.postgres import execute, fetch_all, fetch_one

pytestmark = pytest.mark.usefixtures("demo_data")

HOSTILE = Path(__file__).resolve().parents[2] / "agents" / "eval" / "golden" / "hostile_cypher.json"


@pytest.fixture(scope="module")
def tools(pg_pool: Any, graph_store: Any) -> dict[str, Any]:
    context = ToolContext(store=graph_store, pool=pg_pool, collector=EvidenceCollector())
    return {t.name: t for t in make_tools(context)}


def call(tools: dict[str, Any], name: str, **kwargs: Any) -> Any:
    return json.loads(tools[name](**kwargs))


def sql(query: str, *params: Any, pool: Any = None) -> list[dict[str, Any]]:
    return fetch_all(query, params or None, pool)


def latest_snapshot(pool: Any, code: str) -> date:
    row = fetch_one("SELECT max(as_of_date) AS d FROM etf_holdings WHERE etf_code = %s", (code,),
                    pool)  # fmt: skip
    assert row is not None
    return row["d"]


def weights_on(pool: Any, code: str, day: date) -> dict[str, float]:
    rows = sql("SELECT s.code, h.weight FROM etf_holdings h JOIN stocks s USING (security_id)"
               " WHERE h.etf_code = %s AND h.as_of_date = %s", code, day, pool=pool)  # fmt: skip
    return {r["code"]: float(r["weight"]) for r in rows}


def test_etf_search_matches_sql(tools: dict[str, Any], pg_pool: Any) -> None:
    hits = call(tools, "etf_search", query="KODEX 200")
    expected = {r["code"] for r in sql("SELECT code FROM etfs WHERE lower(name) LIKE %s",
                                       "%kodex 200%", pool=pg_pool)}  # fmt: skip
    assert hits[0] == {"code": "069500", "name": "KODEX 200", "expense_ratio": 0.15}
    assert {h["code"] for h in hits} <= expected and len(hits) == min(10, len(expected))
    assert set(hits[0]) == {"code", "name", "expense_ratio"}
    assert len(call(tools, "etf_search", query="KODEX")) == 10  # the seed's limit


def test_stock_search_and_unknown_names(tools: dict[str, Any]) -> None:
    assert call(tools, "stock_search", query="삼성전자")[0] == {
        "code": "005930",
        "name": "삼성전자",
    }
    assert call(tools, "stock_search", query="005930")[0]["name"] == "삼성전자"
    error = call(tools, "etf_search", query="KODAX 2000")
    assert error["status"] == "error" and error["retry_hint"]
    assert "069500" in [s["code"] for s in error["suggestions"]]


def test_list_tags_counts(tools: dict[str, Any], pg_pool: Any) -> None:
    tags = call(tools, "list_tags")
    expected = {r["tag"]: r["n"] for r in sql(
        "SELECT tag, count(*) AS n FROM etf_tags GROUP BY tag", pool=pg_pool)}  # fmt: skip
    assert {t["name"]: t["count"] for t in tags} == expected
    assert [t["count"] for t in tags] == sorted((t["count"] for t in tags), reverse=True)


def test_get_etf_info(tools: dict[str, Any], pg_pool: Any) -> None:
    info = call(tools, "get_etf_info", etf_code="069500")
    etf = sql("SELECT manager, expense_ratio, benchmark, listed_date::text AS listed_date FROM etfs"
              " WHERE code = '069500'", pool=pg_pool)[0]  # fmt: skip
    tags = [r["tag"] for r in sql("SELECT tag FROM etf_tags WHERE etf_code = '069500' ORDER BY tag",
                                  pool=pg_pool)]  # fmt: skip
    weights = weights_on(pg_pool, "069500", latest_snapshot(pg_pool, "069500"))
    top = sorted(weights.items(), key=lambda kv: -kv[1])[:10]
    assert set(info) == {"code", "name", "expense_ratio", "company", "tags", "top_holdings",
                         "returns", "benchmark", "listed_date"}  # fmt: skip
    assert (info["benchmark"], str(info["listed_date"])) == (etf["benchmark"], etf["listed_date"])
    assert info["company"] == etf["manager"] and info["expense_ratio"] == float(
        etf["expense_ratio"]
    )
    assert info["tags"] == tags
    assert [(h["stock_code"], h["weight"]) for h in info["top_holdings"]] == [
        (c, round(w, 2)) for c, w in top]  # fmt: skip
    prices = call(tools, "get_etf_prices", etf_code="069500", period="1m")
    assert info["returns"]["1m"] == prices["summary"]["change_rate"]
    assert set(info["returns"]) == {"1w", "1m", "3m"}


def test_get_etf_info_unknown_code_suggests(tools: dict[str, Any]) -> None:
    error = call(tools, "get_etf_info", etf_code="069501")
    assert error["status"] == "error" and "069501" in error["error"]
    assert error["suggestions"][0]["code"] == "069500"
    assert call(tools, "get_etf_info", etf_code="KODEX 200")["status"] == "error"


def test_find_similar_etfs_is_weight_overlap(tools: dict[str, Any], pg_pool: Any) -> None:
    similar = call(tools, "find_similar_etfs", etf_code="069500")
    day = latest_snapshot(pg_pool, "069500")
    rows = sql(
        "SELECT b.etf_code, count(*) AS overlap, sum(least(a.weight, b.weight)) AS sim"
        " FROM etf_holdings a JOIN etf_holdings b ON b.security_id = a.security_id"
        "  AND b.as_of_date = a.as_of_date AND b.etf_code <> a.etf_code"
        " WHERE a.etf_code = '069500' AND a.as_of_date = %s"
        " GROUP BY b.etf_code ORDER BY sim DESC, overlap DESC, b.etf_code LIMIT 10", day,
        pool=pg_pool,
    )  # fmt: skip
    assert [(s["etf_code"], s["overlap"]) for s in similar] == [
        (r["etf_code"], r["overlap"]) for r in rows]  # fmt: skip
    for s, r in zip(similar, rows, strict=True):
        assert s["similarity"] == pytest.approx(float(r["sim"]), abs=0.01)
    assert "102110" in [s["etf_code"] for s in similar[:5]]  # TIGER 200 close to KODEX 200


def _sql_changes(pool: Any, code: str, base: date, latest: date) -> dict[str, str]:
    old, new = weights_on(pool, code, base), weights_on(pool, code, latest)
    out = {}
    for stock in set(old) | set(new):
        if stock not in old:
            out[stock] = "added"
        elif stock not in new:
            out[stock] = "removed"
        elif new[stock] != old[stock]:
            out[stock] = "increased" if new[stock] > old[stock] else "decreased"
    return out


@pytest.mark.parametrize("period", ["1d", "1w", "1m", "3m"])
def test_holdings_changes(tools: dict[str, Any], pg_pool: Any, period: str) -> None:
    code = "091160"
    changes = call(tools, "get_holdings_changes", etf_code=code, period=period)
    latest = latest_snapshot(pg_pool, code)
    if period == "1d":
        cutoff = latest - timedelta(days=1)
    elif period == "1w":
        cutoff = latest - timedelta(days=7)
    else:
        cutoff = latest - relativedelta(months={"1m": 1, "3m": 3}[period])
    base = fetch_one(
        "SELECT max(as_of_date) AS d FROM etf_holdings WHERE etf_code = %s AND as_of_date <= %s",
        (code, cutoff),
        pg_pool,
    )["d"]  # type: ignore[index]
    expected = _sql_changes(pg_pool, code, base, latest)
    assert {c["stock_code"]: c["change_type"] for c in changes} == expected
    assert all(c["change_type"] != "unchanged" for c in changes)
    assert all(set(c) == {"stock_code", "stock_name", "change_type", "old_weight", "new_weight"}
               for c in changes)  # fmt: skip


def test_holdings_changes_rejects_bad_period(tools: dict[str, Any]) -> None:
    error = call(tools, "get_holdings_changes", etf_code="069500", period="2y")
    assert error["status"] == "error" and "1d" in error["error"]


def test_get_etf_prices(tools: dict[str, Any], pg_pool: Any) -> None:
    result = call(tools, "get_etf_prices", etf_code="069500", period="3m")
    last = fetch_one(
        "SELECT max(trade_date) AS d FROM etf_prices WHERE etf_code = '069500'", pool=pg_pool
    )["d"]  # type: ignore[index]
    # the window starts at the base bar: the last one on or before (last - 3 months)
    rows = sql("SELECT trade_date, close, volume FROM etf_prices WHERE etf_code = '069500'"
               " AND trade_date >= (SELECT max(trade_date) FROM etf_prices"
               "  WHERE etf_code = '069500' AND trade_date <= %s) ORDER BY trade_date",
               last - relativedelta(months=3), pool=pg_pool)  # fmt: skip
    s = result["summary"]
    assert s["data_count"] == len(rows) == len(result["daily"])
    assert (s["start_date"], s["end_date"]) == (rows[0]["trade_date"].isoformat(), last.isoformat())
    assert (s["start_close"], s["end_close"]) == (float(rows[0]["close"]), float(rows[-1]["close"]))
    assert s["change_rate"] == round(
        (float(rows[-1]["close"]) / float(rows[0]["close"]) - 1) * 100, 2
    )
    assert s["high"] == max(float(r["close"]) for r in rows)
    assert result["daily"][0]["date"] == last.isoformat()  # newest first, as in the seed
    assert s["from_high"] == (s["end_close"] / s["high"] - 1) * 100
    assert s["day_change"] == (s["end_close"] / s["previous_close"] - 1) * 100
    assert call(tools, "get_etf_prices", etf_code="069500", period="2y")["status"] == "error"


def test_a_statistic_of_the_last_sessions_is_computed_by_the_tool(tools: dict[str, Any],
                                                                  pg_pool: Any) -> None:  # fmt: skip
    """statistic/sessions/field: one figure of the last N sessions (data_access.figures'
    window_statistic) beside the window, each against SQL over the same ten bars."""
    last10 = ("(SELECT trade_date, close, volume FROM etf_prices WHERE etf_code = '069500' "
              "ORDER BY trade_date DESC LIMIT 10) t")  # fmt: skip
    truths = {("avg", "close"): f"SELECT avg(close) AS v FROM {last10}",
              ("sum", "volume"): f"SELECT sum(volume) AS v FROM {last10}",
              ("std", "close"): f"SELECT stddev_samp(close) AS v FROM {last10}",
              ("range", "close"): f"SELECT max(close) - min(close) AS v FROM {last10}",
              ("max", "close"): f"SELECT close AS v, trade_date AS at FROM {last10} "
                                "ORDER BY close DESC, trade_date LIMIT 1"}  # fmt: skip
    span = sql(f"SELECT min(trade_date) AS first, max(trade_date) AS last FROM {last10}",
               pool=pg_pool)[0]  # fmt: skip
    for (stat, field), truth in truths.items():
        result = call(tools, "get_etf_prices", etf_code="069500", period="1m", statistic=stat,
                      sessions=10, field=field)  # fmt: skip
        window, want = result["window"], sql(truth, pool=pg_pool)[0]
        assert window["value"] == pytest.approx(float(want["v"]), rel=1e-9), stat
        assert (window["first"], window["last"], window["count"]) == (
            span["first"].isoformat(),
            span["last"].isoformat(),
            10,
        )
        assert window["at"] == (want["at"].isoformat() if "at" in want else None)
    assert "window" not in call(tools, "get_etf_prices", etf_code="069500", period="1m")
    for bad in ({"statistic": "median", "sessions": 10}, {"statistic": "avg", "sessions": 0},
                {"statistic": "avg", "sessions": "ten"},
                {"statistic": "avg", "sessions": 5, "field": "open"}):  # fmt: skip
        error = call(tools, "get_etf_prices", etf_code="069500", period="1m", **bad)
        assert error["status"] == "error", bad


def test_a_drawdown_over_a_span_named_whole(tools: dict[str, Any], pg_pool: Any) -> None:
    """span='2025-01-01~2025-12-31' with statistic='drawdown': the deepest fall from a running
    high of the span's own closes (SQL; the close before it is no peak), and a bad span refused."""
    rows = sql("SELECT trade_date, close FROM etf_prices WHERE etf_code = '069500' ORDER BY "
               "trade_date", pool=pg_pool)  # fmt: skip
    closes = [float(r["close"]) for r in rows
              if date(2025, 1, 1) <= r["trade_date"] <= date(2025, 12, 31)]  # fmt: skip
    worst = min(c / max(closes[: i + 1]) - 1 for i, c in enumerate(closes)) * 100
    result = call(tools, "get_etf_prices", etf_code="069500", statistic="drawdown",
                  span="2025-01-01~2025-12-31")  # fmt: skip
    assert result["window"]["value"] == pytest.approx(worst, rel=1e-9)
    bad = call(tools, "get_etf_prices", etf_code="069500", statistic="drawdown", span="2025")
    assert bad["status"] == "error"


def test_get_stock_prices(tools: dict[str, Any], pg_pool: Any) -> None:
    result = call(tools, "get_stock_prices", stock_code="005930", period="1w")
    last = fetch_one(
        "SELECT max(trade_date) AS d FROM stock_prices WHERE security_id = 'KR:005930'",
        pool=pg_pool,
    )["d"]  # type: ignore[index]
    rows = sql("SELECT high, low, volume FROM stock_prices WHERE security_id = 'KR:005930'"
               " AND trade_date >= (SELECT max(trade_date) FROM stock_prices"
               "  WHERE security_id = 'KR:005930' AND trade_date <= %s)",
               last - timedelta(days=7), pool=pg_pool)  # fmt: skip
    s = result["summary"]
    assert s["stock_code"] == "005930" and s["data_count"] == len(rows)
    assert s["high"] == max(float(r["high"]) for r in rows)
    assert s["avg_volume"] == round(sum(r["volume"] for r in rows) / len(rows))
    assert set(result["daily"][0]) == {"date", "open", "high", "low", "close", "volume",
                                       "change_rate"}  # fmt: skip
    assert call(tools, "get_stock_prices", stock_code="999999")["status"] == "error"


def test_compare_etfs(tools: dict[str, Any]) -> None:
    rows = call(tools, "compare_etfs", etf_codes="069500, 102110")
    assert [r["code"] for r in rows] == ["069500", "102110"]
    info = call(tools, "get_etf_info", etf_code="102110")
    tiger = rows[1]
    assert tiger["top_holdings"] == info["top_holdings"][:5]
    assert tiger["return_1m"] == info["returns"]["1m"] and tiger["tags"] == info["tags"]
    for bad in ("069500", "069500,102110,229200,148020", "069500,069500"):
        assert call(tools, "compare_etfs", etf_codes=bad)["status"] == "error"


def test_graph_query_seed_style_matches_sql(tools: dict[str, Any], pg_pool: Any) -> None:
    rows = call(
        tools,
        "graph_query",
        cypher="""
        MATCH (e:ETF)-[h:HOLDS]->(s:Stock {code: '005930'})
        WITH e, h ORDER BY h.date DESC
        WITH e, head(collect(h)) as latest
        RETURN {etf_code: e.code, etf_name: e.name, weight: latest.weight}
        ORDER BY latest.weight DESC LIMIT 5""",
    )
    expected = sql(
        "SELECT DISTINCT ON (etf_code) etf_code, weight FROM etf_holdings"
        " WHERE security_id = 'KR:005930' ORDER BY etf_code, as_of_date DESC",
        pool=pg_pool,
    )
    top = sorted(expected, key=lambda r: -float(r["weight"]))[:5]
    assert [r["etf_code"] for r in rows] == [r["etf_code"] for r in top]
    assert set(rows[0]) == {"etf_code", "etf_name", "weight"}


def test_graph_query_refuses_hostile_input(tools: dict[str, Any], graph_store: Any) -> None:
    before = graph_store.read("MATCH (n) RETURN count(n) AS n")[0]["n"]
    corpus = [c["query"] for c in json.loads(HOSTILE.read_text(encoding="utf-8"))]
    for query in corpus:
        result = call(tools, "graph_query", cypher=query)
        assert isinstance(result, dict) and result["status"] == "error", query
        assert result["retry_hint"]
    assert graph_store.read("MATCH (n) RETURN count(n) AS n")[0]["n"] == before
    empty = call(tools, "graph_query", cypher="")
    assert empty["status"] == "error"


def test_every_call_is_cited(pg_pool: Any, graph_store: Any) -> None:
    collector = EvidenceCollector()
    tools = {t.name: t for t in make_tools(ToolContext(graph_store, pg_pool, collector))}
    json.loads(tools["get_etf_prices"](etf_code="069500", period="1w"))
    json.loads(tools["get_etf_info"](etf_code="069500"))
    assert [c.tool for c in collector.calls] == ["get_etf_prices", "get_etf_info"]
    prices = next(c for c in collector.citations if c.table == "etf_prices")
    assert prices.dataset_code == "KR_ETF_DAILY_PRICE" and prices.row_count > 0
    assert prices.date_range.end and prices.date_range.start
    assert {c.dataset_code for c in collector.citations} >= {"KR_ETF_MASTER", "KR_ETF_HOLDINGS"}
    assert all(len(c.query_fingerprint) == 16 for c in collector.citations)


def test_price_summary_volatility_matches_sql(tools: dict[str, Any], pg_pool: Any) -> None:
    """The window's annualized volatility: sample stdev of daily close-to-close returns × √252,
    recomputed here from the closes SQL returns for the same dates."""
    summary = call(tools, "get_etf_prices", etf_code="069500", period="6m")["summary"]
    rows = fetch_all(
        "SELECT close FROM etf_prices WHERE etf_code = '069500' AND trade_date BETWEEN %s AND %s "
        "ORDER BY trade_date", (summary["start_date"], summary["end_date"]), pool=pg_pool)  # fmt: skip
    closes = [float(r["close"]) for r in rows]
    returns = [b / a - 1 for a, b in zip(closes, closes[1:], strict=False)]
    expected = statistics.stdev(returns) * math.sqrt(252) * 100
    assert summary["volatility"] == round(expected, 2)


@pytest.mark.parametrize("period", ["1w", "1m", "1y", "ytd", "mtd"])
def test_many_etfs_price_summaries_are_each_etfs_own(tools: dict[str, Any], pg_pool: Any,
                                                     period: str) -> None:  # fmt: skip
    """`get_etf_prices` over a comma-separated list answers from one aggregating query; every
    ETF's summary is the one its own call gives (figures within rounding of the volatility),
    and an ETF without prices gets a bare summary instead of failing the set."""
    codes = [r["code"] for r in sql("SELECT code FROM etfs ORDER BY code", pool=pg_pool)]
    many = call(tools, "get_etf_prices", etf_code=",".join(codes + ["999999"]), period=period)
    summaries = many["summaries"]
    assert set(summaries) == set(codes) | {"999999"} and summaries["999999"]["data_count"] == 0
    for code in codes:
        own = call(tools, "get_etf_prices", etf_code=code, period=period)["summary"]
        got = summaries[code]
        for key, value in own.items():
            if key == "volatility" and value is not None:
                assert got[key] == pytest.approx(value, abs=0.011), (code, key)
            elif key == "trading_value" and value is not None:  # a float sum against numeric
                assert got[key] == pytest.approx(value, rel=1e-12), (code, key)
            else:
                assert got[key] == value, (code, key, value, got[key])


@pytest.mark.parametrize("period", ["1w", "1y", "ytd"])
def test_the_ends_of_many_windows_are_the_full_summaries_ends(tools: dict[str, Any],
                                                              pg_pool: Any, period: str) -> None:  # fmt: skip
    """summary='ends' reads the window's ends by index look-ups: the same base close, last and
    previous close, change rate and latest size as the full summary; the rest is null."""
    codes = ",".join(r["code"] for r in sql("SELECT code FROM etfs ORDER BY code", pool=pg_pool))
    full = call(tools, "get_etf_prices", etf_code=codes, period=period)["summaries"]
    ends = call(tools, "get_etf_prices", etf_code=codes, period=period, summary="ends")["summaries"]
    ranges = call(tools, "get_etf_prices", etf_code=codes, period=period, summary="range")
    keys = ("start_date", "start_close", "end_date", "end_close", "previous_close", "change_rate",
            "latest_net_assets", "latest_market_cap", "latest_nav", "latest_premium",
            "day_change")  # fmt: skip
    ranged = (*keys, "high", "low", "avg_volume", "data_count", "from_high", "from_low")
    assert set(ends) == set(full) == set(ranges["summaries"])
    for code in full:
        assert {k: ends[code][k] for k in keys} == {k: full[code][k] for k in keys}, code
        assert ends[code]["volatility"] is None and ends[code]["avg_volume"] is None
        got = ranges["summaries"][code]
        assert {k: got[k] for k in ranged} == {k: full[code][k] for k in ranged}, code
    bad = call(tools, "get_etf_prices", etf_code=codes, period=period, summary="everything")
    assert bad["status"] == "error" and "summary" in bad["error"]
    # against a longer window: its average volume beside, and the ratio ('거래량 급증')
    longer = call(tools, "get_etf_prices", etf_code=codes, period="3m", summary="range")
    surged = call(tools, "get_etf_prices", etf_code=codes, period=period, summary="range",
                  against="3m")["summaries"]  # fmt: skip
    for code, got in surged.items():
        a, b = ranges["summaries"][code]["avg_volume"], longer["summaries"][code]["avg_volume"]
        assert got["against_avg_volume"] == b
        assert got["volume_surge"] == (a / b if a is not None and b else None), code


def test_a_set_table_is_joined_filtered_ordered_and_cut_by_the_tool(tools: dict[str, Any],
                                                                   pg_pool: Any) -> None:  # fmt: skip
    """get_etf_prices(rows=…) joins the set's rows (as graph_query gives them) to their
    summaries, keeps the rows meeting `where` (a number, or a reference ETF's own value),
    orders, cuts at `top` with the ties apart, and aggregates: the same rows, in the same
    order, as the summaries of the code list filtered and sorted here (a stable sort)."""
    rows = call(tools, "graph_query", cypher="MATCH (e:ETF) RETURN e.code AS code, e.name AS "
                                             "name, e.expense_ratio AS expense_ratio")  # fmt: skip
    assert len(rows) == sql("SELECT count(*) AS n FROM etfs", pool=pg_pool)[0]["n"]
    codes = ",".join(r["code"] for r in rows)
    summaries = call(tools, "get_etf_prices", etf_code=codes, period="1y", summary="range")
    joined = [r | {"return": summaries["summaries"][r["code"]]["change_rate"],
                   "from_high": summaries["summaries"][r["code"]]["from_high"]} for r in rows]  # fmt: skip

    def table(**ask: Any) -> Any:
        return call(tools, "get_etf_prices", rows=rows, period="1y", summary="range",
                    columns="return=change_rate,from_high", **ask)  # fmt: skip

    ordered = sorted([r for r in joined if r["return"] is not None and r["expense_ratio"] < 0.3],
                     key=lambda r: r["return"], reverse=True)  # fmt: skip
    got = table(where=[["expense_ratio", "<", 0.3]], order_by="return", top=3)
    assert got["rows"] == ordered[:3] and got["count"] == len(ordered)
    assert got["tied"] == [r for r in ordered[3:4] if r["return"] == ordered[2]["return"]]
    assert set(got["summaries"]) == {r["code"] for r in got["rows"] + got["tied"]}
    # ties at the cut come back apart: every ETF as near its 1-year high as the nearest one
    best = max(r["from_high"] for r in joined if r["from_high"] is not None)
    at_best = [r for r in joined if r["from_high"] == best]
    cut = table(order_by="from_high", top=1)
    assert cut["rows"] == at_best[:1] and cut["tied"] == at_best[1:]
    # the bar is another ETF's own value; that ETF itself is left out
    ref = next(r for r in joined if r["code"] == "069500")
    cheaper = table(where=[["expense_ratio", "<", "069500"]], order_by="expense_ratio",
                    descending=False)  # fmt: skip
    assert cheaper["bars"] == {"expense_ratio": ref["expense_ratio"]}
    assert cheaper["rows"] == sorted([r for r in joined if r["expense_ratio"] < ref["expense_ratio"]],
                                     key=lambda r: r["expense_ratio"])  # fmt: skip
    counted = table(where=[["return", ">=", 10.0]], aggregate="avg:return")
    values = [r["return"] for r in joined if r["return"] is not None and r["return"] >= 10.0]
    assert counted["rows"] == [r for r in joined if r["return"] is not None and r["return"] >= 10]
    assert counted["value"] == sum(values) / len(values)
    for bad in (
        {"columns": "return=nope"},
        {"where": [["return", "~", 1]]},
        {"order_by": None, "top": 3},
        {"aggregate": "median:return"},
    ):
        error = call(tools, "get_etf_prices", rows=rows, period="1y", **bad)
        assert error["status"] == "error", bad
    assert call(tools, "get_etf_prices", rows=[{"name": "x"}], period="1y")["status"] == "error"
    assert call(tools, "get_etf_prices", period="1y")["status"] == "error"


def test_the_start_up_warm_up_reads_every_etf_over_the_common_windows(
    tools: dict[str, Any], pg_pool: Any, graph_store: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """warm_set_summaries (agents.warmup, at start-up) leaves every ETF's summaries over the
    common windows in the process's cache: a whole-set ask over them, its rows in any order,
    reads no price rows from PostgreSQL afterwards, and gets what a fresh read gives."""
    from agents.etf import data as etf_data

    rows = call(tools, "graph_query", cypher="MATCH (e:ETF) RETURN e.code AS code, e.name AS name")
    fresh = {
        window: call(tools, "get_etf_prices", etf_code=",".join(r["code"] for r in rows),
                     period=window[0], summary=window[1])["summaries"]
        for window in etf_data.WARM_SET_WINDOWS
    }  # fmt: skip
    monkeypatch.setattr(etf_data, "_SUMMARIES", etf_data._SummaryCache(10))  # an empty cache
    etf_data.warm_set_summaries(pg_pool, graph_store)

    def no_read(*_: Any) -> Any:
        raise AssertionError("the summaries were read again")

    monkeypatch.setattr(etf_data.EtfData, "_read_summaries", no_read)
    for (period, part), summaries in fresh.items():
        got = call(tools, "get_etf_prices", rows=rows[::-1], period=period, summary=part,
                   columns="end_close", order_by="end_close", top=3)  # fmt: skip
        assert "error" not in got, (period, part, got)
        assert got["summaries"] == {c: summaries[c] for c in got["summaries"]}


def test_many_etfs_price_summaries_refuse_bad_lists(tools: dict[str, Any]) -> None:
    for codes in (",", "069500,DROP TABLE", ",".join(["069500"] * 2 + ["1" * 7])):
        result = call(tools, "get_etf_prices", etf_code=codes, period="1m")
        assert result["status"] == "error" and "ETF" in result["error"], codes
    too_many = ",".join(f"{n:06d}" for n in range(5001))
    assert call(tools, "get_etf_prices", etf_code=too_many, period="1m")["status"] == "error"


def test_graph_query_returns_more_than_a_screenful(tools: dict[str, Any], pg_pool: Any) -> None:
    """A set read from the graph is not cut at 200 rows: every holding edge comes back."""
    rows = call(tools, "graph_query", cypher="MATCH (e:ETF)-[h:HOLDS]->(s:Stock) "
                                             "RETURN {etf: e.code, stock: s.code, d: h.date}")  # fmt: skip
    edges = sql("SELECT count(*) AS n FROM etf_holdings", pool=pg_pool)[0]["n"]
    assert len(rows) == min(edges, 2000) and len(rows) > 200


def test_similar_by_returns_is_the_correlation_of_daily_returns(tools: dict[str, Any],
                                                                pg_pool: Any) -> None:  # fmt: skip
    """basis='returns': Pearson correlation of close-to-close returns on the days both ETFs
    traded over the window (from the base bar), recomputed here from SQL closes."""
    found = call(tools, "find_similar_etfs", etf_code="069500", basis="returns", period="3m")
    last = sql("SELECT max(trade_date) AS d FROM etf_prices WHERE etf_code = '069500'",
               pool=pg_pool)[0]["d"]  # fmt: skip
    base = last - relativedelta(months=3)
    rows = sql("SELECT etf_code, trade_date, close FROM etf_prices WHERE trade_date >= "
               "(SELECT max(trade_date) FROM etf_prices WHERE etf_code = '069500' AND "
               "trade_date <= %s) AND trade_date <= %s ORDER BY etf_code, trade_date",
               base, last, pool=pg_pool)  # fmt: skip
    moves: dict[str, dict[date, float]] = {}
    previous: dict[str, float] = {}
    for r in rows:
        code, close = r["etf_code"], float(r["close"])
        if code in previous and previous[code]:
            moves.setdefault(code, {})[r["trade_date"]] = close / previous[code] - 1
        previous[code] = close
    own = moves["069500"]
    expected = []
    for code, series in moves.items():
        days = sorted(set(series) & set(own))
        if code != "069500" and len(days) >= 20:
            corr = statistics.correlation([series[d] for d in days], [own[d] for d in days])
            expected.append((round(corr, 3), code))
    expected.sort(key=lambda t: (-t[0], t[1]))
    assert [r["correlation"] for r in found[:5]] == [c for c, _ in expected[:5]]
    assert {r["etf_code"] for r in found[:5]} <= {
        code for c, code in expected if c >= expected[4][0]
    }
    assert found[0]["days"] >= 20 and found[0]["end_date"] == last.isoformat()
    bad = call(tools, "find_similar_etfs", etf_code="069500", basis="returns", period="10y")
    assert bad["status"] == "error"


def test_set_summaries_are_read_once_per_price_version(pg_pool: Any, graph_store: Any) -> None:
    """A set's summaries are kept per process for one price data version: asked again, the same
    summaries and the same citation (rows, dates, query); a new last bar for one ETF moves the
    version, so the next call reads it, and its removal is read as well."""
    collector = EvidenceCollector()
    tools = {t.name: t for t in make_tools(ToolContext(graph_store, pg_pool, collector))}
    codes = [r["code"] for r in sql("SELECT code FROM etfs ORDER BY code", pool=pg_pool)]
    ask = {"etf_code": ",".join(codes), "period": "1w", "summary": "ends"}
    first, again = call(tools, "get_etf_prices", **ask), call(tools, "get_etf_prices", **ask)
    assert again == first
    a, b = collector.citations[-2:]
    assert (a.row_count, a.date_range, a.query_fingerprint, a.as_of_date) == (
        b.row_count, b.date_range, b.query_fingerprint, b.as_of_date)  # fmt: skip
    code, last = codes[0], first["summaries"][codes[0]]
    execute(
        "INSERT INTO etf_prices SELECT (jsonb_populate_record(NULL::etf_prices, to_jsonb(p) || "
        "jsonb_build_object('trade_date', p.trade_date + 1, 'close', p.close * 2))).* "
        "FROM etf_prices p WHERE p.etf_code = %s AND p.trade_date = %s",
        (code, last["end_date"]), pg_pool,
    )  # fmt: skip
    try:
        moved = call(tools, "get_etf_prices", **ask)["summaries"][code]
        day = (date.fromisoformat(last["end_date"]) + timedelta(days=1)).isoformat()
        assert moved["end_date"] == day and moved["end_close"] == last["end_close"] * 2
        assert moved["previous_close"] == last["end_close"]
    finally:
        execute("DELETE FROM etf_prices WHERE etf_code = %s AND trade_date > %s",
                (code, last["end_date"]), pg_pool)  # fmt: skip
    assert call(tools, "get_etf_prices", **ask) == first
