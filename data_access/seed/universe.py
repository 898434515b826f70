"""The stock universe: real KR and US stocks, plus synthetic KR stocks at market scale.

One DataFrame with the `stocks` table columns and the internal columns generators need
(industry, group, themes, starting price, size). Synthetic stocks have codes 990001+ (a range
no listed Korean company uses) and names starting with '가상' so nobody mistakes them for real.
"""

from __future__ import annotations

from datetime import date

import numpy as np
import pandas as pd

from data_access.seed import reference
from data_access.seed.params import ScaleConfig
from data_access.seed.sectors import SYNTHETIC_SECTOR_MIX

SYNTHETIC_KR_CODE_START = 990001

# Where a few real stocks end up at the as-of date; keeps famous names in realistic ranges.
_END_PRICE_TARGETS: dict[str, float] = {
    "KR:005930": 94_000, "KR:000660": 338_000, "KR:373220": 390_000, "KR:207940": 1_120_000,
    "KR:005380": 255_000, "KR:035420": 240_000, "KR:035720": 56_000, "KR:012450": 930_000,
    "KR:086520": 96_000, "KR:247540": 165_000, "KR:042700": 118_000, "KR:095610": 31_000,
    "KR:068270": 190_000, "KR:105560": 125_000,
    "US:AAPL": 268.0, "US:MSFT": 505.0, "US:NVDA": 186.0, "US:AMZN": 236.0, "US:GOOGL": 292.0,
    "US:META": 640.0, "US:TSLA": 420.0, "US:AVGO": 352.0, "US:PLTR": 172.0, "US:AMD": 232.0,
}  # fmt: skip
_AS_OF = date(2026, 11, 20)


def _path(*points: tuple[str, float]) -> list[tuple[date, float]]:
    return [(date.fromisoformat(d), p) for d, p in points]


# Price waypoints (date, close) the generated path passes through. Dates are fixed calendar
# days of the default 2026-11-20 window; with another as-of date only those inside apply.
PRICE_WAYPOINTS: dict[str, list[tuple[date, float]]] = {
    sid: [(_AS_OF, target)] for sid, target in _END_PRICE_TARGETS.items()
}
PRICE_WAYPOINTS["KR:005930"] = _path(  # monthly, so the brief's 55,000-100,000 range holds
    ("2025-01-31", 55_000),
    ("2025-02-28", 57_000),
    ("2025-04-09", 54_500),
    ("2025-05-30", 56_000),
    ("2025-06-30", 60_000),
    ("2025-07-31", 66_000),
    ("2025-08-29", 70_000),
    ("2025-09-30", 83_000),
    ("2025-10-31", 95_000),
    ("2025-11-28", 92_000),
    ("2025-12-30", 88_000),
    ("2026-01-30", 84_000),
    ("2026-02-27", 86_000),
    ("2026-03-31", 81_000),
    ("2026-04-30", 83_000),
    ("2026-05-29", 85_000),
    ("2026-06-30", 86_000),
    ("2026-07-31", 88_000),
    ("2026-08-31", 90_000),
    ("2026-09-30", 91_000),
    ("2026-10-30", 93_000),
    ("2026-11-20", 94_000),
)
PRICE_WAYPOINTS["KR:000660"] = _path(
    ("2025-04-09", 168_000),
    ("2025-07-31", 245_000),
    ("2025-11-03", 385_000),
    ("2026-03-31", 305_000),
    ("2026-11-20", 338_000),
)
PRICE_WAYPOINTS["US:NVDA"] = _path(
    ("2025-04-08", 96.0),
    ("2025-07-31", 177.0),
    ("2025-10-29", 205.0),
    ("2026-11-20", 186.0),
)

_BRANDS = (
    "한빛", "누리", "대양", "세진", "동방", "태성", "우진", "새한", "정우", "한결", "청우", "다온",
    "가온", "라온", "해솔", "보람", "은성", "진성", "서진", "해오름", "푸른", "하늘", "신영", "금강",
    "백두", "아라", "온누리", "한울", "미르", "나래", "별빛", "단우", "도담", "시온", "에덴", "하람",
    "윤슬", "다솜", "이룸", "여울", "태영", "동진", "삼우", "대명", "광명", "성원", "흥국", "명성",
)  # fmt: skip
_SECTOR_WORDS: dict[str, tuple[str, ...]] = {
    "반도체": ("반도체", "세미콘", "마이크로", "실리콘"), "IT하드웨어": ("전자", "테크", "일렉트릭", "디바이스"),
    "바이오": ("바이오", "제약", "파마", "바이오텍"), "의료기기": ("메디칼", "메디텍", "헬스케어"),
    "2차전지": ("에너지", "배터리", "머티리얼즈"), "기계": ("기계", "정밀", "엔지니어링", "로보틱스"),
    "화학": ("화학", "케미칼", "소재"), "소프트웨어": ("소프트", "시스템", "정보통신", "데이터"),
    "게임": ("게임즈", "엔터테인먼트", "플레이"), "인터넷": ("플랫폼", "네트웍스", "커머스"),
    "자동차": ("모터스", "오토텍", "차체"), "건설": ("건설", "개발", "산업개발"),
    "음식료": ("식품", "푸드", "F&B"), "유통": ("유통", "리테일", "상사"), "화장품": ("코스메틱", "뷰티"),
    "엔터": ("엔터", "뮤직", "스튜디오"), "미디어": ("미디어", "콘텐츠", "방송"), "철강": ("철강", "금속", "스틸"),
    "운송": ("해운", "물류", "로지스"), "금융": ("증권", "캐피탈", "인베스트"), "전력기기": ("전기", "전선", "파워"),
    "방산": ("디펜스", "에어로", "정밀기계"), "조선": ("중공업", "조선", "마린"), "에너지": ("에너지", "솔라", "가스"),
    "디스플레이": ("디스플레이", "광학", "옵틱스"), "섬유의복": ("패션", "섬유", "어패럴"),
    "통신": ("텔레콤", "통신", "모바일"), "레저": ("레저", "리조트", "투어"),
}  # fmt: skip

# Free-float ratios of low- or high-float names (index weights use float-adjusted caps).
_FLOAT = {
    "005930": 0.85, "000660": 0.78, "373220": 0.18, "207940": 0.25, "329180": 0.25,
    "009540": 0.60, "012450": 0.65, "003670": 0.35, "450080": 0.30, "247540": 0.50,
    "028260": 0.55, "032830": 0.40, "138040": 0.50, "015760": 0.45, "036460": 0.45,
    "024110": 0.35, "005380": 0.65, "000270": 0.60, "012330": 0.60, "086280": 0.40,
    "018260": 0.45, "402340": 0.65, "030200": 0.90, "105560": 0.95, "055550": 0.92,
    "086790": 0.92, "035420": 0.80, "035720": 0.70, "068270": 0.70,
}  # fmt: skip

STOCK_COLUMNS = [
    "security_id", "country", "code", "name", "name_en", "market", "sector", "currency",
    "shares_outstanding", "is_etf",
]  # fmt: skip


def build_stocks(config: ScaleConfig, rng: np.random.Generator) -> pd.DataFrame:
    """Every stock of the scale, KR first then US, with internal generator columns."""
    frames = [_real_kr(), _real_us()]
    synthetic_count = max(0, config.kr_stock_target - len(frames[0]))
    if synthetic_count:
        frames.insert(1, _synthetic_kr(synthetic_count, rng))
    stocks = pd.concat(frames, ignore_index=True)
    stocks["market_cap0"] = stocks["shares_outstanding"] * stocks["price0"]
    stocks["float_ratio"] = [
        _float_ratio(c, code, g, syn)
        for c, code, g, syn in zip(
            stocks["country"], stocks["code"], stocks["group"], stocks["synthetic"], strict=True
        )
    ]
    stocks["size_rank"] = (
        stocks.groupby("country")["market_cap0"].rank(ascending=False, method="first").astype(int)
    )
    return stocks


def _float_ratio(country: str, code: str, group: str, synthetic: bool) -> float:
    if country == "US":
        return 1.0
    if code in _FLOAT:
        return _FLOAT[code]
    return 0.6 if synthetic else 0.55 if group else 0.7


def _real_kr() -> pd.DataFrame:
    kr = reference.kr_stocks()
    return pd.DataFrame(
        {
            "security_id": "KR:" + kr["code"],
            "country": "KR",
            "code": kr["code"],
            "name": kr["name"],
            "name_en": kr["name_en"],
            "market": kr["market"],
            "sector": kr["sector"],
            "currency": "KRW",
            "shares_outstanding": kr["shares"].astype("int64"),
            "is_etf": False,
            "industry": kr["industry"],
            "group": kr["group"],
            "themes": kr["themes"],
            "price0": kr["price"].astype(float),
            "preferred": kr["name"].str.endswith("우"),
            "synthetic": False,
            "aliases": kr["aliases"],
            "name_ko": kr["name"],
        }
    )


def _real_us() -> pd.DataFrame:
    us = reference.us_stocks()
    aliases = us["name_ko"] + "|" + us["aliases"]
    return pd.DataFrame(
        {
            "security_id": "US:" + us["code"],
            "country": "US",
            "code": us["code"],
            "name": us["name"],
            "name_en": us["name"],
            "market": us["market"],
            "sector": us["sector"],
            "currency": "USD",
            "shares_outstanding": us["shares"].astype("int64"),
            "is_etf": False,
            "industry": us["industry"],
            "group": "",
            "themes": "",
            "price0": us["price"].astype(float),
            "preferred": False,
            "synthetic": False,
            "aliases": aliases.str.strip("|"),
            "name_ko": us["name_ko"],
        }
    )


def _synthetic_kr(count: int, rng: np.random.Generator) -> pd.DataFrame:
    sectors = list(SYNTHETIC_SECTOR_MIX)
    weights = np.array([SYNTHETIC_SECTOR_MIX[s] for s in sectors])
    chosen = rng.choice(len(sectors), size=count, p=weights / weights.sum())
    kospi = rng.random(count) < 0.38
    # Synthetic names: unique brand x sector-word combinations, numbered when they run out.
    names: list[str] = []
    used: set[str] = set()
    for i, sector_index in enumerate(chosen):
        words = _SECTOR_WORDS[sectors[sector_index]]
        base = f"가상{_BRANDS[rng.integers(len(_BRANDS))]}{words[rng.integers(len(words))]}"
        name = base if base not in used else f"{base}{i % 97 + 2}"
        while name in used:
            name = f"{base}{rng.integers(100, 999)}"
        used.add(name)
        names.append(name)
    # Small and mid caps: KOSPI names bigger on average, prices log-normal around 9,000 KRW.
    shares = np.where(kospi, rng.lognormal(16.6, 0.85, count), rng.lognormal(16.0, 0.7, count))
    price = np.clip(rng.lognormal(np.log(9000), 0.9, count), 600, 400_000)
    codes = [f"{SYNTHETIC_KR_CODE_START + i:06d}" for i in range(count)]
    sector_names = [sectors[i] for i in chosen]
    return pd.DataFrame(
        {
            "security_id": ["KR:" + c for c in codes],
            "country": "KR",
            "code": codes,
            "name": names,
            "name_en": [f"Synthetic {c}" for c in codes],
            "market": np.where(kospi, "KOSPI", "KOSDAQ"),
            "sector": sector_names,
            "currency": "KRW",
            "shares_outstanding": shares.astype("int64"),
            "is_etf": False,
            "industry": sector_names,
            "group": "",
            "themes": "",
            "price0": np.round(price, -1),
            "preferred": False,
            "synthetic": True,
            "aliases": "",
            "name_ko": names,
        }
    )


def stocks_table(stocks: pd.DataFrame) -> pd.DataFrame:
    """The rows of the `stocks` table."""
    return stocks[STOCK_COLUMNS].reset_index(drop=True)
