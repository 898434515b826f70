"""How soon a model-written answer shows its first checked sentence (issue 20): time from the
start of a question to its first streamed sentence, against the time to the whole answer (what
a screen without streaming would show first), p50 / p95 / max over `--runs` turns, for a
contract question and a Macro Q&A question; then the time from 중지 set in the middle of the
stream to the `cancelled` answer.

    python bench/stream.py [--runs 10] [--chars 6] [--pause-ms 40]

The model is a local OpenAI-compatible server (tests/fixtures/openai_replay.py). Contract: the
recorded planning call, then a synthesis of SENTENCES sentences. Macro: the scripted Macro model
(tests/fixtures/macro_scripted_model.py: the agents call their templates, the writer repeats the
as-of date and key points it was given) whose answer gets SENTENCES more sentences without
figures. The answer text goes out as SSE chunks of `--chars` characters, `--pause-ms` apart (a
provider writing about 150 characters a second by default); the other calls answer at once.
Everything behind the provider is real (litellm stream, the sentence gate, LangGraph, the
contract tools, the Macro agents, PostgreSQL, FalkorDB); nothing is saved. One whole turn per
screen runs first (imports, indexes).
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from pydantic import SecretStr

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agents.answer_stream import TextPiece  # noqa: E402
from agents.contract.service import ensure_samples, stream_ask  # noqa: E402
from agents.macro.service import stream_answer as macro_stream  # noqa: E402
from bench.stop import summary  # noqa: E402
from data_access.config import Settings, get_settings  # noqa: E402
from data_access.contracts import AgentAnswer  # noqa: E402
from data_access.graph import get_graph_store  # noqa: E402
from data_access.postgres import get_pool  # noqa: E402
from tests.fixtures.macro_scripted_model import MacroScriptedServer  # noqa: E402
from tests.fixtures.openai_replay import ReplayServer  # noqa: E402

RECORDING = ROOT / "tests" / "fixtures" / "openai_replay" / "contract_compare.json"
CONTRACT = "sample-user-provide"
QUESTION = "제5조와 손해배상 조항을 비교해줘"
SENTENCE = "제5조(데이터의 제공)는 갑이 매월 5일까지 API로 데이터를 제공하도록 정합니다."
SENTENCES = 8
MACRO_QUESTION = "한국 기준금리 최근 추이는?"
MACRO_SENTENCE = "자세한 흐름은 아래 표와 차트에서 확인할 수 있습니다."

Start = Callable[[threading.Event], Iterable[object]]


class MacroWriterServer(MacroScriptedServer):
    """The scripted Macro model whose answer writer goes on for SENTENCES more sentences."""

    def _next(self, request: dict[str, Any]) -> tuple[Any, int]:
        reply, index = super()._next(request)
        messages = request.get("messages") or [{}]
        if isinstance(reply, str) and "<macro_data>" in str(messages[-1].get("content")):
            reply += "\n\n" + " ".join([MACRO_SENTENCE] * SENTENCES)  # the writer's text
        return reply, index


def one_turn(start: Start, stop_after_first: bool = False) -> tuple[float, float, str]:
    """(ms to the first sentence, ms to the answer — from the flag when stopping —, status)."""
    stop = threading.Event()
    started = time.perf_counter()
    first = flagged = None
    for event in start(stop):
        now = time.perf_counter()
        if isinstance(event, TextPiece) and first is None:
            first = now
            if stop_after_first:
                flagged = now
                stop.set()
        if isinstance(event, AgentAnswer):
            if first is None:
                raise RuntimeError(f"no sentence was streamed ({event.status}: {event.error})")
            end_from = flagged if flagged is not None else started
            return (first - started) * 1000, (now - end_from) * 1000, event.status
    raise RuntimeError("the stream ended without an answer")


def rows(name: str, start: Start, runs: int) -> None:
    """One warm turn, then `runs` whole turns and `runs` turns stopped at the first sentence."""
    one_turn(start)  # warm: imports, indexes
    firsts, wholes, stops, statuses = [], [], [], []
    for _ in range(runs):
        first, whole, _status = one_turn(start)
        firsts.append(first)
        wholes.append(whole)
    for _ in range(runs):
        _first, stopped, status = one_turn(start, stop_after_first=True)
        stops.append(stopped)
        statuses.append(status)
    print(summary(f"{name + ': start → first checked sentence':<48}", firsts))
    print(summary(f"{name + ': start → whole answer':<48}", wholes))
    print(summary(f"{name + ': 중지 mid-stream → cancelled answer':<48}", stops)
          + f"  ({statuses.count('cancelled')}/{runs} cancelled)")  # fmt: skip


def with_model(settings: Settings, role: str, api_base: str) -> Settings:
    return settings.model_copy(update={f"llm_model_{role}": "openai/gpt-4.1-mini",
                                       "llm_api_base": api_base,
                                       "openai_api_key": SecretStr("replay-key")})  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--chars", type=int, default=6)
    parser.add_argument("--pause-ms", type=float, default=40.0)
    args = parser.parse_args()
    base = get_settings()
    pool, store = get_pool(), get_graph_store()
    ensure_samples(pool, base)
    planning = json.loads(RECORDING.read_text(encoding="utf-8"))["responses"][0]
    text = " ".join([SENTENCE] * SENTENCES)
    pace: dict[str, Any] = {"stream_chars": args.chars, "stream_pause_s": args.pause_ms / 1000}
    print(f"{args.runs} turns each, model text in chunks of {args.chars} chars "
          f"{args.pause_ms:.0f} ms apart (local replay / scripted server); contract synthesis "
          f"{len(text)} chars, Macro writer {SENTENCES} sentences after its key points")  # fmt: skip
    with ReplayServer([planning, text], **pace) as server:
        contract = with_model(base, "contract", server.api_base)
        rows("Contract", lambda stop: stream_ask(CONTRACT, QUESTION, settings=contract, pool=pool,
                                                 save=False, cancel=stop), args.runs)  # fmt: skip
    with MacroWriterServer(**pace) as server:
        macro = with_model(base, "macro", server.api_base)
        rows("Macro", lambda stop: macro_stream(MACRO_QUESTION, settings=macro, store=store,
                                                pool=pool, cancel=stop), args.runs)  # fmt: skip


if __name__ == "__main__":
    main()
