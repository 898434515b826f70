"""The ETF planner's reading of a question: the shared `QuestionFrame` compiled into one plan.

    plan = detect_plan("현대차 비중이 3% 넘는 ETF 전부", lexicon)
    plan.intent, plan.universe  # "etf_set", "holders"

`detect_plan` never guesses: what the frame holds but this screen cannot compute goes into
`plan.unanswered` (the answer says it and the turn is `partial`), and a question outside the
data is `declined` with the reason and the nearest question it can answer.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

from agents.etf.data import (  # the price tool's
    PRICE_PERIODS,
    SESSION_FIELDS,
    WINDOW_UNITS,
    period_words,
    readable,
)
from agents.understanding import QuestionFrame, understand
from agents.understanding.coverage import (
    COMPOSED,
    NEGATION,
    POSITION,
    UNAPPLIED,
    among_measure,
    mark_read,
    negations,
    nested_measure,
    ordinal_position,
    pick_direction,
    pick_directions,
)
from agents.understanding.frame import (
    COMPARATOR_WORDS,
    PLAN,
    CalendarSpan,
    Entity,
    Measure,
    measure_name,
)
from agents.understanding.lexicon import ETF_KINDS, Lexicon, Mention
from agents.understanding.morphemes import analyse
from agents.understanding.parse import (
    ADVICE_COMPARED,
    THAT_STOCK,
    WHY_NOTE,
    asked_move,
    bar_is_the_predicate,
)
from agents.understanding.vocabulary import find_phrases, vocabulary
from agents.understanding.windows import DAYS_ASKED, EVER
from agents.window_answer import PER_READ, WindowAsk, bar_days_ask, window_ask, window_labels
from data_access import figures as fig
from data_access.seed.news_text import particles

Intent = Literal[
    "compare", "similar", "holdings_changes", "etf_prices", "stock_prices", "list_tags",
    "etf_info", "stock_lookup",
    "etf_set", "holding_weight", "holdings_aggregate", "etf_difference",
    "etf_measure", "common_holdings", "etf_groups", "etf_attribution", "etf_month", "etf_composed",
    "etf_window", "holdings_counts", "define",
    "declined",
    "unsupported",
]  # fmt: skip
Universe = Literal["tag", "manager", "all", "previous", "holders", "named", "similar"]
Lang = Literal["ko", "en"]

# Measures an ETF set can be filtered, ranked or aggregated by, and where each comes from.
SET_MEASURES = ("expense_ratio", "return", "net_assets", "weight", "close", "volume", "volatility",
                "from_high", "from_low", "trading_value", "volume_surge", "premium")  # fmt: skip
AGGREGATE_WORDS = {"sum": ("합계", "total"), "avg": ("평균", "average"), "max": ("최댓값", "maximum"),
                   "min": ("최솟값", "minimum"), "count": ("개수", "count")}  # fmt: skip
# the daily figures of an ETF's price rows besides the close, each with its own extreme
DAILY_LEVELS = ("net_assets", "market_cap", "nav", "trading_value")


@dataclass
class Plan:
    intent: Intent
    lang: Lang
    question: str
    frame: QuestionFrame  # what the understanding layer read of the question
    etfs: list[Mention] = field(default_factory=list)
    stocks: list[Mention] = field(default_factory=list)
    tags: list[Mention] = field(default_factory=list)
    managers: list[Mention] = field(default_factory=list)
    period: str | None = None
    universe: Universe | None = None
    measure: str | None = None
    unanswered: list[str] = field(default_factory=list)  # said in the answer, turn → partial
    decline_reason: str | None = None
    days: int | None = None  # '최근 5일 종가': that many trading days, from a wider window
    window: WindowAsk | None = None  # '최근 2주 거래량 합계': one statistic over one window
    as_of: str | None = None  # '10월 말 종가': that day's (or the last trading day before it)
    name_word: str | None = None  # '미국 ETF 평균 보수': the ETFs whose names hold the word
    market: dict[str, str] = field(default_factory=dict)  # '국내주식 ETF': region, asset class
    count_in_cut: bool = False  # '1년 수익률 상위 10개 중 레버리지 ETF 몇 개?': cut, then count
    benchmark: str | None = None  # '코스피200 추종 ETF': the ETFs whose benchmark is that index
    others_than: list[str] = field(default_factory=list)  # '다른 ETF': codes left out of the set
    span: CalendarSpan | None = None  # '10월 평균 종가', '지난 분기 수익률': the days named
    per: str | None = None  # '분기별 수익률': one figure per calendar month, quarter or year
    without_stocks: bool = False  # '삼성전자 안 담은 ETF': every ETF but the stocks' holders
    similar_by: Literal["holdings", "returns"] = "holdings"  # '수익률 움직임이 비슷한 ETF'
    order_by: str | None = None  # a composed plan's order measure ('거래대금 상위 5개 ETF의 …')
    pick_by: str | None = None  # a second cut of it ('… 상위 3개 중 보수가 제일 싼 것의 …')
    pick_n: int = 1  # how many the second cut keeps ('… 상위 10개 중 1년 수익률 하위 3개')
    keep_where: bool = False  # the cut's rows meeting the frame's condition ('… 중 0.1% 미만')
    both_ends: bool = False  # the first and the last of the order ('가장 큰 것과 가장 작은 것의 …')
    filter_first: bool = False  # the set's rows meeting it, before the order ('0.1% 미만 ETF 중 …')
    rank_of: str | None = None  # the ETF whose place in the order is asked ('순자산 순위 몇 위?')
    only_groups: list[str] = field(default_factory=list)  # the managers named, in their order
    gap_of_groups: bool = False  # their figures' difference was asked
    total_of_groups: bool = False  # their counts (or sums) added up was asked
    within: int | None = None  # '상위 3종목' → '그 중 비중 가장 작은 건?': the pick inside that cut
    among_listed: bool = False  # '… 보유종목' → '그 중 …': the pick is among those listed
    holdings_by: str | None = (
        None  # '보유종목 중 배당수익률 가장 높은 종목': a stock figure orders them
    )
    # a picked ETF's top holdings ('… 가장 큰 ETF의 상위 5개 보유종목')
    holdings_n: int | None = None
    holding_place: int | None = None  # '… ETF의 1위 보유종목': that holding alone
    position: int | None = None  # the n-th of the order ('… 세 번째로 큰 ETF의 보수')
    held_to_bar: bool = False  # the pick's figure against a bar ('… ETF의 수익률은 10% 넘어?')
    also: list[str] = field(default_factory=list)  # more measures read beside ('보수랑 1년 수익률')
    show_manager: bool = False  # '… ETF의 운용사는?': each listed ETF's manager beside it
    scope_note: str | None = None  # '금 ETF 시세': answered with the tag's funds, said first


def detect_plan(
    question: str,
    lexicon: Lexicon,
    previous: QuestionFrame | None = None,
    previous_result: list[str] | None = None,
    frame: QuestionFrame | None = None,
) -> Plan:
    """The plan of one question; `frame` when a model filled it (model_plan), else read here."""
    frame = frame or understand(question, lexicon, kinds=ETF_KINDS, previous=previous,
                                previous_result=previous_result)  # fmt: skip
    mentions = [Mention(e.kind, e.key, e.name, e.start, e.end) for e in frame.entities]
    plan = Plan(
        intent="unsupported",
        lang=frame.language,
        question=_AMONG_GLUED.sub(r"\1 중", question),  # '그중' read as '그 중' (a pick among)
        etfs=[m for m in mentions if m.kind == "etf"],
        stocks=[m for m in mentions if m.kind == "stock"],
        tags=[m for m in mentions if m.kind == "tag"],
        managers=[m for m in mentions if m.kind == "manager"],
        period=frame.period.label if frame.period else None,
        frame=frame,
    )
    _same_manager(plan, previous, lexicon)
    _same_benchmark(plan, frame, previous, lexicon)
    _house_of_the_count(plan, frame, previous, lexicon)
    _weight_in_the_fund_talked_of(plan, frame, previous)
    _scope_by_benchmark(plan, lexicon)  # before the intent: it can replace an index's theme tag
    _among_listed_holdings(plan, frame, previous)
    plan.intent = _intent(plan, frame)
    if (len(plan.etfs) == 1 and MANAGER_ASKED.search(question)
            and not any(m.surface and m.surface in question for m in frame.measures)):  # fmt: skip
        plan.intent = "etf_info"  # '그거 운용사는?': the one fund's manager, said first
    if plan.intent in ("etf_set", "etf_composed") and plan.universe in ("all", "tag", "manager"):
        _scope_by_market(plan)
    if (
        plan.intent == "etf_set"
        and plan.universe == "all"
        and not plan.benchmark
        and not plan.market
    ):
        _scope_by_name(plan, lexicon)  # a market word ('미국 ETF') scopes by region, not name
    _check_period(plan)
    _period_unapplied(plan, frame)
    _pick_within_previous_cut(plan, frame, previous)
    _pick_past_a_named_fund(plan, frame)
    plan.show_manager = bool(
        plan.intent in ("etf_set", "etf_composed") and not plan.managers
        and not frame.operation.group_by and MANAGER_ASKED.search(plan.question))  # fmt: skip
    if frame.per_period and len(plan.etfs) == 1 and plan.intent in (
            "etf_measure", "etf_prices", "etf_window", "etf_info"):  # fmt: skip
        plan.intent, plan.per = "etf_month", frame.per_period  # '분기별 수익률': one per period
        plan.measure = next((m.name for m in frame.measures if m.name in ("volume", *DAILY_LEVELS)),
                            "close")  # fmt: skip
        mark_read(frame, *PER_READ)
    elif stat := _span_asked(plan, frame):  # '10월 평균 종가', '작년 최고가': the span's days
        plan.intent = _window_figure(plan, frame, stat, plan.measure or "close")
    elif frame.as_of_date and (_dated_value(plan) or plan.intent == "holding_weight"):
        plan.as_of = frame.as_of_date  # a close, NAV, volume or weight on a past day
    elif frame.as_of_date and not (frame.span and frame.span.used) and plan.intent not in (
            "declined", "define", "unsupported"):  # fmt: skip
        plan.unanswered.append(_text(plan, "as_of", frame.as_of_date))
    return plan


def _weight_in_the_fund_talked_of(plan: Plan, frame: QuestionFrame,
                                  previous: QuestionFrame | None) -> None:  # fmt: skip
    """'KODEX 반도체 보유종목' → '3위 종목은?' → '그 종목 비중은?': a carried stock's weight is
    its weight in the one fund the talk is about, unless its holders are asked ('그 종목이 가장
    많이 담긴 ETF는?', '비중 큰 ETF')."""
    carried = ("holders", "holdings", "weight_in")  # how the understanding carried the turn
    if (frame.relation not in carried or plan.etfs or len(plan.stocks) != 1 or previous is None
            or frame.measure() != "weight" or _ETF_WORD.search(plan.question)):  # fmt: skip
        return
    funds = previous.of("etf")
    said = find_phrases(plan.question.lower(), {"h": vocabulary()["relations"]["holders"]})
    if len(funds) == 1 and not said:
        plan.etfs = [Mention("etf", funds[0].key, funds[0].name, -1)]
        frame.relation = "weight_in"


_THAT_HOUSE = re.compile(r"그\s*(?:운용사|곳|회사)|거기|that (?:manager|issuer|house)", re.IGNORECASE)  # fmt: skip
_GROUP_PICK = re.compile(r"(?:가장|제일)\s*(많은|적은)\s*(?:곳|운용사|데)|the (most|fewest)")


def _house_of_the_count(plan: Plan, frame: QuestionFrame, previous: QuestionFrame | None,
                        lexicon: Lexicon) -> None:  # fmt: skip
    """'운용사별 ETF 개수' → '그 중 가장 많은 곳의 평균 보수는?': the house the count put first,
    then the figure asked of its funds (not of all funds)."""
    said = _GROUP_PICK.search(plan.question)
    if previous is not None and previous.operation.group_first and previous.operation.aggregate == "count":  # fmt: skip
        said = said or _THAT_HOUSE.search(plan.question)  # 'ETF 가장 많은 운용사' → '그 운용사 …'
    if (said is None or plan.managers or previous is None
            or previous.operation.group_by != "manager"):  # fmt: skip
        return
    counts = Counter(lexicon.fund_managers.values())
    if not counts:
        return
    most = (said.group(1) == "많은" or said.group(2) == "most" if said.re is _GROUP_PICK
            else previous.operation.direction != "asc")  # fmt: skip
    house = (max if most else min)(sorted(counts), key=lambda m: counts[m])
    plan.managers = [Mention("manager", house, house, -1, -1)]
    frame.entities.append(Entity(kind="manager", key=house, name=house, inherited=True))
    mark_read(frame, said.group(0))


def _pick_past_a_named_fund(plan: Plan, frame: QuestionFrame) -> None:
    """'TIGER 200보다 순자산 큰 ETF 중 보수 가장 싼 것': the funds past the named one's figure,
    then the one another measure picks (not the filtered set in the filter's order)."""
    op, low = frame.operation, frame.question.lower()
    direction = _superlative_pick(frame)
    if plan.intent != "etf_set" or op.threshold_of is None or direction is None:
        return
    among = low.find(" 중")
    after = [m for m in frame.measures
             if m.name != op.filter_measure and low.find(m.surface.lower()) > among]  # fmt: skip
    if not after:
        return
    plan.measure = after[0].name
    op.kind, op.top_n, op.direction = "rank", op.top_n or 1, direction  # type: ignore[assignment]


_AMONG_GLUED = re.compile(r"(?<![가-힣])([그이])중(?=\s|에|$)")


def _among_listed_holdings(plan: Plan, frame: QuestionFrame,
                           previous: QuestionFrame | None) -> None:  # fmt: skip
    """'KODEX 은행 보유종목 상위 5개' → '그 중 PBR 가장 낮은 종목은?': the pick is among the
    holdings the last answer listed (its cut, if it had one), by their own figure."""
    if (previous is not None and frame.reference == "same" and previous.relation == "holdings"
            and frame.operation.kind == "rank" and " 중" in f" {plan.question}"):  # fmt: skip
        plan.among_listed = True
        top = previous.operation.top_n
        plan.within = top if top and top > 1 else None


def _pick_within_previous_cut(plan: Plan, frame: QuestionFrame,
                              previous: QuestionFrame | None) -> None:  # fmt: skip
    """'TIGER 반도체 상위 3종목' → '그 중 비중 가장 작은 건?': the pick among the three listed,
    not the top of all holdings; '그 종목 …' with no stock carried over is said."""
    if THAT_STOCK.search(plan.question) and not plan.stocks:
        plan.unanswered.append(_text(plan, "that_stock"))
    if plan.holdings_by or plan.intent == "holdings_aggregate" and _pick_in_own_cut(plan, frame):
        return  # 'KODEX 200 상위 10종목 중 비중 가장 작은 종목': the cut and the pick said at once
    if (plan.intent != "holdings_aggregate" or previous is None or frame.reference != "same"
            or not previous.operation.top_n):  # fmt: skip
        return
    if frame.operation.aggregate in ("sum", "avg"):  # '(그 중) 비중 합계는?': of the N asked
        if " 중" in f" {plan.question}" or str(previous.operation.top_n) in previous.question:
            frame.operation.top_n = frame.operation.top_n or previous.operation.top_n
        return
    if " 중" not in f" {plan.question}":  # a pick without '중' may be of every holding
        return
    if any(m.name not in ("weight", "holdings") for m in frame.measures):
        # '그 중 1개월 수익률 가장 높은 거': the N holdings' own figures, as said in one question
        frame.operation.top_n = previous.operation.top_n
        return
    plan.within = previous.operation.top_n
    picked = pick_direction(frame)
    if picked in ("asc", "desc"):
        frame.operation.direction = "asc" if picked == "asc" else "desc"
    frame.operation.top_n = 1


def _superlative_pick(frame: QuestionFrame) -> str | None:
    """'… 중 보수 가장 싼 것': the direction of a superlative said after '중', if one is."""
    low = frame.question.lower()
    among = low.find(" 중")
    if among < 0 or not find_phrases(low[among:], {"s": vocabulary()["rank"]["superlative"]}):
        return None
    return pick_direction(frame)


def _pick_in_own_cut(plan: Plan, frame: QuestionFrame) -> bool:
    """A top-N of holdings, then '중' and a superlative: the one picked inside those N."""
    op, picked = frame.operation, _superlative_pick(frame)
    # a measure besides the weight ('… 중 1개월 수익률') is read of each holding: not this pick
    other = {m.name for m in frame.measures} - {"weight", "holdings"}
    if not op.top_n or op.top_n < 2 or picked is None or other:
        return False
    before = frame.question.lower().split(" 중", 1)[0]
    if not re.search(rf"(?<!\d){op.top_n}\s*(?:개|종목)", before):
        return False  # '보유종목 중 비중 가장 낮은 종목 3개': the count of the pick, not a cut
    plan.within, op.top_n, op.direction = op.top_n, 1, picked  # type: ignore[assignment]
    mark_read(frame, str(plan.within))  # the cut's count, read as the cut
    return True


def _span_asked(plan: Plan, frame: QuestionFrame) -> str | None:
    """One ETF's statistic over a span named whole ('KODEX 200 10월 평균 종가', '3분기 수익률',
    '작년 최고가'), read from that span's own sessions, not the latest window; None if not."""
    op = frame.operation
    asked = op.aggregate in ("avg", "sum", "max", "min") or plan.measure == "return" or (
        frame.measure() == "return")  # fmt: skip
    if (frame.span is None or len(plan.etfs) != 1 or frame.period is not None or not asked
            or plan.intent not in ("etf_measure", "etf_prices")
            or frame.statistic in ("up_days", "down_days")):  # fmt: skip
        return None  # a count of days over a span is not the price tool's (the coverage says so)
    returned = frame.measure() == "return" and op.aggregate is None
    plan.measure = "close" if returned else next(
        (m.name for m in frame.measures if m.name in ("volume", *DAILY_LEVELS)), "close")  # fmt: skip
    return "return" if returned else op.aggregate or "avg"


def _dated_value(plan: Plan) -> bool:
    """One ETF's close, NAV or volume on a past day (read from the price tool's year window;
    a day before it is said to be out of reach)."""
    return (plan.intent == "etf_measure" and not plan.days
            and plan.measure in ("close", "nav", "volume", "net_assets", "market_cap"))  # fmt: skip


def _intent(plan: Plan, frame: QuestionFrame) -> Intent:
    op, measure = frame.operation, frame.measure()
    scope = [n for n in frame.notes if n.startswith("out_of_scope:")]
    if op.kind == "define":
        return "define"
    if scope:
        return _decline(plan, "scope", scope[0].split(":")[1])
    if "missing_subject:stock" in frame.notes and not (plan.tags or plan.managers):
        return _decline(plan, "not_found", "stock")
    named = plan.etfs or plan.stocks or plan.tags or plan.managers
    unheld = [w for w in frame.unknown_words if not (w.isascii() and w.isupper())
              or w in vocabulary()["unheld_domain"]]  # tickers aside, but 'ROE' is a measure  # fmt: skip
    known = any(m.name in (*SET_MEASURES, "premium", "nav", "benchmark", "listed_date", "holdings")
                for m in frame.measures)  # fmt: skip
    if frame.unknown_words and (not named or (unheld and not known)):
        return _decline(plan, "measure", ", ".join(frame.unknown_words))
    if frame.unknown_words:  # 'KODEX 200 보수랑 추적오차': answer the part we hold, say the rest
        plan.unanswered.append(_text(plan, "unheld", ", ".join(frame.unknown_words)))
    if any(n.startswith(ADVICE_COMPARED) for n in frame.notes):  # 'A가 나아 B가 나아?'
        plan.unanswered.append(_text(plan, "advice_compared"))
    if (composed := _composed(plan, frame)) is not None:
        return composed
    if frame.reference == "subset" and frame.previous_result:
        return _set_intent(plan, frame, "previous")
    groups = _named_groups(plan)
    if groups is not None and not (plan.etfs or plan.stocks) and (
            op.kind in ("difference", "compare") or op.aggregate in ("avg", "sum", "count")
            or "보다" in plan.question):  # fmt: skip
        # '미래에셋 ETF 평균 총보수와 삼성 ETF 평균 총보수 차이': each manager's figure, the gap
        plan.only_groups = [m.key for m in groups[1]]
        plan.gap_of_groups = op.kind in ("difference", "compare") or "보다" in plan.question
        plan.total_of_groups = bool(find_phrases(  # '합치면?', '합계': the groups added up
            plan.question.lower(), {"s": vocabulary()["aggregates"]["sum"]}))  # fmt: skip
        op.group_by, op.kind = groups[0], "aggregate"
        counted = find_phrases(
            plan.question.lower(), {"n": vocabulary()["aggregates"]["count"]}
        ) or (not frame.measures)  # '해외주식 ETF가 채권 ETF보다 많아?': how many each
        read = frame.statistic if frame.statistic in ("avg", "sum") else "avg"
        if op.top_n == 1 and frame.statistic is None:  # each house's first ('… 1위' → '차이는?')
            read = "min" if op.direction == "asc" else "max"
        if counted and plan.total_of_groups:  # '… 개수와 … 개수 합': the counts added up
            op.aggregate = "count"
        op.aggregate = op.aggregate or ("count" if counted else read)  # type: ignore[assignment]
        return "etf_groups" if _set_intent(plan, frame, "all") == "etf_set" else "unsupported"
    if frame.operation.group_by and not (plan.etfs or plan.stocks):
        # '운용사별 평균 보수', '반도체 ETF 운용사별 개수': one figure per manager or theme
        universe: Universe = "tag" if plan.tags else "manager" if plan.managers else "all"
        return "etf_groups" if _set_intent(plan, frame, universe) == "etf_set" else "unsupported"
    relation = frame.relation
    of_a_set = measure in SET_MEASURES and measure != "weight"  # a measure sets are read by
    etfs, stocks = len(plan.etfs), len(plan.stocks)
    if relation == "similar" and op.threshold_of is not None:
        return _set_intent(plan, frame, "similar")  # 'KODEX 200과 비슷한 ETF 중 더 싼 거'
    if relation == "weight_in" and etfs == 1 and stocks == 1:
        return "holding_weight"
    if relation == "together" and stocks >= 2:
        if op.kind in ("rank", "filter", "aggregate") and of_a_set:
            return _set_intent(plan, frame, "holders")  # '… 모두 담은 ETF 중 보수가 가장 싼 것'
        return _by_weight(plan, frame)
    if relation in ("holders", "together") and negations(analyse(frame.question), frame.question):
        plan.without_stocks = True  # '삼성전자 안 담은 ETF 중 …': every ETF but the holders
        mark_read(frame, NEGATION)
        if measure == "weight" or not (op.kind in ("rank", "filter", "aggregate") or op.top_n):
            frame.operation.kind = "rank" if frame.measure() else "filter"
        return _set_intent(plan, frame, "holders")
    if relation == "holders" and stocks == 1:
        if op.kind in ("filter", "aggregate") or (op.kind == "rank" and measure not in
                                                  (None, "weight")) or plan.tags or plan.managers or op.comparator:  # fmt: skip
            return _set_intent(plan, frame, "holders")  # scoped ('… 높은 반도체 ETF') or filtered
        return _by_weight(plan, frame)
    if relation == "common_holdings" and etfs >= 2:
        return "common_holdings"
    if etfs >= 2 and measure == "holdings" and (
            op.aggregate == "count" or op.kind in ("compare", "difference") or pick_direction(frame)):  # fmt: skip
        # 'KODEX 200과 TIGER 200 중 보유종목이 더 많은 쪽': each one's count of holdings
        return "holdings_counts"
    if etfs == 1 and not relation and _days_over_bar(plan, frame, measure):
        return "etf_window"  # 'KODEX 200 6만원 넘은 날 최근 3개월 며칠?'
    if etfs and not relation and op.kind == "filter" and op.comparator and of_a_set:
        return _set_intent(plan, frame, "named")  # 'KODEX 200 보수 0.1% 넘어?': held to the bar
    asked = list(dict.fromkeys(m.name for m in frame.measures if m.name in _SIDE_BY_SIDE))
    if (etfs and len(asked) >= 2 and op.kind in ("lookup", "list", "compare") and not relation
            and window_ask(frame) is None):  # '20거래일 종가 변동성' is one window's statistic  # fmt: skip
        plan.also = asked[1:]  # 'TIGER 200 보수랑 1년 수익률': every measure asked, side by side
        return _set_intent(plan, frame, "named")
    if of_a_set and (etfs >= 3 or (etfs >= 2 and op.kind == "aggregate"
                                   and op.aggregate in ("sum", "avg"))):  # fmt: skip
        # three or more named: side by side, ordered; 'KODEX 200과 TIGER 200 순자산 합계', '… →
        # 합치면?': the named funds' total
        return _set_intent(plan, frame, "named")
    if etfs >= 2:
        # 'KODEX 200 보수가 TIGER 200보다 높아?': the gap of the figure asked, the higher named
        than = any(plan.question[e.end : e.end + 3].startswith("보다") for e in plan.etfs)
        if op.kind == "difference" or than or (relation == "weight_in" and frame.measure() == "weight"):  # fmt: skip
            return _difference(plan, frame)
        if frame.measure() in ("net_assets", "close", "volume", "volatility", "premium") or (
            frame.measure() == "return" and plan.period not in (None, "1m")
        ):  # the compare card holds 1-month returns only: show the asked values side by side
            return _difference(plan, frame)
        if frame.measure() == "drawdown":  # each one's, over the same window
            return _window_figure(plan, frame, "drawdown")
        return "compare"
    if etfs == 1:
        return _single_etf(plan, frame)
    if stocks >= 2 and op.kind in ("compare", "difference"):
        plan.unanswered.append(_text(plan, "stock_compare"))
        return _by_weight(plan, frame) if relation else "stock_prices"
    if stocks == 1:
        return _single_stock(plan, frame)
    if plan.benchmark and not (plan.tags or plan.managers):
        return _set_intent(plan, frame, "all")  # '코스피200 추종 ETF …': that benchmark's ETFs
    if plan.tags or plan.managers:
        universe = "tag" if plan.tags else "manager"
        _spot_price_said(plan)
        if WHY_NOTE in frame.notes and measure in (None, "return", "close"):
            return _why_of_a_set(plan, frame, universe)
        _how_doing(plan, frame)  # '반도체 ETF 요즘 어때?': their returns
        return _set_intent(plan, frame, universe)  # '반도체 ETF', '미래에셋 ETF 목록': by fee
    order = _order_asked(plan.question) if measure in SET_MEASURES and op.kind == "lookup" else None
    if order and _ETF_WORD.search(plan.question):
        op.kind, op.direction = "list", order  # '보수 싼 미국 ETF 좀 보여줘': in the order asked
    if (
        (measure in SET_MEASURES and op.kind in ("filter", "rank", "aggregate", "list"))
        or (op.kind == "aggregate" and op.aggregate == "count")
        or measure in _DISTANCE  # '52주 신고가 ETF': each ETF's close against its high
        or (measure == "volume" and _SURGE.search(plan.question))  # against its 3 months
    ):
        return _set_intent(plan, frame, "all")  # an unread word before 'ETF' is the coverage's
    if any(w in plan.question for w in ("태그", "테마")) or "tag" in plan.question.lower():
        return "list_tags"
    return "unsupported"


_HELD_BY_THE_GRAPH = frozenset({"expense_ratio", "weight"})  # filtered before any price call
_HELD_PLACE = re.compile(r"보유\s*(\d{1,2})\s*위")  # the holdings' place, not the pick's
_PICK_COUNT = re.compile(r"\s중(?:에서|에)?\s.*?(\d{1,3})\s*개(?!월)")  # a count after '중'


def _composed(plan: Plan, frame: QuestionFrame) -> Intent | None:
    """'거래대금 상위 5개 ETF의 평균 순자산', '현대차 비중이 가장 큰 ETF의 3개월 수익률', 'KODEX
    200과 TIGER 200 중 순자산이 큰 쪽의 수익률': a set (named, holders, theme, manager, all)
    ordered by one measure and cut to N, then another measure read of it (or aggregated)."""
    read = nested_measure(frame) or _holdings_of_the_pick(frame)
    op = frame.operation
    kept_by = op.filter_measure if op.comparator and op.threshold is not None else None
    # '… 가장 싼 반도체 ETF의 1년 수익률은 KODEX 200보다 높아?': the pick's figure held to the
    # bar (a number, or a named fund's same figure), not a filter of the set
    plan.held_to_bar = (read is not None and bar_is_the_predicate(frame)
                        and op.filter_measure in (None, next((m.name for m in frame.measures if m.surface == read), None)))  # fmt: skip
    if plan.held_to_bar:
        kept_by = None
    ends = _ends_of_one_measure(frame)
    if ends is not None and op.comparator is None:  # '수익률 가장 높은 것과 가장 낮은 것의 차이'
        read = next(m.surface for m in frame.measures if m.name == ends)
    # '순자산 상위 3개 ETF 합계': the cut and the sum are of one measure, in that order (a
    # count of the cut is its N; one named ETF's top N are its holdings, cut by their reader)
    cut_of_one = (op.kind == "aggregate" and bool(op.top_n) and op.aggregate != "count"
                  and frame.relation != "holdings" and len(frame.of("etf")) != 1
                  and len({m.name for m in frame.measures}) == 1)  # fmt: skip
    if cut_of_one and op.comparator is None:
        read = frame.measures[-1].surface
    if read is None or (op.comparator is not None and kept_by is None and not plan.held_to_bar):
        return None
    others = list(dict.fromkeys(m.name for m in frame.measures if m.surface != read))
    if len(plan.etfs) == 1 and "weight" in others:
        return None  # 'KODEX 200 비중 1위 종목의 1년 수익률': one fund's holdings, read below
    measure = next(m.name for m in frame.measures if m.surface == read)
    others = others or ([measure] if ends or cut_of_one else [])  # order and read: one measure
    if kept_by in _HELD_BY_THE_GRAPH and kept_by != measure and len(others) == 2:
        # '보수 0.1% 미만 ETF 중 순자산 가장 큰 것의 3개월 수익률': the condition picks the set
        others.remove(kept_by)
        plan.filter_first, kept_by = True, None
    if measure == "holdings" and op.aggregate == "count":
        return None  # '… 상위 2개의 보유종목 수': each one's count of holdings, not a list
    held_place = _held_place(frame.question)
    if measure == "weight" and held_place and len(others) == 1:
        measure = "holdings"  # '보수 싼 쪽의 비중 1위 종목': the pick's heaviest holding
    if measure == "holdings" and len(others) == 1 and others[0] in SET_MEASURES:
        # '반도체 ETF 중 순자산이 가장 큰 ETF의 상위 5개 보유종목': pick one, then its holdings
        plan.holdings_n = n if (n := frame.operation.top_n or 0) > 1 else 10
        mark_read(frame, str(n))  # the count is the holdings' ('상위 5개 보유종목')
        if held_place:  # '… ETF의 1위 보유종목': that holding alone
            plan.holdings_n = plan.holding_place = held_place[0]
            frame.notes.append(f"{POSITION}{held_place[0]}:{held_place[1]}")
        elif (first := ordinal_position(frame.question)) and first[0] == 1:
            frame.notes.append(f"{POSITION}1:{first[1]}")  # '순자산 1위 ETF의 상위 3개 보유종목'
        frame.operation.top_n = None
        measure = "holdings"
    elif len(others) > 2 or any(m not in SET_MEASURES for m in [*others, measure]):
        return None  # the coverage says which measure was not read
    order_by, pick_by = others[0], (others[1] if len(others) == 2 else None)
    if kept_by is not None and kept_by != measure:
        return None
    plan.keep_where = kept_by is not None  # '상위 10개 ETF 중 총보수 0.1% 미만인 것 (개수)'
    if pick_by is None and read == among_measure(frame) and not plan.keep_where:
        pick_by = measure  # '… 상위 5개 중 수익률이 가장 높은 것': the pick is the answer
    kept = _PICK_COUNT.search(plan.question)
    if pick_by is not None and kept:  # '… 중 1년 수익률 하위 3개': the pick keeps three
        plan.pick_n = int(kept.group(1))
        mark_read(frame, kept.group(1))
    plan.universe = ("named" if len(plan.etfs) >= 2 else "holders" if plan.stocks
                     else "tag" if plan.tags else "manager" if plan.managers else "all")  # fmt: skip
    plan.measure, plan.order_by, plan.pick_by = measure, order_by, pick_by
    # '순자산 가장 큰 것과 가장 작은 것의 보수 차이': both ends of one order, then the gap
    # ('순자산 상위 2개의 1년 수익률 차이': the two a cut of two keeps are its ends)
    plan.both_ends = (op.kind == "difference" and pick_by is None and not op.aggregate
                      and not plan.keep_where
                      and ({"asc", "desc"} <= set(pick_directions(frame)) or op.top_n == 2))  # fmt: skip
    place = None if held_place else ordinal_position(frame.question)
    if place and place[0] > 1 and pick_by is None:  # order → the n-th → read
        plan.position = place[0]
        frame.notes.append(f"{POSITION}{place[0]}:{place[1]}")
    frame.notes.append(COMPOSED)
    n, agg = frame.operation.top_n or 1, frame.operation.aggregate
    source = {"named": "질문한 ETF", "holders": "보유 ETF", "tag": "테마 ETF", "manager": "운용사 ETF",
              "all": "전체 ETF", "similar": "비슷한 ETF"}[plan.universe]  # fmt: skip
    words = {k: ko for k, (ko, _) in AGGREGATE_WORDS.items()}
    read = measure_name(measure, "ko") + (f" {words[agg]}" if agg in words else "")
    pick = f"{measure_name(pick_by, 'ko')} 순 → {plan.pick_n}개 → " if pick_by else ""
    if plan.filter_first:  # the condition is the set's first step
        source += (f" → {measure_name(op.filter_measure or '', 'ko')} {op.threshold:g}"
                   f"{op.threshold_unit or ''} {COMPARATOR_WORDS['ko'].get(op.comparator or '', '')}")  # fmt: skip
    if plan.keep_where:  # the condition is a step of its own, after the cut
        pick = (f"{measure_name(measure, 'ko')} {op.threshold:g}{op.threshold_unit or ''} "
                f"{COMPARATOR_WORDS['ko'].get(op.comparator or '', '')} → ")  # fmt: skip
        read = words[agg] if agg in words else measure_name(measure, "ko")
    cut = "처음과 끝" if plan.both_ends and op.top_n != 2 else f"{n}개"
    read += " 차이" if plan.both_ends else ""
    if plan.held_to_bar:  # the last step: the figure against the bar
        bar = op.threshold_of.name if op.threshold_of else f"{op.threshold:g}{op.threshold_unit or ''}"  # fmt: skip
        read += f" → {bar} {COMPARATOR_WORDS['ko'].get(op.comparator or '', '')}?"
    frame.notes.append(f"{PLAN}{source} → {measure_name(order_by, 'ko')} 순 → {cut} → {pick}{read}")
    return "etf_composed"


def _holdings_of_the_pick(frame: QuestionFrame) -> str | None:
    """'보수 가장 싼 반도체 ETF 상위 보유종목': no possessive, but the holdings are named after a
    set's order, so the set is ordered, the first picked, and its holdings read."""
    names = [m.name for m in frame.measures]
    if (len(names) == 2 and names[1] == "holdings" and names[0] in SET_MEASURES
            and not frame.of("etf") and frame.operation.kind == "rank"):  # fmt: skip
        return frame.measures[1].surface
    return None


def _held_place(question: str) -> tuple[int, str] | None:
    """'… ETF의 보유 1위 종목', '… ETF의 1위 보유종목': a place said of the holdings, or after
    the pick's possessive, is the holdings' place, not the pick's."""
    if said := _HELD_PLACE.search(question):
        return int(said.group(1)), said.group(0)
    place, owner = ordinal_position(question), question.find("의 ")
    return place if place and 0 <= owner < question.find(place[1]) else None


# between two themes: what is said of the first ('ETF', 'ETF 평균 보수'), then a joiner
_JOINED = re.compile(r"^[^,]*?(?:와|과|이랑|랑|하고|및|,|and|vs\.?)\s*$", re.IGNORECASE)


# the first theme's words, its subject particle
_THAN_THE_OTHER = re.compile(r"^[^,]*?(?:이|가|은|는)\s*$")


def _named_groups(plan: Plan) -> tuple[Literal["manager", "tag"], list[Mention]] | None:
    """Two or more managers, or themes joined by '와/과/이랑/and' ('해외주식 ETF와 채권 ETF
    개수'): each one's own figure. Themes side by side with no joiner ('해외주식 배당 ETF') are
    one set that carries both."""
    if len(plan.managers) >= 2:
        return "manager", plan.managers
    tags = sorted(plan.tags, key=lambda m: m.start)
    if len(tags) >= 2 and all(t.start < 0 for t in tags):  # carried from turns that asked each
        return "tag", tags
    if len(tags) >= 2 and all(t.start >= 0 for t in tags) and all(
            _JOINED.match(plan.question[a.end:b.start]) for a, b in itertools.pairwise(tags)):  # fmt: skip
        return "tag", tags
    if len(tags) == 2 and all(t.start >= 0 for t in tags) and _THAN_THE_OTHER.match(
            plan.question[tags[0].end:tags[1].start]) and "보다" in plan.question[tags[1].end:]:  # fmt: skip
        return "tag", tags  # '해외주식 ETF 평균 수익률이 채권 ETF 평균보다 높아?': the two
    return None


def _ends_of_one_measure(frame: QuestionFrame) -> str | None:
    """The one set measure whose highest and lowest are asked apart ('채권 ETF 중 1년 수익률
    가장 높은 것과 가장 낮은 것의 차이'), if that is the question."""
    names = {m.name for m in frame.measures}
    if (frame.operation.kind != "difference" or len(names) != 1 or not names <= set(SET_MEASURES)
            or frame.operation.aggregate or not {"asc", "desc"} <= set(pick_directions(frame))):  # fmt: skip
        return None
    return names.pop()


_SET_WORDS = frozenset(
    "전체 모든 국내 상장 상장된 중 중에 중에서 것 거 the all of which what are is "
    "with listed korean 한국 etf etfs 펀드".split()
)


_SAME_MANAGER = re.compile(r"(?:같은|그|이|동일한?)\s*운용사|same (?:manager|issuer)", re.IGNORECASE)  # fmt: skip


def _same_manager(plan: Plan, previous: QuestionFrame | None, lexicon: Lexicon) -> None:
    """'같은 운용사 ETF 중 제일 큰 건?' after a fund: that fund's manager (its brand's)."""
    if plan.managers or previous is None or not _SAME_MANAGER.search(plan.question):
        return
    fund = next((e for e in previous.entities if e.kind == "etf"), None)
    manager = lexicon.brands.get(fund.name.split()[0]) if fund else None
    if manager and fund:
        plan.managers = [Mention("manager", manager, manager, -1)]
        mark_read(plan.frame, "운용사")
        if other := _OTHER.search(plan.question):  # '같은 운용사 다른 ETF': the fund left out
            plan.others_than = [fund.key]
            mark_read(plan.frame, other.group(0))


_SAME_INDEX = re.compile(
    r"(?:같은|동일한?)\s*(?:기초\s*)?지수|same (?:index|benchmark)", re.IGNORECASE
)
_OTHER = re.compile(r"다른|other", re.IGNORECASE)


def _same_benchmark(plan: Plan, frame: QuestionFrame, previous: QuestionFrame | None,
                    lexicon: Lexicon) -> None:  # fmt: skip
    """'같은 지수 추종하는 다른 ETF는?' after a fund: the funds tracking its benchmark (its total
    return version too), the fund itself left out when '다른' is said."""
    if previous is None or not _SAME_INDEX.search(plan.question):
        return
    fund = next((e for e in previous.entities if e.kind == "etf"), None)
    index = lexicon.benchmarks.get(fund.key) if fund else None
    if fund is None or not index:
        return
    plan.benchmark = re.sub(r"\s*(?:TR|총수익)$", "", index)
    plan.etfs = [m for m in plan.etfs if m.key != fund.key]
    frame.entities = [e for e in frame.entities if e.key != fund.key]
    frame.reference = None
    said = [
        m.group(0) for m in (_SAME_INDEX.search(plan.question), _OTHER.search(plan.question)) if m
    ]
    plan.others_than = [fund.key] if _OTHER.search(plan.question) else []
    mark_read(frame, *(t.form for w in said for t in analyse(w)))


_HANGUL_WORD = re.compile(r"^[가-힣]+$")
_NAME_WORDS_EN = {
    "us": "미국",
    "u.s.": "미국",
    "american": "미국",
    "japan": "일본",
    "china": "중국",
}


def _scope_by_benchmark(plan: Plan, lexicon: Lexicon) -> None:
    """'코스피200 추종 ETF 중 보수 제일 싼 거', 'ETFs tracking the KOSPI 200': an index named as
    what a set tracks (a tracking word, or the index right before 'ETF') scopes the set to the
    ETFs with that benchmark exactly — not its leveraged or inverse versions, nor the wider
    theme tag the index's name also reads as ('나스닥100' → '미국나스닥')."""
    if plan.etfs or plan.stocks or plan.managers:
        return
    low = plan.question.lower()
    at = low.find("etf")
    tracking = find_phrases(low, {"t": vocabulary()["benchmark_words"]})
    if at < 0 or not (tracking or at > 0):
        return
    indices = {x["key"]: x for x in vocabulary()["indices"] if x.get("benchmark")}
    found = find_phrases(low if tracking else low[:at],
                         {key: x["aliases"] for key, x in indices.items()})  # fmt: skip
    named = [h for h in found if tracking or not low[h.end : at].strip()]  # '코스피200 ETF'
    if not named:
        before = low[: tracking[0].start] if tracking else low[:at]  # '코스닥150 추종 ETF'
        if said := _benchmark_before(before, lexicon):  # '코스닥150 레버리지 ETF'
            _scope_to(plan, said[0], said[1], said[2])
        return
    hit = named[-1]
    if not tracking and any(not (t.end <= hit.start or t.start >= hit.end) for t in plan.tags):
        return  # 'S&P500 ETF': the theme the name reads as ('미국S&P500') already scopes it
    _scope_to(plan, indices[hit.label]["benchmark"], hit.start, hit.end)


def _scope_to(plan: Plan, benchmark: str, start: int, end: int) -> None:
    """The set is the ETFs tracking `benchmark`, said at question[start:end] (its themes
    there are the index's words, not tags)."""
    plan.benchmark = benchmark
    plan.tags = [t for t in plan.tags if t.end <= start or t.start >= end]
    # the trace's '이해한 질문' shows the scope the answer uses
    plan.frame.entities = [e for e in plan.frame.entities if e.kind != "tag"
                           or e.end <= start or e.start >= end]  # fmt: skip
    mark_read(plan.frame, *re.findall(r"\d+", plan.question[start:end]))  # '200', '150'


def _benchmark_before(before: str, lexicon: Lexicon) -> tuple[str, int, int] | None:
    """The last words before 'ETF' spelling an ETF benchmark whole, spaces aside ('코스닥150
    레버리지' is the benchmark 코스닥 150 레버리지): (benchmark, start, end)."""
    forms = {b.lower().replace(" ", ""): b for b in lexicon.benchmarks.values()}
    words = list(re.finditer(r"\S+", before))
    for k in range(min(4, len(words)), 0, -1):
        said = "".join(w.group(0) for w in words[-k:])
        if len(said) >= 5 and said in forms:
            return forms[said], words[-k].start(), words[-1].end()
    return None


# '국내주식 ETF', '해외 채권형 ETF': the market and asset class each ETF is listed with
_MARKET = re.compile(r"(?<![가-힣a-z])(국내|한국|해외|외국|미국|korean|domestic|overseas|foreign|american)\s*"
                     r"(주식|채권|원자재|통화|equity|stock|bond)?(?:형)?", re.IGNORECASE)  # fmt: skip
_REGIONS = {"국내": "KR", "한국": "KR", "해외": "!KR", "외국": "!KR", "korean": "KR",
            "domestic": "KR", "overseas": "!KR", "foreign": "!KR", "미국": "US", "american": "US"}  # fmt: skip
_ASSETS = {"주식": "equity", "채권": "bond", "원자재": "commodity", "통화": "currency",
           "equity": "equity", "stock": "equity", "bond": "bond"}  # fmt: skip


def _scope_by_market(plan: Plan) -> None:
    """'국내주식 ETF 몇 개?', '해외 ETF 중 보수 가장 싼 것': the set narrowed by the region and
    asset class each ETF is listed with (a named tag or house keeps its own narrowing)."""
    said = plan.frame.question
    taken = [(m.start, m.end) for m in (*plan.etfs, *plan.tags, *plan.managers)]
    for m in _MARKET.finditer(said):
        if any(a < m.end(1) and m.start(1) < b for a, b in taken):
            continue  # '한국' of a tag or a fund's name
        plan.market["region"] = _REGIONS[m.group(1).lower()]
        asset = m.group(2) and not any(a < m.end(2) and m.start(2) < b for a, b in taken)
        if asset:  # '국내 채권 ETF': a theme named keeps its own narrowing
            plan.market["asset_class"] = _ASSETS[m.group(2).lower()]
        mark_read(plan.frame, *(t.form.lower() for t in analyse(m.group(0 if asset else 1))))
        _count_in_cut(plan, m.start())  # '1년 수익률 상위 5개 ETF 중 국내주식 ETF 몇 개?'
        return


_CUT_THEN = re.compile(r"\d+\s*개\s*(?:etf|펀드)?\s*중", re.IGNORECASE)


def _count_in_cut(plan: Plan, at: int) -> None:
    """'1개월 수익률 상위 10개 ETF 중 레버리지 ETF 몇 개?': every ETF ordered by the measure and
    cut, then the theme's (house's, market's) ETFs among them counted — when the narrower set
    (said at `at`) is named after the cut ('반도체 ETF 중 … 상위 2개의 …' cuts the theme)."""
    op, cut = plan.frame.operation, _CUT_THEN.search(plan.question)
    if op.top_n and op.aggregate == "count" and cut and at >= cut.end():
        plan.count_in_cut = True
        plan.frame.notes.append(COMPOSED)  # the cut, then the narrower set counted in it


def _scope_by_name(plan: Plan, lexicon: Lexicon) -> None:
    """'미국 ETF 평균 보수', 'US ETFs cheapest': a word before 'ETF' that is no theme or manager
    but is in several ETF names scopes the set to those names (said in the answer's title),
    instead of the word being dropped."""
    low = plan.question.lower()
    at = low.find("etf")
    if at <= 0:
        return
    for word in reversed(re.findall(r"[0-9a-z가-힣&.]+", low[:at])[-2:]):
        word = _NAME_WORDS_EN.get(word, word)
        # Korean words only ('top 5 ETFs' is no name: 'TOP10' is in names); a verb or adjective
        # ('오른', '떨어진', '비싼') describes, it names no theme (the frame read what it asks)
        if (word in _SET_WORDS or len(word) < 2 or word[-1] in "은는던한된진린른싼쁜운인"
                or not _HANGUL_WORD.match(word)):  # fmt: skip
            continue
        if sum(1 for name in lexicon.etfs.values() if word in name.lower()) >= 2:
            plan.name_word = word
            plan.unanswered = [u for u in plan.unanswered if f"'{word}'" not in u]
            mark_read(plan.frame, *(t.form for t in analyse(word)))  # the set is scoped by it
            return


# the measures a set table reads as one ETF's own latest figures (its volume there is an average)
_SIDE_BY_SIDE = frozenset({"expense_ratio", "return", "net_assets", "close", "volatility"})


def _decline(plan: Plan, kind: str, what: str) -> Intent:
    plan.decline_reason = f"{kind}:{what}"
    return "declined"


def _by_weight(plan: Plan, frame: QuestionFrame) -> Intent:
    """'삼성전자를 가장 많이 담은 ETF', '엔비디아와 애플을 모두 담은 ETF': the funds holding every
    stock named, by its weight (summed) in each fund's latest snapshot, largest first."""
    frame.operation.kind, frame.operation.direction = "rank", frame.operation.direction or "desc"
    frame.measures = frame.measures or [Measure(name="weight", unit="%")]
    return _set_intent(plan, frame, "holders")


def _set_intent(plan: Plan, frame: QuestionFrame, universe: Universe) -> Intent:
    plan.universe = universe
    _distance_from_extreme(plan, frame)
    _volume_surge(plan, frame)
    op = frame.operation
    measure = frame.measure()
    if (op.kind == "rank" or op.aggregate) and op.filter_measure and len(frame.measures) > 1:
        # '삼성전자 비중 10% 이상인 ETF 중 보수 가장 싼 것': filtered by one, ranked by the other;
        # '순자산 1조 이상 ETF 평균 1년 수익률': filtered by one, the other averaged
        measure = next((m.name for m in frame.measures if m.name != op.filter_measure), measure)
        frame.notes.append(COMPOSED)  # the second measure is read of the kept set
    if universe in ("tag", "manager"):  # '1개월 수익률 상위 10개 ETF 중 레버리지 ETF는 몇 개?'
        _count_in_cut(plan, min(m.start for m in (*plan.tags, *plan.managers)))
    if measure not in SET_MEASURES and measure is not None:
        plan.unanswered.append(_text(plan, "set_measure", measure))
        measure = None
    if measure is None:
        measure = "weight" if universe == "holders" else "expense_ratio"
        if op.kind in ("rank", "aggregate") and op.aggregate != "count" and universe != "holders":
            plan.unanswered.append(_text(plan, "default_measure"))
    plan.measure = measure
    if op.filter_measure and op.filter_measure not in SET_MEASURES:
        plan.unanswered.append(_text(plan, "set_measure", op.filter_measure))
    for condition in op.conditions:  # a second threshold on a measure sets do not hold
        if condition.measure not in SET_MEASURES:
            plan.unanswered.append(_text(plan, "set_measure", condition.measure))
    return "etf_set"


_DISTANCE = {"high": "from_high", "low": "from_low"}


def _distance_from_extreme(plan: Plan, frame: QuestionFrame) -> None:
    """A set asked about its highs or lows ('52주 신고가 ETF', '1년 최저가에 가까운 ETF', '고점
    대비 10% 넘게 빠진 ETF') is read by each ETF's latest close against its closing high (low)
    of the window, in %: '신고가' keeps those at it, otherwise the nearest come first."""
    measure = frame.measure()
    if measure not in _DISTANCE:
        return
    name, op = _DISTANCE[measure], frame.operation
    frame.measures = [Measure(name=name, unit="%", surface=frame.measures[0].surface),
                      *frame.measures[1:]]  # fmt: skip
    plan.period = plan.period or "1y"  # '52주', and unasked the usual 52-week window
    new = find_phrases(plan.question.lower(), {"new": vocabulary()["new_extreme_words"]})
    if op.comparator and op.threshold is not None:
        op.filter_measure = name
        if name == "from_high" and op.threshold > 0:  # '5% 이내' is at most 5% below the high
            within = op.comparator in ("<", "<=")
            op.comparator, op.threshold = (">=" if within else "<="), -op.threshold
    elif new:
        op.kind, op.filter_measure, op.threshold = "filter", name, 0.0
        op.comparator = ">=" if name == "from_high" else "<="  # the last close is the extreme
    elif op.kind in ("lookup", "list", "rank"):
        op.kind, op.top_n = "rank", op.top_n or 10
        if op.direction is None or measure == "high" and asked_move(plan.question) != "down":
            op.direction = "desc" if name == "from_high" else "asc"  # the nearest first


def _order_asked(question: str) -> Literal["asc", "desc"] | None:
    """'싼', '저렴한', '큰', 'cheap', 'largest': the order a set is asked in."""
    rank = vocabulary()["rank"]
    hits = find_phrases(question.lower(), {"asc": [*rank["asc"], *vocabulary()["cheap_words"]],
                                           "desc": rank["desc"]})  # fmt: skip
    return hits[0].label if hits else None  # type: ignore[return-value]


def _spot_price_said(plan: Plan) -> None:
    """'금 시세 얼마야?' names an asset's own price, which the data does not hold: the theme's
    ETFs answer it only with that said first ('금 ETF 종가' asks for the ETFs themselves)."""
    spot = vocabulary()["spot_price_tags"]
    low = plan.question.lower()
    tag = next((t.key for t in plan.tags if t.key in spot["tags"]), None)
    if tag is None or _ETF_WORD.search(low) or not find_phrases(low, {"p": spot["price_words"]}):
        return
    plan.scope_note = (f"'{tag}' 자체의 시세는 데이터에 없어, '{tag}' 태그 ETF의 값으로 보였습니다."
                       if plan.lang == "ko" else f"The price of {tag} itself is not in the data; "
                       f"the ETFs tagged '{tag}' are shown instead.")  # fmt: skip


def _how_doing(plan: Plan, frame: QuestionFrame) -> None:
    """'반도체 ETF 요즘 어때?', 'how are dividend ETFs doing?': a set asked how it is doing with
    no measure is its ETFs' returns over the period (a month unless asked), best first."""
    if not frame.measures and _HOW_DOING.search(plan.question):
        frame.measures = [Measure(name="return", unit="%", surface="어때")]
        frame.operation.kind, frame.operation.direction = "rank", "desc"


def _volume_surge(plan: Plan, frame: QuestionFrame) -> None:
    """'거래량 급증한 ETF': each ETF's last week's average volume against its 3-month average
    (a ratio), the largest first ('급감' the smallest), not the volume's level."""
    if frame.measure() != "volume" or not (surge := _SURGE.search(plan.question)):
        return
    frame.measures = [Measure(name="volume_surge", unit="x", surface=surge.group(0)),
                      *frame.measures[1:]]  # fmt: skip
    op = frame.operation
    if op.kind in ("lookup", "list", "rank", "change"):
        op.kind, op.top_n = "rank", op.top_n or 10
        op.direction = "asc" if re.search(r"급감|줄어든|drop|fell", surge.group(0)) else "desc"


def _difference(plan: Plan, frame: QuestionFrame) -> Intent:
    measure = frame.measure() or "expense_ratio"
    if measure == "weight" and not plan.stocks:
        measure = "expense_ratio"
    if measure not in ("expense_ratio", "return", "net_assets", "close", "weight", "volume", "volatility",
                       "premium"):  # fmt: skip
        plan.unanswered.append(_text(plan, "set_measure", measure))
        return "compare"
    if frame.measure() is None:
        plan.unanswered.append(_text(plan, "default_measure"))
    if measure == "premium" and frame.period is not None:  # each one's last session's premium
        frame.notes.append(f"{UNAPPLIED}{frame.period.surface}")
    plan.measure = measure
    return "etf_difference"


_PLACE_ASKED = re.compile(r"순위|몇\s*(?:위|등|번째)|\brank(?:ed|ing)?\b", re.IGNORECASE)


def _single_etf(plan: Plan, frame: QuestionFrame) -> Intent:
    op, measure = frame.operation, frame.measure()
    if measure in SET_MEASURES and measure != "weight" and _PLACE_ASKED.search(plan.question):
        plan.rank_of = plan.etfs[0].key  # 'KODEX 200 순자산 순위 몇 위?': its place among all
        op.kind, op.top_n = "rank", None
        return _set_intent(plan, frame, "all")
    if measure is None and op.kind == "lookup" and not frame.relation and (
        _PRICE_ASKED.search(plan.question)):  # fmt: skip
        plan.measure = "close"  # 'KODEX 200 얼마야 지금?': its price, dated, not the card
        return "etf_measure"
    if frame.relation == "similar":
        moved = find_phrases(plan.question.lower(), {"m": vocabulary()["similar_by_returns"]})
        if moved or {m.name for m in frame.measures} & {"return", "volatility", "close"}:
            plan.similar_by = "returns"  # how alike the daily returns moved, not the holdings
        return "similar"
    if (level := _level_change(frame, measure)) is not None:
        plan.window, plan.measure = level, measure  # '순자산 3개월 전보다 얼마나 늘었어?'
        frame.relation = None  # '늘었' is the level's, not the holdings' weights
        return "etf_window"
    if frame.relation == "holdings_changes" or (op.kind == "change" and measure == "holdings"):
        return "holdings_changes"
    holdings = frame.relation == "holdings" or measure in ("holdings", "weight")
    if holdings and op.kind == "aggregate" and op.aggregate in ("sum", "avg", "count"):
        return "holdings_aggregate"
    if holdings and op.kind == "filter" and op.comparator:
        op.aggregate = op.aggregate if op.aggregate in ("count", "sum", "avg") else "list"
        return "holdings_aggregate"  # 'TIGER 200 보유 종목 중 비중 5% 넘는 종목'
    whole = (
        holdings
        and op.kind in ("lookup", "list")
        and measure in (None, "holdings")
        and frame.operation.aggregate is None
        and not _CODE_WORDS.search(plan.question)  # '종목코드 알려줘' asks the card's code
    )  # 'KODEX 200 보유 종목', 'What does TIGER 200 hold?'
    if holdings and (op.kind == "rank" or op.top_n or whole):
        figures = [m.name for m in frame.measures if m.name in STOCK_FIGURES]
        place = ordinal_position(plan.question)  # '5위는?', '1위 보유종목의 PBR': that holding
        if place and op.direction != "asc":
            plan.position, op.top_n = place[0], place[0]
            frame.notes.append(f"{POSITION}{place[0]}:{place[1]}")
        if not place and _holdings_by_figure(plan, frame, figures):
            return "holdings_aggregate"  # '보유종목 중 1년 수익률 가장 높은 종목의 PER'
        first = plan.position or (op.top_n == 1 and op.direction != "asc")  # the heaviest's
        # '비중 가장 작은 종목의 PER', '비중 최하위 종목의': the lightest one's, the last
        last = not plan.position and op.top_n == 1 and pick_direction(frame) == "asc"
        returns = [m.name for m in frame.measures if m.name == "return"] if place else []
        if (figures and figures[0] in VALUATIONS or returns) and (first or last):
            # its valuation; '1위 종목의 1년 수익률': its own return
            plan.position = plan.position or (-1 if last else 1)
            plan.measure = (figures or returns)[0]
            frame.notes.append(COMPOSED)  # holdings → the n-th → its figure: all read
            figures = []
        if figures:  # 'KODEX 200 보유종목 중 PER 가장 낮은 종목': the holdings, not by PER
            plan.unanswered.append(_text(plan, "stock_measure", figures[0]))
            op.direction = None
        op.aggregate = "list"  # the top N holdings by weight
        all_asked = whole and _ALL_HOLDINGS.search(plan.question)
        op.top_n = op.top_n or (None if all_asked else 10)  # '비중 상위 종목': ten, not all 136
        return "holdings_aggregate"
    if op.kind == "aggregate" and op.aggregate == "count" and measure in (None, "holdings"):
        return "holdings_aggregate"
    window = window_ask(frame)  # '최근 10거래일 평균 종가': one figure
    field = _window_field(frame, measure) if window is not None else None
    if window is not None and field and window.window.unit in WINDOW_UNITS:
        plan.window, plan.measure = window, field
        if window.threshold:  # the price tool counts every up (down) session: the bar is said
            plan.unanswered.append(_text(plan, "day_threshold", f"{window.threshold:g}%"))
        return "etf_window"
    if WHY_NOTE in frame.notes and measure in (None, "return", "close"):
        plan.measure = "return"  # 'KODEX 반도체 왜 떨어졌어?': the holdings that moved it
        return "etf_attribution"
    if op.change_basis == "yoy" and measure in (None, "return", "close"):
        plan.period, plan.measure = "1y", "return"  # an ETF's year-over-year move: 1-year return
        return "etf_measure"
    if measure == "volume" and (op.kind == "rank" or op.aggregate in ("max", "min")):
        low = op.aggregate == "min" or (op.aggregate is None and op.direction == "asc")
        return _extreme(plan, frame, "min" if low else "max", "volume")  # '거래량 제일 많았던 날'
    if measure in ("drawdown", "volatility"):  # '45일 최대 낙폭', '7개월 변동성': one window's
        return _window_figure(plan, frame, measure)
    if measure == "premium" and (op.aggregate in ("avg", "max", "min") or op.kind == "rank"):
        # '괴리율 최근 한 달 최대값', '3개월 괴리율 최저': the window's days, not the last one's
        stat = op.aggregate if op.aggregate in ("avg", "max", "min") else (
            "min" if op.direction == "asc" else "max")  # fmt: skip
        return _window_figure(plan, frame, stat, "premium")
    if op.kind == "aggregate" and op.aggregate in ("max", "min"):
        # a day's move, a daily figure's extreme ('순자산 최대값', '거래대금 최대인 날'), or the close
        return _extreme(plan, frame, op.aggregate, measure if measure in ("return", *DAILY_LEVELS)
                        else "close")  # fmt: skip
    if measure in ("high", "low") and op.kind in ("lookup", "rank", "aggregate"):
        return _extreme(plan, frame, "max" if measure == "high" else "min", "close")
    if measure == "return" or (op.kind == "change" and measure in (None, "close")):
        plan.measure = "return"
        return "etf_measure"
    if measure == "trading_value" and (frame.period or frame.window):  # '최근 1주일 거래대금'
        return _window_figure(plan, frame, "sum", "trading_value")  # Σ close × volume
    if measure == "trading_value":
        plan.measure = measure  # said alone: the last session's, as a volume is
        return "etf_measure"
    names = {m.name for m in frame.measures}  # 'NAV랑 종가 차이': the close against the NAV
    if "premium" in names or {"nav", "close"} <= names or measure in ("net_assets", "nav"):
        plan.measure = "premium" if "premium" in names or {"nav", "close"} <= names else measure
        return "etf_measure"
    if measure == "open":  # '시가': the funds' prices are closes and NAVs
        plan.unanswered.append(_text(plan, "no_open"))
        plan.measure = "close"
        return "etf_measure"
    if op.kind == "lookup" and measure in ("close", "volume", "market_cap"):
        plan.measure = measure  # '종가 얼마야?': the latest figure, dated
        return "etf_measure"
    if op.kind == "trend" or measure in ("close", "volume") or (measure is None and frame.period):
        return "etf_prices"  # 'TIGER 200 일주일 전 대비': the window's prices and its change
    if measure in ("per", "pbr", "eps", "dividend_yield", "rsi", "earnings", "shares_outstanding"):
        plan.unanswered.append(_text(plan, "etf_measure", measure))
    return "etf_info"


# the price tool's named periods as windows of data_access.figures
_PERIOD_WINDOWS = {"1w": (1, "week"), "1m": (1, "month"), "3m": (3, "month"), "6m": (6, "month"),
                   "1y": (1, "year"), "ytd": (1, "this_year"), "mtd": (1, "this_month")}  # fmt: skip
_LABEL_UNITS = {"d": "day", "w": "week", "m": "month", "y": "year"}


def _extreme(plan: Plan, frame: QuestionFrame, aggregate: str, field: str) -> Intent:
    """The highest or lowest daily figure of the window asked (3 months unless said) with its
    day, both ends ('최고가와 최저가'), or the day of the largest one-day move ('가장 많이 오른
    날'); a stock's ends are its intraday high and low."""
    stat = f"{aggregate}_move" if field == "return" else aggregate
    if field == "return" or (plan.etfs and field in ("high", "low")):
        field = "close"  # a move is the close's; an ETF's prices are closes only
    elif field in ("high", "low"):
        field = "high" if aggregate == "max" else "low"
    if {"high", "low"} <= {m.name for m in frame.measures}:
        stat, field = "extremes", "close" if plan.etfs else "high_low"
    return _window_figure(plan, frame, stat, field, "3m")


def _window_figure(plan: Plan, frame: QuestionFrame, stat: str, field: str = "close",
                   default: str | None = None) -> Intent:  # fmt: skip
    """One statistic of a daily figure over the window or span asked (a year for a volatility,
    else a month, unless said), of each ETF named (or the stock)."""
    asked = _window_of(plan, frame, default or ("1y" if stat == "volatility" else "1m"))
    said, span = window_labels(asked), frame.span
    if span is not None and not span.used and frame.window is None and frame.period is None:
        plan.span, span.used = span, True  # '작년': its own sessions
        said = (span.label_ko, span.label_en)
    plan.window, plan.measure = WindowAsk(asked, stat, field, *said), field
    return "etf_window"


def _window_of(plan: Plan, frame: QuestionFrame, default: str) -> fig.Window:
    """The window a question asks: its own window ('45일', '2분기'), else its period's ('올해',
    '1년'), else `default`'s. One longer than the year the price tool reads is that year, said."""
    w, label = frame.window, frame.period.label if frame.period else default
    found, span = re.fullmatch(r"(\d+)([dwmy])", label), frame.span
    running = span is not None and frame.as_of_date is not None and frame.as_of_date < span.last
    if span is not None and running and span.first[5:] == "01-01" and span.last[5:] == "12-31":
        span.used = True  # '올해': the year to date
        return fig.Window(1, "this_year")
    if span is not None and running and span.first[:7] == span.last[:7]:
        span.used = True  # '이번 달': the month to date
        return fig.Window(1, "this_month")
    if w is not None and w.unit in WINDOW_UNITS:
        window = fig.Window(w.n, w.unit)  # type: ignore[arg-type]
    elif label not in _PERIOD_WINDOWS and found:
        window = fig.Window(int(found.group(1)), _LABEL_UNITS[found.group(2)])
    else:
        window = fig.Window(*_PERIOD_WINDOWS.get(label, _PERIOD_WINDOWS[default]))
    if window.calendar_days() - 15 > 380:  # 'since:…', '2년': the year, and said
        said = frame.period.surface if frame.period else label
        plan.unanswered.append(_text(plan, "period", said, fig.PERIODS["1y"].ko if plan.lang == "ko"
                                     else fig.PERIODS["1y"].en))  # fmt: skip
        window = fig.Window(1, "year")
    return window


_AGAINST = re.compile(r"대비|비교|보다|에\s*비해|compared|versus|\bvs\b", re.IGNORECASE)


def _level_change(frame: QuestionFrame, measure: str | None) -> WindowAsk | None:
    """A daily level's change over a period ('KODEX 200 순자산 3개월 전보다 얼마나 늘었어?'):
    the price tool's window change of that field, not the holdings' weight changes."""
    if measure not in ("net_assets", "market_cap", "nav", "volume"):
        return None
    compared = frame.operation.kind == "compare" or _AGAINST.search(frame.question)
    if frame.operation.kind not in ("change", "difference") and not compared:
        return None  # '1년 전과 비교', '3개월 전 대비': the level then against now
    basis = {"yoy": "1y", "mom": "1m"}.get(frame.operation.change_basis or "")
    label = frame.period.label if frame.period else basis
    if label not in _PERIOD_WINDOWS or label in ("ytd", "mtd"):
        return None
    window = fig.Window(*_PERIOD_WINDOWS[label])
    return WindowAsk(window, "change", measure, *window_labels(window))


def _days_over_bar(plan: Plan, frame: QuestionFrame, measure: str | None) -> bool:
    """The days of a window whose daily figure met the bar asked ('며칠', '넘은 적 있어?'):
    the price tool counts them (figures.BAR_DAYS); False when no days were asked."""
    said = plan.question
    bar = bar_days_ask(frame, bool(DAYS_ASKED.search(said)), bool(EVER.search(said)))
    field = _window_field(frame, measure) if bar is not None else None
    if bar is None or field is None:
        return False
    plan.window, plan.measure = bar, field
    if frame.span is not None:  # '올해': the window runs to the latest day, not a past one
        frame.span.used, frame.as_of_date = True, None
    return True


def _window_field(frame: QuestionFrame, measure: str | None) -> str | None:
    """The daily figure a window statistic is of; an ETF's prices are closes only, so its
    highs and lows ('최고가와 최저가') are the closing ones (the answer says so)."""
    field = frame.stat_field or measure or "close"
    if field in ("high", "low", "high_low"):
        return "close"
    return field if field in SESSION_FIELDS else "close" if field in ("return", "volatility") else None  # fmt: skip


MANAGER_ASKED = re.compile(r"운용사(?:는|가|이름|명|\s*어디|\s*\??\s*$)|어느\s*운용사|which (?:manager|issuer)"
                            r"|who manages|managed by whom", re.IGNORECASE)  # fmt: skip
_HOW_DOING = re.compile(r"어때|어땠|어떻게 됐|\bhow (?:is|are|did|has|have)\b.*\b(?:doing|done|perform)",
                        re.IGNORECASE)  # fmt: skip
_ETF_WORD = re.compile(r"etf|펀드", re.IGNORECASE)
_PRICE_ASKED = re.compile(r"얼마|how much is|\bprice\b|시세", re.IGNORECASE)
_CODE_WORDS = re.compile(r"코드|티커|\b(?:code|ticker)\b", re.IGNORECASE)
_ALL_HOLDINGS = re.compile(r"전체|전부|모두|모든|\ball\b|full", re.IGNORECASE)
_SURGE = re.compile(r"급증|급감|폭증|늘어난|줄어든|surged?|spiked?|jump(?:ed)?", re.IGNORECASE)


def _why_of_a_set(plan: Plan, frame: QuestionFrame, universe: Universe) -> Intent:
    """'반도체 ETF 왜 빠졌어?': the set's returns, the biggest move of the direction asked first;
    one ETF's reasons are its holdings' contributions, which the answer points to."""
    frame.measures = [Measure(name="return", unit="%", surface="수익률")]
    down = asked_move(frame.question) != "up"
    frame.operation.kind, frame.operation.direction = "rank", "asc" if down else "desc"
    plan.unanswered.append(_text(plan, "set_why"))
    return _set_intent(plan, frame, universe)


# a stock's own figures; the ETF chat reads the valuation snapshot's, the stock report the rest
STOCK_FIGURES = frozenset({"per", "pbr", "eps", "dividend_yield", "market_cap", "rsi", "earnings"})
VALUATIONS = ("per", "pbr", "eps", "dividend_yield", "market_cap")  # of the valuation snapshot


def _holdings_by_figure(plan: Plan, frame: QuestionFrame, figures: list[str]) -> bool:
    """'KODEX 은행 보유종목 중 배당수익률 가장 높은 종목', '… 1년 수익률이 가장 높은 종목의 PER':
    the fund's holdings ordered by a stock figure of their own (inside a cut said before '중'),
    the first one picked and, when another figure is said after the possessive, that one read.
    The plan's `holdings_by` (the order), `measure` (the read figure) and `within` (the cut)."""
    op, read_said = frame.operation, nested_measure(frame)
    read = next((m.name for m in frame.measures if read_said and m.surface == read_said), None)
    order = next((m.name for m in frame.measures if m.name != read
                  and (m.name in VALUATIONS or m.name == "return")), None)  # fmt: skip
    cut = plan.within or (
        op.top_n if op.top_n and op.top_n > 1 and " 중" in plan.question else None
    )
    said = pick_direction(frame)  # '가장 높은', 'highest': an order said (not 'the top holding')
    if (
        order is None
        or op.kind != "rank"
        or said is None
        or (frame.reference is not None and not plan.among_listed)  # the talk's cut, read later
        or (order == "return" and cut and read is None and not plan.among_listed)
    ):
        return False  # '상위 10개 중 1개월 수익률 가장 높은 종목': the cut listed with returns
    if read is not None and read not in (*VALUATIONS, "return"):
        return False
    plan.holdings_by, plan.measure, plan.within = order, read, cut
    op.direction = said  # type: ignore[assignment]
    op.aggregate, op.top_n = "list", 1
    frame.notes.append(COMPOSED)  # holdings → ordered by the figure → the first → its figure
    del figures[:]
    return True


def _single_stock(plan: Plan, frame: QuestionFrame) -> Intent:
    op, measure = frame.operation, frame.measure()
    if op.kind == "aggregate" and op.aggregate in ("max", "min"):
        return _extreme(plan, frame, op.aggregate, measure if measure in ("return", "close")
                        else "high")  # fmt: skip
    if measure in ("high", "low"):
        return _extreme(plan, frame, "max" if measure == "high" else "min", measure)
    if measure in ("close", "return", "volume") or op.kind in ("trend", "change"):
        return "stock_prices"
    if measure in VALUATIONS:  # '그 종목 PBR은?': its last valuation snapshot, as the stock screen
        plan.measure = measure
        return "stock_prices"
    if measure in STOCK_FIGURES:
        plan.unanswered.append(_text(plan, "stock_measure", measure))
    if measure == "weight":  # '삼성전자 비중' with no fund named: its weight in each holder
        frame.relation = "holders"
        return _by_weight(plan, frame)
    return "stock_lookup"


# the set measures a period changes (a return over it, its average volume …)
_OVER_A_PERIOD = frozenset({"return", "volume", "volatility", "from_high", "from_low",
                            "trading_value", "volume_surge"})  # fmt: skip


def _period_unapplied(plan: Plan, frame: QuestionFrame) -> None:
    """'상장 1년 지난 ETF 개수': a period beside a set no measure of which is taken over it
    is read but not applied — said, so the count of all ETFs is not the answer."""
    measures = {plan.measure, plan.order_by, plan.pick_by, *plan.also} - {None}
    of_a_set = plan.intent in ("etf_set", "etf_composed")
    # 'KODEX 200 순자산 작년 말과 비교': a level read today, its change not computed
    a_level = plan.intent == "etf_measure" and plan.measure in DAILY_LEVELS
    period = frame.period  # said in this question, not carried over from the last
    # a set's premium is each ETF's on its last session ('3개월 괴리율 평균 높은 ETF'): not a window's
    premium = of_a_set and "premium" in measures
    if (period is not None and period.surface in frame.question and (of_a_set or a_level)
            and (premium or (not measures & _OVER_A_PERIOD and frame.statistic is None))):  # fmt: skip
        frame.notes.append(f"{UNAPPLIED}{period.surface}")


def _check_period(plan: Plan) -> None:
    """A period the price tool does not read (over a year, 'since' a day) is widened to the next
    one it does, and said; N days, weeks or months up to a year it reads as asked."""
    if plan.period in (None, "1d", *PRICE_PERIODS) or plan.intent == "etf_window":
        return  # a window statistic's tool call takes the window itself
    w = plan.frame.window
    if (w is not None and plan.intent == "etf_measure"
            and plan.measure == "return" and w.unit in WINDOW_UNITS):  # fmt: skip
        plan.intent = _window_figure(plan, plan.frame, "return")  # '최근 2주 수익률': the window's
        return
    days = re.fullmatch(r"(\d+)d", plan.period)
    listed = plan.intent == "etf_measure" and plan.measure in ("close", "volume")  # '최근 5일 종가'
    if days and int(days.group(1)) <= 60 and (w is None or w.unit == "session" or listed):
        # N trading days: the window that holds them
        plan.days = int(days.group(1))
        plan.period = "1w" if plan.days <= 4 else "1m" if plan.days <= 19 else "3m"
        return
    if readable(plan.period):  # '5개월', '10주', '2분기': read as asked
        return
    months = plan.frame.period.months if plan.frame.period else 1.0
    wider = next((p for p in ("1w", "1m", "3m", "6m") if fig.PERIODS[p].months >= months), "1y")
    said = plan.frame.period.surface if plan.frame.period else ""
    plan.unanswered.append(
        _text(plan, "period", said or plan.period, period_words(wider, plan.lang))
    )
    plan.period = wider


_TEXTS = {  # what the answer says of a part it did not do: (Korean, English)
    "stock_compare": ("두 종목의 직접 비교는 ETF 챗이 지원하지 않습니다 (종목 리포트 화면을 쓰세요).",
                      "The ETF chat does not compare two stocks directly (use the stock report)."),
    "set_measure": ("'{0}' 기준으로 ETF를 거르거나 줄 세우는 것은 오프라인에서 지원하지 않습니다.",
                    "Filtering or ranking ETFs by '{0}' is not supported offline."),
    "default_measure": ("기준이 되는 측정값이 없어 총보수 기준으로 계산했습니다.",
                        "No measure was named, so the expense ratio was used."),
    "no_open": ("ETF 시세에는 시가가 없어 종가로 답했습니다 (종가·NAV만 있습니다).",
                "ETF prices hold no opening price (closes and NAVs only): the close is given."),
    "etf_measure": ("ETF에는 '{0}' 값이 없습니다 (종목 지표입니다).",
                    "ETFs have no '{0}' (it is a stock measure)."),
    "stock_measure": ("ETF 챗은 종목의 '{0}'을(를) 다루지 않습니다 (종목 리포트 화면을 쓰세요).",
                      "The ETF chat does not cover a stock's '{0}' (use the stock report)."),
    "that_stock": ("직전 답의 종목을 이어받지 못해 ETF 자체의 값으로 답했습니다.",
                   "The stock of the previous answer was not carried over: the ETF's own figure is given."),
    "count_in_cut": ("상위 {0}개 안에서만 세는 계산은 하지 못해 전체에서 셌습니다.",
                     "Counting within the top {0} is not computed: the whole set was counted."),
    "day_threshold": ("하루 {0} 이상 움직인 날만 세는 조건은 반영하지 못해 모든 상승(하락)일을 셌습니다.",
                      "The {0} daily-move bar was not applied: every up (down) session is counted."),
    "period": ("가격 도구가 '{0}' 기간을 받지 않아 '{1}' 기간으로 조회했습니다.",
               "The price tools do not take a '{0}' period, so '{1}' was used."),
    "unheld": ("'{0}'은(는) 이 워크벤치 데이터에 없어 답하지 못했습니다.",
               "'{0}' is not in this workbench's data and was not answered."),
    "as_of": ("ETF 챗은 과거 기준일({0}) 조회를 지원하지 않아 최신 데이터로 답했습니다.",
              "The ETF chat does not look up past dates ({0}): the latest data was used."),
    "advice_compared": ("어느 쪽을 살지는 판단하지 않습니다 (투자 권유는 하지 않습니다). 대신 두 ETF를 보수·수익률·순자산 사실로 비교했습니다.",
                        "Which one to buy is not judged here (no investment advice); the funds are compared on facts instead (fee, return, net assets)."),
    "set_why": ("ETF 묶음의 원인 대신 각 ETF의 수익률을 보였습니다. 한 ETF를 물으면 (예: 'KODEX 반도체 왜 떨어졌어?') 보유종목별 기여로 답합니다.",
                "Each ETF's return is shown rather than a reason for the group; ask about one ETF (e.g. 'why did KODEX 반도체 fall?') for its holdings' contributions."),
}  # fmt: skip


_MEASURE_ARG = ("set_measure", "etf_measure", "stock_measure")


def _text(plan: Plan, key: str, *args: str) -> str:
    if key in _MEASURE_ARG:  # 'dividend_yield' is written '배당수익률'
        args = tuple(measure_name(a, plan.lang) for a in args)
    return particles(_TEXTS[key][0 if plan.lang == "ko" else 1].format(*args))
