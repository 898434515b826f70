"""service.warm_start: one background thread per process loads what every contract question
needs, and a turn waits for it (after reading its own clauses' words) instead of doing it again."""

from __future__ import annotations

import threading
from types import SimpleNamespace
from typing import Any

import pytest

from agents.contract import service


def test_the_start_warm_up_runs_once_and_a_turn_waits_for_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    release, calls = threading.Event(), []

    def slow_words() -> None:
        calls.append(1)
        release.wait(5)

    monkeypatch.setattr(service, "_warm_words", slow_words)
    monkeypatch.setattr(service, "_start", [])
    thread = service.warm_start()
    assert thread is not None and service.warm_start() is None  # once per process
    index: Any = SimpleNamespace(articles={})
    waiting = threading.Thread(target=service._ready_words, args=(index,))
    waiting.start()
    waiting.join(0.2)
    assert waiting.is_alive()  # the turn waits for the start thread's work
    release.set()
    waiting.join(5)
    assert not waiting.is_alive() and not thread.is_alive() and calls == [1]


def test_a_failed_warm_up_does_not_stop_the_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken() -> None:
        raise RuntimeError("no model")

    monkeypatch.setattr(service, "_warm_words", broken)
    monkeypatch.setattr(service, "_start", [])
    thread = service.warm_start()
    assert thread is not None
    service._ready_words(SimpleNamespace(articles={}))  # type: ignore[arg-type]
    assert not thread.is_alive()
