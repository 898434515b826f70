"""Cypher and SQL text behind the ten ETF tools (seed 000), kept together as named constants.

Graph lookups (names, managers, tags, holdings, changes) run on the GraphStore; prices and
returns run on PostgreSQL. Only openCypher that FalkorDB and Neo4j both accept is used.
Graph dates are ISO 'YYYY-MM-DD' strings, so max()/comparisons work as text.
"""

from __future__ import annotations

from data_access import figures as fig

# ---------------------------------------------------------------- graph (Cypher)

# Exact code/name first, then names starting with the query, then the rest by name (seed order).
ETF_SEARCH = """
MATCH (e:ETF)
WHERE toLower(e.name) CONTAINS toLower($query) OR e.code CONTAINS $query
   OR replace(toLower(e.name), ' ', '') CONTAINS $compact
WITH e, CASE WHEN e.code = $query OR toLower(e.name) = toLower($query) THEN 0
             WHEN toLower(e.name) STARTS WITH toLower($query) THEN 1 ELSE 2 END AS rank
ORDER BY rank, e.name
LIMIT $limit
RETURN e.code AS code, e.name AS name, e.expense_ratio AS expense_ratio"""

STOCK_SEARCH = """
MATCH (s:Stock)
WHERE coalesce(s.is_etf, false) = false
  AND (toLower(s.name) CONTAINS toLower($query) OR toLower(s.code) = toLower($query)
       OR s.code STARTS WITH $query
       OR toLower(coalesce(s.name_en, '')) CONTAINS toLower($query)
       OR replace(toLower(s.name), ' ', '') CONTAINS $compact)
WITH s, CASE WHEN toLower(s.code) = toLower($query) OR toLower(s.name) = toLower($query)
                  OR toLower(coalesce(s.name_en, '')) = toLower($query) THEN 0
             WHEN toLower(s.name) STARTS WITH toLower($query) THEN 1 ELSE 2 END AS rank
ORDER BY rank, s.name
LIMIT $limit
RETURN s.code AS code, s.name AS name"""

LIST_TAGS = """
MATCH (e:ETF)-[:TAGGED]->(t:Tag)
WITH t.name AS name, count(e) AS count
ORDER BY count DESC, name
RETURN name, count"""

ETF_BASIC = """
MATCH (e:ETF {code: $code})
OPTIONAL MATCH (e)-[:MANAGED_BY]->(c:Company)
RETURN e.code AS code, e.name AS name, e.expense_ratio AS expense_ratio, c.name AS company,
       e.benchmark AS benchmark, e.listed_date AS listed_date"""

ETF_TAGS = """
MATCH (:ETF {code: $code})-[:TAGGED]->(t:Tag)
RETURN t.name AS name ORDER BY name"""

ETF_LATEST_HOLDINGS_DATE = """
MATCH (:ETF {code: $code})-[h:HOLDS]->(:Stock)
RETURN max(h.date) AS date"""

ETF_HOLDINGS_DATE_ON_OR_BEFORE = """
MATCH (:ETF {code: $code})-[h:HOLDS]->(:Stock)
WHERE h.date <= $cutoff
RETURN max(h.date) AS date"""

ETF_TOP_HOLDINGS = """
MATCH (:ETF {code: $code})-[h:HOLDS {date: $date}]->(s:Stock)
RETURN s.code AS stock_code, s.name AS stock_name, h.weight AS weight
ORDER BY weight DESC, stock_code
LIMIT $limit"""

ETF_HOLDINGS_ON_DATES = """
MATCH (:ETF {code: $code})-[h:HOLDS]->(s:Stock)
WHERE h.date IN $dates
RETURN h.date AS date, s.code AS stock_code, s.name AS stock_name, h.weight AS weight"""

ETF_CHANGES_ON_DATE = """
MATCH (:ETF {code: $code})-[c:HAS_CHANGE {date: $date}]->(s:Stock)
RETURN s.code AS stock_code, s.name AS stock_name, c.change_type AS change_type,
       c.old_weight AS old_weight, c.new_weight AS new_weight, c.prev_date AS prev_date"""

# Portfolio overlap on the reference ETF's latest snapshot date: for every other ETF with a
# snapshot that day, overlap = number of stocks both hold, similarity = sum over those stocks
# of min(weight_a, weight_b) — the share of the portfolio (in %) the two have in common.
SIMILAR_ETFS = """
MATCH (a:ETF {code: $code})-[ha:HOLDS {date: $date}]->(s:Stock)<-[hb:HOLDS {date: $date}]-(b:ETF)
WHERE b.code <> $code
WITH b, count(s) AS overlap,
     sum(CASE WHEN ha.weight < hb.weight THEN ha.weight ELSE hb.weight END) AS similarity
ORDER BY similarity DESC, overlap DESC, b.code
LIMIT $limit
RETURN b.code AS etf_code, b.name AS name, overlap, similarity"""

# ---------------------------------------------------------------- PostgreSQL

# A price window starts at the period's base bar: the last bar on or before (last - period),
# the definition of data_access.figures, so first and last rows give the period return.
# `{base}` is filled with `figures.base_date_sql("last.d", period)` (see `price_window`).
ETF_PRICES = """
WITH last AS (SELECT max(trade_date) AS d FROM etf_prices WHERE etf_code = %(code)s),
base AS (SELECT coalesce(max(p.trade_date), {base}) AS d
         FROM last LEFT JOIN etf_prices p ON p.etf_code = %(code)s
          AND p.trade_date <= {base} GROUP BY last.d)
SELECT p.trade_date, p.close, p.nav, p.volume, p.market_cap, p.net_assets
FROM etf_prices p, last, base
WHERE p.etf_code = %(code)s AND p.trade_date >= base.d AND p.trade_date <= last.d
ORDER BY p.trade_date DESC"""

STOCK_PRICES = """
WITH last AS (SELECT max(trade_date) AS d FROM stock_prices WHERE security_id = %(security_id)s),
base AS (SELECT coalesce(max(p.trade_date), {base}) AS d
         FROM last LEFT JOIN stock_prices p ON p.security_id = %(security_id)s
          AND p.trade_date <= {base} GROUP BY last.d)
SELECT p.trade_date, p.open, p.high, p.low, p.close, p.volume, p.change_rate
FROM stock_prices p, last, base
WHERE p.security_id = %(security_id)s AND p.trade_date >= base.d AND p.trade_date <= last.d
ORDER BY p.trade_date DESC"""


# The `get_etf_prices` summary of many ETFs at once, aggregated in the database: each ETF's own
# last date and base date, one round trip and one row per ETF (a set of 900 ETFs ranked by a
# 1-year return is one query, not 900). The daily returns are those of figures.daily_returns;
# the trading value is `_etf_summary`'s (the sessions after the base bar).
# Each listed ETF's window: its last date (last_d) and its base date (d), the last bar on or
# before {base} — the same window `get_etf_prices` reads for one ETF. MATERIALIZED: inlined, the
# base date's index look-up ran once for every subquery that reads it (EXPLAIN ANALYZE over 900
# ETFs: 18,903 → 16,202 buffer hits for the ends, 36,210 → 25,406 for the full summaries).
_ETF_WINDOWS = """
WITH last AS (SELECT c.code AS etf_code, l.d FROM unnest(%(codes)s::text[]) AS c(code)
              CROSS JOIN LATERAL (SELECT max(trade_date) AS d FROM etf_prices
                                  WHERE etf_code = c.code) AS l
              WHERE l.d IS NOT NULL),
windows AS MATERIALIZED (SELECT last.etf_code, last.d AS last_d,
                   coalesce((SELECT max(p.trade_date) FROM etf_prices p
                             WHERE p.etf_code = last.etf_code AND p.trade_date <= {base}),
                            {base}) AS d
            FROM last)"""

ETF_PRICE_SUMMARIES = (
    _ETF_WINDOWS
    + """,
base AS (SELECT windows.*, (SELECT min(p.trade_date) FROM etf_prices p
                            WHERE p.etf_code = windows.etf_code AND p.trade_date >= windows.d)
                           AS first_d
         FROM windows)
SELECT base.etf_code, s.*, e.close AS end_close, e.market_cap AS latest_market_cap,
       e.net_assets AS latest_net_assets, e.nav AS latest_nav,
       (SELECT close FROM etf_prices p WHERE p.etf_code = base.etf_code AND p.trade_date >= base.d
        ORDER BY trade_date LIMIT 1) AS start_close,
       (SELECT close FROM etf_prices p WHERE p.etf_code = base.etf_code AND p.trade_date >= base.d
          AND p.trade_date < base.last_d ORDER BY trade_date DESC LIMIT 1) AS previous_close
FROM base JOIN etf_prices e ON e.etf_code = base.etf_code AND e.trade_date = base.last_d
CROSS JOIN LATERAL (
  SELECT count(*) AS data_count, min(trade_date) AS start_date, max(trade_date) AS end_date,
         max(close) AS high, min(close) AS low, sum(volume) AS volume_sum,
         count(volume) AS volume_days, stddev_samp(r) AS return_sd, count(r) AS returns,
         count(close) AS closes, sum(close * volume) FILTER (WHERE traded) AS trading_value,
         count(*) FILTER (WHERE traded) AS trading_sessions,
         min(trade_date) FILTER (WHERE traded) AS trading_from
  FROM (SELECT trade_date, close::float8 AS close, volume,
               close::float8 / nullif(lag(close) OVER (ORDER BY trade_date), 0)::float8 - 1 AS r,
               (trade_date > base.first_d OR base.first_d = base.last_d)
                 AND close > 0 AND volume > 0 AS traded
        FROM etf_prices p WHERE p.etf_code = base.etf_code
         AND p.trade_date >= base.d AND p.trade_date <= base.last_d) AS bars) AS s"""
)


# The ends of each ETF's window only (its base close, the last two closes and the last day's
# size and NAV): index look-ups, no scan of the window — what a ranking by return, close or
# net assets needs. The same base date and last bar as ETF_PRICE_SUMMARIES.
ETF_PRICE_ENDS = (
    _ETF_WINDOWS
    + """,
base AS (SELECT * FROM windows)
SELECT base.etf_code, first.trade_date AS start_date, first.close AS start_close,
       e.trade_date AS end_date, e.close AS end_close, e.nav AS latest_nav,
       e.market_cap AS latest_market_cap, e.net_assets AS latest_net_assets,
       (SELECT close FROM etf_prices p WHERE p.etf_code = base.etf_code AND p.trade_date >= base.d
          AND p.trade_date < base.last_d ORDER BY trade_date DESC LIMIT 1) AS previous_close
FROM base JOIN etf_prices e ON e.etf_code = base.etf_code AND e.trade_date = base.last_d
CROSS JOIN LATERAL (SELECT trade_date, close FROM etf_prices p WHERE p.etf_code = base.etf_code
                    AND p.trade_date >= base.d ORDER BY trade_date LIMIT 1) AS first"""
)


# ETF_PRICE_ENDS plus the window's closing high and low and its volumes: plain aggregates over
# the index range, no day-to-day returns — what a distance from a high or a volume needs.
ETF_PRICE_RANGES = (
    "SELECT ends.*, window_range.* FROM ("
    + ETF_PRICE_ENDS
    + """) AS ends
CROSS JOIN LATERAL (SELECT count(*) AS data_count, max(close) AS high, min(close) AS low,
                           sum(volume) AS volume_sum, count(volume) AS volume_days
                    FROM etf_prices p WHERE p.etf_code = ends.etf_code
                     AND p.trade_date >= ends.start_date AND p.trade_date <= ends.end_date)
                    AS window_range"""
)


# The price data's version for the per-process set summaries (agents.etf.data): a reseed
# writes a seed_runs row and its TRUNCATE gives etf_prices a new file node; the last trade date
# is an index look-up.
ETF_PRICE_VERSION = """
SELECT (SELECT max(run_id) FROM seed_runs) AS seed_run,
       pg_relation_filenode('etf_prices') AS node,
       (SELECT max(trade_date) FROM etf_prices) AS latest"""


# ETFs whose daily returns moved most like one ETF's over a window: Pearson correlation of
# the close-to-close returns on the days both traded (at least 20), highest first.
SIMILAR_RETURNS = """
WITH last AS (SELECT max(trade_date) AS d FROM etf_prices WHERE etf_code = %(code)s),
moves AS (SELECT p.etf_code, p.trade_date,
                 p.close::float8 / nullif(lag(p.close) OVER (PARTITION BY p.etf_code
                                                           ORDER BY p.trade_date), 0)::float8 - 1 AS r
          FROM etf_prices p, last WHERE p.trade_date >= {base} AND p.trade_date <= last.d),
own AS (SELECT trade_date, r FROM moves WHERE etf_code = %(code)s AND r IS NOT NULL)
SELECT m.etf_code, e.name, corr(m.r, own.r) AS correlation, count(*) AS days,
       min(m.trade_date) AS start_date, max(m.trade_date) AS end_date
FROM moves m JOIN own ON own.trade_date = m.trade_date JOIN etfs e ON e.code = m.etf_code
WHERE m.etf_code <> %(code)s AND m.r IS NOT NULL
GROUP BY m.etf_code, e.name HAVING count(*) >= 20
ORDER BY correlation DESC NULLS LAST, m.etf_code LIMIT %(limit)s"""


def price_window(query: str, period: str) -> str:
    """ETF_PRICES, ETF_PRICE_SUMMARIES or STOCK_PRICES for one period of data_access.figures (its base date
    as SQL)."""
    return query.replace("{base}", fig.base_date_sql("last.d", period))


# The closes of an ETF's last `reach` (the longest period asked plus slack): the returns are
# computed from them by data_access.figures, the same definition `get_etf_prices` follows.
ETF_CLOSES = """
WITH last AS (SELECT max(trade_date) AS d FROM etf_prices WHERE etf_code = %(code)s)
SELECT p.trade_date, p.close, p.net_assets FROM etf_prices p, last
WHERE p.etf_code = %(code)s AND p.trade_date <= last.d
  AND p.trade_date >= (last.d - %(reach)s::interval)::date
ORDER BY p.trade_date"""


STOCK_BY_CODE = "SELECT security_id, code, name FROM stocks WHERE code = %s OR security_id = %s"

SUGGEST_ETFS = """
SELECT code, name,
       greatest(similarity(name, %(q)s), similarity(code, %(q)s)) AS score
FROM etfs ORDER BY score DESC, code LIMIT %(limit)s"""

SUGGEST_STOCKS = """
SELECT code, name,
       greatest(similarity(name, %(q)s), similarity(code, %(q)s),
                similarity(coalesce(name_en, ''), %(q)s)) AS score
FROM stocks WHERE NOT is_etf ORDER BY score DESC, code LIMIT %(limit)s"""
