-- Issue 22: price files as users bring them. A close-only (or adjusted-close-only) series has no
-- open/high/low, an index or a package sample has no volume: those are NULL, never a made-up 0.
-- The bar frequency of each security's series is detected at import and kept with the security
-- (the demo data and earlier imports are daily bars).
ALTER TABLE stock_prices
    ALTER COLUMN open DROP NOT NULL,
    ALTER COLUMN high DROP NOT NULL,
    ALTER COLUMN low DROP NOT NULL,
    ALTER COLUMN volume DROP NOT NULL;

ALTER TABLE stocks
    ADD COLUMN IF NOT EXISTS bar_frequency text NOT NULL DEFAULT 'daily'
        CHECK (bar_frequency IN ('daily', 'weekly', 'monthly', 'quarterly', 'annual'));
