"""get_market_movers and the editor's-list evaluation on the real PostgreSQL demo data.

The editor's list (agents.eval.opening_editor) is one SQL statement that shares no code with
the clusters; these tests check the two against each other and against the raw tables.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from agents.eval.cases import load_cases
from agents.eval.kpi import kpi_report
from agents.eval.opening_editor import editor_top
from agents.eval.runner import make_env, run_case
from agents.evidence import EvidenceCollector
from agents.opening.files import RunCache
from agents.opening.graph import prefetch_to_cache
from agents.opening.tools import ToolContext, make_tools
from data_access.postgres import fetch_one

pytestmark = pytest.mark.usefixtures("demo_data")

DAY = date(2026, 11, 20)


def _movers(day: date, pool: Any, tmp_path: Path, **args: Any) -> tuple[Any, EvidenceCollector]:
    cache, collector = RunCache(tmp_path / day.isoformat()), EvidenceCollector()
    prefetch_to_cache(day, cache, pool)
    tools = {t.name: t for t in make_tools(ToolContext(cache, day, pool, collector))}
    return json.loads(tools["get_market_movers"].invoke(args)), collector


def test_the_top_story_is_the_earnings_miss_with_figures_from_the_tables(
    pg_pool: Any, tmp_path: Path
) -> None:
    out, collector = _movers(DAY, pg_pool, tmp_path)
    top = out["clusters"][0]
    assert top["kind"] == "earnings" and top["subject"] == "엔비디아"
    assert "—" not in top["headline"] and "예상치 밑돌아" in top["headline"]
    row = fetch_one("SELECT eps_estimate, eps_actual FROM earnings_events"
                    " WHERE security_id = 'US:NVDA' AND period = '2026Q3'", None, pg_pool)  # fmt: skip
    assert row is not None
    assert top["earnings"]["eps_actual"] == float(row["eps_actual"])
    assert top["earnings"]["eps_estimate"] == float(row["eps_estimate"])
    rate = fetch_one("SELECT change_rate FROM stock_prices WHERE security_id = 'US:NVDA'"
                     " AND trade_date = %s", (DAY,), pg_pool)  # fmt: skip
    assert rate is not None
    assert top["members"][0]["change_pct"] == pytest.approx(float(rate["change_rate"]), abs=0.01)
    scores = [c["score"] for c in out["clusters"] if c["kind"] not in ("policy", "macro")]
    assert len(scores) >= 3 and scores == sorted(scores, reverse=True)
    assert {c.dataset_code for c in collector.citations} >= {"EARNINGS_EVENTS", "KR_USDKRW"}


@pytest.mark.parametrize("day", [date(2026, 11, 20), date(2026, 10, 6)])
def test_clusters_and_the_independent_sql_agree_on_the_biggest_moves(
    day: date, pg_pool: Any, tmp_path: Path
) -> None:
    out, _ = _movers(day, pg_pool, tmp_path, limit=15)
    named = {m["security_id"]: m for c in out["clusters"] for m in c["members"]}
    for item in editor_top(day, pg_pool):
        assert item.security_id in named, item
        assert named[item.security_id]["session"] == item.session
        # won impact of the same move, computed two ways (closes vs the stored change_rate)
        assert named[item.security_id]["impact_krw"] == pytest.approx(item.impact_krw, rel=1e-3)


@pytest.mark.parametrize("limit", [0, -3, 999])
def test_a_bad_limit_is_an_error_the_model_can_act_on(
    limit: int, pg_pool: Any, tmp_path: Path
) -> None:
    out, collector = _movers(DAY, pg_pool, tmp_path, limit=limit)
    assert out["status"] == "error" and "limit은 1~15" in out["error"] and out["retry_hint"]
    assert collector.calls[-1].status == "error"


def test_an_eval_case_records_the_editor_coverage_and_the_kpi_counts_it(
    settings: Any, pg_pool: Any, graph_store: Any
) -> None:
    env = make_env(settings, pg_pool, graph_store)
    case = next(c for c in load_cases(["opening"]) if c.question == DAY.isoformat())
    result, answer = run_case(case, env)
    assert answer is not None and result.coverage is not None
    assert [i.name for i in result.coverage.top] == ["NVIDIA", "Microsoft", "Apple"]
    assert result.coverage.covered == 3 and result.passed, result.problems
    report = kpi_report([result])
    assert report.kpi("opening_editor_coverage_tune").value == 100.0
    assert report.kpi("opening_concrete_themes").value == 100.0 and not result.coverage.vague_themes
    assert report.kpi("opening_editor_coverage").value is None  # no held-out day in this run
    # the same case with themes that miss the editor's list fails as a wrong fact
    answer.payload["theme"] = [{"headline": "뉴욕증시 — 오라클 약세", "description": "",
                                "related_news": []}]  # fmt: skip
    from agents.eval.runner import add_editor_coverage

    add_editor_coverage(case, answer, result, pg_pool)
    assert result.coverage.covered == 0 and not result.passed
    assert result.failure_category == "wrong_fact" and "NVIDIA" in result.problems[-1].message
    assert result.coverage.vague_themes == ["뉴욕증시 — 오라클 약세"]
    assert kpi_report([result]).kpi("opening_concrete_themes").value == 0.0
