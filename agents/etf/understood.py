"""What the offline planner understood, attached to the answer: the frame as the trace's first
step ("이해한 질문"), the follow-up context for the next turn, and the honest status —
`partial` when part of the question could not be answered, `declined` when none of it could."""

from __future__ import annotations

import re

from agents.etf import answer_templates as tpl
from agents.etf.frame_codegen import out_of_window_text
from agents.etf.intents import Plan
from agents.understanding import QuestionFrame
from agents.understanding.coverage import POSITION, account, ordinal_position
from agents.understanding.history import FOLLOWUP_KEY, followup_payload
from agents.understanding.lexicon import Lexicon
from data_access.contracts import AgentAnswer

_CODE = re.compile(r"\(([0-9][0-9A-Z]{5})\)")


def understood(answer: AgentAnswer, plan: Plan, lexicon: Lexicon) -> None:
    """Attach the plan's frame to an answer in place (trace, payload, status)."""
    frame = plan.frame
    codes = list(dict.fromkeys(_CODE.findall(answer.answer)))
    # the funds an answer listed; with none, the one stock it named ('그 종목' is the next subject)
    stocks = [c for c in codes if c in lexicon.stocks]
    listed = [c for c in codes if c in lexicon.etfs] or (
        stocks if len(stocks) == 1 or frame.relation == "holdings" else []
    )  # a fund's holdings listed: the stocks, in order ('그 중 두 번째 종목')
    if plan.holdings_by and frame.operation.top_n == 1:
        listed = stocks[:1]  # '그 중 PBR 가장 낮은 종목': the one picked is the next subject
    if _counts_previous_set(frame):
        listed = list(frame.previous_result)  # the answer shows a count, the set is unchanged
    answer.payload["understanding"] = {"frame": frame.model_dump(mode="json"),
                                       "intent": plan.intent, "unanswered": plan.unanswered}  # fmt: skip
    answer.payload[FOLLOWUP_KEY] = followup_payload(frame, listed)
    declined = plan.intent in ("declined", "unsupported") or bool(plan.decline_reason)
    if plan.intent == "define" and "`glossary:" not in answer.answer:
        declined = True
    answer.payload["declined"] = declined
    missing = [n for n in plan.unanswered if n not in answer.answer]
    if missing and answer.status in ("ok", "partial"):
        answer.answer += "\n\n" + ("참고: " if plan.lang == "ko" else "Note: ") + " ".join(missing)
    if answer.status == "ok" and frame.reference is None and plan.position is None:
        _lead_with_position(answer, frame, lexicon)  # a composed plan picked the n-th itself
    if plan.scope_note and answer.status in ("ok", "partial"):
        answer.answer = f"⚠️ {plan.scope_note}\n\n{answer.answer}"  # before the figure it qualifies
    out_of_reach = bool(plan.as_of or plan.span) and answer.answer.startswith(
        out_of_window_text(plan)
    )
    if answer.status == "ok" and answer.answer.startswith(tpl.tool_failed(plan.lang)):
        answer.status = "error"  # the sandbox's code or a tool failed: no figure was given
    if answer.status == "ok" and tpl.NO_VALUES.match(answer.answer.split("\n", 1)[0]):
        answer.status = "partial"  # the set's figures came back empty: nothing was answered
    if answer.status == "ok" and (declined or plan.unanswered or plan.scope_note or out_of_reach):
        answer.status = "partial"  # out of reach: a past day older than the price tool's year
    account(answer, frame)  # the first trace step; an unread decisive word is not 'ok'


def _lead_with_position(answer: AgentAnswer, frame: QuestionFrame, lexicon: Lexicon) -> None:
    """'삼성전자 비중이 두 번째로 큰 ETF는?': the list answers it; its n-th item is said first."""
    asked = ordinal_position(frame.question)
    subjects = {e.key for e in frame.entities}  # '삼성전자(005930)를 보유한 ETF' names its subject
    codes = [c for c in dict.fromkeys(_CODE.findall(answer.answer)) if c not in subjects]
    if asked is None or asked[0] < 2 or len(codes) < asked[0]:
        return
    n, surface = asked
    code = codes[n - 1]
    name = lexicon.etfs.get(code) or (lexicon.stocks.get(code) or (code,))[0]
    lead = (f"{n}번째는 {name}({code})입니다." if frame.language == "ko"
            else f"Number {n} is {name} ({code}).")  # fmt: skip
    answer.answer = f"{lead}\n\n{answer.answer}"
    frame.notes.append(f"{POSITION}{n}:{surface}")  # the coverage reads it as the place asked


def _counts_previous_set(frame: QuestionFrame) -> bool:
    """'몇 개야?', 'count them' after a list: the same set, counted (not narrowed), so the next
    follow-up still has all of it, not only the codes an answer happened to show."""
    own = [e for e in frame.entities if not e.inherited]
    return (frame.reference == "subset" and frame.operation.aggregate == "count"
            and not own and frame.operation.comparator is None)  # fmt: skip
