"""Offline Macro Q&A turns: p50/p95 routing, single-domain and multi-domain latency (ms)."""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agents.macro.router import route
from agents.macro.service import answer_question
from data_access.graph import get_graph_store

SINGLE = ["한국 기준금리 최근 추이는?", "서울 강남구 아파트 전세가율 추이", "AAPL 실적"]
MULTI = ["삼성전자 최근 3개월 수익률과 하락 원인은?", "금리와 부동산 집값 관계"]


def _pct(xs: list[float]) -> str:
    xs = sorted(xs)
    return f"p50 {statistics.median(xs):.1f} ms · p95 {xs[min(len(xs) - 1, int(len(xs) * 0.95))]:.1f} ms"


def main(rounds: int = 5) -> None:
    store = get_graph_store()
    for label, questions in (("routing", SINGLE + MULTI), ("single", SINGLE), ("multi", MULTI)):
        times: list[float] = []
        for _ in range(rounds):
            for q in questions:
                t = time.perf_counter()
                route(q) if label == "routing" else answer_question(q, store=store)
                times.append((time.perf_counter() - t) * 1000)
        print(f"{label:8s} n={len(times):3d} {_pct(times)}")


if __name__ == "__main__":
    main()
