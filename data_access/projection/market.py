"""Seed 000 projection (domain `etf`): tags, managers, stocks, ETFs, holdings and their changes."""

from __future__ import annotations

from typing import Any

from data_access.graph import cypher as q
from data_access.projection.steps import (
    SCOPE_ETFS,
    SCOPE_SIDS,
    SCOPE_SINCE,
    StepContext,
    StepSpec,
    fetch_rows,
    min_value,
    upsert,
    upsert_grouped,
)

# The latest N distinct snapshot dates (LIMIT NULL = all); shared by HOLDS and HAS_CHANGE.
_WINDOW_DATES = """
SELECT DISTINCT as_of_date FROM etf_holdings ORDER BY as_of_date DESC LIMIT %(limit)s"""

# One row per (etf, stock) with its snapshots in the window (see steps.upsert_grouped).
_HOLDINGS_SQL = f"""
WITH window_dates AS ({_WINDOW_DATES})
SELECT h.etf_code, h.security_id, max(h.as_of_date) AS last_date,
       json_agg(json_build_object('date', h.as_of_date, 'weight', h.weight, 'shares', h.shares)
                ORDER BY h.as_of_date) AS snaps
FROM etf_holdings h JOIN window_dates USING (as_of_date)
WHERE {SCOPE_ETFS.format(col="h.etf_code")} AND {SCOPE_SINCE.format(col="h.as_of_date")}
GROUP BY h.etf_code, h.security_id
ORDER BY h.etf_code, h.security_id"""

_WINDOW_CUTOFF_SQL = f"SELECT min(as_of_date) AS cutoff FROM ({_WINDOW_DATES}) d"

# Consecutive snapshots per ETF (its own previous snapshot date, which may lie before the
# window), compared by weight: added / removed / increased / decreased; unchanged dropped.
_CHANGES_SQL = f"""
WITH snaps AS (
    SELECT etf_code, as_of_date,
           lag(as_of_date) OVER (PARTITION BY etf_code ORDER BY as_of_date) AS prev_date
    FROM (SELECT DISTINCT etf_code, as_of_date FROM etf_holdings
          WHERE {SCOPE_ETFS.format(col="etf_code")}) d
), pairs AS (
    SELECT * FROM snaps
    WHERE prev_date IS NOT NULL AND {SCOPE_SINCE.format(col="as_of_date")}
      AND (%(limit)s::int IS NULL OR as_of_date >= ({_WINDOW_CUTOFF_SQL}))
), cur AS (
    SELECT p.etf_code, p.as_of_date, p.prev_date, h.security_id, h.weight
    FROM pairs p JOIN etf_holdings h
      ON h.etf_code = p.etf_code AND h.as_of_date = p.as_of_date
), prev AS (
    SELECT p.etf_code, p.as_of_date, p.prev_date, h.security_id, h.weight
    FROM pairs p JOIN etf_holdings h
      ON h.etf_code = p.etf_code AND h.as_of_date = p.prev_date
)
SELECT coalesce(c.etf_code, v.etf_code) AS etf_code,
       coalesce(c.security_id, v.security_id) AS security_id,
       coalesce(c.as_of_date, v.as_of_date) AS date,
       coalesce(c.prev_date, v.prev_date) AS prev_date,
       CASE WHEN v.security_id IS NULL THEN 'added'
            WHEN c.security_id IS NULL THEN 'removed'
            WHEN c.weight > v.weight THEN 'increased'
            ELSE 'decreased' END AS change_type,
       v.weight AS old_weight, c.weight AS new_weight
FROM cur c FULL JOIN prev v
  ON c.etf_code = v.etf_code AND c.as_of_date = v.as_of_date AND c.security_id = v.security_id
WHERE v.security_id IS NULL OR c.security_id IS NULL OR c.weight <> v.weight"""

_CHANGES_BY_PAIR_SQL = f"""
SELECT etf_code, security_id, max(date) AS last_date,
       json_agg(json_build_object('date', date, 'prev_date', prev_date,
                                  'change_type', change_type, 'old_weight', old_weight,
                                  'new_weight', new_weight) ORDER BY date) AS changes
FROM ({_CHANGES_SQL}) c
GROUP BY etf_code, security_id
ORDER BY etf_code, security_id"""


def project_tags(ctx: StepContext) -> None:
    upsert(ctx, "SELECT name, description FROM tags ORDER BY name", q.UPSERT_TAGS)


def project_managers(ctx: StepContext) -> None:
    upsert(ctx, "SELECT name, name_en FROM managers ORDER BY name", q.UPSERT_MANAGERS)


def project_stocks(ctx: StepContext) -> None:
    sql = f"""SELECT security_id, code, name, name_en, is_etf, market, sector, country, currency
              FROM stocks WHERE {SCOPE_SIDS.format(col="security_id")} ORDER BY security_id"""
    upsert(ctx, sql, q.UPSERT_STOCKS, params=ctx.options.params(), prune=[q.PRUNE_STOCK_LINKS])


def project_etfs(ctx: StepContext) -> None:
    sql = """SELECT code, name, manager, expense_ratio, benchmark, listed_date, asset_class,
                    region, updated_at
             FROM etfs ORDER BY code"""
    upsert(ctx, sql, q.UPSERT_ETFS, prune=[q.PRUNE_ETF_MANAGER], as_of="updated_at")


def project_etf_tags(ctx: StepContext) -> None:
    """One row per ETF with its whole tag list; progress counts (etf, tag) pairs."""
    rows = fetch_rows(
        ctx.pool,
        """SELECT e.code AS etf_code,
                  coalesce(array_agg(t.tag ORDER BY t.tag) FILTER (WHERE t.tag IS NOT NULL),
                           '{}') AS tags
           FROM etfs e LEFT JOIN etf_tags t ON t.etf_code = e.code
           GROUP BY e.code ORDER BY e.code""",
    )
    size = ctx.options.batch_size
    ctx.progress.rows_fetched = sum(len(r["tags"]) for r in rows)
    ctx.store.write_batch(q.PRUNE_ETF_TAGS, rows, batch_size=size)
    ctx.progress.upserted = ctx.store.write_batch(q.UPSERT_ETF_TAGS, rows, batch_size=size)


def project_holds(ctx: StepContext) -> None:
    params = ctx.options.params(limit=ctx.options.holdings_days)
    upsert_grouped(
        ctx, _HOLDINGS_SQL, q.UPSERT_HOLDS, items="snaps", params=params, as_of="last_date"
    )
    _prune_before(ctx, q.PRUNE_HOLDS_BEFORE, params)


def project_holding_changes(ctx: StepContext) -> None:
    params = ctx.options.params(limit=ctx.options.holdings_days)
    upsert_grouped(
        ctx, _CHANGES_BY_PAIR_SQL, q.UPSERT_HOLDING_CHANGES, items="changes", params=params,
        as_of="last_date",
    )  # fmt: skip
    _prune_before(ctx, q.PRUNE_CHANGES_BEFORE, params)


def _prune_before(ctx: StepContext, statement: str, params: dict[str, Any]) -> None:
    """Drop dated relationships older than the window (the window moves as snapshots arrive).

    An incremental run only adds the new snapshots: the next full projection moves the window.
    """
    if ctx.options.incremental:
        return
    cutoff = min_value(ctx, _WINDOW_CUTOFF_SQL, params)
    if cutoff is not None:
        ctx.store.write(statement, {"cutoff": cutoff})


STEPS: tuple[StepSpec, ...] = (
    StepSpec("etf", "tags", project_tags),
    StepSpec("etf", "managers", project_managers),
    StepSpec("etf", "stocks", project_stocks),
    StepSpec("etf", "etfs", project_etfs),
    StepSpec("etf", "etf_tags", project_etf_tags),
    StepSpec("etf", "holds", project_holds),
    StepSpec("etf", "holding_changes", project_holding_changes),
)
