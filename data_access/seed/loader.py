"""Replace the seed tables in PostgreSQL: TRUNCATE them all, then COPY every generated frame.

Run inside one transaction by the caller, so readers see either the old dataset or the new one.
Run-store tables (conversations, agent_runs, messages, artifacts) and bookkeeping tables
(seed_runs, import_runs, projection_runs, datasets) are never touched.
"""

from __future__ import annotations

import io
import logging
import time

import pandas as pd
import psycopg
from psycopg import sql

from data_access.errors import WorkbenchError

logger = logging.getLogger(__name__)

# Load order respects foreign keys (parents first).
SEED_TABLES: tuple[str, ...] = (
    "managers", "tags", "etfs", "etf_tags", "stocks", "entity_aliases", "etf_prices",
    "stock_prices", "etf_holdings", "stock_fundamentals", "earnings_events", "macro_series",
    "macro_observations", "market_series", "market_series_prices", "re_house_price_index",
    "re_transactions", "re_unsold_housing", "re_permits", "re_jeonse_ratio", "news_articles",
    "documents", "events", "evidence",
)  # fmt: skip
ARRAY_COLUMNS = {("news_articles", "tickers"), ("news_articles", "themes")}
CHUNK_ROWS = 200_000  # rows per CSV chunk: bounded memory for the market scale


def truncate_seed_tables(conn: psycopg.Connection) -> None:
    names = sql.SQL(", ").join(sql.Identifier(t) for t in SEED_TABLES)
    conn.execute(sql.SQL("TRUNCATE {} RESTART IDENTITY").format(names))


def copy_tables(conn: psycopg.Connection, tables: dict[str, pd.DataFrame]) -> dict[str, int]:
    """COPY each frame into its table (in the caller's transaction); returns ms per table.

    Per-row foreign-key triggers cost more than the COPY itself, so when the role may (a
    superuser, as with the embedded server) they are skipped for this transaction and every
    foreign key is then checked once, set-wise, by `verify_foreign_keys`.
    """
    timings: dict[str, int] = {}
    deferred = _skip_fk_triggers(conn)
    for table in SEED_TABLES:
        frame = tables[table]
        start = time.perf_counter()
        copy_frame(conn, table, frame)
        timings[table] = round((time.perf_counter() - start) * 1000)
        logger.info("copied %s rows into %s in %d ms", len(frame), table, timings[table])
    conn.execute(
        "SELECT setval(pg_get_serial_sequence('re_transactions', 'id'),"
        " greatest((SELECT max(id) FROM re_transactions), 1))"
    )
    if deferred:
        start = time.perf_counter()
        verify_foreign_keys(conn, SEED_TABLES)
        conn.execute("SET LOCAL session_replication_role = origin")
        timings["verify_foreign_keys"] = round((time.perf_counter() - start) * 1000)
    for table in SEED_TABLES:
        conn.execute(sql.SQL("ANALYZE {}").format(sql.Identifier(table)))
    return timings


def _skip_fk_triggers(conn: psycopg.Connection) -> bool:
    row = conn.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user").fetchone()
    superuser = bool(row and (row["rolsuper"] if isinstance(row, dict) else row[0]))
    if superuser:
        conn.execute("SET LOCAL session_replication_role = replica")
    return superuser


def verify_foreign_keys(conn: psycopg.Connection, tables: tuple[str, ...]) -> None:
    """Raise SeedIntegrityError if any row of `tables` references a missing parent row."""
    constraints = conn.execute(
        "SELECT c.conname AS name, c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent,"
        " ARRAY(SELECT attname FROM unnest(c.conkey) WITH ORDINALITY k(n, i)"
        "       JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.i) AS child_cols,"
        " ARRAY(SELECT attname FROM unnest(c.confkey) WITH ORDINALITY k(n, i)"
        "       JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.i) AS parent_cols"
        " FROM pg_constraint c WHERE c.contype = 'f' AND c.conrelid::regclass::text = ANY(%s)",
        (list(tables),),
    ).fetchall()
    for fk in constraints:
        name, child, parent, child_cols, parent_cols = (
            fk[k] if isinstance(fk, dict) else fk[i]
            for i, k in enumerate(("name", "child", "parent", "child_cols", "parent_cols"))
        )
        match = sql.SQL(" AND ").join(
            sql.SQL("p.{} = c.{}").format(sql.Identifier(pc), sql.Identifier(cc))
            for cc, pc in zip(child_cols, parent_cols, strict=True)
        )
        not_null = sql.SQL(" AND ").join(
            sql.SQL("c.{} IS NOT NULL").format(sql.Identifier(cc)) for cc in child_cols
        )
        query = sql.SQL(
            "SELECT count(*) FROM {child} c WHERE {not_null} AND NOT EXISTS (SELECT 1 FROM {parent} p WHERE {match})"
        ).format(
            child=sql.Identifier(child),
            parent=sql.Identifier(parent),
            not_null=not_null,
            match=match,
        )
        row = conn.execute(query).fetchone()
        missing = int(row["count"] if isinstance(row, dict) else row[0]) if row else 0
        if missing:
            raise SeedIntegrityError(
                f"{missing} rows of {child} violate {name} (no matching {parent} row)"
            )


class SeedIntegrityError(WorkbenchError):
    """Generated rows reference rows that do not exist (a generator bug); the load is rolled back."""


def copy_frame(conn: psycopg.Connection, table: str, frame: pd.DataFrame) -> None:
    columns = list(frame.columns)
    statement = sql.SQL("COPY {} ({}) FROM STDIN (FORMAT csv)").format(
        sql.Identifier(table), sql.SQL(", ").join(sql.Identifier(c) for c in columns)
    )
    prepared = _prepare(table, frame)
    with conn.cursor() as cur, cur.copy(statement) as copy:
        for start in range(0, len(prepared), CHUNK_ROWS):
            buffer = io.StringIO()
            prepared.iloc[start : start + CHUNK_ROWS].to_csv(
                buffer, header=False, index=False, na_rep=""
            )
            copy.write(buffer.getvalue().encode("utf-8"))


def _prepare(table: str, frame: pd.DataFrame) -> pd.DataFrame:
    """Turn Python lists into PostgreSQL array literals; other values pass through to CSV."""
    array_cols = [c for c in frame.columns if (table, c) in ARRAY_COLUMNS]
    if not array_cols:
        return frame
    out = frame.copy()
    for column in array_cols:
        out[column] = out[column].map(pg_array)
    return out


def pg_array(items: list[str]) -> str:
    escaped = (str(i).replace("\\", "\\\\").replace('"', '\\"') for i in items)
    return "{" + ",".join(f'"{e}"' for e in escaped) + "}"
