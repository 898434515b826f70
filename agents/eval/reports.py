"""Run reports as files and text: `WORKBENCH_HOME/eval/<run_id>/report.json`, `report.md`,
`failures/<case_id>.json`, and the KPI / case tables the CLI prints.

A failure report (seed 004 §7-4) holds the input, the route, every query step with its text,
the evidence and the answer, plus the command that reruns the case.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from agents.eval import traces
from agents.eval.models import (
    CATEGORY_LABELS_KO,
    CaseResult,
    FailureReport,
    GoldenCase,
    KpiReport,
    KpiValue,
    SuiteRun,
)
from data_access.config import Settings
from data_access.contracts import AgentAnswer

SCREEN_COMMANDS = {
    "macro": 'python -m agents.macro ask "{q}" --json',
    "etf": 'python -m agents.etf ask "{q}" --json',
    "contract": 'python -m agents.contract ask --contract {contract_id} "{q}" --json',
    "opening": "python -m agents.opening run --date {q} --json",
    "stock": "python -m agents.stock report {q} --json",
}
_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


def run_dir(settings: Settings, run_id: str) -> Path:
    return settings.home / "eval" / _SAFE.sub("_", run_id)


def build_failure_report(run_id: str, case: GoldenCase, result: CaseResult,
                         answer: AgentAnswer | None) -> FailureReport:  # fmt: skip
    command = SCREEN_COMMANDS.get(case.suite, "").format(
        q=case.question.replace('"', '\\"'),
        contract_id=case.inputs.get("contract_id", "sample-user-provide"),
    )
    reproduce = f"python -m agents.eval rerun {case.id}" + (f"\n{command}" if command else "")
    report = FailureReport(
        run_id=run_id, suite=case.suite, case_id=case.id,
        category=result.failure_category or "error", problems=result.problems,
        input={"question": case.question, "inputs": case.inputs,
               "expected_tool_mode": case.expected_tool_mode,
               "expected_target_agents": case.expected_target_agents,
               "expected_intent": case.expected_intent,
               "facts": [f.model_dump(mode="json", exclude_none=True) for f in case.facts],
               "fact_results": [f.model_dump(mode="json") for f in result.facts]},
        error=result.error, reproduce=reproduce,
    )  # fmt: skip
    if answer is not None:
        report.route = traces.route_of(answer)
        understood = answer.payload.get("understanding")
        if understood:  # the question frame the planner read (issue 14: every failure with it)
            report.route = {**report.route, "understanding": understood}
        report.queries = traces.queries_of(answer)
        report.evidence = traces.evidence_of(answer)
        report.answer = answer.answer
    if result.guard is not None:
        report.evidence = {"guard": result.guard.model_dump(mode="json")}
    return report


def write_failure(report: FailureReport, directory: Path) -> Path:
    path = directory / "failures" / f"{_SAFE.sub('_', report.case_id)}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    report.file_path = str(path)
    path.write_text(report.model_dump_json(indent=2), encoding="utf-8")
    return path


def write_run_report(run: SuiteRun, directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "report.json").write_text(run.model_dump_json(indent=2), encoding="utf-8")
    (directory / "report.md").write_text(run_markdown(run), encoding="utf-8")


# ---------------------------------------------------------------- text


def format_kpi_value(k: KpiValue) -> str:
    if k.value is None:
        return "데이터 없음"
    if k.unit == "ms":
        return f"{k.value / 1000:.2f} s"
    if k.unit == "calls":
        return f"{k.value:.2f}"
    return f"{k.value:.1f}%"


def format_target(k: KpiValue) -> str:
    if k.unit == "ms":
        return f"{k.comparator} {k.target / 1000:g} s"
    suffix = "%" if k.unit == "%" else ""
    return f"{k.comparator} {k.target:g}{suffix}"


def _met(k: KpiValue) -> str:
    return "—" if k.met is None else ("✅" if k.met else "❌")


def kpi_table(report: KpiReport) -> str:
    lines = ["| KPI | 값 | 목표 | 충족 | 근거 |", "| --- | --- | --- | --- | --- |"]
    for k in report.kpis:
        basis = ""
        if k.denominator is not None:
            basis = (f"{k.numerator:g}/{k.denominator:g}" if k.numerator is not None
                     else f"n={k.denominator:g}")  # fmt: skip
        lines.append(f"| {k.label_ko} | {format_kpi_value(k)} | {format_target(k)} | {_met(k)} "
                     f"| {basis} |")  # fmt: skip
    return "\n".join(lines)


def case_table(results: list[CaseResult]) -> str:
    lines = ["| suite | case | 결과 | 분류 | tool_mode | agents | 정형/문서 근거 | 신선도 | ms |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]  # fmt: skip
    for r in results:
        verdict = "통과" if r.passed else "실패"
        agents = ",".join(r.target_agents)
        lines.append(
            f"| {r.suite} | {r.case_id} | {verdict} | {r.failure_category or ''} "
            f"| {r.tool_mode or ''} | {agents} | {r.structured_citation_count}/{r.citation_count} "
            f"| {r.freshness_status} | {r.latency_ms} |"
        )
    return "\n".join(lines)


def run_markdown(run: SuiteRun) -> str:
    head = [f"# 평가 실행 {run.run_id}", "",
            f"- 스위트: {', '.join(run.suites)} · 모드: {run.mode}" + (f" ({run.model})" if run.model else ""),
            f"- 시작 {run.started_at:%Y-%m-%d %H:%M:%S} · 상태 {run.status}",
            f"- 통과 {run.passed_count}/{run.case_count}"
            + (f" ({run.pass_rate:.1f}%)" if run.pass_rate is not None else "")]  # fmt: skip
    if run.error:
        head.append(f"- 오류: {run.error}")
    parts = ["\n".join(head)]
    if run.kpis:
        parts.append("## KPI (seed 004 §6)\n\n" + kpi_table(run.kpis))
    parts.append("## 케이스\n\n" + case_table(run.results))
    failed = [r for r in run.results if not r.passed]
    if failed:
        lines = ["## 실패"]
        for r in failed:
            label = CATEGORY_LABELS_KO.get(r.failure_category or "", r.failure_category)
            lines.append(f"\n### {r.case_id} — {label}\n\n- 질문: {r.question}")
            lines += [f"- [{p.category}] {p.message}" for p in r.problems]
            lines.append(f"- 재현: `python -m agents.eval rerun {r.case_id}` "
                         f"(failures/{_SAFE.sub('_', r.case_id)}.json)")  # fmt: skip
        parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"


def run_json(run: SuiteRun) -> str:
    """The KPI report with the per-case results (the CLI's `--json`)."""
    return json.dumps(run.model_dump(mode="json"), ensure_ascii=False, indent=2)
