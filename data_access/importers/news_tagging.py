"""Tag imported articles the way the demo news is tagged (data_access/seed/news_*.py).

    tagger = NewsTagger.load(conn)
    tagger.tag("삼성전자, 3분기 영업이익 9.1조…반도체 부진", "")
    # (['KR:005930'], ['반도체', 'IT', '실적'])

tickers: security_ids of the stocks named (stock names, English names and their aliases in
`entity_aliases`); themes: the named stocks' sector themes (`SECTOR_THEMES`, the demo's table),
'해외주식' for a US stock, then topic themes from keywords (금리, 물가, 환율, 실적, ...), the
same theme names the demo stream uses, so the opening script and the Macro screen group them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from data_access.importers.base import Conn
from data_access.seed.news_text import SECTOR_THEMES

# Topic theme -> words that file an article under it (the demo stream's topic themes).
TOPIC_THEMES: dict[str, tuple[str, ...]] = {
    "실적": ("실적", "영업이익", "순이익", "매출액", "어닝", "EPS", "잠정치", "earnings"),
    "금리": ("금리", "기준금리", "국채", "채권", "rate cut", "rate hike", "yield"),
    "물가": ("물가", "소비자물가", "CPI", "PCE", "인플레이션", "inflation"),
    "고용": ("고용", "실업률", "일자리", "취업자", "비농업", "payrolls", "unemployment"),
    "환율": ("환율", "원/달러", "원·달러", "원달러", "달러화", "엔화", "exchange rate"),
    "부동산": ("부동산", "아파트", "집값", "주택", "전세", "분양", "재건축"),
    "FOMC": ("FOMC", "연준", "파월", "Federal Reserve", "the Fed"),
    "한국은행": ("한국은행", "한은", "금통위", "금융통화위원회", "Bank of Korea"),
    "관세": ("관세", "tariff"),
    "ETF": ("ETF",),
    "리밸런싱": ("리밸런싱", "rebalanc"),
}
_PARTICLES = set("은는이가을를의도와과에로만")
_HANGUL = re.compile(r"[가-힣]")


@dataclass(frozen=True)
class _Name:
    text: str
    security_id: str


class NewsTagger:
    """Names and sectors of the stocks in the database, matched in title and body."""

    def __init__(self, names: list[_Name], sectors: dict[str, str]) -> None:
        self._names = sorted(names, key=lambda n: len(n.text), reverse=True)  # longest first
        self._sectors = sectors

    @classmethod
    def load(cls, conn: Conn) -> NewsTagger:
        stocks = conn.execute("SELECT security_id, name, name_en, sector FROM stocks").fetchall()
        aliases = conn.execute(
            "SELECT alias, target FROM entity_aliases WHERE kind = 'stock'"
        ).fetchall()
        names = [_Name(s["name"], s["security_id"]) for s in stocks if s["name"]]
        names += [_Name(s["name_en"], s["security_id"]) for s in stocks if s["name_en"]]
        names += [_Name(a["alias"], a["target"]) for a in aliases]
        usable = [n for n in names if len(n.text) >= (2 if _HANGUL.search(n.text) else 3)]
        return cls(usable, {s["security_id"]: s["sector"] or "" for s in stocks})

    def tickers(self, text: str) -> list[str]:
        found: list[str] = []
        masked = text
        for name in self._names:
            span = _find(masked, name.text)
            if span is None:
                continue
            masked = masked[: span[0]] + " " * (span[1] - span[0]) + masked[span[1] :]
            if name.security_id not in found:
                found.append(name.security_id)
        return found

    def tag(self, title: str, body: str) -> tuple[list[str], list[str]]:
        text = f"{title}\n{body}"
        tickers = self.tickers(text)
        themes: list[str] = []
        for sid in tickers:
            themes += SECTOR_THEMES.get(self._sectors.get(sid, ""), ())
            if sid.startswith("US:"):
                themes.append("해외주식")
        lowered = text.lower()
        for theme, words in TOPIC_THEMES.items():
            if any(w.lower() in lowered for w in words):
                themes.append(theme)
        return tickers, list(dict.fromkeys(themes))


def _find(text: str, name: str) -> tuple[int, int] | None:
    """Where `name` occurs as a name (not inside a longer word), or None."""
    if not _HANGUL.search(name):
        match = re.search(rf"(?<![A-Za-z0-9]){re.escape(name)}(?![A-Za-z0-9])", text)
        return match.span() if match else None
    start = text.find(name)
    while start >= 0:
        end = start + len(name)
        before = text[start - 1] if start else " "
        after = text[end] if end < len(text) else " "
        short = len(name) <= 2  # '메타', '비자': only as a word of their own
        if not short or (
            not _HANGUL.match(before) and (not _HANGUL.match(after) or after in _PARTICLES)
        ):
            return start, end
        start = text.find(name, start + 1)
    return None
