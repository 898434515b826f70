"""The Top-N universe's dated membership (seed 004 §4, issue 35): `universe_membership`.

    refresh_universe_membership(conn)            # after the seed's load or a fundamentals import
    membership_changes(conn, "KR_TOP50")         # [(snapshot_date, joined ids, left ids), ...]

A snapshot is the last fundamentals date of a month; its members are the country's N largest
stocks by market cap that day. A refresh rewrites every month the fundamentals cover (a month's
snapshot moves as later days arrive: the month-to-date snapshot of 11-20 becomes 11-23), and
keeps older months it no longer sees, so history outlives pruned fundamentals.
"""

from __future__ import annotations

import logging
from datetime import date
from typing import Any

import psycopg

from data_access.universe_ranks import RANKED_MONTHLY

logger = logging.getLogger(__name__)

UNIVERSE_SIZE = 50


# Months the fundamentals cover are rewritten whole (a stale mid-month snapshot goes too).
_DELETE = (
    RANKED_MONTHLY
    + """
DELETE FROM universe_membership m
USING (SELECT DISTINCT country, date_trunc('month', snapshot_date) AS month FROM ranked) r
WHERE m.country = r.country AND m.universe = m.country || '_TOP' || %(size)s::text
  AND date_trunc('month', m.snapshot_date) = r.month"""
)
_INSERT = (
    RANKED_MONTHLY
    + """
INSERT INTO universe_membership (universe, country, snapshot_date, security_id, rank, market_cap)
SELECT country || '_TOP' || %(size)s::text, country, snapshot_date, security_id, rank, market_cap
FROM ranked WHERE rank <= %(size)s"""
)


def refresh_universe_membership(conn: psycopg.Connection[Any], size: int = UNIVERSE_SIZE) -> int:
    """Rewrite the membership of every month the fundamentals cover (in the caller's
    transaction); returns the member rows written."""
    params = {"size": size}
    conn.execute(_DELETE, params)
    written = conn.execute(_INSERT, params).rowcount
    logger.info("universe membership: %s member rows (Top%s)", written, size)
    return written


def membership_changes(
    conn: psycopg.Connection[Any], universe: str
) -> list[tuple[date, list[str], list[str]]]:
    """Per snapshot after the first: (snapshot_date, joined security_ids, left security_ids)."""
    rows = conn.execute(
        "SELECT snapshot_date, array_agg(security_id ORDER BY security_id) AS ids"
        " FROM universe_membership WHERE universe = %s GROUP BY 1 ORDER BY 1",
        (universe,),
    ).fetchall()
    out: list[tuple[date, list[str], list[str]]] = []
    for prev, cur in zip(rows, rows[1:], strict=False):
        before, after = set(_get(prev, "ids", 1)), set(_get(cur, "ids", 1))
        out.append((_get(cur, "snapshot_date", 0), sorted(after - before), sorted(before - after)))
    return out


def _get(row: Any, key: str, index: int) -> Any:
    return row[key] if isinstance(row, dict) else row[index]


def add_missing_membership(conn: psycopg.Connection[Any]) -> int:
    """Fill the history when it is empty but fundamentals are loaded (`seed --if-missing` on a
    database seeded before issue 35 whose migration found nothing to backfill)."""
    with conn.transaction():
        row = conn.execute(
            "SELECT NOT EXISTS (SELECT 1 FROM universe_membership)"
            " AND EXISTS (SELECT 1 FROM stock_fundamentals) AS missing"
        ).fetchone()
        if row is None or not _get(row, "missing", 0):
            return 0
        return refresh_universe_membership(conn)
