-- Market reference data and prices: ETFs, stocks, holdings (seed 000), fundamentals (seed 001).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS vector;

-- Asset managers (운용사) and the listed companies behind stocks share one name space.
CREATE TABLE managers (
    name        text PRIMARY KEY,
    name_en     text
);

CREATE TABLE tags (
    name        text PRIMARY KEY,           -- 반도체, 배당, 2차전지, 시장대표, 미국S&P500 ...
    description text
);

CREATE TABLE etfs (
    code          text PRIMARY KEY,         -- KR 6-digit code, e.g. 069500
    name          text NOT NULL,
    manager       text NOT NULL REFERENCES managers(name),
    expense_ratio numeric(6,4) NOT NULL,    -- percent per year, e.g. 0.15
    benchmark     text,
    listed_date   date,
    asset_class   text,                     -- equity | bond | commodity | mixed
    region        text,                     -- KR | US | global
    updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX etfs_name_trgm ON etfs USING gin (name gin_trgm_ops);

CREATE TABLE etf_tags (
    etf_code text REFERENCES etfs(code) ON DELETE CASCADE,
    tag      text REFERENCES tags(name) ON DELETE CASCADE,
    PRIMARY KEY (etf_code, tag)
);

-- Stocks of every country; security_id = '{country}:{native_code}' (KR:005930, US:AAPL).
CREATE TABLE stocks (
    security_id        text PRIMARY KEY,
    country            text NOT NULL,        -- KR | US
    code               text NOT NULL,        -- native code: 6 digits (KR) or ticker (US)
    name               text NOT NULL,        -- Korean name for KR, English for US
    name_en            text,
    market             text NOT NULL,        -- KOSPI | KOSDAQ | NASDAQ | NYSE
    sector             text NOT NULL,
    currency           text NOT NULL,        -- KRW | USD
    shares_outstanding bigint,
    is_etf             boolean NOT NULL DEFAULT false,
    UNIQUE (country, code)
);
CREATE INDEX stocks_code ON stocks (code);
CREATE INDEX stocks_name_trgm ON stocks USING gin (name gin_trgm_ops);

CREATE TABLE etf_prices (
    etf_code    text REFERENCES etfs(code) ON DELETE CASCADE,
    trade_date  date NOT NULL,
    close       numeric(14,2) NOT NULL,
    nav         numeric(14,2),
    volume      bigint NOT NULL,
    market_cap  bigint,                     -- KRW
    net_assets  bigint,                     -- KRW (순자산총액)
    PRIMARY KEY (etf_code, trade_date)
);
CREATE INDEX etf_prices_date ON etf_prices (trade_date);

CREATE TABLE stock_prices (
    security_id text REFERENCES stocks(security_id) ON DELETE CASCADE,
    trade_date  date NOT NULL,
    open        numeric(14,4) NOT NULL,
    high        numeric(14,4) NOT NULL,
    low         numeric(14,4) NOT NULL,
    close       numeric(14,4) NOT NULL,
    volume      bigint NOT NULL,
    change_rate numeric(8,4),               -- percent vs previous close
    PRIMARY KEY (security_id, trade_date)
);
CREATE INDEX stock_prices_date ON stock_prices (trade_date);

-- Daily holdings snapshots; weight in percent of net assets.
CREATE TABLE etf_holdings (
    etf_code    text REFERENCES etfs(code) ON DELETE CASCADE,
    as_of_date  date NOT NULL,
    security_id text REFERENCES stocks(security_id) ON DELETE CASCADE,
    weight      numeric(8,4) NOT NULL,
    shares      bigint NOT NULL,
    PRIMARY KEY (etf_code, as_of_date, security_id)
);
CREATE INDEX etf_holdings_security ON etf_holdings (security_id, as_of_date);
CREATE INDEX etf_holdings_date ON etf_holdings (as_of_date);

-- Valuation snapshots used by the stock report (P/E against the sector median, ...).
CREATE TABLE stock_fundamentals (
    security_id    text REFERENCES stocks(security_id) ON DELETE CASCADE,
    as_of_date     date NOT NULL,
    market_cap     numeric(20,0),           -- in the stock's currency
    eps            numeric(14,4),
    pe             numeric(10,2),
    pb             numeric(10,2),
    dividend_yield numeric(6,3),            -- percent
    PRIMARY KEY (security_id, as_of_date)
);

CREATE TABLE earnings_events (
    event_key    text PRIMARY KEY,          -- '{security_id}:{period}'
    security_id  text REFERENCES stocks(security_id) ON DELETE CASCADE,
    period       text NOT NULL,             -- 2026Q3
    event_date   date NOT NULL,
    status       text NOT NULL,             -- expected | confirmed
    eps_estimate numeric(14,4),
    eps_actual   numeric(14,4),
    revenue_estimate numeric(20,0),
    revenue_actual   numeric(20,0),
    source       text NOT NULL
);
CREATE INDEX earnings_events_date ON earnings_events (event_date);
