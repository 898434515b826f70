"""The market context of a day (seed 003 `context_today`): indices, rates, FX, commodities, BTC.

Index levels (코스피, 코스닥, S&P 500, 나스닥 종합, 다우), VIX, WTI and BTC are the market series
of `data_access.market_series`, read under their usual tickers; gold has no series of its own
and its ETF stands in (the item says so in `proxy_for`). Whatever has no rows on or before the
day (an install without the series, a date before they start) is listed under `missing`
instead of being made up.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, TypedDict

from psycopg_pool import ConnectionPool

from agents.evidence import EvidenceCollector
from agents.opening import market_reads

SPARK_DAYS = 20
LOOKBACK_DAYS = 45  # calendar days read to get SPARK_DAYS observations


@dataclass(frozen=True)
class Spec:
    ticker: str  # what get_ohlcv accepts
    label: str
    group: str  # indices | rates | fx | commodities | crypto | volatility
    proxy_for: str | None = None  # the index or asset an ETF stands in for
    unit: str = ""


SPECS: tuple[Spec, ...] = (
    Spec("^KS11", "코스피", "indices", None, "pt"),
    Spec("^KQ11", "코스닥", "indices", None, "pt"),
    Spec("^GSPC", "S&P 500", "indices", None, "pt"),
    Spec("^IXIC", "나스닥 종합", "indices", None, "pt"),
    Spec("^DJI", "다우", "indices", None, "pt"),
    Spec("DGS10", "미국 10년 국채금리", "rates", None, "%"),
    Spec("DGS2", "미국 2년 국채금리", "rates", None, "%"),
    Spec("KR_USDKRW", "원/달러 환율(종가)", "fx", None, "원"),
    Spec("DEXKOUS", "원/달러 환율(FRED)", "fx", None, "원"),
    Spec("CL=F", "WTI 원유 선물", "commodities", None, "달러"),
    Spec("132030", "KODEX 골드선물(H)", "commodities", "금 선물 가격", "원"),
    Spec("BTC-USD", "비트코인", "crypto", None, "달러"),
    Spec("^VIX", "VIX 변동성 지수", "volatility", None, "pt"),
)
GROUPS = ("indices", "rates", "fx", "commodities", "crypto", "volatility")
NOT_IN_DATA = ("브렌트유: 데이터에 없음(WTI만 있음)",)
NOTES = (
    "지수는 지수 자체의 포인트이고, 금만 국내 상장 ETF 종가로 대신합니다(대용치로 표시). "
    "금리는 %, 변동은 전 관측치 대비입니다. 미국 지수·WTI는 뉴욕, 비트코인은 UTC 날짜 기준의 "
    "마지막 거래일 값입니다."
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
    inst = market_reads.instrument(spec.ticker, pool)
    rows: list[dict[str, Any]] = []
    if inst is not None:
        read = market_reads.price_read(inst, day - timedelta(days=LOOKBACK_DAYS), day, pool)
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
    groups: dict[str, list[ContextItem]] = {g: [] for g in GROUPS}
    for item in items:
        groups[item["group"]].append(item)
    absent = [f"{i['label']}({i['ticker']}): {day.isoformat()} 이전 시세가 데이터에 없음"
              for i in items if i["close"] is None]  # fmt: skip
    return {"date": day.isoformat(), **groups, "missing": [*absent, *NOT_IN_DATA], "notes": NOTES}


def compact(context: dict[str, Any]) -> dict[str, Any]:
    """The context without sparklines (what the prompt carries; the page keeps the full one)."""
    out: dict[str, Any] = {}
    for key, value in context.items():
        if isinstance(value, list) and value and isinstance(value[0], dict) and "spark" in value[0]:
            out[key] = [{k: v for k, v in item.items() if k != "spark"} for item in value]
        else:
            out[key] = value
    return out
