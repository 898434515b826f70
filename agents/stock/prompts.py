"""Prompts for the model-written parts of the report: analysis, recommendation, review.

The model gets only the computed figures (JSON) and is told to use no other numbers; the
report around its text (snapshot, figures table, reasons, risks) is assembled from the data.
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
    "analysis": _COMMON + " Section: technical and fundamental analysis. Cover returns over "
    "the horizons, volatility, drawdown, moving averages, RSI, the 52-week range position and "
    "the P/E against the sector median, in 4-6 sentences.",
    "recommendation": _COMMON + " Section: recommendation. State the view given in the facts "
    "(overweight / neutral / underweight) and explain it with the listed reasons, then list "
    "the risks. Mention the calculator results where they help.",
    "review": _COMMON + " Section: reviewer's check. Say whether the recommendation follows "
    "from the figures, what data it rests on (sessions, peers, news) and what is missing.",
}
LANGUAGE_RULE = {"ko": "Answer in Korean.", "en": "Answer in English."}


def messages(section: Section, facts: dict[str, Any], lang: Language) -> list[Message]:
    return [
        Message(role="system", content=f"{SYSTEM[section]} {LANGUAGE_RULE[lang]}"),
        Message(role="user", content="Facts (JSON):\n" + json.dumps(
            facts, ensure_ascii=False, default=str, indent=1)),
    ]  # fmt: skip
