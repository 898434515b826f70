"""A yes or no to a figure asked against a bar ('현대차 PBR이 1배보다 낮아?', 'KODEX 200 보수
0.1% 넘어?', '환율 지금 1400원 넘어?'), said first and the same way on every screen: the
figure alone leaves the analyst to do the comparison the question asked for."""

from __future__ import annotations

from agents.understanding.frame import QuestionFrame
from data_access.seed.news_text import josa


def asked_bar(frame: QuestionFrame, measure: str) -> tuple[str, float] | None:
    """The comparator and bar a frame asks of `measure` of one named subject, or None."""
    op = frame.operation
    if op.kind != "filter" or op.comparator is None or op.threshold is None:
        return None
    if op.filter_measure not in (None, measure):
        return None
    # the parser keeps an amount in 억 ('500조' is 5,000,000 억); the figures are in won
    # rounded: '9만원' read as 0.0009 억 is 90000.00000000001 won, which a close of 90,000 misses
    return op.comparator, round(op.threshold * (1e8 if op.threshold_unit == "억" else 1.0), 6)


def meets(value: float, comparator: str, bar: float) -> bool:
    return {">": value > bar, ">=": value >= bar, "<": value < bar, "<=": value <= bar,
            "=": value == bar}[comparator]  # fmt: skip


def verdict(subject: str, value: float, shown: str, comparator: str, bar_shown: str,
            bar: float, lang: str) -> str:  # fmt: skip
    """'아니요 — 현대차 PBR 1.11배: 1배 미만이 아닙니다.' (`shown` and `bar_shown` in the
    figure's own unit). Builtins and `josa` only: the ETF sandbox inlines it (SET_RENDERERS)."""
    met = meets(value, comparator, bar)
    if lang == "ko":
        word = {">": "초과", ">=": "이상", "<": "미만", "<=": "이하"}.get(comparator)
        if word is None:
            said = josa(bar_shown, "과/와") + (" 같습니다" if met else " 다릅니다")
        else:
            said = (
                f"{bar_shown} {word}입니다"
                if met
                else f"{bar_shown} {josa(word, '이/가')} 아닙니다"
            )
        return f"{'예' if met else '아니요'} — {subject} {shown}: {said}."
    word = {">": "above", ">=": "at least", "<": "below", "<=": "at most", "=": "equal to"}[
        comparator
    ]
    return f"{'Yes' if met else 'No'} — {subject} {shown} is {'' if met else 'not '}{word} {bar_shown}."
