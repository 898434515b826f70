"""A short soak of `python -m api` (a subprocess on the test stores, the offline planner), with
bench/soak.py's own client: mixed turns over every screen, a third of them streamed. Every turn
answers (no HTTP error, no `error` answer) and the server's resident memory after the last turn
stays within 10 % of what it was once every screen had run a few turns (issue 34: a server that
runs for weeks stays flat; the 500-turn figures are bench/soak.py's, printed, not asserted here).
"""

from __future__ import annotations

import importlib.util
import itertools
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
WARM_TURNS, TURNS = 20, 60
pytestmark = pytest.mark.usefixtures("demo_data")


def bench_soak() -> Any:
    spec = importlib.util.spec_from_file_location("bench_soak", ROOT / "bench" / "soak.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_mixed_turns_answer_and_memory_stays_flat() -> None:
    soak = bench_soak()
    record = soak.Soak()
    with soak.api_server() as (url, pid), httpx.Client(base_url=url, timeout=300) as client:
        assert client.get("/api/contract/contracts").status_code == 200
        turns = itertools.islice(soak.requests(), TURNS)
        for number, (screen, path, body) in enumerate(turns, 1):
            soak.one(client, screen, path, body, record,
                     stream=number % soak.STREAM_EVERY == 0)  # fmt: skip
            if number == WARM_TURNS:
                warm = soak.rss_mb(pid)
        end = soak.rss_mb(pid)
        for cid in record.conversations:
            client.delete(f"/api/conversations/{cid}")
    print(f"\nRSS after {WARM_TURNS} turns {warm:.0f} MB, after {TURNS} {end:.0f} MB")
    assert not record.errors, record.errors[:3]
    assert set(record.timings) == {"etf", "macro", "contract", "stock", "opening"}
    assert end <= warm * 1.10, (warm, end)
