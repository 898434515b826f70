"""CLI: `python -m agents.etf ask "질문" [--json]` — the same turn the ETF chat screen runs."""

from __future__ import annotations

import argparse
import json
import logging
import sys

from agents.etf.service import StepEvent, stream_answer
from agents.understanding.history import conversation_history
from data_access import runs
from data_access.contracts import AgentAnswer


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m agents.etf", description="ETF 챗봇 (seed 000)")
    sub = parser.add_subparsers(dest="command", required=True)
    ask = sub.add_parser("ask", help="질문 하나에 답합니다")
    ask.add_argument("question")
    ask.add_argument("--json", action="store_true", help="답변, 단계, 도구 호출, 근거를 JSON으로")
    ask.add_argument("--verbose", action="store_true", help="단계를 진행되는 대로 출력")
    ask.add_argument("--conversation", metavar="ID", help="이 대화를 이어서 묻습니다 (후속 질문)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)

    steps: list[StepEvent] = []
    answer: AgentAnswer | None = None
    history = conversation_history(args.conversation)
    for event in stream_answer(args.question, history):
        if isinstance(event, StepEvent):
            steps.append(event)
            if args.verbose and not args.json:
                tools = ", ".join(c["tool"] for c in event.tool_calls) or "-"
                print(
                    f"[단계 {event.step}] 도구: {tools} ({event.duration_ms} ms)", file=sys.stderr
                )
        else:
            answer = event
    if answer is None:
        return 1
    conversation_id, _ = runs.record_turn("etf", args.question, answer, args.conversation)
    if args.json:
        out = {
            "conversation_id": conversation_id,
            "answer": answer.answer,
            "mode": answer.mode,
            "model": answer.model,
            "status": answer.status,
            "steps": [s.__dict__ for s in steps],
            "tool_calls": [c for s in steps for c in s.tool_calls],
            "structured_citations": [
                c.model_dump(mode="json") for c in answer.structured_citations
            ],
            "as_of_date": answer.as_of_date,
            "data_freshness": answer.data_freshness,
            "duration_ms": answer.duration_ms,
        }
        print(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        mode = "오프라인 플래너" if answer.mode == "offline" else f"LLM {answer.model}"
        print(answer.answer)
        print(
            f"\n— {mode} · 기준일 {answer.as_of_date} · {answer.duration_ms} ms · 대화 "
            f"{conversation_id}",
            file=sys.stderr,
        )
    return 0 if answer.status in ("ok", "partial") else 2


if __name__ == "__main__":
    sys.exit(main())
