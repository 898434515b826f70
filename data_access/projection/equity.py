"""Seed 004 §9.2-4 projection (domain `equity`): issuers, recent daily bars, Top-N universe,
earnings events. Raw price history stays in PostgreSQL; the graph keeps a recent window."""

from __future__ import annotations

from data_access.graph import cypher as q
from data_access.projection.steps import (
    SCOPE_SIDS,
    SCOPE_SINCE,
    StepContext,
    StepSpec,
    fetch_rows,
    upsert,
)
from data_access.universe_ranks import RANKED_MONTHLY

_BAR_WINDOW = f"""
SELECT p.security_id, p.trade_date, p.open, p.high, p.low, p.close, p.volume, p.change_rate,
       row_number() OVER (PARTITION BY p.security_id ORDER BY p.trade_date DESC) AS age
FROM stock_prices p JOIN stocks s USING (security_id)
WHERE NOT s.is_etf AND {SCOPE_SIDS.format(col="p.security_id")}
  AND {SCOPE_SINCE.format(col="p.trade_date")}"""

_BARS_SQL = f"""
SELECT security_id, trade_date, open, high, low, close, volume, change_rate
FROM ({_BAR_WINDOW}) w WHERE age <= %(days)s
ORDER BY security_id, trade_date"""

# Per company, the oldest bar its window keeps (NULL: fewer bars than the window): one index
# probe each, and never narrowed by the scope's `since` (an incremental run prunes as a full one).
_BAR_CUTOFFS_SQL = f"""
SELECT s.security_id,
       (SELECT p.trade_date FROM stock_prices p WHERE p.security_id = s.security_id
        ORDER BY p.trade_date DESC OFFSET %(days)s - 1 LIMIT 1) AS cutoff
FROM stocks s WHERE NOT s.is_etf AND {SCOPE_SIDS.format(col="s.security_id")}
ORDER BY s.security_id"""

# Monthly snapshots ranked by market cap (data_access.universe_ranks), the Top N of each.
_UNIVERSE_SQL = (
    RANKED_MONTHLY
    + """
SELECT security_id, country AS country_code, snapshot_date, rank, market_cap,
       country || '_TOP' || %(size)s::text AS market,
       country || '_TOP' || %(size)s::text || '|' || to_char(snapshot_date, 'YYYY-MM-DD')
           AS snapshot_key
FROM ranked WHERE rank <= %(size)s
ORDER BY snapshot_date, country, rank"""
)


def project_issuers(ctx: StepContext) -> None:
    sql = f"""SELECT security_id, country AS country_code, code AS native_code, code AS symbol,
                     name, name_en
              FROM stocks WHERE NOT is_etf AND {SCOPE_SIDS.format(col="security_id")}
              ORDER BY security_id"""
    upsert(ctx, sql, q.UPSERT_ISSUERS, params=ctx.options.params())


def project_daily_bars(ctx: StepContext) -> None:
    params = ctx.options.params(days=ctx.options.daily_bar_days)
    upsert(ctx, _BARS_SQL, q.UPSERT_DAILY_BARS, params=params, as_of="trade_date")
    cutoffs = fetch_rows(ctx.pool, _BAR_CUTOFFS_SQL, params)
    ctx.store.write_batch(q.PRUNE_DAILY_BARS, cutoffs, batch_size=ctx.options.batch_size)


def project_universe(ctx: StepContext) -> None:
    params = {"size": ctx.options.universe_size}
    upsert(ctx, _UNIVERSE_SQL, q.UPSERT_UNIVERSE, params=params, as_of="snapshot_date")


def project_earnings(ctx: StepContext) -> None:
    sql = """SELECT event_key, security_id, period, event_date, status, eps_estimate,
                    eps_actual, revenue_estimate, revenue_actual, source,
                    CASE WHEN status = 'confirmed' THEN event_date END AS confirmed_date
             FROM earnings_events ORDER BY event_key"""
    # As-of is the latest confirmed report, not the latest expected (future) date.
    upsert(ctx, sql, q.UPSERT_EARNINGS, as_of="confirmed_date")


STEPS: tuple[StepSpec, ...] = (
    StepSpec("equity", "issuers", project_issuers),
    StepSpec("equity", "daily_bars", project_daily_bars),
    StepSpec("equity", "universe", project_universe),
    StepSpec("equity", "earnings", project_earnings),
)
