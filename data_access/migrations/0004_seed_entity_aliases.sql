-- Alternative names of stocks and ETFs, filled by the demo seed (data_access.seed) and read by
-- data_access.ids: Korean names of US stocks (애플 -> US:AAPL), former names (삼성엔지니어링 ->
-- KR:028050), English names, and the renamed ETF brands (PLUS -> ARIRANG, RISE -> KBSTAR).
CREATE TABLE entity_aliases (
    kind   text NOT NULL,          -- stock | etf
    alias  text NOT NULL,
    target text NOT NULL,          -- security_id for stocks, the 6-digit code for ETFs
    PRIMARY KEY (kind, alias, target)
);
CREATE INDEX entity_aliases_lower ON entity_aliases (kind, lower(alias));
CREATE INDEX entity_aliases_trgm ON entity_aliases USING gin (alias gin_trgm_ops);
