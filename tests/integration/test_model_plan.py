"""With a model configured, the model fills the plan schema and the Stock question box's own
sections compute it (agents/understanding/model_plan.py). The provider is the one thing that
cannot run here: a small local OpenAI-compatible server (tests/fixtures/openai_replay.py)
replays the plans a model would return, valid and invalid; litellm, the validation, the
executor and PostgreSQL are real. Truths are recomputed in SQL."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from pydantic import SecretStr

os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"

from agents.stock.question import answer_stock_question
from data_access.config import Settings
from data_access.postgres import fetch_all
from tests.fixtures.openai_replay import ReplayServer

pytestmark = pytest.mark.usefixtures("demo_data")
MODEL = "openai/gpt-4.1-mini"


def llm(settings: Settings, api_base: str) -> Settings:
    return settings.model_copy(update={"llm_model_stock": MODEL, "llm_api_base": api_base,
                                       "openai_api_key": SecretStr("replay-key")})  # fmt: skip


def avg_close(pool: Any, sid: str, n: int) -> float:
    rows = fetch_all("SELECT avg(close) AS v FROM (SELECT close FROM stock_prices WHERE "
                     "security_id = %s ORDER BY trade_date DESC LIMIT %s) t", (sid, n), pool)  # fmt: skip
    return float(rows[0]["v"])


def ask(reply: str, settings: Settings, pool: Any) -> tuple[Any, dict[str, Any]]:
    """The question of these tests with the model replying `reply`; the answer and the request."""
    with ReplayServer([reply]) as server:
        answer = answer_stock_question("LG화학 최근 15거래일 평균 종가는?", pool=pool,
                                       settings=llm(settings, server.api_base))  # fmt: skip
        return answer, server.requests[0]


def plan_step(answer: Any) -> Any:
    return next(s for s in answer.trace if s.name == "모델이 채운 계획")


def test_a_valid_plan_is_computed_by_the_screens_own_sections(
    settings: Settings, pg_pool: Any
) -> None:
    plan = {"subjects": ["LG화학"], "measures": ["close"], "window": {"n": 15, "unit": "session"},
            "statistic": "avg"}  # fmt: skip
    answer, sent = ask(json.dumps(plan), settings, pg_pool)
    assert answer is not None and answer.mode == "llm" and answer.model == MODEL
    assert f"{avg_close(pg_pool, 'KR:051910', 15):,.0f}원" in answer.answer
    step = plan_step(answer)
    assert step.status == "ok" and step.observation == "오프라인 읽기와 같음" and step.tokens > 0
    assert sent["response_format"] == {"type": "json_object"}  # structured output asked
    assert answer.trace[0].name == "이해한 질문"  # what was read comes first


def test_where_the_model_reads_otherwise_the_trace_says_so(
    settings: Settings, pg_pool: Any
) -> None:
    plan = {"subjects": ["LG화학"], "measures": ["close"], "window": {"n": 20, "unit": "session"},
            "statistic": "avg"}  # fmt: skip
    answer, _ = ask(json.dumps(plan), settings, pg_pool)
    assert answer is not None
    step = plan_step(answer)
    assert "구간 모델=(20, 'session') 오프라인=(15, 'session')" in str(step.observation)
    assert f"{avg_close(pg_pool, 'KR:051910', 20):,.0f}원" in answer.answer  # the model's plan ran


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ("평균 종가를 구하면 됩니다.", "JSON이 아닙니다"),
        (json.dumps({"subjects": ["LG화학"], "measures": ["sharpe"]}), "측정 'sharpe'"),
        (json.dumps({"subjects": ["테슬라모터스"], "measures": ["close"]}), "'테슬라모터스'"),
        (json.dumps({"subjects": ["LG화학"], "window": {"n": 0, "unit": "session"}}), "window.n"),
        (json.dumps({"subjects": ["LG화학"], "sql": "DROP TABLE stocks"}), "sql"),
    ],
)
def test_an_invalid_plan_is_refused_and_the_offline_reading_answers(
    settings: Settings, pg_pool: Any, reply: str, reason: str
) -> None:
    answer, _ = ask(reply, settings, pg_pool)
    assert answer is not None and answer.mode == "offline"
    step = plan_step(answer)
    assert step.status == "rejected" and reason in str(step.observation)
    assert f"{avg_close(pg_pool, 'KR:051910', 15):,.0f}원" in answer.answer


def plan_settings(settings: Settings, api_base: str) -> Settings:
    """LLM_MODEL_PLAN only: the ETF and Macro screens' plan comes from the model, their own
    executors (offline planner code, LangGraph nodes) run it."""
    return settings.model_copy(update={"llm_model_plan": MODEL, "llm_api_base": api_base,
                                       "openai_api_key": SecretStr("replay-key")})  # fmt: skip


def test_etf_screen_runs_the_models_plan_and_says_where_it_differs(
    settings: Settings, pg_pool: Any, graph_store: Any
) -> None:
    from agents.etf.service import answer_question as etf_answer

    plan = {"subjects": ["TIGER 200"], "measures": ["expense_ratio"]}
    with ReplayServer([json.dumps(plan)]) as server:
        answer = etf_answer("KODEX 200 총보수는?", settings=plan_settings(settings, server.api_base),
                            store=graph_store, pool=pg_pool)  # fmt: skip
    fee = fetch_all("SELECT expense_ratio FROM etfs WHERE code = '102110'", pool=pg_pool)[0]
    assert f"TIGER 200의 총보수는 연 {float(fee['expense_ratio']):.2f}%" in answer.answer
    assert answer.mode == "llm" and answer.model == MODEL
    step = plan_step(answer)
    assert "대상 모델=102110 오프라인=069500" in str(step.observation)
    assert answer.trace[0].name == "이해한 질문" and answer.status == "ok"  # the name stays read


def test_macro_screen_computes_the_models_window(
    settings: Settings, pg_pool: Any, graph_store: Any
) -> None:
    from agents.macro.service import answer_question as macro_answer

    plan = {"subjects": ["미국 10년 국채 금리"], "window": {"n": 3, "unit": "month"},
            "statistic": "avg"}  # fmt: skip
    with ReplayServer([json.dumps(plan)]) as server:
        answer = macro_answer("미국 10년물 금리 최근 6개월 평균은?",
                              settings=plan_settings(settings, server.api_base),
                              store=graph_store, pool=pg_pool)  # fmt: skip
    row = fetch_all(
        "SELECT avg(value) AS v FROM macro_observations WHERE series_code = 'DGS10' AND obs_date "
        "> (%(d)s::date - interval '3 months') AND obs_date <= %(d)s::date",
        {"d": answer.as_of_date}, pool=pg_pool,
    )[0]  # fmt: skip
    assert "최근 3개월" in answer.answer and f"평균: {float(row['v']):.2f}%" in answer.answer
    step = plan_step(answer)
    assert "구간 모델=(3, 'month') 오프라인=(6, 'month')" in str(step.observation)
    assert answer.mode == "llm" and answer.status == "ok"


def test_without_a_plan_model_the_etf_screen_asks_no_model(
    settings: Settings, pg_pool: Any, graph_store: Any
) -> None:
    from agents.etf.service import answer_question as etf_answer

    answer = etf_answer("KODEX 200 총보수는?", settings=settings, store=graph_store, pool=pg_pool)
    assert answer.mode == "offline" and not [
        s for s in answer.trace if s.name == "모델이 채운 계획"
    ]


def test_a_bar_the_model_reads_is_held_to_the_figure_and_a_bad_one_refused(
    settings: Settings, pg_pool: Any
) -> None:
    """'현대차 PBR이 1배보다 낮아?': the model's bar runs through the same verdict as the offline
    reading; a bar read otherwise is said in the trace; a comparator outside the schema is refused
    and the offline reading answers (replayed provider, real validation and PostgreSQL)."""
    pbr = float(fetch_all("SELECT pb FROM stock_fundamentals WHERE security_id = 'KR:005380' "
                          "ORDER BY as_of_date DESC LIMIT 1", None, pg_pool)[0]["pb"])  # fmt: skip
    question = "현대차 PBR이 1배보다 낮아?"

    def run(plan: dict[str, Any]) -> Any:
        with ReplayServer([json.dumps(plan)]) as server:
            return answer_stock_question(question, pool=pg_pool,
                                         settings=llm(settings, server.api_base))  # fmt: skip

    same = run({"subjects": ["현대차"], "measures": ["pbr"],
                "bar": {"comparator": "<", "value": 1, "unit": "배"}})  # fmt: skip
    assert same.mode == "llm" and plan_step(same).observation == "오프라인 읽기와 같음"
    assert same.answer.startswith(
        f"**{'예' if pbr < 1 else '아니요'} — 현대차 PBR {pbr:.2f}배: 1배"
    )
    other = run({"subjects": ["현대차"], "measures": ["pbr"],
                 "bar": {"comparator": "<", "value": 2, "unit": "배"}})  # fmt: skip
    assert "조건 모델=< 2 오프라인=< 1" in plan_step(other).observation
    assert other.answer.startswith(
        f"**{'예' if pbr < 2 else '아니요'} — 현대차 PBR {pbr:.2f}배: 2배"
    )
    bad = run({"subjects": ["현대차"], "measures": ["pbr"],
               "bar": {"comparator": "about", "value": 1}})  # fmt: skip
    assert plan_step(bad).status == "rejected" and bad.mode == "offline"
    assert bad.answer.startswith(f"**{'예' if pbr < 1 else '아니요'} — 현대차 PBR")
