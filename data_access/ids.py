"""Resolve any way of naming a stock or an ETF to one identifier.

    normalize_security_id("삼성전자") == normalize_security_id("005930") == "KR:005930"
    normalize_security_id("aapl") == normalize_security_id("애플") == "US:AAPL"
    normalize_etf_code("KODEX 200") == normalize_etf_code("069500") == "069500"

Order of attempts: exact identifier (security_id, 6-digit code, ticker), exact name (case- and
space-insensitive), a known alias (entity_aliases: Korean names of US stocks, former names,
renamed ETF brands), then pg_trgm similarity; None when nothing is close enough.
"""

from __future__ import annotations

import re
from typing import Any, Literal, TypedDict

from psycopg_pool import ConnectionPool

from data_access.errors import ToolInputError
from data_access.postgres import fetch_all, fetch_one

Kind = Literal["etf", "stock"]
MIN_SCORE = 0.3  # pg_trgm similarity below this is "nothing close"
_PREFIX_BONUS = 0.2  # a name that starts with the query beats one that merely resembles it

# Korean spellings of ETF brands, and renamed brands, mapped to the names in `etfs`.
_BRAND_SPELLINGS = {
    "코덱스": "KODEX", "타이거": "TIGER", "아리랑": "ARIRANG", "케이비스타": "KBSTAR", "하나로": "HANARO",
    "에이스": "ACE", "킨덱스": "ACE", "KINDEX": "ACE", "코세프": "KOSEF", "솔": "SOL", "플러스": "ARIRANG",
    "PLUS": "ARIRANG", "라이즈": "KBSTAR", "RISE": "KBSTAR", "키움": "KOSEF", "KIWOOM": "KOSEF",
}  # fmt: skip
_SECURITY_ID = re.compile(r"^(KR|US)\s*:\s*(\S+)$", re.IGNORECASE)
_KR_CODE = re.compile(r"^A?(\d{6})(?:\.(?:KS|KQ))?$", re.IGNORECASE)
_TICKER = re.compile(r"^[A-Za-z][A-Za-z.\-]{0,9}$")


class Suggestion(TypedDict):
    kind: str
    id: str  # security_id or ETF code
    code: str
    name: str
    score: float


def normalize_security_id(text: str, pool: ConnectionPool | None = None) -> str | None:
    """The security_id ('KR:005930', 'US:AAPL') a code, ticker, name or alias refers to."""
    query = _clean(text)
    if not query:
        return None
    match = _SECURITY_ID.match(query)
    if match:
        country, native = match.group(1).upper(), match.group(2)
        code = native.upper() if country == "US" else native
        found = _stock_by_code(country, code, pool)
        if found:
            return found
        query = native
    kr = _KR_CODE.match(query)
    if kr:
        return _stock_by_code("KR", kr.group(1), pool)
    if _TICKER.match(query):
        found = _stock_by_code("US", query.upper().replace("-", "."), pool)
        if found:
            return found
    exact = _exact_stock(query, pool)
    if exact:
        return exact
    best = suggest_similar(query, "stock", limit=1, pool=pool)
    return best[0]["id"] if best and best[0]["score"] >= MIN_SCORE else None


def normalize_etf_code(text: str, pool: ConnectionPool | None = None) -> str | None:
    """The 6-digit code of the ETF a code or (possibly misspelt, re-branded) name refers to."""
    query = _clean(text)
    if not query:
        return None
    kr = _KR_CODE.match(query)
    if kr:
        row = fetch_one("SELECT code FROM etfs WHERE code = %s", (kr.group(1),), pool=pool)
        return str(row["code"]) if row else None
    for candidate in dict.fromkeys([query, _canonical_brand(query)]):
        row = fetch_one(
            "SELECT code FROM etfs WHERE lower(replace(name, ' ', '')) = lower(replace(%(q)s, ' ', ''))"
            " UNION ALL SELECT target FROM entity_aliases WHERE kind = 'etf'"
            " AND lower(replace(alias, ' ', '')) = lower(replace(%(q)s, ' ', '')) LIMIT 1",
            {"q": candidate},
            pool=pool,
        )
        if row:
            return str(row["code"])
    best = suggest_similar(query, "etf", limit=1, pool=pool)
    return best[0]["id"] if best and best[0]["score"] >= MIN_SCORE else None


def suggest_similar(
    text: str, kind: Kind, limit: int = 5, pool: ConnectionPool | None = None
) -> list[Suggestion]:
    """The nearest names of a kind, best first (for 'did you mean …' messages)."""
    if kind not in ("etf", "stock"):
        raise ToolInputError(f"kind must be 'etf' or 'stock', not {kind!r}")
    query = _clean(text)
    if not query:
        return []
    limit = max(1, min(int(limit), 50))
    if kind == "etf":
        rows = fetch_all(_ETF_SIMILAR, {"q": _canonical_brand(query), "limit": limit}, pool=pool)
    else:
        rows = fetch_all(_STOCK_SIMILAR, {"q": query, "limit": limit}, pool=pool)
    return [_suggestion(kind, r) for r in rows if float(r["score"]) > 0]


def _suggestion(kind: str, row: dict[str, Any]) -> Suggestion:
    return Suggestion(kind=kind, id=str(row["id"]), code=str(row["code"]), name=str(row["name"]),
                      score=round(float(row["score"]), 4))  # fmt: skip


def _clean(text: str) -> str:
    return " ".join(str(text or "").split())


def _canonical_brand(query: str) -> str:
    head, _, rest = query.partition(" ")
    for spelling, brand in _BRAND_SPELLINGS.items():
        if head.upper() == spelling.upper():
            return f"{brand} {rest}".strip()
        if head.upper().startswith(spelling.upper()) and len(head) > len(spelling):
            return f"{brand} {head[len(spelling) :]} {rest}".strip()
    return query


def _stock_by_code(country: str, code: str, pool: ConnectionPool | None) -> str | None:
    row = fetch_one(
        "SELECT security_id FROM stocks WHERE country = %s AND code = %s",
        (country, code),
        pool=pool,
    )
    return str(row["security_id"]) if row else None


def _exact_stock(query: str, pool: ConnectionPool | None) -> str | None:
    """Exact (case- and space-insensitive) name, English name or alias; largest company wins."""
    row = fetch_one(
        "SELECT security_id FROM ("
        " SELECT security_id, 0 AS pref FROM stocks WHERE lower(replace(name, ' ', '')) = lower(replace(%(q)s, ' ', ''))"
        " UNION ALL SELECT security_id, 1 FROM stocks WHERE lower(name_en) = lower(%(q)s)"
        " UNION ALL SELECT target, 2 FROM entity_aliases WHERE kind = 'stock'"
        "   AND lower(replace(alias, ' ', '')) = lower(replace(%(q)s, ' ', ''))"
        ") m ORDER BY pref, security_id LIMIT 1",
        {"q": query},
        pool=pool,
    )
    return str(row["security_id"]) if row else None


# Similarity over names and aliases, spaces ignored; prefix matches get a bonus and ties go to
# the larger company (latest close x shares), so '삼성' suggests 삼성전자 first.
_STOCK_SIMILAR = f"""
WITH q AS (SELECT lower(%(q)s::text) AS q, lower(replace(%(q)s::text, ' ', '')) AS qn),
scored AS (
    SELECT s.security_id, greatest(
        similarity(lower(s.name), q.q), similarity(lower(replace(s.name, ' ', '')), q.qn),
        similarity(lower(coalesce(s.name_en, '')), q.q), similarity(lower(s.code), q.q),
        0.9 * word_similarity(q.qn, lower(replace(s.name, ' ', ''))))
        + CASE WHEN starts_with(lower(replace(s.name, ' ', '')), q.qn) THEN {_PREFIX_BONUS} ELSE 0 END AS score
    FROM stocks s, q
    UNION ALL
    SELECT a.target, similarity(lower(a.alias), q.q)
        + CASE WHEN starts_with(lower(replace(a.alias, ' ', '')), q.qn) THEN {_PREFIX_BONUS} ELSE 0 END
    FROM entity_aliases a, q WHERE a.kind = 'stock'
),
best AS (SELECT security_id, max(score) AS score FROM scored GROUP BY security_id
         ORDER BY score DESC LIMIT 50)
SELECT s.security_id AS id, s.code, s.name, least(b.score, 1.0) AS score
FROM best b JOIN stocks s USING (security_id)
LEFT JOIN LATERAL (SELECT close FROM stock_prices p WHERE p.security_id = s.security_id
                   ORDER BY trade_date DESC LIMIT 1) p ON true
ORDER BY b.score DESC, coalesce(p.close, 0) * coalesce(s.shares_outstanding, 0) DESC, s.security_id
LIMIT %(limit)s
"""

_ETF_SIMILAR = f"""
WITH q AS (SELECT lower(%(q)s::text) AS q, lower(replace(%(q)s::text, ' ', '')) AS qn),
scored AS (
    SELECT e.code, greatest(similarity(lower(e.name), q.q), similarity(lower(replace(e.name, ' ', '')), q.qn),
                            0.9 * word_similarity(q.qn, lower(replace(e.name, ' ', ''))))
        + CASE WHEN starts_with(lower(replace(e.name, ' ', '')), q.qn) THEN {_PREFIX_BONUS} ELSE 0 END AS score
    FROM etfs e, q
    UNION ALL
    SELECT a.target, similarity(lower(a.alias), q.q)
    FROM entity_aliases a, q WHERE a.kind = 'etf'
),
best AS (SELECT code, max(score) AS score FROM scored GROUP BY code ORDER BY score DESC LIMIT 50)
SELECT e.code AS id, e.code, e.name, least(b.score, 1.0) AS score
FROM best b JOIN etfs e USING (code)
LEFT JOIN LATERAL (SELECT net_assets FROM etf_prices p WHERE p.etf_code = e.code
                   ORDER BY trade_date DESC LIMIT 1) p ON true
ORDER BY b.score DESC, coalesce(p.net_assets, 0) DESC, e.code
LIMIT %(limit)s
"""
