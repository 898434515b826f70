"""What the Macro planner understood and could not do: the frame as the trace's first step,
plain declines for series and regions we do not hold, and `partial` when an operation of the
question (a ranking, a filter, a sum) is beyond the offline templates."""

from __future__ import annotations

from agents.macro.deals import price_band
from agents.macro.derived import FILTERED, SPAN_YOY, growth_window, window_asked
from agents.macro.domain import regions_summed
from agents.macro.indices import all_indices_held
from agents.macro.market_questions import asks_universe_changes, ranking_measure
from agents.macro.router import Route
from agents.understanding import QuestionFrame
from agents.understanding.coverage import COMPOSED, account
from agents.understanding.frame import HOUSING_MEASURES
from agents.understanding.glossary import load_glossary
from agents.understanding.history import FOLLOWUP_KEY, followup_payload
from agents.understanding.vocabulary import find_phrases, unheld_places, vocabulary
from data_access.contracts import AgentAnswer
from data_access.seed.news_text import particles

_HELD_KO = (
    "보유 지표: 한국·미국 기준금리, 소비자물가, 실업률, 미국 2년·10년 국채금리, VIX, 원/달러 환율, "
    "지수(코스피·코스닥·S&P 500·나스닥·다우), 비트코인, WTI 원유"
)
_HELD_EN = ("Series held: Korean and US policy rates, CPI and unemployment, US 2- and 10-year "
            "yields, VIX, the KRW/USD rate, index levels (KOSPI, KOSDAQ, S&P 500, Nasdaq, Dow), "
            "bitcoin and WTI crude")  # fmt: skip


def _unheld(frame: QuestionFrame) -> list[str]:
    """What the question asks that the data does not hold: assets, and quotes ('호가')."""
    return [n.split(":", 2)[2] for n in frame.notes
            if n.startswith(("out_of_scope:unheld_assets", "out_of_scope:realtime"))]  # fmt: skip


def decline_text(frame: QuestionFrame | None, route: Route) -> str | None:
    """A question about data we do not hold (and nothing we do): what is missing, what we hold."""
    if frame is None:
        return None
    unheld = _unheld(frame)
    forecast = [n for n in frame.notes if n.startswith("out_of_scope:forecast")]
    missing = frame.unknown_words + unheld
    # a series read from a region and a topic word ('미국 … 물가') stands in for the region; it
    # does not make 'PCE 물가' a held question
    regions = {(e.start, e.end) for e in frame.of("region")}
    named = [e for e in frame.of("series") if (e.start, e.end) not in regions]
    held = named or frame.of("stock") or frame.of("index") or frame.of("sector")
    # a country we hold no series for asked beside one we do ('한국과 일본 기준금리'): the
    # region-and-topic series is a real part of the question; Korea's is answered, Japan's said
    countries = {k for k in vocabulary()["unheld_regions"] if k != "기타 지역"}
    if frame.of("series") and any(w in countries for w in missing):
        held = frame.of("series")
    ko = route.language == "ko"
    if any(n.startswith("out_of_scope:chit_chat") for n in frame.notes):
        return None  # not finance at all: the GeneralKnowledge route says so (or a model answers)
    if any(n.startswith("out_of_scope:general") for n in frame.notes):
        return ("사람·기관에 대한 일반 지식 질문은 데이터로 답하지 않습니다 (오프라인 모드). 모델을 "
                "설정하면 GeneralKnowledge 에이전트가 답합니다." if ko else "General-knowledge "
                "questions about people or institutions are not answered from data offline; with a "
                "model configured the GeneralKnowledge agent answers them.")  # fmt: skip
    if forecast:
        return ("특정 수치를 예측하거나 맞히는 답은 드리지 않습니다 (데이터로 뒷받침할 수 없습니다). "
                "대신 최근 추이와 관련 뉴스·이벤트 근거를 물어보세요 (예: '원달러 환율 최근 3개월 추이와 원인')."
                if ko else "I do not forecast values (the data cannot back it). Ask for the recent "
                "trend and the evidence instead (e.g. 'KRW/USD over 3 months and why').")  # fmt: skip
    if _unknown_stock(frame, route) and not unheld:  # '닛케이 지수' is an index we lack
        return (
            "질문한 종목을 데이터에서 찾지 못했습니다 (국내·미국 주요 종목만 있습니다). 종목명이나 "
            "코드(예: 005930, NVDA)로 물어보세요."
            if ko
            else "The stock asked about is not in the "
            "data (major Korean and US stocks only). Ask by name or code (e.g. 005930, NVDA)."
        )
    if not missing or held or route.real_estate_regions:
        return None  # what is held is answered; the rest is said by unanswered()
    if frame.operation.kind == "define" and all(load_glossary().lookup(w) for w in missing):
        return None  # '신용 스프레드가 뭐야': defined from the glossary, which says it is not held
    names = ", ".join(dict.fromkeys(missing))
    housing = any(m.name in HOUSING_MEASURES for m in frame.measures)
    places = [w for w in dict.fromkeys(missing) if w in unheld_places()["기타 지역"]]
    if places and (housing or "real_estate" in route.target_agents):
        # '경남 전세가율', '용산구 실거래': a region the housing data does not hold
        held_regions = ", ".join(
            s["key"] for s in vocabulary()["re_regions"] if not s.get("members")
        )
        names = ", ".join(places)
        return (f"'{names}'의 부동산 데이터는 이 워크벤치에 없어 답할 수 없습니다. 보유 지역: {held_regions}."
                if ko else f"There is no housing data on '{names}' in this workbench. Regions "
                f"held: {held_regions}.")  # fmt: skip
    if ko:
        return (f"'{names}'에 대한 데이터는 이 워크벤치에 없어 답할 수 없습니다. {_HELD_KO}. "
                "대신 답할 수 있는 질문 예: '미국 CPI 전년 동월 대비', '장단기 금리차'.")  # fmt: skip
    return (
        f"There is no data on '{names}' in this workbench, so I cannot answer. {_HELD_EN}. "
        "Questions I can answer instead: 'US CPI year over year', 'the 10y-2y spread'."
    )


def _unknown_stock(frame: QuestionFrame, route: Route) -> bool:
    """Routed to Equity alone with nothing it could look up, or a company named that we do not
    hold ('쿠팡 주가 왜 떨어졌어?': the graph's market events would answer another question)."""
    if any(n.startswith("unheld_company:") for n in frame.notes) and not (
        route.matched_security_ids or frame.of("series") or route.indicator_codes
    ):
        return True
    targets = set(route.target_agents)
    nothing = not (route.matched_security_ids or route.market_words or frame.of("series")
                   or route.indicator_codes or route.real_estate_regions
                   or ranking_measure(frame) or asks_universe_changes(route.question))  # fmt: skip
    return (
        "equity" in targets
        and targets <= {"equity", "ontology"}
        and nothing
        and (frame.operation.kind != "define")
        and not route.graph_need
    )


def decline_route(frame: QuestionFrame | None, route: Route) -> Route:
    """A declined question is still routed to the domain it asks about (the routing KPI):
    '중국 PMI' is a Macro question we cannot answer, not a general one; '쿠팡 왜 떨어졌어?' an
    Equity one."""
    if frame is not None and any(n.startswith("unheld_company:") for n in frame.notes):
        # routed as a held stock would be: its move (SQL), and with a why its reasons (graph)
        why = bool(find_phrases(frame.question.lower(), {"why": vocabulary()["why"]}))
        return route.model_copy(update={"target_agents": ["equity"], "intent": "equity",
                                        "tool_mode": "parallel" if why else "single",
                                        "sql_need": True, "graph_need": why})  # fmt: skip
    if frame is None:
        return route
    domains = vocabulary()["unheld_domain"]
    assets = _unheld(frame)
    named = next((domains[w] for w in assets if w in domains), None)  # '닛케이 지수': Equity's
    if route.tool_mode != "llm_direct" and named is None:
        return route
    domain = named or next((domains.get(w, "macro") for w in frame.unknown_words), "macro")
    agent = {"etf": "equity"}.get(domain, domain)
    return route.model_copy(update={"target_agents": [agent], "tool_mode": "single",
                                    "intent": agent, "sql_need": True})  # fmt: skip


_MONTHLY_HOUSING = frozenset({"house_price", "jeonse_ratio", "unsold", "permits"})


def unanswered(frame: QuestionFrame | None, route: Route) -> list[str]:
    """Parts of the frame the offline templates do not compute (said in the answer)."""
    if frame is None or route.tool_mode == "llm_direct":
        return []
    ko, op, out = route.language == "ko", frame.operation, []
    ranked_here = op.kind == "rank" and (frame.of("sector") or "real_estate" in route.target_agents
                                         or ranking_measure(frame)
                                         or asks_universe_changes(route.question))  # fmt: skip
    # a threshold over one series' window ('1400원 넘은 적') is counted by derived.threshold_days
    counted = window_asked(frame)  # '2% 이상 떨어진 날 며칠?': the window's days over the bar
    # a series' or region's bar is marked where it is computed (derived, rankings: FILTERED);
    # '10억 이상 거래': the deals' price band (deals.deal_filter)
    filtered_here = FILTERED in frame.notes or (
        op.kind == "filter"
        and op.threshold is not None
        and (
            (price_band(frame) is not None and "real_estate" in route.target_agents)
            or (counted is not None and counted.threshold is not None)
        )  # fmt: skip
    )
    # a window's sum is window_answer's; the regions' counts are added by the housing agent
    summed_here = (window_asked(frame) is not None or frame.span is not None  # '작년 합계'
                   or regions_summed(frame, route.real_estate_regions)
                   or (op.aggregate == "count" and FILTERED in frame.notes)  # the bar's count
                   or (op.aggregate == "sum" and COMPOSED in frame.notes))  # a ranking's total  # fmt: skip
    if (op.kind in ("filter", "rank") and not (ranked_here or filtered_here)) or (
        op.aggregate in ("sum", "count") and not summed_here):  # fmt: skip
        out.append("이 질문의 조건·순위·합계 계산은 Macro 오프라인 플래너가 하지 않아 각 지표 값만 보여 줍니다."
                   if ko else "Filters, rankings and sums across series are not computed offline; "
                   "each series is shown instead.")  # fmt: skip
    # '6개월 전보다 얼마나 늘었어?', '1년 전보다 얼마나 내렸어?': one series against itself
    moved = (frame.period is not None or op.change_basis in ("yoy", "mom")) and len(
        frame.measures
    ) <= 1
    if (
        op.kind == "difference"
        and not moved  # one series against itself a period ago: the change is the difference
        and not summed_here  # '최고치와 최저치 차이': one series' range (window_answer)
        and COMPOSED not in frame.notes  # '가장 높은 지역과 가장 낮은 지역의 차이'
        and len(route.indicator_codes) + len(frame.of("index")) < 2  # '코스피와 코스닥 …'
        and not route.matched_security_ids
        and len(route.real_estate_regions) < 2  # '서울이랑 부산 전세가율 차이': two regions
    ):
        out.append("차이를 계산할 두 지표를 찾지 못했습니다." if ko
                   else "Two series to take the difference of were not found.")  # fmt: skip
    if (op.kind == "aggregate" and op.aggregate in ("avg", "sum") and op.change_basis in ("yoy", "mom")
            and frame.window is None and not growth_window(frame)
            and SPAN_YOY not in frame.notes):  # fmt: skip
        # '서울 아파트 평균 거래가 작년 대비': the average is given, its change on a year is not
        out.append("평균·합계의 전년·전월 대비 변화는 계산하지 않아 기간 값만 보였습니다." if ko
                   else "The change of an average or a total on a year or month before is not "
                   "computed; the period's figure is shown.")  # fmt: skip
    period = frame.period
    if (
        period
        and period.months < 1
        and frame.measure() in _MONTHLY_HOUSING
        and not route.indicator_codes
    ):  # '서울 아파트 매매가격지수 전주 대비': the housing series are monthly (deals are daily)
        out.append(f"부동산 지표는 월간이라 '{period.surface}' 기준으로는 계산할 수 없어 최근 달과 그 전 달을 비교했습니다."
                   if ko else f"Housing series are monthly: '{period.surface}' cannot be computed, "
                   "so the latest month is compared with the month before.")  # fmt: skip
    unheld = _unheld(frame)
    if frame.unknown_words or unheld:
        names = ", ".join(dict.fromkeys(frame.unknown_words + unheld))
        out.append(particles(f"'{names}'은(는) 데이터에 없어 답하지 못했습니다.") if ko
                   else f"'{names}' is not in the data and was not answered.")  # fmt: skip
    if frame.of("index") and not route.matched_security_ids and not all_indices_held(frame):
        proxies = {i["name"]: i.get("proxy_etf") for i in vocabulary()["indices"]}
        if any(proxies.get(w) for w in route.market_words) or route.market_words:
            out.append("시장 지수 자체의 시계열은 데이터에 없어 추종 ETF로 대신 보였습니다."
                       if ko else "Index levels are not in the data: its tracking ETF "
                       "stands in.")  # fmt: skip
    return out


def attach(answer: AgentAnswer, frame: QuestionFrame | None, notes: list[str],
           declined: bool) -> None:  # fmt: skip
    """The frame into the trace (first step) and payload; honest status."""
    if frame is None:
        return
    answer.payload["understanding"] = {"frame": frame.model_dump(mode="json"), "unanswered": notes}
    answer.payload[FOLLOWUP_KEY] = followup_payload(frame, [])
    general_skipped = any(r.get("status") == "skipped" for r in
                          answer.payload.get("agent_responses", {}).values())  # fmt: skip
    answer.payload["declined"] = declined or general_skipped
    if notes:
        answer.answer += "\n\n" + "\n".join(f"> ℹ️ {n}" for n in notes)
    if answer.status == "ok" and (notes or answer.payload["declined"]):
        answer.status = "partial"
    account(answer, frame)  # the first trace step; an unread decisive word is not 'ok'
