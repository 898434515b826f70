"""The one rule of a Top-N universe (seed 004 §4): each country's last fundamentals date of a
month is its snapshot, ranked by market cap in the country's own currency (so ranks compare like
with like). The seed's membership history and the graph projection both read it; the 0017
migration's backfill writes the same query out, as a migration must stand alone."""

RANKED_MONTHLY = """
WITH caps AS (
    SELECT s.country, f.security_id, f.as_of_date, f.market_cap
    FROM stock_fundamentals f JOIN stocks s USING (security_id)
    WHERE NOT s.is_etf AND f.market_cap IS NOT NULL
), snaps AS (
    SELECT country, max(as_of_date) AS snapshot_date
    FROM caps GROUP BY country, date_trunc('month', as_of_date)
), ranked AS (
    SELECT c.country, c.security_id, c.as_of_date AS snapshot_date, c.market_cap,
           row_number() OVER (PARTITION BY c.country, c.as_of_date
                              ORDER BY c.market_cap DESC, c.security_id) AS rank
    FROM caps c JOIN snaps n ON n.country = c.country AND n.snapshot_date = c.as_of_date
)"""
