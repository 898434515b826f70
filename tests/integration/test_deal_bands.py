"""Apartment deals by floor area and price band (issue 35, seed 004 §12.2-4): '강남구 전용 84㎡
실거래가 평균', '10억 이상 거래', '20억 미만' are answered offline over those deals only, the
band said in the answer and kept in the citation's filters. Truths are recomputed in SQL over
the dates each answer states."""

from __future__ import annotations

import re
from typing import Any

import pytest

from agents.macro.service import answer_question
from data_access.config import Settings
from data_access.figures import fmt_krw
from data_access.postgres import fetch_all

pytestmark = pytest.mark.usefixtures("demo_data")


def test_an_area_band_is_the_mean_of_those_deals(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    answer = answer_question("강남구 전용 84㎡ 실거래가 평균", settings=offline, store=graph_store,
                             pool=pg_pool)  # fmt: skip
    m = re.search(r"(\d{4}-\d\d-\d\d) ~ (\d{4}-\d\d-\d\d) 전용 84㎡대 아파트 실거래 ([\d,]+)건의 "
                  r"평균 거래가격 (.+?) \(", answer.answer)  # fmt: skip
    assert m and answer.status == "ok", answer.answer
    row = fetch_all(
        "SELECT count(*) AS n, avg(price_krw) AS mean FROM re_transactions WHERE region = "
        "'서울 강남구' AND area_m2 >= 84 AND area_m2 < 85 AND deal_date BETWEEN %s AND %s",
        (m.group(1), m.group(2)), pg_pool)[0]  # fmt: skip
    assert int(m.group(3).replace(",", "")) == row["n"] and m.group(4) == fmt_krw(
        float(row["mean"]), "만"
    )
    read = answer.trace[0].arguments["coverage"]
    assert any(r["read_as"] == "면적:84㎡" for r in read["read"]) and not read["decisive"]
    cited = [c.filters for c in answer.structured_citations if c.table == "re_transactions"]
    assert cited and all(f.get("area_min") == 84.0 for f in cited)


def test_a_price_band_counts_only_those_deals(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    answer = answer_question("송파구 최근 6개월 20억 미만 아파트 거래 건수", settings=offline,
                             store=graph_store, pool=pg_pool)  # fmt: skip
    m = re.search(r"\((\d{4}-\d\d-\d\d) ~ (\d{4}-\d\d-\d\d)\) 20억 원 미만 아파트 실거래 ([\d,]+)건",
                  answer.answer)  # fmt: skip
    assert m and answer.status == "ok", answer.answer
    n = fetch_all(
        "SELECT count(*) AS n FROM re_transactions WHERE region = '서울 송파구' AND price_krw < "
        "2000000000 AND deal_date BETWEEN %s AND %s", (m.group(1), m.group(2)), pg_pool)[0]["n"]  # fmt: skip
    assert int(m.group(3).replace(",", "")) == n
    assert "건 이상" not in answer.answer  # the amount is a price band, not a count threshold


def test_the_highest_deals_above_a_price_are_those_deals(
    pg_pool: Any, graph_store: Any, offline: Settings
) -> None:
    answer = answer_question("서초구 30억 넘는 거래 최고가", settings=offline, store=graph_store,
                             pool=pg_pool)  # fmt: skip
    assert answer.status == "ok" and "30억 원 초과 아파트 실거래 최고가" in answer.answer
    assert "30억 원 초과 실거래 중위가격" in answer.answer  # the monthly medians are of them too


def test_amounts_in_eok_carry() -> None:
    assert fmt_krw(499_999_999, "만") == "5억 원" and fmt_krw(1_999_999_999, "만") == "20억 원"
    assert fmt_krw(3_201_000_000, "만") == "32억 100만 원"
