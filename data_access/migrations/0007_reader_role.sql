-- Least privilege for agent and console SQL (issue 16).
--
-- atlas_reader is a NOLOGIN role that can SELECT the workbench's data tables and nothing else:
-- no run store (conversations, messages, agent_runs, artifacts, eval_*), no import/seed
-- bookkeeping, no membership in pg_read_all_settings / pg_read_all_stats / pg_monitor.
-- `data_access.postgres.run_read_only` runs agent and console SQL as this role (through the
-- embedded server's atlas_agent login, DATABASE_READER_URL, or SET LOCAL ROLE).
--
-- The table list must equal data_access.guards.READER_TABLES (tests/integration/
-- test_reader_role.py compares the role's privileges in the database with it). A later migration that adds a data table
-- grants SELECT on it to atlas_reader and adds it there.
--
-- Roles belong to the whole server. A DATABASE_URL user without CREATEROLE cannot create the
-- role: the migration then leaves it out (NOTICE) and the app warns until DATABASE_READER_URL
-- names a read-only login (see README, "Least privilege").
DO $migration$
DECLARE
    t text;
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'atlas_reader') THEN
        BEGIN
            CREATE ROLE atlas_reader NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION
                NOBYPASSRLS;
        EXCEPTION WHEN insufficient_privilege THEN
            RAISE NOTICE 'atlas_reader not created (% may not create roles); set DATABASE_READER_URL',
                current_user;
            RETURN;
        END;
    END IF;
    EXECUTE format('GRANT USAGE ON SCHEMA %I TO atlas_reader', current_schema());
    FOREACH t IN ARRAY ARRAY[
        -- ETFs and stocks
        'managers', 'tags', 'etfs', 'etf_tags', 'etf_prices', 'etf_holdings',
        'stocks', 'stock_prices', 'stock_fundamentals', 'earnings_events', 'entity_aliases',
        -- macro and real estate
        'macro_series', 'macro_observations',
        're_house_price_index', 're_transactions', 're_unsold_housing', 're_permits',
        're_jeonse_ratio',
        -- news, documents, contract clauses (the Contract screen's articles)
        'news_articles', 'documents', 'events', 'evidence', 'contract_articles',
        -- catalogue
        'datasets', 'projection_runs'
    ] LOOP
        EXECUTE format('GRANT SELECT ON TABLE %I TO atlas_reader', t);
    END LOOP;
    -- The migrating user must be able to SET ROLE atlas_reader (a superuser always can).
    IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
        BEGIN
            EXECUTE format('GRANT atlas_reader TO %I', current_user);
        EXCEPTION WHEN insufficient_privilege OR invalid_grant_operation THEN
            RAISE NOTICE '% cannot be granted atlas_reader; set DATABASE_READER_URL', current_user;
        END;
    END IF;
END
$migration$;
