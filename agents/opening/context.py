"""The market context of a day (seed 003 `context_today`): indices, rates, FX, commodities, BTC.

The demo data has no index series, so indices are ETF proxies (KODEX 200 for KOSPI 200, TIGER
미국S&P500 for the S&P 500, …); each item says whether it is a proxy, and what is not in the
data at all (BTC, WTI, index levels) is listed under `missing` instead of being made up.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, TypedDict

from psycopg_pool import ConnectionPool

from agents.evidence import EvidenceCollector
from agents.opening import news_store

SPARK_DAYS = 20
LOOKBACK_DAYS = 45  # calendar days read to get SPARK_DAYS observations


@dataclass(frozen=True)
class Spec:
    ticker: str  # what get_ohlcv accepts
    label: str
    group: str  # indices | rates | fx | commodities | volatility
    proxy_for: str | None = None  # the index or asset the ETF stands in for
    unit: str = ""


SPECS: tuple[Spec, ...] = (
    Spec("069500", "KODEX 200", "indices", "코스피200", "원"),
    Spec("229200", "KODEX 코스닥150", "indices", "코스닥150", "원"),
    Spec("360750", "TIGER 미국S&P500", "indices", "S&P 500", "원"),
    Spec("133690", "TIGER 미국나스닥100", "indices", "나스닥100", "원"),
    Spec("DGS10", "미국 10년 국채금리", "rates", None, "%"),
    Spec("DGS2", "미국 2년 국채금리", "rates", None, "%"),
    Spec("KR_USDKRW", "원/달러 환율(종가)", "fx", None, "원"),
    Spec("DEXKOUS", "원/달러 환율(FRED)", "fx", None, "원"),
    Spec("132030", "KODEX 골드선물(H)", "commodities", "금 선물 가격", "원"),
    Spec("VIXCLS", "VIX 변동성 지수", "volatility", None, "pt"),
)
MISSING = (
    "비트코인(BTC) 시세: 데모 데이터에 없음",
    "WTI·브렌트 유가: 데모 데이터에 없음",
    "코스피·S&P 500·나스닥 지수 자체: 지수 시계열이 없어 국내 상장 ETF 종가로 대신함",
)


class ContextItem(TypedDict):
    ticker: str
    label: str
    group: str
    proxy_for: str | None
    unit: str
    date: str | None  # the last observation on or before the day
    close: float | None
    prev_close: float | None
    change: float | None  # absolute change
    change_pct: float | None
    spark: list[float]  # last SPARK_DAYS closes


def item_for(spec: Spec, day: date, pool: ConnectionPool | None,
             collector: EvidenceCollector | None) -> ContextItem:  # fmt: skip
    inst = news_store.find_instrument(spec.ticker, pool)
    rows: list[dict[str, Any]] = []
    if inst is not None:
        read = news_store.price_rows(inst, day - timedelta(days=LOOKBACK_DAYS), day, pool)
        rows = read.rows
        if collector is not None:
            collector.add_citation(read.citation)
    closes = [float(r["close"]) for r in rows]
    last = closes[-1] if closes else None
    prev = closes[-2] if len(closes) > 1 else None
    change = None if last is None or prev is None else round(last - prev, 4)
    pct = None if change is None or not prev else round(change / prev * 100, 2)
    return ContextItem(
        ticker=spec.ticker, label=spec.label, group=spec.group, proxy_for=spec.proxy_for,
        unit=spec.unit, date=rows[-1]["d"].isoformat() if rows else None, close=last,
        prev_close=prev, change=change, change_pct=pct, spark=closes[-SPARK_DAYS:],
    )  # fmt: skip


def market_context(day: date, pool: ConnectionPool | None,
                   collector: EvidenceCollector | None = None) -> dict[str, Any]:  # fmt: skip
    """The context JSON the prompt carries (title words are added by the load_context node)."""
    items = [item_for(s, day, pool, collector) for s in SPECS]
    groups: dict[str, list[ContextItem]] = {}
    for item in items:
        groups.setdefault(item["group"], []).append(item)
    return {
        "date": day.isoformat(),
        **groups,
        "crypto": [],
        "missing": list(MISSING),
        "notes": (
            "지수는 지수 자체가 아니라 국내 상장 ETF 종가(proxy_for 표시)입니다. 금리는 %, 변동은 "
            "전 관측치 대비입니다. 미국 지수 대용 ETF는 원화 환산 국내 상장 ETF로, 한국 시간에 거래되어 전일 미국장을 반영합니다."
        ),
    }


def compact(context: dict[str, Any]) -> dict[str, Any]:
    """The context without sparklines (what the prompt carries; the page keeps the full one)."""
    out: dict[str, Any] = {}
    for key, value in context.items():
        if isinstance(value, list) and value and isinstance(value[0], dict) and "spark" in value[0]:
            out[key] = [{k: v for k, v in item.items() if k != "spark"} for item in value]
        else:
            out[key] = value
    return out
