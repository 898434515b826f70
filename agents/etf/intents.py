"""Intent recognition for the offline planner: what is asked, about which entities, over which period.

Rules are keyword sets over Korean and English phrasing, checked in a fixed order (the most
specific first). `detect_plan` never guesses an entity: what the lexicon did not recognize is
not in the plan, and an unrecognized question becomes the `unsupported` intent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from agents.understanding.lexicon import Lexicon, Mention

Intent = Literal[
    "compare", "similar", "holdings_changes", "etf_prices", "stock_prices", "two_stock_holders",
    "top_holders", "tag_cheapest", "list_tags", "manager_etfs", "etf_info", "stock_lookup",
    "unsupported",
]  # fmt: skip
Lang = Literal["ko", "en"]

KEYWORDS: dict[str, tuple[str, ...]] = {
    "compare": ("비교", "대비", " vs", "vs.", "compare", "versus", "차이"),
    "similar": ("비슷", "유사", "닮은", "대체할", "similar", "alike", "closest"),
    "changes": ("변화", "변동", "편입", "제외", "리밸런싱", "바뀐", "달라진", "늘어난", "줄어든",
                "change", "added", "removed", "rebalanc"),
    "price": ("가격", "주가", "시세", "추이", "수익률", "종가", "거래량", "얼마", "올랐", "내렸",
              "price", "chart", "trend", "performance", "return", "perform"),
    "hold": ("보유", "담은", "담고", "편입한", "들고", "포함", "hold", "holding", "own", "contain"),
    "both": ("동시", "둘 다", "둘다", "모두", "함께", "같이", "both", " and "),
    "cheap": ("보수", "수수료", "저렴", "싼", "낮은", "cheap", "expense", "fee", "lowest", "low cost"),
    "tags": ("태그", "테마", "tag", "theme"),
    "list": ("목록", "리스트", "뭐", "무엇", "어떤", "종류", "알려", "list", "what", "which", "show"),
    "etf_word": ("etf",),
    "code": ("코드", "code", "ticker"),
}  # fmt: skip

_PERIODS: tuple[tuple[str, str], ...] = (
    (r"(1|한|일)\s*년|12\s*개월|1y\b|one year|1 year|past year|a year|yearly", "1y"),
    (r"(6|여섯)\s*개월|반\s*년|6m\b|6 months|six months|half", "6m"),
    (r"(3|세|석)\s*(개월|달)|분기|3m\b|3 months|three months|quarter", "3m"),
    (r"(1|한)\s*(개월|달)|1m\b|month", "1m"),
    (r"(1|한|일)\s*주|일주일|1w\b|week", "1w"),
    (r"하루|전일|전거래일|어제|1d\b|daily|yesterday|1\s*일\b|today|오늘", "1d"),
)


@dataclass
class Plan:
    intent: Intent
    lang: Lang
    question: str
    etfs: list[Mention] = field(default_factory=list)
    stocks: list[Mention] = field(default_factory=list)
    tags: list[Mention] = field(default_factory=list)
    managers: list[Mention] = field(default_factory=list)
    period: str | None = None


def language_of(question: str) -> Lang:
    return "ko" if re.search(r"[\uac00-\ud7a3]", question) else "en"


def question_language(question: str, mentions: list[Mention]) -> Lang:
    """The language of the words around the recognized names: a Korean product name in an
    English sentence ("expense ratio of TIGER 미국S&P500?") does not make it Korean. With
    fewer than two other words ("반도체 ETF") the whole question decides, as before."""
    rest = question
    for m in mentions:
        rest = re.sub(re.escape(m.name), " ", rest, flags=re.IGNORECASE)
    if re.search(r"[\uac00-\ud7a3]", rest) or len(re.findall(r"[A-Za-z]{2,}", rest)) < 2:
        return language_of(question)
    return "en"


def period_of(question: str) -> str | None:
    text = question.lower()
    for pattern, period in _PERIODS:
        if re.search(pattern, text):
            return period
    return None


def _has(text: str, group: str) -> bool:
    return any(k in text for k in KEYWORDS[group])


def detect_plan(question: str, lexicon: Lexicon) -> Plan:
    mentions = lexicon.recognize(question)
    plan = Plan(
        intent="unsupported",
        lang=question_language(question, mentions),
        question=question,
        etfs=[m for m in mentions if m.kind == "etf"],
        stocks=[m for m in mentions if m.kind == "stock"],
        tags=[m for m in mentions if m.kind == "tag"],
        managers=[m for m in mentions if m.kind == "manager"],
        period=period_of(question),
    )
    plan.intent = _intent(f" {question.lower()} ", plan)
    return plan


def _intent(text: str, plan: Plan) -> Intent:
    etfs, stocks = len(plan.etfs), len(plan.stocks)
    if etfs >= 2 and (_has(text, "compare") or etfs <= 3):
        return "compare"
    if etfs == 1:
        if _has(text, "similar"):
            return "similar"
        if _has(text, "changes"):
            return "holdings_changes"
        if _has(text, "price"):
            return "etf_prices"
        return "etf_info"
    if stocks >= 2 and (_has(text, "hold") or _has(text, "both") or _has(text, "etf_word")):
        return "two_stock_holders"
    if stocks == 1:
        if _has(text, "hold") or _has(text, "etf_word"):
            return "top_holders"
        if _has(text, "price"):
            return "stock_prices"
        return "stock_lookup"
    if plan.tags:
        return "tag_cheapest"
    if plan.managers:
        return "manager_etfs"
    if _has(text, "tags"):
        return "list_tags"
    return "unsupported"
