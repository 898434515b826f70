"""The evaluation runner against the real stores (embedded PostgreSQL + FalkorDB, demo data),
offline planner (no model configured, so no LLM provider is involved): a few real golden cases
plus deliberately wrong ones written to a temporary golden file, which must fail with the right
category; records in PostgreSQL, report files, progress callbacks, rerun, weekly summary, CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agents.eval import store as eval_store
from agents.eval.__main__ import main
from agents.eval.cases import find_case, load_file
from agents.eval.facts import check_fact
from agents.eval.models import CaseResult, Fact, SuiteRun
from agents.eval.runner import rerun_case, run_suites
from agents.eval.weekly import weekly_summary
from data_access.catalog import current_as_of_date
from data_access.config import Settings
from data_access.contracts import AgentAnswer
from data_access.postgres import fetch_all, fetch_one

pytestmark = pytest.mark.usefixtures("demo_data")

LATEST_BASE_RATE = (
    "SELECT value {op} FROM macro_observations WHERE series_code = 'KR_BASE_RATE' "
    "AND obs_date <= %(as_of)s ORDER BY obs_date DESC LIMIT 1"
)
WRONG = {
    "suite": "macro",
    "description": "Deliberately wrong expectations: the runner must be able to fail.",
    "cases": [
        {
            "id": "wrong-routing",
            "question": "한국 기준금리 최근 추이는?",
            "expected_tool_mode": "parallel",
            "expected_target_agents": ["equity"],
            "facts": [{"kind": "sql_value", "sql": LATEST_BASE_RATE.format(op=""),
                       "format": "{:,.2f}"}],
        },
        {
            "id": "wrong-fact",
            "question": "한국 기준금리 최근 추이는?",
            "expected_tool_mode": "single",
            "expected_target_agents": ["macro"],
            "require_structured_citation": True,
            "facts": [{"kind": "sql_value", "sql": LATEST_BASE_RATE.format(op="+ 100"),
                       "format": "{:,.2f}"}],
        },
    ],
}  # fmt: skip
# A case whose run raises (an unknown guard path): recorded as `error`, the run goes on.
BROKEN_GUARD = {
    "suite": "guard",
    "cases": [{"id": "guard-bad-path", "question": "?", "inputs": {"path": "nowhere"}}],
}


@pytest.fixture(scope="module")
def golden_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("golden")
    (directory / "macro.json").write_text(json.dumps(WRONG, ensure_ascii=False), encoding="utf-8")
    (directory / "guard.json").write_text(json.dumps(BROKEN_GUARD), encoding="utf-8")
    return directory


@pytest.fixture(scope="module")
def evaluated(offline: Settings, pg_pool: Any, graph_store: Any,
              golden_dir: Path) -> tuple[SuiteRun, list[tuple[int, int, str]]]:  # fmt: skip
    """One small run: two real golden cases, two wrong ones, one that raises, one guard path."""
    cases = [find_case("macro-single-kr-cpi"), find_case("contract-damages-cap"),
             *load_file(golden_dir / "macro.json"), *load_file(golden_dir / "guard.json"),
             find_case("guard-cypher-graph-store")]  # fmt: skip
    seen: list[tuple[int, int, str]] = []
    run = run_suites(pool=pg_pool, store=graph_store, settings=offline, cases=cases,
                     progress=lambda done, total, r: seen.append((done, total, r.case_id)))  # fmt: skip
    return run, seen


def by_id(run: SuiteRun) -> dict[str, CaseResult]:
    return {r.case_id: r for r in run.results}


def test_real_cases_pass_with_the_recorded_fields(evaluated: tuple[SuiteRun, Any]) -> None:
    run, _ = evaluated
    cpi = by_id(run)["macro-single-kr-cpi"]
    assert cpi.passed, cpi.problems
    assert (cpi.tool_mode, cpi.target_agents, cpi.mode) == ("single", ["macro"], "offline")
    assert cpi.structured_citation_count >= 1 and cpi.freshness_status == "healthy"
    assert cpi.latency_ms > 0 and all(f.passed for f in cpi.facts) and cpi.facts
    contract = by_id(run)["contract-damages-cap"]
    assert contract.passed and contract.citation_count >= 1, contract.problems
    guard = by_id(run)["guard-cypher-graph-store"]
    assert guard.passed and guard.guard is not None
    assert guard.guard.blocked == guard.guard.attempted >= 60 and guard.guard.store_unchanged


def test_wrong_expectations_fail_with_the_right_category(evaluated: tuple[SuiteRun, Any],
                                                        pg_pool: Any) -> None:  # fmt: skip
    run, _ = evaluated
    routing = by_id(run)["wrong-routing"]
    assert not routing.passed and routing.failure_category == "routing_mismatch"
    assert {p.category for p in routing.problems} == {"routing_mismatch"}
    fact = by_id(run)["wrong-fact"]
    assert not fact.passed and fact.failure_category == "wrong_fact"
    latest = fetch_one(LATEST_BASE_RATE.format(op="AS v").replace("%(as_of)s", "%s"),
                       (current_as_of_date(pg_pool),), pg_pool)  # fmt: skip
    assert latest is not None
    wanted = f"{float(latest['v']) + 100:,.2f}"
    assert fact.facts[0].expected == [wanted] and wanted in fact.problems[0].message


def test_a_case_that_raises_is_an_error_and_the_run_goes_on(
    evaluated: tuple[SuiteRun, Any],
) -> None:
    run, seen = evaluated
    broken = by_id(run)["guard-bad-path"]
    assert broken.failure_category == "error" and "ToolInputError" in (broken.error or "")
    assert "nowhere" in (broken.error or "") and broken.mode is None
    assert [s[0] for s in seen] == list(range(1, 7)) and {s[1] for s in seen} == {6}
    assert seen[-1][2] == "guard-cypher-graph-store"  # cases after the error still ran
    assert run.status == "finished" and run.passed_count == 3 and run.pass_rate == 50.0


def test_kpis_of_the_run(evaluated: tuple[SuiteRun, Any]) -> None:
    run, _ = evaluated
    assert run.kpis is not None
    kpis = {k.name: k for k in run.kpis.kpis}
    assert kpis["routing_accuracy"].denominator == 3 and kpis["routing_accuracy"].numerator == 2
    assert kpis["forbidden_cypher_block_rate"].value == 100.0
    assert kpis["p95_latency_single"].value is not None
    assert kpis["p95_latency_multi"].value is None  # no multi-domain turn in this run
    assert run.kpis.failure_categories == {"routing_mismatch": 1, "wrong_fact": 1, "error": 1}


def test_records_in_postgresql(evaluated: tuple[SuiteRun, Any], pg_pool: Any) -> None:
    run, _ = evaluated
    row = fetch_one("SELECT status, case_count, passed_count, pass_rate, kpis FROM eval_runs"
                    " WHERE run_id = %s", (run.run_id,), pg_pool)  # fmt: skip
    assert row is not None and row["status"] == "finished"
    assert (row["case_count"], row["passed_count"], row["pass_rate"]) == (6, 3, 50.0)
    cases = fetch_all("SELECT case_id, passed, failure_category, tool_mode, target_agents,"
                      " structured_citation_count, freshness_status, latency_ms FROM"
                      " eval_case_results WHERE run_id = %s", (run.run_id,), pg_pool)  # fmt: skip
    assert len(cases) == 6
    cpi = next(c for c in cases if c["case_id"] == "macro-single-kr-cpi")
    assert cpi["tool_mode"] == "single" and cpi["target_agents"] == ["macro"]
    failures = fetch_all("SELECT case_id, category, input, route, queries, evidence, answer"
                         " FROM eval_failure_reports WHERE run_id = %s ORDER BY case_id",
                         (run.run_id,), pg_pool)  # fmt: skip
    assert [f["case_id"] for f in failures] == ["guard-bad-path", "wrong-fact", "wrong-routing"]
    routing = failures[2]
    assert routing["input"]["question"] == "한국 기준금리 최근 추이는?"
    assert routing["route"]["tool_mode"] == "single"
    assert any("macro_series_window" in q["name"] and q["code"] for q in routing["queries"])
    assert routing["evidence"]["structured_citations"] and routing["answer"]


def test_reports_as_files(evaluated: tuple[SuiteRun, Any]) -> None:
    run, _ = evaluated
    directory = Path(run.report_dir or "")
    stored = SuiteRun.model_validate_json((directory / "report.json").read_text(encoding="utf-8"))
    assert stored.run_id == run.run_id and len(stored.results) == 6 and stored.kpis
    markdown = (directory / "report.md").read_text(encoding="utf-8")
    assert "라우팅 정확도(Golden set)" in markdown and "wrong-routing" in markdown
    failure = json.loads((directory / "failures" / "wrong-fact.json").read_text(encoding="utf-8"))
    assert failure["category"] == "wrong_fact" and "rerun wrong-fact" in failure["reproduce"]
    assert failure["input"]["fact_results"][0]["passed"] is False
    assert sorted(p.name for p in (directory / "failures").iterdir()) == [
        "guard-bad-path.json", "wrong-fact.json", "wrong-routing.json"]  # fmt: skip


def test_readers_for_the_ui(evaluated: tuple[SuiteRun, Any], pg_pool: Any) -> None:
    run, _ = evaluated
    loaded = eval_store.get_run(run.run_id, pg_pool)
    assert loaded is not None and loaded.kpis is not None
    assert [r.case_id for r in loaded.results] == [r.case_id for r in run.results]
    assert run.run_id in [r.run_id for r in eval_store.list_runs(50, pg_pool)]
    failures = eval_store.latest_failures(50, pg_pool)
    assert {"wrong-fact", "wrong-routing"} <= {
        f.case_id for f in failures if f.run_id == run.run_id
    }
    report = eval_store.failure_report(run.run_id, "wrong-routing", pg_pool)
    assert report is not None and report.route["target_agents"] == ["macro"]
    history = eval_store.kpi_history(200, pg_pool)
    point = next(p for p in history if p.run_id == run.run_id)
    assert point.kpis["routing_accuracy"] == pytest.approx(66.67)
    assert eval_store.get_run("no-such-run", pg_pool) is None


def test_rerun_one_case_is_recorded_apart(offline: Settings, pg_pool: Any, graph_store: Any,
                                          golden_dir: Path) -> None:  # fmt: skip
    result = rerun_case("wrong-fact", pool=pg_pool, store=graph_store, settings=offline,
                        golden_dir=golden_dir)  # fmt: skip
    assert result.failure_category == "wrong_fact" and result.run_id
    rerun = eval_store.get_run(result.run_id, pg_pool)
    assert rerun is not None and rerun.kind == "rerun" and rerun.case_count == 1
    assert result.run_id not in [p.run_id for p in eval_store.kpi_history(200, pg_pool)]


def test_weekly_summary_counts_the_run(evaluated: tuple[SuiteRun, Any], pg_pool: Any) -> None:
    run, _ = evaluated
    summary = weekly_summary(days=7, pool=pg_pool)
    assert summary.run_count >= 1 and summary.routing_mismatch_count >= 1
    assert dict(summary.top_failure_categories).get("routing_mismatch", 0) >= 1
    assert summary.status == "warning" and summary.top_failed_cases
    stored = fetch_one("SELECT status, run_count, details FROM eval_weekly_reports"
                       " ORDER BY report_id DESC LIMIT 1", pool=pg_pool)  # fmt: skip
    assert stored is not None and stored["run_count"] == summary.run_count


def test_sql_value_facts_against_the_database(pg_pool: Any) -> None:
    a = AgentAnswer(answer="배당 ETF: KODEX 배당성장, TIGER 배당성장", mode="offline")
    every = Fact(kind="sql_value", all_rows=True,
                 sql="SELECT e.name FROM etf_tags t JOIN etfs e ON e.code = t.etf_code "
                     "WHERE t.tag = '배당' ORDER BY e.name")  # fmt: skip
    result = check_fact(every, a, pool=pg_pool, as_of="2026-11-20")
    assert not result.passed and len(result.expected) >= 3  # only two of the names are there
    write = Fact(kind="sql_value", sql="DELETE FROM etfs RETURNING name")
    refused = check_fact(write, a, pool=pg_pool, as_of=None)
    assert not refused.passed and refused.error  # the read-only guard, not a wrong answer
    empty = Fact(kind="sql_value", sql="SELECT name FROM etfs WHERE code = 'nope'")
    assert "no row" in (check_fact(empty, a, pool=pg_pool, as_of=None).error or "")


def test_cli_run_json_and_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--suite", "guard", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    kpis = {k["name"]: k for k in out["kpis"]["kpis"]}
    assert kpis["forbidden_cypher_block_rate"]["value"] == 100.0
    assert kpis["forbidden_sql_block_rate"]["value"] == 100.0
    assert len(out["results"]) == 4 and all(r["passed"] for r in out["results"])
    assert main(["report", "--run", out["run_id"]]) == 0
    assert "금지 Cypher 차단율" in capsys.readouterr().out
    assert main(["report", "--run", "no-such-run"]) == 2
    assert main(["rerun", "no-such-case"]) == 1
    assert "골든 케이스를 찾을 수 없습니다" in capsys.readouterr().err
