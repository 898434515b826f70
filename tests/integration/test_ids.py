"""Identifier resolution against the seeded stocks/ETF tables (real PostgreSQL with pg_trgm).

Uses the `atlas_seed_a` database of test_seed.py (seeded here too if run alone).
"""

from __future__ import annotations

from typing import Any

import pytest
from psycopg_pool import ConnectionPool

from data_access.errors import ToolInputError
from data_access.ids import normalize_etf_code, normalize_security_id, suggest_similar
from data_access.seed import seed_if_missing
from tests.integration.test_seed import database_pool


@pytest.fixture(scope="module")
def pool(services: Any, settings: Any) -> ConnectionPool:
    pool = database_pool(services, settings, "atlas_seed_a")
    seed_if_missing("demo", pool=pool, settings=settings, project=False)
    return pool


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("KR:005930", "KR:005930"), ("kr:005930", "KR:005930"), ("005930", "KR:005930"),
        ("A005930", "KR:005930"), ("005930.KS", "KR:005930"), ("삼성전자", "KR:005930"),
        ("삼성 전자", "KR:005930"), ("  삼성전자 ", "KR:005930"), ("Samsung Electronics", "KR:005930"),
        ("AAPL", "US:AAPL"), ("aapl", "US:AAPL"), ("US:AAPL", "US:AAPL"), ("us:aapl", "US:AAPL"),
        ("Apple", "US:AAPL"), ("애플", "US:AAPL"), ("엔비디아", "US:NVDA"), ("brk-b", "US:BRK.B"),
        ("SK하이닉스", "KR:000660"), ("하이닉스", "KR:000660"), ("sk hynix", "KR:000660"),
        ("테스", "KR:095610"), ("095610", "KR:095610"), ("현대자동차", "KR:005380"), ("네이버", "KR:035420"),
        ("삼성엔지니어링", "KR:028050"), ("레고켐바이오", "KR:141080"),
    ],
)  # fmt: skip
def test_every_form_resolves_to_one_security_id(
    pool: ConnectionPool, text: str, expected: str
) -> None:
    assert normalize_security_id(text, pool) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("삼성전저", "KR:005930"),
        ("셀트리언", "KR:068270"),
        ("Appel", "US:AAPL"),
        ("에코프로 비엠", "KR:247540"),
    ],
)
def test_fuzzy_names_resolve(pool: ConnectionPool, text: str, expected: str) -> None:
    assert normalize_security_id(text, pool) == expected


@pytest.mark.parametrize(
    "text", ["", "   ", "999999", "KR:999999", "xyzzy", "없는회사이름입니다", "US:ZZZZZ"]
)
def test_nothing_close_gives_none(pool: ConnectionPool, text: str) -> None:
    assert normalize_security_id(text, pool) is None


def test_short_prefix_prefers_the_largest_company(pool: ConnectionPool) -> None:
    assert normalize_security_id("삼성", pool) == "KR:005930"
    names = [s["name"] for s in suggest_similar("삼성", "stock", limit=5, pool=pool)]
    assert names[0] == "삼성전자" and len(names) == 5 and all(n.startswith("삼성") for n in names)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("069500", "069500"), ("A069500", "069500"), ("KODEX 200", "069500"), ("kodex200", "069500"),
        ("코덱스 200", "069500"), ("TIGER 200", "102110"), ("타이거 미국S&P500", "360750"),
        ("PLUS 고배당주", "161510"), ("RISE 200", "148020"), ("KINDEX 200", "105190"),
        ("KODEX 반도처", "091160"), ("KODEX 인버스", "114800"),
    ],
)  # fmt: skip
def test_etf_codes_and_names(pool: ConnectionPool, text: str, expected: str) -> None:
    assert normalize_etf_code(text, pool) == expected


@pytest.mark.parametrize("text", ["999999", "없는ETF이름", "", "zzzz qqqq"])
def test_unknown_etfs_give_none(pool: ConnectionPool, text: str) -> None:
    assert normalize_etf_code(text, pool) is None


def test_suggestions_for_error_messages(pool: ConnectionPool) -> None:
    semis = suggest_similar("반도체", "etf", limit=3, pool=pool)
    assert {s["code"] for s in semis[:2]} == {"091160", "091230"}
    assert all(set(s) == {"kind", "id", "code", "name", "score"} for s in semis)
    assert semis == sorted(semis, key=lambda s: -s["score"])
    stocks = suggest_similar("하이닉스", "stock", pool=pool)
    assert stocks[0]["id"] == "KR:000660" and stocks[0]["kind"] == "stock"
    assert suggest_similar("", "stock", pool=pool) == []
    with pytest.raises(ToolInputError):
        suggest_similar("x", "bond", pool=pool)  # type: ignore[arg-type]
