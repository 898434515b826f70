"""api.memory: the heap trimmer gives freed heap back, and its thread starts and stops with the
server (glibc: the machines this runs on)."""

from __future__ import annotations

from pathlib import Path

from api.config import ApiConfig
from api.memory import HeapTrimmer, trim


def rss_anon_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("RssAnon:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no RssAnon in /proc/self/status")


def test_trim_returns_freed_heap_that_free_kept() -> None:
    trim()
    held = [bytearray(1000) for _ in range(60_000)]  # ~60 MB of malloc'd blocks
    pinned = bytearray(1000)  # allocated after them: the heap's top stays in use
    del held  # freed, but below the top: glibc keeps the pages until trimmed
    before = rss_anon_mb()
    assert trim() is True
    after = rss_anon_mb()
    assert before - after > 30, (before, after)
    assert len(pinned) == 1000


def test_the_trimmer_thread_runs_only_while_entered() -> None:
    with HeapTrimmer(every_s=3600) as trimmer:
        assert trimmer._thread.is_alive()
    assert not trimmer._thread.is_alive()
    with HeapTrimmer(every_s=0) as off:  # ApiConfig(trim_every_s=0): no thread at all
        assert not off._thread.is_alive()
    assert ApiConfig().trim_every_s == 30.0
