"""Issue 31 through the real screens (offline, embedded PostgreSQL and FalkorDB): windows in N
units, nested ETF questions composed as plans, typo'd names linked with a note, and the rule that
an unread decisive word never ends `ok`. Every truth is recomputed here in SQL."""

from __future__ import annotations

from datetime import timedelta
from itertools import pairwise
from typing import Any

import pytest

from agents.etf.service import answer_question as etf_answer
from agents.etf.set_answers import fmt_krw, fmt_measure
from agents.macro.service import answer_question as macro_answer
from agents.stock.question import answer_stock_question
from agents.understanding.history import history_after
from data_access.config import Settings
from data_access.contracts import AgentAnswer
from data_access.postgres import fetch_all
from data_access.seed.news_text import josa
from tests.conversations import chain

pytestmark = pytest.mark.usefixtures("demo_data")


def one(pool: Any, query: str, **params: Any) -> float:
    return float(next(iter(fetch_all(query, params or None, pool)[0].values())))


def stock_return(pool: Any, sid: str, back: str) -> float:
    """The last close over the close on or before `back` ('1 year') from the last session."""
    return one(pool, "SELECT (SELECT close FROM stock_prices WHERE security_id = %(s)s ORDER BY "
               "trade_date DESC LIMIT 1) / (SELECT close FROM stock_prices WHERE security_id = %(s)s "
               "AND trade_date <= (SELECT max(trade_date) FROM stock_prices WHERE security_id = "
               "%(s)s) - %(back)s::interval ORDER BY trade_date DESC LIMIT 1)", s=sid, back=back)  # fmt: skip


def kospi_at_peak(pool: Any, code: str, back: str) -> tuple[Any, float]:
    """The day a macro series was highest within `back` of its last observation (the first such
    day) and the KOSPI's close on or before it."""
    peak = fetch_all("SELECT obs_date FROM macro_observations WHERE series_code = %(c)s AND obs_date > "
                     "(SELECT max(obs_date) FROM macro_observations WHERE series_code = %(c)s) - "
                     "%(back)s::interval ORDER BY value DESC, obs_date LIMIT 1", {"c": code, "back": back},
                     pool)[0]["obs_date"]  # fmt: skip
    kospi = one(pool, "SELECT close FROM market_series_prices WHERE series_code = '^KS11' AND "
                "trade_date <= %(d)s ORDER BY trade_date DESC LIMIT 1", d=peak)  # fmt: skip
    return peak, kospi


def first_step(answer: AgentAnswer) -> dict[str, Any]:
    step = answer.trace[0]
    assert step.name == "이해한 질문"
    return step.arguments["coverage"]


def largest_by_net_assets(pool: Any, n: int) -> list[dict[str, Any]]:
    """The N ETFs with the largest latest net assets, with their expense ratios (SQL truth)."""
    return fetch_all(
        "SELECT e.code, e.expense_ratio FROM etfs e JOIN LATERAL (SELECT net_assets FROM "
        "etf_prices p WHERE p.etf_code = e.code ORDER BY trade_date DESC LIMIT 1) p ON true "
        "ORDER BY p.net_assets DESC LIMIT %s", (n,), pool)  # fmt: skip


def term_spread(pool: Any, agg: str, after: str, span: str, as_of: Any) -> float:
    """10y − 2y of each common date, aggregated over the window ending at the as-of date (SQL
    truth); `after` is '>' or '>=' for the window's first day, as each answer states it."""
    return one(pool, f"SELECT {agg}(a.value - b.value) FROM macro_observations a JOIN "
               "macro_observations b ON a.obs_date = b.obs_date AND b.series_code = 'DGS2' "
               f"WHERE a.series_code = 'DGS10' AND a.obs_date {after} (%(d)s::date - interval "
               f"'{span}') AND a.obs_date <= %(d)s::date", d=as_of)  # fmt: skip


def won(value: float) -> str:
    return f"{value:,.0f}원"


def test_stock_window_statistics_are_the_asked_figure(pg_pool: Any) -> None:
    answer = answer_stock_question("LG화학 최근 15거래일 평균 종가는?", pool=pg_pool)
    assert answer is not None and answer.status == "ok"
    truth = one(pg_pool, "SELECT avg(close) FROM (SELECT close FROM stock_prices WHERE security_id"
                " = 'KR:051910' ORDER BY trade_date DESC LIMIT 15) t")  # fmt: skip
    assert won(round(truth)) in answer.answer and "관측치 15개" in answer.answer
    cov = first_step(answer)
    assert any(r["text"] == "15거래일" for r in cov["read"]) and not cov["decisive"]
    total = answer_stock_question("기아 최근 5거래일 거래량 합계", pool=pg_pool)
    volume = one(pg_pool, "SELECT sum(volume) FROM (SELECT volume FROM stock_prices WHERE "
                 "security_id = 'KR:000270' ORDER BY trade_date DESC LIMIT 5) t")  # fmt: skip
    assert total is not None and f"{volume:,.0f}주" in total.answer
    moving = answer_stock_question("카카오 30일 이동평균 얼마야", pool=pg_pool)
    ma = one(pg_pool, "SELECT avg(close) FROM (SELECT close FROM stock_prices WHERE security_id"
             " = 'KR:035720' ORDER BY trade_date DESC LIMIT 30) t")  # fmt: skip
    assert moving is not None and "이동평균" in moving.answer and won(round(ma)) in moving.answer
    # fresh round 9: '범위' is the range; '지난주 대비 얼마나 변했어?' the 1-week change
    spread = answer_stock_question("기아 최근 5거래일 종가 범위", pool=pg_pool)
    width = one(pg_pool, "SELECT max(close) - min(close) FROM (SELECT close FROM stock_prices "
                "WHERE security_id = 'KR:000270' ORDER BY trade_date DESC LIMIT 5) t")  # fmt: skip
    assert spread is not None and spread.status == "ok" and won(round(width)) in spread.answer
    moved = answer_stock_question("셀트리온 주가 지난주 대비 얼마나 변했어?", pool=pg_pool)
    assert moved is not None and "1주 수익률" in moved.answer
    # fresh round 11: '거래량 어제보다 늘었어?' is the volume's move, not the price's
    more = answer_stock_question("HMM 거래량 어제보다 늘었어?", pool=pg_pool)
    last, before = fetch_all("SELECT volume FROM stock_prices WHERE security_id = 'KR:011200' "
                             "ORDER BY trade_date DESC LIMIT 2", None, pg_pool)  # fmt: skip
    gained = int(last["volume"]) - int(before["volume"])
    assert more is not None and f"대비 {gained:+,}주" in more.answer and "수익률" not in more.answer


def test_macro_and_housing_windows_hold_as_many_observations_as_asked(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    fx = macro_answer("원달러 환율 최근 20거래일 평균은?", settings=offline, store=graph_store,
                      pool=pg_pool)  # fmt: skip
    truth = one(pg_pool, "SELECT avg(value) FROM (SELECT value FROM macro_observations WHERE "
                "series_code = 'KR_USDKRW' ORDER BY obs_date DESC LIMIT 20) t")  # fmt: skip
    assert fx.status == "ok" and f"{truth:,.2f}" in fx.answer and "관측치 20개" in fx.answer
    spread = macro_answer("미국 2년물 금리 최근 3개월 최고치와 최저치 차이는?", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    assert spread.status == "ok" and "최고치와 최저치의 차이" in spread.answer
    assert "%p" in spread.answer  # a rate's range is in percentage points
    # an index's sessions are its own last N (fresh round 10: 15 asked, 12 used, status ok)
    nasdaq = macro_answer("나스닥 최근 15거래일 최고치", settings=offline, store=graph_store,
                          pool=pg_pool)  # fmt: skip
    top = one(pg_pool, "SELECT max(close) FROM (SELECT close FROM market_series_prices WHERE "
              "series_code = '^IXIC' ORDER BY trade_date DESC LIMIT 15) t")  # fmt: skip
    assert "관측치 15개" in nasdaq.answer and f"최고치: {top:,.2f}" in nasdaq.answer


def test_macro_composes_a_gap_then_its_window_statistic(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'차이의 최근 6개월 평균' is two steps (the gap as a series, its average over the window),
    answered first — not the latest gap with status ok."""
    mean = macro_answer("미국 10년물과 2년물 금리 차이의 최근 6개월 평균은?", settings=offline,
                        store=graph_store, pool=pg_pool)  # fmt: skip
    truth = term_spread(pg_pool, "avg", ">=", "6 months", mean.as_of_date)
    first = mean.answer.split("**거시경제**")[1].strip().splitlines()[0]
    assert mean.status == "ok" and f"평균: {truth:+.2f}%p" in first and "최근 6개월" in first
    high = macro_answer("한국과 미국 기준금리 차이 최근 1년 최대치", settings=offline,
                        store=graph_store, pool=pg_pool)  # fmt: skip
    gap = one(pg_pool, "SELECT max(a.value - b.value) FROM (SELECT obs_date, value FROM "
              "macro_observations WHERE series_code = 'KR_BASE_RATE' ORDER BY obs_date DESC "
              "LIMIT 12) a JOIN macro_observations b ON b.obs_date = a.obs_date AND "
              "b.series_code = 'FEDFUNDS'")  # fmt: skip
    assert high.status == "ok" and f"최고치: {gap:+.2f}%p" in high.answer
    # '둘 중 더 높은 쪽은?' after two price indices: their year-over-year rates, said which
    history: list[Any] = []
    for turn in ("미국 CPI 최근 추이", "한국은?", "둘 중 더 높은 쪽은?"):
        which = macro_answer(turn, history=history, settings=offline, store=graph_store,
                             pool=pg_pool)  # fmt: skip
        history = history_after(history, turn, which)
    assert which.status == "ok" and "상승률(전년 동월 대비)가" in which.answer
    assert "기준연도가 달라" in which.answer


def test_nested_etf_questions_compose_order_take_and_read(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    answer = etf_answer("순자산 상위 3개 ETF의 평균 총보수는?", settings=offline,
                        store=graph_store, pool=pg_pool)  # fmt: skip
    truth = largest_by_net_assets(pg_pool, 3)
    mean = sum(float(r["expense_ratio"]) for r in truth) / 3
    assert answer.status == "ok" and f"{mean:.2f}%" in answer.answer.split("\n")[0]
    assert all(r["code"] in answer.answer for r in truth)
    code = "\n".join(s.code or "" for s in answer.trace)
    assert "order_by='net_assets'" in code and "top=3" in code  # the plan's steps, in the code
    cheaper = etf_answer("KODEX 200과 TIGER 200 중 보수가 싼 쪽의 1년 수익률은?", settings=offline,
                         store=graph_store, pool=pg_pool)  # fmt: skip
    fees = {r["code"]: float(r["expense_ratio"]) for r in fetch_all(
        "SELECT code, expense_ratio FROM etfs WHERE code IN ('069500', '102110')", None, pg_pool)}  # fmt: skip
    cheap = min(fees, key=fees.__getitem__)
    assert cheaper.status == "ok" and cheap in cheaper.answer.split("\n")[0]
    # the same pick over a follow-up's two funds (fresh round 11: the gap of their returns)
    picked = chain(etf_answer, ("TIGER 200 보수", "KODEX 200은?", "둘 중 싼 쪽의 3개월 수익률은?"),
                   settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    head = picked.answer.split("\n")[0]
    assert picked.status == "ok" and cheap in head and "3개월 수익률" in head
    assert "차이" not in picked.answer
    assert "1년 수익률" in cheaper.answer


def test_a_pick_tied_with_others_names_them(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 11: the three ETFs with the most volume all charge 0.64%; the pick named one
    with status ok and said nothing of the other two."""
    answer = etf_answer("거래량 상위 3개 ETF 중 총보수가 가장 싼 것", settings=offline,
                        store=graph_store, pool=pg_pool)  # fmt: skip
    top = fetch_all(
        "SELECT e.code, e.expense_ratio FROM etfs e JOIN (SELECT etf_code, avg(volume) AS v "
        "FROM etf_prices WHERE trade_date > (SELECT max(trade_date) FROM etf_prices) - "
        "interval '1 month' GROUP BY 1 ORDER BY 2 DESC LIMIT 3) t ON t.etf_code = e.code",
        None, pg_pool)  # fmt: skip
    cheapest = min(float(r["expense_ratio"]) for r in top)
    same = [r["code"] for r in top if float(r["expense_ratio"]) == cheapest]
    assert answer.status == "ok" and any(code in answer.answer.split("\n")[0] for code in same)
    assert ("같은 ETF가" in answer.answer) == (len(same) > 1)
    assert all(code in answer.answer for code in same)


def test_a_second_cut_and_ties_at_the_cut_are_part_of_the_plan(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'순자산 상위 3개 ETF 중 보수가 제일 싼 것의 3개월 수익률' is three steps (order, take 3,
    pick the cheapest) — it was the three ETFs' returns, status ok; 'ETF 3개의' counts, and the
    ETFs tied with the last one kept are said."""
    picked = etf_answer("순자산 상위 3개 ETF 중 보수가 제일 싼 것의 3개월 수익률", settings=offline,
                        store=graph_store, pool=pg_pool)  # fmt: skip
    top3 = largest_by_net_assets(pg_pool, 3)
    cheapest = min(top3, key=lambda r: r["expense_ratio"])["code"]
    head = picked.answer.split("\n")[0]
    assert picked.status == "ok" and cheapest in head and "3개월 수익률" in head
    assert "→ 1개 →" in str(picked.trace[0].observation) or "1개" in head
    lowest = etf_answer("총보수 가장 낮은 ETF 3개의 평균 1개월 수익률은?", settings=offline,
                        store=graph_store, pool=pg_pool)  # fmt: skip
    fees = [float(r["expense_ratio"]) for r in fetch_all(
        "SELECT expense_ratio FROM etfs ORDER BY expense_ratio LIMIT 4", None, pg_pool)]  # fmt: skip
    assert lowest.status == "ok" and "1개월 수익률 평균" in lowest.answer.split("\n")[0]
    assert ("같은 ETF가" in lowest.answer) == (fees[2] == fees[3])  # a tie at the cut is said


def test_typos_link_with_a_note_and_unread_words_are_never_ok(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    typo = answer_stock_question("SK하이닉쓰 종가", pool=pg_pool)
    assert typo is not None and typo.status == "ok"
    assert typo.answer.splitlines()[0] == "ℹ️ 'SK하이닉쓰'를 SK하이닉스로 읽었습니다."
    etf = etf_answer("KODX 200 총보수", settings=offline, store=graph_store, pool=pg_pool)
    assert etf.status == "ok" and "KODEX 200으로 읽었습니다" in etf.answer
    assert "0.15%" in etf.answer
    other = answer_stock_question("한화투자증권 주가", pool=pg_pool)  # not NH투자증권 by a typo
    assert other is None or "NH투자증권" not in other.answer
    # any place before a regional series is one we do not hold, not Korea (fresh round 9)
    unheld = macro_answer("호주 기준금리 지금 몇 퍼센트야?", settings=offline, store=graph_store,
                          pool=pg_pool)  # fmt: skip
    assert unheld.status == "partial" and unheld.answer.startswith("'호주'에 대한 데이터는")
    assert "한국은행 기준금리 최신값" not in unheld.answer
    unread = etf_answer("테슬라 ETF 만들어줘", settings=offline, store=graph_store, pool=pg_pool)
    assert unread.status == "partial" and "'만들어줘'는 읽지 못해" in unread.answer.splitlines()[0]
    assert first_step(unread)["decisive"] == ["만들어줘"]
    asked = answer_stock_question("삼성전지 종가", pool=pg_pool)  # 삼성전자 or 삼성전기: asked
    assert asked is not None and asked.status == "partial"
    assert asked.answer.startswith("❓ '삼성전지'는 삼성전자, 삼성전기 중 어느 것인가요?")
    spelt = macro_answer("환률 최근 1주 변화", settings=offline, store=graph_store, pool=pg_pool)
    assert spelt.answer.splitlines()[0] == "ℹ️ '환률'을 환율로 읽었습니다."
    assert "원/달러 환율(종가) 최신값" in spelt.answer and spelt.status == "ok"


def test_days_in_words_ordinals_picks_among_and_misspelt_words(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 5 (written before the change): '지난 분기 말', '올해 첫 거래일' are days; '두
    번째로 큰' is the second of the ordering; '상위 5개 중 수익률이 가장 높은 것' picks one of
    the five; a misspelt vocabulary word ('실엄률') is read with a note. Each was answered as
    another question with status ok (or not read)."""
    from datetime import date

    from data_access.seed.calendar import next_trading_day

    quarter = date(date.today().year, ((date.today().month - 1) // 3) * 3 + 1, 1)
    end = quarter.fromordinal(quarter.toordinal() - 1)  # the last day of the previous quarter
    bond = macro_answer("미국 10년물 금리 지난 분기 말 값", settings=offline, store=graph_store,
                        pool=pg_pool)  # fmt: skip
    value = one(pg_pool, "SELECT value FROM macro_observations WHERE series_code = 'DGS10' AND "
                "obs_date <= %(d)s ORDER BY obs_date DESC LIMIT 1", d=end)  # fmt: skip
    assert bond.status == "ok" and f"{value:.2f}%" in bond.answer
    first = next_trading_day(date(date.today().year, 1, 1), "KRX")
    close = answer_stock_question("SK하이닉스 올해 첫 거래일 종가", pool=pg_pool)
    truth = one(pg_pool, "SELECT close FROM stock_prices WHERE security_id = 'KR:000660' AND "
                "trade_date >= %(d)s ORDER BY trade_date LIMIT 1", d=first)  # fmt: skip
    assert close is not None and close.status == "ok" and won(truth) in close.answer
    second = etf_answer("삼성전자 비중이 두번째로 큰 ETF는?", settings=offline, store=graph_store,
                        pool=pg_pool)  # fmt: skip
    holders = fetch_all("SELECT etf_code FROM etf_holdings WHERE security_id = 'KR:005930' AND "
                        "as_of_date = (SELECT max(as_of_date) FROM etf_holdings) ORDER BY weight "
                        "DESC LIMIT 2", None, pg_pool)  # fmt: skip
    assert (
        second.status == "ok"
        and f"({holders[1]['etf_code']})입니다" in second.answer.split("\n")[0]
    )
    among = etf_answer("순자산 상위 5개 ETF 중 1개월 수익률이 가장 높은 것은?", settings=offline,
                       store=graph_store, pool=pg_pool)  # fmt: skip
    five = [r["code"] for r in largest_by_net_assets(pg_pool, 5)]
    assert among.status == "ok" and "1개 ETF" in among.answer.split("\n")[0]
    assert sum(code in among.answer for code in five) == 1  # one of the five, picked
    typo = macro_answer("미국 실엄률 최근 값", settings=offline, store=graph_store, pool=pg_pool)
    assert typo.status == "ok" and "'실엄률'을 실업률로 읽었습니다" in typo.answer
    assert "미국 실업률 최신값" in typo.answer and "UNRATE" not in typo.answer


def test_a_holdings_list_keeps_its_etf_for_the_next_turns(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'KODEX 200 보유 상위 5종목' → '그 중 삼성전자 비중은?' → 'TIGER 200에서는?': the follow-up
    context of a holdings list was dropped (its frame failed validation), so the second turn
    answered 삼성전자's code with status ok."""
    from agents.understanding.history import history_after

    history: list[Any] = []
    for question, etf in (("KODEX 200 보유 상위 5종목", None), ("그 중 삼성전자 비중은?", "069500"),
                          ("TIGER 200에서는?", "102110")):  # fmt: skip
        answer = etf_answer(question, history, settings=offline, store=graph_store, pool=pg_pool)
        history = history_after(history, question, answer)
        if etf is None:
            continue
        weight = one(pg_pool, "SELECT weight FROM etf_holdings WHERE etf_code = %(e)s AND "
                     "security_id = 'KR:005930' ORDER BY as_of_date DESC LIMIT 1", e=etf)  # fmt: skip
        assert (
            answer.status == "ok" and f"{weight:.2f}%" in answer.answer and "비중" in answer.answer
        )


def test_a_foreign_yield_a_signed_spread_and_a_weekly_base_of_a_monthly_series(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'일본 10년물 금리' is Japan's yield (not held), not the US one; '2년물과 10년물 금리차' is
    the term spread, 10y − 2y by the market's convention; '전주 대비' of a monthly housing
    series cannot be computed, so the month-on-month answer says so (partial)."""
    japan = macro_answer("일본 10년물 금리", settings=offline, store=graph_store, pool=pg_pool)
    assert japan.status != "ok" and "'일본 10년물 금리'" in japan.answer
    assert "DGS10" not in japan.answer
    spread = macro_answer("미국 2년물과 10년물 금리차 최근 1년 최저치", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    low = term_spread(pg_pool, "min", ">", "1 year", spread.as_of_date)
    assert spread.status == "ok" and f"최저치: {low:+.2f}%p" in spread.answer
    weekly = macro_answer("서울 아파트 매매가격지수 전주 대비", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    assert weekly.status == "partial" and "월간이라 '전주 대비'" in weekly.answer


def test_the_nth_of_an_order_read_and_a_standard_deviation_of_closes(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'비중이 세 번째로 큰 ETF의 보수' is order → the third → read (it was the holders list with
    status ok); '종가 표준편차' is the closes' standard deviation over the sessions asked (it was
    a 15-day volatility with '15거래일' unread); one ETF's N sessions too, in Korean or English."""
    third = etf_answer("삼성전자 비중이 세 번째로 큰 ETF의 보수는?", settings=offline,
                       store=graph_store, pool=pg_pool)  # fmt: skip
    holder = fetch_all("SELECT h.etf_code, e.expense_ratio FROM etf_holdings h JOIN etfs e ON "
                       "e.code = h.etf_code WHERE h.security_id = 'KR:005930' AND h.as_of_date = "
                       "(SELECT max(as_of_date) FROM etf_holdings) ORDER BY h.weight DESC LIMIT 3",
                       None, pg_pool)[2]  # fmt: skip
    head = third.answer.split("\n")[0]
    assert third.status == "ok" and holder["etf_code"] in head
    assert f"{float(holder['expense_ratio']):g}%" in head
    spread = answer_stock_question("POSCO홀딩스 최근 15거래일 종가 표준편차", pool=pg_pool)
    std = one(pg_pool, "SELECT stddev_samp(close) FROM (SELECT close FROM stock_prices WHERE "
              "security_id = 'KR:005490' ORDER BY trade_date DESC LIMIT 15) t")  # fmt: skip
    assert (
        spread is not None
        and spread.status == "ok"
        and f"표준편차: {won(round(std))}" in spread.answer
    )
    closes = "(SELECT close FROM etf_prices WHERE etf_code = '069500' ORDER BY trade_date DESC LIMIT 10) t"
    for question, truth in (("KODEX 200 최근 10거래일 종가 표준편차", f"SELECT stddev_samp(close) FROM {closes}"),
                            ("KODEX 200 last 10 sessions average close", f"SELECT avg(close) FROM {closes}")):  # fmt: skip
        etf = etf_answer(question, settings=offline, store=graph_store, pool=pg_pool)
        assert etf.status == "ok" and f"{one(pg_pool, truth):,.0f}" in etf.answer, question


def test_fifty_two_weeks_are_the_year_the_period_reader_names(pg_pool: Any) -> None:
    """'52-week high' was answered with the year's high and still said '52-week' was unread:
    52 weeks are the 1y period (twelve months), not thirteen."""
    answer = answer_stock_question("NAVER 52-week high", pool=pg_pool)
    high = one(pg_pool, "SELECT max(high) FROM stock_prices WHERE security_id = 'KR:035420' AND "
               "trade_date > (SELECT max(trade_date) FROM stock_prices) - interval '1 year'")  # fmt: skip
    assert answer is not None and answer.status == "ok" and won(high) in answer.answer
    assert not first_step(answer)["decisive"]


def test_a_statistic_the_screen_computes_is_read(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'중위가격': a deal price is the month's median deal, so the word is read (it made the
    answer partial as unread); 'unsold units' is the unsold count."""
    median = macro_answer("강남구 아파트 실거래 중위가격", settings=offline, store=graph_store,
                          pool=pg_pool)  # fmt: skip
    assert median.status == "ok" and "중위가격" in median.answer
    assert not first_step(median)["decisive"]
    unsold = macro_answer("unsold units in Busan", settings=offline, store=graph_store,
                          pool=pg_pool)  # fmt: skip
    assert unsold.status == "ok" and "Busan unsold" in unsold.answer


def test_both_ends_a_calendar_etf_window_a_base_day_and_a_carried_window(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 12's misses, each against SQL: '최고가와 최저가' is both ends (only one was
    given, status ok); one ETF's '최근 2주' is a calendar window (the price tool took sessions
    only); '1월 2일 대비' is the period's base (it was the as-of day); a window carries into a
    follow-up ('20거래일 평균은?' → '기아는?': 16 sessions labelled a month)."""
    both = answer_stock_question("셀트리온 최근 한 달 최고가와 최저가", pool=pg_pool)
    high, low = fetch_all(
        "SELECT max(high) AS h, min(low) AS l FROM stock_prices WHERE security_id = 'KR:068270' "
        "AND trade_date > (SELECT max(trade_date) FROM stock_prices WHERE security_id = "
        "'KR:068270') - interval '1 month'", None, pg_pool)[0].values()  # fmt: skip
    assert both is not None and both.status == "ok"
    assert f"최고 {won(float(high))}" in both.answer and f"최저 {won(float(low))}" in both.answer
    fx = macro_answer("원달러 환율 최근 3개월 최고치와 최저치는?", settings=offline,
                      store=graph_store, pool=pg_pool)  # fmt: skip
    top, bottom = fetch_all(
        "SELECT max(value) AS h, min(value) AS l FROM macro_observations WHERE series_code = "
        "'KR_USDKRW' AND obs_date > (SELECT max(obs_date) FROM macro_observations WHERE "
        "series_code = 'KR_USDKRW') - interval '3 months'", None, pg_pool)[0].values()  # fmt: skip
    assert f"최고 {float(top):,.2f}" in fx.answer and f"최저 {float(bottom):,.2f}" in fx.answer
    weeks = etf_answer("KODEX 200 최근 2주 거래량 합계", settings=offline, store=graph_store,
                       pool=pg_pool)  # fmt: skip
    volume = one(pg_pool, "SELECT sum(volume) FROM etf_prices WHERE etf_code = '069500' AND "
                 "trade_date > (SELECT max(trade_date) FROM etf_prices WHERE etf_code = "
                 "'069500') - interval '14 days'")  # fmt: skip
    assert weeks.status == "ok" and f"{volume:,.0f}주" in weeks.answer
    named = {c.dataset_code: c.source for c in weeks.structured_citations}
    assert named.get("KR_ETF_DAILY_PRICE"), named  # an ETF answer names its publisher too
    since = macro_answer("삼성전자 2026-01-02 대비 수익률", settings=offline, store=graph_store,
                         pool=pg_pool)  # fmt: skip
    base, last = fetch_all(
        "(SELECT close FROM stock_prices WHERE security_id = 'KR:005930' AND trade_date <= "
        "'2026-01-02' ORDER BY trade_date DESC LIMIT 1) UNION "
        "ALL (SELECT close FROM stock_prices WHERE security_id = 'KR:005930' ORDER BY "
        "trade_date DESC LIMIT 1)", None, pg_pool)  # fmt: skip
    move = (float(last["close"]) / float(base["close"]) - 1) * 100
    assert since.status == "ok" and f"{move:+.2f}%" in since.answer
    history: list[Any] = []
    for turn in ("현대차 종가", "20거래일 평균은?", "기아는?"):
        carried = macro_answer(turn, history=history, settings=offline, store=graph_store,
                               pool=pg_pool)  # fmt: skip
        history = history_after(history, turn, carried)
    mean = one(pg_pool, "SELECT avg(close) FROM (SELECT close FROM stock_prices WHERE "
               "security_id = 'KR:000270' ORDER BY trade_date DESC LIMIT 20) t")  # fmt: skip
    assert carried.status == "ok" and "관측치 20개" in carried.answer
    assert won(round(mean)) in carried.answer


def test_a_gap_against_a_year_ago_and_the_most_held_set(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 13: '차이는 1년 전보다 커졌어?' compares with the gap twelve months before the
    last common month (it used the widened window's first month) and says whether it widened;
    '삼성전자를 가장 많이 담은 ETF 3개의 평균 보수' orders the holders by weight (all 19 were
    averaged)."""
    wider = macro_answer("한국 실업률과 미국 실업률 차이는 1년 전보다 커졌어?", settings=offline,
                         store=graph_store, pool=pg_pool)  # fmt: skip
    then = fetch_all(
        "SELECT a.obs_date, a.value - b.value AS gap FROM macro_observations a JOIN "
        "macro_observations b ON b.obs_date = a.obs_date AND b.series_code = 'UNRATE' WHERE "
        "a.series_code = 'KR_UNEMPLOYMENT' ORDER BY a.obs_date DESC OFFSET 12 LIMIT 1", None,
        pg_pool)[0]  # fmt: skip
    assert f"{then['obs_date']} {float(then['gap']):+.2f}%p에서" in wider.answer
    assert "격차의 크기" in wider.answer
    held = etf_answer("삼성전자를 가장 많이 담은 ETF 3개의 평균 보수", settings=offline,
                      store=graph_store, pool=pg_pool)  # fmt: skip
    fee = one(pg_pool, "SELECT avg(e.expense_ratio) FROM (SELECT h.etf_code FROM etf_holdings h "
              "WHERE h.security_id = 'KR:005930' AND h.as_of_date = (SELECT max(as_of_date) FROM "
              "etf_holdings x WHERE x.etf_code = h.etf_code) ORDER BY h.weight DESC LIMIT 3) t "
              "JOIN etfs e ON e.code = t.etf_code")  # fmt: skip
    assert held.status == "ok" and f"{fee:.4f}%" in held.answer


def test_calendar_months_for_one_etf_two_stocks_dividend_gap_and_an_outlook(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 15's wrong answers with status ok, against SQL: '지난달 평균 거래량' of one ETF
    is October's sessions (it was the last month's summary); two stocks' '배당수익률 차이' is the
    dividend yields' gap (it was their 1-month returns': '수익률' inside '배당수익률' read as a
    return); '내년 실적 전망' is a forecast, declined (it showed the last quarter's surprise)."""
    october = etf_answer("TIGER 미국나스닥100 지난달 평균 거래량", settings=offline,
                         store=graph_store, pool=pg_pool)  # fmt: skip
    last = fetch_all("SELECT max(trade_date) AS d FROM etf_prices WHERE etf_code = '133690'",
                     None, pg_pool)[0]["d"]  # fmt: skip
    start = last.replace(day=1)
    mean = one(pg_pool, "SELECT avg(volume) FROM etf_prices WHERE etf_code = '133690' AND "
               "trade_date >= (%(s)s::date - interval '1 month') AND trade_date < %(s)s::date",
               s=start)  # fmt: skip
    assert (
        october.status == "ok" and f"거래량 {(start - timedelta(days=1)):%Y-%m}(" in october.answer
    )
    assert f"평균: {mean:,.0f}주" in october.answer
    gap = answer_stock_question("현대차 배당수익률이랑 기아 배당수익률 차이", pool=pg_pool)
    yields = {r["security_id"]: float(r["dividend_yield"]) for r in fetch_all(
        "SELECT DISTINCT ON (security_id) security_id, dividend_yield FROM stock_fundamentals "
        "WHERE security_id IN ('KR:005380', 'KR:000270') ORDER BY security_id, as_of_date DESC",
        None, pg_pool)}  # fmt: skip
    assert gap is not None and gap.status == "ok"
    assert f"배당수익률 차이: {yields['KR:005380'] - yields['KR:000270']:+.2f}%p" in gap.answer
    outlook = answer_stock_question("삼성전자 내년 실적 전망", pool=pg_pool)
    assert outlook is not None and outlook.status != "ok" and "서프라이즈" not in outlook.answer


def test_a_pick_among_a_cut_keeps_the_count_asked(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 15: '… 상위 10개 ETF 중 … 하위 3개' kept one (and said '3개' unread); the pick
    keeps the count written after '중' (not a '3개월' window)."""
    answer = etf_answer("순자산 상위 10개 ETF 중 총보수 낮은 3개", settings=offline,
                        store=graph_store, pool=pg_pool)  # fmt: skip
    fees = sorted(float(r["expense_ratio"]) for r in largest_by_net_assets(pg_pool, 10))
    listed = [line for line in answer.answer.splitlines() if line[:2] in ("1.", "2.", "3.", "4.")]
    assert answer.status == "ok" and len(listed) == 3, answer.answer
    assert all(f"총보수 {fee:g}%" in answer.answer for fee in fees[:3])


def test_a_picked_etfs_holdings(pg_pool: Any, graph_store: Any, offline: Settings) -> None:
    """Fresh round 15: '반도체 ETF 중 순자산이 가장 큰 ETF의 상위 5개 보유종목' listed the five
    largest funds (and said '보유종목' unread); it is a pick, then that fund's holdings."""
    answer = etf_answer("반도체 ETF 중 순자산이 가장 큰 ETF의 상위 5개 보유종목", settings=offline,
                        store=graph_store, pool=pg_pool)  # fmt: skip
    top = fetch_all(
        "SELECT t.etf_code FROM etf_tags t JOIN LATERAL (SELECT net_assets FROM etf_prices p "
        "WHERE p.etf_code = t.etf_code ORDER BY trade_date DESC LIMIT 1) p ON true "
        "WHERE t.tag = '반도체' ORDER BY p.net_assets DESC LIMIT 1", None, pg_pool)[0]["etf_code"]  # fmt: skip
    held = fetch_all(
        "SELECT s.name FROM etf_holdings h JOIN stocks s USING (security_id) WHERE h.etf_code = "
        "%(c)s AND h.as_of_date = (SELECT max(as_of_date) FROM etf_holdings WHERE etf_code = "
        "%(c)s) ORDER BY h.weight DESC LIMIT 5", {"c": top}, pg_pool)  # fmt: skip
    assert answer.status == "ok", answer.answer
    assert all(r["name"] in answer.answer for r in held) and "비중 상위 5개" in answer.answer


def test_round_17_two_stock_holders_side_by_side_measures_and_unheld_terms(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 17 (each answered another question with status ok): the holders of two stocks
    as a set picked by fee; a pick said without '의' ('싼 쪽 3개월 수익률'); a picked fund's
    holdings asked next; two measures of one fund; a term the glossary says the data lacks
    ('달러 인덱스', once read as the manager 킨덱스 and answered with 원/달러 환율)."""
    both = etf_answer("삼성전자와 SK하이닉스를 모두 담은 ETF 중 보수가 가장 싼 것", settings=offline,
                      store=graph_store, pool=pg_pool)  # fmt: skip
    cheapest = fetch_all(
        "WITH l AS (SELECT etf_code, max(as_of_date) d FROM etf_holdings GROUP BY etf_code) "
        "SELECT e.code FROM etfs e JOIN l ON l.etf_code = e.code WHERE (SELECT count(*) FROM "
        "etf_holdings h JOIN stocks s USING (security_id) WHERE h.etf_code = e.code AND "
        "h.as_of_date = l.d AND s.code IN ('005930', '000660')) = 2 "
        "ORDER BY e.expense_ratio, e.code LIMIT 1", None, pg_pool)[0]["code"]  # fmt: skip
    listed = [line for line in both.answer.splitlines() if line[:2] == "1."]
    assert both.status == "ok" and len(listed) == 1 and cheapest in listed[0], both.answer
    picked = chain(etf_answer, ("KODEX 200 총보수", "TIGER 200은?", "둘 중 싼 쪽 3개월 수익률은?"),
                   settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert picked.status == "ok" and "102110" in picked.answer.split("\n")[0], picked.answer
    listed_answer = chain(etf_answer, ("2차전지 ETF 목록", "그 중 순자산 가장 큰 거", "보유 상위 5종목"),
                          settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert "보유종목" in listed_answer.answer and "비중 상위 5개" in listed_answer.answer
    two = etf_answer("TIGER 200 expense ratio랑 1y return", settings=offline, store=graph_store,
                     pool=pg_pool)  # fmt: skip
    fee = one(pg_pool, "SELECT expense_ratio FROM etfs WHERE code = '102110'")
    assert two.status == "ok" and f"총보수 {fee:g}%" in two.answer and "1년 수익률" in two.answer
    dollar = macro_answer("달러 인덱스 최근 값", settings=offline, store=graph_store, pool=pg_pool)
    assert dollar.status == "partial" and "킨덱스" not in dollar.answer
    assert dollar.answer.startswith("⚠️ '달러 인덱스'는 이 워크벤치 데이터에는 없습니다")


def test_round_17_picks_session_windows_return_gaps_and_month_sessions(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 17, the rest: a pick between two stocks ('NAVER와 카카오 중 PER 낮은 곳' listed
    both, no pick); a '20일 변동성' is over 20 sessions as quoted (it took 16, and the ETF
    screen answered 3 months); the gap of two indices' returns (it subtracted their levels);
    a month's first or last session ('11월 첫 거래일' was unread, the latest close given)."""
    pick = answer_stock_question("NAVER와 카카오 중 PER 낮은 곳은?", pool=pg_pool)
    pers = {r["code"]: float(r["per"]) for r in fetch_all(
        "SELECT DISTINCT ON (s.code) s.code, f.pe AS per FROM stocks s JOIN stock_fundamentals f USING "
        "(security_id) WHERE s.code IN ('035420', '035720') ORDER BY s.code, f.as_of_date DESC",
        None, pg_pool)}  # fmt: skip
    lower = "카카오" if pers["035720"] < pers["035420"] else "NAVER"
    assert pick.status == "ok" and pick.answer.startswith(f"**PER이 더 낮은 쪽: {lower}**")
    vol = etf_answer("KODEX 200 20일 변동성", settings=offline, store=graph_store, pool=pg_pool)
    assert vol.status == "ok" and "20거래일" in vol.answer and "관측치 20개" in vol.answer
    gap = macro_answer("코스피와 코스닥 최근 1개월 수익률 차이", settings=offline,
                       store=graph_store, pool=pg_pool)  # fmt: skip
    assert gap.status == "ok" and "수익률 비교" in gap.answer and "격차(" not in gap.answer
    first = fetch_all(
        "SELECT trade_date, close FROM etf_prices WHERE etf_code = '069500' AND trade_date >= "
        "date_trunc('month', (SELECT max(trade_date) FROM etf_prices)) ORDER BY trade_date "
        "LIMIT 1", None, pg_pool)[0]  # fmt: skip
    month = first["trade_date"].month
    day = etf_answer(f"KODEX 200 {month}월 첫 거래일 종가", settings=offline, store=graph_store,
                     pool=pg_pool)  # fmt: skip
    assert day.status == "ok" and str(first["trade_date"]) in day.answer, day.answer
    assert won(float(first["close"])) in day.answer
    before = fetch_all(  # '그저께': two sessions before the 기준일 (the last one is today)
        "SELECT trade_date, close FROM etf_prices WHERE etf_code = '069500' ORDER BY trade_date "
        "DESC LIMIT 3", None, pg_pool)[2]  # fmt: skip
    ago = etf_answer("KODEX 200 그저께 종가", settings=offline, store=graph_store, pool=pg_pool)
    assert ago.status == "ok" and str(before["trade_date"]) in ago.answer
    assert won(float(before["close"])) in ago.answer
    ceo = answer_stock_question("삼성전자 CEO 누구야?", pool=pg_pool)
    assert ceo is not None and ceo.answer.startswith("'CEO'는")


def test_round_18_pick_then_holdings_pick_before_a_measure_and_unheld_terms(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 18 (each answered another question with status ok): '… ETF의 보유 상위
    3종목' listed three funds by fee, not the cheapest one's holdings; '높은 쪽 순자산' (the
    measure right after the pick, Kiwi reading '순' as a determiner) showed both funds; '배당금'
    was read as the tag '배당' inside it; '삼성전자 신용등급' opened the full report."""
    held = etf_answer("총보수 가장 싼 2차전지 ETF의 보유 상위 3종목", settings=offline,
                      store=graph_store, pool=pg_pool)  # fmt: skip
    cheapest = fetch_all(
        "SELECT e.code, e.name FROM etfs e JOIN etf_tags t ON t.etf_code = e.code WHERE t.tag = "
        "'2차전지' ORDER BY e.expense_ratio, e.code LIMIT 1", None, pg_pool)[0]  # fmt: skip
    assert held.status == "ok" and held.answer.startswith(cheapest["name"]), held.answer
    assert "비중 상위 3개" in held.answer
    higher = etf_answer("KODEX 200과 TIGER 200 중 1년 수익률 높은 쪽 순자산은?", settings=offline,
                        store=graph_store, pool=pg_pool)  # fmt: skip
    assert higher.status == "ok" and "1위 ETF의 순자산총액" in higher.answer.split("\n")[0]
    dividend = etf_answer("ETF 배당금 언제 들어와?", settings=offline, store=graph_store,
                          pool=pg_pool)  # fmt: skip
    assert dividend.status == "partial" and dividend.answer.startswith("⚠️")
    rating = answer_stock_question("삼성전자 신용등급", pool=pg_pool)
    assert rating is not None and rating.answer.startswith(
        "'신용등급'은 이 워크벤치 데이터에는 없습니다"
    )


def test_round_19_when_a_move_will_come_is_a_forecast(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 19: '금리 언제 내려?' was answered with the past year's rate changes, status
    ok; asked in the present or future it is a forecast (declined), in the past it is history."""
    ahead = macro_answer("금리 언제 내려?", settings=offline, store=graph_store, pool=pg_pool)
    assert ahead.status == "partial" and "예측" in ahead.answer.split("\n")[0]
    past = macro_answer("금리 언제 내렸어?", settings=offline, store=graph_store, pool=pg_pool)
    assert past.status == "ok" and "마지막 변경" in past.answer


def test_the_day_of_a_stocks_largest_move(pg_pool: Any) -> None:
    """'삼성전자 최근 3개월 중 가장 많이 오른 날' gave the 3-month return with status ok (seen
    after fresh round 19): the day of the largest one-day rise over the period, from SQL."""
    answer = answer_stock_question("삼성전자 최근 3개월 중 가장 많이 오른 날", pool=pg_pool)
    best = fetch_all(
        "WITH last AS (SELECT max(trade_date) d FROM stock_prices WHERE security_id = "
        "'KR:005930'), p AS (SELECT trade_date, close, lag(close) OVER (ORDER BY trade_date) AS "
        "prev FROM stock_prices WHERE security_id = 'KR:005930' AND trade_date >= (SELECT max("
        "trade_date) FROM stock_prices WHERE security_id = 'KR:005930' AND trade_date <= (SELECT "
        "d FROM last) - interval '3 months')) SELECT trade_date, (close / prev - 1) * 100 AS r "
        "FROM p WHERE prev IS NOT NULL ORDER BY r DESC LIMIT 1", None, pg_pool)[0]  # fmt: skip
    assert answer is not None and answer.status == "ok"
    assert f"가장 크게 오른 날: {best['trade_date']} {float(best['r']):+.2f}%" in answer.answer


def test_a_fund_without_holdings_is_not_said_missing(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 20: '그 ETF 보유 상위 3종목' about a CD-rate fund said the fund was not found
    in the data; it is there, without a holdings snapshot, and the answer says so."""
    held = fetch_all("SELECT count(*) AS n FROM etf_holdings WHERE etf_code = '459580'", None,
                     pg_pool)[0]["n"]  # fmt: skip
    answer = etf_answer("KODEX CD금리액티브 보유종목", settings=offline, store=graph_store,
                        pool=pg_pool)  # fmt: skip
    assert held == 0 and "보유종목 스냅샷이 없습니다" in answer.answer
    assert "찾지 못했습니다" not in answer.answer
    # '최근 2주 수익률' was widened to a month (the price tool's periods): the window's own return
    two = etf_answer("KODEX 200 최근 2주 수익률", settings=offline, store=graph_store, pool=pg_pool)
    assert two.status == "ok" and "최근 2주(" in two.answer and "1개월" not in two.answer
    # '둘 중 높은 쪽 총보수는?' after two 1-month returns: picked by the return, then its fee
    picked = chain(etf_answer, ("TIGER 200 1개월 수익률", "KODEX 200은?", "둘 중 높은 쪽 총보수는?"),
                   settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert picked.status == "ok" and "1개월 수익률 높은 순 1위 ETF의 총보수" in picked.answer


def test_round_21_counted_sets_sums_of_stocks_days_back_and_region_groups(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 21 (each answered another question with status ok): '하위 3개 ETF 평균
    순자산' (no '의') averaged the 1-month return of all ETFs; '카카오와 NAVER 시가총액 합계'
    showed both, no sum; '최고가와 최저가 차이' gave the two ends, no difference; '3일 전
    종가' listed the last three closes; '수도권 미분양' answered 전국, saying no region was named."""
    low = etf_answer("1개월 수익률 하위 3개 ETF 평균 순자산", settings=offline, store=graph_store,
                     pool=pg_pool)  # fmt: skip
    assert (
        low.status == "ok" and "1개월 수익률 낮은 순 상위 3개 ETF의 순자산총액 평균" in low.answer
    )
    caps = fetch_all("SELECT DISTINCT ON (security_id) market_cap FROM stock_fundamentals WHERE "
                     "security_id IN ('KR:035720', 'KR:035420') ORDER BY security_id, as_of_date "
                     "DESC", None, pg_pool)  # fmt: skip
    total = sum(float(r["market_cap"]) for r in caps)
    summed = answer_stock_question("카카오와 NAVER 시가총액 합계", pool=pg_pool)
    assert summed is not None and summed.answer.startswith("**카카오 + NAVER 시가총액 합계: ")
    assert f"{int(total // 1e12)}조" in summed.answer.split("\n")[0]
    width = answer_stock_question("기아 최근 30일 최고가와 최저가 차이", pool=pg_pool)
    span = fetch_all(
        "SELECT max(high) - min(low) AS w FROM stock_prices WHERE security_id = 'KR:000270' AND "
        "trade_date > (SELECT max(trade_date) FROM stock_prices WHERE security_id = 'KR:000270') "
        "- 30", None, pg_pool)[0]["w"]  # fmt: skip
    assert width is not None and f"최고치와 최저치의 차이: {won(float(span))}" in width.answer
    # 'KODEX 200 이틀 전 종가' (round 28, measured with no change after it) gave the last close
    two = etf_answer("KODEX 200 이틀 전 종가", settings=offline, store=graph_store, pool=pg_pool)
    back = fetch_all(
        "SELECT trade_date FROM etf_prices WHERE etf_code = '069500' AND trade_date <= (SELECT "
        "max(trade_date) FROM etf_prices WHERE etf_code = '069500') - 2 ORDER BY trade_date DESC "
        "LIMIT 1", None, pg_pool)[0]["trade_date"]  # fmt: skip
    assert two.status == "ok" and str(back) in two.answer
    ago = etf_answer("KODEX 200 3일 전 종가", settings=offline, store=graph_store, pool=pg_pool)
    day = fetch_all(
        "SELECT trade_date, close FROM etf_prices WHERE etf_code = '069500' AND trade_date <= "
        "(SELECT max(trade_date) FROM etf_prices WHERE etf_code = '069500') - 3 ORDER BY "
        "trade_date DESC LIMIT 1", None, pg_pool)[0]  # fmt: skip
    assert ago.status == "ok" and str(day["trade_date"]) in ago.answer
    assert won(float(day["close"])) in ago.answer
    unsold = fetch_all(
        "SELECT sum(units) AS n FROM re_unsold_housing WHERE region IN ('서울', '인천', '경기') "
        "AND month = (SELECT max(month) FROM re_unsold_housing)", None, pg_pool)[0]["n"]  # fmt: skip
    metro = macro_answer("수도권 미분양 최근 값", settings=offline, store=graph_store, pool=pg_pool)
    assert "수도권 미분양" in metro.answer and f"{int(unsold):,}호" in metro.answer
    assert "지역이 없어" not in metro.answer


def test_round_22_a_figure_against_its_past_and_talk_about_similar_funds(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 22 (each answered another question with status ok): 'EPS 작년보다 늘었어?'
    gave today's EPS and a 1-month price return; '두 ETF 공통 종목은?' after two holdings lists
    showed the compare card; '비슷한 ETF 중 더 싼 거 있어?' listed all 105 ETFs by fee."""
    eps = answer_stock_question("카카오 EPS 작년보다 늘었어?", pool=pg_pool)
    rows = fetch_all(
        "SELECT as_of_date, eps FROM stock_fundamentals WHERE security_id = 'KR:035720' AND "
        "as_of_date <= (SELECT max(as_of_date) FROM stock_fundamentals WHERE security_id = "
        "'KR:035720') - interval '1 year' ORDER BY as_of_date DESC LIMIT 1", None, pg_pool)  # fmt: skip
    assert eps is not None and eps.status == "ok" and "수익률" not in eps.answer
    assert f"{rows[0]['as_of_date']}의 {won(float(rows[0]['eps']))} 대비" in eps.answer
    common = chain(etf_answer, ("KODEX 200 보유 상위 3종목", "TIGER 200은?", "두 ETF 공통 종목은?"),
                   settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert common.answer.startswith("KODEX 200과 TIGER 200의 공통 보유 종목")
    cheaper = chain(etf_answer, ("TIGER 미국S&P500 총보수", "비슷한 ETF 중 더 싼 거 있어?"),
                    settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    fee = one(pg_pool, "SELECT expense_ratio FROM etfs WHERE code = '360750'")
    listed = (cheaper.payload or {}).get("followup", {}).get("result", [])
    assert cheaper.status == "ok" and cheaper.answer.startswith("TIGER 미국S&P500과 비슷한 ETF 중")
    assert listed and len(listed) <= 5
    fees = fetch_all(
        "SELECT code, expense_ratio FROM etfs WHERE code = ANY(%s)", (listed,), pg_pool
    )
    assert all(float(r["expense_ratio"]) < fee for r in fees)


def test_a_valuation_beside_its_sector(pg_pool: Any) -> None:
    """Fresh round 22: '삼성전자 PER 업종 평균 대비 어때?' gave the PER alone with status ok
    ('업종' was a known word, read by nothing): the sector's mean and median, from SQL."""
    answer = answer_stock_question("삼성전자 PER 업종 평균 대비 어때?", pool=pg_pool)
    pes = [float(r["pe"]) for r in fetch_all(
        "SELECT f.pe FROM stocks s JOIN LATERAL (SELECT pe FROM stock_fundamentals WHERE "
        "security_id = s.security_id ORDER BY as_of_date DESC LIMIT 1) f ON true WHERE s.sector = "
        "(SELECT sector FROM stocks WHERE security_id = 'KR:005930') AND s.country = 'KR' AND "
        "NOT s.is_etf AND f.pe > 0", None, pg_pool)]  # fmt: skip
    mean, median = sum(pes) / len(pes), sorted(pes)[len(pes) // 2]
    if len(pes) % 2 == 0:
        median = (sorted(pes)[len(pes) // 2 - 1] + median) / 2
    assert answer is not None and answer.status == "ok"
    assert f"업종(국내 {len(pes)}종목) 평균 {mean:,.2f}배, 중앙값 {median:,.2f}배" in answer.answer


def test_round_23_holdings_returns_a_cut_then_a_condition_and_ytd_windows(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 23 (each answered another question with status ok): 'TIGER 200에 가장 많이
    담긴 종목의 1개월 수익률' listed the holding without its return; '순자산 상위 10개 ETF 중
    총보수 0.1% 미만인 것 개수' picked the cheapest of the ten; '연초 이후 거래대금' summed from
    2026-01-21 (ten months back), not from the year's first session."""
    held = etf_answer("TIGER 200에 가장 많이 담긴 종목의 1개월 수익률", settings=offline,
                      store=graph_store, pool=pg_pool)  # fmt: skip
    top = answer_stock_question("삼성전자 1개월 수익률", pool=pg_pool)
    assert top is not None and held.status == "ok"
    got = top.answer.split("1개월 수익률 ")[1].split(" ")[0]
    assert "1. 삼성전자 (005930): " in held.answer and f"1개월 수익률 {got}" in held.answer
    counted = etf_answer("순자산 상위 10개 ETF 중 총보수 0.1% 미만인 것 개수", settings=offline,
                         store=graph_store, pool=pg_pool)  # fmt: skip
    n = sum(1 for r in largest_by_net_assets(pg_pool, 10) if float(r["expense_ratio"]) < 0.1)
    assert counted.status == "ok" and f"ETF 개수: {n}개" in counted.answer.split("\n")[0]
    ytd = answer_stock_question("카카오 연초 이후 거래대금", pool=pg_pool)
    first = fetch_all(
        "SELECT min(trade_date) AS d FROM stock_prices WHERE security_id = 'KR:035720' AND "
        "trade_date > (SELECT max(trade_date) FROM stock_prices WHERE security_id = 'KR:035720' "
        "AND trade_date < date_trunc('year', (SELECT max(trade_date) FROM stock_prices)))",
        None, pg_pool)[0]["d"]  # fmt: skip
    assert ytd is not None and f"({first} ~ " in ytd.answer


def test_round_24_drawdowns_volume_days_places_sectors_and_growth_windows(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 24 (each answered another question with status ok): the stock box's '최대
    낙폭' was the distance from the high, '거래량 가장 많았던 날' the last volume; 'KODEX 200
    순자산 순위 몇 위?' gave the net assets; 'CPI 상승률 최고치' the index level's maximum;
    '반도체 업종 평균 PER' was an unknown stock."""
    closes = [float(r["close"]) for r in fetch_all(  # the year's own closes, not its base close
        "SELECT close FROM stock_prices WHERE security_id = 'KR:005930' AND trade_date > "
        "(SELECT max(trade_date) FROM stock_prices WHERE security_id = 'KR:005930') - "
        "interval '1 year' ORDER BY trade_date", None, pg_pool)]  # fmt: skip
    peak, worst = closes[0], 0.0
    for c in closes:
        peak = max(peak, c)
        worst = min(worst, c / peak - 1)
    mdd = answer_stock_question("삼성전자 최근 1년 최대 낙폭", pool=pg_pool)
    assert mdd is not None and f"최대 낙폭: {worst * 100:.2f}%" in mdd.answer
    busiest = fetch_all(
        "SELECT trade_date FROM stock_prices WHERE security_id = 'KR:068270' AND trade_date > "
        "(SELECT max(trade_date) FROM stock_prices WHERE security_id = 'KR:068270') - interval "
        "'1 month' ORDER BY volume DESC LIMIT 1", None, pg_pool)[0]["trade_date"]  # fmt: skip
    day = answer_stock_question("셀트리온 최근 한 달 중 거래량 가장 많았던 날", pool=pg_pool)
    assert day is not None and f"거래량 가장 많은 날: {busiest}" in day.answer
    place = etf_answer("TIGER 200 총보수 순위", settings=offline, store=graph_store, pool=pg_pool)
    fees = fetch_all("SELECT count(*) FILTER (WHERE a.expense_ratio < e.expense_ratio) AS lower, "
                     "count(*) FILTER (WHERE a.expense_ratio = e.expense_ratio) AS same, count(*) AS n "
                     "FROM etfs a, (SELECT expense_ratio FROM etfs WHERE code = '102110') e", None,
                     pg_pool)[0]  # fmt: skip
    tie = "공동 " if fees["same"] > 1 else ""
    assert place.answer.startswith(
        f"TIGER 200의 총보수 순위: {tie}{fees['lower'] + 1}위 / {fees['n']}개"
    )
    cpi = macro_answer("미국 CPI 상승률 최근 1년 최고치", settings=offline, store=graph_store,
                       pool=pg_pool)  # fmt: skip
    rates = fetch_all(
        "SELECT a.obs_date, (a.value / b.value - 1) * 100 AS r FROM macro_observations a JOIN "
        "macro_observations b ON b.series_code = a.series_code AND b.obs_date = a.obs_date - "
        "interval '1 year' WHERE a.series_code = 'CPIAUCSL' AND a.obs_date > (SELECT max(obs_date) "
        "FROM macro_observations WHERE series_code = 'CPIAUCSL') - interval '1 year' ORDER BY r "
        "DESC LIMIT 1", None, pg_pool)[0]  # fmt: skip
    assert f"최고치: {float(rates['r']):.2f}% ({rates['obs_date']})" in cpi.answer
    sector = answer_stock_question("반도체 업종 평균 PER", pool=pg_pool)
    assert sector is not None and sector.status == "ok" and "국내 반도체 업종 PER" in sector.answer


def test_round_25_months_said_with_a_year_word_both_price_ends_and_unread_company_facts(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 25 (each answered another question with status ok): '올해 1월 평균' was read
    as YTD up to January ('최근 11개월', from 2025-12-30); '지난달 최고가 최저가' gave the highest
    and lowest of the daily lows; '카카오 대표이사' opened the full report; a stock's calendar
    month average was that month's last close."""
    jan = macro_answer(
        "원달러 환율 올해 1월 평균", settings=offline, store=graph_store, pool=pg_pool
    )
    mean = one(pg_pool, "SELECT avg(value) FROM macro_observations WHERE series_code = "
               "'KR_USDKRW' AND obs_date >= date_trunc('year', (SELECT max(obs_date) FROM "
               "macro_observations WHERE series_code = 'KR_USDKRW')) AND obs_date < date_trunc("
               "'year', (SELECT max(obs_date) FROM macro_observations WHERE series_code = "
               "'KR_USDKRW')) + interval '1 month'")  # fmt: skip
    assert f"평균: {mean:,.2f}" in jan.answer and "11개월" not in jan.answer
    ends = answer_stock_question("NAVER 지난달 최고가 최저가", pool=pg_pool)
    high = one(pg_pool, "SELECT max(high) FROM stock_prices WHERE security_id = 'KR:035420' AND "
               "date_trunc('month', trade_date) = date_trunc('month', (SELECT max(trade_date) "
               "FROM stock_prices)) - interval '1 month'")  # fmt: skip
    assert ends is not None and f"최고 {won(high)}" in ends.answer
    ceo = answer_stock_question("카카오 대표이사", pool=pg_pool)
    assert ceo is not None and ceo.status == "partial" and ceo.answer.startswith("'대표이사'")
    month = answer_stock_question("삼성전자 10월 평균 종가", pool=pg_pool)
    avg = one(pg_pool, "SELECT avg(close) FROM stock_prices WHERE security_id = 'KR:005930' AND "
              "date_trunc('month', trade_date) = date_trunc('month', (SELECT max(trade_date) FROM "
              "stock_prices)) - interval '1 month'")  # fmt: skip
    assert month is not None and f"평균: {won(avg)}" in month.answer


def test_a_stocks_return_against_the_index_named(pg_pool: Any) -> None:
    """Fresh round 24: 'NAVER 코스피 대비 3개월 초과수익률' said the term was not held and gave
    NAVER's return alone; it is the difference of the two returns over the same days (not an
    alpha net of beta, which the answer says), from SQL."""
    answer = answer_stock_question("NAVER 코스피 대비 3개월 초과수익률", pool=pg_pool)
    assert answer is not None and answer.status == "ok"
    days = answer.answer.split("%; ")[1].split(")")[0].split(" → ")

    def growth(table: str, key: str, code: str) -> float:
        base, last = (float(fetch_all(
            f"SELECT close FROM {table} WHERE {key} = %s AND trade_date <= %s::date ORDER BY "
            "trade_date DESC LIMIT 1", (code, day), pg_pool)[0]["close"]) for day in days)  # fmt: skip
        return (last / base - 1) * 100

    gap = growth("stock_prices", "security_id", "KR:035420") - growth(
        "market_series_prices", "series_code", "^KS11"
    )
    assert f"코스피 대비 초과수익 {gap:+.2f}%p" in answer.answer


def test_round_26_ratios_drawdowns_of_indices_the_gap_of_two_extremes_and_summed_regions(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 26 (each answered another question with status ok): '시총이 LG화학의 몇
    배야?' gave a gap in won; '코스피 최근 3개월 최대 낙폭' the distance from the high; '최고치'
    → '최저치는?' → '둘 차이는?' repeated the low; '인천이랑 경기 미분양 합계' was not added."""
    caps = {r["security_id"]: float(r["market_cap"]) for r in fetch_all(
        "SELECT DISTINCT ON (security_id) security_id, market_cap FROM stock_fundamentals WHERE "
        "security_id IN ('KR:373220', 'KR:051910') ORDER BY security_id, as_of_date DESC", None,
        pg_pool)}  # fmt: skip
    times = answer_stock_question("LG에너지솔루션 시총이 LG화학의 몇 배야?", pool=pg_pool)
    quotient = caps["KR:373220"] / caps["KR:051910"]
    assert times is not None and f"LG화학의 {quotient:,.2f}배" in times.answer.split("\n")[0]
    closes = [float(r["close"]) for r in fetch_all(
        "SELECT close FROM market_series_prices WHERE series_code = '^KS11' AND trade_date > "
        "(SELECT max(trade_date) FROM market_series_prices WHERE series_code = '^KS11') - "
        "interval '3 months' ORDER BY trade_date", None, pg_pool)]  # fmt: skip
    peak, worst = closes[0], 0.0
    for c in closes:
        peak, worst = max(peak, c), min(worst, c / max(peak, c) - 1)
    mdd = macro_answer(
        "코스피 최근 3개월 최대 낙폭", settings=offline, store=graph_store, pool=pg_pool
    )
    assert f"최대 낙폭: {worst * 100:.2f}%" in mdd.answer
    gap = chain(macro_answer, ("코스피 최근 6개월 최고치", "최저치는?", "둘 차이는?"),
                settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert "최고치와 최저치의 차이" in gap.answer
    total = one(pg_pool, "SELECT sum(units) FROM re_unsold_housing WHERE region IN ('인천', '경기') "
                "AND month = (SELECT max(month) FROM re_unsold_housing)")  # fmt: skip
    summed = macro_answer("인천이랑 경기 미분양 합계", settings=offline, store=graph_store,
                          pool=pg_pool)  # fmt: skip
    assert summed.status == "ok" and "인천·경기 미분양" in summed.answer
    assert f"{int(total):,}호" in summed.answer


def test_round_27_sums_of_two_funds_two_managers_gap_and_a_price_index_beside_a_rate(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 27 (each answered another question with status ok): '합치면?' after two
    funds' net assets repeated the last one; two managers' average fees and their gap listed one
    manager's funds; 'CPI 상승률과 기준금리 차이' subtracted the rate from the index level
    (+116.65); '삼성전쟈 1개월 수익률' (Kiwi splits it 삼성 + 전 + 쟈) was no stock."""
    total = chain(etf_answer, ("KODEX 200 순자산", "TIGER 200은?", "합치면?"),
                  settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    both = one(pg_pool, "SELECT sum(p.net_assets) FROM etfs e JOIN LATERAL (SELECT net_assets "
               "FROM etf_prices WHERE etf_code = e.code ORDER BY trade_date DESC LIMIT 1) p ON "
               "true WHERE e.code IN ('069500', '102110')")  # fmt: skip
    assert total.answer.startswith("질문한 ETF의 순자산총액 합계: ")
    assert f"{int(both // 1e12)}조" in total.answer.split("\n")[0]
    fees = {r["manager"]: float(r["fee"]) for r in fetch_all(
        "SELECT manager, avg(expense_ratio) AS fee FROM etfs WHERE manager IN "
        "('미래에셋자산운용', '삼성자산운용') GROUP BY manager", None, pg_pool)}  # fmt: skip
    gap = etf_answer("미래에셋 ETF 평균 총보수와 삼성 ETF 평균 총보수 차이", settings=offline,
                     store=graph_store, pool=pg_pool)  # fmt: skip
    diff = fees["미래에셋자산운용"] - fees["삼성자산운용"]
    assert gap.answer.startswith(f"미래에셋자산운용 − 삼성자산운용 총보수 평균 차이: {diff:+.4f}%p")
    real = macro_answer("한국 CPI 상승률과 기준금리 차이", settings=offline, store=graph_store,
                        pool=pg_pool)  # fmt: skip
    assert (
        "상승률(전년 동월 대비) − 한국은행 기준금리" in real.answer and "+116.65" not in real.answer
    )
    typo = answer_stock_question("삼성전쟈 1개월 수익률", pool=pg_pool)
    assert typo is not None and typo.answer.startswith("ℹ️ '삼성전쟈'를 삼성전자로 읽었습니다.")


def test_holding_counts_of_two_funds_a_day_not_applied_and_a_lowercase_per(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh rounds 24, 25, 27 (each answered another question with status ok): 'KODEX 200과
    TIGER 200 중 보유종목이 더 많은 쪽' showed the compare card; '그날 코스피는?' after the
    won's high gave the KOSPI's own high (since round 93 the KOSPI is read on the won's day);
    '삼전 per 몇이야' opened the full report."""
    counts = etf_answer("KODEX 200과 TIGER 200 중 보유종목이 더 많은 쪽", settings=offline,
                        store=graph_store, pool=pg_pool)  # fmt: skip
    held = {r["etf_code"]: r["n"] for r in fetch_all(
        "SELECT etf_code, count(*) AS n FROM etf_holdings h WHERE etf_code IN ('069500', "
        "'102110') AND as_of_date = (SELECT max(as_of_date) FROM etf_holdings WHERE etf_code = "
        "h.etf_code) GROUP BY etf_code", None, pg_pool)}  # fmt: skip
    assert f"KODEX 200 {held['069500']}개" in counts.answer
    assert f"TIGER 200 {held['102110']}개" in counts.answer
    peak, kospi = kospi_at_peak(pg_pool, "KR_USDKRW", "1 month")
    day = chain(macro_answer, ("원달러 환율 최근 1개월 추이", "최고치는?", "그날 코스피는?"),
                settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    line = next(x for x in day.answer.splitlines() if "시점의 코스피" in x)
    assert day.status == "ok" and f"({peak})" in line and f"{kospi:,.2f}" in line
    per = answer_stock_question("삼전 per 몇이야", pool=pg_pool)
    assert per is not None and "PER " in per.answer


def test_round_29_spans_complements_moves_of_regions_and_a_pick_among_holdings(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 29 (each answered another question with status ok): '지난 분기 평균 종가'
    was the last three months; '작년 합계' the latest month; '삼성전자 안 담은 ETF' the
    holders; '1년 변화율 가장 큰 지역' the highest level; '상위 10종목 중 1개월 수익률 가장
    높은 종목' the list without the pick; '200일 이동평균 대비 현재가' the average alone."""
    kia = answer_stock_question("기아 지난 분기 평균 종가", pool=pg_pool)
    mean = one(pg_pool, "SELECT avg(close) FROM stock_prices WHERE security_id = 'KR:000270' AND "
               "trade_date BETWEEN '2026-07-01' AND '2026-09-30'")  # fmt: skip
    assert kia is not None and kia.status == "ok"
    assert "2026년 3분기(2026-07-01 ~ 2026-09-30" in kia.answer and won(mean) in kia.answer
    permits = macro_answer("인천 주택 인허가 작년 합계", settings=offline, store=graph_store,
                           pool=pg_pool)  # fmt: skip
    total = one(pg_pool, "SELECT sum(units) FROM re_permits WHERE region = '인천' AND month "
                "BETWEEN '2025-01-01' AND '2025-12-31'")  # fmt: skip
    assert permits.status == "ok" and "2025년(2025-01-01" in permits.answer
    assert f"합계: {total:,.0f}호" in permits.answer
    without = etf_answer("삼성전자 안 담은 ETF 중 순자산 가장 큰 것", settings=offline,
                         store=graph_store, pool=pg_pool)  # fmt: skip
    largest = fetch_all(
        "WITH l AS (SELECT etf_code, max(as_of_date) AS d FROM etf_holdings GROUP BY etf_code) "
        "SELECT e.name FROM etfs e JOIN l ON l.etf_code = e.code JOIN LATERAL (SELECT net_assets "
        "FROM etf_prices WHERE etf_code = e.code ORDER BY trade_date DESC LIMIT 1) p ON true "
        "WHERE NOT EXISTS (SELECT 1 FROM etf_holdings h WHERE h.etf_code = e.code AND "
        "h.as_of_date = l.d AND h.security_id = 'KR:005930') ORDER BY p.net_assets DESC LIMIT 1",
        None, pg_pool)[0]["name"]  # fmt: skip
    assert without.status == "ok" and without.answer.startswith("삼성전자를 담지 않은 ETF")
    assert f"1. {largest} (" in without.answer
    unapplied = etf_answer("KODEX 200 안 담은 종목", settings=offline, store=graph_store,
                           pool=pg_pool)  # fmt: skip
    assert unapplied.status == "partial" and "'안 담은'" in unapplied.answer.splitlines()[0]
    growth = fetch_all(
        "WITH v AS (SELECT region, month, index_value FROM re_house_price_index WHERE region <> "
        "'전국'), last AS (SELECT max(month) AS m FROM v) SELECT a.region, a.index_value / "
        "b.index_value - 1 AS g FROM v a JOIN v b ON a.region = b.region, last WHERE a.month = "
        "last.m AND b.month = last.m - interval '12 months' ORDER BY g DESC LIMIT 1",
        None, pg_pool)[0]  # fmt: skip
    regions = macro_answer("아파트 매매가격지수 1년 변화율 가장 큰 지역", settings=offline,
                           store=graph_store, pool=pg_pool)  # fmt: skip
    assert "상승률 높은 지역 순" in regions.answer
    assert (
        f"{growth['region']} " in regions.answer
        and f"(+{float(growth['g']) * 100:.2f}%)" in regions.answer
    )
    top = fetch_all(
        "WITH l AS (SELECT max(as_of_date) AS d FROM etf_holdings WHERE etf_code = '069500') "
        "SELECT s.name, (SELECT close FROM stock_prices p WHERE p.security_id = h.security_id "
        "ORDER BY trade_date DESC LIMIT 1) / (SELECT close FROM stock_prices p WHERE "
        "p.security_id = h.security_id AND trade_date <= (SELECT max(trade_date) FROM "
        "stock_prices q WHERE q.security_id = h.security_id) - interval '1 month' ORDER BY "
        "trade_date DESC LIMIT 1) - 1 AS r FROM etf_holdings h JOIN stocks s ON s.security_id = "
        "h.security_id, l WHERE h.etf_code = '069500' AND h.as_of_date = l.d ORDER BY h.weight "
        "DESC LIMIT 10", None, pg_pool)  # fmt: skip
    best = max(top, key=lambda r: r["r"])
    pick = etf_answer("KODEX 200 보유 상위 10종목 중 1개월 수익률 가장 높은 종목",
                      settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert pick.answer.startswith(
        f"비중 상위 10개 중 1개월 수익률 가장 높은 종목: {best['name']} ("
    )
    assert f"{float(best['r']) * 100:+.2f}%" in pick.answer.splitlines()[0]
    average = answer_stock_question("카카오 200일 이동평균 대비 현재가", pool=pg_pool)
    assert (
        average is not None and "이동평균: " in average.answer and "은 그 대비 " in average.answer
    )


def test_round_31_filtered_aggregates_sector_orders_days_of_value_and_then_and_now(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 31 (each answered another question with status ok): '순자산 1조 이상 ETF
    평균 1년 수익률' averaged net assets; '반도체 업종에서 PER 가장 낮은 종목' gave the
    sector's mean; '거래대금 가장 많았던 날' the month's total; '지금 PER이랑 1년 전 PER' the
    year-old figure alone; '52주 최고가 대비' measured the latest high, not the close."""
    mean = etf_answer("순자산 1조 이상 ETF 평균 1년 수익률", settings=offline, store=graph_store,
                      pool=pg_pool)  # fmt: skip
    assert mean.answer.startswith("전체 ETF 중 순자산총액 1조 이상의 1년 수익률 평균: ")
    cheapest = fetch_all(
        "SELECT s.name, f.pe FROM stocks s JOIN LATERAL (SELECT pe FROM stock_fundamentals WHERE "
        "security_id = s.security_id ORDER BY as_of_date DESC LIMIT 1) f ON true WHERE s.sector "
        "= '반도체' AND s.country = 'KR' AND NOT s.is_etf AND f.pe > 0 ORDER BY f.pe LIMIT 1",
        None, pg_pool)[0]  # fmt: skip
    sector = answer_stock_question("반도체 업종에서 PER 가장 낮은 종목", pool=pg_pool)
    assert (
        sector is not None
        and f"1. {cheapest['name']} {float(cheapest['pe']):.2f}배" in sector.answer
    )
    day = fetch_all(
        "SELECT trade_date, close * volume AS v FROM stock_prices WHERE security_id = "
        "'KR:068270' AND trade_date > (SELECT max(trade_date) FROM stock_prices WHERE "
        "security_id = 'KR:068270') - interval '1 month' ORDER BY v DESC LIMIT 1",
        None, pg_pool)[0]  # fmt: skip
    value = answer_stock_question("셀트리온 최근 1개월 거래대금 가장 많았던 날", pool=pg_pool)
    assert value is not None and f"거래대금 가장 많은 날: {day['trade_date']} " in value.answer
    then = answer_stock_question("삼성전자 지금 PER이랑 1년 전 PER", pool=pg_pool)
    now_pe = one(pg_pool, "SELECT pe FROM stock_fundamentals WHERE security_id = 'KR:005930' "
                 "ORDER BY as_of_date DESC LIMIT 1")  # fmt: skip
    assert then is not None and f"PER {now_pe:.2f}배 (" in then.answer and " 대비 " in then.answer
    close = one(pg_pool, "SELECT close FROM stock_prices WHERE security_id = 'KR:000660' ORDER "
                "BY trade_date DESC LIMIT 1")  # fmt: skip
    high = answer_stock_question("SK하이닉스 52주 최고가 대비 몇 % 아래야?", pool=pg_pool)
    assert high is not None and high.status == "ok" and f"최근 값 {won(close)}(" in high.answer


def test_one_figure_per_calendar_period_on_every_screen(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'분기별 수익률', '월별 평균' (fresh round 31: the ETF screen gave a 3-month return with
    status ok): one figure per calendar period, the same function on the stock, Macro and ETF
    screens (the ETF's runs in the sandbox). Q3's return is from June's last close (SQL)."""

    def q3(table: str, key: str, code: str) -> str:
        ends = [one(pg_pool, f"SELECT close FROM {table} WHERE {key} = %(c)s AND trade_date <= "
                    f"'{day}' ORDER BY trade_date DESC LIMIT 1", c=code)
                for day in ("2026-06-30", "2026-09-30")]  # fmt: skip
        return f"2026년 3분기 {(ends[1] / ends[0] - 1) * 100:+.2f}% (07-01 ~ 09-30)"

    stock = answer_stock_question("삼성전자 분기별 수익률", pool=pg_pool)
    assert stock is not None and stock.status == "ok"
    assert q3("stock_prices", "security_id", "KR:005930") in stock.answer
    fund = etf_answer("TIGER 200 분기별 수익률", settings=offline, store=graph_store, pool=pg_pool)
    assert fund.status == "ok" and q3("etf_prices", "etf_code", "102110") in fund.answer
    mean = one(pg_pool, "SELECT avg(value) FROM macro_observations WHERE series_code = "
               "'KR_USDKRW' AND obs_date BETWEEN '2026-09-01' AND '2026-09-30'")  # fmt: skip
    won_monthly = macro_answer("원달러 환율 월별 평균", settings=offline, store=graph_store,
                               pool=pg_pool)  # fmt: skip
    assert (
        won_monthly.status == "ok" and f"2026-09 {mean:,.2f} (09-01 ~ 09-30)" in won_monthly.answer
    )


def test_round_32_percent_of_days_over_a_bar_last_month_and_a_definition_with_more(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 32 (each answered another question with status ok): 'SK하이닉스 시총은
    삼성전자의 몇 %야?' listed both caps; '3% 이상 오른 날 며칠?' counted every up day;
    '나스닥 지난달 수익률' was the last 30 days'; '요즘 뜨는 ETF 뭐야?' defined an ETF."""
    caps = {r["security_id"]: float(r["market_cap"]) for r in fetch_all(
        "SELECT DISTINCT ON (security_id) security_id, market_cap FROM stock_fundamentals WHERE "
        "security_id IN ('KR:000660', 'KR:005930') ORDER BY security_id, as_of_date DESC",
        None, pg_pool)}  # fmt: skip
    share = answer_stock_question("SK하이닉스 시총은 삼성전자의 몇 %야?", pool=pg_pool)
    pct = caps["KR:000660"] / caps["KR:005930"] * 100
    assert share is not None and f"({pct:,.2f}%)**" in share.answer.splitlines()[0]
    days = one(pg_pool, "WITH p AS (SELECT trade_date, close / lag(close) OVER (ORDER BY "
               "trade_date) - 1 AS r FROM stock_prices WHERE security_id = 'KR:005930') SELECT "
               "count(*) FROM p WHERE r >= 0.03 AND trade_date > (SELECT max(trade_date) FROM p) "
               "- interval '1 year'")  # fmt: skip
    up = answer_stock_question("삼성전자 최근 1년 중 3% 이상 오른 날 며칠?", pool=pg_pool)
    assert up is not None and f"오른 날 수: {days:.0f}일 (3% 이상, " in up.answer
    closes = [one(pg_pool, "SELECT close FROM market_series_prices WHERE series_code = %(s)s "
                  f"AND trade_date <= '{d}' ORDER BY trade_date DESC LIMIT 1", s="^IXIC")
              for d in ("2026-09-30", "2026-10-31")]  # fmt: skip
    october = macro_answer(
        "나스닥 지난달 수익률", settings=offline, store=graph_store, pool=pg_pool
    )
    assert "2026-10(2026-10-01 ~ " in october.answer
    assert f"수익률: {(closes[1] / closes[0] - 1) * 100:+.2f}%" in october.answer
    trending = etf_answer("요즘 뜨는 ETF 뭐야?", settings=offline, store=graph_store, pool=pg_pool)
    assert trending.status == "partial" and "'뜨는'" in trending.answer.splitlines()[0]


def test_round_33_a_figure_against_a_year_ago_a_streak_won_in_english_and_a_managers_followup(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 33 (each answered another question with status ok): '시가총액 1년 전과
    비교' gave today's cap alone; '5일 연속 올랐어?' a 5-day return; 'market cap in KRW' dollars
    only; '삼성은?' after a manager's ETF count gave 삼성전자's ticker."""
    then = answer_stock_question("삼성전자 시가총액 1년 전과 비교", pool=pg_pool)
    assert then is not None and " 대비 " in then.answer and "시가총액 " in then.answer
    moves = [float(r["close"]) for r in fetch_all(
        "SELECT close FROM stock_prices WHERE security_id = 'KR:005930' ORDER BY trade_date "
        "DESC LIMIT 30", None, pg_pool)]  # fmt: skip
    sign = (moves[0] > moves[1]) - (moves[0] < moves[1])
    run = next(i for i in range(len(moves) - 1)
               if (moves[i] > moves[i + 1]) - (moves[i] < moves[i + 1]) != sign)  # fmt: skip
    streak = answer_stock_question("삼성전자 5일 연속 올랐어?", pool=pg_pool)
    said = "상승" if sign > 0 else "하락"
    assert streak is not None and f"최근 {run}회 연속 {said}" in streak.answer
    won = answer_stock_question("NVIDIA market cap in KRW", pool=pg_pool)
    assert won is not None and "KRW per USD)" in won.answer
    count = chain(etf_answer, ("미래에셋 ETF 개수", "삼성은?"),
                  settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    funds = one(pg_pool, "SELECT count(*) FROM etfs WHERE manager = '삼성자산운용'")
    assert count.answer.startswith(f"삼성자산운용의 ETF: {funds:.0f}개")


def test_round_34_a_years_range_and_a_yoy_rates_average(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 34, measured on the final code: 'CPI YoY 최근 6개월 평균' averaged the index
    levels (330.59) with status ok; '올해 최고치와 최저치 차이' left '올해' unread."""
    yoy = macro_answer("미국 CPI YoY 최근 6개월 평균", settings=offline, store=graph_store,
                       pool=pg_pool)  # fmt: skip
    rates = one(pg_pool, "SELECT avg(a.value / b.value - 1) * 100 FROM macro_observations a "
                "JOIN macro_observations b ON b.series_code = a.series_code AND b.obs_date = "
                "a.obs_date - interval '12 months' WHERE a.series_code = 'CPIAUCSL' AND "
                "a.obs_date > (SELECT max(obs_date) FROM macro_observations WHERE series_code = "
                "'CPIAUCSL') - interval '6 months'")  # fmt: skip
    assert yoy.status == "ok" and f"평균: {rates:.2f}%" in yoy.answer
    width = fetch_all("SELECT max(value) AS hi, min(value) AS lo FROM macro_observations WHERE "
                      "series_code = 'KR_USDKRW' AND obs_date >= '2026-01-01'", None, pg_pool)[0]  # fmt: skip
    year = macro_answer("원달러 환율 올해 최고치와 최저치 차이", settings=offline,
                        store=graph_store, pool=pg_pool)  # fmt: skip
    assert (
        year.status == "ok"
        and f"{float(width['hi']) - float(width['lo']):,.2f}, 최저치 대비 " in year.answer
    )


def test_round_35_a_count_of_days_over_a_year_said(pg_pool: Any, graph_store: Any,
                                                   offline: Settings) -> None:  # fmt: skip
    """Fresh round 35, measured on the final code: 'SK하이닉스 올해 들어 하락한 날 며칠?' gave
    the year's return with status ok. Now the stock and Macro screens count the days of the
    span (SQL); the ETF price tool does not, and the answer says it was not read."""
    days = one(pg_pool, "WITH p AS (SELECT trade_date, close - lag(close) OVER (ORDER BY "
               "trade_date) AS d FROM stock_prices WHERE security_id = 'KR:000660') SELECT "
               "count(*) FROM p WHERE d < 0 AND trade_date >= '2026-01-01'")  # fmt: skip
    down = answer_stock_question("SK하이닉스 올해 들어 하락한 날 며칠?", pool=pg_pool)
    assert down is not None and f"내린 날 수: {days:.0f}일 (" in down.answer
    fund = etf_answer("KODEX 200 올해 하락한 날 며칠?", settings=offline, store=graph_store,
                      pool=pg_pool)  # fmt: skip
    assert fund.status == "partial" and "하락한 날 며칠" in fund.answer.splitlines()[0]


def test_rounds_36_37_a_move_read_after_a_cut_extremes_of_a_window_and_counted_rises(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh rounds 36–37 (written before the change): '거래량 제일 많은 ETF는 어제 얼마나
    올랐어?' listed the ETF without its move; 'CPI 전년비 최근 12개월 중 가장 높았던 달' gave the
    index level's high; '최근 5일 동안 몇 번 올랐어?' answered a premise, not the count."""
    top = fetch_all("SELECT etf_code FROM etf_prices WHERE trade_date > (SELECT max(trade_date) "
                    "FROM etf_prices) - interval '7 days' GROUP BY etf_code ORDER BY avg(volume) "
                    "DESC LIMIT 1", None, pg_pool)[0]["etf_code"]  # fmt: skip
    moved = one(pg_pool, "SELECT (a.close / b.close - 1) * 100 FROM (SELECT close, trade_date "
                "FROM etf_prices WHERE etf_code = %(c)s ORDER BY trade_date DESC LIMIT 2) a, "
                "(SELECT close FROM etf_prices WHERE etf_code = %(c)s ORDER BY trade_date DESC "
                "OFFSET 1 LIMIT 1) b ORDER BY a.trade_date DESC LIMIT 1", c=top)  # fmt: skip
    fund = etf_answer("거래량이 제일 많은 ETF는 어제 얼마나 올랐어?", settings=offline,
                      store=graph_store, pool=pg_pool)  # fmt: skip
    assert fund.status == "ok" and f"({top}) {moved:+.2f}%" in fund.answer
    peak = fetch_all("SELECT a.obs_date, (a.value / b.value - 1) * 100 AS yoy FROM "
                     "macro_observations a JOIN macro_observations b ON b.series_code = "
                     "a.series_code AND b.obs_date = a.obs_date - interval '12 months' WHERE "
                     "a.series_code = 'KR_CPI' AND a.obs_date > (SELECT max(obs_date) FROM "
                     "macro_observations WHERE series_code = 'KR_CPI') - interval '12 months' "
                     "ORDER BY yoy DESC LIMIT 1", None, pg_pool)[0]  # fmt: skip
    cpi = macro_answer("한국 CPI 전년비 최근 12개월 중 가장 높았던 달은?", settings=offline,
                       store=graph_store, pool=pg_pool)  # fmt: skip
    assert f"최고치: {float(peak['yoy']):.2f}% ({peak['obs_date']})" in cpi.answer
    ups = one(pg_pool, "SELECT count(*) FILTER (WHERE d > 0) FROM (SELECT close - lag(close) "
              "OVER (ORDER BY trade_date) AS d, trade_date FROM market_series_prices WHERE "
              "series_code = '^KQ11') p WHERE trade_date > (SELECT max(trade_date) - 5 FROM "
              "market_series_prices WHERE series_code = '^KQ11')")  # fmt: skip
    rises = macro_answer("코스닥 최근 5일 동안 몇 번 올랐어?", settings=offline,
                         store=graph_store, pool=pg_pool)  # fmt: skip
    assert rises.status == "ok" and f"오른 날 수: {ups:.0f}일" in rises.answer
    assert "질문과 달리" not in rises.answer  # a count of rises is not a premise of one
    cuts = macro_answer("한국 기준금리 최근 1년간 몇 번 내렸어?", settings=offline,
                        store=graph_store, pool=pg_pool)  # fmt: skip
    assert "내린 달 수:" in cuts.answer and "전월 대비" in cuts.answer  # a monthly series


def test_two_regions_moves_side_by_side_name_the_larger(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'마포구랑 성동구 중 어디가 더 많이 올랐어?' listed both moves and named neither (round 36)."""
    moves = {r: one(pg_pool, "SELECT (max(index_value) FILTER (WHERE month = (SELECT max(month) "
                    "FROM re_house_price_index)) / max(index_value) FILTER (WHERE month = (SELECT "
                    "max(month) FROM re_house_price_index) - interval '1 year') - 1) * 100 FROM "
                    "re_house_price_index WHERE region = %(r)s", r=r)
             for r in ("서울 마포구", "서울 성동구")}  # fmt: skip
    first = max(moves, key=lambda r: moves[r])
    answer = macro_answer("최근 1년 서울 마포구랑 성동구 중 어디가 더 많이 올랐어?",
                          settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert f"변화율 비교: {first} 주택가격지수 {moves[first]:+.2f}%" in answer.answer


def test_a_figure_held_to_a_bar_is_answered_yes_or_no_on_every_screen(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Round 37: '현대차 PBR이 1배보다 낮아?' showed PBR 1.11배 and left the comparison to the
    analyst; the ETF screen showed the fund's card, Macro counted a year's days above the bar
    for '지금 1400원 넘어?'. Now each says yes or no first, from the figure (SQL truth)."""
    pbr = one(pg_pool, "SELECT pb FROM stock_fundamentals WHERE security_id = 'KR:005380' "
              "ORDER BY as_of_date DESC LIMIT 1")  # fmt: skip
    stock = answer_stock_question("현대차 PBR이 1배보다 낮아?", pool=pg_pool)
    assert stock is not None and stock.status == "ok"
    assert stock.answer.startswith(f"**{'예' if pbr < 1 else '아니요'} — 현대차 PBR {pbr:.2f}배")
    fee = one(pg_pool, "SELECT expense_ratio FROM etfs WHERE code = '069500'")
    fund = etf_answer("KODEX 200 보수 0.1% 넘어?", settings=offline, store=graph_store,
                      pool=pg_pool)  # fmt: skip
    assert fund.status == "ok"
    assert fund.answer.startswith(f"{'예' if fee > 0.1 else '아니요'} — KODEX 200 총보수 {fee:g}%")
    assert "10조" in etf_answer("KODEX 200 순자산 10조 넘어?", settings=offline,
                                store=graph_store, pool=pg_pool).answer  # fmt: skip
    last = fetch_all("SELECT obs_date, value FROM macro_observations WHERE series_code = "
                     "'KR_USDKRW' ORDER BY obs_date DESC LIMIT 1", None, pg_pool)[0]  # fmt: skip
    won = macro_answer("원달러 환율 지금 1400원 넘어?", settings=offline, store=graph_store,
                       pool=pg_pool)  # fmt: skip
    first = won.answer.split("**거시경제**")[1].strip().splitlines()[0]
    assert first.startswith(f"- {'예' if float(last['value']) > 1400 else '아니요'} — ")
    assert str(last["obs_date"]) in first


def test_round_38_a_change_against_a_year_ago_the_latest_against_an_average_and_spreads(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 38 (written before the change; 3 wrong with status ok): 'LG화학 주가 1년
    전보다 얼마나 떨어졌어?' gave the close alone (and '1년 전 대비' a 1-month return); '5거래일
    평균 거래량 대비 오늘 거래량' the average alone; '강남 아파트 평당 가격' the price index. '장단기
    금리차' and '일평균' were listed unread though answered."""
    year = one(pg_pool, "SELECT (a.close / b.close - 1) * 100 FROM (SELECT close FROM "
               "stock_prices WHERE security_id = 'KR:051910' ORDER BY trade_date DESC LIMIT 1) a, "
               "(SELECT close FROM stock_prices WHERE security_id = 'KR:051910' AND trade_date <= "
               "(SELECT max(trade_date) FROM stock_prices WHERE security_id = 'KR:051910') - "
               "interval '1 year' ORDER BY trade_date DESC LIMIT 1) b")  # fmt: skip
    for asked in ("LG화학 주가 1년 전보다 얼마나 떨어졌어?", "LG화학 주가 1년 전 대비"):
        fell = answer_stock_question(asked, pool=pg_pool)
        assert fell is not None and f"1년 수익률 {year:+.2f}%" in fell.answer
    assert ("질문과 달리" in fell.answer) is False  # '대비' takes no move as given
    fell = answer_stock_question("LG화학 주가 1년 전보다 얼마나 떨어졌어?", pool=pg_pool)
    assert fell is not None and ("질문과 달리" in fell.answer) == (year > 0)
    last = fetch_all("SELECT volume FROM stock_prices WHERE security_id = 'KR:000660' ORDER BY "
                     "trade_date DESC LIMIT 5", None, pg_pool)  # fmt: skip
    mean = sum(float(r["volume"]) for r in last) / 5
    today = answer_stock_question("SK하이닉스 최근 5거래일 평균 거래량 대비 오늘 거래량은?",
                                  pool=pg_pool)  # fmt: skip
    assert today is not None
    assert f"최근 값 {float(last[0]['volume']):,.0f}주" in today.answer
    latest = float(last[0]["volume"])  # the difference in shares, then the ratio
    assert f"그 대비 {latest - mean:+,.0f}주 ({(latest / mean - 1) * 100:+.2f}%)" in today.answer
    spread = macro_answer("장단기 금리차 추이", settings=offline, store=graph_store, pool=pg_pool)
    assert (
        spread.status == "ok" and "격차(미국 10년 국채 금리 − 미국 2년 국채 금리)" in spread.answer
    )
    pyeong = macro_answer("강남 아파트 평당 가격", settings=offline, store=graph_store,
                          pool=pg_pool)  # fmt: skip
    assert pyeong.status == "partial" and "'평당 가격'은 데이터에 없어" in pyeong.answer
    values = fetch_all(
        "SELECT close * volume AS v FROM stock_prices WHERE security_id = 'KR:035420' AND "
        "trade_date > (SELECT max(trade_date) FROM stock_prices) - interval '3 months'", None,
        pg_pool)  # fmt: skip
    mean = sum(float(r["v"]) for r in values) / len(values)  # a session's average, in 억 원
    daily = answer_stock_question("NAVER 최근 3개월 일평균 거래대금", pool=pg_pool)
    assert (
        daily is not None
        and daily.status == "ok"
        and f"평균: {mean / 1e8:,.0f}억 원" in daily.answer
    )


def test_a_funds_net_assets_then_and_now_and_their_change(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Left open last round: 'KODEX 200 순자산' → '3개월 전에는?' → '얼마나 늘었어?' gave
    today's net assets three times with status ok ('3개월 전보다 얼마나 늘었어?' in one question
    gave the holdings' weight changes). The day named, then the change over that span (SQL)."""
    rows = fetch_all("SELECT trade_date, net_assets FROM etf_prices WHERE etf_code = '069500' "
                     "AND trade_date <= (SELECT max(trade_date) FROM etf_prices) - interval "
                     "'3 months' ORDER BY trade_date DESC LIMIT 1", None, pg_pool)  # fmt: skip
    then = float(rows[0]["net_assets"])
    now = one(pg_pool, "SELECT net_assets FROM etf_prices WHERE etf_code = '069500' ORDER BY "
              "trade_date DESC LIMIT 1")  # fmt: skip
    history: list[Any] = []
    for turn in ("KODEX 200 순자산", "3개월 전에는?", "얼마나 늘었어?"):
        answer = etf_answer(turn, history, settings=offline, store=graph_store, pool=pg_pool)
        history = history_after(history, turn, answer)
        if turn == "3개월 전에는?":
            assert answer.status == "ok" and str(rows[0]["trade_date"]) in answer.answer
    assert answer.status == "ok" and f"변화: +{fmt_krw(now - then)} (" in answer.answer
    single = etf_answer("KODEX 200 순자산 3개월 전보다 얼마나 늘었어?", settings=offline,
                        store=graph_store, pool=pg_pool)  # fmt: skip
    assert "순자산총액 최근 3개월" in single.answer and "비중 증가" not in single.answer


def test_round_39_a_managers_name_a_second_span_a_line_said_in_korean_and_computed_terms(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 39 (written before the change; 2 wrong with status ok): '1년 수익률이 가장
    높은 ETF의 운용사는?' named the fund, not its manager; '작년 합계와 올해 합계' summed last
    year only, status ok. '타이거 반도체 탑10' took TIGER 반도체 with '탑 10' unread, '20일선'
    left '선' unread, and a correlation the screen computed was called a term the data lacks."""
    best = fetch_all("SELECT e.code, e.manager FROM etfs e JOIN LATERAL (SELECT close FROM "
                     "etf_prices WHERE etf_code = e.code ORDER BY trade_date DESC LIMIT 1) l ON "
                     "true JOIN LATERAL (SELECT close FROM etf_prices WHERE etf_code = e.code AND "
                     "trade_date <= (SELECT max(trade_date) FROM etf_prices) - interval '1 year' "
                     "ORDER BY trade_date DESC LIMIT 1) b ON true ORDER BY l.close / b.close DESC "
                     "LIMIT 1", None, pg_pool)[0]  # fmt: skip
    who = etf_answer("1년 수익률이 가장 높은 ETF의 운용사는?", settings=offline,
                     store=graph_store, pool=pg_pool)  # fmt: skip
    assert f"({best['code']})" in who.answer and f"운용사 {best['manager']}" in who.answer
    two = macro_answer("전국 인허가 작년 합계와 올해 합계 비교", settings=offline,
                       store=graph_store, pool=pg_pool)  # fmt: skip
    assert two.status == "partial" and "'올해'" in two.answer.splitlines()[0]
    top10 = etf_answer("타이거 반도체 탑10 수익률 3개월", settings=offline, store=graph_store,
                       pool=pg_pool)  # fmt: skip
    assert top10.status == "ok" and top10.answer.startswith("TIGER 반도체TOP10의 최근 3개월")
    line = answer_stock_question("카카오 주가가 이동평균 20일선 위야?", pool=pg_pool)
    assert line is not None and line.status == "ok" and "최근 20거래일" in line.answer
    corr = macro_answer("코스피와 코스닥 상관관계 최근 1년", settings=offline, store=graph_store,
                        pool=pg_pool)  # fmt: skip
    assert (
        corr.status == "ok"
        and "상관계수" in corr.answer
        and "데이터에는 없습니다" not in corr.answer
    )


def test_round_40_an_average_put_together_the_day_of_the_largest_rise_and_each_sessions_close(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 40 (written before the change; 3 wrong with status ok): '합치면 평균은?'
    summed the two returns; '최근 10거래일 중 최대 상승일' gave the highest close; '기아 최근 5일
    종가' the last close alone (SQL truth)."""
    mean = chain(etf_answer, ("KODEX 200 1개월 수익률", "TIGER 200은?", "합치면 평균은?"),
                 settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert mean.answer.startswith("질문한 ETF의 1개월 수익률 평균: ")
    moves = fetch_all("SELECT trade_date, close / lag(close) OVER (ORDER BY trade_date) - 1 AS r "
                      "FROM stock_prices WHERE security_id = 'KR:373220' ORDER BY trade_date "
                      "DESC LIMIT 10", None, pg_pool)  # fmt: skip
    best = max(moves, key=lambda m: float(m["r"]))
    rise = answer_stock_question("LG에너지솔루션 최근 10거래일 중 최대 상승일", pool=pg_pool)
    assert rise is not None
    assert f"가장 크게 오른 날: {best['trade_date']} {float(best['r']) * 100:+.2f}%" in rise.answer
    closes = fetch_all("SELECT trade_date, close FROM stock_prices WHERE security_id = "
                       "'KR:000270' ORDER BY trade_date DESC LIMIT 5", None, pg_pool)  # fmt: skip
    five = answer_stock_question("기아 최근 5일 종가", pool=pg_pool)
    assert five is not None and five.status == "ok"
    said = ", ".join(f"{r['trade_date']} {won(float(r['close']))}" for r in reversed(closes))
    assert f"최근 5거래일 종가: {said}" in five.answer


def test_round_41_a_picked_funds_holdings_a_cut_said_by_its_order_and_moves_across_agents(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 41 (written before the change; 2 wrong with status ok, 2 honest misses):
    '순자산 가장 작은 반도체 ETF 보유 상위 3종목' listed the three smallest funds; '원달러 환율과
    코스피의 1년 수익률 차이' gave each change, not their gap; '보수 낮은 3개의 평균' and '인천
    미분양 올해 최대치' were said unread. SQL truth."""
    small = fetch_all("SELECT e.code, e.name FROM etfs e JOIN etf_tags t ON t.etf_code = e.code "
                      "AND t.tag = '반도체' JOIN LATERAL (SELECT net_assets FROM etf_prices WHERE "
                      "etf_code = e.code ORDER BY trade_date DESC LIMIT 1) p ON true ORDER BY "
                      "p.net_assets LIMIT 1", None, pg_pool)[0]  # fmt: skip
    held = etf_answer("순자산 가장 작은 반도체 ETF 보유 상위 3종목", settings=offline,
                      store=graph_store, pool=pg_pool)  # fmt: skip
    assert held.answer.startswith(f"{small['name']} (순자산총액 가장 낮은 ETF) 보유종목")
    three = etf_answer("해외주식 ETF 중 보수 낮은 3개의 평균 3개월 수익률", settings=offline,
                       store=graph_store, pool=pg_pool)  # fmt: skip
    assert (
        three.status == "ok" and "총보수 낮은 순 상위 3개 ETF의 3개월 수익률 평균" in three.answer
    )
    gap = macro_answer("원달러 환율과 코스피의 1년 수익률 차이", settings=offline,
                       store=graph_store, pool=pg_pool)  # fmt: skip
    assert (
        gap.status == "ok" and "변화율 비교: 코스피" in gap.answer and "%p 높습니다" in gap.answer
    )
    most = one(pg_pool, "SELECT max(units) FROM re_unsold_housing WHERE region = '인천' AND month >= "
               "date_trunc('year', (SELECT max(month) FROM re_unsold_housing))")  # fmt: skip
    peak = macro_answer("인천 미분양 올해 최대치", settings=offline, store=graph_store,
                        pool=pg_pool)  # fmt: skip
    assert peak.status == "ok" and f"최고치: {most:,.0f}호" in peak.answer


def test_round_42_the_total_of_holdings_kept_and_the_dow_after_two_other_indices(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 42 (written before the change; 2 wrong with status ok): 'TIGER 2차전지TOP10
    보유종목' → '비중 10% 넘는 것만' → '그 합계는?' summed all ten holdings, and '보유종목 중 비중 5%
    넘는 종목 비중 합계' listed them unsummed; '나스닥' → 'S&P500은?' → '다우는?' answered S&P 500
    ('다우' alone named nothing). SQL truth."""
    kept = one(pg_pool, "SELECT sum(weight) FROM etf_holdings WHERE etf_code = '364980' AND "
               "as_of_date = (SELECT max(as_of_date) FROM etf_holdings WHERE etf_code = "
               "'364980') AND weight > 10")  # fmt: skip
    total = chain(etf_answer, ("TIGER 2차전지TOP10 보유종목", "비중 10% 넘는 것만", "그 합계는?"),
                  settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert f"비중 합: {kept:.2f}%" in total.answer
    five = one(pg_pool, "SELECT sum(weight) FROM etf_holdings WHERE etf_code = '102110' AND "
               "as_of_date = (SELECT max(as_of_date) FROM etf_holdings WHERE etf_code = "
               "'102110') AND weight > 5")  # fmt: skip
    said = etf_answer("TIGER 200 보유종목 중 비중 5% 넘는 종목 비중 합계", settings=offline,
                      store=graph_store, pool=pg_pool)  # fmt: skip
    assert f"비중 합: {five:.2f}%" in said.answer
    history = []
    for turn in ("나스닥 1개월 수익률", "S&P500은?", "다우는?"):
        dow = macro_answer(turn, history=history, settings=offline, store=graph_store,
                           pool=pg_pool)  # fmt: skip
        history = history_after(history, turn, dow)
    assert "다우 " in dow.answer and "S&P 500 " not in dow.answer
    counts = {r["manager"]: int(r["n"]) for r in fetch_all(
        "SELECT manager, count(*) AS n FROM etfs WHERE manager IN ('미래에셋자산운용', "
        "'삼성자산운용') GROUP BY manager", None, pg_pool)}  # fmt: skip
    both = chain(etf_answer, ("미래에셋 ETF 개수", "삼성은?", "합치면?"),
                 settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert both.answer.startswith(
        f"미래에셋자산운용 + 삼성자산운용 ETF 수 합계: {sum(counts.values())}개"
    )


def test_round_43_the_average_of_a_cut_listed_and_a_fund_named_by_its_start(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 43, run once on the final code (2 wrong with status ok): '반도체 ETF 1년
    수익률 순위' → '상위 3개만' → '그 평균은?' averaged all seven; 'TIGER 미국필라델피아 반도체
    수익률 1년' ranked the 반도체 theme instead of the one fund its words start."""
    mean = chain(etf_answer, ("반도체 ETF 1년 수익률 순위", "상위 3개만", "그 평균은?"),
                 settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert mean.answer.startswith("직전 답변의 ETF의 1년 수익률 평균: ")
    assert "계산에 쓴 3개" in mean.answer
    fund = etf_answer("TIGER 미국필라델피아 반도체 수익률 1년", settings=offline,
                      store=graph_store, pool=pg_pool)  # fmt: skip
    assert fund.answer.startswith("TIGER 미국필라델피아반도체나스닥의 최근 1년 수익률은")
    jeonse = macro_answer("부산 아파트 전세가격", settings=offline, store=graph_store,
                          pool=pg_pool)  # fmt: skip
    assert jeonse.status == "partial" and "'전세 가격'은 데이터에 없어" in jeonse.answer
    volumes = fetch_all("SELECT volume FROM stock_prices WHERE security_id = 'KR:005930' ORDER BY "
                        "trade_date DESC LIMIT 20", None, pg_pool)  # fmt: skip
    usual = sum(float(r["volume"]) for r in volumes) / 20
    today = answer_stock_question("삼성전자 오늘 거래량 평소보다 많아?", pool=pg_pool)
    assert today is not None and today.status == "ok"  # the usual level: 20 sessions' average
    assert "최근 20거래일(" in today.answer and f"평균: {usual:,.0f}주" in today.answer
    months = macro_answer("원달러 환율 월별 평균 올해", settings=offline, store=graph_store,
                          pool=pg_pool)  # fmt: skip
    listed = months.answer.split("월별 평균: ")[1].split("\n")[0]
    assert months.status == "ok" and listed.startswith("2026-01 ") and "2025-12" not in listed
    houses = etf_answer("미래에셋이랑 삼성 ETF 순자산 합계", settings=offline, store=graph_store,
                        pool=pg_pool)  # fmt: skip
    assert houses.status == "ok"
    assert houses.answer.startswith("미래에셋자산운용 + 삼성자산운용 순자산총액 합계: ")


def test_round_44_holdings_place_windows_of_quarters_and_changes_against_a_day_named(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 44 (written before the change; 4 wrong with status ok): '… ETF의 보유 1위
    종목' listed the fund, not its holding; '최근 2분기 평균' averaged the second quarter; '지금과
    차이는?' after a high gave the high − low; '배당수익률 작년 말과 비교' gave last year's value
    alone. Also: a benchmark said whole before 'ETF', a weight on a past day, a period beside a
    level or a set that nothing takes over it. SQL truth."""
    fund = fetch_all(
        "SELECT e.code, e.name FROM etfs e JOIN etf_tags t ON t.etf_code = e.code AND "
        "t.tag = '반도체' ORDER BY e.expense_ratio, e.code LIMIT 1", None, pg_pool)[0]  # fmt: skip
    top = fetch_all(
        "SELECT s.name, h.weight FROM etf_holdings h JOIN stocks s USING (security_id) WHERE "
        "h.etf_code = %s AND h.as_of_date = (SELECT max(as_of_date) FROM etf_holdings WHERE "
        "etf_code = %s) ORDER BY h.weight DESC LIMIT 1", (fund["code"], fund["code"]), pg_pool)[0]  # fmt: skip
    held = etf_answer("보수가 가장 낮은 반도체 ETF의 보유 1위 종목은?", settings=offline,
                      store=graph_store, pool=pg_pool)  # fmt: skip
    assert held.status == "ok" and fund["name"] in held.answer
    assert f"비중 1위 종목: {top['name']} (" in held.answer and "2. " not in held.answer
    assert f"{float(top['weight']):.2f}%" in held.answer

    six = fetch_all("SELECT value FROM macro_observations WHERE series_code = 'CPIAUCSL' ORDER BY "
                    "obs_date DESC LIMIT 6", None, pg_pool)  # fmt: skip
    cpi = macro_answer("미국 CPI 최근 2분기 평균", settings=offline, store=graph_store,
                       pool=pg_pool)  # fmt: skip
    mean = sum(float(r["value"]) for r in six) / 6
    assert cpi.status == "ok" and "관측치 6개" in cpi.answer and f"평균: {mean:,.2f}" in cpi.answer

    closes = fetch_all("SELECT trade_date, close FROM market_series_prices WHERE series_code = "
                       "'^KS11' ORDER BY trade_date", None, pg_pool)  # fmt: skip
    last = closes[-1]
    start = last["trade_date"] - timedelta(days=364)
    high = max(float(r["close"]) for r in closes if r["trade_date"] >= start)
    history: list[Any] = []
    for turn in ("코스피 1년 최고치", "언제였어?", "지금과 차이는?"):
        gap = macro_answer(turn, history=history, settings=offline, store=graph_store,
                           pool=pg_pool)  # fmt: skip
        history = history_after(history, turn, gap)
    assert f"그 대비 {float(last['close']) - high:+,.2f} (" in gap.answer
    assert "최고치와 최저치의 차이" not in gap.answer

    year_end = fetch_all(
        "SELECT as_of_date, dividend_yield FROM stock_fundamentals WHERE security_id = "
        "'KR:005930' AND as_of_date <= make_date(extract(year FROM (SELECT max(as_of_date) FROM "
        "stock_fundamentals))::int - 1, 12, 31) ORDER BY as_of_date DESC LIMIT 1", None,
        pg_pool)[0]  # fmt: skip
    dividend = answer_stock_question("삼성전자 배당수익률 작년 말과 비교", pool=pg_pool)
    assert dividend is not None and dividend.status == "ok"
    assert (f"{year_end['as_of_date']}의 {float(year_end['dividend_yield']):.2f}% 대비"
            in dividend.answer)  # fmt: skip

    tracking = {r["name"] for r in fetch_all(
        "SELECT name FROM etfs WHERE benchmark = '코스닥 150 레버리지'", None, pg_pool)}  # fmt: skip
    fee = etf_answer("코스닥150 레버리지 ETF 보수", settings=offline, store=graph_store,
                     pool=pg_pool)  # fmt: skip
    listed = {line.split(". ", 1)[1].split(" (")[0] for line in fee.answer.splitlines()
              if line[:1].isdigit()}  # fmt: skip
    assert fee.status == "ok" and listed == tracking

    weight = one(pg_pool, "SELECT h.weight FROM etf_holdings h WHERE h.etf_code = '091160' AND "
                 "h.security_id = 'KR:000660' AND h.as_of_date = (SELECT max(as_of_date) FROM "
                 "etf_holdings WHERE etf_code = '091160' AND as_of_date <= "
                 "(SELECT max(as_of_date) FROM etf_holdings) - interval '1 month')")  # fmt: skip
    then = chain(etf_answer, ("KODEX 반도체 보유 상위 5종목", "그 중 SK하이닉스 비중은?", "1개월 전에는?"),
                 settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert then.status == "ok" and f"비중은 {weight:.2f}%" in then.answer

    for question in ("KODEX 200 순자산 작년 말과 비교", "상장 1년 지난 ETF 개수"):
        unapplied = etf_answer(question, settings=offline, store=graph_store, pool=pg_pool)
        assert unapplied.status == "partial", question  # a period nothing was taken over
    ytd = etf_answer("작년 연말 대비 KODEX 200 수익률", settings=offline, store=graph_store,
                     pool=pg_pool)  # fmt: skip
    assert ytd.status == "ok" and ytd.answer.startswith("KODEX 200의 연초 이후 수익률은")


def test_round_45_a_condition_before_the_order_the_manager_of_a_holder_and_a_worst_return(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 45 (written before the change; 6 wrong with status ok): the sign word's
    measure ('1년 수익률 마이너스인 것') was the first measure named (net assets); a fee condition
    before the order and a return read after it listed the fund without the return; '… 담은
    ETF의 운용사' listed holders without managers; '가장 나쁜' ranked the best; '셀트리온헬스' was
    셀트리온 with no word said; '작년 이맘때 종가' gave a return. SQL truth."""
    negative = fetch_all(
        "WITH top AS (SELECT etf_code FROM etf_prices WHERE trade_date = (SELECT max(trade_date) "
        "FROM etf_prices) ORDER BY net_assets DESC LIMIT 10), ends AS (SELECT p.etf_code, "
        "(array_agg(p.close ORDER BY p.trade_date DESC))[1] AS last, (array_agg(p.close ORDER BY "
        "p.trade_date DESC) FILTER (WHERE p.trade_date <= (SELECT max(trade_date) FROM "
        "etf_prices) - interval '1 year'))[1] AS base FROM etf_prices p JOIN top USING (etf_code) "
        "GROUP BY p.etf_code) SELECT count(*) AS n FROM ends WHERE last < base", None, pg_pool)  # fmt: skip
    counted = etf_answer("순자산 상위 10개 ETF 중 1년 수익률 마이너스인 것 개수", settings=offline,
                         store=graph_store, pool=pg_pool)  # fmt: skip
    assert (
        counted.status == "ok"
        and f"수익률 0% 미만 ETF 개수: {negative[0]['n']}개" in counted.answer
    )

    cheap = fetch_all(
        "SELECT e.name FROM etfs e JOIN LATERAL (SELECT net_assets FROM etf_prices p WHERE "
        "p.etf_code = e.code ORDER BY trade_date DESC LIMIT 1) p ON true WHERE e.expense_ratio "
        "< 0.1 ORDER BY p.net_assets DESC LIMIT 1", None, pg_pool)[0]["name"]  # fmt: skip
    read = etf_answer("보수 0.1% 미만 ETF 중 순자산 가장 큰 것의 3개월 수익률", settings=offline,
                      store=graph_store, pool=pg_pool)  # fmt: skip
    assert (
        read.status == "ok"
        and f"총보수 0.1% 미만 중 순자산총액 높은 순 1위 ETF의 3개월 수익률: {cheap} ("
        in read.answer
    )

    holder = fetch_all(
        "SELECT e.name, e.manager FROM etf_holdings h JOIN etfs e ON e.code = h.etf_code WHERE "
        "h.security_id = 'KR:005930' AND h.as_of_date = (SELECT max(as_of_date) FROM "
        "etf_holdings) ORDER BY h.weight DESC LIMIT 1", None, pg_pool)[0]  # fmt: skip
    manager = etf_answer("삼성전자를 가장 많이 담은 ETF의 운용사", settings=offline,
                         store=graph_store, pool=pg_pool)  # fmt: skip
    assert (
        f"1. {holder['name']} (" in manager.answer
        and f"운용사 {holder['manager']}" in manager.answer
    )

    worst = fetch_all(
        "SELECT e.name, (SELECT close FROM etf_prices WHERE etf_code = e.code ORDER BY trade_date "
        "DESC LIMIT 1) / (SELECT close FROM etf_prices WHERE etf_code = e.code AND trade_date <= "
        "(SELECT max(trade_date) FROM etf_prices) - interval '1 year' ORDER BY trade_date DESC "
        "LIMIT 1) AS r FROM etfs e JOIN etf_tags t ON t.etf_code = e.code AND t.tag = '레버리지' "
        "ORDER BY r LIMIT 1", None, pg_pool)[0]["name"]  # fmt: skip
    bad = etf_answer("레버리지 ETF 중 1년 수익률 가장 나쁜 것", settings=offline, store=graph_store,
                     pool=pg_pool)  # fmt: skip
    assert f"1. {worst} (" in bad.answer and "낮은 순" in bad.answer

    merged = answer_stock_question("셀트리온헬스 PER", pool=pg_pool)
    assert merged is not None and merged.status == "partial" and "셀트리온(" in merged.answer

    then = fetch_all("SELECT trade_date, close FROM etf_prices WHERE etf_code = '069500' AND "
                     "trade_date <= (SELECT max(trade_date) FROM etf_prices) - interval '1 year' "
                     "ORDER BY trade_date DESC LIMIT 1", None, pg_pool)[0]  # fmt: skip
    close = etf_answer("작년 이맘때 KODEX 200 종가", settings=offline, store=graph_store,
                       pool=pg_pool)  # fmt: skip
    assert close.answer.startswith(
        f"KODEX 200의 {then['trade_date']} 종가는 {won(float(then['close']))}"
    )


def test_round_46_two_conditions_a_side_of_two_a_stocks_place_and_a_quarters_end(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 46 (written before the change; 6 wrong with status ok): a sign word after a
    first condition was dropped ('보수 0.5% 이상이고 1년 수익률 마이너스인'); '더 싼 쪽' after two
    funds picked among all ETFs; '시가총액 순위' gave the figure alone; '올해' deal counts began
    in December; '배당 언제' showed the fund's card. Also: a quarter's end ('올해 1분기 말'). SQL
    truth."""
    both = fetch_all(
        "SELECT e.code FROM etfs e WHERE e.expense_ratio >= 0.5 AND (SELECT close FROM etf_prices "
        "WHERE etf_code = e.code ORDER BY trade_date DESC LIMIT 1) < (SELECT close FROM "
        "etf_prices WHERE etf_code = e.code AND trade_date <= (SELECT max(trade_date) FROM "
        "etf_prices) - interval '1 year' ORDER BY trade_date DESC LIMIT 1)", None, pg_pool)  # fmt: skip
    kept = etf_answer("보수 0.5% 이상이고 1년 수익률 마이너스인 ETF", settings=offline,
                      store=graph_store, pool=pg_pool)  # fmt: skip
    assert kept.status == "ok" and f"총보수 낮은 순, {len(both)}개)" in kept.answer
    assert all(f"({r['code']})" in kept.answer for r in both)

    fees = {r["code"]: float(r["expense_ratio"]) for r in fetch_all(
        "SELECT code, expense_ratio FROM etfs WHERE code IN ('091160', '091230')", None, pg_pool)}  # fmt: skip
    cheaper = min(fees, key=lambda c: fees[c])
    side = chain(etf_answer, ("KODEX 반도체 보수", "TIGER 반도체는?", "더 싼 쪽 1년 수익률은?"),
                 settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert side.answer.startswith("질문한 ETF 중") and f"({cheaper})" in side.answer

    caps = fetch_all(
        "SELECT s.security_id FROM stocks s JOIN LATERAL (SELECT market_cap FROM "
        "stock_fundamentals WHERE security_id = s.security_id ORDER BY as_of_date DESC LIMIT 1) f "
        "ON true WHERE s.country = 'KR' AND NOT s.is_etf AND f.market_cap IS NOT NULL ORDER BY "
        "f.market_cap DESC", None, pg_pool)  # fmt: skip
    place = [r["security_id"] for r in caps].index("KR:005380") + 1
    ranked = answer_stock_question("현대차 시가총액 순위", pool=pg_pool)
    assert ranked is not None and f"국내 {len(caps)}종목 중 높은 순 {place}위" in ranked.answer

    last = fetch_all("SELECT max(trade_date) AS d FROM stock_prices", None, pg_pool)[0]["d"]
    deals = one(pg_pool, "SELECT count(*) FROM re_transactions WHERE region = '서울 강남구' AND "
                "deal_date >= %(first)s AND deal_date <= %(last)s",
                first=last.replace(month=1, day=1), last=last)  # fmt: skip
    counted = macro_answer("강남구 아파트 거래 건수 올해", settings=offline, store=graph_store,
                           pool=pg_pool)  # fmt: skip
    assert f"올해({last.year}-01-01 ~ " in counted.answer
    assert f"아파트 실거래 {deals:,.0f}건" in counted.answer

    when = answer_stock_question("삼성전자 배당 언제 나와?", pool=pg_pool)
    assert when is not None and when.status == "partial" and "'언제'" in when.answer

    net = one(pg_pool, "SELECT net_assets FROM etf_prices WHERE etf_code = '069500' AND "
              "trade_date <= '2026-03-31' ORDER BY trade_date DESC LIMIT 1")  # fmt: skip
    quarter = etf_answer("올해 1분기 말 KODEX 200 순자산", settings=offline, store=graph_store,
                         pool=pg_pool)  # fmt: skip
    assert quarter.status == "ok" and fmt_krw(net) in quarter.answer


def test_round_47_the_month_of_the_largest_rise_a_daily_average_and_an_index_volume(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 47 (written before the change; 3 wrong with status ok): '가장 많이 오른 달'
    gave a day; '최근 3개월 일평균 거래량' gave the last session's volume; '상위 2개의 보유종목 수'
    listed one fund's holdings. Also '올해 월평균' of a monthly series, and an index's volume
    (not held: the Macro series are levels) said unread. SQL truth."""
    closes = fetch_all("SELECT trade_date, close FROM market_series_prices WHERE series_code = "
                       "'^KS11' ORDER BY trade_date", None, pg_pool)  # fmt: skip
    month_end: dict[str, float] = {}
    for r in closes:
        month_end[str(r["trade_date"])[:7]] = float(r["close"])
    months = sorted(month_end)
    returns = {m: (month_end[m] / month_end[p] - 1) * 100 for p, m in pairwise(months)}
    shown = months[-12:]
    best = max(shown, key=lambda m: returns[m])
    month = macro_answer("코스피 최근 1년 중 가장 많이 오른 달", settings=offline,
                         store=graph_store, pool=pg_pool)  # fmt: skip
    assert f"가장 크게 오른 달: {best} {returns[best]:+.2f}%" in month.answer

    volumes = fetch_all(
        "SELECT volume FROM stock_prices WHERE security_id = 'KR:035420' AND trade_date > "
        "(SELECT max(trade_date) FROM stock_prices) - interval '3 months'", None, pg_pool)  # fmt: skip
    mean = sum(float(r["volume"]) for r in volumes) / len(volumes)
    daily = answer_stock_question("NAVER 최근 3개월 일평균 거래량", pool=pg_pool)
    assert daily is not None and f"평균: {mean:,.0f}주" in daily.answer

    counted = etf_answer("반도체 ETF 중 1년 수익률 상위 2개의 보유종목 수", settings=offline,
                         store=graph_store, pool=pg_pool)  # fmt: skip
    assert counted.status == "partial"  # each fund's count of holdings is not computed here

    permits = fetch_all("SELECT units FROM re_permits WHERE region = '전국' AND month >= "
                        "'2026-01-01'", None, pg_pool)  # fmt: skip
    average = sum(float(r["units"]) for r in permits) / len(permits)
    monthly = macro_answer("전국 주택 인허가 올해 월평균", settings=offline, store=graph_store,
                           pool=pg_pool)  # fmt: skip
    assert monthly.status == "ok" and f"평균: {average:,.0f}호" in monthly.answer
    index = macro_answer("코스피 최근 1개월 평균 거래량", settings=offline, store=graph_store,
                         pool=pg_pool)  # fmt: skip
    assert index.status == "partial" and "'거래량'" in index.answer


def test_round_48_an_index_below_a_bar_is_counted_without_a_note_that_it_was_not(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 48 (written before the change; no wrong answer with status ok, one honest
    miss that was right): '코스피가 4,000 아래로 내려간 날 최근 3개월 며칠?' counted the days and
    still said the offline planner computes no filters (partial). SQL truth."""
    days = one(pg_pool, "SELECT count(*) FROM market_series_prices WHERE series_code = '^KS11' "
               "AND close < 4000 AND trade_date > (SELECT max(trade_date) FROM "
               "market_series_prices WHERE series_code = '^KS11') - interval '3 months'")  # fmt: skip
    below = macro_answer("코스피가 4,000 아래로 내려간 날 최근 3개월 며칠?", settings=offline,
                         store=graph_store, pool=pg_pool)  # fmt: skip
    assert below.status == "ok" and f"4,000.00 미만: {days:.0f}일" in below.answer
    assert "플래너가 하지 않아" not in below.answer


def test_round_49_two_houses_first_funds_a_house_with_a_theme_and_a_statistic_follow_up(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 49 (written before the change; 1 wrong with status ok): '미래에셋 ETF 중 순자산
    1위' → '삼성자산운용은?' → '둘 차이는?' gave the gap of the two houses' average net assets.
    Also: a house with a theme ('미래에셋 반도체 ETF', '운용사가 미래에셋인'), a statistic asked
    of no subject after one ('지금은 최고치 대비 얼마나 낮아?'), a ranking over a set after a fund
    ('1년 수익률 가장 높은 ETF는?' is not the fund's), the sector median. SQL truth."""
    tops = {r["manager"]: float(r["net_assets"]) for r in fetch_all(
        "SELECT DISTINCT ON (e.manager) e.manager, p.net_assets FROM etfs e JOIN etf_prices p ON "
        "p.etf_code = e.code AND p.trade_date = (SELECT max(trade_date) FROM etf_prices) WHERE "
        "e.manager IN ('미래에셋자산운용', '삼성자산운용') ORDER BY e.manager, p.net_assets DESC",
        None, pg_pool)}  # fmt: skip
    gap = chain(etf_answer, ("미래에셋 ETF 중 순자산 1위", "삼성자산운용은?", "둘 차이는?"),
                settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert fmt_krw(tops["미래에셋자산운용"] - tops["삼성자산운용"]) in gap.answer.split("\n")[0]

    cheapest = fetch_all(
        "SELECT e.name FROM etfs e JOIN etf_tags t ON t.etf_code = e.code AND t.tag = '반도체' "
        "WHERE e.manager = '미래에셋자산운용' ORDER BY e.expense_ratio, e.code LIMIT 1", None,
        pg_pool)[0]["name"]  # fmt: skip
    for question in ("미래에셋 반도체 ETF 중 보수 가장 싼 것",
                     "운용사가 미래에셋인 반도체 ETF 중 보수 가장 싼 것"):  # fmt: skip
        house = etf_answer(question, settings=offline, store=graph_store, pool=pg_pool)
        assert house.status == "ok" and f"1. {cheapest} (" in house.answer, question

    rates = fetch_all("SELECT obs_date, value FROM macro_observations WHERE series_code = "
                      "'KR_USDKRW' ORDER BY obs_date", None, pg_pool)  # fmt: skip
    last = rates[-1]
    high = max(
        float(r["value"]) for r in rates if r["obs_date"] > last["obs_date"] - timedelta(days=365)
    )
    history = []
    for turn in ("원달러 환율 최근 1년 최고치", "최저치는?", "지금은 최고치 대비 얼마나 낮아?"):
        now = macro_answer(turn, history=history, settings=offline, store=graph_store,
                           pool=pg_pool)  # fmt: skip
        history = history_after(history, turn, now)
    assert now.status == "ok" and f"최고치: {high:,.2f}" in now.answer

    best = chain(etf_answer, ("KODEX 200 보수", "1년 수익률 가장 높은 ETF는?"),
                 settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert best.answer.startswith("전체 ETF (1년 수익률 높은 순")

    median = answer_stock_question("삼성SDI PBR 업종 중앙값보다 낮아?", pool=pg_pool)
    assert median is not None and median.status == "ok" and "중앙값 " in median.answer


def test_round_50_a_window_is_no_bar_volatilities_compared_and_a_span_carried_over(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 50 (written before the change; 3 wrong with status ok): 'PER 1년 전보다
    낮아졌어?' read '1년' as a bar of 1배; '변동성 더 큰 쪽' led with the two indices' level gap;
    '코스피 올해 수익률' → '나스닥은?' → '둘 중 더 많이 오른 건?' compared one-year returns. SQL
    truth."""
    past = fetch_all(
        "SELECT as_of_date, pe FROM stock_fundamentals WHERE security_id = 'KR:000660' AND "
        "as_of_date <= (SELECT max(as_of_date) FROM stock_fundamentals) - interval '1 year' "
        "ORDER BY as_of_date DESC LIMIT 1", None, pg_pool)[0]  # fmt: skip
    per = answer_stock_question("SK하이닉스 PER 1년 전보다 낮아졌어?", pool=pg_pool)
    assert per is not None and "1배 미만" not in per.answer and "아니요" not in per.answer
    assert f"{past['as_of_date']}의 {float(past['pe']):.2f}배 대비" in per.answer

    vol = macro_answer("코스피와 코스닥 중 최근 3개월 변동성 더 큰 쪽", settings=offline,
                       store=graph_store, pool=pg_pool)  # fmt: skip
    lead = next(line for line in vol.answer.splitlines() if line.startswith("- "))
    assert lead.startswith("- 변동성 비교: ") and "격차" not in lead

    ends = {}
    for code in ("^KS11", "^IXIC"):
        rows = fetch_all("SELECT trade_date, close FROM market_series_prices WHERE series_code = "
                         "%s ORDER BY trade_date", (code,), pg_pool)  # fmt: skip
        last = rows[-1]
        base = [r for r in rows if r["trade_date"].year < last["trade_date"].year][-1]
        ends[code] = (float(last["close"]) / float(base["close"]) - 1) * 100
    history: list[Any] = []
    for turn in ("코스피 올해 수익률", "나스닥은?", "둘 중 더 많이 오른 건?"):
        both = macro_answer(turn, history=history, settings=offline, store=graph_store,
                            pool=pg_pool)  # fmt: skip
        history = history_after(history, turn, both)
    assert (
        f"코스피 {ends['^KS11']:+.2f}%" in both.answer and f"{ends['^IXIC']:+.2f}%" in both.answer
    )


def test_round_51_a_price_bar_ever_met_a_move_either_way_and_a_total_of_a_cut(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 51 (written before the change; 3 wrong with status ok): '10만원 넘은 적
    있어?' read the bar as 10원 and answered on today's close; '몇 % 움직였어?' gave the close
    alone; '상위 10종목' → '그 중 비중 합계는?' picked the largest. Also '30만원 아래로 떨어진
    적' (a price, not a return) and '서울 미분양' → '경기는?' → '합치면?' (경기 the region, as
    the housing talk goes on). SQL truth."""
    closes = fetch_all(
        "SELECT trade_date, close FROM stock_prices WHERE security_id = 'KR:005930' AND "
        "trade_date > (SELECT max(trade_date) FROM stock_prices) - interval '1 year' ORDER BY "
        "trade_date", None, pg_pool)  # fmt: skip
    over = [r for r in closes if float(r["close"]) > 100_000]
    ever = answer_stock_question("삼성전자 주가 10만원 넘은 적 있어?", pool=pg_pool)
    assert ever is not None and ever.answer.startswith("**예 — " if over else "**아니요 — ")
    assert "종가 최근 1년(" in ever.answer and f"100,000원 초과: {len(over)}일" in ever.answer
    low = min(float(r["close"]) for r in fetch_all(
        "SELECT close FROM stock_prices WHERE security_id = 'KR:000660' AND trade_date > "
        "(SELECT max(trade_date) FROM stock_prices) - interval '1 year'", None, pg_pool))  # fmt: skip
    below = answer_stock_question("SK하이닉스 30만원 아래로 떨어진 적 있어?", pool=pg_pool)
    assert below is not None and "수익률" not in below.answer.split("\n")[0]
    assert below.answer.startswith("**예 — " if low < 300_000 else "**아니요 — ")

    moved = answer_stock_question("POSCO홀딩스 주가 3개월 동안 몇 % 움직였어?", pool=pg_pool)
    assert moved is not None and "3개월 수익률 " in moved.answer

    top = one(pg_pool, "SELECT sum(weight) FROM (SELECT weight FROM etf_holdings WHERE etf_code "
              "= '069500' AND as_of_date = (SELECT max(as_of_date) FROM etf_holdings WHERE "
              "etf_code = '069500') ORDER BY weight DESC LIMIT 10) t")  # fmt: skip
    total = chain(etf_answer, ("KODEX 200 보유 상위 10종목", "그 중 비중 합계는?"),
                  settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert f"상위 10개 종목 비중 합: {top:.2f}%" in total.answer

    units = {r["region"]: int(r["units"]) for r in fetch_all(
        "SELECT region, units FROM re_unsold_housing WHERE region IN ('서울', '경기') AND month "
        "= (SELECT max(month) FROM re_unsold_housing)", None, pg_pool)}  # fmt: skip
    history = []
    for turn in ("서울 미분양 최근 추이", "경기는?", "합치면?"):
        both = macro_answer(turn, history=history, settings=offline, store=graph_store,
                            pool=pg_pool)  # fmt: skip
        history = history_after(history, turn, both)
    assert "서울·경기 미분양" in both.answer and f"{sum(units.values()):,}호" in both.answer


def test_round_52_a_manager_asked_of_a_pick_an_outlook_a_bar_counted_and_words_of_growth(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 52 (written before the change; 5 wrong with status ok): '그거 운용사는?' gave
    the fund's net assets again; 'KODEX 200 전망' showed the fund's card; '15 아래로 내려간 날'
    led with a premise nobody stated; '1년 새 얼마나 불었어?' gave the level; 'since year end'
    (no hyphen) was a year's change. Also a span the ETF price tool's year does not reach is
    said, not an error. SQL truth."""
    cheapest = fetch_all(
        "SELECT e.name, e.manager FROM etfs e JOIN LATERAL (SELECT net_assets FROM etf_prices p "
        "WHERE p.etf_code = e.code ORDER BY trade_date DESC LIMIT 1) p ON true WHERE e.code IN "
        "(SELECT code FROM etfs ORDER BY expense_ratio, code LIMIT 3) ORDER BY p.net_assets DESC "
        "LIMIT 1", None, pg_pool)[0]  # fmt: skip
    house = chain(etf_answer, ("보수 가장 싼 ETF 3개", "그 중 순자산 가장 큰 건?", "그거 운용사는?"),
                  settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert house.answer.startswith(f"{cheapest['name']}의 운용사는 {cheapest['manager']}입니다.")

    outlook = etf_answer("KODEX 200 전망", settings=offline, store=graph_store, pool=pg_pool)
    assert outlook.status == "partial" and "예측" in outlook.answer

    below = macro_answer("VIX가 15 아래로 내려간 날 올해 며칠?", settings=offline,
                         store=graph_store, pool=pg_pool)  # fmt: skip
    assert "질문과 달리" not in below.answer and "15.00 미만: " in below.answer

    grew = answer_stock_question("삼성전자 시가총액 1년 새 얼마나 불었어?", pool=pg_pool)
    assert grew is not None and "대비 " in grew.answer  # the change, not the level alone

    year_end = fetch_all(
        "SELECT obs_date, value FROM macro_observations WHERE series_code = 'DGS10' AND "
        "obs_date <= make_date(extract(year FROM (SELECT max(obs_date) FROM macro_observations "
        "WHERE series_code = 'DGS10'))::int - 1, 12, 31) ORDER BY obs_date DESC LIMIT 1", None,
        pg_pool)[0]  # fmt: skip
    since = macro_answer("US 10-year yield change since year end", settings=offline,
                         store=graph_store, pool=pg_pool)  # fmt: skip
    assert f"vs {float(year_end['value']):.2f}% on {year_end['obs_date']}" in since.answer

    # a span older than the price tool's year is read from a window reaching it (r83)
    ends = fetch_all(
        "SELECT (SELECT close FROM etf_prices WHERE etf_code = '102110' AND trade_date < "
        "make_date(y, 7, 1) ORDER BY trade_date DESC LIMIT 1) AS before, (SELECT close FROM "
        "etf_prices WHERE etf_code = '102110' AND trade_date <= make_date(y, 12, 31) ORDER BY "
        "trade_date DESC LIMIT 1) AS last FROM (SELECT extract(year FROM max(trade_date))::int - 1 "
        "AS y FROM etf_prices) t", None, pg_pool)[0]  # fmt: skip
    rate = (float(ends["last"]) / float(ends["before"]) - 1) * 100
    half = etf_answer("TIGER 200 작년 하반기 수익률", settings=offline, store=graph_store,
                      pool=pg_pool)  # fmt: skip
    assert half.status == "ok" and f"수익률: {rate:+.2f}%" in half.answer


def test_an_average_asked_against_a_year_before_is_said_not_given_as_the_answer(
    graph_store: Any, offline: Settings, pg_pool: Any
) -> None:
    """Round 46's one wrong answer left after its changes: '서울 아파트 평균 거래가 작년 대비'
    gave the period's average with status ok; the change of an average on a year is not
    computed, so the answer says so (partial). A growth rate's window average still is."""
    deals = macro_answer("서울 아파트 평균 거래가 작년 대비", settings=offline, store=graph_store,
                         pool=pg_pool)  # fmt: skip
    assert deals.status == "partial" and "전년·전월 대비 변화는 계산하지 않아" in deals.answer
    growth = macro_answer("미국 CPI 전년비 최근 6개월 평균", settings=offline, store=graph_store,
                          pool=pg_pool)  # fmt: skip
    assert growth.status == "ok" and "계산하지 않아" not in growth.answer


def test_round_53_the_house_a_count_put_first_then_a_figure_of_its_funds(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 53 (written before the change; 1 wrong with status ok): '운용사별 ETF 개수' →
    '그 중 가장 많은 곳의 평균 보수는?' averaged the fees of all funds. SQL truth."""
    top = fetch_all("SELECT manager, avg(expense_ratio) AS fee FROM etfs GROUP BY manager "
                    "ORDER BY count(*) DESC, manager LIMIT 1", None, pg_pool)[0]  # fmt: skip
    fee = chain(etf_answer, ("운용사별 ETF 개수", "그 중 가장 많은 곳의 평균 보수는?"),
                settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert fee.status == "ok" and fee.answer.startswith(f"{top['manager']}의 ETF의 총보수 평균: ")
    assert f"{float(top['fee']):.3f}".rstrip("0") in fee.answer.split("\n")[0]


def test_round_54_a_typo_kiwi_splits_and_a_bar_said_below_in_any_ending(pg_pool: Any) -> None:
    """Fresh round 54 (written before the change; 0 wrong with status ok, 4 honest misses):
    '삼성전저' is 삼성전 + 저/XPN to Kiwi, so no name started there and the Stock screen did
    not answer; '5배 아래야?' was an unread number ('아래로/아래인/아래였' were listed, not
    '아래' itself). SQL truth."""
    held = fetch_all("SELECT f.dividend_yield, f.pe FROM stock_fundamentals f JOIN stocks s "
                     "USING (security_id) WHERE s.name = %(n)s ORDER BY f.as_of_date DESC LIMIT 1",
                     {"n": "삼성전자"}, pg_pool)[0]  # fmt: skip
    typo = answer_stock_question("삼성전저 배당수익률", pool=pg_pool)
    assert typo is not None and typo.status == "ok"
    assert typo.answer.splitlines()[0] == "ℹ️ '삼성전저'를 삼성전자로 읽었습니다."
    assert f"배당수익률 {float(held['dividend_yield']):.2f}%" in typo.answer
    kia = fetch_all(
        "SELECT f.pe FROM stock_fundamentals f JOIN stocks s USING (security_id) "
        "WHERE s.name = '기아' ORDER BY f.as_of_date DESC LIMIT 1",
        None,
        pg_pool,
    )[0]
    for bar in (5, 6):
        below = answer_stock_question(f"기아 PER {bar}배 아래야?", pool=pg_pool)
        assert below is not None and below.status == "ok"
        verdict = "예" if float(kia["pe"]) < bar else "아니요"
        assert below.answer.startswith(
            f"**{verdict} — 기아 PER {float(kia['pe']):.2f}배: {bar}배 미만"
        )


def test_round_55_both_ends_of_an_order_a_spaced_compound_and_a_named_bar(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 55 (written before the change; 2 wrong with status ok): '… 순자산 가장 큰
    것과 가장 작은 것의 보수 차이' gave the largest fund's fee alone, and '코스피와 코스닥 중
    1개월 하락폭 큰 쪽' the indices' level gap; '시가 총액' (a compound written with a space) was
    not read, nor 'TIGER 200보다' as the bar's name. SQL truth."""
    funds = fetch_all(
        "SELECT e.name, e.expense_ratio FROM etfs e JOIN etf_tags t ON t.etf_code = e.code "
        "JOIN LATERAL (SELECT net_assets FROM etf_prices p WHERE p.etf_code = e.code "
        "ORDER BY trade_date DESC LIMIT 1) p ON true WHERE t.tag = '미국나스닥' "
        "ORDER BY p.net_assets DESC", None, pg_pool)  # fmt: skip
    ends = etf_answer("미국나스닥 ETF 중 순자산 가장 큰 것과 가장 작은 것의 보수 차이",
                      settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    gap = float(funds[0]["expense_ratio"]) - float(funds[-1]["expense_ratio"])
    assert ends.status == "ok" and "처음과 끝" in (ends.trace[0].observation or "")
    assert f"{funds[0]['name']}" in ends.answer and f"{funds[-1]['name']}" in ends.answer
    assert f"차이는 {gap:+.2f}%p" in ends.answer
    drop = macro_answer("코스피와 코스닥 중 최근 1개월 하락폭 큰 쪽", settings=offline,
                        store=graph_store, pool=pg_pool)  # fmt: skip
    assert drop.status == "ok" and "수익률 비교" in drop.answer and "격차(" not in drop.answer
    cap = fetch_all("SELECT f.market_cap FROM stock_fundamentals f JOIN stocks s USING "
                    "(security_id) WHERE s.name = '하이브' ORDER BY f.as_of_date DESC LIMIT 1",
                    None, pg_pool)[0]  # fmt: skip
    spaced = answer_stock_question("하이브 시가 총액", pool=pg_pool)
    assert spaced is not None and spaced.status == "ok" and "시가총액" in spaced.answer
    assert f"{int(float(cap['market_cap']) // 1e12)}조" in spaced.answer
    bar = etf_answer("TIGER 200보다 보수 싼 ETF 개수", settings=offline, store=graph_store,
                     pool=pg_pool)  # fmt: skip
    cheaper = fetch_all(
        "SELECT count(*) AS n FROM etfs WHERE expense_ratio < (SELECT "
        "expense_ratio FROM etfs WHERE name = 'TIGER 200')",
        None,
        pg_pool,
    )[0]
    assert bar.status == "ok" and f": {cheaper['n']}개" in bar.answer.splitlines()[0]


def test_round_56_one_measure_at_both_ends_themes_joined_or_stacked_and_a_carried_cut(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 56 (written before the change; 2 wrong with status ok): '채권 ETF 중 1년
    수익률 가장 높은 것과 가장 낮은 것의 차이' listed the set; '… 보유 상위 5종목' → '비중 합은?'
    summed all 30 holdings; '해외주식 ETF와 채권 ETF 개수' counted the first theme alone and
    '해외주식 배당 ETF' dropped the second tag. SQL truth."""
    fees = fetch_all("SELECT e.expense_ratio FROM etfs e JOIN etf_tags t ON t.etf_code = e.code "
                     "WHERE t.tag = '반도체' ORDER BY e.expense_ratio DESC", None, pg_pool)  # fmt: skip
    ends = etf_answer("반도체 ETF 중 보수 가장 비싼 것과 가장 싼 것 차이", settings=offline,
                      store=graph_store, pool=pg_pool)  # fmt: skip
    gap = float(fees[0]["expense_ratio"]) - float(fees[-1]["expense_ratio"])
    assert ends.status == "ok" and f"총보수 차이는 {gap:+.2f}%p" in ends.answer
    top5 = fetch_all("SELECT sum(weight) AS w FROM (SELECT h.weight FROM etf_holdings h JOIN etfs "
                     "e ON e.code = h.etf_code WHERE e.name = 'TIGER 반도체' AND h.as_of_date = "
                     "(SELECT max(as_of_date) FROM etf_holdings) ORDER BY h.weight DESC LIMIT 5) t",
                     None, pg_pool)[0]  # fmt: skip
    summed = chain(etf_answer, ("KODEX 반도체 보유 상위 5종목", "비중 합은?", "TIGER 반도체는?"),
                   settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert summed.status == "ok"
    assert summed.answer.startswith(f"TIGER 반도체 상위 5개 종목 비중 합: {float(top5['w']):.2f}%")
    counts = {r["tag"]: r["n"] for r in fetch_all(
        "SELECT tag, count(*) AS n FROM etf_tags WHERE tag IN ('해외주식', '채권') GROUP BY tag",
        None, pg_pool)}  # fmt: skip
    total = etf_answer("해외주식 ETF 개수와 채권 ETF 개수 합", settings=offline, store=graph_store,
                       pool=pg_pool)  # fmt: skip
    assert total.status == "ok" and f"합계: {sum(counts.values())}개" in total.answer
    both = fetch_all("SELECT count(*) AS n FROM etf_tags a JOIN etf_tags b USING (etf_code) "
                     "WHERE a.tag = '해외주식' AND b.tag = '배당'", None, pg_pool)[0]  # fmt: skip
    stacked = etf_answer("해외주식 배당 ETF", settings=offline, store=graph_store, pool=pg_pool)
    assert f"{both['n']}개)" in stacked.answer.splitlines()[0] and "'배당'" in stacked.answer


def test_round_57_two_rates_picked_by_their_change_and_a_how_to_is_not_a_card(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 57 (written before the change; 2 wrong with status ok): '한국과 미국 실업률
    중 최근 1년 변화 큰 쪽' gave the two rates' level gap; 'KODEX 200 사는 법' gave the fund's
    card with status ok ('법' after a verb asks how to, which no screen answers). SQL truth."""

    def change(code: str) -> float:
        rows = fetch_all("SELECT value FROM macro_observations WHERE series_code = %(c)s AND "
                         "obs_date >= (SELECT max(obs_date) FROM macro_observations WHERE "
                         "series_code = %(c)s) - interval '1 year' ORDER BY obs_date", {"c": code},
                         pg_pool)  # fmt: skip
        return float(rows[-1]["value"]) - float(rows[0]["value"])

    us, kr = change("UNRATE"), change("KR_UNEMPLOYMENT")
    picked = macro_answer("한국과 미국 실업률 중 최근 1년 변화 큰 쪽", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    line = next(x for x in picked.answer.splitlines() if "변화 비교" in x)
    first = "미국 실업률" if us >= kr else "한국 실업률"
    assert picked.status == "ok" and "격차(" not in picked.answer
    assert line.split(": ", 1)[1].startswith(f"{first}") and f"{max(us, kr):+.2f}%p" in line
    how = etf_answer("KODEX 200 사는 법", settings=offline, store=graph_store, pool=pg_pool)
    assert how.status == "partial" and "'법'은 읽지 못해" in how.answer.splitlines()[0]


def test_round_58_a_pick_among_the_funds_past_a_named_one(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 58 (written before the change; 1 wrong with status ok): 'TIGER 200보다 순자산
    큰 ETF 중 보수 가장 싼 것' listed the larger funds by size; the pick by fee was not applied.
    SQL truth."""
    cheapest = fetch_all(
        "WITH na AS (SELECT DISTINCT ON (etf_code) etf_code, net_assets FROM etf_prices "
        "ORDER BY etf_code, trade_date DESC) SELECT e.name, e.expense_ratio FROM etfs e JOIN na "
        "ON na.etf_code = e.code WHERE na.net_assets > (SELECT na.net_assets FROM na JOIN etfs t "
        "ON t.code = na.etf_code WHERE t.name = 'TIGER 200') ORDER BY e.expense_ratio, e.code",
        None, pg_pool)  # fmt: skip
    picked = etf_answer("TIGER 200보다 순자산 큰 ETF 중 보수 가장 싼 것", settings=offline,
                        store=graph_store, pool=pg_pool)  # fmt: skip
    lines = picked.answer.splitlines()
    assert picked.status == "ok" and lines[1].startswith(f"1. {cheapest[0]['name']} (")
    assert "총보수 낮은 순 상위 1개" in lines[0]
    assert not any(line.startswith("2. ") for line in lines)  # one fund picked, not the set


def test_round_59_a_level_of_last_week_a_pick_read_where_its_measure_is_and_a_spaced_name(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 59 (written before the change; 3 wrong with status ok): '지난주 코스피 종가'
    gave the latest close; 'KODEX 200과 TIGER 200 중 1년 수익률 낮은 쪽의 보수' took the higher
    return's fund; 'HD 현대 일렉트릭 PER' answered Home Depot (ticker HD) beside it. SQL truth."""
    week = fetch_all("SELECT trade_date, close FROM market_series_prices WHERE series_code = '^KS11' "
                     "AND trade_date < date_trunc('week', (SELECT max(trade_date) FROM "
                     "market_series_prices WHERE series_code = '^KS11')) ORDER BY trade_date DESC "
                     "LIMIT 1", None, pg_pool)[0]  # fmt: skip
    level = macro_answer("지난주 코스피 종가", settings=offline, store=graph_store, pool=pg_pool)
    assert level.status == "ok"
    assert f"코스피 {float(week['close']):,.2f}포인트 ({week['trade_date']})" in level.answer
    lower = fetch_all(
        "SELECT e.name, e.expense_ratio, (SELECT close FROM etf_prices p WHERE p.etf_code = e.code "
        "ORDER BY trade_date DESC LIMIT 1) / (SELECT close FROM etf_prices p WHERE p.etf_code = "
        "e.code AND trade_date <= (SELECT max(trade_date) FROM etf_prices) - interval '1 year' "
        "ORDER BY trade_date DESC LIMIT 1) AS growth FROM etfs e WHERE e.name IN ('KODEX 200', "
        "'TIGER 200') ORDER BY growth", None, pg_pool)[0]  # fmt: skip
    pick = etf_answer("KODEX 200과 TIGER 200 중 1년 수익률 낮은 쪽의 보수", settings=offline,
                      store=graph_store, pool=pg_pool)  # fmt: skip
    assert pick.status == "ok" and f"ETF의 총보수: {lower['name']} (" in pick.answer.splitlines()[0]
    spaced = answer_stock_question("HD 현대 일렉트릭 PER", pool=pg_pool)
    assert spaced is not None and "HD현대일렉트릭" in spaced.answer
    assert "Home Depot" not in spaced.answer


def test_round_60_two_counts_picked_by_how_much_they_grew(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 60 (written before the change; 0 wrong with status ok, 4 honest misses):
    '서울과 부산 미분양 중 최근 1년 증가폭 큰 쪽' left '증가' unread and gave the level gap. Each
    region's change over the year in homes, the larger rise first. SQL truth."""

    def grew(region: str) -> int:
        rows = fetch_all("SELECT units FROM re_unsold_housing WHERE region = %(r)s AND month >= "
                         "(SELECT max(month) FROM re_unsold_housing) - interval '1 year' "
                         "ORDER BY month", {"r": region}, pg_pool)  # fmt: skip
        return int(rows[-1]["units"]) - int(rows[0]["units"])

    seoul, busan = grew("서울"), grew("부산")
    picked = macro_answer("서울과 부산 미분양 중 최근 1년 증가폭 큰 쪽", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    line = next(x for x in picked.answer.splitlines() if "변화 비교" in x)
    first, more = ("서울", seoul) if seoul >= busan else ("부산", busan)
    assert picked.status == "ok" and line.split(": ", 1)[1].startswith(
        f"{first} 미분양 {more:+,}호"
    )


def test_round_61_a_pick_inside_a_cut_said_in_one_question(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 61 (written before the change; 1 wrong with status ok): 'KODEX 200 상위
    10종목 중 비중 가장 작은 종목' listed the ten; the pick inside them (as a follow-up '그 중 …'
    already did) was not applied. SQL truth."""
    tenth = fetch_all("SELECT s.name, h.weight FROM etf_holdings h JOIN etfs e ON e.code = "
                      "h.etf_code JOIN stocks s ON s.security_id = h.security_id WHERE e.name = "
                      "'KODEX 200' AND h.as_of_date = (SELECT max(as_of_date) FROM etf_holdings) "
                      "ORDER BY h.weight DESC LIMIT 10", None, pg_pool)[-1]  # fmt: skip
    picked = etf_answer("KODEX 200 상위 10종목 중 비중 가장 작은 종목", settings=offline,
                        store=graph_store, pool=pg_pool)  # fmt: skip
    assert picked.status == "ok"
    assert picked.answer.startswith(
        f"KODEX 200 비중 상위 10개 중 비중이 가장 작은 종목: {tenth['name']} ("
    )


def test_a_foreign_place_is_named_as_asked_and_a_fall_is_not_called_the_highest(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Issue 33's walk: the decline for '미국 집값' named the region by its code ('US 집값');
    a comparison of two funds that both fell called the smaller fall '가장 높습니다'."""
    house = macro_answer("미국 집값", settings=offline, store=graph_store, pool=pg_pool)
    assert house.status == "partial" and house.answer.startswith("'미국 집값'에 대한 데이터는")
    moves = fetch_all(
        "SELECT e.name, (SELECT close FROM etf_prices p WHERE p.etf_code = e.code ORDER BY "
        "trade_date DESC LIMIT 1) / (SELECT close FROM etf_prices p WHERE p.etf_code = e.code AND "
        "trade_date <= (SELECT max(trade_date) FROM etf_prices) - interval '1 month' ORDER BY "
        "trade_date DESC LIMIT 1) - 1 AS r FROM etfs e WHERE e.name IN ('KODEX 200', 'TIGER 200') "
        "ORDER BY r DESC", None, pg_pool)  # fmt: skip
    compared = etf_answer("KODEX 200과 TIGER 200 비교", settings=offline, store=graph_store,
                          pool=pg_pool)  # fmt: skip
    said = "가장 덜 내렸습니다" if float(moves[0]["r"]) < 0 else "가장 높습니다"
    assert f"{josa(moves[0]['name'], '이/가')} " in compared.answer and said in compared.answer


def test_round_63_the_group_a_superlative_asks_for_and_a_trading_value_over_a_window(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 63 (written before the change; 1 wrong with status ok, 2 honest): 'ETF 개수가
    가장 많은 운용사' counted all ETFs; '최근 5일 거래대금' summed a month; 'KODEX 골드선물
    거래대금' was said to ask for '선물 거래'; '그중' glued was unread. SQL truth."""
    counts = fetch_all("SELECT manager, count(*) AS n FROM etfs GROUP BY manager ORDER BY n DESC, "
                       "manager", None, pg_pool)  # fmt: skip
    for question, row in (
        ("ETF 개수가 가장 많은 운용사", counts[0]),
        ("ETF 가장 적은 운용사", counts[-1]),
    ):
        house = etf_answer(question, settings=offline, store=graph_store, pool=pg_pool)
        most = "많은" if row is counts[0] else "적은"
        assert house.status == "ok"
        assert house.answer.startswith(
            f"ETF 수가 가장 {most} 운용사: {row['manager']} ({row['n']}개"
        )
    traded = one(pg_pool, "SELECT sum(close * volume) FROM (SELECT close, volume FROM etf_prices "
                 "WHERE etf_code = '069500' ORDER BY trade_date DESC LIMIT 5) d")  # fmt: skip
    week = etf_answer(
        "KODEX 200 최근 5일 거래대금", settings=offline, store=graph_store, pool=pg_pool
    )
    assert week.status == "ok" and f"합계: {fmt_krw(traded)}" in week.answer
    last = one(pg_pool, "SELECT close * volume FROM etf_prices WHERE etf_code = '132030' "
               "ORDER BY trade_date DESC LIMIT 1")  # fmt: skip
    gold = etf_answer("KODEX 골드선물 거래대금", settings=offline, store=graph_store, pool=pg_pool)
    assert gold.status == "ok" and f"거래대금 {fmt_krw(last)}" in gold.answer
    weight = chain(etf_answer, ("KODEX 반도체 상위 5개 종목", "그중 SK하이닉스 비중은?"),
                   settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert weight.status == "ok" and weight.answer.startswith(
        "KODEX 반도체 안에서 SK하이닉스의 비중은"
    )


def _one_year_return(pool: Any, name: str) -> float:
    return one(pool, "SELECT (SELECT close FROM etf_prices p WHERE p.etf_code = e.code ORDER BY "
               "trade_date DESC LIMIT 1) / (SELECT close FROM etf_prices p WHERE p.etf_code = e.code "
               "AND trade_date <= (SELECT max(trade_date) FROM etf_prices) - interval '1 year' "
               "ORDER BY trade_date DESC LIMIT 1) * 100 - 100 FROM etfs e WHERE e.name = %(n)s",
               n=name)  # fmt: skip


def test_round_64_a_picked_funds_figure_held_to_a_bar_and_the_term_spread_said_short(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 64 (written before the change; 1 wrong with status ok, 1 honest): '보수가
    가장 싼 반도체 ETF의 1년 수익률은 KODEX 200보다 높아?' listed the funds dearer than KODEX
    200; '그럼 장단기 차이는?' left '단기' unread. SQL truth."""
    cheapest = fetch_all("SELECT e.name FROM etfs e JOIN etf_tags t ON t.etf_code = e.code WHERE "
                         "t.tag = '반도체' ORDER BY e.expense_ratio, e.code LIMIT 1", None,
                         pg_pool)[0]["name"]  # fmt: skip
    mine, bar = _one_year_return(pg_pool, cheapest), _one_year_return(pg_pool, "KODEX 200")
    held = etf_answer("보수가 가장 싼 반도체 ETF의 1년 수익률은 KODEX 200보다 높아?",
                      settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert held.status == "ok"
    assert held.answer.startswith(f"{'예' if mine > bar else '아니요'} — {cheapest}의 1년 수익률 "
                                  f"{mine:+.2f}%: KODEX 200({bar:+.2f}%) 초과")  # fmt: skip
    for bar_pct in (1, 30):
        said = etf_answer(f"보수가 가장 싼 반도체 ETF의 1년 수익률은 {bar_pct}% 넘어?",
                          settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
        assert said.status == "ok" and said.answer.startswith(
            "예 — " if mine > bar_pct else "아니요 — "
        )
    gap = chain(macro_answer, ("미국 2년물 금리", "10년물은?", "그럼 장단기 차이는?"),
                settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    spread = one(pg_pool, "SELECT a.value - b.value FROM macro_observations a JOIN macro_observations "
                 "b ON b.obs_date = a.obs_date AND b.series_code = 'DGS2' WHERE a.series_code = "
                 "'DGS10' ORDER BY a.obs_date DESC LIMIT 1")  # fmt: skip
    assert gap.status == "ok" and f"{spread:+.2f}%p" in gap.answer


def test_round_65_a_bar_on_a_gap_the_larger_fall_two_themes_compared_and_a_range_in_percent(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 65 (written before the change; 4 wrong with status ok): '미국 실업률이
    한국보다 2%p 이상 높아?' held each rate to 2%; '둘 중 더 많이 빠진 건?' led with the smaller
    fall; '채권 ETF 평균 보수와 해외주식 ETF 평균 보수 중 더 높은 쪽' found no ETF; '최고치와 최저치
    차이는 몇 %야?' gave points only. SQL truth."""

    def latest(code: str) -> float:
        return one(pg_pool, "SELECT value FROM macro_observations WHERE series_code = %(c)s "
                   "ORDER BY obs_date DESC LIMIT 1", c=code)  # fmt: skip

    gap = latest("UNRATE") - latest("KR_UNEMPLOYMENT")
    barred = macro_answer("미국 실업률이 한국보다 2%p 이상 높아?", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    verdict = [line for line in barred.answer.splitlines() if line.startswith("- ")][0]
    assert barred.status == "ok" and verdict.startswith(f"- {'예' if gap >= 2 else '아니요'} — ")
    assert f"{gap:+.2f}%p" in verdict
    history: list[Any] = []
    for turn in ("코스피 1개월 수익률", "코스닥은?", "둘 중 더 많이 빠진 건?"):
        fell = macro_answer(turn, history=history, settings=offline, store=graph_store,
                            pool=pg_pool)  # fmt: skip
        history = history_after(history, turn, fell)
    moves = {name: one(pg_pool, "SELECT (SELECT close FROM market_series_prices WHERE series_code = "
                       "%(s)s ORDER BY trade_date DESC LIMIT 1) / (SELECT close FROM "
                       "market_series_prices WHERE series_code = %(s)s AND trade_date <= (SELECT "
                       "max(trade_date) FROM market_series_prices WHERE series_code = %(s)s) - "
                       "interval '1 month' ORDER BY trade_date DESC LIMIT 1) - 1", s=symbol)
             for name, symbol in (("코스피", "^KS11"), ("코스닥", "^KQ11"))}  # fmt: skip
    worse = min(moves, key=lambda k: moves[k])
    assert f"{josa(worse, '이/가')} " in fell.answer and "더 많이 내렸습니다" in fell.answer
    fees = {r["tag"]: float(r["fee"]) for r in fetch_all(
        "SELECT t.tag, avg(e.expense_ratio) AS fee FROM etfs e JOIN etf_tags t ON t.etf_code = "
        "e.code WHERE t.tag IN ('채권', '해외주식') GROUP BY t.tag", None, pg_pool)}  # fmt: skip
    higher = max(fees, key=lambda k: fees[k])
    themes = etf_answer("채권 ETF 평균 보수와 해외주식 ETF 평균 보수 중 더 높은 쪽",
                        settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert themes.status == "ok" and f"({josa(higher, '이/가')} " in themes.answer.splitlines()[0]
    width = macro_answer("코스피 최근 3개월 최고치와 최저치 차이는 몇 %야?", settings=offline,
                         store=graph_store, pool=pg_pool)  # fmt: skip
    assert width.status == "ok" and "최저치 대비 " in width.answer


def test_round_66_a_valuation_over_a_window_a_bar_measure_before_it_and_plural_holdings(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 66 (written before the change; 2 wrong with status ok, 1 error): '삼성전자
    PER 5년 평균' averaged the closes; '반도체 ETF 중 3개월 수익률이 KODEX 반도체보다 높은 ETF'
    crashed (a bar's measure said before it); 'largest holdings of …' gave one; '1년 평균 대비
    지금 얼마나 높아?' found no second series. SQL truth."""
    per = fetch_all("SELECT avg(pe) AS mean, min(as_of_date) AS first FROM stock_fundamentals f "
                    "JOIN stocks s USING (security_id) WHERE s.name = '삼성전자' AND f.as_of_date "
                    "> (SELECT max(as_of_date) FROM stock_fundamentals) - interval '5 years'",
                    None, pg_pool)[0]  # fmt: skip
    valued = answer_stock_question("삼성전자 PER 5년 평균", pool=pg_pool)
    assert valued is not None and f"평균: {float(per['mean']):.2f}배" in valued.answer
    assert valued.status == "partial" and f"데이터가 {per['first']}부터라" in valued.answer
    rows = fetch_all(
        "SELECT e.name, (SELECT close FROM etf_prices p WHERE p.etf_code = e.code ORDER BY "
        "trade_date DESC LIMIT 1) / (SELECT close FROM etf_prices p WHERE p.etf_code = e.code AND "
        "trade_date <= (SELECT max(trade_date) FROM etf_prices) - interval '3 months' ORDER BY "
        "trade_date DESC LIMIT 1) - 1 AS r FROM etfs e JOIN etf_tags t ON t.etf_code = e.code "
        "WHERE t.tag = '반도체'", None, pg_pool)  # fmt: skip
    bar = next(float(r["r"]) for r in rows if r["name"] == "KODEX 반도체")
    above = sum(1 for r in rows if float(r["r"]) > bar)
    past = etf_answer("반도체 ETF 중 3개월 수익률이 KODEX 반도체보다 높은 ETF", settings=offline,
                      store=graph_store, pool=pg_pool)  # fmt: skip
    assert past.status == "ok" and f"3개월 수익률 높은 순, {above}개)" in past.answer
    listed = etf_answer("largest holdings of KODEX 반도체", settings=offline, store=graph_store,
                        pool=pg_pool)  # fmt: skip
    assert listed.answer.startswith("Top 10 of KODEX 반도체's")
    mean = one(pg_pool, "SELECT avg(value) FROM macro_observations WHERE series_code = "
               "'KR_USDKRW' AND obs_date > (SELECT max(obs_date) FROM macro_observations WHERE "
               "series_code = 'KR_USDKRW') - interval '1 year'")  # fmt: skip
    against = macro_answer("원달러 환율 1년 평균 대비 지금 얼마나 높아?", settings=offline,
                           store=graph_store, pool=pg_pool)  # fmt: skip
    assert against.status == "ok" and f"평균: {mean:,.2f}; 최근 값 " in against.answer


def test_round_67_a_sets_average_held_to_a_named_funds_figure_and_the_best_house(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 67 (written before the change; 1 wrong with status ok): '반도체 ETF 평균
    3개월 수익률은 KODEX 200 3개월 수익률보다 높아?' gave KODEX 200's average close; the bar
    said with its measure ('KODEX 200 3개월 수익률보다') was not read as a bar. SQL truth."""
    fees = fetch_all("SELECT avg(e.expense_ratio) AS mean FROM etfs e JOIN etf_tags t ON "
                     "t.etf_code = e.code WHERE t.tag = '반도체'", None, pg_pool)[0]  # fmt: skip
    bar = one(pg_pool, "SELECT expense_ratio FROM etfs WHERE name = 'KODEX 200'")
    held = etf_answer("반도체 ETF 평균 보수는 KODEX 200보다 높아?", settings=offline,
                      store=graph_store, pool=pg_pool)  # fmt: skip
    said = "예" if float(fees["mean"]) > bar else "아니요"
    assert held.status == "ok" and held.answer.startswith(
        f"{said} — '반도체' 태그 ETF 총보수 평균 "
    )
    for number in (0.1, 1.0):
        against = etf_answer(f"반도체 ETF 평균 보수는 {number}% 넘어?", settings=offline,
                             store=graph_store, pool=pg_pool)  # fmt: skip
        said = "예" if float(fees["mean"]) > number else "아니요"
        assert against.answer.startswith(f"{said} — "), number
    returns = etf_answer("반도체 ETF 평균 3개월 수익률은 KODEX 200 3개월 수익률보다 높아?",
                         settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert returns.status == "ok" and " — '반도체' 태그 ETF 3개월 수익률 평균 " in returns.answer
    assert ": KODEX 200(" in returns.answer.splitlines()[0]


def test_round_68_which_of_two_places_is_higher_and_an_ever_question_leads_with_the_days(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Fresh round 68 (written before the change; 2 wrong with status ok): '부산 인허가가
    서울보다 많아?' listed both without comparing them; '코스피 4000 아래로 내려간 적 최근
    3개월' led with the latest close's '아니요'. SQL truth."""
    permits = {r["region"]: float(r["units"]) for r in fetch_all(
        "SELECT region, units FROM re_permits WHERE region IN ('부산', '서울') AND month = "
        "(SELECT max(month) FROM re_permits)", None, pg_pool)}  # fmt: skip
    more = max(permits, key=lambda k: permits[k])
    compared = macro_answer("부산 인허가가 서울보다 많아?", settings=offline, store=graph_store,
                            pool=pg_pool)  # fmt: skip
    gap = [line for line in compared.answer.splitlines() if line.startswith("- 격차")]
    assert compared.status == "ok" and gap and f"{more} 주택 인허가가 " in gap[0]
    below = one(pg_pool, "SELECT count(*) FROM market_series_prices WHERE series_code = '^KS11' "
                "AND close < 4000 AND trade_date >= (SELECT max(trade_date) FROM "
                "market_series_prices WHERE series_code = '^KS11') - interval '3 months'")  # fmt: skip
    ever = macro_answer("코스피 4000 아래로 내려간 적 최근 3개월", settings=offline,
                        store=graph_store, pool=pg_pool)  # fmt: skip
    first = [line for line in ever.answer.splitlines() if line.startswith("- ")][0]
    assert "관측치" in first and (
        f"미만: {below:.0f}일" in first or (below == 0 and "없음" in first)
    )


def test_round_69_follow_up_bars_a_compared_place_the_picked_house_and_two_themes_by_than(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Round 69 (written before the change, over the mechanisms rounds 63-68 added; 5 wrong
    with status ok): a bar said alone after a set's average filtered the set; '부산보다 많아?'
    after 서울 answered 부산 alone; '그 운용사 평균 보수는?' after the house with the most ETFs
    averaged all funds; an English yes-or-no filtered the set; two themes compared with '보다'
    found no ETF. SQL truth."""
    fees = fetch_all("SELECT avg(e.expense_ratio) AS mean FROM etfs e JOIN etf_tags t ON "
                     "t.etf_code = e.code WHERE t.tag = '반도체'", None, pg_pool)[0]  # fmt: skip
    held = chain(etf_answer, ("반도체 ETF 평균 보수", "0.3% 넘어?"),
                 settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert held.answer.startswith(("예 — " if float(fees["mean"]) > 0.3 else "아니요 — ")
                                  + "'반도체' 태그 ETF 총보수 평균 ")  # fmt: skip
    english = etf_answer("is the average fee of 반도체 ETFs above 0.3%?", settings=offline,
                         store=graph_store, pool=pg_pool)  # fmt: skip
    assert english.answer.startswith("Yes — " if float(fees["mean"]) > 0.3 else "No — ")
    house = fetch_all("SELECT manager, avg(expense_ratio) AS fee FROM etfs GROUP BY manager "
                      "ORDER BY count(*) DESC, manager LIMIT 1", None, pg_pool)[0]  # fmt: skip
    fee = chain(etf_answer, ("ETF 가장 많은 운용사", "그 운용사 평균 보수는?"),
                settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert fee.status == "ok" and fee.answer.startswith(f"{house['manager']}의 ETF의 총보수 평균: ")
    unsold = {r["region"]: float(r["units"]) for r in fetch_all(
        "SELECT region, units FROM re_unsold_housing WHERE region IN ('서울', '부산') AND month = "
        "(SELECT max(month) FROM re_unsold_housing)", None, pg_pool)}  # fmt: skip
    history = []
    for turn in ("서울 미분양", "부산보다 많아?"):
        more = macro_answer(turn, history=history, settings=offline, store=graph_store,
                            pool=pg_pool)  # fmt: skip
        history = history_after(history, turn, more)
    higher = max(unsold, key=lambda k: unsold[k])
    assert more.status == "ok" and f"{higher} 미분양이 " in more.answer
    returns = fetch_all(
        "SELECT t.tag, avg((SELECT close FROM etf_prices p WHERE p.etf_code = e.code ORDER BY "
        "trade_date DESC LIMIT 1) / (SELECT close FROM etf_prices p WHERE p.etf_code = e.code AND "
        "trade_date <= (SELECT max(trade_date) FROM etf_prices) - interval '1 year' ORDER BY "
        "trade_date DESC LIMIT 1) - 1) AS r FROM etfs e JOIN etf_tags t ON t.etf_code = e.code "
        "WHERE t.tag IN ('해외주식', '채권') GROUP BY t.tag", None, pg_pool)  # fmt: skip
    best = max(returns, key=lambda r: float(r["r"]))["tag"]
    themes = etf_answer("해외주식 ETF 평균 1년 수익률이 채권 ETF 평균보다 높아?", settings=offline,
                        store=graph_store, pool=pg_pool)  # fmt: skip
    assert themes.status == "ok" and f"({josa(best, '이/가')} " in themes.answer.splitlines()[0]
    pair = etf_answer("KODEX 200 보수가 TIGER 200보다 높아?", settings=offline, store=graph_store,
                      pool=pg_pool)  # fmt: skip
    assert pair.answer.startswith("KODEX 200과 TIGER 200의 총보수 차이는 ")


def test_round_71_a_cut_summed_by_its_own_measure_a_place_by_weight_and_stock_follow_ups(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Round 71 (written before the change; 2 wrong with status ok, 1 honest): '미래에셋자산운용
    ETF 중 순자산 상위 3개 합계' summed all 43 of its funds; '보수 낮은 5개 ETF 평균 보수' averaged
    every fee; 'TIGER 200 보유종목 중 비중 2위' called '비중' unread; on the Stock screen
    'SK하이닉스는?' after '삼성전자 PER' drew the full report, not the PER; '20 이상인 날 며칠?' added a
    count of changes of VIX. SQL truth."""
    top = fetch_all(
        "SELECT p.net_assets FROM etfs e JOIN LATERAL (SELECT net_assets FROM etf_prices p WHERE "
        "p.etf_code = e.code ORDER BY trade_date DESC LIMIT 1) p ON true WHERE e.manager = "
        "'미래에셋자산운용' ORDER BY p.net_assets DESC LIMIT 3", None, pg_pool)  # fmt: skip
    total = etf_answer("미래에셋자산운용 ETF 중 순자산 상위 3개 합계", settings=offline,
                       store=graph_store, pool=pg_pool)  # fmt: skip
    assert total.status == "ok" and f"합계: {fmt_krw(sum(float(r['net_assets']) for r in top))}" in (
        total.answer.splitlines()[0])  # fmt: skip
    fees = [float(r["expense_ratio"]) for r in fetch_all(
        "SELECT expense_ratio FROM etfs ORDER BY expense_ratio LIMIT 5", None, pg_pool)]  # fmt: skip
    cheap = etf_answer("보수 낮은 5개 ETF 평균 보수", settings=offline, store=graph_store,
                       pool=pg_pool)  # fmt: skip
    mean = fmt_measure("expense_ratio", sum(fees) / 5)
    assert cheap.status == "ok" and f"상위 5개 ETF의 총보수 평균: {mean}" in cheap.answer
    second = fetch_all(
        "SELECT s.name FROM etf_holdings h JOIN stocks s USING (security_id) WHERE h.etf_code = "
        "'102110' AND h.as_of_date = (SELECT max(as_of_date) FROM etf_holdings WHERE etf_code = "
        "'102110') ORDER BY h.weight DESC OFFSET 1 LIMIT 1", None, pg_pool)[0]["name"]  # fmt: skip
    place = etf_answer("TIGER 200 보유종목 중 비중 2위 종목은?", settings=offline,
                       store=graph_store, pool=pg_pool)  # fmt: skip
    assert place.status == "ok" and place.answer.startswith(f"TIGER 200 비중 2위 종목: {second} (")
    per = one(pg_pool, "SELECT f.pe FROM stock_fundamentals f JOIN stocks s USING (security_id) "
                       "WHERE s.name = 'SK하이닉스' ORDER BY f.as_of_date DESC LIMIT 1")  # fmt: skip
    follow = chain(answer_stock_question, ("삼성전자 PER", "SK하이닉스는?"), pool=pg_pool)
    assert follow.status == "ok" and f"PER {per:.2f}배" in follow.answer
    assert "종목 리포트" not in follow.answer.splitlines()[0]
    days = macro_answer("VIX 20 이상인 날 최근 1개월에 며칠?", settings=offline, store=graph_store,
                        pool=pg_pool)  # fmt: skip
    assert "20.00 이상:" in days.answer
    assert "변경" not in days.answer  # a count of changes is a policy rate's, not asked here


def test_round_72_the_places_that_moved_one_way_are_counted_not_the_nation_judged(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Round 72 (written before the change; 1 wrong with status ok): '미분양 1년 전보다 늘어난
    지역 몇 곳이야?' judged the nationwide total's fall against a premise nobody stated. Each
    region that rose is counted and named. SQL truth."""
    rose = {r["region"] for r in fetch_all(
        "SELECT a.region FROM re_unsold_housing a JOIN re_unsold_housing b ON a.region = b.region "
        "AND b.month = a.month - interval '1 year' WHERE a.month = (SELECT max(month) FROM "
        "re_unsold_housing) AND a.units > b.units AND a.region <> '전국'", None, pg_pool)}  # fmt: skip
    count = macro_answer("미분양 1년 전보다 늘어난 지역 몇 곳이야?", settings=offline,
                         store=graph_store, pool=pg_pool)  # fmt: skip
    line = next(x for x in count.answer.splitlines() if "늘어난 지역" in x)
    assert count.status == "ok" and f": {len(rose)}곳 / " in line
    assert all(f"{region} " in line for region in rose) and "전국" not in line


def test_round_73_a_month_said_with_its_length_a_groups_sum_and_the_holdings_own_returns(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Round 73 (written before the change; 0 wrong with status ok, 3 honest): 'TIGER 200 10월
    한 달 수익률' read '한 달' as the last month and left '10월' unread; '수도권 미분양 합계'
    added the three regions and still said sums are not computed; 'KODEX 200 보유종목 상위
    5개의 평균 1개월 수익률' listed the weights. SQL truth."""
    closes = fetch_all(
        "SELECT close FROM etf_prices WHERE etf_code = '102110' AND trade_date IN ((SELECT "
        "max(trade_date) FROM etf_prices WHERE etf_code = '102110' AND trade_date < '2026-10-01'), "
        "(SELECT max(trade_date) FROM etf_prices WHERE etf_code = '102110' AND trade_date < "
        "'2026-11-01')) ORDER BY trade_date", None, pg_pool)  # fmt: skip
    october = etf_answer("TIGER 200 10월 한 달 수익률", settings=offline, store=graph_store,
                         pool=pg_pool)  # fmt: skip
    moved = (float(closes[1]["close"]) / float(closes[0]["close"]) - 1) * 100
    assert october.status == "ok" and f"수익률: {moved:+.2f}%" in october.answer
    assert "종가 2026-10(" in october.answer  # the month asked, by its sessions
    total = one(pg_pool, "SELECT sum(units) FROM re_unsold_housing WHERE region IN ('서울', "
                         "'인천', '경기') AND month = (SELECT max(month) FROM re_unsold_housing)")  # fmt: skip
    metro = macro_answer("수도권 미분양 합계", settings=offline, store=graph_store, pool=pg_pool)
    assert metro.status == "ok" and f"{total:,.0f}호" in metro.answer
    mean = one(
        pg_pool,
        "WITH top AS (SELECT security_id FROM etf_holdings WHERE etf_code = '069500' AND "
        "as_of_date = (SELECT max(as_of_date) FROM etf_holdings WHERE etf_code = '069500') ORDER "
        "BY weight DESC LIMIT 5) SELECT avg((SELECT close FROM stock_prices p WHERE p.security_id "
        "= t.security_id ORDER BY trade_date DESC LIMIT 1) / (SELECT close FROM stock_prices p "
        "WHERE p.security_id = t.security_id AND trade_date <= (SELECT max(trade_date) FROM "
        "stock_prices WHERE security_id = t.security_id) - interval '1 month' ORDER BY trade_date "
        "DESC LIMIT 1) - 1) * 100 FROM top t",
    )
    held = etf_answer("KODEX 200 보유종목 상위 5개의 평균 1개월 수익률", settings=offline,
                      store=graph_store, pool=pg_pool)  # fmt: skip
    assert held.status == "ok"
    assert f"상위 5개 종목의 1개월 수익률 평균: {mean:+.2f}%" in held.answer.splitlines()[0]


def test_round_74_a_level_crossed_is_a_bar_and_a_price_tomorrow_is_a_forecast(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Round 74 (written before the change; 2 wrong with status ok): '코스피 4000 아래로 떨어진
    적 최근 3개월에 있어?' read 4000 as the size of a fall (a return over -4000); '삼성전자 내일
    주가' gave today's close (a phrase the vocabulary had lost: noun phrases stay entries, only
    verb endings are the morpheme grammar's). SQL truth."""
    days = int(one(pg_pool, "SELECT count(*) FROM market_series_prices WHERE series_code = '^KS11' "
                            "AND trade_date > (SELECT max(trade_date) FROM market_series_prices "
                            "WHERE series_code = '^KS11') - interval '3 months' AND close < 4000"))  # fmt: skip
    below = macro_answer("코스피 4000 아래로 떨어진 적 최근 3개월에 있어?", settings=offline,
                         store=graph_store, pool=pg_pool)  # fmt: skip
    assert below.status == "ok" and f"4,000.00 미만: {days}일" in below.answer
    ahead = answer_stock_question("삼성전자 내일 주가", pool=pg_pool)
    assert ahead is not None and ahead.status == "partial" and "예측" in ahead.answer


def test_round_76_a_change_on_itself_a_falling_rate_ranked_and_the_two_of_a_cut(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Round 76 (written before the change; 0 wrong with status ok, 3 honest): '울산 미분양 6개월
    전보다 얼마나 늘었어?' answered and still said two series were missing; '미분양 증가율 가장 높은
    지역' ranked the levels ('증가율' unread); '반도체 ETF 중 순자산 상위 2개의 1년 수익률 차이'
    gave the first alone. A fall's rate ranks the largest fall first ('감소율 가장 큰'). SQL truth."""
    moved = macro_answer("울산 미분양 6개월 전보다 얼마나 늘었어?", settings=offline,
                         store=graph_store, pool=pg_pool)  # fmt: skip
    assert moved.status == "ok" and "두 지표" not in moved.answer
    rates = {r["region"]: float(r["r"]) for r in fetch_all(
        "SELECT a.region, a.units::float / b.units - 1 AS r FROM re_unsold_housing a JOIN "
        "re_unsold_housing b ON a.region = b.region AND b.month = a.month - interval '1 year' "
        "WHERE a.month = (SELECT max(month) FROM re_unsold_housing) AND a.region <> '전국'",
        None, pg_pool)}  # fmt: skip
    for question, pick in (
        ("미분양 증가율 가장 높은 지역", max),
        ("미분양 감소율 가장 큰 지역", min),
    ):
        ranked = macro_answer(question, settings=offline, store=graph_store, pool=pg_pool)
        line = next(x for x in ranked.answer.splitlines() if "지역 순" in x)
        assert ranked.status == "ok" and line.split(": ", 1)[1].startswith(
            pick(rates, key=lambda k: rates[k]) + " ")  # fmt: skip
    top = largest_by_net_assets_in(pg_pool, "반도체", 2)
    gap = etf_answer("반도체 ETF 중 순자산 상위 2개의 1년 수익률 차이", settings=offline,
                     store=graph_store, pool=pg_pool)  # fmt: skip
    assert gap.status == "ok" and all(name in gap.answer for name in top)
    assert "1년 수익률 차이는 " in gap.answer


def largest_by_net_assets_in(pool: Any, tag: str, n: int) -> list[str]:
    """The names of a theme's N largest ETFs by latest net assets (SQL truth)."""
    return [r["name"] for r in fetch_all(
        "SELECT e.name FROM etfs e JOIN etf_tags t ON t.etf_code = e.code JOIN LATERAL (SELECT "
        "net_assets FROM etf_prices p WHERE p.etf_code = e.code ORDER BY trade_date DESC LIMIT 1) "
        "p ON true WHERE t.tag = %s ORDER BY p.net_assets DESC LIMIT %s", (tag, n), pool)]  # fmt: skip


def test_a_run_asked_with_its_length_is_answered_yes_or_no(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'서울 미분양 3개월 연속 증가했어?' (an honest miss of earlier rounds: the run was given, the
    yes or no was not, and '증가' was unread). SQL truth: the last three monthly changes."""
    units = [float(r["units"]) for r in fetch_all(
        "SELECT units FROM re_unsold_housing WHERE region = '서울' ORDER BY month DESC LIMIT 4",
        None, pg_pool)][::-1]  # fmt: skip
    met = all(b > a for a, b in pairwise(units))
    run = macro_answer("서울 미분양 3개월 연속 증가했어?", settings=offline, store=graph_store,
                       pool=pg_pool)  # fmt: skip
    line = next(x for x in run.answer.splitlines() if "연속" in x)
    assert run.status == "ok"
    assert ("예 — 3회 연속 상승입니다." if met else "아니요 — 3회 연속 상승이 아닙니다.") in line


def test_the_side_a_comparison_picks_then_its_return_over_another_window(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'코스피와 코스닥 중 1년 수익률 높은 쪽의 최근 1개월 수익률' (r53, honest before: '1개월'
    unread): the comparison picks a side, then that side's return over the window said after
    '쪽의'. SQL truth."""
    closes = {r["series_code"]: [float(r["first"]), float(r["last"]), float(r["month"])] for r in fetch_all(
        "SELECT series_code, (SELECT close FROM market_series_prices p WHERE p.series_code = "
        "s.series_code AND trade_date <= (SELECT max(trade_date) FROM market_series_prices) - "
        "interval '1 year' ORDER BY trade_date DESC LIMIT 1) AS first, (SELECT close FROM "
        "market_series_prices p WHERE p.series_code = s.series_code ORDER BY trade_date DESC LIMIT "
        "1) AS last, (SELECT close FROM market_series_prices p WHERE p.series_code = s.series_code "
        "AND trade_date <= (SELECT max(trade_date) FROM market_series_prices) - interval '1 month' "
        "ORDER BY trade_date DESC LIMIT 1) AS month FROM (VALUES ('^KS11'), ('^KQ11')) s(series_code)",
        None, pg_pool)}  # fmt: skip
    best = max(closes, key=lambda k: closes[k][1] / closes[k][0])
    name = {"^KS11": "코스피", "^KQ11": "코스닥"}[best]
    month = (closes[best][1] / closes[best][2] - 1) * 100
    read = macro_answer("코스피와 코스닥 중 1년 수익률 높은 쪽의 최근 1개월 수익률", settings=offline,
                        store=graph_store, pool=pg_pool)  # fmt: skip
    assert read.status == "ok" and f"{name} 최근 1개월(" in read.answer
    assert f") 수익률: {month:+.2f}% (" in read.answer  # worded as every window statistic


def test_round_78_a_stock_picked_then_read_the_head_of_a_shown_list_and_a_market_unread(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Round 78 (written before the change; 2 wrong with status ok): '삼성전자와 SK하이닉스 중 1년
    수익률 높은 종목의 PER' picked by PER; '반도체 ETF 보수 낮은 순' → '상위 3개만' listed the three
    dearest ('상위' read as 'highest', not the head of the list shown); '1년 수익률 상위 5개 ETF 중
    국내주식 ETF 몇 개?' counted every ETF, '국내' unread and silent (now: the cut, then the
    market's ETFs counted in it). SQL truth."""
    rows = fetch_all(
        "SELECT s.name, f.pe, (SELECT close FROM stock_prices p WHERE p.security_id = s.security_id "
        "ORDER BY trade_date DESC LIMIT 1) / (SELECT close FROM stock_prices p WHERE p.security_id "
        "= s.security_id AND trade_date <= (SELECT max(trade_date) FROM stock_prices WHERE "
        "security_id = s.security_id) - interval '1 year' ORDER BY trade_date DESC LIMIT 1) AS r "
        "FROM stocks s JOIN LATERAL (SELECT pe FROM stock_fundamentals x WHERE x.security_id = "
        "s.security_id ORDER BY as_of_date DESC LIMIT 1) f ON true WHERE s.name IN ('삼성전자', "
        "'SK하이닉스')", None, pg_pool)  # fmt: skip
    best = max(rows, key=lambda r: float(r["r"]))
    picked = answer_stock_question("삼성전자와 SK하이닉스 중 1년 수익률 높은 종목의 PER",
                                   pool=pg_pool, settings=offline)  # fmt: skip
    assert picked is not None and picked.status == "ok"
    assert (
        f"1년 수익률이 더 높은 쪽: {best['name']} → PER {float(best['pe']):,.2f}배" in picked.answer
    )
    cheapest = [r["name"] for r in fetch_all(
        "SELECT e.name FROM etfs e JOIN etf_tags t ON t.etf_code = e.code WHERE t.tag = '반도체' "
        "ORDER BY e.expense_ratio, e.code LIMIT 2", None, pg_pool)]  # fmt: skip
    head = chain(etf_answer, ["반도체 ETF 보수 낮은 순", "상위 3개만"], settings=offline,
                 store=graph_store, pool=pg_pool)  # fmt: skip
    listed = [x for x in head.answer.splitlines() if x[:2] in ("1.", "2.")]
    assert head.status == "ok" and [n in x for n, x in zip(cheapest, listed, strict=True)] == [
        True,
        True,
    ]
    # the cut first, then the market's ETFs counted in it (the ETF with no 1-year close is out)
    top = fetch_all(
        "SELECT e.region, e.asset_class FROM etfs e JOIN LATERAL (SELECT (SELECT close FROM "
        "etf_prices p WHERE p.etf_code = e.code ORDER BY trade_date DESC LIMIT 1) / (SELECT close "
        "FROM etf_prices p WHERE p.etf_code = e.code AND trade_date <= (SELECT max(trade_date) FROM "
        "etf_prices) - interval '1 year' ORDER BY trade_date DESC LIMIT 1) AS r) x ON true "
        "WHERE x.r IS NOT NULL ORDER BY x.r DESC LIMIT 5", None, pg_pool)  # fmt: skip
    domestic = sum(1 for r in top if (r["region"], r["asset_class"]) == ("KR", "equity"))
    # and a theme counted inside a cut of every ETF (r50's honest miss)
    largest = {r["code"] for r in largest_by_net_assets(pg_pool, 20)}
    tagged = {r["etf_code"] for r in fetch_all(
        "SELECT etf_code FROM etf_tags WHERE tag = '해외주식'", None, pg_pool)}  # fmt: skip
    for question, said in (
        ("1년 수익률 상위 5개 ETF 중 국내주식 ETF 몇 개?",
         f"1년 수익률 높은 순 상위 5개 중 국내 주식 ETF: {domestic}개"),
        ("순자산 상위 20개 ETF 중 해외주식 ETF 개수",
         f"상위 20개 중 '해외주식' 태그 ETF: {len(tagged & largest)}개"),
    ):  # fmt: skip
        counted = etf_answer(question, settings=offline, store=graph_store, pool=pg_pool)
        assert counted.status == "ok" and said in counted.answer


def test_round_79_two_stocks_asked_which_moved_more_lead_with_the_pick(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Round 79: '삼성전자 1년 수익률' → 'SK하이닉스는?' → '둘 중 더 많이 오른 건?' gave only the gap
    of the two returns; a move said with how much ('더 많이', '3개월간 더 많이 빠진') picks by it:
    the larger rise (or fall) is named first, then the gap. SQL truth."""

    def year_return(name: str) -> float:
        return one(pg_pool, "SELECT (SELECT close FROM stock_prices p WHERE p.security_id = "
                   "s.security_id ORDER BY trade_date DESC LIMIT 1) / (SELECT close FROM stock_prices "
                   "p WHERE p.security_id = s.security_id AND trade_date <= (SELECT max(trade_date) "
                   "FROM stock_prices WHERE security_id = s.security_id) - interval '1 year' ORDER BY "
                   "trade_date DESC LIMIT 1) FROM stocks s WHERE s.name = %(n)s", n=name)  # fmt: skip

    rose = max(("삼성전자", "SK하이닉스"), key=year_return)
    answer = chain(answer_stock_question, ["삼성전자 1년 수익률", "SK하이닉스는?", "둘 중 더 많이 오른 건?"],
                   pool=pg_pool, settings=offline)  # fmt: skip
    assert answer.status == "ok"
    assert answer.answer.startswith(f"**1년 수익률이 더 높은 쪽: {rose}**")
    assert "수익률 차이" in answer.answer


def test_round_80_regions_held_to_a_bar_and_a_rate_against_itself_a_year_ago(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Round 80 (0 wrong with status ok, 2 honest; and r78/r79 honest misses): '전세가율 50% 넘는
    지역' answered the nation alone; a bar held to one region's months, or a rate against itself a
    year ago ('미국 기준금리 1년 전보다 얼마나 내렸어?'), was computed and still said it was not.
    Every region whose latest value meets the bar is counted and named. SQL truth."""
    kept = [r["region"] for r in fetch_all(
        "SELECT region FROM re_jeonse_ratio WHERE month = (SELECT max(month) FROM re_jeonse_ratio) "
        "AND region <> '전국' AND ratio > 50 ORDER BY ratio DESC", None, pg_pool)]  # fmt: skip
    held = macro_answer("전세가율 50% 넘는 지역", settings=offline, store=graph_store, pool=pg_pool)
    line = next(x for x in held.answer.splitlines() if "초과 지역" in x)
    assert held.status == "ok" and f": {len(kept)}곳 / " in line
    assert [r for r in kept if r in line] == kept and line.index(kept[0]) < line.index(kept[-1])
    fed = fetch_all("SELECT obs_date, value FROM macro_observations WHERE series_code = 'FEDFUNDS' "
                    "ORDER BY obs_date DESC LIMIT 13", None, pg_pool)  # fmt: skip
    moved = float(fed[0]["value"]) - float(fed[12]["value"])
    for question, said in (
        ("서울 미분양 1000호 넘은 달 몇 번?", "1,000호 초과: "),
        ("미국 기준금리 1년 전보다 얼마나 내렸어?", f"전년 동월 대비 {moved:+.2f}%p"),
    ):
        answer = macro_answer(question, settings=offline, store=graph_store, pool=pg_pool)
        assert answer.status == "ok" and said in answer.answer
        assert "하지 않아" not in answer.answer and "두 지표" not in answer.answer


def test_an_etf_set_narrowed_by_the_market_and_asset_class_it_is_listed_with(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """'국내주식 ETF 몇 개?', '국내 반도체 ETF 중 보수 가장 싼 것': the region and asset class each ETF
    is listed with narrow the set ('국내' had been dropped: the count was of every ETF, status ok).
    SQL truth."""
    count = one(pg_pool, "SELECT count(*) FROM etfs WHERE region = 'KR' AND asset_class = 'equity'")
    counted = etf_answer("국내주식 ETF 몇 개?", settings=offline, store=graph_store, pool=pg_pool)
    assert counted.status == "ok" and f"국내 주식 ETF: {int(count)}개" in counted.answer
    cheapest = fetch_all(
        "SELECT e.name FROM etfs e JOIN etf_tags t ON t.etf_code = e.code WHERE t.tag = '반도체' "
        "AND e.region = 'KR' ORDER BY e.expense_ratio, e.code LIMIT 1", None, pg_pool)[0]["name"]  # fmt: skip
    picked = etf_answer("국내 반도체 ETF 중 보수 가장 싼 것", settings=offline, store=graph_store,
                        pool=pg_pool)  # fmt: skip
    first = next(x for x in picked.answer.splitlines() if x.startswith("1. "))
    assert picked.status == "ok" and cheapest in first


def test_round_81_growth_rates_picked_a_listed_sets_average_and_an_index_before_etf(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Round 81 (written before the change; 3 wrong with status ok, 2 honest): '미국 CPI와 한국
    CPI 중 전년비 상승률 높은 쪽은?' compared index points over the fetched window; '해외주식 ETF
    목록' → '그 중 보수 제일 싼 3개' → '평균 1년 수익률은?' averaged every ETF; '… 중 최근 3개월 더 많이
    오른 쪽' of two yields named no side; 'KODEX 200과 …' asked which KODEX 200 was meant;
    '코스닥150 추종 ETF' read the 코스닥 theme. SQL truth."""

    def yoy(code: str) -> float:
        rows = fetch_all("SELECT value FROM macro_observations WHERE series_code = %s ORDER BY "
                         "obs_date DESC LIMIT 13", (code,), pg_pool)  # fmt: skip
        return (float(rows[0]["value"]) / float(rows[12]["value"]) - 1) * 100

    rates = {"한국 소비자물가지수": yoy("KR_CPI"), "미국 소비자물가지수(CPI-U)": yoy("CPIAUCSL")}
    higher = max(rates, key=lambda k: rates[k])
    cpi = macro_answer("미국 CPI와 한국 CPI 중 전년비 상승률 높은 쪽은?", settings=offline,
                       store=graph_store, pool=pg_pool)  # fmt: skip
    line = next(x for x in cpi.answer.splitlines() if "변화 비교" in x)
    assert cpi.status == "ok" and line.split(": ", 1)[1].startswith(
        f"{higher} {rates[higher]:+.2f}%"
    )
    listed = chain(etf_answer, ["해외주식 ETF 목록", "그 중 보수 제일 싼 3개", "평균 1년 수익률은?"],
                   settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert listed.status == "ok" and "직전 답변의 ETF의 1년 수익률 평균" in listed.answer
    assert "105개" not in listed.answer
    both = etf_answer("KODEX 200과 KODEX 레버리지 1개월 수익률 비교", settings=offline,
                      store=graph_store, pool=pg_pool)  # fmt: skip
    assert both.status == "ok" and "어느 것" not in both.answer
    cheapest = fetch_all("SELECT name FROM etfs WHERE benchmark = '코스닥 150' ORDER BY "
                         "expense_ratio, code LIMIT 1", None, pg_pool)[0]["name"]  # fmt: skip
    tracked = etf_answer("코스닥150 추종 ETF 중 보수 가장 싼 것", settings=offline,
                         store=graph_store, pool=pg_pool)  # fmt: skip
    assert tracked.status == "ok" and "'코스닥 150' 추종 ETF" in tracked.answer
    assert cheapest in next(x for x in tracked.answer.splitlines() if x.startswith("1. "))


def test_round_82_the_lower_side_leads_two_places_picked_and_a_close_compared_a_month_back(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Round 82 (written before the change; 3 wrong with status ok, 2 honest): '코스피와 나스닥 중
    최근 1개월 수익률 낮은 쪽' led with the higher; '서울 주택가격지수' → '부산은?' → '어디가 더
    올랐어?' ranked every region; 'NAVER 종가' → '1개월 전이랑 비교하면?' gave the close alone;
    'TIGER 200 보유종목 상위 3개 평균 비중' was answered and still said '비중' was unread."""
    closes = {r["series_code"]: (float(r["first"]), float(r["last"])) for r in fetch_all(
        "SELECT series_code, (SELECT close FROM market_series_prices p WHERE p.series_code = "
        "s.series_code AND trade_date <= (SELECT max(trade_date) FROM market_series_prices) - "
        "interval '1 month' ORDER BY trade_date DESC LIMIT 1) AS first, (SELECT close FROM "
        "market_series_prices p WHERE p.series_code = s.series_code ORDER BY trade_date DESC LIMIT "
        "1) AS last FROM (VALUES ('^KS11'), ('^IXIC')) s(series_code)", None, pg_pool)}  # fmt: skip
    lower = min(closes, key=lambda k: closes[k][1] / closes[k][0])
    low = macro_answer("코스피와 나스닥 중 최근 1개월 수익률 낮은 쪽", settings=offline,
                       store=graph_store, pool=pg_pool)  # fmt: skip
    line = next(x for x in low.answer.splitlines() if "수익률 비교" in x)
    assert low.status == "ok"
    assert line.split(": ", 1)[1].startswith({"^KS11": "코스피", "^IXIC": "나스닥 종합"}[lower])
    places = chain(macro_answer, ["서울 주택가격지수", "부산은?", "어디가 더 올랐어?"],
                   settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    line = next(x for x in places.answer.splitlines() if "비교" in x)
    assert places.status == "ok" and "서울" in line and "부산" in line and "지역" not in line
    month = chain(answer_stock_question, ["NAVER 종가", "1개월 전이랑 비교하면?"], pool=pg_pool,
                  settings=offline)  # fmt: skip
    assert month.status == "ok" and "1개월 수익률" in month.answer
    held = etf_answer("TIGER 200 보유종목 상위 3개 평균 비중", settings=offline,
                      store=graph_store, pool=pg_pool)  # fmt: skip
    assert held.status == "ok" and "비중 평균" in held.answer
    # another figure of the holdings is not computed: said, not answered with their weights
    per = etf_answer("KODEX 200 보유 상위 3종목의 평균 PER", settings=offline,
                     store=graph_store, pool=pg_pool)  # fmt: skip
    assert per.status == "partial" and "PER" in first_step(per)["decisive"]


def test_round_84_a_gap_of_two_places_rates_of_change(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Round 84 (1 wrong with status ok): '서울과 부산 주택가격지수 1년 변화율 차이' gave the gap of
    the two index levels; it is the gap of their one-year rates of change, in %p. SQL truth."""
    rates = {r["region"]: float(r["r"]) * 100 for r in fetch_all(
        "SELECT a.region, a.index_value / b.index_value - 1 AS r FROM re_house_price_index a JOIN "
        "re_house_price_index b ON a.region = b.region AND b.month = a.month - interval '1 year' "
        "WHERE a.month = (SELECT max(month) FROM re_house_price_index) AND a.region IN ('서울', "
        "'부산')", None, pg_pool)}  # fmt: skip
    gap = abs(rates["서울"] - rates["부산"])
    answer = macro_answer("서울과 부산 주택가격지수 1년 변화율 차이", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    line = next(x for x in answer.answer.splitlines() if "변화율 비교" in x)
    assert answer.status == "ok" and f"{gap:.2f}%p" in line and "격차" not in answer.answer


def test_follow_ups_into_a_funds_holdings_read_the_stock_and_its_returns(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """r78's honest miss and a wrong answer found beside it: 'KODEX 반도체 보유종목' → '그 중 비중
    가장 큰 종목' → '그 종목 1개월 수익률은?' gave the fund's own return ('그 종목' not carried);
    'KODEX 200 보유종목 상위 5개' → '그 중 1개월 수익률 가장 높은 거' named the largest weight,
    status ok. SQL truth."""
    top = fetch_all(
        "SELECT s.name, s.security_id FROM etf_holdings h JOIN stocks s USING (security_id) WHERE "
        "h.etf_code = '091160' AND h.as_of_date = (SELECT max(as_of_date) FROM etf_holdings WHERE "
        "etf_code = '091160') ORDER BY h.weight DESC LIMIT 1", None, pg_pool)[0]  # fmt: skip
    that = chain(etf_answer, ["KODEX 반도체 보유종목", "그 중 비중 가장 큰 종목", "그 종목 1개월 수익률은?"],
                 settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert that.status == "ok" and that.answer.startswith(f"{top['name']}의 1개월")

    five = fetch_all(
        "SELECT s.name, s.security_id FROM etf_holdings h JOIN stocks s USING (security_id) WHERE "
        "h.etf_code = '069500' AND h.as_of_date = (SELECT max(as_of_date) FROM etf_holdings WHERE "
        "etf_code = '069500') ORDER BY h.weight DESC LIMIT 5", None, pg_pool)  # fmt: skip
    best = max(five, key=lambda r: stock_return(pg_pool, r["security_id"], "1 month"))
    picked = chain(etf_answer, ["KODEX 200 보유종목 상위 5개", "그 중 1개월 수익률 가장 높은 거"],
                   settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert picked.status == "ok" and f"1개월 수익률 가장 높은 종목: {best['name']}" in picked.answer


def test_round_86_the_day_of_a_dividend_and_the_gap_of_two_listed_funds(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Round 86 (2 wrong with status ok): '삼성전자 다음 배당일' gave the dividend yield; '반도체
    ETF 순자산 순' → '상위 2개만' → '보수 차이는?' listed the theme by fee. A level's day is said
    unread; a gap asked after a list of two is of those two. SQL truth."""
    day = answer_stock_question("삼성전자 다음 배당일", pool=pg_pool, settings=offline)
    assert day is not None and day.status == "partial" and "배당일" in first_step(day)["decisive"]
    two = fetch_all(
        "SELECT e.name, e.expense_ratio FROM etfs e JOIN etf_tags t ON t.etf_code = e.code JOIN "
        "LATERAL (SELECT net_assets FROM etf_prices p WHERE p.etf_code = e.code ORDER BY "
        "trade_date DESC LIMIT 1) p ON true WHERE t.tag = '반도체' ORDER BY p.net_assets DESC "
        "LIMIT 2", None, pg_pool)  # fmt: skip
    gap = float(two[0]["expense_ratio"]) - float(two[1]["expense_ratio"])
    answer = chain(etf_answer, ["반도체 ETF 순자산 순", "상위 2개만", "보수 차이는?"],
                   settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert answer.status == "ok" and f"총보수 차이는 {gap:+.2f}%p" in answer.answer
    assert all(r["name"] in answer.answer for r in two)


def test_round_87_a_bar_on_a_year_over_year_rate_is_answered_yes_or_no(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Round 87 (1 wrong with status ok): '미국 CPI 전년비 3% 넘어?' gave the rate and no yes or
    no, status ok — Macro's 'not computed' check guessed from the series named, not from what was
    computed. The bar is now held to the rate. SQL truth."""
    rows = fetch_all("SELECT value FROM macro_observations WHERE series_code = 'CPIAUCSL' ORDER BY "
                     "obs_date DESC LIMIT 13", None, pg_pool)  # fmt: skip
    rate = (float(rows[0]["value"]) / float(rows[12]["value"]) - 1) * 100
    answer = macro_answer("미국 CPI 전년비 3% 넘어?", settings=offline, store=graph_store,
                          pool=pg_pool)  # fmt: skip
    line = next(x for x in answer.answer.splitlines() if "3% 초과" in x)
    assert answer.status == "ok" and line.startswith(f"- {'예' if rate > 3 else '아니요'} — ")
    assert f"{rate:+.2f}%" in line


def test_round_88_counts_said_in_man_and_a_sector_held_to_a_bar(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Round 88 (2 wrong with status ok): '미분양 1만호 넘는 지역' read the bar as 1 호 and
    named every region; 'PER 10배 이하인 은행주' gave the sector's mean. Found while fixing:
    '가격 1만원 이하 ETF' compared closes to 0.0001, '거래량 1000만주 넘은 날 며칠' gave
    today's yes or no. SQL truth."""
    over = one(pg_pool, "SELECT count(*) FROM re_unsold_housing u WHERE region <> '전국' AND month = "
               "(SELECT max(month) FROM re_unsold_housing) AND units > 5000")  # fmt: skip
    regions = macro_answer("미분양 5천호 넘는 지역 몇 곳", settings=offline, store=graph_store,
                           pool=pg_pool)  # fmt: skip
    assert (
        regions.status == "ok"
        and f"미분양 5,000호 초과 지역 (지역별 최신월): {int(over)}곳" in regions.answer
    )
    cheap = one(pg_pool, "SELECT count(*) FROM etf_prices WHERE trade_date = (SELECT max(trade_date) "
                "FROM etf_prices) AND close <= 10000")  # fmt: skip
    funds = etf_answer(
        "가격 1만원 이하 ETF 몇 개", settings=offline, store=graph_store, pool=pg_pool
    )
    assert funds.status == "ok" and f"종가 10,000원 이하: {int(cheap)}개" in funds.answer
    banks = fetch_all(
        "SELECT s.name FROM stocks s JOIN LATERAL (SELECT pe FROM stock_fundamentals f WHERE "
        "f.security_id = s.security_id ORDER BY as_of_date DESC LIMIT 1) f ON true WHERE s.sector = "
        "'금융' AND s.country = 'KR' AND f.pe > 0 AND f.pe <= 6", None, pg_pool)  # fmt: skip
    cheap_banks = answer_stock_question("PER 6배 이하인 금융주", pool=pg_pool, settings=offline)
    assert cheap_banks is not None and cheap_banks.status == "ok"
    line = next(x for x in cheap_banks.answer.splitlines() if x.startswith("- 국내 금융 업종 PER"))
    assert f"중 {len(banks)}종목" in line and all(r["name"] in line for r in banks)
    days = one(pg_pool, "SELECT count(*) FROM stock_prices WHERE security_id = 'KR:005930' AND "
               "trade_date > (SELECT max(trade_date) FROM stock_prices WHERE security_id = "
               "'KR:005930') - interval '1 month' AND volume > 10000000")  # fmt: skip
    sessions = answer_stock_question("삼성전자 거래량 1000만주 넘은 날 최근 1개월에 몇 번", pool=pg_pool,
                                     settings=offline)  # fmt: skip
    assert sessions is not None and sessions.status == "ok"
    assert f"10,000,000주 초과: {int(days)}일" in sessions.answer


def test_round_88_a_series_read_on_the_day_another_peaked(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Round 88 (honest before): '미국 실업률이 가장 높았던 달의 연방기금금리' showed both
    latest values; 'VIX가 가장 높았던 날 코스피' (two agents) was answered ok with neither. The
    first series' 12-month extreme names the day, the second is read on it. SQL truth."""
    peak, kospi = kospi_at_peak(pg_pool, "VIXCLS", "12 months")
    answer = macro_answer("VIX가 가장 높았던 날 코스피 종가", settings=offline, store=graph_store,
                          pool=pg_pool)  # fmt: skip
    line = next(x for x in answer.answer.splitlines() if "시점의 코스피" in x)
    assert answer.status == "ok" and f"({peak})" in line and f"{kospi:,.2f}" in line


def test_round_89_the_smallest_holdings_and_the_better_of_two(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Round 89 (2 wrong with status ok): 'TIGER 200 IT 보유종목 중 비중 제일 작은 종목' named
    the largest; 'NAVER 1년 수익률' → '카카오는?' → '둘 중 더 나은 건?' showed both with no
    pick. SQL truth."""
    smallest = fetch_all(
        "SELECT s.name FROM etf_holdings h JOIN stocks s USING (security_id) WHERE h.etf_code = "
        "'139260' AND h.as_of_date = (SELECT max(as_of_date) FROM etf_holdings WHERE etf_code = "
        "'139260') ORDER BY h.weight LIMIT 1", None, pg_pool)[0]  # fmt: skip
    bottom = etf_answer("TIGER 200 IT 보유종목 중 비중 제일 작은 종목", settings=offline,
                        store=graph_store, pool=pg_pool)  # fmt: skip
    assert bottom.status == "ok" and "비중 하위 1개" in bottom.answer
    assert f"1. {smallest['name']} (" in bottom.answer

    better = max(
        ("NAVER", "KR:035420"),
        ("카카오", "KR:035720"),
        key=lambda s: stock_return(pg_pool, s[1], "1 year"),
    )
    picked = chain(answer_stock_question, ["NAVER 1년 수익률", "카카오는?", "둘 중 더 나은 건?"],
                   pool=pg_pool, settings=offline)  # fmt: skip
    assert picked.status == "ok" and picked.answer.startswith(
        f"**1년 수익률이 더 높은 쪽: {better[0]}**"
    )


def test_round_90_a_stock_against_its_sector_and_funds_of_one_market(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Round 90 (1 wrong with status ok, 3 honest): '삼성전자 PER' → '업종 평균이랑 비교하면?' →
    '더 싼 거야?' read '싼' as a fund's fee; '보수가 제일 싼 미국 ETF의 1년 수익률' said '미국'
    unread. The sector comparison carries over with a yes or no; '미국' is the funds' region.
    SQL truth."""
    own = one(pg_pool, "SELECT pe FROM stock_fundamentals WHERE security_id = 'KR:005930' ORDER BY "
              "as_of_date DESC LIMIT 1")  # fmt: skip
    mean = one(pg_pool, "SELECT avg(f.pe) FROM stocks s JOIN LATERAL (SELECT pe FROM stock_fundamentals "
               "x WHERE x.security_id = s.security_id ORDER BY as_of_date DESC LIMIT 1) f ON true "
               "WHERE s.sector = (SELECT sector FROM stocks WHERE security_id = 'KR:005930') AND "
               "s.country = 'KR' AND f.pe > 0")  # fmt: skip
    cheaper = chain(answer_stock_question, ["삼성전자 PER", "업종 평균이랑 비교하면?", "더 싼 거야?"],
                    pool=pg_pool, settings=offline)  # fmt: skip
    assert cheaper.status == "ok" and cheaper.answer.startswith(
        f"**{'예' if own < mean else '아니요'} — "
    )
    count = one(pg_pool, "SELECT count(*) FROM etfs WHERE region = 'US'")
    us = etf_answer("미국 ETF 몇 개", settings=offline, store=graph_store, pool=pg_pool)
    assert us.status == "ok" and us.answer.startswith(f"미국 ETF: {int(count)}개")


def test_round_91_the_house_of_a_picked_fund_and_months_of_a_rate_over_a_bar(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Round 91 (3 wrong with status ok): '미분양 제일 많은 곳 세 군데' named one region; '미국 CPI
    전년비 3% 넘은 달 올해 몇 번?' gave the latest rate; after '순자산 제일 큰 ETF의 운용사', '그
    운용사 ETF 몇 개야?' counted the one fund. SQL truth."""
    top = fetch_all("SELECT region FROM re_unsold_housing WHERE region <> '전국' AND month = (SELECT "
                    "max(month) FROM re_unsold_housing) ORDER BY units DESC LIMIT 4", None, pg_pool)  # fmt: skip
    three = macro_answer(
        "미분양 제일 많은 곳 세 군데", settings=offline, store=graph_store, pool=pg_pool
    )
    line = next(x for x in three.answer.splitlines() if "미분양 높은 지역 순" in x)
    assert three.status == "ok" and all(r["region"] in line for r in top[:3])
    assert f" {top[3]['region']} " not in line
    house = fetch_all("SELECT e.manager FROM etfs e JOIN LATERAL (SELECT net_assets FROM etf_prices p "
                      "WHERE p.etf_code = e.code ORDER BY trade_date DESC LIMIT 1) p ON true ORDER BY "
                      "p.net_assets DESC LIMIT 1", None, pg_pool)[0]["manager"]  # fmt: skip
    funds = one(pg_pool, "SELECT count(*) FROM etfs WHERE manager = %(m)s", m=house)
    counted = chain(etf_answer, ["순자산 제일 큰 ETF의 운용사", "그 운용사 ETF 몇 개야?"],
                    settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert counted.status == "ok" and counted.answer.startswith(f"{house}의 ETF: {int(funds)}개")
    rows = fetch_all("SELECT obs_date, value FROM macro_observations WHERE series_code = 'CPIAUCSL' "
                     "ORDER BY obs_date", None, pg_pool)  # fmt: skip
    by_month = {str(r["obs_date"])[:7]: float(r["value"]) for r in rows}
    year = str(rows[-1]["obs_date"])[:4]
    over = sum(1 for m, v in by_month.items() if m.startswith(year)
               and f"{int(year) - 1}{m[4:]}" in by_month and (v / by_month[f"{int(year) - 1}{m[4:]}"] - 1) * 100 > 2.5)  # fmt: skip
    months = macro_answer("미국 CPI 전년비 2.5% 넘은 달 올해 몇 번?", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    line = next(x for x in months.answer.splitlines() if "2.50% 초과" in x)
    assert months.status == "ok" and (f": {over}번" in line if over else ": 없음" in line)


def test_round_92_a_sector_pick_read_by_another_figure_and_two_yoy_rates(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Round 92 (2 wrong with status ok, 2 honest): '미국이랑 한국 CPI 전년비 비교' compared 14-month
    changes; 'KODEX 200 보유종목 중 PER 가장 낮은 종목' named the smallest weight; '배당수익률
    가장 높은 은행주의 PER' ranked by each figure. SQL truth."""

    def yoy(code: str) -> float:
        rows = fetch_all("SELECT value FROM macro_observations WHERE series_code = %(c)s ORDER BY "
                         "obs_date DESC LIMIT 13", {"c": code}, pg_pool)  # fmt: skip
        return (float(rows[0]["value"]) / float(rows[12]["value"]) - 1) * 100

    compared = macro_answer("미국이랑 한국 CPI 전년비 비교", settings=offline, store=graph_store,
                            pool=pg_pool)  # fmt: skip
    line = next(x for x in compared.answer.splitlines() if "변화율 비교" in x)
    assert f"{yoy('CPIAUCSL'):+.2f}%" in line and f"{yoy('KR_CPI'):+.2f}%" in line
    held = etf_answer("KODEX 200 보유종목 중 PER 가장 낮은 종목", settings=offline,
                      store=graph_store, pool=pg_pool)  # fmt: skip
    lowest = fetch_all(  # every holding's own P/E, earnings positive (session 55: answered)
        "SELECT s.name, f.pe FROM etf_holdings h JOIN stocks s USING (security_id) JOIN LATERAL "
        "(SELECT pe FROM stock_fundamentals WHERE security_id = h.security_id ORDER BY as_of_date "
        "DESC LIMIT 1) f ON true WHERE h.etf_code = '069500' AND h.as_of_date = (SELECT "
        "max(as_of_date) FROM etf_holdings WHERE etf_code = '069500') AND f.pe > 0 ORDER BY f.pe "
        "LIMIT 1", None, pg_pool)[0]  # fmt: skip
    assert held.status == "ok"
    assert f"PER 가장 낮은 종목: {lowest['name']} " in held.answer
    assert f"PER {float(lowest['pe']):.2f}배" in held.answer
    pick = fetch_all(
        "SELECT s.name, f.pe FROM stocks s JOIN LATERAL (SELECT pe, dividend_yield FROM "
        "stock_fundamentals x WHERE x.security_id = s.security_id ORDER BY as_of_date DESC LIMIT 1) "
        "f ON true WHERE s.sector = '금융' AND s.country = 'KR' AND f.dividend_yield IS NOT NULL "
        "ORDER BY f.dividend_yield DESC LIMIT 1", None, pg_pool)[0]  # fmt: skip
    read = answer_stock_question(
        "배당수익률 가장 높은 금융주의 PER", pool=pg_pool, settings=offline
    )
    assert read is not None and read.status == "ok"
    line = next(x for x in read.answer.splitlines() if x.startswith("- 국내 금융 업종"))
    assert f"{pick['name']} {float(pick['pe']):.2f}배" in line


def test_round_93_then_of_another_series_and_both_ends_of_a_theme(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Round 93 (1 wrong with status ok, 2 honest): '보수 제일 싼 반도체 ETF와 제일 비싼 반도체
    ETF의 1년 수익률 차이' listed the theme by fee; 'VIX' → '1년 최고치는?' → '그때 코스피는?'
    gave the index's own high. SQL truth."""
    peak, kospi = kospi_at_peak(pg_pool, "VIXCLS", "12 months")
    then = chain(macro_answer, ["VIX", "1년 최고치는?", "그때 코스피는?"], settings=offline,
                 store=graph_store, pool=pg_pool)  # fmt: skip
    line = next(x for x in then.answer.splitlines() if "시점의 코스피" in x)
    assert then.status == "ok" and f"({peak})" in line and f"{kospi:,.2f}" in line
    ends = fetch_all("SELECT e.name FROM etfs e JOIN etf_tags t ON t.etf_code = e.code WHERE t.tag = "
                     "'반도체' ORDER BY e.expense_ratio", None, pg_pool)  # fmt: skip
    gap = etf_answer("보수 제일 싼 반도체 ETF와 제일 비싼 반도체 ETF의 1년 수익률 차이",
                     settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    said = gap.answer.splitlines()[-1]
    assert gap.status == "ok" and said.startswith(f"{ends[0]['name']}") and ends[-1]["name"] in said


def test_round_94_two_stocks_picked_by_how_little_they_fell(
    pg_pool: Any, offline: Settings
) -> None:
    """Round 94 (1 wrong with status ok): '삼성전자와 LG전자 중 1년 덜 빠진 쪽의 PER' gave both
    PERs as one-year changes, with no pick. The smaller fall (the higher return) is picked, then
    its PER read. SQL truth."""

    best = max(
        ("삼성전자", "KR:005930"),
        ("LG전자", "KR:066570"),
        key=lambda s: stock_return(pg_pool, s[1], "1 year"),
    )
    pe = one(pg_pool, "SELECT pe FROM stock_fundamentals WHERE security_id = %(s)s ORDER BY as_of_date "
             "DESC LIMIT 1", s=best[1])  # fmt: skip
    picked = answer_stock_question("삼성전자와 LG전자 중 1년 덜 빠진 쪽의 PER", pool=pg_pool,
                                   settings=offline)  # fmt: skip
    assert picked is not None and picked.status == "ok"
    assert picked.answer.startswith(f"**1년 수익률이 더 높은 쪽: {best[0]} → PER {pe:.2f}배**")


def test_round_95_funds_of_the_same_index_and_the_mean_of_two_stocks(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    """Round 95 (4 wrong with status ok): 'KODEX 미국S&P500TR 보수' → '같은 지수 추종하는 다른
    ETF는?' repeated the fund; '에코프로 1개월 수익률' → '에코프로비엠은?' → '둘 합쳐서 평균은?'
    gave each one's mean close; '전국 인허가 작년 대비 올해 누적 비교' gave this year alone.
    SQL truth."""
    others = fetch_all("SELECT name FROM etfs WHERE benchmark IN ('S&P 500', 'S&P 500 TR') AND code <> "
                       "'379800'", None, pg_pool)  # fmt: skip
    same = chain(etf_answer, ["KODEX 미국S&P500TR 보수", "같은 지수 추종하는 다른 ETF는?"],
                 settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert same.status == "ok" and "KODEX 미국S&P500TR" not in same.answer
    assert others and all(r["name"] in same.answer for r in others)

    mean = (
        (
            stock_return(pg_pool, "KR:086520", "1 month")
            + stock_return(pg_pool, "KR:247540", "1 month")
            - 2
        )
        / 2
        * 100
    )
    both = chain(answer_stock_question, ["에코프로 1개월 수익률", "에코프로비엠은?", "둘 합쳐서 평균은?"],
                 pool=pg_pool, settings=offline)  # fmt: skip
    assert both.status == "ok" and f"수익률 평균: {mean:+.2f}%" in both.answer
    last = fetch_all("SELECT max(month) AS m FROM re_permits WHERE region = '전국'", None, pg_pool)[
        0
    ]["m"]
    now, then = (one(pg_pool, "SELECT sum(units) FROM re_permits WHERE region = '전국' AND month BETWEEN "
                     "%(a)s AND %(b)s", a=last.replace(year=last.year - back, month=1),
                     b=last.replace(year=last.year - back)) for back in (0, 1))  # fmt: skip
    ytd = macro_answer("전국 인허가 작년 대비 올해 누적 비교", settings=offline, store=graph_store,
                       pool=pg_pool)  # fmt: skip
    line = next(x for x in ytd.answer.splitlines() if "전년 동기" in x)
    assert ytd.status == "ok" and f"{int(now):,}호" in line and f"{int(then):,}호" in line


def test_round_97_98_a_sectors_pick_read_by_price_and_a_permit_total_per_region(
    pg_pool: Any, offline: Settings, graph_store: Any
) -> None:
    """Rounds 97–98 (5 wrong with status ok, 1 honest): '배당수익률 상위 3개 은행주 평균 PER' gave
    the sector's mean; 'PER 가장 높은 반도체주의 1년 수익률' left the return unread; '올해 인허가
    실적 지역별 순위' ranked the latest month. The sector's pick is read by the stock's own answer;
    a flow is ranked by its total over the period said. SQL truth."""
    top = fetch_all(
        "SELECT f.pe FROM stocks s JOIN LATERAL (SELECT pe, dividend_yield FROM stock_fundamentals x "
        "WHERE x.security_id = s.security_id ORDER BY as_of_date DESC LIMIT 1) f ON true WHERE "
        "s.sector = '금융' AND s.country = 'KR' AND f.dividend_yield IS NOT NULL AND f.pe > 0 "
        "ORDER BY f.dividend_yield DESC LIMIT 3", None, pg_pool)  # fmt: skip
    mean = sum(float(r["pe"]) for r in top) / 3
    banks = answer_stock_question("배당수익률 상위 3개 금융주 평균 PER", pool=pg_pool,
                                  settings=offline)  # fmt: skip
    assert banks is not None and banks.status == "ok"
    line = next(x for x in banks.answer.splitlines() if x.startswith("- 국내 금융 업종"))
    assert f"평균 {mean:.2f}배" in line
    pick = fetch_all(
        "SELECT s.security_id, s.name FROM stocks s JOIN LATERAL (SELECT pe FROM stock_fundamentals x "
        "WHERE x.security_id = s.security_id ORDER BY as_of_date DESC LIMIT 1) f ON true WHERE "
        "s.sector = '반도체' AND s.country = 'KR' AND f.pe > 0 ORDER BY f.pe DESC LIMIT 1", None,
        pg_pool)[0]  # fmt: skip
    read = answer_stock_question(
        "PER 가장 높은 반도체주의 1년 수익률", pool=pg_pool, settings=offline
    )
    ret = (stock_return(pg_pool, pick["security_id"], "1 year") - 1) * 100
    assert read is not None and read.status == "ok"
    assert pick["name"] in read.answer.splitlines()[0] and f"1년 수익률 {ret:+.2f}%" in read.answer
    last = fetch_all("SELECT max(month) AS m FROM re_permits", None, pg_pool)[0]["m"]
    first = fetch_all("SELECT region, sum(units) AS total FROM re_permits WHERE region <> '전국' AND "
                      "month >= %(a)s GROUP BY region ORDER BY total DESC LIMIT 1",
                      {"a": last.replace(month=1)}, pg_pool)[0]  # fmt: skip
    ranked = macro_answer("올해 인허가 실적 지역별 순위", settings=offline, store=graph_store,
                          pool=pg_pool)  # fmt: skip
    line = next(x for x in ranked.answer.splitlines() if "합계 높은 지역 순" in x)
    assert ranked.status == "ok" and f"{first['region']} {int(first['total']):,}호" in line


def test_round_98_days_of_this_year_then_against_now_and_another_fund_of_the_house(
    pg_pool: Any, offline: Settings, graph_store: Any
) -> None:
    """Round 98 (3 wrong with status ok): '원달러 환율 1400원 넘은 날 올해 며칠?' counted last
    year's base day; '코스피 1년 최고치' → '그날 원달러 환율은?' → '지금이랑 비교하면?' compared
    one-year changes; '같은 운용사 다른 ETF 몇 개야?' counted the fund asked about. SQL truth."""
    days = one(pg_pool, "SELECT count(*) FROM macro_observations WHERE series_code = 'KR_USDKRW' AND "
               "value > 1400 AND obs_date >= date_trunc('year', (SELECT max(obs_date) FROM "
               "macro_observations WHERE series_code = 'KR_USDKRW'))")  # fmt: skip
    counted = macro_answer("원달러 환율 1400원 넘은 날 올해 며칠?", settings=offline,
                           store=graph_store, pool=pg_pool)  # fmt: skip
    assert counted.status == "ok" and f"초과: {int(days)}일" in counted.answer
    peak = fetch_all("SELECT trade_date FROM market_series_prices WHERE series_code = '^KS11' AND "
                     "trade_date > (SELECT max(trade_date) FROM market_series_prices WHERE series_code "
                     "= '^KS11') - interval '12 months' ORDER BY close DESC, trade_date LIMIT 1", None,
                     pg_pool)[0]["trade_date"]  # fmt: skip
    fx = "SELECT value FROM macro_observations WHERE series_code = 'KR_USDKRW' AND obs_date <= %(d)s "
    then = one(pg_pool, fx + "ORDER BY obs_date DESC LIMIT 1", d=peak)
    now = one(pg_pool, fx + "ORDER BY obs_date DESC LIMIT 1", d="9999-12-31")
    against = chain(macro_answer, ["코스피 1년 최고치", "그날 원달러 환율은?", "지금이랑 비교하면?"],
                    settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    line = next(x for x in against.answer.splitlines() if "시점의 원/달러" in x)
    assert against.status == "ok" and f"{then:,.2f} ({peak}" in line
    assert f"지금 {now:,.2f}" in line and f"그날 대비 {now - then:+,.2f}" in line
    others = one(pg_pool, "SELECT count(*) - 1 FROM etfs WHERE manager = (SELECT manager FROM etfs "
                 "WHERE name = 'TIGER 미국나스닥100')")  # fmt: skip
    house = chain(etf_answer, ["TIGER 미국나스닥100 보수", "같은 운용사 다른 ETF 몇 개야?"],
                  settings=offline, store=graph_store, pool=pg_pool)  # fmt: skip
    assert house.status == "ok" and f"다른 ETF: {int(others)}개" in house.answer


def test_rounds_99_101_a_sector_by_price_days_ever_said_with_nal_and_a_groups_year_total(
    pg_pool: Any, offline: Settings, graph_store: Any
) -> None:
    """Rounds 99–101 (5 wrong with status ok, 1 honest): '종가 10만원 넘는 반도체주 몇 개?' was an
    unknown stock; 'VIX 30 넘은 날 있어?' judged the latest value; '거래량 100만주 넘은 날
    SK하이닉스 최근 한달' gave today's volume; '삼성전기 거래량 최근 평균보다 많아?' dropped the
    mean; '미분양 전월 대비 가장 많이 늘어난 지역' ranked year-over-year rates; '수도권 인허가
    올해 합계' led with the latest month. SQL truth."""
    over = one(pg_pool, "SELECT count(*) FROM stocks s JOIN LATERAL (SELECT close FROM stock_prices p "
               "WHERE p.security_id = s.security_id ORDER BY trade_date DESC LIMIT 1) c ON true WHERE "
               "s.sector = '반도체' AND s.country = 'KR' AND NOT s.is_etf AND c.close > 100000")  # fmt: skip
    priced = answer_stock_question(
        "종가 10만원 넘는 반도체주 몇 개?", pool=pg_pool, settings=offline
    )
    assert priced is not None and priced.status == "ok"
    assert f"종목 중 {int(over)}종목" in priced.answer and "미국 반도체" not in priced.answer
    vix = one(pg_pool, "SELECT count(*) FROM macro_observations WHERE series_code = 'VIXCLS' AND value "
              "> 30 AND obs_date > (SELECT max(obs_date) FROM macro_observations WHERE series_code = "
              "'VIXCLS') - interval '12 months'")  # fmt: skip
    ever = macro_answer("VIX 30 넘은 날 있어?", settings=offline, store=graph_store, pool=pg_pool)
    line = next(x for x in ever.answer.splitlines() if "30.00 초과" in x)
    assert ever.status == "ok" and line.startswith("- 예 —") and f"초과: {int(vix)}일" in line
    last_bar = "(SELECT max(trade_date) FROM stock_prices WHERE security_id = %(s)s)"
    busy = one(pg_pool, "SELECT count(*) FROM stock_prices WHERE security_id = %(s)s AND volume > "
               f"1000000 AND trade_date > {last_bar} - interval '1 month'", s="KR:000660")  # fmt: skip
    days = answer_stock_question("거래량 100만주 넘은 날 SK하이닉스 최근 한달", pool=pg_pool,
                                 settings=offline)  # fmt: skip
    assert days is not None and f"초과: {int(busy)}일" in days.answer
    mean = one(pg_pool, "SELECT avg(volume) FROM stock_prices WHERE security_id = %(s)s AND trade_date "
               f"> {last_bar} - interval '1 month'", s="KR:009150")  # fmt: skip
    against = answer_stock_question("삼성전기 거래량 최근 평균보다 많아?", pool=pg_pool,
                                    settings=offline)  # fmt: skip
    assert against is not None and f"평균: {mean:,.0f}주" in against.answer
    assert "최근 1개월로 계산했습니다" in against.answer
    grew = fetch_all(
        "SELECT a.region, b.units - a.units AS d FROM re_unsold_housing a JOIN re_unsold_housing b "
        "USING (region) WHERE b.month = (SELECT max(month) FROM re_unsold_housing) AND a.month = "
        "b.month - interval '1 month' AND region <> '전국' ORDER BY d DESC LIMIT 1", None, pg_pool)[0]  # fmt: skip
    ranked = macro_answer("미분양 전월 대비 가장 많이 늘어난 지역", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    line = next(x for x in ranked.answer.splitlines() if "증가 폭이 큰 지역 순" in x)
    assert ranked.status == "ok" and grew["region"] in line and f"(+{int(grew['d']):,}호)" in line
    year = fetch_all("SELECT max(month) AS m FROM re_permits", None, pg_pool)[0]["m"].year
    total = one(pg_pool, "SELECT sum(units) FROM re_permits WHERE region IN ('서울', '인천', '경기') "
                "AND extract(year FROM month) = %(y)s", y=year)  # fmt: skip
    group = macro_answer(
        "수도권 인허가 올해 합계", settings=offline, store=graph_store, pool=pg_pool
    )
    lead = next(x for x in group.answer.splitlines() if x.startswith("- 수도권"))
    assert group.status == "ok" and f"합계 {int(total):,}호" in lead


def test_the_day_of_the_largest_move_inside_a_year_said(pg_pool: Any, offline: Settings) -> None:
    """'삼성전자 올해 가장 많이 오른 날' gave the year's highest close: it is the day of the
    largest one-day rise among the year's sessions (the first from the close before). SQL truth."""
    best = fetch_all(
        "WITH y AS (SELECT max(trade_date) AS last FROM stock_prices WHERE security_id = 'KR:005930'), "
        "m AS (SELECT trade_date, close / lag(close) OVER (ORDER BY trade_date) - 1 AS r FROM "
        "stock_prices WHERE security_id = 'KR:005930' AND trade_date >= (SELECT date_trunc('year', "
        "last) - interval '15 days' FROM y)) SELECT trade_date, r FROM m WHERE trade_date >= (SELECT "
        "date_trunc('year', last) FROM y) ORDER BY r DESC LIMIT 1", None, pg_pool)[0]  # fmt: skip
    moved = answer_stock_question("삼성전자 올해 가장 많이 오른 날", pool=pg_pool, settings=offline)
    assert moved is not None and moved.status == "ok"
    assert f"가장 크게 오른 날: {best['trade_date']} {float(best['r']) * 100:+.2f}%" in moved.answer


def test_round_102_regions_held_to_two_bars_and_another_fund_of_the_house_in_a_theme(
    pg_pool: Any, offline: Settings, graph_store: Any
) -> None:
    """Round 102 (2 wrong with status ok): '전세가율 70% 이상이면서 미분양 5000호 넘는 지역' held
    the unsold units to 70; '2차전지 ETF 중 순자산 제일 큰 거' → '그거 보수는?' → '같은 운용사 다른
    2차전지 ETF 있어?' listed the fund itself. SQL truth."""
    both = fetch_all(
        "SELECT j.region FROM (SELECT DISTINCT ON (region) region, ratio FROM re_jeonse_ratio ORDER BY "
        "region, month DESC) j JOIN (SELECT DISTINCT ON (region) region, units FROM re_unsold_housing "
        "ORDER BY region, month DESC) u USING (region) WHERE j.ratio >= 70 AND u.units > 5000 AND "
        "j.region <> '전국' ORDER BY j.region", None, pg_pool)  # fmt: skip
    kept = macro_answer("전세가율 70% 이상이면서 미분양 5000호 넘는 지역", settings=offline,
                        store=graph_store, pool=pg_pool)  # fmt: skip
    line = next(x for x in kept.answer.splitlines() if "미분양 5,000호 초과 지역" in x)
    assert kept.status == "ok" and f"{len(both)}곳" in line
    assert both and all(f"{r['region']} 전세가율" in line for r in both)
    funds = fetch_all(
        "SELECT e.name, e.manager FROM etfs e JOIN etf_tags t ON t.etf_code = e.code JOIN LATERAL "
        "(SELECT net_assets FROM etf_prices p WHERE p.etf_code = e.code ORDER BY trade_date DESC "
        "LIMIT 1) p ON true WHERE t.tag = '2차전지' ORDER BY p.net_assets DESC", None, pg_pool)  # fmt: skip
    others = [f["name"] for f in funds[1:] if f["manager"] == funds[0]["manager"]]
    house = chain(etf_answer, ["2차전지 ETF 중 순자산 제일 큰 거", "그거 보수는?",
                               "같은 운용사 다른 2차전지 ETF 있어?"], settings=offline,
                  store=graph_store, pool=pg_pool)  # fmt: skip
    assert house.status == "ok" and funds[0]["name"] + " (" not in house.answer
    assert others and all(name in house.answer for name in others)


def test_round_103_a_funds_days_over_a_price_bar_in_a_window_and_this_year(
    pg_pool: Any, offline: Settings, graph_store: Any
) -> None:
    """Round 103 and its neighbours: 'KODEX 200 6만원 넘은 날 최근 3개월 며칠?' gave the price
    trend with the bar unread (status ok); '… 넘은 적 올해 있어?' judged the latest close; '카카오
    5만원 밑으로 떨어진 적 올해 있어?' counted a year back instead of this year. The days come
    from data_access.figures (BAR_DAYS) on every screen. SQL truth."""
    last = "(SELECT max(trade_date) FROM etf_prices WHERE etf_code = '069500')"
    days = one(pg_pool, "SELECT count(*) FROM etf_prices WHERE etf_code = '069500' AND close > 60000 "
               f"AND trade_date > {last} - interval '3 months'")  # fmt: skip
    window = etf_answer("KODEX 200 6만원 넘은 날 최근 3개월 며칠?", settings=offline,
                        store=graph_store, pool=pg_pool)  # fmt: skip
    assert window.status == "ok" and f"60,000원 초과: {int(days)}일" in window.answer
    year = one(pg_pool, "SELECT count(*) FROM etf_prices WHERE etf_code = '069500' AND close > 60000 "
               f"AND trade_date >= date_trunc('year', {last})")  # fmt: skip
    ever = etf_answer("KODEX 200 종가 6만원 넘은 적 올해 있어?", settings=offline,
                      store=graph_store, pool=pg_pool)  # fmt: skip
    assert ever.status == "ok" and ever.answer.startswith("예 — " if year else "아니요 — ")
    assert f"초과: {int(year)}일" in ever.answer
    low = fetch_all("SELECT min(trade_date) AS d FROM stock_prices WHERE security_id = 'KR:035720' "
                    "AND trade_date >= date_trunc('year', (SELECT max(trade_date) FROM stock_prices "
                    "WHERE security_id = 'KR:035720'))", None, pg_pool)[0]["d"]  # fmt: skip
    kakao = answer_stock_question("카카오 5만원 밑으로 떨어진 적 올해 있어?", pool=pg_pool,
                                  settings=offline)  # fmt: skip
    assert kakao is not None and f"{low} ~ " in kakao.answer


def test_round_104_a_compound_amount_a_sector_picked_by_its_return_and_acronyms_beside_a_name(
    pg_pool: Any, offline: Settings, graph_store: Any
) -> None:
    """Round 104 (2 wrong with status ok): 'TIGER 미국S&P500 2만7천원 넘은 적 최근 1개월 있어?'
    read the bar as 20,000원; '1년 수익률 가장 높은 조선주의 PER' ranked the sector by PER; '삼성물산
    PER PBR' was answered in English. SQL truth."""
    days = one(pg_pool, "SELECT count(*) FROM etf_prices WHERE etf_code = '360750' AND close > 27000 "
               "AND trade_date > (SELECT max(trade_date) FROM etf_prices WHERE etf_code = '360750') - "
               "interval '1 month'")  # fmt: skip
    bar = etf_answer("TIGER 미국S&P500 2만7천원 넘은 적 최근 1개월 있어?", settings=offline,
                     store=graph_store, pool=pg_pool)  # fmt: skip
    assert bar.status == "ok" and f"27,000원 초과: {int(days)}일" in bar.answer
    best = max(
        fetch_all("SELECT security_id, name FROM stocks WHERE sector = '조선' AND country = 'KR'",
                  None, pg_pool),
        key=lambda s: stock_return(pg_pool, s["security_id"], "1 year"),
    )  # fmt: skip
    pe = one(pg_pool, "SELECT pe FROM stock_fundamentals WHERE security_id = %(s)s ORDER BY as_of_date "
             "DESC LIMIT 1", s=best["security_id"])  # fmt: skip
    picked = answer_stock_question(
        "1년 수익률 가장 높은 조선주의 PER", pool=pg_pool, settings=offline
    )
    assert picked is not None and picked.status == "ok"
    assert f"{best['name']} {pe:.2f}배 (1년 수익률" in picked.answer
    both = answer_stock_question("삼성물산 PER PBR", pool=pg_pool, settings=offline)
    assert both is not None and "PER" in both.answer and "기준일" in both.answer


def test_regions_ranked_then_their_total(pg_pool: Any, offline: Settings, graph_store: Any) -> None:
    """'미분양 가장 많은 지역 3곳과 그 합계' (round 104, honest before): the top three regions by
    their latest count and the three added. SQL truth."""
    top = fetch_all("SELECT DISTINCT ON (region) region, units FROM re_unsold_housing WHERE region <> "
                    "'전국' ORDER BY region, month DESC", None, pg_pool)  # fmt: skip
    three = sorted(top, key=lambda r: -float(r["units"]))[:3]
    total = macro_answer("미분양 가장 많은 지역 3곳과 그 합계", settings=offline, store=graph_store,
                         pool=pg_pool)  # fmt: skip
    line = next(x for x in total.answer.splitlines() if "높은 지역 순" in x)
    assert total.status == "ok" and all(r["region"] in line for r in three)
    assert f"합계 {int(sum(float(r['units']) for r in three)):,}호" in line


def test_round_105_a_return_beside_its_sector_and_a_ratio_not_added(
    pg_pool: Any, offline: Settings
) -> None:
    """Round 105 (2 wrong with status ok, 1 honest): '셀트리온 1년 수익률' → '그 업종 평균은?'
    gave the stock's mean close over a year; '삼성전자와 SK하이닉스 배당수익률 합' showed both
    yields with no word on the sum; 'PBR 가장 낮은 통신주 1년 수익률' said '통신' unread. SQL truth."""
    members = fetch_all("SELECT security_id FROM stocks WHERE sector = '바이오' AND country = 'KR' AND "
                        "NOT is_etf", None, pg_pool)  # fmt: skip
    moves = [stock_return(pg_pool, m["security_id"], "1 year") for m in members]
    mean = (sum(moves) / len(moves) - 1) * 100
    peers = chain(answer_stock_question, ["셀트리온 1년 수익률", "그 업종 평균은?"], pool=pg_pool,
                  settings=offline)  # fmt: skip
    assert (
        peers.status == "ok"
        and f"바이오 업종(국내 {len(moves)}종목) 평균 {mean:+.2f}%" in peers.answer
    )
    ratio = answer_stock_question(
        "삼성전자와 SK하이닉스 배당수익률 합", pool=pg_pool, settings=offline
    )
    assert ratio is not None and ratio.status == "partial" and "더하지 않았습니다" in ratio.answer
    pick = answer_stock_question("PBR 가장 낮은 통신주 1년 수익률", pool=pg_pool, settings=offline)
    assert (
        pick is not None and pick.status == "ok" and "통신 업종 PBR 가장 낮은 종목" in pick.answer
    )


def test_round_106_a_rates_peak_a_price_bar_not_down_days_and_a_month_list(
    pg_pool: Any, offline: Settings, graph_store: Any
) -> None:
    """Round 106 (4 wrong with status ok): '미국 CPI 상승률이 가장 높았던 달 미국 10년물' took the
    index level's peak; '현대차 25만원 밑으로 떨어진 날 최근 3개월 며칠?' counted down days;
    '미국 실업률 4% 미만이었던 달 최근 2년' led with the latest month's no; '괴리율은 왜
    생기나요?' was not understood. SQL truth."""
    rows = fetch_all("SELECT obs_date, value FROM macro_observations WHERE series_code = 'CPIAUCSL' "
                     "ORDER BY obs_date", None, pg_pool)  # fmt: skip
    by_month = {r["obs_date"].strftime("%Y-%m"): float(r["value"]) for r in rows}
    last = rows[-1]["obs_date"]
    rates = {}
    for r in rows:
        d = r["obs_date"]
        if (last.year - d.year) * 12 + last.month - d.month < 12:
            then = f"{d.year - 1}-{d.month:02d}"
            rates[d] = (float(r["value"]) / by_month[then] - 1) * 100
    peak = max(rates, key=lambda d: rates[d])
    peaked = macro_answer("미국 CPI 상승률이 가장 높았던 달 미국 10년물", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    line = next(x for x in peaked.answer.splitlines() if "시점의 미국 10년" in x)
    assert f"최고치 {rates[peak]:.2f}% ({peak})" in line
    below = one(pg_pool, "SELECT count(*) FROM stock_prices WHERE security_id = 'KR:005380' AND close < "
                "250000 AND trade_date > (SELECT max(trade_date) FROM stock_prices WHERE security_id = "
                "'KR:005380') - interval '3 months'")  # fmt: skip
    days = answer_stock_question("현대차 25만원 밑으로 떨어진 날 최근 3개월 며칠?", pool=pg_pool,
                                 settings=offline)  # fmt: skip
    assert days is not None and "250,000원 미만" in days.answer
    assert (f"미만: {int(below)}거래일" if below else "미만: 없음") in days.answer
    months = macro_answer("미국 실업률 4% 미만이었던 달 최근 2년", settings=offline,
                          store=graph_store, pool=pg_pool)  # fmt: skip
    assert not next(x for x in months.answer.splitlines() if x.startswith("- ")).startswith(
        "- 아니요"
    )
    why = etf_answer("괴리율은 왜 생기나요?", settings=offline, store=graph_store, pool=pg_pool)
    assert why.status == "ok" and "NAV" in why.answer and "glossary:premium_discount" in why.answer


def test_round_108_the_head_of_an_order_said_the_fewest_house_and_the_mean_of_two_returns(
    pg_pool: Any, offline: Settings, graph_store: Any
) -> None:
    """Round 108 (3 wrong with status ok): '반도체 ETF 중 보수 낮은 순 상위 3개의 평균 1년 수익률'
    took the highest fees; '운용사별 ETF 개수 중 가장 적은 곳' listed every house most first;
    '삼성전자 SK하이닉스 1년 수익률 평균' gave each one's mean close. SQL truth."""
    houses = fetch_all("SELECT manager, count(*) AS n FROM etfs GROUP BY manager ORDER BY n, manager",
                       None, pg_pool)  # fmt: skip
    fewest = etf_answer("운용사별 ETF 개수 중 가장 적은 곳", settings=offline, store=graph_store,
                        pool=pg_pool)  # fmt: skip
    assert fewest.answer.splitlines()[0] == (
        f"ETF 수가 가장 적은 운용사: {houses[0]['manager']} ({houses[0]['n']}개)"
    )
    cheap = etf_answer("반도체 ETF 중 보수 낮은 순 상위 3개의 평균 1년 수익률", settings=offline,
                       store=graph_store, pool=pg_pool)  # fmt: skip
    assert "총보수 낮은 순 상위 3개" in cheap.answer and "KODEX 미국반도체MV" in cheap.answer
    mean = (stock_return(pg_pool, "KR:005930", "1 year") + stock_return(pg_pool, "KR:000660", "1 year")
            - 2) / 2 * 100  # fmt: skip
    both = answer_stock_question(
        "삼성전자 SK하이닉스 1년 수익률 평균", pool=pg_pool, settings=offline
    )
    assert both is not None and f"수익률 평균: {mean:+.2f}%" in both.answer
