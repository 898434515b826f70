"""How fast 중지 stops a turn: the time from the cancel flag being set to the `cancelled` answer,
for each screen's service, p50 / p95 / max over `--runs` turns.

    python bench/stop.py [--runs 5] [--delay-ms 30]

Offline planner, the stores of WORKBENCH_HOME, nothing saved, one whole turn per row first (a
cold process loads models and indexes, and a stop that lands during such an import waits for it).
The flag is set `--delay-ms` after the first finished step, so the next step is under way. One more row stops an ETF
turn with a model configured whose provider is the local replay server (tests/fixtures) holding
each reply `--hold-s` seconds: the stop lands in the middle of a model call. Prints one line per
row; what the screens add on top (a rerun of the page) is measured by the browser test
tests/browser/test_stop_turn.py.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from pydantic import SecretStr

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agents.contract.service import ensure_samples, stream_ask  # noqa: E402
from agents.etf.service import stream_answer as etf_stream  # noqa: E402
from agents.macro.service import stream_answer as macro_stream  # noqa: E402
from agents.opening.service import stream_opening  # noqa: E402
from agents.stock.service import ProgressEvent, stream_report  # noqa: E402
from data_access.config import Settings, get_settings  # noqa: E402
from data_access.contracts import AgentAnswer  # noqa: E402
from data_access.graph import get_graph_store  # noqa: E402
from data_access.postgres import get_pool  # noqa: E402
from tests.fixtures.openai_replay import ReplayServer, slow  # noqa: E402

Start = Callable[[threading.Event], Iterator[object]]
RECORDING = ROOT / "tests" / "fixtures" / "openai_replay" / "etf_compare.json"


def _finished(event: object) -> bool:
    return not isinstance(event, ProgressEvent) or event.event == "node_end"


def stop_once(start: Start, delay_s: float) -> tuple[float, str]:
    """(ms from the flag to the answer, the answer's status) for one turn."""
    stop = threading.Event()
    set_at: list[float] = []

    def set_flag() -> None:
        set_at.append(time.perf_counter())
        stop.set()

    timer: threading.Timer | None = None
    for event in start(stop):
        if isinstance(event, AgentAnswer):
            if timer is not None:
                timer.cancel()
            if not set_at:  # the turn ended before the flag: not a stop
                return float("nan"), event.status
            return (time.perf_counter() - set_at[0]) * 1000, event.status
        if timer is None and _finished(event):
            timer = threading.Timer(delay_s, set_flag)
            timer.start()
    raise RuntimeError("the stream ended without an answer")


def row(name: str, start: Start, runs: int, delay_s: float) -> None:
    for _ in start(threading.Event()):  # a whole turn first: models and indexes loaded
        pass
    samples, statuses = [], []
    for _ in range(runs):
        ms, status = stop_once(start, delay_s)
        statuses.append(status)
        if ms == ms:  # not NaN
            samples.append(ms)
    if not samples:
        print(f"{name:<34} no stop landed before the answer ({', '.join(statuses)})")
        return
    print(summary(f"{name:<34} stop → answer", samples)
          + f"  ({statuses.count('cancelled')}/{runs} cancelled)")  # fmt: skip


def summary(name: str, samples: list[float]) -> str:
    """`name p50 … ms  p95 … ms  max … ms` of millisecond samples."""
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (f"{name} p50 {statistics.median(ordered):7.1f} ms  p95 {p95:7.1f} ms"
            f"  max {ordered[-1]:7.1f} ms")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--delay-ms", type=float, default=30.0)
    parser.add_argument("--hold-s", type=float, default=5.0)
    args = parser.parse_args()
    settings = get_settings().model_copy(update={"llm_model": None, "llm_model_etf": None,
                                                 "llm_model_macro": None})  # fmt: skip
    pool, store = get_pool(), get_graph_store()
    contract_id = ensure_samples(pool, settings)[-1].contract_id
    delay = args.delay_ms / 1000
    cases: dict[str, Start] = {
        "ETF chat (offline)": lambda s: etf_stream("KODEX 200과 TIGER 200 비교해줘",
                                                   settings=settings, store=store, pool=pool,
                                                   cancel=s),
        "Macro Q&A (offline)": lambda s: macro_stream("삼성전자 최근 3개월 수익률과 하락 원인은?",
                                                      settings=settings, store=store,
                                                      pool=pool, cancel=s),
        "Contract question (offline)": lambda s: stream_ask(contract_id, "계약을 중간에 그만둘 수 "
                                                            "있나요?", settings=settings,
                                                            pool=pool, save=False, cancel=s),
        "Opening script (offline)": lambda s: stream_opening(None, settings=settings, pool=pool,
                                                             save=False, cancel=s),
        "Stock report (offline)": lambda s: stream_report("삼성전자", settings=settings,
                                                          pool=pool, save=False, cancel=s),
    }  # fmt: skip
    print(f"{args.runs} turns each, flag set {args.delay_ms:.0f} ms after the first finished step")
    for name, start in cases.items():
        row(name, start, args.runs, delay)
    _model_row(settings, store, pool, args.runs, delay, args.hold_s)


def _model_row(settings: Settings, store: Any, pool: Any, runs: int, delay: float,
               hold_s: float) -> None:  # fmt: skip
    recording = json.loads(RECORDING.read_text(encoding="utf-8"))
    replies = [slow(hold_s, r) for r in recording["responses"]]
    with ReplayServer(replies, model=recording["model"]) as server:
        model = settings.model_copy(update={"llm_model_etf": "openai/gpt-4.1-mini",
                                            "llm_api_base": server.api_base,
                                            "openai_api_key": SecretStr("replay-key")})  # fmt: skip
        row(f"ETF chat (model reply held {hold_s:.0f} s)",
            lambda s: etf_stream("KODEX 200과 TIGER 200 비교해줘", settings=model, store=store,
                                 pool=pool, cancel=s), runs, delay)  # fmt: skip


if __name__ == "__main__":
    main()
