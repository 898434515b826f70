"""Named market events the documents and news refer to.

2025 events are real (tariff announcements, the 6.27 / 9.7 / 10.15 housing measures); events
dated 2026 are demo scenarios and say so in their titles.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True)
class ScenarioEvent:
    key: str
    day: date
    event_type: str  # policy | geopolitical
    theme: str
    title_ko: str
    summary_ko: str
    indicators: tuple[str, ...]  # macro series the event affects
    stocks: tuple[str, ...]  # security_ids the event affects


SCENARIO_EVENTS: tuple[ScenarioEvent, ...] = (
    ScenarioEvent("tariff-2025-04-02", date(2025, 4, 2), "geopolitical", "관세",
                  "미국 상호관세 발표",
                  "미국 정부가 주요 교역국에 대한 상호관세 부과 계획을 발표해 글로벌 증시 변동성이 급격히 커졌다.",
                  ("VIXCLS", "KR_USDKRW", "DGS10"), ("KR:005380", "KR:000270", "US:AAPL")),
    ScenarioEvent("tariff-pause-2025-04-09", date(2025, 4, 9), "geopolitical", "관세",
                  "미국 상호관세 90일 유예",
                  "미국이 상호관세 부과를 90일간 유예한다고 밝히면서 위험자산 선호가 빠르게 회복됐다.",
                  ("VIXCLS",), ("US:NVDA", "US:AAPL", "KR:005930")),
    ScenarioEvent("housing-2025-06-27", date(2025, 6, 27), "policy", "부동산",
                  "가계부채 관리 방안(6·27 대책)",
                  "수도권과 규제지역의 주택담보대출 한도를 최대 6억원으로 묶는 가계부채 관리 방안이 시행됐다.",
                  ("KR_BASE_RATE",), ("KR:105560", "KR:055550", "KR:000720")),
    ScenarioEvent("housing-2025-09-07", date(2025, 9, 7), "policy", "부동산",
                  "주택공급 확대 방안(9·7 대책)",
                  "정부가 수도권 신규 주택 공급을 늘리는 공급 확대 방안을 발표했다.",
                  (), ("KR:000720", "KR:006360", "KR:375500")),
    ScenarioEvent("housing-2025-10-15", date(2025, 10, 15), "policy", "부동산",
                  "주택시장 안정화 대책(10·15 대책)",
                  "서울 전역을 규제지역과 토지거래허가구역으로 지정하고 대출 규제를 강화하는 대책이 발표됐다.",
                  ("KR_BASE_RATE",), ("KR:105560", "KR:086790", "KR:000720")),
    ScenarioEvent("semis-2026-03-09", date(2026, 3, 9), "geopolitical", "반도체",
                  "반도체 수출 규제 우려 확산(데모 시나리오)",
                  "반도체 장비 수출 규제 강화 가능성이 제기되며 메모리 반도체 종목이 약세를 보였다(데모 시나리오).",
                  ("VIXCLS",), ("KR:005930", "KR:000660", "US:NVDA")),
    ScenarioEvent("housing-2026-04-14", date(2026, 4, 14), "policy", "부동산",
                  "수도권 공공주택 공급 가속 방안(데모 시나리오)",
                  "수도권 공공택지 조기 착공을 골자로 한 공급 가속 방안이 발표됐다(데모 시나리오).",
                  (), ("KR:000720", "KR:375500", "KR:294870")),
)  # fmt: skip
