"""The golden Macro suite in both modes: offline (rules/templates) and model mode with the
scripted model (tests/fixtures/macro_scripted_model.py: a fixed policy behind a local
OpenAI-compatible server, not a recording, not a real model), §6 KPIs side by side.

    .venv/bin/python bench/macro_modes.py [--suite macro] [--rounds 1]

Runs cases through the same adapter and grader as `python -m agents.eval`, without storing the
runs (evaluation traffic stays out of the run history). Latency figures include the local
server's round trips, not a provider's.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from pydantic import SecretStr

from agents.eval.cases import load_cases
from agents.eval.kpi import kpi_report
from agents.eval.models import CaseResult
from agents.eval.runner import make_env, run_case
from data_access.config import get_settings
from tests.fixtures.macro_scripted_model import MacroScriptedServer

MODEL = "openai/gpt-4.1-mini"


def run_mode(label: str, suite: str, rounds: int, api_base: str | None) -> list[CaseResult]:
    base = get_settings()
    update = {"llm_model": None, "llm_model_macro": None, "llm_model_router": None}
    if api_base:
        update = {"llm_model_macro": MODEL, "llm_api_base": api_base,
                  "openai_api_key": SecretStr("scripted"), "llm_num_retries": 0}  # fmt: skip
    env = make_env(base.model_copy(update=update))
    results: list[CaseResult] = []
    for _ in range(rounds):
        results += [run_case(case, env)[0] for case in load_cases([suite])]
    lat = sorted(r.latency_ms for r in results)
    p95 = lat[min(len(lat) - 1, int(len(lat) * 0.95))]
    print(f"[{label}] cases {len(results)} passed {sum(r.passed for r in results)} · latency "
          f"p50 {statistics.median(lat):.0f} ms p95 {p95:.0f} ms")  # fmt: skip
    for r in results:
        if not r.passed:
            print(f"  FAIL {r.case_id}: {r.failure_category} {[p.message for p in r.problems][:2]}")
    return results


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--suite", default="macro")
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    offline = kpi_report(run_mode("offline", args.suite, args.rounds, None))
    with MacroScriptedServer() as server:
        model = kpi_report(run_mode("model (scripted)", args.suite, args.rounds, server.api_base))
        print(f"[model (scripted)] model requests: {len(server.requests)}")
    values = {k.name: k for k in model.kpis}
    print(f"{'KPI':34s} {'offline':>10s} {'model':>10s}  target")
    for k in offline.kpis:
        m = values.get(k.name)
        fmt = lambda v: "—" if v is None else f"{v:.1f}"  # noqa: E731
        print(f"{k.name:34s} {fmt(k.value):>10s} {fmt(m.value if m else None):>10s}  "
              f"{k.comparator} {k.target} {k.unit}")  # fmt: skip


if __name__ == "__main__":
    main()
