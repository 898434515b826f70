"""SQL of the Top-N universe history, market rankings and market series (seed 004 §4, §9.4).

The Top-N universe of a country at a snapshot is the N largest stocks by market cap on the last
fundamentals date of a month, kept as dated membership history in `universe_membership`
(migration 0017, written by `data_access.seed.universe_history`): every query reads the members
as they were on a date, never today's members for a past window (seed 004 §4-2).
Rankings read one trading day of one market ('KOSPI', 'KOSDAQ', 'NASDAQ', 'NYSE' or 'ALL'),
optionally within the Top-N universe of the latest snapshot on or before that day. Each text is
registered as a template in `agents.macro.templates` (guarded, read-only, cited).
"""

from __future__ import annotations

# Snapshot dates of a country's Top-N universe on or before as_of, newest first (the dated
# membership history, migration 0017).
UNIVERSE_SNAPSHOTS = (
    "SELECT DISTINCT snapshot_date FROM universe_membership "
    "WHERE universe = %(country)s || '_TOP50' AND snapshot_date <= %(as_of)s "
    "ORDER BY snapshot_date DESC LIMIT 36"
)

_MEMBERS = (
    "SELECT m.security_id, s.name, m.market_cap, m.rank FROM universe_membership m "
    "JOIN stocks s USING (security_id) WHERE m.universe = %(country)s || '_TOP' || %(size)s::text "
    "AND m.snapshot_date = {day}"
)

# Stocks that entered (편입) or left (편출) the Top-N between two snapshots, with their ranks.
UNIVERSE_CHANGES = (
    "WITH before AS (" + _MEMBERS.format(day="%(from_date)s") + "), "
    "after AS (" + _MEMBERS.format(day="%(to_date)s") + ") "
    "SELECT 'in' AS change, a.security_id, a.name, a.rank::bigint AS rank, NULL::bigint AS old_rank "
    "FROM after a WHERE a.security_id NOT IN (SELECT security_id FROM before) "
    "UNION ALL SELECT 'out', b.security_id, b.name, NULL::bigint, b.rank::bigint FROM before b "
    "WHERE b.security_id NOT IN (SELECT security_id FROM after) ORDER BY 1, 4, 5"
)

# The members of a country's Top-N at the latest snapshot on or before as_of (one as-of date's
# universe snapshot; `agents.macro.universe` caches it per as-of date, seed 004 §3.C).
UNIVERSE_MEMBERS = (
    "SELECT m.snapshot_date, m.security_id, s.name, m.rank, m.market_cap "
    "FROM universe_membership m JOIN stocks s USING (security_id) "
    "WHERE m.universe = %(country)s || '_TOP50' AND m.snapshot_date = "
    "(SELECT max(snapshot_date) FROM universe_membership WHERE universe = %(country)s || '_TOP50' "
    "AND snapshot_date <= %(as_of)s) ORDER BY m.rank"
)

# The data version the snapshot cache is keyed by: a reseed (seed_runs), an import (import_runs)
# or a rewrite of the membership history moves it, so a cached snapshot never outlives its data.
UNIVERSE_DATA_VERSION = (
    "SELECT (SELECT max(run_id) FROM seed_runs) AS seed_run, "
    "(SELECT max(run_id) FROM import_runs) AS import_run, "
    "(SELECT count(*) FROM universe_membership) AS members, "
    "(SELECT max(snapshot_date) FROM universe_membership) AS latest"
)

# Survivorship (seed 004 §4-2): each stock's first close on or after start and last close on or
# before as_of, for the members of the universe as it was and as it is.
UNIVERSE_WINDOW_CLOSES = (
    "SELECT s.security_id, s.name, "
    "(SELECT p.close FROM stock_prices p WHERE p.security_id = s.security_id "
    "AND p.trade_date >= %(start)s AND p.trade_date <= %(as_of)s "
    "ORDER BY p.trade_date LIMIT 1) AS first_close, "
    "(SELECT p.close FROM stock_prices p WHERE p.security_id = s.security_id "
    "AND p.trade_date >= %(start)s AND p.trade_date <= %(as_of)s "
    "ORDER BY p.trade_date DESC LIMIT 1) AS last_close, "
    "(SELECT max(p.trade_date) FROM stock_prices p WHERE p.security_id = s.security_id "
    "AND p.trade_date <= %(as_of)s) AS last_day "
    "FROM stocks s WHERE s.security_id = ANY(%(security_ids)s::text[]) ORDER BY s.security_id"
)

# One stock's membership on every snapshot from the one on or before start to as_of: where its
# in/out flips is a 편입/편출 inside the window.
MEMBER_HISTORY = (
    "WITH c AS (SELECT country FROM stocks WHERE security_id = %(security_id)s), "
    "snaps AS (SELECT DISTINCT snapshot_date FROM universe_membership "
    "WHERE universe = (SELECT country FROM c) || '_TOP50' AND snapshot_date <= %(as_of)s "
    "AND snapshot_date >= coalesce((SELECT max(snapshot_date) FROM universe_membership "
    "WHERE universe = (SELECT country FROM c) || '_TOP50' AND snapshot_date <= %(start)s), "
    "%(start)s)) "
    "SELECT (SELECT country FROM c) AS country, n.snapshot_date, m.rank "
    "FROM snaps n LEFT JOIN universe_membership m ON m.snapshot_date = n.snapshot_date "
    "AND m.universe = (SELECT country FROM c) || '_TOP50' AND m.security_id = %(security_id)s "
    "ORDER BY n.snapshot_date"
)

# One market's stocks on its last trading day on or before as_of, ranked by one measure.
MARKET_RANKING = (
    "WITH day AS (SELECT max(p.trade_date) AS d FROM stock_prices p JOIN stocks s "
    "USING (security_id) WHERE s.country = %(country)s AND NOT s.is_etf "
    "AND p.trade_date <= %(as_of)s), "
    "snap AS (SELECT max(snapshot_date) AS d FROM universe_membership "
    "WHERE universe = %(country)s || '_TOP50' AND snapshot_date <= (SELECT d FROM day)), "
    "universe AS (SELECT security_id FROM universe_membership "
    "WHERE universe = %(country)s || '_TOP50' AND snapshot_date = (SELECT d FROM snap) "
    "AND rank <= %(universe_size)s) "
    "SELECT s.security_id, s.name, s.market, s.currency, p.trade_date, p.close, p.volume, "
    "p.change_rate, p.close * p.volume AS trading_value, "
    "p.close * s.shares_outstanding AS market_cap, "
    "CASE WHEN %(universe_size)s > 0 THEN (SELECT d FROM snap) END AS snapshot_date "
    "FROM stock_prices p JOIN stocks s USING (security_id) "
    "WHERE p.trade_date = (SELECT d FROM day) AND s.country = %(country)s AND NOT s.is_etf "
    "AND (%(market)s = 'ALL' OR s.market = %(market)s) "
    "AND (cardinality(%(sectors)s::text[]) = 0 OR s.sector = ANY(%(sectors)s::text[])) "
    "AND (%(universe_size)s = 0 OR p.security_id IN (SELECT security_id FROM universe)) "
    "ORDER BY (CASE %(measure)s WHEN 'trading_value' THEN p.close * p.volume "
    "WHEN 'market_cap' THEN p.close * s.shares_outstanding WHEN 'volume' THEN p.volume "
    "ELSE p.change_rate END) * (CASE WHEN %(direction)s = 'asc' THEN -1 ELSE 1 END) "
    "DESC NULLS LAST, s.security_id LIMIT %(n)s"
)

# Daily bars of one market series (index level, VIX, BTC, WTI) over a window.
INDEX_WINDOW = (
    "SELECT p.trade_date, p.open, p.close, p.high, p.low, p.change_rate, m.name, m.unit "
    "FROM market_series_prices p JOIN market_series m USING (series_code) "
    "WHERE p.series_code = %(code)s AND p.trade_date >= %(start)s "
    "AND p.trade_date <= %(as_of)s ORDER BY p.trade_date"
)

# One stock's rank in its country's Top-N at the latest snapshot on or before as_of: its member
# rank from the history, else (outside the Top-N) its market-cap rank on that snapshot's date.
UNIVERSE_RANK = (
    "WITH c AS (SELECT country FROM stocks WHERE security_id = %(security_id)s), "
    "snap AS (SELECT max(snapshot_date) AS d FROM universe_membership "
    "WHERE universe = (SELECT country FROM c) || '_TOP50' AND snapshot_date <= %(as_of)s), "
    "ranked AS (SELECT f.security_id, row_number() OVER (ORDER BY f.market_cap DESC, "
    "f.security_id) AS rank FROM stock_fundamentals f JOIN stocks s USING (security_id) "
    "WHERE s.country = (SELECT country FROM c) AND NOT s.is_etf AND f.market_cap IS NOT NULL "
    "AND f.as_of_date = (SELECT d FROM snap)) "
    "SELECT (SELECT country FROM c) AS country, (SELECT d FROM snap) AS snapshot_date, "
    "coalesce((SELECT rank::bigint FROM universe_membership "
    "WHERE universe = (SELECT country FROM c) || '_TOP50' AND snapshot_date = (SELECT d FROM snap) "
    "AND security_id = %(security_id)s), "
    "(SELECT rank FROM ranked WHERE security_id = %(security_id)s)) AS rank"
)
