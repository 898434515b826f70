"""CLI of the evaluation backend.

    python -m agents.eval run [--suite macro --suite etf ...] [--json]
    python -m agents.eval report [--run RUN_ID] [--json]
    python -m agents.eval weekly [--days 7] [--json]
    python -m agents.eval rerun CASE_ID [--json]
    python -m agents.eval list [--limit 20] [--json]

Exit status: 0 when the runner ran (failing cases are results, shown in the table and the
report), 1 when the runner itself could not run (stores down, unknown suite or case), 2 for a
missing run.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys

from agents.eval.models import SUITES, CaseResult, SuiteRun
from data_access.errors import WorkbenchError


def _progress(done: int, total: int, result: CaseResult) -> None:
    verdict = "통과" if result.passed else f"실패 ({result.failure_category})"
    print(f"[{done}/{total}] {result.suite}/{result.case_id}: {verdict} · {result.latency_ms} ms",
          file=sys.stderr)  # fmt: skip


def _print_run(run: SuiteRun, as_json: bool) -> None:
    from agents.eval.reports import run_json, run_markdown

    print(run_json(run) if as_json else run_markdown(run))


def cmd_run(args: argparse.Namespace) -> int:
    from agents.eval.runner import run_suites

    run = run_suites(args.suite or None, progress=None if args.json else _progress)
    _print_run(run, args.json)
    if not args.json:
        print(f"보고서: {run.report_dir}", file=sys.stderr)
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from agents.eval import store

    run_id = args.run
    if run_id is None:
        latest = store.list_runs(limit=1, kind="run")
        run_id = latest[0].run_id if latest else None
    run = store.get_run(run_id) if run_id else None
    if run is None:
        print("평가 실행을 찾을 수 없습니다. 먼저 `python -m agents.eval run`을 실행하세요.",
              file=sys.stderr)  # fmt: skip
        return 2
    _print_run(run, args.json)
    return 0


def cmd_weekly(args: argparse.Namespace) -> int:
    from agents.eval.weekly import weekly_summary

    s = weekly_summary(days=args.days)
    if args.json:
        print(s.model_dump_json(indent=2))
        return 0
    rate = f"{s.avg_pass_rate:.1f}%" if s.avg_pass_rate is not None else "데이터 없음"
    print(f"최근 {s.days}일: 실행 {s.run_count}회, 케이스 {s.case_count}개, 평균 통과율 {rate}, "
          f"라우팅 불일치 {s.routing_mismatch_count}건, 상태 {s.status}")  # fmt: skip
    print("Top 실패 분류: " + (", ".join(f"{c}:{n}" for c, n in s.top_failure_categories) or "-"))
    print("Top 실패 케이스: " + (", ".join(f"{c}:{n}" for c, n in s.top_failed_cases) or "-"))
    for reason in s.reasons:
        print(f"- {reason}")
    return 0


def cmd_rerun(args: argparse.Namespace) -> int:
    from agents.eval.runner import rerun_case

    result = rerun_case(args.case_id)
    if args.json:
        print(result.model_dump_json(indent=2))
    else:
        _progress(1, 1, result)
        for p in result.problems:
            print(f"- [{p.category}] {p.message}")
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    from agents.eval import store

    runs = store.list_runs(limit=args.limit)
    if args.json:
        print(json.dumps([r.model_dump(mode="json") for r in runs], ensure_ascii=False, indent=2))
        return 0
    for r in runs:
        rate = f"{r.pass_rate:.1f}%" if r.pass_rate is not None else "-"
        print(f"{r.run_id}  {r.kind:5}  {r.status:8}  {r.passed_count}/{r.case_count} ({rate})  "
              f"{','.join(r.suites)}")  # fmt: skip
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m agents.eval",
                                     description="골든셋 회귀 평가와 KPI (seed 004 §6)")  # fmt: skip
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="골든셋을 실행하고 KPI 보고서를 만듭니다")
    run.add_argument("--suite", action="append", choices=SUITES, help="여러 번 줄 수 있음")
    run.add_argument("--json", action="store_true", help="KPI 보고서와 케이스별 결과를 JSON으로")
    report = sub.add_parser("report", help="저장된 실행의 보고서")
    report.add_argument("--run", help="실행 ID (기본: 최근 실행)")
    report.add_argument("--json", action="store_true")
    weekly = sub.add_parser("weekly", help="주간 요약 (§13.2-18/21)")
    weekly.add_argument("--days", type=int, default=7)
    weekly.add_argument("--json", action="store_true")
    rerun = sub.add_parser("rerun", help="케이스 하나를 다시 실행")
    rerun.add_argument("case_id")
    rerun.add_argument("--json", action="store_true")
    listing = sub.add_parser("list", help="최근 실행 목록")
    listing.add_argument("--limit", type=int, default=20)
    listing.add_argument("--json", action="store_true")
    return parser


COMMANDS = {"run": cmd_run, "report": cmd_report, "weekly": cmd_weekly, "rerun": cmd_rerun,
            "list": cmd_list}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        return COMMANDS[args.command](args)
    except (WorkbenchError, ValueError) as e:
        print(f"오류: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
