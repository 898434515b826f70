"""How soon a model-written answer shows its first checked sentence (issue 20): time from the
start of a contract question to its first streamed sentence, against the time to the whole
answer (what a screen without streaming would show first), p50 / p95 / max over `--runs` turns;
then the time from 중지 set in the middle of the stream to the `cancelled` answer.

    python bench/stream.py [--runs 10] [--chars 6] [--pause-ms 40]

The model is the local OpenAI-compatible replay server (tests/fixtures/openai_replay.py): the
recorded planning call, then a synthesis of SENTENCES sentences sent as SSE chunks of `--chars`
characters, `--pause-ms` apart (a provider writing about 150 characters a second by default).
Everything behind the provider is real (litellm stream, the sentence gate, LangGraph, the
contract tools, PostgreSQL); nothing is saved. One whole turn runs first (imports, indexes).
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from pathlib import Path

from pydantic import SecretStr

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agents.answer_stream import TextPiece  # noqa: E402
from agents.contract.service import ensure_samples, stream_ask  # noqa: E402
from bench.stop import summary  # noqa: E402
from data_access.config import Settings, get_settings  # noqa: E402
from data_access.contracts import AgentAnswer  # noqa: E402
from data_access.postgres import get_pool  # noqa: E402
from tests.fixtures.openai_replay import ReplayServer  # noqa: E402

RECORDING = ROOT / "tests" / "fixtures" / "openai_replay" / "contract_compare.json"
CONTRACT = "sample-user-provide"
QUESTION = "제5조와 손해배상 조항을 비교해줘"
SENTENCE = "제5조(데이터의 제공)는 갑이 매월 5일까지 API로 데이터를 제공하도록 정합니다."
SENTENCES = 8


def one_turn(settings: Settings, pool: object, stop_after_first: bool = False
             ) -> tuple[float, float, str]:  # fmt: skip
    """(ms to the first sentence, ms to the answer — from the flag when stopping —, status)."""
    stop = threading.Event()
    started = time.perf_counter()
    first = flagged = None
    for event in stream_ask(CONTRACT, QUESTION, settings=settings, pool=pool, save=False,
                            cancel=stop):  # fmt: skip
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--chars", type=int, default=6)
    parser.add_argument("--pause-ms", type=float, default=40.0)
    args = parser.parse_args()
    base = get_settings()
    pool = get_pool()
    ensure_samples(pool, base)
    planning = json.loads(RECORDING.read_text(encoding="utf-8"))["responses"][0]
    text = " ".join([SENTENCE] * SENTENCES)
    with ReplayServer([planning, text], stream_chars=args.chars,
                      stream_pause_s=args.pause_ms / 1000) as server:  # fmt: skip
        settings = base.model_copy(update={"llm_model_contract": "openai/gpt-4.1-mini",
                                           "llm_api_base": server.api_base,
                                           "openai_api_key": SecretStr("replay-key")})  # fmt: skip
        one_turn(settings, pool)  # warm: imports, the contract's index
        firsts, wholes, stops, statuses = [], [], [], []
        for _ in range(args.runs):
            first, whole, _status = one_turn(settings, pool)
            firsts.append(first)
            wholes.append(whole)
        for _ in range(args.runs):
            _first, stopped, status = one_turn(settings, pool, stop_after_first=True)
            stops.append(stopped)
            statuses.append(status)
    print(f"{args.runs} contract turns, model text {len(text)} chars in chunks of {args.chars}, "
          f"{args.pause_ms:.0f} ms apart (replay server)")  # fmt: skip
    print(summary(f"{'start → first checked sentence':<34}", firsts))
    print(summary(f"{'start → whole answer':<34}", wholes))
    print(summary(f"{'중지 mid-stream → cancelled answer':<34}", stops)
          + f"  ({statuses.count('cancelled')}/{args.runs} cancelled)")  # fmt: skip


if __name__ == "__main__":
    main()
