-- Issue 25: market context series (index levels, VIX, BTC, WTI) as first-class daily OHLCV
-- series under their usual tickers (^KS11, ^GSPC, BTC-USD, CL=F ...). They are not stocks: no
-- issuer, no shares, no sector, so they live beside `stock_prices`, not in it (screeners,
-- universes and market-wide counts over `stocks` stay as they were). Their other names
-- (코스피, 나스닥, 비트코인, 유가 ...) are `entity_aliases` rows of kind 'market'.
CREATE TABLE IF NOT EXISTS market_series (
    series_code text PRIMARY KEY,          -- the Yahoo-style ticker: ^KS11, BTC-USD, CL=F
    name        text NOT NULL,             -- Korean name: 코스피, 비트코인
    name_en     text NOT NULL,
    kind        text NOT NULL CHECK (kind IN ('index', 'volatility', 'crypto', 'commodity')),
    country     text NOT NULL,             -- KR | US | GLOBAL: whose clock dates the bars
    currency    text,                      -- NULL for index points
    unit        text NOT NULL,             -- pt | USD | USD/bbl
    source      text NOT NULL DEFAULT 'demo'
);

CREATE TABLE IF NOT EXISTS market_series_prices (
    series_code text NOT NULL REFERENCES market_series(series_code) ON DELETE CASCADE,
    trade_date  date NOT NULL,
    open        numeric(16,4),
    high        numeric(16,4),
    low         numeric(16,4),
    close       numeric(16,4) NOT NULL,
    volume      bigint,                    -- NULL where the source has none (VIX)
    change_rate numeric(8,4),              -- percent vs previous close
    PRIMARY KEY (series_code, trade_date)
);
CREATE INDEX IF NOT EXISTS market_series_prices_date ON market_series_prices (trade_date);

-- Freshness windows in hours where the seed says so (news: hourly, §3.E). NULL: the day rule
-- of max_stale_days applies.
ALTER TABLE datasets ADD COLUMN IF NOT EXISTS max_stale_hours integer;

DO $migration$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'atlas_reader') THEN
        RETURN;  -- 0007 could not create the role
    END IF;
    GRANT SELECT ON TABLE market_series, market_series_prices TO atlas_reader;
END
$migration$;
