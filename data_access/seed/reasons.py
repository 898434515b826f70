"""Why a single stock jumped: the phrases news articles use for each corporate event key."""

from __future__ import annotations

# key -> (Korean phrase, English phrase)
REASONS: dict[str, tuple[str, str]] = {
    "supply_contract": ("대규모 공급계약 체결 공시", "a large supply contract"),
    "hbm_order": ("HBM 관련 수주 확대 소식", "expanding HBM-related orders"),
    "ai_partnership": (
        "글로벌 빅테크와의 AI 협력 발표",
        "an AI partnership with a global tech giant",
    ),
    "guidance_up": ("실적 전망 상향", "raised earnings guidance"),
    "clinical_success": ("임상 2상 결과 긍정적 발표", "positive phase 2 trial data"),
    "tech_transfer": (
        "글로벌 제약사와 기술이전 계약 체결",
        "a licensing deal with a global drugmaker",
    ),
    "ship_order": ("LNG 운반선 대규모 수주", "a large LNG carrier order"),
    "defense_export": ("방산 수출 계약 체결", "a defense export contract"),
    "battery_contract": (
        "북미 완성차 업체와 소재 공급 계약",
        "a materials deal with a North American automaker",
    ),
    "buyback": ("자사주 매입·소각 결정", "a share buyback and cancellation"),
    "dividend_hike": ("배당 확대 발표", "a higher dividend"),
    "new_product": ("신제품 출시 기대감", "an upcoming product launch"),
    "grid_order": ("북미 전력망 변압기 수주", "a North American grid transformer order"),
    "content_hit": ("신작 흥행 기대감", "strong early reception of a new release"),
    "rights_offering": ("대규모 유상증자 결정", "a large rights offering"),
    "clinical_fail": ("임상 3상 주요 평가지표 미달", "a missed phase 3 endpoint"),
    "guidance_cut": ("실적 전망 하향", "a guidance cut"),
    "block_sale": ("대주주 지분 블록딜", "a block sale by a major shareholder"),
    "contract_cancel": ("공급계약 해지 공시", "a cancelled supply contract"),
    "regulation": ("규제 리스크 부각", "regulatory concerns"),
    "order_delay": ("수주 지연 우려", "concerns over delayed orders"),
    "price_cut": ("제품 가격 하락 우려", "concerns over falling product prices"),
    "downgrade": ("증권사 투자의견 하향", "an analyst downgrade"),
    "lawsuit": ("특허 소송 패소", "a lost patent lawsuit"),
}

_DEFAULT = (
    ["supply_contract", "buyback", "guidance_up", "new_product"],
    ["guidance_cut", "block_sale", "rights_offering", "downgrade"],
)

# sector -> (positive keys, negative keys)
SECTOR_REASONS: dict[str, tuple[list[str], list[str]]] = {
    "default": _DEFAULT,
    "반도체": (["hbm_order", "supply_contract", "ai_partnership", "guidance_up"],
              ["price_cut", "guidance_cut", "block_sale", "order_delay"]),
    "바이오": (["clinical_success", "tech_transfer"], ["clinical_fail", "rights_offering", "lawsuit"]),
    "의료기기": (["supply_contract", "new_product", "tech_transfer"], ["regulation", "guidance_cut"]),
    "2차전지": (["battery_contract", "supply_contract"], ["price_cut", "order_delay", "rights_offering"]),
    "조선": (["ship_order", "guidance_up"], ["order_delay", "block_sale"]),
    "방산": (["defense_export", "supply_contract"], ["order_delay", "block_sale"]),
    "전력기기": (["grid_order", "guidance_up"], ["order_delay", "downgrade"]),
    "금융": (["buyback", "dividend_hike"], ["regulation", "downgrade"]),
    "게임": (["content_hit", "new_product"], ["guidance_cut", "regulation"]),
    "엔터": (["content_hit", "guidance_up"], ["guidance_cut", "block_sale"]),
    "미디어": (["content_hit"], ["guidance_cut"]),
    "인터넷": (["ai_partnership", "buyback"], ["regulation", "guidance_cut"]),
    "소프트웨어": (["ai_partnership", "supply_contract"], ["guidance_cut", "downgrade"]),
}  # fmt: skip


def reason_text(key: str, lang: str) -> str:
    ko, en = REASONS[key]
    return ko if lang == "ko" else en
