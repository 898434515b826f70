"""The ETF tools that combine several lookups: info, comparison, similarity, holdings changes,
and the guarded free Cypher query. Each returns the seed-000 shape as plain Python."""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any

from agents.etf import queries as q
from agents.etf.data import (
    CHANGE_PERIODS,
    COMPARE_HOLDINGS,
    GRAPH_HOLDS,
    INFO_RETURN_PERIODS,
    PRICE_PERIODS,
    SIMILAR_LIMIT,
    TOP_HOLDINGS,
    EtfData,
    SummaryPart,
    check_etf_codes,
    check_period,
    number,
)
from data_access import figures as fig
from data_access.errors import ToolInputError

# every ETF listed in Korea (about 1,000) fits: a set read from the graph is never cut short
GRAPH_QUERY_MAX_ROWS = 2000
CHANGE_ORDER = {"added": 0, "removed": 1, "increased": 2, "decreased": 3}


def etf_info(data: EtfData, etf_code: str) -> dict[str, Any]:
    """Basic info + manager, tags, top 10 holdings (latest snapshot), 1w/1m/3m returns."""
    basic = data.require_etf(etf_code)
    code = basic["code"]
    returns, _ = data.returns(code, INFO_RETURN_PERIODS)
    return {
        "code": code,
        "name": basic["name"],
        "expense_ratio": number(basic["expense_ratio"], 4),
        "company": basic["company"],
        "benchmark": basic.get("benchmark"),
        "listed_date": basic.get("listed_date"),
        "tags": data.tags_of(code),
        "top_holdings": data.top_holdings(code, TOP_HOLDINGS),
        "returns": returns,
    }


def compare_etfs(data: EtfData, etf_codes: str) -> list[dict[str, Any]]:
    """2–3 ETFs side by side: expense ratio, manager, tags, top 5 holdings, 1m return, net assets."""
    codes = [c.strip() for c in (etf_codes or "").split(",") if c.strip()]
    if len(codes) < 2 or len(codes) > 3:
        raise ToolInputError(
            f"compare_etfs는 쉼표로 구분한 ETF 코드 2~3개가 필요합니다. 받은 값: {etf_codes!r}"
        )
    if len(set(codes)) != len(codes):
        raise ToolInputError(f"같은 코드가 두 번 들어 있습니다: {etf_codes!r}")
    out = []
    for raw in codes:
        basic = data.require_etf(raw)
        code = basic["code"]
        returns, net_assets = data.returns(code, ("1m",))
        out.append({"code": code, "name": basic["name"],
                    "expense_ratio": number(basic["expense_ratio"], 4), "company": basic["company"],
                    "tags": data.tags_of(code), "top_holdings": data.top_holdings(code, COMPARE_HOLDINGS),
                    "return_1m": returns.get("1m"), "latest_net_assets": net_assets})  # fmt: skip
    return out


def find_similar_etfs(data: EtfData, etf_code: str) -> list[dict[str, Any]]:
    """ETFs ranked by portfolio overlap with `etf_code` on its latest holdings snapshot.

    similarity = Σ over shared stocks of min(weight in A, weight in B), in % of the portfolio
    (100 = identical weights); overlap = number of shared stocks. See queries.SIMILAR_ETFS.
    """
    code = data.require_etf(etf_code)["code"]
    day = data.latest_holdings_date(code)
    if day is None:
        raise ToolInputError(f"{code}의 보유종목 데이터가 없어 유사도를 계산할 수 없습니다.")
    params = {"code": code, "date": day, "limit": SIMILAR_LIMIT}
    rows = data.run_graph(
        q.SIMILAR_ETFS, params, "KR_ETF_HOLDINGS", GRAPH_HOLDS, start=day, end=day
    )
    return [
        {"etf_code": r["etf_code"], "name": r["name"], "overlap": int(r["overlap"]),
         "similarity": number(r["similarity"], 2)}
        for r in rows
    ]  # fmt: skip


def find_similar_by_returns(data: EtfData, etf_code: str, period: str) -> list[dict[str, Any]]:
    """ETFs ranked by the correlation of their daily returns with `etf_code`'s over `period`
    (queries.SIMILAR_RETURNS): how alike they moved, not what they hold."""
    code = data.require_etf(etf_code)["code"]
    period = check_period(period, PRICE_PERIODS)
    rows = data.run_sql(q.price_window(q.SIMILAR_RETURNS, period),
                        {"code": code, "limit": SIMILAR_LIMIT}, "KR_ETF_DAILY_PRICE",
                        "etf_prices", filters={"etf_code": code, "period": period})  # fmt: skip
    return [
        {"etf_code": r["etf_code"], "name": r["name"], "correlation": number(r["correlation"], 3),
         "days": int(r["days"]), "start_date": str(r["start_date"]), "end_date": str(r["end_date"])}
        for r in rows
    ]  # fmt: skip


def holdings_changes(data: EtfData, etf_code: str, period: str = "1d") -> list[dict[str, Any]]:
    """Added / removed / increased / decreased holdings over the period (unchanged left out).

    '1d' reads the projected HAS_CHANGE edges of the latest snapshot (vs the previous one);
    '1w' and '1m' compare the latest HOLDS snapshot with the last one on or before the cutoff.
    """
    period = check_period(period or "1d", CHANGE_PERIODS)
    code = data.require_etf(etf_code)["code"]
    latest = data.latest_holdings_date(code)
    if latest is None:
        return []
    if period == "1d":
        params = {"code": code, "date": latest}
        rows = data.run_graph(q.ETF_CHANGES_ON_DATE, params, "KR_ETF_HOLDINGS",
                           "graph:(ETF)-[:HAS_CHANGE]->(Stock)", end=latest)  # fmt: skip
        if rows and data.collector and data.collector.citations:
            data.collector.citations[-1].date_range.start = rows[0]["prev_date"]
        changes = [{k: r[k] for k in ("stock_code", "stock_name", "change_type",
                                      "old_weight", "new_weight")} for r in rows]  # fmt: skip
    else:
        changes = _diff_snapshots(data, code, latest, period)
    for c in changes:
        c["old_weight"], c["new_weight"] = number(c["old_weight"], 2), number(c["new_weight"], 2)
    return sorted(changes, key=lambda c: (CHANGE_ORDER.get(c["change_type"], 9), -abs(
        (c["new_weight"] or 0.0) - (c["old_weight"] or 0.0)), c["stock_code"]))  # fmt: skip


def _diff_snapshots(data: EtfData, code: str, latest: str, period: str) -> list[dict[str, Any]]:
    cutoff = fig.base_date(date.fromisoformat(latest), period).isoformat()
    rows = data.run_graph(q.ETF_HOLDINGS_DATE_ON_OR_BEFORE, {"code": code, "cutoff": cutoff},
                       "KR_ETF_HOLDINGS", GRAPH_HOLDS)  # fmt: skip
    base = rows[0]["date"] if rows else None
    if base is None:
        raise ToolInputError(
            f"{code}의 {period} 전({cutoff} 이전) 보유종목 스냅샷이 없습니다. 더 짧은 기간(1d)을 쓰세요."
        )
    holdings = data.run_graph(q.ETF_HOLDINGS_ON_DATES, {"code": code, "dates": [base, latest]},
                           "KR_ETF_HOLDINGS", GRAPH_HOLDS, start=base, end=latest)  # fmt: skip
    old = {h["stock_code"]: h for h in holdings if h["date"] == base}
    new = {h["stock_code"]: h for h in holdings if h["date"] == latest}
    out = []
    for stock in sorted(set(old) | set(new)):
        before, after = old.get(stock), new.get(stock)
        w_old = float(before["weight"]) if before else None
        w_new = float(after["weight"]) if after else None
        if w_old is None:
            kind = "added"
        elif w_new is None:
            kind = "removed"
        elif w_new > w_old:
            kind = "increased"
        elif w_new < w_old:
            kind = "decreased"
        else:
            continue  # unchanged: filtered out as in the seed
        name = (after or before or {}).get("stock_name")
        out.append({"stock_code": stock, "stock_name": name, "change_type": kind,
                    "old_weight": w_old, "new_weight": w_new})  # fmt: skip
    return out


def graph_query(data: EtfData, cypher: str) -> list[Any]:
    """Agent Cypher: guard (read-only, LIMIT) then the store's read-only execution with timeout.

    A single-map `RETURN {…}` row comes back as that map (the seed's style); other rows as
    {column: value} dicts.
    """
    from data_access.guards import guard_cypher

    text = (cypher or "").strip()
    if not text:
        raise ToolInputError("cypher가 비어 있습니다.")
    guarded = guard_cypher(text, max_rows=GRAPH_QUERY_MAX_ROWS)
    rows = data.store.read(guarded, {})
    data.cite("ETF_GRAPH", "graph:cypher", guarded, {}, len(rows), filters={"cypher": guarded})
    return [_unwrap(r) for r in rows]


def _unwrap(row: dict[str, Any]) -> Any:
    if len(row) == 1:
        (value,) = row.values()
        if isinstance(value, dict):
            return value
    return row


# ---------------------------------------------------------------- a set's price table

# What a set's rows can be given from their price summaries (get_etf_prices' `columns`)
SUMMARY_FIELDS = (
    "data_count", "start_date", "end_date", "start_close", "end_close", "previous_close", "high",
    "low", "change_rate", "day_change", "from_high", "from_low", "avg_volume", "volatility",
    "latest_market_cap", "latest_net_assets", "latest_nav", "latest_premium", "trading_value",
    "trading_sessions", "trading_from", "against_avg_volume", "volume_surge",
)  # fmt: skip
_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    ">": operator.gt, ">=": operator.ge, "<": operator.lt, "<=": operator.le, "=": operator.eq,
    "==": operator.eq,
}  # fmt: skip
AGGREGATES = ("count", "sum", "avg", "max", "min")


@dataclass(frozen=True)
class SetAsk:
    """What to do with a set's rows once their figures are in: add `columns` (row key →
    summary field), keep the rows meeting every `where` (column, comparator, a number or the
    code of a row whose own value is the bar), order by `order_by`, cut at `top` (the rows
    tied with the last one kept come back apart), and aggregate one column ('avg:return')."""

    columns: dict[str, str]
    where: list[tuple[str, str, Any]]
    order_by: str | None = None
    descending: bool = True
    top: int | None = None
    aggregate: tuple[str, str] | None = None


def set_ask(columns: str | None, where: Any, order_by: str | None, descending: bool | None,
            top: Any, aggregate: str | None) -> SetAsk:  # fmt: skip
    """The tool's set arguments, checked (a ToolInputError names what is wrong)."""
    pairs = [c.strip() for c in (columns or "").split(",") if c.strip()]
    named = {p.split("=", 1)[0].strip(): p.split("=", 1)[-1].strip() for p in pairs}
    unknown = sorted(f for f in named.values() if f not in SUMMARY_FIELDS)
    if unknown:
        raise ToolInputError(f"columns의 요약 값은 {', '.join(SUMMARY_FIELDS)} 중에서 고르세요: "
                             f"{', '.join(unknown)}")  # fmt: skip
    conditions = []
    for c in where or []:
        if not isinstance(c, list | tuple) or len(c) != 3 or c[1] not in _COMPARE or not (
                isinstance(c[2], int | float | str) and isinstance(c[0], str)):  # fmt: skip
            raise ToolInputError("where는 [열, 비교('>','>=','<','<=','='), 숫자 또는 ETF 코드]의 "
                                 f"리스트입니다: {str(c)[:80]}")  # fmt: skip
        conditions.append((c[0], c[1], c[2]))
    n = None
    if top is not None:
        if not isinstance(top, int) or isinstance(top, bool) or top < 1 or not order_by:
            raise ToolInputError("top은 1 이상의 정수이고 order_by와 함께 줍니다.")
        n = top
    agg = None
    if aggregate:
        fn, _, column = aggregate.partition(":")
        if fn not in AGGREGATES or (fn != "count" and not column):
            raise ToolInputError(f"aggregate는 '함수:열' ({', '.join(AGGREGATES)}; 예: "
                                 f"'avg:return')입니다: {aggregate[:40]!r}")  # fmt: skip
        agg = (fn, column)
    return SetAsk(named, conditions, order_by or None, descending is not False, n, agg)


def set_rows(rows: Any) -> list[dict[str, Any]]:
    if not isinstance(rows, list) or not rows or not all(
            isinstance(r, dict) and isinstance(r.get("code"), str) for r in rows):  # fmt: skip
        raise ToolInputError(
            "rows는 graph_query가 돌려준 ETF 행의 리스트([{code, name, …}])입니다."
        )
    return rows


def set_table(data: EtfData, rows: list[dict[str, Any]], period: str, part: SummaryPart,
              against: str | None, ask: SetAsk) -> dict[str, Any]:  # fmt: skip
    """A set's rows joined with their price summaries over one window (one query), filtered,
    ordered and cut here, once, rather than row by row in the sandbox: {rows, tied, count,
    bars (a reference row's value by column), value (the aggregate), summaries (of the rows
    returned)}."""
    codes = check_etf_codes(",".join(r["code"] for r in rows))
    summaries = data.etf_price_summaries(codes, period, part, against)
    table = [r | {key: (summaries.get(r["code"]) or {}).get(f) for key, f in ask.columns.items()}
             for r in rows]  # fmt: skip
    bars = {column: next((r.get(column) for r in table if r["code"] == value), None)
            for column, _, value in ask.where if isinstance(value, str)}  # fmt: skip
    for column, comparator, value in ask.where:
        compare = _COMPARE[comparator]
        if isinstance(value, str):  # the bar is that row's own value; the row itself is left out
            bar = bars[column]
            table = [r for r in table if r["code"] != value and bar is not None
                     and r.get(column) is not None and compare(r[column], bar)]  # fmt: skip
        else:
            table = [r for r in table if r.get(column) is not None and compare(r[column], value)]
    tied: list[dict[str, Any]] = []
    if ask.order_by:
        key = ask.order_by
        table = sorted((r for r in table if r.get(key) is not None), key=lambda r: r[key],
                       reverse=ask.descending)  # fmt: skip
    count = len(table)
    if ask.top is not None and ask.order_by:
        n, key = ask.top, ask.order_by
        for r in table[n:]:  # sorted: the ties follow the cut
            if r[key] != table[n - 1][key]:
                break
            tied.append(r)
        table = table[:n]
    out: dict[str, Any] = {"rows": table, "tied": tied, "count": count, "bars": bars}
    if ask.aggregate:
        out["value"] = _aggregate(table, *ask.aggregate)
    out["summaries"] = {r["code"]: summaries[r["code"]] for r in table + tied
                        if r["code"] in summaries}  # fmt: skip
    return out


def _aggregate(rows: list[dict[str, Any]], fn: str, column: str) -> Any:
    if fn == "count":
        return len(rows)
    values = [r[column] for r in rows if r.get(column) is not None]
    if not values:
        return None
    if fn == "sum":
        return sum(values)
    if fn == "avg":
        return sum(values) / len(values)
    return max(values) if fn == "max" else min(values)
