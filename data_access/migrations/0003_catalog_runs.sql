-- The dataset catalogue, data-load bookkeeping, and the run store every screen writes to.

-- What each dataset is; rows/date range/freshness are computed live from the table.
CREATE TABLE datasets (
    dataset_code   text PRIMARY KEY,      -- KR_ETF_DAILY_PRICE, FEDFUNDS, ...
    table_name     text NOT NULL,
    domain         text NOT NULL,         -- etf | equity | macro | real_estate | news | documents
    date_column    text NOT NULL,
    filter_sql     text,                  -- e.g. series_code = 'FEDFUNDS' (our constants only)
    title_ko       text NOT NULL,
    source         text NOT NULL,         -- demo | csv | yfinance | fred | ...
    max_stale_days int NOT NULL           -- freshness: healthy if latest >= as_of - this
);

CREATE TABLE seed_runs (
    run_id      bigserial PRIMARY KEY,
    scale       text NOT NULL,
    seed        bigint NOT NULL,
    as_of_date  date NOT NULL,
    checksums   jsonb NOT NULL,           -- table -> md5 of its ordered content
    row_counts  jsonb NOT NULL,
    duration_ms int NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE import_runs (
    run_id       bigserial PRIMARY KEY,
    importer     text NOT NULL,           -- csv | yfinance | fred
    source       text NOT NULL,
    dataset_code text,
    rows_read    int NOT NULL,
    rows_loaded  int NOT NULL,
    rows_failed  int NOT NULL,
    status       text NOT NULL,           -- ok | partial | error
    error        text,
    created_at   timestamptz NOT NULL DEFAULT now()
);

-- One row per projection step (seed 004 §9.5: rows_fetched, upserted, failed, latest_as_of, lag).
CREATE TABLE projection_runs (
    run_id        bigserial PRIMARY KEY,
    batch_id      text NOT NULL,          -- groups the steps of one projection
    domain        text NOT NULL,          -- etf | equity | macro | real_estate | documents
    step          text NOT NULL,          -- e.g. etf_nodes, holds, indicator_observations
    graph_backend text NOT NULL,
    rows_fetched  int NOT NULL,
    upserted      int NOT NULL,
    failed        int NOT NULL,
    latest_as_of  date,
    lag_minutes   double precision,
    status        text NOT NULL,          -- ok | partial | error
    error         text,
    started_at    timestamptz NOT NULL,
    finished_at   timestamptz NOT NULL
);
CREATE INDEX projection_runs_batch ON projection_runs (batch_id);

CREATE TABLE conversations (
    conversation_id uuid PRIMARY KEY,
    screen          text NOT NULL,        -- etf | macro | opening | contract | stock | data
    title           text NOT NULL,
    session_key     text,                 -- browser session that owns it
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX conversations_screen ON conversations (screen, updated_at DESC);

CREATE TABLE agent_runs (
    run_id          uuid PRIMARY KEY,
    conversation_id uuid REFERENCES conversations(conversation_id) ON DELETE CASCADE,
    screen          text NOT NULL,
    question        text NOT NULL,
    mode            text NOT NULL,        -- offline | llm
    model           text,
    status          text NOT NULL,        -- ok | error | budget_exceeded | partial
    answer          text,
    error           text,
    as_of_date      date,
    data_freshness  jsonb NOT NULL DEFAULT '{}',
    trace           jsonb NOT NULL DEFAULT '[]',
    citations       jsonb NOT NULL DEFAULT '[]',
    structured_citations jsonb NOT NULL DEFAULT '[]',
    payload         jsonb NOT NULL DEFAULT '{}',   -- screen-specific result (charts data, report ...)
    tokens          int NOT NULL DEFAULT 0,
    cost_usd        double precision NOT NULL DEFAULT 0,
    duration_ms     int NOT NULL DEFAULT 0,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX agent_runs_screen ON agent_runs (screen, created_at DESC);

CREATE TABLE messages (
    message_id      bigserial PRIMARY KEY,
    conversation_id uuid REFERENCES conversations(conversation_id) ON DELETE CASCADE,
    role            text NOT NULL,        -- user | assistant
    content         text NOT NULL,
    run_id          uuid REFERENCES agent_runs(run_id) ON DELETE SET NULL,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX messages_conversation ON messages (conversation_id, message_id);

CREATE TABLE artifacts (
    artifact_id  uuid PRIMARY KEY,
    run_id       uuid REFERENCES agent_runs(run_id) ON DELETE CASCADE,
    kind         text NOT NULL,           -- opening_script | stock_report | contract | export
    name         text NOT NULL,
    content_type text NOT NULL,
    content      text NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now()
);
