"""The opening trace lists a tool node's calls in planned order, not completion order."""

from __future__ import annotations

import random

from agents.evidence import ToolCallRecord
from agents.opening.trace import _in_planned_order

PLANNED = [
    ("get_ohlcv", {"ticker": "069500", "start_date": "2026-11-10"}),
    ("get_ohlcv", {"ticker": "US:NVDA", "start_date": "2026-11-10"}),
    ("get_news_list", {"keywords": ["nvidia"]}),
    ("get_ohlcv", {"ticker": "KR:017670", "start_date": "2026-11-10"}),
]


def _record(seq: int, tool: str, args: dict[str, object]) -> ToolCallRecord:
    # The tool records its defaults too: planned arguments are a subset of recorded ones.
    return ToolCallRecord(seq=seq, tool=tool, arguments={**args, "interval": "1d"},
                          duration_ms=1, status="ok")  # fmt: skip


def test_any_completion_order_gives_the_planned_order() -> None:
    for seed in range(20):
        finished = list(PLANNED)
        random.Random(seed).shuffle(finished)
        calls = [_record(i + 1, tool, args) for i, (tool, args) in enumerate(finished)]
        ordered = _in_planned_order(calls, PLANNED)
        assert [(c.tool, c.arguments.get("ticker") or c.arguments.get("keywords"))
                for c in ordered] == [(t, a.get("ticker") or a.get("keywords"))
                                      for t, a in PLANNED]  # fmt: skip


def test_unplanned_calls_keep_their_order_after_the_planned_ones() -> None:
    calls = [
        _record(1, "list_downloaded_bodies", {}),
        _record(2, "get_ohlcv", {"ticker": "US:NVDA", "start_date": "2026-11-10"}),
        _record(3, "get_ohlcv", {"ticker": "US:NVDA", "start_date": "2026-11-10"}),  # a repeat
    ]
    ordered = _in_planned_order(calls, PLANNED)
    assert [c.seq for c in ordered] == [2, 1, 3]
