"""What naming every citation's publisher costs (issue 35): `with_sources` over a Macro answer's
and a stock report's citations, and the stock research's read of imported OpenDART accounts.

    WORKBENCH_HOME=... python bench/citation_sources.py [--rounds 200]

Prints p50 / p95 in ms; run it against a seeded home (the demo data's catalogue and news).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agents.evidence import EvidenceCollector
from agents.macro.service import answer_question
from agents.stock.data import StockData
from agents.stock.research_filings import filed_accounts
from agents.stock.service import generate_report
from data_access.catalog import current_as_of_date
from data_access.postgres import get_pool
from data_access.publishers import with_sources


def _times(fn: Callable[[], object], rounds: int) -> str:
    xs = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        xs.append((time.perf_counter() - start) * 1000)
    xs.sort()
    return f"p50 {statistics.median(xs):.2f} ms · p95 {xs[min(len(xs) - 1, int(len(xs) * 0.95))]:.2f} ms"


def main(rounds: int) -> None:
    unnamed = {"source": None}
    pool = get_pool()  # the app's pool, as the screens and the API pass it
    macro = answer_question("삼성전자 실적과 한국 기준금리", pool=pool)
    m_struct = [c.model_copy(update=unnamed) for c in macro.structured_citations]
    m_docs = [c.model_copy(update=unnamed) for c in macro.citations]
    report = generate_report("삼성전자", save=False, pool=pool)
    s_struct = [c.model_copy(update=unnamed) for c in report.structured_citations]
    s_docs = [c.model_copy(update=unnamed) for c in report.citations]
    print(f"macro answer: {len(m_struct)} structured + {len(m_docs)} document citations:",
          _times(lambda: with_sources(m_struct, m_docs, pool), rounds))  # fmt: skip
    print(f"stock report: {len(s_struct)} structured + {len(s_docs)} document citations:",
          _times(lambda: with_sources(s_struct, s_docs, pool), rounds))  # fmt: skip
    data = StockData(pool, EvidenceCollector(), current_as_of_date(pool))
    print("filed_accounts (KR:005930):", _times(lambda: filed_accounts(data, "KR:005930"), rounds))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=200)
    main(parser.parse_args().rounds)
