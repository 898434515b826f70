"""CLI: `python -m agents.macro ask "질문" [--json]`, `python -m agents.macro route "질문" --json`."""

from __future__ import annotations

import argparse
import json
import sys

from data_access.contracts import AgentAnswer


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m agents.macro")
    parser.add_argument("command", choices=["ask", "route"])
    parser.add_argument("question")
    parser.add_argument("--json", action="store_true", help="print the whole JSON result")
    parser.add_argument("--conversation", metavar="ID", help="continue this conversation")
    args = parser.parse_args(argv)
    if args.command == "route":
        from agents.macro.router import route

        r = route(args.question)
        print(json.dumps(r.model_dump(mode="json"), ensure_ascii=False, indent=2) if args.json
              else f"{r.intent} → {r.target_agents} ({r.tool_mode})\n" + "\n".join(r.reasons))  # fmt: skip
        return 0
    from agents.macro.service import SCREEN, NodeEvent, stream_answer
    from agents.understanding.history import conversation_history
    from data_access import runs
    from data_access.graph import get_graph_store

    answer: AgentAnswer | None = None
    history = conversation_history(args.conversation)
    for event in stream_answer(args.question, history=history, store=get_graph_store(),
                               stream_text=False):  # fmt: skip
        if isinstance(event, NodeEvent):
            print(f"· {event.node}: {event.summary} ({event.duration_ms} ms)", file=sys.stderr)
        elif isinstance(event, AgentAnswer):
            answer = event
    assert answer is not None
    conversation_id, _ = runs.record_turn(SCREEN, args.question, answer, args.conversation)
    if args.json:
        print(json.dumps({"conversation_id": conversation_id, **answer.model_dump(mode="json")},
                         ensure_ascii=False, indent=2))  # fmt: skip
    else:
        print(answer.answer)
        print(f"\n— 대화 {conversation_id}", file=sys.stderr)
    return 0 if answer.status != "error" else 1


if __name__ == "__main__":
    raise SystemExit(main())
