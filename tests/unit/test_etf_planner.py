"""The offline planner without stores: entity/intent recognition, the code it writes, templates.

The lexicon here is a small in-memory one; the integration tests run the planner's code against
the real tools and data.
"""

from __future__ import annotations

import ast
import json

import pytest
from smolagents.default_tools import FinalAnswerTool
from smolagents.local_python_executor import LocalPythonExecutor
from smolagents.models import ChatMessage, MessageRole

from agents.etf import answer_templates as tpl
from agents.etf.intents import detect_plan
from agents.etf.planner import OfflinePlanner
from agents.etf.prompts import HistoryMessage, build_task
from agents.etf.tools import TOOL_CLASSES
from agents.understanding.lexicon import Lexicon

TOOL_NAMES = {cls.name for cls in TOOL_CLASSES}


@pytest.fixture
def lexicon() -> Lexicon:
    return Lexicon(
        etfs={"069500": "KODEX 200", "102110": "TIGER 200", "091160": "KODEX 반도체",
              "069660": "KODEX 200TR", "229200": "KODEX 코스닥150"},
        stocks={"005930": ("삼성전자", "Samsung Electronics"), "000660": ("SK하이닉스", "SK hynix"),
                "030200": ("KT", "KT")},
        tags=["반도체", "배당", "금", "금융", "IT"],
        managers={"삼성자산운용": "Samsung Asset Management",
                  "미래에셋자산운용": "Mirae Asset Global Investments"},
        brands={"KODEX": "삼성자산운용", "TIGER": "미래에셋자산운용"},
    )  # fmt: skip


@pytest.mark.parametrize(
    ("question", "intent", "names"),
    [
        ("삼성전자를 가장 많이 보유한 ETF는?", "etf_set", ["삼성전자"]),
        ("KODEX 200과 TIGER 200 비교해줘", "compare", ["KODEX 200", "TIGER 200"]),
        ("반도체 관련 ETF 보수율 낮은 순으로", "etf_set", ["반도체"]),
        ("Which ETFs hold the most Samsung Electronics?", "etf_set", ["삼성전자"]),
        ("Compare KODEX 200 and TIGER 200", "compare", ["KODEX 200", "TIGER 200"]),
        ("semiconductor ETFs with the lowest fees", "etf_set", ["반도체"]),
        ("반도체 ETF", "etf_set", ["반도체"]),
        ("KODEX200 3개월 가격 추이", "etf_prices", ["KODEX 200"]),
        ("KODEX 200TR 정보", "etf_info", ["KODEX 200TR"]),
        (
            "삼성전자와 SK하이닉스를 동시에 보유한 ETF",
            "etf_set",
            ["삼성전자", "SK하이닉스"],
        ),
        ("미래에셋 ETF 목록", "etf_set", ["미래에셋자산운용"]),
        ("KODEX ETF 목록 보여줘", "etf_set", ["삼성자산운용"]),
        ("태그 목록 알려줘", "list_tags", []),
        ("069500 정보", "etf_info", ["KODEX 200"]),
        ("KODEX 반도체 1주 보유종목 변화", "holdings_changes", ["KODEX 반도체"]),
        ("KODEX 200과 비슷한 ETF", "similar", ["KODEX 200"]),
        ("삼성전자 1개월 주가", "stock_prices", ["삼성전자"]),
        ("지금 날씨 어때?", "declined", []),
        ("내일 삼성전자 주가 맞춰줘", "declined", ["삼성전자"]),
        ("KODEX 200 추적오차", "declined", ["KODEX 200"]),
        ("KODEX 200 괴리율", "etf_measure", ["KODEX 200"]),
        ("ETF 총보수란?", "define", []),
        ("asdf qwer", "unsupported", []),
    ],
)
def test_detect_plan(lexicon: Lexicon, question: str, intent: str, names: list[str]) -> None:
    plan = detect_plan(question, lexicon)
    assert plan.intent == intent
    assert [m.name for m in plan.etfs + plan.stocks + plan.tags + plan.managers] == names
    assert plan.lang == ("ko" if any("가" <= ch <= "힣" for ch in question) else "en")


@pytest.mark.parametrize(
    ("question", "lang"),
    [("What is the expense ratio of KODEX 반도체?", "en"), ("KODEX 반도체 총보수는?", "ko"),
     ("반도체 ETF", "ko"), ("삼성전자", "ko"), ("Compare KODEX 200 and TIGER 200", "en")],
)  # fmt: skip
def test_language_is_the_sentence_not_the_names(lexicon: Lexicon, question: str,
                                                lang: str) -> None:  # fmt: skip
    assert detect_plan(question, lexicon).lang == lang


@pytest.mark.parametrize(
    ("text", "period"),
    [("3개월 추이", "3m"), ("최근 1주", "1w"), ("한 달", "1m"), ("1년 수익률", "1y"),
     ("over 6 months", "6m"), ("전일 대비", "1d"), ("추이", None)],
)  # fmt: skip
def test_period_of(lexicon: Lexicon, text: str, period: str | None) -> None:
    assert detect_plan("KODEX 200 " + text, lexicon).period == period


def _ask(planner: OfflinePlanner, question: str, *steps: tuple[str, str]) -> str:
    messages = [
        ChatMessage(role=MessageRole.SYSTEM, content="system"),
        ChatMessage(role=MessageRole.USER, content="New task:\n" + build_task(question)),
    ]
    for action, observation in steps:
        messages.append(ChatMessage(role=MessageRole.ASSISTANT, content=action))
        messages.append(ChatMessage(role=MessageRole.TOOL_RESPONSE, content=observation))
    return planner.respond(messages)  # type: ignore[arg-type]


def _code(action: str) -> str:
    assert action.startswith("Thought: ")
    return action.split("<code>\n", 1)[1].rsplit("\n</code>", 1)[0]


def _called_tools(code: str) -> set[str]:
    tree = ast.parse(code)
    calls = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call)
             and isinstance(n.func, ast.Name)}  # fmt: skip
    return calls & TOOL_NAMES


def test_compare_searches_then_compares_with_the_found_codes(lexicon: Lexicon) -> None:
    planner = OfflinePlanner(lexicon)
    step1 = _ask(planner, "KODEX 200과 TIGER 200 비교해줘")
    assert _called_tools(_code(step1)) == {"etf_search"}
    found = {"etf:069500": [{"code": "069500", "name": "KODEX 200"}],
             "etf:102110": [{"code": "102110", "name": "TIGER 200"}]}  # fmt: skip
    observation = "Observation:\nExecution logs:\n" + json.dumps(found, ensure_ascii=False)
    step2 = _code(_ask(planner, "KODEX 200과 TIGER 200 비교해줘", (step1, observation)))
    assert "compare_etfs(etf_codes='069500,102110')" in step2
    assert "final_answer(" in step2


def test_unknown_name_answers_with_suggestions(lexicon: Lexicon) -> None:
    planner = OfflinePlanner(lexicon)
    step1 = _ask(planner, "KODEX 반도체 정보")
    error = {"status": "error", "error": "없음", "retry_hint": "…",
             "suggestions": [{"code": "091230", "name": "TIGER 반도체"}]}  # fmt: skip
    observation = "Observation:\nExecution logs:\n" + json.dumps({"etf:091160": error})
    step2 = _code(_ask(planner, "KODEX 반도체 정보", (step1, observation)))
    assert _called_tools(step2) == set()
    assert "TIGER 반도체(091230)" in step2


def test_a_search_that_failed_is_not_reported_as_an_unknown_name(lexicon: Lexicon) -> None:
    planner = OfflinePlanner(lexicon)
    step1 = _ask(planner, "KODEX 200 정보")
    error = {"status": "error", "retry_hint": "잠시 후 다시 시도하세요.",
             "error": "저장소에 연결할 수 없습니다: FalkorDB at redis://127.0.0.1:1 is not reachable"}  # fmt: skip
    observation = "Observation:\nExecution logs:\n" + json.dumps({"etf:069500": error})
    step2 = _code(_ask(planner, "KODEX 200 정보", (step1, observation)))
    assert _called_tools(step2) == set()
    assert "조회에 실패했습니다: 저장소에 연결할 수 없습니다" in step2
    assert "찾지 못했습니다" not in step2


def test_unsupported_question_says_what_it_can_answer(lexicon: Lexicon) -> None:
    code = _code(_ask(OfflinePlanner(lexicon), "오늘 점심 메뉴 추천해줘"))
    assert code.startswith("final_answer(") and "ETF 데이터와 관계없는 질문" in code
    assert "대신 답할 수 있는 질문 예" in code
    code = _code(_ask(OfflinePlanner(lexicon), "어쩌고 저쩌고 얘기해봐"))
    assert code.startswith("final_answer(") and "오프라인 플래너는 이 질문을 이해하지" in code


def test_failed_step_ends_the_run_with_the_error(lexicon: Lexicon) -> None:
    planner = OfflinePlanner(lexicon)
    step1 = _ask(planner, "삼성전자 1개월 주가")
    code = _code(_ask(planner, "삼성전자 1개월 주가", (step1, "Error:\nboom happened\nmore")))
    assert code.startswith("final_answer(") and "boom happened" in code


def test_seed_top_holders_cypher_uses_the_resolved_code(lexicon: Lexicon) -> None:
    planner = OfflinePlanner(lexicon)
    q = "삼성전자를 가장 많이 보유한 ETF는?"
    step1 = _ask(planner, q)
    assert _called_tools(_code(step1)) == {"stock_search"}
    obs = "Execution logs:\n" + json.dumps(
        {"stock:005930": [{"code": "005930", "name": "삼성전자"}]}
    )
    step2 = _code(_ask(planner, q, (step1, obs)))
    assert _called_tools(step2) == {"graph_query"}
    assert "(:Stock {code: '005930'})" in step2 and "max(h.date) AS latest" in step2


def test_generated_code_runs_in_the_sandbox_with_inlined_renderers(lexicon: Lexicon) -> None:
    """The renderer sources really execute in smolagents' interpreter (no imports, builtins)."""
    planner = OfflinePlanner(lexicon)
    step1 = _ask(planner, "반도체 관련 ETF 보수율 낮은 순으로")
    obs = "Execution logs:\n" + json.dumps({"tag:반도체": [{"name": "반도체", "count": 2}]})
    code = _code(_ask(planner, "반도체 관련 ETF 보수율 낮은 순으로", (step1, obs)))
    rows = [{"code": "A00001", "name": "싼 ETF", "expense_ratio": 0.05},
            {"code": "A00002", "name": "비싼 ETF", "expense_ratio": 0.45}]  # fmt: skip
    executor = LocalPythonExecutor(["json"])
    # A recording stand-in for graph_query: this test is about the sandbox, not the data.
    seen: list[str] = []

    def graph_query(cypher: str) -> str:
        seen.append(cypher)
        return json.dumps(rows)

    executor.send_tools({"graph_query": graph_query, "final_answer": FinalAnswerTool()})
    output = executor(code)
    assert output.is_final_answer
    assert "'반도체' 태그 ETF (총보수 낮은 순, 2개)" in output.output
    assert output.output.index("싼 ETF") < output.output.index("비싼 ETF")
    assert "Tag {name: '반도체'}" in seen[0]


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        ("render_holdings_aggregate(holdings, {'lang': 'ko', 'etf': 'TIGER 200', "
         "'aggregate': 'list', 'top_n': None, 'empty': '-', 'condition': '비중 5% 초과'})",
         ["TIGER 200 보유종목 중 비중 5% 초과 (2개)", "1. 삼성전자 (005930): 26.30%"]),
        ("render_holdings_aggregate([], {'lang': 'ko', 'etf': 'TIGER 200', 'aggregate': 'count', "
         "'top_n': None, 'empty': '-', 'condition': '비중 50% 초과'})",
         ["비중 50% 초과 종목은 없습니다"]),
        ("render_measure(result, {'lang': 'ko', 'name': 'KODEX 200', 'measure': 'close', "
         "'days': 2, 'empty': '-', 'period_ko': '', 'period_en': '', 'note': ''})",
         ["KODEX 200 최근 2거래일 종가:", "- 2026-01-03: 100원", "- 2026-01-02: 110원"]),
    ],
)  # fmt: skip
def test_frame_renderers_run_in_the_sandbox(call: str, expected: list[str]) -> None:
    """Renderers with helpers of their own (inlined transitively) run in smolagents' interpreter."""
    daily = [{"date": "2026-01-03", "close": 100.0}, {"date": "2026-01-02", "close": 110.0},
             {"date": "2026-01-01", "close": 90.0}]  # fmt: skip
    holdings = [{"code": "005930", "name": "삼성전자", "weight": 26.3, "date": "2026-11-20"},
                {"code": "000660", "name": "SK하이닉스", "weight": 10.8, "date": "2026-11-20"}]  # fmt: skip
    code = tpl.inline(f"result = {{'daily': {daily!r}, 'summary': {{'data_count': 3}}}}\n"
                      f"holdings = {holdings!r}\n"
                      f"final_answer({call})")  # fmt: skip
    executor = LocalPythonExecutor(["json"])
    executor.send_tools({"final_answer": FinalAnswerTool()})
    output = executor(code)
    assert output.is_final_answer
    for text in expected:
        assert text in output.output


def test_year_to_date_is_a_window_of_its_own(lexicon: Lexicon) -> None:
    """'연초 이후' reaches the price tools as 'ytd' (was widened to a year and said so)."""
    plan = detect_plan("KODEX 200 연초 이후 수익률", lexicon)
    assert plan.period == "ytd" and not plan.unanswered


def test_render_compare_table_and_notes() -> None:
    rows = [
        {"code": "069500", "name": "KODEX 200", "expense_ratio": 0.15, "company": "삼성자산운용",
         "tags": ["시장대표"], "top_holdings": [{"stock_name": "삼성전자"}], "return_1m": 1.5,
         "latest_net_assets": 6_200_000_000_000},
        {"code": "102110", "name": "TIGER 200", "expense_ratio": 0.05, "company": "미래에셋자산운용",
         "tags": [], "top_holdings": [], "return_1m": 2.25, "latest_net_assets": None},
    ]  # fmt: skip
    text = tpl.render_compare(rows, "", "ko")
    assert "| 총보수 | 0.15% | 0.05% |" in text
    assert "| 순자산 | 6조 2,000억 원 | - |" in text
    assert "보수율이 가장 낮은 ETF는 TIGER 200(0.05%)" in text
    assert "TIGER 200이 +2.25%" in text
    assert "Lowest expense ratio: TIGER 200" in tpl.render_compare(rows, "", "en")


def test_render_prices_uses_the_summary() -> None:
    summary = {"period": "1m", "data_count": 22, "start_date": "2026-10-20",
               "end_date": "2026-11-20", "start_close": 35000, "end_close": 36500,
               "high": 37000, "low": 34500, "change_rate": 4.29, "avg_volume": 1234567,
               "latest_net_assets": 1_450_000_000_000}  # fmt: skip
    text = tpl.render_prices({"summary": summary, "daily": []}, "KODEX 200", "ko")
    assert "35,000 → 36,500 (+4.29%)" in text and "1조 4,500억 원" in text


def test_history_keeps_the_last_ten_messages() -> None:
    history = [HistoryMessage("user" if i % 2 == 0 else "assistant", f"m{i}") for i in range(14)]
    task = build_task("지금 질문", history)
    assert "어시스턴트: m3\n" not in task and "사용자: m4\n" in task and "m13" in task
    assert task.endswith("현재 질문: 지금 질문")
