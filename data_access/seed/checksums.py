"""Per-table fingerprints of the seed tables, computed in PostgreSQL over rows in primary-key
order, so two databases with the same content give the same md5 whatever their load order."""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg import sql

_TEXT_TYPES = {"text", "character varying", "character"}


def primary_key(conn: psycopg.Connection, table: str) -> list[tuple[str, str]]:
    """[(column, type)] of a table's primary key, in key order."""
    rows = conn.execute(
        "SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type"
        " FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)"
        " WHERE i.indrelid = %s::regclass AND i.indisprimary"
        " ORDER BY array_position(i.indkey, a.attnum)",
        (table,),
    ).fetchall()
    return [(_field(r, "name", 0), _field(r, "type", 1)) for r in rows]


def _field(row: Any, key: str, index: int) -> str:
    """A column of a row from a dict-row (pooled) or tuple-row (plain) connection."""
    return str(row[key] if isinstance(row, dict) else row[index])


def table_checksum(conn: psycopg.Connection, table: str) -> tuple[str, int]:
    """(md5 of the md5s of each row's text, in primary-key order; row count)."""
    order = sql.SQL(", ").join(
        sql.SQL('{} COLLATE "C"').format(sql.Identifier(c))
        if t in _TEXT_TYPES
        else sql.Identifier(c)
        for c, t in primary_key(conn, table)
    )
    query = sql.SQL(
        "SELECT md5(coalesce(string_agg(md5(t::text), '' ORDER BY {order}), '')) AS digest,"
        " count(*) AS n FROM {table} t"
    ).format(order=order, table=sql.Identifier(table))
    row = conn.execute(query).fetchone()
    assert row is not None
    return _field(row, "digest", 0), int(_field(row, "n", 1))


def compute_checksums(
    conn: psycopg.Connection, tables: tuple[str, ...]
) -> tuple[dict[str, str], dict[str, int]]:
    """Checksums and row counts of `tables`, with session settings pinned so row text is stable."""
    with conn.transaction():
        conn.execute("SET LOCAL TimeZone = 'UTC'")
        conn.execute("SET LOCAL DateStyle = 'ISO, YMD'")
        conn.execute("SET LOCAL extra_float_digits = 1")
        results = {table: table_checksum(conn, table) for table in tables}
    return {t: r[0] for t, r in results.items()}, {t: r[1] for t, r in results.items()}
