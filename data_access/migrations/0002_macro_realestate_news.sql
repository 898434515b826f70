-- Macro series (FRED-style), Korean real estate, news and the macro document graph (seed 003, 004).

CREATE TABLE macro_series (
    series_code text PRIMARY KEY,           -- FEDFUNDS, KR_BASE_RATE, ...
    name        text NOT NULL,
    name_ko     text NOT NULL,
    country     text NOT NULL,              -- US | KR
    unit        text NOT NULL,              -- percent, index, KRW per USD ...
    frequency   text NOT NULL,              -- daily | monthly
    source      text NOT NULL               -- demo | FRED | BOK | csv:<file>
);

-- One row per observation; a revision replaces the value and sets revision_flag.
CREATE TABLE macro_observations (
    series_code  text REFERENCES macro_series(series_code) ON DELETE CASCADE,
    obs_date     date NOT NULL,
    value        double precision NOT NULL,
    published_at timestamptz NOT NULL,
    as_of_date   date NOT NULL,
    revision_flag boolean NOT NULL DEFAULT false,
    PRIMARY KEY (series_code, obs_date)
);

CREATE TABLE re_house_price_index (
    region      text NOT NULL,              -- 서울, 서울 강남구, 경기, 부산 ...
    month       date NOT NULL,              -- first day of the month
    index_value double precision NOT NULL,  -- 2021-06 = 100
    PRIMARY KEY (region, month)
);

CREATE TABLE re_transactions (
    id           bigserial PRIMARY KEY,
    region       text NOT NULL,
    complex_name text NOT NULL,
    area_m2      numeric(7,2) NOT NULL,
    floor        int,
    price_krw    bigint NOT NULL,           -- 만원 단위가 아닌 원 단위
    deal_date    date NOT NULL
);
CREATE INDEX re_transactions_region_date ON re_transactions (region, deal_date);

CREATE TABLE re_unsold_housing (
    region text NOT NULL, month date NOT NULL, units int NOT NULL,
    PRIMARY KEY (region, month)
);

CREATE TABLE re_permits (
    region text NOT NULL, month date NOT NULL, units int NOT NULL,
    PRIMARY KEY (region, month)
);

CREATE TABLE re_jeonse_ratio (
    region text NOT NULL, month date NOT NULL, ratio double precision NOT NULL,  -- percent
    PRIMARY KEY (region, month)
);

CREATE TABLE news_articles (
    pk           text PRIMARY KEY,
    title        text NOT NULL,
    body         text NOT NULL,
    tickers      text[] NOT NULL DEFAULT '{}',   -- security_ids
    themes       text[] NOT NULL DEFAULT '{}',   -- tag / theme names
    published_at timestamptz NOT NULL,
    source       text NOT NULL,
    url          text NOT NULL,
    lang         text NOT NULL                   -- ko | en
);
CREATE INDEX news_published ON news_articles (published_at);
CREATE INDEX news_tickers ON news_articles USING gin (tickers);

-- Macro documents, events and evidence (seed 004 §9.2-2).
CREATE TABLE documents (
    doc_id       text PRIMARY KEY,
    title        text NOT NULL,
    url          text NOT NULL,
    doc_type     text NOT NULL,           -- report | statement | news
    published_at timestamptz NOT NULL,
    body         text NOT NULL,
    lang         text NOT NULL
);

CREATE TABLE events (
    event_id    text PRIMARY KEY,
    title       text NOT NULL,
    event_type  text NOT NULL,            -- policy | data_release | earnings | geopolitical
    event_date  date NOT NULL,
    theme       text NOT NULL
);

CREATE TABLE evidence (
    evidence_id    text PRIMARY KEY,
    doc_id         text REFERENCES documents(doc_id) ON DELETE CASCADE,
    event_id       text REFERENCES events(event_id) ON DELETE CASCADE,
    text           text NOT NULL,
    indicator_code text REFERENCES macro_series(series_code),
    security_id    text REFERENCES stocks(security_id),
    relation       text NOT NULL          -- SUPPORTS | AFFECTS | MENTIONS
);
