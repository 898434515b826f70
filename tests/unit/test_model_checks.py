"""agents.model_checks: what counts as a claim, what evidence backs it, what is removed."""

from __future__ import annotations

import pytest

from agents.model_checks import (
    CONTRACT,
    DEFAULT,
    MACRO,
    OPENING,
    CheckResult,
    EvidencePool,
    SentenceGate,
    check_failure,
    check_model_text,
    claims_in,
    keep_apart,
    pool_from,
    unverified_texts,
)
from data_access.contracts import Citation, DateRange, StructuredCitation, TraceStep
from tests.fixtures.hostile_inputs import HOSTILE

FACTS = {"figures": {"rsi14": 44.53, "returns": {"1m": -0.0739}, "price": 94000.0,
                     "trade_date": "2026-11-20", "market_cap": 556_400_000_000_000},
         "quarters": [{"event_date": "2026-10-29", "surprise": -0.1759}]}  # fmt: skip


def test_the_issue_sentence_is_caught_and_real_figures_pass() -> None:
    pool = pool_from(FACTS)
    text = "1개월간 48.3% 상승, RSI 91.2, 목표주가 250,000원입니다."
    assert unverified_texts(text, pool) == ["48.3%", "91.2", "250,000원"]
    real = ("RSI 44.5, 1개월 -7.39%, 종가 94,000원, 시가총액 556.4조원, 10월 29일 서프라이즈 "
            "-17.59%, 2026-11-20 기준.")  # fmt: skip
    assert unverified_texts(real, pool) == []


@pytest.mark.parametrize("text, claims", [
    ("순자산 5조 3,000억원, 총보수 0.05%", ["5조 3,000억원", "0.05%"]),
    ("20일 이동평균 위, 3분기 실적, 상위 10개", []),  # periods and counts are not figures
    ("$12.3, 3%p, 15bp, 1.5배", ["$12.3", "3%p", "15bp", "1.5배"]),
    ("MA20, S&P500, KR:005930, [1], 제3조", []),  # names, codes, markers, articles (DEFAULT)
])  # fmt: skip
def test_claims_in_default_policy(text: str, claims: list[str]) -> None:
    assert [c.text for c in claims_in(text, DEFAULT)] == claims


def test_contract_policy_checks_articles_and_periods() -> None:
    pool = pool_from({"clauses": [{"article_no": 15, "title": "청약철회 등",
                                   "body": "① 7일 이내에는 청약의 철회를 할 수 있습니다."}]})  # fmt: skip
    text = "반품은 제99조 ③에 따라 90일 이내입니다. 제15조 ①에 따라 7일 이내입니다."
    assert unverified_texts(text, pool, CONTRACT) == ["제99조 ③", "90일"]
    assert unverified_texts("Under Article 99, within 90 days.", pool, CONTRACT) == [
        "Article 99", "90 days"]  # fmt: skip
    cut = pool_from('{"clauses": [{"article_no": 15, "body": "7일 이내')  # JSON cut mid-way
    assert 15 in cut.articles and 7.0 in cut.values


def test_macro_policy_checks_document_markers() -> None:
    pool = pool_from(["CPI value=114.52"], doc_count=2)
    assert unverified_texts("CPI 114.52 [1], [2], [3].", pool, MACRO) == ["[3]"]


def test_opening_policy_matches_the_old_validator() -> None:
    pool = EvidencePool(values=[91500.0], percents=[19.61], bps=[], derive=False)
    text = "DB하이텍 91,500원, +19.61%, 1.5조원, 0.1961%, 11월 20일, 3.5"
    assert unverified_texts(text, pool, OPENING) == ["0.1961%"]  # no fraction→percent there


def test_removal_keeps_other_sentences_and_says_what_went() -> None:
    text = "- RSI 44.5입니다.\n- RSI 91.2입니다.\n\n| 지표 | 값 |\n| RSI | 91.2 |\n끝."
    result = check_model_text(text, pool_from(FACTS))
    assert result.partial and result.unverified == ["91.2"] and len(result.removed) == 2
    assert result.text == "- RSI 44.5입니다.\n\n| 지표 | 값 |\n끝."
    assert "문장 2개" in result.notice() and "(미확인: 91.2)" in result.notice()
    assert "Removed 2 sentence(s)" in result.notice("en")
    step = result.trace_step()
    assert step.kind == "guard" and step.status == "error" and step.error == result.error()
    assert check_failure([step, TraceStep(step=1, kind="llm", name="x")]) == result.error()


def test_one_repair_chance_then_removal() -> None:
    asked: list[list[str]] = []

    def repair(bad: list[str]) -> str:
        asked.append(bad)
        return "RSI 44.5입니다. 목표주가 250,000원입니다."

    result = check_model_text("RSI 91.2입니다.", pool_from(FACTS), repair=repair)
    assert asked == [["91.2"]] and result.repaired and result.found == ["91.2"]
    assert result.text == "RSI 44.5입니다." and result.unverified == ["250,000원"]
    fixed = check_model_text("RSI 91.2입니다.", pool_from(FACTS), repair=lambda _: "RSI 44.5.")
    assert not fixed.partial and fixed.repaired and fixed.with_notice() == "RSI 44.5."
    gone = check_model_text("RSI 91.2입니다.", pool_from(FACTS), repair=lambda _: None)
    assert gone.empty and gone.partial  # the screen answers with its template instead


def test_stale_data_keeps_the_warning_and_drops_firm_conclusions() -> None:
    text = "물가는 114.52입니다. 금리는 확실히 오를 것입니다."
    result = check_model_text(
        text, pool_from(["114.52"]), MACRO, stale_warning="최신성 경고: macro=stale"
    )
    assert result.text == "> ⚠️ 최신성 경고: macro=stale\n\n물가는 114.52입니다."
    assert result.unverified == ["확실히"] and result.partial


def test_citations_and_structured_citations_are_kept_apart() -> None:
    doc = Citation(doc_id="d1", title="기사")
    query = StructuredCitation(dataset_code="KR_CPI", table="macro_observations", filters={},
                               date_range=DateRange(), query_fingerprint="f", row_count=6)  # fmt: skip
    docs, queries = keep_apart([doc, query.model_dump()], [query, doc.model_dump(), "junk"])
    assert [d.doc_id for d in docs] == ["d1", "d1"] and [q.table for q in queries] == [
        "macro_observations", "macro_observations"]  # fmt: skip


@pytest.mark.parametrize("hostile", list(HOSTILE.values()), ids=list(HOSTILE))
def test_hostile_text_and_evidence_do_not_break_the_check(hostile: str) -> None:
    pool = pool_from({"x": hostile, "n": [float("nan"), float("inf"), True, None]}, hostile)
    result = check_model_text(hostile + " RSI 91.2입니다.", pool, CONTRACT)
    assert isinstance(result, CheckResult) and "91.2" not in result.text


def test_a_long_text_of_digits_and_units_is_checked_whole() -> None:
    text = ("1조 " * 5000) + ("9" * 20000) + ".5% " + ("제1조 " * 3000)
    result = check_model_text(text, EvidencePool(), CONTRACT)
    assert result.empty and result.partial


# ---- the streamed form (SentenceGate) ----------------------------------------------------------

STREAMED = ("1개월 수익률은 -7.39%입니다. RSI는 91.2로 과열입니다. 시가총액은 556.4조원입니다.\n"
            "| 지표 | 값 |\n| RSI | 44.53 |\n| 52주 고가 | 120,000원 |\n확실히 반등합니다")  # fmt: skip


def _stream(text: str, gate: SentenceGate, size: int) -> list[str]:
    shown: list[str] = []
    for i in range(0, len(text), size):
        shown += gate.feed(text[i : i + size])
    return shown + gate.close()


@pytest.mark.parametrize("size", [1, 2, 7, 1000])
@pytest.mark.parametrize("stale", [None, "뉴스 데이터가 오래되었습니다"])
def test_the_gate_removes_what_the_whole_text_check_removes(size: int, stale: str | None) -> None:
    pool = pool_from(FACTS)
    gate = SentenceGate(pool, stale_warning=stale)
    shown = "".join(_stream(STREAMED, gate, size))
    whole = check_model_text(STREAMED, pool, stale_warning=stale)
    result = gate.result()
    assert result.removed == whole.removed and result.unverified == whole.unverified
    assert shown == result.with_notice() and result.partial
    assert "91.2로 과열" not in shown and "120,000원 |" not in shown
    assert "근거와 다른 수치: 91.2" in shown and "556.4조원" in shown
    assert shown.endswith(whole.notice())
    for kept in ("1개월 수익률은 -7.39%입니다.", "| RSI | 44.53 |"):
        assert kept in shown and kept in whole.text
    assert ("확실히 반등합니다" in shown) == (stale is None)  # stale data: no firm conclusion
    assert shown.startswith(f"> ⚠️ {stale}") == (stale is not None)


def test_a_sentence_is_released_only_once_it_is_complete() -> None:
    gate = SentenceGate(pool_from(FACTS))
    assert gate.feed("RSI는 44.") == []  # "44." may go on as 44.53
    assert gate.feed("53입니다.") == []  # the stop is the end only when something follows it
    assert gate.feed(" 다음") == ["RSI는 44.53입니다."]
    assert gate.close() == [" 다음"] and gate.kept_any


@pytest.mark.parametrize("hostile", HOSTILE)
def test_hostile_text_streams_without_error_and_joins_back(hostile: str) -> None:
    gate = SentenceGate(pool_from(FACTS), CONTRACT)
    shown = "".join(_stream(hostile, gate, 5))
    assert shown == gate.result().with_notice()
