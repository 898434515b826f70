"""CLI: `python -m agents.stock report SYMBOL [--json] [--lang ko|en]` — the screen's report."""

from __future__ import annotations

import argparse
import logging
import sys

from agents.stock.service import ProgressEvent, question_for, report_json, stream_report
from data_access.contracts import AgentAnswer


def _progress(event: ProgressEvent) -> str | None:
    d = event.data
    if event.event == "node_start":
        return f"[{d['step']}] {d['node']} 시작"
    if event.event == "node_end":
        errors = f" 오류: {'; '.join(d['errors'])}" if d.get("errors") else ""
        return f"[{d['step']}] {d['node']} 완료 → {d['status']} ({d['duration_ms']} ms){errors}"
    if event.event == "tool_attempt":
        return f"    {d['tool']} 시도 {d['attempt']}: {d['status']} ({d['latency_ms']} ms)"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m agents.stock", description="종목 리포트 (seed 001)"
    )
    sub = parser.add_subparsers(dest="command", required=True)
    report = sub.add_parser("report", help="종목 하나의 리포트를 만듭니다")
    report.add_argument("symbol", help="AAPL, 005930, 삼성전자, KR:005930 …")
    report.add_argument("--json", action="store_true", help="리포트와 지표, 근거를 JSON으로")
    report.add_argument("--lang", choices=("ko", "en"), default="ko", help="리포트 언어")
    report.add_argument("--verbose", action="store_true", help="노드 진행을 stderr로 출력")
    report.add_argument("--no-save", action="store_true", help="실행 기록을 저장하지 않음")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)

    answer: AgentAnswer | None = None
    for event in stream_report(args.symbol, language=args.lang, save=not args.no_save,
                               stream_text=False):  # fmt: skip
        if isinstance(event, ProgressEvent):
            line = _progress(event)
            if args.verbose and line:
                print(line, file=sys.stderr)
        elif isinstance(event, AgentAnswer):
            answer = event
    if answer is None:
        return 1
    if args.json:
        print(report_json(answer, question_for(args.symbol, args.lang)))
    else:
        mode = "오프라인 템플릿" if answer.mode == "offline" else f"LLM {answer.model}"
        print(answer.answer)
        saved = answer.payload.get("run_id")
        tail = f" · 저장 {saved}" if saved else ""
        print(f"\n— {mode} · 기준일 {answer.as_of_date} · {answer.duration_ms} ms{tail}",
              file=sys.stderr)  # fmt: skip
    return 0 if answer.status in ("ok", "partial") else 2


if __name__ == "__main__":
    sys.exit(main())
