"""The review step's check: a report must explain every recent earnings surprise and every
event-day move above 5 %, with their numbers; a report that does not fails and is repaired.

    items = required_items(fundamentals, events, "ko", as_of=date(2026, 11, 20))
    missing = unexplained(analysis_text + recommendation_text, items)

An item counts as explained when the text holds its number (the surprise or the move in
percent, to the shown precision, either sign) and its date or quarter in a form people write
(2026-10-29, 10월 29일, 10/29, Oct 29, 2026Q3, 3분기). The repair first asks the model again
with the missing items (model mode), then appends the template sentences for what is still
missing, so a finished report never leaves them out.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Literal, TypedDict

from agents.stock.events import NewsEvent, needs_explaining
from agents.stock.fundamentals import Fundamentals
from agents.stock.sections import event_sentence, quarter_sentence
from agents.stock.state import Language
from data_access.seed.news_text import particles

RECENT_EARNINGS_DAYS = 90
PERCENT_TOLERANCE = 0.06  # percentage points: a figure rounded to one decimal still matches
_NUMBER = re.compile(r"(?<![\d.])[+\-−]?\d[\d,]*(?:\.\d+)?")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


class ReviewItem(TypedDict):
    key: str
    kind: Literal["earnings", "move"]
    percent: float  # the figure in percent (-6.74 for a -6.74 % move)
    anchors: list[str]  # any of these names the date or quarter
    sentence: str  # the template sentence that explains it


class ReviewCheck(TypedDict):
    passed: bool
    required: list[str]
    missing: list[str]  # unexplained in the text as written
    repaired_by: Literal["model", "template"] | None
    still_missing_after_model: list[str]


def date_forms(iso: str) -> list[str]:
    d = date.fromisoformat(iso)
    month = _MONTHS[d.month - 1]
    return [iso, f"{d.month}월 {d.day}일", f"{d.month}/{d.day}", f"{d.month:02d}/{d.day:02d}",
            f"{month} {d.day}", f"{d.day} {month}", f"{d.month}.{d.day}", f"{d.month:02d}.{d.day:02d}"]  # fmt: skip


def period_forms(period: str) -> list[str]:
    year, quarter = period.split("Q")
    return [
        period,
        f"{year} Q{quarter}",
        f"Q{quarter} {year}",
        f"{quarter}분기",
        f"{quarter}Q{year[2:]}",
    ]


def required_items(fu: Fundamentals | None, events: list[NewsEvent], lang: Language, *,
                   as_of: date) -> list[ReviewItem]:  # fmt: skip
    """The latest surprise when reported in the last 90 days, and every big event-day move."""
    items: list[ReviewItem] = []
    currency = fu["currency"] if fu else "KRW"
    if fu and fu["quarters"]:
        q = fu["quarters"][0]
        recent = date.fromisoformat(q["event_date"]) >= as_of - timedelta(days=RECENT_EARNINGS_DAYS)
        if recent and q["surprise"] is not None:
            items.append(ReviewItem(
                key=f"earnings:{q['period']}", kind="earnings", percent=q["surprise"] * 100,
                anchors=period_forms(q["period"]) + date_forms(q["event_date"]),
                sentence=quarter_sentence(q, currency, lang),
            ))  # fmt: skip
    for e in events:
        if needs_explaining(e) and e["move"] is not None and abs(e["move"]) > 0.05:
            days = {e["date"], e["move_date"] or e["date"]}
            items.append(ReviewItem(
                key=f"move:{e['move_date'] or e['date']}", kind="move", percent=e["move"] * 100,
                anchors=[form for d in sorted(days) for form in date_forms(d)],
                sentence=event_sentence(e, lang, currency),
            ))  # fmt: skip
    return items


def numbers_in(text: str) -> list[float]:
    out = []
    for token in _NUMBER.findall(text):
        try:
            out.append(float(token.replace(",", "").replace("−", "-")))
        except ValueError:
            continue
    return out


def explained(text: str, item: ReviewItem) -> bool:
    if not any(anchor in text for anchor in item["anchors"]):
        return False
    target = abs(item["percent"])
    return any(abs(abs(n) - target) <= PERCENT_TOLERANCE for n in numbers_in(text))


def unexplained(text: str, items: list[ReviewItem]) -> list[ReviewItem]:
    return [i for i in items if not explained(text, i)]


def repair_paragraph(items: list[ReviewItem], lang: Language) -> str:
    head = "**검토 보완** — 분석이 설명하지 않은 항목: " if lang == "ko" else (
        "**Review addition** — items the analysis left unexplained: ")  # fmt: skip
    return head + " / ".join(i["sentence"] for i in items) + "."


def review_note(check: ReviewCheck, lang: Language) -> str:
    """One sentence for the review section on what the check found and did."""
    n = len(check["required"])
    if check["passed"]:
        return (f"설명 점검: 최근 실적 서프라이즈와 5% 초과 이벤트 당일 변동 {n}건이 모두 분석에 설명되어 있습니다."
                if lang == "ko" else
                f"Explanation check: all {n} recent earnings surprises and >5% event-day moves are explained.")  # fmt: skip
    missing = ", ".join(check["missing"])
    by = {"model": "모델 재작성으로", "template": "템플릿 문장으로"}.get(
        check["repaired_by"] or "", ""
    )
    by_en = {"model": "by the model's rewrite", "template": "with template sentences"}.get(
        check["repaired_by"] or "", "")  # fmt: skip
    return (particles(f"설명 점검 실패: 분석이 {missing}을(를) 설명하지 않아 {by} 보완했습니다.")
            if lang == "ko" else
            f"Explanation check failed: the analysis left {missing} unexplained; repaired {by_en}.")  # fmt: skip
