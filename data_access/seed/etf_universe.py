"""The ETF list: the real demo-scale ETFs (real codes and names), plus synthetic ETFs at market
scale. Synthetic ETFs have codes 980001+ and names ending in '(가상)'; only the demo list is real.
"""

from __future__ import annotations

from datetime import date, datetime

import numpy as np
import pandas as pd

from data_access.seed import reference
from data_access.seed.calendar import at
from data_access.seed.params import ScaleConfig

SYNTHETIC_ETF_CODE_START = 980001

# Themes for synthetic ETFs: (name fragment, basket spec, tags).
_THEMES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("반도체", "sector:반도체", ("반도체", "IT")),
    ("반도체소부장", "industry:반도체장비+반도체소재+후공정", ("반도체",)),
    ("2차전지", "theme:2차전지", ("2차전지",)),
    ("바이오", "industry:바이오", ("바이오", "헬스케어")),
    ("헬스케어", "sector:바이오+의료기기", ("헬스케어",)),
    ("K방산", "sector:방산", ("방산",)),
    ("조선", "sector:조선", ("조선",)),
    ("전력인프라", "sector:전력기기+유틸리티", ("전력인프라",)),
    ("로봇", "theme:로봇", ("로봇",)),
    ("원전", "theme:원전", ("원전",)),
    ("은행", "industry:은행", ("금융", "배당")),
    ("증권", "industry:증권", ("금융",)),
    ("고배당", "dividend:kr", ("배당",)),
    ("배당성장", "divgrowth:kr", ("배당",)),
    ("게임", "sector:게임", ("게임",)),
    ("인터넷플랫폼", "sector:인터넷+소프트웨어", ("인터넷",)),
    ("K컬처", "sector:엔터+미디어", ("미디어엔터",)),
    ("화장품", "sector:화장품", ("소비재",)),
    ("자동차", "sector:자동차", ("자동차",)),
    ("건설", "sector:건설", ("건설",)),
    ("코스닥글로벌", "index:kosdaq150", ("코스닥",)),
    ("코스피대형", "index:kr_large", ("대형주", "시장대표")),
    ("삼성그룹", "group:삼성", ("그룹주",)),
    ("SK그룹", "group:SK", ("그룹주",)),
    ("LG그룹", "group:LG", ("그룹주",)),
    ("현대차그룹", "group:현대차", ("그룹주", "자동차")),
    ("한화그룹", "group:한화", ("그룹주",)),
    ("미국S&P500", "us:all", ("미국S&P500", "해외주식")),
    ("미국나스닥100", "us:nasdaq", ("미국나스닥", "해외주식")),
    ("미국테크TOP10", "us:tech;n=10", ("미국나스닥", "해외주식", "IT")),
    ("미국반도체", "us:sector:반도체", ("반도체", "해외주식")),
    ("미국배당", "codes:KO+PEP+VZ+ABBV+MRK+CVX+HD+PM+AMGN+TXN+CSCO+XOM", ("배당", "해외주식")),
)
_SUFFIXES = ("", "TOP10", "액티브", "플러스", "핵심", "밸류체인", "Fn", "iSelect", "커버드콜", "TR")

ETF_COLUMNS = [
    "code", "name", "manager", "expense_ratio", "benchmark", "listed_date", "asset_class",
    "region", "updated_at",
]  # fmt: skip


def build_etfs(config: ScaleConfig, rng: np.random.Generator) -> pd.DataFrame:
    """Every ETF of the scale with its basket spec, tags, starting price and net assets."""
    real = reference.etfs()
    real["tags"] = real["tags"].apply(reference.split_list)
    real["net_assets0"] = real["net_assets_eok"].astype(float) * 1e8
    real["price0"] = real["price"].astype(float)
    real["synthetic"] = False
    real = real.drop(columns=["price", "net_assets_eok"])
    count = max(0, config.etf_target - len(real))
    if not count:
        return real.reset_index(drop=True)
    return pd.concat([real, _synthetic_etfs(count, set(real["name"]), rng)], ignore_index=True)


def _synthetic_etfs(count: int, taken: set[str], rng: np.random.Generator) -> pd.DataFrame:
    managers = reference.managers()
    brands = managers["brand"].tolist()
    # Bigger houses run more ETFs, as in the real market.
    weight = np.array([6 if b in ("KODEX", "TIGER") else 3 if b in ("ACE", "KBSTAR", "SOL") else 1.5
                       for b in brands])  # fmt: skip
    rows, used = [], set(taken)
    for i in range(count):
        m = int(rng.choice(len(brands), p=weight / weight.sum()))
        fragment, spec, tags = _THEMES[int(rng.integers(len(_THEMES)))]
        suffix = _SUFFIXES[int(rng.integers(len(_SUFFIXES)))]
        name = f"{brands[m]} {fragment}{suffix}(가상)"
        serial = 2
        while name in used:
            name, serial = f"{brands[m]} {fragment}{suffix}{serial}호(가상)", serial + 1
        used.add(name)
        options = ";n=10;cap=25" if suffix == "TOP10" else f";n={int(rng.integers(15, 41))};cap=20"
        if suffix == "액티브":
            options += ";active"
        us = spec.startswith(("us:", "codes:"))
        rows.append(
            {
                "code": f"{SYNTHETIC_ETF_CODE_START + i:06d}",
                "name": name,
                "manager": managers["name"].iloc[m],
                "expense_ratio": round(
                    float(rng.uniform(0.25, 0.8) if suffix == "액티브" else rng.uniform(0.05, 0.5)),
                    3,
                ),
                "benchmark": f"가상 {fragment} 지수",
                "listed_date": date(2019, 1, 2) + pd.Timedelta(days=int(rng.integers(0, 2100))),
                "asset_class": "equity",
                "region": "US" if us else "KR",
                "tags": list(tags),
                "basket": spec + ("" if ";" in spec else options),
                "price0": float(np.round(rng.lognormal(np.log(11000), 0.35), -1)),
                "net_assets0": float(rng.lognormal(np.log(3e10), 1.0)),
                "synthetic": True,
            }
        )
    return pd.DataFrame(rows)


def etfs_table(etfs: pd.DataFrame, as_of: date) -> pd.DataFrame:
    """`etfs` rows; updated_at is the as-of close (fixed, so checksums are reproducible)."""
    frame = etfs.copy()
    frame["listed_date"] = pd.to_datetime(frame["listed_date"]).dt.date
    updated: datetime = at(as_of, 18, 0, "Asia/Seoul")
    frame["updated_at"] = updated
    return frame[ETF_COLUMNS].sort_values("code").reset_index(drop=True)


def etf_tags_table(etfs: pd.DataFrame) -> pd.DataFrame:
    rows = [
        (code, tag) for code, tags in zip(etfs["code"], etfs["tags"], strict=True) for tag in tags
    ]
    frame = pd.DataFrame(sorted(set(rows)), columns=["etf_code", "tag"])
    return frame.reset_index(drop=True)


def managers_table(etfs: pd.DataFrame) -> pd.DataFrame:
    managers = reference.managers()
    used = managers[managers["name"].isin(set(etfs["manager"]))]
    return used[["name", "name_en"]].sort_values("name").reset_index(drop=True)


def tags_table(etfs: pd.DataFrame) -> pd.DataFrame:
    tags = reference.tags()
    used = {tag for tags in etfs["tags"] for tag in tags}
    missing = used - set(tags["name"])
    if missing:
        raise ValueError(f"ETF tags without a description in tags.csv: {sorted(missing)}")
    used_tags = tags[tags["name"].isin(used)]
    return used_tags[["name", "description"]].sort_values("name").reset_index(drop=True)
