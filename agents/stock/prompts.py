"""Prompts for the model-written parts of the report: analysis, recommendation, review.

The model gets only the computed figures (JSON) and is told to use no other numbers; the
report around its text (snapshot, figures table, reasons, risks) is assembled from the data.
Being told is not enough: the writer checks every figure it returns (agents.model_checks) and
asks once more with `repair_messages` before removing what still does not match.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from agents.stock.state import Language, Message

Section = Literal["analysis", "recommendation", "review"]

_COMMON = (
    "You are an equity analyst writing one section of a stock report for Korean financial "
    "analysts. Use only the numbers in the JSON facts you are given; never invent prices, "
    "ratios or news. Percentages in the facts are fractions (0.0145 = 1.45%). "
    "Write plain Markdown paragraphs or bullets, no headings."
)
SYSTEM: dict[Section, str] = {
    "analysis": _COMMON + " Section: technical and fundamental analysis with the news it "
    "researched. Cover returns over the horizons, volatility, drawdown, moving averages, RSI, "
    "the 52-week range position and the P/E against the sector median; then the fundamentals "
    "(the last quarters' EPS actual vs estimate with the surprise in percent, the beat/miss "
    "streak, EPS growth, P/E and P/B against the sector and the stock's own history, dividend "
    "yield, the next earnings date); then every event in `events` with its date and the price "
    "reaction in percent (event day, next session). State each earnings surprise and each "
    "event-day move above 5% with its number and date. If the facts hold `must_explain`, your "
    "previous text (`previous_text`) left those items out: rewrite it so that each of them is "
    "explained with its numbers and date. 6-10 sentences.",
    "recommendation": _COMMON + " Section: recommendation. State the view given in the facts "
    "(overweight / neutral / underweight) and explain it with the listed reasons, which are "
    "weighed by pillar (technical, fundamental, event; `pillars` holds each weight and score), "
    "then list the risks. Every recent event must appear as a reason or a risk. Mention the "
    "calculator results where they help.",
    "review": _COMMON + " Section: reviewer's check. Say whether the recommendation follows "
    "from the figures, fundamentals and events, what data it rests on (sessions, peers, "
    "quarters, news events) and what is missing; `explanation_check` says whether the analysis "
    "explained every recent earnings surprise and large event-day move, and how it was repaired.",
}
LANGUAGE_RULE = {"ko": "Answer in Korean.", "en": "Answer in English."}
REPAIR_RULE = (
    "Your previous text (`previous_text`) states figures, dates or references that the facts do "
    "not hold (`unverified`). Rewrite the section without them: keep only numbers and dates "
    "that appear in the facts, and do not replace them with other invented ones."
)


def messages(section: Section, facts: dict[str, Any], lang: Language) -> list[Message]:
    return [
        Message(role="system", content=f"{SYSTEM[section]} {LANGUAGE_RULE[lang]}"),
        Message(role="user", content="Facts (JSON):\n" + json.dumps(
            facts, ensure_ascii=False, default=str, indent=1)),
    ]  # fmt: skip


def repair_messages(section: Section, facts: dict[str, Any], lang: Language, previous: str,
                    unverified: list[str]) -> list[Message]:  # fmt: skip
    """The one repair request after the check (agents.model_checks) found unbacked claims."""
    prompt = messages(section, {**facts, "previous_text": previous, "unverified": unverified}, lang)
    prompt[0]["content"] += " " + REPAIR_RULE
    return prompt
