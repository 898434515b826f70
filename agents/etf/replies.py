"""Answers the ETF planner gives without a tool: definitions from the bundled glossary, and
plain statements of what it cannot answer — with what it understood and the nearest question
it can answer, so nothing is silently answered as another question."""

from __future__ import annotations

from agents.etf import answer_templates as tpl
from agents.etf.intents import Plan
from data_access.seed.news_text import particles

_SCOPE = {  # why a question outside the data is not answered: (Korean, English)
    "forecast": ("미래 가격 예측이나 매수·매도 추천은 하지 않습니다 (데이터로 확인할 수 없는 답입니다).",
                 "I do not forecast prices or recommend trades (the data cannot back such an answer)."),
    "unheld_assets": ("'{0}'은(는) 이 워크벤치 데이터에 없습니다 (국내 ETF·종목 데이터만 있습니다).",
                      "'{0}' is not in this workbench's data (Korean ETFs and stocks only)."),
    "chit_chat": ("ETF 데이터와 관계없는 질문에는 답하지 않습니다.",
                  "I only answer questions about the ETF data."),
    "realtime": ("실시간 호가·체결 데이터는 없습니다 (일별 종가·NAV 데이터만 있습니다).",
                 "There are no real-time quotes or trades here (daily closes and NAV only)."),
}  # fmt: skip


def definition(plan: Plan) -> str:
    from agents.understanding.glossary import entry_for  # the glossary loads on first use

    surfaces = [m.surface for m in plan.frame.measures]
    entry = entry_for(surfaces, plan.question)
    if entry is None:
        if plan.lang == "ko":
            return ("이 용어는 내장 용어집에 없어 정의를 드릴 수 없습니다. 용어집에 있는 예: 총보수, "
                    "순자산총액, 괴리율, 추적오차, 레버리지, 인버스.")  # fmt: skip
        return ("This term is not in the bundled glossary. Terms it has include expense ratio, net "
                "assets, tracking error, leverage and inverse ETFs.")  # fmt: skip
    if plan.lang == "ko":
        return (f"**{entry.term_ko} ({entry.term_en})** — {entry.definition_ko}\n\n"
                f"데이터에서 읽는 법: {entry.in_data_ko}\n\n출처: 내장 용어집 `glossary:{entry.id}`")  # fmt: skip
    return (f"**{entry.term_en} ({entry.term_ko})** — {entry.definition_en}\n\n"
            f"In this data: {entry.in_data_en}\n\nSource: bundled glossary `glossary:{entry.id}`")  # fmt: skip


def declined(plan: Plan) -> str:
    kind, _, what = (plan.decline_reason or "scope:").partition(":")
    if kind == "not_found":
        reason = ("질문한 종목을 데이터에서 찾지 못했습니다 (국내·미국 주요 종목만 있습니다). 종목명을 "
                  "데이터에 있는 그대로 쓰거나 코드로 물어보세요." if plan.lang == "ko"
                  else "The stock asked about is not in the data (major Korean and US stocks only).")  # fmt: skip
    elif kind == "measure":
        reason = (f"'{what}'은(는) 이 워크벤치 데이터에 없어 답할 수 없습니다." if plan.lang == "ko"
                  else f"'{what}' is not in this workbench's data, so I cannot answer it.")  # fmt: skip
    else:
        words = _SCOPE.get(what, _SCOPE["chit_chat"])
        phrase = next((n.split(":", 2)[2] for n in plan.frame.notes
                       if n.startswith("out_of_scope:")), "")  # fmt: skip
        reason = words[0 if plan.lang == "ko" else 1].format(phrase)
    return particles(reason) + "\n\n" + particles(nearest(plan))


def unsupported(plan: Plan) -> str:
    frame = plan.frame
    useful = frame.entities or frame.measures or frame.operation.kind != "lookup"
    understood = frame.summary_ko() if useful else ""
    head = "" if not understood else (
        f"질문에서 이해한 내용({understood})으로는 답을 계산할 수 없습니다." if plan.lang == "ko"
        else f"What I understood ({understood}) is not something I can compute.")  # fmt: skip
    return (head + "\n\n" if head else "") + tpl.unsupported(plan.lang)


def nearest(plan: Plan) -> str:
    """The nearest question this screen can answer, built from the entities it recognized."""
    ko = plan.lang == "ko"
    if plan.etfs:
        name = plan.etfs[0].name
        example = f"{name} 최근 3개월 가격 추이" if ko else f"{name} price over 3 months"
    elif plan.stocks:
        name = plan.stocks[0].name
        example = f"{name}을(를) 가장 많이 담은 ETF" if ko else f"Which ETFs hold the most {name}?"
    elif plan.tags:
        name = plan.tags[0].name
        example = f"{name} ETF 중 보수가 가장 낮은 3개" if ko else f"The 3 cheapest {name} ETFs"
    else:
        example = "반도체 ETF 중 6개월 수익률 상위 3개" if ko else "Top 3 semiconductor ETFs by 6-month return"  # fmt: skip
    return (f"대신 답할 수 있는 질문 예: '{example}'" if ko
            else f"A question I can answer instead: '{example}'")  # fmt: skip
