"""The stock screen given an index, VIX, BTC or WTI (issue 25): its level, not a stock report.

    answer = index_answer("코스피", row, data, started)   # row from StockData.market_series

A market series has no issuer, financials, peers or earnings, so the research → recommendation
workflow does not run; the answer gives the last close with its change, the 52-week range and
the 1-month / 3-month / 1-year returns (data_access.figures' definitions, as the stock reports
use), cited, with the window as a chart series.
"""

from __future__ import annotations

import time
from typing import Any

from agents.stock.data import StockData
from data_access import figures as fig
from data_access.contracts import AgentAnswer, TraceStep
from data_access.market_series import UNIT_KO
from data_access.publishers import with_sources

SESSIONS = 400  # bars read: a year back and its base bar, also for BTC (which trades every day)
RETURN_PERIODS = ("1m", "3m", "1y")
KIND_KO = {"index": "지수", "volatility": "변동성 지수", "crypto": "가상자산",
           "commodity": "원자재 선물"}  # fmt: skip


def index_answer(symbol: str, series: dict[str, Any], data: StockData,
                 started: float) -> AgentAnswer:  # fmt: skip
    code, name, unit = series["series_code"], series["name"], series["unit"]
    rows = data.series_history(code, SESSIONS)
    lines = [f"**{name}({code})는 종목이 아니라 {KIND_KO.get(series['kind'], '시장 지표')}입니다.** 재무·동종업계·"
             "실적을 다루는 종목 리포트 대신 시세를 보여 드립니다."]  # fmt: skip
    quote: dict[str, Any] = {"series_code": code, "name": name, "unit": unit}
    if len(rows) >= 2:
        last, prev = rows[-1], rows[-2]
        close, before = float(last["close"]), float(prev["close"])
        year = [r for r in rows if r["trade_date"] > last["trade_date"].replace(
            year=last["trade_date"].year - 1)]  # fmt: skip
        high = max(float(r["high"] if r["high"] is not None else r["close"]) for r in year)
        low = min(float(r["low"] if r["low"] is not None else r["close"]) for r in year)
        returns = fig.period_returns(fig.bars_of(rows), RETURN_PERIODS)
        u = UNIT_KO.get(unit, unit)
        lines += [
            "",
            f"- 종가 {close:,.2f}{u} ({last['trade_date']}), 전일 대비 {close - before:+,.2f} "
            f"({(close / before - 1) * 100:+.2f}%)",
            f"- 52주 고가 {high:,.2f}, 저가 {low:,.2f}",
            "- 수익률: " + ", ".join(
                f"{fig.PERIODS[k].ko} {r.pct:+.2f}%" if r else f"{fig.PERIODS[k].ko} -"
                for k, r in returns.items()),
        ]  # fmt: skip
        quote.update({"close": close, "prev_close": before, "trade_date": str(last["trade_date"]),
                      "high_52w": high, "low_52w": low,
                      "returns": {k: r.as_dict() if r else None for k, r in returns.items()}})  # fmt: skip
    else:
        lines += ["", f"{data.as_of} 이전 시세가 데이터에 없습니다."]
    return AgentAnswer(
        answer="\n".join(lines), mode="offline", status="ok" if len(rows) >= 2 else "partial",
        as_of_date=data.as_of.isoformat(),
        structured_citations=with_sources(data.collector.unique_citations(), pool=data.pool)[0],
        trace=[TraceStep(step=1, kind="tool", name="market_series_history",
                         arguments={"symbol": symbol, "series_code": code, "sessions": SESSIONS},
                         observation=f"{len(rows)}개 일봉")],
        payload={"symbol": symbol, "index_quote": quote, "series": [
            {"key": code, "title": f"{name} ({code})", "unit": unit,
             "points": [(str(r["trade_date"]), float(r["close"])) for r in rows]}]},
        duration_ms=round((time.perf_counter() - started) * 1000),
    )  # fmt: skip
