-- Issue 35 (seed 004 §4-1/§4-2, §3.C): the Top-N universe's membership history, dated.
--
-- One row per member of a country's Top-N on one snapshot date (the last fundamentals date of a
-- month, ranked by market cap in the country's currency). Past performance of "the Top50" reads
-- the members as they were on that date (당시 유니버스), not today's: the table keeps every
-- month once written, so history stays even if older fundamentals are pruned. Rebuilt month by
-- month by `data_access.seed.universe_history.refresh_universe_membership` after a seed or an
-- import of fundamentals. No foreign key to `stocks`: the demo seed TRUNCATEs it without CASCADE.
CREATE TABLE IF NOT EXISTS universe_membership (
    universe      text NOT NULL,          -- KR_TOP50 | US_TOP50
    country       text NOT NULL,          -- KR | US
    snapshot_date date NOT NULL,          -- the as-of date of this membership
    security_id   text NOT NULL,
    rank          int NOT NULL,           -- 1 = largest market cap
    market_cap    numeric(20,0),
    PRIMARY KEY (universe, snapshot_date, security_id)
);
CREATE INDEX IF NOT EXISTS universe_membership_security
    ON universe_membership (security_id, snapshot_date);

-- Backfill from the fundamentals already loaded (a fresh database has none: the seed fills it).
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
)
INSERT INTO universe_membership (universe, country, snapshot_date, security_id, rank, market_cap)
SELECT country || '_TOP50', country, snapshot_date, security_id, rank, market_cap
FROM ranked WHERE rank <= 50
ON CONFLICT DO NOTHING;

DO $migration$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'atlas_reader') THEN
        RETURN;  -- 0007 could not create the role
    END IF;
    GRANT SELECT ON TABLE universe_membership TO atlas_reader;
END
$migration$;
