"""Add what a newer seed generates to a database seeded before it existed (`seed --if-missing`).

Today: the market context series (issue 25). They are generated from the loaded run's own seed,
scale and as-of date, so they match the stocks already in the database, and nothing else is
touched (imports, conversations and the other seed tables stay as they are).
"""

from __future__ import annotations

import logging
from datetime import date

import psycopg

from data_access.seed.build import build_market_series
from data_access.seed.loader import copy_frame
from data_access.seed.params import SCALES

logger = logging.getLogger(__name__)


def add_missing_series(conn: psycopg.Connection) -> int:
    """Generate and load the market series if the table is empty; returns the bars added."""
    with conn.transaction():
        row = conn.execute(
            "SELECT r.scale, r.seed, r.as_of_date, EXISTS (SELECT 1 FROM market_series_prices)"
            " AS has_series FROM seed_runs r ORDER BY r.run_id DESC LIMIT 1"
        ).fetchone()
    if row is None:
        return 0
    scale, seed, as_of, has_series = (row[k] if isinstance(row, dict) else row[i]
                                      for i, k in enumerate(("scale", "seed", "as_of_date",
                                                             "has_series")))  # fmt: skip
    if has_series or scale not in SCALES:
        return 0
    tables = build_market_series(scale, int(seed), as_of if isinstance(as_of, date) else
                                 date.fromisoformat(str(as_of)))  # fmt: skip
    codes = list(tables["market_series"]["series_code"])
    with conn.transaction():  # the series rows may be there without bars (an import that failed)
        conn.execute("DELETE FROM market_series WHERE series_code = ANY(%s)", (codes,))
        conn.execute("DELETE FROM entity_aliases WHERE kind = 'market'")
        for name in ("market_series", "market_series_prices", "entity_aliases"):
            copy_frame(conn, name, tables[name])
    added = len(tables["market_series_prices"])
    logger.info("added %s market series bars to the loaded %s-scale data", added, scale)
    return added
