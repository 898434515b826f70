"""Stored clause tokens follow the shared Kiwi (issue 32): each clause line's tokens are stored
with the tokenizer's fingerprint (its options, user words and version), and tokens stored under
another fingerprint are analysed again when the index is next built — on the real embedded
PostgreSQL, with the real Kiwi."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from agents.contract import store
from agents.contract import tokenize as contract_tokenize
from agents.understanding import morphemes
from tests.fixtures.contracts.files import contract_file


def _ingest(pg_pool: Any, settings: Any) -> str:
    from agents.contract.ingest.pipeline import ingest_bytes

    marker = uuid.uuid4().hex[:8]  # new content each run: the same file again is a no-op
    data = contract_file("employment", "txt") + f"\n제16조(부칙) {marker} 효력.".encode()
    return ingest_bytes("근로.txt", data, pool=pg_pool, settings=settings).contract_id


def _stored_clauses(contract_id: str, pg_pool: Any) -> list[dict[str, Any]]:
    with pg_pool.connection() as conn:
        rows = conn.execute("SELECT clauses FROM contract_articles WHERE contract_id = %s",
                            (contract_id,)).fetchall()  # fmt: skip
    return [c for r in rows for c in r["clauses"]]


def test_clause_tokens_are_stored_with_the_tokenizer_fingerprint(
    pg_pool: Any, settings: Any
) -> None:
    contract_id = _ingest(pg_pool, settings)
    clauses = _stored_clauses(contract_id, pg_pool)
    assert clauses and {c["tokenizer"] for c in clauses} == {contract_tokenize.fingerprint()}


def test_tokens_of_another_tokenizer_are_analysed_again(
    pg_pool: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agents.contract.index import clear_cache, get_index

    contract_id = _ingest(pg_pool, settings)
    # as if stored before Kiwi's options or user words changed: other tokens, other fingerprint
    stale = store.load_articles(contract_id, pg_pool)
    for s in stale:
        s.tokens = ["낡은토큰"]
        s.line_tokens = [["낡은토큰"] for _ in s.article.clauses]
    with monkeypatch.context() as m:
        m.setattr(store, "tokenizer_fingerprint", lambda: "an-older-kiwi")
        store.update_tokens(contract_id, stale, pg_pool)
    assert all(s.line_tokens is None for s in store.load_articles(contract_id, pg_pool)
               if s.article.clauses)  # fmt: skip

    clear_cache()
    hits = get_index(contract_id, pg_pool, settings).search("연차휴가는 며칠이에요?", top=3)
    assert hits[0].article.title == "연차유급휴가"
    fresh = {s.article.title: s for s in store.load_articles(contract_id, pg_pool)}
    assert "휴가" in fresh["연차유급휴가"].tokens and "낡은토큰" not in fresh["연차유급휴가"].tokens
    assert fresh["연차유급휴가"].line_tokens and "휴가" in fresh["연차유급휴가"].line_tokens[0]
    assert {c["tokenizer"] for c in _stored_clauses(contract_id, pg_pool)} == {
        contract_tokenize.fingerprint()
    }


def test_the_fingerprint_changes_with_a_user_word(monkeypatch: pytest.MonkeyPatch) -> None:
    before, contract_before = morphemes.tokenizer_fingerprint(), contract_tokenize.fingerprint()
    try:
        monkeypatch.setattr(morphemes, "_DOMAIN_NOUNS", [*morphemes._DOMAIN_NOUNS, "새단어"])
        morphemes.tokenizer_fingerprint.cache_clear()
        contract_tokenize.fingerprint.cache_clear()
        assert morphemes.tokenizer_fingerprint() != before
        assert contract_tokenize.fingerprint() != contract_before
    finally:
        monkeypatch.undo()
        morphemes.tokenizer_fingerprint.cache_clear()
        contract_tokenize.fingerprint.cache_clear()
    assert morphemes.tokenizer_fingerprint() == before
