"""The ETF tools that combine several lookups: info, comparison, similarity, holdings changes,
and the guarded free Cypher query. Each returns the seed-000 shape as plain Python."""

from __future__ import annotations

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
    check_period,
    number,
    period_cutoff,
)
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
        out.append(
            {
                "code": code,
                "name": basic["name"],
                "expense_ratio": number(basic["expense_ratio"], 4),
                "company": basic["company"],
                "tags": data.tags_of(code),
                "top_holdings": data.top_holdings(code, COMPARE_HOLDINGS),
                "return_1m": returns.get("1m"),
                "latest_net_assets": net_assets,
            }
        )
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
    return sorted(changes, key=_change_sort_key)


def _diff_snapshots(data: EtfData, code: str, latest: str, period: str) -> list[dict[str, Any]]:
    cutoff = period_cutoff(latest, period)
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


def _change_sort_key(change: dict[str, Any]) -> tuple[int, float, str]:
    delta = abs((change["new_weight"] or 0.0) - (change["old_weight"] or 0.0))
    return (CHANGE_ORDER.get(change["change_type"], 9), -delta, change["stock_code"])


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
