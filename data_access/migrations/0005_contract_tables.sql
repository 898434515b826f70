-- Contract clauses screen (seed 002): uploaded and standard contracts, one row per article
-- (조 > 0, 전문 = 0, 별지N = -N) with its Korean morpheme tokens and its dense vector.
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE IF NOT EXISTS contracts (
    contract_id    text PRIMARY KEY,
    title          text NOT NULL,
    contract_type  text,
    is_standard    boolean NOT NULL DEFAULT false,
    source_name    text NOT NULL,
    source_format  text NOT NULL,
    content_hash   text NOT NULL,
    original_text  text NOT NULL,
    article_count  integer NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS contracts_standard_type ON contracts (contract_type) WHERE is_standard;

CREATE TABLE IF NOT EXISTS contract_articles (
    contract_id     text NOT NULL REFERENCES contracts (contract_id) ON DELETE CASCADE,
    article_no      integer NOT NULL,
    title           text NOT NULL,
    content         jsonb NOT NULL,      -- list of clause lines, markers kept
    clauses         jsonb NOT NULL,      -- [{kind, number, text}]
    body            text NOT NULL,
    tokens          text NOT NULL,       -- kiwipiepy morphemes, space-separated (BM25)
    embedding       vector,              -- per-contract model: dimension varies by contract
    embedding_model text,
    PRIMARY KEY (contract_id, article_no)
);
