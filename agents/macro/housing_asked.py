"""Which housing series a real-estate question asks for, in the order it names them.

The question's frame (the shared reading, agents/understanding) names the housing measures it
read ('매매가격지수' → house_price, '미분양' → unsold); the keywords below add the series the
frame has no measure for (deals: '실거래', '몇 건'). Both are read together, so two series asked
in one question are both answered:

    asked_series(route("서울 아파트 매매가격지수와 미분양 추이"))
    # → [house price index spec, unsold spec]
"""

from __future__ import annotations

import re

from agents.macro.derived import DEALS
from agents.macro.router import Route
from agents.understanding.coverage import nested_measure

Spec = tuple[tuple[str, ...], str, str, str, str]  # keywords, template, Korean, English, unit

PRICE_INDEX: Spec = ((), "re_price_index_window", "주택가격지수", "house price index", "")
RE_TEMPLATES: tuple[Spec, ...] = (  # keyword → (template, Korean label, English label, unit)
    (("전세", "jeonse"), "re_jeonse_window", "전세가율", "jeonse ratio", "%"),
    (("미분양", "unsold"), "re_unsold_window", "미분양", "unsold units", "호"),
    (("인허가", "permit"), "re_permits_window", "주택 인허가", "housing permits", "호"),
    (("실거래", "거래", "팔린", "매매가", "매매 가격", "중위", "평균가", "평균 가격", "median",
      "transaction", "deal", "몇 건", "건수", "매매 건", "최고가", "최저가", "신고가", "가장 비싼",
      "제일 비싼", "가장 싼", "제일 싼", "저렴"), DEALS,
     "실거래 중위가격",
     "median deal price", "원"),
)  # fmt: skip
FLOWS = ("re_permits_window",)  # housing series that add up over months (a stock does not)
BY_MEASURE = {"jeonse_ratio": "re_jeonse_window", "unsold": "re_unsold_window",
               "permits": "re_permits_window", "house_price": PRICE_INDEX[1]}  # fmt: skip
SPECS = {t[1]: t for t in (*RE_TEMPLATES, PRICE_INDEX)}
INDEX_WORDS = re.compile(r"지수|index|hpi")
DEAL_WORDS = re.compile(r"실거래|거래|건수|중위|deal|transaction")


def _keyword_hits(low: str) -> dict[str, int]:
    """Template → where its first keyword stands in the question."""
    hits = {t[1]: min(low.find(k) for k in t[0] if k in low)
            for t in RE_TEMPLATES if any(k in low for k in t[0])}  # fmt: skip
    if INDEX_WORDS.search(low) and not DEAL_WORDS.search(low):
        # '서울 아파트 매매가격지수' is the price index, not the deals '매매가' names
        hits.pop(DEALS, None)
    return hits


def asked_series(route: Route) -> list[Spec]:
    """The housing series asked, in the question's order; [] when it names none."""
    low = route.question.lower()
    at = _keyword_hits(low)
    inherited: list[str] = []
    for measure in route.frame.measures if route.frame else []:
        name = BY_MEASURE.get(measure.name)
        if name is None or name in at:
            continue
        if name == PRICE_INDEX[1] and DEALS in at and not INDEX_WORDS.search(low):
            continue  # '강남구 아파트값 실거래 평균': the price asked is the deals' price
        where = low.find(measure.surface.lower()) if measure.surface else -1
        if where >= 0:
            at[name] = where
        else:
            inherited.append(name)  # a follow-up keeps the previous turn's measure
    names = sorted(at, key=lambda n: at[n])
    if not names or (inherited and route.frame and nested_measure(route.frame)):
        names = inherited + names  # '둘 중 높은 곳의 미분양은?': the carried one picks
    return [SPECS[n] for n in dict.fromkeys(names)]
