"""CLI: `python -m agents.opening run [--date YYYY-MM-DD] [--json]` — the screen's own run."""

from __future__ import annotations

import argparse
import json
import logging
import sys

from agents.opening.service import NodeEvent, result_of, stream_opening
from data_access.contracts import AgentAnswer
from data_access.errors import WorkbenchError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m agents.opening",
                                     description="오프닝 스크립트 (seed 003)")  # fmt: skip
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="하루치 테마·한마디·대본을 만듭니다")
    run.add_argument("--date", help="거래일 YYYY-MM-DD (기본: 뉴스가 있는 최근 거래일)")
    run.add_argument(
        "--json", action="store_true", help="seed의 결과 객체(theme/nutshell/scripts)를 JSON으로"
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)

    answer: AgentAnswer | None = None
    try:
        for event in stream_opening(args.date):
            if isinstance(event, NodeEvent):
                tools = f" · 도구 {len(event.tool_calls)}개" if event.tool_calls else ""
                print(f"[{event.label}] {event.summary}{tools} ({event.duration_ms} ms)",
                      file=sys.stderr)  # fmt: skip
            else:
                answer = event
    except WorkbenchError as e:
        print(f"오류: {e}", file=sys.stderr)
        return 2
    if answer is None:
        return 1
    if args.json and answer.status == "ok":
        print(json.dumps(result_of(answer), ensure_ascii=False, indent=2))
    else:
        print(answer.answer)
    mode = "오프라인 플래너" if answer.mode == "offline" else f"LLM {answer.model}"
    print(f"\n— {mode} · {answer.as_of_date} · {answer.duration_ms} ms", file=sys.stderr)
    return 0 if answer.status == "ok" else 2


if __name__ == "__main__":
    sys.exit(main())
