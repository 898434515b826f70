"""Cost of the figure definitions (issue 19): period returns on each screen, and the opening
validator's source check.

    python bench/figures.py [--n 10] [--days 20] [--home PATH]

Runs against WORKBENCH_HOME (default: the environment's). Prints p50/p95 in ms of one period
return asked of each screen (stock report figures, a stock question, the ETF price tools, a Macro
question) over ten securities / five ETFs, then, over the last `--days` opening scripts, p50/p95 of
the source check alone (`check_sources`, timed inside the validator) and the number of citations
it replaced or dropped. Nothing is saved to the run store.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.etf_tools import percentiles, timed  # noqa: E402  (after sys.path has the root)

SECURITIES = {"KR:005930": "삼성전자", "KR:000660": "SK하이닉스", "KR:373220": "LG에너지솔루션",
              "KR:035420": "NAVER", "KR:105560": "KB금융", "KR:012330": "현대모비스",
              "US:NVDA": "NVIDIA", "US:AAPL": "Apple", "US:MSFT": "Microsoft", "US:TSLA": "Tesla"}  # fmt: skip
ETFS = ("069500", "069660", "091160", "091170", "091230")


def _ms(samples: list[float]) -> str:
    p50, p95 = percentiles(samples)
    return f"p50 {p50:7.1f} ms  p95 {p95:7.1f} ms  (n={len(samples)})"


def screens(pool: Any, store: Any, n: int) -> None:
    from agents.etf.tools import ToolContext, make_tools
    from agents.evidence import EvidenceCollector
    from agents.macro.service import answer_question
    from agents.stock.analysis import compute_figures
    from agents.stock.data import StockData
    from agents.stock.question import answer_stock_question
    from agents.stock.quotes import database_quote
    from data_access.catalog import current_as_of_date

    as_of = current_as_of_date(pool)
    tools = {t.name: t for t in make_tools(ToolContext(store=store, pool=pool,
                                                       collector=EvidenceCollector()))}  # fmt: skip

    def report(sid: str) -> None:
        data = StockData(pool, EvidenceCollector(), as_of)
        compute_figures(data, database_quote(data, sid))

    rows: dict[str, list[float]] = {"stock report figures": [], "stock question": [],
                                    "ETF get_stock_prices": [], "Macro question": [],
                                    "ETF get_etf_prices": [], "ETF get_etf_info": []}  # fmt: skip
    for sid, name in SECURITIES.items():
        code = sid.split(":", 1)[1]
        rows["stock report figures"] += timed(lambda sid=sid: report(sid), n)  # type: ignore[misc]
        rows["stock question"] += timed(
            lambda name=name: answer_stock_question(f"{name} 1년 수익률", pool=pool), n
        )  # type: ignore[misc]
        rows["ETF get_stock_prices"] += timed(
            lambda code=code: json.loads(tools["get_stock_prices"](stock_code=code, period="1y")), n
        )  # type: ignore[misc]
        rows["Macro question"] += timed(
            lambda name=name: answer_question(f"{name} 1년 수익률", pool=pool, store=store), n
        )  # type: ignore[misc]
    for code in ETFS:
        rows["ETF get_etf_prices"] += timed(
            lambda code=code: tools["get_etf_prices"](etf_code=code, period="ytd"), n
        )  # type: ignore[misc]
        rows["ETF get_etf_info"] += timed(lambda code=code: tools["get_etf_info"](etf_code=code), n)  # type: ignore[misc]
    for label, samples in rows.items():
        print(f"{label:24s} {_ms(samples)}")


def sources(pool: Any, days: int) -> None:
    from agents.opening import validate
    from agents.opening.service import news_days, run_opening

    spent: list[float] = []
    original = validate.check_sources

    def timed(*args: Any) -> list[str]:
        start = time.perf_counter()
        try:
            return original(*args)
        finally:
            spent.append((time.perf_counter() - start) * 1000)

    validate.check_sources = timed  # type: ignore[assignment]
    fixed = 0
    try:
        for day, _ in news_days(pool)[:days]:
            answer = run_opening(day, save=False, pool=pool)
            reps = answer.payload.get("context", {}).get("validation", {}).get("repairs", [])
            fixed += sum("날짜·방향" in r for r in reps)
    finally:
        validate.check_sources = original  # type: ignore[assignment]
    print(f"{'opening source check':24s} {_ms(spent)}  citations fixed: {fixed} in {days} scripts")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10, help="repetitions per security/ETF")
    parser.add_argument("--days", type=int, default=20, help="opening scripts to check")
    parser.add_argument("--home", help="WORKBENCH_HOME to run against")
    args = parser.parse_args()
    if args.home:
        os.environ["WORKBENCH_HOME"] = args.home
    from data_access.config import get_settings
    from data_access.graph import get_graph_store
    from data_access.postgres import get_pool
    from data_access.services import ensure_running

    settings = get_settings()
    pool = get_pool(ensure_running(settings).postgres_uri, settings)
    store = get_graph_store(settings)
    screens(pool, store, args.n)
    sources(pool, args.days)


if __name__ == "__main__":
    main()
