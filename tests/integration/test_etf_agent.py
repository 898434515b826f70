"""The ETF CodeAgent end to end: offline planner turns whose answers carry facts computed
independently from PostgreSQL, the sandbox refusing hostile generated code, the three-level
fallback, streaming steps, and the run store round trip."""

from __future__ import annotations

import re
from typing import Any

import pytest
from dateutil.relativedelta import relativedelta
from smolagents.models import ChatMessage, MessageRole, Model

from agents.etf.agent import MAX_STEPS, build_agent
from agents.etf.service import APOLOGY, StepEvent, answer_question, stream_answer
from agents.etf.tools import ToolContext, make_tools
from agents.evidence import EvidenceCollector
from agents.understanding.history import history_after
from data_access import runs
from data_access.config import Settings
from data_access.contracts import AgentAnswer
from data_access.postgres import fetch_all

pytestmark = pytest.mark.usefixtures("demo_data")


@pytest.fixture(scope="module")
def ask(pg_pool: Any, graph_store: Any, settings: Settings) -> Any:
    offline = settings.model_copy(update={"llm_model": None, "llm_model_etf": None})

    def run(question: str) -> AgentAnswer:
        return answer_question(question, settings=offline, store=graph_store, pool=pg_pool)

    return run


@pytest.fixture(scope="module")
def ask_turns(pg_pool: Any, graph_store: Any, settings: Settings) -> Any:
    """A conversation: each question with the history of the ones before it."""
    offline = settings.model_copy(update={"llm_model": None, "llm_model_etf": None})

    def run(questions: list[str]) -> list[AgentAnswer]:
        history: list[Any] = []
        answers = []
        for q in questions:
            a = answer_question(q, history, settings=offline, store=graph_store, pool=pg_pool)
            history = history_after(history, q, a)
            answers.append(a)
        return answers

    return run


def sql(pool: Any, query: str, *params: Any) -> list[dict[str, Any]]:
    return fetch_all(query, params or None, pool)


def tools_called(answer: AgentAnswer) -> list[str]:
    return [t.name for t in answer.trace if t.kind == "tool"]


def test_seed_example_1_top_holders(ask: Any, pg_pool: Any) -> None:
    answer = ask("삼성전자를 가장 많이 보유한 ETF는?")
    latest = sql(
        pg_pool,
        "SELECT DISTINCT ON (h.etf_code) h.etf_code, e.name, h.weight"
        " FROM etf_holdings h JOIN etfs e ON e.code = h.etf_code"
        " WHERE h.security_id = 'KR:005930' ORDER BY h.etf_code, h.as_of_date DESC",
    )
    top = max(latest, key=lambda r: float(r["weight"]))
    first_line = answer.answer.splitlines()[1]
    assert first_line == f"1. {top['name']} ({top['etf_code']}): 비중 {float(top['weight']):.2f}%"
    assert tools_called(answer) == ["stock_search", "graph_query"]
    assert answer.mode == "offline" and answer.status == "ok" and answer.cost_usd == 0


def test_seed_example_2_compare(ask: Any, pg_pool: Any) -> None:
    answer = ask("KODEX 200과 TIGER 200 비교해줘")
    ratios = {
        r["code"]: float(r["expense_ratio"])
        for r in sql(
            pg_pool, "SELECT code, expense_ratio FROM etfs WHERE code IN ('069500', '102110')"
        )
    }
    assert f"| 총보수 | {ratios['069500']}% | {ratios['102110']}% |" in answer.answer
    assert tools_called(answer) == ["etf_search", "etf_search", "compare_etfs"]
    assert set(answer.payload["compare_prices"]) == {"069500", "102110"}


def test_seed_example_3_tag_by_expense_ratio(ask: Any, pg_pool: Any) -> None:
    answer = ask("반도체 관련 ETF 보수율 낮은 순으로")
    rows = sql(pg_pool, "SELECT e.code, e.expense_ratio FROM etfs e"
               " JOIN etf_tags t ON t.etf_code = e.code WHERE t.tag = '반도체'")  # fmt: skip
    listed = re.findall(r"^\d+\. .+ \((\w{6})\): 총보수 ([0-9.]+)%$", answer.answer, re.MULTILINE)
    assert {code for code, _ in listed} == {r["code"] for r in rows}
    shown = [float(ratio) for _, ratio in listed]
    assert shown == sorted(shown)
    assert shown == sorted(float(r["expense_ratio"]) for r in rows)
    assert tools_called(answer) == ["list_tags", "graph_query"]


@pytest.mark.parametrize(
    ("question", "tools", "fact_sql"),
    [
        ("KODEX 200 정보 알려줘", ["etf_search", "get_etf_info"],
         "SELECT manager AS fact FROM etfs WHERE code = '069500'"),
        ("Tell me about TIGER 200", ["etf_search", "get_etf_info"],
         "SELECT manager AS fact FROM etfs WHERE code = '102110'"),
        ("KODEX 200과 비슷한 ETF는?", ["etf_search", "find_similar_etfs"],
         "SELECT 'TIGER 200' AS fact"),
        ("KODEX 200 3개월 가격 추이", ["etf_search", "get_etf_prices"],
         "SELECT to_char(max(trade_date), 'YYYY-MM-DD') AS fact FROM etf_prices"
         " WHERE etf_code = '069500'"),
        ("삼성전자 1개월 주가", ["stock_search", "get_stock_prices"],
         "SELECT to_char(max(trade_date), 'YYYY-MM-DD') AS fact FROM stock_prices"
         " WHERE security_id = 'KR:005930'"),
        ("KODEX 반도체 1주 보유종목 변화", ["etf_search", "get_holdings_changes"],
         "SELECT 'KODEX 반도체 보유종목 변화' AS fact"),
        ("태그 목록 알려줘", ["list_tags"],
         "SELECT count(DISTINCT tag)::text || '개' AS fact FROM etf_tags"),
        ("미래에셋자산운용 ETF 목록", ["graph_query"],
         "SELECT ', ' || count(*) || '개):' AS fact FROM etfs WHERE manager = '미래에셋자산운용'"),
        ("삼성전자와 SK하이닉스를 동시에 보유한 ETF", ["stock_search", "stock_search", "graph_query"],
         "WITH l AS (SELECT etf_code, max(as_of_date) d FROM etf_holdings GROUP BY etf_code) "
         "SELECT '(합산 비중 높은 순, ' || count(*) || '개):' AS fact FROM l WHERE (SELECT count(*) "
         "FROM etf_holdings h JOIN stocks s USING (security_id) WHERE h.etf_code = l.etf_code AND "
         "h.as_of_date = l.d AND s.code IN ('005930', '000660')) = 2"),
        ("Compare KODEX 200 and TIGER 200", ["etf_search", "etf_search", "compare_etfs"],
         "SELECT 'Lowest expense ratio' AS fact"),
    ],
)  # fmt: skip
def test_recognized_questions(ask: Any, pg_pool: Any, question: str, tools: list[str],
                              fact_sql: str) -> None:  # fmt: skip
    answer = ask(question)
    assert answer.status == "ok", answer.answer
    assert tools_called(answer) == tools
    assert sql(pg_pool, fact_sql)[0]["fact"] in answer.answer
    assert answer.structured_citations and all(
        c.row_count >= 0 for c in answer.structured_citations
    )
    assert answer.as_of_date and answer.data_freshness.get("etf")


def test_common_holdings_of_two_etfs_match_sql(ask: Any, pg_pool: Any) -> None:
    """'공통 보유 종목': the stocks both hold on their latest snapshots and the overlap (the
    smaller weight of each, summed), against the same intersection in SQL."""
    answer = ask("KODEX 반도체와 TIGER 반도체 공통 보유 종목")
    rows = fetch_all(
        "WITH a AS (SELECT security_id, weight FROM etf_holdings WHERE etf_code = '091160' AND "
        "as_of_date = (SELECT max(as_of_date) FROM etf_holdings WHERE etf_code = '091160')), "
        "b AS (SELECT security_id, weight FROM etf_holdings WHERE etf_code = '091230' AND "
        "as_of_date = (SELECT max(as_of_date) FROM etf_holdings WHERE etf_code = '091230')) "
        "SELECT count(*) AS n, sum(least(a.weight, b.weight)) AS overlap FROM a JOIN b USING "
        "(security_id)", pool=pg_pool)[0]  # fmt: skip
    assert f"공통 보유 종목 {rows['n']}개" in answer.answer
    assert f"겹치는 비중 {float(rows['overlap']):.2f}%" in answer.answer


def test_scoped_and_filtered_holders_and_a_weight_over_time(ask: Any, pg_pool: Any) -> None:
    """Holders scoped to a theme, filtered by weight and ranked by another measure; a holding's
    weight against the snapshot a month back (the holdings-changes tool, checked in SQL)."""
    scoped = ask("SK하이닉스 비중 가장 높은 반도체 ETF")
    assert "'반도체'" in scoped.answer and "TIGER 코리아TOP10" not in scoped.answer
    cheap = ask("삼성전자 비중 10% 이상인 ETF 중 보수 가장 싼 것")
    row = fetch_all(
        "SELECT e.code FROM etfs e JOIN etf_holdings h ON h.etf_code = e.code WHERE "
        "h.security_id = 'KR:005930' AND h.weight >= 10 AND h.as_of_date = (SELECT max(as_of_date) "
        "FROM etf_holdings WHERE etf_code = e.code) ORDER BY e.expense_ratio, e.code LIMIT 1",
        pool=pg_pool)[0]  # fmt: skip
    assert "1. " in cheap.answer and f"({row['code']})" in cheap.answer.split("\n")[1]
    moved = ask("KODEX 200 삼성전자 비중 1달 전이랑 비교")
    assert "1개월 전 스냅샷" in moved.answer and "%p)" in moved.answer


def test_everyday_wordings_of_rankings_prices_and_comparisons(ask: Any, pg_pool: Any) -> None:
    """Counting words ('두 개', 'three'), an English name split by spaces, '가장 최근' as the latest
    (not a maximum), equal fees said as equal — each against SQL."""
    cheapest = fetch_all(
        "SELECT e.code FROM etfs e JOIN etf_tags t ON t.etf_code = e.code WHERE t.tag = "
        "'미국S&P500' ORDER BY e.expense_ratio, e.code LIMIT 2", pool=pg_pool)  # fmt: skip
    for question in ("S&P500 ETF 중 보수 제일 낮은 거 두 개", "two cheapest S&P500 ETFs"):
        listed = re.findall(r"^\d+\. .+ \((\w{6})\)", ask(question).answer, re.MULTILINE)
        assert listed == [r["code"] for r in cheapest], question
    close = fetch_all(
        "SELECT close FROM etf_prices WHERE etf_code = '133690' ORDER BY trade_date DESC LIMIT 1",
        pool=pg_pool)[0]["close"]  # fmt: skip
    for question in ("What did TIGER Nasdaq100 close at?", "TIGER 나스닥100 가장 최근 가격",
                     "TIGER 나스닥100 현재가"):  # fmt: skip
        assert f"{float(close):,.0f}" in ask(question).answer, question
    same = fetch_all(
        "SELECT a.name AS a, b.name AS b FROM etfs a JOIN etfs b ON a.expense_ratio = "
        "b.expense_ratio AND a.code < b.code ORDER BY a.code, b.code LIMIT 1", pool=pg_pool)[0]  # fmt: skip
    compared = ask(f"{same['a']}이랑 {same['b']} 비교해줘")
    assert "모두" in compared.answer and "같습니다" in compared.answer
    assert "보수율이 가장 낮은 ETF는" not in compared.answer


def test_figures_per_manager_match_sql(ask: Any, pg_pool: Any) -> None:
    """'운용사별 평균 보수', a filtered count per manager and each manager's cheapest ETF: every
    line against GROUP BY / DISTINCT ON in SQL."""
    answer = ask("운용사별 평균 보수").answer
    # SQL's round is half up on the decimal value (0.32025 → 0.3203), as an analyst rounds
    for r in fetch_all("SELECT manager, round(avg(expense_ratio), 4) AS fee, count(*) AS n FROM "
                       "etfs GROUP BY manager", pool=pg_pool):  # fmt: skip
        assert f"{r['manager']}: {float(r['fee']):g}% (ETF {r['n']}개)" in answer
    counted = ask("보수 0.1% 이하 ETF 운용사별 개수").answer
    for r in fetch_all("SELECT manager, count(*) AS n FROM etfs WHERE expense_ratio <= 0.1 "
                       "GROUP BY manager", pool=pg_pool):  # fmt: skip
        assert f"{r['manager']}: {r['n']}개" in counted
    cheapest = ask("운용사별로 보수 가장 싼 ETF").answer
    for r in fetch_all("SELECT DISTINCT ON (manager) manager, code, expense_ratio FROM etfs "
                       "ORDER BY manager, expense_ratio, code", pool=pg_pool):  # fmt: skip
        line = next(x for x in cheapest.splitlines() if f" {r['manager']}: " in x)
        assert f"{round(float(r['expense_ratio']), 4):g}%" in line


def test_follow_ups_narrow_the_list_and_turn_to_holdings(ask_turns: Any, pg_pool: Any) -> None:
    """'보수 0.2% 이하 ETF' → '그 중 반도체는?' → '몇 개?' narrows to the theme (SQL count);
    '그 ETF 보수는?' → '상위 5개 종목은?' lists that ETF's holdings, not its fee."""
    answers = ask_turns(["보수 0.2% 이하 ETF", "그 중 반도체는?", "몇 개?"])
    n = fetch_all("SELECT count(*) AS n FROM etfs e JOIN etf_tags t ON t.etf_code = e.code WHERE "
                  "t.tag = '반도체' AND e.expense_ratio <= 0.2", pool=pg_pool)[0]["n"]  # fmt: skip
    assert f": {n}개" in answers[-1].answer
    held = ask_turns(["KODEX 반도체 보수는?", "상위 5개 종목은?"])[-1].answer
    top = fetch_all("SELECT s.name FROM etf_holdings h JOIN stocks s ON s.security_id = "
                    "h.security_id WHERE h.etf_code = '091160' AND h.as_of_date = (SELECT "
                    "max(as_of_date) FROM etf_holdings WHERE etf_code = '091160') ORDER BY "
                    "h.weight DESC LIMIT 1", pool=pg_pool)[0]["name"]  # fmt: skip
    assert "비중 상위 5개" in held and f"1. {top}" in held


def test_a_close_on_a_past_day(ask: Any, pg_pool: Any) -> None:
    """'2026년 10월 말 KODEX 200 종가', 'TIGER 200 10월 31일 거래량': the last trading day on or
    before the date (SQL), not the latest close with a note."""
    for question, code, column, unit in (("2026년 10월 말 KODEX 200 종가", "069500", "close", "원"),
                                         ("TIGER 200 10월 31일 거래량", "102110", "volume", "주")):  # fmt: skip
        row = fetch_all(f"SELECT trade_date, {column} AS v FROM etf_prices WHERE etf_code = %s "
                        "AND trade_date <= '2026-10-31' ORDER BY trade_date DESC LIMIT 1",
                        (code,), pool=pg_pool)[0]  # fmt: skip
        answer = ask(question)
        assert answer.status == "ok", answer.answer
        assert (
            f"{row['trade_date']}" in answer.answer
            and f"{float(row['v']):,.0f}{unit}" in answer.answer
        )
    older = ask("2024년 1월 2일 KODEX 200 종가")  # before the price data: said, partial
    assert "가격 데이터 범위 밖" in older.answer and older.status == "partial"


def test_another_etfs_value_as_the_bar(ask: Any, pg_pool: Any) -> None:
    """'KODEX 200보다 보수 싼 ETF' and 'TIGER 200보다 순자산 큰 ETF 몇 개야': the named ETF's own
    value is the threshold (SQL), and it is not counted among the others."""
    cheaper = fetch_all("SELECT count(*) AS n FROM etfs WHERE expense_ratio < (SELECT "
                        "expense_ratio FROM etfs WHERE code = '069500')", pool=pg_pool)[0]["n"]  # fmt: skip
    answer = ask("KODEX 200보다 보수 싼 ETF").answer
    assert "KODEX 200(0.15%)보다 낮은" in answer and f", {cheaper}개):" in answer
    assert "(069500)" not in answer
    bigger = fetch_all(
        "WITH l AS (SELECT DISTINCT ON (etf_code) etf_code, net_assets FROM etf_prices ORDER BY "
        "etf_code, trade_date DESC) SELECT count(*) AS n FROM l WHERE net_assets > (SELECT "
        "net_assets FROM l WHERE etf_code = '102110')", pool=pg_pool)[0]["n"]  # fmt: skip
    assert f"보다 높은: {bigger}개" in ask("TIGER 200보다 순자산 큰 ETF 몇 개야").answer


def test_the_day_of_the_largest_volume(ask: Any, pg_pool: Any) -> None:
    """'KODEX 200 최근 1년 거래량 최대인 날': the day and its volume over the year window (SQL)."""
    row = fetch_all(
        "SELECT trade_date, volume FROM etf_prices WHERE etf_code = '069500' AND trade_date > "
        "(SELECT max(trade_date) FROM etf_prices WHERE etf_code = '069500') - interval '1 year' "
        "ORDER BY volume DESC LIMIT 1", pool=pg_pool)[0]  # fmt: skip
    answer = ask("KODEX 200 최근 1년 거래량 최대인 날").answer
    assert f"최고치: {int(row['volume']):,}주 ({row['trade_date']})" in answer  # the window's


def test_a_word_of_etf_names_scopes_the_set(ask: Any, pg_pool: Any) -> None:
    """'액티브 ETF 몇 개야', '선물 ETF 평균 보수': the ETFs whose names hold the word (SQL), said in
    the answer, instead of every ETF with the word dropped; a market word ('미국 ETF') scopes
    by each fund's listed region instead."""
    row = fetch_all("SELECT round(avg(expense_ratio), 4) AS fee, count(*) AS n FROM etfs WHERE "
                    "name LIKE '%%선물%%'", pool=pg_pool)[0]  # fmt: skip
    answer = ask("선물 ETF 평균 보수").answer
    assert "이름에 '선물'이 들어간 ETF" in answer and f"{float(row['fee']):g}%" in answer
    us = fetch_all("SELECT count(*) AS n FROM etfs WHERE region = 'US'", pool=pg_pool)[0]["n"]
    assert ask("미국 ETF 몇 개야").answer.startswith(f"미국 ETF: {us}개")


def test_counting_a_list_twice_keeps_the_whole_set(ask_turns: Any, pg_pool: Any) -> None:
    """'how many?' then 'count them': the second count is of the same set (SQL), not of the
    codes the first count's answer happened to show."""
    answers = ask_turns(["ETFs with fee under 0.1%", "how many?", "count them"])
    n = fetch_all("SELECT count(*) AS n FROM etfs WHERE expense_ratio < 0.1", pool=pg_pool)[0]["n"]
    assert all(f": {n} ETFs" in a.answer for a in answers[1:]), [a.answer for a in answers]


def test_a_company_we_do_not_hold_is_said_not_answered_as_another(ask_turns: Any) -> None:
    """'쿠팡 3개월 수익률' names a company outside the data; '쿠팡은?' after 삼성전자 too."""
    alone = ask_turns(["쿠팡 3개월 수익률"])[0]
    assert "쿠팡" in alone.answer and alone.payload["declined"] is True
    after = ask_turns(["삼성전자 주가", "쿠팡은?"])[-1]
    assert "삼성전자" not in after.answer and after.payload["declined"] is True


def test_advice_is_declined_in_korean_and_english(ask: Any) -> None:
    for question in ("KODEX 200 계속 들고 있어도 돼?", "Would you buy TIGER 200 here?",
                     "초보자에게 좋은 ETF는?", "TIGER 200 팔 타이밍인가", "Will KODEX 200 rise tomorrow?"):  # fmt: skip
        answer = ask(question)
        assert answer.payload["declined"] is True and tools_called(answer) == [], question


def test_which_of_two_funds_to_buy_is_answered_with_facts_and_the_judgement_declined(
    ask: Any, pg_pool: Any
) -> None:
    """'A가 좋아요 B가 좋아요?': the two funds' facts (fees from SQL), and a plain statement
    that which to buy is not judged; the status says the question was only partly answered."""
    answer = ask("KODEX 200이 좋아요 TIGER 200이 좋아요?")
    fees = fetch_all("SELECT expense_ratio FROM etfs WHERE code IN ('069500', '102110')",
                     pool=pg_pool)  # fmt: skip
    assert all(f"{float(r['expense_ratio']):g}%" in answer.answer for r in fees), answer.answer
    assert "어느 쪽을 살지는 판단하지 않습니다" in answer.answer and answer.status == "partial"
    assert answer.payload["declined"] is False


def test_an_unread_set_word_is_said_before_the_figure(ask: Any, pg_pool: Any) -> None:
    """'메타버스 ETF 평균 보수' (no such theme) is answered over all ETFs only with the unread
    word said first (the coverage's rule, as for any unread noun); '코덱스 평균 보수' is
    Samsung's average (SQL)."""
    answer = ask("메타버스 ETF 평균 보수")
    assert (
        answer.answer.startswith("⚠️ 질문의 '메타버스'는 읽지 못해") and answer.status == "partial"
    )
    avg = fetch_all("SELECT round(avg(expense_ratio), 4) AS v FROM etfs WHERE manager = "
                    "'삼성자산운용'", pool=pg_pool)[0]["v"]  # fmt: skip
    assert f"{float(avg):.4f}%" in ask("코덱스 평균 보수").answer


def test_the_month_to_date_return_is_from_the_previous_months_last_close(
    ask: Any, pg_pool: Any
) -> None:
    """'이번 달 수익률': from the last close on or before the previous month's end (SQL)."""
    rows = fetch_all(
        "WITH last AS (SELECT max(trade_date) AS d FROM etf_prices WHERE etf_code = '069500') "
        "SELECT (SELECT close FROM etf_prices, last WHERE etf_code = '069500' AND trade_date <= "
        "(date_trunc('month', last.d) - interval '1 day')::date ORDER BY trade_date DESC LIMIT 1) "
        "AS base, (SELECT close FROM etf_prices, last WHERE etf_code = '069500' AND trade_date = "
        "last.d) AS now", pool=pg_pool)  # fmt: skip
    pct = (float(rows[0]["now"]) / float(rows[0]["base"]) - 1) * 100
    answer = ask("KODEX 200 이번 달 수익률")
    assert f"{pct:+.2f}%" in answer.answer and answer.status == "ok", answer.answer


def _window_return(pg_pool: Any, table: str, key: str, value: str) -> float:
    """A 3-month return by figures' definition, in SQL: the last close on or before the last
    date minus three months, to the last close."""
    row = fetch_all(
        f"WITH p AS (SELECT trade_date, close FROM {table} WHERE {key} = %s), "
        "l AS (SELECT max(trade_date) AS d FROM p) SELECT (SELECT close FROM p, l WHERE "
        "trade_date = l.d) AS now, (SELECT close FROM p, l WHERE trade_date <= "
        "(l.d - interval '3 months')::date ORDER BY trade_date DESC LIMIT 1) AS base",
        (value,), pool=pg_pool)[0]  # fmt: skip
    return (float(row["now"]) / float(row["base"]) - 1) * 100


def test_why_an_etf_moved_is_its_holdings_contributions(ask: Any, pg_pool: Any) -> None:
    """'KODEX 반도체 3개월 동안 왜 떨어졌어?': the ETF's return and, per top holding, weight ×
    the stock's return over the same window (SQL), computed in the sandbox, not its fee card."""
    answer = ask("KODEX 반도체 3개월 동안 왜 떨어졌어?")
    assert answer.payload["understanding"]["intent"] == "etf_attribution"
    fund = _window_return(pg_pool, "etf_prices", "etf_code", "091160")
    assert f"{fund:+.2f}%" in answer.answer.splitlines()[0 if fund < 0 else 1]
    top = fetch_all("SELECT h.security_id, s.name, h.weight FROM etf_holdings h JOIN stocks s ON "
                    "s.security_id = h.security_id WHERE h.etf_code = '091160' AND h.as_of_date = "
                    "(SELECT max(as_of_date) FROM etf_holdings WHERE etf_code = '091160') ORDER "
                    "BY h.weight DESC LIMIT 1", pool=pg_pool)[0]  # fmt: skip
    stock = _window_return(pg_pool, "stock_prices", "security_id", top["security_id"])
    w = float(top["weight"])
    line = next(x for x in answer.answer.splitlines() if f"{top['name']}(" in x)
    assert f"{w:.2f}% × {stock:+.2f}% = {w * stock / 100:+.2f}%p" in line
    assert "매크로 Q&A" in answer.answer  # the news and events are asked there


def test_a_sector_of_an_etfs_holdings_and_its_trading_value(ask: Any, pg_pool: Any) -> None:
    """'KODEX 200 구성종목 중 반도체 비중 합' sums the semiconductor holdings only (SQL over
    stocks.sector), not all 136; '최근 1주일 거래대금' is Σ close × volume after the base bar."""
    row = fetch_all("SELECT round(sum(h.weight), 2) AS w, count(*) AS n FROM etf_holdings h JOIN "
                    "stocks s ON s.security_id = h.security_id WHERE h.etf_code = '069500' AND "
                    "h.as_of_date = (SELECT max(as_of_date) FROM etf_holdings WHERE etf_code = "
                    "'069500') AND s.sector = '반도체'", pool=pg_pool)[0]  # fmt: skip
    answer = ask("KODEX 200 구성종목 중 반도체 비중 합").answer
    assert f"반도체 업종 {row['n']}개 종목 비중 합: {float(row['w']):.2f}%" in answer
    value = fetch_all(
        "WITH l AS (SELECT max(trade_date) AS d FROM etf_prices WHERE etf_code = '069500') "
        "SELECT sum(close * volume) AS v FROM etf_prices, l WHERE etf_code = '069500' AND "
        "trade_date > (SELECT max(trade_date) FROM etf_prices, l WHERE etf_code = '069500' AND "
        "trade_date <= (l.d - interval '7 days')::date) AND trade_date <= l.d", pool=pg_pool,
    )[0]["v"]  # fmt: skip
    eok = round(float(value) / 1e8)
    shown = f"{eok // 10000:,}조 {eok % 10000:,}억 원" if eok >= 10000 else f"{eok:,}억 원"
    assert "거래대금 최근 1주(" in ask("KODEX 200 최근 1주일 거래대금").answer
    assert f"합계: {shown}" in ask("KODEX 200 최근 1주일 거래대금").answer


def test_the_day_of_the_largest_fall_is_a_one_day_change(ask: Any, pg_pool: Any) -> None:
    """'KODEX 200 최근 3개월 중 가장 많이 떨어진 날': the largest one-day fall of the close (SQL
    with lag()), not the window's lowest close."""
    row = fetch_all(
        "WITH l AS (SELECT max(trade_date) AS d FROM etf_prices WHERE etf_code = '069500'), "
        "w AS (SELECT trade_date, close, lag(close) OVER (ORDER BY trade_date) AS prev FROM "
        "etf_prices, l WHERE etf_code = '069500' AND trade_date >= (SELECT max(trade_date) FROM "
        "etf_prices, l WHERE etf_code = '069500' AND trade_date <= (l.d - interval '3 months')"
        "::date)) SELECT trade_date, (close / prev - 1) * 100 AS pct FROM w WHERE prev IS NOT "
        "NULL ORDER BY pct LIMIT 1", pool=pg_pool)[0]  # fmt: skip
    answer = ask("KODEX 200 최근 3개월 중 가장 많이 떨어진 날").answer
    assert f"가장 크게 내린 날: {row['trade_date']} {float(row['pct']):+.2f}%" in answer


def test_yesterdays_biggest_gainers_are_ranked_by_the_last_days_change(
    ask: Any, pg_pool: Any
) -> None:
    """'어제 가장 많이 오른 ETF 3개': the last close against the one before (SQL with lag()), not
    a month's return."""
    rows = fetch_all(
        "WITH p AS (SELECT etf_code, trade_date, close, lag(close) OVER (PARTITION BY etf_code "
        "ORDER BY trade_date) AS prev, row_number() OVER (PARTITION BY etf_code ORDER BY "
        "trade_date DESC) AS n FROM etf_prices) SELECT e.name, e.code, (close / prev - 1) * 100 "
        "AS pct FROM p JOIN etfs e ON e.code = p.etf_code WHERE n = 1 AND prev > 0 ORDER BY pct "
        "DESC LIMIT 1", pool=pg_pool)  # fmt: skip
    answer = ask("어제 가장 많이 오른 ETF 3개").answer
    top = rows[0]
    assert f"1. {top['name']} ({top['code']}): 전일 대비 수익률 {float(top['pct']):+.2f}%" in answer


def test_a_max_drawdown_and_an_average_premium(ask: Any, pg_pool: Any) -> None:
    """'1년 동안 최대 낙폭' is the deepest fall from a running high of the close (computed here
    from SQL), not the year's highest close; '괴리율 최근 한 달 평균' is the window's mean of
    close/NAV − 1, not the latest day's."""
    rows = fetch_all("SELECT trade_date, close, nav FROM etf_prices WHERE etf_code = '069500' "
                     "ORDER BY trade_date", pool=pg_pool)  # fmt: skip
    last = rows[-1]["trade_date"]
    peak, worst = 0.0, 0.0  # the year's own closes: its peak inside it too
    for r in (r for r in rows if r["trade_date"] > last - relativedelta(years=1)):
        peak = max(peak, float(r["close"]))
        worst = min(worst, (float(r["close"]) / peak - 1) * 100)
    assert f"최대 낙폭: {worst:.2f}%" in ask("KODEX 200 1년 동안 최대 낙폭").answer
    window = [r for r in rows if r["trade_date"] > last - relativedelta(months=1) and r["nav"]]
    avg = sum((float(r["close"]) / float(r["nav"]) - 1) * 100 for r in window) / len(window)
    assert f"평균: {avg:+.3f}%" in ask("KODEX 200 괴리율 최근 한 달 평균").answer  # base excluded


def test_unrecognized_question_says_so(ask: Any) -> None:
    answer = ask("어쩌고 저쩌고 얘기 좀 해봐")
    assert "오프라인 플래너는 이 질문을 이해하지 못했습니다" in answer.answer
    assert tools_called(answer) == []
    assert answer.status == "partial" and answer.payload["declined"] is True


def test_forecast_is_declined_with_the_nearest_question(ask: Any) -> None:
    answer = ask("내일 코스피 오를까?")
    assert "예측" in answer.answer and "대신 답할 수 있는 질문 예" in answer.answer
    assert tools_called(answer) == []
    assert answer.status == "partial" and answer.payload["declined"] is True
    assert answer.trace[0].kind == "understanding"


class ScriptedModel(Model):
    """Answers a fixed list of code actions, then fails like an unreachable provider would."""

    def __init__(self, actions: list[str]) -> None:
        super().__init__(model_id="scripted")
        self.actions = actions
        self.calls = 0

    def generate(self, messages: list[Any], **kwargs: Any) -> ChatMessage:
        self.calls += 1
        if self.calls > len(self.actions):
            raise ConnectionError("provider unreachable")
        return ChatMessage(role=MessageRole.ASSISTANT, content=self.actions[self.calls - 1])


@pytest.mark.parametrize(
    "code",
    [
        "import os\nprint(os.listdir('/'))",
        "print(open('/etc/passwd').read())",
        "print(().__class__.__bases__[0].__subclasses__())",
        "import subprocess\nsubprocess.run(['ls'])",
        "f = getattr(__builtins__, 'open')\nprint(f('/etc/hostname').read())",
    ],
)
def test_sandbox_refuses_hostile_code(pg_pool: Any, graph_store: Any, code: str) -> None:
    context = ToolContext(graph_store, pg_pool, EvidenceCollector())
    model = ScriptedModel([f"Thought: try\n<code>\n{code}\n</code>",
                           "Thought: stop\n<code>\nfinal_answer('끝')\n</code>"])  # fmt: skip
    agent = build_agent(model, list(make_tools(context)))
    steps = [e for e in agent.run("질문", stream=True) if e.__class__.__name__ == "ActionStep"]
    assert steps[0].error is not None, code
    assert "root:" not in str(steps[0].observations or "")
    assert agent.max_steps == MAX_STEPS


def _run_with(model: Model, pool: Any, store: Any, settings: Settings,
              monkeypatch: pytest.MonkeyPatch) -> AgentAnswer:  # fmt: skip
    import agents.etf.service as service

    monkeypatch.setattr(service, "OfflinePlanner", lambda _lexicon, _previous=None, **_kw: model)
    offline = settings.model_copy(update={"llm_model": None, "llm_model_etf": None})
    return answer_question("KODEX 200", settings=offline, store=store, pool=pool)


def test_fallback_level_2_last_observation(pg_pool: Any, graph_store: Any, settings: Settings,
                                           monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    model = ScriptedModel(["Thought: s\n<code>\nprint(etf_search(query='KODEX 200'))\n</code>"])
    answer = _run_with(model, pg_pool, graph_store, settings, monkeypatch)
    assert answer.status == "error" and "provider unreachable" in (answer.error or "")
    assert '"code": "069500"' in answer.answer  # the last observation stands in for the answer


def test_fallback_level_3_apology(pg_pool: Any, graph_store: Any, settings: Settings,
                                  monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    answer = _run_with(ScriptedModel([]), pg_pool, graph_store, settings, monkeypatch)
    assert answer.answer == APOLOGY and answer.status == "error"


def test_stream_yields_steps_then_answer_and_run_store_round_trip(
    pg_pool: Any, graph_store: Any, settings: Settings
) -> None:
    offline = settings.model_copy(update={"llm_model": None, "llm_model_etf": None})
    events = list(stream_answer("KODEX 200 정보 알려줘", settings=offline, store=graph_store,
                                pool=pg_pool))  # fmt: skip
    steps = [e for e in events if isinstance(e, StepEvent)]
    answer = events[-1]
    assert isinstance(answer, AgentAnswer)
    assert [s.step for s in steps] == [1, 2] and steps[-1].is_final
    assert steps[0].tool_calls[0]["tool"] == "etf_search" and steps[0].code
    assert all(len(s.observation or "") <= 2100 for s in steps)
    conversation = runs.create_conversation("etf", "테스트 대화", pool=pg_pool)
    run_id = runs.save_run(answer, screen="etf", question="KODEX 200 정보 알려줘",
                           conversation_id=conversation, pool=pg_pool)  # fmt: skip
    stored = runs.get_run(run_id, pool=pg_pool)
    assert stored is not None and stored.answer.answer == answer.answer
    assert stored.answer.payload["tool_results"][-1]["tool"] == "get_etf_info"
    assert len(stored.answer.structured_citations) == len(answer.structured_citations)


def test_charts_for_answers_have_titles_and_axis_labels(ask: Any) -> None:
    from agents.etf.charts import charts_for

    prices = charts_for(ask("KODEX 200 3개월 가격 추이").payload)
    figure = prices[0].figure
    assert figure is not None and "가격·거래대금 (3개월)" in figure.layout.title.text
    assert figure.layout.yaxis.title.text == "종가 (원)"
    assert figure.layout.xaxis2.title.text == "날짜"
    compare = charts_for(ask("KODEX 200과 TIGER 200 비교해줘").payload)
    assert [c.title for c in compare] == ["ETF 비교표", "정규화 가격"]
    lines = compare[1].figure
    assert lines is not None and len(lines.data) == 2
    assert lines.data[0].y[0] == 100.0
    changes = charts_for(ask("KODEX 반도체 1주 보유종목 변화").payload)
    assert changes and changes[0].table is not None and changes[0].row_colors
    moves = charts_for(ask("KODEX 200과 수익률 움직임이 비슷한 ETF").payload)
    assert [c.title for c in moves] == ["수익률 상관계수"]  # not the holdings-overlap bars
    for question in ("52주 신고가 ETF", "거래량 급증한 ETF 3개", "거래대금 많은 ETF 3개",
                     "KODEX 200 최근 한 달 괴리율 최대값", "KODEX 200 최근 1년 순자산 최대값",
                     "KODEX 200 보유 종목"):  # fmt: skip
        drawn = charts_for(ask(question).payload)  # every tool result of these answers draws
        universe = any(c.title.startswith("조회 결과") for c in drawn)
        assert universe == question.endswith("보유 종목"), question  # a set's is not shown


def _closes_since_52_weeks(pool: Any) -> dict[str, list[float]]:
    """Each ETF's closes from its base bar (the last on or before one year before its last
    date) to its last, oldest first: the window `get_etf_prices(period='1y')` reads."""
    rows = fetch_all(
        "WITH l AS (SELECT etf_code, max(trade_date) AS d FROM etf_prices GROUP BY etf_code), "
        "b AS (SELECT l.etf_code, l.d, coalesce(max(p.trade_date), (l.d - interval '1 year')::date)"
        " AS s FROM l LEFT JOIN etf_prices p ON p.etf_code = l.etf_code AND "
        "p.trade_date <= (l.d - interval '1 year')::date GROUP BY l.etf_code, l.d) "
        "SELECT p.etf_code, p.close FROM etf_prices p JOIN b USING (etf_code) "
        "WHERE p.trade_date BETWEEN b.s AND b.d ORDER BY p.etf_code, p.trade_date", pool=pool)  # fmt: skip
    closes: dict[str, list[float]] = {}
    for r in rows:
        closes.setdefault(r["etf_code"], []).append(float(r["close"]))
    return closes


def test_new_52_week_highs_and_the_nearest_to_them_match_sql(ask: Any, pg_pool: Any) -> None:
    """'52주 신고가 ETF' lists the ETFs whose last close is their highest of the year (SQL);
    '52주 최고가에 가장 가까운 ETF 3개' ranks by the last close against that high."""
    closes = _closes_since_52_weeks(pg_pool)
    at_high = {code for code, c in closes.items() if c[-1] >= max(c)}
    answer = ask("52주 신고가 ETF")
    listed = set(re.findall(r"\((\d{6})\): ", answer.answer))
    assert listed == at_high and answer.payload["declined"] is False, answer.answer
    distance = sorted(closes, key=lambda code: -(closes[code][-1] / max(closes[code]) - 1))
    nearest = re.findall(r"\((\d{6})\): ", ask("52주 최고가에 가장 가까운 ETF 3개").answer)
    expected = [round((closes[c][-1] / max(closes[c]) - 1) * 100, 2) for c in distance[:3]]
    got = [round((closes[c][-1] / max(closes[c]) - 1) * 100, 2) for c in nearest]
    assert len(nearest) == 3 and got == expected  # ties may list either ETF of a tied pair


def test_etfs_ranked_by_trading_value_match_sql(ask: Any, pg_pool: Any) -> None:
    """'거래대금 많은 ETF 3개': Σ close × volume over the last month's sessions after the base
    bar (the last on or before a month before each ETF's last date), computed here in SQL."""
    rows = fetch_all(
        "WITH l AS (SELECT etf_code, max(trade_date) AS d FROM etf_prices GROUP BY etf_code), "
        "b AS (SELECT l.etf_code, l.d, max(p.trade_date) AS s FROM l JOIN etf_prices p ON "
        "p.etf_code = l.etf_code AND p.trade_date <= (l.d - interval '1 month')::date "
        "GROUP BY l.etf_code, l.d) "
        "SELECT p.etf_code, sum(p.close * p.volume) AS v FROM etf_prices p JOIN b USING (etf_code)"
        " WHERE p.trade_date > b.s AND p.trade_date <= b.d GROUP BY p.etf_code ORDER BY v DESC "
        "LIMIT 3", pool=pg_pool)  # fmt: skip
    answer = ask("거래대금 많은 ETF 3개")
    assert re.findall(r"\((\d{6})\): ", answer.answer) == [r["etf_code"] for r in rows], (
        answer.answer
    )
    assert "1개월 거래대금" in answer.answer and answer.status == "ok"


def test_etfs_ranked_by_a_volume_surge_match_sql(ask: Any, pg_pool: Any) -> None:
    """'거래량 급증한 ETF 3개': each ETF's mean volume over the last week's window against its
    mean over the last 3 months' (each window from its base bar), the largest ratio first."""
    rows = fetch_all(
        "WITH l AS (SELECT etf_code, max(trade_date) AS d FROM etf_prices GROUP BY etf_code), "
        "w AS (SELECT l.etf_code, l.d, (SELECT max(trade_date) FROM etf_prices p WHERE "
        "p.etf_code = l.etf_code AND p.trade_date <= l.d - 7) AS s1, (SELECT max(trade_date) "
        "FROM etf_prices p WHERE p.etf_code = l.etf_code AND "
        "p.trade_date <= (l.d - interval '3 months')::date) AS s3 FROM l) "
        "SELECT w.etf_code, avg(p.volume) FILTER (WHERE p.trade_date >= w.s1) / "
        "avg(p.volume) AS ratio FROM w JOIN etf_prices p ON p.etf_code = w.etf_code AND "
        "p.trade_date BETWEEN w.s3 AND w.d GROUP BY w.etf_code ORDER BY ratio DESC LIMIT 3",
        pool=pg_pool)  # fmt: skip
    answer = ask("거래량 급증한 ETF 3개")
    assert re.findall(r"\((\d{6})\): ", answer.answer) == [r["etf_code"] for r in rows], (
        answer.answer
    )
    assert f"{float(rows[0]['ratio']):.2f}x" in answer.answer and answer.status == "ok"


def test_similar_moves_are_answered_by_return_correlation(ask: Any) -> None:
    """'수익률 움직임이 비슷한 ETF' and 'ETFs that move like …' rank by the correlation of daily
    returns (the tool's basis='returns'); '비슷한 ETF' alone stays the holdings overlap."""
    moves = ask("KODEX 200과 수익률 움직임이 비슷한 ETF")
    assert "상관계수" in moves.answer and "보유종목 비중" not in moves.answer
    assert moves.status == "ok" and "참고" not in moves.answer
    english = ask("ETFs that move like KODEX 200")
    assert "correlation" in english.answer
    assert re.findall(r"\((\d{6})\): ", english.answer) == re.findall(
        r"\((\d{6})\): ", moves.answer
    )
    assert "보유종목 비중" in ask("KODEX 200과 비슷한 ETF").answer


def test_the_widest_premium_of_a_window_is_the_premiums_not_the_close(
    ask: Any, pg_pool: Any
) -> None:
    """'KODEX 200 최근 한 달 괴리율 최대값' is the largest close/NAV − 1 of the window's days
    (SQL, the window's sessions after its base bar), with its date — not the highest close."""
    row = fetch_all(
        "WITH l AS (SELECT max(trade_date) AS d FROM etf_prices WHERE etf_code = '069500'), "
        "b AS (SELECT max(trade_date) AS s FROM etf_prices, l WHERE etf_code = '069500' AND "
        "trade_date <= (l.d - interval '1 month')::date) "
        "SELECT trade_date, (close / nav - 1) * 100 AS premium FROM etf_prices, l, b "
        "WHERE etf_code = '069500' AND trade_date > b.s AND trade_date <= l.d AND nav > 0 "
        "ORDER BY premium DESC LIMIT 1", pool=pg_pool)[0]  # fmt: skip
    answer = ask("KODEX 200 최근 한 달 괴리율 최대값")
    assert f"{float(row['premium']):+.3f}% ({row['trade_date'].isoformat()})" in answer.answer, (
        answer.answer
    )
    assert "괴리율 최근 1개월" in answer.answer and "종가 최근" not in answer.answer


@pytest.mark.parametrize(("question", "expression"), [
    ("KODEX 200 최근 1년 순자산 최대값", "net_assets"),
    ("KODEX 200 1년 거래대금 최대인 날", "close * volume"),
    ("KODEX 200 3개월 NAV 최저치", "-nav"),
])  # fmt: skip
def test_a_daily_figures_extreme_is_that_figures_not_the_close(ask: Any, pg_pool: Any,
                                                                question: str, expression: str) -> None:  # fmt: skip
    """'순자산 최대값', '거래대금 최대인 날', 'NAV 최저치': the day that figure peaked (SQL over
    the window's sessions after its base bar) — they were answered with the highest close."""
    months = 3 if "3개월" in question else 12
    row = fetch_all(
        "WITH l AS (SELECT max(trade_date) AS d FROM etf_prices WHERE etf_code = '069500'), "
        "b AS (SELECT max(trade_date) AS s FROM etf_prices, l WHERE etf_code = '069500' AND "
        f"trade_date <= (l.d - interval '{months} months')::date) "
        "SELECT trade_date FROM etf_prices, l, b WHERE etf_code = '069500' AND trade_date "
        f"> b.s AND trade_date <= l.d ORDER BY {expression} DESC, trade_date LIMIT 1", pool=pg_pool)[0]  # fmt: skip
    answer = ask(question)
    assert f"({row['trade_date'].isoformat()})" in answer.answer, answer.answer
    assert "종가 기준" not in answer.answer


def test_an_etfs_holdings_asked_plainly_list_the_top_ten_of_all(ask: Any, pg_pool: Any) -> None:
    """'KODEX 200 보유 종목' / 'What does TIGER 200 hold?': the ten largest weights of the latest
    snapshot and how many holdings there are (SQL) — not the info card; '종목코드' is the card."""
    rows = fetch_all(
        "SELECT s.code, h.weight FROM etf_holdings h JOIN stocks s USING (security_id) WHERE "
        "h.etf_code = '069500' AND h.as_of_date = (SELECT max(as_of_date) FROM etf_holdings "
        "WHERE etf_code = '069500') ORDER BY h.weight DESC", pool=pg_pool)  # fmt: skip
    answer = ask("KODEX 200 보유 종목").answer
    assert f"보유종목 {len(rows)}개 중 비중 상위 10개" in answer, answer
    assert re.findall(r"\((\w{6})\): ", answer) == [r["code"] for r in rows[:10]]
    assert "Top 10 of TIGER 200's" in ask("What does TIGER 200 hold?").answer
    assert "069500" in ask("KODEX 200 종목코드 알려줘").answer


def test_a_set_named_by_the_index_it_tracks_is_that_benchmarks_etfs(ask: Any, pg_pool: Any) -> None:
    """'코스피200 추종 ETF 중 보수 제일 싼 거' is the cheapest ETF whose benchmark is the KOSPI 200
    or its total-return version (SQL) — it was answered over every ETF; '나스닥100 추종' is not
    the wider theme tag (leveraged funds and a TOP10 fund)."""
    rows = fetch_all("SELECT code FROM etfs WHERE benchmark IN ('코스피 200', '코스피 200 TR') "
                     "ORDER BY expense_ratio, code", pool=pg_pool)  # fmt: skip
    answer = ask("코스피200 추종 ETF 중 보수 제일 싼 거").answer
    assert "'코스피 200' 추종 ETF" in answer and f"({rows[0]['code']})" in answer, answer
    english = ask("ETFs tracking the KOSPI 200, cheapest first").answer
    listed = re.findall(r"\((\d{6})\): expense ratio ([\d.]+)%", english)
    assert sorted(c for c, _ in listed) == sorted(r["code"] for r in rows)  # ties in any order
    assert [float(f) for _, f in listed] == sorted(float(f) for _, f in listed)
    nasdaq = fetch_all("SELECT count(*) AS n FROM etfs WHERE benchmark IN ('NASDAQ 100', "
                       "'NASDAQ 100 TR')", pool=pg_pool)[0]["n"]  # fmt: skip
    assert (
        f"추종 ETF (1년 수익률 높은 순, {nasdaq}개)"
        in ask("나스닥100 추종 ETF 1년 수익률 순").answer
    )


def test_everyday_phrasings_answer_what_they_ask(ask: Any, pg_pool: Any) -> None:
    """'KODEX 200 얼마야 지금?' is its last close (SQL), not the info card; '반도체 ETF 요즘
    어때?' the theme's 1-month returns; '보수 싼 미국 ETF 좀 보여줘' the US-named ETFs cheapest
    first (it was not understood); '하닉' is SK하이닉스."""
    close = fetch_all("SELECT close FROM etf_prices WHERE etf_code = '069500' ORDER BY trade_date "
                      "DESC LIMIT 1", pool=pg_pool)[0]["close"]  # fmt: skip
    assert f"종가 {float(close):,.0f}원" in ask("KODEX 200 얼마야 지금?").answer
    doing = ask("반도체 ETF 요즘 어때?").answer
    assert "1개월 수익률 높은 순" in doing
    cheap = ask("보수 싼 미국 ETF 좀 보여줘")
    fees = [float(f) for f in re.findall(r"총보수 ([\d.]+)%", cheap.answer)]
    assert cheap.payload["declined"] is False and fees == sorted(fees) and fees
    assert "SK하이닉스를 담은 ETF (비중 높은 순 상위 3개" in ask("하닉 비중 높은 ETF 3개").answer


def test_an_assets_own_price_a_measure_we_lack_and_chit_chat(ask: Any) -> None:
    """'금 시세 얼마야?' shows the gold ETFs only after saying gold's own price is not held;
    'KODEX 200 ROE' is declined (ROE is a company measure, not a ticker); 'What is the weather
    in Seoul?' is chit-chat, not a glossary miss."""
    gold = ask("금 시세 얼마야?")
    assert gold.answer.startswith("⚠️ '금' 자체의 시세는 데이터에 없어") and gold.status == "partial"
    assert "금 ETF 종가" not in gold.answer
    assert ask("KODEX 200 ROE").payload["declined"] is True
    weather = ask("What is the weather in Seoul?")
    assert weather.payload["declined"] is True and "glossary" not in weather.answer


def test_a_calendar_month_of_one_etf_is_that_months_sessions(ask: Any, pg_pool: Any) -> None:
    """'KODEX 200 10월 평균 종가' is the mean close of the latest October's sessions and '10월
    수익률' the move from September's last close to October's (SQL) — both had been answered
    with the latest month and a note; a month older than the price tool's year is said."""
    rows = fetch_all(
        "WITH m AS (SELECT max(date_trunc('month', trade_date)) AS start FROM etf_prices WHERE "
        "etf_code = '069500' AND extract(month FROM trade_date) = 10) "
        "SELECT avg(close) AS mean, (array_agg(close ORDER BY trade_date DESC))[1] AS last, "
        "(SELECT close FROM etf_prices WHERE etf_code = '069500' AND trade_date < min(m.start) "
        " ORDER BY trade_date DESC LIMIT 1) AS before FROM etf_prices, m "
        "WHERE etf_code = '069500' AND date_trunc('month', trade_date) = m.start", pool=pg_pool)[0]  # fmt: skip
    mean = ask("KODEX 200 10월 평균 종가").answer
    assert "종가 2026-10(" in mean and f"평균: {float(rows['mean']):,.0f}원" in mean, mean
    rate = (float(rows["last"]) / float(rows["before"]) - 1) * 100
    assert f"수익률: {rate:+.2f}%" in ask("KODEX 200 10월 수익률").answer
    old = ask("KODEX 200 2024년 1월 평균 종가")
    assert old.status == "partial" and "가격 데이터 범위 밖" in old.answer


def test_a_stocks_extreme_over_a_span_said(ask: Any, pg_pool: Any) -> None:
    """'삼성전자 작년 최고가' in the ETF chat read 3 months with '작년' unread: it is the span's
    highest high (SQL), read against the span's last close, not today's."""
    row = sql(
        pg_pool,
        "WITH y AS (SELECT date_trunc('year', max(trade_date)) AS this FROM stock_prices WHERE "
        "security_id = 'KR:005930'), p AS (SELECT trade_date, high, close FROM stock_prices, y "
        "WHERE security_id = 'KR:005930' AND trade_date >= y.this - interval '1 year' AND "
        "trade_date < y.this) SELECT max(high) AS hi, (SELECT close FROM p ORDER BY trade_date "
        "DESC LIMIT 1) AS last FROM p",
    )[0]
    answer = ask("삼성전자 작년 최고가")
    assert answer.status == "ok", answer.answer
    assert f"최고치: {float(row['hi']):,.0f}원" in answer.answer
    assert f"기간 마지막 종가 {float(row['last']):,.0f}원" in answer.answer
