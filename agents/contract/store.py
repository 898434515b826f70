"""PostgreSQL persistence for contracts and their articles (tables from 0005_contract_tables.sql;
an article's key is (article_no, branch_no) since 0014, so 제3조 and 제3조의2 are two rows, and
(part_no, article_no, branch_no) since 0016, so an annex's 제1조 is not the main body's; since
0019 `numbering` says whether the article is a 제N조 or an agreement's numbered paragraph).

A contract is written in one transaction (contract row, then all its articles with tokens and
vectors), so a failed ingestion leaves the previous version untouched.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from psycopg_pool import ConnectionPool

from agents.contract.errors import ContractNotFound
from agents.contract.models import (
    Article,
    Clause,
    ContractInfo,
    ParsedContract,
    article_key,
    split_key,
    split_part,
)
from agents.contract.tokenize import fingerprint as tokenizer_fingerprint
from data_access.access import SHARED_USER_ID, Viewer, current_viewer, owner_scope
from data_access.postgres import connection, fetch_all, fetch_one

CONTRACT_COLUMNS = (
    "contract_id, title, contract_type, is_standard, source_name, source_format, content_hash, "
    "article_count"
)
DENSE_SQL = (
    "SELECT part_no, article_no, branch_no, 1 - (embedding <=> %(v)s::vector) AS similarity "
    "FROM contract_articles "
    "WHERE contract_id = %(cid)s AND embedding_model = %(model)s "
    "ORDER BY embedding <=> %(v)s::vector LIMIT %(k)s"
)


@dataclass
class StoredArticle:
    article: Article
    tokens: list[str]
    embedding_model: str | None
    line_tokens: list[list[str]] | None = None  # per clause line; None: stored before them or
    # under another tokenizer (agents.contract.tokenize.fingerprint)


def vector_literal(vector: np.ndarray) -> str:
    return "[" + ",".join(f"{x:.6f}" for x in vector.tolist()) + "]"


def _info(row: dict[str, Any]) -> ContractInfo:
    return ContractInfo(**{k: row[k] for k in CONTRACT_COLUMNS.split(", ")})


def get_contract(contract_id: str, pool: ConnectionPool | None = None) -> ContractInfo | None:
    row = fetch_one(f"SELECT {CONTRACT_COLUMNS} FROM contracts WHERE contract_id = %s",
                    (contract_id,), pool)  # fmt: skip
    return _info(row) if row else None


def require_contract(contract_id: str, pool: ConnectionPool | None = None) -> ContractInfo:
    info = get_contract(contract_id, pool)
    if info is None:
        raise ContractNotFound(
            f"계약서 '{contract_id}'를 찾을 수 없습니다. 먼저 계약서를 올려 주세요."
        )
    return info


def list_contracts(
    pool: ConnectionPool | None = None, *, viewer: Viewer | None = None
) -> list[ContractInfo]:
    """Standard and bundled contracts, and the viewer's own uploads (an admin's: everyone's)."""
    rows = fetch_all(f"SELECT {CONTRACT_COLUMNS} FROM contracts WHERE is_standard "
                     "OR user_id = %(shared)s OR %(owner)s::text IS NULL OR user_id = %(owner)s "
                     "ORDER BY is_standard, updated_at DESC",
                     {"shared": SHARED_USER_ID, "owner": owner_scope(viewer)}, pool)  # fmt: skip
    return [_info(r) for r in rows]


def standard_for(contract_type: str, pool: ConnectionPool | None = None) -> ContractInfo | None:
    row = fetch_one(f"SELECT {CONTRACT_COLUMNS} FROM contracts WHERE is_standard AND "
                    "contract_type = %s ORDER BY updated_at DESC LIMIT 1", (contract_type,), pool)  # fmt: skip
    return _info(row) if row else None


def set_contract_type(contract_id: str, contract_type: str, pool: ConnectionPool | None = None,
                      *, viewer: Viewer | None = None) -> bool:  # fmt: skip
    """The user's choice of type for their own uploaded contract (an admin: any upload); False
    when no such contract of theirs exists (a standard one never changes)."""
    with connection(pool) as conn:
        cursor = conn.execute(
            "UPDATE contracts SET contract_type = %(type)s, updated_at = now() "
            "WHERE contract_id = %(id)s AND NOT is_standard "
            "AND (%(owner)s::text IS NULL OR user_id = %(owner)s)",
            {"type": contract_type, "id": contract_id, "owner": owner_scope(viewer)},
        )
        return cursor.rowcount == 1


def stored_on(contract_id: str, pool: ConnectionPool | None = None) -> str | None:
    """The date (ISO) the current version of the contract was stored."""
    row = fetch_one("SELECT updated_at::date AS day FROM contracts WHERE contract_id = %s",
                    (contract_id,), pool)  # fmt: skip
    return row["day"].isoformat() if row else None


def load_articles(contract_id: str, pool: ConnectionPool | None = None) -> list[StoredArticle]:
    rows = fetch_all(
        "SELECT part_no, part_title, article_no, branch_no, numbering, title, clauses, tokens, "
        "embedding_model "
        "FROM contract_articles WHERE contract_id = %s "
        "ORDER BY part_no, (article_no < 0), abs(article_no), branch_no", (contract_id,), pool,
    )  # fmt: skip
    out = []
    analyser = tokenizer_fingerprint()
    for r in rows:
        clauses = [Clause(c["kind"], c["number"], c["text"]) for c in r["clauses"]]
        current = all("tokens" in c and c.get("tokenizer") == analyser for c in r["clauses"])
        # tokens of another tokenizer (Kiwi's options or user words changed) are redone
        lines = [str(c["tokens"]).split() for c in r["clauses"]] if current else None
        article = Article(r["article_no"], r["title"], clauses, branch=r["branch_no"],
                          part=r["part_no"], part_title=r["part_title"],
                          numbering=r["numbering"])  # fmt: skip
        out.append(StoredArticle(article, r["tokens"].split(), r["embedding_model"], lines))
    return out


def save_contract(
    info: ContractInfo,
    parsed: ParsedContract,
    tokens: Sequence[list[str]],
    vectors: np.ndarray,
    embedding_model: str,
    pool: ConnectionPool | None = None,
    owner: str | None = None,
    line_tokens: Sequence[Sequence[list[str]]] | None = None,
) -> None:
    """Replace the contract and all its articles in one transaction (its owner stays);
    `line_tokens` (per article, per clause line) are kept in each clause's JSON."""
    owner = owner or current_viewer().user_id
    with connection(pool) as conn, conn.transaction():
        conn.execute(
            "INSERT INTO contracts (contract_id, title, contract_type, is_standard, source_name, "
            "source_format, content_hash, original_text, article_count, user_id) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (contract_id) DO UPDATE SET "
            "title = EXCLUDED.title, contract_type = EXCLUDED.contract_type, "
            "is_standard = EXCLUDED.is_standard, source_name = EXCLUDED.source_name, "
            "source_format = EXCLUDED.source_format, content_hash = EXCLUDED.content_hash, "
            "original_text = EXCLUDED.original_text, article_count = EXCLUDED.article_count, "
            "updated_at = now()",
            (info.contract_id, info.title, info.contract_type, info.is_standard, info.source_name,
             info.source_format, info.content_hash, parsed.text, info.article_count, owner),
        )  # fmt: skip
        conn.execute("DELETE FROM contract_articles WHERE contract_id = %s", (info.contract_id,))
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO contract_articles (contract_id, part_no, part_title, article_no, "
                "branch_no, numbering, title, content, clauses, body, tokens, embedding, "
                "embedding_model) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s::vector, %s)",
                [(info.contract_id, a.part, a.part_title, a.article_no, a.branch, a.numbering, a.title,
                  json.dumps(a.content, ensure_ascii=False),
                  _clauses_json(a, line_tokens[i] if line_tokens else None), a.body,
                  " ".join(t), vector_literal(v), embedding_model)
                 for i, (a, t, v) in enumerate(zip(parsed.articles, tokens, vectors, strict=True))],
            )  # fmt: skip


def _clauses_json(article: Article, lines: Sequence[list[str]] | None) -> str:
    rows = [dict(c.__dict__) for c in article.clauses]
    if lines is not None:
        analyser = tokenizer_fingerprint()
        for row, line in zip(rows, lines, strict=True):
            row["tokens"] = " ".join(line)
            row["tokenizer"] = analyser
    return json.dumps(rows, ensure_ascii=False)


def update_tokens(contract_id: str, articles: Sequence[StoredArticle],
                  pool: ConnectionPool | None = None) -> None:  # fmt: skip
    """Store morphemes analysed after ingestion (article tokens and each clause line's)."""
    with connection(pool) as conn, conn.transaction(), conn.cursor() as cur:
        cur.executemany(
            "UPDATE contract_articles SET tokens = %s, clauses = %s "
            "WHERE contract_id = %s AND part_no = %s AND article_no = %s AND branch_no = %s",
            [(" ".join(s.tokens), _clauses_json(s.article, s.line_tokens), contract_id,
              s.article.part, s.article.article_no, s.article.branch) for s in articles],
        )  # fmt: skip


def update_vectors(contract_id: str, keys: Sequence[int], vectors: np.ndarray,
                   embedding_model: str, pool: ConnectionPool | None = None) -> None:  # fmt: skip
    """New vectors for the articles with these keys (models.article_key)."""
    with connection(pool) as conn, conn.transaction(), conn.cursor() as cur:
        cur.executemany(
            "UPDATE contract_articles SET embedding = %s::vector, embedding_model = %s "
            "WHERE contract_id = %s AND part_no = %s AND article_no = %s AND branch_no = %s",
            [(vector_literal(v), embedding_model, contract_id, split_part(key)[0], *split_key(key))
             for key, v in zip(keys, vectors, strict=True)],
        )  # fmt: skip


def dense_search(contract_id: str, vector: np.ndarray, embedding_model: str, k: int,
                 pool: ConnectionPool | None = None) -> list[tuple[int, float]]:  # fmt: skip
    """(article key, cosine similarity) best first, by pgvector's cosine distance."""
    rows = fetch_all(DENSE_SQL, {"v": vector_literal(vector), "cid": contract_id,
                                 "model": embedding_model, "k": k}, pool)  # fmt: skip
    return [(article_key(r["article_no"], r["branch_no"], r["part_no"]), float(r["similarity"]))
            for r in rows]  # fmt: skip


def delete_contract(contract_id: str, pool: ConnectionPool | None = None) -> None:
    with connection(pool) as conn:
        conn.execute("DELETE FROM contracts WHERE contract_id = %s", (contract_id,))
